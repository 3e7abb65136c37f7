import Foundation  // String(format:)

/// Whether to turn dark-ink-on-light images into StrokeKit's white ink on black.
public enum InversionPolicy: String, Sendable, CaseIterable {
    /// Invert an image whose mean intensity is above 127 (mostly light), with a warning.
    case auto
    /// Never invert.
    case no
    /// Invert every image.
    case yes
}

/// The one step that turns an arbitrary image into what the classifier reads: gray (PNG
/// decoding already converts every PNG kind to 8-bit luminance), white ink on black
/// (dark-on-light inverted by policy, with a warning), aspect-fit into a `side`-square
/// (MNIST Maker's rule, with a warning naming the size). Dataset loading, `strokekit
/// predict` and host apps all use it.
public enum ImagePreparation {
    /// `image` prepared for a `side`-square model input, and one warning per change made,
    /// each starting with `source` (a file name, or whatever names the image to a person).
    ///
    /// Inversion is decided on the original pixels, before black padding would lower the
    /// mean, and the padding is black after inversion.
    public static func prepare(
        _ image: GrayImage, side: Int = 28, invert: InversionPolicy = .auto, source: String
    ) -> (image: GrayImage, warnings: [String]) {
        var image = image
        var warnings: [String] = []
        switch invert {
        case .yes:
            image = image.inverted()
        case .no:
            break
        case .auto:
            if image.isDarkInkOnLight {
                let mean = String(format: "%.1f", image.meanIntensity)
                warnings.append("\(source): inverted (mean intensity \(mean) > 127 looks like dark ink on light; "
                    + "StrokeKit expects white ink on black)")
                image = image.inverted()
            }
        }
        if image.width != side || image.height != side {
            warnings.append("\(source): is \(image.width)x\(image.height), aspect-fit to \(side)x\(side)")
            image = image.aspectFit(into: side)
        }
        return (image, warnings)
    }

    /// Reads and decodes the PNG at `url` (any PNG kind), then prepares it; warnings name the path.
    /// Throws `PNGError` naming the file when it is not a readable PNG.
    public static func preparePNG(
        contentsOf url: URL, side: Int = 28, invert: InversionPolicy = .auto
    ) throws -> (image: GrayImage, warnings: [String]) {
        prepare(try PNG.read(contentsOf: url), side: side, invert: invert, source: url.path)
    }
}
