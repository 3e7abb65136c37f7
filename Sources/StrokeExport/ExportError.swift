/// Why a model could not be exported. Every case names the model file.
public enum ExportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The network holds a layer the export formats have no mapping for.
    case unsupportedLayer(source: String, layer: String)
    /// The model reads several input channels (e.g. `reference-height:18+aspect-fit`); the
    /// exports take one 28x28 gray image.
    case unsupportedInputChannels(source: String, channels: Int)

    public var description: String {
        switch self {
        case let .unsupportedLayer(source, layer):
            return "\(source): cannot export layer '\(layer)': only convolutions, ReLU, 2x2 max pooling, "
                + "flatten, dense and dropout layers have an ONNX and Core ML form"
        case let .unsupportedInputChannels(source, channels):
            return "\(source): cannot export a model of \(channels) input channels: the ONNX and Core ML forms "
                + "take one 28x28 gray image"
        }
    }
}
