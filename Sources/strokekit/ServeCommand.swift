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
            """)

    @Option(name: .long, help: "Address to listen on (0.0.0.0 for every interface).")
    var host = "127.0.0.1"

    @Option(name: .long, help: "Port to listen on (0: any free port).")
    var port = 8080

    @Option(name: .long, help: "Classifier model file (default: the bundled model).")
    var model: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port) is not a port (0...65535)") }
    }

    func run() throws {
        let server = try EditorServer(classifier: loadClassifier(modelPath: model))
        let host = host
        let port = port
        // The root command is synchronous; run the server on the concurrency pool and wait.
        let finished = DispatchSemaphore(value: 0)
        let failure = FailureBox()
        Task {
            do {
                try await server.run(host: host, port: port) { bound in
                    // One line on stdout that scripts read; Ctrl-C stops the server.
                    let line = "strokekit serve: the editor is at http://\(host):\(bound)/\n"
                    FileHandle.standardOutput.write(Data(line.utf8))
                }
            } catch {
                failure.error = error
            }
            finished.signal()
        }
        finished.wait()
        if let error = failure.error { throw CLIError("the server stopped: \(error)") }
    }
}

private final class FailureBox: @unchecked Sendable {
    var error: (any Error)?
}
