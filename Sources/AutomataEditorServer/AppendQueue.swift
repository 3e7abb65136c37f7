import Foundation

/// Group commit: the edits that requests append while the store is committing wait, and are
/// then committed together, in one transaction and one disk flush, instead of one flush each.
/// Each request is answered only once the batch holding its edit has committed (or failed:
/// then every request of the batch gets the error, and none of its edits is kept).
///
/// At most `maximumInFlight` batches are committed at once (one for SQLite's single writer;
/// several for PostgreSQL, whose own group commit shares the flush of concurrent transactions,
/// so that an edit arriving during a slow commit need not wait for it). A batch holds at most
/// `maximumBatch` edits, in the order they arrived, and never an edit of a session whose edit is
/// being committed (a second edit of a session waits for the first's batch, since it was made
/// on the version before it).
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
    let maximumInFlight: Int
    private let commit: Commit
    private let lock = NSLock()
    private var waiting: [Waiting] = []
    /// Batches being committed (tasks draining the queue), and the sessions they hold.
    private var inFlight = 0
    private var sessionsInFlight = Set<String>()

    init(maximumBatch: Int = 64, maximumInFlight: Int = 1, commit: @escaping Commit) {
        precondition(maximumBatch > 0 && maximumInFlight > 0)
        self.maximumBatch = maximumBatch
        self.maximumInFlight = maximumInFlight
        self.commit = commit
    }

    /// Appends queued and not yet taken into a batch (for tests).
    var waitingCount: Int { lock.withLock { waiting.count } }

    /// Appends through the next batch; returns once it is committed.
    ///
    /// With a commit free and no edit of the session being committed, the caller's own task
    /// commits the batch (its edit and those waiting): no task to start and no thread to wake
    /// before the commit and after it, which on a busy machine is most of an edit's wait. Edits
    /// waiting after it are committed by a task of their own, as when every commit is busy.
    func append(_ request: AppendRequest) async throws -> Result {
        let others: [Waiting]? = lock.withLock {
            guard inFlight < maximumInFlight, !sessionsInFlight.contains(request.id) else { return nil }
            inFlight += 1
            sessionsInFlight.insert(request.id)
            return takeBatch(limit: maximumBatch - 1)
        }
        guard let others else { return try await enqueue(request) }
        let requests = [request] + others.map(\.request)
        let started = ContinuousClock.now
        let result: Swift.Result<[AppendOutcome], any Error>
        do {
            let outcomes = try await commit(requests)
            guard outcomes.count == requests.count else {
                throw SessionStoreError.unavailable("the store answered \(outcomes.count) outcomes for \(requests.count) edits")
            }
            result = .success(outcomes)
        } catch {
            result = .failure(error)
        }
        let elapsed = ContinuousClock.now - started
        switch result {
        case let .success(outcomes):
            for (waiting, outcome) in zip(others, outcomes.dropFirst()) {
                waiting.continuation.resume(returning: Result(outcome: outcome, commit: elapsed, batchSize: requests.count))
            }
        case let .failure(error):
            for waiting in others { waiting.continuation.resume(throwing: error) }
        }
        // What arrived meanwhile goes on in a task of its own (or this commit is no longer counted).
        if let next = nextBatch(after: requests.map(\.id)) {
            Task(priority: .high) { await self.drain(from: next) }
        }
        return Result(outcome: try result.get()[0], commit: elapsed, batchSize: requests.count)
    }

    /// Queues the append for a committing task (started here when a commit is free).
    private func enqueue(_ request: AppendRequest) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            let starts = lock.withLock {
                waiting.append(Waiting(request: request, continuation: continuation))
                guard inFlight < maximumInFlight else { return false }
                inFlight += 1
                return true
            }
            // High priority: the committing task does little work, and every waiter waits for it
            // (a drawing being read by the classifier should not delay the commit).
            if starts {
                Task(priority: .high) {
                    if let batch = self.nextBatch(after: []) { await self.drain(from: batch) }
                }
            }
        }
    }

    /// Commits `first`, then batches until nothing waits.
    private func drain(from first: [Waiting]) async {
        var next: [Waiting]? = first
        while let batch = next {
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
            next = nextBatch(after: batch.map(\.request.id))
        }
    }

    /// The next batch, taken out of the queue once the sessions of `committed` (this task's last
    /// batch) are done; nil (and this task no longer counted) when no waiting edit can be taken.
    private func nextBatch(after committed: [String]) -> [Waiting]? {
        lock.withLock {
            sessionsInFlight.subtract(committed)
            let batch = takeBatch(limit: maximumBatch)
            if batch.isEmpty {
                inFlight -= 1
                return nil
            }
            return batch
        }
    }

    /// Takes up to `limit` waiting edits, in order, of sessions not being committed, and marks
    /// their sessions as being committed. Call with the lock held.
    private func takeBatch(limit: Int) -> [Waiting] {
        var batch: [Waiting] = []
        var rest: [Waiting] = []
        for item in waiting {
            if batch.count < limit, sessionsInFlight.insert(item.request.id).inserted {
                batch.append(item)
            } else {
                rest.append(item)
            }
        }
        waiting = rest
        return batch
    }
}
