import Testing
import StrokeNN
import StrokeTensor
import TestSupport
import StrokeSupport

/// Every layer's backward pass against central differences of the probe loss
/// sum(output · R), for the input and for every parameter.
@Suite struct LayerGradientTests {
    /// Runs forward + backward once, then compares input and parameter gradients with
    /// finite differences. Returns the mismatches (empty when the layer is right).
    func check(_ layer: any Layer, inputShape: [Int], input: [Float], seed: UInt64 = 1,
               epsilon: Float = 1e-2, tolerance: Double = 2e-2,
               beforeForward: () -> Void = {}) -> [GradientCheck.Mismatch] {
        let outputShape = layer.outputShape(for: inputShape)
        let probe = GradientCheck.randomValues(outputShape.reduce(1, *), seed: seed + 100)
        func run(_ values: [Float]) -> Tensor {
            var output = Tensor(shape: outputShape)
            beforeForward()
            layer.forward(Tensor(shape: inputShape, values: values), into: &output, training: true)
            return output
        }
        let inputTensor = Tensor(shape: inputShape, values: input)
        let output = run(input)
        var inputGradient: Tensor? = Tensor(shape: inputShape)
        layer.backward(input: inputTensor, output: output, outputGradient: Tensor(shape: outputShape, values: probe),
                       inputGradient: &inputGradient)
        let parameterGradients = layer.parameters.map(\.gradient.values)

        var values = input
        var mismatches = GradientCheck.compare(
            name: "\(layer.summary) input", values: &values, analytic: inputGradient!.values,
            epsilon: epsilon, tolerance: tolerance
        ) { GradientCheck.probeLoss(run($0).values, probe) }
        for (parameter, analytic) in zip(layer.parameters, parameterGradients) {
            var parameterValues = parameter.value.values
            mismatches += GradientCheck.compare(
                name: parameter.name, values: &parameterValues, analytic: analytic,
                epsilon: epsilon, tolerance: tolerance
            ) { candidate in
                let saved = parameter.value.values
                parameter.value.values = candidate
                defer { parameter.value.values = saved }
                return GradientCheck.probeLoss(run(input).values, probe)
            }
        }
        return mismatches
    }

    func randomize(_ layer: any Layer, seed: UInt64) {
        for (offset, parameter) in layer.parameters.enumerated() {
            parameter.value.values = GradientCheck.randomValues(parameter.value.count, seed: seed + UInt64(offset))
        }
    }

    @Test func conv2DBackwardMatchesFiniteDifferences() {
        let layer = Conv2D(name: "conv", inputChannels: 3, outputChannels: 4, kernelSize: 3)
        randomize(layer, seed: 10)
        let shape = [3, 2, 5, 6]  // (C, N, H, W)
        let mismatches = check(layer, inputShape: shape, input: GradientCheck.randomValues(shape.reduce(1, *), seed: 11))
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    /// The first layer's case, a 3x3 convolution of one channel, on every kernel path this CPU
    /// runs (`blas`: im2col and sgemm; the others: the hand-written direct kernels), with a
    /// width that is not a multiple of any vector width; and each path's forward output
    /// against OpenBLAS's within 1e-5.
    @Test(arguments: KernelPath.supported)
    func oneChannelConv2DBackwardMatchesFiniteDifferences(kernels: KernelPath) {
        let layer = Conv2D(name: "conv", inputChannels: 1, outputChannels: 16, kernelSize: 3)
        layer.kernels = kernels
        randomize(layer, seed: 14)
        let shape = [1, 3, 7, 19]
        let input = GradientCheck.randomValues(shape.reduce(1, *), seed: 15)
        let mismatches = check(layer, inputShape: shape, input: input)
        #expect(mismatches.isEmpty, "\(kernels): \(mismatches)")

        let reference = Conv2D(name: "conv", inputChannels: 1, outputChannels: 16, kernelSize: 3)
        reference.kernels = .blas
        reference.weight.value.values = layer.weight.value.values
        reference.bias.value.values = layer.bias.value.values
        var (fast, slow) = (Tensor(shape: layer.outputShape(for: shape)), Tensor(shape: layer.outputShape(for: shape)))
        layer.forward(Tensor(shape: shape, values: input), into: &fast, training: true)
        reference.forward(Tensor(shape: shape, values: input), into: &slow, training: true)
        let difference = zip(fast.values, slow.values).map { abs($0 - $1) }.max() ?? .infinity
        #expect(difference <= 1e-5, "\(kernels): forward max |direct - im2col| = \(difference)")
    }

    @Test func conv2DWithFiveByFiveKernelBackwardMatchesFiniteDifferences() {
        let layer = Conv2D(name: "conv", inputChannels: 2, outputChannels: 3, kernelSize: 5)
        randomize(layer, seed: 12)
        let shape = [2, 2, 6, 4]
        let mismatches = check(layer, inputShape: shape, input: GradientCheck.randomValues(shape.reduce(1, *), seed: 13))
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test func denseBackwardMatchesFiniteDifferences() {
        let layer = Dense(name: "dense", inputFeatures: 7, outputFeatures: 5)
        randomize(layer, seed: 20)
        let mismatches = check(layer, inputShape: [4, 7], input: GradientCheck.randomValues(28, seed: 21))
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test func reluBackwardMatchesFiniteDifferences() {
        // NOTE: inputs kept at least 0.1 away from the kink at 0, well beyond epsilon.
        let input = GradientCheck.randomValues(60, seed: 30).map { $0 < 0 ? $0 - 0.1 : $0 + 0.1 }
        let mismatches = check(ReLU(), inputShape: [3, 2, 2, 5], input: input)
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test func maxPoolBackwardMatchesFiniteDifferences() {
        // Distinct values 0.05 apart, shuffled: no window has a near-tie within epsilon.
        var generator = SeededGenerator(seed: 40)
        let input = (0..<(2 * 3 * 5 * 4)).map { Float($0) * 0.05 }.shuffled(using: &generator)
        let mismatches = check(MaxPool2D(), inputShape: [2, 3, 5, 4], input: input)
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test func flattenBackwardMatchesFiniteDifferences() {
        let mismatches = check(Flatten(), inputShape: [3, 2, 2, 3], input: GradientCheck.randomValues(36, seed: 50))
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test func dropoutBackwardMatchesFiniteDifferences() {
        let layer = Dropout(rate: 0.4, seed: 60)
        // The mask must be the same in every probe forward pass: reseed before each.
        let mismatches = check(layer, inputShape: [2, 30], input: GradientCheck.randomValues(60, seed: 61),
                               beforeForward: { layer.reseed(99) })
        #expect(mismatches.isEmpty, "\(mismatches)")
    }
}
