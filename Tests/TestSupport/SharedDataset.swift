import Foundation

/// Finds `../shared/datasets/automata-shapes` (beside the project root) for tests that
/// need the real dataset. Set `STROKEKIT_DATASET` to use a copy elsewhere.
public enum SharedDataset {
    /// The dataset folder, or nil when it is not on this machine.
    public static let automataShapes: URL? = {
        if let path = ProcessInfo.processInfo.environment["STROKEKIT_DATASET"] {
            return URL(fileURLWithPath: path)
        }
        // This file is Tests/TestSupport/SharedDataset.swift: the root is two levels up.
        let projectRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidate = projectRoot.deletingLastPathComponent()
            .appendingPathComponent("shared/datasets/automata-shapes")
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory)
            && isDirectory.boolValue ? candidate : nil
    }()

    /// True when the dataset is present.
    public static var isAvailable: Bool { automataShapes != nil }

    /// Why dataset tests are skipped, for `.enabled(if:_:)`.
    public static let skipMessage: Comment =
        "skipped: ../shared/datasets/automata-shapes not found (see README, 'The dataset'; or set STROKEKIT_DATASET)"
}

import Testing
