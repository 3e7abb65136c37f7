import Foundation

/// Parameters of the text stage (`TextFinder`, `LabelGrouping`, `LabelAttachment`,
/// `CharacterReading`); units as in `ReaderParameters`. Chosen on the tuning half of
/// `fa-diagrams`' whole ink (`ink/`), never on the check half.
struct TextParameters: Codable, Hashable, Sendable {
    /// [R] A round drawing at least this big is a state's circle, never text.
    var stateMinimumRadius = 0.6
    /// [× the state's radius] A ring about a state's centre under `stateMinimumRadius` R and
    /// under this share of the state's circle is a letter written in it (a `Q`'s ring: 0.40
    /// and 0.43 of its state), not a final state's inner circle (0.48 to 0.84 of the outer one).
    var letterRingMaximum = 0.5
    /// [R] A drawing at least this big across (the larger side of its box) is a shape.
    var shapeMinimumSize = 1.6
    /// [× radius] A drawing whose points' centre lies this near a state's centre, and that is
    /// smaller than `insideMaximumSize` of its diameter, is written inside it: its name.
    var insideReach = 0.9
    /// [× diameter] See `insideReach`.
    var insideMaximumSize = 0.75
    /// [R] A small drawing with an end this near a state's rim is a connector's (an arrow
    /// between near states, a head at a rim).
    var rimReach = 0.3
    /// [R] A small elongated drawing whose end lies this near a state's rim, heading for its
    /// centre (within `pointingAngle`), is an arrow into it (a short initial arrow).
    var pointingReach = 0.8
    /// [degrees] See `pointingReach`.
    var pointingAngle = 30.0
    /// [R] A small drawing this near an end of a connector is its head (or its other part).
    var connectorEndReach = 0.4
    /// [R] Text drawings whose boxes lie this near each other, written one after the other,
    /// are one label (`a,b`, `q0`, `0+1`).
    var letterGap = 1.0
    /// [R] A label's centre at most this far from a transition's middle third (a self-loop's
    /// whole loop) gives that transition its symbols.
    var attachReach = 2.0
    /// [strokes] A small drawing near a connector's end is its head only when drawn at most
    /// this many strokes before or after it, unless it lies within `touchingEndReach`.
    var headTimeReach = 2.0
    /// [R] See `headTimeReach`.
    var touchingEndReach = 0.15
    /// [×] The weight of the letter `q` when the diagram's names of a letter and digits vote
    /// for the letter they share (q0, q1, … is the textbooks' convention), and its prior
    /// against each other letter before the diagram is known.
    var initialQWeight = 3.0
    /// [names] Each name form's share among a diagram's names (a letter, a letter and digits,
    /// a roman numeral, names in braces) counts this many names more than were read in it, so a
    /// form no name took keeps some probability (`NameReading`).
    var formSmoothing = 0.5
    /// [× smaller width] Strokes of one label whose widths overlap this much are one character
    /// (`+`, `t`, `4`, `E`).
    var characterOverlap = 0.6
    /// [probability per character] A state name's letters are small letters only when the
    /// model's mass on the small letters whose capitals look different is larger than on those
    /// capitals and at least this much per character voting; else capitals (`S`, not `s`).
    var caseEvidence = 0.25
    /// [× label height] A character at most this tall between two others is a separator.
    var separatorHeight = 0.45
    /// [× radius] A drawing written inside a state whose centre lies at least this far from
    /// the state's centre, in the circle's outer band, and that touches a connector's end as
    /// a head does, is that head, not the state's name.
    var rimBand = 0.8
    /// [R] A drawing at least `shapeMinimumSize` but less than this across whose ends all lie
    /// at least `freeTextClearance` from every state's rim is a large letter, not a shape,
    /// unless the connector tests make it one.
    var freeTextMaximumSize = 2.0
    /// [R] See `freeTextMaximumSize`.
    var freeTextClearance = 1.5
    /// [× shaft length] A drawing heading into a state is an arrow only when its shaft is
    /// this straight (start-to-tip distance over the shaft's path): a `c` or an `a` above a
    /// state is not.
    var pointingStraightness = 0.75
    /// [power] How much the diagram's alphabet weighs in reading a transition's character: each
    /// candidate's probability times its share of all the diagram's transition characters to
    /// this power (0 leaves the model alone).
    var alphabetPrior = 1.0
    /// [× labels] When fewer than this share of a diagram's transition labels hold two
    /// characters with no separator between, its symbols are single characters, and every
    /// other character of a label of three or more is a separator.
    var multiCharacterShare = 0.25
}

/// The text stage of the whole-sketch reading: which strokes are handwriting, decided in
/// context once the states are known (never a state's circle, an arrow or a loop).
enum TextFinder {
    /// The states' circles as the text stage sees them, and the sketch's scale R (the states
    /// stage's, `StateSet.scale`: the one R of a reading).
    struct Circles {
        var circles: [(center: SketchPoint, radius: Double, piece: Int, state: Int)]
        var scale: Double?
    }

    /// The circles of the states: round drawings of at least `stateMinimumRadius` R that are
    /// not self-loops drawn round.
    static func stateCircles(_ states: StateSet, parameters: TextParameters) -> Circles {
        let round = states.circles.filter { !states.isLoopRound[$0.piece] }
        guard !round.isEmpty, let scale = states.scale, scale > 0 else { return Circles(circles: [], scale: nil) }
        // A round letter written inside a state (a `0`, an `o`) is no state.
        var circles = round.filter { circle in
            circle.radius >= parameters.stateMinimumRadius * scale && !round.contains { other in
                circle.radius < parameters.insideMaximumSize * other.radius
                    && Geometry.distance(circle.center, other.center) < parameters.insideReach * other.radius
            }
        }.map { (center: $0.center, radius: $0.radius, piece: $0.piece, state: states.statePiece[$0.piece]) }
        for piece in states.pieces.indices where states.isShakyState[piece] {
            let measures = states.measures[states.pieces[piece][0]]
            circles.append((center: measures.centroid, radius: measures.meanRadius, piece: piece, state: states.statePiece[piece]))
        }
        return Circles(circles: circles, scale: scale)
    }

    /// For every ink stroke, true when it is handwriting. Decided per drawing (the strokes
    /// of one drawing are one symbol): a drawing a front end classified, or that carries a
    /// typed name or symbols, is a shape; so is a state's circle and anything at least
    /// `shapeMinimumSize` R across. Written inside a state, it is text (the state's name).
    /// Of the rest, a drawing with an end on a state's rim, or near an end of a connector
    /// (a shape that is not a state), is a shape, repeated until nothing changes (a short
    /// arrow between two near states, then its head); whatever is left is text.
    static func textStrokes(_ ink: [InkStroke], states: StateSet) -> [Bool] {
        let parameters = tuned.text
        let found = stateCircles(states, parameters: parameters)
        guard let scale = found.scale else { return [Bool](repeating: false, count: ink.count) }
        let pieces = states.pieces, measures = states.measures
        let boxes = measures.map { LabelBox($0.points) }
        enum Kind { case shape, text }
        var kind = [Kind?](repeating: nil, count: pieces.count)
        // A state's circles: those found, and a final state's other circle, but not a round
        // letter written inside the state (the ring of a `Q`, an `o`): a circle too small to
        // be a state's (under `stateMinimumRadius` R) and well inside the circle it shares a
        // centre with (under `insideMaximumSize` of its radius) is text.
        let radiusOf = Dictionary(states.circles.map { ($0.piece, $0.radius) }, uniquingKeysWith: max)
        let statePieces = Set(found.circles.map(\.piece)).union(pieces.indices.filter { piece in
            found.circles.contains { circle in
                states.statePiece[circle.piece] == states.statePiece[piece]
                    && !(radiusOf[piece].map {
                        $0 < parameters.stateMinimumRadius * scale && $0 < parameters.letterRingMaximum * circle.radius
                    } ?? false)
            }
        })
        // Names written inside a state whose centre lies in the circle's outer band: heads at
        // its rim, unless nothing connects there (decided once the connectors are known).
        var atRim = Set<Int>()
        for piece in pieces.indices {
            let strokes = pieces[piece]
            if statePieces.contains(piece)
                || strokes.contains(where: { ink[$0].shape != nil || ink[$0].name != nil || !ink[$0].symbols.isEmpty || ink[$0].isEpsilon })
            {
                kind[piece] = .shape
                continue
            }
            let box = strokes.map { boxes[$0] }.reduce(boxes[strokes[0]]) { $0.union($1) }
            let center = Geometry.centroid(strokes.flatMap { measures[$0].points })
            // A loosely round drawing half the circle's size or more is a circle drawn round
            // it or in it (a final state's other circle), not a name.
            let round = states.isLooselyRound[piece] || states.isRound[piece]
            let host = found.circles.filter { circle in
                Geometry.distance(center, circle.center) < parameters.insideReach * circle.radius
                    && box.size < parameters.insideMaximumSize * 2 * circle.radius
                    && !(round && measures[strokes[0]].meanRadius >= 0.5 * circle.radius)
            }.min { Geometry.distance(center, $0.center) / $0.radius < Geometry.distance(center, $1.center) / $1.radius }
            if let host {
                kind[piece] = .text
                if Geometry.distance(center, host.center) >= parameters.rimBand * host.radius { atRim.insert(piece) }
            } else if box.size >= parameters.shapeMinimumSize * scale {
                // A drawing under `freeTextMaximumSize` R across whose ends all keep
                // `freeTextClearance` R from every rim (a large letter written apart, not a
                // connector) is left to the connector tests below.
                let clear = strokes.allSatisfy { stroke in
                    [measures[stroke].start, measures[stroke].last].allSatisfy { end in
                        found.circles.allSatisfy { abs(Geometry.distance(end, $0.center) - $0.radius) >= parameters.freeTextClearance * scale }
                    }
                }
                if box.size < parameters.freeTextMaximumSize * scale && clear { continue }
                kind[piece] = .shape
            }
        }
        // Connectors found by their own geometry (an end on a rim, heading into a state) …
        for piece in pieces.indices where kind[piece] == nil {
            let strokes = pieces[piece].map { measures[$0] }
            let onRim = strokes.contains { stroke in
                [stroke.start, stroke.last].contains { end in
                    found.circles.contains { abs(Geometry.distance(end, $0.center) - $0.radius) < parameters.rimReach * scale }
                }
            }
            // A closed round drawing (a `0`, an `o`) has no heading: it is no arrow.
            let pointing = !states.isRound[piece] && strokes.contains { stroke in
                stroke.chord >= 0.8 * LabelBox(stroke.points).size
                    && stroke.chord >= parameters.pointingStraightness * stroke.shaftLength
                    && found.circles.contains { circle in
                        let tip = stroke.tip
                        let gap = Geometry.distance(tip, circle.center) - circle.radius
                        let heading = tip - stroke.start, toCentre = circle.center - tip
                        let cosine = (heading * toCentre).sum() / max(Geometry.distance(tip, stroke.start) * Geometry.distance(circle.center, tip), 1e-9)
                        return gap >= 0 && gap < parameters.pointingReach * scale && cosine >= cos(parameters.pointingAngle * .pi / 180)
                    }
            }
            if onRim || pointing { kind[piece] = .shape }
        }
        // … then their heads: small drawings at a connector's end, drawn right before or after
        // it (or touching its end). Heads do not carry heads: text written on after an arrow's
        // start ("Start") stays text.
        let connectors = pieces.indices.filter { kind[$0] == .shape && !statePieces.contains($0) }
        // The connector ends (0 its start, 1 its last point) `strokes` lie at, within `reach`.
        func ends(of connector: Int, touchedBy strokes: [Int], within reach: Double) -> [Int] {
            [0, 1].filter { end in
                pieces[connector].contains { shaft in
                    let point = end == 0 ? measures[shaft].start : measures[shaft].last
                    return strokes.contains { stroke in measures[stroke].points.contains { Geometry.distance($0, point) < reach } }
                }
            }
        }
        // An arrow has one head: the end a drawing made right after it lies at, when one does.
        let headEnd = Dictionary(uniqueKeysWithValues: connectors.compactMap { connector -> (Int, Int)? in
            guard let next = pieces.firstIndex(where: { $0[0] == pieces[connector].last! + 1 }), next != connector,
                let end = ends(of: connector, touchedBy: pieces[next], within: parameters.connectorEndReach * scale).first
            else { return nil }
            return (connector, end)
        })
        // A head that its own ends made a connector (at a rim) carries only a second barb drawn
        // right after it, not a label written beside it before or later.
        let pathLength = { (piece: Int) in pieces[piece].map { measures[$0].pathLength }.reduce(0, +) }
        let isHeadItself = Set(connectors.filter { piece in
            connectors.contains { other in
                other != piece && pathLength(other) > pathLength(piece)
                    && Double(abs(pieces[other][0] - pieces[piece][0])) <= parameters.headTimeReach
                    && !ends(of: other, touchedBy: pieces[piece], within: parameters.connectorEndReach * scale).isEmpty
            }
        })
        for piece in pieces.indices where kind[piece] == nil || atRim.contains(piece) {
            let strokes = pieces[piece]
            let isHead = connectors.contains { connector in
                // Drawn near it in time (a head's own head: right after it), at the end its head
                // is at, or touching an end whenever drawn.
                let nearInTime = isHeadItself.contains(connector)
                    ? strokes[0] == pieces[connector].last! + 1
                    : Double(abs(pieces[connector][0] - strokes[0])) <= parameters.headTimeReach
                let atHeadEnd = nearInTime
                    && ends(of: connector, touchedBy: strokes, within: parameters.connectorEndReach * scale).contains { end in
                        headEnd[connector].map { $0 == end } ?? true
                    }
                return atHeadEnd || !ends(of: connector, touchedBy: strokes, within: parameters.touchingEndReach * scale).isEmpty
            }
            if isHead { kind[piece] = .shape }
        }
        var result = [Bool](repeating: false, count: ink.count)
        for piece in pieces.indices where kind[piece] != .shape {
            for stroke in pieces[piece] { result[stroke] = true }
        }
        return result
    }
}

/// Handwriting grouped into labels: the strokes written inside one state are its name; other
/// text strokes on one line within `letterGap` R of each other, written one after the other,
/// are one label, or within half that gap whenever they were written; a small stroke just under
/// or over a label, within its width (a comma, a dot), is part of it. Only "one after the
/// other" looks at time, never which came first: a label is written at once, whatever was drawn
/// before or after it.
enum LabelGrouping {
    /// Groups of ink indices (each in drawing order, groups in order of their first stroke).
    static func group(_ textStrokes: [Int], ink: [InkStroke], circles: TextFinder.Circles) -> [[Int]] {
        guard let scale = circles.scale else { return textStrokes.map { [$0] } }
        let parameters = tuned.text
        let boxes = textStrokes.map { LabelBox(ink[$0].stroke.sketchPoints) }
        let insideOf = textStrokes.indices.map { index -> Int? in
            let center = Geometry.centroid(ink[textStrokes[index]].stroke.sketchPoints.nonEmptyOrOrigin)
            return circles.circles.indices.filter {
                Geometry.distance(center, circles.circles[$0].center) < parameters.insideReach * circles.circles[$0].radius
            }.min { Geometry.distance(center, circles.circles[$0].center) < Geometry.distance(center, circles.circles[$1].center) }
                .map { circles.circles[$0].state }
        }
        var parent = Array(textStrokes.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while parent[index] != index { index = parent[index] }
            return index
        }
        func join(_ a: Int, _ b: Int) {
            let (ra, rb) = (root(a), root(b))
            if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
        }
        for a in textStrokes.indices {
            for b in textStrokes.indices where b > a {
                // A state's name is what is written inside it, never across two states; a
                // stroke outside joins it only overlapping it on its line.
                if let state = insideOf[a], insideOf[b] == state {
                    join(a, b)
                    continue
                }
                if let first = insideOf[a], let second = insideOf[b], first != second { continue }
                // Written one after the other (no shape drawn between) and near: one label, on
                // one line (their heights overlap).
                let consecutive = textStrokes[b] - textStrokes[a] == b - a && b - a <= 2
                let reach = (insideOf[a] != nil || insideOf[b] != nil ? 0 : consecutive ? 1 : 0.5) * parameters.letterGap * scale
                let shared = min(boxes[a].maxY, boxes[b].maxY) - max(boxes[a].minY, boxes[b].minY)
                if boxes[a].gap(to: boxes[b]) <= reach && shared >= 0 { join(a, b) }
            }
        }
        // A stroke left alone just under or over a label of two strokes or more, its centre
        // within the label's width and smaller than its line (a comma, a dot), joins it.
        var members: [Int: [Int]] = [:]
        for index in textStrokes.indices { members[root(index), default: []].append(index) }
        let labels = members.filter { $0.value.count > 1 && insideOf[$0.key] == nil }
            .mapValues { strokes in strokes.dropFirst().reduce(boxes[strokes[0]]) { $0.union(boxes[$1]) } }
        let separatorReach = 0.5 * parameters.letterGap * scale
        for index in textStrokes.indices where insideOf[index] == nil && members[index]?.count == 1 {
            let box = boxes[index]
            let host = labels.filter { _, label in
                (label.minX...label.maxX).contains(box.center.x) && box.height < label.height && box.gap(to: label) <= separatorReach
            }.min { ($0.value.gap(to: box), $0.key) < ($1.value.gap(to: box), $1.key) }
            if let host { join(index, host.key) }
        }
        var groups: [Int: [Int]] = [:]
        for index in textStrokes.indices { groups[root(index), default: []].append(textStrokes[index]) }
        return groups.keys.sorted().map { groups[$0]! }
    }
}

/// Labels attached to what they belong to: a label inside a state (its centre within
/// `insideReach` of the state's radius, its line lower than `insideMaximumSize` of the
/// diameter: a long name may be wider than its circle) names it; any other label
/// goes to the transition whose middle third (a self-loop's loop) is nearest, within
/// `attachReach` R, each transition taking the nearest label first (so two labels competing
/// for one arrow, or one label between two arrows, are decided by distance and by which arrow
/// has no label yet); a label left over goes to its nearest transition within reach, or to
/// nothing.
enum LabelAttachment {
    /// The transitions' middle thirds (a self-loop's whole loop): where their labels stand
    /// (`split` and `attach` measure against them).
    static func middles(of sketch: Sketch) -> [[SketchPoint]] {
        sketch.transitions.map { transition -> [SketchPoint] in
            let points = transition.geometry.points
            if transition.kind == .selfLoop { return points }
            let tipIndex = points.firstIndex(of: transition.geometry.tip) ?? points.count - 1
            let shaft = Array(points[...tipIndex])
            return Array(shaft[Geometry.portion(shaft, (1.0 / 3)...(2.0 / 3))]).nonEmptyOrOrigin
        }
    }

    /// One label between two arrows: a group of strokes that, cut at its widest gap along its
    /// line, stands with one part beside one transition and with the other beside another
    /// transition no label stands beside is two labels (two labels written one after the other,
    /// each by its arrow: `1` and `0` of two arrows read as `10`). Names (inside a state) and
    /// groups whose parts stand by one transition stay whole.
    static func split(_ groups: [[Int]], ink: [InkStroke], sketch: Sketch, middles: [[SketchPoint]], scale: Double?) -> [[Int]] {
        guard let scale, sketch.transitions.count > 1 else { return groups }
        let parameters = tuned.text
        let box = { (strokes: [Int]) in LabelBox(strokes.flatMap { ink[$0].stroke.sketchPoints }) }
        func nearest(_ strokes: [Int]) -> Int? {
            let center = box(strokes).center
            return sketch.transitions.indices.map { ($0, Geometry.distance(center, toPolyline: middles[$0])) }
                .filter { $0.1 <= parameters.attachReach * scale }.min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
        }
        func inside(_ strokes: [Int]) -> Bool {
            let center = Geometry.centroid(strokes.flatMap { ink[$0].stroke.sketchPoints }.nonEmptyOrOrigin)
            return sketch.states.contains { Geometry.distance(center, $0.center) < parameters.insideReach * $0.radius }
        }
        let nearestOfGroup = groups.map { inside($0) ? nil : nearest($0) }
        var result: [[Int]] = []
        for (index, group) in groups.enumerated() {
            guard group.count > 1, let own = nearestOfGroup[index] else {
                result.append(group)
                continue
            }
            let alongLine = group.sorted { box([$0]).minX < box([$1]).minX }
            let gaps = alongLine.indices.dropLast().map { box([alongLine[$0 + 1]]).minX - box(Array(alongLine[...$0])).maxX }
            guard let widest = gaps.indices.max(by: { gaps[$0] < gaps[$1] }), gaps[widest] > 0 else {
                result.append(group)
                continue
            }
            let parts = [Array(alongLine[...widest]), Array(alongLine[(widest + 1)...])]
            let stands = parts.map(nearest)
            let other = stands.compactMap { $0 }.first { $0 != own }
            if stands.contains(own), let other, stands.allSatisfy({ $0 != nil }), !nearestOfGroup.contains(other) {
                result += parts.map { $0.sorted() }
            } else {
                result.append(group)
            }
        }
        return result.sorted { $0[0] < $1[0] }
    }

    static func attach(_ groups: [[Int]], ink: [InkStroke], sketch: Sketch, middles: [[SketchPoint]], scale: Double?) -> [LabelOwner] {
        guard let scale else { return groups.map { _ in .nothing } }
        let parameters = tuned.text
        let boxes = groups.map { group in LabelBox(group.flatMap { ink[$0].stroke.sketchPoints }) }
        var owners = [LabelOwner?](repeating: nil, count: groups.count)
        for (index, group) in groups.enumerated() {
            let center = Geometry.centroid(group.flatMap { ink[$0].stroke.sketchPoints }.nonEmptyOrOrigin)
            let state = sketch.states.filter {
                Geometry.distance(center, $0.center) < parameters.insideReach * $0.radius
                    && boxes[index].height < parameters.insideMaximumSize * 2 * $0.outerRadius
            }.min { Geometry.distance(center, $0.center) < Geometry.distance(center, $1.center) }
            if let state { owners[index] = .state(state.id) }
        }
        var pairs: [(label: Int, transition: Int, distance: Double)] = []
        for label in groups.indices where owners[label] == nil {
            for transition in sketch.transitions.indices {
                let distance = Geometry.distance(boxes[label].center, toPolyline: middles[transition])
                if distance <= parameters.attachReach * scale { pairs.append((label, transition, distance)) }
            }
        }
        pairs.sort { ($0.distance, $0.label, $0.transition) < ($1.distance, $1.label, $1.transition) }
        var taken = Set<Int>()
        for pair in pairs where owners[pair.label] == nil && !taken.contains(pair.transition) {
            owners[pair.label] = .transition(sketch.transitions[pair.transition].id)
            taken.insert(pair.transition)
        }
        for pair in pairs where owners[pair.label] == nil {
            owners[pair.label] = .transition(sketch.transitions[pair.transition].id)
        }
        return owners.map { $0 ?? .nothing }
    }
}
