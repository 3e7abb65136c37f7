import CStrokeKernels
import Testing
@testable import StrokeNN
import StrokeTensor
import TestSupport

/// Plain loops in Double for the convolution kernels' tests (here and `WinogradKernelTests`).
enum PlainLoops {
    /// `count` images of `map` (border included), random interior, zero border.
    static func randomMap(_ map: FeatureMap, count: Int, seed: UInt64) -> [Float] {
        let interior = GradientCheck.randomValues(count * map.valueCount, seed: seed)
        var values = [Float](repeating: 0, count: count * map.imageSize)
        var next = 0
        for n in 0..<count {
            for y in 0..<map.height {
                for x in 0..<map.width {
                    for c in 0..<map.channels {
                        values[n * map.imageSize + map.offset(y: y, x: x) + c] = interior[next]
                        next += 1
                    }
                }
            }
        }
        return values
    }

    /// Plain loops: 3x3 'same' correlation of `input` (OC, C, 3, 3 weight), 2x2 max pool,
    /// bias, optional ReLU, into a map shaped as `output` (border included).
    static func convolvedAndPooled(_ values: [Float], map input: FeatureMap, count: Int, weight: [Float], bias: [Float],
                            output: FeatureMap, relu: Bool) -> [Float] {
        let channels = input.channels, outputChannels = output.channels
        func convolved(_ n: Int, _ y: Int, _ x: Int, _ o: Int) -> Double {
            var sum = Double(bias[o])
            for c in 0..<channels {
                for ky in 0..<3 {
                    for kx in 0..<3 {
                        let value = values[n * input.imageSize + input.offset(y: y + ky - 1, x: x + kx - 1) + c]
                        sum += Double(weight[((o * channels + c) * 3 + ky) * 3 + kx]) * Double(value)
                    }
                }
            }
            return sum
        }
        var expected = [Float](repeating: 0, count: count * output.imageSize)
        for n in 0..<count {
            for y in 0..<output.height {
                for x in 0..<output.width {
                    for o in 0..<outputChannels {
                        let window = [(0, 0), (0, 1), (1, 0), (1, 1)].map { convolved(n, 2 * y + $0.0, 2 * x + $0.1, o) }
                        expected[n * output.imageSize + output.offset(y: y, x: x) + o] = Float(max(window.max()!, relu ? 0 : -.infinity))
                    }
                }
            }
        }
        return expected
    }

}

/// Each hand-written kernel of `CStrokeKernels` on its own, on every path this CPU runs
/// (plain C, AVX2, AVX-512: `KernelPath.supported`), against plain loops in Double, so that
/// a failure points at one kernel and one path. Channel counts that are not multiples of a
/// path's vector width take the next narrower path; the odd counts here check that too.
@Suite struct HandWrittenKernelTests {
    static var paths: [KernelPath] { KernelPath.supported.filter(\.isHandWritten) }

    func largestDifference(_ result: [Float], _ expected: [Float]) -> (difference: Float, scale: Float) {
        (zip(result, expected).map { abs($0 - $1) }.max() ?? .infinity, expected.map(abs).max() ?? 0)
    }

    /// sk_conv3x3_c1_pool: one input channel, any output channel count, odd map sizes, an
    /// output map with a border (as the next convolution needs).
    @Test(arguments: [(16, 28, 28, true), (24, 7, 9, false), (8, 5, 4, true), (5, 6, 6, true), (32, 3, 2, false)])
    func directConvolutionMatchesPlainLoops(outputChannels: Int, height: Int, width: Int, relu: Bool) {
        let count = 3
        let input = FeatureMap(channels: 1, height: height, width: width, pad: 1)
        let output = FeatureMap(channels: outputChannels, height: height / 2, width: width / 2, pad: 1)
        let weight = GradientCheck.randomValues(outputChannels * 9, seed: 51)
        let bias = GradientCheck.randomValues(outputChannels, seed: 52)
        let map = PlainLoops.randomMap(input, count: count, seed: 53)
        let expected = PlainLoops.convolvedAndPooled(map, map: input, count: count, weight: weight, bias: bias, output: output, relu: relu)
        // (9, OC): row ky·3 + kx.
        var packed = [Float](repeating: 0, count: 9 * outputChannels)
        for o in 0..<outputChannels { for k in 0..<9 { packed[k * outputChannels + o] = weight[o * 9 + k] } }
        for path in Self.paths {
            var result = [Float](repeating: 0, count: count * output.imageSize)
            result.withUnsafeMutableBufferPointer { out in
                sk_conv3x3_c1_pool(path.cPath, map, input.rowStride, input.imageSize, packed, bias, Int32(outputChannels),
                                   Int32(output.height), Int32(output.width), Int32(count),
                                   out.baseAddress! + output.offset(y: 0, x: 0), output.rowStride, output.imageSize,
                                   relu ? 1 : 0)
            }
            let (difference, scale) = largestDifference(result, expected)
            #expect(difference <= 1e-5 * max(1, scale),
                    "\(path), 1->\(outputChannels), \(height)x\(width): max |kernel - plain| = \(difference), largest \(scale)")
        }
    }

    /// sk_winograd_pool: the thesis network's two Winograd steps at their sizes, more tiles
    /// than one block (24), channel counts for each vector width, odd maps.
    @Test(arguments: [(16, 32, 14, 14, true, 3), (32, 64, 7, 7, true, 9), (8, 12, 7, 5, false, 2), (12, 8, 3, 2, true, 2),
                      (16, 24, 6, 6, false, 1), (48, 16, 4, 4, true, 7)])
    func winogradMatchesPlainLoops(channels: Int, outputChannels: Int, height: Int, width: Int, relu: Bool, count: Int) {
        let input = FeatureMap(channels: channels, height: height, width: width, pad: 1)
        let output = FeatureMap(channels: outputChannels, height: height / 2, width: width / 2)
        let weight = GradientCheck.randomValues(outputChannels * channels * 9, seed: 61)
        let bias = GradientCheck.randomValues(outputChannels, seed: 62)
        let map = PlainLoops.randomMap(input, count: count, seed: 63)
        let expected = PlainLoops.convolvedAndPooled(map, map: input, count: count, weight: weight, bias: bias, output: output, relu: relu)
        let kernels = winogradKernels(weight, outputChannels: outputChannels, inputChannels: channels)
        var scratch = [Float](repeating: .nan, count: sk_winograd_scratch_floats(Int32(channels), Int32(outputChannels)))
        for path in Self.paths {
            var result = [Float](repeating: 0, count: count * output.imageSize)
            result.withUnsafeMutableBufferPointer { out in
                scratch.withUnsafeMutableBufferPointer { work in
                    sk_winograd_pool(path.cPath, map, input.rowStride, input.imageSize, Int32(channels), kernels, bias,
                                     Int32(outputChannels), Int32(output.height), Int32(output.width), Int32(count),
                                     out.baseAddress!, output.rowStride, output.imageSize, relu ? 1 : 0, work.baseAddress!)
                }
            }
            let (difference, scale) = largestDifference(result, expected)
            #expect(difference <= 1e-5 * max(1, scale),
                    "\(path), \(channels)->\(outputChannels), \(height)x\(width), count \(count): max |kernel - plain| = \(difference), largest \(scale)")
        }
    }

    /// sk_dense: one row and several (more than a block's 6), widths that are and are not
    /// multiples of the vector width, strided rows, with and without ReLU.
    @Test(arguments: [(1, 576, 128, true), (8, 576, 128, false), (13, 128, 7, false), (1, 128, 5, true),
                      (7, 37, 40, true), (3, 20, 16, false)])
    func denseMatchesPlainLoops(rows: Int, inputs: Int, outputs: Int, relu: Bool) {
        let (xStride, yStride) = (inputs + 3, outputs + 2)
        let x = GradientCheck.randomValues(rows * xStride, seed: 71)
        let weight = GradientCheck.randomValues(outputs * inputs, seed: 72)
        let bias = GradientCheck.randomValues(outputs, seed: 73)
        var transposed = [Float](repeating: 0, count: inputs * outputs)
        for o in 0..<outputs { for i in 0..<inputs { transposed[i * outputs + o] = weight[o * inputs + i] } }
        var expected = [Float](repeating: -7, count: rows * yStride)
        for n in 0..<rows {
            for o in 0..<outputs {
                var sum = Double(bias[o])
                for i in 0..<inputs { sum += Double(x[n * xStride + i]) * Double(weight[o * inputs + i]) }
                expected[n * yStride + o] = Float(relu ? max(sum, 0) : sum)
            }
        }
        for path in Self.paths {
            var result = [Float](repeating: -7, count: rows * yStride)   // the gaps between rows stay untouched
            sk_dense(path.cPath, x, xStride, Int32(rows), Int32(inputs), transposed, weight, bias, Int32(outputs),
                     &result, yStride, relu ? 1 : 0)
            let (difference, scale) = largestDifference(result, expected)
            #expect(difference <= 1e-5 * max(1, scale),
                    "\(path), \(rows) rows, \(inputs)->\(outputs): max |kernel - plain| = \(difference), largest \(scale)")
        }
    }

    /// The paths the tests run are the ones this CPU has: plain C always, AVX2 and AVX-512
    /// exactly when the CPU reports them (so a CPU with AVX-512 tests all three).
    @Test func supportedPathsFollowTheCPU() {
        #expect(KernelPath.generic.isSupported && KernelPath.blas.isSupported)
        let flags = MachineDescription.current().vectorExtensions
        #if arch(x86_64)
        #expect(KernelPath.avx2.isSupported == (flags.contains("avx2") && flags.contains("fma")))
        #expect(KernelPath.avx512.isSupported == flags.contains("avx512f"))
        #else
        #expect(!KernelPath.avx2.isSupported && !KernelPath.avx512.isSupported)
        #endif
    }
}
