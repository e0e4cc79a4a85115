"""Games and their events: start, record events, finish, resolve a tie, void and correct."""

from typing import Any

from django.db import IntegrityError
from django.utils import timezone

from scorekeeper.models import Event, Game, LedgerLine, Membership, Night, Player
from scorekeeper.reads.game import dealer_after, last_standing, player_ids, saved_by, undo_until
from scorekeeper.rules import knock_dummy
from scorekeeper.rules.errors import RuleError, TieUnresolved
from scorekeeper.rules.knock_dummy_document import FIELDS, game_from_document
from scorekeeper.services import ledger, once
from scorekeeper.services.access import audit, audit_many
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.nights import lock_game, lock_open, seat_move
from scorekeeper.services.writing import writing

HEADER = ("rules", "level", "stakes", "fine", "players")
OUTCOME_FIELDS = FIELDS - {*HEADER, "events"}


def _header(night: Night, players: list[Player]) -> dict[str, Any]:
    if night.stake_level == Night.StakeLevel.CUSTOM:
        stakes: dict[str, Any] = {
            "stakes": {
                "less": night.stake_less,
                "medium": night.stake_medium,
                "more": night.stake_more,
            }
        }
    else:
        stakes = {"level": night.stake_level}
    return {
        "rules": night.ruleset,
        **stakes,
        "fine": night.fine,
        "players": [p.name for p in players],
    }


def _events(game: Game) -> list[dict[str, Any]]:
    """Return the game's events so far, in order."""
    return game.settle_document()["events"]


def _seated(night: Night, player: Player) -> Player:
    """Return `player`, or whoever took their seat since they left the table."""
    seat = night.seats.filter(player=player).order_by("-since_game").first()
    if seat is None or seat.until_game is None:
        return player
    return night.seats.current().get(position=seat.position).player


def _fool_swap(night: Night, last: Game | None) -> None:
    """Swap the fool discarder and the knocker of `last` before the next deal: rule 17."""
    if last is None or not last.document.get("fool") or "knock" not in last.document:
        return
    names = player_ids(last)
    fool, knocker = names[last.document["fool"]], names[last.document["knock"]["player"]]
    seats = {s.player_id: s.position for s in night.seats.current()}
    if fool in seats and knocker in seats:
        seat_move(night=night, position=seats[fool], player=Player.objects.get(pk=knocker))


def game_start(
    *,
    night: Night,
    dealer: Player | None = None,
    fool_swap: bool = True,
    head_color: str | None = None,
    number: int | None = None,
    actor: Membership | None = None,
    idempotency_key: str | None = None,
) -> Game:
    """Start the next game: the dealer by rules 9-11 and 16, seats swapped after a fool (17).

    `number`, the game the phone saw as next: if another phone started that one already, the
    start is refused (game-started), never taken for the game after.

    `head_color`, the colour of this game's head card, settles a two-way tie of the game before
    (rule 65).

    A retry of this very form is refused as any second start is (its game is in play, or its key
    is already on the audit entry of the start, which rolls everything back), and then answered
    with the game its first copy started: the key is looked up only on a refusal.
    """
    try:
        with writing():
            night = lock_open(night)
            # The latest game gives the next number; it is also the last standing unless it was
            # voided (a correction has its voided game's number and comes after it): one read.
            latest = Game.objects.latest_of(night.pk)
            expected, number = number, (latest.number if latest else 0) + 1
            if expected is not None and expected != number:
                raise ServiceError(
                    "game-started", "game {n} was already started by another phone", n=number - 1
                )
            last = latest  # a game in play is always the last one standing
            if latest is not None and latest.status == Game.Status.VOIDED:
                last = last_standing(night)
            if last is not None and last.status == Game.Status.IN_PLAY:
                raise ServiceError("game-in-play", "finish or void the game in play first")
            if (
                head_color is not None
                and last is not None
                and last.status == Game.Status.PENDING_TIE
            ):
                if last.tie is None or last.tie["black"] is None:
                    raise ServiceError(
                        "tie-needs-draw",
                        "game {n} has a tie of three or more: a high-card draw settles it"
                        " (rules 57-58, 66), not the head card",
                        field="head_color",
                        n=last.number,
                    )
                _resolve(last, {"head_color": head_color})
                audit(
                    actor=actor, action="tie-resolve", night=night, game=last,
                    detail={"head_color": head_color},
                )  # fmt: skip
            if fool_swap:
                _fool_swap(night, last)
            seats = Player.objects.seated_at(night.pk)
            if dealer is None:
                dealer_id = dealer_after(last, night.first_dealer_id)
                dealer = next((p for p in seats if p.pk == dealer_id), None)
                dealer = dealer or _seated(night, Player.objects.get(pk=dealer_id))
            if dealer not in seats:
                raise ServiceError("dealer", "{name} is not seated", field="dealer", name=dealer)
            at = seats.index(dealer)
            players = seats[at:] + seats[:at]  # turn order from the dealer
            game = Game(
                night=night,
                number=number,
                dealer=dealer,
                seating=[p.pk for p in players],
                document=_header(night, players),
            )
            game.save()
            audit(actor=actor, action="game-start", night=night, game=game, key=idempotency_key)
            return game
    except ServiceError:
        if (
            done := once.replayed_game(idempotency_key, "game-start", night_id=night.pk)
        ) is not None:
            return done
        raise


def started_with(*, night: Night, key: str) -> Game | None:
    """The game a phone started with this key (its start's idempotency key), once that start
    has landed: a game started without a connection is named by it until it has an id."""
    start = night.audit.filter(action="game-start", key=once.stored(key)).select_related("game")
    entry = start.first()
    return entry.game if entry is not None else None


def never_started(key: str) -> ServiceError:
    """The refusal of a write naming a game whose start never landed (it was refused)."""
    return ServiceError("game-never-started", "the game {key} names was never started", key=key)


def _refuse_unless(game: Game, status: str) -> None:
    """Refuse a write made for a game in `status` (read under the night's lock) when it has
    moved on: voided, or recorded (finished, its tie settled) by another phone."""
    if game.status == status:
        return
    if game.status == Game.Status.VOIDED:
        raise ServiceError("game-voided", "game {n} was voided", field="game", n=game.number)
    last = game.night.audit.filter(game=game).select_related("membership").first()
    who = str(last.membership) if last and last.membership else ""
    raise ServiceError(
        "game-recorded",
        "game {n} was already recorded by " + ("{who}" if who else "another phone") + " at {at}",
        field="game",
        n=game.number,
        who=who,  # empty: a phone without a membership (error_text says "another phone")
        at=f"{timezone.localtime(game.finished_at or timezone.now()):%H:%M}",
    )


def event_add(
    *,
    game: Game,
    event: dict[str, Any],
    actor: Membership | None = None,
    idempotency_key: str | None = None,
) -> Event:
    """Record an immediate event and write its lines at once (rule 80); a fine ends the game.

    A retry of this very form is refused (its key is already on the audit entry of the event,
    which rolls everything back, or the game has ended) and answered with the event its first
    copy recorded: the key is looked up only on a refusal.
    """
    try:
        with writing():
            game = lock_game(game)
            night = game.night
            _refuse_unless(game, Game.Status.IN_PLAY)
            rows = list(game.events.all())  # removed ones too: a number is never used twice
            events = [*(r.document for r in rows if r.removed_at is None), event]
            parsed = game_from_document({**game.document, "events": events})
            knock_dummy.settle_events(parsed)  # validates the events so far, with this one
            row = Event.objects.create(game=game, number=len(rows) + 1, document=event)
            new = parsed.events[-1]
            ledger.lines_write(
                night=night,
                game=game,
                event=row,
                players=player_ids(game),
                lines=knock_dummy.event_lines(parsed, new),
            )
            if new.type is knock_dummy.EventType.FINE:  # 83, 84.3
                game.status = Game.Status.FINED
                game.finished_at = timezone.now()
                game.save(update_fields=["status", "finished_at"])
            audit(
                actor=actor, action="event-add", night=night, game=game,
                detail={"number": row.number, **event}, key=idempotency_key,
            )  # fmt: skip
            return row
    except RuleError:  # the engine's refusals too: a second head, say
        if (
            done := once.replayed(idempotency_key, "event-add", night_id=game.night_id)
        ) is not None:
            return Event.objects.get(game=done.game, number=done.detail["number"])
        raise


@writing()
def event_remove(
    *,
    game: Game,
    number: int,
    actor: Membership | None = None,
    idempotency_key: str | None = None,
) -> Event:
    """Take back an event entered by mistake: its lines reversed, the row kept (struck through),
    the game still in play. A fine ended the game: taking it back puts the game in play again.

    Refused once the game has a result (void and correct it then), or for an event already
    taken back by another phone.
    """
    game = lock_game(game)
    night = game.night
    if (done := once.replayed(idempotency_key, "event-remove", night_id=night.pk)) is not None:
        return Event.objects.get(game=done.game, number=done.detail["number"])
    row = game.events.filter(number=number).first()
    if row is None:
        raise ServiceError("no-such-event", "game {n} has no event {event}", n=game.number,
                           event=number)  # fmt: skip
    if row.removed_at is not None:
        raise ServiceError(
            "event-removed-twice", "event {event} of game {n} was already taken back",
            n=game.number, event=number,
        )  # fmt: skip
    fine = row.document.get("type") == knock_dummy.EventType.FINE.value
    _refuse_unless(game, Game.Status.FINED if fine else Game.Status.IN_PLAY)
    if fine and night.games.filter(number__gt=game.number).exists():
        # The game would be in play again beside the next one: as with an undo, void it instead.
        raise ServiceError(
            "undo-not-last", "game {n} is no longer the last game: void and correct it",
            n=game.number,
        )  # fmt: skip
    ledger.lines_reverse(night=night, lines=row.lines.standing())
    row.removed_at = timezone.now()
    row.save(update_fields=["removed_at"])
    if fine:  # 83: the fine ended the game; without it, the game goes on
        game.status = Game.Status.IN_PLAY
        game.finished_at = None
        game.save(update_fields=["status", "finished_at"])
    audit(
        actor=actor, action="event-remove", night=night, game=game,
        detail={"number": row.number, **row.document}, key=idempotency_key,
    )  # fmt: skip
    return row


@writing()
def game_paid_at_table(
    *,
    game: Game,
    event_number: int | None = None,
    actor: Membership | None = None,
    idempotency_key: str | None = None,
) -> list[LedgerLine]:
    """Note that a game's lines so far (or one event's) were handed over at the table, as rules
    80 and 86-87 have it: their payments take them out of the settle-up, so nobody is asked
    twice. A void, an undo or an event taken back reverses them too."""
    game = lock_game(game)
    night = game.night
    if once.replayed(idempotency_key, "paid-at-table", night_id=night.pk) is not None:
        return []  # this very form again: done the first time
    if not night.is_open:
        raise ServiceError("night-closed", "this night is closed")
    if game.status == Game.Status.VOIDED:
        raise ServiceError("game-voided", "game {n} was voided", field="game", n=game.number)
    standing = game.lines.standing()
    if event_number is not None:
        standing = standing.filter(event__number=event_number)
    lines = list(standing)
    handed = {line.event_id for line in lines if line.item == LedgerLine.PAYMENT}
    owed = [
        line for line in lines if line.item != LedgerLine.PAYMENT and line.event_id not in handed
    ]
    if not owed:
        raise ServiceError(
            "paid-at-table-twice", "game {n} has nothing left to pay at the table", n=game.number
        )
    new = ledger.table_payment_write(night=night, lines=owed, by=actor)
    audit(
        actor=actor, action="paid-at-table", night=night, game=game,
        detail={"event": event_number, "lines": len(new)}, key=idempotency_key,
    )  # fmt: skip
    return new


@writing()
def game_undo(
    *,
    game: Game,
    actor: Membership,
    idempotency_key: str | None = None,
) -> Game:
    """Take back the result just saved, within a minute, by whoever saved it or a host: the
    after-game lines reversed, the game in play again with its events, for the result to be
    entered anew. Later than that, or once the next game has started, void and correct it."""
    game = lock_game(game)
    night = game.night
    done = once.replayed_game(idempotency_key, "game-undo", night_id=night.pk)
    if done is not None:
        return done
    until = undo_until(game)
    if until is None:
        raise ServiceError(
            "game-changed", "game {n} has changed since this page was opened: it is now {state}",
            n=game.number, state=game.status,
        )  # fmt: skip
    if timezone.now() > until:
        raise ServiceError(
            "undo-too-late", "game {n} was saved more than a minute ago: void and correct it",
            n=game.number,
        )  # fmt: skip
    if night.games.filter(number__gt=game.number).exists():
        raise ServiceError(
            "undo-not-last", "game {n} is no longer the last game: void and correct it",
            n=game.number,
        )  # fmt: skip
    saver = saved_by(game)
    if not actor.may_host and (saver is None or saver.pk != actor.pk):
        raise ServiceError(
            "undo-not-yours", "only whoever saved game {n}, or a host, can take it back",
            n=game.number,
        )  # fmt: skip
    after = game.lines.standing().filter(event__isnull=True)
    ledger.lines_reverse(night=night, lines=after)
    outcome = game.outcome
    game.document = {k: v for k, v in game.document.items() if k not in OUTCOME_FIELDS}
    game.status, game.tie = Game.Status.IN_PLAY, None
    game.finished_at, game.last_drawer = None, None
    game.save(update_fields=["document", "status", "tie", "finished_at", "last_drawer"])
    audit(
        actor=actor, action="game-undo", night=night, game=game, detail=outcome,
        key=idempotency_key,
    )  # fmt: skip
    return game


@writing()
def game_finish(
    *,
    game: Game,
    outcome: dict[str, Any],
    last_drawer: Player | None = None,
    actor: Membership | None = None,
    idempotency_key: str | None = None,
) -> Game:
    """Record how the game ended and write its after-game lines; a tie leaves it pending."""
    game = lock_game(game)
    night = game.night
    if game.status != Game.Status.IN_PLAY:  # a retry of this very form, or another phone's
        if (
            done := once.replayed_game(idempotency_key, "game-finish", night_id=night.pk)
        ) is not None:
            return done
        _refuse_unless(game, Game.Status.IN_PLAY)
    game.document = _finished_document(game, outcome, last_drawer)
    game.finished_at = timezone.now()
    _settle(night, game)
    audit(
        actor=actor, action="game-finish", night=night, game=game, detail=outcome,
        key=idempotency_key,
    )  # fmt: skip
    return game


def game_preview(*, game: Game, outcome: dict[str, Any]) -> tuple[Any, Any]:
    """Settle `outcome` for an in-play game without writing anything: (Game, Settlement).

    Raises RuleError (TieUnresolved for a tie) exactly as game_finish would.
    """
    unknown = sorted(set(outcome) - OUTCOME_FIELDS)
    if unknown:
        raise ServiceError("outcome-field", "{name} is not part of a result", name=unknown[0])
    parsed = game_from_document({**game.document, **outcome, "events": _events(game)})
    return parsed, knock_dummy.settle(parsed)


def _settle(night: Night, game: Game) -> None:
    """Settle the game's document: write its after-game lines, or leave it pending on a tie."""
    after, game.status, game.tie = _result(game, _events(game))
    ledger.lines_write(night=night, game=game, players=player_ids(game), lines=after)
    game.save(update_fields=["document", "last_drawer", "finished_at", "status", "tie"])


def _resolve(game: Game, tie_break: Any) -> Game:
    if game.status == Game.Status.IN_PLAY:
        raise ServiceError("no-tie", "game {n} has no tie to resolve", field="game", n=game.number)
    _refuse_unless(game, Game.Status.PENDING_TIE)  # settled or voided since the page was read
    game.document = {**game.document, "tie_break": tie_break}
    _settle(game.night, game)
    if game.status == Game.Status.PENDING_TIE:
        raise ServiceError(
            "tie-still-open", "that does not settle the tie of game {n}", n=game.number
        )
    return game


@writing()
def game_resolve_tie(
    *,
    game: Game,
    order: list[str] | None = None,
    head_color: str | None = None,
    actor: Membership | None = None,
    idempotency_key: str | None = None,
) -> Game:
    """Settle a pending tie by a high-card draw's order or the next head card's colour (65-66)."""
    game = lock_game(game)
    night = game.night
    if (done := once.replayed_game(idempotency_key, "tie-resolve", night_id=night.pk)) is not None:
        return done
    if (order is None) == (head_color is None):
        raise ServiceError("tie-break", "give either an order or a head colour", field="tie_break")
    tie_break = order if order is not None else {"head_color": head_color}
    game = _resolve(game, tie_break)
    audit(
        actor=actor, action="tie-resolve", night=night, game=game,
        detail={"tie_break": tie_break}, key=idempotency_key,
    )  # fmt: skip
    return game


@writing()
def game_void(
    *,
    game: Game,
    status: str | None = None,
    actor: Membership | None = None,
    idempotency_key: str | None = None,
) -> Game:
    """Void a game: reverse every line it wrote, keep it visible, free its number to correct.

    `status` is the state the asking page showed the game in: a game that has moved on since
    (finished, its tie settled, voided by another phone) is refused, for the host to look again.
    """
    game = lock_game(game)
    night = game.night
    if (done := once.replayed_game(idempotency_key, "game-void", night_id=night.pk)) is not None:
        return done
    if game.status == Game.Status.VOIDED:
        raise ServiceError("voided-twice", "game {n} is already voided", n=game.number)
    if status is not None and game.status != status:
        raise ServiceError(
            "game-changed", "game {n} has changed since this page was opened: it is now {state}",
            n=game.number, state=game.status,
        )  # fmt: skip
    # Dated before its reversals: the ledger audit tells them from earlier ones (an event taken
    # back, a result undone), which it already reversed.
    game.voided_at = timezone.now()
    ledger.lines_reverse(night=night, lines=game.lines.standing())
    game.status = Game.Status.VOIDED
    game.save(update_fields=["status", "voided_at"])
    audit(actor=actor, action="game-void", night=night, game=game, key=idempotency_key)
    return game


def game_correct(
    *,
    voided: Game,
    events: list[dict[str, Any]],
    outcome: dict[str, Any] | None = None,
    last_drawer: Player | None = None,
    actor: Membership | None = None,
    idempotency_key: str | None = None,
) -> Game:
    """Enter the corrected game in the place of a voided one, with its events and result.

    The corrected game is settled whole and written at once: the game, its events, their lines
    and the result's, each audited as if entered one by one. A retry of this very form is refused
    (the voided game is already corrected) and answered with the game its first copy made.
    """
    try:
        with writing():
            voided = lock_game(voided)
            night = voided.night
            if voided.status != Game.Status.VOIDED:
                raise ServiceError(
                    "not-voided", "void game {n} before correcting it", n=voided.number
                )
            header = {k: voided.document[k] for k in voided.document if k in HEADER}
            parsed = game_from_document({**header, "events": events})
            knock_dummy.settle_events(parsed)  # the events alone, as entered one by one
            fined = parsed.fine_event is not None
            if fined and outcome:
                raise ServiceError("fine-with-result", "a game ended by a fine has no result")
            if not fined and outcome is None:
                raise ServiceError("outcome-missing", "a corrected game needs its result")
            game = Game(
                night=night,
                number=voided.number,
                dealer_id=voided.dealer_id,
                seating=voided.seating,
                document=header,
                replaces=voided,
                status=Game.Status.FINED if fined else Game.Status.IN_PLAY,
            )
            if not fined:
                game.document = _finished_document(game, outcome or {}, last_drawer)
            game.finished_at = timezone.now()
            after, game.status, game.tie = _result(game, events)
            try:
                game.save()
            except (
                IntegrityError
            ) as error:  # its replaces, or its number, is taken: corrected already
                raise ServiceError(
                    "corrected-twice", "game {n} is already corrected", n=voided.number
                ) from error
            rows = Event.objects.bulk_create(
                Event(game=game, number=i, document=event)
                for i, event in enumerate(events, start=1)
            )
            players = player_ids(game)
            ledger.lines_write_many(
                night=night,
                game=game,
                players=players,
                lines=[
                    *((row, line) for row, e in zip(rows, parsed.events, strict=True)
                      for line in knock_dummy.event_lines(parsed, e)),
                    *((None, line) for line in after),
                ],
                at_table=night.pays_at_table,
            )  # fmt: skip
            audit_many(
                actor=actor,
                night=night,
                game=game,
                entries=[
                    ("game-correct", {}, idempotency_key),
                    *(("event-add", {"number": row.number, **row.document}, None) for row in rows),
                    *([] if fined else [("game-finish", outcome or {}, None)]),
                ],
            )
            return game
    except RuleError:
        if (
            done := once.replayed_game(idempotency_key, "game-correct", night_id=voided.night_id)
        ) is not None:
            return done
        raise


def _finished_document(
    game: Game, outcome: dict[str, Any], last_drawer: Player | None
) -> dict[str, Any]:
    """The game's document with its result, once the result's fields are checked (the stock-out's
    last drawer set on the game)."""
    unknown = sorted(set(outcome) - OUTCOME_FIELDS)
    if unknown:
        raise ServiceError("outcome-field", "{name} is not part of a result", name=unknown[0])
    if "knock" not in outcome:
        if last_drawer is None or last_drawer.pk not in game.seating:
            raise ServiceError(
                "last-drawer",
                "a stock-out game needs who drew the last card (rule 11)",
                field="last_drawer",
            )
        game.last_drawer = last_drawer
    return {**game.document, **outcome}


def _result(
    game: Game, events: list[dict[str, Any]]
) -> tuple[list[knock_dummy.Line], str, dict[str, Any] | None]:
    """Settle a finished game's document with these events: its after-game lines, status and
    tie (a tie waits, with no after-game line)."""
    if game.status == Game.Status.FINED:
        return [], Game.Status.FINED, None
    parsed = game_from_document({**game.document, "events": events})
    try:
        settlement = knock_dummy.settle(parsed)
    except TieUnresolved as tie:
        return (
            [],
            Game.Status.PENDING_TIE,
            {
                "tied": list(tie.tied),
                "at_stake": list(tie.at_stake),
                "black": tie.black,
                "red": tie.red,
            },
        )
    after = [line for line in settlement.lines if line.due is knock_dummy.Due.AFTER_GAME]
    return after, Game.Status.SETTLED, None
