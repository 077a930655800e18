// swift-tools-version: 6.1
//
// Parallax: offline perception on recorded sensor data.
// Layers (each imports only downward):
//   ParallaxFiles (files, safely), ParallaxOptions (@Parameter) ← ParallaxMath ← ParallaxGeometry, ParallaxImage ←
//   ParallaxVision, ParallaxFace, ParallaxInertial, ParallaxTracking (algorithms plugins share, no packets) ←
//   ParallaxVIO (the VIO estimator, no packets);
//   ParallaxBus (runtime, no domain) ← ParallaxPayloads (shared vocabulary) ← ParallaxCodecs ← ParallaxDatasets
//   (sources) ← ParallaxOutputs (writers); plugins (Plugins/*) use what they import; ParallaxPython (python:FILE.py
//   analyzers in worker processes: bus + payloads, no plugin); eval, sim, video, fetch,
//   results ← Parallax (umbrella) ← ParallaxCLI ← parallax
import PackageDescription

/// Swift settings shared by every Parallax target: Swift 6 language mode is the default of
/// tools-version 6.1; we add the upcoming features that keep module boundaries honest.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// The analyzer plugins, one line each: the folder under `Plugins/` and the modules it imports.
/// Each becomes a library product, a target at `Plugins/<name>` (an explicit path: SwiftPM
/// reserves `Plugins/` for package plugins) and a dependency of the umbrella `Parallax`, whose
/// `BuiltinPlugins.all` registers its bundle. Adding a plugin: its folder, a line here, a line there.
let analyzerPlugins: [(name: String, dependencies: [Target.Dependency])] = [
    ("Diagnostics", ["ParallaxBus", "ParallaxPayloads", "ParallaxOutputs", "ParallaxFiles", "ParallaxImage", "ParallaxMath"]),
    ("FeatureTracking", ["ParallaxOptions", "ParallaxBus", "ParallaxPayloads", "ParallaxVision", "ParallaxImage", "ParallaxMath", "ParallaxGeometry"]),
    ("Triangulation", ["ParallaxBus", "ParallaxPayloads", "ParallaxVision", "ParallaxMath", "ParallaxGeometry"]),
    ("VisualInertialOdometry", ["ParallaxBus", "ParallaxPayloads", "ParallaxVIO", "ParallaxVision", "ParallaxMath", "ParallaxGeometry"]),
    ("ObjectTracking", ["ParallaxFiles", "ParallaxBus", "ParallaxPayloads", "ParallaxTracking", "ParallaxImage"]),
    ("FaceTracking", ["ParallaxVision", "ParallaxBus", "ParallaxPayloads", "ParallaxFace", "ParallaxImage", "ParallaxGeometry", "ParallaxMath"]),
    ("FaceLandmarks", ["CDlibFace", "ParallaxBus", "ParallaxPayloads", "ParallaxImage", "ParallaxGeometry", "ParallaxMath"]),
    ("ImageTracking", ["ParallaxBus", "ParallaxPayloads", "ParallaxFiles", "ParallaxCodecs", "ParallaxVision", "ParallaxImage", "ParallaxGeometry", "ParallaxMath"]),
    ("VideoFormats", ["ParallaxBus", "ParallaxPayloads", "ParallaxImage", "ParallaxGeometry"]),
    ("Depth", ["ParallaxFiles", "ParallaxBus", "ParallaxPayloads", "ParallaxVision", "ParallaxImage", "ParallaxMath", "ParallaxGeometry"]),
]

let package = Package(
    name: "Parallax",
    products: [
        .library(name: "ParallaxFiles", targets: ["ParallaxFiles"]),
        .library(name: "ParallaxOptions", targets: ["ParallaxOptions"]),
        .library(name: "ParallaxMath", targets: ["ParallaxMath"]),
        .library(name: "ParallaxGeometry", targets: ["ParallaxGeometry"]),
        .library(name: "ParallaxBus", targets: ["ParallaxBus"]),
        .library(name: "ParallaxPayloads", targets: ["ParallaxPayloads"]),
        .library(name: "ParallaxTesting", targets: ["ParallaxTesting"]),
        .library(name: "ParallaxCodecs", targets: ["ParallaxCodecs"]),
        .library(name: "ParallaxDatasets", targets: ["ParallaxDatasets"]),
        .library(name: "ParallaxOutputs", targets: ["ParallaxOutputs"]),
        .library(name: "ParallaxVideo", targets: ["ParallaxVideo"]),
        .library(name: "ParallaxFetch", targets: ["ParallaxFetch"]),
        .library(name: "ParallaxResults", targets: ["ParallaxResults"]),
        .library(name: "ParallaxPython", targets: ["ParallaxPython"]),
        .library(name: "ParallaxEval", targets: ["ParallaxEval"]),
        .library(name: "ParallaxImage", targets: ["ParallaxImage"]),
        .library(name: "ParallaxVision", targets: ["ParallaxVision"]),
        .library(name: "ParallaxInertial", targets: ["ParallaxInertial"]),
        .library(name: "ParallaxVIO", targets: ["ParallaxVIO"]),
        .library(name: "ParallaxTracking", targets: ["ParallaxTracking"]),
        .library(name: "ParallaxFace", targets: ["ParallaxFace"]),
        .library(name: "ParallaxSim", targets: ["ParallaxSim"]),
        .library(name: "Parallax", targets: ["Parallax"]),
        .library(name: "ParallaxApp", targets: ["ParallaxApp"]),
        .library(name: "ParallaxCLI", targets: ["ParallaxCLI"]),
        .library(name: "ParallaxFuzzing", targets: ["ParallaxFuzzing"]),
        .executable(name: "parallax", targets: ["parallax"]),
    ] + analyzerPlugins.map { .library(name: $0.name, targets: [$0.name]) },
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

        // Files, safely: whole-file reads, YAML text with the places of its problems, bad-input errors,
        // output paths (staging, atomic commit, the ledger of what Parallax wrote, output folders
        // and their locks), the decompression bound.
        .target(name: "ParallaxFiles", dependencies: ["CFileSystem", .product(name: "Yams", package: "Yams")], swiftSettings: strictSettings),
        // The one file-system call Swift's Glibc module does not offer (renameat2's atomic
        // exchange, for OutputFolder's commit). Not API.
        .target(name: "CFileSystem", path: "Sources/CFileSystem"),

        // Options declared once (@Parameter: documentation with unit, range, choices), on an
        // analyzer's options or an algorithm's settings (ParameterGroup), read from `name=value`
        // text and listed for `parallax plugins`. Below the algorithms, so they declare their own.
        .target(name: "ParallaxOptions", dependencies: ["ParallaxFiles", .product(name: "Yams", package: "Yams")], swiftSettings: strictSettings),

        // Math: Matrix + LAPACK wrappers, small geometry, estimation.
        .target(name: "ParallaxMath", dependencies: ["CLAPACK"], swiftSettings: strictSettings),
        .target(
            name: "ParallaxGeometry",
            dependencies: ["ParallaxFiles", "ParallaxMath"],
            swiftSettings: strictSettings
        ),

        // The innermost loops of semi-global matching and the bilateral filter in C, compiled for
        // AVX-512, AVX2 and the portable baseline, chosen at run time; bit-identical results. Not API.
        .target(name: "CKernels", path: "Sources/CKernels"),
        // The inner loops of FAST, ORB, the pyramid's resampling, separable filters and Hamming
        // matching in C (AVX2/POPCNT chosen at run time, a portable path with identical results):
        // not API, called only behind ParallaxImage's and ParallaxVision's Swift types (issue 47).
        .target(name: "CFeatureKernels", path: "Sources/CFeatureKernels"),
        // Images (storage, pyramids, gradients): below Core, which carries them in packets.
        .target(name: "ParallaxImage", dependencies: ["CKernels", "CFeatureKernels", "ParallaxMath"], swiftSettings: strictSettings),
        // Vision algorithms several plugins share (detectors, LK, ORB, matching, two-view
        // geometry, triangulation): know no packets.
        .target(name: "ParallaxVision", dependencies: ["CKernels", "CFeatureKernels", "CZlib", "ParallaxOptions", "ParallaxImage", "ParallaxGeometry", "ParallaxMath"], swiftSettings: strictSettings),
        // Inertial algorithms several plugins share (strapdown propagation with its error
        // covariance, static initialization): know no packets.
        // Correlation-filter tracking (FFTW): what track-object and image tracking share.
        .target(name: "ParallaxTracking", dependencies: ["CFFTW", "ParallaxVision", "ParallaxImage", "ParallaxMath"], swiftSettings: strictSettings),
        .target(name: "ParallaxInertial", dependencies: ["ParallaxGeometry", "ParallaxMath"], swiftSettings: strictSettings),
        // Visual-inertial odometry without the bus (the MSCKF estimator, its initialization, feature
        // updates and world maps): plain inputs and estimates, no packets.
        .target(name: "ParallaxVIO", dependencies: ["ParallaxOptions", "ParallaxVision", "ParallaxInertial", "ParallaxImage", "ParallaxGeometry", "ParallaxMath"], swiftSettings: strictSettings),
        // Face algorithms several plugins share (canonical face, head-pose fits, eyes, One-Euro
        // filtering): know no packets.
        .target(name: "ParallaxFace", dependencies: ["ParallaxVision", "ParallaxImage", "ParallaxGeometry", "ParallaxMath"], swiftSettings: strictSettings),

        // The bus runtime: packets, ports, sync policies, the bus, chains, options, registries. Knows
        // no sensor and no payload: what flows is whatever the plugins declare.
        .target(name: "ParallaxBus", dependencies: ["ParallaxOptions", "ParallaxFiles"], swiftSettings: strictSettings),
        // The shared vocabulary: payloads several plugins read or write (camera frames, IMU samples,
        // depth maps, poses, faces, anchors…) and the sensor descriptions of stream metadata.
        .target(name: "ParallaxPayloads", dependencies: ["ParallaxBus", "ParallaxImage", "ParallaxGeometry", "ParallaxMath", "ParallaxFiles"], swiftSettings: strictSettings),

        .target(name: "ParallaxTesting", dependencies: ["ParallaxBus", "ParallaxPayloads"], swiftSettings: strictSettings),

        // dlib's HOG face detector and 68-point shape predictor (Debian's libdlib-dev, the model
        // from libdlib-data) behind a small C interface: its own targets, so the core builds
        // without dlib.
        .target(name: "CDlibFace", path: "Sources/CDlibFace",
                linkerSettings: [.linkedLibrary("dlib"), .linkedLibrary("openblas")]),

        // Codecs and containers: PNG/JPEG/PNM images, MCAP, ROS 1 bags and ROS messages, MATLAB v5,
        // PLY, delimited text, trajectory, flow, disparity and homography files. Know no dataset.
        .target(
            name: "ParallaxCodecs",
            dependencies: ["CImageCodecs", "CZlib", "CBZip2", "CLZ4", "CZstd", "ParallaxFiles", "ParallaxBus", "ParallaxPayloads", "ParallaxGeometry", "ParallaxMath"],
            swiftSettings: strictSettings
        ),
        // Dataset sources: the format registry and readers (EuRoC, TUM RGB-D, Parallax folders,
        // image folders, stereo pairs, tracking sequences, faces, bags), inspection.
        .target(
            name: "ParallaxDatasets",
            dependencies: ["ParallaxFiles", "ParallaxCodecs", "ParallaxBus", "ParallaxPayloads", "ParallaxFace", "ParallaxImage", "ParallaxGeometry", "ParallaxMath"],
            swiftSettings: strictSettings
        ),
        // Run outputs: stream file writers and their registry, the MCAP recorder for Foxglove,
        // dataset writers (Parallax and EuRoC folders, tracking sequences) for `convert`.
        .target(
            name: "ParallaxOutputs",
            dependencies: ["ParallaxFiles", "ParallaxCodecs", "ParallaxDatasets", "ParallaxBus", "ParallaxPayloads", "ParallaxImage", "ParallaxGeometry", "ParallaxMath"],
            swiftSettings: strictSettings
        ),
        // Evaluations compare a run's outputs with the truth a dataset (or the simulated scene) holds.
        // Video files through FFmpeg: its own target, so the core builds without FFmpeg.
        .target(name: "ParallaxVideo", dependencies: ["CFFmpeg", "ParallaxFiles", "ParallaxDatasets", "ParallaxBus", "ParallaxPayloads", "ParallaxImage", "ParallaxGeometry"], swiftSettings: strictSettings),
        // Public datasets by name: download (libcurl), verify (OpenSSL SHA-256), unpack
        // (libarchive). Its own target, so the core builds without them.
        .target(name: "ParallaxFetch", dependencies: ["CCurl", "CArchive", "COpenSSLDigest", "ParallaxFiles", "ParallaxDatasets", "ParallaxPayloads"], swiftSettings: strictSettings),
        // Analyzers written in Python (`python:FILE.py`): a worker process per analyzer, a versioned
        // protocol over a socket, images through shared memory. Knows the bus and the payloads, no plugin.
        .target(name: "ParallaxPython", dependencies: ["CFileSystem", "ParallaxBus", "ParallaxPayloads", "ParallaxGeometry", "ParallaxImage", "ParallaxMath"], swiftSettings: strictSettings),
        // The benchmark results database (SQLite) and the comparison of two recorded runs.
        .target(name: "ParallaxResults", dependencies: ["CSQLite"], swiftSettings: strictSettings),
        .target(name: "ParallaxEval", dependencies: ["ParallaxFiles", "ParallaxBus", "ParallaxPayloads", "ParallaxCodecs", "ParallaxDatasets", "ParallaxSim", "ParallaxGeometry", "ParallaxMath", "ParallaxImage"], swiftSettings: strictSettings),
        .target(name: "ParallaxSim", dependencies: ["ParallaxVision", "ParallaxFiles", "ParallaxBus", "ParallaxPayloads", "ParallaxFace", "ParallaxGeometry", "ParallaxMath"], swiftSettings: strictSettings),
        .target(
            name: "Parallax",
            dependencies: ["ParallaxFace", "ParallaxTracking", "ParallaxImage", "ParallaxVision", "ParallaxInertial", "ParallaxVIO", "ParallaxBus", "ParallaxPayloads", "ParallaxFiles", "ParallaxCodecs", "ParallaxDatasets", "ParallaxOutputs", "ParallaxVideo", "ParallaxEval", "ParallaxGeometry", "ParallaxMath", "ParallaxSim", "ParallaxPython"] + analyzerPlugins.map { .target(name: $0.name) },
            swiftSettings: strictSettings
        ),
        // The application as a library: runs, the bench, scenarios, the format sweep.
        .target(
            name: "ParallaxApp",
            dependencies: ["Parallax", "ParallaxFiles", "ParallaxFetch", "ParallaxResults", "ParallaxCodecs", "ParallaxDatasets", "ParallaxGeometry", "ParallaxOutputs", "ParallaxVision", "ParallaxPython"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ParallaxCLI",
            dependencies: ["ParallaxApp", "Parallax", "ParallaxFiles", "ParallaxFetch", "ParallaxResults", .product(name: "ArgumentParser", package: "swift-argument-parser"), "ParallaxCodecs", "ParallaxDatasets", "ParallaxGeometry", "ParallaxOutputs", "ParallaxVision"],
            swiftSettings: strictSettings
        ),
        .executableTarget(name: "parallax", dependencies: ["ParallaxCLI"], swiftSettings: strictSettings),
        // The fuzz targets (run by the Fuzz/ package under libFuzzer, replayed by the tests).
        .target(name: "ParallaxFuzzing", dependencies: ["Parallax", "ParallaxApp", "ParallaxCLI", "ParallaxFetch"], swiftSettings: strictSettings),

        // What several test targets share: scratch folders, the repository's fixture paths, an
        // independent MCAP record scanner. Not a product.
        .target(name: "TestSupport", path: "Tests/Support", swiftSettings: strictSettings),
        .target(name: "VisionTestSupport", dependencies: ["TestSupport", "ParallaxCodecs", "ParallaxImage", "ParallaxMath", "ParallaxVision"], path: "Tests/VisionSupport", swiftSettings: strictSettings),
        .testTarget(name: "ParallaxFilesTests", dependencies: ["TestSupport", "ParallaxFiles", "ParallaxBus", "ParallaxCodecs", "ParallaxPayloads"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxCodecsTests", dependencies: ["TestSupport", "ParallaxCodecs", "ParallaxFiles", "ParallaxBus", "ParallaxPayloads", "ParallaxGeometry", "ParallaxMath", "ParallaxDatasets"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxOutputsTests", dependencies: ["TestSupport", "ParallaxOutputs", "ParallaxCodecs", "ParallaxFiles", "ParallaxBus", "ParallaxPayloads", "ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxDatasetsTests", dependencies: ["TestSupport", "ParallaxFiles", "ParallaxCodecs", "ParallaxDatasets", "ParallaxOutputs", "ParallaxBus", "ParallaxPayloads", "ParallaxGeometry", "ParallaxImage", "ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxEvalTests", dependencies: ["TestSupport", "ParallaxEval", "ParallaxCodecs", "ParallaxDatasets", "ParallaxOutputs", "ParallaxBus", "ParallaxPayloads", "ParallaxMath", "ParallaxSim", "ParallaxGeometry", "ParallaxImage"], exclude: ["Fixtures"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxFuzzingTests", dependencies: ["ParallaxFuzzing"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxVideoTests", dependencies: ["TestSupport", "ParallaxVideo", "ParallaxFiles", "ParallaxDatasets", "ParallaxOutputs", "ParallaxBus", "ParallaxPayloads", "ParallaxImage", "ParallaxGeometry"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxResultsTests", dependencies: ["ParallaxResults", "CSQLite"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxFetchTests", dependencies: ["ParallaxFetch", "ParallaxDatasets", "ParallaxCLI", "CArchive", "ParallaxFiles"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxAppTests", dependencies: ["TestSupport", "ParallaxApp", "Parallax", "ParallaxFiles"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxCLITests", dependencies: ["TestSupport", "ParallaxCLI", "ParallaxApp", "Parallax", "ParallaxCodecs", "ParallaxDatasets", "ParallaxFiles", "ParallaxResults", "ParallaxVision"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxSimTests", dependencies: ["TestSupport", "ParallaxSim", "ParallaxFace", "ParallaxCodecs", "ParallaxDatasets", "ParallaxOutputs", "ParallaxBus", "ParallaxPayloads", "ParallaxGeometry", "ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "FeatureTrackingTests", dependencies: ["TestSupport", "VisionTestSupport", "FeatureTracking", "ParallaxVision", "ParallaxImage", "ParallaxBus", "ParallaxPayloads", "ParallaxTesting", "ParallaxMath", "ParallaxGeometry", "ParallaxSim", "ParallaxCodecs", "ParallaxEval"], swiftSettings: strictSettings),
        .testTarget(name: "TriangulationTests", dependencies: ["Triangulation", "ParallaxVision", "ParallaxBus", "ParallaxPayloads", "ParallaxMath", "ParallaxGeometry", "ParallaxTesting"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxTrackingTests", dependencies: ["ParallaxTracking", "ParallaxVision", "ParallaxImage", "ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxVisionTests", dependencies: ["CKernels", "CFeatureKernels", "VisionTestSupport", "TestSupport", "ParallaxCodecs", "ParallaxEval", "ParallaxVision", "ParallaxImage", "ParallaxGeometry", "ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxImageTests", dependencies: ["CFeatureKernels", "CKernels", "ParallaxImage", "ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxBusTests", dependencies: ["ParallaxOptions", "ParallaxBus", "ParallaxPayloads", "ParallaxTesting", "ParallaxGeometry", "ParallaxImage", "ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxPayloadsTests", dependencies: ["ParallaxPayloads", "ParallaxFiles", "ParallaxBus", "ParallaxGeometry", "ParallaxImage", "ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "DiagnosticsTests", dependencies: ["TestSupport", "Diagnostics", "ParallaxBus", "ParallaxPayloads", "ParallaxTesting", "ParallaxMath", "ParallaxOutputs"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxInertialTests", dependencies: ["ParallaxInertial", "ParallaxSim", "ParallaxBus", "ParallaxPayloads", "ParallaxGeometry", "ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxVIOTests", dependencies: ["ParallaxVIO", "ParallaxSim", "ParallaxBus", "ParallaxPayloads", "ParallaxVision", "ParallaxInertial", "ParallaxGeometry", "ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "VisualInertialOdometryTests", dependencies: ["TestSupport", "Parallax", "ParallaxTesting", "VisualInertialOdometry", "ParallaxVIO", "ParallaxVision"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxMathTests", dependencies: ["ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxPythonTests", dependencies: ["TestSupport", "ParallaxPython", "Parallax", "ParallaxApp", "ParallaxBus", "ParallaxPayloads", "ParallaxFiles"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxOptionsTests", dependencies: ["ParallaxOptions"], swiftSettings: strictSettings),
        .testTarget(name: "DepthTests", dependencies: ["TestSupport", "Parallax", "ParallaxTesting"], swiftSettings: strictSettings),
        .testTarget(name: "ImageTrackingTests", dependencies: ["VisionTestSupport", "Parallax", "ParallaxTesting", "ParallaxCodecs", "ParallaxFiles"], swiftSettings: strictSettings),
        .testTarget(name: "ObjectTrackingTests", dependencies: ["Parallax", "ParallaxTesting"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxFaceTests", dependencies: ["ParallaxFace", "ParallaxImage", "ParallaxGeometry", "ParallaxMath"], swiftSettings: strictSettings),
        .testTarget(name: "VideoFormatsTests", dependencies: ["Parallax", "ParallaxTesting"], swiftSettings: strictSettings),
        .testTarget(name: "FaceLandmarksTests", dependencies: ["TestSupport", "Parallax", "ParallaxTesting", "FaceLandmarks"], swiftSettings: strictSettings),
        .testTarget(name: "FaceTrackingTests", dependencies: ["TestSupport", "Parallax", "ParallaxTesting", "ParallaxCLI"], swiftSettings: strictSettings),
        .testTarget(name: "ParallaxGeometryTests", dependencies: ["ParallaxGeometry", "ParallaxMath", "ParallaxFiles"], swiftSettings: strictSettings),
    ] + analyzerPlugins.map { .target(name: $0.name, dependencies: $0.dependencies, path: "Plugins/\($0.name)", swiftSettings: strictSettings) },
    cxxLanguageStandard: .cxx17
)
