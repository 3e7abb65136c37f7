import Foundation
import StrokeImage
import StrokeSupport
import StrokeTraining

/// Small HTML building blocks shared by the report's sections.
enum HTML {
    /// `text` safe inside element content and quoted attribute values. Labels and file names
    /// come from users' folders and must never become markup.
    static func escape(_ text: String) -> String { markupEscaped(text) }

    /// "95.2%".
    static func percent(_ fraction: Double) -> String {
        String(format: "%.1f%%", fraction * 100)
    }

    /// The file name (or key) shortened to fit under an 84 px thumbnail: long names keep
    /// their start and end ("004590B…E105.png"); the full source is in the tooltip and alt text.
    static func displayName(_ source: String) -> String {
        let name = source.split(separator: "/").last.map(String.init) ?? source
        return name.count <= 16 ? name : name.prefix(7) + "…" + name.suffix(8)
    }

    /// The last two components of a path ("cycle/12.png"), which name a dataset image well
    /// enough on screen; the full path goes in the tooltip. Keys without "/" stay whole.
    static func shortSource(_ source: String) -> String {
        let components = source.split(separator: "/", omittingEmptySubsequences: true)
        return components.count <= 2 ? source : components.suffix(2).joined(separator: "/")
    }
}

/// Encodes each distinct drawing once as a `data:image/png;base64,` URI; the same drawing
/// appears in the heatmap, its gallery and the confident examples.
final class ThumbnailEncoder {
    private var cache: [GrayImage: String] = [:]

    /// The data URI of `image`, or nil when libpng refused it (then the page shows a placeholder).
    func dataURI(_ image: GrayImage) -> String? {
        if let cached = cache[image] { return cached }
        guard let png = try? PNGEncoder.encode(image) else { return nil }
        let uri = "data:image/png;base64," + png.base64EncodedString()
        cache[image] = uri
        return uri
    }

    /// An `<img>` of the prediction's drawing drawn `scale` times its size, crisp
    /// (`image-rendering: pixelated`), with alt text giving the true and predicted class.
    func image(_ prediction: Prediction, classes: [String], scale: Int) -> String {
        let truth = classes[prediction.trueClass], predicted = classes[prediction.predictedClass]
        var alt = prediction.isCorrect
            ? "\(truth), recognised with confidence \(HTML.percent(Double(prediction.confidence)))"
            : "\(truth) drawing predicted as \(predicted) with confidence \(HTML.percent(Double(prediction.confidence)))"
        if prediction.isRejected { alt += ", rejected" }
        alt += " (\(HTML.shortSource(prediction.source)))"
        guard let image = prediction.image, let uri = dataURI(image) else {
            let side = 28 * scale
            return "<span class=\"no-image\" role=\"img\" aria-label=\"\(HTML.escape(alt)), no image kept\" "
                + "style=\"width:\(side)px;height:\(side)px\">no image</span>"
        }
        return "<img class=\"drawing\" src=\"\(uri)\" width=\"\(image.width * scale)\" height=\"\(image.height * scale)\" "
            + "alt=\"\(HTML.escape(alt))\">"
    }
}
