import Foundation
import StrokeKit
import StrokeModelFile

/// The model file a command uses: `modelPath`, or the bundled default model.
func modelURL(_ modelPath: String?) throws -> URL {
    if let modelPath { return URL(fileURLWithPath: modelPath) }
    do {
        return try ShapeClassifier.bundledModelURL()
    } catch ClassifierError.bundledModelMissing(let resource) {
        throw CLIError("no --model given, and this build has no bundled default model (\(resource)); "
                       + "pass --model FILE, e.g. one written by `strokekit train`")
    }
}

/// The classifier a command uses: the model at `modelPath`, or the bundled default model.
func loadClassifier(modelPath: String?) throws -> ShapeClassifier {
    try ShapeClassifier(contentsOf: modelURL(modelPath))
}

/// The classifier a command uses and its model file's tensors checksum (the SHA-256 the file
/// carries and that was verified on reading), which names the model a stored session needs.
func loadClassifierAndChecksum(modelPath: String?) throws -> (ShapeClassifier, String) {
    let url = try modelURL(modelPath)
    let file: SafeTensorsFile
    do {
        file = try SafeTensorsFile.read(contentsOf: url, requireChecksum: true)
    } catch let error as ModelFileError {
        throw ClassifierError.modelFile(error)
    }
    let classifier = ShapeClassifier(model: try TrainedModel.load(file: file))
    return (classifier, file.verifiedChecksum ?? "unverified")
}
