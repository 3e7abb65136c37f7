import Foundation

/// A training log file: one JSON object per epoch (`EpochRecord`'s keys, plus `fold` in
/// cross-validation), appended as each epoch ends, so a long run can be followed with
/// `tail -f` and a killed run keeps its epochs.
public final class EpochLog {
    public let path: String
    private let handle: FileHandle

    /// Creates (or empties) the file at `path`. Throws `TrainingError.cannotWriteLog` naming it.
    public init(path: String) throws {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw TrainingError.cannotWriteLog(path: path)
        }
        self.handle = handle
    }

    /// Appends one epoch; `fold` names the cross-validation fold it belongs to.
    public func append(_ record: EpochRecord, fold: String? = nil) {
        var object = record.jsonObject
        if let fold { object["fold"] = fold }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        handle.write(data + Data("\n".utf8))
    }
}

extension EpochRecord {
    /// The record as a JSON object with every key (null where there was no validation set).
    public var jsonObject: [String: Any] {
        var object: [String: Any] = [
            "epoch": epoch, "train_loss": trainLoss, "train_accuracy": trainAccuracy,
            "seconds": seconds, "images_per_second": imagesPerSecond,
        ]
        object["validation_loss"] = validationLoss ?? NSNull()
        object["validation_accuracy"] = validationAccuracy ?? NSNull()
        return object
    }
}
