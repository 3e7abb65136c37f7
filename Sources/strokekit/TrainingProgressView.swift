import StrokeTraining

/// Shows training progress: a progress bar on a terminal, plain epoch lines on stderr
/// otherwise, JSON lines on stdout with `--json`; appends each epoch to the `--log` file.
final class TrainingProgressView {
    let json: Bool
    let logFile: EpochLog?
    private var lastDraw = ContinuousClock.now - .seconds(1)

    init(json: Bool, logFile: EpochLog?) {
        self.json = json
        self.logFile = logFile
    }

    /// Shows one progress event; `label` names the cross-validation fold, if any.
    func show(_ progress: TrainingProgress, label: String? = nil) {
        let prefix = label.map { "\($0) " } ?? ""
        switch progress {
        case .batch(let epoch, let batch, let batchCount, let loss, let accuracy, let rate, let remaining):
            guard !json, Terminal.stderrIsTTY else { return }
            // Redraw at most 20 times a second: drawing must not slow training down.
            let now = ContinuousClock.now
            guard batch == batchCount || now - lastDraw > .milliseconds(50) else { return }
            lastDraw = now
            Terminal.overwriteLine(
                prefix + "epoch \(epoch) \(progressBar(Double(batch) / Double(batchCount))) batch \(batch)/\(batchCount) "
                + "loss \(String(format: "%.4f", loss)) acc \(percent(accuracy)) "
                + "\(Int(rate)) img/s ETA \(formatDuration(remaining))")
        case .epoch(let record):
            logFile?.append(record, fold: label)
            if json {
                var object = record.jsonObject
                object["type"] = "epoch"
                if let label { object["fold"] = label }
                try? printJSON(object)
                return
            }
            let line = prefix + "epoch \(record.epoch): loss \(String(format: "%.4f", record.trainLoss)) "
                + "acc \(percent(record.trainAccuracy))"
                + (record.validationAccuracy.map { " val_loss \(String(format: "%.4f", record.validationLoss ?? .nan)) val_acc \(percent($0))" } ?? "")
                + " \(Int(record.imagesPerSecond)) img/s"
            if Terminal.stderrIsTTY { Terminal.overwriteLine(line + "\n") } else { Terminal.note(line) }
        }
    }
}
