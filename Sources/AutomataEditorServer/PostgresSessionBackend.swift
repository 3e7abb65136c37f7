import Foundation
import PostgresNIO

/// Sessions in PostgreSQL (postgres-nio's connection pool), shared by every server pointed at
/// the same database. An append is one statement: it bumps the session's version only if it is
/// still the one the server built on, and inserts the edit in the same transaction, so two
/// servers editing one session are serialized by the database and neither edit is lost.
final class PostgresSessionBackend: SessionBackend, @unchecked Sendable {
    let location: SessionStoreLocation.PostgresLocation
    let client: PostgresClient
    /// How long one call may wait for the database before the request is answered with 503.
    let timeout: Duration

    init(location: SessionStoreLocation.PostgresLocation, timeout: Duration = .seconds(10)) {
        self.location = location
        self.timeout = timeout
        let tls: PostgresClient.Configuration.TLS =
            switch location.tls {
            case "require", "verify-full": .require(.makeClientConfiguration())
            case "prefer": .prefer(.makeClientConfiguration())
            default: .disable
            }
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: tls)
        configuration.options.connectTimeout = .seconds(5)
        if let synchronousCommit = location.synchronousCommit {
            configuration.options.additionalStartupParameters = [("synchronous_commit", synchronousCommit)]
        }
        configuration.options.maximumConnections = 32
        var logger = Logger(label: "strokekit.sessions.postgres")
        logger.logLevel = .critical
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    }

    private var name: String { SessionStoreLocation.postgres(location).description }

    /// Batches committed at once, each on its own connection; PostgreSQL flushes the log of
    /// concurrent commits together.
    let concurrentCommits = 8

    func run() async {
        await client.run()
    }

    /// Connects once on its own (so that a refused connection, a wrong password or a missing
    /// database is reported as such, not as a pool waiting) and creates the tables.
    func open() async throws {
        let location = location
        do {
            try await limited {
                let tls: PostgresConnection.Configuration.TLS =
                    location.tls == "disable"
                    ? .disable : try .require(NIOSSLContext(configuration: .makeClientConfiguration()))
                var configuration = PostgresConnection.Configuration(
                    host: location.host, port: location.port, username: location.user, password: location.password,
                    database: location.database, tls: tls)
                configuration.options.connectTimeout = .seconds(5)
                let connection = try await PostgresConnection.connect(
                    on: PostgresClient.defaultEventLoopGroup.any(), configuration: configuration, id: 0, logger: Self.logger
                ).get()
                do {
                    try await Self.createTables(connection)
                } catch {
                    try? await connection.close()
                    throw error
                }
                try await connection.close()
            }
        } catch {
            throw SessionStoreError.cannotOpen(location: name, reason: Self.describe(error))
        }
    }

    private static func createTables(_ connection: PostgresConnection) async throws {
        try await connection.withTransaction(logger: logger) { connection in
            // Two servers starting at once must not race to create the tables.
            try await connection.query("SELECT pg_advisory_xact_lock(2707202611)", logger: logger)
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS editor_sessions (
                    id TEXT PRIMARY KEY,
                    model TEXT NOT NULL,
                    version BIGINT NOT NULL,
                    created_ms BIGINT NOT NULL,
                    last_used_ms BIGINT NOT NULL)
                """, logger: logger)
            try await connection.query(
                "CREATE INDEX IF NOT EXISTS editor_sessions_last_used ON editor_sessions (last_used_ms)", logger: logger)
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS editor_edits (
                    session TEXT NOT NULL REFERENCES editor_sessions (id) ON DELETE CASCADE,
                    version BIGINT NOT NULL,
                    edit TEXT NOT NULL,
                    PRIMARY KEY (session, version))
                """, logger: logger)
        }
    }

    static let logger: Logger = {
        var logger = Logger(label: "strokekit.sessions.postgres")
        logger.logLevel = .critical
        return logger
    }()

    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            if let underlying = error.underlying { return "\(underlying)" }
            return "\(error.code)"
        }
        if let error = error as? SessionStoreError { return error.description }
        return "\(error)"
    }

    /// Runs a call against the database within `timeout`; its failures become `unavailable`.
    ///
    /// The call runs in a task of its own, raced against a timer on an event loop: a database
    /// that stops answering leaves the call waiting (postgres-nio's queries do not end when their
    /// task is cancelled), not the request, which is answered 503 once the time is up. One task
    /// and no timer task: every task started or woken here is a thread to schedule before the
    /// answer, which on a busy machine costs milliseconds each.
    private func limited<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let timeout = timeout
        let name = name
        let race = Race<T>()
        return try await withCheckedThrowingContinuation { continuation in
            race.start(continuation)
            let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
            let timer = PostgresClient.defaultEventLoopGroup.any().scheduleTask(in: .nanoseconds(nanoseconds)) {
                race.finish(.failure(SessionStoreError.unavailable("\(name) did not answer within \(timeout)")))
            }
            Task {
                do {
                    race.finish(.success(try await body()))
                } catch {
                    race.finish(.failure(error))
                }
                timer.cancel()
            }
        }
    }

    /// A continuation resumed by whichever finishes first, the call or its timer.
    private final class Race<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<T, any Error>?

        func start(_ continuation: CheckedContinuation<T, any Error>) {
            lock.withLock { self.continuation = continuation }
        }

        func finish(_ result: Result<T, any Error>) {
            lock.withLock {
                defer { continuation = nil }
                return continuation
            }?.resume(with: result)
        }
    }

    private func attempt<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        do {
            return try await limited(body)
        } catch let error as SessionStoreError {
            throw error
        } catch {
            throw SessionStoreError.unavailable("\(name): \(Self.describe(error))")
        }
    }

    func create(id: String, model: String, now: Int64, cutoff: Int64, cap: Int) async throws -> Bool {
        try await attempt {
            let rows = try await self.client.query("""
                INSERT INTO editor_sessions (id, model, version, created_ms, last_used_ms)
                SELECT \(id), \(model), 0, \(now), \(now)
                WHERE (SELECT count(*) FROM editor_sessions WHERE last_used_ms >= \(cutoff)) < \(cap)
                RETURNING id
                """, logger: Self.logger)
            var count = 0
            for try await _ in rows { count += 1 }
            return count == 1
        }
    }

    func load(id: String, after version: Int, cutoff: Int64, touch now: Int64?) async throws -> StoredSession? {
        try await attempt {
            // One statement: the session's row (touched or not) and the edits after `version`.
            let query: PostgresQuery = now.map { now in
                """
                WITH s AS (UPDATE editor_sessions SET last_used_ms = \(now)
                           WHERE id = \(id) AND last_used_ms >= \(cutoff) RETURNING id, model, version)
                SELECT s.model, s.version, e.version, e.edit FROM s
                LEFT JOIN editor_edits e ON e.session = s.id AND e.version > \(version)
                ORDER BY e.version
                """
            } ?? """
                SELECT s.model, s.version, e.version, e.edit FROM editor_sessions s
                LEFT JOIN editor_edits e ON e.session = s.id AND e.version > \(version)
                WHERE s.id = \(id) AND s.last_used_ms >= \(cutoff)
                ORDER BY e.version
                """
            let rows = try await self.client.query(query, logger: Self.logger)
            var stored: StoredSession?
            for try await (model, current, editVersion, edit) in rows.decode((String, Int, Int?, String?).self) {
                if stored == nil { stored = StoredSession(model: model, version: current, edits: []) }
                if let editVersion, let edit { stored!.edits.append((editVersion, edit)) }
            }
            return stored
        }
    }

    /// One statement (one round trip, one commit): the sessions' rows locked in the order of
    /// their ids (two servers appending to the same sessions cannot deadlock), each version
    /// bumped where it is still the expected one, the edits inserted, and what each request found.
    /// Both statements are prepared once per connection (`PostgresPreparedStatement`): an append
    /// sends only its values, and PostgreSQL neither parses nor plans it again.
    ///
    /// A batch of one edit (most of them, when students draw at a person's pace) takes a simpler
    /// statement, which PostgreSQL plans and runs faster.
    func append(_ requests: [AppendRequest], now: Int64, cutoff: Int64) async throws -> [AppendOutcome] {
        guard !requests.isEmpty else { return [] }
        return try await attempt {
            // Every row is read, to the statement's completion, before an outcome is returned
            // (PostgreSQL sends them with the ReadyForQuery that follows the commit).
            if requests.count == 1 {
                let request = requests[0]
                var outcome: AppendOutcome?
                for try await (appended, live) in try await self.client.execute(
                    AppendOne(id: request.id, expected: request.expected, edit: request.edit, now: now, cutoff: cutoff),
                    logger: Self.logger)
                {
                    outcome = appended ? .appended : live ? .conflict : .missing
                }
                guard let outcome else {
                    throw SessionStoreError.unavailable("\(self.name): no answer for session \(request.id)'s edit")
                }
                return [outcome]
            }
            var found: [String: AppendOutcome] = [:]
            for try await (id, appended, live) in try await self.client.execute(
                AppendBatch(requests: requests, now: now, cutoff: cutoff), logger: Self.logger)
            {
                found[id] = appended ? .appended : live ? .conflict : .missing
            }
            return try requests.map { request in
                guard let outcome = found[request.id] else {
                    throw SessionStoreError.unavailable("\(self.name): no answer for session \(request.id)'s edit")
                }
                return outcome
            }
        }
    }

    /// One edit: the version bumped if still the expected one and the edit inserted, then whether
    /// it was, and whether the session is live (to tell a conflict from a session gone). The
    /// check reads the statement's snapshot, so a session another server bumped meanwhile is live
    /// (a conflict: the edit is made again on the newer session).
    struct AppendOne: PostgresPreparedStatement {
        static let name = "strokekit_append_one"
        static let sql = """
            WITH bumped AS (UPDATE editor_sessions SET version = version + 1, last_used_ms = $1
                            WHERE id = $2 AND version = $3 AND last_used_ms >= $4 RETURNING id, version),
                 inserted AS (INSERT INTO editor_edits (session, version, edit)
                              SELECT id, version, $5 FROM bumped RETURNING version)
            SELECT EXISTS (SELECT 1 FROM inserted),
                   EXISTS (SELECT 1 FROM editor_sessions WHERE id = $2 AND last_used_ms >= $4)
            """
        typealias Row = (Bool, Bool)
        var id: String
        var expected: Int
        var edit: String
        var now: Int64
        var cutoff: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            bindings.append(now)
            bindings.append(id)
            bindings.append(Int64(expected))
            bindings.append(cutoff)
            bindings.append(edit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// Several edits of different sessions in one statement (see `append`).
    struct AppendBatch: PostgresPreparedStatement {
        static let name = "strokekit_append_batch"
        static let sql = """
            WITH input AS MATERIALIZED (
                     SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[]) AS i (id, expected, edit)),
                 locked AS MATERIALIZED (
                     SELECT s.id FROM editor_sessions s WHERE s.id IN (SELECT id FROM input) ORDER BY s.id FOR UPDATE),
                 bumped AS (
                     UPDATE editor_sessions s SET version = s.version + 1, last_used_ms = $4
                     FROM input i, locked l
                     WHERE s.id = i.id AND l.id = i.id AND s.version = i.expected AND s.last_used_ms >= $5
                     RETURNING s.id, s.version),
                 inserted AS (
                     INSERT INTO editor_edits (session, version, edit)
                     SELECT b.id, b.version, i.edit FROM bumped b JOIN input i ON i.id = b.id
                     RETURNING session)
            SELECT i.id, EXISTS (SELECT 1 FROM inserted n WHERE n.session = i.id),
                   EXISTS (SELECT 1 FROM locked l JOIN editor_sessions s ON s.id = l.id
                           WHERE l.id = i.id AND s.last_used_ms >= $5)
            FROM input i
            """
        typealias Row = (String, Bool, Bool)
        var requests: [AppendRequest]
        var now: Int64
        var cutoff: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            bindings.append(requests.map(\.id))
            bindings.append(requests.map { Int64($0.expected) })
            bindings.append(requests.map(\.edit))
            bindings.append(now)
            bindings.append(cutoff)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    func delete(id: String) async throws -> Bool {
        try await attempt {
            let rows = try await self.client.query(
                "DELETE FROM editor_sessions WHERE id = \(id) RETURNING id", logger: Self.logger)
            for try await _ in rows { return true }
            return false
        }
    }

    func expire(before cutoff: Int64) async throws -> Int {
        try await attempt {
            let rows = try await self.client.query(
                "DELETE FROM editor_sessions WHERE last_used_ms < \(cutoff) RETURNING id", logger: Self.logger)
            var count = 0
            for try await _ in rows { count += 1 }
            return count
        }
    }

    func liveCount(cutoff: Int64) async throws -> Int {
        try await attempt {
            let rows = try await self.client.query(
                "SELECT count(*) FROM editor_sessions WHERE last_used_ms >= \(cutoff)", logger: Self.logger)
            for try await count in rows.decode(Int.self) { return count }
            return 0
        }
    }
}
