// swift-tools-version: 6.1
//
// Parallax speed benchmarks. A separate package so that `swift test` in the root never builds
// them; run in release:  swift run -c release --package-path Benchmarks lapack-benchmarks
import PackageDescription

let package = Package(
    name: "ParallaxBenchmarks",
    dependencies: [.package(name: "Parallax", path: "..")],
    targets: [
        // The raw LAPACKE/CBLAS calls the wrappers are measured against (same Debian libraries).
        .systemLibrary(name: "CLAPACKRaw", path: "Sources/CLAPACKRaw"),
        .executableTarget(
            name: "lapack-benchmarks",
            dependencies: ["CLAPACKRaw", .product(name: "ParallaxMath", package: "Parallax")],
            path: "Sources/LAPACKBenchmarks"
        ),
        .executableTarget(
            name: "bus-benchmarks",
            dependencies: [
                .product(name: "ParallaxBus", package: "Parallax"), .product(name: "ParallaxPayloads", package: "Parallax"),
                .product(name: "Diagnostics", package: "Parallax"),
                .product(name: "ParallaxMath", package: "Parallax"),
            ],
            path: "Sources/BusBenchmarks"
        ),
        .executableTarget(
            name: "dataset-throughput",
            dependencies: [
                .product(name: "ParallaxBus", package: "Parallax"), .product(name: "ParallaxPayloads", package: "Parallax"),
                .product(name: "Diagnostics", package: "Parallax"),
                .product(name: "Parallax", package: "Parallax"),
            ],
            path: "Sources/DatasetThroughput"
        ),
        .executableTarget(
            name: "klt-benchmark",
            dependencies: [
                .product(name: "FeatureTracking", package: "Parallax"),
                .product(name: "Parallax", package: "Parallax"),
            ],
            path: "Sources/KLTBenchmark"
        ),
        .executableTarget(
            name: "face-benchmark",
            dependencies: [.product(name: "Parallax", package: "Parallax"), .product(name: "ParallaxTesting", package: "Parallax")],
            path: "Sources/FaceBenchmark"
        ),
        .executableTarget(
            name: "video-benchmark",
            dependencies: [.product(name: "Parallax", package: "Parallax")],
            path: "Sources/VideoBenchmark"
        ),
        .executableTarget(
            name: "stereo-benchmark",
            dependencies: [.product(name: "Parallax", package: "Parallax")],
            path: "Sources/StereoBenchmark"
        ),
        .executableTarget(
            name: "bilateral-benchmark",
            dependencies: [.product(name: "Parallax", package: "Parallax")],
            path: "Sources/BilateralBenchmark"
        ),
        .executableTarget(
            name: "orb-benchmark",
            dependencies: [
                .product(name: "ParallaxBus", package: "Parallax"), .product(name: "ParallaxCodecs", package: "Parallax"),
                .product(name: "ParallaxImage", package: "Parallax"), .product(name: "ParallaxMath", package: "Parallax"),
                .product(name: "ParallaxVision", package: "Parallax"),
            ],
            path: "Sources/ORBBenchmark"
        ),
    ]
)
