import Foundation
import StrokeKit
import StrokeModelFile

/// The key-value metadata both formats carry (ONNX `metadata_props`, Core ML
/// `userDefined`): the model's own `strokekit.*` keys (classes, architecture, input,
/// training provenance, reject threshold), the reject rule spelled out, and where the
/// export came from.
struct ExportMetadata {
    /// Metadata key of the reject rule in words.
    static let rejectRuleKey = "strokekit.reject.rule"
    /// Metadata key of the background classes, a JSON array of names.
    static let backgroundClassesKey = "strokekit.reject.background_classes"
    /// Metadata key of the model file's name.
    static let sourceKey = "strokekit.export.source"
    /// Metadata key of the SHA-256 of the model file's tensor data.
    static let sourceChecksumKey = "strokekit.export.source_tensors_sha256"
    /// Metadata key of how the weights are stored in the export.
    static let weightsKey = "strokekit.export.weights"

    /// Entries sorted by key.
    let entries: [(key: String, value: String)]

    init(exporter: ModelExporter) {
        let metadata = exporter.model.metadata
        var map = metadata.dictionary
        // These two describe the safetensors container, not the exported model.
        map[ModelMetadata.Key.format] = nil
        map[ModelMetadata.Key.formatVersion] = nil
        let rule = exporter.rejectRule
        let background = rule.backgroundClasses.sorted().map { metadata.classes[$0] }
        map[Self.rejectRuleKey] = Self.describe(rule: rule, backgroundClasses: background)
        map[Self.backgroundClassesKey] = String(decoding: (try? JSONEncoder().encode(background)) ?? Data(), as: UTF8.self)
        map[Self.sourceKey] = URL(fileURLWithPath: exporter.source).lastPathComponent
        map[Self.sourceChecksumKey] = exporter.sourceChecksum
        switch exporter.storedPrecision {
        case .float32: map[Self.weightsKey] = "float32, as stored in the model file"
        case .float16: map[Self.weightsKey] = "float32, converted exactly from the model file's float16 weights"
        case .int8: map[Self.weightsKey] = "float32, dequantized as StrokeKit loads the model file's int8 weights (level x channel scale)"
        }
        entries = map.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
    }

    /// The rule in words, for app developers reading the exported file.
    static func describe(rule: RejectRule, backgroundClasses: [String]) -> String {
        var parts: [String] = []
        if !backgroundClasses.isEmpty {
            let names = backgroundClasses.map { "'\($0)'" }.joined(separator: " or ")
            parts.append("reject when the most probable class is \(names) (the drawing is not a shape); "
                + "report the most probable other class as the closest shape")
        }
        if let minimum = rule.minimumConfidence {
            parts.append("reject when the most probable class's probability is below \(minimum)")
        }
        return parts.isEmpty ? "none: the most probable class is the answer" : parts.joined(separator: "; ")
    }

    /// A one-line description of the model for the formats' description fields.
    static func summary(of model: TrainedModel) -> String {
        "StrokeKit stroke-shape classifier \(model.metadata.architecture), classes "
            + model.metadata.classes.joined(separator: ", ")
            + "; input 28x28 gray, white ink on black, pixel/255"
    }
}
