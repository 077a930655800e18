// swift-tools-version: 6.1
//
// An example of a user's own package, outside Parallax's sources: an analyzer
// (frame-brightness) and a dataset format (a phone's sensor log). Build your own `parallax`
// with both built in:
//   swift run --package-path Examples/BrightnessPlugin my-parallax plugins frame-brightness
//   swift run --package-path Examples/BrightnessPlugin my-parallax run 'frame-brightness' datasets/euroc_v1_01_cut --out out/brightness
//   swift run --package-path Examples/BrightnessPlugin my-parallax inspect Examples/BrightnessPlugin/data/phone_log
import PackageDescription

let package = Package(
    name: "BrightnessPlugin",
    dependencies: [
        // In your own package: .package(url: "https://github.com/…/parallax", from: "0.1.0")
        .package(name: "Parallax", path: "../.."),
    ],
    targets: [
        .target(name: "Brightness", dependencies: [
            .product(name: "ParallaxBus", package: "Parallax"), .product(name: "ParallaxPayloads", package: "Parallax"), .product(name: "ParallaxOutputs", package: "Parallax"),
            .product(name: "ParallaxFiles", package: "Parallax"),
            .product(name: "ParallaxImage", package: "Parallax"), .product(name: "ParallaxEval", package: "Parallax"),
        ]),
        .target(name: "PhoneLog", dependencies: [
            .product(name: "ParallaxBus", package: "Parallax"), .product(name: "ParallaxPayloads", package: "Parallax"),
            .product(name: "ParallaxCodecs", package: "Parallax"), .product(name: "ParallaxDatasets", package: "Parallax"),
            .product(name: "ParallaxMath", package: "Parallax"),
        ]),
        .executableTarget(name: "my-parallax", dependencies: [
            "Brightness", "PhoneLog", .product(name: "ParallaxCLI", package: "Parallax"),
        ]),
    ]
)
