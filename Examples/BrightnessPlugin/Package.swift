// swift-tools-version: 6.1
//
// An example of a user's own analyzer package, outside Parallax's sources.
// Build your own `parallax` with it built in:
//   swift run --package-path Examples/BrightnessPlugin my-parallax plugins frame-brightness
//   swift run --package-path Examples/BrightnessPlugin my-parallax run 'frame-brightness' datasets/euroc_v1_01_cut --out out/brightness
import PackageDescription

let package = Package(
    name: "BrightnessPlugin",
    dependencies: [
        // In your own package: .package(url: "https://github.com/…/parallax", from: "0.1.0")
        .package(name: "Parallax", path: "../.."),
    ],
    targets: [
        .target(name: "Brightness", dependencies: [.product(name: "ParallaxCore", package: "Parallax")]),
        .executableTarget(name: "my-parallax", dependencies: [
            "Brightness", .product(name: "ParallaxCLI", package: "Parallax"),
        ]),
    ]
)
