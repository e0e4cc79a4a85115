"""The card of a night (การ์ดสรุปวง): a PNG of its nets and transfers, for share links.

The card is drawn as SVG and rendered by resvg with the fonts in scorekeeper/fonts/ only, never the
server's, so Thai is shaped the same everywhere. Each piece of text is split into runs, one font
each, and any character none of the fonts can draw is left out (an accented letter falls back to
its plain letter), so a name never shows an empty box. Long names shrink, then end in "…"; a
player's sum and a note wrap onto more lines, and the card grows taller, so no figure is cut.
"""

import functools
import hashlib
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape as xml_escape
from xml.sax.saxutils import quoteattr

import resvg_py
from fontTools.ttLib import TTFont

FONTS_DIR = Path(__file__).resolve().parent / "fonts"
# Tried in this order for each character: Latin first, so spaces, digits and signs between Thai
# words look alike; the symbol and emoji fonts only for what the text fonts lack.
FONT_FILES = (
    ("NotoSans-Regular.subset.ttf", "NotoSans-Bold.subset.ttf"),
    ("NotoSansThai-Regular.subset.ttf", "NotoSansThai-Bold.subset.ttf"),
    ("NotoSansMath-Regular.subset.ttf", None),
    ("NotoSansSymbols2-Regular.subset.ttf", None),
    ("NotoEmoji-Regular.subset.ttf", None),
)

WIDTH = 1200
MIN_HEIGHT = 630  # 1200 × 630 is the shape link previews (Open Graph) show whole
MARGIN = 72  # left and right edge of the text in the panels
ACCENT = "#0b5d3b"
INK = "#1c2b23"
MUTED = "#5b6b62"
LOSS = "#b42318"
ELLIPSIS = "…"
# Widths are summed from advances without kerning or shaping: leave room for what they miss.
FIT_SLACK = 0.97


@dataclass(frozen=True)
class NightCard:
    """What the card of a night shows, every text already formatted in the reader's language.

    `nets` are (player, signed baht, e.g. "+1,200" or "−400"), and may add beneath in smaller
    type the pieces of the sum that makes the amount ("เกม +800 ฿", "− ต๋ง 100 ฿", "= รับ 700 ฿"),
    on one line where they fit, else on more, broken only between pieces: the sign's first
    character colours the amount. `nets_note` says beneath them what they take for granted (an
    open night's fee and rounding). `transfers` are (payer, payee, baht).
    """

    title: str
    date_text: str
    games_text: str
    nets_heading: str
    nets: tuple[tuple[str, str] | tuple[str, str, tuple[str, ...]], ...]
    transfers_heading: str
    transfers: tuple[tuple[str, str, str], ...]
    footer: str = ""
    nets_note: str = ""


@dataclass(frozen=True)
class Face:
    """One shipped font file: its family name and each character's advance, in ems."""

    family: str
    path: Path
    advances: dict[str, float]


def _load(path: Path) -> Face:
    font = TTFont(path, lazy=True)
    per_em = font["head"].unitsPerEm
    metrics = font["hmtx"].metrics
    advances = {chr(code): metrics[glyph][0] / per_em for code, glyph in font.getBestCmap().items()}
    return Face(family=font["name"].getDebugName(1), path=path, advances=advances)


@functools.cache
def faces(bold: bool = False) -> tuple[Face, ...]:
    """Return the fonts in the order a character is looked up, the bold files where there are."""
    return tuple(
        _load(FONTS_DIR / (bold_file if bold and bold_file else regular))
        for regular, bold_file in FONT_FILES
    )


@functools.cache
def _fonts_digest() -> bytes:
    digest = hashlib.sha256()
    for path in sorted(FONTS_DIR.glob("*.ttf")):
        digest.update(path.read_bytes())
    return digest.digest()


def _drawable(char: str) -> bool:
    return any(char in face.advances for face in faces())


def drawable_text(text: str) -> str:
    """Keep what the shipped fonts can draw: é without its font becomes e, the rest is left out."""
    kept: list[str] = []
    for char in unicodedata.normalize("NFC", text):
        category = unicodedata.category(char)
        if char.isspace() or category == "Zs":
            kept.append(" ")
        elif category in ("Cc", "Cf"):
            continue  # joiners, soft hyphens, bidi marks: nothing to see
        elif _drawable(char):
            kept.append(char)
        else:
            kept.extend(
                part
                for part in unicodedata.normalize("NFKD", char)
                if _drawable(part) and not unicodedata.combining(part)
            )
    return " ".join("".join(kept).split())


def _runs(text: str, bold: bool) -> Iterator[tuple[Face, str]]:
    """Split drawable text into runs of one font each; a mark or a space keeps the font before."""
    current: Face | None = None
    run = ""
    for char in text:
        keeps = char == " " or unicodedata.category(char) == "Mn"
        if current and keeps and char in current.advances:
            face = current
        else:
            face = next(f for f in faces(bold) if char in f.advances)
        if face is not current and run and current:
            yield current, run
            run = ""
        current = face
        run += char
    if run and current:
        yield current, run


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Return the width in pixels of drawable text at `size`, from the fonts' advances."""
    return size * sum(face.advances[char] for face, run in _runs(text, bold) for char in run)


def _without_last_cluster(text: str) -> str:
    """Drop the last character with its marks, and a Thai leading vowel left hanging before it."""
    text = text.rstrip()
    while text and unicodedata.category(text[-1]) == "Mn":
        text = text[:-1]
    text = text[:-1]
    while text and "\u0e40" <= text[-1] <= "\u0e44":  # เ แ โ ใ ไ come before their consonant
        text = text[:-1]
    return text.rstrip()


def fit(
    text: str, size: float, max_width: float, bold: bool = False, shrink: float = 0.8
) -> tuple[str, float]:
    """Fit drawable text in `max_width`: shrink it down to `shrink` × size, then cut it with …."""
    room = max_width * FIT_SLACK
    width = text_width(text, size, bold)
    if width <= room:
        return text, size
    smallest = round(size * shrink, 1)
    if width * smallest / size <= room:
        return text, int(10 * size * room / width) / 10
    cut = text
    while cut and text_width(cut + ELLIPSIS, smallest, bold) > room:
        cut = _without_last_cluster(cut)
    return cut + ELLIPSIS, smallest


def _words(text: str) -> list[str]:
    """Split prose at its spaces, an amount kept with the word before it and the ฿ after it."""
    words: list[str] = []
    for word in text.split():
        if words and (word == "฿" or word[:1].isdigit()):
            words[-1] += " " + word
        else:
            words.append(word)
    return words


def wrap(pieces: Iterable[str], size: float, max_width: float) -> list[tuple[str, float]]:
    """Set drawable pieces in lines of `max_width`, breaking only between them: as many on a line
    as fit; a piece too wide for a line alone breaks at its words, and a word too wide is fit."""
    room = max_width * FIT_SLACK
    words: list[str] = []
    for piece in pieces:
        words += [piece] if text_width(piece, size) <= room else _words(piece)
    lines: list[str] = []
    for word in words:
        if lines and text_width(f"{lines[-1]} {word}", size) <= room:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return [fit(line, size, max_width) for line in lines]


def _spans(text: str, bold: bool, fill: str | None = None) -> str:
    paint = f" fill={quoteattr(fill)}" if fill else ""
    return "".join(
        f"<tspan font-family={quoteattr(face.family)}{paint}>{xml_escape(run)}</tspan>"
        for face, run in _runs(text, bold)
    )


def _text(
    text: str,
    x: float,
    y: float,
    size: float,
    fill: str,
    bold: bool = False,
    anchor: str = "start",
) -> str:
    weight = ' font-weight="700"' if bold else ""
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size:g}"{weight} fill="{fill}"'
        f' text-anchor="{anchor}" xml:space="preserve">{_spans(text, bold)}</text>'
    )


def _name(text: str) -> str:
    return drawable_text(text) or "?"


def _amount_fill(amount: str) -> str:
    sign = amount.lstrip()[:1]
    return ACCENT if sign == "+" else LOSS if sign in ("−", "-") else MUTED


ROW = 68  # height of a row in a panel
ROW_SIZE = 34  # font size of names and amounts
BELOW = 44  # what a line beneath a row adds to its height
BELOW_SIZE = 30  # its font size: still read on a phone, the card shown 390 px wide
HEADER = 200
NOTE_SIZE = 28  # a note beneath a panel
NOTE_LINE = 42  # and its line's height


@dataclass(frozen=True)
class _Row:
    left: Callable[[int], str]  # the row's text at a baseline
    amount: str
    fill: str
    below: tuple[tuple[str, float], ...] = ()  # lines beneath, across the row, with their size

    @property
    def height(self) -> int:
        return ROW + BELOW * len(self.below)


def _panel(top: int, heading: str, rows: list[_Row]) -> tuple[list[str], int]:
    """Draw a heading and a panel of rows below `top`; return them and the panel's bottom."""
    heading, size = fit(heading, 30, WIDTH - 2 * MARGIN, bold=True)
    parts = [_text(heading, 48, top + 40, size, ACCENT, bold=True)]
    panel_top = top + 62
    height = sum(row.height for row in rows)
    parts.append(
        f'<rect x="40" y="{panel_top}" width="{WIDTH - 80}" height="{height}" rx="20"'
        ' fill="#fff" stroke="#dbe5df" stroke-width="2"/>'
    )
    row_top = panel_top
    for index, row in enumerate(rows):
        if index:
            parts.append(
                f'<line x1="{MARGIN}" y1="{row_top}" x2="{WIDTH - MARGIN}" y2="{row_top}"'
                ' stroke="#e6eee9" stroke-width="2"/>'
            )
        baseline = row_top + 46
        parts.append(row.left(baseline))
        parts.append(_text(row.amount, WIDTH - MARGIN, baseline, ROW_SIZE, row.fill, True, "end"))
        for line, (below, size) in enumerate(row.below, start=1):
            parts.append(_text(below, MARGIN, baseline + BELOW * line, size, MUTED))
        row_top += row.height
    return parts, panel_top + height


def _amount_and_room(amount: str) -> tuple[str, float]:
    """Fit an amount in a third of the row; return it and the room it leaves for names."""
    text, size = fit(drawable_text(amount), ROW_SIZE, (WIDTH - 2 * MARGIN) / 3, bold=True)
    return text, WIDTH - 2 * MARGIN - text_width(text, size, bold=True) - 40


def _net_row(name: str, amount: str, pieces: tuple[str, ...] = ()) -> _Row:
    amount_text, room = _amount_and_room(amount)
    shown, size = fit(_name(name), ROW_SIZE, room)
    drawn = [text for text in map(drawable_text, pieces) if text]
    return _Row(
        lambda y: _text(shown, MARGIN, y, size, INK),
        amount_text,
        _amount_fill(amount),
        tuple(wrap(drawn, BELOW_SIZE, WIDTH - 2 * MARGIN)),
    )


ARROW = " → "


def _transfer_row(payer: str, payee: str, amount: str) -> _Row:
    amount_text, room = _amount_and_room(amount)
    room -= text_width(ARROW, ROW_SIZE)
    payer, payee = _name(payer), _name(payee)
    payer_width, payee_width = text_width(payer, ROW_SIZE), text_width(payee, ROW_SIZE)
    # Each name gets half the room, and whatever the other does not need of its half.
    payer, payer_size = fit(payer, ROW_SIZE, max(room / 2, room - payee_width))
    payee, payee_size = fit(payee, ROW_SIZE, max(room / 2, room - payer_width))
    # What fits at a size fits at any smaller one: both names at the smaller of their sizes.
    size = min(payer_size, payee_size)
    spans = _spans(payer, False) + _spans(ARROW, False, ACCENT) + _spans(payee, False)

    def left(y: int) -> str:
        return (
            f'<text x="{MARGIN}" y="{y}" font-size="{size:g}" fill="{INK}"'
            f' xml:space="preserve">{spans}</text>'
        )

    return _Row(left, amount_text, INK)


@functools.lru_cache(maxsize=32)
def card_svg(card: NightCard) -> str:
    """Draw the card as SVG: a green header, the nets and their note, the transfers, the footer."""
    body: list[str] = []
    top = HEADER + 16
    sections = (
        (card.nets_heading, [_net_row(*net) for net in card.nets], card.nets_note),
        (card.transfers_heading, [_transfer_row(*t) for t in card.transfers], ""),
    )
    for heading, rows, note in sections:
        if rows:
            parts, top = _panel(top, drawable_text(heading), rows)
            body += parts
            for line, size in wrap(_words(drawable_text(note)), NOTE_SIZE, WIDTH - 2 * 48):
                top += NOTE_LINE
                body.append(_text(line, 48, top, size, MUTED))
            top += 24 + (16 if note else 0)
    footer = drawable_text(card.footer)
    height = max(MIN_HEIGHT, top + (64 if footer else 24))
    title, title_size = fit(drawable_text(card.title), 56, WIDTH - 2 * 56, bold=True, shrink=0.7)
    subtitle = " · ".join(
        text for text in (drawable_text(card.date_text), drawable_text(card.games_text)) if text
    )
    subtitle, subtitle_size = fit(subtitle, 30, WIDTH - 2 * 56)
    head = [
        f'<rect width="{WIDTH}" height="{height}" fill="#f4f8f5"/>',
        f'<rect width="{WIDTH}" height="{HEADER}" fill="{ACCENT}"/>',
        _text(title, 56, 100, title_size, "#fff", bold=True),
        _text(subtitle, 56, 156, subtitle_size, "#d3e8dc"),
    ]
    if footer:
        footer, footer_size = fit(footer, 24, WIDTH - 2 * 48)
        body.append(_text(footer, 48, height - 28, footer_size, MUTED))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}"'
        f' viewBox="0 0 {WIDTH} {height}">{"".join(head + body)}</svg>'
    )


def card_key(card: NightCard) -> str:
    """Return a name for the card's PNG that changes whenever its pixels may (an ETag, a URL)."""
    return hashlib.sha256(_fonts_digest() + card_svg(card).encode()).hexdigest()


def render_svg(svg: str) -> bytes:
    """Render SVG to PNG with the shipped fonts only, so every server draws the same pixels."""
    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg,
            skip_system_fonts=True,
            font_files=sorted({str(face.path) for face in faces() + faces(bold=True)}),
            font_family=faces()[0].family,
            sans_serif_family=faces()[0].family,
        )
    )


@functools.lru_cache(maxsize=32)
def _png(svg: str) -> bytes:
    return render_svg(svg)


def card_png(card: NightCard) -> bytes:
    """Return the card as PNG, drawn once for each content while it stays in the cache."""
    return _png(card_svg(card))
