/// A 3x3 convolution followed by a 2x2 max pool by Winograd's minimal filtering,
/// F(2x2, 3x3) (Lavin and Gray, "Fast Algorithms for Convolutional Neural Networks", 2015):
/// the hand-written transforms of `InferenceEngine`'s Winograd step. The products between
/// them are 16 `cblas_sgemm` calls; each 2x2 output tile is exactly one pool window.
///
/// For one channel pair, a 2x2 output tile Y of the correlation of a 4x4 input tile d with a
/// 3x3 kernel g is Y = Aᵀ [(G g Gᵀ) ⊙ (Bᵀ d B)] A, with
///
///     Bᵀ = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1]     G = [1 0 0; ½ ½ ½; ½ -½ ½; 0 0 1]
///     Aᵀ = [1 1 1 0; 0 1 -1 -1]
///
/// Summed over input channels, the 16 element-wise products become 16 matrix products
/// (tiles × C)·(C × OC): 16·C·OC multiply-adds per 2x2 outputs where im2col's GEMM spends
/// 36·C·OC. Bᵀ and Aᵀ hold only 0 and ±1, so the transforms are additions; G's halves are
/// applied once, at load time, in Double.

/// The 16 transformed 3x3 kernels of `weight` (OC, C, 3, 3): element ξ = 4i + j of
/// G g Gᵀ for each channel pair, stored as 16 matrices (C, OC), ξ-major.
func winogradKernels(_ weight: [Float], outputChannels: Int, inputChannels: Int) -> [Float] {
    precondition(weight.count == outputChannels * inputChannels * 9, "winogradKernels: not a 3x3 kernel")
    let g: [[Double]] = [[1, 0, 0], [0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0, 0, 1]]
    var transformed = [Float](repeating: 0, count: 16 * inputChannels * outputChannels)
    for o in 0..<outputChannels {
        for c in 0..<inputChannels {
            let kernel = (0..<9).map { Double(weight[(o * inputChannels + c) * 9 + $0]) }
            // G · kernel (4x3), then · Gᵀ (4x4).
            var left = [Double](repeating: 0, count: 12)
            for i in 0..<4 {
                for j in 0..<3 { left[i * 3 + j] = (0..<3).reduce(0) { $0 + g[i][$1] * kernel[$1 * 3 + j] } }
            }
            for i in 0..<4 {
                for j in 0..<4 {
                    let value = (0..<3).reduce(0) { $0 + left[i * 3 + $1] * g[j][$1] }
                    transformed[((i * 4 + j) * inputChannels + c) * outputChannels + o] = Float(value)
                }
            }
        }
    }
    return transformed
}

/// Bᵀ d B for every 4x4 tile (stride 2) of `count` images of `map` (border 1, C a multiple
/// of 4): tile (ty, tx) starts at stored pixel (2ty, 2tx), which is (2ty - 1, 2tx - 1) of
/// the map. Writes 16 matrices (count·tileRows·tileColumns rows, C columns), ξ-major, into
/// `transformed`.
func winogradInputTiles(_ input: UnsafePointer<Float>, map: FeatureMap, tileRows: Int, tileColumns: Int,
                        count: Int, into transformed: UnsafeMutablePointer<Float>) {
    let channels = map.channels
    precondition(map.pad == 1 && channels % 4 == 0 && 2 * tileRows <= map.height && 2 * tileColumns <= map.width,
                 "winogradInputTiles: \(map) with \(tileRows)x\(tileColumns) tiles")
    let plane = count * tileRows * tileColumns * channels   // floats per ξ
    let row = map.rowStride
    var tile = 0
    for n in 0..<count {
        let image = input + n * map.imageSize
        for ty in 0..<tileRows {
            for tx in 0..<tileColumns {
                let corner = image + 2 * ty * row + 2 * tx * channels
                let target = transformed + tile * channels
                for c in stride(from: 0, to: channels, by: 4) {
                    transformInputTile(corner + c, rowStride: row, pixelStride: channels,
                                       into: target + c, elementStride: plane)
                }
                tile += 1
            }
        }
    }
}

/// Aᵀ m A for every tile of `products` (16 matrices (count·tileRows·tileColumns, OC),
/// ξ-major, OC a multiple of 4), then the 2x2 max pool of the tile's four outputs, plus
/// `bias`, clamped at 0 if `relu`: pixel (ty, tx) of `count` images of `output`, interior only.
func winogradOutputPool(_ products: UnsafePointer<Float>, tileRows: Int, tileColumns: Int, count: Int,
                        bias: UnsafePointer<Float>, relu: Bool,
                        into output: UnsafeMutablePointer<Float>, map: FeatureMap) {
    let channels = map.channels
    precondition(channels % 4 == 0 && map.height == tileRows && map.width == tileColumns,
                 "winogradOutputPool: \(tileRows)x\(tileColumns) tiles into \(map)")
    let plane = count * tileRows * tileColumns * channels
    let floor = SIMD4<Float>(repeating: relu ? 0 : -.infinity)
    var tile = 0
    for n in 0..<count {
        let image = output + n * map.imageSize
        for ty in 0..<tileRows {
            for tx in 0..<tileColumns {
                let source = products + tile * channels, target = image + map.offset(y: ty, x: tx)
                for c in stride(from: 0, to: channels, by: 4) {
                    let pooled = maxOfOutputTile(source + c, elementStride: plane) + load(bias + c)
                    UnsafeMutableRawPointer(target + c).storeBytes(of: larger(pooled, floor), as: SIMD4<Float>.self)
                }
                tile += 1
            }
        }
    }
}

/// Bᵀ d B for 4 channels of one tile: d(i, j) at `corner + i·rowStride + j·pixelStride`,
/// element ξ = 4i + j written at `target + ξ·elementStride`.
@inline(__always)
private func transformInputTile(_ corner: UnsafePointer<Float>, rowStride: Int, pixelStride: Int,
                                into target: UnsafeMutablePointer<Float>, elementStride: Int) {
    // Rows: t = d B, four values per row.
    @inline(__always) func row(_ i: Int) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let start = corner + i * rowStride
        let (a, b, e, f) = (load(start), load(start + pixelStride), load(start + 2 * pixelStride),
                            load(start + 3 * pixelStride))
        return (a - e, b + e, e - b, b - f)
    }
    let (t0, t1, t2, t3) = (row(0), row(1), row(2), row(3))
    // Columns: Bᵀ t.
    @inline(__always) func store(_ element: Int, _ value: SIMD4<Float>) {
        UnsafeMutableRawPointer(target + element * elementStride).storeBytes(of: value, as: SIMD4<Float>.self)
    }
    store(0, t0.0 - t2.0); store(1, t0.1 - t2.1); store(2, t0.2 - t2.2); store(3, t0.3 - t2.3)
    store(4, t1.0 + t2.0); store(5, t1.1 + t2.1); store(6, t1.2 + t2.2); store(7, t1.3 + t2.3)
    store(8, t2.0 - t1.0); store(9, t2.1 - t1.1); store(10, t2.2 - t1.2); store(11, t2.3 - t1.3)
    store(12, t1.0 - t3.0); store(13, t1.1 - t3.1); store(14, t1.2 - t3.2); store(15, t1.3 - t3.3)
}

/// The largest of the 2x2 outputs Aᵀ m A of one tile, 4 channels: element ξ = 4i + j of m
/// at `source + ξ·elementStride`.
@inline(__always)
private func maxOfOutputTile(_ source: UnsafePointer<Float>, elementStride: Int) -> SIMD4<Float> {
    // Rows: s = m A, two values per row.
    @inline(__always) func row(_ i: Int) -> (SIMD4<Float>, SIMD4<Float>) {
        let start = source + 4 * i * elementStride
        let (a, b, e, f) = (load(start), load(start + elementStride), load(start + 2 * elementStride),
                            load(start + 3 * elementStride))
        let middle = b - e
        return (a + b + e, middle - f)
    }
    let (s0, s1, s2, s3) = (row(0), row(1), row(2), row(3))
    // Columns: Aᵀ s, the 2x2 outputs.
    let y00 = s0.0 + s1.0 + s2.0, y01 = s0.1 + s1.1 + s2.1
    let y10 = s1.0 - s2.0 - s3.0, y11 = s1.1 - s2.1 - s3.1
    return larger(larger(y00, y01), larger(y10, y11))
}

@inline(__always)
private func load(_ pointer: UnsafePointer<Float>) -> SIMD4<Float> {
    UnsafeRawPointer(pointer).loadUnaligned(as: SIMD4<Float>.self)
}
