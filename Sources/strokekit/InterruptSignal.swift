import Dispatch
import Foundation

/// Ctrl-C (SIGINT) as a flag a long job polls, instead of the default immediate exit: the
/// trainer finishes its batch, writes its checkpoint and stops. A second Ctrl-C exits at once.
final class InterruptSignal: @unchecked Sendable {
    static let shared = InterruptSignal()

    private let lock = NSLock()
    private var raised = false
    private var source: DispatchSourceSignal?

    /// True once SIGINT has arrived.
    var isRaised: Bool {
        lock.lock(); defer { lock.unlock() }
        return raised
    }

    /// Starts catching SIGINT (idempotent).
    func install() {
        lock.lock(); defer { lock.unlock() }
        guard source == nil else { return }
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [self] in
            lock.lock()
            let second = raised
            raised = true
            lock.unlock()
            if second { exit(130) }
            Terminal.note("interrupt: finishing the current batch and writing the checkpoint (Ctrl-C again to quit now)")
        }
        source.resume()
        self.source = source
    }
}
