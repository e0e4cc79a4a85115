"""A Hypothesis state machine plays random nights: every step must keep the ledger whole."""

from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from scorekeeper.models import Game, LedgerLine
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.knock_dummy import Settlement, settle, settle_events
from scorekeeper.rules.knock_dummy_document import game_from_document
from scorekeeper.services import games, sessions
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.ledger_audit import session_audit
from tests.services.conftest import make_session

KINDS = ["normal", "dark", "light-color", "dark-color"]
EVENT_TYPES = ["head", "speto", "dummy-discard", "full-discard", "show-speto"]


def engine_net(game: Game) -> Counter[str]:
    """What the engine alone says this game makes each player win or lose."""
    parsed = game_from_document(game.settle_document())
    if game.status == Game.Status.PENDING_TIE:
        lines = settle_events(parsed)
        return _net(lines)
    if game.status == Game.Status.IN_PLAY:
        events = [e.document for e in game.events.all()]
        return _net(settle_events(game_from_document({**game.document, "events": events})))
    settlement: Settlement = settle(parsed)
    return Counter(settlement.net())


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
        self.newcomers = 0

    @property
    def in_play(self) -> Game | None:
        return self.table.games.filter(status=Game.Status.IN_PLAY).first()

    def expected(self) -> Counter[str]:
        """Sum the engine's nets over every game that stands, keyed by the current names."""
        total: Counter[str] = Counter()
        for game in self.table.games.exclude(status=Game.Status.VOIDED):
            names = dict(zip(game.document["players"], game.seating, strict=True))
            for name, amount in engine_net(game).items():
                total[names[name]] += amount
        return total

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
    @rule()
    def close_and_pay(self) -> None:
        transfers = sessions.session_close(session=self.table)
        held: Counter[str] = Counter()
        for transfer in transfers:
            sessions.payment_record(transfer=transfer)
            held[transfer.payer.name] -= transfer.baht
            held[transfer.payee.name] += transfer.baht
        self.table.refresh_from_db()
        # The transfers move what each won or lost, in baht at the night's point value.
        standings = self.table.standings.select_related("player")
        want = {s.player.name: self.table.baht(s.balance) for s in standings if s.balance}
        assert {name: baht for name, baht in held.items() if baht} == want

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
    def every_game_sums_to_zero(self) -> None:
        for game in self.table.games.counted():
            assert sum(engine_net(game).values()) == 0

    @invariant()
    def running_totals_equal_the_replay_and_the_engine(self) -> None:
        assert session_audit(self.table) == []
        expected = self.expected()
        assert {p: n for p, n in self.balances().items() if n} == {
            p: n for p, n in expected.items() if n
        }


@pytest.mark.django_db
def test_random_nights_keep_the_ledger_whole() -> None:
    Night.TestCase.settings = settings(
        max_examples=50,
        stateful_step_count=30,
        deadline=None,
        # Shrinking replays whole nights against the database and can run for many minutes; the
        # unshrunk steps of a failure already read clearly.
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    Night.TestCase().runTest()
