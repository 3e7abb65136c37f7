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

/// Thresholds of the grouping stage, relative to the sketch's typical state radius R (the
/// median radius of its states' circles: closed round strokes and circles drawn in goes, a
/// final state's outer circle left out), like `StrokeRuleThresholds`.
public enum GroupingThresholds {
    /// A head stroke is at most this many R across (real heads are 0.5–1.5 R; a short
    /// transition between neighbouring states is longer)…
    public static let headMaxExtent = 1.8
    /// …or this many R for the stroke drawn right after its shaft (a big head: the FA
    /// database has them up to 2 R).
    public static let headMaxExtentRightAfter = 2.4
    /// …at most this fraction of its shaft's path long (real heads: mostly below 0.4, a
    /// big head on a short initial arrow up to 0.85)…
    public static let headMaxShaftFraction = 0.9
    /// A head drawn right after its shaft may be up to this fraction of the shaft's path
    /// across: an arrow drawn small, with a big head (arrows people draw on their own, as in
    /// `real-strokes`, have heads 0.56–0.82 of the shaft, quartiles)…
    public static let rightAfterHeadMaxShaftFraction = 1.6
    /// …on a shaft as short as this many R…
    public static let rightAfterShaftMinimum = 0.6
    /// …which, when no wider than a closed head (`closedHeadMaxExtent`), is nearly straight:
    /// its ends at least this fraction of its path apart.
    public static let rightAfterShaftStraightness = 0.9
    /// A head drawn right before or after its shaft, lying at its end as a head does (see
    /// `SymbolGrouping.liesAsHead`), is at most this many R across (real heads, largest side:
    /// 0.44–1.40 R, 10th–90th percentile, 7% above 1.8 R).
    public static let lyingHeadMaxExtent = 3.0
    /// A head lies about its shaft's end: at most this fraction of its size beyond it (a
    /// shaft may stop short of the head's apex)…
    public static let headMaxBeyond = 0.5
    /// …reaching out to each side of the shaft's line at least this fraction of its size…
    public static let headMinimumSpread = 0.15
    /// …and bent: its ends at most this fraction of its path apart (a line across the end is
    /// no head).
    public static let headMaxStraightness = 0.85
    /// A shaft is at least this many R long (a barb of a two-stroke head is no shaft)…
    public static let shaftMinimum = 1.5
    /// …or at least this many R when it could not itself be the head of a longer shaft (a
    /// short initial arrow beside a big state is about 1.3 R).
    public static let shortShaftMinimum = 1.2
    /// A simple open stroke (a shaft with at most a head at its tip) that spans this many R
    /// or more is an arrow of its own, not a head.
    public static let headMaxShaft = 1.2
    /// …and comes within this many R of the shaft's end (real heads: 0.0–0.5 R).
    public static let headReach = 0.8
    /// …or this many R for the stroke drawn right after the shaft (in the writer's order the
    /// next stroke near a shaft's end is its head, even one stopping short of it).
    public static let headReachRightAfter = 1.0
    /// An open stroke whose every point lies within this many R of a state's circle is drawn
    /// along that circle, not an arrow.
    public static let retraceReach = 0.35
    /// A small stroke at the other end of a shaft with a head joins it when drawn at most
    /// this many strokes after the shaft (while the writer is still at that arrow; a later
    /// one belongs to something else drawn there).
    public static let otherEndMaxStrokesLater = 6
    /// A head drawn closed (a small triangle or curl) is at most this many R across: no
    /// state is so small.
    public static let closedHeadMaxExtent = 1.0
    /// A head's ends are at least this fraction of its path apart (a V is about 0.5, a
    /// narrow one 0.25, a barb 1), unless it is a closed head (see `smallCircle`,
    /// `closedHeadMaxExtent`) or a scribble.
    public static let headMinimumOpening = 0.1
    /// A circle may be drawn in up to this many strokes one after another (low-vision writers
    /// draw some in three or four).
    public static let circleMaxGoes = 4
    /// …each drawing at least this share of its circumference (a head or tick drawn beside a
    /// state is less).
    public static let circleGoMinimumShare = 0.1
    /// A head drawn right before or after its shaft is preferred over an equally near one
    /// drawn at another time: this many R are added to the distance of a head drawn apart.
    public static let apartInTimePenalty = 0.25
    /// Of two heads drawn right before and right after, the one after is preferred (people
    /// draw a head after its shaft: 199 of 209 arrows of the FA database's 22 diagrams; 5
    /// head first): this many R are added to the distance of a head drawn right before.
    public static let headFirstPenalty = 0.1
    /// Two closed round strokes are one final state's circles when their centres are at most
    /// this fraction of the smaller radius apart…
    public static let concentricOffset = 0.8
    /// …and the larger radius is at most this many times the smaller.
    public static let concentricRatio = 2.5
    /// A circle smaller than this fraction of the median circle is resolved after the others
    /// (it may be a self-loop drawn round, which needs its state in place).
    public static let smallCircle = 0.85
    /// A nearly straight stroke continues a shaft (a shaft drawn in two goes, or lengthened
    /// later) when it starts within this many R of the shaft…
    public static let extensionReach = 0.5
    /// …heads out of the shaft's end at most this many degrees off the shaft's direction
    /// there…
    public static let extensionMaxAngle = 30.0
    /// …reaches at least this many R beyond the end (it may also retrace the shaft)…
    public static let extensionMinimumBeyond = 0.5
    /// …and is at most this fraction of the shaft's length (a second arrow drawn alongside the
    /// first is about as long).
    public static let extensionMaxShaftFraction = 0.7
    /// A stroke whose path is more than this many times its extent is a scribble (a head
    /// filled in: 4–8; a shaft about 1, a self-loop about 2, a folded one-stroke arrow 1.5–2).
    public static let scribbleMinimumCrumple = 3.0
    /// A self-loop is at least this many R long (real ones: 2.8–6.4 R; a barb drawn at a rim,
    /// which can also leave the rim and come back, is shorter).
    public static let loopMinimumPath = 2.0
    /// A round stroke overlapping a circle at least this fraction of its size is a self-loop
    /// drawn round on that circle's rim, which may have a head of its own.
    public static let loopRoundMaxRatio = 0.9
    /// …when their centres are less than this many times the sum of their radii apart.
    public static let loopRoundReach = 1.2
    /// A loosely round stroke standing alone, off every circle's rim, is a state drawn
    /// shakily (it carries no head) when its mean radius is at least this many R.
    public static let shakyStateMinimumRadius = 0.5
    /// Each of two concentric circles may stray this much from its circle or oval (see
    /// `DrawingMeasures.radialSpread`; a state alone: `StrokeRuleThresholds.roundSpread`).
    public static let looseRoundSpread = 0.6
}

/// Stage 1 of the whole-sketch reading: strokes grouped into symbols by geometry and order.
/// Strokes of one drawing stay together; across drawings, a second closed round stroke about
/// one centre joins the first (a final state whose circles were drawn apart in time), and a
/// small open stroke near the end of a shaft joins it as its head, whichever came first.
public enum SymbolGrouping {
    public static func group(_ ink: [InkStroke]) -> [SymbolGroup] {
        let measures = ink.map { DrawingMeasures($0.stroke.sketchPoints.nonEmptyOrOrigin) }
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
                DrawingMeasures(piece.flatMap { measures[$0].points })
            }
        let roundRadii = roundStrokes.filter { circle in
            !roundStrokes.contains { $0.meanRadius < circle.meanRadius && concentric([$0, circle]) }
        }.map(\.meanRadius).sorted()
        let scale = roundRadii.isEmpty ? nil : roundRadii[roundRadii.count / 2]

        var parent = Array(pieces.indices)
        func root(_ piece: Int) -> Int {
            var piece = piece
            while parent[piece] != piece { piece = parent[piece] }
            return piece
        }
        var headOf: [Int: (shaft: Int, atStart: Bool)] = [:]  // piece -> shaft piece

        // Final states drawn apart in time: single closed round strokes about one centre.
        let isLooselyRound = pieces.map { piece in piece.count == 1 && measures[piece[0]].isLooselyRound }
        for a in pieces.indices where isLooselyRound[a] {
            for b in pieces.indices where b > a && isLooselyRound[b] && root(a) != root(b) && (isRound[a] || isRound[b]) {
                // Two circles at most: a third round a final state is a mistake the rules report.
                guard concentric([measures[pieces[a][0]], measures[pieces[b][0]]]),
                    pieces.indices.filter({ root($0) == root(a) || root($0) == root(b) }).map({ pieces[$0].count }).reduce(0, +) == 2
                else { continue }
                parent[root(b)] = root(a)
            }
        }

        // A lone round stroke on another circle's rim, no larger than it, is a self-loop drawn
        // round (a state never overlaps another state).
        func isAloneInItsGroup(_ piece: Int) -> Bool {
            pieces[piece].count == 1 && !pieces.indices.contains { $0 != piece && root($0) == root(piece) }
        }
        let standsAlone = pieces.indices.map(isAloneInItsGroup)
        let isLoopRound = pieces.indices.map { piece in
            guard isRound[piece], standsAlone[piece] else { return false }
            let loop = measures[pieces[piece][0]]
            return pieces.indices.contains { other in
                guard other != piece, isRound[other] else { return false }
                return pieces[other].contains { stroke in
                    let circle = measures[stroke]
                    return circle.meanRadius >= GroupingThresholds.loopRoundMaxRatio * loop.meanRadius
                        && liesOnRim(of: circle, loop)
                }
            }
        }
        // A much smaller lone round stroke may be a self-loop or a closed head, not a state.
        let circles = pieces.indices.filter { isRound[$0] }.map { piece -> (piece: Int, center: SketchPoint, radius: Double, small: Bool) in
            let outer = pieces[piece].map { measures[$0] }.max { $0.meanRadius < $1.meanRadius }!
            let small = isLoopRound[piece]
                || standsAlone[piece] && scale.map { outer.meanRadius < GroupingThresholds.smallCircle * $0 } ?? false
            return (piece, outer.centroid, outer.meanRadius, small)
        }
        // A stroke going round once with a shakier hand than `isClosedRound` takes is a state's
        // circle when it is a final state's second circle, or when it stands alone, state-sized
        // and on no circle's rim. It carries no head (a transition's shaft, or a tick closing
        // the other circle, drawn beside it would otherwise be taken for one).
        let isShakyState = pieces.indices.map { piece -> Bool in
            guard let scale, isLooselyRound[piece], !isRound[piece] else { return false }
            if pieces.indices.contains(where: { $0 != piece && root($0) == root(piece) && isRound[$0] }) { return true }
            let stroke = measures[pieces[piece][0]]
            return standsAlone[piece] && stroke.meanRadius >= GroupingThresholds.shakyStateMinimumRadius * scale
                && !circles.contains { circle in pieces[circle.piece].contains { liesOnRim(of: measures[$0], stroke) } }
        }
        /// True when the stroke's ends lie at two different circles (other than the stroke's own
        /// piece): a transition, not a head.
        func joinsTwoCircles(_ stroke: DrawingMeasures, piece: Int) -> Bool {
            // The state at a point: the nearest rim within reach, a state-sized circle before
            // a small one; the circles of one final state (joined above) are one.
            func state(at point: SketchPoint) -> Int? {
                circles.filter {
                    $0.piece != piece && Geometry.distance(point, $0.center) <= $0.radius * (1 + StrokeRuleThresholds.arrowSnap)
                }.min {
                    ($0.small ? 1 : 0, Geometry.distance(point, $0.center) - $0.radius)
                        < ($1.small ? 1 : 0, Geometry.distance(point, $1.center) - $1.radius)
                }.map { root($0.piece) }
            }
            guard let first = state(at: stroke.start), let second = state(at: stroke.last) else { return false }
            return first != second
        }

        // The circles a self-loop can sit on: the states' circles, shaky ones too.
        let loopHosts = circles.filter { !$0.small }.map { (center: $0.center, radius: $0.radius) }
            + pieces.indices.filter { isShakyState[$0] }.map { piece in
                (center: measures[pieces[piece][0]].centroid, radius: measures[pieces[piece][0]].meanRadius)
            }
        /// True when the stroke leaves a circle's rim and comes back to it with its middle
        /// farthest out: a self-loop. (A head at a rim is the other way round: its apex, in
        /// the middle, is nearest to the state, its barbs' ends farther out.)
        func isLoopOnACircle(_ stroke: DrawingMeasures) -> Bool {
            loopHosts.contains { circle in
                let reach = circle.radius * (1 + StrokeRuleThresholds.loopReach)
                guard stroke.pathLength >= GroupingThresholds.loopMinimumPath * circle.radius else { return false }
                let distances = stroke.points.map { Geometry.distance($0, circle.center) }
                guard let farthest = distances.indices.max(by: { distances[$0] < distances[$1] }) else { return false }
                let margin = distances.count / 6
                guard farthest > margin, farthest < distances.count - 1 - margin else { return false }
                // Where it leaves the rim and where it comes back (a head drawn on at its end
                // takes the pen out again).
                let leaves = distances[..<farthest].min()!, comesBack = distances[(farthest + 1)...].min()!
                return leaves <= reach && comesBack <= reach
                    && distances[farthest] >= max(leaves, comesBack) + StrokeRuleThresholds.loopMinimumBulge * circle.radius
            }
        }

        // Heads: single open strokes near a shaft's end. Each head takes its best shaft end;
        // a shaft keeps the heads of one end (its tip) and small strokes drawn after it at
        // the other.
        if let scale {
            var candidates: [(head: Int, shaft: Int, atStart: Bool, score: Double)] = []
            // A closed round stroke much smaller than the states can be a head drawn as a
            // closed triangle; concentric circles never are.
            let isSmallRound = pieces.indices.map { piece in
                isRound[piece] && standsAlone[piece]
                    && measures[pieces[piece][0]].meanRadius < GroupingThresholds.smallCircle * scale
            }
            for head in pieces.indices where (!isRound[head] || isSmallRound[head]) && pieces[head].count == 1 {
                let headMeasures = measures[pieces[head][0]]
                let headPoints = headMeasures.points
                let extent = Geometry.extent(headPoints)
                // A closed head larger than `closedHeadMaxExtent` (not round: a state) takes only
                // a shaft drawn right before it (see `carriesHeadDrawnRightAfter`).
                let isBigClosed = !(isSmallRound[head] || isScribble(headMeasures) || extent <= GroupingThresholds.closedHeadMaxExtent * scale
                    || Geometry.distance(headMeasures.start, headMeasures.last) >= GroupingThresholds.headMinimumOpening * headMeasures.pathLength)
                guard extent <= GroupingThresholds.lyingHeadMaxExtent * scale,
                    !(isBigClosed && (isRound[head] || headMeasures.isLooselyRound)),
                    !joinsTwoCircles(headMeasures, piece: head), !isLoopOnACircle(headMeasures)
                else { continue }
                // A simple open stroke as long as a short arrow is one, unless it lies at a
                // shaft's end as a head does (see `liesAsHead`).
                let couldBeAnArrow = headMeasures.isSimpleOpenStroke && headMeasures.chord >= GroupingThresholds.headMaxShaft * scale
                // A round piece on a state's rim is a self-loop, whose head can be a stroke of its own.
                for shaft in pieces.indices where shaft != head && (!isRound[shaft] || isLoopRound[shaft])
                    && !isShakyState[shaft] && pieces[shaft].count == 1
                {
                    let shaftMeasures = measures[pieces[shaft][0]]
                    let gapInTime = pieces[head][0] - pieces[shaft][0]
                    let rightAfter = gapInTime == 1
                    let shaftExtent = Geometry.extent(shaftMeasures.points)
                    // A shaft is long enough for its head, and more than a closed head's size
                    // across.
                    let carriesHead = extent <= GroupingThresholds.headMaxShaftFraction * shaftMeasures.pathLength
                        && shaftMeasures.pathLength >= GroupingThresholds.shortShaftMinimum * scale
                        && shaftExtent > GroupingThresholds.closedHeadMaxExtent * scale && !isBigClosed
                    // Drawn right after it, a short straight shaft may carry a head up to about its
                    // own size, a big closed head too (an arrow drawn small, with a big head): the
                    // straighter, wider stroke of the two is the shaft.
                    let carriesHeadDrawnRightAfter = rightAfter
                        && extent <= GroupingThresholds.rightAfterHeadMaxShaftFraction * shaftMeasures.pathLength
                        && shaftMeasures.pathLength >= GroupingThresholds.rightAfterShaftMinimum * scale
                        && shaftSpan(shaftMeasures) > shaftSpan(headMeasures)
                        && (shaftExtent > GroupingThresholds.closedHeadMaxExtent * scale
                            || shaftMeasures.chord >= GroupingThresholds.rightAfterShaftStraightness * shaftMeasures.pathLength)
                    guard carriesHead || carriesHeadDrawnRightAfter, !isScribble(shaftMeasures) else { continue }
                    let apart = abs(gapInTime) > 1 ? GroupingThresholds.apartInTimePenalty
                        : gapInTime < 0 ? GroupingThresholds.headFirstPenalty : 0
                    for (end, atStart) in [(shaftMeasures.last, false), (shaftMeasures.start, true)] {
                        let distance = headPoints.map { Geometry.distance($0, end) }.min()!
                        guard distance <= (rightAfter ? GroupingThresholds.headReachRightAfter : GroupingThresholds.headReach) * scale
                        else { continue }
                        // A bigger head (or one as long as an arrow) drawn right before or after
                        // its shaft joins it when it lies as a head at that end.
                        let isBig = extent > (rightAfter ? GroupingThresholds.headMaxExtentRightAfter : GroupingThresholds.headMaxExtent) * scale
                        if couldBeAnArrow || isBig {
                            guard abs(gapInTime) == 1, liesAsHead(headMeasures, at: shaftMeasures, atStart: atStart) else { continue }
                        }
                        candidates.append((head, shaft, atStart, distance / scale + apart))
                    }
                }
            }
            // A short shaft that could be the head (a barb) of a full-length shaft is none.
            let isShort = { (piece: Int) in measures[pieces[piece][0]].pathLength < GroupingThresholds.shaftMinimum * scale }
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
                    !(1...GroupingThresholds.otherEndMaxStrokesLater).contains(later)
                        || Geometry.extent(measures[pieces[candidate.head][0]].points) > GroupingThresholds.closedHeadMaxExtent * scale
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
            for piece in pieces.indices where isLone[piece] && !joinsTwoCircles(measures[pieces[piece][0]], piece: piece) {
                let stroke = measures[pieces[piece][0]]
                let shafts = pieces.indices.compactMap { shaft -> (shaft: Int, gap: Double)? in
                    // The shaft is an open stroke, and not one of a state's circles.
                    guard shaft != piece, pieces[shaft].count == 1, !isRound[shaft], headOf[shaft] == nil,
                        root(shaft) != root(piece),
                        !pieces.indices.contains(where: { root($0) == root(shaft) && (isRound[$0] || isLooselyRound[$0]) }),
                        measures[pieces[shaft][0]].pathLength >= GroupingThresholds.shaftMinimum * scale,
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
            if let scale, groupPieces.count == 1, strokes.count == 1, !isRound[groupPieces[0]] {
                let points = measures[strokes[0]].points
                group.isRetracedCircle = pieces.indices.contains { piece in
                    isRound[piece] && pieces[piece].contains { circle in
                        points.allSatisfy {
                            Geometry.distance($0, toPolyline: measures[circle].points) <= GroupingThresholds.retraceReach * scale
                        }
                    }
                }
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
            || formsOneCircle(points, eachDrawingAtLeast: 0)
        guard strokes.count > 1, !allRound else {
            return SymbolGroup(
                strokes: strokes, heads: [], drawing: points, isReversed: false,
                isConcentricCircles: strokes.count > 1 && concentric(strokes.map { measures[$0] }))
        }
        // The shaft is the widest stroke, open strokes weighted by their straightness (see
        // `shaftSpan`): a big head on a short arrow can span more than the shaft, but it is
        // bent at its apex, and a head drawn filled in is straight nowhere.
        let spans = strokes.map { shaftSpan(measures[$0]) }
        let shaft = strokes[spans.indices.max { spans[$0] < spans[$1] }!]
        // Strokes continuing the shaft beyond an end lengthen it; the others are its head.
        let shaftScale = scale ?? 0.25 * measures[shaft].pathLength
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

    /// The pieces with each circle drawn in goes made one piece, as if drawn as one drawing:
    /// up to `circleMaxGoes` consecutive single arcs that together lie on one circle all the
    /// way round (see `formsOneCircle`), in whatever order and direction they were drawn. A
    /// ring lying on another circle's rim is a self-loop and its head, and stays apart.
    static func circlesDrawnInGoes(_ pieces: [[Int]], measures: [DrawingMeasures]) -> [[Int]] {
        // Arcs: strokes that do not go round by themselves.
        let isArc = pieces.map { piece in
            piece.count == 1 && abs(measures[piece[0]].winding) < StrokeRuleThresholds.roundWinding.lowerBound
        }
        let circles = pieces.indices.filter { pieces[$0].count == 1 && measures[pieces[$0][0]].isClosedRound }
            .map { measures[pieces[$0][0]] }
        func ring(from first: Int) -> Int? {
            guard isArc[first] else { return nil }
            var strokes = [measures[pieces[first][0]].points]
            for next in first + 1..<min(first + GroupingThresholds.circleMaxGoes, pieces.count) {
                guard isArc[next] else { return nil }
                strokes.append(measures[pieces[next][0]].points)
                if formsOneCircle(strokes) {
                    let ring = DrawingMeasures(strokes.flatMap { $0 })
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
    /// circles' (`concentricOffset`), nearer than `loopRoundReach` times their radii added.
    static func liesOnRim(of circle: DrawingMeasures, _ round: DrawingMeasures) -> Bool {
        let apart = Geometry.distance(circle.centroid, round.centroid)
        return apart > GroupingThresholds.concentricOffset * min(circle.meanRadius, round.meanRadius)
            && apart < GroupingThresholds.loopRoundReach * (circle.meanRadius + round.meanRadius)
    }

    /// True when the strokes' points together stay about one distance from their centre and go
    /// all the way round it (every twelfth of the turn holds ink), each stroke drawing at least
    /// `share` of it (by default `circleGoMinimumShare`).
    static func formsOneCircle(_ strokes: [[SketchPoint]], eachDrawingAtLeast share: Double = GroupingThresholds.circleGoMinimumShare) -> Bool {
        let measured = DrawingMeasures(strokes.flatMap { $0 }.nonEmptyOrOrigin)
        let circumference = 2 * Double.pi * measured.meanRadius
        guard measured.radialSpread <= StrokeRuleThresholds.roundSpread,
            strokes.allSatisfy({ Geometry.pathLength($0) >= share * circumference })
        else { return false }
        var covered = [Bool](repeating: false, count: 12)
        for point in strokes.joined() {
            let offset = point - measured.centroid
            let turn = (atan2(offset.y, offset.x) + Double.pi) / (2 * Double.pi)
            covered[min(11, Int(turn * 12))] = true
        }
        return !covered.contains(false)
    }

    /// Where `stroke` continues `shaft` (see `extensionReach`, `extensionMaxAngle`): which
    /// end, and how far its nearer end lies from the shaft in R; nil when it does not.
    static func extensionEnd(
        of stroke: DrawingMeasures, shaft: DrawingMeasures, scale: Double
    ) -> (atStart: Bool, gap: Double)? {
        let points = stroke.points, shaftPoints = shaft.points
        guard points.count > 1, shaftPoints.count > 4, scale > 0,
            // Nearly straight, though it may come back a little along itself at its far end.
            Geometry.distance(stroke.start, stroke.farthest) >= 0.6 * stroke.pathLength,
            // Shorter than the shaft: a second arrow drawn alongside is as long as the first.
            stroke.pathLength <= GroupingThresholds.extensionMaxShaftFraction * shaft.pathLength
        else { return nil }
        for atStart in [false, true] {
            let (end, inner) = endAndInner(of: shaftPoints, atStart: atStart)
            let length = Geometry.distance(inner, end)
            guard length > 0 else { continue }
            let inward = (inner - end) / length
            // Along the shaft's end: positive back along the shaft, negative beyond its end.
            let along = points.map { (($0 - end) * inward).sum() }
            // It reaches well beyond the end (a barb's apex overshoots it by little).
            guard -(along.min()!) >= GroupingThresholds.extensionMinimumBeyond * scale else { continue }
            // The stroke's end nearer the shaft starts at the shaft (or a small gap from its end)…
            let near = along.first! > along.last! ? stroke.start : stroke.last
            let far = points.max { Geometry.distance($0, near) < Geometry.distance($1, near) }!
            let gap = Geometry.distance(near, toPolyline: shaftPoints) / scale
            guard gap <= GroupingThresholds.extensionReach else { continue }
            // …and heads out in line with the shaft.
            let outward = far - near
            let outwardLength = Geometry.distance(far, near)
            guard outwardLength > 0,
                -((outward * inward).sum()) / outwardLength >= cos(GroupingThresholds.extensionMaxAngle * Double.pi / 180)
            else { continue }
            return (atStart, gap)
        }
        return nil
    }

    /// The shaft's points with each extension's points beyond its end added there, outward.
    static func extended(_ shaft: DrawingMeasures, by extensions: [(stroke: DrawingMeasures, atStart: Bool)]) -> [SketchPoint] {
        var points = shaft.points
        for (stroke, atStart) in extensions where points.count > 1 {
            let (end, inner) = endAndInner(of: points, atStart: atStart)
            let direction = end - inner
            // The extension's points past the end, ordered outward.
            let past = stroke.points.map { (point: $0, along: (($0 - end) * direction).sum()) }
                .filter { $0.along > 0 }.sorted { $0.along < $1.along }.map(\.point)
            points = atStart ? past.reversed() + points : points + past
        }
        return points
    }

    /// True for ink going back and forth in a small space (a head filled in): no shaft,
    /// though it may be part of a head however its ends lie.
    static func isScribble(_ stroke: DrawingMeasures) -> Bool {
        stroke.pathLength > GroupingThresholds.scribbleMinimumCrumple * Geometry.extent(stroke.points)
    }

    /// A shaft's end and the point a fifth of its path back from it, which give the direction
    /// the shaft runs in there. (By path, not by point count: a pen slows down at the end of
    /// a stroke and bunches its last points.)
    static func endAndInner(of points: [SketchPoint], atStart: Bool) -> (end: SketchPoint, inner: SketchPoint) {
        let inward = atStart ? points : points.reversed()
        let reach = Geometry.pathLength(points) / 5
        var walked = 0.0
        for index in inward.indices.dropFirst() {
            walked += Geometry.distance(inward[index - 1], inward[index])
            if walked >= reach { return (inward[0], inward[index]) }
        }
        return (inward[0], inward[inward.count - 1])
    }

    /// True when the stroke lies at the shaft's end as an arrowhead does: bent, about the end
    /// (at most `headMaxBeyond` of its size beyond it, along the shaft's direction there) and
    /// reaching out to both sides of the shaft's line, at least `headMinimumSpread` of its
    /// size each. A transition or state drawn next to the end lies beyond it or to one side.
    static func liesAsHead(_ head: DrawingMeasures, at shaft: DrawingMeasures, atStart: Bool) -> Bool {
        let (end, inner) = endAndInner(of: shaft.points, atStart: atStart)
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
        return Geometry.distance(head.start, head.last) <= GroupingThresholds.headMaxStraightness * head.pathLength
            && beyond <= GroupingThresholds.headMaxBeyond * size
            && min(left, right) >= GroupingThresholds.headMinimumSpread * size
    }

    /// How much a stroke looks like a shaft: its extent times its straightness (chord over
    /// path length), so a straight line counts its full length, a wide V head about two
    /// thirds of it. A stroke whose ends come back within half its extent of each other is a
    /// loop (a self-loop's arc, or a narrow head) and counts its full extent.
    static func shaftSpan(_ stroke: DrawingMeasures) -> Double {
        let extent = Geometry.extent(stroke.points)
        let chord = Geometry.distance(stroke.start, stroke.last)
        guard stroke.pathLength > 0, chord >= 0.5 * extent else { return extent }
        return extent * chord / stroke.pathLength
    }

    /// True when the round strokes share about one centre and have comparable radii.
    static func concentric(_ circles: [DrawingMeasures]) -> Bool {
        let radii = circles.map(\.meanRadius)
        guard let small = radii.min(), let large = radii.max(), small > 0,
            large / small <= GroupingThresholds.concentricRatio
        else { return false }
        return circles.allSatisfy {
            Geometry.distance($0.centroid, circles[0].centroid) <= GroupingThresholds.concentricOffset * small
        }
    }
}

extension DrawingMeasures {
    /// True for a stroke that goes round once, wobbling more than a state drawn alone may:
    /// enough for one of two concentric circles, whose shared centre is the stronger sign.
    var isLooselyRound: Bool {
        StrokeRuleThresholds.roundWinding.contains(abs(winding))
            && min(radialSpread, ovalSpread) <= GroupingThresholds.looseRoundSpread
    }

    /// True for one stroke going round its centre about twice (a final state in one go).
    var isDoubleRound: Bool {
        abs(winding) >= StrokeRuleThresholds.doubleCircleTurns && radialSpread <= 2 * StrokeRuleThresholds.roundSpread
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
