import Foundation
import StrokeImage

/// The pen model: how an ideal path becomes a sampled, timed, imperfect stroke.
extension StrokeSynthesizer {
    /// Draws `ideal` (a dense polyline; corners are kept) as a human would: a slow wobble of
    /// amplitude `style.jitter * size`, a speed that drops at corners and at both ends, samples at
    /// a fixed device rate, tremor, and timestamps in milliseconds from `startTime`.
    /// Non-finite points (from non-finite editor geometry) are dropped, so a stroke is never
    /// poisoned by NaN; with no finite point left the stroke is empty.
    mutating func draw(_ ideal: [SIMD2<Double>], size: Double, startTime: Double) -> Stroke {
        let size = size.isFinite ? max(size, 1) : 1
        let finite = ideal.filter { $0.x.isFinite && $0.y.isFinite }
        guard !finite.isEmpty else { return Stroke(points: []) }
        let path = densified(finite, maximumStep: max(size / 150, 0.05))
        guard path.count >= 2 else {
            let point = path.first ?? .zero
            return Stroke(points: [StrokePoint(x: point.x, y: point.y, time: startTime)])
        }
        var arcLength = [0.0]
        arcLength.reserveCapacity(path.count)
        for index in 1..<path.count {
            arcLength.append(arcLength[index - 1] + distance(path[index], path[index - 1]))
        }
        let total = arcLength[path.count - 1]

        // Wobble: three slow sine waves per axis along the arc length, so lines bend gently
        // instead of jittering point to point.
        var wobbled = path
        for _ in 0..<3 {
            let wavelength = size * uniform(0.5...2.5)
            let amplitude = style.jitter * size * uniform(0.3...0.7)
            let phaseX = uniform(0...(2 * .pi)), phaseY = uniform(0...(2 * .pi))
            for index in wobbled.indices {
                let angle = 2 * Double.pi * arcLength[index] / wavelength
                wobbled[index] += amplitude * SIMD2(sin(angle + phaseX), sin(angle + phaseY))
            }
        }

        // Speed: fast in the middle of straight runs, slow at corners and at both ends.
        let rate = uniform(style.sampleRate)
        let spacing = min(max(uniform(style.sampleSpacing) * pow(size / 150, 0.3), 1.5), 9)
        let topSpeed = spacing * rate / 1000  // units per millisecond at full speed
        let window = max(size * 0.03, 0.5)
        let ramp = max(min(total * 0.15, size * 0.1), 1e-9)
        let wavePhase = uniform(0...(2 * .pi)), waveLength = size * uniform(0.7...2)
        var speeds = [Double](repeating: topSpeed, count: path.count)
        var behind = 0, ahead = 0
        for index in path.indices {
            while arcLength[index] - arcLength[behind] > window { behind += 1 }
            while ahead < path.count - 1 && arcLength[ahead] - arcLength[index] < window { ahead += 1 }
            var turn = 0.0
            if behind < index && ahead > index {
                let incoming = normalized(path[index] - path[behind])
                let outgoing = normalized(path[ahead] - path[index])
                turn = acos(min(max((incoming * outgoing).sum(), -1), 1))
            }
            let corner = 1 / (1 + 2.5 * turn)
            let ends = 0.3 + 0.7 * smoothstep(arcLength[index] / ramp) * smoothstep((total - arcLength[index]) / ramp)
            let drift = 1 + style.speedVariation * sin(2 * Double.pi * arcLength[index] / waveLength + wavePhase)
            speeds[index] = topSpeed * max(corner * ends * drift, 0.12)
        }
        var times = [0.0]
        times.reserveCapacity(path.count)
        for index in 1..<path.count {
            let step = arcLength[index] - arcLength[index - 1]
            times.append(times[index - 1] + step / ((speeds[index] + speeds[index - 1]) / 2))
        }

        // Sampling at the device rate, always keeping the last point; tremor as AR(1) noise.
        let interval = 1000 / rate
        // NOTE: a huge drawing (an editor passing wild geometry) is drawn faster rather than
        // sampled millions of times: at most `maximumSamples` samples per stroke.
        let maximumSamples = 5000.0
        let hurry = max(1, times[path.count - 1] / (interval * (maximumSamples - 2)))
        if hurry > 1 { times = times.map { $0 / hurry } }
        let duration = times[path.count - 1]
        var points: [StrokePoint] = []
        var segment = 0
        var tremor = SIMD2<Double>(normal(), normal()) * style.tremor
        var sampleTime = 0.0
        while true {
            let time = min(sampleTime, duration)
            while segment < path.count - 2 && times[segment + 1] < time { segment += 1 }
            let span = times[segment + 1] - times[segment]
            let fraction = span > 0 ? min(max((time - times[segment]) / span, 0), 1) : 0
            let position = wobbled[segment] + (wobbled[segment + 1] - wobbled[segment]) * fraction + tremor
            points.append(StrokePoint(x: position.x, y: position.y, time: startTime + time))
            tremor = tremor * 0.6 + SIMD2(normal(), normal()) * (style.tremor * 0.8)
            if time >= duration { break }
            sampleTime += interval
        }
        return Stroke(points: points)
    }

    /// Strokes drawn one after another, with a pen-up pause between them.
    mutating func drawSequence(_ ideals: [[SIMD2<Double>]], size: Double) -> [Stroke] {
        var strokes: [Stroke] = []
        var clock = 0.0
        for ideal in ideals {
            let stroke = draw(ideal, size: size, startTime: clock)
            clock = (stroke.points.last?.time ?? clock) + uniform(80...400)
            strokes.append(stroke)
        }
        return strokes
    }
}

/// `path` with points inserted so that no step is longer than `maximumStep`; the original
/// points (and so its corners) are kept.
func densified(_ path: [SIMD2<Double>], maximumStep: Double) -> [SIMD2<Double>] {
    guard var previous = path.first else { return [] }
    var result = [previous]
    for point in path.dropFirst() {
        let pieces = Int((distance(point, previous) / maximumStep).rounded(.up))
        if pieces > 1 {
            for piece in 1..<pieces {
                result.append(previous + (point - previous) * (Double(piece) / Double(pieces)))
            }
        }
        if pieces >= 1 { result.append(point) }
        previous = point
    }
    return result
}
