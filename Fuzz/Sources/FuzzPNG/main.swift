import FuzzDriver
import StrokeImage

// PNG decoding (every PNG kind, through libpng) and image preparation (inversion, aspect-fit).
runFuzzer { input in
    let bytes = Array(input)
    guard let image = try? PNG.decode(bytes, source: "fuzz.png") else { return }
    let prepared = ImagePreparation.prepare(image, side: 28, invert: .auto, source: "fuzz.png").image
    precondition(prepared.width == 28 && prepared.height == 28 && prepared.pixels.count == 784)
}
