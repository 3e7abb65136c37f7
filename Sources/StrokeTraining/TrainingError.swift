/// Why a training run stopped without a model.
public enum TrainingError: Error, CustomStringConvertible, Equatable {
    case nonFiniteLoss(epoch: Int, batch: Int, loss: Double)
    case emptyTrainingSet
    case invalidConfiguration(String)
    /// The epoch log file could not be created.
    case cannotWriteLog(path: String)
    /// The run was asked to stop; its state is in the checkpoint, from which it resumes.
    case interrupted(checkpoint: String, epoch: Int, batchesDone: Int)
    /// A checkpoint file is not one, or is damaged.
    case badCheckpoint(path: String, problem: String)
    /// A checkpoint belongs to another run (other data or configuration).
    case checkpointMismatch(path: String)
    /// A distillation teacher that cannot teach this student (other classes or input).
    case teacherMismatch(source: String, problem: String)

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
        case .interrupted(let checkpoint, let epoch, let batchesDone):
            "interrupted in epoch \(epoch) after \(batchesDone) batches; the training state is in \(checkpoint): "
                + "continue with `strokekit train --resume \(checkpoint)`"
        case .badCheckpoint(let path, let problem):
            "\(path): not a usable training checkpoint: \(problem)"
        case .checkpointMismatch(let path):
            "\(path) was written by a run with other training data or settings; resume it with the same "
                + "dataset and flags, or start a new run"
        case .teacherMismatch(let source, let problem):
            "\(source): cannot be the teacher of this run: \(problem)"
        }
    }
}
