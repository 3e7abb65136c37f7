import StrokeImage

/// The rasterizer that turns strokes into model input: MNIST Maker's aspect-fit into
/// 28x28 with the dataset's line width in output pixels, whatever the device's units.
let modelRasterizer = Rasterizer(side: ModelInput.side)

/// Draws `strokes` as the network sees them: aspect-fit into a `ModelInput.side`-square
/// image, white ink on black, each pixel written as value / 255 into `buffer`
/// (`ModelInput.side`² floats, row-major). Allocates nothing.
func rasterizeForModel(_ strokes: [Stroke], into buffer: UnsafeMutableBufferPointer<Float>) {
    precondition(buffer.count == ModelInput.side * ModelInput.side, "the model input buffer holds one image")
    modelRasterizer.rasterize(strokes, into: buffer)
}
