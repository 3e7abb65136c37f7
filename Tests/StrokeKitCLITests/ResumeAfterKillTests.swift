import Foundation
import Testing
import StrokeKit
import StrokeTraining
import TestSupport

/// `strokekit train --checkpoint` survives being killed: a run killed with SIGKILL mid-epoch,
/// or stopped with Ctrl-C (SIGINT) after a batch, and resumed with `--resume` ends with
/// bitwise the weights of an uninterrupted run. Runs the real CLI binary.
@Suite(.serialized) struct ResumeAfterKillTests {
    /// The `strokekit` built beside this test bundle.
    static let executable: URL = {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let beside = folder.appendingPathComponent("strokekit")
        return FileManager.default.isExecutableFile(atPath: beside.path)
            ? beside : Bundle.main.bundleURL.appendingPathComponent("strokekit")
    }()

    /// A run small enough for a debug build yet with epochs long enough to be killed inside.
    static let flags = ["--data", ProjectDataset.automataShapes.path, "--arch", "c8-p-c16-p-d32", "--epochs", "4",
                        "--seed", "5", "--workers", "2", "--synthetic", "150", "--augment"]

    func launch(_ arguments: [String], in directory: URL) throws -> Process {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: directory.appendingPathComponent("stderr.txt"))
        try process.run()
        return process
    }

    func run(_ arguments: [String], in directory: URL) throws -> Int32 {
        let process = try launch(arguments, in: directory)
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Waits until the first checkpoint (end of epoch 1) exists, then `extra` seconds more.
    func waitForFirstCheckpoint(_ url: URL, process: Process, extra: Double) throws {
        let deadline = Date().addingTimeInterval(120)
        while !FileManager.default.fileExists(atPath: url.path) {
            guard process.isRunning, Date() < deadline else {
                Issue.record("no checkpoint appeared at \(url.path)")
                return
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        Thread.sleep(forTimeInterval: extra)
    }

    func tensors(_ path: URL) throws -> [[UInt32]] {
        try TrainedModel.load(contentsOf: path).network.parameters.map { $0.value.values.map(\.bitPattern) }
    }

    @Test func killedRunResumesToTheUninterruptedWeights() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.url
        try Data().write(to: folder.appendingPathComponent("stderr.txt"))
        #expect(try run(["train"] + Self.flags + ["--output", "reference.safetensors"], in: folder) == 0)

        let checkpoint = folder.appendingPathComponent("run.checkpoint")
        let killed = try launch(["train"] + Self.flags + ["--output", "resumed.safetensors", "--checkpoint", checkpoint.path],
                                in: folder)
        try waitForFirstCheckpoint(checkpoint, process: killed, extra: 0.4)
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        #expect(killed.terminationReason == .uncaughtSignal && killed.terminationStatus == SIGKILL)
        let state = try TrainingCheckpoint.read(contentsOf: checkpoint)
        #expect(state.epoch <= 4, "killed before the run ended (checkpoint at epoch \(state.epoch))")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("resumed.safetensors").path))

        #expect(try run(["train", "--resume", checkpoint.path], in: folder) == 0)
        #expect(try tensors(folder.appendingPathComponent("resumed.safetensors"))
                == tensors(folder.appendingPathComponent("reference.safetensors")),
                "weights after kill and resume differ from the uninterrupted run")
    }

    @Test func ctrlCWritesTheCheckpointAfterTheBatchAndResumes() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.url
        try Data().write(to: folder.appendingPathComponent("stderr.txt"))
        #expect(try run(["train"] + Self.flags + ["--output", "reference.safetensors"], in: folder) == 0)

        let checkpoint = folder.appendingPathComponent("run.checkpoint")
        let stopped = try launch(["train"] + Self.flags + ["--output", "resumed.safetensors", "--checkpoint", checkpoint.path],
                                 in: folder)
        try waitForFirstCheckpoint(checkpoint, process: stopped, extra: 0.3)
        kill(stopped.processIdentifier, SIGINT)
        stopped.waitUntilExit()
        let message = try String(contentsOf: folder.appendingPathComponent("stderr.txt"), encoding: .utf8)
        #expect(stopped.terminationStatus != 0)
        #expect(message.contains("interrupted") && message.contains(checkpoint.path), "\(message.suffix(400))")
        let state = try TrainingCheckpoint.read(contentsOf: checkpoint)
        #expect(state.batchesDone > 0, "stopped inside an epoch, after a batch")

        #expect(try run(["train", "--resume", checkpoint.path], in: folder) == 0)
        #expect(try tensors(folder.appendingPathComponent("resumed.safetensors"))
                == tensors(folder.appendingPathComponent("reference.safetensors")))
    }
}
