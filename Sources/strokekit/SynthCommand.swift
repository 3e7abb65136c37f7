import ArgumentParser
import Foundation
import StrokeImage
import StrokeModelFile
import StrokeTraining
import StrokeSupport

/// `strokekit synth`: human-like synthetic drawings as a QuickDraw ndjson file.
struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Write synthetic stroke drawings (arrows, circles, self-loop cycles, non-shapes) as ndjson.",
        discussion: """
            Each line is {"word": KIND, "key_id": "synth-SEED-KIND-N", "drawing": [[xs, ys, ts]]}; \
            non-shapes have word "none" and a "kind" key naming the figure (letterS, spiral, ...). \
            Arrows include bare lines. The same seed gives the same file.
            """)

    @Option(help: ArgumentHelp("ndjson file to write (atomically).", valueName: "file.ndjson"))
    var out: String

    @Option(help: ArgumentHelp("Drawings per kind.", valueName: "N"))
    var count = 100

    @Option(help: ArgumentHelp("Comma-separated kinds: arrow, circle, cycle, none (non-shapes).",
                               valueName: "kinds"))
    var kinds = "arrow,circle,cycle"

    @Option(help: "Seed of the generator.")
    var seed: UInt64 = 0

    var kindList: [String] {
        kinds.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func validate() throws {
        guard count >= 0 else { throw ValidationError("--count must be zero or positive, got \(count)") }
        guard !kindList.isEmpty else { throw ValidationError("--kinds lists no kind") }
        for kind in kindList where !StrokeExamples.synthesizableKinds.contains(kind) {
            throw ValidationError("--kinds: \(StrokeExamplesError.unknownKind(kind))")
        }
    }

    func run() throws {
        let drawings = try StrokeExamples.synthesize(kinds: kindList, count: count, seed: seed)
        try AtomicFile.write(Data(QuickDraw.encode(drawings).utf8), to: URL(fileURLWithPath: out))
        print("wrote \(drawings.count) drawings (\(kindList.joined(separator: ", ")), \(count) each) to \(out)")
    }
}
