/// A named group of classes (digits, uppercase letters, ...), scored on its own.
public struct ClassGroup: Sendable, Equatable {
    public var name: String
    public var classes: [String]

    public init(name: String, classes: [String]) {
        self.name = name
        self.classes = classes
    }
}

/// A group's accuracy two ways, over the examples whose true class is in the group.
public struct GroupAccuracy: Sendable {
    public var group: String
    /// Examples whose true class is in the group.
    public var support: Int
    /// The prediction among all the model's classes is the true class.
    public var amongAllClasses: Double
    /// The most probable class of the group alone is the true class (UNIPEN's convention:
    /// digits are tested among the digits, uppercase among the uppercase letters, ...).
    public var withinGroup: Double
    /// Per class of the group (in the group's order): the share of its examples whose most
    /// probable class within the group is the true class (its recall within the group).
    public var withinGroupPerClass: [(label: String, recall: Double, support: Int)] = []
}

/// The character model's class groups and the characters that differ mostly in size.
public enum CharacterGroups {
    public static let digits = ClassGroup(name: "digits", classes: (0...9).map(String.init))
    public static let lowercase = ClassGroup(name: "lowercase", classes: letters("a", "z"))
    public static let uppercase = ClassGroup(name: "uppercase", classes: letters("A", "Z"))
    public static let separators = ClassGroup(name: "separators", classes: [",", "+", ".", "{", "}"])
    public static let all = [digits, lowercase, uppercase, separators]

    /// Characters whose shapes differ mostly in size or place on the line, which an image of
    /// the character's own box does not show: the same letter in both cases, `o O 0`, `l I 1`.
    public static let lookAlikes: [[String]] =
        ["c", "k", "p", "s", "u", "v", "w", "x", "y", "z"].map { [$0, $0.uppercased()] } + [["o", "O", "0"], ["l", "I", "1"]]

    /// The groups of `all` that have at least one of `classes`, limited to those classes.
    public static func groups(for classes: [String]) -> [ClassGroup] {
        all.compactMap { group in
            let present = group.classes.filter(classes.contains)
            return present.isEmpty ? nil : ClassGroup(name: group.name, classes: present)
        }
    }

    private static func letters(_ first: Character, _ last: Character) -> [String] {
        (first.asciiValue!...last.asciiValue!).map { String(UnicodeScalar($0)) }
    }
}

extension Evaluation {
    /// Fraction of examples whose true class is among the `k` most probable (a tie with the
    /// k-th probability counts against it).
    public func topAccuracy(_ k: Int) -> Double {
        guard !predictions.isEmpty else { return 0 }
        let hits = predictions.filter { prediction in
            let truth = prediction.probabilities[prediction.trueClass]
            return prediction.probabilities.filter { $0 > truth }.count < k
        }.count
        return Double(hits) / Double(predictions.count)
    }

    /// `group`'s accuracy among all classes and within the group (see `GroupAccuracy`).
    public func accuracy(of group: ClassGroup) -> GroupAccuracy {
        let members = group.classes.compactMap { classes.firstIndex(of: $0) }
        let memberSet = Set(members)
        var support = 0, amongAll = 0, within = 0
        var classSupport: [Int: Int] = [:], classWithin: [Int: Int] = [:]
        for prediction in predictions where memberSet.contains(prediction.trueClass) {
            support += 1
            classSupport[prediction.trueClass, default: 0] += 1
            if prediction.predictedClass == prediction.trueClass { amongAll += 1 }
            let best = members.max { prediction.probabilities[$0] < prediction.probabilities[$1] }
            if best == prediction.trueClass { within += 1; classWithin[prediction.trueClass, default: 0] += 1 }
        }
        let share = { (count: Int) in support == 0 ? 0 : Double(count) / Double(support) }
        var result = GroupAccuracy(group: group.name, support: support, amongAllClasses: share(amongAll), withinGroup: share(within))
        result.withinGroupPerClass = members.compactMap { member in
            guard let count = classSupport[member] else { return nil }
            return (classes[member], Double(classWithin[member] ?? 0) / Double(count), count)
        }
        return result
    }

    /// Accuracy when a prediction in the same set of `equivalent` as the true class counts as
    /// right (e.g. `CharacterGroups.lookAlikes`: `c` for `C`).
    public func accuracy(countingAsSame equivalent: [[String]]) -> Double {
        guard !predictions.isEmpty else { return 0 }
        var representative = Array(classes.indices)
        for set in equivalent {
            let indices = set.compactMap { classes.firstIndex(of: $0) }
            for index in indices { representative[index] = indices.min()! }
        }
        let hits = predictions.filter { representative[$0.trueClass] == representative[$0.predictedClass] }.count
        return Double(hits) / Double(predictions.count)
    }

    /// The `limit` largest off-diagonal cells of the confusion matrix, largest first (ties:
    /// by true class, then predicted class).
    public func worstConfusions(limit: Int) -> [(trueClass: Int, predictedClass: Int, count: Int)] {
        var cells: [(trueClass: Int, predictedClass: Int, count: Int)] = []
        for row in classes.indices {
            for column in classes.indices where row != column && confusionMatrix[row][column] > 0 {
                cells.append((row, column, confusionMatrix[row][column]))
            }
        }
        cells.sort { ($1.count, $0.trueClass, $0.predictedClass) < ($0.count, $1.trueClass, $1.predictedClass) }
        return Array(cells.prefix(limit))
    }
}
