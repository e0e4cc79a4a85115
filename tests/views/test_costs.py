"""Shared costs, the table fee and rounding on the phone: entered and taken
back at the settle-up, chosen when the host closes, shown in baht in the settle-up and history."""

from decimal import Decimal

from django.test import Client

from scorekeeper.models import Membership, MoneyLine, Transfer
from scorekeeper.services.ledger_audit import night_audit
from tests.views.conftest import finish_data, member

COST = {"cost-reason": "ข้าวผัด", "cost-baht": "๔๐๐", "cost-paid_by": "Dan"}
EVERYONE = ["Ann", "Bee", "Cat", "Dan"]


def test_a_player_adds_a_shared_cost_and_it_is_in_the_running_settle_up(en, in_play):
    night = in_play.night
    en.post(f"/s/{night.pk}/games/{in_play.pk}/finish", finish_data())
    before = en.get(f"/s/{night.pk}/").content.decode()
    response = en.post(f"/s/{night.pk}/costs", {**COST, "cost-among": EVERYONE})
    assert response.status_code == 302 and response["Location"] == f"/s/{night.pk}/settle"
    shares = MoneyLine.objects.filter(night=night, item=MoneyLine.Item.COST)
    assert sorted((s.payer.name, s.payee.name, s.baht) for s in shares) == [
        (name, "Dan", Decimal(100)) for name in ("Ann", "Bee", "Cat")
    ]  # Thai digits read: ๔๐๐ is 400, a hundred each
    page = en.get(f"/s/{night.pk}/settle").content.decode()
    assert "ข้าวผัด" in page and "paid by Dan, shared by 4" in page
    after = en.get(f"/s/{night.pk}/").content.decode()
    assert after != before  # the running settle-up moved by the cost: Dan is owed 300 more
    assert "Dan" in after.split("If the night ended now")[1].split("</section>")[0]


def test_a_cost_the_form_refuses_is_told_in_thai_and_writes_nothing(table, client: Client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "th"
    url = f"/s/{table.pk}/costs"
    page = client.post(url, {**COST, "cost-baht": "เยอะ", "cost-among": EVERYONE}, follow=True)
    assert "จำนวนเงิน (บาท)" in page.content.decode()  # the field, named in Thai, with its error
    page = client.post(url, {**COST, "cost-among": ["Dan"]}, follow=True).content.decode()
    assert "เลือกว่าใครหารค่าใช้จ่ายนี้กับคนที่จ่าย" in page
    assert not MoneyLine.objects.exists()


def test_a_viewer_cannot_add_a_cost(table):
    viewer = Client(HTTP_ACCEPT_LANGUAGE="en")
    member(viewer, table.group, Membership.Role.VIEWER)
    response = viewer.post(f"/s/{table.pk}/costs", {**COST, "cost-among": EVERYONE})
    assert response.status_code == 403
    assert not MoneyLine.objects.exists()


def test_a_cost_taken_back_shows_struck_through_and_its_shares_reversed(en, table):
    en.post(f"/s/{table.pk}/costs", {**COST, "cost-among": EVERYONE})
    cost = table.costs.get()
    en.post(f"/s/{table.pk}/costs/{cost.pk}/remove")
    assert cost.lines.filter(reverses__isnull=False).count() == 3
    page = en.get(f"/s/{table.pk}/settle").content.decode()
    assert '<li class="reversal">' in page and "taken back" in page


def test_the_host_closes_with_a_fee_to_the_house_and_rounding_and_the_night_shows_them(en, in_play):
    night = in_play.night
    en.post(f"/s/{night.pk}/games/{in_play.pk}/finish", finish_data())
    en.post(f"/s/{night.pk}/costs", {**COST, "cost-baht": "99", "cost-among": EVERYONE})
    closing = {"mode": "fewest", "fee": "20", "fee_per": "game", "fee_to": "", "rounding": "10"}
    assert en.post(f"/s/{night.pk}/settle", closing).status_code == 302
    transfers = list(Transfer.objects.filter(night=night))
    house = [t for t in transfers if t.payee is None]
    assert len(house) == 1 and house[0].baht == Decimal(20)
    winner = night.standings.order_by("-net").first().player  # Ann knocks in finish_data
    for t in transfers:  # whole tens but for the biggest winner, who carries the rounding
        if winner not in (t.payer, t.payee) and t.payee is not None:
            assert t.baht % 10 == 0, t.baht
    page = en.get(f"/s/{night.pk}/settle").content.decode()
    assert "→ the house <strong>20 ฿</strong>" in page
    assert "Table fee, shared costs and rounding" in page and "table fee (ต๋ง) · game 1" in page
    history = en.get(f"/s/{night.pk}/history").content.decode()
    assert "table fee (ต๋ง) · game 1" in history and "shared cost · ข้าวผัด" in history
    assert night_audit(night) == []


def test_a_fee_that_is_not_an_amount_is_refused_and_the_night_stays_open(en, table):
    response = en.post(f"/s/{table.pk}/settle", {"mode": "fewest", "fee": "-5"})
    assert response.status_code == 422
    table.refresh_from_db()
    assert table.is_open and not Transfer.objects.exists()


def test_a_cost_sent_twice_with_its_key_is_recorded_once(en, table):
    form = {**COST, "cost-among": EVERYONE, "idempotency_key": "cost-key-1"}
    en.post(f"/s/{table.pk}/costs", form)
    en.post(f"/s/{table.pk}/costs", form)  # a double tap on a slow network
    assert table.costs.count() == 1
    assert MoneyLine.objects.filter(item=MoneyLine.Item.COST).count() == 3
