"""A small NumPy interpreter of Core ML neural-network classifier specs.

It runs exactly the layer kinds StrokeKit exports (convolution, pooling, ReLU activation,
flatten, inner product, softmax) plus the image preprocessing scaler, reading every
weight and parameter from the spec itself, so that agreeing with StrokeKit proves the
exported layout (Core ML's weight and blob orders) rather than assuming it. Any other
layer kind or option raises an error. Computation is in float64 from the float32 weights.

Blobs are (N, C, H, W) for a batch of N images; Core ML runs one image as (C, H, W).
"""
import numpy as np


class UnsupportedSpec(Exception):
    pass


def preprocess(spec_nn, input_name, pixels):
    """pixels: uint8 (N, H, W) grayscale -> float32 (N, 1, H, W) after the spec's scaler."""
    image = pixels.astype(np.float32)[:, None, :, :]
    for step in spec_nn.preprocessing:
        if step.featureName not in ("", input_name):
            continue
        kind = step.WhichOneof("preprocessor")
        if kind != "scaler":
            raise UnsupportedSpec(f"preprocessing '{kind}'")
        scaler = step.scaler
        # Core ML: value = channelScale * pixel + grayBias (float32 arithmetic).
        image = image * np.float32(scaler.channelScale) + np.float32(scaler.grayBias)
    return image


def _weights(params, expected_count, what):
    values = np.asarray(params.floatValue, dtype=np.float32)
    if values.size != expected_count:
        raise UnsupportedSpec(f"{what}: {values.size} float values, expected {expected_count} "
                              "(only floatValue weights are interpreted)")
    return values.astype(np.float64)


def _padding(valid, kernel_axes):
    amounts = valid.paddingAmounts.borderAmounts
    if len(amounts) == 0:
        return [(0, 0)] * kernel_axes
    if len(amounts) != kernel_axes:
        raise UnsupportedSpec(f"{len(amounts)} border amounts for {kernel_axes} axes")
    return [(int(a.startEdgeSize), int(a.endEdgeSize)) for a in amounts]


def convolution(layer, x):
    p = layer.convolution
    if p.WhichOneof("ConvolutionPaddingType") != "valid":
        raise UnsupportedSpec("convolution padding other than 'valid' with explicit amounts")
    if p.isDeconvolution or max(p.nGroups, 1) != 1:
        raise UnsupportedSpec("deconvolution or grouped convolution")
    kh, kw = (int(k) for k in p.kernelSize)
    stride = [int(s) for s in p.stride] or [1, 1]
    dilation = [int(d) for d in p.dilationFactor] or [1, 1]
    if stride != [1, 1] or dilation != [1, 1]:
        raise UnsupportedSpec(f"stride {stride} / dilation {dilation}")
    out_c, in_c = int(p.outputChannels), int(p.kernelChannels)
    if x.shape[1] != in_c:
        raise UnsupportedSpec(f"{layer.name}: input has {x.shape[1]} channels, kernelChannels is {in_c}")
    # Core ML's convolution weight layout: (outputChannels, kernelChannels, kernelHeight, kernelWidth).
    w = _weights(p.weights, out_c * in_c * kh * kw, f"{layer.name} weights").reshape(out_c, in_c, kh, kw)
    (top, bottom), (left, right) = _padding(p.valid, 2)
    padded = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)))
    out_h, out_w = padded.shape[2] - kh + 1, padded.shape[3] - kw + 1
    y = np.zeros((x.shape[0], out_c, out_h, out_w))
    for dy in range(kh):
        for dx in range(kw):
            window = padded[:, :, dy:dy + out_h, dx:dx + out_w]          # (N, C, H, W)
            y += np.einsum("nchw,oc->nohw", window, w[:, :, dy, dx])
    if p.hasBias:
        y += _weights(p.bias, out_c, f"{layer.name} bias")[None, :, None, None]
    return y


def pooling(layer, x):
    p = layer.pooling
    if p.type != 0:  # MAX
        raise UnsupportedSpec("pooling other than MAX")
    if p.WhichOneof("PoolingPaddingType") != "valid" or p.globalPooling:
        raise UnsupportedSpec("pooling padding other than 'valid'")
    kh, kw = (int(k) for k in p.kernelSize)
    sh, sw = (int(s) for s in p.stride)
    (top, bottom), (left, right) = _padding(p.valid, 2)
    if (top, bottom, left, right) != (0, 0, 0, 0):
        raise UnsupportedSpec("padded pooling")
    out_h, out_w = (x.shape[2] - kh) // sh + 1, (x.shape[3] - kw) // sw + 1
    y = np.full((x.shape[0], x.shape[1], out_h, out_w), -np.inf)
    for dy in range(kh):
        for dx in range(kw):
            y = np.maximum(y, x[:, :, dy:dy + sh * out_h:sh, dx:dx + sw * out_w:sw])
    return y


def activation(layer, x):
    kind = layer.activation.WhichOneof("NonlinearityType")
    if kind != "ReLU":
        raise UnsupportedSpec(f"activation '{kind}'")
    return np.maximum(x, 0)


def flatten(layer, x):
    if layer.flatten.mode != 0:  # CHANNEL_FIRST
        raise UnsupportedSpec("flatten CHANNEL_LAST")
    return x.reshape(x.shape[0], -1)


def inner_product(layer, x):
    p = layer.innerProduct
    n_in, n_out = int(p.inputChannels), int(p.outputChannels)
    x = x.reshape(x.shape[0], -1)
    if x.shape[1] != n_in:
        raise UnsupportedSpec(f"{layer.name}: {x.shape[1]} inputs, inputChannels is {n_in}")
    # Core ML's inner-product weight layout: (outputChannels, inputChannels).
    w = _weights(p.weights, n_out * n_in, f"{layer.name} weights").reshape(n_out, n_in)
    y = x @ w.T
    if p.hasBias:
        y += _weights(p.bias, n_out, f"{layer.name} bias")
    return y


def softmax(layer, x):
    x = x.reshape(x.shape[0], -1)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


LAYERS = {
    "convolution": convolution,
    "pooling": pooling,
    "activation": activation,
    "flatten": flatten,
    "innerProduct": inner_product,
    "softmax": softmax,
}


def run_classifier(spec, pixels):
    """Runs the spec's neural-network classifier on uint8 images (N, H, W).

    Returns (probabilities (N, classes) in the spec's class-label order, labels, scaled input)."""
    kind = spec.WhichOneof("Type")
    if kind != "neuralNetworkClassifier":
        raise UnsupportedSpec(f"model type '{kind}'")
    nn = spec.neuralNetworkClassifier
    input_name = spec.description.input[0].name
    blobs = {input_name: preprocess(nn, input_name, pixels).astype(np.float64)}
    scaled = blobs[input_name].astype(np.float32)
    for layer in nn.layers:
        kind = layer.WhichOneof("layer")
        if kind not in LAYERS:
            raise UnsupportedSpec(f"layer '{layer.name}' of kind '{kind}'")
        if len(layer.input) != 1 or len(layer.output) != 1:
            raise UnsupportedSpec(f"layer '{layer.name}' with several inputs or outputs")
        blobs[layer.output[0]] = LAYERS[kind](layer, blobs[layer.input[0]])
    probabilities = blobs[nn.labelProbabilityLayerName].reshape(pixels.shape[0], -1)
    labels = list(nn.stringClassLabels.vector)
    return probabilities, labels, scaled
