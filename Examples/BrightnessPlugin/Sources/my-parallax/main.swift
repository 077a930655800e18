// A `parallax` executable with the package's plugin bundles built in: the whole CLI, one more
// analyzer (with its own payload, drawn in report.html and recorded in MCAP under its own
// schema) and one more dataset format.
import Brightness
import ParallaxCLI
import PhoneLog

ParallaxCLI.main(plugins: [BrightnessPlugin.self, PhoneLogPlugin.self])
