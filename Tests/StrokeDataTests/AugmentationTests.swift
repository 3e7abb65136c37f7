import Foundation
import StrokeData
import StrokeImage
import StrokeTensor
import Testing
import StrokeSupport

/// Thread CPU time in seconds: unlike the wall clock, it does not count time spent waiting
/// for a core on a busy machine.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

@Suite struct AugmentationTests {
    /// A dataset-like ring drawn by the rasterizer.
    static let ring: GrayImage = Rasterizer().rasterize(Stroke((0...60).map { index in
        let angle = 2 * Double.pi * Double(index) / 60
        return (150 * cos(angle), 110 * sin(angle))
    }))

    static func mass(_ image: GrayImage) -> Double {
        Double(image.pixels.reduce(0) { $0 + Int($1) }) / 255
    }

    @Test func sameSeedGivesTheSameImage() {
        var first = SeededGenerator(seed: 42), second = SeededGenerator(seed: 42)
        for _ in 0..<5 {
            #expect(ImageAugmentation.default.apply(to: Self.ring, using: &first)
                    == ImageAugmentation.default.apply(to: Self.ring, using: &second))
        }
    }

    @Test func differentSeedsGiveDifferentImages() {
        var first = SeededGenerator(seed: 1), second = SeededGenerator(seed: 2)
        let a = ImageAugmentation.default.apply(to: Self.ring, using: &first)
        let b = ImageAugmentation.default.apply(to: Self.ring, using: &second)
        #expect(a != b)
        #expect(a != Self.ring)
    }

    @Test func identitySettingsReturnTheInput() {
        var rng = SeededGenerator(seed: 3)
        for _ in 0..<3 {
            #expect(ImageAugmentation.identity.apply(to: Self.ring, using: &rng) == Self.ring)
        }
    }

    /// An asymmetric drawing (an arrow pointing right), so a mirror image differs from it.
    static let arrow: GrayImage = Rasterizer().rasterize([
        Stroke([(0, 50), (200, 50)]), Stroke([(160, 20), (200, 50), (160, 80)]),
    ])

    @Test func flipAloneMirrorsExactly() {
        // Only the flip: bilinear sampling at mirrored pixel centres must be exact.
        let settings = ImageAugmentation(rotationDegrees: 0, scale: 1...1, translationPixels: 0,
                                         penWidthJitter: 0, elasticAlpha: 0, horizontalFlip: true)
        var rng = SeededGenerator(seed: 5)
        var sawFlip = false
        for _ in 0..<8 {
            let output = settings.apply(to: Self.arrow, using: &rng)
            let mirrored = GrayImage(width: 28, height: 28, pixels: (0..<28 * 28).map { index in
                Self.arrow.pixels[(index / 28) * 28 + 27 - index % 28]
            })
            #expect(mirrored != Self.arrow)
            #expect(output == Self.arrow || output == mirrored)
            sawFlip = sawFlip || output == mirrored
        }
        #expect(sawFlip, "flip on: some of 8 draws should mirror")
    }

    @Test func inkMassIsRoughlyPreserved() {
        var rng = SeededGenerator(seed: 11)
        let original = Self.mass(Self.ring)
        var ratios: [Double] = []
        for _ in 0..<200 {
            ratios.append(Self.mass(ImageAugmentation.default.apply(to: Self.ring, using: &rng)) / original)
        }
        let mean = ratios.reduce(0, +) / Double(ratios.count)
        #expect(mean > 0.85 && mean < 1.1, "mean ink ratio \(mean)")
        #expect(ratios.min()! > 0.5 && ratios.max()! < 1.6, "ink ratio range \(ratios.min()!)...\(ratios.max()!)")
    }

    @Test func translationMovesTheInk() {
        let settings = ImageAugmentation(rotationDegrees: 0, scale: 1...1, translationPixels: 3,
                                         penWidthJitter: 0, elasticAlpha: 0)
        let dot = Rasterizer().rasterize(Stroke([(0, 0)]))
        var rng = SeededGenerator(seed: 9)
        var moved = false
        for _ in 0..<5 {
            let output = settings.apply(to: dot, using: &rng)
            #expect(abs(Self.mass(output) - Self.mass(dot)) < 0.1, "a small dot keeps its ink when shifted")
            moved = moved || output != dot
        }
        #expect(moved)
    }

    @Test func penWidthJitterWidensAndThins() {
        let widen = ImageAugmentation(rotationDegrees: 0, scale: 1...1, translationPixels: 0,
                                      penWidthJitter: 1, elasticAlpha: 0, penWidthProbability: 1)
        var rng = SeededGenerator(seed: 13)
        var sawWider = false, sawThinner = false
        for _ in 0..<10 {
            let ratio = Self.mass(widen.apply(to: Self.ring, using: &rng)) / Self.mass(Self.ring)
            sawWider = sawWider || ratio > 1.1
            sawThinner = sawThinner || ratio < 0.9
        }
        #expect(sawWider && sawThinner)
    }

    /// Prints the time per image; never asserts on it.
    @Test func printAugmentationTiming() {
        let settings = ImageAugmentation(penWidthProbability: 1, elasticProbability: 1)
        var rng = SeededGenerator(seed: 17)
        let repetitions = 2000
        var total = 0
        let start = threadCPUSeconds()
        for _ in 0..<repetitions { total += Int(settings.apply(to: Self.ring, using: &rng).pixels[400]) }
        let seconds = threadCPUSeconds() - start
        print("ImageAugmentation (all parts on): \(seconds / Double(repetitions) * 1e6) µs CPU per 28x28 image")
        #expect(total >= 0)
    }
}
