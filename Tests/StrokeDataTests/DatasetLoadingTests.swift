import Foundation
import StrokeData
import StrokeImage
import Testing
import TestSupport

/// A dataset folder tree under the temporary directory, removed by `remove()`.
struct DatasetFolder {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("DatasetTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    /// A 28x28 white-on-black image whose ink depends on `seed`.
    static func stroke(_ seed: Int, width: Int = 28, height: Int = 28) -> GrayImage {
        var image = GrayImage(width: width, height: height)
        for step in 0..<min(width, height) { image[step, (step + seed) % height] = 255 }
        return image
    }

    func addImage(_ image: GrayImage, _ relativePath: String) throws {
        try PNGFixtures.writeGray(image, to: root.appendingPathComponent(relativePath))
    }

    func addFile(_ bytes: [UInt8], _ relativePath: String) throws {
        let url = root.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func addFolder(_ relativePath: String) throws {
        try FileManager.default.createDirectory(at: root.appendingPathComponent(relativePath), withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

@Suite struct DatasetLoadingTests {
    @Test func classesAreSortedFolderNamesAndFilesAreSortedByName() throws {
        let folder = try DatasetFolder()
        defer { folder.remove() }
        try folder.addImage(DatasetFolder.stroke(1), "zigzag/b.png")
        try folder.addImage(DatasetFolder.stroke(2), "zigzag/a.PNG")
        try folder.addImage(DatasetFolder.stroke(3), "circle/only.png")
        try folder.addImage(DatasetFolder.stroke(4), "arrow/2.png")
        try folder.addImage(DatasetFolder.stroke(5), "arrow/1.png")
        try folder.addImage(DatasetFolder.stroke(6), ".hidden/x.png")
        try folder.addImage(DatasetFolder.stroke(7), "arrow/.hidden.png")
        try folder.addFile(Array("notes".utf8), "arrow/notes.txt")

        let dataset = try LabeledImageDataset(root: folder.root)
        #expect(dataset.classes == ["arrow", "circle", "zigzag"])
        #expect(dataset.counts == [2, 1, 2])
        #expect(dataset.samples.map(\.url.lastPathComponent) == ["1.png", "2.png", "only.png", "a.PNG", "b.png"])
        #expect(dataset.samples.map(\.classIndex) == [0, 0, 1, 2, 2])
        #expect(dataset.samples[0].image == DatasetFolder.stroke(5))
        #expect(dataset.warnings.count == 1, "only the ignored notes.txt: \(dataset.warnings)")
        #expect(dataset.fingerprint.count == 64)
    }

    @Test func fingerprintChangesWithContentAndIsStable() throws {
        let folder = try DatasetFolder()
        defer { folder.remove() }
        try folder.addImage(DatasetFolder.stroke(1), "a/1.png")
        try folder.addImage(DatasetFolder.stroke(2), "b/1.png")
        let first = try LabeledImageDataset(root: folder.root).fingerprint
        #expect(try LabeledImageDataset(root: folder.root).fingerprint == first)
        try folder.addImage(DatasetFolder.stroke(3), "b/1.png")
        #expect(try LabeledImageDataset(root: folder.root).fingerprint != first)
    }

    @Test func missingRootAndFileRootAreErrors() throws {
        let folder = try DatasetFolder()
        defer { folder.remove() }
        #expect(throws: DatasetError.self) { try LabeledImageDataset(root: folder.root.appendingPathComponent("nope")) }
        try folder.addFile([1, 2, 3], "file")
        #expect(throws: DatasetError.self) { try LabeledImageDataset(root: folder.root.appendingPathComponent("file")) }
    }

    @Test func aRootWithoutClassFoldersIsAnEmptyDatasetError() throws {
        let folder = try DatasetFolder()
        defer { folder.remove() }
        try folder.addImage(DatasetFolder.stroke(1), "stray.png")
        do {
            _ = try LabeledImageDataset(root: folder.root)
            Issue.record("a root without class folders loaded")
        } catch let error as DatasetError {
            guard case .noClasses = error else { Issue.record("expected .noClasses, got \(error)"); return }
        }
    }

    @Test func aClassWithoutPNGsIsAnErrorNamingTheClass() throws {
        let folder = try DatasetFolder()
        defer { folder.remove() }
        try folder.addImage(DatasetFolder.stroke(1), "arrow/1.png")
        try folder.addFile(Array("x".utf8), "circle/readme.txt")
        do {
            _ = try LabeledImageDataset(root: folder.root)
            Issue.record("a class without PNGs loaded")
        } catch let error as DatasetError {
            guard case .emptyClass(let className, _) = error else { Issue.record("expected .emptyClass, got \(error)"); return }
            #expect(className == "circle")
            #expect(error.description.contains("circle"))
        }
    }

    @Test func aBadFileThrowsNamingItUnlessSkipped() throws {
        let folder = try DatasetFolder()
        defer { folder.remove() }
        let valid = try PNG.encode(DatasetFolder.stroke(1))
        try folder.addImage(DatasetFolder.stroke(1), "arrow/good.png")
        try folder.addFile(Array(valid.prefix(valid.count / 2)), "arrow/truncated.png")
        try folder.addFile(Array("GIF89a".utf8), "arrow/gif.png")
        try folder.addFile([], "arrow/empty.png")
        try folder.addImage(DatasetFolder.stroke(2), "circle/good.png")

        do {
            _ = try LabeledImageDataset(root: folder.root)
            Issue.record("a dataset with bad files loaded")
        } catch let error as DatasetError {
            guard case .badImage(let file, _) = error else { Issue.record("expected .badImage, got \(error)"); return }
            #expect(file == "arrow/empty.png", "files are read in name order")
            #expect(error.description.contains("arrow/empty.png"))
        }

        let dataset = try LabeledImageDataset(root: folder.root, options: .init(skipBad: true))
        #expect(dataset.counts == [1, 1])
        let skipped = dataset.warnings.filter { $0.hasPrefix("skipped") }
        #expect(skipped.count == 3, "\(dataset.warnings)")
        for name in ["arrow/empty.png", "arrow/gif.png", "arrow/truncated.png"] {
            #expect(skipped.contains { $0.contains(name) }, "no warning names \(name): \(skipped)")
        }
    }

    @Test func aClassLeftEmptyBySkippingIsStillAnError() throws {
        let folder = try DatasetFolder()
        defer { folder.remove() }
        try folder.addImage(DatasetFolder.stroke(1), "arrow/good.png")
        try folder.addFile(Array("not a png".utf8), "circle/bad.png")
        #expect(throws: DatasetError.self) { try LabeledImageDataset(root: folder.root, options: .init(skipBad: true)) }
    }

    @Test func darkInkOnLightIsInvertedWithAWarning() throws {
        let folder = try DatasetFolder()
        defer { folder.remove() }
        let whiteOnBlack = DatasetFolder.stroke(1)
        try folder.addImage(whiteOnBlack.inverted(), "arrow/paper.png")
        try folder.addImage(whiteOnBlack, "arrow/screen.png")

        let automatic = try LabeledImageDataset(root: folder.root)
        #expect(automatic.samples.map(\.image) == [whiteOnBlack, whiteOnBlack])
        #expect(automatic.warnings.count == 1)
        #expect(automatic.warnings.first?.contains("arrow/paper.png") == true, "\(automatic.warnings)")

        let never = try LabeledImageDataset(root: folder.root, options: .init(invert: .no))
        #expect(never.samples[0].image == whiteOnBlack.inverted() && never.warnings.isEmpty)
        let always = try LabeledImageDataset(root: folder.root, options: .init(invert: .yes))
        #expect(always.samples[1].image == whiteOnBlack.inverted())
    }

    @Test func otherSizesAreAspectFitWithAWarningNamingTheSize() throws {
        let folder = try DatasetFolder()
        defer { folder.remove() }
        let wide = GrayImage(width: 56, height: 28, pixels: [UInt8](repeating: 255, count: 56 * 28)).inverted()
        try folder.addImage(wide, "arrow/wide.png")  // all black: not inverted, only resized
        let dataset = try LabeledImageDataset(root: folder.root)
        #expect(dataset.samples[0].image.width == 28 && dataset.samples[0].image.height == 28)
        #expect(dataset.warnings.count == 1)
        #expect(dataset.warnings.first?.contains("arrow/wide.png") == true)
        #expect(dataset.warnings.first?.contains("56x28") == true, "\(dataset.warnings)")
    }

    @Test func lightImagesAreInvertedBeforePaddingSoThePaddingStaysBlack() throws {
        let folder = try DatasetFolder()
        defer { folder.remove() }
        // 56x28 white paper with a black line: inverted to black with a white line, then fit.
        var paper = GrayImage(width: 56, height: 28, pixels: [UInt8](repeating: 255, count: 56 * 28))
        for x in 0..<56 { paper[x, 14] = 0 }
        try folder.addImage(paper, "arrow/paper.png")
        let image = try LabeledImageDataset(root: folder.root).samples[0].image
        #expect(image[0, 0] == 0 && image[27, 27] == 0, "padding must be black")
        #expect(image.pixels.contains { $0 > 100 }, "the line must be light")
    }

    @Test
    func theRealDatasetHas670ImagesInThreeClasses() throws {
        let dataset = try LabeledImageDataset(root: ProjectDataset.automataShapes)
        #expect(dataset.classes == ["arrow", "circle", "cycle"])
        #expect(dataset.counts == [192, 232, 246])
        #expect(dataset.samples.count == 670)
        #expect(dataset.samples.allSatisfy { $0.image.width == 28 && $0.image.height == 28 })
        #expect(dataset.warnings.isEmpty, "\(dataset.warnings.prefix(5))")
    }
}
