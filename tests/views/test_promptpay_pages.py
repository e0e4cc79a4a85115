"""Paying by PromptPay: a member says which player they are and saves
where they are paid; every transfer to them shows a QR code with the amount, which scans back to
the payload; an id is masked to everyone but its owner, in the share text too."""

import re

from django.test import Client

from scorekeeper import promptpay
from scorekeeper.models import AuditEntry, Membership, Player
from scorekeeper.services import games, nights
from tests.qr_read import scan
from tests.views.conftest import member

ID = "1-1111-11111-11-9"  # passes its check digit, as a typed id must
MOBILE = "081-234-5678"


def say_i_am(client: Client, table, name: str) -> Player:
    player = Player.objects.get(group=table.group, name=name)
    answer = client.post(f"/g/{table.group_id}/me", {"player": str(player.pk)})
    assert answer.status_code == 302
    return player


def closed_night(table) -> None:
    """Ann knocks; Bee, Cat and Dan pay her; the night closes."""
    game = games.game_start(night=table)
    games.game_finish(game=game, outcome={"knock": {"player": "Ann", "kind": "normal"},
                                          "points": {"Bee": 10, "Cat": 20, "Dan": 30}})  # fmt: skip
    nights.night_close(night=table)


def test_a_member_says_who_they_are_and_saves_their_promptpay_in_thai_digits(en, table):
    ann = say_i_am(en, table, "Ann")
    assert Membership.objects.get(player=ann)
    answer = en.post(f"/g/{table.group_id}/promptpay", {"promptpay": "๐๘๑-๒๓๔-๕๖๗๘"})
    assert answer.status_code == 302
    ann.refresh_from_db()
    assert ann.promptpay == "0812345678"
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {"member-is-player", "promptpay-set"} <= actions


def test_a_number_promptpay_cannot_carry_is_refused_in_thai(client, table):
    member(client, table.group, Membership.Role.PLAYER)
    say_i_am(client, table, "Ann")
    answer = client.post(f"/g/{table.group_id}/promptpay", {"promptpay": "12345"})
    assert answer.status_code == 422
    assert "ไม่ใช่เลขพร้อมเพย์" in answer.content.decode()
    assert Player.objects.get(group=table.group, name="Ann").promptpay == ""


FIGURE = r'<figure class="qr" role="img" aria-label="[^"]+">(<svg.*?</svg>)'


def test_every_transfer_to_a_player_with_promptpay_shows_a_qr_that_scans_to_the_amount(en, table):
    ann = say_i_am(en, table, "Ann")
    en.post(f"/g/{table.group_id}/promptpay", {"promptpay": ID})
    closed_night(table)
    own = en.get(f"/s/{table.pk}/settle").content.decode()  # her phone, a host's
    scanned = sorted(scan(svg, "#fff") for svg in re.findall(FIGURE, own, re.S))
    ann.refresh_from_db()
    want = sorted(promptpay.payload(ann.promptpay, t.baht) for t in table.transfers.all())
    assert scanned == want and len(want) == 3  # each with its own amount
    assert promptpay.formatted(ID) in own  # her own number, whole


def test_a_payer_gets_the_qr_of_their_own_transfer_and_the_others_an_id_masked(client, table):
    say_i_am(client, table, "Ann")  # the host's phone is Ann
    client.post(f"/g/{table.group_id}/promptpay", {"promptpay": ID})
    closed_night(table)
    payer = Client(HTTP_ACCEPT_LANGUAGE="en")
    member(payer, table.group, Membership.Role.PLAYER)
    bee = say_i_am(payer, table, "Bee")
    body = payer.get(f"/s/{table.pk}/settle").content.decode()
    scanned = [scan(svg, "#fff") for svg in re.findall(FIGURE, body, re.S)]
    mine = table.transfers.get(payer=bee)
    assert scanned == [promptpay.payload(promptpay.normalised(ID), mine.baht)]  # hers alone
    assert body.count(promptpay.masked(ID)) == 2  # Cat's and Dan's transfers to Ann
    assert body.count(promptpay.normalised(ID)) == 1  # her copy button, and nowhere else


def test_the_share_text_masks_an_id_and_shows_a_mobile_only_if_its_owner_chose(en, table):
    say_i_am(en, table, "Ann")
    en.post(f"/g/{table.group_id}/promptpay", {"promptpay": ID})
    closed_night(table)
    text = en.get(f"/s/{table.pk}/summary").content.decode()
    assert promptpay.masked(ID) in text and promptpay.normalised(ID) not in text
    en.post(f"/g/{table.group_id}/promptpay", {"promptpay": MOBILE, "promptpay_public": "on"})
    text = en.get(f"/s/{table.pk}/summary").content.decode()
    assert "081-234-5678" in text
    en.post(f"/g/{table.group_id}/promptpay", {"promptpay": MOBILE})
    text = en.get(f"/s/{table.pk}/summary").content.decode()
    assert "081-234-5678" not in text and promptpay.masked(MOBILE) in text
