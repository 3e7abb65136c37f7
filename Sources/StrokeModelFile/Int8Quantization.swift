/// Symmetric per-output-channel int8 quantization, the `I8` storage of weights.
///
/// A weight tensor of shape (OC, ...) is stored as OC·k signed bytes `q` plus OC scales
/// `s` (the tensor `<name>.scale`, shape (OC), F32): element i of output channel c is
/// `q[c, i] · s[c]`. The writer chooses `s[c] = max |w[c, ·]| / 127` and
/// `q = round(w / s[c])` (to nearest, ties away from zero), so every level is in
/// -127...127 and the largest weight of each channel is stored exactly; an all-zero
/// channel gets scale 1. The error of a weight is at most `s[c] / 2`.
public enum Int8Quantization {
    /// The suffix that names a quantized tensor's scales: `conv1.weight.scale`.
    public static let scaleSuffix = ".scale"
    /// The largest level the writer uses (the range is symmetric, -127...127).
    public static let largestLevel: Float = 127

    /// The name of the scale tensor of `name`.
    public static func scaleName(of name: String) -> String { name + scaleSuffix }

    /// True for the tensors the `.int8` precision stores as I8: rank 2 and more (weights,
    /// whose first dimension is the output channel). Biases (rank 1) and scalars stay F32.
    public static func quantizes(shape: [Int]) -> Bool { shape.count >= 2 }

    /// The levels and one scale per output channel (first dimension) of `values`, which
    /// are finite. Levels are integers in -127...127, held as Float.
    public static func quantize(_ values: [Float], shape: [Int]) -> (levels: [Float], scales: [Float]) {
        let channels = shape.first ?? 1
        let perChannel = channels == 0 ? 0 : values.count / channels
        var levels = [Float](repeating: 0, count: values.count)
        var scales = [Float](repeating: 1, count: channels)
        for channel in 0..<channels {
            let range = (channel * perChannel)..<((channel + 1) * perChannel)
            let largest = values[range].reduce(Float(0)) { max($0, abs($1)) }
            guard largest > 0 else { continue }
            let scale = largest / largestLevel
            scales[channel] = scale
            for index in range {
                levels[index] = min(largestLevel, max(-largestLevel, (values[index] / scale).rounded()))
            }
        }
        return (levels, scales)
    }

    /// The weights that `levels` (shape `shape`) and their per-channel `scales` stand for.
    public static func dequantize(_ levels: [Float], shape: [Int], scales: [Float]) -> [Float] {
        let channels = shape.first ?? 1
        precondition(scales.count == channels, "\(scales.count) scales for \(channels) output channels")
        let perChannel = channels == 0 ? 0 : levels.count / channels
        var values = levels
        for index in values.indices { values[index] *= scales[index / perChannel] }
        return values
    }
}
