/// Why a model could not be exported. Every case names the model file.
public enum ExportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The network holds a layer the export formats have no mapping for.
    case unsupportedLayer(source: String, layer: String)

    public var description: String {
        switch self {
        case let .unsupportedLayer(source, layer):
            return "\(source): cannot export layer '\(layer)': only convolutions, ReLU, 2x2 max pooling, "
                + "flatten, dense and dropout layers have an ONNX and Core ML form"
        }
    }
}
