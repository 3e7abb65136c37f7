import ArgumentParser
import Foundation
import StrokeData
import StrokeImage
import StrokeSupport

/// `strokekit unipen`: what a UNIPEN tree holds per site and part of the writer split, or its
/// characters as QuickDraw ndjson (for `strokekit montage` contact sheets).
struct UnipenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unipen",
        abstract: "Read a UNIPEN train_r01_v07 tree: characters and writers per site, or characters as ndjson.",
        discussion: """
            Reads data/<category>/<site>/ with includes under include/, each site with its own y axis. \
            Without --out it prints characters and writers per site and part of the fixed writer split. \
            With --out it writes the characters as QuickDraw ndjson ("word" is the label, "key_id" the \
            file and line of its .SEGMENT); with --per-label N, the first N of each label in --labels \
            order, a dot standing for each one the site lacks.
            """)

    @Argument(help: ArgumentHelp("The UNIPEN folder (data/, include/).", valueName: "dir"))
    var root: String

    @Option(help: ArgumentHelp("Read only this site (repeat for several); default: every site not left out.",
                               valueName: "site"))
    var site: [String] = []

    @Option(help: ArgumentHelp("Category folders to read (repeat for several).", valueName: "1a|1b|1c|1d"))
    var category: [String] = UnipenCorpus.categories

    @Option(help: ArgumentHelp("Labels to keep, as one string of characters; default: the label model's classes.",
                               valueName: "chars"))
    var labels: String?

    @Option(help: ArgumentHelp("Only writers of this part of the split (repeat for several).",
                               valueName: "train|validation|test"))
    var part: [UnipenCorpus.Part] = []

    @Option(help: ArgumentHelp("Write the characters to this QuickDraw ndjson file.", valueName: "file.ndjson"))
    var out: String?

    @Option(help: ArgumentHelp("With --out: the first N characters of each label, in --labels order.", valueName: "N"))
    var perLabel: Int?

    @Flag(help: "Print the per-site summary as one JSON object.")
    var json = false

    func validate() throws {
        if let perLabel, perLabel < 1 { throw ValidationError("--per-label must be at least 1") }
        if perLabel != nil && out == nil { throw ValidationError("--per-label needs --out FILE.ndjson") }
    }

    func run() throws {
        let labelList = labels.map { $0.map(String.init) } ?? UnipenCorpus.labelClasses
        var contents = try UnipenCorpus.read(
            root: URL(fileURLWithPath: root), categories: category, sites: site.isEmpty ? nil : Set(site),
            labels: Set(labelList))
        if !part.isEmpty {
            contents.characters = contents.characters.filter { part.contains(UnipenCorpus.part(ofWriter: $0.writer)) }
        }
        if !contents.warnings.isEmpty {
            Terminal.note("\(contents.warnings.count) segment(s) skipped, e.g. \(contents.warnings[0])")
        }
        if let out {
            let drawings = perLabel.map { UnipenCorpus.sample(contents.characters, labels: labelList, perLabel: $0) }
                ?? contents.characters.map { ($0.label, $0.strokes, $0.source) }
            let text = QuickDraw.encode(drawings.map { QuickDrawDrawing(strokes: $0.strokes, word: $0.label, keyID: $0.source) })
            try AtomicFile.write(Array(text.utf8), to: URL(fileURLWithPath: out))
            if !json { print("wrote \(out) (\(drawings.count) drawings)") }
            return
        }
        let summary = UnipenCorpus.summary(contents.characters)
        if json {
            try printJSON(["files": contents.files, "skipped_segments": contents.warnings.count,
                           "sites": summary.map { site in
                               ["site": site.site,
                                "characters": Dictionary(uniqueKeysWithValues: site.characters.map { ($0.rawValue, $1) }),
                                "writers": Dictionary(uniqueKeysWithValues: site.writers.map { ($0.rawValue, $1) })]
                           }])
            return
        }
        print("site   characters (train/validation/test)   writers (train/validation/test)")
        for site in summary {
            let characters = UnipenCorpus.Part.allCases.map { String(site.characters[$0] ?? 0) }.joined(separator: "/")
            let writers = UnipenCorpus.Part.allCases.map { String(site.writers[$0] ?? 0) }.joined(separator: "/")
            print("\(site.site.padding(toLength: 6, withPad: " ", startingAt: 0)) \(characters.padding(toLength: 36, withPad: " ", startingAt: 0)) \(writers)")
        }
        print("\(contents.characters.count) characters from \(contents.files) files; \(contents.warnings.count) segments skipped")
    }
}
