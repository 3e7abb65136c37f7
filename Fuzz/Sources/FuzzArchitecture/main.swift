import FuzzDriver
import StrokeNN

// Architecture specs (`--arch`, `strokekit.architecture`); a spec that parses is built.
runFuzzer { input in
    let text = String(decoding: input, as: UTF8.self)
    guard let spec = try? ArchitectureSpec(parsing: text) else { return }
    precondition((try? ArchitectureSpec(parsing: spec.description)) == spec, "a spec must round-trip: \(spec)")
    // Building allocates the weights: build the modest specs only, so each run stays fast
    // (the parameter limit itself is tested in StrokeNNTests).
    let modest = spec.stages.count <= 8 && spec.stages.allSatisfy { stage in
        switch stage {
        case .convolution(let channels, _): channels <= 64
        case .dense(let outputs): outputs <= 512
        case .pool, .dropout: true
        }
    }
    if modest { _ = try? Network(architecture: spec, classCount: 3) }
}
