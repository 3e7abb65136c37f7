@testable import AutomataEditorServer
import Foundation
import Hummingbird
import HummingbirdTesting
import StrokeKit
import Testing

/// Sessions kept in SQLite and PostgreSQL: a server started again on the same store rebuilds
/// every session exactly (undo and redo included), two servers on one database share sessions
/// without losing an edit, a server with another model says so, sessions expire, and store
/// failures are 503s that lose nothing acknowledged. The PostgreSQL cases run when
/// STROKEKIT_TEST_POSTGRES names a database (.ci/run starts one with scripts/test-postgres.sh).
@Suite(.serialized) struct SessionStoreTests {
    typealias Shared = EditorServerTests

    static let postgresURL = ProcessInfo.processInfo.environment["STROKEKIT_TEST_POSTGRES"]
    static let postgresSkipMessage =
        "STROKEKIT_TEST_POSTGRES is not set: no PostgreSQL to test against (.ci/run starts one with scripts/test-postgres.sh)"

    /// A store location for `kind`: a new SQLite file in a new folder, or the test database.
    static func location(_ kind: String, folder: URL) throws -> SessionStoreLocation {
        switch kind {
        case "sqlite": return .sqlite(path: folder.appendingPathComponent("sessions.sqlite").path)
        default: return try SessionStoreLocation(parsing: try #require(postgresURL))
        }
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strokekit-sessions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func server(
        _ location: SessionStoreLocation, model: String = "model-a", ttl: Duration = .seconds(3600),
        limits: EditorLimits = EditorLimits()
    ) throws -> EditorServer {
        try EditorServer(
            classifier: try Shared.classifier.get(), modelChecksum: model, store: location, sessionTTL: ttl, limits: limits)
    }

    /// Runs `body` with a router test client on `server`, its store open.
    static func withClient<T: Sendable>(
        _ server: EditorServer, _ body: @Sendable @escaping (any TestClientProtocol) async throws -> T
    ) async throws -> T {
        try await server.withStore {
            try await Application(router: server.router()).test(.router) { client in try await body(client) }
        }
    }

    static func newSession(_ client: any TestClientProtocol) async throws -> String {
        try await client.execute(uri: "/api/sessions", method: .post) { response in
            #expect(response.status == .ok)
            return try #require(Shared.json(response)["session"] as? String)
        }
    }

    /// The session's answer to GET, as sorted JSON text (the automaton, its history flags,
    /// the stroke count and the version), for comparing servers.
    static func state(_ client: any TestClientProtocol, _ session: String) async throws -> String {
        try await client.execute(uri: "/api/sessions/\(session)", method: .get) { response in
            #expect(response.status == .ok, "GET \(session): \(response.status) \(String(buffer: response.body))")
            var object = Shared.json(response)
            object["message"] = nil
            return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        }
    }

    static func post(
        _ client: any TestClientProtocol, _ uri: String, _ body: String? = nil, headers: HTTPFields = [:]
    ) async throws -> (HTTPResponse.Status, [String: Any]) {
        try await client.execute(uri: uri, method: .post, headers: headers, body: body.map { ByteBuffer(string: $0) }) {
            ($0.status, Shared.json($0))
        }
    }

    static func strokeBody(_ stroke: [[Double]]) -> String {
        String(buffer: Shared.body([stroke]))
    }

    static let kinds = ["sqlite", "postgres"]

    /// Runs `body` with test clients of two servers on one store, both stores open.
    static func withTwoServers(
        _ location: SessionStoreLocation,
        _ body: @Sendable @escaping (any TestClientProtocol, any TestClientProtocol) async throws -> Void
    ) async throws {
        let first = try server(location)
        let second = try server(location)
        try await first.withStore {
            try await second.withStore {
                try await Application(router: first.router()).test(.router) { a in
                    try await Application(router: second.router()).test(.router) { b in try await body(a, b) }
                }
            }
        }
    }

    /// Runs `body` on a store of `kind` (a new SQLite file, or the test database); says the
    /// PostgreSQL case is skipped when there is no database.
    static func withLocation(_ kind: String, _ body: (SessionStoreLocation) async throws -> Void) async throws {
        if kind == "postgres", postgresURL == nil {
            print("skipped (PostgreSQL): \(postgresSkipMessage)")
            return
        }
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(try location(kind, folder: folder))
    }

    // MARK: - Restart

    @Test(.enabled(if: Shared.enabled, "the bundled model is missing from this build"), arguments: kinds)
    func aRestartedServerRebuildsTheSessionWithItsHistory(kind: String) async throws {
        try await Self.withLocation(kind) { location in
            // The first server: a diagram, symbols, a final state, an erased state, an undo.
            let (session, before, afterUndo) = try await Self.withClient(try Self.server(location)) { client in
                let session = try await Self.newSession(client)
                let transition = try await Shared.drawTwoStates(client, session)
                let api = "/api/sessions/\(session)"
                #expect(try await Self.post(client, "\(api)/transitions/\(transition)/symbols", #"{"symbols": ["a"]}"#).0 == .ok)
                #expect(try await Self.post(client, "\(api)/strokes", Self.strokeBody(Shared.circle(420, 100, 30))).0 == .ok)
                #expect(try await Self.post(client, "\(api)/erase", Self.strokeBody([[410, 90], [430, 110]])).0 == .ok)
                #expect(try await Self.post(client, "\(api)/undo").0 == .ok)
                #expect(try await Self.post(client, "\(api)/undo").0 == .ok)
                let afterUndo = try await Self.state(client, session)
                #expect(try await Self.post(client, "\(api)/redo").0 == .ok)
                return (session, try await Self.state(client, session), afterUndo)
            }
            #expect(before.contains(#""canRedo":true"#) && before.contains(#""canUndo":true"#), "\(before)")

            // A new server on the same store: the same answer, and the same history behind it.
            try await Self.withClient(try Self.server(location)) { client in
                #expect(try await Self.state(client, session) == before)
                #expect(try await Self.post(client, "/api/sessions/\(session)/undo").0 == .ok)
                let undone = try await Self.state(client, session)
                // The version moves on (the undo is an edit); everything else is what it was.
                func withoutVersion(_ text: String) -> String { text.replacingOccurrences(of: #""version":\d+"#, with: "", options: .regularExpression) }
                #expect(withoutVersion(undone) == withoutVersion(afterUndo))
            }
        }
    }

    // MARK: - Two servers

    @Test(.enabled(if: Shared.enabled, "the bundled model is missing from this build"), arguments: kinds)
    func twoServersOnOneDatabaseShareSessionsAndLoseNoEdit(kind: String) async throws {
        try await Self.withLocation(kind) { location in
            try await Self.withTwoServers(location) { a, b in
                // Requests alternate between the servers, stroke after stroke.
                let session = try await Self.newSession(a)
                let strokes = [
                    Shared.circle(100, 100, 30), Shared.circle(260, 100, 30),
                    Shared.arrow(from: (20, 100), to: (68, 100)), Shared.arrow(from: (132, 100), to: (226, 100)),
                    Shared.circle(420, 100, 30), Shared.circle(420, 100, 40),
                ]
                for (index, stroke) in strokes.enumerated() {
                    let client = index % 2 == 0 ? a : b
                    let (status, answer) = try await Self.post(client, "/api/sessions/\(session)/strokes", Self.strokeBody(stroke))
                    #expect(status == .ok)
                    #expect(answer["version"] as? Int == index + 1, "stroke \(index) through server \(index % 2)")
                }
                #expect(try await Self.post(b, "/api/sessions/\(session)/undo").0 == .ok)
                #expect(try await Self.state(a, session) == Self.state(b, session))

                // Both servers draw into the session at once: every stroke answered is kept.
                let answered = try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<12 {
                        let client = index % 2 == 0 ? a : b
                        let stroke = Shared.circle(100 + Double(index % 4) * 150, 400 + Double(index / 4) * 150, 30)
                        group.addTask {
                            let (status, answer) = try await Self.post(
                                client, "/api/sessions/\(session)/strokes", Self.strokeBody(stroke))
                            #expect(status == .ok || status == .conflict, "\(status): \(answer)")
                            return status == .ok ? 1 : 0
                        }
                    }
                    return try await group.reduce(0, +)
                }
                let finalState = try await Self.state(a, session)
                #expect(finalState == (try await Self.state(b, session)))
                #expect(finalState.contains(#""strokesReceived":\#(strokes.count + answered)"#), "\(answered) answered: \(finalState)")

                // An undo sent with the version before another server's edit is a 409.
                let (_, seen) = try await Self.post(a, "/api/sessions/\(session)/strokes", Self.strokeBody(Shared.circle(700, 700, 30)))
                let version = try #require(seen["version"] as? Int)
                #expect(try await Self.post(b, "/api/sessions/\(session)/strokes", Self.strokeBody(Shared.circle(900, 700, 30))).0 == .ok)
                let stale: HTTPFields = [.ifMatch: "\"\(version)\""]
                let (status, refused) = try await Self.post(a, "/api/sessions/\(session)/undo", headers: stale)
                #expect(status == .conflict)
                let message = (refused["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(message.contains("changed since version \(version)"), "\(message)")
                // A drawing sent with the same stale version merges.
                #expect(try await Self.post(a, "/api/sessions/\(session)/strokes", Self.strokeBody(Shared.circle(1100, 700, 30)), headers: stale).0 == .ok)
            }
        }
    }

    @Test(.enabled(if: Shared.enabled, "the bundled model is missing from this build"))
    func aServerWithAnotherModelSaysSo() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let location = try Self.location("sqlite", folder: folder)
        let session = try await Self.withClient(try Self.server(location, model: "model-a")) { client in
            try await Self.newSession(client)
        }
        try await Self.withClient(try Self.server(location, model: "model-b")) { client in
            try await client.execute(uri: "/api/sessions/\(session)", method: .get) { response in
                #expect(response.status == .conflict)
                #expect(Shared.errorMessage(response).contains("another model"))
            }
            let (status, _) = try await Self.post(client, "/api/sessions/\(session)/strokes", Self.strokeBody(Shared.circle(100, 100, 30)))
            #expect(status == .conflict)
        }
    }

    // MARK: - Lifetime and limits

    @Test(.enabled(if: Shared.enabled, "the bundled model is missing from this build"))
    func sessionsExpireAndTheCapCountsLiveSessions() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try Self.server(
            try Self.location("sqlite", folder: folder), ttl: .milliseconds(600), limits: EditorLimits(maximumSessions: 2))
        try await Self.withClient(server) { client in
            let old = try await Self.newSession(client)
            _ = try await Self.newSession(client)
            try await client.execute(uri: "/api/sessions", method: .post) { response in
                #expect(response.status == .tooManyRequests)
                #expect(Shared.errorMessage(response).contains("2 live sessions"))
            }
            try await Task.sleep(for: .milliseconds(800))
            // Both expired: they no longer count, and the old one is gone.
            _ = try await Self.newSession(client)
            _ = try await Self.newSession(client)
            try await client.execute(uri: "/api/sessions/\(old)", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(Shared.errorMessage(response).contains("expired"))
            }
            #expect(try await server.store.backend.liveCount(cutoff: 0) == 2, "expired rows deleted from the store")
            #expect(server.store.cachedCount <= 2)
        }
    }

    @Test(.enabled(if: Shared.enabled, "the bundled model is missing from this build"))
    func aFullDiskIsA503AndLosesNothingAcknowledged() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("sessions.sqlite").path
        // SQLite's max_page_count: the file cannot grow past 16 pages, as on a full disk.
        let full = try EditorServer(
            classifier: try Shared.classifier.get(), modelChecksum: "model-a",
            backend: SQLiteSessionBackend(path: path, maximumPageCount: 16), location: .sqlite(path: path),
            sessionTTL: .seconds(3600), limits: EditorLimits())
        let (session, acknowledged, before) = try await Self.withClient(full) { client in
            let session = try await Self.newSession(client)
            var acknowledged = 0
            for index in 0..<400 {
                let stroke = Shared.circle(100 + Double(index % 10) * 90, 100 + Double(index / 10) * 90, 30)
                let (status, answer) = try await Self.post(client, "/api/sessions/\(session)/strokes", Self.strokeBody(stroke))
                if status == .ok {
                    acknowledged += 1
                    continue
                }
                #expect(status == .serviceUnavailable)
                let message = (answer["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(message.contains("full") && message.contains("not acknowledged"), "\(message)")
                break
            }
            #expect(acknowledged > 0 && acknowledged < 400, "the store filled up after \(acknowledged) strokes")
            return (session, acknowledged, try await Self.state(client, session))
        }
        try await Self.withClient(try Self.server(.sqlite(path: path))) { client in
            let after = try await Self.state(client, session)
            #expect(after == before)
            #expect(after.contains(#""strokesReceived":\#(acknowledged)"#))
        }
    }

    @Test func aStoreThatCannotBeOpenedIsAClearError() async throws {
        let classifier = try Shared.classifier.get()
        let missing = try EditorServer(
            classifier: classifier, store: .sqlite(path: "/nonexistent-folder/sessions.sqlite"))
        await #expect {
            try await missing.withStore { () }
        } throws: { error in
            "\(error)".contains("cannot open the session store sqlite:/nonexistent-folder/sessions.sqlite")
        }
        /// The error of opening a server on the PostgreSQL at `url`, given `timeout` to answer.
        func openingError(_ url: String, timeout: Duration) async throws -> String {
            let location = try SessionStoreLocation(parsing: url)
            guard case let .postgres(postgres) = location else { throw SessionStoreError.badLocation("not postgres") }
            let server = try EditorServer(
                classifier: classifier, modelChecksum: "model-a",
                backend: PostgresSessionBackend(location: postgres, timeout: timeout), location: location,
                sessionTTL: .seconds(3600), limits: EditorLimits())
            do {
                try await server.withStore { () }
                return "opened"
            } catch {
                return "\(error)"
            }
        }
        // Nothing listens on port 1 of loopback (given a second to answer instead of ten).
        let refused = try await openingError("postgres://someone:secret@127.0.0.1:1/db", timeout: .seconds(1))
        #expect(refused.contains("cannot open the session store postgres://someone@127.0.0.1:1/db"), "\(refused)")
        #expect(!refused.contains("secret"))
        // A listener that never answers (the kernel accepts the connection; nobody speaks):
        // opening gives up after the backend's timeout instead of waiting for ever.
        let silent = try SilentListener()
        let mute = try await openingError("postgres://someone@127.0.0.1:\(silent.port)/db", timeout: .milliseconds(500))
        #expect(mute.contains("did not answer within"), "\(mute)")
        #expect(throws: SessionStoreError.self) { try SessionStoreLocation(parsing: "mysql://x") }
        #expect(try parseEditorDuration("7d") == .seconds(7 * 86_400))
        #expect(try parseEditorDuration("90") == .seconds(90))
        #expect(throws: EditorOptionError.self) { try parseEditorDuration("soon") }
    }
}

/// A TCP socket listening on a free loopback port that never reads nor writes.
final class SilentListener {
    let descriptor: Int32
    let port: Int

    init() throws {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(socketDescriptor, 8) == 0 else {
            close(socketDescriptor)
            throw SessionStoreError.unavailable("cannot listen on loopback")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketDescriptor, $0, &length) }
        }
        descriptor = socketDescriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
