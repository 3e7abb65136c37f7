import StrokeImage
import StrokeSupport

/// Random, seeded distortions of a training image: pen width jitter, then one bilinear
/// resampling through a random rotation, scale and translation about the centre plus a mild
/// elastic distortion (after Simard, Steinkraus and Platt 2003). Pixels that come from
/// outside the image are black. The same generator state always gives the same image.
///
/// NOTE: dataset and rasterizer both aspect-fit the drawing so that it touches the border on
/// its long axis; scales above 1, translations and rotations can push some ink out of the
/// frame. Keep them mild.
public struct ImageAugmentation: Sendable {
    /// Rotation drawn uniformly from ±this many degrees.
    public var rotationDegrees: Double
    /// Scale factor drawn uniformly from this range (1 keeps the size).
    public var scale: ClosedRange<Double>
    /// Translation drawn uniformly from ±this many pixels, separately in x and y.
    public var translationPixels: Double
    /// Line width change drawn uniformly from ±this many pixels: positive values blend toward
    /// a grayscale dilation (4-neighbour maximum), negative toward an erosion (4-neighbour
    /// minimum); a blend weight of 1 changes the width of a line by about 2 px.
    public var penWidthJitter: Double
    /// Standard deviation, in pixels, of the elastic displacement.
    public var elasticAlpha: Double
    /// Smoothness length of the elastic displacement in pixels: the displacement is random at
    /// the nodes of a grid this far apart and bilinearly interpolated between them, a cheap
    /// stand-in for Simard's Gaussian-smoothed per-pixel field.
    public var elasticSigma: Double
    /// Probability that the rotation/scale/translation is applied.
    public var affineProbability: Double
    /// Probability that the pen width is changed.
    public var penWidthProbability: Double
    /// Probability that the elastic distortion is applied.
    public var elasticProbability: Double
    /// Mirror left-right with probability 1/2. Off by default: our classes (arrow, circle,
    /// cycle) do not depend on direction, but mirrored drawings are not what users draw.
    public var horizontalFlip: Bool

    public init(
        rotationDegrees: Double = 12,
        scale: ClosedRange<Double> = 0.85...1.1,
        translationPixels: Double = 2,
        penWidthJitter: Double = 0.5,
        elasticAlpha: Double = 0.6,
        elasticSigma: Double = 7,
        affineProbability: Double = 1,
        penWidthProbability: Double = 0.5,
        elasticProbability: Double = 0.5,
        horizontalFlip: Bool = false
    ) {
        precondition(scale.lowerBound > 0, "Augmentation scale must be positive, got \(scale)")
        precondition(elasticSigma > 0, "Elastic sigma must be positive, got \(elasticSigma)")
        self.rotationDegrees = rotationDegrees
        self.scale = scale
        self.translationPixels = translationPixels
        self.penWidthJitter = penWidthJitter
        self.elasticAlpha = elasticAlpha
        self.elasticSigma = elasticSigma
        self.affineProbability = affineProbability
        self.penWidthProbability = penWidthProbability
        self.elasticProbability = elasticProbability
        self.horizontalFlip = horizontalFlip
    }

    /// The settings used for training by default.
    public static let `default` = ImageAugmentation()

    /// No change at all: `apply` returns its input.
    public static let identity = ImageAugmentation(
        rotationDegrees: 0, scale: 1...1, translationPixels: 0, penWidthJitter: 0, elasticAlpha: 0)

    /// A distorted copy of `image`. Draws a fixed number of values from `rng` for the
    /// parameters (whatever the settings), plus the elastic grid when it is applied.
    public func apply(to image: GrayImage, using rng: inout SeededGenerator) -> GrayImage {
        // Parameters, always drawn in this order so a setting does not shift later draws.
        let affineOn = rng.nextUnit() < affineProbability
        let angle = uniform(-rotationDegrees, rotationDegrees, &rng) * .pi / 180
        let factor = uniform(scale.lowerBound, scale.upperBound, &rng)
        let shiftX = uniform(-translationPixels, translationPixels, &rng)
        let shiftY = uniform(-translationPixels, translationPixels, &rng)
        let penOn = rng.nextUnit() < penWidthProbability
        let widthChange = uniform(-penWidthJitter, penWidthJitter, &rng)
        let elasticOn = rng.nextUnit() < elasticProbability && elasticAlpha > 0
        let flip = horizontalFlip && rng.nextUnit() < 0.5

        var source = image
        if penOn && widthChange != 0 {
            source = Self.changePenWidth(of: image, byPixels: widthChange)
        }
        var transform = InverseTransform(
            angle: affineOn ? angle : 0, scale: affineOn ? factor : 1,
            shiftX: affineOn ? shiftX : 0, shiftY: affineOn ? shiftY : 0,
            flip: flip, width: image.width, height: image.height)
        let field = elasticOn ? ElasticField(width: image.width, height: image.height,
                                             spacing: elasticSigma, deviation: elasticAlpha, rng: &rng) : nil
        if field == nil && transform.isIdentity { return source }
        transform.elastic = field
        return Self.resample(source, through: transform)
    }

    private func uniform(_ low: Double, _ high: Double, _ rng: inout SeededGenerator) -> Double {
        low + (high - low) * rng.nextUnit()
    }

    // MARK: - Pen width

    /// Blends toward the 4-neighbour maximum (wider) or minimum (thinner) by |pixels| / 2.
    static func changePenWidth(of image: GrayImage, byPixels pixels: Double) -> GrayImage {
        let weight = Float(min(abs(pixels) / 2, 1))
        let widen = pixels > 0
        let width = image.width, height = image.height
        var output = image
        image.pixels.withUnsafeBufferPointer { input in
            output.pixels.withUnsafeMutableBufferPointer { result in
                for y in 0..<height {
                    for x in 0..<width {
                        let index = y * width + x
                        let center = input[index]
                        // Outside the image counts as black.
                        let left = x > 0 ? input[index - 1] : 0
                        let right = x < width - 1 ? input[index + 1] : 0
                        let up = y > 0 ? input[index - width] : 0
                        let down = y < height - 1 ? input[index + width] : 0
                        let target = widen ? max(center, left, right, up, down) : min(center, left, right, up, down)
                        let value = Float(center) + weight * (Float(target) - Float(center))
                        result[index] = UInt8(min(max(value, 0), 255) + 0.5)   // round half up (libm round is a call)
                    }
                }
            }
        }
        return output
    }

    // MARK: - Geometry

    /// Maps an output pixel centre to the source point it is sampled from: first the elastic
    /// displacement, then the inverse of (rotate and scale about the centre, then shift).
    struct InverseTransform {
        // source = A * (output + elastic - center - shift) + center, A = (rotation * scale)^-1
        var a11, a12, a21, a22: Double
        var shiftX, shiftY: Double
        var centerX, centerY: Double
        var elastic: ElasticField?

        init(angle: Double, scale: Double, shiftX: Double, shiftY: Double, flip: Bool, width: Int, height: Int) {
            let cosine = _cos(angle) / scale, sine = _sin(angle) / scale
            // Inverse of a rotation by angle is a rotation by -angle.
            a11 = cosine; a12 = sine
            a21 = -sine; a22 = cosine
            if flip { a11 = -a11; a21 = -a21 }
            self.shiftX = shiftX
            self.shiftY = shiftY
            centerX = Double(width) / 2
            centerY = Double(height) / 2
        }

        var isIdentity: Bool {
            a11 == 1 && a12 == 0 && a21 == 0 && a22 == 1 && shiftX == 0 && shiftY == 0
        }
    }

    /// One bilinear pass over the output: where the time of `apply` goes.
    static func resample(_ image: GrayImage, through transform: InverseTransform) -> GrayImage {
        let width = image.width, height = image.height
        var output = GrayImage(width: width, height: height)
        let empty: [Double] = []
        let field = transform.elastic
        // Scalars out of the optional struct, so the per-pixel loop touches no reference counts.
        let elasticOn = field != nil
        let inverseSpacing = 1 / (field?.spacing ?? 1), columns = field?.columns ?? 2, rows = field?.rows ?? 2
        // The source with a one-pixel black border, so a bilinear sample anywhere in
        // (-1, width) x (-1, height) needs no per-pixel bounds checks (30 x 30 floats: stack).
        let paddedWidth = width + 2
        withUnsafeTemporaryAllocation(of: Float.self, capacity: paddedWidth * (height + 2)) { padded in
            padded.initialize(repeating: 0)
            for row in 0..<height {
                for column in 0..<width {
                    padded[(row + 1) * paddedWidth + column + 1] = Float(image.pixels[row * width + column])
                }
            }
            output.pixels.withUnsafeMutableBufferPointer { result in
            (field?.dx ?? empty).withUnsafeBufferPointer { fieldX in
            (field?.dy ?? empty).withUnsafeBufferPointer { fieldY in
                for y in 0..<height {
                    for x in 0..<width {
                        var px = Double(x) + 0.5, py = Double(y) + 0.5
                        if elasticOn {
                            let (dx, dy) = ElasticField.displacement(
                                x: px, y: py, inverseSpacing: inverseSpacing, columns: columns, rows: rows,
                                fieldX, fieldY)
                            px += dx; py += dy
                        }
                        px -= transform.centerX + transform.shiftX
                        py -= transform.centerY + transform.shiftY
                        // Source position relative to pixel centres: pixel i's centre is at i + 0.5.
                        let fx = transform.a11 * px + transform.a12 * py + transform.centerX - 0.5
                        let fy = transform.a21 * px + transform.a22 * py + transform.centerY - 0.5
                        guard fx > -1, fy > -1, fx < Double(width), fy < Double(height) else { continue }
                        let x0 = Int(fx + 1) - 1, y0 = Int(fy + 1) - 1   // floor, as fx, fy > -1 (no libm call)
                        let tx = Float(fx - Double(x0)), ty = Float(fy - Double(y0))
                        let index = (y0 + 1) * paddedWidth + x0 + 1
                        let top = padded[index] + tx * (padded[index + 1] - padded[index])
                        let bottom = padded[index + paddedWidth]
                            + tx * (padded[index + paddedWidth + 1] - padded[index + paddedWidth])
                        let value = top + ty * (bottom - top)
                        result[y * width + x] = UInt8(min(max(value, 0), 255) + 0.5)   // round half up (libm round is a call)
                    }
                }
            }
            }
            }
        }
        return output
    }

    // MARK: - Elastic distortion

    /// A smooth random displacement field: normal displacements (standard deviation
    /// `deviation` px) at grid nodes `spacing` px apart, bilinearly interpolated.
    struct ElasticField {
        let columns: Int, rows: Int
        let spacing: Double
        var dx: [Double], dy: [Double]

        init(width: Int, height: Int, spacing: Double, deviation: Double, rng: inout SeededGenerator) {
            self.spacing = spacing
            columns = Int((Double(width) / spacing).rounded(.up)) + 1
            rows = Int((Double(height) / spacing).rounded(.up)) + 1
            dx = (0..<columns * rows).map { _ in rng.nextNormal() * deviation }
            dy = (0..<columns * rows).map { _ in rng.nextNormal() * deviation }
        }

        /// The displacement at (x, y) of the field whose `dx`, `dy` are `fieldX`, `fieldY`
        /// (passed as pointers and scalars so the per-pixel loop does not retain the arrays).
        @inline(__always)
        static func displacement(x: Double, y: Double, inverseSpacing: Double, columns: Int, rows: Int,
                                 _ fieldX: UnsafeBufferPointer<Double>,
                                 _ fieldY: UnsafeBufferPointer<Double>) -> (Double, Double) {
            let gx = min(max(x * inverseSpacing, 0), Double(columns - 1))
            let gy = min(max(y * inverseSpacing, 0), Double(rows - 1))
            let c0 = min(Int(gx), columns - 2), r0 = min(Int(gy), rows - 2)
            let tx = gx - Double(c0), ty = gy - Double(r0)
            let i00 = r0 * columns + c0, i01 = i00 + 1, i10 = i00 + columns, i11 = i10 + 1
            let w00 = (1 - tx) * (1 - ty), w01 = tx * (1 - ty), w10 = (1 - tx) * ty, w11 = tx * ty
            return (w00 * fieldX[i00] + w01 * fieldX[i01] + w10 * fieldX[i10] + w11 * fieldX[i11],
                    w00 * fieldY[i00] + w01 * fieldY[i01] + w10 * fieldY[i10] + w11 * fieldY[i11])
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@inline(__always) private func _cos(_ x: Double) -> Double { cos(x) }
@inline(__always) private func _sin(_ x: Double) -> Double { sin(x) }
