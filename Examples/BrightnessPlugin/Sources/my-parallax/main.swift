// A `parallax` executable with the user's analyzer and dataset format built in: the whole CLI,
// one more plugin, one more format.
import Brightness
import ParallaxCLI
import PhoneLog

ParallaxCLI.main(registering: { registry in
    registry.register(FrameBrightness.self)
}, datasetFormats: { formats in
    formats.register(PhoneLogFormat.self)
})
