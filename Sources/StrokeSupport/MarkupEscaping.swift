/// Text made safe inside HTML or XML element content and quoted attribute values (`&`, `<`,
/// `>`, `"` and `'` become entities). Labels, names and file names come from users and must
/// never become markup. The one escaper for the report page and the editor's SVG export.
public func markupEscaped(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for character in text {
        switch character {
        case "&": escaped += "&amp;"
        case "<": escaped += "&lt;"
        case ">": escaped += "&gt;"
        case "\"": escaped += "&quot;"
        case "'": escaped += "&#39;"
        default: escaped.append(character)
        }
    }
    return escaped
}
