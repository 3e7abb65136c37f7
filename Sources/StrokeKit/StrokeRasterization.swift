import StrokeImage

/// The rasterizer that turns strokes into model input: MNIST Maker's aspect-fit into
/// 28x28 with the dataset's line width in output pixels, whatever the device's units.
let modelRasterizer = Rasterizer(side: ModelInput.side)
