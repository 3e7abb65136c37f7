import Foundation
import Testing
import StrokeNN
import StrokeOptimizers
import StrokeTensor
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The training loss and optimizers: the loss gradient against central differences and
/// against the inference softmax, one Adam and one SGD step against plain formulas.
@Suite struct LossAndOptimizerTests {
    @Test func softmaxCrossEntropyGradientMatchesFiniteDifferences() {
        let (batch, classes) = (4, 3)
        let labels = [0, 2, 1, 2]
        var logits = GradientCheck.randomValues(batch * classes, in: -3...3, seed: 70)
        var gradient = Tensor(shape: [batch, classes])
        let scale = 1 / Float(batch)
        _ = SoftmaxCrossEntropy.evaluate(logits: Tensor(shape: [batch, classes], values: logits),
                                         labels: labels, gradientScale: scale, gradient: &gradient)
        let mismatches = GradientCheck.compare(name: "logits", values: &logits, analytic: gradient.values,
                                               epsilon: 1e-2, tolerance: 1e-2) { values in
            var unused = Tensor(shape: [batch, classes])
            let result = SoftmaxCrossEntropy.evaluate(logits: Tensor(shape: [batch, classes], values: values),
                                                      labels: labels, gradientScale: scale, gradient: &unused)
            return result.lossSum * Double(scale)
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test func lossGradientIsTheInferenceSoftmaxMinusOneHot() {
        let (batch, classes) = (3, 4)
        let labels = [3, 0, 1]
        let logits = GradientCheck.randomValues(batch * classes, in: -4...4, seed: 71)
        var gradient = Tensor(shape: [batch, classes])
        _ = SoftmaxCrossEntropy.evaluate(logits: Tensor(shape: [batch, classes], values: logits),
                                         labels: labels, gradientScale: 1, gradient: &gradient)
        for row in 0..<batch {
            var probabilities = Array(logits[(row * classes)..<((row + 1) * classes)])
            probabilities.withUnsafeMutableBufferPointer { Softmax.apply($0) }
            for k in 0..<classes {
                let others = (0..<classes).filter { $0 != labels[row] }.reduce(Float(0)) { $0 + probabilities[$1] }
                let expected = k == labels[row] ? -others : probabilities[k]
                #expect(gradient.values[row * classes + k] == expected,
                        "row \(row) class \(k): loss gradient \(gradient.values[row * classes + k]) vs softmax − onehot \(expected)")
            }
        }
    }

    @Test func confidentExamplesKeepTheirGradientToFullRelativePrecision() {
        // Margins of 8 to 30: p(label) is within 2^-24 of 1 or rounds to 1 in Float, so
        // p − 1 would lose most digits or all of them. Reference: the same formula in Double.
        let logits: [Float] = [8, 0, -1, 0.5, 0, 17, 2, -3, 1, -2, 30, 0]
        let labels = [0, 1, 2]
        let (batch, classes) = (3, 4)
        var gradient = Tensor(shape: [batch, classes])
        _ = SoftmaxCrossEntropy.evaluate(logits: Tensor(shape: [batch, classes], values: logits),
                                         labels: labels, gradientScale: 1, gradient: &gradient)
        for row in 0..<batch {
            let z = logits[(row * classes)..<((row + 1) * classes)].map(Double.init)
            let largest = z.max()!
            let sum = z.reduce(0) { $0 + exp($1 - largest) }
            let others = z.indices.filter { $0 != labels[row] }.reduce(0.0) { $0 + exp(z[$1] - largest) } / sum
            let value = Double(gradient.values[row * classes + labels[row]])
            let error: Double = abs(value + others), tolerance: Double = 1e-5 * others
            #expect(error <= tolerance,
                    "row \(row): label gradient \(value), exact −\(others), tolerance 1e-5 relative")
        }
    }

    @Test(arguments: [Float(1), 2.5])
    func softTargetGradientMatchesFiniteDifferences(temperature: Float) {
        // Loss = (1 − A)·CE(label) + A·T²·CE(q, softmax(z/T)); the gradient comes from the
        // same call, the numeric one from the loss it reports.
        let (batch, classes) = (4, 3)
        let labels = [0, 2, 1, 2]
        var logits = GradientCheck.randomValues(batch * classes, in: -3...3, seed: 72)
        let teacher = Tensor(shape: [batch, classes], values: GradientCheck.randomValues(batch * classes, in: -4...4, seed: 73))
        let targets = SoftmaxCrossEntropy.SoftTargets(teacherLogits: teacher, weight: 0.7, temperature: temperature)
        var gradient = Tensor(shape: [batch, classes])
        let scale = 1 / Float(batch)
        _ = SoftmaxCrossEntropy.evaluate(logits: Tensor(shape: [batch, classes], values: logits), labels: labels,
                                         softTargets: targets, gradientScale: scale, gradient: &gradient)
        let mismatches = GradientCheck.compare(name: "logits (T = \(temperature))", values: &logits, analytic: gradient.values,
                                               epsilon: 1e-2, tolerance: 1e-2) { values in
            var unused = Tensor(shape: [batch, classes])
            let result = SoftmaxCrossEntropy.evaluate(logits: Tensor(shape: [batch, classes], values: values), labels: labels,
                                                      softTargets: targets, gradientScale: scale, gradient: &unused)
            return result.lossSum * Double(scale)
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test func softTargetsAtTemperatureOneGiveSoftmaxMinusTheMixedTarget() {
        // With T = 1 the gradient is p − ((1 − A)·onehot + A·q).
        let (batch, classes) = (2, 4)
        let labels = [1, 3]
        let logits = GradientCheck.randomValues(batch * classes, in: -3...3, seed: 74)
        let q = Tensor(shape: [batch, classes], values: [0.1, 0.6, 0.2, 0.1, 0.25, 0.25, 0, 0.5])
        var gradient = Tensor(shape: [batch, classes])
        _ = SoftmaxCrossEntropy.evaluate(logits: Tensor(shape: [batch, classes], values: logits), labels: labels,
                                         softTargets: .init(probabilities: q, weight: 0.4), gradientScale: 1, gradient: &gradient)
        for row in 0..<batch {
            var p = Array(logits[(row * classes)..<((row + 1) * classes)])
            p.withUnsafeMutableBufferPointer { Softmax.apply($0) }
            for k in 0..<classes {
                let target = 0.6 * (k == labels[row] ? 1 : 0) + 0.4 * q.values[row * classes + k]
                let expected = p[k] - target, value = gradient.values[row * classes + k]
                #expect(abs(value - expected) <= 1e-6,
                        "row \(row) class \(k): gradient \(value), p − target \(expected), tolerance 1e-6")
            }
        }
    }

    @Test func zeroSoftWeightGivesExactlyTheHardLabelGradient() {
        // Margins up to 30 included: the hard-label path's careful label gradient must survive.
        let logits: [Float] = [8, 0, -1, 0.5, 0, 17, 2, -3, 1, -2, 30, 0, 0.3, -0.2, 0.1, 0.4]
        let labels = [0, 1, 2, 3]
        let (batch, classes) = (4, 4)
        let teacher = Tensor(shape: [batch, classes], values: GradientCheck.randomValues(batch * classes, in: -5...5, seed: 75))
        for temperature: Float in [1, 3] {
            var hard = Tensor(shape: [batch, classes]), mixed = Tensor(shape: [batch, classes])
            let plain = SoftmaxCrossEntropy.evaluate(logits: Tensor(shape: [batch, classes], values: logits), labels: labels,
                                                     gradientScale: 0.25, gradient: &hard)
            let withTeacher = SoftmaxCrossEntropy.evaluate(
                logits: Tensor(shape: [batch, classes], values: logits), labels: labels,
                softTargets: .init(teacherLogits: teacher, weight: 0, temperature: temperature), gradientScale: 0.25,
                gradient: &mixed)
            #expect(mixed.values == hard.values, "T = \(temperature): weight 0 gave \(mixed.values), labels alone \(hard.values)")
            #expect(withTeacher.lossSum == plain.lossSum && withTeacher.correct == plain.correct,
                    "T = \(temperature): loss \(withTeacher.lossSum) vs \(plain.lossSum)")
        }
    }

    @Test func adamFirstStepMovesEachWeightByTheLearningRate() {
        // With bias correction, Adam's first step is lr · g / (|g| + ε') ≈ lr · sign(g).
        let parameter = Parameter(name: "w", value: Tensor(shape: [3], values: [1, -2, 0.5]))
        parameter.gradient = Tensor(shape: [3], values: [0.3, -4, 1e-3])
        Adam(learningRate: 0.01).step([parameter])
        let expected: [Float] = [1 - 0.01, -2 + 0.01, 0.5 - 0.01]
        for (index, value) in parameter.value.values.enumerated() {
            #expect(abs(value - expected[index]) < 1e-4, "w[\(index)] = \(value), expected \(expected[index])")
        }
    }

    @Test func adamMatchesPlainFormulaBitwiseWhateverThePartition() {
        // 21 elements: two eight-lane blocks and a scalar tail. Several steps with decay, the
        // plain scalar formula in Double-free Float arithmetic as the reference; the result
        // must not depend on how many parts the update is split into (threads in training).
        let count = 21, steps = 4
        let (rate, b1, b2, epsilon, decayRate): (Float, Float, Float, Float, Float) = (0.01, 0.9, 0.999, 1e-8, 0.1)
        let gradients = (0..<steps).map { GradientCheck.randomValues(count, seed: 80 + UInt64($0)) }
        var w = GradientCheck.randomValues(count, seed: 79)
        var (m, v) = ([Float](repeating: 0, count: count), [Float](repeating: 0, count: count))
        for (step, g) in gradients.enumerated() {
            let correction1 = 1 - pow(Double(b1), Double(step + 1)), correction2 = 1 - pow(Double(b2), Double(step + 1))
            let stepSize = Float(Double(rate) * correction2.squareRoot() / correction1)
            let epsilonHat = Float(Double(epsilon) * correction2.squareRoot())
            for i in 0..<count {
                m[i] = b1 * m[i] + (1 - b1) * g[i]
                v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i]
                w[i] = w[i] * (1 - rate * decayRate) - stepSize * m[i] / (v[i].squareRoot() + epsilonHat)
            }
        }
        for parts in [1, 2, 3] {
            let parameter = Parameter(name: "w", value: Tensor(shape: [count], values: GradientCheck.randomValues(count, seed: 79)))
            let adam = Adam(learningRate: rate, beta1: b1, beta2: b2, epsilon: epsilon, weightDecay: decayRate)
            for g in gradients {
                parameter.gradient = Tensor(shape: [count], values: g)
                adam.beginStep([parameter])
                ParameterBuffers.with([parameter]) { buffers in
                    for part in 0..<parts { adam.update(buffers, part: part, of: parts) }
                }
            }
            #expect(parameter.value.values == w, "Adam in \(parts) parts: \(parameter.value.values) vs plain \(w)")
            #expect(adam.state.buffers == [m, v] && adam.state.stepCount == steps, "Adam's moments in \(parts) parts")
        }
    }

    @Test func sgdWithoutMomentumIsPlainGradientDescent() {
        let parameter = Parameter(name: "w", value: Tensor(shape: [2], values: [1, -1]))
        parameter.gradient = Tensor(shape: [2], values: [0.5, -2])
        SGD(learningRate: 0.1, momentum: 0, weightDecay: 0).step([parameter])
        let expected: [Float] = [1 - 0.05, -1 + 0.2]
        #expect(parameter.value.values == expected)
    }
}
