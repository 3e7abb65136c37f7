import AutomataEditorServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Handwritten labels through the editor's HTTP API: a stroke written beside a transition is
/// read as its label and listed with the automaton; typed symbols win over it; undo, redo and
/// the eraser treat it like any other stroke.
@Suite struct EditorLabelTests {
    typealias Helpers = EditorServerTests

    /// A `1` written above the middle of the arrow q0 → q1 of `drawTwoStates` (18 units tall,
    /// far from the states' rims and the arrow's ends).
    static let one: [[Double]] = (0...8).map { (step: Int) -> [Double] in
        let t = Double(step)
        return [182 - t * 0.5, 66 + t * 2.25]
    }

    static func labels(_ automaton: [String: Any]) -> [[String: Any]] {
        automaton["labels"] as? [[String: Any]] ?? []
    }

    static func edge(_ automaton: [String: Any], _ id: Int) -> [String: Any]? {
        (automaton["edges"] as? [[String: Any]])?.first { $0["id"] as? Int == id }
    }

    @Test(.enabled(if: EditorServerTests.enabled, "the bundled model is missing from this build"))
    func aLabelWrittenBesideATransitionIsListedAndUndoneLikeAnyStroke() async throws {
        try await Helpers.withServer { client, session in
            let api = "/api/sessions/\(session)"
            let transition = try await Helpers.drawTwoStates(client, session)
            let written = try await client.execute(uri: "\(api)/strokes", method: .post, body: Helpers.body([Self.one])) { response in
                #expect(response.status == .ok)
                let verdict = try #require(Helpers.json(response)["verdict"] as? [String: Any])
                #expect(verdict["kind"] as? String == "text", "not read as handwriting: \(verdict)")
                #expect(verdict["rejected"] as? Bool == false)
                let automaton = Helpers.automaton(response)
                let labels = Self.labels(automaton)
                #expect(labels.count == 1, "labels: \(labels)")
                let label = try #require(labels.first)
                #expect(label["belongsTo"] as? String == "transition")
                #expect(label["owner"] as? Int == transition)
                #expect(label["strokes"] as? [Int] == [4])
                let box = try #require(label["box"] as? [Double])
                #expect(box.count == 4 && box[0] <= 178 && box[2] >= 182 && box[1] <= 66 && box[3] >= 84, "box \(box)")
                // What was read is the transition's symbols (nothing typed).
                let text = try #require(label["text"] as? String)
                let symbols = try #require(Self.edge(automaton, transition)?["symbols"] as? [String])
                #expect(symbols.isEmpty == text.isEmpty, "read \"\(text)\", symbols \(symbols)")
                #expect(automaton["canUndo"] as? Bool == true)
                return automaton
            }
            // Undo takes the label away, redo brings it back.
            try await client.execute(uri: "\(api)/undo", method: .post) { response in
                #expect(Self.labels(Helpers.automaton(response)).isEmpty)
                #expect(Self.edge(Helpers.automaton(response), transition)?["symbols"] as? [String] == [])
            }
            try await client.execute(uri: "\(api)/redo", method: .post) { response in
                #expect(Self.labels(Helpers.automaton(response)).count == 1)
                #expect(Self.edge(Helpers.automaton(response), transition)?["symbols"] as? [String]
                    == Self.edge(written, transition)?["symbols"] as? [String])
            }
            // A correction typed in the box wins over what was read; the label stays listed.
            try await client.execute(
                uri: "\(api)/transitions/\(transition)/symbols", method: .post, body: ByteBuffer(string: #"{"symbols": ["x"]}"#)
            ) { response in
                #expect(response.status == .ok)
                #expect(Self.edge(Helpers.automaton(response), transition)?["symbols"] as? [String] == ["x"])
                #expect(Self.labels(Helpers.automaton(response)).count == 1)
            }
            // The eraser across the label removes it and leaves the transition.
            try await client.execute(uri: "\(api)/erase", method: .post, body: Helpers.body([[[168, 75], [194, 76]]])) { response in
                #expect(response.status == .ok)
                #expect((Helpers.json(response)["message"] as? String ?? "").contains("removed labels"))
                #expect(Self.labels(Helpers.automaton(response)).isEmpty)
                #expect(Self.edge(Helpers.automaton(response), transition) != nil)
            }
            // Undone, the label is back; erasing its transition takes it with it.
            _ = try await client.execute(uri: "\(api)/undo", method: .post)
            try await client.execute(uri: "\(api)/erase", method: .post, body: Helpers.body([[[205, 88], [206, 112]]])) { response in
                let automaton = Helpers.automaton(response)
                #expect(Self.edge(automaton, transition) == nil, "the transition was not erased: \(Helpers.json(response)["message"] ?? "")")
                #expect(Self.labels(automaton).isEmpty, "labels: \(Self.labels(automaton))")
            }
        }
    }
}
