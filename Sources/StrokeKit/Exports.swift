import StrokeImage

// The drawing and image types of StrokeKit's API, so that `import StrokeKit` alone is enough
// to build strokes and images and classify them.

/// A pen stroke: points in drawing order (device units, y down).
public typealias Stroke = StrokeImage.Stroke
/// One point of a stroke, with an optional time.
public typealias StrokePoint = StrokeImage.StrokePoint
/// An 8-bit grayscale image (white ink on black for the classifier).
public typealias GrayImage = StrokeImage.GrayImage
/// Turns an arbitrary gray image into the classifier's input (inversion, aspect-fit).
public typealias ImagePreparation = StrokeImage.ImagePreparation
/// Whether `ImagePreparation` inverts dark ink on a light background.
public typealias InversionPolicy = StrokeImage.InversionPolicy
/// PNG reading and writing (libpng).
public typealias PNG = StrokeImage.PNG
/// The reference height a character is drawn against (its line's, its writer's).
public typealias CharacterFrame = StrokeImage.CharacterFrame
/// How a model makes its input image from strokes (its file's `strokekit.input.framing`).
public typealias InputFraming = StrokeImage.InputFraming
