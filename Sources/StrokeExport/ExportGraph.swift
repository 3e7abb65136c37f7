import StrokeNN

/// A network as the export formats see it: the inference-time operations in the order
/// the network runs them, with their weights. Dropout is the identity at inference and
/// leaves no operation. Both exporters walk this list, so they cannot disagree on order.
///
/// The order is the network's own, not the spec's: `Network` applies a convolution's ReLU
/// after the pool that follows it (the two commute), and the export does the same.
struct ExportGraph {
    enum Operation {
        /// Stride 1, 'same' zero padding of `(kernelSize - 1) / 2` on every side.
        /// weight (outputChannels, inputChannels, k, k), bias (outputChannels).
        case convolution(name: String, inputChannels: Int, outputChannels: Int, kernelSize: Int,
                         weight: [Float], bias: [Float])
        case relu
        /// 2x2 max pooling, stride 2, odd trailing rows and columns dropped.
        case maxPool
        /// (C, H, W) -> C·H·W features in C, H, W order.
        case flatten
        /// weight (outputs, inputs), bias (outputs).
        case dense(name: String, inputs: Int, outputs: Int, weight: [Float], bias: [Float])
    }

    var operations: [Operation]

    /// The operations of `network`; `source` names the model file in errors.
    init(network: Network, source: String) throws {
        operations = []
        for layer in network.layers {
            switch layer {
            case let conv as Conv2D:
                operations.append(.convolution(
                    name: Self.layerName(conv.weight), inputChannels: conv.inputChannels,
                    outputChannels: conv.outputChannels, kernelSize: conv.kernelSize,
                    weight: conv.weight.value.values, bias: conv.bias.value.values))
            case is ReLU:
                operations.append(.relu)
            case is MaxPool2D:
                operations.append(.maxPool)
            case is Flatten:
                operations.append(.flatten)
            case let dense as Dense:
                operations.append(.dense(
                    name: Self.layerName(dense.weight), inputs: dense.inputFeatures, outputs: dense.outputFeatures,
                    weight: dense.weight.value.values, bias: dense.bias.value.values))
            case is Dropout:
                continue
            default:
                throw ExportError.unsupportedLayer(source: source, layer: layer.summary)
            }
        }
    }

    /// "conv1" for the parameter "conv1.weight".
    private static func layerName(_ weight: Parameter) -> String {
        String(weight.name.prefix { $0 != "." })
    }
}
