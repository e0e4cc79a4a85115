"""The card of a night: a PNG drawn with the shipped fonts, Thai shaped, nothing overflowing."""

import re
import struct
import xml.etree.ElementTree as ET
from dataclasses import replace
from functools import cache
from itertools import pairwise, takewhile

import pytest
from fontTools.ttLib import TTFont

from scorekeeper.card import (
    BELOW,
    BELOW_SIZE,
    FONTS_DIR,
    MARGIN,
    WIDTH,
    NightCard,
    card_key,
    card_png,
    card_svg,
    drawable_text,
    render_svg,
)
from tests.qr_read import png_gray

SVG = "{http://www.w3.org/2000/svg}"
THAI_NAMES = ["สมชาย", "ที่นั่ง", "น้ำฝน", "เก๋", "ฤทัย", "ปู่ชัย", "ญาณิศา", "ฐิติ", "ศุภฤกษ์", "กล้วยไข่"]
LONG_NAME = "ชื่อยาวมากมากมากจนต้องตัดให้สั้นลงเพราะไม่พอที่บนการ์ดใบนี้เลยจริงๆนะครับ" * 2


def make_card(**changes: object) -> NightCard:
    card = NightCard(
        title="ก๊วนดัมมี่วันศุกร์",
        date_text="ศุกร์ 14 มี.ค. 2568",
        games_text="12 เกม",
        nets_heading="ได้เสีย",
        nets=(("สมชาย", "+1,200"), ("Ann", "+300"), ("น้องเก่ง", "−1,500")),
        transfers_heading="โอนให้กัน",
        transfers=(("น้องเก่ง", "สมชาย", "1,200"), ("น้องเก่ง", "Ann", "300")),
        footer="สมุดจดแต้ม",
    )
    return replace(card, **changes)  # type: ignore[arg-type]


@cache
def shipped_fonts() -> dict[tuple[str, bool], TTFont]:
    """Each shipped font by (family, bold), read from the files themselves."""
    fonts = {}
    for path in FONTS_DIR.glob("*.ttf"):
        font = TTFont(path)
        fonts[font["name"].getDebugName(1), "Bold" in path.name] = font
    return fonts


def font_for(family: str, bold: bool) -> TTFont:
    fonts = shipped_fonts()
    return fonts.get((family, bold)) or fonts[family, False]


def drawn_texts(svg: str) -> list[dict]:
    """Each <text> of the SVG: where it is, its size, anchor and its runs (family, characters)."""
    texts = []
    for text in ET.fromstring(svg).iter(f"{SVG}text"):
        runs = [(span.get("font-family"), span.text or "") for span in text.iter(f"{SVG}tspan")]
        texts.append(
            {
                "x": float(text.get("x")),
                "y": float(text.get("y")),
                "size": float(text.get("font-size")),
                "bold": text.get("font-weight") == "700",
                "anchor": text.get("text-anchor", "start"),
                "runs": runs,
                "string": "".join(chars for _, chars in runs),
            }
        )
    return texts


def advance_width(text: dict) -> float:
    """The text's width in pixels from the shipped fonts' advances (shaping adds no width)."""
    width = 0.0
    for family, chars in text["runs"]:
        font = font_for(family, text["bold"])
        cmap, metrics = font.getBestCmap(), font["hmtx"].metrics
        width += sum(metrics[cmap[ord(char)]][0] for char in chars) / font["head"].unitsPerEm
    return width * text["size"]


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    return struct.unpack(">II", png[16:24])


def ink_box(text: str) -> tuple[int, int, int, int]:
    """Draw one Thai word large, black on white, with the card's renderer; return its ink's box."""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300">'
        '<rect width="400" height="300" fill="#fff"/><text x="50" y="200" font-size="120"'
        f' font-family="Noto Sans Thai" fill="#000">{text}</text></svg>'
    )
    width, _, gray = png_gray(render_svg(svg))
    inked = [(i % width, i // width) for i, value in enumerate(gray) if value < 128]
    assert inked, f"nothing drawn for {text}"
    xs, ys = [x for x, _ in inked], [y for _, y in inked]
    return min(xs), max(xs), min(ys), max(ys)


def test_the_card_is_a_png_wider_than_1080_pixels():
    width, height = png_size(card_png(make_card()))
    assert width == WIDTH >= 1080
    assert height >= 630


def test_the_same_content_draws_the_same_bytes_under_the_same_key():
    card, same = make_card(), make_card()
    assert card_key(card) == card_key(same)
    assert card_png(card) is card_png(same)  # drawn once
    assert render_svg(card_svg(card)) == card_png(same)  # and drawn again, byte for byte


def test_changed_content_gets_another_key_and_another_picture():
    card = make_card()
    changed = make_card(nets=(("สมชาย", "+1,300"), ("Ann", "+200"), ("น้องเก่ง", "−1,500")))
    assert card_key(changed) != card_key(card)
    assert card_png(changed) != card_png(card)
    assert len({card_key(make_card(footer=footer)) for footer in ("", "a", "b")}) == 3


@pytest.mark.parametrize("name", THAI_NAMES)
def test_a_thai_name_is_drawn_whole_by_the_shipped_thai_font(name):
    cmap = font_for("Noto Sans Thai", False).getBestCmap()
    assert all(ord(char) in cmap for char in name)
    assert drawable_text(name) == name
    texts = drawn_texts(card_svg(make_card(nets=((name, "+1"),))))
    (row,) = [text for text in texts if text["string"] == name]
    assert row["runs"] == [("Noto Sans Thai", name)]


def test_thai_marks_stack_on_their_consonant_with_no_system_font_to_fall_back_on():
    # render_svg skips system fonts: ink at all means the shipped font drew it.
    base, vowel, tone = ink_box("ท"), ink_box("ที"), ink_box("ที่")
    assert vowel[:2] == tone[:2] == base[:2]  # no room taken beside the consonant, no box
    assert tone[2] < vowel[2] < base[2]  # the tone mark above the vowel above the consonant
    marked, bare = ink_box("ที่นั่ง"), ink_box("ทนง")
    assert marked[:2] == bare[:2] and marked[2] < bare[2]


@pytest.mark.parametrize(
    ("name", "drawn"),
    [
        ("Ann 🐷", "Ann 🐷"),
        ("น้องเก่ง👍🏽", "น้องเก่ง👍"),  # the skin tone is left out
        ("♠️ Queen", "♠ Queen"),  # so is the variation selector
        ("Fai ❤️‍🔥", "Fai ❤🔥"),  # and the joiner
        ("Rex 🦖", "Rex"),  # an emoji the subset lacks
        ("Nguyễn José", "Nguyen José"),
        ("王小明", "?"),
    ],
)
def test_a_name_shows_only_what_the_fonts_draw_never_an_empty_box(name, drawn):
    svg = card_svg(make_card(nets=((name, "+1"),), transfers=((name, "Ann", "1"),)))
    texts = drawn_texts(svg)
    assert drawn in [text["string"] for text in texts]
    for text in texts:
        for family, chars in text["runs"]:
            cmap = font_for(family, text["bold"]).getBestCmap()
            assert all(ord(char) in cmap for char in chars), (family, chars)


def test_text_is_escaped_for_svg():
    name = 'Bo <b>&amp; "Ann"</b>'
    texts = drawn_texts(card_svg(make_card(title=name, nets=((name, "+1"),))))
    assert [text["string"] for text in texts].count(name) == 2


def test_long_names_end_in_an_ellipsis_and_no_text_leaves_its_place():
    long_title = "ก๊วน" + LONG_NAME
    card = make_card(
        title=long_title,
        nets=((LONG_NAME, "+1,200,000"), ("Ann", "−1,200,000")),
        transfers=((LONG_NAME, LONG_NAME, "1,200,000"), ("Ann", LONG_NAME, "1")),
    )
    texts = drawn_texts(card_svg(card))
    assert all(LONG_NAME not in text["string"] for text in texts)
    assert sum(text["string"].endswith("…") for text in texts) >= 4
    lines: dict[float, list[tuple[float, float]]] = {}
    for text in texts:
        width = advance_width(text)
        left = text["x"] - width if text["anchor"] == "end" else text["x"]
        assert left >= 40 and left + width <= WIDTH - 40, text["string"]
        lines.setdefault(text["y"], []).append((left, left + width))
    for spans in lines.values():  # a name never runs into its amount
        spans.sort()
        assert all(end + 24 <= start for (_, end), (start, _) in pairwise(spans))
    row_texts = [text for text in texts if text["anchor"] == "end"]
    assert all(text["x"] == WIDTH - MARGIN for text in row_texts)


LONG_SUMS = (
    (
        "สมชาย",
        "+1,179.50 ฿",
        ("เกม +1,575 ฿", "− ค่าใช้จ่ายร่วม 350.25 ฿", "− ต๋ง 50 ฿", "+ ปัดเศษ 4.75 ฿", "= รับ 1,179.50 ฿"),
    ),
    (
        "ญาณิศา",
        "+1,910 ฿",
        ("เกม +2,310 ฿", "− ค่าใช้จ่ายร่วม 350.25 ฿", "− ต๋ง 50 ฿", "+ ปัดเศษ 0.25 ฿", "= รับ 1,910 ฿"),
    ),
    (
        "น้องเก่ง",
        "−1,290 ฿",
        (
            "เกม −1,885 ฿",
            "+ จ่ายกันที่โต๊ะ 1,000 ฿",
            "− ค่าใช้จ่ายร่วม 350.25 ฿",
            "− ต๋ง 50 ฿",
            "− ปัดเศษ 4.75 ฿",
            "= จ่าย 1,290 ฿",
        ),
    ),
    (
        "กล้วยไข่",
        "−649.25 ฿",
        (
            "เกม −1,000 ฿",
            "− จ่ายกันที่โต๊ะ 1,000 ฿",
            "+ ค่าใช้จ่ายร่วม 1,401 ฿",
            "− ต๋ง 50 ฿",
            "= จ่าย 649.25 ฿",
        ),
    ),
    (
        "Ann",
        "−1,400.25 ฿",
        ("เกม −1,000 ฿", "− ค่าใช้จ่ายร่วม 350.25 ฿", "− ต๋ง 50 ฿", "= จ่าย 1,400.25 ฿"),
    ),
    ("เจ้าบ้าน", "+250 ฿", ("ต๋ง 250 ฿", "= รับ 250 ฿")),
)


def test_a_long_sum_wraps_between_its_parts_and_the_card_grows_taller_for_it():
    card = make_card(nets=LONG_SUMS)
    texts = drawn_texts(card_svg(card))
    assert not [text["string"] for text in texts if text["string"].endswith("…")]
    strings = [text["string"] for text in texts]
    wrapped = 0
    for name, amount, pieces in LONG_SUMS:
        start = strings.index(name)
        assert strings[start + 1] == amount
        beneath = texts[start + 2 :]  # the sum's lines, at the size of a sum, under the name
        lines = list(takewhile(lambda t: (t["x"], t["size"]) == (MARGIN, BELOW_SIZE), beneath))
        assert " ".join(line["string"] for line in lines) == " ".join(pieces)
        for piece in pieces:  # each part whole on one line, none broken
            assert sum(piece in line["string"] for line in lines) == 1, piece
        assert re.search(r"= (รับ|จ่าย) [\d,.]+ ฿$", lines[-1]["string"])
        for line in lines:  # inside the panel
            assert MARGIN + advance_width(line) <= WIDTH - MARGIN, line["string"]
        assert all(b["y"] - a["y"] >= BELOW_SIZE for a, b in pairwise(lines))
        wrapped += len(lines) > 1
    assert wrapped >= 3  # the five- and six-part sums with four-digit amounts
    one_line = make_card(
        nets=tuple((name, amount, pieces[-1:]) for name, amount, pieces in LONG_SUMS)
    )
    width, height = png_size(card_png(card))
    assert width == WIDTH and height >= png_size(card_png(one_line))[1] + wrapped * BELOW
