"""Names as people type them into a phone (players, seats, groups, members, accounts), cleaned so
that the same name is always the same text. What a name may be, and how it is cleaned, is defined
once in scorekeeper.rules.names (the rules read names too); this module keeps what only the
database needs.

A name pasted from a chat can carry a zero-width space or a direction mark; a Thai name can be
typed with its tone mark before or after the vowel above, or with ำ as ํ + า. Unicode's NFC does
not bring those together, so `cleaned` does: NFC, format characters removed (the joiners inside
an emoji kept), the Thai marks on each letter in one order, ำ in one piece, spaces collapsed.
"""

from scorekeeper.rules.names import cleaned

__all__ = ["cleaned", "unique_key"]


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
