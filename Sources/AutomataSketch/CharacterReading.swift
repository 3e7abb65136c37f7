import Foundation
import StrokeImage
import StrokeKit

/// Reading handwritten labels: a transition's label cut into characters by geometry, each
/// classified by the character model (through `readCharacter`, the one call of it), separators
/// decided by geometry, and each symbol chosen within the diagram's alphabet (digits or
/// letters by a vote over all its transition labels); a state's name read by recognition under
/// the diagram's name grammar (`NameReading`). `read(labels:isName:ink:cache:)` reads a
/// diagram's labels. Nothing is read that nobody wrote: every character comes from ink.
enum CharacterReading {
    /// The bundled character model (UNIPEN), loaded once; nil when it cannot be loaded.
    static let model: ShapeClassifier? = try? ShapeClassifier.bundledLabels()

    /// The one call of the character model: a character's strokes, read alone, aspect-fit
    /// (framed by its label's line, or by the diagram's usual label height, the state names of
    /// the tuning half of `fa-diagrams` read worse). Throws when no model is available.
    static func readCharacter(_ strokes: [Stroke]) throws -> Classification {
        guard let model else { throw CharacterReadingError.noModel }
        return try model.classify(strokes)
    }

    static let digits = (0...9).map(String.init)
    static let lowercase = "abcdefghijklmnopqrstuvwxyz".map(String.init)
    static let uppercase = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".map(String.init)
    static let separators: Set<String> = [",", "+", ".", ";"]
    /// Digits and the letters that look like them (`0` `o` `O`, `1` `l` `I`), and the other letters.
    static let digitLike = digits + ["o", "O", "l", "I", "i", "j", "D"]
    static let otherLetters = (lowercase + uppercase).filter { !digitLike.contains($0) }

    /// A label read: its text, the symbols it gives a transition, how sure, and the next readings.
    struct Reading: Equatable {
        var text: String
        var symbols: [String]
        var confidence: Float
        var alternatives: [LabelAlternative]
    }

    /// The one function through which a diagram's labels are read: each label's strokes (ink
    /// indices), whether it is a state's name, the ink, and the cache of the character model's
    /// answers. The diagram's alphabet is learnt from its transition labels cut by geometry
    /// (`characters(of:ink:cache:)`, `context`); then every label is read by recognition, each
    /// segmentation of its strokes (`segmentations`) read under a small grammar: a transition's
    /// symbols of the alphabet and separators (`readSymbols`), a state's name under the name
    /// grammar of the diagram (`NameReading`).
    static func read(labels: [[Int]], isName: [Bool], ink: [InkStroke], cache: inout ClassificationCache) -> [Reading] {
        // A stroke that changes no transition label (a shape, or a stroke of a state's name, in
        // the editor) finds the transition labels read already, and one that changes no name the
        // names: the same strokes and parameters read the same (the transition labels are read
        // against each other alone, and so are the names).
        let transitions = kept(
            \.transitionReadings, labels: labels.indices.filter { !isName[$0] }.map { labels[$0] }, ink: ink, cache: &cache,
            readTransitions)
        let names = kept(\.nameReadings, labels: labels.indices.filter { isName[$0] }.map { labels[$0] }, ink: ink, cache: &cache, readNames)
        return merged(transitions: transitions, names: names, isName: isName)
    }

    /// The readings of `labels` by `read`, or the ones kept in `slot` when they were read from
    /// the same strokes with the same parameters (kept there for the next reading).
    private static func kept(
        _ slot: WritableKeyPath<ClassificationCache, (key: LabelReadingKey, readings: [Reading])?>, labels: [[Int]], ink: [InkStroke],
        cache: inout ClassificationCache, _ read: ([[Int]], [InkStroke], inout ClassificationCache) -> [Reading]
    ) -> [Reading] {
        let key = LabelReadingKey(labels: labels.map { $0.map { ink[$0].stroke } }, parameters: tuned.text)
        if let last = cache[keyPath: slot], last.key == key { return last.readings }
        let readings = read(labels, ink, &cache)
        cache[keyPath: slot] = (key, readings)
        return readings
    }

    /// What a diagram's transition labels, or its names, are read from: each label's strokes in
    /// order, and the reader's text parameters.
    struct LabelReadingKey: Hashable, Sendable {
        var labels: [[Stroke]]
        var parameters: TextParameters
    }

    /// The transition labels' and the names' readings, each in order, as the readings of all labels.
    private static func merged(transitions: [Reading], names: [Reading], isName: [Bool]) -> [Reading] {
        var transitions = transitions[...], names = names[...]
        return isName.map { $0 ? names.popFirst()! : transitions.popFirst()! }
    }

    /// A diagram's transition labels, read against each other (the alphabet they share).
    private static func readTransitions(_ labels: [[Int]], _ ink: [InkStroke], _ cache: inout ClassificationCache) -> [Reading] {
        let characters = labels.map { Self.characters(of: $0, ink: ink, cache: &cache) }
        let context = Self.context(transitionLabels: characters)
        return labels.indices.map { index in
            readSymbols(segmentations(of: labels[index], ink: ink, cache: &cache), context: context)
                ?? Self.read(characters[index], context: context)
        }
    }

    /// A diagram's state names, read together (`NameReading`).
    private static func readNames(_ labels: [[Int]], _ ink: [InkStroke], _ cache: inout ClassificationCache) -> [Reading] {
        NameReading.read(labels.map { CharacterReading.segmentations(of: $0, ink: ink, cache: &cache) })
    }

    /// One character of a label: its strokes (ink indices), box, the model's answer, and
    /// whether geometry makes it a separator.
    struct Character {
        var strokes: [Int]
        var box: LabelBox
        var classification: Classification?
        var separator: String?
    }

    /// The label's strokes cut into characters, left to right: strokes whose horizontal
    /// extents overlap by `characterOverlap` of the narrower are one character.
    static func segment(_ strokes: [Int], ink: [InkStroke], keepingLowStrokesApart: Bool = true) -> [[Int]] {
        let boxes = Dictionary(uniqueKeysWithValues: strokes.map { ($0, LabelBox(ink[$0].stroke.sketchPoints)) })
        let line = strokes.map { boxes[$0]! }.reduce(boxes[strokes[0]]!) { $0.union($1) }
        // A small stroke in the line's lower half (a comma or a dot tucked under a letter) is a
        // character of its own, and so is the stroke after it.
        func isLow(_ box: LabelBox) -> Bool {
            keepingLowStrokesApart && box.size <= tuned.text.separatorHeight * line.height && box.center.y > line.center.y
        }
        var characters: [(strokes: [Int], box: LabelBox)] = []
        for stroke in strokes.sorted(by: { (boxes[$0]!.minX, $0) < (boxes[$1]!.minX, $1) }) {
            let box = boxes[stroke]!
            if let last = characters.last, !isLow(box), !(last.strokes.count == 1 && isLow(last.box)) {
                if sharesWidth(last.box, box, line: line) {
                    characters[characters.count - 1] = (last.strokes + [stroke], last.box.union(box))
                    continue
                }
            }
            characters.append(([stroke], box))
        }
        return characters.map { $0.strokes.sorted() }
    }

    /// True when two boxes of one label's line overlap in width by `characterOverlap` of the
    /// narrower, widths padded by a twentieth of the line's height (a vertical bar has none):
    /// their strokes may be one character.
    static func sharesWidth(_ a: LabelBox, _ b: LabelBox, line: LabelBox) -> Bool {
        let pad = 0.05 * line.height
        let shared = min(a.maxX, b.maxX) - max(a.minX, b.minX) + 2 * pad
        return shared >= tuned.text.characterOverlap * (min(a.width, b.width) + 2 * pad)
    }

    /// The largest number of strokes whose every segmentation is read; a label of more strokes
    /// is cut by geometry alone (`CharacterReading.segment`).
    static let maximumStrokes = 9
    /// The most strokes one character is made of.
    static let maximumCharacterStrokes = 3

    /// The ways to cut a label's strokes into characters, each character classified: strokes
    /// cut into runs of one to `maximumCharacterStrokes`, in drawing order and in place order
    /// (by their left edges: a letter's bar added after the next character lies with its
    /// upright), a run of several only when each of its strokes overlaps the others' width by
    /// `characterOverlap` of the narrower; the characters of each segmentation left to right,
    /// each segmentation once.
    static func segmentations(of strokes: [Int], ink: [InkStroke], cache: inout ClassificationCache) -> [[Character]] {
        let strokes = strokes.sorted()
        let boxes = Dictionary(uniqueKeysWithValues: strokes.map { ($0, LabelBox(ink[$0].stroke.sketchPoints)) })
        let line = strokes.dropFirst().reduce(boxes[strokes[0]]!) { $0.union(boxes[$1]!) }
        func overlapping(_ run: ArraySlice<Int>) -> Bool {
            run.allSatisfy { stroke in
                let others = run.filter { $0 != stroke }.map { boxes[$0]! }
                return sharesWidth(boxes[stroke]!, others.dropFirst().reduce(others[0]) { $0.union($1) }, line: line)
            }
        }
        if strokes.count > maximumStrokes {
            let parts = segment(strokes, ink: ink, keepingLowStrokesApart: false)
            return [parts.map { character($0, ink: ink, cache: &cache) }]
        }
        // Each possible character made and classified once: a segmentation is a list of them.
        var characters: [[Int]: Character] = [:], cuts: [[Character]] = [], seen: Set<[[Int]]> = []
        let inPlace = strokes.sorted { (boxes[$0]!.minX, $0) < (boxes[$1]!.minX, $1) }
        for order in inPlace == strokes ? [strokes] : [strokes, inPlace] {
            var runs: [Range<Int>: [Int]] = [:]
            for start in order.indices {
                for length in 1...maximumCharacterStrokes where start + length <= order.count {
                    let run = order[start..<(start + length)]
                    guard length == 1 || overlapping(run) else { continue }
                    let key = run.sorted()
                    if characters[key] == nil { characters[key] = character(key, ink: ink, cache: &cache) }
                    runs[start..<(start + length)] = key
                }
            }
            func extend(_ start: Int, _ made: [[Int]]) {
                if start == order.count {
                    guard seen.insert(made.sorted { $0[0] < $1[0] }).inserted else { return }
                    return cuts.append(made.map { characters[$0]! }.sorted { ($0.box.center.x, $0.strokes[0]) < ($1.box.center.x, $1.strokes[0]) })
                }
                for length in 1...maximumCharacterStrokes {
                    if let next = runs[start..<(start + length)] { extend(start + length, made + [next]) }
                }
            }
            extend(0, [])
        }
        return cuts
    }

    static func character(_ strokes: [Int], ink: [InkStroke], cache: inout ClassificationCache) -> Character {
        Character(
            strokes: strokes, box: LabelBox(strokes.flatMap { ink[$0].stroke.sketchPoints }),
            classification: cache.character(strokes.map { ink[$0].stroke }), separator: nil)
    }

    /// The characters of a transition's label, each classified (nil without a model), and
    /// separators decided by geometry: a character between two others that is small (at most
    /// `separatorHeight` of the line's height) or lies low (its top below the middle of its
    /// neighbours) is a dot (smaller than a fifth of the line's height), a comma (its middle in
    /// the line's lower half) or a plus; so is one of two crossing strokes between two others,
    /// or one the model reads as `+`.
    static func characters(of strokes: [Int], ink: [InkStroke], cache: inout ClassificationCache) -> [Character] {
        let line = LabelBox(strokes.flatMap { ink[$0].stroke.sketchPoints })
        let parts = segment(strokes, ink: ink)
        var characters = parts.map { character($0, ink: ink, cache: &cache) }
        let boxes = characters.map(\.box)
        for position in characters.indices.dropFirst().dropLast() {
            let box = boxes[position]
            let neighbours = (boxes[position - 1].center.y + boxes[position + 1].center.y) / 2
            let small = box.height <= tuned.text.separatorHeight * line.height
            let low = box.minY > neighbours
            let classification = characters[position].classification
            let crossing = parts[position].count == 2 && box.center.y < line.center.y + 0.25 * line.height
                && box.center.y > line.center.y - 0.25 * line.height
            if small || low {
                characters[position].separator = box.size <= 0.2 * line.height ? "." : box.center.y > line.center.y ? "," : "+"
            } else if crossing || (classification.map { !$0.isRejected && $0.label == "+" } ?? false) {
                characters[position].separator = "+"
            }
        }
        return characters
    }

    /// What a diagram's transition labels share: digits or lowercase letters, symbols of one
    /// character or more, and how often the model reads each symbol.
    struct Context {
        var transitionCharacters = digits
        /// True when the diagram's transition labels give symbols of one character each.
        var singleCharacterSymbols = false
        /// Per symbol, the share of the diagram's transition characters the model gives it.
        var alphabet: [String: Float] = [:]
    }

    static func context(transitionLabels: [[Character]]) -> Context {
        func mass(_ characters: [Character], _ labels: [String]) -> Float {
            characters.compactMap(\.classification).map { c in labels.reduce(0) { $0 + (c.probabilities[$1] ?? 0) } }.reduce(0, +)
        }
        var context = Context()
        // Digits or letters: the model's probability mass on digits and the letters that look
        // like them (`0` `o` `O`, `1` `l` `I`) against the other letters, over every character of
        // the diagram's transition labels.
        let symbols = transitionLabels.flatMap { $0.filter { $0.separator == nil } }
        context.transitionCharacters = mass(symbols, digitLike) >= mass(symbols, otherLetters) ? digits : lowercase
        let runs = transitionLabels.filter { !$0.isEmpty }.map { label in
            label.split { $0.separator != nil }.map(\.count).max() ?? 0
        }
        context.singleCharacterSymbols = Double(runs.filter { $0 > 1 }.count) < tuned.text.multiCharacterShare * Double(runs.count)
        let read = symbols.compactMap(\.classification)
        for label in context.transitionCharacters {
            context.alphabet[label] = read.reduce(0) { $0 + ($1.probabilities[label] ?? 0) } / Float(max(read.count, 1))
        }
        return context
    }

    /// A transition's label read: text, symbols, confidence, alternatives.
    static func read(_ characters: [Character], context: Context) -> Reading {
        var choices: [[(label: String, probability: Float)]] = []
        var characters = characters
        // In a diagram whose symbols are single characters, every other character of a
        // transition label of three or more is a separator (`a,c` with a long comma).
        if context.singleCharacterSymbols && characters.count >= 3 && characters.count % 2 == 1 {
            for position in stride(from: 1, to: characters.count - 1, by: 2) where characters[position].separator == nil {
                let label = characters[position].classification?.label ?? ","
                characters[position].separator = [",", "+", "."].contains(label) ? label : ","
            }
        }
        for character in characters {
            if let separator = character.separator {
                choices.append([(separator, 1)])
                continue
            }
            guard let classification = character.classification else {
                choices.append([("?", 0)])
                continue
            }
            let prior = Float(tuned.text.alphabetPrior)
            let ranked = context.transitionCharacters.compactMap { label in
                classification.probabilities[label].map { (label, prior == 0 ? $0 : $0 * pow(context.alphabet[label] ?? 0, prior)) }
            }
                .sorted { ($0.1, $1.0) > ($1.1, $0.0) }
            let total = max(ranked.reduce(0) { $0 + $1.1 }, 1e-12)
            choices.append(Array(ranked.prefix(2)).map { ($0.0, $0.1 / total) })
        }
        let best = choices.map { $0.first ?? ("?", 0) }
        let text = best.map(\.label).joined()
        let confidence = best.map(\.probability).reduce(1, *)
        var alternatives: [LabelAlternative] = []
        for (position, options) in choices.enumerated() where options.count > 1 && options[0].probability > 0 {
            var labels = best.map(\.label)
            labels[position] = options[1].label
            alternatives.append(LabelAlternative(
                text: labels.joined(), confidence: confidence * options[1].probability / options[0].probability))
        }
        alternatives.sort { ($0.confidence, $1.text) > ($1.confidence, $0.text) }
        return Reading(text: text, symbols: symbols(of: text), confidence: confidence, alternatives: Array(alternatives.prefix(3)))
    }

    /// A transition's label read by recognition: of every segmentation, the reading of the
    /// grammar symbol (separator+ symbol)* (symbols following each other only where the
    /// diagram's symbols are not all single characters) with the highest probability: each
    /// symbol character scored by the model's probability times its share of the diagram's
    /// alphabet to the power `alphabetPrior`, each separator by the model's probability of `,`
    /// `+` or `.`. Every character costs its own probability, so cutting a stroke in two never
    /// wins for free. Nil when no segmentation is read (no model) or none fits the grammar.
    static func readSymbols(_ segmentations: [[Character]], context: Context) -> Reading? {
        let prior = Double(tuned.text.alphabetPrior)
        let marks = [",", "+", "."]
        var readings: [(text: String, score: Double)] = []
        // Each character's best symbol, its likeliest mark and its probability of being one, once.
        var scores: [[Int]: (symbol: (String, Double), mark: String, separator: Double)] = [:]
        for segmentation in segmentations {
            let read = segmentation.compactMap(\.classification)
            guard read.count == segmentation.count, !read.isEmpty else { continue }
            // Best reading so far that ends with a separator (or at the start), and with a symbol.
            var afterSeparator: (text: String, score: Double)? = ("", 0), afterSymbol: (text: String, score: Double)?
            for (character, classification) in zip(segmentation, read) {
                var nextSeparator: (text: String, score: Double)?, nextSymbol: (text: String, score: Double)?
                func keep(_ candidate: (text: String, score: Double), in slot: inout (text: String, score: Double)?) {
                    if slot == nil || candidate.score > slot!.score { slot = candidate }
                }
                let known = scores[character.strokes] ?? (
                    symbol: NameReading.best(context.transitionCharacters.map { label in
                        let share = prior == 0 ? 1 : pow(Double(context.alphabet[label] ?? 0), prior)
                        return (label, NameReading.logProbability(Float(Double(classification.probabilities[label] ?? 0) * share)))
                    }),
                    mark: NameReading.best(marks.map { ($0, Double(classification.probabilities[$0] ?? 0)) }).0,
                    separator: NameReading.logProbability(marks.reduce(0) { $0 + (classification.probabilities[$1] ?? 0) }))
                scores[character.strokes] = known
                let (symbol, mark, separator) = known
                if let before = afterSeparator { keep((before.text + symbol.0, before.score + symbol.1), in: &nextSymbol) }
                if let before = afterSymbol {
                    if !context.singleCharacterSymbols { keep((before.text + symbol.0, before.score + symbol.1), in: &nextSymbol) }
                    keep((before.text + mark, before.score + separator), in: &nextSeparator)
                }
                if let before = afterSeparator, !before.text.isEmpty { keep((before.text + mark, before.score + separator), in: &nextSeparator) }
                (afterSeparator, afterSymbol) = (nextSeparator, nextSymbol)
            }
            if let reading = afterSymbol { readings.append(reading) }
        }
        readings.sort { ($0.score, $1.text) > ($1.score, $0.text) }
        guard let top = readings.first else { return nil }
        let total = readings.reduce(0) { $0 + exp($1.score - top.score) }
        var alternatives: [LabelAlternative] = [], seen: Set<String> = [top.text]
        for reading in readings.dropFirst() where alternatives.count < 3 && seen.insert(reading.text).inserted {
            alternatives.append(LabelAlternative(text: reading.text, confidence: Float(exp(reading.score - top.score) / total)))
        }
        return Reading(text: top.text, symbols: symbols(of: top.text), confidence: Float(1 / total), alternatives: alternatives)
    }

    /// A label's text split at its separators into the symbols it gives a transition.
    static func symbols(of text: String) -> [String] {
        var result: [String] = []
        for part in text.split(whereSeparator: { separators.contains(String($0)) }).map(String.init)
        where !part.isEmpty && !result.contains(part) {
            result.append(part)
        }
        return result
    }
}

/// Why a character could not be read.
enum CharacterReadingError: Error, CustomStringConvertible {
    case noModel

    var description: String { "the bundled character model could not be loaded" }
}

extension ClassificationCache {
    /// The character model's answer for one character (`CharacterReading.readCharacter`),
    /// classified once per strokes (a label gaining a stroke does not read its other
    /// characters again); nil when no model is available.
    mutating func character(_ strokes: [Stroke]) -> Classification? {
        if let known = characters.value(for: strokes) { return known }
        let result = try? CharacterReading.readCharacter(strokes)
        characters.insert(result, for: strokes)
        return result
    }
}
