"""A night of the file (its key says session): its settings, its seats and its standings."""

from decimal import Decimal, InvalidOperation
from typing import Any

from scorekeeper.models import Group, Night, Player, Seat, Standing
from scorekeeper.rules.money import BAHT_MOST, POINT_VALUE_MOST, STAKE_MOST
from scorekeeper.services.exports.fields import (
    at_most,
    dump_time,
    load,
    load_baht,
    load_list,
    load_player,
    load_time,
    load_when,
    malformed,
    valid,
)


def dump_night(s: Night, name: dict[int, str]) -> dict[str, Any]:
    """Write a night's settings, with empty lists its parts fill in the file's order."""
    return {
        "ruleset": s.ruleset,
        "stake_level": s.stake_level,
        "stakes": {"less": s.stake_less, "medium": s.stake_medium, "more": s.stake_more},
        "fine": s.fine,
        "point_value": str(s.point_value),
        "first_dealer": s.first_dealer.name,
        "scoresheet": s.scoresheet,
        "started_at": dump_time(s.started_at),
        "closed_at": dump_time(s.closed_at),
        "pays_at_table": s.pays_at_table,
        "fee": str(s.fee),
        "fee_per": s.fee_per,
        "fee_to": name[s.fee_to_id] if s.fee_to_id else None,
        "rounding": s.rounding,
        "rounding_by": name[s.rounding_by_id] if s.rounding_by_id else None,
        "nets_reading": s.nets_reading,
        "costs": [],
        "seats": [],
        "games": [],
        "transfers": [],
        "standings": [],
    }


def load_night(group: Group, players: dict[str, Player], raw: Any, where: str) -> Night:
    """Insert a night and its seats."""
    stakes = load(raw, "stakes", dict, where)
    point_value = load(raw, "point_value", str, where)
    try:
        value = Decimal(point_value)
    except InvalidOperation:
        raise malformed(f"{where}.point_value", f"is not a number: {point_value!r}") from None
    closed_at = load_time(raw, "closed_at", where, null=True)
    # Which nets the close charged a per-game fee by: an export of before it was recorded
    # closed its nights by every line as booked.
    booked = Night.NetsReading.BOOKED if closed_at else Night.NetsReading.STANDING
    night = valid(
        Night(
            group=group,
            ruleset=load(raw, "ruleset", str, where),
            stake_level=load(raw, "stake_level", str, where),
            stake_less=load(stakes, "less", int, f"{where}.stakes"),
            stake_medium=load(stakes, "medium", int, f"{where}.stakes"),
            stake_more=load(stakes, "more", int, f"{where}.stakes"),
            fine=load(raw, "fine", int, where),
            point_value=value,
            first_dealer=load_player(raw, "first_dealer", players, where),
            scoresheet=load(raw, "scoresheet", dict, where),
            started_at=load_when(raw, "started_at", where),
            closed_at=closed_at,
            # Exports of before the settle-up in baht have none of these: their defaults.
            pays_at_table=load(raw, "pays_at_table", bool, where)
            if "pays_at_table" in raw
            else False,
            fee=load_baht(raw, "fee", where) if "fee" in raw else Decimal(0),
            fee_per=load(raw, "fee_per", str, where) if "fee_per" in raw else Night.FeePer.GAME,
            fee_to=load_player(raw, "fee_to", players, where, null=True)
            if "fee_to" in raw
            else None,
            rounding=load(raw, "rounding", int, where) if "rounding" in raw else 0,
            rounding_by=(
                load_player(raw, "rounding_by", players, where, null=True)
                if "rounding_by" in raw
                else None
            ),
            nets_reading=(
                load(raw, "nets_reading", str, where) if "nets_reading" in raw else booked
            ),
        ),
        where,
    )
    _bounded(night, where)
    night.save()

    seats = []
    for i, seat in enumerate(load_list(raw, "seats", where)):
        at = f"{where}.seats[{i}]"
        seats.append(
            valid(
                Seat(
                    night=night,
                    player=load_player(seat, "player", players, at),
                    position=load(seat, "position", int, at),
                    since_game=load(seat, "since_game", int, at),
                    until_game=load(seat, "until_game", int, at, null=True),
                ),
                at,
            )
        )
    Seat.objects.bulk_create(seats)
    return night


def _bounded(night: Night, where: str) -> None:
    """Refuse a night above what a real table plays, as the forms do (rules.money)."""
    at_most(night.point_value, POINT_VALUE_MOST, f"{where}.point_value")
    at_most(night.stake_more, STAKE_MOST, f"{where}.stakes.more")
    at_most(night.fine, STAKE_MOST, f"{where}.fine")
    at_most(night.fee, BAHT_MOST, f"{where}.fee")


def dump_seat(seat: Seat, name: dict[int, str]) -> dict[str, Any]:
    return {
        "player": name[seat.player_id],
        "position": seat.position,
        "since_game": seat.since_game,
        "until_game": seat.until_game,
    }


def dump_standing(standing: Standing, name: dict[int, str]) -> dict[str, Any]:
    return {"player": name[standing.player_id], "net": standing.net, "settled": standing.settled}


def load_standings(night: Night, players: dict[str, Player], raw: Any, where: str) -> None:
    standings = []
    for i, standing in enumerate(load_list(raw, "standings", where)):
        at = f"{where}.standings[{i}]"
        standings.append(
            valid(
                Standing(  # the exported totals: the import's audit checks them against the ledger
                    night=night,
                    player=load_player(standing, "player", players, at),
                    net=load(standing, "net", int, at),
                    settled=load(standing, "settled", int, at),
                ),
                at,
            )
        )
    Standing.objects.bulk_create(standings)
