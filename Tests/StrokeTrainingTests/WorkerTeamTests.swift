import Foundation
import Testing
@testable import StrokeTraining

@Suite struct WorkerTeamTests {
    /// Each worker adds its index + 1 to its own slot every round; the caller checks the
    /// slots after every round, so a member that skipped a round, ran one twice, or whose
    /// writes the caller did not see, fails the test.
    @Test(arguments: [1, 2, 3, 5])
    func everyWorkerRunsEachRoundOnceAndItsWritesAreSeen(size: Int) {
        let rounds = WorkerRounds(size: size)
        defer { rounds.stop() }
        let slots = UnsafeMutableBufferPointer<Int>.allocate(capacity: size)
        slots.initialize(repeating: 0)
        defer { slots.deallocate() }
        let shared = SendablePointer(slots.baseAddress!)
        for round in 1...2_000 {
            rounds.run { worker in shared.pointer[worker] += worker + 1 }
            for worker in 0..<size where slots[worker] != round * (worker + 1) {
                Issue.record("round \(round): worker \(worker) holds \(slots[worker]), expected \(round * (worker + 1))")
                return
            }
        }
    }

    /// Rounds far enough apart that the members stop spinning and sleep still run.
    @Test func roundsAfterThePoolSleptStillRun() {
        let rounds = WorkerRounds(size: 3)
        defer { rounds.stop() }
        let count = LockedCount()
        for round in 1...4 {
            Thread.sleep(forTimeInterval: 0.05)
            rounds.run { _ in count.increment() }
            #expect(count.value == 3 * round)
        }
    }
}

private struct SendablePointer: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Int>
    init(_ pointer: UnsafeMutablePointer<Int>) { self.pointer = pointer }
}

private final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
