/// The hand-written kernels of `InferenceEngine` (everything that is not a BLAS call):
/// channels-last im2col from a zero-bordered map, and the fused pass after a convolution's
/// GEMM (2x2 max pool, bias, ReLU, written into the next map's interior).
/// Each is checked against `Network.forward` by the engine's tests.

/// A spatial activation of one image, stored channels-last (H, W, C) with a zero border
/// of `pad` pixels on every side, so that a 'same' convolution reads it without bounds
/// checks. A batch stores images one after another, `imageSize` floats apart.
struct FeatureMap: Equatable {
    var channels: Int, height: Int, width: Int
    var pad = 0

    /// Floats from one stored row to the next: (W + 2·pad)·C.
    var rowStride: Int { (width + 2 * pad) * channels }
    /// Floats per image, border included.
    var imageSize: Int { (height + 2 * pad) * rowStride }
    /// Values per image, border excluded: what a flatten sees.
    var valueCount: Int { channels * height * width }
    /// Offset of pixel (y, x)'s first channel; y and x may reach into the border.
    func offset(y: Int, x: Int) -> Int { (y + pad) * rowStride + (x + pad) * channels }
    /// The map after a 2x2 max pool (odd trailing rows and columns dropped, as `MaxPool2D`).
    var pooled: FeatureMap { FeatureMap(channels: channels, height: height / 2, width: width / 2) }
}

/// Fills `columns` (N·OH·OW rows, K·K·C columns) from `input`, N images of `map` whose
/// border is K/2 wide: row (n, y, x) is the K×K×C patch centred on (y, x), in (ky, kx, c)
/// order, for the output pixels y < `outputHeight`, x < `outputWidth` (at most the map's
/// size: a pool after the convolution may read only part of it). The border supplies the
/// 'same' padding, so each patch row (ky) is one contiguous run of K·C floats.
func im2colChannelsLast(_ input: UnsafePointer<Float>, map: FeatureMap, kernelSize: Int,
                        outputHeight: Int, outputWidth: Int, count: Int,
                        into columns: UnsafeMutablePointer<Float>) {
    precondition(map.pad == kernelSize / 2 && outputHeight <= map.height && outputWidth <= map.width,
                 "im2col of \(map), kernel \(kernelSize), output \(outputHeight)x\(outputWidth)")
    let channels = map.channels
    let run = kernelSize * channels, patch = kernelSize * run
    var target = columns
    for n in 0..<count {
        let image = input + n * map.imageSize
        for y in 0..<outputHeight {
            // Patch row ky of pixel (y, x) starts at stored row y + ky, stored column x.
            for x in 0..<outputWidth {
                var source = image + y * map.rowStride + x * channels
                for ky in 0..<kernelSize {
                    copyShort(from: source, to: target + ky * run, count: run)
                    source += map.rowStride
                }
                target += patch
            }
        }
    }
}

/// im2col for a one-channel map, stored transposed: (K·K rows, N·OH·OW columns), row
/// (ky, kx) holding every output pixel's neighbour at that offset. With one channel a patch
/// row is only K floats, too short to copy well; here each image row of each kernel offset
/// is one run of OW floats. The GEMM then reads the columns transposed.
func im2colSingleChannel(_ input: UnsafePointer<Float>, map: FeatureMap, kernelSize: Int,
                         outputHeight: Int, outputWidth: Int, count: Int,
                         into columns: UnsafeMutablePointer<Float>) {
    precondition(map.channels == 1 && map.pad == kernelSize / 2 && outputHeight <= map.height && outputWidth <= map.width,
                 "im2colSingleChannel: \(map), kernel \(kernelSize), output \(outputHeight)x\(outputWidth)")
    let plane = outputHeight * outputWidth, pixels = count * plane
    for ky in 0..<kernelSize {
        for kx in 0..<kernelSize {
            let row = columns + (ky * kernelSize + kx) * pixels
            for n in 0..<count {
                let image = input + n * map.imageSize
                for y in 0..<outputHeight {
                    copyShort(from: image + (y + ky) * map.rowStride + kx, to: row + n * plane + y * outputWidth,
                              count: outputWidth)
                }
            }
        }
    }
}

/// Copies `count` floats with 16-float vector moves; for the runs of im2col (a few to a
/// few hundred floats), where a `memcpy` call costs more than the copy.
@inline(__always)
func copyShort(from source: UnsafePointer<Float>, to target: UnsafeMutablePointer<Float>, count: Int) {
    var index = 0
    let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(target)
    while index + 16 <= count {
        to.storeBytes(of: from.loadUnaligned(fromByteOffset: 4 * index, as: SIMD16<Float>.self),
                      toByteOffset: 4 * index, as: SIMD16<Float>.self)
        index += 16
    }
    while index + 4 <= count {
        to.storeBytes(of: from.loadUnaligned(fromByteOffset: 4 * index, as: SIMD4<Float>.self),
                      toByteOffset: 4 * index, as: SIMD4<Float>.self)
        index += 4
    }
    while index < count {
        target[index] = source[index]
        index += 1
    }
}

/// The pass after a convolution (or a pool or ReLU on their own), fused: reads N images of
/// `inputMap`, optionally takes 2x2 maxima, adds `bias[c]`, optionally clamps at 0, and
/// writes the interior of `outputMap` (its border is left as it is: zero).
/// Bias and ReLU commute with the maximum (max(a + b, c + b) = max(a, c) + b), so this
/// equals the reference order conv + bias -> pool -> ReLU.
func poolBiasReLU(_ input: UnsafePointer<Float>, map inputMap: FeatureMap,
                  into output: UnsafeMutablePointer<Float>, map outputMap: FeatureMap,
                  count: Int, pool: Bool, bias: UnsafePointer<Float>, relu: Bool) {
    let channels = inputMap.channels
    precondition(outputMap.channels == channels
                 && (pool ? outputMap.height == inputMap.height / 2 && outputMap.width == inputMap.width / 2
                          : outputMap.height == inputMap.height && outputMap.width == inputMap.width),
                 "poolBiasReLU: \(inputMap) does not give \(outputMap)")
    let floor: Float = relu ? 0 : -.infinity
    let step = pool ? 2 : 1
    for n in 0..<count {
        let source = input + n * inputMap.imageSize, target = output + n * outputMap.imageSize
        for y in 0..<outputMap.height {
            for x in 0..<outputMap.width {
                let topLeft = source + inputMap.offset(y: step * y, x: step * x)
                let out = target + outputMap.offset(y: y, x: x)
                if pool {
                    maxOfFourPlusBias(topLeft, topLeft + channels, topLeft + inputMap.rowStride,
                                      topLeft + inputMap.rowStride + channels,
                                      bias: bias, floor: floor, into: out, count: channels)
                } else {
                    maxOfFourPlusBias(topLeft, topLeft, topLeft, topLeft, bias: bias, floor: floor, into: out, count: channels)
                }
            }
        }
    }
}

/// out[c] = max(max(a[c], b[c], d[c], e[c]) + bias[c], floor) for c < count, 4 lanes at a time.
@inline(__always)
private func maxOfFourPlusBias(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
                               _ d: UnsafePointer<Float>, _ e: UnsafePointer<Float>,
                               bias: UnsafePointer<Float>, floor: Float,
                               into out: UnsafeMutablePointer<Float>, count: Int) {
    var c = 0
    let floorVector = SIMD4<Float>(repeating: floor)
    func load(_ pointer: UnsafePointer<Float>) -> SIMD4<Float> {
        UnsafeRawPointer(pointer + c).loadUnaligned(as: SIMD4<Float>.self)
    }
    while c + 4 <= count {
        let top = larger(load(a), load(b)), bottom = larger(load(d), load(e))
        let value = larger(larger(top, bottom) + load(bias), floorVector)
        UnsafeMutableRawPointer(out + c).storeBytes(of: value, as: SIMD4<Float>.self)
        c += 4
    }
    while c < count {
        out[c] = max(max(max(a[c], b[c]), max(d[c], e[c])) + bias[c], floor)
        c += 1
    }
}

/// Lane-wise maximum as one compare and select. (The standard library's `pointwiseMax`
/// handles NaN lane by lane, in scalar code: it made this pass 8x slower.)
@inline(__always)
func larger(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
    a.replacing(with: b, where: a .< b)
}
