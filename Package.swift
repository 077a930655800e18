// swift-tools-version: 6.1
//
// Parallax: offline perception on recorded sensor data.
// Layers (each imports only downward):
//   CLAPACK ← ParallaxMath ← ParallaxGeometry, ParallaxImage ← ParallaxVision (algorithms plugins share) and
//   ParallaxCore (bus, packets) ← plugins / datasets / eval / sim / testing ← Parallax ← parallax (CLI)
import PackageDescription

/// Swift settings shared by every Parallax target: Swift 6 language mode is the default of
/// tools-version 6.1; we add the upcoming features that keep module boundaries honest.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Parallax",
    products: [
        .library(name: "ParallaxMath", targets: ["ParallaxMath"]),
        .library(name: "ParallaxGeometry", targets: ["ParallaxGeometry"]),
        .library(name: "ParallaxCore", targets: ["ParallaxCore"]),
        .library(name: "ParallaxTesting", targets: ["ParallaxTesting"]),
        .library(name: "ParallaxDatasets", targets: ["ParallaxDatasets"]),
        .library(name: "ParallaxVideo", targets: ["ParallaxVideo"]),
        .library(name: "ParallaxFetch", targets: ["ParallaxFetch"]),
        .library(name: "ParallaxResults", targets: ["ParallaxResults"]),
        .library(name: "Diagnostics", targets: ["Diagnostics"]),
        .library(name: "ParallaxEval", targets: ["ParallaxEval"]),
        .library(name: "ParallaxImage", targets: ["ParallaxImage"]),
        .library(name: "ParallaxVision", targets: ["ParallaxVision"]),
        .library(name: "ParallaxInertial", targets: ["ParallaxInertial"]),
        .library(name: "ParallaxTracking", targets: ["ParallaxTracking"]),
        .library(name: "FeatureTracking", targets: ["FeatureTracking"]),
        .library(name: "Triangulation", targets: ["Triangulation"]),
        .library(name: "VisualInertialOdometry", targets: ["VisualInertialOdometry"]),
        .library(name: "ObjectTracking", targets: ["ObjectTracking"]),
        .library(name: "ParallaxFace", targets: ["ParallaxFace"]),
        .library(name: "FaceTracking", targets: ["FaceTracking"]),
        .library(name: "FaceLandmarks", targets: ["FaceLandmarks"]),
        .library(name: "VideoFormats", targets: ["VideoFormats"]),
        .library(name: "ImageTracking", targets: ["ImageTracking"]),
        .library(name: "ParallaxSim", targets: ["ParallaxSim"]),
        .library(name: "Parallax", targets: ["Parallax"]),
        .library(name: "ParallaxCLI", targets: ["ParallaxCLI"]),
        .library(name: "ParallaxFuzzing", targets: ["ParallaxFuzzing"]),
        .executable(name: "parallax", targets: ["parallax"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // System libraries (not API).
        .systemLibrary(
            name: "CLAPACK",
            path: "Sources/CLAPACK",
            providers: [.apt(["liblapacke-dev", "libopenblas-dev"])]
        ),

        .systemLibrary(
            name: "CFFTW",
            path: "Sources/CFFTW",
            providers: [.apt(["libfftw3-dev"])]
        ),

        .systemLibrary(
            name: "CFFmpeg",
            path: "Sources/CFFmpeg",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]
        ),
        .systemLibrary(
            name: "CBZip2",
            path: "Sources/CBZip2",
            providers: [.apt(["libbz2-dev"])]
        ),
        .systemLibrary(
            name: "CZstd",
            path: "Sources/CZstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        .systemLibrary(
            name: "CLZ4",
            path: "Sources/CLZ4",
            providers: [.apt(["liblz4-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CArchive", path: "Sources/CArchive", providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "COpenSSLDigest", path: "Sources/COpenSSLDigest", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(
            name: "CImageCodecs",
            path: "Sources/CImageCodecs",
            providers: [.apt(["libpng-dev", "libturbojpeg0-dev"])]
        ),

        // Math: Matrix + LAPACK wrappers, small geometry, estimation.
        .target(name: "ParallaxMath", dependencies: ["CLAPACK"], swiftSettings: strictSettings),
        .target(
            name: "ParallaxGeometry",
            dependencies: ["ParallaxMath", .product(name: "Yams", package: "Yams")],
            swiftSettings: strictSettings
        ),

        // Images (storage, pyramids, gradients): below Core, which carries them in packets.
        .target(name: "ParallaxImage", dependencies: ["ParallaxMath"], swiftSettings: strictSettings),
        // Vision algorithms several plugins share (detectors, LK, ORB, matching, two-view
        // geometry, triangulation): know no packets.
        .target(name: "ParallaxVision", dependencies: ["CZlib", "ParallaxImage", "ParallaxGeometry", "ParallaxMath"], swiftSettings: strictSettings),
        // Inertial algorithms several plugins share (strapdown propagation with its error
        // covariance, static initialization): know no packets.
        // Correlation-filter tracking (FFTW): what track-object and image tracking share.
        .target(name: "ParallaxTracking", dependencies: ["CFFTW", "ParallaxVision", "ParallaxImage", "ParallaxMath"], swiftSettings: strictSettings),
        .target(name: "ParallaxInertial", dependencies: ["ParallaxGeometry", "ParallaxMath"], swiftSettings: strictSettings),
        // Face algorithms several plugins share (canonical face, head-pose fits, eyes, One-Euro
        // filtering): know no packets.
        .target(name: "ParallaxFace", dependencies: ["ParallaxImage", "ParallaxGeometry", "ParallaxMath"], swiftSettings: strictSettings),

        .target(
            name: "ParallaxCore",
            dependencies: ["ParallaxImage", "ParallaxGeometry", "ParallaxMath", .product(name: "Yams", package: "Yams")],
            swiftSettings: strictSettings
        ),

        .target(name: "ParallaxTesting", dependencies: ["ParallaxCore"], swiftSettings: strictSettings),

        // Analyzer plugins: ordinary targets under Plugins/ (explicit path: SwiftPM reserves
        // Plugins/ for package plugins by default).
        .target(name: "Diagnostics", dependencies: ["ParallaxCore", "ParallaxMath"], path: "Plugins/Diagnostics", swiftSettings: strictSettings),
        .target(name: "FeatureTracking", dependencies: ["ParallaxCore", "ParallaxVision", "ParallaxImage", "ParallaxMath", "ParallaxGeometry"],
                path: "Plugins/FeatureTracking", swiftSettings: strictSettings),
        .target(name: "Triangulation", dependencies: ["ParallaxCore", "ParallaxVision", "ParallaxMath", "ParallaxGeometry"],
                path: "Plugins/Triangulation", swiftSettings: strictSettings),
        .target(name: "VisualInertialOdometry", dependencies: ["ParallaxCore", "ParallaxImage", "ParallaxInertial", "ParallaxVision", "ParallaxMath", "ParallaxGeometry"],
                path: "Plugins/VisualInertialOdometry", swiftSettings: strictSettings),
        .target(name: "ObjectTracking", dependencies: ["ParallaxCore", "ParallaxTracking", "ParallaxImage"],
                path: "Plugins/ObjectTracking", swiftSettings: strictSettings),
        .target(name: "FaceTracking", dependencies: ["ParallaxCore", "ParallaxFace", "ParallaxImage", "ParallaxGeometry", "ParallaxMath"],
                path: "Plugins/FaceTracking", swiftSettings: strictSettings),
        // dlib's HOG face detector and 68-point shape predictor (Debian's libdlib-dev, the model
        // from libdlib-data) behind a small C interface: its own targets, so the core builds
        // without dlib.
        .target(name: "CDlibFace", path: "Sources/CDlibFace",
                linkerSettings: [.linkedLibrary("dlib"), .linkedLibrary("openblas")]),
        .target(name: "FaceLandmarks", dependencies: ["CDlibFace", "ParallaxCore", "ParallaxImage", "ParallaxGeometry", "ParallaxMath"],
                path: "Plugins/FaceLandmarks", swiftSettings: strictSettings),
        .target(name: "ImageTracking", dependencies: ["ParallaxCore", "ParallaxDatasets", "ParallaxVision", "ParallaxImage", "ParallaxGeometry"],
                path: "Plugins/ImageTracking", swiftSettings: strictSettings),
        .target(name: "VideoFormats", dependencies: ["ParallaxCore", "ParallaxImage", "ParallaxGeometry"],
                path: "Plugins/VideoFormats", swiftSettings: strictSettings),
        .target(name: "Depth", dependencies: ["ParallaxCore", "ParallaxVision", "ParallaxImage", "ParallaxMath", "ParallaxGeometry"],
                path: "Plugins/Depth", swiftSettings: strictSettings),

        .target(
            name: "ParallaxDatasets",
            dependencies: ["CImageCodecs", "CZlib", "CBZip2", "CLZ4", "CZstd", "ParallaxCore", "ParallaxFace", "ParallaxImage", "ParallaxGeometry", "ParallaxMath", .product(name: "Yams", package: "Yams")],
            swiftSettings: strictSettings
        ),
        // Evaluations compare a run's outputs with the truth a dataset (or the simulated scene) holds.
        // Video files through FFmpeg: its own target, so the core builds without FFmpeg.
        .target(name: "ParallaxVideo", dependencies: ["CFFmpeg", "ParallaxDatasets", "ParallaxCore", "ParallaxImage", "ParallaxGeometry"], swiftSettings: strictSettings),
        // Public datasets by name: download (libcurl), verify (OpenSSL SHA-256), unpack
        // (libarchive). Its own target, so the core builds without them.
        .target(name: "ParallaxFetch", dependencies: ["CCurl", "CArchive", "COpenSSLDigest", "ParallaxDatasets", .product(name: "Yams", package: "Yams")], swiftSettings: strictSettings),
        // The benchmark results database (SQLite) and the comparison of two recorded runs.
        .target(name: "ParallaxResults", dependencies: ["CSQLite"], swiftSettings: strictSettings),
        .target(name: "ParallaxEval", dependencies: ["ParallaxCore", "ParallaxDatasets", "ParallaxSim", "ParallaxGeometry", "ParallaxMath"], swiftSettings: strictSettings),
        .target(name: "ParallaxSim", dependencies: ["ParallaxCore", "ParallaxFace", "ParallaxGeometry", "ParallaxMath"], swiftSettings: strictSettings),
        .target(
            name: "Parallax",
            dependencies: ["Diagnostics", "FeatureTracking", "Triangulation", "VisualInertialOdometry", "Depth", "ObjectTracking", "ImageTracking", "FaceTracking", "FaceLandmarks", "VideoFormats", "ParallaxFace", "ParallaxTracking", "ParallaxImage", "ParallaxVision", "ParallaxInertial", "ParallaxCore", "ParallaxDatasets", "ParallaxVideo", "ParallaxEval", "ParallaxGeometry", "ParallaxMath", "ParallaxSim"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ParallaxCLI",
            dependencies: ["Parallax", "ParallaxFetch", "ParallaxResults", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSettings
        ),
        .executableTarget(name: "parallax", dependencies: ["ParallaxCLI"], swiftSettings: strictSettings),
        // The fuzz targets (run by the Fuzz/ package under libFuzzer, replayed by the tests).
        .target(name: "ParallaxFuzzing", dependencies: ["Parallax", "ParallaxCLI", "ParallaxFetch"], swiftSettings: strictSettings),

        .testTarget(name: "ParallaxDatasetsTests", dependencies: ["ParallaxDatasets", "ParallaxCore", "ParallaxGeometry", "ParallaxImage", "ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxEvalTests", dependencies: ["ParallaxEval", "ParallaxDatasets", "ParallaxCore", "ParallaxMath", "ParallaxSim", "ParallaxGeometry", "ParallaxImage"], exclude: ["Fixtures"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxFuzzingTests", dependencies: ["ParallaxFuzzing"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxVideoTests", dependencies: ["ParallaxVideo", "ParallaxDatasets", "ParallaxCore", "ParallaxImage", "ParallaxGeometry"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxResultsTests", dependencies: ["ParallaxResults", "CSQLite"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxFetchTests", dependencies: ["ParallaxFetch", "ParallaxDatasets", "ParallaxCLI", "CArchive"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxCLITests", dependencies: ["ParallaxCLI", "Parallax"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxSimTests", dependencies: ["ParallaxSim", "ParallaxFace", "ParallaxDatasets", "ParallaxCore", "ParallaxGeometry", "ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "FeatureTrackingTests", dependencies: ["FeatureTracking", "ParallaxVision", "ParallaxImage", "ParallaxCore", "ParallaxTesting", "ParallaxMath", "ParallaxGeometry", "ParallaxSim", "ParallaxDatasets", "ParallaxEval"], swiftSettings: strictSettings),
        .testTarget(name: "TriangulationTests", dependencies: ["Triangulation", "ParallaxVision", "ParallaxCore", "ParallaxMath", "ParallaxGeometry", "ParallaxTesting"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxTrackingTests", dependencies: ["ParallaxTracking", "ParallaxVision", "ParallaxImage", "ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxVisionTests", dependencies: ["ParallaxVision", "ParallaxImage", "ParallaxGeometry", "ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxImageTests", dependencies: ["ParallaxImage", "ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxCoreTests", dependencies: ["ParallaxCore", "ParallaxTesting", "ParallaxGeometry", "ParallaxImage", "ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "DiagnosticsTests", dependencies: ["Diagnostics", "ParallaxCore", "ParallaxTesting", "ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxInertialTests", dependencies: ["ParallaxInertial", "ParallaxSim", "ParallaxCore", "ParallaxGeometry", "ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "VisualInertialOdometryTests", dependencies: ["Parallax", "ParallaxTesting", "VisualInertialOdometry", "ParallaxVision"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxMathTests", dependencies: ["ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "DepthTests", dependencies: ["Parallax", "ParallaxTesting"], swiftSettings: strictSettings),
        .testTarget(name: "ImageTrackingTests", dependencies: ["Parallax", "ParallaxTesting"], swiftSettings: strictSettings),
        .testTarget(name: "ObjectTrackingTests", dependencies: ["Parallax", "ParallaxTesting"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxFaceTests", dependencies: ["ParallaxFace", "ParallaxImage", "ParallaxGeometry", "ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "VideoFormatsTests", dependencies: ["Parallax", "ParallaxTesting"], swiftSettings: strictSettings),
        .testTarget(name: "FaceLandmarksTests", dependencies: ["Parallax", "ParallaxTesting"], swiftSettings: strictSettings),
        .testTarget(name: "FaceTrackingTests", dependencies: ["Parallax", "ParallaxTesting", "ParallaxCLI"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxGeometryTests", dependencies: ["ParallaxGeometry", "ParallaxMath"], swiftSettings: strictSettings),
    ],
    cxxLanguageStandard: .cxx17
)
