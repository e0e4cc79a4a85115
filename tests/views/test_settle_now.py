"""Who pays whom all night: the table shows the transfers that would settle the
night now, after every game, without closing it; closing fixes them."""

import re
from decimal import Decimal

from scorekeeper.models import Transfer
from scorekeeper.reads.scoresheet import scoresheet_state
from scorekeeper.rules.transfers import fewest_transfers
from scorekeeper.services import costs, nights, scoresheet
from tests.views.conftest import finish_data
from tests.views.test_scoresheet import _captured, pig_hand


def shown(body: str) -> list[tuple[str, str, Decimal]]:
    return [
        (payer, payee, Decimal(baht.replace(",", "")))
        for payer, payee, baht in re.findall(
            r'data-payer="([^"]+)" data-payee="([^"]+)" data-baht="([\d.,]+)"', body
        )
    ]


def in_baht(nets: dict[str, int], rate: Decimal) -> list[tuple[str, str, Decimal]]:
    """The fewest transfers of the nets in points, at `rate` baht a point, to the satang."""
    satang = {name: int(points * rate * 100) for name, points in nets.items()}
    return [(t.payer, t.payee, Decimal(t.amount) / 100) for t in fewest_transfers(satang)]


def test_the_table_shows_who_would_pay_whom_after_each_game(en, in_play):
    night = in_play.night
    body = en.get(f"/s/{night.pk}/").content.decode()
    assert "If the night ended now" in body and shown(body) == []
    en.post(f"/s/{night.pk}/games/{in_play.pk}/finish", finish_data())
    body = en.get(f"/s/{night.pk}/").content.decode()
    nets = {s.player.name: s.balance for s in night.standings.select_related("player")}
    want = in_baht(nets, night.point_value)
    assert shown(body) == want and want
    assert not Transfer.objects.exists()  # nothing stored: the night is still open
    assert "150 ฿" in body  # Bee pays 300 points at half a baht


def test_a_shared_cost_is_in_the_running_transfers_in_baht(en, in_play):
    night = in_play.night
    en.post(f"/s/{night.pk}/games/{in_play.pk}/finish", finish_data())
    standings = list(night.standings.select_related("player"))
    players = {s.player.name: s.player for s in standings}
    costs.cost_add(night=night, reason="ส้มตำ", baht=Decimal("100.00"),
                   paid_by=players["Bee"], among=list(players.values()))  # fmt: skip
    body = en.get(f"/s/{night.pk}/").content.decode()
    satang = {s.player.name: int(s.balance * night.point_value * 100) for s in standings}
    for name in satang:  # a quarter each, owed to Bee who paid
        satang[name] += 7500 if name == "Bee" else -2500
    want = [(t.payer, t.payee, Decimal(t.amount) / 100) for t in fewest_transfers(satang)]
    assert shown(body) == want and want


def test_a_closed_night_shows_its_fixed_transfers_not_a_running_plan(en, in_play):
    night = in_play.night
    en.post(f"/s/{night.pk}/games/{in_play.pk}/finish", finish_data())
    nights.night_close(night=night)
    body = en.get(f"/s/{night.pk}/").content.decode()
    assert "If the night ended now" not in body


def test_a_gong_zhu_night_for_money_shows_its_running_transfers(en, gong):
    body = en.get(f"/s/{gong.pk}/").content.decode()
    assert "If the night ended now" in body and shown(body) == []
    scoresheet.hand_record(night=gong, hand=_captured(pig_hand()))
    body = en.get(f"/s/{gong.pk}/").content.decode()
    plan = in_baht(scoresheet_state(gong).money, gong.point_value)
    assert shown(body) == plan and plan
