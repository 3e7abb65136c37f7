import StrokeSupport
/// The JSON of a safetensors header, parsed by hand rather than with `JSONSerialization`
/// because the checks need three things it hides: object members in file order, duplicate
/// keys (a dictionary keeps only one), and integers as written (a Double loses u64 precision).
enum HeaderJSON: Equatable {
    case object([(key: String, value: HeaderJSON)])
    case array([HeaderJSON])
    case string(String)
    /// A number exactly as written, e.g. "-3", "1.5e2".
    case number(String)
    case bool(Bool)
    case null

    static func == (left: HeaderJSON, right: HeaderJSON) -> Bool {
        switch (left, right) {
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.array(a), .array(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.bool(a), .bool(b)): return a == b
        case (.null, .null): return true
        default: return false
        }
    }

    /// A short name of the JSON type, for error messages.
    var typeName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    /// The value when it is an integer written without fraction or exponent.
    /// `.overflow` when the digits do not fit an `Int`.
    enum IntegerValue { case value(Int), overflow, notAnInteger }
    var integer: IntegerValue {
        guard case let .number(text) = self else { return .notAnInteger }
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return .notAnInteger }
        guard let value = Int(text) else { return .overflow }
        return .value(value)
    }
}

// MARK: - Parsing

extension HeaderJSON {
    struct SyntaxError: Error {
        var message: String
        var offset: Int
    }

    /// Parses one JSON value filling `bytes` (surrounding whitespace allowed).
    static func parse(_ bytes: ArraySlice<UInt8>) throws(SyntaxError) -> HeaderJSON {
        var parser = Parser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.endIndex else {
            throw parser.error("unexpected text after the JSON value")
        }
        return value
    }

    private struct Parser {
        /// A header nests three levels; the cap keeps hostile input from exhausting the stack.
        static let maximumDepth = 64

        let bytes: ArraySlice<UInt8>
        var index: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            self.index = bytes.startIndex
        }

        func error(_ message: String) -> SyntaxError {
            SyntaxError(message: message, offset: index - bytes.startIndex)
        }

        var current: UInt8? { index < bytes.endIndex ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                index += 1
            }
        }

        mutating func expect(_ byte: UInt8) throws(SyntaxError) {
            guard current == byte else {
                throw error("expected '\(Character(Unicode.Scalar(byte)))'")
            }
            index += 1
        }

        mutating func parseValue(depth: Int) throws(SyntaxError) -> HeaderJSON {
            guard depth < Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth) levels") }
            switch current {
            case UInt8(ascii: "{"): return try parseObject(depth: depth)
            case UInt8(ascii: "["): return try parseArray(depth: depth)
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"): try parseLiteral("true"); return .bool(true)
            case UInt8(ascii: "f"): try parseLiteral("false"); return .bool(false)
            case UInt8(ascii: "n"): try parseLiteral("null"); return .null
            case let byte? where byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte):
                return .number(try parseNumber())
            case nil: throw error("unexpected end of the header")
            default: throw error("unexpected character")
            }
        }

        mutating func parseObject(depth: Int) throws(SyntaxError) -> HeaderJSON {
            index += 1  // {
            var members: [(key: String, value: HeaderJSON)] = []
            skipWhitespace()
            if current == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else { throw error("expected a member name") }
                let key = try parseString()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                members.append((key, try parseValue(depth: depth + 1)))
                skipWhitespace()
                if current == UInt8(ascii: ",") { index += 1; continue }
                try expect(UInt8(ascii: "}"))
                return .object(members)
            }
        }

        mutating func parseArray(depth: Int) throws(SyntaxError) -> HeaderJSON {
            index += 1  // [
            var elements: [HeaderJSON] = []
            skipWhitespace()
            if current == UInt8(ascii: "]") { index += 1; return .array(elements) }
            while true {
                skipWhitespace()
                elements.append(try parseValue(depth: depth + 1))
                skipWhitespace()
                if current == UInt8(ascii: ",") { index += 1; continue }
                try expect(UInt8(ascii: "]"))
                return .array(elements)
            }
        }

        mutating func parseLiteral(_ literal: String) throws(SyntaxError) {
            for byte in literal.utf8 {
                guard current == byte else { throw error("invalid literal, expected '\(literal)'") }
                index += 1
            }
        }

        /// RFC 8259 number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
        mutating func parseNumber() throws(SyntaxError) -> String {
            let start = index
            func isDigit(_ byte: UInt8?) -> Bool { byte.map { (0x30...0x39).contains($0) } ?? false }
            if current == UInt8(ascii: "-") { index += 1 }
            if current == UInt8(ascii: "0") {
                index += 1
            } else {
                guard isDigit(current) else { throw error("invalid number") }
                while isDigit(current) { index += 1 }
            }
            if current == UInt8(ascii: ".") {
                index += 1
                guard isDigit(current) else { throw error("invalid number") }
                while isDigit(current) { index += 1 }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard isDigit(current) else { throw error("invalid number") }
                while isDigit(current) { index += 1 }
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        mutating func parseString() throws(SyntaxError) -> String {
            index += 1  // opening quote
            var scalars = String.UnicodeScalarView()
            var runStart = index  // start of bytes copied verbatim
            func flush(_ parser: Parser, upTo end: Int) throws(SyntaxError) {
                // The caller validated the whole header as UTF-8; a run between escapes is
                // whole characters, since escapes and quotes are ASCII.
                guard let run = String(validating: parser.bytes[runStart..<end], as: UTF8.self) else {
                    throw parser.error("invalid UTF-8 in a string")
                }
                scalars.append(contentsOf: run.unicodeScalars)
            }
            while true {
                guard let byte = current else { throw error("unterminated string") }
                switch byte {
                case UInt8(ascii: "\""):
                    try flush(self, upTo: index)
                    index += 1
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    try flush(self, upTo: index)
                    index += 1
                    scalars.append(try parseEscape())
                    runStart = index
                case 0x00..<0x20:
                    throw error("control character in a string")
                default:
                    index += 1
                }
            }
        }

        mutating func parseEscape() throws(SyntaxError) -> Unicode.Scalar {
            guard let byte = current else { throw error("unterminated escape") }
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let first = try parseHexQuad()
                if (0xD800..<0xDC00).contains(first) {
                    // A high surrogate must be followed by an escaped low surrogate.
                    guard current == UInt8(ascii: "\\") else { throw error("unpaired surrogate") }
                    index += 1
                    guard current == UInt8(ascii: "u") else { throw error("unpaired surrogate") }
                    index += 1
                    let second = try parseHexQuad()
                    guard (0xDC00..<0xE000).contains(second) else { throw error("unpaired surrogate") }
                    let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                    guard let scalar = Unicode.Scalar(combined) else { throw error("invalid escape") }
                    return scalar
                }
                guard let scalar = Unicode.Scalar(first) else { throw error("unpaired surrogate") }
                return scalar
            default:
                throw error("invalid escape")
            }
        }

        mutating func parseHexQuad() throws(SyntaxError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = current else { throw error("unterminated escape") }
                let digit: UInt32
                switch byte {
                case 0x30...0x39: digit = UInt32(byte - 0x30)
                case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
                case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
                default: throw error("invalid \\u escape")
                }
                value = value * 16 + digit
                index += 1
            }
            return value
        }
    }
}

// MARK: - Writing

extension HeaderJSON {
    /// Compact JSON text, members in the order given.
    var serialized: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case let .object(members):
            output += "{"
            for (position, member) in members.enumerated() {
                if position > 0 { output += "," }
                JSONValue.writeString(member.key, to: &output)
                output += ":"
                member.value.write(to: &output)
            }
            output += "}"
        case let .array(elements):
            output += "["
            for (position, element) in elements.enumerated() {
                if position > 0 { output += "," }
                element.write(to: &output)
            }
            output += "]"
        case let .string(text): JSONValue.writeString(text, to: &output)
        case let .number(text): output += text
        case let .bool(value): output += value ? "true" : "false"
        case .null: output += "null"
        }
    }
}
