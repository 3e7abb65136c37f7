/// Why a training run stopped without a model.
public enum TrainingError: Error, CustomStringConvertible, Equatable {
    case nonFiniteLoss(epoch: Int, batch: Int, loss: Double)
    case emptyTrainingSet
    case invalidConfiguration(String)
    /// The epoch log file could not be created.
    case cannotWriteLog(path: String)

    public var description: String {
        switch self {
        case .nonFiniteLoss(let epoch, let batch, let loss):
            "training diverged: the loss became \(loss) at epoch \(epoch), batch \(batch); "
                + "no model was written. Hint: lower --learning-rate (e.g. by 10x) or check the input images."
        case .emptyTrainingSet:
            "the training set is empty: there is nothing to train on"
        case .invalidConfiguration(let problem):
            "invalid training configuration: \(problem)"
        case .cannotWriteLog(let path):
            "cannot write the log file \(path): check that its folder exists and is writable"
        }
    }
}
