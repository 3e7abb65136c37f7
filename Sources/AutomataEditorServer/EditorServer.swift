import AutomataSketch
import Foundation
import Hummingbird
import StrokeImage
import StrokeKit

/// The browser editor's server: the page and its assets at `/`, the JSON API under `/api/`
/// (docs/editor.md lists the routes; docs/deployment.md the stores). One classifier serves every session;
/// each session is one person's sketch with its own undo history, kept in a session store
/// (`SessionStoreLocation`) as its edits in order, committed before the answer is sent.
extension HTTPFields {
    /// The `Server-Timing` header.
    var serverTiming: String? {
        get { self[.init("Server-Timing")!] }
        set { self[.init("Server-Timing")!] = newValue }
    }
}

public struct EditorServer: Sendable {
    let store: SessionStore
    let location: SessionStoreLocation
    let limits: EditorLimits
    let page: PageAssets

    /// A server that reads drawings with `classifier` (loaded once, shared by all sessions),
    /// whose model file has the checksum `modelChecksum` (sessions drawn with another model are
    /// refused, since they would be read differently). Sessions idle longer than `sessionTTL`
    /// expire. The store is opened by `run` (or `withStore`), not here.
    public init(
        classifier: any StrokeClassifying, modelChecksum: String = "unspecified",
        store location: SessionStoreLocation = .memory, sessionTTL: Duration = .seconds(7 * 24 * 3600),
        limits: EditorLimits = EditorLimits()
    ) throws {
        let backend: any SessionBackend
        switch location {
        case .memory: backend = MemorySessionBackend()
        case let .sqlite(path, syncEveryCommit): backend = SQLiteSessionBackend(path: path, syncEveryCommit: syncEveryCommit)
        case let .postgres(postgres): backend = PostgresSessionBackend(location: postgres)
        }
        try self.init(
            classifier: classifier, modelChecksum: modelChecksum, backend: backend, location: location,
            sessionTTL: sessionTTL, limits: limits)
    }

    init(
        classifier: any StrokeClassifying, modelChecksum: String, backend: any SessionBackend,
        location: SessionStoreLocation, sessionTTL: Duration, limits: EditorLimits
    ) throws {
        store = SessionStore(
            backend: backend, classifier: classifier, model: modelChecksum, maximumSessions: limits.maximumSessions,
            timeToLive: sessionTTL)
        self.location = location
        self.limits = limits
        page = try PageAssets.load()
    }

    /// The application listening on `host:port` (port 0: any free port); `onRunning` gets the
    /// port actually bound once the server accepts connections. Run it inside `withStore`.
    public func application(
        host: String, port: Int, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "strokekit"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) })
    }

    /// Opens the store (throws `SessionStoreError.cannotOpen` with the reason when it cannot),
    /// then serves until the process is asked to stop (SIGINT, SIGTERM).
    public func run(host: String, port: Int, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try await withStore {
            try await application(host: host, port: port, onRunning: onRunning).runService()
        }
    }

    /// Runs `body` with the session store open: its connection pool running, its tables
    /// created, and expired sessions deleted as they expire. Throws `SessionStoreError.cannotOpen`.
    public func withStore<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        let store = store
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.backend.run() }
            defer { group.cancelAll() }
            try await store.backend.open()
            group.addTask {
                // Expired sessions go at a tenth of their lifetime, at least every minute.
                let interval = min(max(store.timeToLive / 10, .milliseconds(200)), .seconds(60))
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    _ = try? await store.sweep()
                }
            }
            return try await body()
        }
    }

    /// Every route of the page and the API.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        for asset in page.files.keys {
            router.get(RouterPath(asset == "index.html" ? "/" : "/\(asset)")) { _, _ in self.page.response(asset) }
        }
        let api = router.group("api")
        api.post("sessions") { _, _ in
            guard let snapshot = try await self.guarded({ try await self.store.create() }) else {
                throw HTTPError(
                    .tooManyRequests,
                    message: "the server keeps \(self.limits.maximumSessions) live sessions already; delete one (DELETE /api/sessions/ID) or try later")
            }
            return try Self.answer(snapshot, message: "new session")
        }
        api.get("sessions/:session") { _, context in
            try Self.answer(try await self.current(context), message: "")
        }
        api.delete("sessions/:session") { _, context in
            let id = try context.parameters.require("session")
            guard try await self.guarded({ try await self.store.remove(id) }) else { throw Self.unknownSession(id) }
            return Response(status: .noContent)
        }
        api.post("sessions/:session/strokes") { request, context in
            let started = ContinuousClock.now
            let strokes = try await self.strokes(from: request, context: context)
            var response = try await self.edited(context, request, .draw(strokes: strokes))
            // Server-Timing: from the request's handler start to the edit committed and the
            // updated automaton encoded, in ms, then its parts (see `edited`).
            let total = "recognize;dur=\(Self.milliseconds(ContinuousClock.now - started))"
            response.headers.serverTiming = [total, response.headers.serverTiming].compactMap { $0 }.joined(separator: ", ")
            return response
        }
        api.post("sessions/:session/erase") { request, context in
            let strokes = try await self.strokes(from: request, context: context)
            return try await self.edited(context, request, .erase(strokes: strokes))
        }
        api.post("sessions/:session/undo") { request, context in
            try await self.edited(context, request, .undo)
        }
        api.post("sessions/:session/redo") { request, context in
            try await self.edited(context, request, .redo)
        }
        api.post("sessions/:session/clear") { request, context in
            try await self.edited(context, request, .clear)
        }
        api.post("sessions/:session/states/:state/final") { request, context in
            let id = try Self.number(context, "state")
            let body = try await self.decode(FinalRequest.self, from: request, context: context)
            return try await self.edited(context, request, .setFinal(state: id, final: body.final))
        }
        api.post("sessions/:session/states/:state/name") { request, context in
            let id = try Self.number(context, "state")
            let body = try await self.decode(NameRequest.self, from: request, context: context)
            return try await self.edited(context, request, .rename(state: id, name: body.name))
        }
        api.post("sessions/:session/transitions/:transition/symbols") { request, context in
            let id = try Self.number(context, "transition")
            let body = try await self.decode(SymbolsRequest.self, from: request, context: context)
            return try await self.edited(
                context, request, .setSymbols(transition: id, symbols: body.symbols, epsilon: body.epsilon ?? false))
        }
        api.post("sessions/:session/simulate") { request, context in
            let body = try await self.decode(WordRequest.self, from: request, context: context)
            let snapshot = try await self.current(context)
            return try Self.json(SimulationResponse(snapshot.adapter.sketch.automaton().simulate(body.word)))
        }
        api.get("sessions/:session/table") { _, context in
            let table = try await self.current(context).adapter.sketch.automaton().transitionTable()
            return Self.text(table.description + "\n", type: "text/plain; charset=utf-8")
        }
        api.get("sessions/:session/document") { _, context in
            let data = try AutomatonDocument.encode(try await self.current(context).adapter.sketch)
            var response = Self.text(String(decoding: data, as: UTF8.self), type: "application/json; charset=utf-8")
            response.headers[.contentDisposition] = "attachment; filename=\"sketch.automaton\""
            return response
        }
        api.post("sessions/:session/document") { request, context in
            let body = try await self.body(of: request)
            let data = Data(buffer: body)
            do {
                _ = try AutomatonDocument.decode(data, source: "the uploaded document")
            } catch {
                throw HTTPError(.badRequest, message: "\(error)")
            }
            return try await self.edited(context, request, .loadDocument(String(decoding: data, as: UTF8.self)))
        }
        api.post("sessions/:session/open") { request, context in
            let body = try await self.body(of: request)
            let data = Data(buffer: body)
            let opened: OpenedFile
            do {
                opened = try OpenedFile.read(data, source: "the opened file")
            } catch {
                throw HTTPError(.badRequest, message: "\(error)")
            }
            guard case let .ink(strokes) = opened else {
                return try await self.edited(context, request, .openFile(base64: data.base64EncodedString()))
            }
            guard strokes.count <= self.limits.maximumOpenedStrokes,
                strokes.allSatisfy({ $0.points.count <= self.limits.maximumPointsPerStroke })
            else {
                throw HTTPError(
                    .contentTooLarge,
                    message: "the ink has \(strokes.count) strokes; the limit is \(self.limits.maximumOpenedStrokes) strokes of \(self.limits.maximumPointsPerStroke) points")
            }
            // Drawn one stroke at a time, as a pen would have: the page shows the ink.
            return try await self.edited(context, request, .openFile(base64: data.base64EncodedString()), ink: strokes)
        }
        api.get("sessions/:session/export.jff") { _, context in
            let sketch = try await self.current(context).adapter.sketch
            let jff: String
            do {
                jff = try JFLAP.jff(sketch)
            } catch {
                throw HTTPError(.unprocessableContent, message: "\(error)")
            }
            var response = Self.text(jff, type: "application/xml; charset=utf-8")
            response.headers[.contentDisposition] = "attachment; filename=\"automaton.jff\""
            return response
        }
        api.get("sessions/:session/export.tex") { _, context in
            let tex = TikZExport.document(try await self.current(context).adapter.sketch)
            return Self.text(tex, type: "application/x-tex; charset=utf-8")
        }
        api.get("sessions/:session/export.dot") { _, context in
            Self.text(GraphvizExport.dot(try await self.current(context).adapter.sketch), type: "text/vnd.graphviz; charset=utf-8")
        }
        api.get("sessions/:session/export.svg") { _, context in
            Self.text(SVGExport.svg(try await self.current(context).view), type: "image/svg+xml; charset=utf-8")
        }
        return router
    }

    // MARK: - Requests

    /// The session a request names, as the store holds it now.
    private func current(_ context: BasicRequestContext) async throws -> SessionSnapshot {
        let id = try context.parameters.require("session")
        return try await guarded { try await self.store.current(id) }
    }

    /// Runs a store call; its refusals and failures become answers with a message: an unknown
    /// session 404, another model or an unmergeable edit 409, a failing store 503.
    private func guarded<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as SessionAccessError {
            switch error {
            case let .unknown(id): throw Self.unknownSession(id)
            case let .modelMismatch(session, stored, served):
                throw HTTPError(
                    .conflict,
                    message: "session \(session) was drawn with another model (checksum \(stored.prefix(16))…) than this server reads with (\(served.prefix(16))…); open it on a server started with that model")
            case let .conflict(message): throw HTTPError(.conflict, message: message)
            }
        } catch let error as SessionStoreError {
            throw HTTPError(
                .serviceUnavailable, headers: [.retryAfter: "5"],
                message: "\(error); this request was not acknowledged, and every edit acknowledged before is kept: try again shortly")
        }
    }

    private static func unknownSession(_ id: String) -> HTTPError {
        HTTPError(
            .notFound,
            message: "unknown session \"\(id)\" (deleted, or expired after being left idle): create one with POST /api/sessions (the page does when it loads)")
    }

    private static func number(_ context: BasicRequestContext, _ name: String) throws -> Int {
        let text = try context.parameters.require(name)
        guard let value = Int(text) else { throw HTTPError(.badRequest, message: "\(name) id \"\(text)\" is not a number") }
        return value
    }

    private func body(of request: Request) async throws -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: limits.maximumBodyBytes)
        } catch let error as HTTPResponseError where error.status == .contentTooLarge {
            throw HTTPError(
                .contentTooLarge,
                message: "request body is over the limit of \(limits.maximumBodyBytes) bytes; send one drawing at a time")
        }
    }

    private func decode<Body: Decodable>(_ type: Body.Type, from request: Request, context: BasicRequestContext)
        async throws -> Body
    {
        let buffer = try await body(of: request)
        do {
            return try JSONDecoder().decode(Body.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw HTTPError(.badRequest, message: Self.describe(error))
        }
    }

    /// The strokes of a drawing or eraser request, checked against the limits.
    private func strokes(from request: Request, context: BasicRequestContext) async throws -> [[[Double]]] {
        let body = try await decode(StrokesRequest.self, from: request, context: context)
        guard !body.strokes.isEmpty else { throw HTTPError(.badRequest, message: "\"strokes\" is empty: send at least one stroke") }
        guard body.strokes.count <= limits.maximumStrokesPerDrawing else {
            throw HTTPError(
                .contentTooLarge,
                message: "\(body.strokes.count) strokes in one drawing; the limit is \(limits.maximumStrokesPerDrawing)")
        }
        return try body.strokes.enumerated().map { index, points in
            guard !points.isEmpty else { throw HTTPError(.badRequest, message: "stroke \(index) has no points") }
            guard points.count <= limits.maximumPointsPerStroke else {
                throw HTTPError(
                    .contentTooLarge,
                    message: "stroke \(index) has \(points.count) points; the limit is \(limits.maximumPointsPerStroke)")
            }
            return try points.enumerated().map { pointIndex, point in
                guard point.count >= 2, point[0].isFinite, point[1].isFinite,
                    abs(point[0]) <= limits.maximumCoordinate, abs(point[1]) <= limits.maximumCoordinate
                else {
                    throw HTTPError(
                        .badRequest,
                        message: "stroke \(index), point \(pointIndex): expected [x, y] with finite coordinates within ±\(limits.maximumCoordinate)")
                }
                return [point[0], point[1]]
            }
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.isEmpty ? "the body" : codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case let .dataCorrupted(context):
            return context.codingPath.isEmpty
                ? "malformed JSON: the body is not a JSON document" : "bad value at \(path(context.codingPath))"
        case let .keyNotFound(key, context):
            return "missing key \"\(key.stringValue)\" in \(path(context.codingPath))"
        case let .typeMismatch(type, context), let .valueNotFound(type, context):
            return "expected \(type) at \(path(context.codingPath))"
        @unknown default:
            return "malformed request body"
        }
    }

    // MARK: - Responses

    /// Makes an edit on the session a request names, commits it to the store, and answers with
    /// the whole automaton. Edit errors (an unknown state, a bad name) become 4xx answers with
    /// the editor's message. An `If-Match` header with the version the sender saw (the `ETag`
    /// of an earlier answer) turns an edit that would not merge with edits made since into a 409.
    private func edited(
        _ context: BasicRequestContext, _ request: Request, _ edit: SessionEdit, ink: [Stroke]? = nil
    ) async throws -> Response {
        let id = try context.parameters.require("session")
        let base = try request.headers[.ifMatch].map { header -> Int in
            let digits = header.trimmingCharacters(in: CharacterSet(charactersIn: "W/\" "))
            guard let version = Int(digits), version >= 0 else {
                throw HTTPError(.badRequest, message: "If-Match \(header): expected a session version such as \"12\" (the ETag of an answer)")
            }
            return version
        }
        let result: EditResult
        do {
            result = try await guarded { try await self.store.edit(id, edit, base: base) }
        } catch let error as SketchEditError {
            switch error {
            case .unknownState, .unknownTransition: throw HTTPError(.notFound, message: error.description)
            default: throw HTTPError(.unprocessableContent, message: error.description)
            }
        } catch let error as HTTPError {
            throw error
        } catch let error as AutomatonDocumentError {
            throw HTTPError(.badRequest, message: "\(error)")
        } catch {
            throw HTTPError(.internalServerError, message: "the classifier failed: \(error)")
        }
        var response = try Self.answer(result.snapshot, message: result.message, verdict: result.verdict, ink: ink)
        // Where the time went: loading the session from the store (when the cached copy was
        // not current), reading the ink, waiting for the store and committing (the batch's
        // commit, shared by `batch` edits), in ms; `attempts` above 1 when edits elsewhere
        // made it start again.
        let timing = result.timing
        response.headers.serverTiming = [
            "load;dur=\(Self.milliseconds(timing.load))", "read;dur=\(Self.milliseconds(timing.read))",
            "store;dur=\(Self.milliseconds(timing.store))", "commit;dur=\(Self.milliseconds(timing.commit))",
            "batch;desc=\(timing.batchSize)", "attempts;desc=\(timing.attempts)",
        ].joined(separator: ", ")
        return response
    }

    static func milliseconds(_ duration: Duration) -> String {
        let milliseconds = Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1e3
        return String(format: "%.3f", milliseconds)
    }

    /// The whole automaton with the session's version (also its `ETag`).
    static func answer(
        _ snapshot: SessionSnapshot, message: String, verdict: DrawingOutcome? = nil, ink: [Stroke]? = nil
    ) throws -> Response {
        var response = try json(EditResponse(
            session: snapshot.id, version: snapshot.version, message: message, verdict: verdict, automaton: snapshot.view,
            ink: ink?.map { $0.points.map { [$0.x, $0.y] } }))
        response.headers[.eTag] = "\"\(snapshot.version)\""
        return response
    }

    static func json(_ value: some Encodable) throws -> Response {
        let data = try EditorJSON.encode(value)
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func text(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
