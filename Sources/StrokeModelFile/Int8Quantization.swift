/// Symmetric per-output-channel int8 quantization, the `I8` storage of weights.
///
/// A weight tensor of shape (OC, ...) is stored as OC·k signed bytes `q` plus OC scales
/// `s` (the tensor `<name>.scale`, shape (OC), written as F16): element i of output
/// channel c is `q[c, i] · s[c]`. The writer chooses `s[c]`, the smallest F16 value with
/// `127 · s[c] >= max |w[c, ·]|`, and `q = round(w / s[c])` (to nearest, ties away from
/// zero), so every level is in -127...127 and the error of a weight is at most `s[c] / 2`;
/// an all-zero channel gets scale 1. Quantizing the dequantized weights again gives the
/// same levels and scales.
public enum Int8Quantization {
    /// The suffix that names a quantized tensor's scales: `conv1.weight.scale`.
    public static let scaleSuffix = ".scale"
    /// The largest level the writer uses (the range is symmetric, -127...127).
    public static let largestLevel: Float = 127

    /// The name of the scale tensor of `name`.
    public static func scaleName(of name: String) -> String { name + scaleSuffix }

    /// True for the tensors the `.int8` precision stores as I8: rank 2 and more (weights,
    /// whose first dimension is the output channel). Biases (rank 1) and scalars are F16.
    public static func quantizes(shape: [Int]) -> Bool { shape.count >= 2 }

    /// The levels and one scale per output channel (first dimension) of `values`, which
    /// are finite and at most `largestWeight` in magnitude. Levels are integers in
    /// -127...127 and scales F16 values, both held as Float.
    public static func quantize(_ values: [Float], shape: [Int]) -> (levels: [Float], scales: [Float]) {
        let channels = shape.first ?? 1
        let perChannel = channels == 0 ? 0 : values.count / channels
        var levels = [Float](repeating: 0, count: values.count)
        var scales = [Float](repeating: 1, count: channels)
        for channel in 0..<channels {
            let range = (channel * perChannel)..<((channel + 1) * perChannel)
            let largest = values[range].reduce(Float(0)) { max($0, abs($1)) }
            guard largest > 0 else { continue }
            let scale = storedScale(largest: largest)
            scales[channel] = scale
            for index in range {
                levels[index] = min(largestLevel, max(-largestLevel, (values[index] / scale).rounded()))
            }
        }
        return (levels, scales)
    }

    /// The largest weight magnitude whose scale is a finite F16 value (65504 · 127).
    public static let largestWeight = Float(Float16.greatestFiniteMagnitude) * largestLevel

    /// The F16 scale of a channel whose largest weight magnitude is `largest` (> 0, at most
    /// `largestWeight`): the smallest F16 value whose 127 multiple reaches `largest`, found
    /// as the nearest F16 to `largest / 127`, one step up when 127 times it falls short.
    /// `127 · scale` is exact in binary32 (an 11-bit significand times a 7-bit integer), so
    /// the test is exact, and a channel quantized from dequantized weights (largest
    /// `127 · scale`) gets the same scale back.
    static func storedScale(largest: Float) -> Float {
        var scale = Float16(largest / largestLevel)
        if Float(scale) * largestLevel < largest { scale = scale.nextUp }
        return Float(scale)
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
