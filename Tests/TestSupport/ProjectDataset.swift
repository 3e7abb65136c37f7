import Foundation

/// The thesis's dataset kept in the repository (`datasets/automata-shapes`), for tests that
/// need real drawings. Set `STROKEKIT_DATASET` to use another folder-per-class copy.
public enum ProjectDataset {
    /// The repository root (this file is Tests/TestSupport/ProjectDataset.swift).
    public static let projectRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The dataset folder.
    public static let automataShapes: URL = {
        if let path = ProcessInfo.processInfo.environment["STROKEKIT_DATASET"] {
            return URL(fileURLWithPath: path)
        }
        return projectRoot.appendingPathComponent("datasets/automata-shapes")
    }()
}

extension ProjectDataset {
    /// The shared UNIPEN copy (`../shared/datasets/unipen` beside the repository, or
    /// `STROKEKIT_UNIPEN`); nil when absent, so that tests needing it are skipped on a bare clone.
    public static let unipen: URL? = {
        let url = ProcessInfo.processInfo.environment["STROKEKIT_UNIPEN"].map { URL(fileURLWithPath: $0) }
            ?? projectRoot.deletingLastPathComponent().appendingPathComponent("shared/datasets/unipen")
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("data").path) ? url : nil
    }()
}
