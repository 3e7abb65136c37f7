/// A labelled set in a few figures, for terminal tables and reports.
public struct DatasetSummary: Sendable {
    /// Where the dataset was read from (a folder or file path), shown as given.
    public var path: String
    /// A content fingerprint (e.g. SHA-256 of the file list and bytes); nil hides it.
    public var fingerprint: String?
    /// Number of examples per class, in class order.
    public var classCounts: [(label: String, count: Int)]

    public init(path: String, fingerprint: String? = nil, classCounts: [(label: String, count: Int)]) {
        self.path = path
        self.fingerprint = fingerprint
        self.classCounts = classCounts
    }

    /// Total number of examples.
    public var total: Int { classCounts.reduce(0) { $0 + $1.count } }
}

extension LabeledImageDataset {
    /// Path (as given), fingerprint and class counts.
    public func summary(path: String) -> DatasetSummary {
        DatasetSummary(path: path, fingerprint: fingerprint, classCounts: zip(classes, counts).map { ($0, $1) })
    }

    /// A dataset of the samples at `indices` (same classes), e.g. to split a fold again.
    public func subset(_ indices: [Int]) -> LabeledImageDataset {
        LabeledImageDataset(classes: classes, samples: indices.map { samples[$0] })
    }
}
