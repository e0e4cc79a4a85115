"""Names as people type them into a phone (players, seats, groups, members, accounts), cleaned so
that the same name is always the same text (issue 19, item 6).

A name pasted from a chat can carry a zero-width space or a direction mark; a Thai name can be
typed with its tone mark before or after the vowel above, or with ำ as ํ + า. Unicode's NFC does
not bring those together, so `cleaned` does: NFC, format characters removed (the joiners inside
an emoji kept), the Thai marks on each letter in one order, ำ in one piece, spaces collapsed.
"""

import unicodedata

ZWJ = "\u200d"  # joins emoji into one picture (👨‍👩‍👧): kept between two pictographs
VS16 = "\ufe0f"
NIKHAHIT, SARA_AA, SARA_AM = "\u0e4d", "\u0e32", "\u0e33"

# The marks written over and under a Thai letter, in the order a keyboard's own rules write them:
# the vowel below or above first, then the tone mark, then the signs above it.
_THAI_MARK_RANK = {
    **dict.fromkeys("\u0e38\u0e39\u0e3a", 0),  # vowels below
    **dict.fromkeys("\u0e31\u0e34\u0e35\u0e36\u0e37\u0e47", 1),  # vowels above, maitaikhu
    **dict.fromkeys("\u0e48\u0e49\u0e4a\u0e4b", 2),  # tone marks
    **dict.fromkeys("\u0e4c\u0e4d\u0e4e", 3),  # thanthakhat, nikhahit, yamakkan
}


def cleaned(name: str) -> str:
    """Return `name` as it is stored and compared: empty if nothing visible is left."""
    text = unicodedata.normalize("NFC", name)
    text = _without_format_characters(text)
    text = _thai_marks_in_order(text)
    return " ".join(text.split())


def _pictograph(char: str) -> bool:
    return char == VS16 or unicodedata.category(char) in ("So", "Sk") or ord(char) >= 0x1F000


def _tag(char: str) -> bool:
    return 0xE0020 <= ord(char) <= 0xE007F


def _without_format_characters(text: str) -> str:
    kept = []
    for i, char in enumerate(text):
        if unicodedata.category(char) != "Cf":
            kept.append(char)
        elif char == ZWJ and 0 < i < len(text) - 1:  # an emoji's own joiner stays
            if _pictograph(text[i - 1]) and _pictograph(text[i + 1]):
                kept.append(char)
        elif _tag(char) and kept and (_pictograph(kept[-1]) or _tag(kept[-1])):
            kept.append(char)  # the tags of a flag emoji (🏴 of England, Scotland, Wales)
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


def unique_key(name: str, taken: set[str]) -> str:
    """Return the key of a name recorded before names were cleaned: the cleaned name, or, if an
    earlier name of the group cleans the same, one of its own (a cleaned name never starts with
    a space). Adds it to `taken`."""
    key = cleaned(name)
    n = 1
    while key in taken:
        key, n = f" {n} {cleaned(name)}", n + 1
    taken.add(key)
    return key
