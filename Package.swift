// swift-tools-version: 6.0
//
// StrokeKit: train and run small CNNs for hand-drawn stroke shapes, and the
// recognition pipeline of a finite-automata editor built on them.
//
// Targets are listed bottom to top; imports only point down:
//   CBLAS, CPNG            system libraries (OpenBLAS, libpng)
//   StrokeTensor           Tensor, GEMM, im2col
//   StrokeImage            GrayImage, PNG, Stroke, rasterizer, QuickDraw ndjson
//   StrokeNN               layers, loss, optimizers, Network
//   StrokeModelFile        safetensors reader/writer, metadata, atomic writes
//   StrokeKit              the inference API (what other packages import)
//   StrokeData             folder-per-class datasets, splits, k-fold, augmentation, synthesis
//   StrokeTraining         trainer, evaluation, logs
//   AutomataSketch         strokes -> automaton -> simulation
//   StrokeReport           the evaluation page
//   StrokeExport           ONNX and Core ML export (not linked by StrokeKit)
//   strokekit              the CLI
import PackageDescription

/// Numeric kernels are optimised even in debug builds: an unoptimised Swift
/// inner loop is ~50x slower and would make gradient and training tests crawl.
let optimizedInDebug: [SwiftSetting] = [
    .unsafeFlags(["-O"], .when(configuration: .debug)),
]

let package = Package(
    name: "StrokeKit",
    platforms: [.macOS(.v13)],
    products: [
        // MARK: - Public API
        .library(name: "StrokeKit", targets: ["StrokeKit"]),
        .library(name: "AutomataSketch", targets: ["AutomataSketch"]),
        .library(name: "StrokeTraining", targets: ["StrokeTraining"]),
        .library(name: "StrokeExport", targets: ["StrokeExport"]),
        .executable(name: "strokekit", targets: ["strokekit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", .upToNextMajor(from: "1.5.0")),
        .package(url: "https://github.com/apple/swift-crypto", .upToNextMajor(from: "3.12.3")),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    ],
    targets: [
        // MARK: - System libraries
        .systemLibrary(
            name: "CBLAS", pkgConfig: "openblas",
            providers: [.apt(["libopenblas-dev"]), .brew(["openblas"])]),
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),

        // MARK: - Implementation, bottom to top
        .target(name: "StrokeTensor", dependencies: ["CBLAS"], swiftSettings: optimizedInDebug),
        .target(name: "StrokeImage", dependencies: ["CPNG"], swiftSettings: optimizedInDebug),
        .target(name: "StrokeNN", dependencies: ["StrokeTensor"], swiftSettings: optimizedInDebug),
        .target(
            name: "StrokeModelFile",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "StrokeKit",
            dependencies: ["StrokeTensor", "StrokeImage", "StrokeNN", "StrokeModelFile"],
            resources: [.copy("Resources")],
            swiftSettings: optimizedInDebug),
        .target(
            name: "StrokeData",
            dependencies: [
                "StrokeTensor", "StrokeImage",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: optimizedInDebug),
        .target(
            name: "StrokeTraining",
            dependencies: ["StrokeTensor", "StrokeNN", "StrokeModelFile", "StrokeKit", "StrokeData"],
            swiftSettings: optimizedInDebug),
        .target(name: "AutomataSketch", dependencies: ["StrokeImage", "StrokeKit"]),
        .target(name: "StrokeReport", dependencies: ["StrokeImage", "StrokeKit", "StrokeTraining"]),
        .target(
            name: "StrokeExport",
            dependencies: [
                "StrokeImage", "StrokeNN", "StrokeModelFile", "StrokeKit",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]),
        .executableTarget(
            name: "strokekit",
            dependencies: [
                "StrokeTensor", "StrokeImage", "StrokeNN", "StrokeModelFile", "StrokeKit",
                "StrokeData", "StrokeTraining", "AutomataSketch", "StrokeReport", "StrokeExport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: optimizedInDebug),

        // MARK: - Tests
        .target(
            name: "TestSupport",
            dependencies: ["StrokeTensor", "StrokeImage", "CPNG"],
            path: "Tests/TestSupport"),
        .testTarget(name: "StrokeTensorTests", dependencies: ["StrokeTensor", "TestSupport"]),
        .testTarget(
            name: "StrokeImageTests", dependencies: ["StrokeImage", "StrokeTensor", "TestSupport", "CPNG"], exclude: ["Fixtures"]),
        .testTarget(
            name: "StrokeNNTests", dependencies: ["StrokeNN", "StrokeTensor", "TestSupport"],
            swiftSettings: optimizedInDebug),
        .testTarget(name: "StrokeModelFileTests", dependencies: ["StrokeModelFile", "StrokeTensor", "TestSupport"]),
        .testTarget(
            name: "StrokeDataTests", dependencies: ["StrokeData", "StrokeImage", "StrokeTensor", "TestSupport"]),
        .testTarget(
            name: "StrokeTrainingTests",
            dependencies: ["StrokeTraining", "StrokeKit", "StrokeData", "StrokeNN", "TestSupport"],
            swiftSettings: optimizedInDebug),
        .testTarget(
            name: "StrokeKitTests", dependencies: ["StrokeKit", "StrokeImage", "TestSupport"],
            swiftSettings: optimizedInDebug),
        .testTarget(
            name: "AutomataSketchTests",
            dependencies: ["AutomataSketch", "StrokeKit", "StrokeImage", "StrokeData", "StrokeTensor", "TestSupport"]),
        .testTarget(
            name: "StrokeReportTests",
            dependencies: ["StrokeReport", "StrokeTraining", "StrokeKit", "StrokeImage", "TestSupport", "CPNG"]),
        .testTarget(
            name: "StrokeExportTests",
            dependencies: [
                "StrokeExport", "StrokeKit", "StrokeNN", "StrokeModelFile", "StrokeImage", "StrokeTensor", "TestSupport",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]),
    ]
)
