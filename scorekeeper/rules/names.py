"""What a player's name may be: the one definition the forms, the services, the document readers,
the import and the audit all use.

A name is what people type into a phone, cleaned so the same name is always the same text: NFC,
format characters removed unless they belong to an emoji sequence (the joiners of 👨‍👩‍👧 or 👩‍⚕️,
the tags of the flag of England 🏴󠁧󠁢󠁥󠁮󠁧󠁿), the Thai marks on each letter in one order, ำ in one
piece, spaces collapsed. A cleaned name is acceptable when something visible is left and it holds
no control, unassigned, private-use or surrogate character: those show as nothing, or as a box, on
another phone, and cannot be told apart when read aloud at the table.
"""

import unicodedata
from enum import StrEnum

ZWJ = "\u200d"  # joins emoji into one picture (👨‍👩‍👧): kept between two pictographs
VS16 = "\ufe0f"  # asks for the emoji picture of the character before it
BLACK_FLAG = "\U0001f3f4"  # 🏴: the base of a flag written with tags
CANCEL_TAG = "\U000e007f"  # ends a flag's tags
NIKHAHIT, SARA_AA, SARA_AM = "\u0e4d", "\u0e32", "\u0e33"

# Control (Cc), unassigned (Cn), private use (Co) and lone surrogates (Cs).
HIDDEN = frozenset({"Cc", "Cn", "Co", "Cs"})

# The marks written over and under a Thai letter, in the order a keyboard's own rules write them:
# the vowel below or above first, then the tone mark, then the signs above it.
_THAI_MARK_RANK = {
    **dict.fromkeys("\u0e38\u0e39\u0e3a", 0),  # vowels below
    **dict.fromkeys("\u0e31\u0e34\u0e35\u0e36\u0e37\u0e47", 1),  # vowels above, maitaikhu
    **dict.fromkeys("\u0e48\u0e49\u0e4a\u0e4b", 2),  # tone marks
    **dict.fromkeys("\u0e4c\u0e4d\u0e4e", 3),  # thanthakhat, nikhahit, yamakkan
}


class Fault(StrEnum):
    """Why a name cannot be a player's name."""

    EMPTY = "name-empty"  # nothing visible: only spaces or format characters
    HIDDEN = "name-hidden"  # a control, unassigned, private-use or surrogate character


def cleaned(name: str) -> str:
    """Return `name` as it is stored and compared: empty if nothing visible is left."""
    # NFC after the format characters go too: one between a letter and its accent kept them apart.
    text = unicodedata.normalize("NFC", _without_format_characters(name))
    text = _thai_marks_in_order(text)
    return " ".join(text.split())


def fault(name: str) -> Fault | None:
    """Return why `name` cannot be a player's name, or None if it can."""
    if name.isprintable() and name.strip():
        return None  # the common case, told in one step: no control or format character at all
    if any(unicodedata.category(c) in HIDDEN for c in name.strip()):
        return Fault.HIDDEN
    if not cleaned(name):
        return Fault.EMPTY
    return None


def acceptable(name: str) -> bool:
    """Return whether `name` may be a player's name."""
    return fault(name) is None


def escaped(text: str) -> str:
    """Return `text` with what could break or fake a line written out (\\n, \\x1b, \\u2028), for
    a log or a terminal."""
    if text.isprintable():
        return text  # the common case: nothing to write out
    return "".join(c if c.isprintable() or c == " " else _written_out(c) for c in text)


def _written_out(char: str) -> str:
    if unicodedata.category(char) == "Cf":
        return char  # the joiners of an emoji, a flag's tags: they break no line
    return repr(char)[1:-1]


def _pictograph(char: str) -> bool:
    return unicodedata.category(char) in ("So", "Sk") or ord(char) >= 0x1F000


def _emoji_part(char: str) -> bool:
    """A character that ends an emoji a joiner may follow: a pictograph, VS16 or a skin tone."""
    return char == VS16 or _pictograph(char)


def _tag(char: str) -> bool:
    return 0xE0020 <= ord(char) <= 0xE007E


def _flag_tags(text: str, start: int) -> int:
    """Return where the tags of a flag starting at `start` end (after its cancel tag), or
    `start` if no complete flag sequence begins there."""
    end = start
    while end < len(text) and _tag(text[end]):
        end += 1
    if end > start and end < len(text) and text[end] == CANCEL_TAG:
        return end + 1
    return start


def _joins_emoji(kept: list[str], text: str, i: int) -> bool:
    """Whether the joiner at text[i] stands between an emoji and a pictograph."""
    return (
        bool(kept) and i + 1 < len(text) and _emoji_part(kept[-1][-1]) and _pictograph(text[i + 1])
    )


def _without_format_characters(text: str) -> str:
    kept: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == BLACK_FLAG:
            end = _flag_tags(text, i + 1)
            kept.append(text[i:end])  # the flag and its tags (🏴 of England, Scotland, Wales)
            i = end
            continue
        if unicodedata.category(char) != "Cf":
            kept.append(char)
        elif char == ZWJ and _joins_emoji(kept, text, i):
            kept.append(char)  # an emoji's own joiner stays
        i += 1
    return "".join(kept)


def _thai_marks_in_order(text: str) -> str:
    out: list[str] = []
    run: list[str] = []  # the marks on the letter before them

    def flush() -> None:
        out.extend(sorted(run, key=_THAI_MARK_RANK.__getitem__))  # stable: like marks keep order
        run.clear()

    for char in text:
        if char in _THAI_MARK_RANK:
            run.append(char)
            continue
        flush()
        if char == SARA_AA and out and out[-1] == NIKHAHIT:
            out[-1] = SARA_AM  # ํ + า, typed as two keys, is ำ
        else:
            out.append(char)
    flush()
    return "".join(out)
