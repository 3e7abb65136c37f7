import Foundation
import StrokeData
import StrokeImage
import StrokeTensor
import Testing

@Suite struct SplitTests {
    /// An in-memory dataset with `counts[c]` samples of class c; sample pixels encode the index.
    static func dataset(counts: [Int]) -> LabeledImageDataset {
        var samples: [LabeledImageDataset.Sample] = []
        for (classIndex, count) in counts.enumerated() {
            for item in 0..<count {
                var image = GrayImage(width: 28, height: 28)
                image[item % 28, (item / 28) % 28] = 255
                image[27, 27] = UInt8(classIndex * 50)
                samples.append(.init(url: URL(fileURLWithPath: "/memory/c\(classIndex)/\(item).png"),
                                     classIndex: classIndex, image: image))
            }
        }
        return LabeledImageDataset(classes: counts.indices.map { "class\($0)" }, samples: samples)
    }

    static func classCounts(_ indices: [Int], in dataset: LabeledImageDataset) -> [Int] {
        var counts = [Int](repeating: 0, count: dataset.classes.count)
        for index in indices { counts[dataset.samples[index].classIndex] += 1 }
        return counts
    }

    @Test func splitKeepsEachClassShareAndCoversEverySampleOnce() throws {
        let data = Self.dataset(counts: [192, 232, 246])
        let split = try data.stratifiedSplit(validationFraction: 0.2, seed: 7)
        #expect(Self.classCounts(split.validation, in: data) == [38, 46, 49])  // round(0.2 * count)
        #expect(Self.classCounts(split.train, in: data) == [154, 186, 197])
        #expect(Set(split.train).isDisjoint(with: split.validation))
        #expect((split.train + split.validation).sorted() == Array(data.samples.indices))
        #expect(split.train == split.train.sorted() && split.validation == split.validation.sorted())
    }

    @Test func sameSeedSameSplitDifferentSeedDifferentSplit() throws {
        let data = Self.dataset(counts: [40, 50])
        let first = try data.stratifiedSplit(validationFraction: 0.25, seed: 1)
        let again = try data.stratifiedSplit(validationFraction: 0.25, seed: 1)
        let other = try data.stratifiedSplit(validationFraction: 0.25, seed: 2)
        #expect(first.validation == again.validation && first.train == again.train)
        #expect(first.validation != other.validation)
    }

    @Test func smallClassesKeepAtLeastOneSampleOnEachSide() throws {
        let data = Self.dataset(counts: [1, 2, 3])
        let split = try data.stratifiedSplit(validationFraction: 0.1, seed: 3)
        #expect(Self.classCounts(split.validation, in: data) == [0, 1, 1])
        let large = try data.stratifiedSplit(validationFraction: 0.9, seed: 3)
        #expect(Self.classCounts(large.train, in: data) == [1, 1, 1])
        let none = try data.stratifiedSplit(validationFraction: 0, seed: 3)
        #expect(none.validation.isEmpty && none.train.count == 6)
    }

    @Test func fractionOutsideZeroToOneIsRejected() {
        let data = Self.dataset(counts: [5, 5])
        for fraction in [-0.1, 1.0, 1.5, .nan] {
            #expect(throws: DatasetError.self, "fraction \(fraction)") {
                try data.stratifiedSplit(validationFraction: fraction, seed: 0)
            }
        }
    }

    @Test func foldsPartitionTheSamplesWithBalancedClasses() throws {
        let data = Self.dataset(counts: [12, 17, 9])
        let folds = try data.stratifiedFolds(4, seed: 11)
        #expect(folds.count == 4)
        let allValidation = folds.flatMap(\.validation)
        #expect(allValidation.sorted() == Array(data.samples.indices), "each sample in exactly one validation fold")
        for (number, fold) in folds.enumerated() {
            #expect(Set(fold.train).isDisjoint(with: fold.validation))
            #expect(fold.train.count + fold.validation.count == data.samples.count)
            let counts = Self.classCounts(fold.validation, in: data)
            for (classIndex, total) in [12, 17, 9].enumerated() {
                #expect([total / 4, (total + 3) / 4].contains(counts[classIndex]),
                        "fold \(number) class \(classIndex): \(counts[classIndex]) of \(total)")
            }
        }
        let sizes = folds.map(\.validation.count)
        #expect(sizes.max()! - sizes.min()! <= 1, "fold sizes \(sizes)")
        #expect(try data.stratifiedFolds(4, seed: 11).map(\.validation) == folds.map(\.validation))
    }

    @Test func foldCountMustFitTheSmallestClass() {
        let data = Self.dataset(counts: [10, 3])
        #expect(throws: DatasetError.self) { try data.stratifiedFolds(1, seed: 0) }
        #expect(throws: DatasetError.self) { try data.stratifiedFolds(4, seed: 0) }
        #expect(throws: Never.self) { try data.stratifiedFolds(3, seed: 0) }
    }

    @Test func summaryTableIsAlignedWithTotals() throws {
        let data = Self.dataset(counts: [10, 5])
        let split = try data.stratifiedSplit(validationFraction: 0.2, seed: 1)
        let lines = data.summaryTable(train: split.train, validation: split.validation).split(separator: "\n")
        #expect(lines.count == 4)
        #expect(Set(lines.map(\.count)).count == 1, "lines differ in width:\n\(lines.joined(separator: "\n"))")
        #expect(lines[1].split(separator: " ").map(String.init) == ["class0", "8", "2", "10"])
        #expect(lines[3].split(separator: " ").map(String.init) == ["total", "12", "3", "15"])
    }

    @Test func inMemoryFingerprintDependsOnPixels() {
        let first = Self.dataset(counts: [2, 2])
        #expect(first.fingerprint == Self.dataset(counts: [2, 2]).fingerprint)
        #expect(first.fingerprint != Self.dataset(counts: [2, 3]).fingerprint)
    }
}
