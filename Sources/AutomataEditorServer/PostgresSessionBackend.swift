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
    private func limited<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let timeout = timeout
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let value = try await group.next() ?? nil else {
                throw SessionStoreError.unavailable("\(self.name) did not answer within \(timeout)")
            }
            return value
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
    ///
    /// A batch of one edit (most of them, when students draw at a person's pace) takes a simpler
    /// statement, which PostgreSQL plans and runs faster.
    func append(_ requests: [AppendRequest], now: Int64, cutoff: Int64) async throws -> [AppendOutcome] {
        if requests.count == 1 { return [try await appendOne(requests[0], now: now, cutoff: cutoff)] }
        guard !requests.isEmpty else { return [] }
        return try await attempt {
            let ids = requests.map(\.id)
            let expected = requests.map(\.expected)
            let edits = requests.map(\.edit)
            let rows = try await self.client.query("""
                WITH input AS MATERIALIZED (
                         SELECT * FROM unnest(\(ids)::text[], \(expected)::bigint[], \(edits)::text[]) AS i (id, expected, edit)),
                     locked AS MATERIALIZED (
                         SELECT s.id FROM editor_sessions s WHERE s.id IN (SELECT id FROM input) ORDER BY s.id FOR UPDATE),
                     bumped AS (
                         UPDATE editor_sessions s SET version = s.version + 1, last_used_ms = \(now)
                         FROM input i, locked l
                         WHERE s.id = i.id AND l.id = i.id AND s.version = i.expected AND s.last_used_ms >= \(cutoff)
                         RETURNING s.id, s.version),
                     inserted AS (
                         INSERT INTO editor_edits (session, version, edit)
                         SELECT b.id, b.version, i.edit FROM bumped b JOIN input i ON i.id = b.id
                         RETURNING session)
                SELECT i.id, EXISTS (SELECT 1 FROM inserted n WHERE n.session = i.id),
                       EXISTS (SELECT 1 FROM locked l JOIN editor_sessions s ON s.id = l.id
                               WHERE l.id = i.id AND s.last_used_ms >= \(cutoff))
                FROM input i
                """, logger: Self.logger)
            var found: [String: AppendOutcome] = [:]
            for try await (id, appended, live) in rows.decode((String, Bool, Bool).self) {
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

    private func appendOne(_ request: AppendRequest, now: Int64, cutoff: Int64) async throws -> AppendOutcome {
        try await attempt {
            let (id, expected, edit) = (request.id, request.expected, request.edit)
            let rows = try await self.client.query("""
                WITH bumped AS (UPDATE editor_sessions SET version = version + 1, last_used_ms = \(now)
                                WHERE id = \(id) AND version = \(expected) AND last_used_ms >= \(cutoff) RETURNING id)
                INSERT INTO editor_edits (session, version, edit) SELECT id, \(expected + 1), \(edit) FROM bumped
                RETURNING version
                """, logger: Self.logger)
            var appended = 0
            for try await _ in rows { appended += 1 }
            if appended == 1 { return .appended }
            let live = try await self.client.query(
                "SELECT 1 FROM editor_sessions WHERE id = \(id) AND last_used_ms >= \(cutoff)", logger: Self.logger)
            for try await _ in live { return .conflict }
            return .missing
        }
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
