import StrokeNN
import StrokeTensor

/// Updates parameters from their gradients.
///
/// A step is `beginStep` once, then `update` for every part of the elements; parts are
/// disjoint, so threads may update different parts at once, and the result does not
/// depend on how the elements are divided (every element's update is the same arithmetic).
/// `step` does both on one thread.
public protocol Optimizer: AnyObject {
    /// Allocates the running state on the first call and advances the step count.
    func beginStep(_ parameters: [Parameter])
    /// Updates elements `part` of `parts` (see `ParameterBuffers.elements(part:of:)`) of
    /// every parameter, in `beginStep`'s parameter order.
    func update(_ parameters: [ParameterBuffers], part: Int, of parts: Int)
    /// Everything the next steps depend on besides the parameters (moments, step count),
    /// for checkpoints; empty before the first step.
    var state: OptimizerState { get set }
}

extension Optimizer {
    /// One update of every parameter from its current `gradient`.
    public func step(_ parameters: [Parameter]) {
        beginStep(parameters)
        ParameterBuffers.with(parameters) { update($0, part: 0, of: 1) }
    }
}

/// A parameter's value and gradient as raw memory, for updates shared between threads
/// (Swift arrays must not be reached through their accessors from several threads at once).
public struct ParameterBuffers: @unchecked Sendable {
    public let value: UnsafeMutablePointer<Float>
    public let gradient: UnsafeMutablePointer<Float>
    public let count: Int

    public init(value: UnsafeMutablePointer<Float>, gradient: UnsafeMutablePointer<Float>, count: Int) {
        self.value = value
        self.gradient = gradient
        self.count = count
    }

    /// Part `part` of `parts` nearly equal, contiguous element ranges.
    public func elements(part: Int, of parts: Int) -> Range<Int> {
        (count * part / parts)..<(count * (part + 1) / parts)
    }

    /// Calls `body` with the buffers of every parameter, valid for the duration of the call
    /// (each array's mutable access is held open until `body` returns).
    public static func with<Result>(_ parameters: [Parameter], _ body: ([ParameterBuffers]) -> Result) -> Result {
        var buffers: [ParameterBuffers] = []
        buffers.reserveCapacity(parameters.count)
        func nest(_ index: Int) -> Result {
            guard index < parameters.count else { return body(buffers) }
            let parameter = parameters[index]
            return parameter.value.values.withUnsafeMutableBufferPointer { value in
                parameter.gradient.values.withUnsafeMutableBufferPointer { gradient in
                    buffers.append(ParameterBuffers(value: value.baseAddress!, gradient: gradient.baseAddress!, count: value.count))
                    return nest(index + 1)
                }
            }
        }
        return nest(0)
    }
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

/// Per-parameter running buffers (moments, velocities) in one allocation at fixed addresses,
/// so that `update` calls on several threads can write disjoint parts without Swift accessors.
final class MomentBuffers: @unchecked Sendable {
    /// Element counts of the parameters, and where each one's buffer starts.
    let counts: [Int], offsets: [Int]
    let storage: UnsafeMutableBufferPointer<Float>

    init(counts: [Int]) {
        self.counts = counts
        var offsets: [Int] = [], total = 0
        for count in counts { offsets.append(total); total += count }
        self.offsets = offsets
        storage = .allocate(capacity: total)
        storage.initialize(repeating: 0)
    }

    deinit { storage.deallocate() }

    func buffer(_ index: Int) -> UnsafeMutablePointer<Float> { storage.baseAddress! + offsets[index] }

    var arrays: [[Float]] { counts.indices.map { Array(UnsafeBufferPointer(start: buffer($0), count: counts[$0])) } }

    /// Buffers holding copies of `arrays`.
    convenience init(_ arrays: ArraySlice<[Float]>) {
        self.init(counts: arrays.map(\.count))
        for (index, array) in zip(counts.indices, arrays) {
            array.withUnsafeBufferPointer { buffer(index).update(from: $0.baseAddress!, count: $0.count) }
        }
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
    private var firstMoments: MomentBuffers?
    private var secondMoments: MomentBuffers?
    private var stepCount = 0

    /// First moments of every parameter, then second moments; and the step count.
    public var state: OptimizerState {
        get { OptimizerState(buffers: (firstMoments?.arrays ?? []) + (secondMoments?.arrays ?? []), stepCount: stepCount) }
        set {
            let half = newValue.buffers.count / 2
            firstMoments = half == 0 ? nil : MomentBuffers(newValue.buffers[..<half])
            secondMoments = half == 0 ? nil : MomentBuffers(newValue.buffers[half...])
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

    public func beginStep(_ parameters: [Parameter]) {
        if firstMoments == nil {
            firstMoments = MomentBuffers(counts: parameters.map(\.value.count))
            secondMoments = MomentBuffers(counts: parameters.map(\.value.count))
        }
        stepCount += 1
    }

    public func update(_ parameters: [ParameterBuffers], part: Int, of parts: Int) {
        guard let firstMoments, let secondMoments else { preconditionFailure("Adam.update before beginStep") }
        // Bias correction folded into the step size: lr · sqrt(1 − β2^t) / (1 − β1^t).
        let correction1 = 1 - pow(Double(beta1), Double(stepCount))
        let correction2 = 1 - pow(Double(beta2), Double(stepCount))
        let stepSize = Float(Double(learningRate) * correction2.squareRoot() / correction1)
        let epsilonHat = Float(Double(epsilon) * correction2.squareRoot())
        let decay = 1 - learningRate * weightDecay
        let (b1, b2) = (beta1, beta2)
        for (index, parameter) in parameters.enumerated() {
            let (m, v) = (firstMoments.buffer(index), secondMoments.buffer(index))
            let (g, w) = (parameter.gradient, parameter.value)
            let range = parameter.elements(part: part, of: parts)
            // Eight lanes at a time (the scalar loop does not vectorise: the pointers may
            // alias). No FMA contraction in either loop, so both give the same bits.
            var i = range.lowerBound
            while i + 8 <= range.upperBound {
                let gradient = load8(g + i)
                let first = b1 * load8(m + i) + (1 - b1) * gradient
                let second = b2 * load8(v + i) + (1 - b2) * gradient * gradient
                store8(first, m + i)
                store8(second, v + i)
                store8(load8(w + i) * decay - stepSize * first / (second.squareRoot() + epsilonHat), w + i)
                i += 8
            }
            while i < range.upperBound {
                m[i] = b1 * m[i] + (1 - b1) * g[i]
                v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i]
                w[i] = w[i] * decay - stepSize * m[i] / (v[i].squareRoot() + epsilonHat)
                i += 1
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
    private var velocities: MomentBuffers?

    /// The velocity of every parameter (the step count is not needed, and kept 0).
    public var state: OptimizerState {
        get { OptimizerState(buffers: velocities?.arrays ?? []) }
        set { velocities = newValue.buffers.isEmpty ? nil : MomentBuffers(newValue.buffers[...]) }
    }

    public init(learningRate: Float = 0.01, momentum: Float = 0.9, weightDecay: Float = 0) {
        self.learningRate = learningRate
        self.momentum = momentum
        self.weightDecay = weightDecay
    }

    public func beginStep(_ parameters: [Parameter]) {
        if velocities == nil { velocities = MomentBuffers(counts: parameters.map(\.value.count)) }
    }

    public func update(_ parameters: [ParameterBuffers], part: Int, of parts: Int) {
        guard let velocities else { preconditionFailure("SGD.update before beginStep") }
        let (rate, mu, decay) = (learningRate, momentum, weightDecay)
        for (index, parameter) in parameters.enumerated() {
            let velocity = velocities.buffer(index)
            let (g, w) = (parameter.gradient, parameter.value)
            for i in parameter.elements(part: part, of: parts) {
                velocity[i] = mu * velocity[i] + g[i] + decay * w[i]
                w[i] -= rate * velocity[i]
            }
        }
    }
}

@inline(__always) private func load8(_ pointer: UnsafePointer<Float>) -> SIMD8<Float> {
    UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
}

@inline(__always) private func load8(_ pointer: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
    UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
}

@inline(__always) private func store8(_ vector: SIMD8<Float>, _ pointer: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(pointer).storeBytes(of: vector, as: SIMD8<Float>.self)
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
