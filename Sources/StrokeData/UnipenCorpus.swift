import Crypto
import Foundation
import StrokeImage

/// One isolated character of the UNIPEN corpus, with who wrote it where.
public struct UnipenCharacter: Sendable, Equatable {
    public var label: String
    /// Pen-down strokes in millimetres (device units where a site gives no resolution), y down.
    public var strokes: [Stroke]
    /// The UNIPEN category folder: `1a` digits, `1b` uppercase, `1c` lowercase, `1d` symbols.
    public var category: String
    /// The contributing site (`apa`, `ibm`, ...).
    public var site: String
    /// The writer, unique across sites: `site/WRITER_ID` (or `site/<pen data file>` where the
    /// data names no writer).
    public var writer: String
    /// `data/<category>/<site>/<file>:<line>` of its `.SEGMENT`.
    public var source: String

    public init(label: String, strokes: [Stroke], category: String, site: String, writer: String, source: String) {
        self.label = label
        self.strokes = strokes
        self.category = category
        self.site = site
        self.writer = writer
        self.source = source
    }
}

/// The UNIPEN `train_r01_v07` tree (`data/1a`...`data/1d`, `include/`) read as characters,
/// with what each site needs (its y axis) and which sites are left out, and the project's
/// fixed writer-independent split.
public enum UnipenCorpus {
    /// The corpus and its citation, for the metadata of a model trained on it (CC BY 4.0
    /// asks for attribution).
    public static let citation = "UNIPEN train_r01_v07 (The International Unipen Foundation, 1999; Zenodo "
        + "doi:10.5281/zenodo.1195803): I. Guyon, L. Schomaker, R. Plamondon, M. Liberman and S. Janet, "
        + "\"UNIPEN project of on-line data exchange and recognizer benchmarks\", Proc. 12th ICPR, 1994, "
        + "pp. 29-33, doi:10.1109/ICPR.1994.576870"
    /// The corpus's licence.
    public static let license = "CC BY 4.0"

    /// Isolated digits, uppercase letters, lowercase letters, symbols.
    public static let categories = ["1a", "1b", "1c", "1d"]

    /// Sites whose y axis points down; every other site counts y upwards. The contact sheet
    /// of every site (docs/unipen/<site>.png, scripts/unipen-contact-sheets.sh) shows all 21
    /// sites of 1a-1d upright with y up, so this is empty; a site found otherwise goes here.
    public static let yDownSites: Set<String> = []

    /// Sites left out, and why. With pen-up trajectories counted as components (cea, ceb,
    /// pri, tos), every site's strokes match its labels on its contact sheet, so none is; a
    /// site found otherwise goes here with the reason, and docs/label-model.md says so.
    public static let excludedSites: [String: String] = [:]

    /// The label model's classes: digits, lowercase, uppercase, and the separators people
    /// write in automaton labels (`0,1`, `0+1`, `0.1`, `{q1,f}`).
    public static let labelClasses: [String] =
        (0...9).map(String.init) + (UInt8(ascii: "a")...UInt8(ascii: "z")).map { String(UnicodeScalar($0)) }
        + (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) } + [",", "+", ".", "{", "}"]

    /// Which way `site`'s y axis points.
    public static func verticalAxis(ofSite site: String) -> Unipen.VerticalAxis {
        yDownSites.contains(site) ? .down : .up
    }

    /// What `read` returns: the characters, in file order, and one line per thing set aside.
    public struct Contents: Sendable {
        public var characters: [UnipenCharacter]
        public var warnings: [String]
        /// Data files read.
        public var files: Int
    }

    /// Reads `root/data/<category>/<site>/**` with includes under `root/include/`.
    ///
    /// - Parameters:
    ///   - categories: category folders to read.
    ///   - sites: only these sites (nil: every site not in `excludedSites`).
    ///   - labels: keep only segments with these labels (nil: all).
    /// Segments that are empty or do not fit their file's components are skipped with a
    /// warning; a file that cannot be read at all throws `UnipenError` naming it. A missing
    /// category folder is skipped (a partial copy); a root without `data/` throws.
    public static func read(
        root: URL, categories: [String] = categories, sites: Set<String>? = nil, labels: Set<String>? = nil,
        limits: Unipen.Limits = Unipen.Limits(), progress: (Int, Int) -> Void = { _, _ in }
    ) throws -> Contents {
        let data = root.appendingPathComponent("data"), include = root.appendingPathComponent("include")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: data.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UnipenError.unreadable(file: root.path, reason: "no data/ folder; hint: pass the UNIPEN train_r01_v07 "
                                         + "folder that holds data/ and include/")
        }
        var files: [(category: String, site: String, relative: String)] = []
        for category in categories {
            let categoryFolder = data.appendingPathComponent(category)
            guard isFolder(categoryFolder) else { continue }   // a partial copy may lack a category
            for site in try listing(categoryFolder) where isFolder(categoryFolder.appendingPathComponent(site)) {
                if let sites { guard sites.contains(site) else { continue } } else if excludedSites[site] != nil { continue }
                for file in try filesBelow(categoryFolder.appendingPathComponent(site)) {
                    files.append((category, site, file))
                }
            }
        }
        var contents = Contents(characters: [], warnings: [], files: files.count)
        for (index, file) in files.enumerated() {
            progress(index, files.count)
            let name = "data/\(file.category)/\(file.site)/\(file.relative)"
            let document = try Unipen.read(
                contentsOf: root.appendingPathComponent(name), name: name, includeRoot: include,
                verticalAxis: verticalAxis(ofSite: file.site), limits: limits, skipBadSegments: true)
            contents.warnings += document.warnings
            for segment in document.segments where segment.kind == "CHARACTER" {
                if let labels, !labels.contains(segment.label) { continue }
                let writer = segment.writer.map { "\(file.site)/\($0)" } ?? "\(file.site)/\(file.relative)"
                contents.characters.append(UnipenCharacter(
                    label: segment.label, strokes: segment.strokes, category: file.category, site: file.site,
                    writer: writer, source: "\(name):\(segment.line)"))
            }
        }
        progress(files.count, files.count)
        return contents
    }

    // MARK: - The writer-independent split

    /// The part of the corpus a writer's characters belong to.
    public enum Part: String, Sendable, CaseIterable {
        /// 70% of the writers: what the shipped model learns from.
        case train
        /// 10%: for choosing a recipe (design, epochs) without touching the test writers.
        case validation
        /// 20%: held out; the figures reported for the shipped model.
        case test
    }

    /// The fixed split: the first byte of SHA-256 of the writer key (`site/WRITER_ID`, UTF-8),
    /// modulo 10: 0-1 test, 2 validation, 3-9 train. It depends on nothing but the writer,
    /// so it never changes with the files read, the order, or a seed.
    public static func part(ofWriter writer: String) -> Part {
        let bucket = Int(Array(SHA256.hash(data: Array(writer.utf8)))[0]) % 10
        return bucket < 2 ? .test : bucket == 2 ? .validation : .train
    }

    // MARK: - Images

    /// The label model's dataset: the characters of `labelClasses` written by the writers of
    /// `parts`, read from the tree at `root` and rasterized with `framing`; with `read`'s warnings.
    public static func labelDataset(
        root: URL, parts: Set<Part>, classes: [String] = labelClasses, framing: InputFraming = .aspectFit,
        alsoAlone: Bool = false, neverAlone: Set<String> = [], repeats: [String: Int] = [:],
        progress: (Int, Int) -> Void = { _, _ in }
    ) throws -> (dataset: LabeledImageDataset, warnings: [String]) {
        let contents = try read(root: root, labels: Set(classes), progress: progress)
        return (dataset(contents.characters, classes: classes, parts: parts, framing: framing, alsoAlone: alsoAlone,
                        neverAlone: neverAlone, repeats: repeats),
                contents.warnings)
    }

    /// The characters of `parts` whose label is one of `classes`, rasterized as the classifier
    /// sees strokes, as a dataset with those classes (in that order). With a reference-height
    /// `framing`, each character is framed by its writer's height (`writerHeights`), as a
    /// character in a label is by its line's; with `alsoAlone` (for training), each is there
    /// a second time alone (no frame: aspect-fit, `url` ending in `#alone`), as a character
    /// that is a whole label is read, except the classes of `neverAlone` (the separators: never
    /// a label of their own, always read within their label's line). A class in `repeats` is there that many times over
    /// (`url` ending in `#2`, `#3`, ...; training augments each copy differently): the rare
    /// separators, a few hundred characters against a letter's thousand.
    public static func dataset(
        _ characters: [UnipenCharacter], classes: [String], parts: Set<Part>, rasterizer: Rasterizer = Rasterizer(),
        framing: InputFraming = .aspectFit, alsoAlone: Bool = false, neverAlone: Set<String> = [],
        repeats: [String: Int] = [:]
    ) -> LabeledImageDataset {
        let classIndex = Dictionary(classes.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let framed = framing != .aspectFit
        let heights = framed ? writerHeights(characters) : [:]
        var samples: [LabeledImageDataset.Sample] = []
        for character in characters {
            guard let label = classIndex[character.label], parts.contains(part(ofWriter: character.writer)) else { continue }
            let frame = heights[character.writer].map { CharacterFrame(height: $0) }
            let image = rasterizer.rasterize(character.strokes, framing: framing, frame: frame)
            let alone = framed && alsoAlone && !neverAlone.contains(character.label) ? rasterizer.rasterize(character.strokes, framing: framing, frame: nil) : nil
            for copy in 1...max(1, repeats[character.label] ?? 1) {
                let suffix = copy == 1 ? "" : "#\(copy)"
                samples.append(LabeledImageDataset.Sample(
                    url: URL(fileURLWithPath: "/" + character.source + suffix), classIndex: label, image: image))
                if let alone {
                    samples.append(LabeledImageDataset.Sample(
                        url: URL(fileURLWithPath: "/" + character.source + "#alone" + suffix), classIndex: label,
                        image: alone))
                }
            }
        }
        return LabeledImageDataset(classes: classes, samples: samples)
    }

    // MARK: - The writer's frame

    /// Classes as tall as a line of writing: digits, capitals, and lowercase letters with an ascender.
    public static let fullHeightClasses: Set<String> = Set(
        (0...9).map(String.init) + (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
        + ["b", "d", "f", "h", "k", "l"])

    /// Each writer's reference height, the frame their characters are drawn in (UNIPEN's
    /// characters are isolated: the writer stands in for the line). It is the height of the
    /// writer's full-height characters (digits, capitals, `b d f h k l`), estimated from all of
    /// their characters so that a writer of only lowercase letters or only symbols gets one
    /// too: the median over the writer's characters of height / the class's typical height.
    /// A class's typical height is the median, over the training writers with at least three
    /// full-height characters, of its characters' heights divided by that writer's median
    /// full-height character height (so `.` is about 0.1, `a` about 0.6, `A` 1). It uses the
    /// labels only through these medians, as a reader knows a line's height without knowing
    /// which character it is reading.
    public static func writerHeights(_ characters: [UnipenCharacter]) -> [String: Double] {
        func median(_ values: [Double]) -> Double? {
            guard !values.isEmpty else { return nil }
            let sorted = values.sorted()
            let middle = sorted.count / 2
            return sorted.count % 2 == 1 ? sorted[middle] : sorted[middle - 1] / 2 + sorted[middle] / 2
        }
        let heights: [Double?] = characters.map { character in
            CharacterFrame.box(of: character.strokes).map { $0.maxY - $0.minY }
        }
        var fullHeights: [String: [Double]] = [:]
        for (character, height) in zip(characters, heights) where fullHeightClasses.contains(character.label) {
            if let height, height > 0 { fullHeights[character.writer, default: []].append(height) }
        }
        let base = fullHeights.filter { $0.value.count >= 3 }.compactMapValues(median)
        var ratios: [String: [Double]] = [:]
        for (character, height) in zip(characters, heights) where part(ofWriter: character.writer) == .train {
            if let height, let reference = base[character.writer], reference > 0 {
                ratios[character.label, default: []].append(height / reference)
            }
        }
        let typical = ratios.compactMapValues(median).filter { $0.value > 0 }
        var estimates: [String: [Double]] = [:]
        for (character, height) in zip(characters, heights) {
            if let height, height > 0, let ratio = typical[character.label] {
                estimates[character.writer, default: []].append(height / ratio)
            }
        }
        return estimates.compactMapValues(median).filter { $0.value.isFinite && $0.value > 0 }
    }

    // MARK: - Summary

    /// Characters and writers of one site, per part of the split.
    public struct SiteSummary: Sendable, Equatable {
        public var site: String
        public var characters: [Part: Int] = [:]
        public var writers: [Part: Int] = [:]
    }

    /// Per site (sorted by name): characters and distinct writers in each part.
    public static func summary(_ characters: [UnipenCharacter]) -> [SiteSummary] {
        var bySite: [String: (characters: [Part: Int], writers: [Part: Set<String>])] = [:]
        for character in characters {
            let part = part(ofWriter: character.writer)
            bySite[character.site, default: ([:], [:])].characters[part, default: 0] += 1
            bySite[character.site, default: ([:], [:])].writers[part, default: []].insert(character.writer)
        }
        return bySite.keys.sorted().map { site in
            SiteSummary(site: site, characters: bySite[site]!.characters, writers: bySite[site]!.writers.mapValues(\.count))
        }
    }

    /// The first `perLabel` characters of each label of `labels`, in that order; a label with
    /// fewer gets a single dot per missing one (`padded`), so that a contact sheet's columns
    /// stay one label each.
    public static func sample(_ characters: [UnipenCharacter], labels: [String], perLabel: Int)
        -> [(label: String, strokes: [Stroke], source: String)]
    {
        var byLabel: [String: [UnipenCharacter]] = [:]
        for character in characters where (byLabel[character.label]?.count ?? 0) < perLabel {
            byLabel[character.label, default: []].append(character)
        }
        var result: [(label: String, strokes: [Stroke], source: String)] = []
        for label in labels {
            let found = byLabel[label] ?? []
            result += found.map { ($0.label, $0.strokes, $0.source) }
            result += Array(repeating: (label, [Stroke([(0, 0)])], "missing"), count: perLabel - found.count)
        }
        return result
    }

    // MARK: - Listing

    private static func listing(_ folder: URL) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            throw UnipenError.unreadable(file: folder.path, reason: "cannot list the folder")
        }
    }

    private static func isFolder(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Files below `folder`, as sorted paths relative to it.
    private static func filesBelow(_ folder: URL) throws -> [String] {
        var result: [String] = []
        for name in try listing(folder) {
            let url = folder.appendingPathComponent(name)
            if isFolder(url) {
                result += try filesBelow(url).map { "\(name)/\($0)" }
            } else {
                result.append(name)
            }
        }
        return result
    }
}
