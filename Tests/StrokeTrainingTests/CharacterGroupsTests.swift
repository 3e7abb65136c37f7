import StrokeTraining
import Testing

/// Group, top-k and look-alike accuracies against counts worked out by hand.
@Suite struct CharacterGroupsTests {
    /// Classes `1 l a A ,` and four predictions with chosen probabilities.
    static let classes = ["1", "a", "A", ",", "l"]
    static func prediction(_ truth: Int, _ probabilities: [Float]) -> Prediction {
        let predicted = probabilities.indices.max { probabilities[$0] < probabilities[$1] }!
        return Prediction(source: "x", trueClass: truth, predictedClass: predicted,
                          confidence: probabilities[predicted], probabilities: probabilities)
    }
    static let evaluation = Evaluation(classes: classes, predictions: [
        prediction(0, [0.6, 0.1, 0.1, 0.1, 0.1]),     // 1 right
        prediction(0, [0.3, 0.0, 0.0, 0.2, 0.5]),     // 1 read as l: a look-alike; within digits right
        prediction(1, [0.0, 0.3, 0.6, 0.0, 0.1]),     // a read as A: look-alike? no (a/A is not one); within lowercase right
        prediction(3, [0.5, 0.05, 0.05, 0.25, 0.15]), // , read as 1: second of five
    ])

    @Test func topKCountsTheTrueClassAmongTheKMostProbable() {
        #expect(Self.evaluation.topAccuracy(1) == 0.25)
        #expect(Self.evaluation.topAccuracy(2) == 1.0)
    }

    @Test func groupAccuracyAmongAllAndWithinTheGroup() {
        let digits = Self.evaluation.accuracy(of: CharacterGroups.digits)
        #expect(digits.support == 2)
        #expect(digits.amongAllClasses == 0.5)
        #expect(digits.withinGroup == 1.0, "with only digits to choose from, both 1s are 1")
        let lowercase = Self.evaluation.accuracy(of: CharacterGroups.lowercase)
        #expect(lowercase.support == 1 && lowercase.amongAllClasses == 0 && lowercase.withinGroup == 1)
        let separators = Self.evaluation.accuracy(of: CharacterGroups.separators)
        #expect(separators.support == 1 && separators.withinGroup == 1 && separators.amongAllClasses == 0)
        // Per class within the group: only classes with examples; 1 is right both times among the digits.
        #expect(digits.withinGroupPerClass.map(\.label) == ["1"])
        #expect(digits.withinGroupPerClass.map(\.recall) == [1.0] && digits.withinGroupPerClass.map(\.support) == [2])
        // Within the lowercase, the a read as A is right; ask a group of a and A and it is wrong.
        let cases = Self.evaluation.accuracy(of: ClassGroup(name: "a/A", classes: ["a", "A"]))
        #expect(cases.withinGroupPerClass.map(\.label) == ["a"] && cases.withinGroupPerClass.map(\.recall) == [0])
    }

    @Test func lookAlikesCountAsTheSameOnlyWithinTheirSet() {
        // l for 1 is a look-alike (l I 1); A for a is not one of the listed sets.
        #expect(Self.evaluation.accuracy(countingAsSame: CharacterGroups.lookAlikes) == 0.5)
        #expect(Self.evaluation.accuracy(countingAsSame: [["a", "A"]]) == 0.5)
        #expect(Self.evaluation.accuracy(countingAsSame: []) == Self.evaluation.accuracy)
    }

    @Test func worstConfusionsAreTheLargestOffDiagonalCells() {
        let worst = Self.evaluation.worstConfusions(limit: 2)
        #expect(worst.count == 2)
        #expect(worst.allSatisfy { $0.count == 1 })
        // Ties are ordered by true class, then predicted class: (0 -> 4) before (1 -> 2).
        #expect(worst.map(\.trueClass) == [0, 1])
        #expect(worst.map(\.predictedClass) == [4, 2])
    }

    @Test func groupsKeepOnlyClassesTheModelHas() {
        let groups = CharacterGroups.groups(for: Self.classes)
        #expect(groups.map(\.name) == ["digits", "lowercase", "uppercase", "separators"])
        #expect(groups[0].classes == ["1"])
        #expect(CharacterGroups.groups(for: ["arrow", "circle"]).isEmpty)
        #expect(CharacterGroups.all.map(\.classes.count).reduce(0, +) == 67)
    }
}
