// swift-tools-version: 6.0
//
// StrokeKit: train and run small CNNs for hand-drawn stroke shapes, and the
// recognition pipeline of a finite-automata editor built on them.
//
// Targets are listed bottom to top; imports only point down:
//   CBLAS, CPNG            system libraries (OpenBLAS, libpng)
//   CStrokeKernels         hand-written AVX-512 / AVX2 / plain C kernels, chosen at run time
//   StrokeSupport          seeded generator, atomic file writes, JSON values
//   StrokeTensor           Tensor, GEMM, im2col, the kernel path
//   StrokeImage            GrayImage, PNG, image preparation, Stroke, rasterizer, QuickDraw ndjson
//   StrokeNN               layers, softmax, Network (forward and backward)
//   StrokeModelFile        safetensors reader/writer, metadata
//   StrokeKit              the inference API (what other packages import)
//   StrokeOptimizers       loss and optimizers (training only)
//   StrokeData             folder-per-class datasets, splits, k-fold, augmentation, synthesis
//   StrokeTraining         trainer, recipe, cross-validation, evaluation, logs
//   InkML                  W3C InkML ink files -> strokes (FoundationXML, kept out of StrokeKit)
//   AutomataSketch         strokes -> automaton -> simulation; JFLAP, TikZ and Graphviz out
//   StrokeReport           the evaluation page
//   StrokeExport           ONNX and Core ML export (not linked by StrokeKit)
//   AutomataEditorServer   the browser editor's HTTP server and page (Hummingbird)
//   strokekit              the CLI
//
// No target uses unsafe build flags, so other packages can depend on StrokeKit by version
// (scripts/check-consumer.sh proves it).
import PackageDescription

let package = Package(
    name: "StrokeKit",
    platforms: [.macOS(.v13)],
    products: [
        // MARK: - Public API
        .library(name: "StrokeKit", targets: ["StrokeKit"]),
        .library(name: "InkML", targets: ["InkML"]),
        .library(name: "AutomataSketch", targets: ["AutomataSketch"]),
        .library(name: "StrokeTraining", targets: ["StrokeTraining"]),
        .library(name: "StrokeExport", targets: ["StrokeExport"]),
        .library(name: "AutomataEditorServer", targets: ["AutomataEditorServer"]),
        .executable(name: "strokekit", targets: ["strokekit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", .upToNextMajor(from: "1.5.0")),
        .package(url: "https://github.com/apple/swift-crypto", .upToNextMajor(from: "3.12.3")),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
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
        // Per-function target attributes and CPUID at run time: no build flags.
        .target(name: "CStrokeKernels"),
        .target(name: "StrokeSupport"),
        .target(name: "StrokeTensor", dependencies: ["CBLAS", "CStrokeKernels"]),
        .target(name: "StrokeImage", dependencies: ["CPNG", "StrokeSupport"]),
        .target(name: "StrokeNN", dependencies: ["StrokeTensor", "StrokeSupport", "CStrokeKernels"]),
        .target(
            name: "StrokeModelFile",
            dependencies: ["StrokeSupport", .product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "StrokeKit",
            dependencies: ["StrokeTensor", "StrokeImage", "StrokeNN", "StrokeModelFile"],
            resources: [.copy("Resources")]),
        .target(name: "StrokeOptimizers", dependencies: ["StrokeTensor", "StrokeNN"]),
        .target(
            name: "StrokeData",
            dependencies: [
                "StrokeImage", "StrokeSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .target(
            name: "StrokeTraining",
            dependencies: [
                "StrokeSupport", "StrokeTensor", "StrokeImage", "StrokeNN", "StrokeOptimizers",
                "StrokeModelFile", "StrokeKit", "StrokeData",
            ]),
        .target(name: "InkML", dependencies: ["StrokeImage"]),
        .target(name: "AutomataSketch", dependencies: ["StrokeSupport", "StrokeImage", "StrokeKit", "InkML"]),
        .target(name: "StrokeReport", dependencies: ["StrokeSupport", "StrokeImage", "StrokeData", "StrokeTraining"]),
        .target(
            name: "StrokeExport",
            dependencies: [
                "StrokeSupport", "StrokeImage", "StrokeNN", "StrokeModelFile", "StrokeKit",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]),
        .target(
            name: "AutomataEditorServer",
            dependencies: [
                "AutomataSketch", "StrokeKit", "StrokeImage", "StrokeSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            resources: [.copy("Page")]),
        .executableTarget(
            name: "strokekit",
            dependencies: [
                "StrokeSupport", "StrokeTensor", "StrokeImage", "StrokeNN", "StrokeModelFile", "StrokeKit",
                "StrokeData", "StrokeTraining", "InkML", "AutomataSketch", "StrokeReport", "StrokeExport",
                "AutomataEditorServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // MARK: - Tests
        .target(
            name: "TestSupport",
            dependencies: ["StrokeTensor", "StrokeImage", "CPNG"],
            path: "Tests/TestSupport"),
        .testTarget(name: "StrokeSupportTests", dependencies: ["StrokeSupport", "TestSupport"]),
        .testTarget(name: "StrokeTensorTests", dependencies: ["StrokeTensor", "TestSupport"]),
        .testTarget(
            name: "StrokeImageTests",
            dependencies: ["StrokeImage", "StrokeSupport", "StrokeTensor", "TestSupport", "CPNG"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "StrokeNNTests",
            dependencies: ["StrokeNN", "StrokeOptimizers", "StrokeSupport", "StrokeTensor", "TestSupport"]),
        .testTarget(
            name: "StrokeOptimizersTests",
            dependencies: ["StrokeOptimizers", "StrokeNN", "StrokeSupport", "StrokeTensor", "TestSupport"]),
        .testTarget(
            name: "StrokeModelFileTests",
            dependencies: ["StrokeModelFile", "StrokeSupport", "StrokeTensor", "TestSupport"]),
        .testTarget(
            name: "StrokeDataTests",
            dependencies: ["StrokeData", "StrokeImage", "StrokeSupport", "StrokeTensor", "TestSupport"]),
        .testTarget(
            name: "StrokeTrainingTests",
            dependencies: [
                "StrokeTraining", "StrokeKit", "StrokeData", "StrokeNN", "StrokeOptimizers", "StrokeSupport",
                "StrokeImage", "TestSupport",
            ]),
        .testTarget(
            name: "StrokeKitTests",
            dependencies: ["StrokeKit", "StrokeImage", "StrokeNN", "StrokeSupport", "TestSupport"]),
        .testTarget(name: "InkMLTests", dependencies: ["InkML", "StrokeImage", "TestSupport"]),
        .testTarget(
            name: "AutomataSketchTests",
            dependencies: [
                "AutomataSketch", "StrokeKit", "StrokeImage", "StrokeData", "StrokeSupport", "StrokeTensor",
                "TestSupport",
            ]),
        .testTarget(
            name: "StrokeKitCLITests",
            dependencies: ["strokekit", "StrokeKit", "StrokeTraining", "TestSupport"]),
        .testTarget(
            name: "StrokeReportTests",
            dependencies: ["StrokeReport", "StrokeTraining", "StrokeData", "StrokeKit", "StrokeImage", "TestSupport", "CPNG"]),
        .testTarget(
            name: "StrokeExportTests",
            dependencies: [
                "StrokeExport", "StrokeKit", "StrokeNN", "StrokeModelFile", "StrokeImage", "StrokeSupport", "StrokeTensor",
                "TestSupport",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]),
        .testTarget(
            name: "AutomataEditorServerTests",
            dependencies: [
                "AutomataEditorServer", "StrokeKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]),
    ]
)
