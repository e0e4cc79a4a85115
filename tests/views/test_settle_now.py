"""Who pays whom all night (issue 21, item 1): the table shows the transfers that would settle the
night now, after every game, without closing it; closing fixes them."""

import re

from scorekeeper.models import Transfer
from scorekeeper.rules.transfers import fewest_transfers
from scorekeeper.services import scoresheet, sessions
from tests.views.conftest import finish_data
from tests.views.test_scoresheet import _captured, pig_hand


def shown(body: str) -> list[tuple[str, str, int]]:
    return [
        (payer, payee, int(points))
        for payer, payee, points in re.findall(
            r'data-payer="([^"]+)" data-payee="([^"]+)" data-points="(\d+)"', body
        )
    ]


def test_the_table_shows_who_would_pay_whom_after_each_game(en, in_play):
    session = in_play.session
    body = en.get(f"/s/{session.pk}/").content.decode()
    assert "If the night ended now" in body and shown(body) == []
    en.post(f"/s/{session.pk}/games/{in_play.pk}/finish", finish_data())
    body = en.get(f"/s/{session.pk}/").content.decode()
    nets = {s.player.name: s.balance for s in session.standings.select_related("player")}
    want = [(t.payer, t.payee, t.amount) for t in fewest_transfers(nets)]
    assert shown(body) == want and want
    assert not Transfer.objects.exists()  # nothing stored: the night is still open
    assert "150 ฿" in body  # Bee pays 300 points at half a baht: baht beside the points


def test_a_closed_night_shows_its_fixed_transfers_not_a_running_plan(en, in_play):
    session = in_play.session
    en.post(f"/s/{session.pk}/games/{in_play.pk}/finish", finish_data())
    sessions.session_close(session=session)
    body = en.get(f"/s/{session.pk}/").content.decode()
    assert "If the night ended now" not in body


def test_a_gong_zhu_night_for_money_shows_its_running_transfers(en, gong):
    body = en.get(f"/s/{gong.pk}/").content.decode()
    assert "If the night ended now" in body and shown(body) == []
    scoresheet.hand_record(session=gong, hand=_captured(pig_hand()))
    body = en.get(f"/s/{gong.pk}/").content.decode()
    plan = scoresheet.scoresheet_plan(gong)
    assert shown(body) == [(t.payer, t.payee, t.amount) for t in plan] and plan
