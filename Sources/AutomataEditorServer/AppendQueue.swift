import Foundation

/// Group commit: the edits that requests append while the store is committing wait, and are
/// then committed together, in one transaction and one disk flush, instead of one flush each.
/// Each request is answered only once the batch holding its edit has committed (or failed:
/// then every request of the batch gets the error, and none of its edits is kept).
///
/// One batch is committed at a time; a batch holds at most one edit per session (a second
/// edit of the same session waits for the next batch, since it may depend on the first) and at
/// most `maximumBatch` edits, in the order they arrived.
final class AppendQueue: @unchecked Sendable {
    typealias Commit = @Sendable ([AppendRequest]) async throws -> [AppendOutcome]

    /// What an append found, with how long its batch took to commit and how many edits it held.
    struct Result: Sendable, Equatable {
        var outcome: AppendOutcome
        var commit: Duration
        var batchSize: Int
    }

    private struct Waiting {
        var request: AppendRequest
        var continuation: CheckedContinuation<Result, any Error>
    }

    let maximumBatch: Int
    private let commit: Commit
    private let lock = NSLock()
    private var waiting: [Waiting] = []
    private var committing = false

    init(maximumBatch: Int = 64, commit: @escaping Commit) {
        precondition(maximumBatch > 0)
        self.maximumBatch = maximumBatch
        self.commit = commit
    }

    /// Appends queued and not yet taken into a batch (for tests).
    var waitingCount: Int { lock.withLock { waiting.count } }

    /// Appends through the next batch; returns once it is committed.
    func append(_ request: AppendRequest) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            let starts = lock.withLock {
                waiting.append(Waiting(request: request, continuation: continuation))
                guard !committing else { return false }
                committing = true
                return true
            }
            // High priority: the committing task does little work, and every waiter waits for it
            // (a drawing being read by the classifier should not delay the commit).
            if starts { Task(priority: .high) { await self.drain() } }
        }
    }

    /// Commits batches until nothing waits.
    private func drain() async {
        while let batch = nextBatch() {
            let started = ContinuousClock.now
            do {
                let outcomes = try await commit(batch.map(\.request))
                guard outcomes.count == batch.count else {
                    throw SessionStoreError.unavailable("the store answered \(outcomes.count) outcomes for \(batch.count) edits")
                }
                let elapsed = ContinuousClock.now - started
                for (waiting, outcome) in zip(batch, outcomes) {
                    waiting.continuation.resume(returning: Result(outcome: outcome, commit: elapsed, batchSize: batch.count))
                }
            } catch {
                for waiting in batch { waiting.continuation.resume(throwing: error) }
            }
        }
    }

    /// The next batch, taken out of the queue; nil (and no longer committing) when none waits.
    private func nextBatch() -> [Waiting]? {
        lock.withLock {
            var batch: [Waiting] = []
            var rest: [Waiting] = []
            var sessions = Set<String>()
            for item in waiting {
                if batch.count < maximumBatch, sessions.insert(item.request.id).inserted {
                    batch.append(item)
                } else {
                    rest.append(item)
                }
            }
            waiting = rest
            if batch.isEmpty {
                committing = false
                return nil
            }
            return batch
        }
    }
}
