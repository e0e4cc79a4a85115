"""Classic Dummy to 500 and Gong Zhu: score sheets to a target (docs/rules/other-games.md).

A score-sheet night keeps no ledger of debts: each hand is a Game whose `document` is the
engine's deal (players, house, what happened) and whose `scores` are what the engine made of it;
Standing.net is the running total, kept in step in the same transaction. The night's
`scoresheet` holds the house options and the target as the documents write them. Only Gong Zhu is
played for money, settled when the night closes.

Where the match stands and who deals next (the deal going round, a fool turning it) are read by
reads.scoresheet, for these writes as for the pages.
"""

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.utils import timezone

from scorekeeper.models import Game, Group, Membership, Night, Player, Seat, Standing, Transfer
from scorekeeper.reads.money import Choices, for_money, needs_games, night_money
from scorekeeper.reads.scoresheet import (
    DUMMY,
    GONG_ZHU,
    ScoresheetState,
    next_deal,
    scoresheet_state,
)
from scorekeeper.rules import dummy_points, gong_zhu
from scorekeeper.rules.hand import ENGINES, hand_result
from scorekeeper.services import ledger, once, settle_up
from scorekeeper.services.access import audit
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.nights import (
    lock_open,
    next_game_number,
    player_create,
    point_value_check,
)
from scorekeeper.services.writing import writing

RULESETS = (DUMMY, GONG_ZHU)
PLAYERS: dict[str, tuple[int, int]] = {
    DUMMY: (dummy_points.MIN_PLAYERS, dummy_points.MAX_PLAYERS),
    GONG_ZHU: (3, 4),
}
# What a hand adds to the night's header (rules, players, house) to make the engine's deal.
HAND_FIELDS: dict[str, set[str]] = {
    DUMMY: {"counts", "knock", "fool", "head"},
    GONG_ZHU: {"captured"},
}
# Every card to one player: a deal that is valid at any table, to check a night's settings.
BIG_SHUAN = [str(card) for card in gong_zhu.Card]


def hand_document(night: Night, players: Sequence[str], hand: dict[str, Any]) -> dict[str, Any]:
    """Return the engine's deal for `hand`: the night's rules and house, these players."""
    unknown = sorted(set(hand) - HAND_FIELDS[night.ruleset])
    if unknown:
        raise ServiceError(
            "hand-field", "{name} is not part of a hand", field="hand", name=unknown[0]
        )
    return {
        "rules": night.ruleset,
        "players": list(players),
        "house": night.scoresheet["house"],
        **hand,
    }


# -- opening a night ---------------------------------------------------------------------------


def probe(ruleset: str, names: list[str], scoresheet: dict[str, Any]) -> None:
    """Have the engine read the settings with a deal any table could play: refuse bad ones."""
    hand: dict[str, Any]
    if ruleset == DUMMY:
        hand = {"counts": {n: {"difference": 0} for n in names}}
    else:
        hand = {"captured": {names[0]: BIG_SHUAN}}
    match = {"totals": dict.fromkeys(names, 0), "target": scoresheet["target"]}
    ENGINES[ruleset]({"rules": ruleset, "players": names, "house": scoresheet["house"], **hand,
                      "match": match})  # fmt: skip


@writing()
def scoresheet_open(
    *,
    group: Group,
    ruleset: str,
    players: Sequence[Player | str],
    house: dict[str, Any],
    target: int | dict[str, Any],
    point_value: Decimal = Decimal(0),
    first_dealer: Player | int | None = None,
    actor: Membership | None = None,
    idempotency_key: str | None = None,
) -> Night:
    """Open a score sheet of classic Dummy (2-4 players) or Gong Zhu (3-4), players in seat order.

    `house` and `target` are written as the game's document writes them: classic Dummy's target
    is a number of points; Gong Zhu's is {"points": 500, "direction": "down"}. Only Gong Zhu is
    played for money, `point_value` baht a point.
    """
    Group.objects.select_for_update().get(pk=group.pk)  # two taps on "open" wait for each other
    if (
        done := once.replayed_night(idempotency_key, "scoresheet-open", group_id=group.pk)
    ) is not None:
        return done
    if ruleset not in RULESETS:
        raise ServiceError("scoresheet-ruleset", "unknown score sheet {name}", field="ruleset",
                           name=ruleset)  # fmt: skip
    seated = [p if isinstance(p, Player) else player_create(group=group, name=p) for p in players]
    fewest, most = PLAYERS[ruleset]
    if not fewest <= len(seated) <= most or len({p.pk for p in seated}) != len(seated):
        raise ServiceError(
            "scoresheet-players",
            "this game needs {fewest} to {most} different players",
            field="players",
            fewest=fewest,
            most=most,
        )
    if any(p.group_id != group.pk for p in seated):
        raise ServiceError("player-group", "every player must be a member", field="players")
    point_value_check(point_value)
    if ruleset == DUMMY and point_value:
        raise ServiceError(
            "scoresheet-money", "classic Dummy keeps score only: it has no point value",
            field="point_value",
        )  # fmt: skip
    scoresheet = {"house": dict(house), "target": target}
    probe(ruleset, [p.name for p in seated], scoresheet)
    if first_dealer is None:
        dealer: Player | None = seated[0]
    elif isinstance(first_dealer, Player):
        dealer = first_dealer
    else:
        dealer = seated[first_dealer] if 0 <= first_dealer < len(seated) else None
    if dealer not in seated:
        raise ServiceError("dealer", "the dealer must be at the table", field="first_dealer")
    night = Night.objects.create(
        group=group,
        ruleset=ruleset,
        stake_level=Night.StakeLevel.NONE,
        stake_less=0,
        stake_medium=0,
        stake_more=0,
        fine=0,
        point_value=point_value,
        first_dealer=dealer,
        scoresheet=scoresheet,
    )
    Seat.objects.bulk_create(
        Seat(night=night, player=p, position=i, since_game=1) for i, p in enumerate(seated)
    )
    Standing.objects.bulk_create(Standing(night=night, player=p) for p in seated)
    audit(actor=actor, action="scoresheet-open", night=night, detail={"ruleset": ruleset},
          key=idempotency_key)  # fmt: skip
    return night


# -- hands ---------------------------------------------------------------------------------------


def _turn_order(players: Sequence[Player], dealer: Player, step: int) -> list[Player]:
    at = next(i for i, p in enumerate(players) if p.pk == dealer.pk)
    return [players[(at + step * i) % len(players)] for i in range(len(players))]


def _match(night: Night, state: ScoresheetState) -> dict[str, Any]:
    return {"totals": state.totals, "target": night.scoresheet["target"]}


def _refuse_after_the_end(state: ScoresheetState) -> None:
    if state.ended:
        raise ServiceError(
            "match-over",
            "the match is over: {names} won. Void a hand to go on, or close the match",
            field="match",
            names=", ".join(state.winners),
        )


def _refuse_recorded(night: Night, number: int) -> None:
    game = night.games.filter(number=number).first()
    last = night.audit.filter(game=game).select_related("membership").first() if game else None
    raise ServiceError(
        "hand-recorded",
        "hand {n} was already recorded by {who} at {at}",
        field="hand",
        n=number,
        who=str(last.membership) if last and last.membership else "another phone",
        at=f"{timezone.localtime(game.finished_at if game and game.finished_at else None):%H:%M}",
    )


def hand_preview(
    *, night: Night, hand: dict[str, Any], state: ScoresheetState | None = None
) -> dict[str, Any]:
    """Score `hand` as the next hand of the match without writing anything: the engine's result.

    `state` is the night's scoresheet_state when the caller has just read it. Raises RuleError
    exactly as hand_record would.
    """
    state = scoresheet_state(night) if state is None else state
    _refuse_after_the_end(state)
    dealer, step = next_deal(night, state.players)
    players = [p.name for p in _turn_order(state.players, dealer, step)]
    document = hand_document(night, players, hand)
    return hand_result({**document, "match": _match(night, state)})


@writing()
def hand_record(
    *,
    night: Night,
    hand: dict[str, Any],
    number: int | None = None,
    actor: Membership | None = None,
    idempotency_key: str | None = None,
) -> Game:
    """Score the next hand with the engine, store it and add its scores to the running totals.

    `number`, the hand the form was opened for, refuses a second phone's entry of the same hand.
    """
    night = lock_open(night)
    if (done := once.replayed_game(idempotency_key, "hand-record", night_id=night.pk)) is not None:
        return done
    if not night.is_scoresheet:
        raise ServiceError("not-scoresheet", "this night is not a score sheet", field="night")
    if number is not None and number != next_game_number(night):
        _refuse_recorded(night, number)
    state = scoresheet_state(night)
    _refuse_after_the_end(state)
    dealer, step = next_deal(night, state.players)
    order = _turn_order(state.players, dealer, step)
    document = hand_document(night, [p.name for p in order], hand)
    result = hand_result({**document, "match": _match(night, state)})
    scores: dict[str, int] = result["scores"]
    now = timezone.now()
    game = Game.objects.create(
        night=night,
        number=next_game_number(night),
        dealer=dealer,
        seating=[p.pk for p in order],
        status=Game.Status.SETTLED,
        document=document,
        scores=scores,
        started_at=now,
        finished_at=now,
    )
    _add(night, game, sign=1)
    audit(actor=actor, action="hand-record", night=night, game=game,
          detail={"scores": scores}, key=idempotency_key)  # fmt: skip
    return game


def _add(night: Night, game: Game, *, sign: int) -> None:
    """Add (sign 1) or take off (−1) a hand's scores, naming players as its document does."""
    scores = game.scores or {}
    deltas = {
        player_id: ledger.Delta(net=sign * scores.get(name, 0))
        for name, player_id in zip(game.document["players"], game.seating, strict=True)
    }
    ledger.standings_add(night, deltas)


@writing()
def hand_void(
    *, game: Game, actor: Membership | None = None, idempotency_key: str | None = None
) -> Game:
    """Void a hand: take its scores off the running totals; it stays on the sheet, struck out."""
    night = lock_open(game.night)
    if (
        done := once.replayed_game(idempotency_key, "hand-void", night_id=game.night_id)
    ) is not None:
        return done
    game = Game.objects.get(pk=game.pk)
    if game.status == Game.Status.VOIDED:
        raise ServiceError("voided-twice", "game {n} is already voided", n=game.number)
    _add(night, game, sign=-1)
    game.status = Game.Status.VOIDED
    game.voided_at = timezone.now()
    game.save(update_fields=["status", "voided_at"])
    audit(actor=actor, action="hand-void", night=night, game=game, key=idempotency_key)
    return game


# -- the end of the night ------------------------------------------------------------------------


@writing()
def scoresheet_close(
    *,
    night: Night,
    choices: Choices | None = None,
    actor: Membership | None = None,
) -> list[Transfer]:
    """Close a score-sheet night; for Gong Zhu played for money, store the transfers to pay,
    in baht as the host chose (Choices). Classic Dummy, and Gong Zhu for no money,
    close with nothing to pay.

    The host may close before the target is reached: the money is then settled on the totals as
    they stand. Payments are marked with nights.payment_record.
    """
    night = lock_open(night)
    if not night.is_scoresheet:
        raise ServiceError("not-scoresheet", "this night is not a score sheet", field="night")
    rows: list[Transfer] = []
    if for_money(night):
        state, choices = scoresheet_state(night), choices or Choices()
        money = night_money(
            night, state.money, state.players, costs=state.costs,
            games=needs_games(choices),
        )  # fmt: skip
        rows = settle_up.write(night, money, choices, actor)
    night.closed_at = timezone.now()
    night.save(update_fields=["closed_at", *settle_up.CHOSEN])
    audit(actor=actor, action="session-close", night=night,
          detail={"transfers": len(rows)})  # fmt: skip
    return rows
