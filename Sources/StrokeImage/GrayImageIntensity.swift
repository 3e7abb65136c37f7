extension GrayImage {
    /// The average pixel value, 0 (all black) to 255 (all white); 0 for an empty image.
    public var meanIntensity: Double {
        guard !pixels.isEmpty else { return 0 }
        return Double(pixels.reduce(0) { $0 + Int($1) }) / Double(pixels.count)
    }

    /// The negative image: every pixel `p` becomes `255 - p`.
    public func inverted() -> GrayImage {
        GrayImage(width: width, height: height, pixels: pixels.map { 255 - $0 })
    }

    /// True when the image is mostly light, i.e. looks like dark ink on paper rather than
    /// StrokeKit's white ink on black (mean above the mid-grey 127).
    public var isDarkInkOnLight: Bool { meanIntensity > 127 }
}
