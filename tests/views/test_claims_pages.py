"""Who a member is and who sees a payee's number, as each phone reads the pages: a player held
by another member is refused in Thai, a viewer is offered no claim, a host moves a claim on the
members page; a national id's QR code and copy button reach only the payer, the payee and a
host (read back from the bytes, the QR codes scanned), on the settle-up and the carried debts;
a number changed after the night's transfers says so to everyone; typed numbers are checked."""

import re

import pytest
from django.test import Client

from scorekeeper import promptpay
from scorekeeper.models import AuditEntry, Membership, MoneyLine, Night, Player
from scorekeeper.services import debts, games, nights
from tests.qr_read import scan
from tests.views.conftest import member

ID = "3-1012-34567-89-3"  # its last digit is its check digit
DIGITS = promptpay.normalised(ID)
FIGURE = r'<figure class="qr" role="img" aria-label="[^"]+">(<svg.*?</svg>)'


def phone(table: Night, role: str, name: str = "") -> tuple[Client, Membership]:
    client = Client()
    membership = member(client, table.group, role)
    Membership.objects.filter(pk=membership.pk).update(name=name)
    return client, membership


def claim(client: Client, table: Night, name: str):  # type: ignore[no-untyped-def]
    player = Player.objects.get(group=table.group, name=name)
    return client.post(f"/g/{table.group_id}/me", {"player": str(player.pk)})


def closed_night(table: Night) -> None:
    """Ann knocks; Bee, Cat and Dan pay her; the night closes."""
    game = games.game_start(night=table)
    games.game_finish(game=game, outcome={"knock": {"player": "Ann", "kind": "normal"},
                                          "points": {"Bee": 10, "Cat": 20, "Dan": 30}})  # fmt: skip
    nights.night_close(night=table)


@pytest.fixture
def ann(table: Night) -> Client:
    """Ann's phone (a player, not a host), with her national id saved before the night closes."""
    client, _ = phone(table, Membership.Role.PLAYER, "Ann's phone")
    assert claim(client, table, "Ann").status_code == 302
    assert client.post(f"/g/{table.group_id}/promptpay", {"promptpay": ID}).status_code == 302
    return client


def scanned(body: bytes) -> list[str]:
    return sorted(scan(svg, "#fff") for svg in re.findall(FIGURE, body.decode(), re.S))


def amounts_to_ann(table: Night, *payers: str) -> list[str]:
    transfers = table.transfers.filter(payer__name__in=payers)
    return sorted(promptpay.payload(DIGITS, t.baht) for t in transfers)


def test_a_player_another_member_holds_is_refused_in_thai_and_the_impostor_saves_nothing(
    table, ann
):
    impostor, _ = phone(table, Membership.Role.PLAYER)
    answer = claim(impostor, table, "Ann")
    assert answer.status_code == 422
    assert "Ann เป็นของสมาชิกคนอื่นในก๊วนนี้แล้ว" in answer.content.decode()
    saved = impostor.post(f"/g/{table.group_id}/promptpay", {"promptpay": "0998887777"})
    assert saved.status_code == 422
    assert Player.objects.get(group=table.group, name="Ann").promptpay == DIGITS


def test_a_viewer_is_offered_no_claim_and_a_claim_sent_anyway_is_refused_in_thai(table):
    viewer, membership = phone(table, Membership.Role.VIEWER)
    page = viewer.get(f"/g/{table.group_id}/").content.decode()
    assert f"/g/{table.group_id}/me" not in page and "นี่คือฉัน" not in page
    answer = claim(viewer, table, "Ann")
    assert answer.status_code == 422
    assert "ผู้ชมดูอย่างเดียว" in answer.content.decode()
    assert Membership.objects.get(pk=membership.pk).player_id is None


def test_a_host_moves_a_claim_on_the_members_page_audited_in_thai_and_the_number_goes(
    client, table, ann
):
    real, real_membership = phone(table, Membership.Role.PLAYER, "Real Ann")
    player = Player.objects.get(group=table.group, name="Ann")
    page = client.get(f"/g/{table.group_id}/members").content.decode()
    assert f'action="/g/{table.group_id}/members/{real_membership.pk}/player"' in page
    url = f"/g/{table.group_id}/members/{real_membership.pk}/player"
    assert client.post(url, {"player": str(player.pk)}).status_code == 302
    player.refresh_from_db()
    assert player.promptpay == ""
    assert Membership.objects.get(pk=real_membership.pk).player == player
    assert AuditEntry.objects.filter(action="claim-reassign").count() == 1
    assert "ย้ายผู้เล่นไปเป็นของสมาชิกคนอื่น" in client.get(f"/g/{table.group_id}/audit").content.decode()
    assert (
        real.post(f"/g/{table.group_id}/promptpay", {"promptpay": "0612345678"}).status_code == 302
    )
    assert client.post(url, {"player": "9" * 30}).status_code == 404  # no such player


def test_a_member_removed_on_the_members_page_leaves_the_player_free(client, table, ann):
    gone = Membership.objects.get(name="Ann's phone")
    client.post(f"/g/{table.group_id}/members/{gone.pk}/remove")
    again, _ = phone(table, Membership.Role.PLAYER)
    assert claim(again, table, "Ann").status_code == 302


def test_on_the_settle_up_an_id_is_whole_and_scannable_only_to_payer_payee_and_host(
    client, table, ann
):
    closed_night(table)
    url = f"/s/{table.pk}/settle"
    bee, _ = phone(table, Membership.Role.PLAYER)
    claim(bee, table, "Bee")
    viewer, _ = phone(table, Membership.Role.VIEWER)
    nobody, _ = phone(table, Membership.Role.PLAYER)  # a member who is none of the players

    everything = amounts_to_ann(table, "Bee", "Cat", "Dan")
    assert scanned(client.get(url).content) == everything  # the host's phone, at the table
    assert scanned(ann.get(url).content) == everything  # the payee's
    bees = bee.get(url).content
    assert scanned(bees) == amounts_to_ann(table, "Bee")  # the payer's own, and no other
    assert bees.count(DIGITS.encode()) == 1  # in her copy button only
    for other in (viewer, nobody):
        body = other.get(url).content
        assert scanned(body) == []
        assert DIGITS.encode() not in body and promptpay.formatted(ID).encode() not in body
        assert body.decode().count(promptpay.masked(ID)) == 3
        assert "คัดลอกเลข" not in body.decode()  # no copy button


def test_on_the_group_page_a_carried_debt_shows_an_id_only_to_its_payer_payee_and_host(
    client, table, ann
):
    closed_night(table)
    transfer = table.transfers.get(payer__name="Bee")
    debts.transfer_carry(transfer=transfer)
    debt = MoneyLine.objects.get(item=MoneyLine.Item.CARRY)
    bee, _ = phone(table, Membership.Role.PLAYER)
    claim(bee, table, "Bee")
    cat, _ = phone(table, Membership.Role.PLAYER)
    claim(cat, table, "Cat")
    viewer, _ = phone(table, Membership.Role.VIEWER)
    url = f"/g/{table.group_id}/"
    want = [promptpay.payload(DIGITS, debt.baht)]
    for allowed in (client, ann, bee):
        assert scanned(allowed.get(url).content) == want
    for other in (cat, viewer):
        body = other.get(url).content
        assert scanned(body) == [] and DIGITS.encode() not in body
        assert promptpay.masked(ID) in body.decode()


def test_a_number_changed_after_the_transfers_is_told_to_everyone_with_who_and_when(
    client, table, ann
):
    closed_night(table)
    url = f"/s/{table.pk}/settle"
    viewer, _ = phone(table, Membership.Role.VIEWER)
    assert "เลขพร้อมเพย์ถูกเปลี่ยน" not in viewer.get(url).content.decode()  # saved before
    ann.post(f"/g/{table.group_id}/promptpay", {"promptpay": "0612345678"})
    for anyone in (client, ann, viewer):
        page = anyone.get(url).content.decode()
        assert page.count("เลขพร้อมเพย์ถูกเปลี่ยนเมื่อ") == 3  # on each transfer to Ann
        assert "โดย Ann&#x27;s phone" in page or "โดย Ann's phone" in page
    summary = client.get(f"/s/{table.pk}/summary").content.decode()  # the shared night too
    assert summary.count("เลขพร้อมเพย์ถูกเปลี่ยนเมื่อ") == 3


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("0000000000", "เลขพร้อมเพย์เป็นเลขศูนย์ทั้งหมดไม่ได้"),
        ("0212345678", "เบอร์มือถือมี 10 หลัก ขึ้นต้นด้วย 06, 08 หรือ 09"),
        ("1111111111111", "เลขหลักสุดท้ายของเลขบัตรประชาชนหรือเลขผู้เสียภาษีนี้ไม่ตรง"),
        ("12345", "ไม่ใช่เลขพร้อมเพย์"),
    ],
)
def test_a_typed_number_is_refused_in_thai_and_kept_in_the_field(table, typed, reason):
    client, _ = phone(table, Membership.Role.PLAYER)
    claim(client, table, "Ann")
    answer = client.post(f"/g/{table.group_id}/promptpay", {"promptpay": typed})
    assert answer.status_code == 422
    body = answer.content.decode()
    assert reason in body and f'value="{typed}"' in body
    assert Player.objects.get(group=table.group, name="Ann").promptpay == ""


def test_a_number_stored_before_the_checks_still_pays(client, table):
    Player.objects.filter(group=table.group, name="Ann").update(promptpay="1111111111111")
    closed_night(table)
    body = client.get(f"/s/{table.pk}/settle").content
    want = sorted(promptpay.payload("1111111111111", t.baht) for t in table.transfers.all())
    assert scanned(body) == want
