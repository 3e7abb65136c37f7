import Foundation
import Hummingbird

/// The page and its assets (`Page/` in this target's resources), read once at start-up.
struct PageAssets: Sendable {
    let files: [String: ByteBuffer]

    static let types = ["html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8"]

    static func load() throws -> PageAssets {
        guard let folder = Bundle.module.url(forResource: "Page", withExtension: nil) else {
            throw EditorServerError("this build has no Page resources; rebuild the AutomataEditorServer target")
        }
        var files: [String: ByteBuffer] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            files[name] = ByteBuffer(bytes: data)
        }
        guard files["index.html"] != nil else { throw EditorServerError("Page/index.html is missing from the build") }
        return PageAssets(files: files)
    }

    func response(_ name: String) -> Response {
        let type = Self.types[(name as NSString).pathExtension] ?? "application/octet-stream"
        return Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: files[name]!))
    }
}

/// The server could not start (a missing resource).
public struct EditorServerError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
