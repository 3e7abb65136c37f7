import ArgumentParser
import Foundation
import StrokeData
import StrokeKit
import StrokeTraining

/// `strokekit evaluate`: accuracy, per-class metrics and the confusion matrix of a model on a dataset.
struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Evaluate a model on a folder-per-class PNG dataset.")

    @Option(help: ArgumentHelp("Model file (safetensors) written by `strokekit train`.", valueName: "file"))
    var model: String

    @OptionGroup var dataset: DatasetOptions

    @Flag(help: "Print one JSON object (classes, count, accuracy, per_class, confusion_matrix, misclassified).")
    var json = false

    func run() throws {
        let trained = try TrainedModel.load(contentsOf: URL(fileURLWithPath: model))
        let data = try dataset.load()
        guard data.classes == trained.metadata.classes else {
            throw CLIError("""
                the dataset's classes \(data.classes) do not match the model's \(trained.metadata.classes) \
                (\(model)); evaluate on a dataset with the same class folders
                """)
        }
        let evaluation = Evaluator.evaluate(trained.network, on: data.allExamples, classes: data.classes)
        if json {
            try printJSON(evaluation.jsonObject())
        } else {
            print("model: \(model)")
            print("data:  \(dataset.data) (\(data.samples.count) images)")
            print(evaluation.textReport())
        }
    }
}
