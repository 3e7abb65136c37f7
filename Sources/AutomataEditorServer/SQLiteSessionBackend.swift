import Foundation
import GRDB

/// Sessions in one SQLite file (GRDB's `DatabasePool`: WAL mode, readers beside one writer).
/// Every append is a transaction committed before the server answers. With `syncEveryCommit`
/// (the default) each commit is flushed to the disk (`synchronous = FULL`), so an acknowledged
/// edit survives a power cut; without, it is written to the WAL file and flushed at checkpoints
/// (`synchronous = NORMAL`), which survives the process being killed but not a power cut.
final class SQLiteSessionBackend: SessionBackend, @unchecked Sendable {
    let path: String
    let syncEveryCommit: Bool
    /// Largest file in pages (SQLite's `max_page_count`); nil: no limit but the disk's.
    let maximumPageCount: Int?
    private let lock = NSLock()
    private var pool: DatabasePool?

    init(path: String, syncEveryCommit: Bool = true, maximumPageCount: Int? = nil) {
        self.path = path
        self.syncEveryCommit = syncEveryCommit
        self.maximumPageCount = maximumPageCount
    }

    /// One writer: batches are committed one after the other.
    let concurrentCommits = 1

    func run() async {}

    func open() async throws {
        var configuration = Configuration()
        // Another process writing the same file (a second server) waits instead of failing.
        configuration.busyMode = .timeout(10)
        let pageLimit = maximumPageCount
        let synchronous = syncEveryCommit ? "FULL" : "NORMAL"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
            if let pageLimit { try db.execute(sql: "PRAGMA max_page_count = \(pageLimit)") }
        }
        do {
            let pool = try DatabasePool(path: path, configuration: configuration)
            try await pool.write { db in
                try db.execute(sql: """
                    CREATE TABLE IF NOT EXISTS editor_sessions (
                        id TEXT PRIMARY KEY NOT NULL,
                        model TEXT NOT NULL,
                        version INTEGER NOT NULL,
                        created_ms INTEGER NOT NULL,
                        last_used_ms INTEGER NOT NULL);
                    CREATE INDEX IF NOT EXISTS editor_sessions_last_used ON editor_sessions (last_used_ms);
                    CREATE TABLE IF NOT EXISTS editor_edits (
                        session TEXT NOT NULL REFERENCES editor_sessions (id) ON DELETE CASCADE,
                        version INTEGER NOT NULL,
                        edit TEXT NOT NULL,
                        PRIMARY KEY (session, version)) WITHOUT ROWID;
                    """)
            }
            lock.withLock { self.pool = pool }
        } catch {
            throw SessionStoreError.cannotOpen(location: "sqlite:\(path)", reason: Self.describe(error))
        }
    }

    private var database: DatabasePool {
        get throws {
            guard let pool = lock.withLock({ pool }) else { throw SessionStoreError.unavailable("sqlite:\(path) is not open") }
            return pool
        }
    }

    /// Runs a store call; SQLite's errors (disk full, I/O error, locked) become `unavailable`.
    private func attempt<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as SessionStoreError {
            throw error
        } catch {
            throw SessionStoreError.unavailable("sqlite:\(path): \(Self.describe(error))")
        }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "\(error.resultCode)"
        }
        return "\(error)"
    }

    func create(id: String, model: String, now: Int64, cutoff: Int64, cap: Int) async throws -> Bool {
        try await attempt {
            try await database.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO editor_sessions (id, model, version, created_ms, last_used_ms)
                        SELECT ?, ?, 0, ?, ? WHERE (SELECT count(*) FROM editor_sessions WHERE last_used_ms >= ?) < ?
                        """,
                    arguments: [id, model, now, now, cutoff, cap])
                return db.changesCount == 1
            }
        }
    }

    func load(id: String, after version: Int, cutoff: Int64, touch now: Int64?) async throws -> StoredSession? {
        try await attempt {
            let fetch: @Sendable (Database) throws -> StoredSession? = { db in
                guard let row = try Row.fetchOne(
                    db, sql: "SELECT model, version FROM editor_sessions WHERE id = ? AND last_used_ms >= ?",
                    arguments: [id, cutoff])
                else { return nil }
                let edits = try Row.fetchAll(
                    db, sql: "SELECT version, edit FROM editor_edits WHERE session = ? AND version > ? ORDER BY version",
                    arguments: [id, version]
                ).map { (version: $0[0] as Int, edit: $0[1] as String) }
                return StoredSession(model: row[0], version: row[1], edits: edits)
            }
            if let now {
                return try await database.write { db in
                    try db.execute(
                        sql: "UPDATE editor_sessions SET last_used_ms = ? WHERE id = ? AND last_used_ms >= ?",
                        arguments: [now, id, cutoff])
                    return db.changesCount == 0 ? nil : try fetch(db)
                }
            }
            return try await database.read(fetch)
        }
    }

    func append(_ requests: [AppendRequest], now: Int64, cutoff: Int64) async throws -> [AppendOutcome] {
        try await attempt {
            try await database.write { db in
                let bump = try db.cachedStatement(sql: """
                    UPDATE editor_sessions SET version = version + 1, last_used_ms = ?
                    WHERE id = ? AND version = ? AND last_used_ms >= ?
                    """)
                let insert = try db.cachedStatement(sql: "INSERT INTO editor_edits (session, version, edit) VALUES (?, ?, ?)")
                return try requests.map { request in
                    try bump.execute(arguments: [now, request.id, request.expected, cutoff])
                    guard db.changesCount == 1 else {
                        let live = try Bool.fetchOne(
                            db, sql: "SELECT 1 FROM editor_sessions WHERE id = ? AND last_used_ms >= ?",
                            arguments: [request.id, cutoff])
                        return live == true ? .conflict : .missing
                    }
                    try insert.execute(arguments: [request.id, request.expected + 1, request.edit])
                    return .appended
                }
            }
        }
    }

    func delete(id: String) async throws -> Bool {
        try await attempt {
            try await database.write { db in
                try db.execute(sql: "DELETE FROM editor_sessions WHERE id = ?", arguments: [id])
                return db.changesCount == 1
            }
        }
    }

    func expire(before cutoff: Int64) async throws -> Int {
        try await attempt {
            try await database.write { db in
                try db.execute(sql: "DELETE FROM editor_sessions WHERE last_used_ms < ?", arguments: [cutoff])
                return db.changesCount
            }
        }
    }

    func liveCount(cutoff: Int64) async throws -> Int {
        try await attempt {
            try await database.read { db in
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM editor_sessions WHERE last_used_ms >= ?", arguments: [cutoff]) ?? 0
            }
        }
    }
}
