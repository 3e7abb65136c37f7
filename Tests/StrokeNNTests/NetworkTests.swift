import Testing
import StrokeNN
import StrokeOptimizers
import StrokeTensor
import TestSupport

@Suite struct NetworkTests {
    @Test func defaultArchitectureHasTheThesisParameterCount() throws {
        let network = try Network(architecture: .default, classCount: 3)
        // conv 1->16 (160) + 16->32 (4,640) + 32->64 (18,496) + dense 576->128 (73,856) + 128->3 (387)
        #expect(network.parameterCount == 97_539)
        #expect(network.parameterShapes.map(\.name) ==
                ["conv1.weight", "conv1.bias", "conv2.weight", "conv2.bias", "conv3.weight", "conv3.bias",
                 "dense1.weight", "dense1.bias", "dense2.weight", "dense2.bias"])
        #expect(network.parameterShapes[0].shape == [16, 1, 3, 3])
        #expect(network.parameterShapes[6].shape == [128, 576])
    }

    @Test func tinyDropoutRatesRoundTripWithoutAnExponent() throws {
        // Found by FuzzArchitecture: 1e-05 was written "dr1e-05", whose '-' split the stage.
        for text in ["dr0.00001", "dr0.000000125", "dr0.00012", "dr0.5", "dr0"] {
            let spec = try ArchitectureSpec(parsing: "d8-" + text)
            #expect(!spec.description.contains("e"), "\(spec.description)")
            #expect(try ArchitectureSpec(parsing: spec.description) == spec, "\(text) -> \(spec.description)")
        }
        let smallest = try ArchitectureSpec(parsing: "d8-dr0." + String(repeating: "0", count: 44) + "1")
        #expect(try ArchitectureSpec(parsing: smallest.description) == smallest)
    }

    @Test func architectureSpecRoundTripsAndRejectsBadTokens() throws {
        #expect(try ArchitectureSpec(parsing: "c8k5-p-c16-d64-dr0.5").description == "c8k5-p-c16-d64-dr0.5")
        for bad in ["", "c", "c0", "x3", "c16k4", "d128-c16", "dr1.5", "c16--p"] {
            #expect(throws: ArchitectureSpecError.self, "'\(bad)' should be rejected") {
                try ArchitectureSpec(parsing: bad)
            }
        }
        #expect(throws: ArchitectureSpecError.self) {
            try Network(architecture: ArchitectureSpec(parsing: "p-p-p-p-p-p"), classCount: 3)
        }
    }

    @Test func wholeNetworkGradientMatchesFiniteDifferences() throws {
        // Loss = mean softmax cross-entropy of a small conv net on a 2-image batch.
        let network = try Network(architecture: ArchitectureSpec(parsing: "c3-p-d6"), classCount: 3,
                                  inputHeight: 6, inputWidth: 6)
        network.initializeParameters(seed: 3)
        let input = Tensor(shape: [2, 1, 6, 6], values: GradientCheck.randomValues(72, in: 0...1, seed: 4))
        let labels = [2, 0]
        func loss() -> Double {
            network.forward(input, training: false)
            var unused = Tensor(shape: [2, 3])
            return SoftmaxCrossEntropy.evaluate(logits: network.logits, labels: labels, gradientScale: 0.5,
                                                gradient: &unused).lossSum / 2
        }
        network.forward(input, training: true)
        network.backward { gradient in
            _ = SoftmaxCrossEntropy.evaluate(logits: network.logits, labels: labels, gradientScale: 0.5, gradient: &gradient)
        }
        var mismatches: [GradientCheck.Mismatch] = []
        for parameter in network.parameters {
            var values = parameter.value.values
            let analytic = parameter.gradient.values
            mismatches += GradientCheck.compare(name: parameter.name, values: &values, analytic: analytic,
                                                samples: 20, epsilon: 1e-3, tolerance: 5e-2, floor: 1e-3) { candidate in
                let saved = parameter.value.values
                parameter.value.values = candidate
                defer { parameter.value.values = saved }
                return loss()
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }
}

@Suite struct PoolReluOrderTests {
    @Test func forwardOnlyAllocatesNoGradientBuffers() throws {
        let network = try Network(architecture: try ArchitectureSpec(parsing: "c4-p-d8"), classCount: 3)
        network.initializeParameters(seed: 5)
        let input = Tensor(shape: [2, 1, 28, 28], values: GradientCheck.randomValues(2 * 784, seed: 6))
        network.forward(input, training: false)
        #expect(!network.hasGradientBuffers, "inference must not allocate gradients")
        network.forward(input, training: true)
        var gradient = Tensor(shape: [2, 3])
        _ = SoftmaxCrossEntropy.evaluate(logits: network.logits, labels: [0, 2], gradientScale: 0.5, gradient: &gradient)
        network.backward(logitsGradient: gradient)
        #expect(network.hasGradientBuffers)
        #expect(network.parameters.allSatisfy { $0.hasGradient }, "backward writes every parameter's gradient")
    }

    @Test func switchingBatchSizesGivesWhatAFreshNetworkGives() throws {
        // Buffers of earlier batch sizes are kept and reused (a training epoch's last partial
        // batch, validation batches); coming back to a size must compute exactly what a
        // network that never saw another size computes.
        let spec = try ArchitectureSpec(parsing: "c4-p-c6-p-d8")
        func trainStep(_ network: Network, batch: Int, seed: UInt64) -> (logits: [Float], gradients: [[Float]]) {
            let input = Tensor(shape: [batch, 1, 28, 28], values: GradientCheck.randomValues(batch * 784, seed: seed))
            network.forward(input, training: true)
            var gradient = Tensor(shape: [batch, 3])
            _ = SoftmaxCrossEntropy.evaluate(logits: network.logits, labels: (0..<batch).map { $0 % 3 },
                                             gradientScale: 1 / Float(batch), gradient: &gradient)
            network.backward(logitsGradient: gradient)
            return (network.logits.values, network.parameters.map(\.gradient.values))
        }
        let switching = try Network(architecture: spec, classCount: 3), fresh = try Network(architecture: spec, classCount: 3)
        switching.initializeParameters(seed: 3)
        fresh.initializeParameters(seed: 3)
        _ = trainStep(switching, batch: 5, seed: 10)
        _ = trainStep(switching, batch: 2, seed: 11)
        switching.forward(Tensor(shape: [7, 1, 28, 28], values: GradientCheck.randomValues(7 * 784, seed: 12)), training: false)
        let again = trainStep(switching, batch: 5, seed: 13)
        let reference = trainStep(fresh, batch: 5, seed: 13)
        #expect(again.logits == reference.logits, "logits after switching batch sizes differ from a fresh network's")
        #expect(again.gradients == reference.gradients, "gradients after switching batch sizes differ from a fresh network's")
    }

    @Test func reluAfterPoolingEqualsPoolingAfterRelu() {
        // The network applies a conv's ReLU after its pool; check the identity it relies on,
        // for values and input gradients, against the textbook order.
        let shape = [2, 3, 6, 4]
        let input = Tensor(shape: shape, values: GradientCheck.randomValues(shape.reduce(1, *), seed: 21))
        let (relu1, pool1, pool2, relu2) = (ReLU(), MaxPool2D(), MaxPool2D(), ReLU())
        var a = Tensor(shape: shape), b = Tensor(shape: pool1.outputShape(for: shape))
        relu1.forward(input, into: &a, training: true)
        pool1.forward(a, into: &b, training: true)                 // pool(relu(x))
        var c = Tensor(shape: pool2.outputShape(for: shape)), d = c
        pool2.forward(input, into: &c, training: true)
        relu2.forward(c, into: &d, training: true)                 // relu(pool(x))
        #expect(b == d)
        let probe = Tensor(shape: b.shape, values: GradientCheck.randomValues(b.count, seed: 22))
        var gradientA: Tensor? = Tensor(shape: shape), gradientInput1: Tensor? = Tensor(shape: shape)
        pool1.backward(input: a, output: b, outputGradient: probe, inputGradient: &gradientA)
        relu1.backward(input: input, output: a, outputGradient: gradientA!, inputGradient: &gradientInput1)
        var gradientC: Tensor? = Tensor(shape: c.shape), gradientInput2: Tensor? = Tensor(shape: shape)
        relu2.backward(input: c, output: d, outputGradient: probe, inputGradient: &gradientC)
        pool2.backward(input: input, output: c, outputGradient: gradientC!, inputGradient: &gradientInput2)
        #expect(gradientInput1 == gradientInput2)
    }
}

/// Architecture specs from files and flags are bounded: each limit fed a spec just over it.
@Suite struct ArchitectureLimitTests {
    func expectRefused(_ spec: String, mentioning limit: String) {
        do {
            _ = try Network(architecture: try ArchitectureSpec(parsing: spec), classCount: 3)
            Issue.record("accepted a spec over \(limit)")
        } catch {
            #expect("\(error)".contains(limit), "\(error)")
        }
    }

    @Test func eachSpecLimitJustOver() throws {
        typealias Limits = ArchitectureSpec.Limits
        expectRefused(Array(repeating: "p", count: Limits.maximumStages + 1).joined(separator: "-"), mentioning: "maximumStages")
        expectRefused("d1-" + String(repeating: "d", count: Limits.maximumLength), mentioning: "maximumLength")
        expectRefused("c\(Limits.maximumChannels + 1)", mentioning: "maximumChannels")
        expectRefused("d\(Limits.maximumDenseOutputs + 1)", mentioning: "maximumDenseOutputs")
        expectRefused("c4k\(Limits.maximumKernelSize + 2)", mentioning: "maximumKernelSize")
        // At the limits the spec parses.
        _ = try ArchitectureSpec(parsing: "c\(Limits.maximumChannels)k\(Limits.maximumKernelSize)-d\(Limits.maximumDenseOutputs)")
    }

    @Test func parameterCountWithoutBuildingMatchesTheBuiltNetwork() throws {
        // Odd map sides (7 -> 3 -> 1) are where an area-based estimate goes wrong.
        for spec in ["c16-p-c32-p-c64-p-d128", "c8-p-p-p-d16", "c4k5-p-c4-p-c4-p-c4-p", "d32-dr0.5-d8", "c2k1"] {
            let architecture = try ArchitectureSpec(parsing: spec)
            let network = try Network(architecture: architecture, classCount: 3)
            #expect(Network.parameterCount(of: architecture, classCount: 3) == network.parameterCount, "\(spec)")
        }
    }

    @Test func parameterCountJustOverTheLimit() throws {
        // A single dense layer on 28x28: 784·N + N + 3·N + 3 parameters (3 classes).
        let limit = Network.maximumParameterCount
        let units = (limit - 3) / 788 + 1   // the smallest N over the limit
        #expect(788 * units + 3 > limit && 788 * (units - 1) + 3 <= limit)
        expectRefused("d\(units)", mentioning: "Network.maximumParameterCount")
    }
}
