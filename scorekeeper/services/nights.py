"""Groups, players, nights, seats and the settle-up at the end of the night."""

from collections.abc import Sequence
from decimal import Decimal

from django.utils import timezone

from scorekeeper.models import (
    Game,
    Group,
    Membership,
    MoneyLine,
    Night,
    Player,
    Seat,
    Standing,
    Transfer,
)
from scorekeeper.names import cleaned
from scorekeeper.reads.money import Choices, cost_annotations, costs_of, needs_games, night_money
from scorekeeper.rules import names
from scorekeeper.rules.knock_dummy import RULES, SEATS, STAKE_LEVELS
from scorekeeper.rules.money import POINT_VALUE_MOST, STAKE_MOST
from scorekeeper.services import once, settle_up
from scorekeeper.services.access import audit
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.writing import writing

NAME_LENGTH = 40


@writing()
def player_create(*, group: Group | int, name: str) -> Player:
    """Add a member to a group (or its id), or return the member whose name cleans the same
    (scorekeeper.names): a name pasted with a zero-width space is the same player."""
    name = cleaned(name)
    if not name:
        raise ServiceError("player-name", "a player needs a name", field="name")
    if names.fault(name) is not None:  # the one definition of a name (rules.names)
        raise ServiceError(
            "player-name-hidden", "a name holds a character no phone can show", field="name"
        )
    if len(name) > NAME_LENGTH:
        raise ServiceError(
            "player-name-long", "a name has at most {n} letters", field="name", n=NAME_LENGTH
        )
    group_id = group if isinstance(group, int) else group.pk
    # One statement whether or not the name is new: an INSERT that, on the key's unique
    # constraint, touches the existing row instead, and returns its id either way.
    [player] = Player.objects.bulk_create(
        [Player(group_id=group_id, name=name, key=name)],
        update_conflicts=True,
        unique_fields=["group", "key"],
        update_fields=["key"],
    )
    return player


def lock(night: Night) -> Night:
    """Lock the night row for this transaction: writes to one table go one at a time."""
    return Night.objects.locked(night.pk)


def lock_open(night: Night) -> Night:
    night = lock(night)
    _refuse_closed(night)
    return night


def lock_game(game: Game) -> Game:
    """Lock the game's night, as `lock` does, and the game with it, read afresh: one statement.

    The game is locked too because PostgreSQL returns a joined row that is not locked as it was
    before a wait: a save that waited for another would not see it. The night comes first in
    the lock's order, as for every writer that locks the night and then changes a game
    (game_start settling a tie), so two writers never wait for each other. The night must be
    open. On SQLite, whose transactions here begin IMMEDIATE, the transaction itself is the lock.
    """
    game = Game.objects.locked(game.pk)
    _refuse_closed(game.night)
    return game


def _refuse_closed(night: Night) -> None:
    if not night.is_open:
        raise ServiceError("night-closed", "this night is closed", field="night")


@writing()
def night_open(
    *,
    group: Group,
    players: Sequence[Player | str],
    stake_level: str,
    point_value: Decimal,
    first_dealer: Player | int | None = None,
    stakes: tuple[int, int, int] | None = None,
    fine: int | None = None,
    pays_at_table: bool = False,
    actor: Membership | None = None,
    idempotency_key: str | None = None,
) -> Night:
    """Open a night: four players in seat order, the first dealer and the stakes (rule 69);
    `pays_at_table`: every game and event is paid at the table as it comes (rules 80, 86-87),
    else everything is settled at the end.

    A player may be given by name: a member of that name, or a new one. `first_dealer` may be a
    seat index.
    """
    Group.objects.select_for_update().get(pk=group.pk)  # two taps on "open" wait for each other
    if (
        done := once.replayed_night(idempotency_key, "session-open", group_id=group.pk)
    ) is not None:
        return done
    seated = [p if isinstance(p, Player) else player_create(group=group, name=p) for p in players]
    if len(seated) != SEATS or len({p.pk for p in seated}) != SEATS:
        raise ServiceError("seats", "Knock Dummy needs four different players", field="players")
    if any(p.group_id != group.pk for p in seated):
        raise ServiceError("player-group", "every player must be a member", field="players")
    if stake_level == Night.StakeLevel.CUSTOM:
        if stakes is None:
            raise ServiceError("stakes-missing", "give the three rates", field="stakes")
        less, medium, more = stakes
        if min(stakes) <= 0 or not less <= medium <= more:
            raise ServiceError(
                "stakes-order", "rates must be above 0 and go less ≤ medium ≤ more", field="stakes"
            )
        if more > STAKE_MOST:  # what a real table plays: a night of it fits the ledger
            raise ServiceError(
                "stakes-most", "a rate is at most {n} points", field="stakes", n=f"{STAKE_MOST:,}"
            )
    elif stake_level in STAKE_LEVELS:
        rates = STAKE_LEVELS[stake_level]
        less, medium, more = rates.less, rates.medium, rates.more
    else:
        raise ServiceError("stake-level", "unknown stake level", field="stake_level")
    fine = medium if fine is None else fine
    if not 0 < fine <= STAKE_MOST:
        raise ServiceError(
            "fine-positive", "the fine must be more than 0 and at most {n}", field="fine",
            n=f"{STAKE_MOST:,}",
        )  # fmt: skip
    point_value_check(point_value)
    if first_dealer is None:
        dealer = seated[0]
    elif isinstance(first_dealer, Player):
        dealer = first_dealer
    elif 0 <= first_dealer < SEATS:
        dealer = seated[first_dealer]
    else:
        dealer = None
    if dealer not in seated:
        raise ServiceError("dealer", "the dealer must be at the table", field="first_dealer")
    night = Night.objects.create(
        group=group,
        ruleset=RULES,
        pays_at_table=pays_at_table,
        stake_level=stake_level,
        stake_less=less,
        stake_medium=medium,
        stake_more=more,
        fine=fine,
        point_value=point_value,
        first_dealer=dealer,
    )
    Seat.objects.bulk_create(
        Seat(night=night, player=p, position=i, since_game=1) for i, p in enumerate(seated)
    )
    Standing.objects.bulk_create(Standing(night=night, player=p) for p in seated)
    audit(actor=actor, action="session-open", night=night, key=idempotency_key)
    return night


def point_value_check(point_value: Decimal) -> None:
    """Refuse a point value below 0 baht, or above what a real table plays."""
    if not isinstance(point_value, Decimal) or point_value < 0:
        raise ServiceError("point-value", "a point's value is 0 baht or more", field="point_value")
    if point_value > POINT_VALUE_MOST:  # a night of the largest stakes at it fits the ledger
        raise ServiceError(
            "point-value-most", "a point is worth at most {n} baht", field="point_value",
            n=f"{POINT_VALUE_MOST:,}",
        )  # fmt: skip


def next_game_number(night: Night) -> int:
    last = night.games.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


@writing()
def seat_change(
    *, night: Night, position: int, player: Player | str, actor: Membership | None = None
) -> list[Seat]:
    """Put `player` (or a member by that name) at `position` from the next game on; a seated
    player swaps."""
    night = Night.objects.with_latest_game().locked(night.pk)
    _refuse_closed(night)
    if night.latest_status == Game.Status.IN_PLAY:  # a game in play is always the latest
        raise ServiceError("game-in-play", "finish or void the game in play first", field="seat")
    current = list(night.seats.current().select_related("player"))
    if isinstance(player, str):
        seated = next((s.player for s in current if s.player.key == cleaned(player)), None)
        # created only now, so a refusal leaves no stray member
        player = seated or player_create(group=night.group_id, name=player)
    since = (night.latest_number or 0) + 1
    seats = seat_move(night=night, position=position, player=player, seats=current, since=since)
    audit(
        actor=actor, action="seat-change", night=night,
        detail={"position": position, "player": player.name},
    )  # fmt: skip
    return seats


def seat_move(
    *,
    night: Night,
    position: int,
    player: Player,
    seats: list[Seat] | None = None,
    since: int | None = None,
) -> list[Seat]:
    """Seat `player` at `position` (swapping if seated), within a caller's locked transaction.

    `seats`, the current seats, and `since`, the next game's number, if the caller has read them.
    """
    if player.group_id != night.group_id:
        raise ServiceError("player-group", "{name} is not a member", field="player", name=player)
    if seats is None:
        seats = list(night.seats.current().select_related("player"))
    by_position = {s.position: s for s in seats}
    if position not in by_position:
        raise ServiceError("position", "there is no seat {n}", field="position", n=position)
    seated = by_position[position]
    if seated.player_id == player.pk:
        return seats
    since = next_game_number(night) if since is None else since
    moved = {position: player}
    other = next((s for s in seats if s.player_id == player.pk), None)
    if other is not None:  # a swap: the one who sat here takes the other seat
        moved[other.position] = seated.player
    Seat.objects.filter(pk__in=[by_position[pos].pk for pos in moved]).update(until_game=since)
    new = Seat.objects.bulk_create(
        Seat(night=night, player=p, position=pos, since_game=since) for pos, p in moved.items()
    )
    if other is None:  # someone new at the table: their running totals start here, or go on
        Standing.objects.bulk_create([Standing(night=night, player=player)], ignore_conflicts=True)
    return sorted([*(s for s in seats if s.position not in moved), *new], key=_position)


def _position(seat: Seat) -> int:
    return seat.position


@writing()
def night_close(
    *,
    night: Night,
    choices: Choices | None = None,
    actor: Membership | None = None,
) -> list[Transfer]:
    """Close the night and say who pays whom in baht, as the host chose (Choices):
    the fewest transfers or everyone with one player, the table fee, the rounding."""
    night = lock_open(night)
    choices = choices or Choices()
    open_ = night.games.filter(status__in=[Game.Status.IN_PLAY, Game.Status.PENDING_TIE])
    waiting = open_.order_by("number").values_list("number", flat=True).first()
    if waiting is not None:
        raise ServiceError(
            "games-open",
            "game {n} is not settled yet: finish it, resolve its tie or void it",
            field="night",
            n=waiting,
        )
    standings = list(night.standings.select_related("player").annotate(**cost_annotations(night)))
    money = night_money(
        night,
        {s.player.name: s.balance for s in standings},
        sorted((s.player for s in standings), key=_name),  # as the audit reads them
        costs={s.player.name: costs_of(s) for s in standings},
        games=needs_games(choices),
    )
    rows = settle_up.write(night, money, choices, actor)
    night.closed_at = timezone.now()
    night.save(update_fields=["closed_at", *settle_up.CHOSEN])
    audit(
        actor=actor,
        action="session-close",
        night=night,
        detail={"mode": choices.mode, "rounding": choices.rounding, "fee": str(choices.fee)},
    )
    return rows


def _name(player: Player) -> str:
    return player.name


def lock_transfer(transfer: Transfer) -> Transfer:
    """Lock the transfer's night (as `lock` does) and the transfer with it, read afresh with
    who pays whom; then read the lines that stand for it: `payment`, `carry` (and `carried`,
    whether it is carried to next time).

    Those lines are read by a statement after the lock's own: PostgreSQL answers a statement
    that waited for a lock with whatever else it reads as it was before the wait, so a carry
    written meanwhile would go unseen and the transfer be paid as well (docs/ledger.md).
    """
    locked = (
        Transfer.objects.select_related("night", "payer", "payee")
        .select_for_update(of=("night", "self"))
        .get(pk=transfer.pk)
    )
    standing = locked.money_lines.standing().filter(
        item__in=[MoneyLine.Item.PAID, MoneyLine.Item.CARRY]
    )
    lines = {line.item: line for line in standing.order_by("pk")}  # the latest of each
    locked.payment, locked.carry = lines.get(MoneyLine.Item.PAID), lines.get(MoneyLine.Item.CARRY)
    locked.carried = locked.carry is not None
    return locked


@writing()
def payment_record(*, transfer: Transfer, actor: Membership | None = None) -> MoneyLine:
    """Record that a settle-up transfer was paid: itself a line of the money ledger, in baht."""
    transfer = lock_transfer(transfer)
    if transfer.payment is not None:
        raise ServiceError("paid-twice", "this transfer is already marked paid", field="transfer")
    if transfer.carried:
        # Carried to next time: it is paid as a debt of the group (services/debts.py).
        raise ServiceError("pay-carried", "this transfer is carried to next time", field="transfer")
    line = MoneyLine.objects.create(
        group_id=transfer.night.group_id, night=transfer.night, transfer=transfer,
        payer=transfer.payer, payee=transfer.payee, baht=transfer.baht, item=MoneyLine.Item.PAID,
        by=actor,
    )  # fmt: skip
    audit(actor=actor, action="payment-record", night=transfer.night, detail=_paid(transfer))
    return line


def _paid(transfer: Transfer) -> dict[str, object]:
    return {
        "transfer": transfer.pk, "payer": transfer.payer.name, "payee": transfer.payee_name,
        "baht": str(transfer.baht), "unit": MoneyLine.UNIT,
    }  # fmt: skip


@writing()
def payment_receive(*, transfer: Transfer, actor: Membership | None = None) -> Transfer:
    """The payee confirms the money arrived (or anyone at the table taps for them: the audit
    says who). Only a paid transfer is received, once."""
    transfer = lock_transfer(transfer)
    if transfer.payment is None:
        raise ServiceError("not-paid", "this transfer is not marked paid", field="transfer")
    if transfer.received_at is not None:
        raise ServiceError("received-twice", "this transfer is already received", field="transfer")
    transfer.received_by, transfer.received_at = actor, timezone.now()
    transfer.save(update_fields=["received_by", "received_at"])
    audit(actor=actor, action="payment-receive", night=transfer.night, detail=_paid(transfer))
    return transfer


@writing()
def payment_undo(*, transfer: Transfer, actor: Membership | None = None) -> MoneyLine:
    """Take back a payment marked by mistake, by a visible reversing line."""
    transfer = lock_transfer(transfer)
    last = transfer.payment
    if last is None:
        raise ServiceError("not-paid", "this transfer is not marked paid", field="transfer")
    if transfer.received_at is not None and not (actor is None or actor.may_host):
        # Paid and received: only the host reopens it, when the two sides disagree.
        raise ServiceError("reopen-host", "only a host can reopen a transfer already received")
    if transfer.received_at is not None:
        transfer.received_by = transfer.received_at = None
        transfer.save(update_fields=["received_by", "received_at"])
    audit(actor=actor, action="payment-undo", night=transfer.night, detail=_paid(transfer))
    return money_reverse(last, by=actor)


def money_reverse(
    line: MoneyLine, *, by: Membership | None, night: Night | None = None
) -> MoneyLine:
    """Take a money line back by a visible reversal: the same baht, payer and payee swapped;
    written at the line's night, or at `night` (a carried debt's payment taken back)."""
    return MoneyLine.objects.create(
        group_id=line.group_id, night_id=night.pk if night else line.night_id,
        transfer_id=line.transfer_id,
        carried_id=line.carried_id, cost_id=line.cost_id, tab_id=line.tab_id,
        tab_transfer_id=line.tab_transfer_id, payer_id=line.payee_id,
        payee_id=line.payer_id, baht=line.baht, item=line.item, reason=line.reason,
        reverses=line, by=by,
    )  # fmt: skip
