// The stock `parallax` executable: the CLI with the built-in analyzers.
import ParallaxCLI

ParallaxCLI.main()
