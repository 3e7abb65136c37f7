import Foundation
import StrokeKit

/// State names read by recognition: every plausible way of cutting a name's strokes into
/// characters is read by the character model, and the reading chosen is the most probable
/// under a small name grammar learnt from the diagram itself.
///
/// A name takes one of a few forms (`Form`): a letter (`S`), a letter then digits (`q0`,
/// `F1`), a roman numeral (`III`), or a set of names in braces (`{q2,f}`). A reading's score is
/// the log-probability the model gives its characters, each within what its place in the form
/// allows (a product of probabilities, so each character costs something and cutting a
/// stroke in two never wins for free), plus the log of the form's share among the diagram's
/// names. The diagram's names are read twice: first with every form equally likely, which
/// gives each name's probability of each form, the letter names of a letter and digits share
/// (`q` counts `initialQWeight` times) and the case of the names' letters; then again, each form
/// weighed by its share (smoothed by `formSmoothing`), the names of a letter and digits
/// starting with the shared letter. Nothing is read that nobody wrote: each character is one
/// the model gives its strokes some probability.
enum NameReading {
    typealias Character = CharacterReading.Character

    /// The forms a state's name takes.
    enum Form: CaseIterable, Hashable {
        /// One letter: `S`, `A`.
        case letter
        /// A letter then digits: `q0`, `F12`.
        case letterDigits
        /// A roman numeral of `I`, `V` and `X`: `IV`.
        case roman
        /// A set of names in braces: `{q2,f}`.
        case braced
    }

    /// What the names of one diagram share.
    struct Context {
        /// Each form's prior probability.
        var forms: [Form: Double]
        /// The prior probability of each (lowercase) letter starting a name of a letter and digits.
        var initials: [String: Double]
        /// True when the names' letters are capitals.
        var capitals: Bool

        /// Before anything is known of the diagram: every form alike, `q` first among initials.
        static var uninformed: Context {
            let weight = tuned.text.initialQWeight, total = weight + Double(CharacterReading.lowercase.count - 1)
            return Context(
                forms: Dictionary(uniqueKeysWithValues: Form.allCases.map { ($0, 1 / Double(Form.allCases.count)) }),
                initials: Dictionary(uniqueKeysWithValues: CharacterReading.lowercase.map { ($0, ($0 == "q" ? weight : 1) / total) }),
                capitals: true)
        }
    }

    /// One way to read a name: its text, form, score (log-probability) and its characters.
    struct Candidate {
        var text: String
        var form: Form
        var score: Double
        var characters: [Character]
    }

    static func logProbability(_ probability: Float) -> Double { log(max(Double(probability), 1e-6)) }

    /// A letter's probability whatever its case: a name's letters take the diagram's case.
    static func letterProbability(_ letter: String, in classification: Classification) -> Float {
        (classification.probabilities[letter] ?? 0) + (classification.probabilities[letter.uppercased()] ?? 0)
    }

    /// The model's classes each roman digit may have been read as.
    static let romanDigits: [(digit: String, classes: [String])] = [("I", ["I", "l", "1", "i"]), ("V", ["V", "v"]), ("X", ["X", "x"])]

    /// The best of `options` (label, log-probability), ties to the first.
    static func best(_ options: [(String, Double)]) -> (String, Double) {
        options.dropFirst().reduce(options[0]) { $1.1 > $0.1 ? $1 : $0 }
    }

    /// The best reading of one segmentation in each form it can take, with the form's prior.
    /// One character's best reading in each place of a form, under one context.
    struct Scores {
        var letter: (String, Double)
        var initial: (String, Double)
        var digit: (String, Double)
        var roman: (String, Double)

        init(_ classification: Classification, context: Context) {
            // Each letter's log-probability, worked out once for both places.
            let letters = CharacterReading.lowercase.map { ($0, logProbability(letterProbability($0, in: classification))) }
            func cased(_ letter: (String, Double)) -> (String, Double) {
                (context.capitals ? letter.0.uppercased() : letter.0, letter.1)
            }
            self.letter = cased(best(letters))
            initial = best(letters.filter { (context.initials[$0.0] ?? 0) > 0 }.map { initial in
                let (text, score) = cased(initial)
                return (text, score + log(context.initials[initial.0]!))
            })
            digit = best(CharacterReading.digits.map { ($0, logProbability(classification.probabilities[$0] ?? 0)) })
            roman = best(romanDigits.map { ($0.digit, logProbability($0.classes.reduce(0) { $0 + (classification.probabilities[$1] ?? 0) })) })
        }
    }

    /// The best reading of one segmentation in each form it can take, with the form's prior;
    /// `scores` holds each character's (by its strokes) once worked out under `context`.
    static func candidates(
        _ characters: [Character], context: Context, scores: inout [[Int]: Scores], numbersUpTo: Int? = nil
    ) -> [Candidate] {
        let read = characters.compactMap(\.classification)
        guard read.count == characters.count, !read.isEmpty else { return [] }
        var result: [Candidate] = []
        func add(_ form: Form, _ text: String, _ score: Double) {
            result.append(Candidate(text: text, form: form, score: score + log(context.forms[form] ?? 0), characters: characters))
        }
        let each = characters.indices.map { index in
            if let known = scores[characters[index].strokes] { return known }
            let made = Scores(read[index], context: context)
            scores[characters[index].strokes] = made
            return made
        }
        if read.count == 1 {
            add(.letter, each[0].letter.0, each[0].letter.1)
        } else {
            let rest = each.dropFirst()
            add(.letterDigits, each[0].initial.0 + rest.map(\.digit.0).joined(), each[0].initial.1 + rest.map(\.digit.1).reduce(0, +))
            if let numbersUpTo {
                // Every number up to `numbersUpTo` written with as many digits, not only the likeliest digits.
                for number in (0...numbersUpTo).map(String.init) where number.count == rest.count {
                    let score = zip(number, read.dropFirst()).reduce(0) { $0 + logProbability($1.1.probabilities[String($1.0)] ?? 0) }
                    add(.letterDigits, each[0].initial.0 + number, each[0].initial.1 + score)
                }
            }
        }
        if read.count <= 4 {
            add(.roman, each.map(\.roman.0).joined(), each.map(\.roman.1).reduce(0, +))
        }
        if read.count >= 3, let inner = bracedNames(read.dropFirst().dropLast(), context: context) {
            let braces = logProbability(read[0].probabilities["{"] ?? 0) + logProbability(read[read.count - 1].probabilities["}"] ?? 0)
            add(.braced, "{" + inner.text + "}", braces + inner.score)
        }
        return result
    }

    /// The characters between braces read as names separated by commas: a letter alone, or a
    /// letter then digits starting with the diagram's shared initial (in the case the model
    /// finds likelier), as the diagram's names of a letter and digits do. The best such
    /// reading, found left to right (nil when none ends with a name).
    static func bracedNames(_ characters: ArraySlice<Classification>, context: Context) -> (text: String, score: Double)? {
        // Best reading so far ending where a name starts (after `{` or `,`), after a name's
        // lone letter, and inside a name of an initial and digits.
        var atStart: (text: String, score: Double)? = ("", 0)
        var inLetter: (text: String, score: Double)?, inNumbered: (text: String, score: Double)?
        for classification in characters {
            var nextStart: (text: String, score: Double)?, nextLetter: (text: String, score: Double)?, nextNumbered: (text: String, score: Double)?
            func keep(_ candidate: (String, Double), in slot: inout (text: String, score: Double)?) {
                if slot == nil || candidate.1 > slot!.score { slot = candidate }
            }
            if let atStart {
                let (letter, score) = best((CharacterReading.lowercase + CharacterReading.uppercase).map {
                    ($0, logProbability(classification.probabilities[$0] ?? 0))
                })
                keep((atStart.text + letter, atStart.score + score), in: &nextLetter)
                let initials = CharacterReading.lowercase.filter { (context.initials[$0] ?? 0) > 0 }
                let (initial, prior) = best(initials.map { initial in
                    let small = classification.probabilities[initial] ?? 0, capital = classification.probabilities[initial.uppercased()] ?? 0
                    return (small >= capital ? initial : initial.uppercased(), logProbability(small + capital) + log(context.initials[initial]!))
                })
                keep((atStart.text + initial, atStart.score + prior), in: &nextNumbered)
            }
            if let inNumbered {
                let (digit, score) = best(CharacterReading.digits.map { ($0, logProbability(classification.probabilities[$0] ?? 0)) })
                keep((inNumbered.text + digit, inNumbered.score + score), in: &nextNumbered)
            }
            let comma = logProbability((classification.probabilities[","] ?? 0) + (classification.probabilities["."] ?? 0))
            for name in [inLetter, inNumbered].compactMap({ $0 }) { keep((name.text + ",", name.score + comma), in: &nextStart) }
            (atStart, inLetter, inNumbered) = (nextStart, nextLetter, nextNumbered)
        }
        return [inLetter, inNumbered].compactMap { $0 }.max { $0.score < $1.score }
    }

    /// Every reading of every segmentation of one name, best first.
    static func ranked(_ segmentations: [[Character]], context: Context, numbersUpTo: Int? = nil) -> [Candidate] {
        var scores: [[Int]: Scores] = [:]
        return segmentations.flatMap { candidates($0, context: context, scores: &scores, numbersUpTo: numbersUpTo) }
            .sorted { ($0.score, $1.text) > ($1.score, $0.text) }
    }

    /// The number a name of a letter and digits ends with, or a roman numeral's value (nil for
    /// other forms, for digits with a leading zero and for `I` `V` `X` spelling no numeral).
    static func number(_ candidate: Candidate) -> Int? {
        switch candidate.form {
        case .letterDigits:
            let digits = String(candidate.text.dropFirst())
            return Int(digits).flatMap { String($0) == digits ? $0 : nil }
        case .roman: return romanValue(candidate.text)
        case .letter, .braced: return nil
        }
    }

    /// The value of a roman numeral of `I`, `V` and `X` from 1 to 39 (tens `X` up to three
    /// times, then `IX`, `IV`, or `V` then up to three `I`); nil when `text` is none (`IIXI`, `IXX`).
    static func romanValue(_ text: String) -> Int? {
        guard !text.isEmpty else { return nil }
        let tens = text.prefix { $0 == "X" }
        guard tens.count <= 3 else { return nil }
        let units = String(text.dropFirst(tens.count))
        let value: Int
        switch units {
        case "IX": value = 9
        case "IV": value = 4
        default:
            let ones = units.hasPrefix("V") ? units.dropFirst() : Substring(units)
            guard ones.count <= 3, ones.allSatisfy({ $0 == "I" }) else { return nil }
            value = (units.hasPrefix("V") ? 5 : 0) + ones.count
        }
        return 10 * tens.count + value
    }

    /// The reading each name takes once the diagram's names are read together: two states never
    /// share a name, and numbered names run as a sequence (q0…q(n−1) or q1…qn for n names, `I`
    /// `II` …). A reading fits when no other name took it and its number is at most the
    /// diagram's count of names (a roman reading that is no numeral fits nowhere); a name whose
    /// best reading does not fit is read again with every number that fits. Name after
    /// name, the one whose best fitting reading is the likeliest takes it. Then, when the numbered names leave as many gaps in their sequence as
    /// there are names outside it, each of those names takes a reading that fills a gap, if it
    /// has one. Returns each name's ranked readings (the fuller ranking where it was needed) and
    /// the position of the one chosen.
    static func distinct(_ names: [[[Character]]], ranked first: [[Candidate]], context: Context) -> [(candidates: [Candidate], chosen: Int)] {
        var result = first.map { (candidates: $0, chosen: 0) }
        var fuller: [Int: [Candidate]] = [:], taken: Set<String> = [], open = Set(names.indices.filter { !first[$0].isEmpty })
        func inSequence(_ candidate: Candidate) -> Bool {
            switch candidate.form {
            case .letterDigits, .roman: return number(candidate).map { $0 <= names.count } ?? false
            case .letter, .braced: return true
            }
        }
        func fits(_ candidate: Candidate) -> Bool { !taken.contains(candidate.text) && inSequence(candidate) }
        // Each round the name whose best fitting reading is the likeliest takes it.
        // Each name's ranked readings and the sum of their probabilities relative to the best.
        func withTotal(_ candidates: [Candidate]) -> (candidates: [Candidate], total: Double) {
            (candidates, relativeTotal(candidates))
        }
        let firstTotals = first.map { $0.isEmpty ? 0 : withTotal($0).total }
        var fullerTotals: [Int: Double] = [:]
        while !open.isEmpty {
            var best: (index: Int, candidates: [Candidate], chosen: Int, probability: Double)?
            for index in open.sorted() {
                var (candidates, total) = (first[index], firstTotals[index])
                if !fits(candidates[0]) {
                    if fuller[index] == nil {
                        (fuller[index], fullerTotals[index]) = withTotal(ranked(names[index], context: context, numbersUpTo: names.count))
                    }
                    (candidates, total) = (fuller[index]!, fullerTotals[index]!)
                }
                let chosen = candidates.firstIndex(where: fits) ?? 0
                let probability = exp(candidates[chosen].score - candidates[0].score) / total
                if best == nil || probability > best!.probability { best = (index, candidates, chosen, probability) }
            }
            result[best!.index] = (best!.candidates, best!.chosen)
            taken.insert(best!.candidates[best!.chosen].text)
            open.remove(best!.index)
        }
        // The gaps of the numbered names' sequence, filled by the names outside it.
        let chosen = result.map { $0.candidates.isEmpty ? nil : $0.candidates[$0.chosen] }
        let numbers = chosen.compactMap { $0.flatMap { $0.form == .letterDigits ? number($0) : nil } }
        let lowest = numbers.contains(0) ? 0 : 1
        guard let highest = numbers.max(), highest > lowest else { return result }
        let gaps = (lowest...highest).filter { !numbers.contains($0) }
        let outside = names.indices.filter { chosen[$0].map { $0.form != .letterDigits } ?? false }
        guard !gaps.isEmpty, gaps.count == outside.count else { return result }
        var filled = result, unfilled = Set(gaps)
        for index in outside {
            let candidates = fuller[index] ?? ranked(names[index], context: context, numbersUpTo: names.count)
            guard let fill = candidates.firstIndex(where: { $0.form == .letterDigits && number($0).map(unfilled.contains) ?? false }) else {
                return result
            }
            unfilled.remove(number(candidates[fill])!)
            filled[index] = (candidates, fill)
        }
        return filled
    }

    /// What the diagram's names share, learnt from their readings under `context`: each form's
    /// share (each name's probability of each form, smoothed by `formSmoothing`), the letter
    /// the names of a letter and digits start with (a vote of their first characters' letter
    /// probabilities, `q` counting `initialQWeight` times), and the case of their letters (small
    /// letters only when the model's mass on the small letters whose capitals look different
    /// outweighs those capitals' and reaches `caseEvidence` per name).
    static func learn(_ names: [[[Character]]], context: Context) -> Context {
        var shares: [Form: Double] = [:], votes: [String: Double] = [:]
        var small = 0.0, capital = 0.0, voting = 0
        let lookalikes = Set("cosuvwxz".map(String.init))
        for name in names {
            let candidates = ranked(name, context: context)
            guard let top = candidates.first else { continue }
            var bestOfForm: [Form: Candidate] = [:]
            for candidate in candidates where bestOfForm[candidate.form] == nil { bestOfForm[candidate.form] = candidate }
            let weights = bestOfForm.mapValues { exp($0.score - top.score) }
            let total = weights.values.reduce(0, +)
            for (form, weight) in weights { shares[form, default: 0] += weight / total }
            // A character that starts a name of a letter and digits votes for its letter.
            func vote(_ initial: Classification, weight: Double) {
                let letters = CharacterReading.lowercase.map { Double(letterProbability($0, in: initial)) }
                let mass = max(letters.reduce(0, +), 1e-9)
                for (letter, probability) in zip(CharacterReading.lowercase, letters) { votes[letter, default: 0] += weight * probability / mass }
            }
            if let name = bestOfForm[.letterDigits], let first = name.characters.first?.classification {
                vote(first, weight: weights[.letterDigits]! / total)
            }
            // So do the names of a letter and digits within braces (each character of a braced
            // reading is one of its text's).
            if let braced = bestOfForm[.braced] {
                let text = Array(braced.text), read = braced.characters.compactMap(\.classification)
                for position in text.indices.dropLast() where text[position].isLetter && text[position + 1].isNumber {
                    vote(read[position], weight: weights[.braced]! / total)
                }
            }
            if top.form == .letter || top.form == .letterDigits, let first = top.characters.first?.classification {
                let mass = max(Double((CharacterReading.lowercase + CharacterReading.uppercase).reduce(0) { $0 + (first.probabilities[$1] ?? 0) }), 1e-9)
                for letter in CharacterReading.lowercase where !lookalikes.contains(letter) {
                    small += Double(first.probabilities[letter] ?? 0) / mass
                    capital += Double(first.probabilities[letter.uppercased()] ?? 0) / mass
                }
                voting += 1
            }
        }
        let count = shares.values.reduce(0, +), smoothing = tuned.text.formSmoothing
        var learnt = context
        learnt.forms = Dictionary(uniqueKeysWithValues: Form.allCases.map {
            ($0, (shares[$0, default: 0] + smoothing) / (count + smoothing * Double(Form.allCases.count)))
        })
        let weighted = votes.map { ($0.key, $0.value * ($0.key == "q" ? tuned.text.initialQWeight : 1)) }
        if let shared = weighted.max(by: { ($0.1, $1.0) < ($1.1, $0.0) }), shared.1 > 0 {
            learnt.initials = [shared.0: 1]
        }
        learnt.capitals = !(small > capital && small >= tuned.text.caseEvidence * Double(voting))
        return learnt
    }

    /// The sum of ranked readings' probabilities relative to the best (the first): a reading's
    /// share of them is its confidence.
    static func relativeTotal(_ ranked: [Candidate]) -> Double {
        ranked.reduce(0) { $0 + exp($1.score - ranked[0].score) }
    }

    /// The names of one diagram read, each given as its segmentations (`CharacterReading.segmentations`).
    static func read(_ names: [[[Character]]]) -> [CharacterReading.Reading] {
        var context = Context.uninformed
        for _ in 0..<2 { context = learn(names, context: context) }
        return distinct(names, ranked: names.map { ranked($0, context: context) }, context: context).map { candidates, chosen in
            guard let top = candidates.first else { return CharacterReading.Reading(text: "", symbols: [], confidence: 0, alternatives: []) }
            let total = relativeTotal(candidates)
            let read = candidates[chosen]
            var alternatives: [LabelAlternative] = [], seen: Set<String> = [read.text]
            for candidate in candidates where alternatives.count < 3 && seen.insert(candidate.text).inserted {
                alternatives.append(LabelAlternative(text: candidate.text, confidence: Float(exp(candidate.score - top.score) / total)))
            }
            return CharacterReading.Reading(
                text: read.text, symbols: CharacterReading.symbols(of: read.text), confidence: Float(exp(read.score - top.score) / total),
                alternatives: alternatives)
        }
    }
}
