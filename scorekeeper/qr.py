"""QR codes drawn on the server as inline SVG, for a phone across the table: an invite's link,
and a PromptPay transfer (scorekeeper/promptpay.py)."""

from decimal import Decimal

import segno
from django.utils.safestring import SafeString, mark_safe

from scorekeeper import promptpay

QUIET_ZONE = 4  # modules of light margin a scanner needs round a QR code (ISO/IEC 18004)


def qr_svg(data: str) -> SafeString:
    """Return the QR code of `data` as inline SVG: black modules on its own white, quiet zone kept.

    The code draws its own white background, so it scans on a dark-mode page too. It carries a
    viewBox and no size: the stylesheet sizes it for the phone. Medium error correction (15%)
    survives a smudged or glaring screen at a size a 390 px phone shows whole. Always a full QR
    code, never a Micro QR, which phone cameras and bank apps do not read.
    """
    code = segno.make_qr(data, error="m")
    svg = code.svg_inline(scale=1, border=QUIET_ZONE, light="#fff", dark="#000", omitsize=True)
    return mark_safe(svg)  # segno writes only its own markup: the data is encoded, never inserted


def promptpay_svg(target: str, amount: Decimal | None = None) -> SafeString:
    """Return the PromptPay QR code paying `target` `amount` baht (or any amount, if None).

    Raises promptpay.PromptPayError, a ValueError, for a target or amount it cannot carry.
    """
    return qr_svg(promptpay.payload(target, amount))
