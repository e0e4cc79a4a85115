"""Template filters for the score sheet: signed points, baht, and items in the game's words."""

import uuid
from decimal import Decimal

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

register = template.Library()

ITEMS = {
    "level": _("Level of losing (ลำดับขั้น)"),
    "knock": _("Knock (ค่าน็อก)"),
    "fool": _("Fool (ค่าโง่)"),
    "fool-round": _("Fool round the table (ค่าโง่รอบวง)"),
    "speto-hold": _("Speto held (ค่าอมสเปโต)"),
    "knocker-speto-held": _("Knocked holding a Speto (อมสเปโตน็อก)"),
    "knocker-speto-picked": _("Speto picked up to knock (ค่าสเปโต)"),
    "face-down-dummy": _("Face-down dummy (คว่ำดัมมี่น็อก)"),
    "face-down-speto": _("Face-down Speto (คว่ำสเปโตน็อก)"),
    "head": _("Head (ค่าหัว)"),
    "head-close": _("Close discard of the head (ตีปี้หัว)"),
    "speto": _("Speto (ค่าสเปโต)"),
    "speto-close": _("Speto defence discard (ตีตัวกันสเปโต)"),
    "dummy-discard": _("Dummy discard (ตีดัมมี่)"),
    "full-discard": _("Full discard (ตีเต็ม)"),
    "show-speto": _("Two Spetos shown (โชว์สเปโต)"),
    "fine": _("Fine (ปรับรอบวง)"),
    "payment": _("Payment (จ่ายแล้ว)"),
}
LEVELS = {"less": _("less (เสียน้อย)"), "medium": _("medium (เสียกลาง)"), "more": _("more (เสียมาก)")}
SYMBOLS = {
    "lv": _("level"),
    "fool": _("fool"),
    "knock": _("knock"),
    "hold": _("hold"),
    "speto": _("Speto"),
    "face-down": _("face-down"),
    "total": _("total"),
    "other": _("other"),
}


@register.filter
def item_label(item: str) -> str:
    return str(ITEMS.get(item, item))


@register.filter
def level_label(level: str) -> str:
    return str(LEVELS.get(str(level), level))


@register.filter
def signed(value: int | Decimal) -> str:
    """Write a net with its sign, a real minus and thousands separators: +1,200 / −300."""
    if value > 0:
        return f"+{value:,}"
    if value < 0:
        return f"−{-value:,}"
    return "0"


@register.filter
def signed_baht(value: Decimal) -> str:
    text = f"{abs(value):,.2f}"
    return f"+{text}" if value > 0 else f"−{text}" if value < 0 else text


@register.filter
def baht_text(value: Decimal) -> str:
    """Write baht with thousands separators and satang: 2,550.00."""
    return f"{value:,.2f}"


@register.filter
def amount(value: int) -> str:
    return f"{value:,}"


@register.filter
def formula_words(handover: object) -> str:
    """The handover's formula with each symbol in the active language."""
    parts = []
    for term in handover.terms:  # type: ignore[attr-defined]
        if not term.coefficient:
            continue
        name = str(SYMBOLS.get(term.symbol, term.symbol))
        size = abs(term.coefficient)
        word = name if size == 1 else f"{size} × {name}"
        sign = "−" if term.coefficient < 0 else "+"
        parts.append((sign, word))
    if not parts:
        return "0"
    text = ("−" if parts[0][0] == "−" else "") + parts[0][1]
    return text + "".join(f" {s} {w}" for s, w in parts[1:])


@register.simple_tag
def once_field() -> SafeString:
    """A fresh idempotency key for the form being rendered: a retry of it records nothing twice."""
    return format_html('<input type="hidden" name="idempotency_key" value="{}">', uuid.uuid4().hex)
