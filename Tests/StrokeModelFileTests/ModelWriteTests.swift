import Foundation
import Testing
import StrokeModelFile
import TestSupport

@Suite struct ModelWriteTests {
    @Test func failedModelWriteLeavesPreviousModelIntact() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("model.safetensors")
        try Fixtures.smallFile.write(to: url)
        let before = try Data(contentsOf: url)

        var broken = Fixtures.smallFile
        broken.tensors[0].values[3] = .nan
        #expect(throws: ModelFileError.nonFiniteValue(source: url.path, tensor: "conv1.weight", index: 3)) {
            try broken.write(to: url)
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(try directory.contents() == ["model.safetensors"])
    }
}
