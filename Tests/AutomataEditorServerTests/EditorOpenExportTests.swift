import AutomataEditorServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The editor's "Open" (`.automaton`, JFLAP, InkML) and its JFLAP and TikZ exports.
@Suite struct EditorOpenExportTests {
    typealias Server = EditorServerTests

    /// The strokes of `drawTwoStates` as InkML in tablet units (40 per canvas point, shifted).
    static func inkML() -> String {
        let strokes = [
            Server.circle(100, 100, 30), Server.circle(260, 100, 30), Server.arrow(from: (20, 100), to: (68, 100)),
            Server.arrow(from: (132, 100), to: (226, 100)),
        ]
        let traces = strokes.map { stroke in
            "<trace>" + stroke.map { "\(Int(($0[0] * 40).rounded()) + 5000) \(Int(($0[1] * 40).rounded()) + 7000)" }.joined(separator: ", ") + "</trace>"
        }
        return "<?xml version=\"1.0\"?>\n<ink xmlns=\"http://www.w3.org/2003/InkML\">\n" + traces.joined(separator: "\n") + "\n</ink>\n"
    }

    @Test(.enabled(if: Server.enabled, "the bundled model is missing from this build"))
    func exportsJFLAPAndTikZAndOpensThemAndInk() async throws {
        try await Server.withServer { client, session in
            let transition = try await Server.drawTwoStates(client, session)
            let api = "/api/sessions/\(session)"
            try await client.execute(
                uri: "\(api)/transitions/\(transition)/symbols", method: .post, body: ByteBuffer(string: #"{"symbols": ["a", "b"]}"#)
            ) { #expect($0.status == .ok) }
            let jff = try await client.execute(uri: "\(api)/export.jff", method: .get) { response in
                #expect(response.status == .ok)
                return String(buffer: response.body)
            }
            #expect(jff.contains("<read>a</read>") && jff.contains("<read>b</read>") && jff.contains("<initial/>"), "\(jff)")
            try await client.execute(uri: "\(api)/export.tex", method: .get) { response in
                let tex = String(buffer: response.body)
                #expect(tex.contains("\\begin{tikzpicture}") && tex.contains("node {a, b}"), "\(tex)")
            }

            // Open the JFLAP file in a fresh sketch: same states and alphabet.
            try await client.execute(uri: "\(api)/clear", method: .post) { #expect($0.status == .ok) }
            try await client.execute(uri: "\(api)/open", method: .post, body: ByteBuffer(string: jff)) { response in
                #expect(response.status == .ok)
                let automaton = Server.automaton(response)
                #expect((automaton["states"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["q0", "q1"])
                #expect(automaton["alphabet"] as? [String] == ["a", "b"])
                #expect(Server.json(response)["ink"] == nil)
            }

            // Open the same drawing as InkML in tablet units: read stroke by stroke, ink sent back.
            try await client.execute(uri: "\(api)/open", method: .post, body: ByteBuffer(string: Self.inkML())) { response in
                #expect(response.status == .ok, "\(Server.errorMessage(response))")
                let answer = Server.json(response)
                #expect((answer["ink"] as? [Any])?.count == 4)
                let automaton = Server.automaton(response)
                #expect((automaton["states"] as? [[String: Any]])?.count == 2, "\(automaton)")
            }

            // Bad files are 400s naming the problem, and change nothing.
            for (body, expected) in [("<ink><trace>'1 2</trace></ink>", "difference"), ("<structure><type>pda</type></structure>", "finite automaton"), ("{}", "not an automaton document")] {
                try await client.execute(uri: "\(api)/open", method: .post, body: ByteBuffer(string: body)) { response in
                    #expect(response.status == .badRequest)
                    #expect(Server.errorMessage(response).contains(expected), "\(body): \(Server.errorMessage(response))")
                }
            }
        }
    }
}
