"""What happens at a table: groups, nights, seats, games, events and the append-only ledger.

Writes go through `scorekeeper.services`; these models hold the data and the reads.
"""

from collections.abc import Iterable
from decimal import Decimal
from typing import Any, ClassVar

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper.names import cleaned
from scorekeeper.rules import knock_dummy
from scorekeeper.rules.knock_dummy_document import game_from_document
from scorekeeper.rules.money import baht


class Group(models.Model):
    """A circle of players who meet regularly (ก๊วน)."""

    name = models.CharField(max_length=80)
    created_at = models.DateTimeField(default=timezone.now)
    # Its creator, until they hand it on: nobody else can remove them or take their role.
    owner = models.ForeignKey(
        "Membership", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The group's own rules (กติกาประจำก๊วน): the choices opening and closing a night start from,
    # as services/group_rules.py writes and reads them. Empty: the forms' own defaults.
    usual = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return self.name


class PlayerQuerySet(models.QuerySet["Player"]):
    def seated_at(self, night_id: int) -> list["Player"]:
        """The players in the night's current seats, in seat order."""
        seated = self.filter(seats__night_id=night_id, seats__until_game__isnull=True)
        return list(seated.order_by("seats__position"))


class Player(models.Model):
    """A member of a group, by display name."""

    group = models.ForeignKey(Group, on_delete=models.PROTECT, related_name="players")
    name = models.CharField(max_length=40)  # as it was recorded
    # The name cleaned (scorekeeper.names): two names that clean the same are one player. A
    # name recorded before names were cleaned keeps its own key if another took that one first.
    key = models.CharField(max_length=80)
    created_at = models.DateTimeField(default=timezone.now)
    # Where this player is paid by PromptPay: its digits (a mobile number, a national
    # or tax id, or an e-wallet id), set by the member who said "this is me". A mobile number is
    # shown whole to the others only if `promptpay_public`; an id is always masked to them.
    promptpay = models.CharField(max_length=20, blank=True)
    promptpay_public = models.BooleanField(default=False)
    # When the number last changed and who changed it, by the name the group knew them by: a
    # transfer made before then tells everyone, since a payer may have read the old number.
    promptpay_changed_at = models.DateTimeField(null=True, blank=True)
    promptpay_changed_by = models.CharField(max_length=40, blank=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["group", "key"], name="player_key_unique_in_group")
        ]

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self.key:
            self.key = cleaned(self.name)
        super().save(*args, **kwargs)

    def __str__(self) -> str:
        return self.name


class NightQuerySet(models.QuerySet["Night"]):
    def open(self) -> "NightQuerySet":
        return self.filter(closed_at__isnull=True)

    def with_latest_game(self) -> "NightQuerySet":
        """Annotate the number and status of each night's latest game (None: no game yet)."""
        latest = Game.objects.filter(night=models.OuterRef("pk")).order_by("-number", "-id")
        return self.annotate(
            latest_number=models.Subquery(latest.values("number")[:1]),
            latest_status=models.Subquery(latest.values("status")[:1]),
        )

    def locked(self, pk: int) -> "Night":
        """The night, its row locked for this transaction (on SQLite, whose write transactions
        begin IMMEDIATE, the transaction itself is the lock)."""
        return self.select_for_update().get(pk=pk)

    def admitting(
        self, pk: int, device_id: int | None, user_id: int | None
    ) -> "tuple[Night | None, list[Membership]]":
        """The night with its group, and the visitor's live memberships of that group.

        Read with `get`, which orders nothing: `first()` would order by id, and Django's compiler
        then hashes every column of both tables, about 0.4 ms more on every request of a night
        (0.83 ms to build the statement against 0.46 ms)."""
        try:
            night = self.select_related("group").get(pk=pk)
        except Night.DoesNotExist:
            return None, []
        return night, Membership.objects.live_in(night.group, device_id, user_id)


class Night(models.Model):
    """One evening of a group at one table, with its ruleset and stakes."""

    class Ruleset(models.TextChoices):
        KNOCK_DUMMY = "knock-dummy-2025", _("Knock Dummy 2025 (ดัมมี่น็อก)")
        DUMMY_POINTS = "dummy-points", _("Classic Dummy to 500 (ดัมมี่จดแต้ม)")
        GONG_ZHU = "gong-zhu", _("Gong Zhu (ไพ่จับหมู)")

    class StakeLevel(models.TextChoices):
        THEP = "thep", "ระดับเทพ (80/100/120)"
        SIAN = "sian", "ระดับเซียน (100/200/300)"
        KHOT_SIAN = "khot-sian", "ระดับโคตรเซียน (200/300/400)"
        CUSTOM = "custom", _("Custom rates")
        NONE = "none", _("No stakes: a score sheet")  # classic Dummy and Gong Zhu

    group = models.ForeignKey(Group, on_delete=models.PROTECT, related_name="nights")
    ruleset = models.CharField(max_length=30, choices=Ruleset.choices)
    stake_level = models.CharField(max_length=12, choices=StakeLevel.choices)
    stake_less = models.PositiveIntegerField()
    stake_medium = models.PositiveIntegerField()
    stake_more = models.PositiveIntegerField()
    fine = models.PositiveIntegerField()  # rule 83's agreed rate
    point_value = models.DecimalField(max_digits=12, decimal_places=4)  # baht per point
    first_dealer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    # Classic Dummy and Gong Zhu: {"house": {...}, "target": ...} as their documents write them.
    scoresheet = models.JSONField(default=dict, blank=True)
    started_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)

    # Pay as you go (rule 80): every game's and event's lines are handed over at the table as
    # they are written, and leave the settle-up; else everything is settled at the end.
    pays_at_table = models.BooleanField(default=False)

    # The settle-up in baht, chosen by the host when the night closes: the
    # table fee (ต๋ง) per game from its winner or per night from each player, to `fee_to` (none:
    # the house); transfers rounded to `rounding` whole baht (0: exact), the residue carried by
    # `rounding_by`. Kept so the audit can check the fee and rounding lines written then.
    class FeePer(models.TextChoices):
        GAME = "game", _("per game, from the game's winner")
        NIGHT = "night", _("per night, from each player")

    fee = models.DecimalField(max_digits=12, decimal_places=2, default=Decimal(0))
    fee_per = models.CharField(max_length=8, choices=FeePer.choices, default=FeePer.GAME)
    fee_to = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    rounding = models.PositiveSmallIntegerField(default=0)  # whole baht; 0: to the satang
    rounding_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    # Which reading of the games' nets the close charged the per-game fee by: the standing nets
    # (reversals applied), or, on nights closed before that, every line as booked (an undone
    # result still counted). The audit and the import accept a night's fee lines by its reading.
    class NetsReading(models.TextChoices):
        STANDING = "standing", _("standing lines, reversals applied")
        BOOKED = "booked", _("every line as booked")

    nets_reading = models.CharField(
        max_length=8, choices=NetsReading.choices, default=NetsReading.STANDING
    )

    objects = NightQuerySet.as_manager()
    latest_number: int | None  # read with_latest_game() only
    latest_status: str | None

    def __str__(self) -> str:
        return f"{self.group} {self.started_at:%Y-%m-%d}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None

    def baht(self, points: int) -> Decimal:
        return baht(points, self.point_value)

    @property
    def is_scoresheet(self) -> bool:
        """A score sheet to a target (classic Dummy, Gong Zhu): hands are scored, not paid."""
        return self.ruleset != Night.Ruleset.KNOCK_DUMMY


class SeatQuerySet(models.QuerySet["Seat"]):
    def current(self) -> "SeatQuerySet":
        return self.filter(until_game__isnull=True)


class Seat(models.Model):
    """Who sits at a position from one game on; a seat change ends the row and starts another."""

    night = models.ForeignKey(Night, on_delete=models.PROTECT, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()  # 0-3, in turn order
    since_game = models.PositiveIntegerField()  # number of the first game played in this seat
    until_game = models.PositiveIntegerField(null=True, blank=True)  # first game no longer so

    objects = SeatQuerySet.as_manager()

    class Meta:
        ordering = ("position",)
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["night", "position"],
                condition=Q(until_game__isnull=True),
                name="one_current_player_per_position",
            ),
            models.UniqueConstraint(
                fields=["night", "player"],
                condition=Q(until_game__isnull=True),
                name="one_current_position_per_player",
            ),
        ]


class GameQuerySet(models.QuerySet["Game"]):
    def counted(self) -> "GameQuerySet":
        """Games whose lines stand: not voided."""
        return self.exclude(status=Game.Status.VOIDED)

    def latest_of(self, night_id: int) -> "Game | None":
        """The night's latest game, a correction after the game it replaces (index
        game_latest)."""
        return self.filter(night_id=night_id).order_by("-number", "-id").first()

    def admitting(
        self, pk: int, night_id: int, device_id: int | None, user_id: int | None
    ) -> "tuple[Game | None, list[Membership]]":
        """The game if it is the night's, with its night and group, and the visitor's live
        memberships of that group."""
        try:  # `get` orders nothing (NightQuerySet.admitting)
            game = self.select_related("night__group").get(pk=pk, night_id=night_id)
        except Game.DoesNotExist:
            return None, []
        return game, Membership.objects.live_in(game.night.group, device_id, user_id)

    def locked(self, pk: int) -> "Game":
        """The game read afresh with its night, both rows locked for this transaction."""
        return self.select_related("night").select_for_update(of=("night", "self")).get(pk=pk)


class Game(models.Model):
    """One deal, from the deal to the last payment; its outcome kept as a settle document."""

    class Status(models.TextChoices):
        IN_PLAY = "in-play", _("in play")
        PENDING_TIE = "pending-tie", _("waiting for a tie")
        SETTLED = "settled", _("settled")
        FINED = "fined", _("ended by a fine")
        VOIDED = "voided", _("voided")

    # A knock's kind as the table says it (rules 74-79), by its code in the document.
    KNOCK_KINDS: ClassVar[dict[str, Any]] = {
        knock_dummy.KnockKind.NORMAL: _("normal knock"),
        knock_dummy.KnockKind.DARK: _("dark knock"),
        knock_dummy.KnockKind.LIGHT_COLOR: _("light colour knock"),
        knock_dummy.KnockKind.DARK_COLOR: _("dark colour knock"),
    }

    night = models.ForeignKey(Night, on_delete=models.PROTECT, related_name="games")
    number = models.PositiveIntegerField()  # a correction keeps the number of the game it replaces
    dealer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    seating = models.JSONField()  # player ids in turn order, the dealer first
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PLAY)
    # The settle contract's input without its events (their rows keep them): header, outcome.
    document = models.JSONField(default=dict)
    tie = models.JSONField(null=True, blank=True)  # what a pending tie waits for
    scores = models.JSONField(
        null=True, blank=True
    )  # scoresheet games: each player's score of the hand
    last_drawer = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )  # stock-out games: who drew the last card (rule 11)
    replaces = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="replaced_by"
    )
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    voided_at = models.DateTimeField(null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ("number", "started_at")
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["night", "number"],
                condition=~Q(status="voided"),
                name="one_standing_game_per_number",
            )
        ]
        indexes: ClassVar = [
            # The latest game, voided or not, without sorting the whole night: the next
            # number and the deal (services/games.py, nights.next_game_number).
            models.Index(fields=["night", "number", "id"], name="game_latest"),
        ]

    def __str__(self) -> str:
        return f"game {self.number}"

    def settle_document(self) -> dict[str, Any]:
        """The settle contract's document: the stored header and outcome, and the events from
        their rows (the one place events are kept)."""
        # In their order, prefetched or not; an event removed as a mistake no longer counts.
        events = [e.document for e in self.events.all() if e.removed_at is None]
        return {**self.document, "events": events}

    def settled(self) -> tuple[knock_dummy.Game, knock_dummy.Settlement]:
        """Settle the stored game again, as the engine reads it (raises RuleError on a tie)."""
        parsed = game_from_document(self.settle_document())
        return parsed, knock_dummy.settle(parsed)

    @property
    def knock_kind(self) -> str:
        """The knock's kind in the visitor's language; empty when nobody knocked."""
        knock = self.document.get("knock")
        return str(Game.knock_kind_label(knock["kind"])) if knock else ""

    @staticmethod
    def knock_kind_label(kind: str) -> str:
        return str(Game.KNOCK_KINDS.get(kind, kind))

    @property
    def outcome(self) -> dict[str, Any]:
        header = {"rules", "level", "stakes", "fine", "players", "events"}
        return {k: v for k, v in self.document.items() if k not in header}


class Event(models.Model):
    """An immediate event of a game (rule 80), its lines written when it is recorded."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events")
    number = models.PositiveSmallIntegerField()  # order within the game
    document = models.JSONField()  # the settle contract's event object
    recorded_at = models.DateTimeField(default=timezone.now)
    # Removed as entered by mistake: its lines reversed, the row kept and shown struck through.
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("number",)
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["game", "number"], name="event_number_unique_in_game")
        ]


class Transfer(models.Model):
    """A payment the settle-up asks for at the end of a night, in baht."""

    class Mode(models.TextChoices):
        FEWEST = "fewest", _("fewest transfers")
        HUB = "hub", _("everyone with one person")

    night = models.ForeignKey(Night, on_delete=models.PROTECT, related_name="transfers")
    payer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    # None: the house, which a table fee may go to.
    payee = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    baht = models.DecimalField(max_digits=12, decimal_places=2)
    mode = models.CharField(max_length=8, choices=Mode.choices)
    created_at = models.DateTimeField(default=timezone.now)
    # Who tapped "received", and when; who tapped "paid" is on the payment's
    # money line (`MoneyLine.by`, item `paid`), which says whether it is paid.
    received_by = models.ForeignKey(
        "Membership", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    received_at = models.DateTimeField(null=True, blank=True)
    # Not columns: set where the transfer is read to change it (nights.lock_transfer), the
    # standing money lines that pay it and carry it to next time.
    carried: bool
    payment: "MoneyLine | None"
    carry: "MoneyLine | None"

    class Meta:
        ordering = ("payer__name", "payee__name")
        constraints: ClassVar = [
            # 0 only on a night for no money closed before the settle-up was in baht.
            models.CheckConstraint(condition=Q(baht__gte=0), name="transfer_baht_not_negative"),
        ]

    @property
    def payee_name(self) -> str:
        return payee_name(self.payee)


def payee_name(payee: Player | None) -> str:
    """A payee's name: a player's, or the house's."""
    return str(_("the house")) if payee is None else payee.name


def in_id_order[M: models.Model](rows: "models.QuerySet[M]") -> list[M]:
    """The rows, read without an ORDER BY and put in id order here. Ordered in SQL, Django's
    compiler hashes every selected column (each one's `identity`, through inspect.signature):
    for a read joining four or five tables, about 0.5 ms more to build the statement (1.09 ms
    against 0.60 ms), where sorting a night's rows takes microseconds."""
    return sorted(rows.order_by(), key=lambda row: row.pk)


APPEND_ONLY = "the ledger is append-only: write a reversing line instead"


class AppendOnlyQuerySet[M: models.Model](models.QuerySet[M]):
    """A ledger's rows in bulk: never updated, never deleted."""

    def update(self, **kwargs: Any) -> int:
        raise TypeError(APPEND_ONLY)

    def delete(self) -> tuple[int, dict[str, int]]:
        raise TypeError(APPEND_ONLY)


class AppendOnly(models.Model):
    """A ledger's row: written once, never updated, never deleted."""

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise TypeError(APPEND_ONLY)
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise TypeError(APPEND_ONLY)


class LedgerLineQuerySet(AppendOnlyQuerySet["LedgerLine"]):
    def for_night(self, night: Night) -> "LedgerLineQuerySet":
        return self.filter(night=night)

    def standing(self) -> "LedgerLineQuerySet":
        """The lines that count: neither a reversal nor reversed."""
        return self.filter(reverses__isnull=True, reversed_by__isnull=True)

    def game_nets(
        self,
        night: Night,
        games: "Iterable[int] | None" = None,
        *,
        by: str = "game_id",
        booked: bool = False,
    ) -> dict[Any, dict[int, int]]:
        """Return each game's standing net per player: {game: {player: net}}, the one reading
        of a game's money that every page, chart, stat and fee uses.

        Standing: reversals applied, so an event taken back and a result undone count nothing.
        A voided game reads as it stood when it was voided (its row is shown struck through);
        who sums games counts only those that stand. `games` limits it to those game ids (a
        page shows the latest games, not all); `by` names the key ("game__number": in order).
        `booked`: every line as booked, an undone result still counted, as nights closed before
        this reading charged their per-game fee by (Night.NetsReading.BOOKED).
        """
        lines = self.filter(night=night, game__isnull=False, reverses__isnull=True)
        if not booked:
            # What a void reversed: the lines of events still standing, and those of the result
            # saved last (reversed since it was saved; one undone was reversed before). Nothing
            # else reversed a line before voids were dated, so this reads those nights too.
            kept_event = Q(event__isnull=False, event__removed_at__isnull=True)
            saved_result = Q(
                event__isnull=True, reversed_by__recorded_at__gte=models.F("game__finished_at")
            )
            as_voided = Q(game__status=Game.Status.VOIDED) & (kept_event | saved_result)
            lines = lines.filter(Q(reversed_by__isnull=True) | as_voided)
        lines = lines.exclude(item=LedgerLine.PAYMENT)  # paid at the table: still the game's net
        if games is not None:  # a query of ids stays one: read in the same statement
            ids = games if isinstance(games, models.QuerySet) else list(games)
            lines = lines.filter(game_id__in=ids)
        nets: dict[Any, dict[int, int]] = {}
        rows = lines.values(by, "payer_id", "payee_id").annotate(total=models.Sum("amount"))
        for row in rows.order_by():
            game = nets.setdefault(row[by], {})
            game[row["payer_id"]] = game.get(row["payer_id"], 0) - row["total"]
            game[row["payee_id"]] = game.get(row["payee_id"], 0) + row["total"]
        return nets


class LedgerLine(AppendOnly):
    """One payment owed (or, for `payment`, made): payer → payee. Never updated, never deleted."""

    PAYMENT = "payment"  # item of a settle-up payment, which pays a debt back

    night = models.ForeignKey(Night, on_delete=models.PROTECT, related_name="lines")
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.PROTECT, related_name="lines"
    )
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.PROTECT, related_name="lines"
    )
    # Only on nights closed before the settle-up was in baht: a transfer's payment in points.
    # A transfer is now paid by a money line (MoneyLine.Item.PAID).
    transfer = models.ForeignKey(
        Transfer, null=True, blank=True, on_delete=models.PROTECT, related_name="lines"
    )
    payer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    payee = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    amount = models.PositiveBigIntegerField()  # points
    item = models.CharField(max_length=24)
    rule = models.CharField(max_length=8, blank=True)
    due = models.CharField(max_length=12, blank=True)
    instead_of = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )  # rule 82: the loser whose line the total payer took over
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )
    # Who tapped a payment's "paid"; the game's lines are the engine's.
    by = models.ForeignKey(
        "Membership", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    objects = LedgerLineQuerySet.as_manager()

    class Meta:
        ordering = ("id",)
        constraints: ClassVar = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="line_amount_positive"),
            models.CheckConstraint(condition=~Q(payer=models.F("payee")), name="line_two_players"),
        ]


class MoneyLineQuerySet(AppendOnlyQuerySet["MoneyLine"]):
    def standing(self) -> "MoneyLineQuerySet":
        """The lines that count: neither a reversal nor reversed."""
        return self.filter(reverses__isnull=True, reversed_by__isnull=True)

    def open_debts(self) -> "MoneyLineQuerySet":
        """Debts carried and not yet paid: carries standing, with no standing settle."""
        settled = MoneyLine.objects.standing().filter(carried=models.OuterRef("pk"))
        carries = self.standing().filter(item=MoneyLine.Item.CARRY)
        return carries.exclude(models.Exists(settled))


class Cost(models.Model):
    """A shared cost of the night (ค่าใช้จ่ายร่วม: food, drinks) as it was entered: who paid, how
    much, shared among whom. Its money lines are what each owes; taking it back reverses them."""

    night = models.ForeignKey(Night, on_delete=models.PROTECT, related_name="costs")
    reason = models.CharField(max_length=60)
    baht = models.DecimalField(max_digits=12, decimal_places=2)
    paid_by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    among = models.JSONField()  # the player ids it is shared among
    by = models.ForeignKey(
        "Membership", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("id",)
        constraints: ClassVar = [
            models.CheckConstraint(condition=Q(baht__gt=0), name="cost_baht_positive"),
        ]


class MoneyLine(AppendOnly):
    """A line of a group's money ledger, in baht (not points: nights may have different point
    values): a night's shared costs, table fee and rounding, the payment of a settle-up transfer;
    a transfer carried to next time, and the carried debt paid.
    Never updated, never deleted; a mistake is taken back by a reversing line."""

    UNIT = "baht"

    class Item(models.TextChoices):
        CARRY = "carry", _("carried to next time")
        SETTLE = "settle", _("carried debt paid")
        PAID = "paid", _("transfer paid")
        COST = "cost", _("shared cost")
        FEE = "fee", _("table fee (ต๋ง)")
        ROUNDING = "rounding", _("rounding")

    group = models.ForeignKey(Group, on_delete=models.PROTECT, related_name="money_lines")
    # The night it was written at: a carry, the transfer's night; a settle, the night it was
    # paid at (none when paid from the group's page, between nights).
    night = models.ForeignKey(
        Night, null=True, blank=True, on_delete=models.PROTECT, related_name="money_lines"
    )
    transfer = models.ForeignKey(
        Transfer, null=True, blank=True, on_delete=models.PROTECT, related_name="money_lines"
    )  # a carry: the transfer carried
    carried = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="settles"
    )  # a settle: the carry it pays
    cost = models.ForeignKey(
        Cost, null=True, blank=True, on_delete=models.PROTECT, related_name="lines"
    )  # a cost: the shared cost it is a share of
    # A settled tab's (Tab): the settle of a carry it replaces, or the payment of its transfer.
    tab = models.ForeignKey(
        "Tab", null=True, blank=True, on_delete=models.PROTECT, related_name="lines"
    )
    tab_transfer = models.ForeignKey(
        "TabTransfer", null=True, blank=True, on_delete=models.PROTECT, related_name="money_lines"
    )
    # None: the house (a table fee's payee; the payer of a reversal of a line paying it).
    payer = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    payee = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    baht = models.DecimalField(max_digits=12, decimal_places=2)
    item = models.CharField(max_length=8, choices=Item.choices)
    reason = models.CharField(max_length=60, blank=True)  # a cost's what; a fee's game number
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )
    by = models.ForeignKey(
        "Membership", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )  # who tapped
    recorded_at = models.DateTimeField(default=timezone.now)

    objects = MoneyLineQuerySet.as_manager()

    @property
    def payer_name(self) -> str:
        return payee_name(self.payer)

    @property
    def payee_name(self) -> str:
        return payee_name(self.payee)

    class Meta:
        ordering = ("id",)
        constraints: ClassVar = [
            models.CheckConstraint(condition=Q(baht__gt=0), name="money_line_baht_positive"),
            models.CheckConstraint(
                condition=~Q(payer=models.F("payee")), name="money_line_two_players"
            ),
        ]


class TabQuerySet(AppendOnlyQuerySet["Tab"]):
    def standing(self) -> "TabQuerySet":
        """The settled tabs that count: none of their settles taken back."""
        return self.exclude(self._taken_back())

    def with_taken_back(self) -> "TabQuerySet":
        """Annotate each tab with whether it was taken back (`taken_back`), in the same read."""
        return self.annotate(taken_back=self._taken_back())  # type: ignore[no-redef]

    @staticmethod
    def _taken_back() -> models.Exists:
        reversed_ = MoneyLine.objects.filter(tab=models.OuterRef("pk"), reverses__isnull=False)
        return models.Exists(reversed_.filter(item=MoneyLine.Item.SETTLE))


class Tab(AppendOnly):
    """A settled tab (เคลียร์ยอดค้าง): every debt carried across nights and still owed, netted
    at a host's tap into the fewest transfers (`TabTransfer`), a record of the group's, not of a
    night. Its money lines settle each carry it replaces; it is taken back by reversing them."""

    group = models.ForeignKey(Group, on_delete=models.PROTECT, related_name="tabs")
    by = models.ForeignKey(
        "Membership", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )  # the host who tapped
    recorded_at = models.DateTimeField(default=timezone.now)

    objects = TabQuerySet.as_manager()
    taken_back: bool  # read with_taken_back() only

    class Meta:
        ordering = ("id",)


class TabTransfer(models.Model):
    """A transfer of a settled tab, in baht: paid (a money line, item `paid`) and received as a
    night's transfer is."""

    tab = models.ForeignKey(Tab, on_delete=models.PROTECT, related_name="transfers")
    payer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    payee = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )  # None: the house, when a table fee was carried
    baht = models.DecimalField(max_digits=12, decimal_places=2)
    received_by = models.ForeignKey(
        "Membership", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    received_at = models.DateTimeField(null=True, blank=True)
    # Not a column: set where the transfer is read to change it (services/tabs.py), the standing
    # money line that pays it.
    payment: "MoneyLine | None"

    class Meta:
        ordering = ("id",)
        constraints: ClassVar = [
            models.CheckConstraint(condition=Q(baht__gt=0), name="tab_transfer_baht_positive"),
        ]

    @property
    def payee_name(self) -> str:
        return payee_name(self.payee)


class Standing(models.Model):
    """A player's running totals in a night, kept in step with the ledger."""

    night = models.ForeignKey(Night, on_delete=models.PROTECT, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="standings")
    net = models.BigIntegerField(default=0)  # what games and events made them win (+) or lose (−)
    settled = models.BigIntegerField(default=0)  # settle-up: paid out (+), received (−)

    class Meta:
        ordering = ("player__name",)
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["night", "player"], name="one_standing_per_player")
        ]

    @property
    def balance(self) -> int:
        """What the player is still owed (+) or still owes (−)."""
        return self.net + self.settled


# -- who may see and change a table -------------------------------------------------------------


class Device(models.Model):
    """A phone or browser that joined a group, known by the Django session bound to it."""

    created_at = models.DateTimeField(default=timezone.now)
    user_agent = models.CharField(max_length=200, blank=True)

    def __str__(self) -> str:
        return f"device {self.pk}"


class MembershipQuerySet(models.QuerySet["Membership"]):
    def for_visitor(self, device_id: int | None, user: Any) -> "MembershipQuerySet":
        """The memberships of this device, or of this signed-in account on any device."""
        who = Q(device_id=device_id) if device_id is not None else Q(pk__in=[])
        if user is not None and user.is_authenticated:
            who |= Q(user=user)
        return self.filter(who)

    def live_in(
        self, group: "Group", device_id: int | None, user_id: int | None
    ) -> "list[Membership]":
        """The unrevoked memberships of the group held by this device or account, each given
        the group already read."""
        who = Q(pk__in=[])  # a visitor with neither matches nothing (never `IS NULL`)
        if device_id is not None:
            who |= Q(device_id=device_id)
        if user_id is not None:
            who |= Q(user_id=user_id)
        mine: list[Membership] = list(self.filter(who, group=group, revoked_at__isnull=True))
        for m in mine:
            m.group = group
        return mine


class Membership(models.Model):
    """A device's (or account's) place in a group, with its role."""

    class Role(models.TextChoices):
        HOST = "host", _("host")  # void games, change seats and stakes, close nights, members
        PLAYER = "player", _("player")  # enter games and events
        VIEWER = "viewer", _("viewer")  # read only

    RANK: ClassVar = {Role.VIEWER: 0, Role.PLAYER: 1, Role.HOST: 2}

    group = models.ForeignKey(Group, on_delete=models.PROTECT, related_name="memberships")
    role = models.CharField(max_length=8, choices=Role.choices)
    device = models.ForeignKey(
        Device, null=True, blank=True, on_delete=models.PROTECT, related_name="memberships"
    )
    user = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.PROTECT, related_name="memberships"
    )
    name = models.CharField(max_length=40, blank=True)  # how the others know this phone
    # Which player this member is at the table ("this is me"): their transfers, their PromptPay.
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="memberships"
    )
    joined_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = MembershipQuerySet.as_manager()

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["group", "device"],
                condition=Q(revoked_at__isnull=True, device__isnull=False),
                name="one_membership_per_device",
            ),
            # A player is one live member's ("this is me"): whoever else claims it is refused,
            # so nobody can set where another member is paid. A removed member holds nothing.
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(revoked_at__isnull=True, player__isnull=False),
                name="one_live_claim_per_player",
            ),
            models.CheckConstraint(
                condition=Q(player__isnull=True) | ~Q(role="viewer"),
                name="viewer_claims_nobody",
            ),
        ]

    def __str__(self) -> str:
        return self.name or f"{self.get_role_display()} {self.pk}"

    def can(self, role: str) -> bool:
        return self.RANK[Membership.Role(self.role)] >= self.RANK[Membership.Role(role)]

    @property
    def may_play(self) -> bool:
        """May enter games and events: what a template asks before showing their buttons."""
        return self.can(Membership.Role.PLAYER)

    @property
    def may_host(self) -> bool:
        """May void games, change seats, close the night and manage members."""
        return self.can(Membership.Role.HOST)


class Invite(models.Model):
    """A way into a group: a link with a long token, or a short code typed at the table."""

    group = models.ForeignKey(Group, on_delete=models.PROTECT, related_name="invites")
    role = models.CharField(max_length=8, choices=Membership.Role.choices)
    token = models.CharField(max_length=64, unique=True)  # 192 random bits, URL-safe
    code = models.CharField(max_length=8, unique=True)  # 8 characters without look-alikes
    created_by = models.ForeignKey(
        Membership, null=True, on_delete=models.PROTECT, related_name="invites"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    single_use = models.BooleanField(default=False)
    used_at = models.DateTimeField(null=True, blank=True)  # a single-use invite, once used

    @property
    def is_live(self) -> bool:
        used = self.single_use and self.used_at is not None
        return self.revoked_at is None and not used and self.expires_at > timezone.now()


class ShareLink(models.Model):
    """A night shown read-only to whoever holds the link, without an account: a friend, or a
    chat app's preview fetcher. The host can revoke it."""

    night = models.ForeignKey(Night, on_delete=models.PROTECT, related_name="share_links")
    token = models.CharField(max_length=64, unique=True)  # 192 random bits, URL-safe
    created_by = models.ForeignKey(
        "Membership", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["night"],
                condition=Q(revoked_at__isnull=True),
                name="one_live_share_link_per_night",
            )
        ]


class Limit(models.Model):
    """How often something was tried from one address in the current window: a rate limit.

    One row a key, updated under its row lock, so a burst of tries at once counts exactly."""

    key = models.CharField(max_length=120, unique=True)  # what, and from which address
    since = models.DateTimeField()  # the window's start
    count = models.PositiveIntegerField(default=0)


class AuditEntry(models.Model):
    """Who recorded, voided or changed what, and when: visible to the group's members."""

    group = models.ForeignKey(Group, on_delete=models.PROTECT, related_name="audit")
    night = models.ForeignKey(
        Night, null=True, blank=True, on_delete=models.PROTECT, related_name="audit"
    )
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    membership = models.ForeignKey(
        "Membership", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    device = models.ForeignKey(
        Device, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    action = models.CharField(max_length=30)
    detail = models.JSONField(default=dict)
    at = models.DateTimeField(default=timezone.now)
    # The idempotency key of the form that made this write (services/once.py): a retry of the
    # form finds its entry and gets the same result instead of writing again.
    key = models.CharField(max_length=64, null=True, blank=True)  # unique within its group

    # Actions stored under an earlier name: entries are never rewritten, so read them as today's.
    RENAMED: ClassVar = {"race-open": "scoresheet-open"}
    # Each action as the log shows it (tests/views/test_thai_pages.py finds every one written).
    ACTIONS: ClassVar = {
        "group-create": _("started the group"),
        "invite-create": _("made an invite"),
        "invite-revoke": _("withdrew an invite"),
        "member-join": _("joined"),
        "member-remove": _("removed a member"),
        "owner-hand-over": _("handed the group on"),
        "session-open": _("started a night"),
        "scoresheet-open": _("opened a score sheet"),
        "seat-change": _("changed the seats"),
        "game-start": _("started a game"),
        "event-add": _("recorded an event"),
        "event-remove": _("took back an event"),
        "game-finish": _("recorded a game's end"),
        "tie-resolve": _("settled a tie"),
        "game-undo": _("undid the save of a game"),
        "game-void": _("voided a game"),
        "game-correct": _("corrected a game"),
        "hand-record": _("recorded a hand"),
        "hand-void": _("voided a hand"),
        "session-close": _("closed the night"),
        "payment-record": _("marked a transfer paid"),
        "payment-undo": _("marked a transfer unpaid"),
        "payment-receive": _("confirmed a transfer received"),
        "paid-at-table": _("marked a game paid at the table"),
        "share-link-create": _("made a share link"),
        "member-is-player": _("said which player they are"),
        "promptpay-set": _("saved a PromptPay target"),
        "claim-reassign": _("moved a player to another member"),
        "share-link-revoke": _("revoked a share link"),
        "transfer-carry": _("carried a transfer to next time"),
        "carry-undo": _("took back a carry to next time"),
        "debt-settle": _("marked a carried debt paid"),
        "debt-settle-undo": _("marked a carried debt unpaid"),
        "tab-settle": _("settled the tab"),
        "tab-undo": _("took back a settled tab"),
        "tab-payment-record": _("marked a transfer of the tab paid"),
        "tab-payment-receive": _("confirmed a transfer of the tab received"),
        "tab-payment-undo": _("marked a transfer of the tab unpaid"),
        "cost-add": _("added a shared cost"),
        "cost-remove": _("took back a shared cost"),
        "group-rules-set": _("changed the group's own rules"),
    }

    class Meta:
        ordering = ("-at", "-id")
        indexes: ClassVar = [
            # A night's newest entry, its version, which every poll reads (views/live.py).
            models.Index(fields=["night", "-id"], name="audit_night_latest"),
        ]
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["group", "key"],
                condition=Q(key__isnull=False),
                name="audit_key_unique_in_group",
            )
        ]

    @property
    def kind(self) -> str:
        """The action under its name today."""
        return self.RENAMED.get(self.action, self.action)

    @property
    def label(self) -> str:
        """What was done, in the visitor's language (an unknown action as it was stored)."""
        return str(self.ACTIONS.get(self.kind, self.kind))
