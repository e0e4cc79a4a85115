"""One Knock Dummy game as its pages and the writes read it: the game as recorded (its events, every
ledger line with its rule, what each loser handed the knocker), its players as they sit, who deals
after it (rules 9-11, 16), until when its result may be taken back and who saved it, the result
last taken back, which its end-of-game form starts from, and a game being started on a phone
without a connection, as the server sees it before the start lands."""

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Max

from scorekeeper.models import Game, Membership, Night, Player
from scorekeeper.rules import knock_dummy
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.knock_dummy_formulas import handovers

UNDO_SECONDS = 60  # how long the last save can be taken back with one tap, then it stands


def player_ids(game: Game) -> dict[str, int]:
    """Map the names in the game's document to the ids of the players who sat in those places."""
    return dict(zip(game.document["players"], game.seating, strict=True))


def seat_order(game: Game) -> list[str]:
    """The game's players as they sit, seat 1 first (after a swap by rule 17, the new seats):
    the order every phone lists them in. A game from before the seats last changed keeps its
    turn order, the dealer first."""
    names = dict(zip(game.seating, game.document["players"], strict=True))
    seated = [p.pk for p in Player.objects.seated_at(game.night_id)]
    if sorted(seated) != sorted(names):
        return list(game.document["players"])
    return [names[pk] for pk in seated]


def last_standing(night: Night) -> Game | None:
    """The night's latest game that stands (not voided)."""
    return night.games.counted().order_by("-number").first()


def dealer_after(last: Game | None, first_dealer_id: int) -> int:
    """Return the id of who deals after `last`, the latest game that stands: rules 9-11, 16."""
    if last is None:
        return first_dealer_id  # 9
    if last.status == Game.Status.IN_PLAY:
        raise RuleError("game-in-play", "game {n} is still in play", n=last.number)
    knock = last.document.get("knock")
    return knock_dummy.dealer_after(
        [int(pk) for pk in last.seating],
        player_ids(last)[knock["player"]] if knock else None,
        fined=last.status == Game.Status.FINED,
        last_drawer=last.last_drawer_id,
    )


def next_dealer(night: Night) -> Player:
    """Return who deals the next game: rules 9-11 and 16."""
    return Player.objects.get(pk=dealer_after(last_standing(night), night.first_dealer_id))


def undo_until(game: Game) -> datetime | None:
    """Until when the game's result may be taken back, or None if it has none to take back."""
    if game.status not in (Game.Status.SETTLED, Game.Status.PENDING_TIE) or not game.finished_at:
        return None
    return game.finished_at + timedelta(seconds=UNDO_SECONDS)


def saved_by(game: Game) -> Membership | None:
    """Who saved the game's result (the finish, or the tie settled since)."""
    saves = game.night.audit.filter(game=game, action__in=("game-finish", "tie-resolve"))
    entry = saves.select_related("membership").first()  # newest first
    return entry.membership if entry is not None else None


def undone_outcome(game: Game) -> dict[str, Any] | None:
    """The result last taken back from this game in play, if that is the game's latest write:
    its end-of-game form starts from it."""
    latest = game.night.audit.filter(game=game).first()
    return latest.detail if latest is not None and latest.action == "game-undo" else None


def game_page(game: Game) -> dict[str, Any]:
    """One game as recorded: its events, every ledger line with its rule, the 86-87 view (the
    view adds the tie's form)."""
    lines = game.lines.select_related("payer", "payee", "instead_of", "reverses").order_by("id")
    context: dict[str, Any] = {
        "night": game.night,
        "game": game,
        "lines": lines,
        "events": game.events.all(),
    }
    if game.status in (Game.Status.SETTLED, Game.Status.VOIDED) and "knock" in game.document:
        try:
            parsed, settlement = game.settled()
            context["handovers"] = handovers(parsed, settlement)
        except RuleError:
            pass  # a voided game whose tie was never resolved: no handovers to show
    return context


def stand_in(night: Night) -> Game:
    """The game being started, as the server sees it before the start lands: the seated players
    in seat order, the next number. Never saved."""
    seated = night.seats.filter(until_game__isnull=True).select_related("player")
    number = (night.games.aggregate(latest=Max("number"))["latest"] or 0) + 1
    players = [seat.player.name for seat in seated.order_by("position")]
    return Game(night=night, number=number, document={"players": players})
