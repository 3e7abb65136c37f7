/// A UNIPEN file that cannot be read. The message names the file (the data file, or the
/// included file the problem is in) and the 1-based line, as `file:line: problem`.
public enum UnipenError: Error, CustomStringConvertible, Hashable, Sendable {
    /// A file could not be read at all (missing, unreadable, over the size limit).
    case unreadable(file: String, reason: String)
    /// An `.INCLUDE` names an absolute path or one that leaves the include folder (`..`).
    case unsafeInclude(file: String, line: Int, path: String)
    /// An `.INCLUDE`d file cannot be read (missing, unreadable, over the size limit).
    case unreadableInclude(file: String, line: Int, path: String, reason: String)
    /// `.INCLUDE`s nest deeper than `Unipen.Limits.maximumIncludeDepth`, or include themselves.
    case includeLoop(file: String, line: Int, path: String)
    /// A pen sample line does not have the columns `.COORD` declared, or holds something
    /// that is not a finite number within `Unipen.Limits.maximumCoordinate`.
    case badSample(file: String, line: Int, problem: String)
    /// A `.SEGMENT` line whose delineation or label cannot be parsed.
    case badSegment(file: String, line: Int, problem: String)
    /// A `.SEGMENT` names components or points the file does not have.
    case segmentOutOfRange(file: String, line: Int, delineation: String, components: Int)
    /// `.COORD` does not name an X and a Y column.
    case badCoordinates(file: String, line: Int, columns: String)
    /// Something is over one of `Unipen.Limits` (`limit` names it).
    case overLimit(file: String, line: Int, what: String, limit: String, maximum: Int)

    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            "\(file): cannot read UNIPEN file: \(reason)"
        case .unsafeInclude(let file, let line, let path):
            "\(file):\(line): .INCLUDE \(path) leaves the include folder (absolute path or '..'); "
                + "UNIPEN includes are relative to the include folder"
        case .unreadableInclude(let file, let line, let path, let reason):
            "\(file):\(line): .INCLUDE \(path): \(reason)"
        case .includeLoop(let file, let line, let path):
            "\(file):\(line): .INCLUDE \(path) nests too deep or includes itself"
        case .badSample(let file, let line, let problem):
            "\(file):\(line): bad pen sample: \(problem)"
        case .badSegment(let file, let line, let problem):
            "\(file):\(line): bad .SEGMENT: \(problem)"
        case .segmentOutOfRange(let file, let line, let delineation, let components):
            "\(file):\(line): .SEGMENT \(delineation) is outside the \(components) component(s) read so far"
        case .badCoordinates(let file, let line, let columns):
            "\(file):\(line): .COORD '\(columns)' does not name both X and Y columns"
        case .overLimit(let file, let line, let what, let limit, let maximum):
            "\(file):\(line): \(what) is over the limit of \(maximum) (Unipen.Limits.\(limit); "
                + "pass larger limits to the reader to accept it)"
        }
    }
}
