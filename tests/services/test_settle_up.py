"""The night's settle-up in baht through the services: shared costs, the table fee, rounding,
written at the close as ledger lines in baht, and the audit that checks them."""

from collections import Counter
from decimal import Decimal

import pytest

from scorekeeper.models import LedgerLine, MoneyLine, Night, Transfer
from scorekeeper.reads.money import Choices
from scorekeeper.reads.scoresheet import scoresheet_state
from scorekeeper.services import costs, games, nights, scoresheet
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.ledger_audit import night_audit
from tests.services.conftest import make_night, player
from tests.services.test_scoresheet import make_scoresheet, pig_hand

B = Decimal
# Bee knocks: Ann +35 points, Cat −20, Dan −60 left in hand, at sian stakes and half a baht.
KNOCK = {
    "knock": {"player": "Bee", "kind": "normal"},
    "points": {"Ann": 35, "Cat": -20, "Dan": -60},
}


def play(table: Night, times: int = 1) -> None:
    for _ in range(times):
        games.game_finish(game=games.game_start(night=table, fool_swap=False), outcome=KNOCK)


def everyone(table: Night) -> list:
    return [s.player for s in table.standings.select_related("player")]


def held(transfers: list[Transfer]) -> dict[str, Decimal]:
    """What the transfers make each party receive (+) or pay (−); the house as "house"."""
    moved: Counter[str] = Counter()
    for t in transfers:
        moved[t.payer.name] -= t.baht
        moved[t.payee.name if t.payee else "house"] += t.baht
    return {name: baht for name, baht in moved.items() if baht}


def baht_of(table: Night) -> dict[str, Decimal]:
    return {s.player.name: table.baht(s.balance) for s in table.standings.select_related("player")}


def test_a_shared_cost_is_its_shares_in_baht_and_joins_the_settle_up(table):
    play(table)
    cost = costs.cost_add(night=table, reason="ข้าวผัด", baht=B("300.00"),
                          paid_by=player(table, "Dan"), among=everyone(table))  # fmt: skip
    shares = list(cost.lines.order_by("payer__name"))
    assert [(s.payer.name, s.payee.name, s.baht, s.item) for s in shares] == [
        (name, "Dan", B("75.00"), MoneyLine.Item.COST) for name in ("Ann", "Bee", "Cat")
    ]
    transfers = nights.night_close(night=table)
    want = baht_of(table)
    for name in want:
        want[name] += B(225) if name == "Dan" else B(-75)
    assert held(transfers) == {name: baht for name, baht in want.items() if baht}
    assert night_audit(table) == []


def test_a_cost_taken_back_is_reversed_visibly_and_leaves_the_settle_up(table):
    play(table)
    before = nights.night_close  # the same night without the cost settles the same
    cost = costs.cost_add(night=table, reason="เบียร์", baht=B("99.99"),
                          paid_by=player(table, "Ann"), among=everyone(table)[:2])  # fmt: skip
    costs.cost_remove(cost=cost)
    assert cost.lines.filter(reverses__isnull=False).count() == cost.lines.count() // 2 == 1
    with pytest.raises(ServiceError) as twice:
        costs.cost_remove(cost=cost)
    assert twice.value.code == "cost-removed"
    transfers = before(night=table)
    assert held(transfers) == {k: v for k, v in baht_of(table).items() if v}
    assert night_audit(table) == []


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"reason": "  "}, "cost-reason"),
        ({"reason": "ก" * 61}, "cost-reason-long"),
        ({"baht": B(0)}, "cost-baht"),
        ({"baht": B("1.001")}, "cost-baht"),
        ({"among": "payer"}, "cost-among"),
        ({"among": "stranger"}, "cost-seated"),
    ],
)
def test_a_cost_that_makes_no_sense_is_refused_and_writes_nothing(table, change, code):
    ann = player(table, "Ann")
    stranger = nights.player_create(group=table.group, name="Zed")
    among = {"payer": [ann], "stranger": [ann, stranger]}.get(
        change.pop("among", None), everyone(table)
    )  # type: ignore[arg-type]
    kwargs = {"reason": "ข้าว", "baht": B(100), "paid_by": ann, "among": among, **change}
    with pytest.raises(ServiceError) as refused:
        costs.cost_add(night=table, **kwargs)
    assert refused.value.code == code
    assert not MoneyLine.objects.exists()


def test_a_closed_night_takes_no_cost(table):
    nights.night_close(night=table)
    with pytest.raises(ServiceError) as refused:
        costs.cost_add(night=table, reason="ข้าว", baht=B(10), paid_by=player(table, "Ann"),
                       among=everyone(table))  # fmt: skip
    assert refused.value.code == "night-closed"


def test_a_fee_per_game_to_the_house_and_rounding_are_lines_and_the_house_is_paid(table):
    play(table, times=3)  # Bee wins each game
    transfers = nights.night_close(
        night=table,
        choices=Choices(fee=B(20), rounding=10, rounding_by=player(table, "Cat")),
    )
    fees = list(MoneyLine.objects.filter(night=table, item=MoneyLine.Item.FEE))
    assert [(f.payer.name, f.payee, f.baht, f.reason) for f in fees] == [
        ("Bee", None, B(20), str(n)) for n in (1, 2, 3)
    ]
    rounding = MoneyLine.objects.filter(night=table, item=MoneyLine.Item.ROUNDING)
    assert all("Cat" in (r.payer.name, r.payee.name) for r in rounding)
    moved = held(transfers)
    assert moved["house"] == B(60)  # the house, its own payee
    for name, baht in moved.items():
        if name not in ("Cat", "house"):
            assert baht % 10 == 0, (name, baht)  # whole tens: Cat carries the residue
    assert sum(moved.values()) == 0
    table.refresh_from_db()
    assert (table.fee, table.rounding, table.rounding_by) == (B(20), 10, player(table, "Cat"))
    house = next(t for t in transfers if t.payee is None)
    nights.payment_record(transfer=house)  # a transfer to the house is paid like any
    assert night_audit(table) == []


def test_a_fee_per_night_to_a_player_and_rounding_by_the_biggest_winner(table):
    play(table)
    ann = player(table, "Ann")
    nights.night_close(night=table, choices=Choices(fee=B("12.50"), fee_per="night",
                                                          fee_to=ann, rounding=5))  # fmt: skip
    fees = MoneyLine.objects.filter(night=table, item=MoneyLine.Item.FEE)
    assert sorted(f.payer.name for f in fees) == ["Bee", "Cat", "Dan"]
    assert {f.payee for f in fees} == {ann}
    table.refresh_from_db()
    winner = max(baht_of(table).items(), key=lambda kv: kv[1])[0]
    assert table.rounding_by.name == winner
    assert night_audit(table) == []


def test_choices_naming_someone_not_at_the_table_are_refused_and_the_night_stays_open(table):
    stranger = nights.player_create(group=table.group, name="Zed")
    with pytest.raises(ServiceError) as refused:
        nights.night_close(night=table, choices=Choices(fee=B(10), fee_to=stranger))
    assert refused.value.code == "not-seated"
    with pytest.raises(ServiceError) as refused:
        nights.night_close(night=table, choices=Choices(rounding=3))
    assert refused.value.code == "rounding"
    table.refresh_from_db()
    assert table.is_open and not Transfer.objects.exists() and not MoneyLine.objects.exists()


@pytest.mark.ledger_broken  # on purpose: the audit must find it
def test_the_audit_finds_a_fee_line_added_and_a_transfer_changed_behind_its_back(table):
    play(table)
    transfers = nights.night_close(night=table, choices=Choices(fee=B(20)))
    assert night_audit(table) == []
    MoneyLine.objects.bulk_create(
        [MoneyLine(group=table.group, night=table, payer=player(table, "Dan"), baht=B(20),
                   item=MoneyLine.Item.FEE, reason="9")]
    )  # fmt: skip
    assert "the fee and rounding lines differ from a fresh settle-up" in night_audit(table)
    other = make_night()
    play(other)
    changed = nights.night_close(night=other)[0]
    Transfer.objects.filter(pk=changed.pk).update(baht=changed.baht + B("0.01"))
    assert night_audit(other) == ["the transfers do not settle the night: 2 left over"]
    assert transfers  # the first night had some


def test_a_gong_zhu_match_closes_with_its_costs_fee_and_rounding_and_audits_clean(db):
    gong = make_scoresheet(point_value=B("0.5"))
    scoresheet.hand_record(night=gong, hand=pig_hand("Bee", "Cat"))
    seated = scoresheet_state(gong).players
    costs.cost_add(night=gong, reason="ชานม", baht=B(120), paid_by=seated[0], among=seated)
    transfers = scoresheet.scoresheet_close(
        night=gong, choices=Choices(fee=B(10), fee_per="night", rounding=20)
    )
    assert transfers and all(t.baht > 0 for t in transfers)
    assert MoneyLine.objects.filter(night=gong, item=MoneyLine.Item.FEE, payee=None).count() == 4
    assert sum(held(transfers).values()) == 0 and held(transfers)["house"] == B(40)
    assert not LedgerLine.objects.filter(night=gong).exists()  # the points ledger: hands only
    assert night_audit(gong) == []
