import AutomataSketch
import Foundation
import Hummingbird
import StrokeImage
import StrokeKit

/// The browser editor's server: the page and its assets at `/`, the JSON API under `/api/`
/// (docs/editor.md lists the routes). One classifier serves every
/// session; each session is one person's sketch with its own undo history.
public struct EditorServer: Sendable {
    let store: SessionStore
    let limits: EditorLimits
    let page: PageAssets

    /// A server that reads drawings with `classifier` (loaded once, shared by all sessions).
    public init(classifier: any StrokeClassifying, limits: EditorLimits = EditorLimits()) throws {
        store = SessionStore(classifier: classifier, maximumSessions: limits.maximumSessions)
        self.limits = limits
        page = try PageAssets.load()
    }

    /// The application listening on `host:port` (port 0: any free port); `onRunning` gets the
    /// port actually bound once the server accepts connections.
    public func application(
        host: String, port: Int, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "strokekit"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) })
    }

    /// Serves until the process is asked to stop (SIGINT, SIGTERM).
    public func run(host: String, port: Int, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try await application(host: host, port: port, onRunning: onRunning).runService()
    }

    /// Every route of the page and the API.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        for asset in page.files.keys {
            router.get(RouterPath(asset == "index.html" ? "/" : "/\(asset)")) { _, _ in self.page.response(asset) }
        }
        let api = router.group("api")
        api.post("sessions") { _, _ in
            guard let session = self.store.create() else {
                throw HTTPError(
                    .tooManyRequests,
                    message: "the server keeps \(self.limits.maximumSessions) sessions already; delete one (DELETE /api/sessions/ID) or try later")
            }
            return try self.edited(session) { _ in "new session" }
        }
        api.get("sessions/:session") { _, context in
            try self.edited(self.session(context)) { _ in "" }
        }
        api.delete("sessions/:session") { _, context in
            let id = try context.parameters.require("session")
            guard self.store.remove(id) else { throw Self.unknownSession(id) }
            return Response(status: .noContent)
        }
        api.post("sessions/:session/strokes") { request, context in
            let started = ContinuousClock.now
            let session = try self.session(context)
            let strokes = try await self.strokes(from: request, context: context)
            var verdict: StrokeVerdict?
            var response = try self.edited(session, countsStroke: true) { editor in
                verdict = try editor.draw(strokes)
                return verdict!.outcome
            } verdict: { verdict }
            // Server-Timing: from the request's handler start to the encoded automaton, in ms.
            let elapsed = ContinuousClock.now - started
            let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3
            response.headers[.init("Server-Timing")!] = "recognize;dur=\(String(format: "%.3f", milliseconds))"
            return response
        }
        api.post("sessions/:session/erase") { request, context in
            let session = try self.session(context)
            let strokes = try await self.strokes(from: request, context: context)
            return try self.edited(session) { editor in
                strokes.map { editor.erase($0) }.joined(separator: "; ")
            }
        }
        api.post("sessions/:session/undo") { _, context in
            try self.edited(self.session(context)) { $0.undo() ? "undone" : "nothing to undo" }
        }
        api.post("sessions/:session/redo") { _, context in
            try self.edited(self.session(context)) { $0.redo() ? "redone" : "nothing to redo" }
        }
        api.post("sessions/:session/clear") { _, context in
            try self.edited(self.session(context)) { editor in
                editor.clear()
                return "cleared (undo brings it back)"
            }
        }
        api.post("sessions/:session/states/:state/final") { request, context in
            let session = try self.session(context)
            let id = try Self.number(context, "state")
            let body = try await self.decode(FinalRequest.self, from: request, context: context)
            return try self.edited(session) { try $0.setFinal(body.final, state: id) }
        }
        api.post("sessions/:session/states/:state/name") { request, context in
            let session = try self.session(context)
            let id = try Self.number(context, "state")
            let body = try await self.decode(NameRequest.self, from: request, context: context)
            return try self.edited(session) { editor in
                try editor.rename(state: id, to: body.name)
                return "renamed to \(body.name)"
            }
        }
        api.post("sessions/:session/transitions/:transition/symbols") { request, context in
            let session = try self.session(context)
            let id = try Self.number(context, "transition")
            let body = try await self.decode(SymbolsRequest.self, from: request, context: context)
            return try self.edited(session) { editor in
                try editor.setSymbols(body.symbols, isEpsilon: body.epsilon ?? false, transition: id)
                return "symbols set"
            }
        }
        api.post("sessions/:session/simulate") { request, context in
            let session = try self.session(context)
            let body = try await self.decode(WordRequest.self, from: request, context: context)
            let (result, _) = session.edit { $0.sketch.automaton().simulate(body.word) }
            return try Self.json(SimulationResponse(result))
        }
        api.get("sessions/:session/table") { _, context in
            let (table, _) = try self.session(context).edit { $0.sketch.automaton().transitionTable() }
            return Self.text(table.description + "\n", type: "text/plain; charset=utf-8")
        }
        api.get("sessions/:session/document") { _, context in
            let (data, _) = try self.session(context).edit { try AutomatonDocument.encode($0.sketch) }
            var response = Self.text(String(decoding: data, as: UTF8.self), type: "application/json; charset=utf-8")
            response.headers[.contentDisposition] = "attachment; filename=\"sketch.automaton\""
            return response
        }
        api.post("sessions/:session/document") { request, context in
            let session = try self.session(context)
            let body = try await self.body(of: request)
            let sketch: Sketch
            do {
                sketch = try AutomatonDocument.decode(Data(buffer: body), source: "the uploaded document")
            } catch {
                throw HTTPError(.badRequest, message: "\(error)")
            }
            return try self.edited(session) { editor in
                editor.load(sketch)
                return "document loaded"
            }
        }
        api.post("sessions/:session/open") { request, context in
            let session = try self.session(context)
            let body = try await self.body(of: request)
            let opened: OpenedFile
            do {
                opened = try OpenedFile.read(Data(buffer: body), source: "the opened file")
            } catch {
                throw HTTPError(.badRequest, message: "\(error)")
            }
            switch opened {
            case .sketch(let sketch):
                return try self.edited(session) { editor in
                    editor.load(sketch)
                    return "automaton opened"
                }
            case .ink(let strokes):
                guard strokes.count <= self.limits.maximumOpenedStrokes,
                    strokes.allSatisfy({ $0.points.count <= self.limits.maximumPointsPerStroke })
                else {
                    throw HTTPError(
                        .contentTooLarge,
                        message: "the ink has \(strokes.count) strokes; the limit is \(self.limits.maximumOpenedStrokes) strokes of \(self.limits.maximumPointsPerStroke) points")
                }
                // Drawn one stroke at a time, as a pen would have: the page shows the ink.
                return try self.edited(session, countsStroke: true, ink: strokes) { editor in
                    editor.load(Sketch())
                    for stroke in strokes { _ = try editor.draw([stroke]) }
                    return "ink opened: \(strokes.count) strokes read"
                }
            }
        }
        api.get("sessions/:session/export.jff") { _, context in
            let (sketch, _) = try self.session(context).edit { $0.sketch }
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
            let (tex, _) = try self.session(context).edit { TikZExport.document($0.sketch) }
            return Self.text(tex, type: "application/x-tex; charset=utf-8")
        }
        api.get("sessions/:session/export.dot") { _, context in
            let (dot, _) = try self.session(context).edit { GraphvizExport.dot($0.sketch) }
            return Self.text(dot, type: "text/vnd.graphviz; charset=utf-8")
        }
        api.get("sessions/:session/export.svg") { _, context in
            let (_, view) = try self.session(context).edit { _ in () }
            return Self.text(SVGExport.svg(view), type: "image/svg+xml; charset=utf-8")
        }
        return router
    }

    // MARK: - Requests

    private func session(_ context: BasicRequestContext) throws -> EditorSession {
        let id = try context.parameters.require("session")
        guard let session = store.session(id) else { throw Self.unknownSession(id) }
        return session
    }

    private static func unknownSession(_ id: String) -> HTTPError {
        HTTPError(.notFound, message: "unknown session \"\(id)\": create one with POST /api/sessions (the page does when it loads)")
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
    private func strokes(from request: Request, context: BasicRequestContext) async throws -> [Stroke] {
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
            return Stroke(points: try points.enumerated().map { pointIndex, point in
                guard point.count >= 2, point[0].isFinite, point[1].isFinite,
                    abs(point[0]) <= limits.maximumCoordinate, abs(point[1]) <= limits.maximumCoordinate
                else {
                    throw HTTPError(
                        .badRequest,
                        message: "stroke \(index), point \(pointIndex): expected [x, y] with finite coordinates within ±\(limits.maximumCoordinate)")
                }
                return StrokePoint(x: point[0], y: point[1])
            })
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

    /// Runs an edit on a session and answers with the whole automaton. Edit errors (an unknown
    /// state, a bad name) become 4xx answers with the editor's message.
    private func edited(
        _ session: EditorSession, countsStroke: Bool = false, ink: [Stroke]? = nil,
        _ edit: (inout EditorAdapter) throws -> String, verdict: () -> StrokeVerdict? = { nil }
    ) throws -> Response {
        let message: String
        let view: AutomatonView
        do {
            (message, view) = try session.edit(countsStroke: countsStroke, edit)
        } catch let error as SketchEditError {
            switch error {
            case .unknownState, .unknownTransition: throw HTTPError(.notFound, message: error.description)
            default: throw HTTPError(.unprocessableContent, message: error.description)
            }
        } catch let error as HTTPError {
            throw error
        } catch {
            throw HTTPError(.internalServerError, message: "the classifier failed: \(error)")
        }
        return try Self.json(EditResponse(
            session: session.id, message: message, verdict: verdict(), automaton: view,
            ink: ink?.map { $0.points.map { [$0.x, $0.y] } }))
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
