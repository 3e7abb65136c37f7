import StrokeSupport

extension LabeledImageDataset {
    /// Splits sample indices into training and validation sets, class by class, so each
    /// class keeps its share in both.
    ///
    /// Per class, the class's sample indices are shuffled with a generator for (`seed`, class
    /// index) (`SeededGenerator.stream`), and the first `round(validationFraction * count)`
    /// go to validation: at least 1 when the class has 2 or more samples and the fraction is
    /// above 0, and never all of them (a class of one sample stays in training).
    /// Both lists are sorted ascending. The same seed gives the same split.
    /// Throws `DatasetError.invalidValidationFraction` unless 0 <= fraction < 1.
    public func stratifiedSplit(validationFraction: Double, seed: UInt64) throws -> (train: [Int], validation: [Int]) {
        guard validationFraction >= 0, validationFraction < 1 else {
            throw DatasetError.invalidValidationFraction(validationFraction)
        }
        var train: [Int] = [], validation: [Int] = []
        for members in shuffledMembersByClass(seed: seed) {
            var validationCount = Int((validationFraction * Double(members.count)).rounded())
            if validationFraction > 0 && members.count >= 2 {
                validationCount = min(max(validationCount, 1), members.count - 1)
            } else if members.count < 2 {
                validationCount = 0
            }
            validation += members.prefix(validationCount)
            train += members.dropFirst(validationCount)
        }
        return (train.sorted(), validation.sorted())
    }

    /// Stratified k-fold cross-validation: every sample is in exactly one fold's validation
    /// set, and each class is dealt round-robin over the folds (after a seeded shuffle, as in
    /// `stratifiedSplit`), so per class the folds differ by at most one sample. Each class
    /// starts dealing where the previous one stopped, so total fold sizes also differ by at
    /// most one. Lists are sorted ascending.
    /// Throws `DatasetError.invalidFoldCount` unless 2 <= k <= the smallest class's size.
    public func stratifiedFolds(_ k: Int, seed: UInt64) throws -> [(train: [Int], validation: [Int])] {
        let smallest = counts.indices.min { counts[$0] < counts[$1] }
        let smallestCount = smallest.map { counts[$0] } ?? 0
        guard k >= 2, k <= smallestCount else {
            throw DatasetError.invalidFoldCount(k, smallestClass: smallest.map { classes[$0] } ?? "(none)",
                                                smallestCount: smallestCount)
        }
        var foldOfSample = [Int](repeating: 0, count: samples.count)
        var dealt = 0
        for members in shuffledMembersByClass(seed: seed) {
            for sampleIndex in members {
                foldOfSample[sampleIndex] = dealt % k
                dealt += 1
            }
        }
        return (0..<k).map { fold in
            let indices = Array(samples.indices)
            return (indices.filter { foldOfSample[$0] != fold }, indices.filter { foldOfSample[$0] == fold })
        }
    }

    /// An aligned text table of the number of samples per class in each split, with totals:
    ///
    ///     class   train  validation  total
    ///     arrow     154          38    192
    ///     total     536         134    670
    public func summaryTable(train: [Int], validation: [Int]) -> String {
        var trainCounts = [Int](repeating: 0, count: classes.count)
        var validationCounts = trainCounts
        for index in train { trainCounts[samples[index].classIndex] += 1 }
        for index in validation { validationCounts[samples[index].classIndex] += 1 }

        var rows: [[String]] = [["class", "train", "validation", "total"]]
        for (classIndex, name) in classes.enumerated() {
            let trainCount = trainCounts[classIndex], validationCount = validationCounts[classIndex]
            rows.append([name, "\(trainCount)", "\(validationCount)", "\(trainCount + validationCount)"])
        }
        rows.append(["total", "\(train.count)", "\(validation.count)", "\(train.count + validation.count)"])

        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell  // names left, numbers right
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// For each class, its sample indices shuffled by an independent seeded stream, so one
    /// class's shuffle does not depend on how many samples the other classes have.
    private func shuffledMembersByClass(seed: UInt64) -> [[Int]] {
        var members = [[Int]](repeating: [], count: classes.count)
        for (index, sample) in samples.enumerated() { members[sample.classIndex].append(index) }
        return members.enumerated().map { classIndex, indices in
            var generator = SeededGenerator.stream(seed: seed, UInt64(classIndex))
            return indices.seededShuffled(using: &generator)
        }
    }
}

extension Array {
    /// Fisher–Yates shuffle written out here rather than `shuffled(using:)`, whose algorithm
    /// the standard library does not promise to keep: splits must stay the same across
    /// Swift versions. (The modulo bias is below 2^-50 for any array we shuffle.)
    func seededShuffled(using generator: inout SeededGenerator) -> [Element] {
        var result = self
        var index = result.count - 1
        while index > 0 {
            let other = Int(generator.next() % UInt64(index + 1))
            result.swapAt(index, other)
            index -= 1
        }
        return result
    }
}
