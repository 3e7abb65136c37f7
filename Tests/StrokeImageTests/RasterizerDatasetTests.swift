import CPNG
import Foundation
import StrokeImage
import Testing
import TestSupport

/// Compares rasterized synthetic circles with the real dataset's circles.
@Suite
struct RasterizerDatasetTests {
    /// Mean over images of the fraction of pixels above 30, and of the mean pixel value.
    struct InkStatistics {
        var inkFraction = 0.0
        var meanIntensity = 0.0

        init(_ images: [GrayImage]) {
            for image in images {
                inkFraction += Double(image.pixels.filter { $0 > 30 }.count) / Double(image.pixels.count)
                meanIntensity += Double(image.pixels.reduce(0) { $0 + Int($1) }) / Double(image.pixels.count)
            }
            inkFraction /= Double(images.count)
            meanIntensity /= Double(images.count)
        }
    }

    /// Reads an 8-bit gray PNG with libpng's simplified API (the project's PNG reader lives
    /// elsewhere; this keeps the check independent of it).
    static func readGray(_ url: URL) throws -> GrayImage {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&image, url.path) != 0 else {
            throw DatasetReadError(path: url.path)
        }
        image.format = png_uint_32(PNG_FORMAT_GRAY)
        let width = Int(image.width), height = Int(image.height)
        var pixels = [UInt8](repeating: 0, count: width * height)
        let status = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        guard status != 0 else { throw DatasetReadError(path: url.path) }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    struct DatasetReadError: Error, CustomStringConvertible {
        var path: String
        var description: String { "\(path): libpng could not read the image" }
    }

    /// Hand-drawn-like circles: random aspect, start angle, a slight overshoot and wobble,
    /// in device units of a few hundred points.
    static func syntheticCircles(count: Int, seed: UInt64) -> [Stroke] {
        // A 64-bit LCG (Knuth's MMIX constants): this target does not link StrokeTensor's generator.
        var state = seed
        func unit() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) * 0x1.0p-53
        }
        return (0..<count).map { _ in
            let radiusX = 100 + 100 * unit()
            let radiusY = radiusX * (0.7 + 0.6 * unit())
            let start = 2 * Double.pi * unit()
            let sweep = 2 * Double.pi * (1 + 0.12 * unit())
            let wobblePhase = 6 * unit()
            return Stroke((0..<60).map { index in
                let angle = start + sweep * Double(index) / 59
                let wobble = 1 + 0.04 * sin(3 * angle + wobblePhase)
                return (radiusX * wobble * cos(angle), radiusY * wobble * sin(angle))
            })
        }
    }

    @Test func syntheticCirclesHaveTheDatasetCirclesInkAmount() throws {
        let folder = ProjectDataset.automataShapes.appendingPathComponent("circle")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "png" }
        let dataset = InkStatistics(try files.map(Self.readGray))
        let synthetic = InkStatistics(Self.syntheticCircles(count: 100, seed: 7).map { Rasterizer().rasterize($0) })
        // Dataset circles include double circles and overshoots, so a single loop may differ a little.
        let fractionRatio = synthetic.inkFraction / dataset.inkFraction
        let intensityRatio = synthetic.meanIntensity / dataset.meanIntensity
        #expect(fractionRatio > 0.8 && fractionRatio < 1.25,
                "ink fraction (> 30): synthetic \(synthetic.inkFraction), dataset \(dataset.inkFraction)")
        #expect(intensityRatio > 0.8 && intensityRatio < 1.25,
                "mean intensity: synthetic \(synthetic.meanIntensity), dataset \(dataset.meanIntensity)")
    }
}
