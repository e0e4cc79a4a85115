"""Shared costs entered at the table while games go on (ค่าใช้จ่ายร่วม): one tap opens the form
in the table's live region; saved, the phone is back at the table and its running settle-up shows
the cost and each player's changed figures; refused, the form comes back as typed, in Thai."""

import html
import re
from decimal import Decimal

from django.test import Client

from scorekeeper.models import Game, Membership, MoneyLine, Night, Player
from scorekeeper.rules import settle_up as money_rules
from scorekeeper.services import nights
from tests.services.test_ledger_machine import engine_nets
from tests.views.conftest import HTMX, finish_data, member
from tests.views.test_settle_now import shown

EVERYONE = ["Ann", "Bee", "Cat", "Dan"]
COST = {"cost-reason": "ข้าวผัด", "cost-baht": "๔๐๐", "cost-paid_by": "Dan", "cost-among": EVERYONE}


def at_table(night: Night) -> str:
    return f"/s/{night.pk}/costs/at-table"


def the_form(body: str) -> str:
    """The cost form of the table page, from its <details> to the end of the form."""
    found = re.search(r'<details id="cost-add".*?</details>', body, re.S)
    assert found is not None, "no cost form on the table"
    return found.group(0)


def ticked(form: str) -> list[str]:
    return re.findall(r'<input type="checkbox" name="cost-among" value="([^"]+)"[^>]*checked', form)


def chosen(form: str) -> str:
    found = re.search(r'<option value="([^"]*)" selected>', form)
    assert found is not None
    return found.group(1)


def expected_transfers(night: Night) -> list[tuple[str, str, Decimal]]:
    """Who pays whom by the rules alone: each counted stored game replayed by the engine, and
    each standing cost's shares."""
    name = {p.pk: p.name for p in Player.objects.filter(group=night.group)}
    points = dict.fromkeys(EVERYONE, 0)
    for game in night.games.exclude(status=Game.Status.VOIDED):
        for pk, net in engine_nets(game).items():
            points[name[pk]] += net
    shares = [
        line
        for cost in night.costs.select_related("paid_by")
        for line in money_rules.shares(
            cost.baht, cost.paid_by.name, [name[pk] for pk in cost.among], cost.reason
        )
    ]
    held = money_rules.positions(points, night.point_value, shares)
    carrier = money_rules.biggest_winner(held)
    assert carrier is not None
    return [(t.payer, t.payee, t.baht) for t in money_rules.plan(held, carrier=carrier)]


def cost_nets(body: str) -> dict[str, Decimal]:
    return {
        n: Decimal(v) for n, v in re.findall(r'data-player="([^"]+)" data-costs="([^"]+)"', body)
    }


def test_the_table_offers_the_cost_form_paid_by_this_phones_player_shared_by_those_seated(
    en, in_play
):
    night = in_play.night
    body = en.get(f"/s/{night.pk}/").content.decode()
    form = the_form(body)
    assert f'action="{at_table(night)}"' in form and 'name="idempotency_key"' in form
    assert chosen(form) == "" and ticked(form) == EVERYONE  # no player claimed: nobody paid yet
    assert form.index("<summary") < form.index("<form")  # one tap opens it, in place
    host = Membership.objects.get(group=night.group, device__isnull=False)
    host.player = Player.objects.get(group=night.group, name="Cat")
    host.save(update_fields=["player"])
    en.post(f"/s/{night.pk}/games/{in_play.pk}/finish", finish_data())
    nights.seat_change(night=night, position=0, player="Eve")  # Eve sits in for Ann
    form = the_form(en.get(f"/s/{night.pk}/").content.decode())
    assert chosen(form) == "Cat"  # this phone's own player
    assert sorted(ticked(form)) == ["Bee", "Cat", "Dan", "Eve"]  # at the table now: Ann left
    assert 'value="Ann"' in form  # who left may still be named


def test_a_poll_keeps_the_cost_form_the_phone_has_and_brings_the_costs(en, table):
    en.post(at_table(table), COST)
    poll = en.get(f"/s/{table.pk}/?v=0", HTTP_HX_TARGET="live", **HTMX).content.decode()
    assert 'data-cost="ข้าวผัด"' in poll  # the costs and the figures: what changed
    kept = re.search(r'<details id="cost-add"[^>]*>(.*?)</details>', poll, re.S)
    assert kept is not None and 'hx-preserve="true"' in kept.group(0)
    assert "<form" not in kept.group(1)  # the phone keeps its own: open, typed, refused


def test_a_cost_saved_at_the_table_is_back_at_the_table_in_its_running_settle_up(en, in_play):
    night = in_play.night
    en.post(f"/s/{night.pk}/games/{in_play.pk}/finish", finish_data())
    before = shown(en.get(f"/s/{night.pk}/").content.decode())
    response = en.post(at_table(night), COST)
    assert response.status_code == 302 and response["Location"] == f"/s/{night.pk}/"
    body = en.get(response["Location"]).content.decode()
    assert 'data-cost="ข้าวผัด" data-baht="400"' in body  # the cost's line: ๔๐๐ read as 400
    assert "paid by Dan, shared by 4" in body
    shares = money_rules.shares(Decimal(400), "Dan", EVERYONE, "ข้าวผัด")
    assert cost_nets(body) == money_rules.nets(shares)  # Dan +300, each other −100
    want = expected_transfers(night)
    assert shown(body) == want != before  # the running settle-up moved by the cost
    stored = MoneyLine.objects.filter(night=night, item=MoneyLine.Item.COST)
    assert sorted((s.payer.name, s.baht) for s in stored) == [
        ("Ann", 100), ("Bee", 100), ("Cat", 100)
    ]  # fmt: skip


def test_a_cost_saved_through_htmx_swaps_the_live_region_in_place(en, in_play):
    night = in_play.night
    response = en.post(at_table(night), COST, **HTMX)
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body
    assert body.lstrip().startswith('<div id="live"')
    assert 'data-cost="ข้าวผัด"' in body and shown(body) == expected_transfers(night)
    assert '<details id="cost-add" class="add-cost">' in body  # closed again, a fresh form
    assert chosen(the_form(body)) == ""


def test_a_cost_sent_twice_from_the_table_with_its_key_is_added_once(en, table):
    form = {**COST, "idempotency_key": "table-cost-1"}
    en.post(at_table(table), form)
    en.post(at_table(table), form, **HTMX)  # a double tap, or the offline queue sending again
    assert table.costs.count() == 1
    assert MoneyLine.objects.filter(item=MoneyLine.Item.COST).count() == 3
    body = en.get(f"/s/{table.pk}/").content.decode()
    assert body.count('data-cost="ข้าวผัด"') == 1


def test_a_refused_cost_comes_back_as_typed_with_why_in_thai(table, client: Client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "th"
    alone = {**COST, "cost-among": ["Dan"]}  # nobody to share it with
    for headers in ({}, HTMX):
        response = client.post(at_table(table), alone, **headers)
        body = html.unescape(response.content.decode())
        assert response.status_code == 422
        assert ("<html" in body) != bool(headers)
        form = the_form(body)
        assert '<details id="cost-add" class="add-cost" open>' in form
        assert "เลือกว่าใครหารค่าใช้จ่ายนี้กับคนที่จ่าย" in form  # why, in Thai
        assert 'value="ข้าวผัด"' in form and 'value="๔๐๐"' in form  # as typed, Thai digits too
        assert chosen(form) == "Dan" and ticked(form) == ["Dan"]
    body = client.post(at_table(table), {**COST, "cost-baht": "เยอะ"}).content.decode()
    assert "จำนวนเงิน (บาท)" in body and 'value="เยอะ"' in body
    assert not MoneyLine.objects.exists() and not table.costs.exists()


def test_a_closed_night_refuses_a_cost_from_the_table(en, table):
    nights.night_close(night=table)
    response = en.post(at_table(table), COST)
    assert response.status_code == 302 and response["Location"] == f"/s/{table.pk}/"
    page = en.get(response["Location"]).content.decode()
    assert '<p class="card warn" role="status">This night is closed.</p>' in page
    assert not table.costs.exists()
    assert '<details id="cost-add"' not in page


def test_a_viewer_sees_the_costs_but_no_form_and_cannot_add_one(en, table):
    en.post(at_table(table), COST)
    viewer = Client(HTTP_ACCEPT_LANGUAGE="en")
    member(viewer, table.group, Membership.Role.VIEWER)
    body = viewer.get(f"/s/{table.pk}/").content.decode()
    assert 'data-cost="ข้าวผัด"' in body and 'id="cost-add"' not in body
    assert viewer.post(at_table(table), COST).status_code == 403
    assert table.costs.count() == 1


def test_a_cost_taken_back_leaves_the_tables_running_settle_up(en, in_play):
    night = in_play.night
    en.post(f"/s/{night.pk}/games/{in_play.pk}/finish", finish_data())
    before = shown(en.get(f"/s/{night.pk}/").content.decode())
    en.post(at_table(night), COST)
    en.post(f"/s/{night.pk}/costs/{night.costs.get().pk}/remove")  # from the settle page
    body = en.get(f"/s/{night.pk}/").content.decode()
    assert "data-cost=" not in body and cost_nets(body) == {}
    assert shown(body) == before
