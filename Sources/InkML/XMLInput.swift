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
    /// `data` with every processing instruction blanked out, the XML declaration included
    /// (spaces; newlines kept, so line numbers stay right; an unterminated one to the end).
    /// FoundationXML crashes on an instruction without data (`<?target?>`: it takes the length
    /// of a null string); InkML and JFLAP give instructions no meaning, and the declaration
    /// only names the encoding, which `problem(in:)` has already required to be UTF-8.
    public static func withoutProcessingInstructions(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        var index = 0
        while index + 1 < bytes.count {
            guard bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "?") else {
                index += 1
                continue
            }
            var end = index + 2
            while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "?") && bytes[end + 1] == UInt8(ascii: ">")) { end += 1 }
            let last = min(end + 1, bytes.count - 1)
            for position in index...last where bytes[position] != 0x0A { bytes[position] = 0x20 }
            index = last + 1
        }
        return Data(bytes)
    }

    /// Why an element tree could not be read: a line (when known) and the problem.
    public struct Failure: Error, Sendable {
        public var line: Int?
        public var problem: String
    }

    /// Checks `data` (`problem(in:)`), then parses it with `delegate`, which `attach` gives the
    /// parser (to abort it and read line numbers). A failure the delegate reports after the
    /// parse (it aborted) wins over libxml2's. Returns the line the parser ended on.
    public static func parse(
        _ data: Data, maximumBytes: Int, limitName: String, delegate: any XMLParserDelegate,
        attach: (XMLParser) -> Void, delegateFailure: () -> Failure?
    ) throws(Failure) -> Int {
        if let (line, problem) = problem(in: data, maximumBytes: maximumBytes, limitName: limitName) {
            throw Failure(line: line, problem: problem)
        }
        let parser = XMLParser(data: withoutProcessingInstructions(data))
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = delegate
        attach(parser)
        let parsed = parser.parse()
        if let failure = delegateFailure() { throw failure }
        guard parsed else {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "unknown"
            throw Failure(line: parser.lineNumber, problem: "not well-formed XML (\(reason))")
        }
        return parser.lineNumber
    }

    /// Parses `data` into its root element, refusing elements nested deeper than
    /// `maximumDepth` and a document that ends inside an element.
    public static func elementTree(_ data: Data, maximumBytes: Int, limitName: String, maximumDepth: Int = 64) throws(Failure) -> XMLElementNode {
        let builder = TreeBuilder(maximumDepth: maximumDepth)
        let lastLine = try parse(
            data, maximumBytes: maximumBytes, limitName: limitName, delegate: builder,
            attach: { builder.parser = $0 }, delegateFailure: { builder.failure })
        guard let root = builder.root else {
            if let open = builder.stack.first {
                throw Failure(line: lastLine, problem: "not well-formed XML (the document ends inside <\(open.name)>)")
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
