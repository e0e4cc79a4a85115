"""A night's games and each game's events (what was entered at the table, in order)."""

from typing import Any

from scorekeeper.models import Event, Game, Night, Player
from scorekeeper.services.exports.fields import (
    dump_time,
    load,
    load_list,
    load_player,
    load_ref,
    load_time,
    load_when,
    malformed,
    renamed,
    renames,
    valid,
)


def dump_game(game: Game, name: dict[int, str], game_at: dict[int, int]) -> dict[str, Any]:
    """Write a game, with an empty list of events that its events fill in."""
    return {
        "number": game.number,
        "status": game.status,
        "dealer": name[game.dealer_id],
        "seating": [name[pk] for pk in game.seating],
        "document": game.document,
        "tie": game.tie,
        "scores": game.scores,
        "last_drawer": name[game.last_drawer_id] if game.last_drawer_id else None,
        "replaces": game_at[game.replaces_id] if game.replaces_id else None,
        "started_at": dump_time(game.started_at),
        "finished_at": dump_time(game.finished_at),
        "voided_at": dump_time(game.voided_at),
        "events": [],
    }


def dump_event(event: Event) -> dict[str, Any]:
    return {
        "number": event.number,
        "document": event.document,
        "recorded_at": dump_time(event.recorded_at),
        # Only when taken back as a mistake: exports of before that read as they did.
        **({"removed_at": dump_time(event.removed_at)} if event.removed_at else {}),
    }


def load_games(
    night: Night, players: dict[str, Player], raw: Any, where: str
) -> tuple[list[Game], list[list[Event]]]:
    """Insert a night's games, then all their events, each naming the players as stored."""
    stored_as = renames(players)
    games: list[Game] = []
    events: list[list[Event]] = []
    for i, raw_game in enumerate(load_list(raw, "games", where)):
        at = f"{where}.games[{i}]"
        seating = load_list(raw_game, "seating", at)
        if not all(isinstance(who, str) and who in players for who in seating):
            raise malformed(f"{at}.seating", f"names someone who is not a player: {seating!r}")
        document = renamed(_document_without_events(raw_game, at), stored_as)
        game = valid(
            Game(
                night=night,
                number=load(raw_game, "number", int, at),
                dealer=load_player(raw_game, "dealer", players, at),
                seating=[players[who].pk for who in seating],
                status=load(raw_game, "status", str, at),
                document=document,
                tie=renamed(load(raw_game, "tie", dict, at, null=True), stored_as),
                scores=renamed(load(raw_game, "scores", dict, at, null=True), stored_as),
                last_drawer=load_player(raw_game, "last_drawer", players, at, null=True),
                replaces=load_ref(raw_game, "replaces", games, at),
                started_at=load_when(raw_game, "started_at", at),
                finished_at=load_time(raw_game, "finished_at", at, null=True),
                voided_at=load_time(raw_game, "voided_at", at, null=True),
            ),
            at,
        )
        game.save()  # one by one: a correction refers to the voided game before it
        games.append(game)
        events.append(
            [
                valid(
                    Event(
                        game=game,
                        number=load(event, "number", int, f"{at}.events[{k}]"),
                        document=renamed(
                            load(event, "document", dict, f"{at}.events[{k}]"), stored_as
                        ),
                        recorded_at=load_when(event, "recorded_at", f"{at}.events[{k}]"),
                        removed_at=load_time(event, "removed_at", f"{at}.events[{k}]", null=True)
                        if isinstance(event, dict) and "removed_at" in event
                        else None,
                    ),
                    f"{at}.events[{k}]",
                )
                for k, event in enumerate(load_list(raw_game, "events", at))
            ]
        )
    Event.objects.bulk_create(e for its in events for e in its)
    return games, events


def _document_without_events(raw_game: Any, at: str) -> dict[str, Any]:
    """The game's document as stored today: its events are kept in their rows only. An export
    of version 1 repeats them in the document; the two copies must agree."""
    document = load(raw_game, "document", dict, at)
    if "events" not in document:
        return document
    listed = [
        e.get("document") if isinstance(e, dict) else e for e in load_list(raw_game, "events", at)
    ]
    if document["events"] != listed:
        raise malformed(f"{at}.document.events", "differ from the game's events")
    return {k: v for k, v in document.items() if k != "events"}
