/// What one training epoch measured; a training run's history is `[EpochRecord]`.
public struct EpochRecord: Sendable, Codable, Equatable {
    /// 1-based epoch number.
    public var epoch: Int
    /// Mean cross-entropy over the epoch's training batches.
    public var trainLoss: Double
    /// Fraction of training images classified correctly during the epoch (with dropout/augmentation on).
    public var trainAccuracy: Double
    /// Mean cross-entropy on the validation set; nil when there is no validation set.
    public var validationLoss: Double?
    /// Validation accuracy; nil when there is no validation set.
    public var validationAccuracy: Double?
    /// Wall time of the epoch's training loop in seconds (validation excluded).
    public var seconds: Double
    /// Training images per second in this epoch.
    public var imagesPerSecond: Double

    public init(
        epoch: Int, trainLoss: Double, trainAccuracy: Double, validationLoss: Double?,
        validationAccuracy: Double?, seconds: Double, imagesPerSecond: Double
    ) {
        self.epoch = epoch
        self.trainLoss = trainLoss
        self.trainAccuracy = trainAccuracy
        self.validationLoss = validationLoss
        self.validationAccuracy = validationAccuracy
        self.seconds = seconds
        self.imagesPerSecond = imagesPerSecond
    }

    enum CodingKeys: String, CodingKey {
        case epoch
        case trainLoss = "train_loss"
        case trainAccuracy = "train_accuracy"
        case validationLoss = "validation_loss"
        case validationAccuracy = "validation_accuracy"
        case seconds
        case imagesPerSecond = "images_per_second"
    }
}
