import Foundation
import StrokeNN

/// Everything that decides a training run. Same configuration + same data + same
/// `workers` gives bitwise the same weights.
public struct TrainingConfiguration: Sendable {
    public enum OptimizerKind: Sendable, Equatable {
        case adam
        case sgd(momentum: Float)
    }

    public var architecture: ArchitectureSpec = .default
    public var epochs: Int = 20
    public var batchSize: Int = 32
    public var learningRate: Float = 0.001
    public var optimizer: OptimizerKind = .adam
    /// Decoupled weight decay for Adam, L2 for SGD; 0 turns it off.
    public var weightDecay: Float = 0
    public var seed: UInt64 = 0
    /// Stop after this many epochs without a better validation accuracy; nil never stops early.
    public var patience: Int? = nil
    /// Threads that each run part of every batch (data parallelism, one BLAS thread each).
    /// Results depend on this number (summation order), not on timing.
    public var workers: Int = 2
    /// How the learning rate changes over epochs.
    public var schedule: LearningRateSchedule = .constant
    /// Random image transforms applied to each training image every epoch; nil = none.
    public var augmentation: (any TrainingAugmentation)? = nil
    /// Also learn from a teacher's soft targets; nil = labels only.
    public var distillation: Distillation? = nil

    public init() {}
}

/// The learning rate of each epoch, from the configured base rate.
public enum LearningRateSchedule: String, Sendable, CaseIterable {
    /// The base rate throughout.
    case constant
    /// Cosine annealing (Loshchilov & Hutter 2017) from the base rate to near 0 at the last
    /// epoch: large steps early, small ones to settle at the end.
    case cosine

    /// The rate for 1-based `epoch` of `epochs`.
    public func rate(base: Float, epoch: Int, epochs: Int) -> Float {
        switch self {
        case .constant: base
        case .cosine: base * Float(0.5 * (1 + cos(Double.pi * Double(epoch - 1) / Double(epochs))))
        }
    }
}

/// A seeded per-image transform the trainer applies to training images each epoch.
public protocol TrainingAugmentation: Sendable {
    /// A randomly transformed copy of `image`, drawn from `seed` (deterministic).
    func augment(_ image: StrokeImage.GrayImage, seed: UInt64) -> StrokeImage.GrayImage
}

import StrokeImage
