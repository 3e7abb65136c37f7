import Foundation
import StrokeKit
import StrokeNN
import StrokeTensor
import SwiftProtobuf
import Testing

@testable import StrokeExport

@Suite struct ONNXExportTests {
    func decode(_ model: TrainedModel) throws -> Onnx_ModelProto {
        try Onnx_ModelProto(serializedBytes: ExportFixtures.exporter(model).encoded(as: .onnx))
    }

    func attribute(_ node: Onnx_NodeProto, _ name: String) -> Onnx_AttributeProto? {
        node.attribute.first { $0.name == name }
    }

    @Test func defaultArchitectureDecodesToTheNetworksNodes() throws {
        let model = ExportFixtures.model()
        let onnx = try decode(model)
        #expect(onnx.irVersion == 7)
        #expect(onnx.opsetImport.map(\.version) == [13] && onnx.opsetImport[0].domain == "")
        // The network's order: each conv's ReLU after its pool.
        #expect(onnx.graph.node.map(\.opType) == [
            "Conv", "MaxPool", "Relu", "Conv", "MaxPool", "Relu", "Conv", "MaxPool", "Relu",
            "Flatten", "Gemm", "Relu", "Gemm", "Softmax",
        ])
        #expect(onnx.graph.node.last?.input == ["logits"] && onnx.graph.node.last?.output == ["probabilities"])
        let input = onnx.graph.input[0]
        #expect(input.name == "image")
        let dims = input.type.tensorType.shape.dim
        #expect(dims.map(\.dimParam) == ["N", "", "", ""] && dims.dropFirst().map(\.dimValue) == [1, 28, 28])
        #expect(input.type.tensorType.elemType == 1)  // FLOAT
        #expect(onnx.graph.output.map(\.name) == ["probabilities", "logits"])
        for output in onnx.graph.output {
            #expect(output.type.tensorType.shape.dim.map(\.dimParam) == ["N", ""])
            #expect(output.type.tensorType.shape.dim[1].dimValue == 4)
        }
    }

    @Test func initializersHoldEveryParameterExactly() throws {
        let model = ExportFixtures.model(architecture: ExportFixtures.smallArchitecture)
        let onnx = try decode(model)
        let initializers = Dictionary(uniqueKeysWithValues: onnx.graph.initializer.map { ($0.name, $0) })
        #expect(initializers.count == model.network.parameters.count)
        for parameter in model.network.parameters {
            let tensor = try #require(initializers[parameter.name], "missing initializer \(parameter.name)")
            #expect(tensor.dims == parameter.value.shape.map(Int64.init), "\(parameter.name)")
            #expect(tensor.dataType == 1)
            let values = tensor.rawData.withUnsafeBytes { raw in
                (0..<(raw.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
            }
            #expect(values == parameter.value.values, "\(parameter.name) values")
        }
        // Kernel sizes and padding follow each convolution ('same': (k - 1) / 2).
        let convs = onnx.graph.node.filter { $0.opType == "Conv" }
        #expect(convs.map { attribute($0, "kernel_shape")?.ints ?? [] } == [[5, 5], [3, 3], [1, 1]])
        #expect(convs.map { attribute($0, "pads")?.ints ?? [] } == [[2, 2, 2, 2], [1, 1, 1, 1], [0, 0, 0, 0]])
        // Dropout is the identity at inference: no node.
        #expect(!onnx.graph.node.contains { $0.opType == "Dropout" })
    }

    @Test func metadataCarriesClassesRejectRuleAndProvenance() throws {
        let model = ExportFixtures.model(extra: ["strokekit.reject.min_confidence": "0.6"])
        let onnx = try decode(model)
        let metadata = Dictionary(uniqueKeysWithValues: onnx.metadataProps.map { ($0.key, $0.value) })
        #expect(metadata["strokekit.classes"] == #"["arrow","circle","cycle","none"]"#)
        #expect(metadata["strokekit.architecture"] == "c16-p-c32-p-c64-p-d128")
        #expect(metadata["strokekit.reject.min_confidence"] == "0.6")
        #expect(metadata["strokekit.reject.background_classes"] == #"["none"]"#)
        let rule = try #require(metadata["strokekit.reject.rule"])
        #expect(rule.contains("'none'") && rule.contains("below 0.6"), "\(rule)")
        #expect(metadata["strokekit.export.source"] == "test.safetensors")
        #expect(metadata["strokekit.export.weights"]?.hasPrefix("float32") == true)
        #expect(metadata["strokekit.input.scale"] == "1/255")
        #expect(metadata["strokekit.format"] == nil, "the safetensors container key is not the export's")
    }

    /// Runs the decoded graph with plain loops, reading every attribute and weight from the
    /// protobuf, and compares with the network's own forward pass.
    @Test(arguments: [ArchitectureSpec.default.description, ExportFixtures.smallArchitecture, "d16", "c4k7-p-p-p-dr0.2"])
    func decodedGraphComputesWhatTheNetworkDoes(architecture: String) throws {
        let model = ExportFixtures.model(architecture: architecture)
        let onnx = try decode(model)
        let input = ExportFixtures.inputs(count: 3, seed: 11)
        let logits = model.network.forward(input, training: false).values
        let outputs = try ONNXReferenceInterpreter(graph: onnx.graph).run(image: input)
        let classCount = model.network.classCount
        let exported = try #require(outputs["logits"])
        let difference = zip(exported.values, logits).map { abs($0 - $1) }.max() ?? .infinity
        #expect(exported.shape == [3, classCount] && difference < 1e-4, "max |difference| = \(difference)")
        let probabilities = try #require(outputs["probabilities"])
        for row in 0..<3 {
            let slice = probabilities.values[(row * classCount)..<((row + 1) * classCount)]
            #expect(abs(slice.reduce(0, +) - 1) < 1e-5)
        }
    }
}

/// A plain-loop interpreter for the ONNX operators StrokeExport writes (Conv, Relu,
/// MaxPool, Flatten, Gemm with transB, Softmax on axis 1), in Double, NCHW.
struct ONNXReferenceInterpreter {
    struct Value {
        var shape: [Int]
        var values: [Double]
    }
    struct Unsupported: Error, CustomStringConvertible {
        let description: String
    }

    let graph: Onnx_GraphProto

    func run(image: Tensor) throws -> [String: (shape: [Int], values: [Float])] {
        var values: [String: Value] = [graph.input[0].name: Value(shape: image.shape, values: image.values.map(Double.init))]
        for tensor in graph.initializer {
            let floats = tensor.rawData.withUnsafeBytes { raw in
                (0..<(raw.count / 4)).map {
                    Double(Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))))
                }
            }
            values[tensor.name] = Value(shape: tensor.dims.map(Int.init), values: floats)
        }
        for node in graph.node {
            let inputs = try node.input.map { name in
                guard let value = values[name] else { throw Unsupported(description: "\(node.name): no value '\(name)'") }
                return value
            }
            values[node.output[0]] = try evaluate(node, inputs)
        }
        var result: [String: (shape: [Int], values: [Float])] = [:]
        for output in graph.output {
            let value = try #require(values[output.name])
            result[output.name] = (value.shape, value.values.map(Float.init))
        }
        return result
    }

    private func ints(_ node: Onnx_NodeProto, _ name: String) -> [Int] {
        node.attribute.first { $0.name == name }?.ints.map(Int.init) ?? []
    }

    private func evaluate(_ node: Onnx_NodeProto, _ inputs: [Value]) throws -> Value {
        switch node.opType {
        case "Conv":
            let (x, w, b) = (inputs[0], inputs[1], inputs[2])
            let (n, c, h, width) = (x.shape[0], x.shape[1], x.shape[2], x.shape[3])
            let (oc, kh, kw) = (w.shape[0], w.shape[2], w.shape[3])
            let pads = ints(node, "pads")
            guard w.shape[1] == c, ints(node, "strides") == [1, 1] else { throw Unsupported(description: "conv") }
            let oh = h + pads[0] + pads[2] - kh + 1, ow = width + pads[1] + pads[3] - kw + 1
            var y = [Double](repeating: 0, count: n * oc * oh * ow)
            for i in 0..<n { for o in 0..<oc { for oy in 0..<oh { for ox in 0..<ow {
                var sum = b.values[o]
                for ci in 0..<c { for ky in 0..<kh { for kx in 0..<kw {
                    let iy = oy + ky - pads[0], ix = ox + kx - pads[1]
                    guard iy >= 0, iy < h, ix >= 0, ix < width else { continue }
                    sum += x.values[((i * c + ci) * h + iy) * width + ix] * w.values[((o * c + ci) * kh + ky) * kw + kx]
                }}}
                y[((i * oc + o) * oh + oy) * ow + ox] = sum
            }}}}
            return Value(shape: [n, oc, oh, ow], values: y)
        case "Relu":
            return Value(shape: inputs[0].shape, values: inputs[0].values.map { max($0, 0) })
        case "MaxPool":
            let x = inputs[0]
            guard ints(node, "kernel_shape") == [2, 2], ints(node, "strides") == [2, 2] else { throw Unsupported(description: "pool") }
            let (planes, h, w) = (x.shape[0] * x.shape[1], x.shape[2], x.shape[3])
            let (oh, ow) = (h / 2, w / 2)
            var y = [Double](repeating: 0, count: planes * oh * ow)
            for p in 0..<planes { for oy in 0..<oh { for ox in 0..<ow {
                var best = -Double.infinity
                for dy in 0..<2 { for dx in 0..<2 { best = max(best, x.values[(p * h + 2 * oy + dy) * w + 2 * ox + dx]) } }
                y[(p * oh + oy) * ow + ox] = best
            }}}
            return Value(shape: [x.shape[0], x.shape[1], oh, ow], values: y)
        case "Flatten":
            let x = inputs[0]
            return Value(shape: [x.shape[0], x.shape.dropFirst().reduce(1, *)], values: x.values)
        case "Gemm":
            let (x, w, b) = (inputs[0], inputs[1], inputs[2])
            guard node.attribute.first(where: { $0.name == "transB" })?.i == 1 else { throw Unsupported(description: "gemm") }
            let (n, k, m) = (x.shape[0], x.shape[1], w.shape[0])
            var y = [Double](repeating: 0, count: n * m)
            for i in 0..<n { for j in 0..<m {
                var sum = b.values[j]
                for l in 0..<k { sum += x.values[i * k + l] * w.values[j * k + l] }
                y[i * m + j] = sum
            }}
            return Value(shape: [n, m], values: y)
        case "Softmax":
            let x = inputs[0]
            let (n, m) = (x.shape[0], x.shape[1])
            var y = x.values
            for i in 0..<n {
                let row = x.values[(i * m)..<((i + 1) * m)]
                let largest = row.max()!
                let sum = row.map { exp($0 - largest) }.reduce(0, +)
                for j in 0..<m { y[i * m + j] = exp(x.values[i * m + j] - largest) / sum }
            }
            return Value(shape: x.shape, values: y)
        default:
            throw Unsupported(description: "operator \(node.opType)")
        }
    }
}
