import StrokeImage

/// Draws `strokes` as the network sees them: aspect-fit into a `ModelInput.side`-square
/// image, white ink on black, each pixel written as value / 255 into `buffer`
/// (`ModelInput.side`² floats, row-major).
///
/// TODO(lead): replace with Rasterizer when branch strokes lands, e.g.
/// `Rasterizer(side: ModelInput.side).rasterize(strokes, into: buffer)`.
func rasterizeForModel(_ strokes: [Stroke], into buffer: UnsafeMutableBufferPointer<Float>) throws {
    precondition(buffer.count == ModelInput.side * ModelInput.side, "the model input buffer holds one image")
    throw ClassifierError.rasterizerUnavailable
}
