#!/usr/bin/env python3
"""Writes the PNG fixtures that libpng's simplified writer cannot make (sub-8-bit gray,
sub-8-bit palette, Adam7 interlacing, 16-bit gray without a gAMA chunk) into
Tests/StrokeImageTests/Fixtures/. Python 3 standard library only (zlib + struct).

Regenerate with:  python3 scripts/make-png-fixtures.py

Each image's pixels follow a formula that Tests/StrokeImageTests/PNGDecodeTests.swift
repeats to compute the expected 8-bit luminance; change both together.
"""
import os
import struct
import zlib

OUT = os.path.join(os.path.dirname(__file__), "..", "Tests", "StrokeImageTests", "Fixtures")

# PNG colour types
GRAY, RGB, PALETTE = 0, 2, 3
# Adam7 passes: (x start, y start, x step, y step)
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def pack_row(samples, bit_depth):
    """Packs one row of samples (ints) at bit_depth 1, 2, 4, 8 or 16, big-endian, MSB first."""
    if bit_depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if bit_depth == 8:
        return bytes(samples)
    per_byte = 8 // bit_depth
    out = bytearray()
    for start in range(0, len(samples), per_byte):
        byte = 0
        group = samples[start:start + per_byte]
        for i, s in enumerate(group):
            byte |= s << (8 - bit_depth * (i + 1))
        out.append(byte)
    return bytes(out)


def scanlines(pixels, width, height, channels, bit_depth, interlaced):
    """Filter-type-0 scanlines; pixels[y][x] is a tuple of `channels` samples."""
    def rows_of(xs, ys):
        data = bytearray()
        for y in ys:
            samples = [s for x in xs for s in pixels[y][x]]
            data += b"\x00" + pack_row(samples, bit_depth)
        return bytes(data)

    if not interlaced:
        return rows_of(range(width), range(height))
    data = b""
    for x0, y0, dx, dy in ADAM7:
        xs, ys = range(x0, width, dx), range(y0, height, dy)
        if len(xs) and len(ys):  # empty passes have no scanlines at all
            data += rows_of(xs, ys)
    return data


def write_png(name, width, height, color_type, bit_depth, pixels, interlaced=False, palette=None):
    channels = {GRAY: 1, RGB: 3, PALETTE: 1}[color_type]
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 1 if interlaced else 0)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
    if palette is not None:
        png += chunk(b"PLTE", b"".join(bytes(entry) for entry in palette))
    raw = scanlines(pixels, width, height, channels, bit_depth, interlaced)
    png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(png)


def grid(width, height, sample):
    return [[sample(x, y) for x in range(width)] for y in range(height)]


def main():
    os.makedirs(OUT, exist_ok=True)
    # 1-bit gray, 13 wide (rows end mid-byte): white where (x + y) % 3 == 0.
    write_png("gray1.png", 13, 5, GRAY, 1, grid(13, 5, lambda x, y: (1 if (x + y) % 3 == 0 else 0,)))
    # 2-bit gray: level (x + y) % 4, expected level * 85.
    write_png("gray2.png", 7, 3, GRAY, 2, grid(7, 3, lambda x, y: ((x + y) % 4,)))
    # 4-bit gray: level (4x + y) % 16, expected level * 17.
    write_png("gray4.png", 5, 4, GRAY, 4, grid(5, 4, lambda x, y: ((4 * x + y) % 16,)))
    # 8-bit gray, Adam7 interlaced: (23x + 7y) % 256.
    write_png("gray8-interlaced.png", 11, 9, GRAY, 8,
              grid(11, 9, lambda x, y: ((23 * x + 7 * y) % 256,)), interlaced=True)
    # 8-bit RGB, Adam7 interlaced, neutral grays v = (29x + 11y) % 256, expected v.
    write_png("rgb8-interlaced.png", 9, 6, RGB, 8,
              grid(9, 6, lambda x, y: ((29 * x + 11 * y) % 256,) * 3), interlaced=True)
    # 4-bit palette of 16 grays (entry i = i * 17), index (x + 6y) % 16, expected index * 17.
    write_png("palette4.png", 6, 3, PALETTE, 4, grid(6, 3, lambda x, y: ((x + 6 * y) % 16,)),
              palette=[(i * 17,) * 3 for i in range(16)])
    # 16-bit gray without gAMA/sRGB chunks: sample v * 257 with v = (64x + 16y) % 256, expected v
    # (StrokeKit reads untagged 16-bit data as sRGB-encoded).
    write_png("gray16-untagged.png", 4, 4, GRAY, 16, grid(4, 4, lambda x, y: (((64 * x + 16 * y) % 256) * 257,)))


if __name__ == "__main__":
    main()
