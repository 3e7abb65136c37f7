import CPNG
import Foundation
import StrokeImage
import StrokeData
import StrokeTraining
@testable import StrokeReport

/// Made-up evaluations with synthetic 28x28 drawings, for report tests that need no model.
enum ReportFixtures {
    static let classes = ["arrow", "circle", "cycle"]

    /// `count` predictions spread over the classes. Every `errorEvery`-th drawing is
    /// misclassified into the next class; confidences are spread over 0.4...1 deterministically.
    static func evaluation(count: Int = 60, errorEvery: Int = 7, classes: [String] = classes) -> Evaluation {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func nextUnit() -> Double {
            // A 64-bit LCG (Knuth's MMIX constants): enough to vary made-up confidences.
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let predictions = (0..<count).map { index in
            let trueClass = index % classes.count
            let isError = index % errorEvery == errorEvery - 1
            let predictedClass = isError ? (trueClass + 1) % classes.count : trueClass
            let confidence = Float(0.4 + 0.6 * nextUnit())
            var probabilities = [Float](repeating: (1 - confidence) / Float(classes.count - 1), count: classes.count)
            probabilities[predictedClass] = confidence
            return Prediction(
                source: "/data/shapes/\(classes[trueClass])/\(index).png", trueClass: trueClass,
                predictedClass: predictedClass, confidence: confidence, probabilities: probabilities,
                isRejected: confidence < 0.45, image: drawing(of: trueClass, variant: index))
        }
        return Evaluation(classes: classes, predictions: predictions)
    }

    /// A white-on-black 28x28 drawing: a line with a head (0), a ring (1), or an open ring with
    /// a tick (2); `variant` shifts it a little so drawings differ.
    static func drawing(of shape: Int, variant: Int) -> GrayImage {
        var image = GrayImage(width: 28, height: 28)
        let shift = Double(variant % 5) - 2
        for y in 0..<28 {
            for x in 0..<28 {
                let dx = Double(x) - 14 - shift, dy = Double(y) - 14
                let radius = (dx * dx + dy * dy).squareRoot()
                let ink: Bool
                switch shape % 3 {
                case 0:
                    let shaft = abs(dx - dy) < 1.2 && abs(dx) < 10
                    let head = dx > 3 && dx < 10 && dy > 3 && dy < 10 && (abs(dy - 9) < 1.2 || abs(dx - 9) < 1.2)
                    ink = shaft || head
                case 1:
                    ink = abs(radius - 9) < 1.3
                default:
                    ink = abs(radius - 9) < 1.3 && atan2(dy, dx) < 2.4 || (abs(dy - 7) < 1.2 && dx < -4 && dx > -10)
                }
                if ink { image[x, y] = 255 }
            }
        }
        return image
    }

    /// A made-up training history: losses falling, accuracies rising.
    static func history(epochs: Int = 12) -> [EpochRecord] {
        (1...epochs).map { epoch in
            let progress = Double(epoch) / Double(epochs)
            return EpochRecord(
                epoch: epoch, trainLoss: 1.1 * exp(-3 * progress) + 0.04,
                trainAccuracy: 0.55 + 0.43 * (1 - exp(-4 * progress)),
                validationLoss: 1.0 * exp(-2.5 * progress) + 0.12,
                validationAccuracy: 0.5 + 0.42 * (1 - exp(-3.5 * progress)),
                seconds: 1.2, imagesPerSecond: 450)
        }
    }

    /// A report with every section filled.
    static func fullContent(evaluation: Evaluation = evaluation()) -> ReportContent {
        ReportContent(
            title: "Synthetic report", generated: "2025-01-01T00:00:00Z",
            modelMetadata: [
                (key: "strokekit.format_version", value: "1"), (key: "strokekit.classes", value: "arrow,circle,cycle"),
            ],
            datasetSummary: DatasetSummary(
                path: "/data/shapes", fingerprint: "sha256:0123abcd",
                classCounts: [(label: "arrow", count: 20), (label: "circle", count: 20), (label: "cycle", count: 20)]),
            evaluation: evaluation, history: history(),
            rejectOption: RejectSummary(
                rule: "reject when the top probability is below the threshold", threshold: 0.45,
                trueShapeCount: 60, trueShapesRejected: 3, nonShapeCount: 40, nonShapesRejected: 31))
    }

    /// A fresh empty folder under the system's temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("strokereport-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// PNG decoding for tests, through libpng's simplified read API (the library only writes).
enum TestPNG {
    struct Decoded {
        var width: Int
        var height: Int
        var channels: Int
        var pixels: [UInt8]
    }

    /// Decodes `data` as 8-bit gray (`color: false`) or RGB; nil when libpng refuses it.
    static func decode(_ data: Data, color: Bool) -> Decoded? {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        let begun = data.withUnsafeBytes { bytes in
            png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count)
        }
        guard begun != 0 else { return nil }
        image.format = color ? png_uint_32(PNG_FORMAT_RGB) : png_uint_32(PNG_FORMAT_GRAY)
        let channels = color ? 3 : 1
        var pixels = [UInt8](repeating: 0, count: Int(image.width) * Int(image.height) * channels)
        let finished = pixels.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&image, nil, buffer.baseAddress, 0, nil)
        }
        guard finished != 0 else { return nil }
        return Decoded(width: Int(image.width), height: Int(image.height), channels: channels, pixels: pixels)
    }

    /// Every `data:image/png;base64,` payload in `html`, decoded to bytes.
    static func embeddedImages(in html: String) -> [Data] {
        let prefix = "data:image/png;base64,"
        var images: [Data] = []
        var remainder = html[...]
        while let start = remainder.range(of: prefix) {
            let payload = remainder[start.upperBound...].prefix { $0 != "\"" }
            if let data = Data(base64Encoded: String(payload)) { images.append(data) }
            remainder = remainder[start.upperBound...]
        }
        return images
    }
}

extension String {
    /// How many times `needle` occurs (non-overlapping).
    func occurrences(of needle: String) -> Int {
        components(separatedBy: needle).count - 1
    }

    /// The text from the first `start` up to and including the next `end` after it, or nil.
    func slice(from start: String, to end: String) -> Substring? {
        guard let lower = range(of: start), let upper = self[lower.upperBound...].range(of: end) else { return nil }
        return self[lower.lowerBound..<upper.upperBound]
    }
}
