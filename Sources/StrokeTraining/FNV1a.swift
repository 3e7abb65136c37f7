/// FNV-1a, 64 bits: the hash that identifies a training run and its teacher in checkpoints.
struct FNV1a {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    /// Mixes `bytes` into the hash, in order.
    mutating func mix<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01B3 }
    }

    /// The hash so far in hexadecimal, as checkpoints store it.
    var hex: String { String(value, radix: 16) }
}
