// swift-tools-version: 6.0
//
// Coverage-guided fuzzing (libFuzzer) of every StrokeKit reader of outside input, one
// harness per reader. Built and run by scripts/fuzz.sh with
// `-sanitize=fuzzer,address`; seed corpora are in Corpus/<harness>/.
import PackageDescription

let strokeKit = Target.Dependency.product(name: "StrokeKit", package: "StrokeKit")
let strokeTraining = Target.Dependency.product(name: "StrokeTraining", package: "StrokeKit")
let automataSketch = Target.Dependency.product(name: "AutomataSketch", package: "StrokeKit")
let inkML = Target.Dependency.product(name: "InkML", package: "StrokeKit")

let package = Package(
    name: "StrokeKitFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "StrokeKit", path: "..")],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(name: "FuzzPNG", dependencies: ["FuzzDriver", strokeKit]),
        .executableTarget(name: "FuzzModelFile", dependencies: ["FuzzDriver", strokeKit]),
        .executableTarget(name: "FuzzQuickDraw", dependencies: ["FuzzDriver", strokeKit]),
        .executableTarget(name: "FuzzSketch", dependencies: ["FuzzDriver", automataSketch]),
        .executableTarget(name: "FuzzAutomaton", dependencies: ["FuzzDriver", automataSketch]),
        .executableTarget(name: "FuzzArchitecture", dependencies: ["FuzzDriver", strokeKit]),
        .executableTarget(name: "FuzzInkML", dependencies: ["FuzzDriver", inkML]),
        .executableTarget(name: "FuzzJFLAP", dependencies: ["FuzzDriver", automataSketch]),
        // The UNIPEN reader lives in StrokeData, which the StrokeTraining product carries.
        .executableTarget(name: "FuzzUnipen", dependencies: ["FuzzDriver", strokeTraining]),
    ]
)
