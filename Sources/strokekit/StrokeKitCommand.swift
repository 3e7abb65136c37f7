import ArgumentParser

@main
struct StrokeKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strokekit",
        abstract: "Train, evaluate and run small CNNs for hand-drawn stroke shapes.",
        subcommands: [
            TrainCommand.self, EvaluateCommand.self, PredictCommand.self, InspectCommand.self,
            RasterizeCommand.self, SynthCommand.self, MontageCommand.self,
            RecognizeCommand.self, SimulateCommand.self, BenchCommand.self, ExportCommand.self, ServeCommand.self,
            UnipenCommand.self, ReadLabelsCommand.self,
        ])
}
