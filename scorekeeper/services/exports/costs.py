"""A night's shared costs: who paid what, shared among whom."""

from typing import Any

from scorekeeper.models import Cost, Night, Player
from scorekeeper.rules.money import BAHT_MOST
from scorekeeper.services.exports.fields import (
    at_most,
    dump_time,
    load,
    load_baht,
    load_list,
    load_player,
    load_when,
    valid,
)


def dump_cost(cost: Cost, name: dict[int, str]) -> dict[str, Any]:
    return {
        "reason": cost.reason,
        "baht": str(cost.baht),
        "paid_by": name[cost.paid_by_id],
        "among": [name[pk] for pk in cost.among],
        "recorded_at": dump_time(cost.recorded_at),
    }


def load_costs(night: Night, players: dict[str, Player], raw: Any, where: str) -> list[Cost]:
    costs = []
    for i, cost in enumerate(load_list(raw, "costs", where) if "costs" in raw else []):
        at = f"{where}.costs[{i}]"
        among = [
            load_player({"p": p}, "p", players, f"{at}.among") for p in load_list(cost, "among", at)
        ]
        costs.append(
            valid(
                Cost(
                    night=night,
                    reason=load(cost, "reason", str, at),
                    baht=at_most(load_baht(cost, "baht", at), BAHT_MOST, f"{at}.baht"),
                    paid_by=load_player(cost, "paid_by", players, at),
                    among=[p.pk for p in among],
                    recorded_at=load_when(cost, "recorded_at", at),
                ),
                at,
            )
        )
    Cost.objects.bulk_create(costs)
    return costs
