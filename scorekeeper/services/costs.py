"""Shared costs of the night (ค่าใช้จ่ายร่วม: food, drinks): who paid, how much, shared among
whom. Each is a set of lines of the money ledger in baht, one a share, in the settle-up beside
the games; taking one back reverses its lines, visibly."""

from collections.abc import Sequence
from decimal import Decimal

from scorekeeper.models import Cost, Membership, MoneyLine, Night, Player
from scorekeeper.names import cleaned
from scorekeeper.rules import settle_up as rules
from scorekeeper.rules.money import BAHT_MOST
from scorekeeper.services import once, settle_up
from scorekeeper.services.access import audit
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.nights import lock_open, money_reverse
from scorekeeper.services.writing import writing

REASON_LENGTH = 60


@writing()
def cost_add(
    *,
    night: Night,
    reason: str,
    baht: Decimal,
    paid_by: Player,
    among: Sequence[Player],
    actor: Membership | None = None,
    idempotency_key: str | None = None,
) -> Cost:
    """Record a shared cost: each of `among` but the one who paid owes them an equal share. A
    form sent again with the same key (a double tap, a retry) records it once."""
    night = lock_open(night)
    if (done := once.replayed(idempotency_key, "cost-add", night_id=night.pk)) is not None:
        return Cost.objects.get(pk=done.detail["cost"])
    reason = cleaned(reason)
    if not reason:
        raise ServiceError("cost-reason", "say what the cost was for", field="reason")
    if len(reason) > REASON_LENGTH:
        raise ServiceError(
            "cost-reason-long", "a reason has at most {n} letters", field="reason", n=REASON_LENGTH
        )
    if not Decimal(0) < baht <= BAHT_MOST or baht != baht.quantize(rules.SATANG):
        raise ServiceError(
            "cost-baht", "a cost is more than 0 and at most {n} baht, to the satang",
            field="baht", n=f"{BAHT_MOST:,}",
        )  # fmt: skip
    seated = set(night.standings.values_list("player_id", flat=True))
    shared = list({p.pk: p for p in among}.values())
    if not [p for p in shared if p.pk != paid_by.pk]:
        raise ServiceError(
            "cost-among", "choose who shares the cost with the one who paid", field="among"
        )
    if paid_by.pk not in seated or any(p.pk not in seated for p in shared):
        raise ServiceError("cost-seated", "everyone named must be at this table", field="among")
    cost = Cost.objects.create(
        night=night, reason=reason, baht=baht, paid_by=paid_by,
        among=[p.pk for p in shared], by=actor,
    )  # fmt: skip
    by_name = {p.name: p for p in [*shared, paid_by]}
    shares = rules.shares(baht, paid_by.name, [p.name for p in shared], reason)
    MoneyLine.objects.bulk_create(
        MoneyLine(
            group_id=night.group_id,
            night=night,
            cost=cost,
            payer=by_name[s.payer],
            payee=paid_by,
            baht=s.baht,
            item=MoneyLine.Item.COST,
            reason=reason,
            by=actor,
        )  # fmt: skip
        for s in shares
    )
    settle_up.ledger_check(night)  # a total past what the ledger holds: all rolled back
    audit(actor=actor, action="cost-add", night=night, detail=_detail(cost), key=idempotency_key)
    return cost


@writing()
def cost_remove(*, cost: Cost, actor: Membership | None = None) -> Cost:
    """Take a shared cost back, entered by mistake: its shares are reversed, visibly."""
    night = lock_open(cost.night)
    standing = list(cost.lines.standing())
    if not standing and cost.lines.exists():
        raise ServiceError("cost-removed", "this cost was already taken back", field="cost")
    for line in standing:
        money_reverse(line, by=actor)
    audit(actor=actor, action="cost-remove", night=night, detail=_detail(cost))
    return cost


def _detail(cost: Cost) -> dict[str, object]:
    return {
        "cost": cost.pk, "reason": cost.reason, "baht": str(cost.baht),
        "paid_by": cost.paid_by.name, "unit": MoneyLine.UNIT,
    }  # fmt: skip
