// swift-tools-version: 6.1
//
// libFuzzer targets for every parser a user can feed Parallax. A package of its own because
// the fuzz executable has no `main` (libFuzzer provides it) and only links with
// `--sanitize fuzzer`: `scripts/fuzz [TARGET] [SECONDS]` builds and runs it.
import PackageDescription

let package = Package(
    name: "ParallaxFuzz",
    dependencies: [.package(name: "Parallax", path: "..")],
    targets: [
        .executableTarget(
            name: "parallax-fuzz",
            dependencies: [.product(name: "ParallaxFuzzing", package: "Parallax")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ]
)
