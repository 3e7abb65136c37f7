import Foundation
import StrokeImage
import StrokeModelFile
import StrokeNN
import StrokeTensor

/// A network with the metadata that describes it: what a model file holds.
///
///     let model = try TrainedModel.load(contentsOf: url)
///     try model.write(to: otherURL, precision: .float16)
///
/// Loading checks everything the file promises against what StrokeKit can run: the
/// checksum, the metadata, the architecture, the input spec (28x28x1, white on black,
/// 1/255) and every tensor's name and shape. Errors are `ClassifierError`s naming the file.
public struct TrainedModel {
    /// The network, with the file's parameter values.
    public let network: Network
    /// Classes, architecture, input spec, training figures and extra keys.
    public let metadata: ModelMetadata

    /// Pairs a network with its metadata. The metadata must describe the network (same
    /// architecture, one class per output, a valid reject rule): a mismatch is a programmer
    /// error and stops the program.
    public init(network: Network, metadata: ModelMetadata) {
        precondition(metadata.classes.count == network.classCount,
                     "metadata lists \(metadata.classes.count) classes but the network has \(network.classCount) outputs")
        precondition((try? ArchitectureSpec(parsing: metadata.architecture)) == network.architecture,
                     "metadata architecture '\(metadata.architecture)' is not the network's '\(network.architecture)'")
        precondition((try? RejectRule(metadata: metadata, source: "<memory>")) != nil,
                     "metadata '\(RejectRule.minimumConfidenceKey)' must be a number in 0...1")
        self.network = network
        self.metadata = metadata
    }

    /// Metadata for `network` with `classes` and the input `ModelInput` produces.
    public static func metadata(for network: Network, classes: [String],
                                training: ModelMetadata.Training = .init(),
                                extra: [String: String] = [:]) -> ModelMetadata {
        ModelMetadata(classes: classes, architecture: network.architecture.description,
                      input: ModelMetadata.Input(width: network.inputWidth, height: network.inputHeight,
                                                 channels: network.inputChannels),
                      training: training, extra: extra)
    }

    // MARK: - Loading

    /// Reads and checks the model file at `url`. The file must carry its checksum.
    public static func load(contentsOf url: URL) throws -> TrainedModel {
        let file: SafeTensorsFile
        do {
            file = try SafeTensorsFile.read(contentsOf: url, requireChecksum: true)
        } catch let error as ModelFileError {
            throw ClassifierError.modelFile(error)
        }
        return try load(file: file)
    }

    /// Checks and loads a model file held in memory (e.g. a resource); `source` names it in errors.
    public static func load(bytes: [UInt8], source: String) throws -> TrainedModel {
        let file: SafeTensorsFile
        do {
            file = try SafeTensorsFile.decode(bytes, source: source, requireChecksum: true)
        } catch let error as ModelFileError {
            throw ClassifierError.modelFile(error)
        }
        return try load(file: file)
    }

    /// Builds the model a decoded file describes, checking metadata, input spec,
    /// architecture and tensor shapes. Errors name `file.source`.
    public static func load(file: SafeTensorsFile) throws -> TrainedModel {
        let source = file.source
        let metadata: ModelMetadata
        do {
            metadata = try file.modelMetadata()
        } catch let error as ModelFileError {
            throw ClassifierError.modelFile(error)
        }
        try checkInput(metadata.input, channels: framing(of: metadata, source: source).channels, source: source)
        _ = try RejectRule(metadata: metadata, source: source)

        let network: Network
        do {
            let architecture = try ArchitectureSpec(parsing: metadata.architecture)
            network = try Network(architecture: architecture, classCount: metadata.classes.count,
                                  inputChannels: metadata.input.channels,
                                  inputHeight: metadata.input.height, inputWidth: metadata.input.width)
        } catch let error as ArchitectureSpecError {
            throw ClassifierError.invalidArchitecture(source: source, spec: metadata.architecture, problem: error.problem)
        }

        do {
            try file.validateShapes(expected: network.parameterShapes)
        } catch let error as ModelFileError {
            throw ClassifierError.modelFile(error)
        }
        for parameter in network.parameters {
            // validateShapes guarantees presence and shape, hence the element count.
            let tensor = file.tensor(named: parameter.name)!
            parameter.value.values = tensor.values
        }
        return TrainedModel(network: network, metadata: metadata)
    }

    /// How strokes become this model's input image (`strokekit.input.framing`; `.aspectFit`
    /// when the file does not say).
    public var framing: InputFraming {
        // load(file:) checked the value.
        (try? Self.framing(of: metadata, source: "<memory>")) ?? .aspectFit
    }

    /// The framing `metadata` records: `.aspectFit` without the key; an error naming `source`
    /// for a value this StrokeKit does not know.
    public static func framing(of metadata: ModelMetadata, source: String) throws -> InputFraming {
        guard let text = metadata.extra[ModelMetadata.Key.inputFraming] else { return .aspectFit }
        guard let framing = InputFraming(text) else {
            throw ClassifierError.unsupportedInput(
                source: source, found: "framing '\(text)'", expected: "aspect-fit, reference-height:<pixels> or reference-height:<pixels>+aspect-fit")
        }
        return framing
    }

    /// What `ModelInput` feeds the network, with the channels the file's framing draws; any
    /// other input spec would be misread.
    private static func checkInput(_ input: ModelMetadata.Input, channels: Int, source: String) throws {
        let expected = ModelMetadata.Input(width: ModelInput.side, height: ModelInput.side, channels: channels)
        let scaleMatches = input.scaleFactor.map { abs($0 * 255 - 1) < 1e-5 } ?? false
        guard input.width == expected.width, input.height == expected.height, input.channels == expected.channels,
            input.ink == expected.ink, scaleMatches
        else {
            func describe(_ input: ModelMetadata.Input) -> String {
                "\(input.width)x\(input.height)x\(input.channels) \(input.ink.rawValue) scaled by \(input.scale)"
            }
            throw ClassifierError.unsupportedInput(source: source, found: describe(input), expected: describe(expected))
        }
    }

    // MARK: - Saving

    /// The model as a safetensors file in memory (tensors in parameter order).
    public var file: SafeTensorsFile {
        SafeTensorsFile(
            tensors: network.parameters.map { NamedTensor(name: $0.name, shape: $0.value.shape, values: $0.value.values) },
            modelMetadata: metadata)
    }

    /// Writes the model atomically to `url`, every tensor stored with `precision`.
    /// Throws `ClassifierError.modelFile` (non-finite weights, F16 overflow, unwritable path).
    public func write(to url: URL, precision: TensorDType = .float32) throws {
        do {
            try file.write(to: url, precision: precision)
        } catch let error as ModelFileError {
            throw ClassifierError.modelFile(error)
        }
    }
}
