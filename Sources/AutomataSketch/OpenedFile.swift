import Foundation
import InkML
import StrokeImage

/// A file a user opens in the editor: an automaton to show (`.automaton` or JFLAP `.jff`), or
/// ink to read as if it were drawn (InkML).
public enum OpenedFile: Sendable {
    case sketch(Sketch)
    /// Strokes in screen points, one per trace, in drawing order (`SketchFile.lines(inkML:)`).
    case ink([Stroke])

    /// Tells the kind from the bytes: JSON is a `.automaton` document, XML whose root is
    /// `<structure>` is JFLAP, other XML is read as InkML (whose reader names what is wrong).
    public static func read(_ data: Data, source: String) throws -> OpenedFile {
        guard InkML.looksLikeXML(data) else { return .sketch(try AutomatonDocument.decode(data, source: source)) }
        if rootElement(of: data) == "structure" { return .sketch(try JFLAP.parse(data, source: source)) }
        return .ink(SketchFile.lines(inkML: try InkML.parse(data, source: source)).flatMap(\.strokes))
    }

    /// The name of the first element that is not a declaration, comment or processing
    /// instruction, without its namespace prefix.
    static func rootElement(of data: Data) -> String? {
        let text = String(decoding: data.prefix(4096), as: UTF8.self)
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            guard let first = rest.first else { return nil }
            if first == "?" || first == "!" { continue }
            let name = rest.prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
            return name.split(separator: ":").last.map(String.init)
        }
        return nil
    }
}
