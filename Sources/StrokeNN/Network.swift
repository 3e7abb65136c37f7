import StrokeTensor
import StrokeSupport

/// A feed-forward classifier built from an `ArchitectureSpec`: the layers, their
/// parameters, and the activations and gradients of the current batch.
///
/// The network owns one activation tensor per layer boundary, allocated when the batch
/// size changes; a training step on a batch of the same size allocates nothing.
/// Not thread-safe: use one `Network` per thread (see `copyParameters(from:)`).
public final class Network {
    public let architecture: ArchitectureSpec
    public let classCount: Int
    /// Input (channels, height, width) of one example.
    public let inputChannels: Int, inputHeight: Int, inputWidth: Int
    public let layers: [any Layer]
    /// Every trainable parameter, in layer order (model-file order).
    public let parameters: [Parameter]

    /// StrokeKit runs OpenBLAS single-threaded, process-wide, from the first network on:
    /// the GEMMs of a 28x28 CNN are small, so parallelism pays off one level up (the
    /// trainer's data-parallel workers, concurrent classifier callers), and a fixed thread
    /// count is what makes results bitwise reproducible (OpenBLAS partitions work by
    /// thread count). Set `BLAS.threadCount` afterwards to override.
    private static let singleThreadedBLAS: Void = { BLAS.threadCount = 1 }()

    /// activations[0] is the input in channel-major layout; activations[i + 1] is layer i's output.
    private var activations: [Tensor] = []
    /// gradients[i] is d(loss)/d(activations[i]); gradients[0] (the input) is never computed.
    private var gradients: [Tensor?] = []
    private var batchSize = 0
    /// Activations and gradients of the batch sizes used before the current one, most recent
    /// last: training alternates full batches, a last partial batch and validation batches,
    /// and switching back to one of them then allocates (and page-faults) nothing.
    private var stashedBuffers: [(batch: Int, activations: [Tensor], gradients: [Tensor?])] = []
    private static let stashedBatchSizes = 3

    /// Most trainable scalars a network may have (200 MB of F32 weights; the default network
    /// has 97,539), so that a spec from a file or a flag cannot exhaust memory.
    public static let maximumParameterCount = 50_000_000

    /// Builds the layers. Throws when the architecture does not fit the input (e.g. more
    /// pools than the image can halve) or has more than `maximumParameterCount` parameters.
    public init(architecture: ArchitectureSpec, classCount: Int,
                inputChannels: Int = 1, inputHeight: Int = 28, inputWidth: Int = 28) throws {
        Self.singleThreadedBLAS
        guard classCount >= 2 else {
            throw ArchitectureSpecError(spec: architecture.description, problem: "needs at least 2 classes, got \(classCount)")
        }
        let count = Self.parameterCount(of: architecture, classCount: classCount, inputChannels: inputChannels,
                                        inputHeight: inputHeight, inputWidth: inputWidth)
        guard count <= Self.maximumParameterCount else {
            throw ArchitectureSpecError(
                spec: architecture.description,
                problem: "\(count) parameters, over the limit of \(Self.maximumParameterCount) (Network.maximumParameterCount)")
        }
        self.architecture = architecture
        self.classCount = classCount
        self.inputChannels = inputChannels
        self.inputHeight = inputHeight
        self.inputWidth = inputWidth

        var layers: [any Layer] = []
        var (channels, height, width) = (inputChannels, inputHeight, inputWidth)
        var features: Int? = nil   // set once flattened
        var convolutionCount = 0, denseCount = 0, dropoutCount = 0
        func flattenIfNeeded() -> Int {
            if let features { return features }
            layers.append(Flatten())
            return channels * height * width
        }
        for stage in architecture.stages {
            switch stage {
            case .convolution(let outputChannels, let kernelSize):
                convolutionCount += 1
                layers.append(Conv2D(name: "conv\(convolutionCount)", inputChannels: channels,
                                     outputChannels: outputChannels, kernelSize: kernelSize))
                layers.append(ReLU())
                channels = outputChannels
            case .pool:
                guard height >= 2 && width >= 2 else {
                    throw ArchitectureSpecError(
                        spec: architecture.description,
                        problem: "too many pools: a \(height)x\(width) map cannot be halved again")
                }
                // NOTE: pooling commutes with the ReLU before it (both are maxima:
                // max(relu(a), relu(b)) = relu(max(a, b)), gradients included), so a conv's
                // ReLU moves after the pool and touches a quarter of the values.
                if layers.last is ReLU, layers.dropLast().last is Conv2D {
                    layers.removeLast()
                    layers.append(MaxPool2D())
                    layers.append(ReLU())
                } else {
                    layers.append(MaxPool2D())
                }
                (height, width) = (height / 2, width / 2)
            case .dense(let outputs):
                let inputs = flattenIfNeeded()
                denseCount += 1
                layers.append(Dense(name: "dense\(denseCount)", inputFeatures: inputs, outputFeatures: outputs))
                layers.append(ReLU())
                features = outputs
            case .dropout(let rate):
                dropoutCount += 1
                layers.append(Dropout(rate: rate, seed: UInt64(dropoutCount)))
            }
        }
        let inputs = flattenIfNeeded()
        layers.append(Dense(name: "dense\(denseCount + 1)", inputFeatures: inputs, outputFeatures: classCount))
        self.layers = layers
        self.parameters = layers.flatMap(\.parameters)
    }

    /// Trainable scalars `init(architecture:…)` would allocate for `architecture` on this
    /// input, computed without allocating (pools on a map too small to halve count as
    /// nothing; `init` rejects them).
    public static func parameterCount(of architecture: ArchitectureSpec, classCount: Int,
                                      inputChannels: Int = 1, inputHeight: Int = 28, inputWidth: Int = 28) -> Int {
        var (channels, height, width, count) = (inputChannels, inputHeight, inputWidth, 0)
        var features: Int? = nil
        for stage in architecture.stages {
            switch stage {
            case .convolution(let outputs, let kernel):
                count += outputs * channels * kernel * kernel + outputs
                channels = outputs
            case .pool:
                (height, width) = (height / 2, width / 2)
            case .dense(let outputs):
                count += (features ?? channels * height * width) * outputs + outputs
                features = outputs
            case .dropout:
                break
            }
        }
        return count + (features ?? channels * height * width) * classCount + classCount
    }

    /// Number of trainable scalars.
    public var parameterCount: Int { parameters.reduce(0) { $0 + $1.value.count } }

    /// He initialisation (He et al. 2015): weights ~ N(0, 2 / fan_in), biases 0, which
    /// keeps activation variance steady through ReLU layers. Dropout masks are reseeded too.
    public func initializeParameters(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        for parameter in parameters {
            if parameter.value.shape.count == 1 {
                parameter.value.zero()
                continue
            }
            let fanIn = parameter.value.shape.dropFirst().reduce(1, *)
            let standardDeviation = (2.0 / Double(fanIn)).squareRoot()
            for i in 0..<parameter.value.count {
                parameter.value.values[i] = Float(generator.nextNormal() * standardDeviation)
            }
        }
        reseedDropout(seed)
    }

    /// Reseeds every dropout layer from `seed` (the trainer calls this once per epoch).
    public func reseedDropout(_ seed: UInt64) {
        for case let (index, dropout as Dropout) in layers.enumerated() {
            dropout.reseed(seed &+ UInt64(index) &* 0x9E37_79B9)
        }
    }

    /// Copies every parameter value from a network of the same architecture.
    public func copyParameters(from other: Network) {
        precondition(other.architecture == architecture && other.classCount == classCount,
                     "copyParameters needs the same architecture")
        for (target, source) in zip(parameters, other.parameters) {
            target.value.values.withUnsafeMutableBufferPointer { t in
                source.value.values.withUnsafeBufferPointer { t.baseAddress!.update(from: $0.baseAddress!, count: $0.count) }
            }
        }
    }

    /// Name and shape of every parameter, as the model file must store them.
    public var parameterShapes: [(name: String, shape: [Int])] {
        parameters.map { ($0.name, $0.value.shape) }
    }

    // MARK: - Forward and backward

    /// Allocates activations for `batch` examples (only when it changes). Gradients wait
    /// for the first backward pass at this batch size: inference never allocates them.
    private func prepare(batch: Int) {
        guard batch != batchSize else { return }
        if batchSize > 0 {
            stashedBuffers.append((batchSize, activations, gradients))
            if stashedBuffers.count > Self.stashedBatchSizes { stashedBuffers.removeFirst() }
        }
        batchSize = batch
        if let index = stashedBuffers.firstIndex(where: { $0.batch == batch }) {
            (_, activations, gradients) = stashedBuffers.remove(at: index)
            return
        }
        var shape = [inputChannels, batch, inputHeight, inputWidth]
        activations = [Tensor(shape: shape)]
        for layer in layers {
            shape = layer.outputShape(for: shape)
            activations.append(Tensor(shape: shape))
        }
        gradients = []
    }

    /// Allocates the activation gradients to match the activations (only when they changed).
    private func prepareGradients() {
        guard gradients.count != activations.count else { return }
        gradients = [nil] + activations.dropFirst().map { Tensor(shape: $0.shape) }
    }

    /// True when backward passes have allocated gradient buffers (activation or parameter
    /// gradients); a network that has only run forward has none.
    public var hasGradientBuffers: Bool {
        !gradients.isEmpty || stashedBuffers.contains { !$0.gradients.isEmpty } || parameters.contains(where: \.hasGradient)
    }

    /// Runs the network on `input` (N, C, H, W), NCHW as datasets produce it, and returns
    /// the logits (N, classCount). Reading `logits` afterwards avoids the copy.
    @discardableResult
    public func forward(_ input: Tensor, training: Bool) -> Tensor {
        forward(batch: input.shape[0], training: training) { buffer in
            input.values.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: $0.count) }
        }
        return logits
    }

    /// Runs the network on a batch whose input `fill` writes, NCHW, into the given buffer
    /// of N·C·H·W floats (the path that lets callers avoid any per-call allocation).
    public func forward(batch: Int, training: Bool, fill: (UnsafeMutablePointer<Float>) -> Void) {
        precondition(batch > 0, "empty batch")
        prepare(batch: batch)
        activations[0].values.withUnsafeMutableBufferPointer { buffer in
            if inputChannels == 1 {
                fill(buffer.baseAddress!)  // (N, 1, H, W) and (1, N, H, W) are the same bytes
            } else {
                let staging = UnsafeMutablePointer<Float>.allocate(capacity: buffer.count)
                defer { staging.deallocate() }
                fill(staging)
                let plane = inputHeight * inputWidth
                for n in 0..<batch {
                    for c in 0..<inputChannels {
                        (buffer.baseAddress! + (c * batch + n) * plane)
                            .update(from: staging + (n * inputChannels + c) * plane, count: plane)
                    }
                }
            }
        }
        for (index, layer) in layers.enumerated() {
            layer.forward(activations[index], into: &activations[index + 1], training: training)
        }
    }

    /// The logits (N, classCount) of the last forward pass.
    public var logits: Tensor { activations[activations.count - 1] }

    /// Reads the logits of the last forward pass without copying.
    public func withLogits<Result>(_ body: (UnsafeBufferPointer<Float>) -> Result) -> Result {
        activations[activations.count - 1].values.withUnsafeBufferPointer(body)
    }

    /// Backpropagates d(loss)/d(logits) and leaves every parameter's `gradient` set.
    public func backward(logitsGradient: Tensor) {
        prepareGradients()
        gradients[gradients.count - 1] = logitsGradient
        backwardFromLastGradient()
    }

    /// Writes d(loss)/d(logits) with `write`, then backpropagates it.
    public func backward(writingLogitsGradient write: (inout Tensor) -> Void) {
        prepareGradients()
        write(&gradients[gradients.count - 1]!)
        backwardFromLastGradient()
    }

    private func backwardFromLastGradient() {
        for index in stride(from: layers.count - 1, through: 0, by: -1) {
            // The first layer's input gradient is never needed: skip that work.
            var inputGradient = index == 0 ? nil : gradients[index].take()
            layers[index].backward(
                input: activations[index], output: activations[index + 1],
                outputGradient: gradients[index + 1]!, inputGradient: &inputGradient)
            gradients[index] = inputGradient
        }
    }
}

extension Network {
    /// Multiply-add FLOPs (2 per multiply-add) of one example's forward pass through the
    /// convolutions and dense layers; elementwise work is not counted. A training step
    /// costs about three times this (forward, input gradient, weight gradient).
    public var forwardFLOPsPerExample: Int {
        var flops = 0
        var shape = [inputChannels, 1, inputHeight, inputWidth]
        for layer in layers {
            let output = layer.outputShape(for: shape)
            if let conv = layer as? Conv2D {
                flops += 2 * conv.outputChannels * conv.inputChannels * conv.kernelSize * conv.kernelSize
                    * output[2] * output[3]
            } else if let dense = layer as? Dense {
                flops += 2 * dense.inputFeatures * dense.outputFeatures
            }
            shape = output
        }
        return flops
    }
}
