import Foundation

/// What a StrokeKit classifier file says about itself, stored in the safetensors
/// `__metadata__` map (string to string) under dotted lower_snake_case keys.
/// `docs/model-format.md` gives every key's rule; `Key` lists them.
public struct ModelMetadata: Sendable, Equatable {
    /// The value of `strokekit.format` in every StrokeKit classifier file.
    public static let formatName = "strokekit-classifier"
    /// The format version this StrokeKit writes and the highest major version it reads.
    /// Increased only for structural changes (see the docs).
    public static let currentFormatVersion = 1

    /// The metadata keys StrokeKit knows.
    public enum Key {
        public static let format = "strokekit.format"
        public static let formatVersion = "strokekit.format_version"
        public static let classes = "strokekit.classes"
        public static let architecture = "strokekit.architecture"
        public static let inputWidth = "strokekit.input.width"
        public static let inputHeight = "strokekit.input.height"
        public static let inputChannels = "strokekit.input.channels"
        public static let inputScale = "strokekit.input.scale"
        public static let inputInk = "strokekit.input.ink"
        public static let datasetSHA256 = "strokekit.train.dataset_sha256"
        public static let seed = "strokekit.train.seed"
        public static let epochs = "strokekit.train.epochs"
        public static let validationAccuracy = "strokekit.train.validation_accuracy"
        public static let created = "strokekit.train.created"
        // Optional keys kept in `extra` (older StrokeKits keep and ignore them):
        /// Reject a classification whose winning probability is below this decimal.
        public static let rejectMinimumConfidence = "strokekit.reject.min_confidence"
        /// The training flags that decided the weights, as `strokekit train` spells them.
        public static let trainingRecipe = "strokekit.train.recipe"
        /// `default` when training images were augmented every epoch.
        public static let augmentation = "strokekit.train.augmentation"
        /// Synthetic drawings added per shape class.
        public static let syntheticPerClass = "strokekit.train.synthetic_per_class"
        /// Synthetic non-shapes added as the reject class.
        public static let syntheticNegatives = "strokekit.train.synthetic_negatives"
        /// The training data: its name and citation, for data that asks to be credited.
        public static let dataSource = "strokekit.train.data_source"
        /// The training data's licence (e.g. `CC BY 4.0`).
        public static let dataLicense = "strokekit.train.data_license"
        /// How strokes become the input image: `aspect-fit` (the drawing's own box; also when
        /// the key is absent) or `reference-height:<pixels>` (within a frame, the height of
        /// the character's line or writer, which keeps its size).
        public static let inputFraming = "strokekit.input.framing"

        static let all: Set<String> = [
            format, formatVersion, classes, architecture, inputWidth, inputHeight, inputChannels,
            inputScale, inputInk, datasetSHA256, seed, epochs, validationAccuracy, created,
        ]
    }

    /// Which way round the strokes are drawn in the network's input images.
    public enum Ink: String, Sendable, CaseIterable {
        case whiteOnBlack = "white-on-black"
        case blackOnWhite = "black-on-white"
    }

    /// What the network expects as input.
    public struct Input: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var channels: Int
        /// Factor from 8-bit gray to network input, as a fraction "1/255" or a decimal.
        public var scale: String
        public var ink: Ink

        public init(width: Int = 28, height: Int = 28, channels: Int = 1, scale: String = "1/255", ink: Ink = .whiteOnBlack) {
            self.width = width
            self.height = height
            self.channels = channels
            self.scale = scale
            self.ink = ink
        }

        /// `scale` as a number; nil when it is neither "a/b" nor a decimal.
        public var scaleFactor: Float? { ModelMetadata.parseScale(scale) }
    }

    /// How the model was trained. Every field is optional.
    public struct Training: Sendable, Equatable {
        /// SHA-256 (lowercase hex) identifying the training dataset.
        public var datasetSHA256: String?
        public var seed: UInt64?
        public var epochs: Int?
        /// Accuracy on the validation split, in 0...1.
        public var validationAccuracy: Double?
        /// When the file was made; stored as ISO 8601 with whole seconds.
        public var created: Date?

        public init(
            datasetSHA256: String? = nil, seed: UInt64? = nil, epochs: Int? = nil,
            validationAccuracy: Double? = nil, created: Date? = nil
        ) {
            self.datasetSHA256 = datasetSHA256
            self.seed = seed
            self.epochs = epochs
            self.validationAccuracy = validationAccuracy
            self.created = created
        }
    }

    /// The major format version of the file (what was read, or `currentFormatVersion`).
    public var formatVersion: Int
    /// Class labels in output order: logit i is `classes[i]`.
    public var classes: [String]
    /// The network spec, e.g. "c16-p-c32-p-c64-p-d128" (parsed by the network, not here).
    public var architecture: String
    public var input: Input
    public var training: Training
    /// Keys this version does not know (e.g. later `strokekit.reject.*`), kept for round trips.
    /// Known keys win over an `extra` entry of the same name when writing.
    public var extra: [String: String]

    public init(
        classes: [String], architecture: String, input: Input = Input(), training: Training = Training(),
        extra: [String: String] = [:]
    ) {
        self.formatVersion = Self.currentFormatVersion
        self.classes = classes
        self.architecture = architecture
        self.input = input
        self.training = training
        self.extra = extra
    }
}

// MARK: - To and from the metadata map

extension ModelMetadata {
    /// The `__metadata__` entries for this metadata.
    public var dictionary: [String: String] {
        var result = extra
        result[Key.format] = Self.formatName
        result[Key.formatVersion] = String(formatVersion)
        result[Key.classes] = HeaderJSON.array(classes.map { .string($0) }).serialized
        result[Key.architecture] = architecture
        result[Key.inputWidth] = String(input.width)
        result[Key.inputHeight] = String(input.height)
        result[Key.inputChannels] = String(input.channels)
        result[Key.inputScale] = input.scale
        result[Key.inputInk] = input.ink.rawValue
        result[Key.datasetSHA256] = training.datasetSHA256
        result[Key.seed] = training.seed.map { String($0) }
        result[Key.epochs] = training.epochs.map { String($0) }
        result[Key.validationAccuracy] = training.validationAccuracy.map { String($0) }
        result[Key.created] = training.created.map { $0.formatted(Date.ISO8601FormatStyle()) }
        return result
    }

    /// Reads and checks the metadata of the file `source`.
    ///
    /// Required: `strokekit.format` (= "strokekit-classifier"), `strokekit.format_version`
    /// (major version at most `currentFormatVersion`), `strokekit.classes`,
    /// `strokekit.architecture`, `strokekit.input.width`/`height`/`channels`. Optional keys
    /// take their documented defaults. Throws `ModelFileError` naming the key.
    public init(_ dictionary: [String: String], source: String) throws {
        let reader = Reader(dictionary: dictionary, source: source)
        let format = try reader.required(Key.format)
        guard format == Self.formatName else { throw ModelFileError.wrongFormat(source: source, found: format) }
        formatVersion = try reader.formatVersion()
        classes = try reader.classes()
        architecture = try reader.required(Key.architecture)
        guard !architecture.isEmpty else {
            throw ModelFileError.invalidMetadataValue(
                source: source, key: Key.architecture, value: architecture, expected: "a network spec such as c16-p-c32-p-d128")
        }
        input = Input(
            width: try reader.positiveInteger(reader.required(Key.inputWidth), key: Key.inputWidth),
            height: try reader.positiveInteger(reader.required(Key.inputHeight), key: Key.inputHeight),
            channels: try reader.positiveInteger(reader.required(Key.inputChannels), key: Key.inputChannels),
            scale: dictionary[Key.inputScale] ?? "1/255",
            ink: .whiteOnBlack)
        guard input.scaleFactor != nil else {
            throw ModelFileError.invalidMetadataValue(
                source: source, key: Key.inputScale, value: input.scale, expected: "a fraction such as 1/255 or a decimal")
        }
        if let ink = dictionary[Key.inputInk] {
            guard let parsed = Ink(rawValue: ink) else {
                throw ModelFileError.invalidMetadataValue(
                    source: source, key: Key.inputInk, value: ink,
                    expected: Ink.allCases.map(\.rawValue).joined(separator: " or "))
            }
            input.ink = parsed
        }
        training = try reader.training()
        extra = dictionary.filter { !Key.all.contains($0.key) }
    }

    /// A fraction "a/b" or a decimal, finite and positive.
    static func parseScale(_ text: String) -> Float? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let value: Float?
        switch parts.count {
        case 1: value = Float(parts[0])
        case 2: value = Float(parts[0]).flatMap { numerator in Float(parts[1]).map { numerator / $0 } }
        default: value = nil
        }
        guard let value, value.isFinite, value > 0 else { return nil }
        return value
    }

    private struct Reader {
        var dictionary: [String: String]
        var source: String

        func required(_ key: String) throws -> String {
            guard let value = dictionary[key] else { throw ModelFileError.missingMetadataKey(source: source, key: key) }
            return value
        }

        func invalid(_ key: String, _ value: String, _ expected: String) -> ModelFileError {
            .invalidMetadataValue(source: source, key: key, value: value, expected: expected)
        }

        func positiveInteger(_ text: String, key: String) throws -> Int {
            guard let value = Int(text), value > 0 else { throw invalid(key, text, "a positive integer") }
            return value
        }

        /// "MAJOR" or "MAJOR.MINOR"; a minor version marks compatible additions.
        func formatVersion() throws -> Int {
            let text = try required(Key.formatVersion)
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && Int($0) != nil }),
                let major = Int(parts[0]), major >= 1
            else {
                throw invalid(Key.formatVersion, text, "a version number such as \"1\"")
            }
            guard major <= ModelMetadata.currentFormatVersion else {
                throw ModelFileError.unsupportedFormatVersion(
                    source: source, found: text, supported: ModelMetadata.currentFormatVersion)
            }
            return major
        }

        func classes() throws -> [String] {
            let text = try required(Key.classes)
            let expected = "a JSON array of distinct non-empty strings, e.g. [\"arrow\",\"circle\",\"cycle\"]"
            guard case let .array(elements)? = try? HeaderJSON.parse(Array(text.utf8)[...]) else {
                throw invalid(Key.classes, text, expected)
            }
            var classes: [String] = []
            for element in elements {
                guard case let .string(label) = element, !label.isEmpty, !classes.contains(label) else {
                    throw invalid(Key.classes, text, expected)
                }
                classes.append(label)
            }
            guard !classes.isEmpty else { throw invalid(Key.classes, text, expected) }
            return classes
        }

        func training() throws -> Training {
            var training = Training()
            if let hash = dictionary[Key.datasetSHA256] {
                guard hash.utf8.count == 64, hash.allSatisfy(\.isHexDigit) else {
                    throw invalid(Key.datasetSHA256, hash, "64 hexadecimal digits")
                }
                training.datasetSHA256 = hash.lowercased()
            }
            if let seed = dictionary[Key.seed] {
                guard let value = UInt64(seed) else { throw invalid(Key.seed, seed, "an unsigned 64-bit integer") }
                training.seed = value
            }
            if let epochs = dictionary[Key.epochs] {
                guard let value = Int(epochs), value >= 0 else { throw invalid(Key.epochs, epochs, "a non-negative integer") }
                training.epochs = value
            }
            if let accuracy = dictionary[Key.validationAccuracy] {
                guard let value = Double(accuracy), (0...1).contains(value) else {
                    throw invalid(Key.validationAccuracy, accuracy, "a number in 0...1")
                }
                training.validationAccuracy = value
            }
            if let created = dictionary[Key.created] {
                let wholeSeconds = try? Date.ISO8601FormatStyle().parse(created)
                let fractional = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(created)
                guard let date = wholeSeconds ?? fractional else {
                    throw invalid(Key.created, created, "an ISO 8601 date such as 2025-01-31T12:00:00Z")
                }
                training.created = date
            }
            return training
        }
    }
}

// MARK: - Model files

extension SafeTensorsFile {
    /// A file holding `tensors` and `metadata`'s entries.
    public init(tensors: [NamedTensor], modelMetadata: ModelMetadata, source: String = "<memory>") {
        self.init(tensors: tensors, metadata: modelMetadata.dictionary, source: source)
    }

    /// The file's metadata read as a StrokeKit classifier's (errors name this file's `source`).
    public func modelMetadata() throws -> ModelMetadata {
        try ModelMetadata(metadata, source: source)
    }
}
