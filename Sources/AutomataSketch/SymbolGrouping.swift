#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StrokeImage

/// One stroke of ink as the whole-sketch reader receives it, with the labels of its drawing.
public struct InkStroke: Hashable, Sendable {
    public var stroke: Stroke
    /// The drawing the stroke arrived in (a sketch line, or one `SketchEditor.add` call):
    /// strokes of one drawing always make one symbol.
    public var drawing: Int
    /// Symbols and ε flag for the transition or self-loop this stroke's symbol becomes.
    public var symbols: [String]
    public var isEpsilon: Bool
    /// Name for the state this stroke's symbol becomes.
    public var name: String?
    /// The shape a front end has already decided (`SketchEditor.add(_:as:)`); nil to classify.
    public var shape: StrokeShape?

    public init(
        stroke: Stroke, drawing: Int, symbols: [String] = [], isEpsilon: Bool = false,
        name: String? = nil, shape: StrokeShape? = nil
    ) {
        self.stroke = stroke
        self.drawing = drawing
        self.symbols = symbols
        self.isEpsilon = isEpsilon
        self.name = name
        self.shape = shape
    }
}

/// Strokes read as one symbol: a state (one circle, or two for a final state), an arrow (a
/// shaft or loop, and the head strokes drawn at its tip), or one stroke on its own.
public struct SymbolGroup: Hashable, Sendable {
    /// Indices into the ink, in drawing order.
    public var strokes: [Int]
    /// The strokes among them that are an arrowhead drawn on its own.
    public var heads: [Int]
    /// The points to read, stroke by stroke: the shaft oriented so that it ends at its head,
    /// then the head strokes (so a head drawn at the shaft's start reverses the shaft).
    public var drawing: [[SketchPoint]]
    /// True when `drawing` reverses the shaft as it was drawn.
    public var isReversed: Bool
    /// True when the group is two or more closed round strokes about one centre: a final
    /// state, whatever the classifier makes of the pair.
    public var isConcentricCircles: Bool
    /// True when the group is one open stroke drawn along a state's circle (a circle touched
    /// up, or half drawn before it is drawn whole): it reads as nothing.
    public var isRetracedCircle = false
}

/// Stage 1 of the whole-sketch reading: strokes grouped into symbols by geometry and order.
/// Strokes of one drawing stay together; across drawings, a second closed round stroke about
/// one centre joins the first (a final state whose circles were drawn apart in time), and a
/// small open stroke near the end of a shaft joins it as its head, whichever came first.
public enum SymbolGrouping {
    /// The ink's symbols, its states found first (`StateFinder`).
    public static func group(_ ink: [InkStroke]) -> [SymbolGroup] {
        group(ink, states: StateFinder.find(ink))
    }

    /// The ink's symbols: the states found, and the connectors grouped against them.
    static func group(_ ink: [InkStroke], states: StateSet) -> [SymbolGroup] {
        let measures = states.measures
        let parameters = tuned  // read once: `tuned` is a task-local lookup
        let pieces = states.pieces, isRound = states.isRound, isLooselyRound = states.isLooselyRound
        let scale = states.scale
        // Symbols as a union of pieces, starting from the states found (a final state's circles
        // drawn apart are one already).
        var parent = states.statePiece
        func root(_ piece: Int) -> Int {
            var piece = piece
            while parent[piece] != piece { piece = parent[piece] }
            return piece
        }
        var headOf: [Int: (shaft: Int, atStart: Bool)] = [:]  // piece -> shaft piece
        func isAloneInItsGroup(_ piece: Int) -> Bool {
            pieces[piece].count == 1 && !pieces.indices.contains { $0 != piece && root($0) == root(piece) }
        }
        let standsAlone = states.standsAlone, isLoopRound = states.isLoopRound, isShakyState = states.isShakyState

        // Heads: single open strokes near a shaft's end. Each head takes its best shaft end;
        // a shaft keeps the heads of one end (its tip) and small strokes drawn after it at
        // the other.
        if let scale {
            var candidates: [(head: Int, shaft: Int, atStart: Bool, score: Double)] = []
            // Each one-stroke piece's last part and, read backwards, its first part: where a
            // head drawn apart puts its tip at either end.
            let endParts = pieces.map { piece -> [ArraySlice<SketchPoint>] in
                let points = measures[piece[0]].points
                let reversed = Array(points.reversed())
                return [points[Geometry.portion(points, Geometry.lastPart)], reversed[Geometry.portion(reversed, Geometry.lastPart)]]
            }
            // A closed round stroke much smaller than the states can be a head drawn as a
            // closed triangle; concentric circles never are.
            let isSmallRound = pieces.indices.map { piece in
                isRound[piece] && standsAlone[piece]
                    && measures[pieces[piece][0]].meanRadius < parameters.states.smallCircle * scale
            }
            for head in pieces.indices where (!isRound[head] || isSmallRound[head]) && pieces[head].count == 1 {
                let headMeasures = measures[pieces[head][0]]
                let headPoints = headMeasures.points
                let extent = Geometry.extent(headPoints)
                // A closed head larger than `closedHeadMaxExtent` (not round: a state) takes only
                // a shaft drawn right before it (see `carriesHeadDrawnRightAfter`).
                let isBigClosed = !(isSmallRound[head] || extent <= parameters.connectors.closedHeadMaxExtent * scale
                    || Geometry.distance(headMeasures.start, headMeasures.last) >= parameters.connectors.headMinimumOpening * headMeasures.pathLength)
                guard !(isBigClosed && (isRound[head] || headMeasures.isLooselyRound)),
                    !states.sketch.endsAtTwoStates(headMeasures), states.sketch.loopState(headMeasures) == nil
                else { continue }
                // A simple open stroke as long as a short arrow is one, unless it lies at a
                // shaft's end as a head does (see `liesAsHead`).
                let couldBeAnArrow = headMeasures.isSimpleOpenStroke && headMeasures.chord >= parameters.connectors.shortArrow * scale
                // A round piece on a state's rim is a self-loop, whose head can be a stroke of its own.
                for shaft in pieces.indices where shaft != head && (!isRound[shaft] || isLoopRound[shaft])
                    && !isShakyState[shaft] && pieces[shaft].count == 1
                {
                    let shaftMeasures = measures[pieces[shaft][0]]
                    let gapInTime = pieces[head][0] - pieces[shaft][0]
                    let rightAfter = gapInTime == 1
                    let shaftExtent = shaftMeasures.extent
                    // A shaft is long enough for its head, and more than a closed head's size
                    // across.
                    let carriesHead = extent <= parameters.connectors.headMaxShaftFraction * shaftMeasures.pathLength
                        && shaftMeasures.pathLength >= parameters.connectors.shortArrow * scale
                        && shaftExtent > parameters.connectors.closedHeadMaxExtent * scale && !isBigClosed
                    // Drawn right after it, a shorter shaft, or a straight one no wider than a
                    // closed head, may carry a head up to about its own size, a big closed head
                    // too (an arrow drawn small, with a big head): the straighter, wider stroke
                    // of the two is the shaft.
                    let carriesHeadDrawnRightAfter = rightAfter
                        && extent <= parameters.connectors.rightAfterHeadMaxShaftFraction * shaftMeasures.pathLength
                        && shaftSpan(shaftMeasures) > shaftSpan(headMeasures)
                        && (shaftExtent > parameters.connectors.closedHeadMaxExtent * scale
                            || shaftMeasures.chord >= parameters.connectors.straightness * shaftMeasures.pathLength)
                    guard carriesHead || carriesHeadDrawnRightAfter else { continue }
                    let apart = rightAfter ? 0 : parameters.connectors.apartInTimePenalty
                    for atStart in [false, true] {
                        // The tip the arrow would have with this head (`Geometry.arrowTip`: its
                        // shaft's end, unless the pen hooked on past the head).
                        let end = Geometry.tip(ofLastPart: endParts[shaft][atStart ? 1 : 0], heads: headPoints)
                        let distance = headPoints.map { Geometry.distance($0, end) }.min()!
                        guard distance <= parameters.connectors.headMaxGap * scale else { continue }
                        // A bigger head (or one as long as an arrow) drawn right before its
                        // shaft joins it when it lies as a head at that end; drawn right after
                        // it, any head its shaft carries does.
                        let isBig = !rightAfter && extent > parameters.connectors.headMaxExtent * scale
                        if couldBeAnArrow || isBig {
                            guard abs(gapInTime) == 1, liesAsHead(headMeasures, at: shaftMeasures, atStart: atStart) else { continue }
                        }
                        candidates.append((head, shaft, atStart, distance / scale + apart))
                    }
                }
            }
            // A short shaft that could be the head (a barb) of a full-length shaft is none.
            let isShort = { (piece: Int) in measures[pieces[piece][0]].pathLength < parameters.connectors.shaftMinimum * scale }
            let headsOfFullShafts = Set(candidates.filter { !isShort($0.shaft) }.map(\.head))
            candidates.removeAll { isShort($0.shaft) && headsOfFullShafts.contains($0.shaft) }
            // Heads drawn right before or after a shaft first (in the writer's order a head
            // follows its shaft: one drawn apart must not take the end the shaft's own head is
            // at), then the nearest.
            let isAdjacent = { (candidate: (head: Int, shaft: Int, atStart: Bool, score: Double)) in
                abs(pieces[candidate.head][0] - pieces[candidate.shaft][0]) <= 1
            }
            candidates.sort { (isAdjacent($0) ? 0 : 1, $0.score) < (isAdjacent($1) ? 0 : 1, $1.score) }
            var tipEnd: [Int: Bool] = [:]  // shaft piece -> heads at its start
            for candidate in candidates {
                // A stroke that is a shaft (has a head) is no head itself, and vice versa.
                guard headOf[candidate.head] == nil, tipEnd[candidate.head] == nil,
                    headOf[candidate.shaft] == nil
                else { continue }
                // A shaft keeps the heads of one end, and small strokes drawn soon after it at
                // its other end (a tick at its start, or a head filled in later): their ink
                // decides which end is the tip (see `orient`).
                let later = pieces[candidate.head][0] - pieces[candidate.shaft][0]
                if let atStart = tipEnd[candidate.shaft], atStart != candidate.atStart,
                    !(1...parameters.states.symbolMaxStrokes).contains(later)
                        || Geometry.extent(measures[pieces[candidate.head][0]].points) > parameters.connectors.closedHeadMaxExtent * scale
                {
                    continue
                }
                tipEnd[candidate.shaft] = tipEnd[candidate.shaft] ?? candidate.atStart
                headOf[candidate.head] = (candidate.shaft, candidate.atStart)
                parent[root(candidate.head)] = root(candidate.shaft)
            }

            // Extensions: a lone open stroke that continues a shaft beyond one of its ends
            // (not the end its heads are at) joins it; it is part of the shaft, not a head.
            let isLone = pieces.indices.map { piece in
                !isRound[piece] && !isLooselyRound[piece] && headOf[piece] == nil && tipEnd[piece] == nil && isAloneInItsGroup(piece)
            }
            for piece in pieces.indices where isLone[piece] && !states.sketch.endsAtTwoStates(measures[pieces[piece][0]]) {
                let stroke = measures[pieces[piece][0]]
                let shafts = pieces.indices.compactMap { shaft -> (shaft: Int, gap: Double)? in
                    // The shaft is an open stroke, and not one of a state's circles.
                    guard shaft != piece, pieces[shaft].count == 1, !isRound[shaft], headOf[shaft] == nil,
                        root(shaft) != root(piece),
                        !pieces.indices.contains(where: { root($0) == root(shaft) && (isRound[$0] || isLooselyRound[$0]) }),
                        measures[pieces[shaft][0]].pathLength >= parameters.connectors.shaftMinimum * scale,
                        let end = extensionEnd(of: stroke, shaft: measures[pieces[shaft][0]], scale: scale),
                        tipEnd[shaft].map({ $0 != end.atStart }) ?? true
                    else { return nil }
                    return (shaft, end.gap)
                }
                guard let best = shafts.min(by: { $0.gap < $1.gap }) else { continue }
                parent[root(piece)] = root(best.shaft)
            }
        }

        // Groups, in order of their first stroke; the drawing oriented toward its head.
        var members: [Int: [Int]] = [:]
        for piece in pieces.indices { members[root(piece), default: []].append(piece) }
        let groups = members.values.map { groupPieces -> SymbolGroup in
            let strokes = groupPieces.flatMap { pieces[$0] }.sorted()
            var group = orient(strokes, measures: measures, scale: scale)
            if groupPieces.count == 1, strokes.count == 1, !isRound[groupPieces[0]] {
                group.isRetracedCircle = states.runsAlongACircle(measures[strokes[0]].points)
            }
            return group
        }
        return groups.sorted { $0.strokes[0] < $1.strokes[0] }
    }

    /// The group's drawing: for an arrow of several strokes, the longest open stroke is the
    /// shaft, the others its head; the shaft is reversed when the head lies at its start.
    private static func orient(_ strokes: [Int], measures: [DrawingMeasures], scale: Double?) -> SymbolGroup {
        let points = strokes.map { measures[$0].points }
        let allRound = strokes.allSatisfy { measures[$0].isClosedRound || measures[$0].isDoubleRound || measures[$0].isLooselyRound }
            || StateFinder.formsOneCircle(points)
        guard strokes.count > 1, !allRound else {
            return SymbolGroup(
                strokes: strokes, heads: [], drawing: points, isReversed: false,
                isConcentricCircles: strokes.count > 1 && StateFinder.concentric(strokes.map { measures[$0] }))
        }
        // The shaft is the widest stroke, open strokes weighted by their straightness (see
        // `shaftSpan`): a big head on a short arrow can span more than the shaft, but it is
        // bent at its apex, and a head drawn filled in is straight nowhere.
        let spans = strokes.map { shaftSpan(measures[$0]) }
        let shaft = strokes[spans.indices.max { spans[$0] < spans[$1] }!]
        // Strokes continuing the shaft beyond an end lengthen it; the others are its head.
        let shaftScale = scale ?? tuned.connectors.scaleWithoutStates * measures[shaft].pathLength
        var extensions: [(stroke: Int, atStart: Bool)] = []
        for stroke in strokes where stroke != shaft {
            if let end = extensionEnd(of: measures[stroke], shaft: measures[shaft], scale: shaftScale) {
                extensions.append((stroke, end.atStart))
            }
        }
        let heads = strokes.filter { stroke in stroke != shaft && !extensions.contains { $0.stroke == stroke } }
        let shaftPoints = extended(measures[shaft], by: extensions.map { (measures[$0.stroke], $0.atStart) })
        // Each head stroke votes for the shaft end nearest to it, by its ink: a tick at the
        // start does not outvote the head.
        var startVotes = 0.0, endVotes = 0.0
        for head in heads {
            let points = measures[head].points
            let toStart = points.map { Geometry.distance($0, shaftPoints[0]) }.min()!
            let toEnd = points.map { Geometry.distance($0, shaftPoints[shaftPoints.count - 1]) }.min()!
            let ink = Geometry.pathLength(points) + 1
            if toStart < toEnd { startVotes += ink } else { endVotes += ink }
        }
        let reversed = startVotes > endVotes
        let oriented = reversed ? Array(shaftPoints.reversed()) : shaftPoints
        return SymbolGroup(
            strokes: strokes, heads: heads, drawing: [oriented] + heads.map { measures[$0].points },
            isReversed: reversed, isConcentricCircles: false)
    }

    /// Where `stroke` continues `shaft` (see `extensionReach`, `extensionMaxAngle`): which
    /// end, and how far its nearer end lies from the shaft in R; nil when it does not.
    static func extensionEnd(
        of stroke: DrawingMeasures, shaft: DrawingMeasures, scale: Double
    ) -> (atStart: Bool, gap: Double)? {
        let points = stroke.points, shaftPoints = shaft.points
        guard points.count > 1, shaftPoints.count > 1, scale > 0,
            // Nearly straight, though it may come back a little along itself at its far end.
            Geometry.distance(stroke.start, stroke.tip) >= tuned.connectors.extensionStraightness * stroke.pathLength,
            // Shorter than the shaft: a second arrow drawn alongside is as long as the first.
            stroke.pathLength <= tuned.connectors.headMaxShaftFraction * shaft.pathLength
        else { return nil }
        for atStart in [false, true] {
            let (end, inner) = Geometry.endDirection(shaftPoints, atStart: atStart)
            let length = Geometry.distance(inner, end)
            guard length > 0 else { continue }
            let inward = (inner - end) / length
            // Along the shaft's end: positive back along the shaft, negative beyond its end.
            let along = points.map { (($0 - end) * inward).sum() }
            // It reaches well beyond the end (a barb's apex overshoots it by little).
            guard -(along.min()!) >= tuned.connectors.extensionReach * scale else { continue }
            // The stroke's end nearer the shaft starts at the shaft (or a small gap from its end)…
            let near = along.first! > along.last! ? stroke.start : stroke.last
            let far = points.max { Geometry.distance($0, near) < Geometry.distance($1, near) }!
            let gap = Geometry.distance(near, toPolyline: shaftPoints) / scale
            guard gap <= tuned.connectors.extensionReach else { continue }
            // …and heads out in line with the shaft.
            let outward = far - near
            let outwardLength = Geometry.distance(far, near)
            guard outwardLength > 0,
                -((outward * inward).sum()) / outwardLength >= cos(tuned.connectors.extensionMaxAngle * Double.pi / 180)
            else { continue }
            return (atStart, gap)
        }
        return nil
    }

    /// The shaft's points with each extension's points beyond its end added there, outward.
    static func extended(_ shaft: DrawingMeasures, by extensions: [(stroke: DrawingMeasures, atStart: Bool)]) -> [SketchPoint] {
        var points = shaft.points
        for (stroke, atStart) in extensions where points.count > 1 {
            let (end, inner) = Geometry.endDirection(points, atStart: atStart)
            let direction = end - inner
            // The extension's points past the end, ordered outward.
            let past = stroke.points.map { (point: $0, along: (($0 - end) * direction).sum()) }
                .filter { $0.along > 0 }.sorted { $0.along < $1.along }.map(\.point)
            points = atStart ? past.reversed() + points : points + past
        }
        return points
    }

    /// True when the stroke lies at the shaft's end as an arrowhead does: bent, about the end
    /// (at most `headMaxBeyond` of its size beyond it, along the shaft's direction there) and
    /// reaching out to both sides of the shaft's line, at least `headMinimumSpread` of its
    /// size each. A transition or state drawn next to the end lies beyond it or to one side.
    static func liesAsHead(_ head: DrawingMeasures, at shaft: DrawingMeasures, atStart: Bool) -> Bool {
        let (end, inner) = Geometry.endDirection(shaft.points, atStart: atStart)
        let length = Geometry.distance(end, inner)
        guard length > 0 else { return false }
        let forward = (end - inner) / length
        let normal = SketchPoint(-forward.y, forward.x)
        var beyond = -Double.infinity, left = 0.0, right = 0.0
        for point in head.points {
            let offset = point - end
            beyond = max(beyond, (offset * forward).sum())
            let across = (offset * normal).sum()
            left = max(left, across)
            right = max(right, -across)
        }
        let size = Geometry.extent(head.points)
        return Geometry.distance(head.start, head.last) < tuned.connectors.straightness * head.pathLength
            && beyond <= tuned.connectors.headMaxBeyond * size
            && min(left, right) >= tuned.connectors.headMinimumSpread * size
    }

    /// How much a stroke looks like a shaft: its extent times its straightness (chord over
    /// path length), so a straight line counts its full length, a wide V head about two
    /// thirds of it. A stroke that curls back (`DrawingMeasures.curlsBack`) is a loop (a
    /// self-loop's arc, or a narrow head) and counts its full extent.
    static func shaftSpan(_ stroke: DrawingMeasures) -> Double {
        let extent = stroke.extent
        let chord = Geometry.distance(stroke.start, stroke.last)
        guard stroke.pathLength > 0, !stroke.curlsBack else { return extent }
        return extent * chord / stroke.pathLength
    }


}

extension DrawingMeasures {
    /// True for a stroke that goes round once, wobbling more than a state drawn alone may:
    /// enough for one of two concentric circles, whose shared centre is the stronger sign.
    var isLooselyRound: Bool {
        tuned.shapes.roundWinding.contains(abs(winding))
            && min(radialSpread, ovalSpread) <= tuned.shapes.looseRoundSpread
    }

    /// True for one stroke going round its centre about twice (a final state in one go): two
    /// rings, each as round as `roundSpread` allows one, so its points spread twice that.
    var isDoubleRound: Bool {
        abs(winding) >= tuned.shapes.roundWinding.upperBound && radialSpread <= 2 * tuned.shapes.roundSpread
    }
}

extension Array where Element == SketchPoint {
    /// The points, or one point at the origin for an empty stroke (measures need a point).
    var nonEmptyOrOrigin: [SketchPoint] { isEmpty ? [.zero] : self }
}

extension Geometry {
    /// The diagonal of the points' bounding box.
    static func extent(_ points: [SketchPoint]) -> Double {
        guard let first = points.first else { return 0 }
        var low = first, high = first
        for point in points {
            low = pointwiseMin(low, point)
            high = pointwiseMax(high, point)
        }
        return distance(low, high)
    }
}
