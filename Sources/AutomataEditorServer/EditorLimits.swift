/// What one request may carry and how many sessions one server keeps. A request over a
/// limit gets a 4xx answer that names the limit, and changes nothing.
public struct EditorLimits: Sendable {
    /// Largest request body. A 30-stroke diagram's longest stroke is a few hundred points,
    /// about 10 KB of JSON; 1 MiB leaves room for a long `.automaton` document.
    public var maximumBodyBytes: Int
    /// Most points in one stroke (a minute of pen input at 120 Hz is 7,200).
    public var maximumPointsPerStroke: Int
    /// Most strokes drawn as one symbol (an arrow in several pieces, a double circle).
    public var maximumStrokesPerDrawing: Int
    /// Most sessions kept at once; creating one more is refused until one is deleted.
    public var maximumSessions: Int
    /// Most strokes in an opened ink file (InkML), each drawn as one request would be.
    public var maximumOpenedStrokes: Int = 2_000
    /// Coordinates beyond this magnitude are refused (a canvas is a few thousand units wide).
    public var maximumCoordinate: Double

    public init(
        maximumBodyBytes: Int = 1 << 20, maximumPointsPerStroke: Int = 10_000, maximumStrokesPerDrawing: Int = 16,
        maximumSessions: Int = 1_000, maximumCoordinate: Double = 1e6
    ) {
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumPointsPerStroke = maximumPointsPerStroke
        self.maximumStrokesPerDrawing = maximumStrokesPerDrawing
        self.maximumSessions = maximumSessions
        self.maximumCoordinate = maximumCoordinate
    }
}
