"""Template filters for the score sheet: signed points, baht, dates, and items in the game's words.

Numbers and dates are written the way a Thai card table reads them: dates in the Buddhist Era with
Thai month abbreviations (25 พ.ย. 2569 20:15) in Thai, local time on a 24-hour clock, whole baht
without satang, and a night's rate exactly as agreed (0.125, never 0.13).
"""

import datetime as dt
import uuid
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
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


THAI_MONTHS = (
    "ม.ค.", "ก.พ.", "มี.ค.", "เม.ย.", "พ.ค.", "มิ.ย.", "ก.ค.", "ส.ค.", "ก.ย.", "ต.ค.", "พ.ย.", "ธ.ค.",
)  # fmt: skip
ENGLISH_MONTHS = (
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
)  # fmt: skip
BUDDHIST_ERA = 543  # years the Buddhist Era (พ.ศ.) runs ahead of the Gregorian calendar


def _local(value: dt.datetime) -> dt.datetime:
    """The moment on the clock of the table (settings.TIME_ZONE, Asia/Bangkok)."""
    return timezone.localtime(value) if timezone.is_aware(value) else value


@register.filter
def date_text(value: dt.date | dt.datetime | None) -> str:
    """Write a day: 25 พ.ย. 2569 in Thai (Buddhist Era), 25 Nov 2026 in English."""
    if not value:
        return ""
    if isinstance(value, dt.datetime):
        value = _local(value)
    if (get_language() or "th").startswith("th"):
        return f"{value.day} {THAI_MONTHS[value.month - 1]} {value.year + BUDDHIST_ERA}"
    return f"{value.day} {ENGLISH_MONTHS[value.month - 1]} {value.year}"


@register.filter
def month_text(value: dt.date | None) -> str:
    """Write a month: พ.ย. 2569 in Thai (Buddhist Era), Nov 2026 in English."""
    if not value:
        return ""
    if (get_language() or "th").startswith("th"):
        return f"{THAI_MONTHS[value.month - 1]} {value.year + BUDDHIST_ERA}"
    return f"{ENGLISH_MONTHS[value.month - 1]} {value.year}"


@register.filter
def time_text(value: dt.datetime | None) -> str:
    """Write the local time on a 24-hour clock: 20:15."""
    return f"{_local(value):%H:%M}" if value else ""


@register.filter
def datetime_text(value: dt.datetime | None) -> str:
    """Write a day and its local time: 25 พ.ย. 2569 20:15, or 25 Nov 2026 20:15 in English."""
    return f"{date_text(value)} {time_text(value)}" if value else ""


@register.filter
def signed(value: int | Decimal) -> str:
    """Write a net with its sign, a real minus and thousands separators: +1,200 / −300."""
    if value > 0:
        return f"+{_number(value)}"
    if value < 0:
        return f"−{_number(-value)}"
    return "0"


def _number(value: int | Decimal) -> str:
    """Write a number with thousands separators; baht keep satang only when there are some."""
    if isinstance(value, Decimal):
        return f"{value:,.0f}" if value == value.to_integral_value() else f"{value:,.2f}"
    return f"{value:,}"


@register.filter
def signed_baht(value: Decimal) -> str:
    """Write a net in baht with its sign: +120 / −12.50 / 0."""
    return signed(Decimal(value))


@register.filter
def baht_text(value: Decimal) -> str:
    """Write baht with thousands separators, satang only when there are some: 2,550 / 12.50."""
    return _number(Decimal(value))


@register.filter
def rate(value: Decimal) -> str:
    """Write the night's baht a point exactly as agreed: 0.125, 0.5, 1, 1,000."""
    return f"{Decimal(value).normalize():,f}"


@register.filter
def amount(value: int) -> str:
    return f"{value:,}"


def _sum(parts: Iterable[tuple[int, str]]) -> str:
    """Write `coefficient × name` terms as a sum with real minus signs: 5 × fool + level − hold."""
    text = ""
    for coefficient, name in parts:
        word = name if abs(coefficient) == 1 else f"{abs(coefficient)} × {name}"
        if not text:
            text = f"−{word}" if coefficient < 0 else word
        else:
            text += f" − {word}" if coefficient < 0 else f" + {word}"
    return text


@register.filter
def shown_handovers(handovers: Iterable[Any]) -> list[Any]:
    """Leave out the losers who hand nothing and owe nothing by any term (a total payer's table)."""
    return [h for h in handovers if h.amount or any(t.coefficient for t in h.terms)]


@register.filter
def handover_formula(handover: Any) -> str:
    """Write a handover worked out: 5 × fool + level − hold = 5 × 400 + 400 − 400 = 2,000.

    The words are in the active language; the numbers part is left out when it says nothing more
    than the amount (a lone `level = 800`).
    """
    terms = [t for t in handover.terms if t.coefficient]
    if not terms:
        return ""
    words = _sum((t.coefficient, str(SYMBOLS.get(t.symbol, t.symbol))) for t in terms)
    numbers = _sum((t.coefficient, _number(t.value)) for t in terms)
    total = _number(handover.amount) if handover.amount >= 0 else f"−{_number(-handover.amount)}"
    return f"{words} = {total}" if numbers == total else f"{words} = {numbers} = {total}"


@register.filter
def dummy_formula(row: Mapping[str, Any]) -> str:
    """Write a classic Dummy score worked out: (35 + 50 − 10) × 2 = 150, −20 × 2 = −40.

    Terms that are 0 are left out, and so is a row with nothing to work out (a bare count, × 1).
    """
    detail = row.get("detail")
    if not detail:
        return ""
    points, bonuses, penalties = detail["points"], detail["bonuses"], detail["penalties"]
    multiplier = detail["multiplier"]
    terms = [(1 if points >= 0 else -1, _number(abs(points)))] if points else []
    terms += [(1, _number(bonuses))] if bonuses else []
    terms += [(-1, _number(penalties))] if penalties else []
    if not terms or (len(terms) == 1 and multiplier == 1):
        return ""
    text = _sum(terms)
    if multiplier != 1:
        text = f"({text}) × {multiplier}" if len(terms) > 1 else f"{text} × {multiplier}"
    score = row["score"]
    return f"{text} = {'−' if score < 0 else ''}{_number(abs(score))}"


@register.simple_tag
def once_field() -> SafeString:
    """A fresh idempotency key for the form being rendered: a retry of it records nothing twice."""
    return format_html('<input type="hidden" name="idempotency_key" value="{}">', uuid.uuid4().hex)


@register.simple_tag(takes_context=True)
def form_keys(context: template.Context) -> SafeString:
    """A form's CSRF token and idempotency key, as rendered for this visitor; in a region built
    once for every phone that sees it (`built_once`, views/live.py) neither: the token travels
    in the page's header (base.html's hx-headers) and the key is made on the phone when the
    region arrives (static/js/queue.js), so the field is left empty."""
    if context.get("built_once"):
        return mark_safe('<input type="hidden" name="idempotency_key" value="">')  # noqa: S308 (constant)
    return format_html("{}{}", CsrfTokenNode().render(context), once_field())  # {% csrf_token %}'s
