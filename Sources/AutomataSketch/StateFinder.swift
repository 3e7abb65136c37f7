#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the states stage found in the ink: which drawings are states' circles (one stroke,
/// drawn in goes, two round one centre for a final state, shaky), which round strokes are
/// self-loops drawn round on a rim, and the sketch's scale R; with the queries the later
/// stages ask of them. Indices are into the ink (strokes) and into `pieces` (drawings).
struct StateSet {
    /// One circle of a state (a final state has two, one per piece).
    struct Circle {
        var piece: Int
        var center: SketchPoint
        var radius: Double
        /// Much smaller than the states, or on another circle's rim: perhaps a self-loop drawn
        /// round or a closed head, not a state.
        var isSmall: Bool
    }

    /// The measures of every ink stroke.
    let measures: [DrawingMeasures]
    /// The drawings in order of their first stroke (the strokes of one drawing, a circle drawn
    /// in goes made one).
    let pieces: [[Int]]
    /// For each piece, the piece standing for its state: the first circle of a final state
    /// whose circles were drawn apart; itself otherwise.
    let statePiece: [Int]
    /// Per piece: closed round strokes (or concentric loosely round ones), loosely round single
    /// strokes, alone in their state, a round self-loop on another circle's rim, a state drawn
    /// shakily.
    let isRound: [Bool], isLooselyRound: [Bool], standsAlone: [Bool], isLoopRound: [Bool], isShakyState: [Bool]
    /// The round pieces' circles (each piece's outer stroke).
    let circles: [Circle]
    /// R: the median radius of the states' circles (nil without any).
    let scale: Double?

    /// The states found, as a sketch of states alone: each state-sized circle (a final state's
    /// circles one state, its outer one the final circle) and each state drawn shakily, its id
    /// the index of its piece. The later stages ask it the questions they ask of the finished
    /// sketch (`Sketch.snap`, `Sketch.endsAtTwoStates`, `Sketch.loopState`), so each question
    /// has one answer whether the states are found or resolved.
    let sketch: Sketch

    /// True when every point lies within `loopMinimumBulge` R of a state's circle (nearer than
    /// a self-loop must go out): an open stroke drawn along it (a circle touched up, or half
    /// drawn before it is drawn whole).
    func runsAlongACircle(_ points: [SketchPoint]) -> Bool {
        guard let scale else { return false }
        let reach = tuned.rules.loopMinimumBulge * scale
        return pieces.indices.contains { piece in
            isRound[piece] && pieces[piece].contains { circle in
                points.allSatisfy { Geometry.distance($0, toPolyline: measures[circle].points) <= reach }
            }
        }
    }
}

/// The states stage of the whole-sketch reading: finds the states' circles in the ink before
/// anything else is grouped, and measures R from them.
enum StateFinder {
    static func find(_ ink: [InkStroke]) -> StateSet {
        let measures = ink.map { DrawingMeasures($0.stroke.sketchPoints.nonEmptyOrOrigin) }
        let parameters = tuned  // read once: `tuned` is a task-local lookup
        // Pieces: the strokes of one drawing, in order of their first stroke.
        var pieceOf: [Int: Int] = [:]
        var pieces: [[Int]] = []
        for index in ink.indices {
            if let piece = pieceOf[ink[index].drawing] {
                pieces[piece].append(index)
            } else {
                pieceOf[ink[index].drawing] = pieces.count
                pieces.append([index])
            }
        }
        pieces = circlesDrawnInGoes(pieces, measures: measures)
        let isRound = pieces.map { piece in
            piece.allSatisfy { measures[$0].isClosedRound || measures[$0].isDoubleRound }
                || (piece.count > 1 && piece.allSatisfy { measures[$0].isLooselyRound } && concentric(piece.map { measures[$0] }))
        }
        // R: the median radius of the states' circles (those drawn in goes too), a final
        // state's outer circle left out (with it, two states of which one is final would
        // measure R by the outer circle).
        let roundStrokes = pieces.indices.filter { isRound[$0] }.flatMap { pieces[$0] }.map { measures[$0] }
            + pieces.filter { $0.count > 1 && formsOneCircle($0.map { measures[$0].points }) }.map { piece in
                DrawingMeasures(strokes: piece.map { measures[$0].points })
            }
        // R from the inner circles (`Geometry.typicalRadius`: round letters and one huge
        // circle left out).
        let innerRadii = roundStrokes.filter { circle in
            !roundStrokes.contains { $0.meanRadius < circle.meanRadius && concentric([$0, circle]) }
        }.map(\.meanRadius)
        let scale = Geometry.typicalRadius(innerRadii)

        // Final states drawn apart in time: single closed round strokes about one centre.
        var statePiece = Array(pieces.indices)
        func root(_ piece: Int) -> Int {
            var piece = piece
            while statePiece[piece] != piece { piece = statePiece[piece] }
            return piece
        }
        let isLooselyRound = pieces.map { piece in piece.count == 1 && measures[piece[0]].isLooselyRound }
        // By place, whatever order they were drawn in: the pairs of two closed round strokes
        // first, then those nearest to one centre (their offset in steps of `pathStep` of the
        // smaller radius, the resolution a circle is measured at), then the innermost circle with
        // the next one round it. A round letter written in a final state before its circles
        // does not take the place of its second circle, and a third circle round a final state
        // is the one left over.
        var pairs: [(a: Int, b: Int, key: [Double])] = []
        for a in pieces.indices where isLooselyRound[a] {
            for b in pieces.indices where b > a && isLooselyRound[b] && (isRound[a] || isRound[b]) {
                let (first, second) = (measures[pieces[a][0]], measures[pieces[b][0]])
                guard concentric([first, second]) else { continue }
                let radii = [first.meanRadius, second.meanRadius].sorted()
                let offset = (Geometry.distance(first.centroid, second.centroid) / (radii[0] * parameters.shapes.pathStep)).rounded(.down)
                pairs.append((a, b, [isRound[a] && isRound[b] ? 0 : 1, offset] + radii + [Double(a), Double(b)]))
            }
        }
        pairs.sort { $0.key.lexicographicallyPrecedes($1.key) }
        for (a, b, _) in pairs where root(a) != root(b) {
            // Two circles at most: a third round a final state is a mistake the rules report.
            guard pieces.indices.filter({ root($0) == root(a) || root($0) == root(b) }).map({ pieces[$0].count }).reduce(0, +) == 2
            else { continue }
            statePiece[root(b)] = root(a)
        }
        statePiece = pieces.indices.map(root)

        // A lone round stroke on another circle's rim, no larger than it, is a self-loop drawn
        // round (a state never overlaps another state).
        let standsAlone = pieces.indices.map { piece in
            pieces[piece].count == 1 && !pieces.indices.contains { $0 != piece && statePiece[$0] == statePiece[piece] }
        }
        let isLoopRound = pieces.indices.map { piece in
            guard isRound[piece], standsAlone[piece] else { return false }
            let loop = measures[pieces[piece][0]]
            return pieces.indices.contains { other in
                guard other != piece, isRound[other] else { return false }
                return pieces[other].contains { stroke in
                    let circle = measures[stroke]
                    return loop.meanRadius <= parameters.states.smallCircle * circle.meanRadius
                        && liesOnRim(of: circle, loop)
                }
            }
        }
        // A much smaller lone round stroke may be a self-loop or a closed head, not a state.
        let circles = pieces.indices.filter { isRound[$0] }.map { piece -> StateSet.Circle in
            let outer = pieces[piece].map { measures[$0] }.max { $0.meanRadius < $1.meanRadius }!
            let small = isLoopRound[piece]
                || standsAlone[piece] && scale.map { outer.meanRadius < parameters.states.smallCircle * $0 } ?? false
            return StateSet.Circle(piece: piece, center: outer.centroid, radius: outer.meanRadius, isSmall: small)
        }
        // A stroke going round once with a shakier hand than `isClosedRound` takes is a state's
        // circle when it is a final state's second circle, or when it stands alone, state-sized
        // and on no circle's rim. It carries no head (a transition's shaft, or a tick closing
        // the other circle, drawn beside it would otherwise be taken for one).
        let isShakyState = pieces.indices.map { piece -> Bool in
            guard let scale, isLooselyRound[piece], !isRound[piece] else { return false }
            if pieces.indices.contains(where: { $0 != piece && statePiece[$0] == statePiece[piece] && isRound[$0] }) { return true }
            let stroke = measures[pieces[piece][0]]
            return standsAlone[piece] && 2 * stroke.meanRadius >= parameters.connectors.closedHeadMaxExtent * scale
                && !circles.contains { circle in pieces[circle.piece].contains { liesOnRim(of: measures[$0], stroke) } }
        }
        var sketch = Sketch()
        for piece in pieces.indices where statePiece[piece] == piece {
            let own = circles.filter { !$0.isSmall && statePiece[$0.piece] == piece }.sorted { $0.radius < $1.radius }
            if let inner = own.first {
                sketch.states.append(SketchState(
                    id: piece, name: "", center: inner.center, radius: inner.radius, isFinal: own.count > 1,
                    finalCircle: own.count > 1 ? SketchCircle(center: own[own.count - 1].center, radius: own[own.count - 1].radius) : nil))
            } else if isShakyState[piece] {
                let stroke = measures[pieces[piece][0]]
                sketch.states.append(SketchState(id: piece, name: "", center: stroke.centroid, radius: stroke.meanRadius))
            }
        }
        return StateSet(
            measures: measures, pieces: pieces, statePiece: statePiece, isRound: isRound, isLooselyRound: isLooselyRound,
            standsAlone: standsAlone, isLoopRound: isLoopRound, isShakyState: isShakyState, circles: circles, scale: scale,
            sketch: sketch)
    }

    /// The pieces with each circle drawn in goes made one piece, as if drawn as one drawing:
    /// up to `symbolMaxStrokes` consecutive single arcs that together lie on one circle all the
    /// way round (see `formsOneCircle`), in whatever order and direction they were drawn. A
    /// ring lying on another circle's rim is a self-loop and its head, and stays apart.
    static func circlesDrawnInGoes(_ pieces: [[Int]], measures: [DrawingMeasures]) -> [[Int]] {
        // Arcs: strokes that do not go round by themselves.
        let isArc = pieces.map { piece in
            piece.count == 1 && abs(measures[piece[0]].winding) < tuned.shapes.roundWinding.lowerBound
        }
        let circles = pieces.indices.filter { pieces[$0].count == 1 && measures[pieces[$0][0]].isClosedRound }
            .map { measures[pieces[$0][0]] }
        func ring(from first: Int) -> Int? {
            guard isArc[first] else { return nil }
            var strokes = [measures[pieces[first][0]].points]
            for next in first + 1..<min(first + tuned.states.symbolMaxStrokes, pieces.count) {
                guard isArc[next] else { return nil }
                strokes.append(measures[pieces[next][0]].points)
                if formsOneCircle(strokes) {
                    let ring = DrawingMeasures(strokes: strokes)
                    return circles.contains { liesOnRim(of: $0, ring) } ? nil : next
                }
            }
            return nil
        }
        var result: [[Int]] = []
        var index = 0
        while index < pieces.count {
            let last = ring(from: index) ?? index
            result.append(pieces[index...last].flatMap { $0 })
            index = last + 1
        }
        return result
    }

    /// True when `round` overlaps `circle`'s rim: their centres further apart than concentric
    /// circles' (`concentricOffset`), nearer than `loopRoundReach` times their radii added. The
    /// one test of a round stroke on a rim (a self-loop drawn round), for the circles found and
    /// for the circle rule.
    static func liesOnRim(of circle: SketchCircle, _ round: SketchCircle) -> Bool {
        let apart = Geometry.distance(circle.center, round.center)
        return apart > tuned.states.concentricOffset * min(circle.radius, round.radius)
            && apart < tuned.states.loopRoundReach * (circle.radius + round.radius)
    }

    static func liesOnRim(of circle: DrawingMeasures, _ round: DrawingMeasures) -> Bool {
        liesOnRim(of: SketchCircle(center: circle.centroid, radius: circle.meanRadius), SketchCircle(center: round.centroid, radius: round.meanRadius))
    }

    /// True when the strokes' points together stay about one distance from their centre and go
    /// all the way round it (each of `circleSectors` sectors holds ink).
    static func formsOneCircle(_ strokes: [[SketchPoint]]) -> Bool {
        // The roundness alone: the other measures of the drawing are not needed here.
        let measured = DrawingMeasures.roundness(strokes: strokes)
        guard measured.radialSpread <= tuned.shapes.roundSpread else { return false }
        let sectors = max(1, tuned.states.circleSectors)
        var covered = [Bool](repeating: false, count: sectors)
        for point in strokes.joined() {
            let offset = point - measured.centroid
            let turn = (atan2(offset.y, offset.x) + Double.pi) / (2 * Double.pi)
            covered[min(sectors - 1, Int(turn * Double(sectors)))] = true
        }
        return !covered.contains(false)
    }

    /// True when the round strokes share about one centre and have comparable radii (see
    /// `Geometry.areConcentric`).
    static func concentric(_ circles: [DrawingMeasures]) -> Bool {
        Geometry.areConcentric(circles.map { (center: $0.centroid, radius: $0.meanRadius) })
    }}
