import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so that readers see either the old content or the new, never a mix.
///
/// The bytes go to a uniquely named temporary file in the target's directory (same file
/// system, so the rename is atomic), which is flushed to disk (`fsync`) and then renamed
/// over the target. On any failure the temporary file is removed and a previous file at
/// the target is left as it was. Used for model files, PNGs, reports and sketches.
public enum AtomicFile {
    /// Atomically replaces (or creates) the file at `url` with `bytes`.
    /// Throws `AtomicFileError.directoryMissing` or `.cannotWrite`, naming the path.
    public static func write(_ bytes: [UInt8], to url: URL) throws {
        let target = url.standardizedFileURL
        let directory = target.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw AtomicFileError.directoryMissing(path: directory.path)
        }

        // A leading dot keeps the temporary file out of directory listings and globs.
        let temporary = directory.appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw AtomicFileError.cannotWrite(path: target.path, reason: systemError())
        }
        do {
            try writeAll(bytes, to: descriptor, path: target.path)
            guard fsync(descriptor) == 0 else {
                throw AtomicFileError.cannotWrite(path: target.path, reason: "fsync: \(systemError())")
            }
            guard close(descriptor) == 0 else {
                throw AtomicFileError.cannotWrite(path: target.path, reason: "close: \(systemError())")
            }
        } catch {
            close(descriptor)  // may fail with EBADF after a failed close; nothing else to do
            unlink(temporary.path)
            throw error
        }
        guard rename(temporary.path, target.path) == 0 else {
            let reason = systemError()
            unlink(temporary.path)
            throw AtomicFileError.cannotWrite(path: target.path, reason: reason)
        }
        // Persist the rename itself; failing here does not undo a completed write.
        let directoryDescriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Atomically replaces (or creates) the file at `url` with `data`.
    public static func write(_ data: Data, to url: URL) throws {
        try write([UInt8](data), to: url)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws {
        try bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let result = writeToDescriptor(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    throw AtomicFileError.cannotWrite(path: path, reason: systemError())
                }
                written += result
            }
        }
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}

/// The C `write(2)`, which the static `AtomicFile.write` methods shadow inside the enum.
private func writeToDescriptor(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, pointer, count)
}

/// Why `AtomicFile` could not write a file; the message names the path.
public enum AtomicFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The directory that should hold the file does not exist.
    case directoryMissing(path: String)
    /// Writing the file failed (permissions, disk full, target is a directory, ...).
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case let .directoryMissing(path):
            return "\(path): the directory does not exist; create it first"
        case let .cannotWrite(path, reason):
            return "\(path): cannot write: \(reason)"
        }
    }
}
