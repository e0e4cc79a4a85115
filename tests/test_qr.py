"""A PromptPay QR code scans back to its exact payload, on a light page and a dark one."""

import re
from decimal import Decimal

import pytest

from scorekeeper.promptpay import PromptPayError, payload
from scorekeeper.qr import QUIET_ZONE, promptpay_svg, qr_svg
from tests.qr_read import scan


@pytest.mark.parametrize("page", ["#fff", "#000"])
def test_a_promptpay_code_with_an_amount_scans_back_to_its_payload(page):
    svg = promptpay_svg("081-234-5678", Decimal("1250.50"))
    expected = payload("0812345678", Decimal("1250.50"))
    assert "54071250.50" in expected
    assert scan(svg, page) == expected


def test_a_national_id_without_an_amount_scans_back_too():
    assert scan(promptpay_svg("1-2345-67890-12-3"), "#000") == payload("1234567890123")


def test_the_code_draws_its_own_white_background_round_a_quiet_zone():
    svg = promptpay_svg("0812345678", Decimal("20"))
    side = int(re.search(r'viewBox="0 0 (\d+) \1"', svg).group(1))
    assert f'<path fill="#fff" d="M0 0h{side}v{side}h-{side}z"/>' in svg
    # The first dark module stands a quiet zone in from the top left corner.
    assert re.search(r'stroke="#000" d="M(\d+) (\d+)\.5h', svg).groups() == (
        str(QUIET_ZONE),
        str(QUIET_ZONE),
    )
    assert 'width="' not in svg and 'height="' not in svg  # the stylesheet sizes it


def test_short_data_is_a_full_qr_code_never_a_micro_qr():
    # segno.make would draw "1" as a 13-module Micro QR (M2), which phone cameras do not read.
    side = int(re.search(r'viewBox="0 0 (\d+) \1"', qr_svg("1")).group(1))
    assert side == 21 + 2 * QUIET_ZONE  # version 1, the smallest full QR code
    assert scan(qr_svg("1"), "#fff") == "1"


def test_a_target_the_code_cannot_carry_is_refused():
    with pytest.raises(PromptPayError):
        promptpay_svg("12345")
    with pytest.raises(PromptPayError):
        promptpay_svg("0812345678", Decimal("0"))
