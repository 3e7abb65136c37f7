/// im2col and its adjoint col2im for stride-1 'same' convolutions over a batch stored
/// channel-major, (C, N, H, W). In that layout a whole batch is one matrix product:
///
///     output (OC, N·H·W) = weight (OC, C·KH·KW) × columns (C·KH·KW, N·H·W)
///
/// Row `r = (c·KH + ky)·KW + kx` of `columns` holds, for every output position
/// (n, y, x), the input value at (c, n, y + ky − padY, x + kx − padX), or 0 outside.
public struct ConvolutionGeometry: Sendable, Equatable {
    public var channels: Int
    public var batch: Int
    public var height: Int
    public var width: Int
    public var kernelHeight: Int
    public var kernelWidth: Int

    public init(channels: Int, batch: Int, height: Int, width: Int, kernelHeight: Int, kernelWidth: Int) {
        precondition(kernelHeight % 2 == 1 && kernelWidth % 2 == 1, "'same' padding needs odd kernel sizes")
        self.channels = channels
        self.batch = batch
        self.height = height
        self.width = width
        self.kernelHeight = kernelHeight
        self.kernelWidth = kernelWidth
    }

    /// Rows of the column matrix: C·KH·KW.
    public var columnRows: Int { channels * kernelHeight * kernelWidth }
    /// Columns of the column matrix: N·H·W.
    public var columnCount: Int { batch * height * width }
}

/// One kernel offset (dy, dx) seen on an H×W plane: the column block of that offset is the
/// plane shifted by dy·W + dx in flat index, except at padding entries, whose source pixel
/// lies outside the plane (or would wrap in from the neighbouring row or image).
struct KernelOffset {
    let height: Int, width: Int
    /// Flat shift from a column entry to its source pixel.
    let shift: Int
    /// Output rows y whose source row y + dy is inside, and columns x whose x + dx is.
    let validRows: Range<Int>, validColumns: Range<Int>
    let dx: Int

    init(dy: Int, dx: Int, height: Int, width: Int) {
        self.height = height
        self.width = width
        self.dx = dx
        shift = dy * width + dx
        validRows = max(0, -dy)..<max(max(0, -dy), min(height, height - dy))
        validColumns = max(0, -dx)..<max(max(0, -dx), min(width, width - dx))
    }

    /// True when some entry has a source pixel (else the whole block is padding).
    var touchesThePlane: Bool { !flatRange(images: 1).isEmpty && !validRows.isEmpty && !validColumns.isEmpty }

    /// Sets the padding entries of `images` consecutive H×W blocks to zero.
    ///
    /// The padding columns are cleared by strided stores down every row of every block: a
    /// loop over the one or two entries of each row would be compiled into one tiny memset
    /// call per row, which cost more than the whole im2col copy.
    func zeroPadding(_ blocks: UnsafeMutablePointer<Float>, images: Int) {
        let plane = height * width
        let rowsAbove = validRows.lowerBound * width, rowsBelow = (height - validRows.upperBound) * width
        for n in 0..<images {
            let block = blocks + n * plane
            block.update(repeating: 0, count: rowsAbove)
            (block + plane - rowsBelow).update(repeating: 0, count: rowsBelow)
        }
        let rows = images * height
        func clearColumn(_ x: Int) {
            var entry = blocks + x
            for _ in 0..<rows {
                entry.pointee = 0
                entry += width
            }
        }
        for x in 0..<validColumns.lowerBound { clearColumn(x) }
        for x in validColumns.upperBound..<width { clearColumn(x) }
    }

    /// Flat indices j of a run of `images` blocks whose j + shift lies inside the run:
    /// the entries one shifted pass over the whole run can move. Every entry outside it
    /// is padding.
    func flatRange(images: Int) -> Range<Int> {
        let count = images * height * width
        let lower = max(0, -shift)
        return lower..<max(lower, min(count, count - shift))
    }
}

/// Calls `body` for every (channel, kernel offset) with the offset's geometry and its row
/// block in the column matrix, in column-row order.
private func forEachKernelOffset(
    _ g: ConvolutionGeometry, columns: UnsafeMutablePointer<Float>,
    _ body: (_ channel: Int, _ offset: KernelOffset, _ block: UnsafeMutablePointer<Float>) -> Void
) {
    let padY = g.kernelHeight / 2, padX = g.kernelWidth / 2
    for c in 0..<g.channels {
        for ky in 0..<g.kernelHeight {
            for kx in 0..<g.kernelWidth {
                let offset = KernelOffset(dy: ky - padY, dx: kx - padX, height: g.height, width: g.width)
                body(c, offset, columns + ((c * g.kernelHeight + ky) * g.kernelWidth + kx) * g.columnCount)
            }
        }
    }
}

/// Fills `columns` (columnRows × columnCount) from `input` (C, N, H, W).
///
/// Channel c's planes lie one after another in both `input` and a block of `columns`, so
/// each kernel offset is one bulk shifted copy of the channel's whole batch; the padding
/// entries (which that copy fills from the neighbouring row or image) are cleared after.
/// That is one large copy per column row instead of one per image or per output row.
public func im2col(
    _ input: UnsafePointer<Float>, into columns: UnsafeMutablePointer<Float>, geometry g: ConvolutionGeometry
) {
    let total = g.columnCount
    forEachKernelOffset(g, columns: columns) { c, offset, block in
        guard offset.touchesThePlane else {
            block.update(repeating: 0, count: total)
            return
        }
        let copied = offset.flatRange(images: g.batch)
        copyFloats(from: input + c * total + copied.lowerBound + offset.shift, to: block + copied.lowerBound, count: copied.count)
        offset.zeroPadding(block, images: g.batch)
    }
}

/// The adjoint of `im2col`: sets `inputGradient` (C, N, H, W) to the sum, over every
/// column entry, of the gradient at that entry routed back to the input pixel it came from.
///
/// Entries of `columns` that im2col fills with padding zeros have no input pixel: they are
/// set to zero here on the way, so each kernel offset becomes one flat, vectorisable
/// shifted add over the channel's whole batch (a padding entry adds its zero to some
/// pixel, which changes nothing) instead of one short add per row or per image. The
/// centre offset reaches every pixel and has no padding, so it is copied first instead of
/// added to a cleared gradient (one pass less).
///
/// `channelStride` is the distance between channels in `inputGradient` (default
/// N·H·W): a larger one lets the columns of a few images fill their part of a bigger batch.
public func col2im(
    _ columns: UnsafeMutablePointer<Float>, into inputGradient: UnsafeMutablePointer<Float>, geometry g: ConvolutionGeometry,
    channelStride: Int? = nil
) {
    let total = g.columnCount
    let stride = channelStride ?? total
    let centre = (g.kernelHeight / 2) * g.kernelWidth + g.kernelWidth / 2
    let offsetsPerChannel = g.kernelHeight * g.kernelWidth
    for c in 0..<g.channels {
        (inputGradient + c * stride).update(from: columns + (c * offsetsPerChannel + centre) * total, count: total)
    }
    forEachKernelOffset(g, columns: columns) { c, offset, block in
        guard offset.touchesThePlane, offset.shift != 0 || offset.dx != 0 else { return }
        offset.zeroPadding(block, images: g.batch)
        let target = inputGradient + c * stride + offset.shift
        for i in offset.flatRange(images: g.batch) { target[i] += block[i] }
    }
}

/// Copies `count` floats with 16-lane loads and stores. glibc's memmove copies blocks of
/// tens of KB with `rep movsb`, which ran at half the speed of this loop here: the kernel
/// offset's shift leaves source and target at different alignments.
@inline(__always)
private func copyFloats(from source: UnsafePointer<Float>, to target: UnsafeMutablePointer<Float>, count: Int) {
    let vectorCount = count / 16
    let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(target)
    for v in 0..<vectorCount {
        let offset = v * MemoryLayout<SIMD16<Float>>.stride
        to.storeBytes(of: from.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self),
                      toByteOffset: offset, as: SIMD16<Float>.self)
    }
    for i in (vectorCount * 16)..<count { target[i] = source[i] }
}
