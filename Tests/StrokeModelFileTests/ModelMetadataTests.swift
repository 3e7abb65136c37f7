import Foundation
import Testing
import StrokeModelFile

@Suite struct ModelMetadataTests {
    static let full = ModelMetadata(
        classes: ["arrow", "circle", "cycle"],
        architecture: "c16-p-c32-p-c64-p-d128",
        input: .init(width: 28, height: 28, channels: 1, scale: "1/255", ink: .whiteOnBlack),
        training: .init(
            datasetSHA256: String(repeating: "ab", count: 32), seed: 1234, epochs: 30,
            validationAccuracy: 0.9701492537313433, created: Date(timeIntervalSince1970: 1_750_000_000)),
        extra: ["strokekit.reject.threshold": "0.6", "author": "test"])

    /// The smallest valid map: the required keys only.
    static let required: [String: String] = [
        "strokekit.format": "strokekit-classifier",
        "strokekit.format_version": "1",
        "strokekit.classes": #"["arrow","circle","cycle"]"#,
        "strokekit.architecture": "c16-p-d128",
        "strokekit.input.width": "28",
        "strokekit.input.height": "28",
        "strokekit.input.channels": "1",
    ]

    func readError(_ dictionary: [String: String]) -> ModelFileError? {
        do {
            _ = try ModelMetadata(dictionary, source: "m.safetensors")
            return nil
        } catch {
            return error as? ModelFileError
        }
    }

    @Test func metadataRoundTripsThroughAFile() throws {
        let file = SafeTensorsFile(tensors: Fixtures.smallFile.tensors, modelMetadata: Self.full)
        let decoded = try SafeTensorsFile.decode(try file.encode(), source: "m.safetensors", requireChecksum: true)
        #expect(try decoded.modelMetadata() == Self.full)
    }

    @Test func writtenKeysUseDocumentedSpelling() {
        let dictionary = Self.full.dictionary
        #expect(dictionary["strokekit.format"] == "strokekit-classifier")
        #expect(dictionary["strokekit.format_version"] == "1")
        #expect(dictionary["strokekit.classes"] == #"["arrow","circle","cycle"]"#)
        #expect(dictionary["strokekit.input.scale"] == "1/255")
        #expect(dictionary["strokekit.input.ink"] == "white-on-black")
        #expect(dictionary["strokekit.train.created"] == "2025-06-15T15:06:40Z")
        #expect(dictionary["strokekit.train.seed"] == "1234")
        #expect(dictionary["strokekit.reject.threshold"] == "0.6")
    }

    @Test func optionalKeysTakeTheirDefaults() throws {
        let metadata = try ModelMetadata(Self.required, source: "m.safetensors")
        #expect(metadata.input == ModelMetadata.Input())
        #expect(metadata.input.scaleFactor == Float(1) / 255)
        #expect(metadata.training == ModelMetadata.Training())
        #expect(metadata.extra.isEmpty)
        #expect(metadata.formatVersion == 1)
    }

    @Test(arguments: required.keys.sorted())
    func missingRequiredKeyIsNamed(key: String) {
        var dictionary = Self.required
        dictionary[key] = nil
        let error = readError(dictionary)
        #expect(error == .missingMetadataKey(source: "m.safetensors", key: key))
        #expect(error?.description.contains(key) == true)
    }

    @Test func otherFormatIsRejected() {
        var dictionary = Self.required
        dictionary["strokekit.format"] = "something-else"
        #expect(readError(dictionary) == .wrongFormat(source: "m.safetensors", found: "something-else"))
    }

    @Test func newerMajorVersionAsksToUpgrade() {
        var dictionary = Self.required
        dictionary["strokekit.format_version"] = "2"
        let error = readError(dictionary)
        #expect(error == .unsupportedFormatVersion(source: "m.safetensors", found: "2", supported: 1))
        #expect(error?.description.contains("upgrade StrokeKit") == true)
    }

    @Test func newerMinorVersionLoads() throws {
        var dictionary = Self.required
        dictionary["strokekit.format_version"] = "1.4"
        #expect(try ModelMetadata(dictionary, source: "m.safetensors").formatVersion == 1)
    }

    @Test(arguments: [
        ("strokekit.format_version", "one"), ("strokekit.format_version", "0"), ("strokekit.format_version", "1."),
        ("strokekit.classes", "arrow,circle"), ("strokekit.classes", "[]"), ("strokekit.classes", #"["a","a"]"#),
        ("strokekit.classes", #"["a",1]"#), ("strokekit.classes", #"[""]"#),
        ("strokekit.architecture", ""),
        ("strokekit.input.width", "-28"), ("strokekit.input.height", "28.0"), ("strokekit.input.channels", "0"),
        ("strokekit.input.scale", "1/0"), ("strokekit.input.scale", "x"), ("strokekit.input.ink", "white"),
        ("strokekit.train.dataset_sha256", "abc"), ("strokekit.train.seed", "-1"), ("strokekit.train.epochs", "ten"),
        ("strokekit.train.validation_accuracy", "1.5"), ("strokekit.train.created", "yesterday"),
    ])
    func invalidValueIsNamed(key: String, value: String) {
        var dictionary = Self.required
        dictionary[key] = value
        let error = readError(dictionary)
        #expect(error.map(Fixtures.caseName) == "invalidMetadataValue", "\(String(describing: error))")
        #expect(error?.description.contains(key) == true)
    }

    @Test func unknownKeysArePreservedInExtra() throws {
        var dictionary = Self.required
        dictionary["strokekit.reject.max_entropy"] = "0.9"
        dictionary["framework"] = "pt"
        let metadata = try ModelMetadata(dictionary, source: "m.safetensors")
        #expect(metadata.extra == ["strokekit.reject.max_entropy": "0.9", "framework": "pt"])
        #expect(metadata.dictionary == dictionary.merging(
            ["strokekit.input.scale": "1/255", "strokekit.input.ink": "white-on-black"]) { old, _ in old })
    }

    @Test func createdDateWithFractionalSecondsOrOffsetLoads() throws {
        for text in ["2025-06-15T15:06:40.250Z", "2025-06-15T17:06:40+02:00"] {
            var dictionary = Self.required
            dictionary["strokekit.train.created"] = text
            let created = try #require(try ModelMetadata(dictionary, source: "m").training.created, "\(text)")
            #expect(abs(created.timeIntervalSince1970 - 1_750_000_000) < 1, "\(text) read as \(created)")
        }
    }
}
