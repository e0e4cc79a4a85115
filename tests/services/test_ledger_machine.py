"""A Hypothesis state machine plays random nights: every step must keep the ledger whole, and
every figure the pages show must be what the rules engine makes, from scratch, of the stored
games and costs: each game's row, the scoreboard, the running balance, the running settle-up and,
once the night is closed, its table fee, rounding and transfers."""

from collections import Counter
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from scorekeeper import stats
from scorekeeper.models import Cost, Game, LedgerLine, Membership, MoneyLine, Player, Session
from scorekeeper.rules import settle_up as money_rules
from scorekeeper.rules.errors import RuleError, TieUnresolved
from scorekeeper.rules.knock_dummy import Settlement, settle, settle_events
from scorekeeper.rules.knock_dummy_document import game_from_document
from scorekeeper.services import costs, games, sessions, settle_up
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.ledger_audit import session_audit
from scorekeeper.views.table import table_context
from tests.services.conftest import make_session

KINDS = ["normal", "dark", "light-color", "dark-color"]
EVENT_TYPES = ["head", "speto", "dummy-discard", "full-discard", "show-speto"]


def engine_net(game: Game) -> Counter[str]:
    """What the engine alone says this game makes each player win or lose: its result, or its
    events alone while it has none (in play, a tie waiting); a voided game, as it stood when
    voided. Events taken back count nothing (settle_document leaves them out)."""
    parsed = game_from_document(game.settle_document())
    ended = set(game.document) & {"knock", "points"} or parsed.fine_event is not None
    if game.status in (Game.Status.IN_PLAY, Game.Status.PENDING_TIE) or not ended:
        return _net(settle_events(parsed))
    try:
        settlement: Settlement = settle(parsed)
    except TieUnresolved:  # a game voided while its tie waited
        return _net(settle_events(parsed))
    return Counter(settlement.net())


def engine_nets(game: Game) -> dict[int, int]:
    """The engine's nets of the game by player id, zeros left out."""
    names = dict(zip(game.document["players"], game.seating, strict=True))
    return {names[name]: net for name, net in engine_net(game).items() if net}


def _net(lines) -> Counter[str]:
    net: Counter[str] = Counter()
    for line in lines:
        net[line.payer] -= line.amount
        net[line.payee] += line.amount
    return net


class Night(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.table = make_session()
        self.host = Membership.objects.create(group=self.table.group, role=Membership.Role.HOST)
        self.newcomers = 0

    @property
    def in_play(self) -> Game | None:
        return self.table.games.filter(status=Game.Status.IN_PLAY).first()

    def balances(self) -> Counter[int]:
        return Counter({s.player_id: s.net for s in self.table.standings.all()})

    @precondition(lambda self: self.table.is_open and self.in_play is None)
    @rule(swap=st.booleans(), color=st.sampled_from([None, "red", "black"]))
    def start(self, swap: bool, color: str | None) -> None:
        self._refused_or_written(
            lambda: games.game_start(session=self.table, fool_swap=swap, head_color=color)
        )

    @precondition(lambda self: self.table.is_open and self.in_play is not None)
    @rule(
        kind=st.sampled_from(EVENT_TYPES),
        who=st.integers(0, 3),
        close=st.lists(st.integers(0, 3), max_size=2, unique=True),
        count=st.integers(1, 2),
    )
    def event(self, kind: str, who: int, close: list[int], count: int) -> None:
        game = self.in_play
        names = game.document["players"]
        event: dict = {"type": kind, "player": names[who]}
        if kind in ("head", "speto") and close:
            event["close"] = [names[c] for c in close]
        if kind == "speto":
            event["count"] = count
        self._refused_or_written(lambda: games.event_add(game=game, event=event))

    @precondition(lambda self: self.table.is_open and self.in_play is not None)
    @rule(who=st.integers(0, 3))
    def fine(self, who: int) -> None:
        game = self.in_play
        event = {"type": "fine", "player": game.document["players"][who], "reason": "misdeal"}
        games.event_add(game=game, event=event)

    @precondition(lambda self: self.table.is_open and self.in_play is not None)
    @rule(
        knocker=st.one_of(st.none(), st.integers(0, 3)),
        kind=st.sampled_from(KINDS),
        points=st.lists(st.integers(-3, 3), min_size=4, max_size=4),
        fool=st.one_of(st.none(), st.integers(0, 3)),
        dark=st.lists(st.integers(0, 3), max_size=2, unique=True),
        held=st.one_of(st.none(), st.integers(0, 3)),
    )
    def finish(self, knocker, kind, points, fool, dark, held) -> None:
        game = self.in_play
        names = game.document["players"]
        outcome: dict = {"points": dict(zip(names, points, strict=True))}
        if knocker is not None:
            outcome["knock"] = {"player": names[knocker], "kind": kind}
            del outcome["points"][names[knocker]]
            if fool is not None:
                outcome["fool"] = names[fool]
        outcome["collected"] = [n for i, n in enumerate(names) if i not in dark]
        if held is not None:
            outcome["speto_held"] = {names[held]: 1}
        drawer = game.dealer
        self._refused_or_written(
            lambda: games.game_finish(game=game, outcome=outcome, last_drawer=drawer)
        )

    @precondition(
        lambda self: (
            self.table.is_open and self.table.games.filter(status=Game.Status.PENDING_TIE).exists()
        )
    )
    @rule(data=st.data())
    def resolve(self, data: st.DataObject) -> None:
        game = self.table.games.filter(status=Game.Status.PENDING_TIE).first()
        order = data.draw(st.permutations(game.document["players"]))
        games.game_resolve_tie(game=game, order=list(order))
        event("tie resolved by a draw")

    @precondition(
        lambda self: (
            self.table.is_open and self.table.games.counted().exclude(status="in-play").exists()
        )
    )
    @rule(data=st.data())
    def void(self, data: st.DataObject) -> None:
        candidates = list(self.table.games.counted().exclude(status="in-play"))
        game = data.draw(st.sampled_from(candidates))
        before = self.balances()
        mine = engine_net(game)
        games.game_void(game=game)
        event(f"voided a {game.get_status_display()} game")
        after = self.balances()
        names = dict(zip(game.document["players"], game.seating, strict=True))
        for name, amount in mine.items():  # a void takes back exactly what the game did
            assert before[names[name]] - after[names[name]] == amount

    @precondition(
        lambda self: (
            self.table.is_open
            and self.table.games.filter(status="voided", replaced_by__isnull=True).exists()
        )
    )
    @rule(points=st.lists(st.integers(-3, 3), min_size=3, max_size=3, unique=True))
    def correct(self, points: list[int]) -> None:
        voided = self.table.games.filter(status="voided", replaced_by__isnull=True).first()
        names = voided.document["players"]
        outcome = {
            "knock": {"player": names[1], "kind": "normal"},
            "points": dict(zip([names[0], *names[2:]], points, strict=True)),
        }
        games.game_correct(voided=voided, events=[], outcome=outcome)

    @precondition(lambda self: self.table.is_open and self.in_play is None)
    @rule(position=st.integers(0, 3), newcomer=st.booleans(), other=st.integers(0, 3))
    def seat(self, position: int, newcomer: bool, other: int) -> None:
        if newcomer:
            self.newcomers += 1
            who = sessions.player_create(group=self.table.group, name=f"New{self.newcomers}")
        else:
            who = self.table.seats.current().get(position=other).player
        sessions.seat_change(session=self.table, position=position, player=who)

    @precondition(
        lambda self: (
            self.table.is_open
            and not self.table.games.filter(status__in=["in-play", "pending-tie"]).exists()
        )
    )
    @rule(
        fee=st.sampled_from([Decimal(20), Decimal("12.50")]),  # no fee: tests/services
        per=st.sampled_from([Session.FeePer.GAME, Session.FeePer.GAME, Session.FeePer.NIGHT]),
        to=st.one_of(st.none(), st.integers(0, 3)),
        rounding=st.sampled_from([0, 5, 10]),
    )
    def close_and_pay(self, fee: Decimal, per: str, to: int | None, rounding: int) -> None:
        seated = [s.player for s in self.table.seats.current().select_related("player")]
        choices = settle_up.Choices(
            fee=fee, fee_per=per, fee_to=None if to is None else seated[to], rounding=rounding
        )
        event(f"closed with a fee of {fee} per {per}, rounded to {rounding}")
        transfers = sessions.session_close(session=self.table, choices=choices)
        for transfer in transfers:
            sessions.payment_record(transfer=transfer)
        self.table.refresh_from_db()
        assert self.table.nets_reading == Session.NetsReading.STANDING

    @precondition(
        lambda self: (
            self.table.is_open
            and (last := Game.objects.latest_of(self.table.pk)) is not None
            and games.undo_until(last) is not None
        )
    )
    @rule()
    def undo(self) -> None:
        game = Game.objects.latest_of(self.table.pk)
        before, result = self.balances(), engine_nets(game)
        games.game_undo(game=game, actor=self.host)
        game.refresh_from_db()
        event(f"undid a result, {len(game.events.all())} events kept")
        after, events = self.balances(), engine_nets(game)
        for pk in result.keys() | events.keys():  # the result goes, its events stay
            assert before[pk] - after[pk] == result.get(pk, 0) - events.get(pk, 0)

    @precondition(
        lambda self: (
            self.table.is_open
            and (last := Game.objects.latest_of(self.table.pk)) is not None
            and last.status in (Game.Status.IN_PLAY, Game.Status.FINED)
            and last.events.filter(removed_at__isnull=True).exists()
        )
    )
    @rule(data=st.data())
    def take_back(self, data: st.DataObject) -> None:
        game = Game.objects.latest_of(self.table.pk)
        standing = game.events.filter(removed_at__isnull=True)
        if game.status == Game.Status.FINED:  # only the fine is taken back from a fined game
            standing = standing.filter(document__type="fine")
        number = data.draw(st.sampled_from([e.number for e in standing]))
        before, stood = self.balances(), engine_nets(game)
        games.event_remove(game=game, number=number, actor=self.host)
        event(f"took back an event of a game {game.get_status_display()}")
        after, stands = self.balances(), engine_nets(Game.objects.get(pk=game.pk))
        for pk in stood.keys() | stands.keys():  # exactly the event's lines are taken back
            assert before[pk] - after[pk] == stood.get(pk, 0) - stands.get(pk, 0)

    @precondition(lambda self: self.table.is_open)
    @rule(
        paid_by=st.integers(0, 3),
        among=st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True),
        baht=st.sampled_from([Decimal("100.00"), Decimal("99.99"), Decimal("0.05")]),
        back=st.booleans(),
        data=st.data(),
    )
    def cost(
        self, paid_by: int, among: list[int], baht: Decimal, back: bool, data: st.DataObject
    ) -> None:
        """A shared cost, or one taken back (one rule: costs are not half of every night)."""
        standing = MoneyLine.objects.standing().filter(session=self.table, item="cost")
        if back and standing.exists():
            chosen = list(Cost.objects.filter(lines__in=standing).distinct())
            costs.cost_remove(cost=data.draw(st.sampled_from(chosen)))
            event("took back a cost")
            return
        seated = [s.player for s in self.table.seats.current().select_related("player")]
        try:
            costs.cost_add(
                session=self.table, reason="ข้าว", baht=baht, paid_by=seated[paid_by],
                among=[seated[i] for i in among],
            )  # fmt: skip
            event("a shared cost")
        except ServiceError:
            assert among == [paid_by]  # shared with nobody else: refused
            event("a cost shared with nobody, refused")

    @precondition(lambda self: not self.table.is_open)
    @rule()
    def closed_session_refuses_games(self) -> None:
        lines = LedgerLine.objects.count()
        with pytest.raises(ServiceError, match="closed"):
            games.game_start(session=self.table)
        assert LedgerLine.objects.count() == lines

    def _refused_or_written(self, write) -> None:
        lines, events = LedgerLine.objects.count(), self.table.games.filter().count()
        try:
            write()
            event("written")
        except RuleError:
            event("refused")  # a refused request writes nothing
            assert (LedgerLine.objects.count(), self.table.games.count()) == (lines, events)

    @invariant()
    def the_session_sums_to_zero(self) -> None:
        assert sum(s.net for s in self.table.standings.all()) == 0
        assert sum(s.settled for s in self.table.standings.all()) == 0

    @invariant()
    def every_figure_is_the_engines_of_the_stored_games(self) -> None:
        """The ledger audits clean, and each figure the pages show is the engine's, from scratch.

        One invariant, each game settled once: it runs after every step of every night."""
        table = Session.objects.get(pk=self.table.pk)
        assert session_audit(table) == []
        stored = list(table.games.prefetch_related("events"))
        engine = {g.pk: engine_nets(g) for g in stored}
        counted = [g for g in stored if g.status != Game.Status.VOIDED]
        expected: Counter[int] = Counter()
        for game in counted:
            assert sum(engine[game.pk].values()) == 0  # every game sums to zero
            expected.update(engine[game.pk])
        page = table_context(table)
        board = {row.player.pk: row.net for row in page["board"]}
        # The scoreboard: the running totals are the engine's sum over the games that stand.
        assert {pk: n for pk, n in board.items() if n} == {p: n for p, n in expected.items() if n}
        ids = [p.pk for p in page["players"]]
        # Each game's row: its standing nets (a voided game's struck through, as it stood).
        for row in page["games"]:
            want = engine[row["game"].pk]
            assert row["nets"] == [want.get(pk, 0) for pk in ids], row["game"]
        if not page["more_games"]:  # every game is on the page: its rows add up to the board
            shown = [row["nets"] for row in page["games"] if row["game"].status != "voided"]
            totals = [sum(values) for values in zip(*shown, strict=True)] or [0] * len(ids)
            assert dict(zip(ids, totals, strict=True)) == board
        # The running balance (the history page's chart): each step a counted game's nets.
        steps = {str(g.number): engine[g.pk] for g in counted}
        labels, running = stats.session_running(table, page["players"])
        so_far: Counter[int] = Counter()
        for i, label in enumerate(labels):
            so_far.update(steps.pop(label))
            assert [running[p.name][i] for p in page["players"]] == [so_far[pk] for pk in ids]
        assert not any(steps.values())  # a game left out paid nothing that stands
        # The settle-up: running while the night is open, stored at its close; from scratch.
        night = self.night_from_scratch(table, counted, engine, expected)
        choices = settle_up.Choices() if table.is_open else settle_up.Choices.of(table)
        plan = settle_up.plan(night, choices)
        if table.is_open:
            shown_now = Counter((t["payer"], t["payee"], t["baht"]) for t in page["settle_now"])
            assert shown_now == Counter((t.payer, t.payee, t.baht) for t in plan.payments)
        else:
            assert Counter(settle_up.written(table)) == Counter(plan.lines)  # fee, rounding
            paid = Counter(
                (t.payer.name, t.payee.name if t.payee else money_rules.HOUSE, t.baht)
                for t in table.transfers.select_related("payer", "payee")
            )
            assert paid == Counter((t.payer, t.payee, t.baht) for t in plan.payments)

    def night_from_scratch(
        self,
        table: Session,
        counted: list[Game],
        engine: dict[int, dict[int, int]],
        balances: Counter[int],
    ) -> settle_up.Night:
        """The settle-up's input from the stored games by the engine (`engine`: each game's
        nets, `balances` their sum) and the stored costs by the rules: none from the ledger."""
        players = sorted(Player.objects.filter(standings__session=table), key=lambda p: p.name)
        name = {p.pk: p.name for p in players}
        shares = [
            line
            for cost in Cost.objects.filter(session=table).select_related("paid_by")
            if not MoneyLine.objects.filter(cost=cost, reverses__isnull=False).exists()
            for line in money_rules.shares(
                cost.baht, cost.paid_by.name, [name[pk] for pk in cost.among], cost.reason
            )
        ]
        return settle_up.Night(
            players=players,
            points={p.name: balances[p.pk] for p in players},
            rate=table.point_value,
            games=[
                (g.number, {name[pk]: n for pk, n in engine[g.pk].items()})
                for g in sorted(counted, key=lambda g: g.number)
            ],
            costs=money_rules.nets(shares),
        )


@pytest.mark.django_db
def test_random_nights_keep_the_ledger_whole() -> None:
    Night.TestCase.settings = settings(
        # Every step compares each page's figures with the engine's: 30 nights cost what 50
        # did without, and keep make test quick.
        max_examples=30,
        stateful_step_count=30,
        deadline=None,
        # Shrinking replays whole nights against the database and can run for many minutes; the
        # unshrunk steps of a failure already read clearly.
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    Night.TestCase().runTest()
