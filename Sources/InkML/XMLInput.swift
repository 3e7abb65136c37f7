import Foundation

/// The checks every XML reader of outside input makes before handing bytes to libxml2
/// (through FoundationXML): a size cap, and no DOCTYPE. Neither InkML nor JFLAP files need
/// a DOCTYPE, and its entity declarations are how a small XML file expands to gigabytes.
public enum XMLInput {
    /// Why `data` is refused, with the 1-based line when there is one; nil when it may be parsed.
    public static func problem(in data: Data, maximumBytes: Int, limitName: String) -> (line: Int?, problem: String)? {
        guard data.count <= maximumBytes else {
            return (nil, "the file is \(data.count) bytes, over the limit of \(maximumBytes) (\(limitName))")
        }
        let bytes = [UInt8](data)
        for needle in ["<!DOCTYPE", "<!ENTITY"].map({ Array($0.utf8) }) where bytes.count >= needle.count {
            for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
                if bytes[start..<(start + needle.count)].elementsEqual(needle) {
                    let line = bytes[..<start].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
                    return (line, "a DOCTYPE or entity declaration; the format needs none and this reader refuses them")
                }
            }
        }
        return nil
    }
}
