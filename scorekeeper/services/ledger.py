"""The append-only ledger: writing lines, reversing them, and keeping the running totals in step."""

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.db import connection

from scorekeeper.models import Event, Game, LedgerLine, Membership, Night, Standing
from scorekeeper.rules import knock_dummy
from scorekeeper.services import settle_up


@dataclass(frozen=True, slots=True)
class Delta:
    net: int = 0
    settled: int = 0


def deltas(lines: Iterable[LedgerLine]) -> dict[int, Delta]:
    """Return what the lines change in each player's standing."""
    net: Counter[int] = Counter()
    settled: Counter[int] = Counter()
    for line in lines:
        if line.item == LedgerLine.PAYMENT:  # cash handed over pays a debt back
            settled[line.payer_id] += line.amount
            settled[line.payee_id] -= line.amount
        else:
            net[line.payer_id] -= line.amount
            net[line.payee_id] += line.amount
    return {p: Delta(net[p], settled[p]) for p in net.keys() | settled.keys()}


def standings_add(night: Night, deltas: Mapping[int, Delta]) -> None:
    """Add each player's delta to their running totals, in one UPDATE however many players;
    refuse totals past what the ledger holds.

    One of the app's two statements written as SQL: it runs with every line written, inside the
    write transaction, and the same UPDATE built from `Case`/`When`/`F()` expressions cost the ORM
    about 2 ms of CPU against 35 µs for this text (docs/performance.md). Only placeholders are
    interpolated.
    """
    changed = {p: d for p, d in deltas.items() if d.net or d.settled}
    if not changed:
        return
    whens = " ".join(["WHEN %s THEN %s"] * len(changed))
    night_column = Standing._meta.get_field("night").column  # as the model names it
    sql = (
        f"UPDATE {Standing._meta.db_table}"
        f" SET net = net + CASE player_id {whens} ELSE 0 END,"
        f" settled = settled + CASE player_id {whens} ELSE 0 END"
        f" WHERE {night_column} = %s AND player_id IN ({', '.join(['%s'] * len(changed))})"
    )
    params = [
        *(v for p, d in changed.items() for v in (p, d.net)),
        *(v for p, d in changed.items() for v in (p, d.settled)),
        night.pk,
        *changed,
    ]
    # RETURNING gives the totals just written, so the bound of what the ledger holds is checked
    # with no statement more (settle_up.ledger_check).
    with connection.cursor() as cursor:
        cursor.execute(f"{sql} RETURNING player_id, net", params)
        nets = dict(cursor.fetchall())
    settle_up.ledger_check(night, nets)


def _apply(night: Night, lines: list[LedgerLine]) -> None:
    standings_add(night, deltas(lines))


def lines_write(
    *,
    night: Night,
    lines: Iterable[knock_dummy.Line],
    players: Mapping[str, int],
    game: Game | None = None,
    event: Event | None = None,
) -> list[LedgerLine]:
    """Store the engine's lines (`players`: their names to player ids); update the standings."""
    return lines_write_many(
        night=night, game=game, players=players, lines=[(event, line) for line in lines],
        at_table=night.pays_at_table,
    )  # fmt: skip


def lines_write_many(
    *,
    night: Night,
    game: Game | None,
    lines: Iterable[tuple[Event | None, knock_dummy.Line]],
    players: Mapping[str, int],
    at_table: bool = False,
) -> list[LedgerLine]:
    """Store lines of one game, each with the event that made it (None: the game's result), in
    one INSERT; update the standings. `at_table`: the night pays as it goes, so each line is
    handed over at once (rule 80), a payment beside it in the same INSERT."""
    new = [
        LedgerLine(
            night=night,
            game=game,
            event=event,
            payer_id=players[line.payer],
            payee_id=players[line.payee],
            amount=line.amount,
            item=str(line.item),
            rule=line.rule,
            due=str(line.due),
            instead_of_id=players[line.instead_of] if line.instead_of else None,
        )
        for event, line in lines
    ]
    if at_table:
        new += table_payments(night=night, lines=new)
    LedgerLine.objects.bulk_create(new)
    _apply(night, new)
    return new


def table_payments(
    *, night: Night, lines: Iterable[LedgerLine], by: Membership | None = None
) -> list[LedgerLine]:
    """The payments of lines handed over at the table (unsaved): each the same payer, payee and
    amount, owned by the same game and event, so they leave the settle-up and a void, an undo or
    an event taken back reverses them with their lines."""
    return [
        LedgerLine(
            night=night,
            game_id=line.game_id,
            event_id=line.event_id,
            payer_id=line.payer_id,
            payee_id=line.payee_id,
            amount=line.amount,
            item=LedgerLine.PAYMENT,
            by=by,
        )  # fmt: skip
        for line in lines
        if line.item != LedgerLine.PAYMENT
    ]


def table_payment_write(
    *, night: Night, lines: Iterable[LedgerLine], by: Membership | None
) -> list[LedgerLine]:
    """Hand the lines over at the table: their payments in one INSERT, the standings after."""
    new = table_payments(night=night, lines=lines, by=by)
    LedgerLine.objects.bulk_create(new)
    _apply(night, new)
    return new


def lines_reverse(*, night: Night, lines: Iterable[LedgerLine]) -> list[LedgerLine]:
    """Write a visible reversal of each line: the same amount, payer and payee swapped."""
    new = [
        LedgerLine(
            night=night,
            game_id=line.game_id,
            event_id=line.event_id,
            transfer_id=line.transfer_id,
            payer_id=line.payee_id,
            payee_id=line.payer_id,
            amount=line.amount,
            item=line.item,
            rule=line.rule,
            due=line.due,
            instead_of_id=line.instead_of_id,
            reverses=line,
        )
        for line in lines
    ]
    LedgerLine.objects.bulk_create(new)
    _apply(night, new)
    return new
