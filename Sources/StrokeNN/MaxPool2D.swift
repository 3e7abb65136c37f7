import StrokeTensor

/// 2x2 max pooling, stride 2, on (C, N, H, W); odd trailing rows/columns are dropped
/// (floor), as in PyTorch's default. Output (C, N, H/2, W/2).
public final class MaxPool2D: Layer {
    /// For each output element, the index into the input plane of the maximum, kept for backward.
    private var argmax: [Int32] = []

    public init() {}

    public var summary: String { "maxpool2x2" }

    public func outputShape(for inputShape: [Int]) -> [Int] {
        precondition(inputShape.count == 4, "maxpool expects (C, N, H, W), got \(inputShape)")
        return [inputShape[0], inputShape[1], inputShape[2] / 2, inputShape[3] / 2]
    }

    public func forward(_ input: Tensor, into output: inout Tensor, training: Bool) {
        let planes = input.shape[0] * input.shape[1]
        let height = input.shape[2], width = input.shape[3]
        let outHeight = height / 2, outWidth = width / 2
        guard training else {
            // Inference needs no argmax: just the maxima.
            input.values.withUnsafeBufferPointer { x in
                output.values.withUnsafeMutableBufferPointer { y in
                    var o = 0
                    for p in 0..<planes {
                        let plane = x.baseAddress! + p * height * width
                        for oy in 0..<outHeight {
                            let top = plane + 2 * oy * width, bottom = top + width
                            for ox in 0..<outWidth {
                                y[o] = max(max(top[2 * ox], top[2 * ox + 1]), max(bottom[2 * ox], bottom[2 * ox + 1]))
                                o += 1
                            }
                        }
                    }
                }
            }
            return
        }
        if argmax.count != output.count { argmax = [Int32](repeating: 0, count: output.count) }
        input.values.withUnsafeBufferPointer { x in
            output.values.withUnsafeMutableBufferPointer { y in
                argmax.withUnsafeMutableBufferPointer { arg in
                    for p in 0..<planes {
                        let plane = x.baseAddress! + p * height * width
                        var o = p * outHeight * outWidth
                        for oy in 0..<outHeight {
                            for ox in 0..<outWidth {
                                // Ties go to the first element in row-major order (strict >).
                                // Branch-free selects: the winner of a window is unpredictable.
                                let top = 2 * oy * width + 2 * ox, bottom = top + width
                                let (a, b, c, d) = (plane[top], plane[top + 1], plane[bottom], plane[bottom + 1])
                                let rightTop = b > a, rightBottom = d > c
                                let topMax = rightTop ? b : a, bottomMax = rightBottom ? d : c
                                let fromBottom = bottomMax > topMax
                                y[o] = fromBottom ? bottomMax : topMax
                                arg[o] = Int32(fromBottom ? (rightBottom ? bottom + 1 : bottom) : (rightTop ? top + 1 : top))
                                o += 1
                            }
                        }
                    }
                }
            }
        }
    }

    public func backward(input: Tensor, output: Tensor, outputGradient: Tensor, inputGradient: inout Tensor?) {
        guard inputGradient != nil else { return }
        let planes = input.shape[0] * input.shape[1]
        let (height, width) = (input.shape[2], input.shape[3])
        let (outHeight, outWidth) = (output.shape[2], output.shape[3])
        // in the forward pass this was: y[o] = x[argmax[o]] over each 2x2 window, so
        // dx is zero except at each window's winner, which gets dy (windows do not overlap).
        inputGradient!.zero()
        let planeSize = height * width, outPlaneSize = outHeight * outWidth
        outputGradient.values.withUnsafeBufferPointer { dy in
            argmax.withUnsafeBufferPointer { arg in
                inputGradient!.values.withUnsafeMutableBufferPointer { dx in
                    for p in 0..<planes {
                        let plane = dx.baseAddress! + p * planeSize
                        for o in (p * outPlaneSize)..<((p + 1) * outPlaneSize) { plane[Int(arg[o])] = dy[o] }
                    }
                }
            }
        }
    }
}
