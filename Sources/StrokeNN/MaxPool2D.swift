import StrokeTensor

/// 2x2 max pooling, stride 2, on (C, N, H, W); odd trailing rows/columns are dropped
/// (floor), as in PyTorch's default. Output (C, N, H/2, W/2).
public final class MaxPool2D: Layer {
    /// For each output element, where in its 2x2 window the maximum was (0 top left,
    /// 1 top right, 2 bottom left, 3 bottom right), kept for backward.
    private var winners: [UInt8] = []

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
        if winners.count < output.count { winners = [UInt8](repeating: 0, count: output.count) }
        input.values.withUnsafeBufferPointer { x in
            output.values.withUnsafeMutableBufferPointer { y in
                winners.withUnsafeMutableBufferPointer { winner in
                    var o = 0
                    for p in 0..<planes {
                        let plane = x.baseAddress! + p * height * width
                        for oy in 0..<outHeight {
                            let top = plane + 2 * oy * width, bottom = top + width
                            for ox in 0..<outWidth {
                                // Ties go to the first element in row-major order (strict >).
                                // Branch-free selects: the winner of a window is unpredictable.
                                let (a, b, c, d) = (top[2 * ox], top[2 * ox + 1], bottom[2 * ox], bottom[2 * ox + 1])
                                let rightTop = b > a, rightBottom = d > c
                                let topMax = rightTop ? b : a, bottomMax = rightBottom ? d : c
                                let fromBottom = bottomMax > topMax
                                y[o] = fromBottom ? bottomMax : topMax
                                winner[o] = fromBottom ? (rightBottom ? 3 : 2) : (rightTop ? 1 : 0)
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
        // in the forward pass this was: y[o] = the winner of o's 2x2 window, so dx is dy at
        // each window's winner and zero elsewhere (windows do not overlap). Each plane is
        // cleared just before its scatter, while it is in the L1 cache, not all in one pass.
        let planeSize = height * width
        outputGradient.values.withUnsafeBufferPointer { dy in
            winners.withUnsafeBufferPointer { winner in
                inputGradient!.values.withUnsafeMutableBufferPointer { dx in
                    var o = 0
                    for p in 0..<planes {
                        let plane = dx.baseAddress! + p * planeSize
                        plane.update(repeating: 0, count: planeSize)
                        for oy in 0..<outHeight {
                            let top = plane + 2 * oy * width
                            for ox in 0..<outWidth {
                                let w = Int(winner[o])
                                top[2 * ox + (w & 1) + (w >> 1) * width] = dy[o]
                                o += 1
                            }
                        }
                    }
                }
            }
        }
    }
}
