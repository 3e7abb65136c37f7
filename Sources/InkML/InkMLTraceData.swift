/// The text of one `<trace>`: points separated by commas, each point one value per channel
/// of its trace format (InkML 1.0, section 3.2.1 "Trace", grammar of `trace` and `value`).
///
///     1125 18432, '23'43, "7"-8, 3-5, ...
///
/// A value may carry a prefix that stays in force for that channel until another one is given:
/// `!` an explicit value (the start of every trace), `'` a first difference (the change from
/// the previous point), `"` a second difference (the change of that change). `*` repeats the
/// previous point's value, `?` marks it unknown, `T` and `F` are booleans (1 and 0). Values may
/// run together where the next one starts with a sign or a prefix (`3-5` is 3 and -5).
/// Numbers are decimals with an optional fraction and exponent, or `#` and hexadecimal digits.
struct TraceDecoder {
    /// One channel's decoding state across the points of a trace.
    private struct ChannelState {
        enum Mode { case explicit, firstDifference, secondDifference }
        var mode = Mode.explicit
        var previous: Double?
        /// The last first difference (value minus the value before it), for `"`.
        var velocity = 0.0
    }

    enum Token: Equatable {
        case number(Double)
        case same  // *
        case unknown  // ?
    }

    /// Problems in the trace text, without the file and line (the caller adds them).
    struct Failure: Error {
        var problem: String
    }

    let regularChannels: Int
    let intermittentChannels: Int
    let maximumPoints: Int
    /// Largest magnitude a decoded value may reach (differences can run away).
    let maximumMagnitude: Double

    /// Decodes the text into one row per point, one entry per regular channel (nil: unknown).
    /// Intermittent channel values are read and checked, then dropped.
    func decode(_ text: [UInt8]) throws(Failure) -> [[Double?]] {
        var states = [ChannelState](repeating: ChannelState(), count: regularChannels)
        var rows: [[Double?]] = []
        var scanner = Scanner(bytes: text)
        var pointNumber = 0
        while true {
            scanner.skipSpace()
            if scanner.atEnd {
                if pointNumber == 0 { break }  // an empty trace: no points
                throw Failure(problem: "the trace ends with a comma (point \(pointNumber + 1) is empty)")
            }
            pointNumber += 1
            guard pointNumber <= maximumPoints else {
                throw Failure(problem: "over \(maximumPoints) points in one trace (InkML.Limits.maximumPointsPerTrace)")
            }
            var row: [Double?] = []
            row.reserveCapacity(regularChannels)
            var valueCount = 0
            while true {
                scanner.skipSpace()
                if scanner.atEnd || scanner.peek == UInt8(ascii: ",") { break }
                valueCount += 1
                guard valueCount <= regularChannels + intermittentChannels else {
                    throw Failure(problem: "point \(pointNumber) has more than the \(regularChannels + intermittentChannels) values its trace format's channels allow")
                }
                let (prefix, token) = try scanner.value(point: pointNumber)
                if valueCount > regularChannels { continue }  // an intermittent channel: checked, not kept
                let channel = valueCount - 1
                row.append(try resolve(token, prefix: prefix, state: &states[channel], point: pointNumber, channel: channel))
            }
            guard valueCount >= regularChannels else {
                throw Failure(problem: "point \(pointNumber) has \(valueCount) values; its trace format has \(regularChannels) regular channels")
            }
            rows.append(row)
            if scanner.atEnd { break }
            scanner.advance()  // the comma
        }
        return rows
    }

    private func resolve(_ token: Token, prefix: UInt8?, state: inout ChannelState, point: Int, channel: Int)
        throws(Failure) -> Double?
    {
        switch prefix {
        case UInt8(ascii: "!"): state.mode = .explicit
        case UInt8(ascii: "'"): state.mode = .firstDifference
        case UInt8(ascii: "\""): state.mode = .secondDifference
        default: break
        }
        let value: Double?
        switch token {
        case .unknown:
            value = nil
        case .same:
            guard let previous = state.previous else {
                throw Failure(problem: "point \(point), channel \(channel + 1): '*' (same as before) with no earlier value")
            }
            value = previous
        case .number(let number):
            switch state.mode {
            case .explicit:
                value = number
            case .firstDifference, .secondDifference:
                guard let previous = state.previous else {
                    throw Failure(problem: "point \(point), channel \(channel + 1): a difference with no earlier value to add it to (the first point of a trace, or one after '?')")
                }
                value = previous + (state.mode == .secondDifference ? state.velocity + number : number)
            }
        }
        if let value {
            guard value.isFinite, abs(value) <= maximumMagnitude else {
                throw Failure(problem: "point \(point), channel \(channel + 1): value \(value) is beyond ±\(maximumMagnitude) (InkML.Limits.maximumMagnitude)")
            }
            state.velocity = state.previous.map { value - $0 } ?? 0
        } else {
            state.velocity = 0
        }
        state.previous = value
        return value
    }
}

/// A byte cursor over trace text.
private struct Scanner {
    let bytes: [UInt8]
    var index = 0

    var atEnd: Bool { index >= bytes.count }
    var peek: UInt8 { bytes[index] }
    mutating func advance() { index += 1 }

    mutating func skipSpace() {
        while !atEnd, [0x20, 0x09, 0x0A, 0x0D].contains(peek) { advance() }
    }

    /// One value with its optional difference prefix.
    mutating func value(point: Int) throws(TraceDecoder.Failure) -> (UInt8?, TraceDecoder.Token) {
        var prefix: UInt8?
        if [UInt8(ascii: "!"), UInt8(ascii: "'"), UInt8(ascii: "\"")].contains(peek) {
            prefix = peek
            advance()
            skipSpace()
        }
        guard !atEnd else { throw failure(point, "a difference prefix with no value after it") }
        switch peek {
        case UInt8(ascii: "*"): advance(); return (prefix, .same)
        case UInt8(ascii: "?"): advance(); return (prefix, .unknown)
        case UInt8(ascii: "T"): advance(); return (prefix, .number(1))
        case UInt8(ascii: "F"): advance(); return (prefix, .number(0))
        default: break
        }
        var sign = 1.0
        if peek == UInt8(ascii: "-") || peek == UInt8(ascii: "+") {
            if peek == UInt8(ascii: "-") { sign = -1 }
            advance()
            skipSpace()
        }
        guard !atEnd else { throw failure(point, "a sign with no number after it") }
        if peek == UInt8(ascii: "#") {
            advance()
            let start = index
            var magnitude = 0.0
            while !atEnd, let digit = Self.hexDigit(peek) {
                magnitude = magnitude * 16 + Double(digit)
                advance()
            }
            guard index > start else { throw failure(point, "'#' with no hexadecimal digits after it") }
            return (prefix, .number(sign * magnitude))
        }
        let start = index
        var digits = 0
        while !atEnd, Self.isDigit(peek) { advance(); digits += 1 }
        if !atEnd, peek == UInt8(ascii: ".") {
            advance()
            while !atEnd, Self.isDigit(peek) { advance(); digits += 1 }
        }
        guard digits > 0 else {
            let found = atEnd ? "the end" : "'\(Character(Unicode.Scalar(peek)))'"
            throw failure(point, "expected a number, '*', '?', 'T' or 'F' but found \(found)")
        }
        if !atEnd, peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            let mark = index
            advance()
            if !atEnd, peek == UInt8(ascii: "-") || peek == UInt8(ascii: "+") { advance() }
            var exponentDigits = 0
            while !atEnd, Self.isDigit(peek) { advance(); exponentDigits += 1 }
            if exponentDigits == 0 { index = mark }  // not an exponent after all
        }
        guard digits <= 400, let magnitude = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
            throw failure(point, "'\(String(decoding: bytes[start..<min(index, start + 40)], as: UTF8.self))' is not a number")
        }
        return (prefix, .number(sign * magnitude))
    }

    private func failure(_ point: Int, _ problem: String) -> TraceDecoder.Failure {
        TraceDecoder.Failure(problem: "point \(point): \(problem)")
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func hexDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x46: Int(byte - 0x41 + 10)
        case 0x61...0x66: Int(byte - 0x61 + 10)
        default: nil
        }
    }
}
