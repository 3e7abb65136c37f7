import Foundation
import StrokeKit

/// Builds the ONNX model of an exported network.
///
/// Graph: input `image` float32 (N, 1, 28, 28), pixel/255 in [0, 1], with a symbolic batch
/// dimension `N`; Conv / Relu / MaxPool / Flatten / Gemm nodes in the network's order;
/// outputs `logits` and `probabilities` (Softmax over the classes), both (N, classes).
/// Weights are initializers named as in the model file (`conv1.weight`), float32 raw data.
enum ONNXExport {
    /// The standard operator set the nodes use (ai.onnx, opset 13).
    static let opsetVersion: Int64 = 13
    /// The IR version that goes with opset 13.
    static let irVersion: Int64 = 7
    static let inputName = "image"
    static let logitsName = "logits"
    static let probabilitiesName = "probabilities"
    static let batchDimension = "N"

    static func model(of exporter: ModelExporter, graph: ExportGraph, metadata: ExportMetadata) -> Onnx_ModelProto {
        let network = exporter.model.network
        var builder = GraphBuilder()
        var current = inputName
        var poolCount = 0
        for operation in graph.operations {
            switch operation {
            case let .convolution(name, inputChannels, outputChannels, kernelSize, weight, bias):
                let padding = Int64((kernelSize - 1) / 2)
                let size = Int64(kernelSize)
                current = builder.node(
                    "Conv", name: name,
                    inputs: [current,
                             builder.initializer("\(name).weight", dims: [outputChannels, inputChannels, kernelSize, kernelSize],
                                                 values: weight),
                             builder.initializer("\(name).bias", dims: [outputChannels], values: bias)],
                    attributes: [.ints("kernel_shape", [size, size]), .ints("pads", [padding, padding, padding, padding]),
                                 .ints("strides", [1, 1]), .ints("dilations", [1, 1]), .int("group", 1)])
            case .relu:
                current = builder.node("Relu", name: "\(current)_relu", inputs: [current])
            case .maxPool:
                poolCount += 1
                current = builder.node(
                    "MaxPool", name: "pool\(poolCount)", inputs: [current],
                    attributes: [.ints("kernel_shape", [2, 2]), .ints("strides", [2, 2]), .ints("pads", [0, 0, 0, 0])])
            case .flatten:
                current = builder.node("Flatten", name: "flatten", inputs: [current], attributes: [.int("axis", 1)])
            case let .dense(name, inputs, outputs, weight, bias):
                current = builder.node(
                    "Gemm", name: name,
                    inputs: [current,
                             builder.initializer("\(name).weight", dims: [outputs, inputs], values: weight),
                             builder.initializer("\(name).bias", dims: [outputs], values: bias)],
                    attributes: [.int("transB", 1)])
            }
        }
        builder.rename(output: current, to: logitsName)
        _ = builder.node("Softmax", name: "softmax", inputs: [logitsName], output: probabilitiesName,
                         attributes: [.int("axis", 1)])

        var onnxGraph = Onnx_GraphProto()
        onnxGraph.name = "strokekit_\(network.architecture.description)"
        onnxGraph.docString = ExportMetadata.summary(of: exporter.model)
        onnxGraph.node = builder.nodes
        onnxGraph.initializer = builder.initializers
        onnxGraph.input = [tensorValue(
            inputName, dimensions: [.symbolic(batchDimension), .fixed(network.inputChannels),
                                    .fixed(network.inputHeight), .fixed(network.inputWidth)],
            doc: "float32 (N, 1, 28, 28): 28x28 gray drawings, white ink on black, each pixel value/255 in [0, 1]")]
        let classDoc = "classes in order: " + exporter.model.metadata.classes.joined(separator: ", ")
        onnxGraph.output = [
            tensorValue(probabilitiesName, dimensions: [.symbolic(batchDimension), .fixed(network.classCount)],
                        doc: "softmax of the logits; \(classDoc)"),
            tensorValue(logitsName, dimensions: [.symbolic(batchDimension), .fixed(network.classCount)],
                        doc: "the last dense layer's outputs; \(classDoc)"),
        ]

        var model = Onnx_ModelProto()
        model.irVersion = irVersion
        var opset = Onnx_OperatorSetIdProto()
        opset.domain = ""
        opset.version = opsetVersion
        model.opsetImport = [opset]
        model.producerName = "StrokeKit"
        model.producerVersion = "strokekit export"
        model.docString = ExportMetadata.summary(of: exporter.model)
        model.graph = onnxGraph
        model.metadataProps = metadata.entries.map { entry in
            var property = Onnx_StringStringEntryProto()
            property.key = entry.key
            property.value = entry.value
            return property
        }
        return model
    }

    private enum Dimension {
        case fixed(Int)
        case symbolic(String)
    }

    private static func tensorValue(_ name: String, dimensions: [Dimension], doc: String) -> Onnx_ValueInfoProto {
        var shape = Onnx_TensorShapeProto()
        shape.dim = dimensions.map { dimension in
            var dim = Onnx_TensorShapeProto.Dimension()
            switch dimension {
            case .fixed(let size): dim.dimValue = Int64(size)
            case .symbolic(let name): dim.dimParam = name
            }
            return dim
        }
        var tensorType = Onnx_TypeProto.Tensor()
        tensorType.elemType = Int32(Onnx_TensorProto.DataType.float.rawValue)
        tensorType.shape = shape
        var value = Onnx_ValueInfoProto()
        value.name = name
        value.type.tensorType = tensorType
        value.docString = doc
        return value
    }
}

/// Collects nodes and initializers; each node's single output is named after the node.
private struct GraphBuilder {
    enum Attribute {
        case int(String, Int64)
        case ints(String, [Int64])
    }

    var nodes: [Onnx_NodeProto] = []
    var initializers: [Onnx_TensorProto] = []

    /// Adds a float32 initializer and returns its name.
    mutating func initializer(_ name: String, dims: [Int], values: [Float]) -> String {
        precondition(dims.reduce(1, *) == values.count, "\(name): \(values.count) values for shape \(dims)")
        var tensor = Onnx_TensorProto()
        tensor.name = name
        tensor.dims = dims.map(Int64.init)
        tensor.dataType = Int32(Onnx_TensorProto.DataType.float.rawValue)
        var raw = Data(capacity: values.count * 4)
        for value in values {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { raw.append(contentsOf: $0) }
        }
        tensor.rawData = raw
        initializers.append(tensor)
        return name
    }

    /// Adds a node and returns its output's name (`output`, or the node's name).
    mutating func node(_ opType: String, name: String, inputs: [String], output: String? = nil,
                       attributes: [Attribute] = []) -> String {
        var node = Onnx_NodeProto()
        node.opType = opType
        node.name = name
        node.input = inputs
        node.output = [output ?? name]
        node.attribute = attributes.map { attribute in
            var proto = Onnx_AttributeProto()
            switch attribute {
            case let .int(name, value):
                proto.name = name
                proto.type = .int
                proto.i = value
            case let .ints(name, values):
                proto.name = name
                proto.type = .ints
                proto.ints = values
            }
            return proto
        }
        nodes.append(node)
        return output ?? name
    }

    /// Renames the last node's output (e.g. to the graph output's name).
    mutating func rename(output: String, to newName: String) {
        precondition(nodes.last?.output == [output], "only the last node's output can be renamed")
        nodes[nodes.count - 1].output = [newName]
    }
}
