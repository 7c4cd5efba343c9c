#!/usr/bin/env python3
"""Exit 0 iff the PNG file given is a real picture: decodes, is at least
400x300 (or the `--min WxH` given: a phone's 390x844), and is not one flat colour (at least 2% of pixels differ from the
most common colour and there are at least 16 distinct colours).
Standard library only (zlib), so CI needs nothing extra."""
import struct
import sys
import zlib
from collections import Counter


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, w = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                raise ValueError(f"unsupported PNG: depth {depth} colour type {colour}")
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def main():
    path = sys.argv[1]
    min_w, min_h = 400, 300
    if len(sys.argv) == 4 and sys.argv[2] == "--min":
        min_w, min_h = (int(v) for v in sys.argv[3].split("x"))
    w, h, bpp, rows = read_png(path)
    if w < min_w or h < min_h:
        sys.exit(f"{path}: {w}x{h} is too small for the app window")
    counts = Counter()
    for y in range(0, h, 2):
        r = rows[y]
        for x in range(0, w, 2):
            counts[r[x * bpp:x * bpp + 3]] += 1
    total = sum(counts.values())
    common = counts.most_common(1)[0][1]
    if len(counts) < 16 or (total - common) < 0.02 * total:
        sys.exit(f"{path}: looks blank ({len(counts)} colours, {100 * (total - common) / total:.1f}% non-background)")
    print(f"{path}: {w}x{h}, {len(counts)} colours, {100 * (total - common) / total:.1f}% non-background")


if __name__ == "__main__":
    main()
