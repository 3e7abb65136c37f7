import FuzzDriver
import StrokeNN

// Architecture specs (`--arch`, `strokekit.architecture`); a spec that parses is built.
runFuzzer { input in
    let text = String(decoding: input, as: UTF8.self)
    guard let spec = try? ArchitectureSpec(parsing: text) else { return }
    precondition((try? ArchitectureSpec(parsing: spec.description)) == spec, "a spec must round-trip: \(spec)")
    // Building allocates and initialises the weights: build specs up to a million
    // parameters only, so each run stays fast and small (the parameter limit itself is
    // tested in StrokeNNTests, and the count is checked against the built network here).
    let expected = Network.parameterCount(of: spec, classCount: 3)
    guard expected <= 1_000_000, let network = try? Network(architecture: spec, classCount: 3) else { return }
    precondition(network.parameterCount == expected, "parameter count \(network.parameterCount) != \(expected) for \(spec)")
}
