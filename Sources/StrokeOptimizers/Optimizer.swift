import StrokeNN
import StrokeTensor

/// Updates parameters from their gradients.
public protocol Optimizer: AnyObject {
    /// One update of every parameter from its current `gradient`.
    func step(_ parameters: [Parameter])
    /// Everything the next steps depend on besides the parameters (moments, step count),
    /// for checkpoints; empty before the first step.
    var state: OptimizerState { get set }
}

/// An optimizer's running state: per-parameter buffers (in parameter order, several per
/// parameter for Adam) and the number of steps taken.
public struct OptimizerState: Sendable, Equatable {
    public var buffers: [[Float]]
    public var stepCount: Int

    public init(buffers: [[Float]] = [], stepCount: Int = 0) {
        self.buffers = buffers
        self.stepCount = stepCount
    }
}

/// Adam (Kingma & Ba 2015) with bias correction; weight decay, when set, is decoupled
/// from the gradient as in AdamW (Loshchilov & Hutter 2019), so it does not get rescaled
/// by the second-moment estimate.
public final class Adam: Optimizer {
    public var learningRate: Float
    public let beta1: Float
    public let beta2: Float
    public let epsilon: Float
    public var weightDecay: Float
    private var firstMoments: [[Float]] = []
    private var secondMoments: [[Float]] = []
    private var stepCount = 0

    /// First moments of every parameter, then second moments; and the step count.
    public var state: OptimizerState {
        get { OptimizerState(buffers: firstMoments + secondMoments, stepCount: stepCount) }
        set {
            let half = newValue.buffers.count / 2
            firstMoments = Array(newValue.buffers[..<half])
            secondMoments = Array(newValue.buffers[half...])
            stepCount = newValue.stepCount
        }
    }

    public init(learningRate: Float = 0.001, beta1: Float = 0.9, beta2: Float = 0.999,
                epsilon: Float = 1e-8, weightDecay: Float = 0) {
        self.learningRate = learningRate
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.weightDecay = weightDecay
    }

    public func step(_ parameters: [Parameter]) {
        if firstMoments.isEmpty {
            firstMoments = parameters.map { [Float](repeating: 0, count: $0.value.count) }
            secondMoments = firstMoments
        }
        stepCount += 1
        // Bias correction folded into the step size: lr · sqrt(1 − β2^t) / (1 − β1^t).
        let correction1 = 1 - pow(Double(beta1), Double(stepCount))
        let correction2 = 1 - pow(Double(beta2), Double(stepCount))
        let stepSize = Float(Double(learningRate) * correction2.squareRoot() / correction1)
        let epsilonHat = Float(Double(epsilon) * correction2.squareRoot())
        let decay = 1 - learningRate * weightDecay
        let (b1, b2) = (beta1, beta2)
        for (index, parameter) in parameters.enumerated() {
            firstMoments[index].withUnsafeMutableBufferPointer { m in
                secondMoments[index].withUnsafeMutableBufferPointer { v in
                    parameter.gradient.values.withUnsafeBufferPointer { g in
                        parameter.value.values.withUnsafeMutableBufferPointer { w in
                            for i in 0..<w.count {
                                m[i] = b1 * m[i] + (1 - b1) * g[i]
                                v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i]
                                w[i] = w[i] * decay - stepSize * m[i] / (v[i].squareRoot() + epsilonHat)
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Stochastic gradient descent with (heavy-ball) momentum and optional L2 weight decay
/// added to the gradient.
public final class SGD: Optimizer {
    public var learningRate: Float
    public let momentum: Float
    public var weightDecay: Float
    private var velocities: [[Float]] = []

    /// The velocity of every parameter (the step count is not needed, and kept 0).
    public var state: OptimizerState {
        get { OptimizerState(buffers: velocities) }
        set { velocities = newValue.buffers }
    }

    public init(learningRate: Float = 0.01, momentum: Float = 0.9, weightDecay: Float = 0) {
        self.learningRate = learningRate
        self.momentum = momentum
        self.weightDecay = weightDecay
    }

    public func step(_ parameters: [Parameter]) {
        if velocities.isEmpty {
            velocities = parameters.map { [Float](repeating: 0, count: $0.value.count) }
        }
        let (rate, mu, decay) = (learningRate, momentum, weightDecay)
        for (index, parameter) in parameters.enumerated() {
            velocities[index].withUnsafeMutableBufferPointer { velocity in
                parameter.gradient.values.withUnsafeBufferPointer { g in
                    parameter.value.values.withUnsafeMutableBufferPointer { w in
                        for i in 0..<w.count {
                            velocity[i] = mu * velocity[i] + g[i] + decay * w[i]
                            w[i] -= rate * velocity[i]
                        }
                    }
                }
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
