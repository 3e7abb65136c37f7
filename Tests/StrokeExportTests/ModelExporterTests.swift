import Foundation
import StrokeSupport
import StrokeKit
import StrokeModelFile
import StrokeNN
import Testing

@testable import StrokeExport

@Suite struct ModelExporterTests {
    @Test func missingFileIsNamedInTheError() throws {
        let path = "/nonexistent/model.safetensors"
        let error = #expect(throws: ClassifierError.self) { try ModelExporter(contentsOf: URL(fileURLWithPath: path)) }
        #expect(error?.description.contains(path) == true, "\(String(describing: error))")
    }

    @Test func corruptFileIsNamedInTheError() throws {
        try ExportFixtures.withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("corrupt.safetensors")
            var bytes = try ExportFixtures.model().file.encode(precision: .float32)
            bytes[bytes.count - 10] ^= 0xFF  // a flipped weight byte: the checksum no longer matches
            try Data(bytes).write(to: url)
            let error = #expect(throws: ClassifierError.self) { try ModelExporter(contentsOf: url) }
            #expect(error?.description.contains(url.path) == true, "\(String(describing: error))")

            try Data("not a model".utf8).write(to: url)
            let garbage = #expect(throws: ClassifierError.self) { try ModelExporter(contentsOf: url) }
            #expect(garbage?.description.contains(url.path) == true, "\(String(describing: garbage))")
        }
    }

    @Test func unsupportedInputIsNamedInTheError() throws {
        try ExportFixtures.withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("inverted.safetensors")
            let model = ExportFixtures.model()
            var metadata = model.metadata
            metadata.input.ink = .blackOnWhite
            try SafeTensorsFile(tensors: model.file.tensors, modelMetadata: metadata).write(to: url, precision: .float32)
            let error = #expect(throws: ClassifierError.self) { try ModelExporter(contentsOf: url) }
            guard case .unsupportedInput(let source, _, _)? = error else {
                Issue.record("expected unsupportedInput, got \(String(describing: error))")
                return
            }
            #expect(source == url.path)
        }
    }

    @Test func aModelOfTwoInputChannelsIsRefusedNamingTheFile() throws {
        let network = try Network(architecture: .default, classCount: 3, inputChannels: 2)
        network.initializeParameters(seed: 4)
        let model = TrainedModel(network: network, metadata: TrainedModel.metadata(
            for: network, classes: ["a", "b", "c"],
            extra: [ModelMetadata.Key.inputFraming: "reference-height:18+aspect-fit"]))
        let exporter = try ModelExporter(model: model, source: "two-channels.safetensors")
        for format in [ExportFormat.onnx, .coreml] {
            let error = #expect(throws: ExportError.self) { try exporter.encoded(as: format) }
            #expect(error == .unsupportedInputChannels(source: "two-channels.safetensors", channels: 2))
            #expect(error?.description.contains("two-channels.safetensors") == true)
        }
    }

    @Test func float16FilesAreExportedAsTheirExactFloat32Values() throws {
        try ExportFixtures.withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("half.safetensors")
            try ExportFixtures.model().write(to: url, precision: .float16)
            let exporter = try ModelExporter(contentsOf: url)
            #expect(exporter.storedPrecision == .float16 && exporter.sourceChecksum != nil)
            let onnx = try Onnx_ModelProto(serializedBytes: exporter.encoded(as: .onnx))
            let metadata = Dictionary(uniqueKeysWithValues: onnx.metadataProps.map { ($0.key, $0.value) })
            #expect(metadata["strokekit.export.weights"]?.contains("float16") == true)
            #expect(metadata["strokekit.export.source_tensors_sha256"] == exporter.sourceChecksum)
            let loaded = try TrainedModel.load(contentsOf: url)
            let coreml = try CoreML_Specification_Model(serializedBytes: exporter.encoded(as: .coreml))
            let firstConv = coreml.neuralNetworkClassifier.layers[0].convolution
            #expect(firstConv.weights.floatValue == loaded.network.parameters[0].value.values)
        }
    }

    @Test func int8FilesAreExportedAsTheWeightsStrokeKitLoads() throws {
        try ExportFixtures.withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("int8.safetensors")
            try ExportFixtures.model().write(to: url, precision: .int8)
            let exporter = try ModelExporter(contentsOf: url)
            #expect(exporter.storedPrecision == .int8)
            let onnx = try Onnx_ModelProto(serializedBytes: exporter.encoded(as: .onnx))
            let metadata = Dictionary(uniqueKeysWithValues: onnx.metadataProps.map { ($0.key, $0.value) })
            #expect(metadata["strokekit.export.weights"]?.contains("int8") == true)
            let loaded = try TrainedModel.load(contentsOf: url)
            let coreml = try CoreML_Specification_Model(serializedBytes: exporter.encoded(as: .coreml))
            let firstConv = coreml.neuralNetworkClassifier.layers[0].convolution
            #expect(firstConv.weights.floatValue == loaded.network.parameters[0].value.values)
            let float32 = ExportFixtures.model().network.parameters[0].value.values
            #expect(firstConv.weights.floatValue != float32, "the export holds the dequantized weights, not the originals")
        }
    }

    @Test(arguments: ExportFormat.allCases)
    func existingOutputIsReplacedAtomically(format: ExportFormat) throws {
        try ExportFixtures.withTemporaryDirectory { directory in
            let model = directory.appendingPathComponent("model.safetensors")
            try ExportFixtures.model().write(to: model)
            let output = directory.appendingPathComponent("exported.\(format.fileExtension)")
            try Data("an earlier export".utf8).write(to: output)
            let exporter = try ModelExporter(contentsOf: model)
            let size = try exporter.write(format, to: output)
            let written = try Data(contentsOf: output)
            let expected = try exporter.encoded(as: format)
            #expect(written.count == size && [UInt8](written) == expected)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            #expect(leftovers == ["exported.\(format.fileExtension)", "model.safetensors"], "no temporary files left")
        }
    }

    @Test func unwritableOutputNamesThePathAndWritesNothing() {
        ExportFixtures.withTemporaryDirectory { directory in
            let output = directory.appendingPathComponent("missing/exported.onnx")
            let error = #expect(throws: AtomicFileError.self) {
                try ExportFixtures.exporter(ExportFixtures.model()).write(.onnx, to: output)
            }
            #expect(error?.description.contains(directory.appendingPathComponent("missing").path) == true,
                    "\(String(describing: error))")
            #expect(!FileManager.default.fileExists(atPath: output.path))
        }
    }
}
