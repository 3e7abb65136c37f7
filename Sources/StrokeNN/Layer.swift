import StrokeTensor

/// A trainable tensor and the gradient of the loss with respect to it.
/// Parameters are reference types so that optimizers and model files can reach
/// them without copying; their names (`conv1.weight`) are the model file's tensor names.
public final class Parameter {
    public let name: String
    public var value: Tensor
    /// d(loss)/d(value) of the last backward pass (overwritten, not accumulated, each pass).
    /// Allocated when a backward pass first writes it, so a network that only runs forward
    /// (inference) holds no gradient memory; reads before that see zeros.
    public var gradient: Tensor {
        get { storedGradient ?? Tensor(shape: value.shape) }
        set { storedGradient = newValue }
        _modify {
            if storedGradient == nil { storedGradient = Tensor(shape: value.shape) }
            yield &storedGradient!
        }
    }
    private var storedGradient: Tensor?

    /// True once a backward pass (or a caller) has written the gradient.
    public var hasGradient: Bool { storedGradient != nil }

    public init(name: String, value: Tensor) {
        self.name = name
        self.value = value
    }
}

/// One stage of a network. The network owns the activations; a layer owns its
/// parameters and whatever it caches for backward (im2col columns, argmax, masks),
/// allocated when the batch shape changes and reused after that.
///
/// Convolutional layers work on channel-major batches, (C, N, H, W), so a whole batch
/// is one matrix product; `Flatten` turns that into (N, features) for dense layers.
public protocol Layer: AnyObject {
    /// A short description for `inspect` and errors, e.g. "conv3x3 16".
    var summary: String { get }
    /// The trainable parameters, in file order (weight, then bias).
    var parameters: [Parameter] { get }
    /// The output shape for an input shape (both in this layer's layout).
    func outputShape(for inputShape: [Int]) -> [Int]
    /// Computes `output` from `input`; `output` already has `outputShape(for:)`.
    func forward(_ input: Tensor, into output: inout Tensor, training: Bool)
    /// Sets parameter gradients from `outputGradient` and, when `inputGradient` is
    /// non-nil, fills it with d(loss)/d(input). `input` and `output` are the tensors of
    /// the last `forward` call.
    func backward(input: Tensor, output: Tensor, outputGradient: Tensor, inputGradient: inout Tensor?)
}

extension Layer {
    public var parameters: [Parameter] { [] }
}
