import Dispatch
import Foundation
import Synchronization

/// How the trainer runs one job on each of its workers: a `WorkerTeam` where the system has
/// the standard library's atomics (always on Linux; macOS 15 and later), else
/// `DispatchQueue.concurrentPerform`.
struct WorkerRounds: Sendable {
    let size: Int
    private let team: (any Sendable)?

    init(size: Int) {
        self.size = size
        if #available(macOS 15.0, *) { team = size > 1 ? WorkerTeam(size: size) : nil } else { team = nil }
    }

    /// Runs `job(worker)` for every worker in `0..<size` and returns when all have returned.
    func run(_ job: @escaping @Sendable (Int) -> Void) {
        if size == 1 { return job(0) }
        if #available(macOS 15.0, *), let team = team as? WorkerTeam { return team.run(job) }
        DispatchQueue.concurrentPerform(iterations: size, execute: job)
    }

    /// Ends the team's threads (no round runs after this).
    func stop() {
        if #available(macOS 15.0, *), let team = team as? WorkerTeam { team.stop() }
    }
}

/// A fixed team of threads that run one job together, round after round: the trainer's
/// workers, which meet twice in every training step (forward/backward on their part of the
/// batch, then their part of the update).
///
/// Between rounds a member spins on the round counter for a while before it sleeps, so a
/// round that follows the last one within `spinLimit` starts without waking a thread. On a
/// virtual machine that wake-up (an idle vCPU halts and needs the host to run it again)
/// cost a few hundred microseconds per `DispatchQueue.concurrentPerform`, twice a step.
@available(macOS 15.0, *)
final class WorkerTeam: @unchecked Sendable {
    /// Members, the calling thread included (it runs index 0).
    let size: Int
    /// Rounds started; a member runs round r once it sees the counter at r.
    private let round = Atomic<Int>(0)
    /// Members other than the caller that finished the current round.
    private let finished = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    /// Members that left (after `stop()`).
    private let left = Atomic<Int>(0)
    /// Guards sleeping and waking; the job is written before a round starts and only read
    /// during it.
    private let condition = NSCondition()
    private var job: (@Sendable (Int) -> Void)?
    /// Polls of the round counter before a member sleeps (tens of microseconds of spinning).
    static let spinLimit = 20_000

    /// Starts `size - 1` threads; `size` at least 1.
    init(size: Int) {
        precondition(size >= 1, "a team has at least one member")
        self.size = size
        for member in 1..<max(size, 1) {
            let thread = Thread { [unowned self] in self.serve(member) }
            thread.name = "strokekit-worker-\(member)"
            thread.start()
        }
    }

    /// Runs `job(member)` for every member, the caller taking member 0, and returns when all
    /// have returned. Writes made in `job` are visible to the caller afterwards.
    func run(_ job: @escaping @Sendable (Int) -> Void) {
        guard size > 1 else { return job(0) }
        self.job = job
        finished.store(0, ordering: .relaxed)
        condition.lock()
        round.add(1, ordering: .releasing)
        condition.broadcast()
        condition.unlock()
        job(0)
        var polls = 0
        while finished.load(ordering: .acquiring) < size - 1 {
            polls += 1
            if polls > Self.spinLimit { sched_yield() }
        }
        self.job = nil
    }

    /// Ends the members' threads; the team runs no round after this.
    func stop() {
        guard size > 1 else { return }
        stopping.store(true, ordering: .relaxed)
        condition.lock()
        round.add(1, ordering: .releasing)
        condition.broadcast()
        condition.unlock()
        while left.load(ordering: .acquiring) < size - 1 { sched_yield() }
    }

    private func serve(_ member: Int) {
        var seen = 0
        while true {
            var polls = 0
            while round.load(ordering: .acquiring) == seen {
                polls += 1
                guard polls > Self.spinLimit else { continue }
                condition.lock()
                while round.load(ordering: .acquiring) == seen { condition.wait() }
                condition.unlock()
            }
            seen += 1
            if stopping.load(ordering: .relaxed) { break }
            job!(member)
            finished.add(1, ordering: .releasing)
        }
        left.add(1, ordering: .releasing)
    }
}
