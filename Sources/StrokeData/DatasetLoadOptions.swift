import StrokeImage

/// How `LabeledImageDataset` reads a folder.
public struct DatasetLoadOptions: Sendable {
    /// Ink inversion; `.auto` by default.
    public var invert: InversionPolicy
    /// Skip files that are not readable PNGs (listing each in `warnings`) instead of throwing.
    public var skipBad: Bool
    /// Side of the square images the dataset holds; other sizes are aspect-fit to it.
    public var imageSide: Int

    public init(invert: InversionPolicy = .auto, skipBad: Bool = false, imageSide: Int = 28) {
        precondition(imageSide > 0, "imageSide must be positive, got \(imageSide)")
        self.invert = invert
        self.skipBad = skipBad
        self.imageSide = imageSide
    }
}
