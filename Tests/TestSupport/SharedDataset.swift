import Foundation

/// The datasets shared beside the repository (`../shared/datasets`), which are evaluation and
/// development data only: never copied into the repository. Tests that read them skip, with a
/// message, when the folder is absent (a fresh clone has none).
public enum SharedDataset {
    /// `../shared/datasets/<name>` from the repository root (or `$STROKEKIT_SHARED_DATASETS/<name>`),
    /// or nil when that folder does not exist.
    public static func folder(_ name: String) -> URL? {
        let root = ProcessInfo.processInfo.environment["STROKEKIT_SHARED_DATASETS"].map { URL(fileURLWithPath: $0) }
            ?? ProjectDataset.projectRoot.deletingLastPathComponent().appendingPathComponent("shared/datasets")
        let folder = root.appendingPathComponent(name)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        return folder
    }

    /// The message a test prints when it skips for want of `name`.
    public static func absence(_ name: String) -> String {
        "skipped: ../shared/datasets/\(name) is absent (evaluation data, not in the repository)"
    }

    /// The whole-ink diagrams of `fa-diagrams` (`ink/*.ndjson`, sorted by name), or nil, after
    /// printing why the test skips, when that folder is absent.
    public static func faDiagramsInk() throws -> [URL]? {
        guard let folder = folder("fa-diagrams")?.appendingPathComponent("ink"),
            FileManager.default.fileExists(atPath: folder.path)
        else {
            print(absence("fa-diagrams/ink"))
            return nil
        }
        return try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".ndjson") }.sorted().map { folder.appendingPathComponent($0) }
    }
}
