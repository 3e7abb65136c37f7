import ArgumentParser
import AutomataEditorServer
import Dispatch
import Foundation

/// `strokekit serve`: the automata editor in the browser.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the automata editor to a browser: draw, recognize, simulate.",
        discussion: """
            Open the printed address in a browser (a laptop, tablet or phone): draw states and \
            transitions with a pen, finger or mouse, type symbols, simulate words. The server \
            listens on loopback unless --host says otherwise; the JSON API is under /api/ \
            (docs/editor.md). --port 0 takes any free port. Ctrl-C stops it.

            Sessions are kept in --store, every edit committed before it is answered, so a \
            restarted server (after a crash, kill -9 or a reboot) gives every student their \
            drawing back with its undo history: sqlite:FILE (the default, sessions.sqlite in \
            the working directory) for one server, postgres://user:password@host:port/database \
            for several servers sharing sessions behind a balancer (docs/deployment.md). \
            memory: keeps nothing (tests and measurements only).
            """)

    @Option(name: .long, help: "Address to listen on (0.0.0.0 for every interface).")
    var host = "127.0.0.1"

    @Option(name: .long, help: "Port to listen on (0: any free port).")
    var port = 8080

    @Option(name: .long, help: "Classifier model file (default: the bundled model).")
    var model: String?

    @Option(name: .long, help: "Session store: sqlite:FILE, postgres://user:password@host:port/database, or memory:.")
    var store = "sqlite:sessions.sqlite"

    @Option(name: .long, help: "Idle time after which a session expires (7d, 12h, 30m, 90s).")
    var sessionTTL = "7d"

    @Option(name: .long, help: "Most live sessions at once; a new visitor beyond it is told to try later.")
    var maxSessions = EditorLimits().maximumSessions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port) is not a port (0...65535)") }
        guard maxSessions > 0 else { throw ValidationError("--max-sessions \(maxSessions) must be at least 1") }
        do {
            _ = try SessionStoreLocation(parsing: store)
            _ = try parseEditorDuration(sessionTTL)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func run() throws {
        let (classifier, checksum) = try loadClassifierAndChecksum(modelPath: model)
        var limits = EditorLimits()
        limits.maximumSessions = maxSessions
        let location = try SessionStoreLocation(parsing: store)
        let server = try EditorServer(
            classifier: classifier, modelChecksum: checksum, store: location,
            sessionTTL: try parseEditorDuration(sessionTTL), limits: limits)
        let host = host
        let port = port
        // The root command is synchronous; run the server on the concurrency pool and wait.
        let finished = DispatchSemaphore(value: 0)
        let failure = FailureBox()
        Task {
            do {
                try await server.run(host: host, port: port) { bound in
                    // One line on stdout that scripts read; Ctrl-C stops the server.
                    let line = "strokekit serve: the editor is at http://\(host):\(bound)/ (sessions in \(location))\n"
                    FileHandle.standardOutput.write(Data(line.utf8))
                }
            } catch {
                failure.error = error
            }
            finished.signal()
        }
        finished.wait()
        if let error = failure.error as? SessionStoreError { throw CLIError("\(error)") }
        if let error = failure.error { throw CLIError("the server stopped: \(error)") }
    }
}

private final class FailureBox: @unchecked Sendable {
    var error: (any Error)?
}
