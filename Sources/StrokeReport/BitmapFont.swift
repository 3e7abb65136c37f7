/// A tiny built-in 5x7 pixel font for the heatmap PNG's labels and counts, so StrokeKit
/// needs no font library. It has digits, A-Z (lowercase is drawn as uppercase) and a little
/// punctuation; any other character is drawn as a hollow box. Glyphs were drawn for
/// StrokeKit: each is seven rows of five pixels, `#` ink and `.` background.
enum BitmapFont {
    static let glyphWidth = 5
    static let glyphHeight = 7
    /// Blank columns between glyphs, in font pixels.
    static let spacing = 1

    static let glyphs: [Character: String] = [
        "0": ".###.|#...#|#..##|#.#.#|##..#|#...#|.###.",
        "1": "..#..|.##..|..#..|..#..|..#..|..#..|.###.",
        "2": ".###.|#...#|....#|...#.|..#..|.#...|#####",
        "3": "#####|...#.|..#..|...#.|....#|#...#|.###.",
        "4": "...#.|..##.|.#.#.|#..#.|#####|...#.|...#.",
        "5": "#####|#....|####.|....#|....#|#...#|.###.",
        "6": "..##.|.#...|#....|####.|#...#|#...#|.###.",
        "7": "#####|....#|...#.|..#..|.#...|.#...|.#...",
        "8": ".###.|#...#|#...#|.###.|#...#|#...#|.###.",
        "9": ".###.|#...#|#...#|.####|....#|...#.|.##..",
        "A": ".###.|#...#|#...#|#####|#...#|#...#|#...#",
        "B": "####.|#...#|#...#|####.|#...#|#...#|####.",
        "C": ".###.|#...#|#....|#....|#....|#...#|.###.",
        "D": "####.|#...#|#...#|#...#|#...#|#...#|####.",
        "E": "#####|#....|#....|####.|#....|#....|#####",
        "F": "#####|#....|#....|####.|#....|#....|#....",
        "G": ".###.|#...#|#....|#.###|#...#|#...#|.####",
        "H": "#...#|#...#|#...#|#####|#...#|#...#|#...#",
        "I": ".###.|..#..|..#..|..#..|..#..|..#..|.###.",
        "J": "..###|...#.|...#.|...#.|...#.|#..#.|.##..",
        "K": "#...#|#..#.|#.#..|##...|#.#..|#..#.|#...#",
        "L": "#....|#....|#....|#....|#....|#....|#####",
        "M": "#...#|##.##|#.#.#|#.#.#|#...#|#...#|#...#",
        "N": "#...#|#...#|##..#|#.#.#|#..##|#...#|#...#",
        "O": ".###.|#...#|#...#|#...#|#...#|#...#|.###.",
        "P": "####.|#...#|#...#|####.|#....|#....|#....",
        "Q": ".###.|#...#|#...#|#...#|#.#.#|#..#.|.##.#",
        "R": "####.|#...#|#...#|####.|#.#..|#..#.|#...#",
        "S": ".####|#....|#....|.###.|....#|....#|####.",
        "T": "#####|..#..|..#..|..#..|..#..|..#..|..#..",
        "U": "#...#|#...#|#...#|#...#|#...#|#...#|.###.",
        "V": "#...#|#...#|#...#|#...#|#...#|.#.#.|..#..",
        "W": "#...#|#...#|#...#|#.#.#|#.#.#|#.#.#|.#.#.",
        "X": "#...#|#...#|.#.#.|..#..|.#.#.|#...#|#...#",
        "Y": "#...#|#...#|.#.#.|..#..|..#..|..#..|..#..",
        "Z": "#####|....#|...#.|..#..|.#...|#....|#####",
        " ": ".....|.....|.....|.....|.....|.....|.....",
        ".": ".....|.....|.....|.....|.....|.##..|.##..",
        ",": ".....|.....|.....|.....|.##..|..#..|.#...",
        "%": "##...|##..#|...#.|..#..|.#...|#..##|...##",
        "-": ".....|.....|.....|#####|.....|.....|.....",
        "_": ".....|.....|.....|.....|.....|.....|#####",
        "/": ".....|....#|...#.|..#..|.#...|#....|.....",
        ":": ".....|.##..|.##..|.....|.##..|.##..|.....",
        "(": "...#.|..#..|.#...|.#...|.#...|..#..|...#.",
        ")": ".#...|..#..|...#.|...#.|...#.|..#..|.#...",
        "+": ".....|..#..|..#..|#####|..#..|..#..|.....",
        "=": ".....|.....|#####|.....|#####|.....|.....",
        "?": ".###.|#...#|....#|...#.|..#..|.....|..#..",
    ]
    private static let unknown = "#####|#...#|#...#|#...#|#...#|#...#|#####"

    /// Width in image pixels of `text` drawn at `scale` (image pixels per font pixel).
    static func width(of text: String, scale: Int) -> Int {
        text.isEmpty ? 0 : (text.count * (glyphWidth + spacing) - spacing) * scale
    }

    /// Height in image pixels of one line at `scale`.
    static func height(scale: Int) -> Int { glyphHeight * scale }

    /// The glyphs parsed once into row masks (bit 4 is the leftmost pixel).
    private static let masks: [Character: [UInt8]] = glyphs.mapValues(parse)
    private static let unknownMask = parse(unknown)

    private static func parse(_ glyph: String) -> [UInt8] {
        glyph.split(separator: "|").map { row in
            row.reduce(UInt8(0)) { mask, pixel in mask << 1 | (pixel == "#" ? 1 : 0) }
        }
    }

    /// Draws `text` with its top-left corner at (`x`, `y`); pixels outside the image are clipped.
    static func draw(_ text: String, into image: inout RGBImage, x: Int, y: Int, scale: Int, colour: RGB) {
        var left = x
        for character in text {
            let rows = masks[Character(character.uppercased())] ?? unknownMask
            for (row, mask) in rows.enumerated() {
                for column in 0..<glyphWidth where mask & (1 << (glyphWidth - 1 - column)) != 0 {
                    image.fillRectangle(
                        x: left + column * scale, y: y + row * scale, width: scale, height: scale, with: colour)
                }
            }
            left += (glyphWidth + spacing) * scale
        }
    }

    /// `text`, shortened with a trailing "." until it is at most `maximumWidth` pixels wide.
    static func fitting(_ text: String, maximumWidth: Int, scale: Int) -> String {
        guard width(of: text, scale: scale) > maximumWidth else { return text }
        var shortened = text
        while !shortened.isEmpty, width(of: shortened + ".", scale: scale) > maximumWidth {
            shortened.removeLast()
        }
        return shortened + "."
    }
}
