"""The night's settle-up in baht, at the close: check what the host chose, and write the plan of
who pays whom (reads.money: what the night holds and the plan, read as the pages read it) as the
fee and rounding lines and the transfers. Both kinds of night for money use it: Knock Dummy and
Gong Zhu."""

from collections.abc import Mapping, Sequence
from decimal import Decimal

from scorekeeper.models import Membership, MoneyLine, Night, Player, Standing, Transfer
from scorekeeper.reads.money import Choices, NightMoney, plan, standing_lines
from scorekeeper.rules import settle_up as rules
from scorekeeper.rules.money import BAHT_MOST, LEDGER_MOST, baht, fits_ledger
from scorekeeper.services.errors import ServiceError

CHOSEN = ["fee", "fee_per", "fee_to", "rounding", "rounding_by", "nets_reading"]  # `write` sets


def check(choices: Choices, players: Sequence[Player]) -> None:
    """Refuse choices that name someone not at the table, or a fee or step not allowed."""
    seated = {p.pk for p in players}
    if choices.mode == Transfer.Mode.HUB and (choices.hub is None or choices.hub.pk not in seated):
        raise ServiceError("hub", "choose who everyone settles with", field="hub")
    if choices.mode not in Transfer.Mode.values:
        raise ServiceError("mode", "unknown settle-up mode", field="mode")
    for who, name in ((choices.fee_to, "fee_to"), (choices.rounding_by, "rounding_by")):
        if who is not None and who.pk not in seated:
            raise ServiceError("not-seated", "{name} is not at this table", field=name, name=who)
    if choices.rounding not in rules.STEPS:
        raise ServiceError("rounding", "round to 1, 5, 10 or 20 baht, or not at all")
    if choices.fee_per not in Night.FeePer.values:
        raise ServiceError("fee-per", "a table fee is per game or per night", field="fee_per")
    if choices.fee < 0 or choices.fee != choices.fee.quantize(Decimal("0.01")):
        raise ServiceError("fee", "a table fee is 0 baht or more, to the satang", field="fee")
    if choices.fee > BAHT_MOST:  # what a real table charges: a night of it fits the ledger
        raise ServiceError(
            "fee-most", "a table fee is at most {n} baht", field="fee", n=f"{BAHT_MOST:,}"
        )


def write(
    night: Night,
    money: NightMoney,
    choices: Choices,
    actor: Membership | None,
) -> list[Transfer]:
    """At the close: store the fee and rounding lines and the transfers; set the choices on
    `night`, for the caller to save with its closing."""
    check(choices, money.players)
    settled = plan(money, choices)
    for who, amount in [*settled.held.items(), *((t.payer, t.baht) for t in settled.payments)]:
        if not fits_ledger(amount):  # a transfer holds 12 digits: the fee took a total past
            raise _past_ledger(who)
    by_name = {p.name: p for p in money.players}
    MoneyLine.objects.bulk_create(
        MoneyLine(
            group_id=night.group_id,
            night=night,
            payer=by_name[line.payer],
            payee=by_name.get(line.payee),
            baht=line.baht,
            item=line.item,
            reason=line.reason,
            by=actor,
        )  # fmt: skip
        for line in settled.lines
    )
    night.fee, night.fee_per, night.fee_to = choices.fee, choices.fee_per, choices.fee_to
    night.rounding = choices.rounding
    night.nets_reading = Night.NetsReading.STANDING  # the fee went by the standing nets
    night.rounding_by = by_name[settled.carrier] if choices.rounding and settled.carrier else None
    return Transfer.objects.bulk_create(
        Transfer(
            night=night,
            payer=by_name[t.payer],
            payee=by_name.get(t.payee),
            baht=t.baht,
            mode=choices.mode,
        )  # fmt: skip
        for t in settled.payments
    )


def ledger_check(night: Night, nets: Mapping[int, int] | None = None) -> None:
    """Refuse a write that takes a player's total past what the ledger holds (rules.settle_up:
    `past_ledger`), for the caller's transaction to roll back. `nets`: the running totals a
    game or hand just changed, which spare reading the night while they are far from it."""
    rate = night.point_value
    if nets is not None and (
        not rate or baht(max(map(abs, nets.values()), default=0), rate) <= LEDGER_MOST / 2
    ):
        return  # far from it: the costs may hold the other half
    standings = Standing.objects.filter(night=night).values_list("player__name", "net")
    costs = rules.nets(standing_lines(night, MoneyLine.Item.COST))
    who = rules.past_ledger(dict(standings), rate, costs)
    if who is not None:
        raise _past_ledger(who)


def _past_ledger(who: str) -> ServiceError:
    return ServiceError(
        "ledger-full", "this would take {name}'s total past what the ledger holds ({most} baht)",
        name=who, most=f"{LEDGER_MOST:,}",
    )  # fmt: skip
