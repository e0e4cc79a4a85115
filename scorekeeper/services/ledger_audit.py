"""The ledger audit: a night's ledger checked from scratch against the rules.

What is stored is trusted for nothing. Every game is settled again from its stored document and
events; its lines must be exactly those, each owned by the game or the event that made it. A
reversal must mirror the line it reverses, and a voided game must have every line reversed once.
Every line belongs to a game or a transfer. A closed night's fee and rounding lines must be a
fresh settle-up's and its transfers must settle it exactly, in baht. The
running totals must equal the ledger's replay.
The debts the night carried to next time are checked too (services/debts_audit.py).
`manage.py ledger_audit` and every import run it; an empty list means all is well.
"""

from collections import Counter
from typing import Any

from scorekeeper.models import Game, LedgerLine, Night, Player, Standing, in_id_order
from scorekeeper.reads.money import Choices, for_money, night_money, plan, written
from scorekeeper.reads.scoresheet import scoresheet_state
from scorekeeper.rules import knock_dummy
from scorekeeper.rules import settle_up as rules
from scorekeeper.rules.errors import RuleError, TieUnresolved
from scorekeeper.rules.hand import hand_result
from scorekeeper.rules.knock_dummy_document import game_from_document
from scorekeeper.services.debts_audit import night_debts_audit
from scorekeeper.services.ledger import Delta, deltas

OPEN = (Game.Status.IN_PLAY, Game.Status.PENDING_TIE)
# What a fresh settlement says of a line: the event that made it (its number, or None for the
# game's result), who pays whom, how much, for what, by which rule, when, and for whom instead.
type LineKey = tuple[int | None, str, str, int, str, str, str, str | None]


def night_audit(night: Night) -> list[str]:
    """Check the night's ledger from scratch; return every problem found, first things first."""
    night = Night.objects.get(pk=night.pk)  # as stored now, whatever the caller holds
    lines = in_id_order(
        LedgerLine.objects.for_night(night).select_related(
            "payer", "payee", "instead_of", "event", "transfer"
        )
    )
    games = list(night.games.prefetch_related("events"))
    problems = _owners(lines, games) + _reversals(lines) + night_debts_audit(night)
    if night.is_scoresheet:
        problems += _scoresheet(night, lines, games)
        if not for_money(night):
            return problems + _settle_up(night, {}, [])
        state = scoresheet_state(night)
        return problems + _settle_up(night, state.money, state.players)
    problems += _statuses(night, games)
    by_game: dict[int, list[LedgerLine]] = {}
    for line in lines:
        if line.game_id is not None:
            by_game.setdefault(line.game_id, []).append(line)
    names = {p.pk: p.name for p in Player.objects.filter(group_id=night.group_id)}
    for game in games:
        problems += _game(game, by_game.get(game.pk, []), names)
    return problems + _transfers(night, lines) + _standings(night, deltas(lines))


def _owners(lines: list[LedgerLine], games: list[Game]) -> list[str]:
    """Every line names what made it: a game (and the event of that game), or a transfer."""
    ids = {g.pk for g in games}
    problems = []
    for line in lines:
        if line.game_id is None and line.transfer_id is None:
            problems.append(f"line {line.pk} belongs to no game, event or transfer")
        elif line.game_id is not None and line.game_id not in ids:
            problems.append(f"line {line.pk} names a game of another night")
        elif line.event is not None and line.event.game_id != line.game_id:
            problems.append(f"line {line.pk} names an event of another game")
        elif line.item == LedgerLine.PAYMENT and line.transfer_id is None and not line.game_id:
            problems.append(f"line {line.pk} is a payment of no transfer and no game")
    return problems


def _reversals(lines: list[LedgerLine]) -> list[str]:
    """A reversal mirrors exactly the line it reverses: the same everything, payer and payee
    swapped; a line is reversed once at most, and a reversal is never reversed."""
    by_id = {line.pk: line for line in lines}
    problems = []
    reversed_ids = Counter(line.reverses_id for line in lines if line.reverses_id is not None)
    for line in lines:
        if line.reverses_id is None:
            continue
        original = by_id.get(line.reverses_id)
        if original is None:
            problems.append(f"line {line.pk} reverses a line of another night")
        elif original.reverses_id is not None:
            problems.append(f"line {line.pk} reverses a reversal (line {original.pk})")
        elif reversed_ids[original.pk] > 1:
            problems.append(f"line {original.pk} is reversed {reversed_ids[original.pk]} times")
        elif _mirror(original) != _fields(line):
            problems.append(f"line {line.pk} does not mirror line {original.pk}, which it reverses")
    return problems


def _fields(line: LedgerLine) -> tuple[Any, ...]:
    return (
        line.game_id, line.event_id, line.transfer_id, line.payer_id, line.payee_id, line.amount,
        line.item, line.rule, line.due, line.instead_of_id,
    )  # fmt: skip


def _mirror(line: LedgerLine) -> tuple[Any, ...]:
    game, event, transfer, payer, payee, *rest = _fields(line)
    return (game, event, transfer, payee, payer, *rest)


def _statuses(night: Night, games: list[Game]) -> list[str]:
    problems = []
    if not night.is_open:
        problems += [
            f"game {g.number} is {g.status} in a closed night" for g in games if g.status in OPEN
        ]
    in_play = [g for g in games if g.status == Game.Status.IN_PLAY]
    if len(in_play) > 1:
        problems.append(f"{len(in_play)} games in play at once")
    return problems


def _fresh(game: Game, names: dict[int, str]) -> tuple[list[LineKey], str | None]:
    """The lines a fresh settlement of the stored game makes, and the status they fit (None:
    any status whose lines these are: a voided game is judged by what its document says)."""
    doc = {**game.settle_document(), "players": [names.get(pk, "?") for pk in game.seating]}
    parsed = game_from_document(doc)
    kept = [e.number for e in game.events.all() if e.removed_at is None]  # as settle_document
    numbers = {id(e): n for e, n in zip(parsed.events, kept, strict=True)}
    at_once = [
        (numbers[id(event)], line) for event in parsed.events
        for line in knock_dummy.event_lines(parsed, event)
    ]  # fmt: skip
    if not set(doc) & {"knock", "points"} and parsed.fine_event is None:
        knock_dummy.settle_events(parsed)  # still in play: its events alone
        return [_key(n, line) for n, line in at_once], Game.Status.IN_PLAY
    try:
        settlement = knock_dummy.settle(parsed)
    except TieUnresolved:
        return [_key(n, line) for n, line in at_once], Game.Status.PENDING_TIE
    after = [line for line in settlement.lines if line.due is knock_dummy.Due.AFTER_GAME]
    status = Game.Status.FINED if settlement.ended_by_fine else Game.Status.SETTLED
    return [_key(n, line) for n, line in at_once] + [_key(None, line) for line in after], status


def _handed(line: LedgerLine) -> tuple[int | None, int, int, int]:
    """What a payment at the table hands over: the event, who pays whom, how much."""
    return (line.event_id, line.payer_id, line.payee_id, line.amount)


def _key(event: int | None, line: knock_dummy.Line) -> LineKey:
    return (
        event, line.payer, line.payee, line.amount, str(line.item), line.rule, str(line.due),
        line.instead_of,
    )  # fmt: skip


def _stored(line: LedgerLine) -> LineKey:
    return (
        line.event.number if line.event else None, line.payer.name, line.payee.name, line.amount,
        line.item, line.rule, line.due, line.instead_of.name if line.instead_of else None,
    )  # fmt: skip


def _game(game: Game, lines: list[LedgerLine], names: dict[int, str]) -> list[str]:
    """The lines of a game that stands, less those reversed (an event taken back, a result
    undone), are exactly a fresh settlement's; a voided game's are each reversed once."""
    what = f"game {game.number}" + (" (a correction)" if game.replaces_id else "")
    originals = [line for line in lines if line.reverses_id is None]
    reversals = [line for line in lines if line.reverses_id is not None]
    reversed_ids = Counter(line.reverses_id for line in reversals)
    removed = {e.pk for e in game.events.all() if e.removed_at is not None}
    if any(line.event_id in removed and not reversed_ids[line.pk] for line in originals):
        return [f"{what}: a line of an event taken back is not reversed"]
    if game.status == Game.Status.VOIDED:
        if any(reversed_ids[line.pk] != 1 for line in originals):
            return [f"{what} is voided but not every line of it is reversed once"]
        # What stood when it was voided, as LedgerLine.objects.game_nets reads it: the lines of
        # events still standing, and those of the result saved last (reversed since it was
        # saved; a result undone was reversed before). A void may have reversed nothing.
        reversed_at = {r.reverses_id: r.recorded_at for r in reversals}
        saved = game.finished_at
        originals = [
            line for line in originals
            if (line.event_id is not None and line.event_id not in removed)
            or (line.event_id is None and saved is not None and reversed_at[line.pk] >= saved)
        ]  # fmt: skip
    else:
        originals = [line for line in originals if not reversed_ids[line.pk]]
    # Lines handed over at the table: each payment mirrors a line of the game that stands.
    paid = Counter(_handed(line) for line in originals if line.item == LedgerLine.PAYMENT)
    originals = [line for line in originals if line.item != LedgerLine.PAYMENT]
    if paid - Counter(map(_handed, originals)):
        return [f"{what}: a payment at the table pays no line of it"]
    try:
        want, status = _fresh(game, names)
    except RuleError as error:
        if game.status == Game.Status.VOIDED:  # reversed whole: what it says no longer counts
            return []
        return [f"{what}: the rules refuse it ({error.message})"]
    if game.status != Game.Status.VOIDED and status != game.status:
        return [f"{what} is {game.status}, but what is stored of it makes it {status}"]
    if Counter(map(_stored, originals)) != Counter(want):
        return [f"{what}: its lines differ from a fresh settlement of it"]
    return []


def _transfers(night: Night, lines: list[LedgerLine]) -> list[str]:
    """A Knock Dummy night's settle-up: what the games made each player win or lose, less what
    was handed over at the table, is what the transfers settle (`_settle_up`)."""
    at_table = [line for line in lines if line.item == LedgerLine.PAYMENT and not line.transfer_id]
    handed = {p: d.settled for p, d in deltas(at_table).items()}
    nets = {p: d.net + handed.get(p, 0) for p, d in deltas(lines).items()}
    # As the close orders them (nights.night_close): by name, sorted here, not by the database.
    players = sorted(Player.objects.filter(standings__night=night), key=lambda p: p.name)
    return _settle_up(night, {p.name: nets.get(p.pk, 0) for p in players}, players)


def _settle_up(night: Night, points: dict[str, int], players: list[Player]) -> list[str]:
    """A closed night's fee and rounding lines are exactly a fresh settle-up's, and its transfers
    settle every player (and the house) exactly, in baht; an open night has neither."""
    transfers = list(night.transfers.select_related("payer", "payee").order_by())  # any order
    fee_lines = written(night)
    if night.is_open or not for_money(night):
        what = "an open night" if night.is_open else "a night for no money"
        problems = [f"{what} has transfers"] if transfers else []
        return problems + ([f"{what} has fee or rounding lines"] if fee_lines else [])
    money = night_money(night, points, players)
    fresh = plan(money, Choices.of(night))
    problems = []
    if Counter(fee_lines) != Counter(fresh.lines):
        problems.append("the fee and rounding lines differ from a fresh settle-up")
    paid = [
        rules.Payment(t.payer.name, t.payee.name if t.payee else rules.HOUSE, t.baht)
        for t in transfers
    ]
    left = rules.left_over(fresh.held, paid, fresh.carrier or "")
    if left:
        problems.append(f"the transfers do not settle the night: {len(left)} left over")
    return problems


def _standings(night: Night, replay: dict[int, Delta]) -> list[str]:
    problems = []
    for standing in Standing.objects.filter(night=night).select_related("player"):
        want = replay.get(standing.player_id, Delta())
        if (standing.net, standing.settled) != (want.net, want.settled):
            problems.append(
                f"{standing.player}: running totals {standing.net}/{standing.settled}, "
                f"ledger replay {want.net}/{want.settled}"
            )
    return problems


def _scoresheet(night: Night, lines: list[LedgerLine], games: list[Game]) -> list[str]:
    """A score sheet: totals add up the standing hands, settled replays the payments (only)."""
    problems = [
        f"line {line.pk} is a {line.item} line: a score sheet records payments only"
        for line in lines
        if line.item != LedgerLine.PAYMENT
    ]
    want: Counter[int] = Counter()
    for game in games:
        if game.status == Game.Status.VOIDED:
            continue
        scores = game.scores or {}
        for name, player_id in zip(game.document["players"], game.seating, strict=True):
            want[player_id] += scores.get(name, 0)
        if game.status != Game.Status.SETTLED:
            continue
        try:
            fresh = hand_result(game.document)["scores"]
        except RuleError as error:
            problems.append(f"hand {game.number}: the rules refuse it ({error.message})")
            continue
        if fresh != scores:
            problems.append(f"hand {game.number}: stored scores differ from a fresh scoring")
    replay = deltas(lines)
    for standing in Standing.objects.filter(night=night).select_related("player"):
        paid = replay.get(standing.player_id, Delta()).settled
        if (standing.net, standing.settled) != (want[standing.player_id], paid):
            problems.append(
                f"{standing.player}: running totals {standing.net}/{standing.settled}, "
                f"hands and payments {want[standing.player_id]}/{paid}"
            )
    return problems
