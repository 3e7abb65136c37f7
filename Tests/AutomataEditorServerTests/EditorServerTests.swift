import AutomataEditorServer
import AutomataSketch
import Foundation
import Hummingbird
import HummingbirdTesting
import StrokeKit
import Testing

/// The editor's HTTP API through Hummingbird's router test client: drawings become states and
/// transitions, edits and history work, sessions are isolated, and every bad request of
/// issue 16 gets a 4xx with a message while the session keeps what it had.
@Suite struct EditorServerTests {
    static let classifier = Result { try ShapeClassifier.bundledDefault() }

    // MARK: - Drawing helpers (canvas units, y down)

    static func circle(_ x: Double, _ y: Double, _ radius: Double) -> [[Double]] {
        (0...40).map { index in
            let angle = 2 * Double.pi * Double(index) / 40
            return [x + radius * cos(angle), y + radius * sin(angle)]
        }
    }

    /// A straight arrow with its head drawn in the same stroke.
    static func arrow(from start: (Double, Double), to tip: (Double, Double)) -> [[Double]] {
        let (dx, dy) = (tip.0 - start.0, tip.1 - start.1)
        let length = (dx * dx + dy * dy).squareRoot()
        let (ux, uy) = (dx / length, dy / length)
        let size = 0.15 * length
        var points = (0...12).map { [start.0 + dx * Double($0) / 12, start.1 + dy * Double($0) / 12] }
        points += [
            [tip.0 - ux * size - uy * size * 0.6, tip.1 - uy * size + ux * size * 0.6], [tip.0, tip.1],
            [tip.0 - ux * size + uy * size * 0.6, tip.1 - uy * size - ux * size * 0.6],
        ]
        return points
    }

    static func body(_ strokes: [[[Double]]]) -> ByteBuffer {
        ByteBuffer(bytes: try! JSONSerialization.data(withJSONObject: ["strokes": strokes]))
    }

    /// The answer as a JSON object; an empty one (and a recorded issue) when it is not one.
    static func json(_ response: TestResponse) -> [String: Any] {
        let data = Data(buffer: response.body)
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            Issue.record("not a JSON object: \(String(decoding: data, as: UTF8.self))")
            return [:]
        }
        return object
    }

    static func automaton(_ response: TestResponse) -> [String: Any] {
        json(response)["automaton"] as? [String: Any] ?? [:]
    }

    static func errorMessage(_ response: TestResponse) -> String {
        (json(response)["error"] as? [String: Any])?["message"] as? String ?? "(no error message)"
    }

    /// A running test client with one server, and the id of a new session.
    static func withServer(
        limits: EditorLimits = EditorLimits(), _ test: @Sendable @escaping (any TestClientProtocol, String) async throws -> Void
    ) async throws {
        let server = try EditorServer(classifier: try classifier.get(), limits: limits)
        let application = Application(router: server.router())
        try await application.test(.router) { client in
            let session = try await client.execute(uri: "/api/sessions", method: .post) { response in
                #expect(response.status == .ok)
                return try #require(json(response)["session"] as? String)
            }
            try await test(client, session)
        }
    }

    /// Draws q0 (initial) and q1 with a transition q0 → q1; returns the transition's id.
    static func drawTwoStates(_ client: any TestClientProtocol, _ session: String) async throws -> Int {
        let strokes = [
            circle(100, 100, 30), circle(260, 100, 30), arrow(from: (20, 100), to: (68, 100)),
            arrow(from: (132, 100), to: (226, 100)),
        ]
        var transition: Int?
        for stroke in strokes {
            try await client.execute(uri: "/api/sessions/\(session)/strokes", method: .post, body: body([stroke])) { response in
                #expect(response.status == .ok)
                let answer = json(response)
                let verdict = try #require(answer["verdict"] as? [String: Any])
                #expect(verdict["rejected"] as? Bool == false, "stroke rejected: \(verdict)")
                if let id = verdict["transition"] as? Int { transition = id }
                // The verdict is a `DrawingOutcome` (docs/reading-json.md); the status line is its sentence.
                let outcome = try JSONDecoder().decode(
                    DrawingOutcome.self, from: try JSONSerialization.data(withJSONObject: verdict))
                #expect(answer["message"] as? String == outcome.description && verdict["outcome"] as? String == outcome.description)
                #expect(outcome.became.createdState != nil || outcome.became.createdTransition != nil, "\(outcome)")
            }
        }
        return try #require(transition, "the arrow between the states made no transition")
    }

    static let enabled = (try? classifier.get()) != nil

    // MARK: - Tests

    @Test(.enabled(if: enabled, "the bundled model is missing from this build"))
    func drawnDiagramAcceptsTheRightWords() async throws {
        try await Self.withServer { client, session in
            let transition = try await Self.drawTwoStates(client, session)
            let api = "/api/sessions/\(session)"
            try await client.execute(
                uri: "\(api)/transitions/\(transition)/symbols", method: .post,
                body: ByteBuffer(string: #"{"symbols": ["a", "b"]}"#)
            ) { response in
                #expect(response.status == .ok)
                let automaton = Self.automaton(response)
                #expect(automaton["alphabet"] as? [String] == ["a", "b"])
            }
            let states = try await client.execute(uri: api, method: .get) { Self.automaton($0)["states"] as? [[String: Any]] }
            let q1 = try #require(states?.first { $0["name"] as? String == "q1" }?["id"] as? Int)
            try await client.execute(uri: "\(api)/states/\(q1)/final", method: .post, body: ByteBuffer(string: #"{"final": true}"#)) {
                #expect($0.status == .ok)
            }
            for (word, accepted) in [("a", true), ("b", true), ("", false), ("ab", false)] {
                try await client.execute(uri: "\(api)/simulate", method: .post, body: ByteBuffer(string: #"{"word": "\#(word)"}"#)) { response in
                    #expect(Self.json(response)["accepted"] as? Bool == accepted, "word \"\(word)\"")
                }
            }
            try await client.execute(uri: "\(api)/export.dot", method: .get) { response in
                let dot = String(buffer: response.body)
                #expect(dot.contains(#""q0" -> "q1" [label="a, b"]"#), "DOT: \(dot)")
                #expect(dot.contains(#""q1" [shape=doublecircle]"#))
            }
            try await client.execute(uri: "\(api)/export.svg", method: .get) { response in
                let svg = String(buffer: response.body)
                #expect(svg.hasPrefix("<svg") && svg.contains(">q1</text>") && svg.contains(">a, b</text>"))
            }
        }
    }

    @Test(.enabled(if: enabled, "the bundled model is missing from this build"))
    func finalUndoRedoEraseAndDocumentRoundTrip() async throws {
        try await Self.withServer { client, session in
            _ = try await Self.drawTwoStates(client, session)
            let api = "/api/sessions/\(session)"
            func states() async throws -> [[String: Any]] {
                try await client.execute(uri: api, method: .get) { try #require(Self.automaton($0)["states"] as? [[String: Any]]) }
            }
            let q0 = try #require(try await states().first?["id"] as? Int)
            for final in [true, false] {
                try await client.execute(uri: "\(api)/states/\(q0)/final", method: .post, body: ByteBuffer(string: #"{"final": \#(final)}"#)) {
                    #expect($0.status == .ok)
                }
                #expect(try await states().first?["final"] as? Bool == final)
            }
            // Undo twice: final then non-final are both undone steps.
            _ = try await client.execute(uri: "\(api)/undo", method: .post)
            #expect(try await states().first?["final"] as? Bool == true)
            _ = try await client.execute(uri: "\(api)/redo", method: .post)
            #expect(try await states().first?["final"] as? Bool == false)

            let document = try await client.execute(uri: "\(api)/document", method: .get) { String(buffer: $0.body) }
            #expect(document.contains("strokekit.automaton"))
            // An eraser scribble over q1 removes it and the transition into it.
            try await client.execute(uri: "\(api)/erase", method: .post, body: Self.body([[[250, 90], [270, 110]]])) { response in
                let automaton = Self.automaton(response)
                #expect((automaton["states"] as? [Any])?.count == 1)
                #expect(((automaton["edges"] as? [[String: Any]]) ?? []).allSatisfy { $0["kind"] as? String == "initial" })
            }
            try await client.execute(uri: "\(api)/document", method: .post, body: ByteBuffer(string: document)) { response in
                #expect(response.status == .ok)
                #expect((Self.automaton(response)["states"] as? [Any])?.count == 2)
            }
            try await client.execute(uri: "\(api)/document", method: .post, body: ByteBuffer(string: #"{"format": "other"}"#)) { response in
                #expect(response.status == .badRequest)
                #expect(Self.errorMessage(response).contains("not an automaton document"))
            }
        }
    }

    @Test(.enabled(if: enabled, "the bundled model is missing from this build"))
    func sessionsAreIsolated() async throws {
        try await Self.withServer { client, first in
            let second = try await client.execute(uri: "/api/sessions", method: .post) { try #require(Self.json($0)["session"] as? String) }
            #expect(first != second)
            _ = try await Self.drawTwoStates(client, first)
            try await client.execute(uri: "/api/sessions/\(second)", method: .get) { response in
                #expect((Self.automaton(response)["states"] as? [Any])?.isEmpty == true)
            }
            _ = try await client.execute(uri: "/api/sessions/\(second)/undo", method: .post)
            try await client.execute(uri: "/api/sessions/\(first)", method: .get) { response in
                #expect((Self.automaton(response)["states"] as? [Any])?.count == 2)
            }
        }
    }

    @Test(.enabled(if: enabled, "the bundled model is missing from this build"))
    func badRequestsGetA4xxWithAMessageAndLoseNothing() async throws {
        try await Self.withServer(limits: EditorLimits(maximumBodyBytes: 64 * 1024)) { client, session in
            let api = "/api/sessions/\(session)"
            let transition = try await Self.drawTwoStates(client, session)
            let millionPoints = "{\"strokes\": [[" + Array(repeating: "[1,2]", count: 1_000_000).joined(separator: ",") + "]]}"
            let manyPointsUnderTheBodyLimit = "{\"strokes\": [[" + Array(repeating: "[1,2]", count: 10_001).joined(separator: ",") + "]]}"
            let bad: [(name: String, uri: String, body: String, status: HTTPResponse.Status, message: String)] = [
                ("malformed JSON", "\(api)/strokes", "{\"strokes\": [[[1, 2]", .badRequest, "malformed JSON"),
                ("wrong shape", "\(api)/strokes", #"{"strokes": "circle"}"#, .badRequest, "expected"),
                ("missing key", "\(api)/strokes", #"{"points": []}"#, .badRequest, "missing key \"strokes\""),
                ("no strokes", "\(api)/strokes", #"{"strokes": []}"#, .badRequest, "empty"),
                ("a million points", "\(api)/strokes", millionPoints, .contentTooLarge, "over the limit"),
                ("too many points", "\(api)/strokes", manyPointsUnderTheBodyLimit, .contentTooLarge, "10001 points"),
                ("far away", "\(api)/strokes", #"{"strokes": [[[1, 2], [1e7, 3]]]}"#, .badRequest, "finite coordinates"),
                ("unknown session", "/api/sessions/nope/strokes", #"{"strokes": [[[1, 2]]]}"#, .notFound, "unknown session"),
                ("unknown state", "\(api)/states/99/final", #"{"final": true}"#, .notFound, "no state with id 99"),
                ("bad state id", "\(api)/states/x/name", #"{"name": "a"}"#, .badRequest, "not a number"),
                ("bad symbol", "\(api)/transitions/\(transition)/symbols", #"{"symbols": ["ε"]}"#, .unprocessableContent, "not an input symbol"),
            ]
            for request in bad {
                try await client.execute(uri: request.uri, method: .post, body: ByteBuffer(string: request.body)) { response in
                    #expect(response.status == request.status, "\(request.name): \(response.status)")
                    let message = Self.errorMessage(response)
                    #expect(message.contains(request.message), "\(request.name): \(message)")
                }
                // The server answers the next good request, and the session kept its sketch.
                try await client.execute(uri: api, method: .get) { response in
                    #expect(response.status == .ok, "after \(request.name)")
                    #expect((Self.automaton(response)["states"] as? [Any])?.count == 2, "after \(request.name)")
                }
            }
            try await client.execute(uri: "\(api)/strokes", method: .post, body: Self.body([Self.circle(420, 100, 30)])) { response in
                #expect(response.status == .ok)
                #expect((Self.automaton(response)["states"] as? [Any])?.count == 3)
                #expect(response.headers[.init("Server-Timing")!]?.hasPrefix("recognize;dur=") == true)
            }
        }
    }

    @Test(.enabled(if: enabled, "the bundled model is missing from this build"))
    func thePageAndItsAssetsAreServed() async throws {
        try await Self.withServer { client, _ in
            for (path, type, marker) in [("/", "text/html", "<canvas"), ("/editor.js", "text/javascript", "pointerdown"), ("/editor.css", "text/css", "#canvas")] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok, "\(path)")
                    #expect(response.headers[.contentType]?.hasPrefix(type) == true, "\(path)")
                    #expect(String(buffer: response.body).contains(marker), "\(path)")
                }
            }
        }
    }
}
