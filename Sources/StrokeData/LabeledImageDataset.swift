import Crypto
import Foundation
import StrokeImage

/// Labelled square gray images, one class per subfolder: `ROOT/<class>/*.png`.
///
/// Every image is stored as the model sees it: `imageSide` x `imageSide` (28 by default),
/// white ink on black. Loading is deterministic: classes are the subfolder names sorted,
/// files are sorted by name, hidden files and folders are ignored.
public struct LabeledImageDataset: Sendable {
    /// One labelled image.
    public struct Sample: Sendable {
        /// Where the image came from (for in-memory datasets, any identifying URL).
        public let url: URL
        /// Index into `classes`.
        public let classIndex: Int
        /// The image, `imageSide` x `imageSide`, white ink on black.
        public let image: GrayImage

        public init(url: URL, classIndex: Int, image: GrayImage) {
            self.url = url
            self.classIndex = classIndex
            self.image = image
        }
    }

    /// Class names, sorted; a sample's `classIndex` points here.
    public let classes: [String]
    /// All samples, class by class in `classes` order, files sorted by name within a class.
    public let samples: [Sample]
    /// What loading changed or skipped, one line per file (inverted, resized, skipped...).
    public let warnings: [String]
    /// Hex SHA-256 identifying the data: over each sample, in order, its relative path
    /// (`class/name.png`, UTF-8), a zero byte, the file's length as 8 little-endian bytes,
    /// and the file's bytes. In-memory datasets hash the class name and file name the
    /// same way, followed by the image's pixels instead of file bytes.
    public let fingerprint: String
    /// Number of samples per class, in `classes` order.
    public let counts: [Int]
    /// Side of every (square) image.
    public let imageSide: Int

    /// Loads `ROOT/<class>/*.png` (extension matched case-insensitively).
    ///
    /// Images that are mostly light are inverted under `.auto` (with a warning), images of
    /// another size are aspect-fit to `options.imageSide` (with a warning naming the size).
    /// A file that is not a readable PNG throws `DatasetError.badImage`, or with
    /// `options.skipBad` is skipped with a warning. Also throws when the root is missing
    /// or not a folder, has no class folders, or a class has no (readable) PNGs.
    public init(root: URL, options: DatasetLoadOptions = .init()) throws {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: root.path, isDirectory: &isDirectory) else {
            throw DatasetError.rootNotFound(path: root.path)
        }
        guard isDirectory.boolValue else { throw DatasetError.rootNotAFolder(path: root.path) }

        var warnings: [String] = []
        let rootEntries = try Self.visibleEntries(of: root)
        let classFolders = rootEntries.filter { Self.isFolder($0) }
        let strayImages = rootEntries.filter { !Self.isFolder($0) && Self.hasPNGExtension($0) }
        if !strayImages.isEmpty {
            warnings.append("ignored \(strayImages.count) .png file(s) directly in \(root.path) "
                + "(e.g. \(strayImages[0].lastPathComponent)); images belong in ROOT/<class>/")
        }
        guard !classFolders.isEmpty else { throw DatasetError.noClasses(root: root.path) }

        var samples: [Sample] = []
        var hasher = SHA256()
        for (classIndex, folder) in classFolders.enumerated() {
            let className = folder.lastPathComponent
            let entries = try Self.visibleEntries(of: folder)
            let files = entries.filter { !Self.isFolder($0) && Self.hasPNGExtension($0) }
            let ignored = entries.count - files.count
            if ignored > 0 {
                warnings.append("ignored \(ignored) non-PNG entr\(ignored == 1 ? "y" : "ies") in class folder '\(className)'")
            }
            guard !files.isEmpty else {
                throw DatasetError.emptyClass(className: className, folder: folder.path)
            }
            var skipped = 0
            for file in files {
                let relativePath = "\(className)/\(file.lastPathComponent)"
                let bytes: [UInt8], decoded: GrayImage
                do {
                    bytes = try PNG.readBytes(of: file, source: relativePath)
                    decoded = try PNG.decode(bytes, source: relativePath)
                } catch let error as PNGError {
                    guard options.skipBad else { throw DatasetError.badImage(file: relativePath, underlying: error) }
                    warnings.append("skipped \(error)")
                    skipped += 1
                    continue
                }
                let (image, notes) = ImagePreparation.prepare(
                    decoded, side: options.imageSide, invert: options.invert, source: relativePath)
                warnings += notes
                samples.append(Sample(url: file, classIndex: classIndex, image: image))
                Self.hash(name: relativePath, contents: bytes, into: &hasher)
            }
            if skipped == files.count {
                throw DatasetError.noReadableImages(className: className, skipped: skipped)
            }
        }

        self.classes = classFolders.map(\.lastPathComponent)
        self.samples = samples
        self.warnings = warnings
        self.fingerprint = Self.hex(hasher.finalize())
        self.counts = Self.counts(of: samples, classCount: classFolders.count)
        self.imageSide = options.imageSide
    }

    /// A dataset from samples already in memory (for tests, synthetic data and strokes). Every
    /// image must be of one size, square or a whole number of squares stacked top to bottom
    /// (the channels of a multi-channel input, as `Rasterizer` draws them), and every
    /// `classIndex` must point into `classes`.
    public init(classes: [String], samples: [Sample]) {
        let side = samples.first?.image.width ?? 28
        let height = samples.first?.image.height ?? side
        precondition(side > 0 && height % side == 0, "Sample images must be square or stacked squares, got \(side)x\(height)")
        for sample in samples {
            precondition(classes.indices.contains(sample.classIndex),
                         "Sample \(sample.url.lastPathComponent) has class index \(sample.classIndex), outside 0..<\(classes.count)")
            precondition(sample.image.width == side && sample.image.height == height,
                         "Sample \(sample.url.lastPathComponent) is \(sample.image.width)x\(sample.image.height), expected \(side)x\(height)")
        }
        var hasher = SHA256()
        for sample in samples {
            let name = "\(classes[sample.classIndex])/\(sample.url.lastPathComponent)"
            Self.hash(name: name, contents: sample.image.pixels, into: &hasher)
        }
        self.classes = classes
        self.samples = samples
        self.warnings = []
        self.fingerprint = Self.hex(hasher.finalize())
        self.counts = Self.counts(of: samples, classCount: classes.count)
        self.imageSide = side
    }

    // MARK: - Loading helpers

    /// Non-hidden entries of `folder`, sorted by name.
    private static func visibleEntries(of folder: URL) throws -> [URL] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw DatasetError.unlistableFolder(path: folder.path, reason: error.localizedDescription)
        }
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// True for a folder, or a symbolic link to one.
    private static func isFolder(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    private static func hasPNGExtension(_ url: URL) -> Bool {
        url.pathExtension.lowercased() == "png"
    }

    private static func hash(name: String, contents: [UInt8], into hasher: inout SHA256) {
        hasher.update(data: Array(name.utf8) + [0])
        withUnsafeBytes(of: UInt64(contents.count).littleEndian) { hasher.update(bufferPointer: $0) }
        hasher.update(data: contents)
    }

    private static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    private static func counts(of samples: [Sample], classCount: Int) -> [Int] {
        var counts = [Int](repeating: 0, count: classCount)
        for sample in samples { counts[sample.classIndex] += 1 }
        return counts
    }
}
