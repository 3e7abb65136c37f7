/// A small, fast, seedable random number generator (SplitMix64), so that weight
/// initialisation, shuffling, splits, augmentation and synthesis are reproducible:
/// the same seed gives the same numbers on every machine.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    /// The whole state: `SeededGenerator(seed: state)` continues exactly where this one is.
    public private(set) var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// SplitMix64 (Steele, Lea, Flood 2014): passes BigCrush, one add and three mixes per draw.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform Double in [0, 1) with 53 random bits.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A standard normal sample (Box–Muller; the second value is discarded to keep the state simple).
    public mutating func nextNormal() -> Double {
        var u1 = nextUnit()
        while u1 <= Double.leastNormalMagnitude { u1 = nextUnit() }
        let u2 = nextUnit()
        return (-2 * _log(u1)).squareRoot() * _cos(2 * Double.pi * u2)
    }

    /// A generator derived from this seed and a stream number, for independent streams
    /// (e.g. one per epoch or per fold) that do not depend on how many draws came before.
    public static func stream(seed: UInt64, _ stream: UInt64) -> SeededGenerator {
        var mixer = SeededGenerator(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
        return SeededGenerator(seed: mixer.next())
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@inline(__always) private func _log(_ x: Double) -> Double { log(x) }
@inline(__always) private func _cos(_ x: Double) -> Double { cos(x) }
