// A `parallax` executable with the user's analyzer built in: the whole CLI, one more plugin.
import Brightness
import ParallaxCLI

ParallaxCLI.main { registry in
    registry.register(FrameBrightness.self)
}
