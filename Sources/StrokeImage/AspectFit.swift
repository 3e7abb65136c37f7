extension GrayImage {
    /// The image scaled into a `side` x `side` square, following MNIST Maker's rule: the
    /// longer side fills the square, the other dimension is centred, the rest is black.
    ///
    /// Shrinking averages the covered source area (a box filter, weighted by the fraction of
    /// each source pixel that falls in the output pixel), so a one-pixel stroke fades instead
    /// of vanishing between samples; enlarging interpolates bilinearly. Each axis is resampled
    /// separately. An image already `side` x `side` is returned unchanged.
    public func aspectFit(into side: Int = 28) -> GrayImage {
        precondition(side > 0, "aspectFit needs a positive side, got \(side)")
        if width == side && height == side { return self }
        var result = GrayImage(width: side, height: side)
        guard width > 0, height > 0 else { return result }

        let scale = Double(side) / Double(max(width, height))
        let fittedWidth = min(side, max(1, Int((Double(width) * scale).rounded())))
        let fittedHeight = min(side, max(1, Int((Double(height) * scale).rounded())))
        let columnWeights = Self.resamplingWeights(from: width, to: fittedWidth)
        let rowWeights = Self.resamplingWeights(from: height, to: fittedHeight)

        // Horizontal pass: (height x width) -> (height x fittedWidth), in Double.
        var rows = [Double](repeating: 0, count: height * fittedWidth)
        for y in 0..<height {
            for (outputX, taps) in columnWeights.enumerated() {
                var sum = 0.0
                for tap in taps { sum += tap.weight * Double(pixels[y * width + tap.index]) }
                rows[y * fittedWidth + outputX] = sum
            }
        }
        // Vertical pass into the centred window of the black square.
        let left = (side - fittedWidth) / 2, top = (side - fittedHeight) / 2
        for (outputY, taps) in rowWeights.enumerated() {
            for x in 0..<fittedWidth {
                var sum = 0.0
                for tap in taps { sum += tap.weight * rows[tap.index * fittedWidth + x] }
                result[left + x, top + outputY] = UInt8(min(255, max(0, sum.rounded())))
            }
        }
        return result
    }

    /// For each of `outputCount` samples along an axis of `inputCount` pixels, the input
    /// pixels it reads and their weights (summing to 1).
    private static func resamplingWeights(from inputCount: Int, to outputCount: Int) -> [[(index: Int, weight: Double)]] {
        let step = Double(inputCount) / Double(outputCount)  // input pixels per output pixel
        if outputCount == inputCount {
            return (0..<inputCount).map { [($0, 1.0)] }
        }
        if outputCount < inputCount {
            // Box filter: output pixel i covers input interval [i * step, (i + 1) * step).
            return (0..<outputCount).map { outputIndex in
                let start = Double(outputIndex) * step, end = start + step
                var taps: [(index: Int, weight: Double)] = []
                var index = Int(start)
                while index < inputCount && Double(index) < end {
                    let overlap = min(end, Double(index + 1)) - max(start, Double(index))
                    if overlap > 0 { taps.append((index, overlap / step)) }
                    index += 1
                }
                return taps
            }
        }
        // Bilinear: pixel centres aligned, samples clamped at the borders.
        return (0..<outputCount).map { outputIndex in
            let position = min(max((Double(outputIndex) + 0.5) * step - 0.5, 0), Double(inputCount - 1))
            let lower = Int(position), upper = min(lower + 1, inputCount - 1)
            let fraction = position - Double(lower)
            return upper == lower ? [(lower, 1.0)] : [(lower, 1 - fraction), (upper, fraction)]
        }
    }
}
