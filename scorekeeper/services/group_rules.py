"""The group's own rules (กติกาประจำวง): the usual choices a night opens and closes with.

A host keeps them on the group's page; opening a night of Knock Dummy or a score sheet starts
from them, and so does the close, each still changeable there. They are stored on `Group.usual`
as JSON, checked on the way in as a night's own choices are, and read defensively: a part that no
longer passes (written by an older version, or by hand) is left out and the forms' own defaults
stand in for it.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from scorekeeper.models import Group, Membership, Night, Player
from scorekeeper.reads.money import HUB, Choices, Close
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.knock_dummy import STAKE_LEVELS
from scorekeeper.rules.money import STAKE_MOST
from scorekeeper.services import settle_up
from scorekeeper.services.access import audit
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.nights import point_value_check
from scorekeeper.services.scoresheet import RULESETS, probe
from scorekeeper.services.writing import writing

CUSTOM = Night.StakeLevel.CUSTOM
PROBE_NAMES = ["1", "2", "3", "4"]  # a table any score sheet can seat, to have its engine read
PARTS = ("stakes", "close", *RULESETS)  # what `Group.usual` holds, each part on its own
# What reading a part that does not pass raises: a check's refusal, or a value of the wrong shape.
NOT_PASSING = (RuleError, LookupError, TypeError, ValueError, ArithmeticError)


@dataclass(frozen=True, slots=True)
class Stakes:
    """Knock Dummy's usual stakes: a level or custom rates (rule 69), the fine (rule 83) and
    the baht a point is worth."""

    level: str = Night.StakeLevel.SIAN
    rates: tuple[int, int, int] | None = None  # custom rates only: less, medium, more
    fine: int | None = None  # None: the medium rate
    point_value: Decimal = Decimal(1)


@dataclass(frozen=True, slots=True)
class Sheet:
    """A score sheet's usual target and house rules, as a night stores them (Night.scoresheet),
    and what a point is worth (Gong Zhu alone is played for money)."""

    house: dict[str, Any]
    target: Any
    point_value: Decimal = Decimal(0)


@dataclass(frozen=True, slots=True)
class Usual:
    """The group's usual choices; a part not set (None, or a ruleset missing) leaves the forms'
    own defaults."""

    stakes: Stakes | None = None
    close: Close | None = None
    sheets: dict[str, Sheet] = field(default_factory=dict)  # by ruleset


@writing()
def group_rules_set(*, group: Group, usual: Usual, actor: Membership) -> Group:
    """Keep the group's usual choices, each part checked as a night's own; a host's to change."""
    group = Group.objects.select_for_update().get(pk=group.pk)
    if actor.group_id != group.pk or actor.revoked_at is not None or not actor.may_host:
        raise ServiceError("not-host", "only a host can change the group's own rules")
    stored: dict[str, Any] = {}
    if usual.stakes is not None:
        stored["stakes"] = _stakes_stored(usual.stakes)
    if usual.close is not None:
        stored["close"] = _close_stored(usual.close, list(group.players.all()))
    for ruleset, sheet in usual.sheets.items():
        stored[ruleset] = _sheet_stored(ruleset, sheet)
    group.usual = stored
    group.save(update_fields=["usual"])
    audit(actor=actor, action="group-rules-set", group=group, detail=stored)
    return group


def usual_of(group: Group) -> Usual:
    """The group's usual choices as stored, each part that still passes its checks."""
    stored = group.usual if isinstance(group.usual, dict) else {}
    sheets = {ruleset: _read(_sheet_read, stored.get(ruleset), ruleset) for ruleset in RULESETS}
    return Usual(
        stakes=_read(_stakes_read, stored.get("stakes")),
        close=_read(_close_read, stored.get("close")),
        sheets={ruleset: sheet for ruleset, sheet in sheets.items() if sheet is not None},
    )


def _read[T](reader: Callable[..., T], value: Any, *args: Any) -> T | None:
    """What `reader` makes of a stored part, or None if it is missing or no longer passes."""
    if not isinstance(value, dict):
        return None
    try:
        return reader(value, *args)
    except NOT_PASSING:
        return None


def part_checked(part: str, stored: Any, players: list[Player]) -> dict[str, Any]:
    """Return one part of the usual choices (a name of PARTS) as `Group.usual` would store it,
    read strictly and checked as `group_rules_set` checks it, among the group's `players`; raise
    one of NOT_PASSING if it does not pass. An export writes what passes; an import keeps only
    a part that passes and reads as it is written."""
    if not isinstance(stored, dict):
        raise TypeError("not an object")
    if part == "stakes":
        return _stakes_stored(_stakes_read(stored))
    if part == "close":
        return _close_stored(_close_read(stored), players)
    return _sheet_stored(part, _sheet_read(stored, part))


# -- Knock Dummy's stakes -------------------------------------------------------------------------


def _stakes_stored(stakes: Stakes) -> dict[str, Any]:
    """Check the stakes as opening a night does (services.nights.night_open); as stored."""
    if stakes.level == CUSTOM:
        if stakes.rates is None:
            raise ServiceError("stakes-missing", "give the three rates", field="less")
        less, medium, more = stakes.rates
        if min(stakes.rates) <= 0 or not less <= medium <= more:
            raise ServiceError(
                "stakes-order", "rates must be above 0 and go less ≤ medium ≤ more", field="less"
            )
        if more > STAKE_MOST:
            raise ServiceError(
                "stakes-most", "a rate is at most {n} points", field="more", n=f"{STAKE_MOST:,}"
            )
    elif stakes.level not in STAKE_LEVELS:
        raise ServiceError("stake-level", "unknown stake level", field="stake_level")
    if stakes.fine is not None and not 0 < stakes.fine <= STAKE_MOST:
        raise ServiceError(
            "fine-positive", "the fine must be more than 0 and at most {n}", field="fine",
            n=f"{STAKE_MOST:,}",
        )  # fmt: skip
    _check_point_value(stakes.point_value)
    return {
        "level": stakes.level,
        "rates": list(stakes.rates) if stakes.level == CUSTOM and stakes.rates else None,
        "fine": stakes.fine,
        "point_value": str(stakes.point_value),
    }


def _stakes_read(stored: dict[str, Any]) -> Stakes:
    rates = stored.get("rates")
    fine = stored.get("fine")
    stakes = Stakes(
        level=str(stored["level"]),
        rates=(_whole(rates[0]), _whole(rates[1]), _whole(rates[2])) if rates else None,
        fine=None if fine is None else _whole(fine),
        point_value=Decimal(str(stored["point_value"])),
    )
    _stakes_stored(stakes)
    return stakes


def _check_point_value(value: Decimal) -> None:
    if isinstance(value, Decimal) and not value.is_finite():  # NaN, as JSON may hold it
        raise ServiceError("point-value", "a point's value is 0 baht or more", field="point_value")
    point_value_check(value)  # as a night's, with its bound


def _whole(value: Any) -> int:
    """A whole number as JSON stores it (a bool is not one)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("not a whole number")
    return value


# -- the close ------------------------------------------------------------------------------------


def _close_stored(close: Close, players: list[Player]) -> dict[str, Any]:
    """Check the close's choices as the close does (settle_up.check), among the group's
    players; as stored."""
    by_id = {p.pk: p for p in players}
    for name in ("hub", "fee_to", "rounding_by"):
        if getattr(close, name) is not None and getattr(close, name) not in by_id:
            raise ServiceError("player-group", "every player must be a member", field=name)
    named = Choices(
        mode=close.mode,
        hub=by_id.get(close.hub) if close.hub is not None else None,
        fee=close.fee,
        fee_per=close.fee_per,
        fee_to=by_id.get(close.fee_to) if close.fee_to is not None else None,
        rounding=close.rounding,
        rounding_by=by_id.get(close.rounding_by) if close.rounding_by is not None else None,
    )
    settle_up.check(named, players)
    return {
        "mode": close.mode,
        "hub": close.hub if close.mode == HUB else None,
        "fee": str(close.fee),
        "fee_per": close.fee_per,
        "fee_to": close.fee_to,
        "rounding": close.rounding,
        "rounding_by": close.rounding_by,
    }


def _close_read(stored: dict[str, Any]) -> Close:
    def player(name: str) -> int | None:
        return None if stored.get(name) is None else _whole(stored[name])

    close = Close(
        mode=str(stored["mode"]),
        hub=player("hub"),
        fee=Decimal(str(stored["fee"])),
        fee_per=str(stored["fee_per"]),
        fee_to=player("fee_to"),
        rounding=_whole(stored["rounding"]),
        rounding_by=player("rounding_by"),
    )
    # Who the players are is asked at each table (Close.choices); the rest is checked here.
    settle_up.check(close.choices([]), [])
    return close


# -- the score sheets -----------------------------------------------------------------------------


def _sheet_stored(ruleset: str, sheet: Sheet) -> dict[str, Any]:
    """Check a score sheet's settings as opening one does: its engine reads them
    (services.scoresheet.probe); as stored."""
    if ruleset not in RULESETS:
        raise ServiceError("scoresheet-ruleset", "unknown score sheet {name}", field="ruleset",
                           name=ruleset)  # fmt: skip
    _check_point_value(sheet.point_value)
    if ruleset == Night.Ruleset.DUMMY_POINTS and sheet.point_value:
        raise ServiceError(
            "scoresheet-money", "classic Dummy keeps score only: it has no point value",
            field="point_value",
        )  # fmt: skip
    settings = {"house": dict(sheet.house), "target": sheet.target}
    probe(ruleset, PROBE_NAMES, settings)
    return {**settings, "point_value": str(sheet.point_value)}


def _sheet_read(stored: dict[str, Any], ruleset: str) -> Sheet:
    sheet = Sheet(
        house=dict(stored["house"]),
        target=stored["target"],
        point_value=Decimal(str(stored.get("point_value", "0"))),
    )
    _sheet_stored(ruleset, sheet)
    return sheet
