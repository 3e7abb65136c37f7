/// One sampled point of a pen stroke, in the drawing device's units (y grows down).
public struct StrokePoint: Codable, Hashable, Sendable {
    public var x: Double
    public var y: Double
    /// Time of the sample in milliseconds, when the device recorded it.
    public var time: Double?

    public init(x: Double, y: Double, time: Double? = nil) {
        self.x = x
        self.y = y
        self.time = time
    }
}

/// One continuous pen stroke: the points from pen-down to pen-up, in order.
public struct Stroke: Codable, Hashable, Sendable {
    public var points: [StrokePoint]

    public init(points: [StrokePoint]) {
        self.points = points
    }

    /// A stroke through `(x, y)` pairs, without timestamps.
    public init(_ xy: [(Double, Double)]) {
        self.points = xy.map { StrokePoint(x: $0.0, y: $0.1) }
    }
}
