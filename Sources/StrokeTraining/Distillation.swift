import Foundation
import StrokeKit
import StrokeNN
import StrokeOptimizers

/// A trained network whose predictions a student learns from (knowledge distillation),
/// held as values so that a configuration carrying it stays `Sendable`; each training
/// worker builds its own `InferenceEngine` from it (an engine is not thread-safe).
public struct Teacher: Sendable {
    /// Where the teacher came from (a path, or e.g. "teacher of fold 2/5"), for errors.
    public let source: String
    public let architecture: ArchitectureSpec
    public let classes: [String]
    public let inputChannels: Int, inputHeight: Int, inputWidth: Int
    /// Parameter values in the network's parameter order.
    let weights: [[Float]]

    /// The teacher `network` (with `classes`) as it is now; `source` names it in errors.
    public init(network: Network, classes: [String], source: String) {
        precondition(classes.count == network.classCount,
                     "\(source): \(classes.count) classes for a network with \(network.classCount) outputs")
        self.source = source
        architecture = network.architecture
        self.classes = classes
        (inputChannels, inputHeight, inputWidth) = (network.inputChannels, network.inputHeight, network.inputWidth)
        weights = network.parameters.map(\.value.values)
    }

    /// The model in the file at `url` (checked as any model file is; errors name the file).
    public init(contentsOf url: URL) throws {
        let model = try TrainedModel.load(contentsOf: url)
        self.init(network: model.network, classes: model.metadata.classes, source: url.path)
    }

    /// A fresh network with the teacher's weights.
    func makeNetwork() throws -> Network {
        let network = try Network(architecture: architecture, classCount: classes.count, inputChannels: inputChannels,
                                  inputHeight: inputHeight, inputWidth: inputWidth)
        for (parameter, values) in zip(network.parameters, weights) { parameter.value.values = values }
        return network
    }

    /// Throws unless the teacher predicts exactly `classes`, in that order, from the input
    /// a student `network` takes.
    func checkCompatible(classes studentClasses: [String], input network: Network) throws {
        if classes != studentClasses {
            throw TrainingError.teacherMismatch(
                source: source, problem: "its classes are \(classes), the student's are \(studentClasses)")
        }
        let teacherInput = [inputChannels, inputHeight, inputWidth]
        let studentInput = [network.inputChannels, network.inputHeight, network.inputWidth]
        if teacherInput != studentInput {
            throw TrainingError.teacherMismatch(
                source: source, problem: "its input is \(teacherInput.map(String.init).joined(separator: "x")) (CxHxW), "
                    + "the student's is \(studentInput.map(String.init).joined(separator: "x"))")
        }
    }

    /// FNV-1a over the architecture, classes and weights: identifies the teacher in a
    /// run's fingerprint.
    var fingerprint: String {
        var hash = FNV1a()
        hash.mix("\(architecture) \(classes)".utf8)
        for values in weights {
            values.withUnsafeBytes { hash.mix($0) }
        }
        return hash.hex
    }
}

/// Training against a teacher's soft targets as well as the labels: the loss is
/// (1 − weight)·CE(label) + weight·T²·CE(teacher's softmax(z/T), student's softmax(z/T))
/// (`SoftmaxCrossEntropy.SoftTargets`), the teacher run on the same augmented images.
public struct Distillation: Sendable {
    public var teacher: Teacher
    /// In 0...1; 0 trains on the labels alone (the teacher still runs).
    public var weight: Float
    /// Above 0; 1 = the teacher's plain probabilities.
    public var temperature: Float

    public init(teacher: Teacher, weight: Float = 0.5, temperature: Float = 1) {
        self.teacher = teacher
        self.weight = weight
        self.temperature = temperature
    }
}
