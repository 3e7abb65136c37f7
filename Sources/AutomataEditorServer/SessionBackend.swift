import Foundation

/// Where the editor keeps its sessions, as `strokekit serve --store` names it.
///
///     sqlite:sessions.sqlite                      one server; a file beside it (WAL mode)
///     sqlite:sessions.sqlite?sync=normal          ... flushed to the disk at checkpoints only
///     postgres://user:password@host:5432/db       several servers sharing their sessions
///     memory:                                     nothing kept on disk (tests only)
///
/// Every edit is committed before it is answered. With SQLite, each commit is flushed to the
/// disk (`synchronous = FULL`), so an acknowledged edit survives the server being killed and
/// the machine losing power; `?sync=normal` writes commits to the WAL file at once but flushes
/// it at checkpoints only (`synchronous = NORMAL`): still safe when the server is killed, not
/// when the power is cut. PostgreSQL follows the database's `synchronous_commit` (on by
/// default), which `?synchronous_commit=off` relaxes for the server's own connections.
public enum SessionStoreLocation: Sendable, Equatable, CustomStringConvertible {
    case memory
    case sqlite(path: String, syncEveryCommit: Bool = true)
    case postgres(PostgresLocation)

    /// The default: `sessions.sqlite` in the working directory.
    public static let defaultLocation = SessionStoreLocation.sqlite(path: "sessions.sqlite")

    public struct PostgresLocation: Sendable, Equatable {
        public var host: String
        public var port: Int
        public var user: String
        public var password: String?
        public var database: String
        /// `sslmode=require` (or `verify-full`): TLS is required; `prefer`; otherwise plain.
        public var tls: String
        /// `synchronous_commit` for this server's connections; nil: the database's setting.
        public var synchronousCommit: String?
    }

    /// Parses `sqlite:PATH`, `postgres://…` (or `postgresql://…`) and `memory:`.
    public init(parsing text: String) throws {
        if text == "memory:" || text == "memory" {
            self = .memory
        } else if text.hasPrefix("sqlite:") {
            var path = String(text.dropFirst("sqlite:".count))
            var syncEveryCommit = true
            if let question = path.lastIndex(of: "?") {
                let option = path[path.index(after: question)...]
                switch option {
                case "sync=full": syncEveryCommit = true
                case "sync=normal": syncEveryCommit = false
                default:
                    throw SessionStoreError.badLocation("\"\(text)\": unknown option \"\(option)\" (sync=full or sync=normal)")
                }
                path = String(path[..<question])
            }
            if path.hasPrefix("//") { path = String(path.dropFirst(2)) }  // sqlite:///abs/path
            guard !path.isEmpty else {
                throw SessionStoreError.badLocation("\"\(text)\": sqlite: needs a file path, e.g. sqlite:sessions.sqlite")
            }
            self = .sqlite(path: path, syncEveryCommit: syncEveryCommit)
        } else if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            guard let components = URLComponents(string: text), let host = components.host, !host.isEmpty else {
                throw SessionStoreError.badLocation(
                    "\"\(Self.redacted(text))\" is not a PostgreSQL URL like postgres://user:password@127.0.0.1:5432/strokekit")
            }
            let user = components.user ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
            var database = components.path
            if database.hasPrefix("/") { database.removeFirst() }
            let items = components.queryItems ?? []
            if let unknown = items.first(where: { !["sslmode", "synchronous_commit"].contains($0.name) }) {
                throw SessionStoreError.badLocation("unknown option \"\(unknown.name)\" (sslmode, synchronous_commit)")
            }
            let mode = items.first { $0.name == "sslmode" }?.value ?? "disable"
            let synchronousCommit = items.first { $0.name == "synchronous_commit" }?.value
            if let synchronousCommit, !["on", "off", "local", "remote_write", "remote_apply"].contains(synchronousCommit) {
                throw SessionStoreError.badLocation("synchronous_commit=\(synchronousCommit): expected on, off, local, remote_write or remote_apply")
            }
            guard ["disable", "prefer", "require", "verify-full"].contains(mode) else {
                throw SessionStoreError.badLocation("sslmode=\(mode): expected disable, prefer, require or verify-full")
            }
            self = .postgres(PostgresLocation(
                host: host, port: components.port ?? 5432, user: user,
                password: components.password?.removingPercentEncoding ?? components.password,
                database: database.isEmpty ? user : database, tls: mode, synchronousCommit: synchronousCommit))
        } else {
            throw SessionStoreError.badLocation(
                "\"\(Self.redacted(text))\": expected sqlite:PATH, postgres://user:password@host:port/database or memory:")
        }
    }

    /// The location for messages and logs, without a password.
    public var description: String {
        switch self {
        case .memory: return "memory:"
        case let .sqlite(path, syncEveryCommit): return "sqlite:\(path)" + (syncEveryCommit ? "" : "?sync=normal")
        case let .postgres(location):
            return "postgres://\(location.user)@\(location.host):\(location.port)/\(location.database)"
                + (location.synchronousCommit.map { "?synchronous_commit=\($0)" } ?? "")
        }
    }

    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? text
    }
}

/// A store failure, with the words the server answers with.
public enum SessionStoreError: Error, CustomStringConvertible, Equatable {
    /// `--store` is not a location.
    case badLocation(String)
    /// The store could not be opened at start (missing folder, database unreachable, bad schema).
    case cannotOpen(location: String, reason: String)
    /// A read or write failed while serving (disk full, database gone): the request did nothing.
    case unavailable(String)
    /// A stored edit cannot be read back.
    case corrupt(String)

    public var description: String {
        switch self {
        case let .badLocation(problem): return "--store \(problem)"
        case let .cannotOpen(location, reason): return "cannot open the session store \(location): \(reason)"
        case let .unavailable(reason): return "the session store is unavailable: \(reason)"
        case let .corrupt(problem): return "the session store holds an unreadable edit: \(problem)"
        }
    }
}

/// A session's row: which model it was drawn with, its version (the number of edits kept) and
/// the edits after the version the caller already has.
struct StoredSession: Sendable {
    var model: String
    var version: Int
    /// `(version, encoded edit)` in order, versions following each other from the caller's.
    var edits: [(version: Int, edit: String)]
}

/// One edit to append: version `expected + 1` of session `id`, if the session is still at `expected`.
struct AppendRequest: Sendable, Equatable {
    var id: String
    var expected: Int
    var edit: String
}

/// What appending an edit found.
enum AppendOutcome: Sendable, Equatable {
    case appended
    /// Another request (here or on another server) appended first: the session is past `expected`.
    case conflict
    /// The session is gone (deleted or expired).
    case missing
}

/// A session store's backend: sessions, each with a version and its edits in order. Every
/// write is committed when the call returns. Times are milliseconds since 1970; a session whose
/// `lastUsed` is before `cutoff` is expired and treated as absent. Errors other than the
/// outcomes are failures of the store itself (the server answers 503).
protocol SessionBackend: Sendable {
    /// Background work (a connection pool) while the server runs; returns when cancelled.
    func run() async
    /// Opens the store and creates its tables when missing; throws `cannotOpen`.
    func open() async throws
    /// Creates an empty session unless `cap` live sessions exist; false when full.
    func create(id: String, model: String, now: Int64, cutoff: Int64, cap: Int) async throws -> Bool
    /// The session's model, version and edits after `version`; nil when absent or expired.
    /// With `touch`, its idle time starts again.
    func load(id: String, after version: Int, cutoff: Int64, touch now: Int64?) async throws -> StoredSession?
    /// Batches of appends committed at once (1: one writer).
    var concurrentCommits: Int { get }
    /// Appends each request's edit as its session's next version if the session is still at the
    /// version the request expects, all in one transaction (one commit, one disk flush), and
    /// returns what each found, in order. At most one request per session (`AppendQueue` sees to
    /// it). A thrown error means nothing of the batch was committed.
    func append(_ requests: [AppendRequest], now: Int64, cutoff: Int64) async throws -> [AppendOutcome]
    /// Deletes a session and its edits; false when it was absent.
    func delete(id: String) async throws -> Bool
    /// Deletes every session idle since before `cutoff`; returns how many.
    func expire(before cutoff: Int64) async throws -> Int
    /// Live sessions (not expired).
    func liveCount(cutoff: Int64) async throws -> Int
}
