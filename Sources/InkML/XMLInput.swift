import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The checks every XML reader of outside input makes before handing bytes to libxml2
/// (through FoundationXML): a size cap, UTF-8, and no DOCTYPE. Neither InkML nor JFLAP files need
/// a DOCTYPE, and its entity declarations are how a small XML file expands to gigabytes.
public enum XMLInput {
    /// Why `data` is refused, with the 1-based line when there is one; nil when it may be parsed.
    public static func problem(in data: Data, maximumBytes: Int, limitName: String) -> (line: Int?, problem: String)? {
        guard data.count <= maximumBytes else {
            return (nil, "the file is \(data.count) bytes, over the limit of \(maximumBytes) (\(limitName))")
        }
        // FoundationXML traps on element names that are not UTF-8 (it force-unwraps them), and
        // InkML and JFLAP files are UTF-8: anything else is refused here.
        guard String(data: data, encoding: .utf8) != nil else {
            return (nil, "not UTF-8 text (InkML and JFLAP files are UTF-8; re-save the file as UTF-8)")
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

/// A small element tree read with XMLParser, for formats read whole (JFLAP): names without
/// namespace prefixes, attributes, children in order, and the text directly inside.
public struct XMLElementNode: Sendable {
    public var name: String
    public var attributes: [String: String]
    public var children: [XMLElementNode]
    public var text: String
    /// The 1-based line where the element starts.
    public var line: Int

    /// The children named `name`.
    public func elements(named name: String) -> [XMLElementNode] {
        children.filter { $0.name == name }
    }

    /// The text of the first child named `name` (nil without one).
    public func text(of name: String) -> String? {
        children.first { $0.name == name }?.text
    }
}

extension XMLInput {
    /// `data` with every processing instruction but the XML declaration blanked out (spaces,
    /// newlines kept, so line numbers stay right). FoundationXML crashes on an instruction
    /// without data (`<?target?>`: it takes the length of a null string), and neither InkML
    /// nor JFLAP gives instructions any meaning.
    public static func withoutProcessingInstructions(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        var index = 0
        var first = true
        while index + 1 < bytes.count {
            defer { index += 1 }
            guard bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "?") else {
                if ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains(bytes[index]) { first = false }
                continue
            }
            let isDeclaration = first && bytes[(index + 2)...].starts(with: Array("xml".utf8))
            first = false
            guard !isDeclaration else { continue }
            var end = index + 2
            while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "?") && bytes[end + 1] == UInt8(ascii: ">")) { end += 1 }
            guard end + 1 < bytes.count else { break }  // unterminated: libxml2 reports it
            for position in index...(end + 1) where bytes[position] != 0x0A { bytes[position] = 0x20 }
            index = end + 1
        }
        return Data(bytes)
    }

    /// Why an element tree could not be read: a line (when known) and the problem.
    public struct Failure: Error, Sendable {
        public var line: Int?
        public var problem: String
    }

    /// Parses `data` (checked with `problem(in:)` first) into its root element, refusing
    /// elements nested deeper than `maximumDepth` and a document that ends inside an element.
    public static func elementTree(_ data: Data, maximumBytes: Int, limitName: String, maximumDepth: Int = 64) throws(Failure) -> XMLElementNode {
        if let (line, problem) = problem(in: data, maximumBytes: maximumBytes, limitName: limitName) {
            throw Failure(line: line, problem: problem)
        }
        let builder = TreeBuilder(maximumDepth: maximumDepth)
        let parser = XMLParser(data: withoutProcessingInstructions(data))
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        builder.parser = parser
        let parsed = parser.parse()
        if let failure = builder.failure { throw failure }
        guard parsed else {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "unknown"
            throw Failure(line: parser.lineNumber, problem: "not well-formed XML (\(reason))")
        }
        guard let root = builder.root else {
            if let open = builder.stack.first {
                throw Failure(line: parser.lineNumber, problem: "not well-formed XML (the document ends inside <\(open.name)>)")
            }
            throw Failure(line: nil, problem: "not well-formed XML (no element)")
        }
        return root
    }
}

private final class TreeBuilder: NSObject, XMLParserDelegate {
    let maximumDepth: Int
    weak var parser: XMLParser?
    var stack: [XMLElementNode] = []
    var root: XMLElementNode?
    var failure: XMLInput.Failure?

    init(maximumDepth: Int) {
        self.maximumDepth = maximumDepth
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        guard stack.count < maximumDepth else {
            failure = XMLInput.Failure(line: parser.lineNumber, problem: "elements nested over \(maximumDepth) deep")
            parser.abortParsing()
            return
        }
        let name = elementName.split(separator: ":").last.map(String.init) ?? elementName
        stack.append(XMLElementNode(name: name, attributes: attributes, children: [], text: "", line: parser.lineNumber))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard failure == nil, !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard failure == nil, let element = stack.popLast() else { return }
        if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
    }
}
