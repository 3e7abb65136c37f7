/// The model formats StrokeKit exports to.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// ONNX (opset `ONNXExport.opsetVersion`), for onnxruntime and most non-Apple platforms.
    case onnx
    /// A Core ML neural-network classifier (`.mlmodel`, specification version
    /// `CoreMLExport.specificationVersion`), for iOS 13+ and macOS 10.15+.
    case coreml

    /// The usual file extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .onnx: "onnx"
        case .coreml: "mlmodel"
        }
    }
}
