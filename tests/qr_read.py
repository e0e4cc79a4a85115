"""QR codes read back as a phone's camera would: the SVG drawn by resvg, read by zxing-cpp."""

import re
import struct
import zlib

import resvg_py
import zxingcpp

MODULE_PX = 4  # pixels a module when the SVG is drawn for the decoder


def png_gray(png: bytes) -> tuple[int, int, bytes]:
    """Decode the 8-bit RGBA, non-interlaced PNG resvg writes into one grey byte a pixel."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos : pos + 8])
        data = png[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", data)
            assert (depth, color, interlace) == (8, 6, 0)
        elif kind == b"IDAT":
            idat += data
        pos += 12 + length
    raw, stride = zlib.decompress(idat), width * 4
    previous, gray = bytearray(stride), bytearray()
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for x in range(stride):
            a = line[x - 4] if x >= 4 else 0
            b = previous[x]
            c = previous[x - 4] if x >= 4 else 0
            if kind == 1:
                line[x] = (line[x] + a) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + b) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        gray += line[0::4]  # the red channel: the code is black on white
        previous = line
    return width, height, bytes(gray)


def scan(svg: str, page_background: str) -> str:
    """Draw the inline SVG on a page of `page_background` and read it as a phone's camera would."""
    modules = int(re.search(r'viewBox="0 0 (\d+) \1"', svg).group(1))
    document = svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
    size = modules * MODULE_PX
    png = resvg_py.svg_to_bytes(
        svg_string=document, width=size, height=size, background=page_background
    )
    width, height, gray = png_gray(bytes(png))
    found = zxingcpp.read_barcode(
        memoryview(gray).cast("B", (height, width)), formats=zxingcpp.BarcodeFormat.QRCode
    )
    assert found is not None, "no QR code found"
    return found.text
