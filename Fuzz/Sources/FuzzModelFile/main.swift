import FuzzDriver
import StrokeKit
import StrokeModelFile

// The safetensors reader, the model metadata and a model's checks (architecture, shapes,
// reject rule). The checksum is not required, so mutated files get past it to the later checks.
runFuzzer { input in
    let bytes = Array(input)
    guard let file = try? SafeTensorsFile.decode(bytes, source: "fuzz.safetensors") else { return }
    _ = try? ModelMetadata(file.metadata, source: "fuzz.safetensors")
    _ = try? TrainedModel.load(file: file)
}
