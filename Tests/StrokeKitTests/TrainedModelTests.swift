import Foundation
import StrokeKit
import StrokeModelFile
import StrokeNN
import StrokeTensor
import Testing
import TestSupport

@Suite struct TrainedModelTests {
    /// Largest |a - b| over two logit tensors of equal shape.
    func maximumDifference(_ a: [Float], _ b: [Float]) -> Float {
        zip(a, b).map { abs($0 - $1) }.max() ?? 0
    }

    /// Both models' logits on `input`, their largest difference, and the logits' scale
    /// (largest magnitude, at least 1) that tolerances are relative to.
    func logitChange(from model: TrainedModel, to loaded: TrainedModel, on input: Tensor)
        -> (expected: [Float], found: [Float], difference: Float, scale: Float)
    {
        let expected = model.network.forward(input, training: false).values
        let found = loaded.network.forward(input, training: false).values
        return (expected, found, maximumDifference(found, expected), max(1, expected.map(abs).max() ?? 0))
    }

    @Test func float32RoundTripGivesIdenticalLogits() throws {
        let model = Fixtures.model()
        let input = Fixtures.inputTensor(Fixtures.images(count: 16, seed: 1))
        try Fixtures.withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("model.safetensors")
            try model.write(to: url, precision: .float32)
            let loaded = try TrainedModel.load(contentsOf: url)
            #expect(loaded.metadata == model.metadata)
            let expected = model.network.forward(input, training: false).values
            let found = loaded.network.forward(input, training: false).values
            #expect(found == expected, "maxdiff = \(maximumDifference(found, expected)), tolerance 0 (F32 is exact)")
        }
    }

    @Test func float16RoundTripGivesLogitsWithinTolerance() throws {
        let model = Fixtures.model()
        let input = Fixtures.inputTensor(Fixtures.images(count: 16, seed: 2))
        try Fixtures.withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("model-f16.safetensors")
            try model.write(to: url, precision: .float16)
            let (_, _, difference, scale) = logitChange(from: model, to: try TrainedModel.load(contentsOf: url), on: input)
            // F16 keeps 11 significant bits (relative error <= 2^-11 per weight); through four
            // layers of ~100-term sums the logits move by well under 1% of their scale.
            #expect(difference <= 0.01 * scale, "maxdiff = \(difference), tolerance \(0.01 * scale)")
            #expect(difference > 0, "F16 rounding should change something; was the file written as F32?")
        }
    }

    @Test(arguments: ["fixture", "bundled"])
    func int8RoundTripGivesLogitsCloseToTheFloatModel(which: String) throws {
        // The He-initialised fixture and the bundled trained model (F16 file, so its weights
        // are what the quantizer would see in an app). Per output channel the weight error
        // is at most max|w|/254 (0.4% of the channel's largest weight), and errors of
        // hundreds of products mostly cancel: logits move by a few percent of their scale.
        let model = which == "bundled" ? try TrainedModel.load(contentsOf: ShapeClassifier.bundledModelURL()) : Fixtures.model()
        let input = Fixtures.inputTensor(Fixtures.images(count: 32, seed: 3))
        let loaded = try TrainedModel.load(bytes: model.file.encode(precision: .int8), source: "int8")
        let (expected, found, difference, scale) = logitChange(from: model, to: loaded, on: input)
        #expect(difference <= 0.03 * scale, "\(which): maxdiff = \(difference), tolerance \(0.03 * scale)")
        #expect(difference > 0, "int8 quantization should change something")
        let classes = model.network.classCount
        for row in 0..<32 {
            let slice = { (values: [Float]) in Array(values[(row * classes)..<((row + 1) * classes)]) }
            let (a, b) = (slice(expected), slice(found))
            let margin = a.sorted().suffix(2).reduce(0) { $1 - $0 }
            // Where the float model is not on a knife's edge, the int8 model picks the same class.
            if margin > 2 * difference {
                #expect(a.firstIndex(of: a.max()!) == b.firstIndex(of: b.max()!), "\(which) image \(row): \(a) vs \(b)")
            }
        }
    }

    /// The compact model in models/ (issue 11): at most 50,000 bytes, I8 weights with F16
    /// scales and biases, quantizing its weights again changes no logit, and the fast path
    /// reads it like the reference path.
    @Test func compactModelIsUnder50KBAndStaysAsStoredWhenQuantizedAgain() throws {
        let url = ProjectDataset.projectRoot.appendingPathComponent("models/automata-shapes-compact.safetensors")
        let bytes = [UInt8](try Data(contentsOf: url))
        #expect(bytes.count <= 50_000, "\(bytes.count) bytes")
        let stored = try SafeTensorsFile.decode(bytes, source: url.path).storedDTypes
        #expect(Set(stored.values) == [.int8, .float16], "\(stored)")
        let model = try TrainedModel.load(bytes: bytes, source: url.path)
        let again = try TrainedModel.load(bytes: model.file.encode(precision: .int8), source: "again")
        let input = Fixtures.inputTensor(Fixtures.images(count: 32, seed: 4))
        let (expected, _, difference, _) = logitChange(from: model, to: again, on: input)
        #expect(difference == 0, "re-quantizing moved a logit by \(difference)")

        let engine = InferenceEngine(network: model.network)
        engine.forward(batch: 32) { buffer in
            input.values.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: $0.count) }
        }
        let fastDifference = engine.withLogits { fast in zip(fast, expected).map { abs($0 - $1) }.max() ?? .infinity }
        #expect(fastDifference <= 1e-5 * max(1, expected.map(abs).max() ?? 0), "fast path differs by \(fastDifference)")
    }

    @Test func loadFromBytesEqualsLoadFromFile() throws {
        let model = Fixtures.model()
        let bytes = try model.file.encode(precision: .float32)
        let loaded = try TrainedModel.load(bytes: bytes, source: "bundle:model")
        #expect(loaded.metadata == model.metadata)
        for (found, expected) in zip(loaded.network.parameters, model.network.parameters) {
            #expect(found.value == expected.value, "tensor \(expected.name)")
        }
    }

    @Test func loadRejectsShapesThatDoNotMatchTheArchitecture() throws {
        let model = Fixtures.model()
        var metadata = model.metadata
        metadata.architecture = "c8-p-c32-p-c64-p-d128"  // conv1 has 16 channels in the file
        let file = SafeTensorsFile(tensors: model.file.tensors, modelMetadata: metadata)
        try Fixtures.withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("other-architecture.safetensors")
            try file.write(to: url)
            let error = try #require(throws: ClassifierError.self) { try TrainedModel.load(contentsOf: url) }
            #expect(error == .modelFile(.shapeMismatch(
                source: url.path, tensor: "conv1.weight", expected: [8, 1, 3, 3], found: [16, 1, 3, 3])))
            #expect(error.description.hasPrefix(url.path + ": "), "\(error)")
            #expect(error.description.contains("strokekit train"), "\(error)")
        }
    }

    @Test(arguments: [
        ModelMetadata.Input(width: 32),
        ModelMetadata.Input(channels: 3),
        ModelMetadata.Input(ink: .blackOnWhite),
        ModelMetadata.Input(scale: "1/256"),
    ])
    func loadRejectsAnInputSpecOtherThanModelInput(input: ModelMetadata.Input) throws {
        let model = Fixtures.model()
        var metadata = model.metadata
        metadata.input = input
        let change = "\(input)"
        let file = SafeTensorsFile(tensors: model.file.tensors, modelMetadata: metadata, source: "wrong-input.safetensors")
        let bytes = try file.encode()
        let error = try #require(throws: ClassifierError.self, "\(change)") {
            try TrainedModel.load(bytes: bytes, source: "wrong-input.safetensors")
        }
        guard case let .unsupportedInput(source, _, _) = error else {
            Issue.record("\(change): expected unsupportedInput, got \(error)")
            return
        }
        #expect(source == "wrong-input.safetensors")
        #expect(error.description.contains("28x28x1 white-on-black scaled by 1/255"), "\(error)")
    }

    @Test func loadRejectsATruncatedFileNamingIt() throws {
        let bytes = try Fixtures.model().file.encode()
        try Fixtures.withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("truncated.safetensors")
            try Data(bytes.dropLast(4)).write(to: url)  // cuts into the last tensor only
            let error = try #require(throws: ClassifierError.self) { try TrainedModel.load(contentsOf: url) }
            guard case let .modelFile(.truncatedData(source, tensor, _, _)) = error else {
                Issue.record("expected truncatedData, got \(error)")
                return
            }
            #expect(source == url.path)
            #expect(tensor == "dense2.bias", "the last tensor is the one cut short")
            #expect(error.description.hasPrefix(url.path + ": truncated"), "\(error)")
            #expect(error.description.contains("strokekit train"), "\(error)")
        }
    }

    @Test func loadRejectsAMissingFileNamingIt() throws {
        let url = URL(fileURLWithPath: "/nonexistent/strokekit/model.safetensors")
        let error = try #require(throws: ClassifierError.self) { try TrainedModel.load(contentsOf: url) }
        #expect(error == .modelFile(.cannotRead(path: url.path, reason: "no such file")))
    }

    @Test func loadRejectsAnUnparsableArchitectureNamingTheFile() throws {
        let model = Fixtures.model()
        var metadata = model.metadata
        metadata.architecture = "c16-q"
        let bytes = try SafeTensorsFile(tensors: model.file.tensors, modelMetadata: metadata).encode()
        let error = try #require(throws: ClassifierError.self) { try TrainedModel.load(bytes: bytes, source: "odd.safetensors") }
        guard case let .invalidArchitecture(source, spec, problem) = error else {
            Issue.record("expected invalidArchitecture, got \(error)")
            return
        }
        #expect(source == "odd.safetensors" && spec == "c16-q")
        #expect(problem.contains("'q'"), "\(problem)")
    }

    @Test func loadRejectsAMinimumConfidenceOutsideZeroToOne() throws {
        let model = Fixtures.model()
        var metadata = model.metadata
        metadata.extra[RejectRule.minimumConfidenceKey] = "1.5"
        let bytes = try SafeTensorsFile(tensors: model.file.tensors, modelMetadata: metadata).encode()
        let error = try #require(throws: ClassifierError.self) { try TrainedModel.load(bytes: bytes, source: "m.safetensors") }
        #expect(error == .modelFile(.invalidMetadataValue(
            source: "m.safetensors", key: RejectRule.minimumConfidenceKey, value: "1.5", expected: "a number in 0...1")))
    }

    @Test func loadRejectsAFileWithoutChecksum() throws {
        let model = Fixtures.model()
        var bytes = try model.file.encode()
        // Rename the checksum key in place (same length), so the file is otherwise intact.
        let key = Array(SafeTensorsFile.checksumKey.utf8)
        let renamed = Array("strokekit.tensors_sha25X".utf8)
        let headerEnd = 8 + Int(bytes[0]) + Int(bytes[1]) << 8
        let start = try #require((8..<headerEnd - key.count).first { bytes[$0..<$0 + key.count].elementsEqual(key) })
        bytes.replaceSubrange(start..<start + key.count, with: renamed)
        let error = try #require(throws: ClassifierError.self) { try TrainedModel.load(bytes: bytes, source: "m.safetensors") }
        #expect(error == .modelFile(.checksumMissing(source: "m.safetensors")))
    }
}
