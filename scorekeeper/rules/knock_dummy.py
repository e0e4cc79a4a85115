"""Knock Dummy 2025 settlement (ดัมมี่น็อก): the model of docs/rules/knock-dummy.md.

A game as the table reports it goes in (`Game`); ledger lines come out (`Settlement`). Rule numbers
are those of the Dummy Club's 2025 Thai text.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from scorekeeper.rules.errors import RuleError, TieUnresolved

RULES = "knock-dummy-2025"
SEATS = 4
SPETOS_IN_DECK = 2  # 2♣ and Q♠


class Level(StrEnum):
    """Level of losing (ลำดับขั้นการเสียแต้ม): rule 59."""

    LESS = "less"  # เสียน้อย
    MEDIUM = "medium"  # เสียกลาง
    MORE = "more"  # เสียมาก


LEVELS = (Level.LESS, Level.MEDIUM, Level.MORE)


@dataclass(frozen=True, slots=True)
class Stakes:
    """The agreed rate of each level (อัตราการเสียแต้ม): rule 69."""

    less: int
    medium: int
    more: int

    def rate(self, level: Level) -> int:
        return {Level.LESS: self.less, Level.MEDIUM: self.medium, Level.MORE: self.more}[level]


STAKE_LEVELS = {
    "thep": Stakes(80, 100, 120),  # ระดับเทพ
    "sian": Stakes(100, 200, 300),  # ระดับเซียน
    "khot-sian": Stakes(200, 300, 400),  # ระดับโคตรเซียน
}


class KnockKind(StrEnum):
    """Kind of knock: rules 74-79."""

    NORMAL = "normal"  # น็อกธรรมดา / น็อกสว่าง
    DARK = "dark"  # น็อกมืด
    LIGHT_COLOR = "light-color"  # น็อกสีสว่าง
    DARK_COLOR = "dark-color"  # น็อกสีมืด


KNOCK_MULTIPLIER = {
    KnockKind.NORMAL: 1,
    KnockKind.DARK: 2,
    KnockKind.LIGHT_COLOR: 4,
    KnockKind.DARK_COLOR: 8,
}


class FaceDown(StrEnum):
    """The card the knocker laid face down, when it earns a payment: rule 71."""

    DUMMY = "dummy"  # คว่ำดัมมี่น็อก
    SPETO = "speto"  # คว่ำสเปโตน็อก
    SPETO_DUMMY = "speto-dummy"  # คว่ำสเปโตน็อก, and that Speto could have been laid off


class EventType(StrEnum):
    """Something paid at once during play (rule 80)."""

    HEAD = "head"  # เกิดไพ่หัว (20), ตีปี้หัว (27)
    SPETO = "speto"  # เกิดสเปโต / ลงชุดสเปโต (41), ตีตัวกันสเปโต (28-31)
    DUMMY_DISCARD = "dummy-discard"  # ตีดัมมี่ (32)
    FULL_DISCARD = "full-discard"  # ตีเต็ม (32)
    SHOW_SPETO = "show-speto"  # โชว์สเปโต (81)
    FINE = "fine"  # ปรับรอบวง (83)


class FineReason(StrEnum):
    """The offences of rule 83, each fined round the table and ending the game."""

    MISDEAL = "misdeal"  # 83.1 แจกไพ่ขาด/เกิน
    FALSE_KNOCK = "false-knock"  # 83.2 น็อกไม่ถูกต้องและหงายไพ่แล้ว
    UNMELDABLE_PICKUP = "unmeldable-pickup"  # 83.3 เก็บรวบแล้วลงไม่ได้


class HeadColor(StrEnum):
    """Colour of the next game's head card, which settles a two-way tie: rule 65."""

    BLACK = "black"
    RED = "red"


class Item(StrEnum):
    """What a ledger line pays for."""

    LEVEL = "level"  # ค่าเสียแต้มตามลำดับขั้น
    KNOCK = "knock"  # ค่าน็อก
    FOOL = "fool"  # ค่าโง่
    FOOL_ROUND = "fool-round"  # ค่าโง่รอบวง
    SPETO_HOLD = "speto-hold"  # ค่าอมสเปโต
    KNOCKER_SPETO_HELD = "knocker-speto-held"  # ค่าอมสเปโต (ผู้น็อก)
    KNOCKER_SPETO_PICKED = "knocker-speto-picked"  # ค่าสเปโต
    FACE_DOWN_DUMMY = "face-down-dummy"  # ค่าคว่ำดัมมี่น็อก
    FACE_DOWN_SPETO = "face-down-speto"  # ค่าคว่ำสเปโตน็อก
    HEAD = "head"  # ค่าหัว
    HEAD_CLOSE = "head-close"  # ค่าตีปี้หัว
    SPETO = "speto"  # ค่าสเปโต
    SPETO_CLOSE = "speto-close"  # ค่าตีตัวกันสเปโต
    DUMMY_DISCARD = "dummy-discard"  # ค่าตีดัมมี่
    FULL_DISCARD = "full-discard"  # ค่าตีเต็ม
    SHOW_SPETO = "show-speto"  # ค่าโชว์สเปโต
    FINE = "fine"  # ค่าปรับรอบวง


class Due(StrEnum):
    """When a line is paid: rule 80."""

    AT_ONCE = "at-once"  # ให้เสียแต้มทันที
    AFTER_GAME = "after-game"  # ให้เสียแต้มหลังจบเกม


@dataclass(frozen=True, slots=True)
class Knock:
    """Who knocked, how, and with which Spetos (rules 45-51, 71-79)."""

    player: str
    kind: KnockKind = KnockKind.NORMAL
    speto_held: int = 0  # Spetos knocked with in a meld, a dummy or face down (50, 72)
    speto_picked: int = 0  # Spetos picked up or fooled to knock (51)
    face_down: FaceDown | None = None  # (71)

    @property
    def multiplier(self) -> int:
        return KNOCK_MULTIPLIER[self.kind]


@dataclass(frozen=True, slots=True)
class Event:
    """An immediate event, paid when it happens (rule 80)."""

    type: EventType
    player: str
    close: tuple[str, ...] = ()  # close or Speto-defence discarders who pay for the table
    count: int = 1  # Spetos in a `speto` event
    reason: FineReason | None = None


@dataclass(frozen=True, slots=True)
class TieBreak:
    """How tied players are ordered: a high-card draw (best first) or the next head card."""

    order: tuple[str, ...] = ()
    head_color: HeadColor | None = None


@dataclass(frozen=True, slots=True)
class Game:
    """One game of Knock Dummy as the table reports it."""

    players: tuple[str, ...]  # turn order; players[0] dealt this game
    stakes: Stakes
    fine: int  # the agreed fine of rule 83
    knock: Knock | None = None  # None: the stock ran out (55)
    points: Mapping[str, int] = field(default_factory=dict)  # counted points (53)
    levels: Mapping[str, Level] | None = None  # the table's own levels, instead of points
    collected: frozenset[str] | None = None  # None: everybody collected
    color: frozenset[str] = frozenset()
    fool: str | None = None  # fool discarder (ผู้ตีโง่)
    speto_held: Mapping[str, int] = field(default_factory=dict)  # Spetos left in a loser's hand
    total: str | None = None  # the loser who pays the total (เหมา, 82)
    tie_break: TieBreak | None = None
    events: tuple[Event, ...] = ()

    @property
    def medium(self) -> int:
        return self.stakes.medium

    @property
    def fine_event(self) -> Event | None:
        return next((e for e in self.events if e.type is EventType.FINE), None)

    def has_collected(self, player: str) -> bool:
        return self.collected is None or player in self.collected

    def sleep(self, player: str) -> int:
        """Return the sleep multiplier S of a loser: rules 60, 76-78."""
        dark = not self.has_collected(player)
        if player in self.color:
            return 8 if dark else 4
        return 2 if dark else 1


@dataclass(frozen=True, slots=True)
class Line:
    """One payment: payer → payee."""

    payer: str
    payee: str
    amount: int
    item: Item
    rule: str
    due: Due
    instead_of: str | None = None  # the loser whose line the total payer took over (82)


@dataclass(frozen=True, slots=True)
class Settlement:
    """What a game makes everybody pay."""

    players: tuple[str, ...]
    lines: tuple[Line, ...]
    levels: Mapping[str, Level]
    winners: tuple[str, ...]
    knocker: str | None = None
    ended_by_fine: bool = False

    def net(self, due: Due | None = None) -> dict[str, int]:
        """Return each player's signed total, over every line or over the lines of one `due`."""
        net = dict.fromkeys(self.players, 0)
        for line in self.lines:
            if due is None or line.due is due:
                net[line.payer] -= line.amount
                net[line.payee] += line.amount
        return net


def settle(game: Game) -> Settlement:
    """Settle one game: validate it, then write every line it makes due."""
    validate(game)
    lines = [line for event in game.events for line in event_lines(game, event)]
    if game.fine_event is not None:  # a fine ends the game (84.3): nothing after the game
        return Settlement(game.players, tuple(lines), {}, (), ended_by_fine=True)
    levels, winners = assign_levels(game)
    if game.knock is None:
        lines += _stock_out_lines(game, levels, winners)
    else:
        lines += _total(game, _knock_lines(game, game.knock, levels))
    knocker = game.knock.player if game.knock else None
    return Settlement(game.players, tuple(lines), levels, winners, knocker)


def settle_events(game: Game) -> list[Line]:
    """Validate the events of a game still in play and return their lines (paid at once, 80)."""
    _validate_table(game)
    _validate_names(game)
    _validate_events(game)
    _validate_spetos(game)
    return [line for event in game.events for line in event_lines(game, event)]


def level_warnings(game: Game) -> list[RuleError]:
    """Return where levels the table gave contradict the forcing rules (60, 76-78), not errors."""
    if game.knock is None or game.levels is None:
        return []
    warnings = []
    for player, level in game.levels.items():
        if level is Level.MORE:
            continue
        if game.sleep(player) > 1:
            warnings.append(
                RuleError(
                    "level-sleeper",
                    "{name} never collected or holds one colour: rule 60 makes them lose more",
                    field="levels",
                    name=player,
                )
            )
        elif player == game.fool and game.knock.kind is KnockKind.LIGHT_COLOR:
            warnings.append(
                RuleError(
                    "level-fool-light-color",
                    "{name} fooled a light-colour knock: rule 60 makes them lose more",
                    field="levels",
                    name=player,
                )
            )
    return warnings


# -- levels of losing (rules 54-68) ------------------------------------------------------------


def assign_levels(game: Game) -> tuple[dict[str, Level], tuple[str, ...]]:
    """Return each loser's level and the winners: rules 54-68."""
    if game.knock is not None:
        losers = [p for p in game.players if p != game.knock.player]
        if game.levels is not None:
            return {p: game.levels[p] for p in losers}, (game.knock.player,)
        forced = {p for p in losers if game.sleep(p) > 1}
        if game.fool is not None and game.knock.kind is KnockKind.LIGHT_COLOR:
            forced.add(game.fool)  # 60: fool to a light-colour knock
        return _levels(game, losers, forced, LEVELS), (game.knock.player,)

    top = max(game.points[p] for p in game.players)
    tops = [p for p in game.players if game.points[p] == top]
    pool: tuple[Level, ...] = LEVELS
    if len(tops) == 2:  # 56, 67: both win; the two losers take medium and more
        winners = tuple(tops)
        pool = (Level.MEDIUM, Level.MORE)
    elif len(tops) > 2:  # 57-58: a high-card draw picks the winner among those tied for top
        winners = (_break_tie(game, tops, ["win", *LEVELS][: len(tops)])[0],)
    else:  # 55
        winners = (tops[0],)
    losers = [p for p in game.players if p not in winners]
    forced = {p for p in losers if game.sleep(p) > 1}
    return _levels(game, losers, forced, pool), winners


def _levels(
    game: Game, losers: list[str], forced: set[str], pool: tuple[Level, ...]
) -> dict[str, Level]:
    """Give forced losers `more`; the rest take the best of `pool`, the fool the worst of those."""
    levels = {p: Level.MORE for p in losers if p in forced}
    rest = [p for p in losers if p not in forced]
    open_levels = list(pool[: len(rest)])
    if game.fool in rest:  # 61-64
        levels[game.fool] = open_levels.pop()
        rest.remove(game.fool)
    if len(rest) == 1:
        levels[rest[0]] = open_levels[0]
    elif rest:
        for player, level in zip(_rank(game, rest, at_stake=open_levels), open_levels, strict=True):
            levels[player] = level
    return {p: levels[p] for p in losers}


def _rank(game: Game, players: Iterable[str], *, at_stake: Iterable[str]) -> list[str]:
    """Order players by points, best first, settling ties by rules 57-58 and 65-66."""
    players = list(players)
    stakes = list(at_stake)
    ranked = sorted(players, key=lambda p: -game.points[p])
    result: list[str] = []
    i = 0
    while i < len(ranked):
        tied = [p for p in ranked if game.points[p] == game.points[ranked[i]]]
        if len(tied) > 1:
            tied = _break_tie(game, tied, stakes[i : i + len(tied)])
        result += tied
        i += len(tied)
    return result


def _break_tie(game: Game, tied: list[str], at_stake: list[str]) -> list[str]:
    """Order players tied on points, best first, or raise TieUnresolved."""
    seated = sorted(tied, key=game.players.index)
    tie_break = game.tie_break or TieBreak()
    if all(p in tie_break.order for p in tied):
        return sorted(tied, key=tie_break.order.index)
    # 65: the tied loser who dealt is black, else the first of them after the dealer.
    black, red = (seated[0], seated[1]) if len(seated) == 2 else (None, None)
    if tie_break.head_color is not None and black is not None and red is not None:
        winner_first = tie_break.head_color is HeadColor.BLACK
        return [black, red] if winner_first else [red, black]
    raise TieUnresolved(tied=seated, at_stake=at_stake, black=black, red=red)


# -- the lines of a game -------------------------------------------------------------------------


def _level_rule(kind_multiplier: int, sleep: int) -> str:
    if sleep == 4:
        return "78"  # ถือสีสว่าง
    if sleep > 1 and kind_multiplier > 1:
        return "77"  # ค่าชน: a dark sleeper against a dark or colour knock
    if sleep > 1 or kind_multiplier > 1:
        return "76"
    return "59"


def _knock_lines(game: Game, knock: Knock, levels: Mapping[str, Level]) -> list[Line]:
    """Write the end-of-game lines of a knock game: rules 49-51, 59-79."""
    after = Due.AFTER_GAME
    m, k, knocker = game.medium, knock.multiplier, knock.player
    losers = [p for p in game.players if p != knocker]
    lines = []
    for x in losers:
        s = game.sleep(x)
        amount = game.stakes.rate(levels[x]) * k * s
        lines.append(Line(x, knocker, amount, Item.LEVEL, _level_rule(k, s), after))
    lines += [Line(x, knocker, m * k, Item.KNOCK, "79", after) for x in losers]
    if game.fool is not None:
        lines.append(Line(game.fool, knocker, 2 * m * k, Item.FOOL, "74", after))
        lines += [
            Line(game.fool, x, m * k, Item.FOOL_ROUND, "75", after)
            for x in losers
            if x != game.fool
        ]
    lines += _speto_hold_lines(game)
    per_loser = [
        (knock.speto_held * 2 * m, Item.KNOCKER_SPETO_HELD, "50"),
        (knock.speto_picked * m, Item.KNOCKER_SPETO_PICKED, "51"),
    ]
    if knock.face_down is FaceDown.DUMMY:
        per_loser.append((m, Item.FACE_DOWN_DUMMY, "71"))
    elif knock.face_down is not None:  # the dummy value is added when that Speto was a dummy
        value = 2 * m if knock.face_down is FaceDown.SPETO_DUMMY else m
        per_loser.append((value, Item.FACE_DOWN_SPETO, "71"))
    for amount, item, rule in per_loser:
        if amount:
            lines += [Line(x, knocker, amount, item, rule, after) for x in losers]
    return lines


def _stock_out_lines(
    game: Game, levels: Mapping[str, Level], winners: tuple[str, ...]
) -> list[Line]:
    """Write the end-of-game lines of a game with no knocker: rules 55-59, 76; K is 1."""
    lines = [
        Line(
            x,
            w,
            game.stakes.rate(level) * game.sleep(x),
            Item.LEVEL,
            _level_rule(1, game.sleep(x)),
            Due.AFTER_GAME,
        )
        for x, level in levels.items()
        for w in winners
    ]
    return lines + _speto_hold_lines(game)


def _speto_hold_lines(game: Game) -> list[Line]:
    """Each Speto left in a hand pays 2 × M to every other player: rules 49, 72, 81."""
    return [
        Line(holder, other, 2 * game.medium * count, Item.SPETO_HOLD, "49", Due.AFTER_GAME)
        for holder, count in game.speto_held.items()
        if count
        for other in game.players
        if other != holder
    ]


def _total(game: Game, lines: list[Line]) -> list[Line]:
    """Move every after-game line payable to the knocker onto the total payer: rule 82."""
    if game.total is None or game.knock is None:
        return lines
    moved = []
    for line in lines:
        if line.payee == game.knock.player and line.payer != game.total:
            line = Line(game.total, line.payee, line.amount, line.item, "82", line.due, line.payer)
        moved.append(line)
    return moved


def event_lines(game: Game, event: Event) -> list[Line]:
    """Write the lines of an immediate event: rules 20, 27-32, 41, 81, 83."""
    now, m, p = Due.AT_ONCE, game.medium, event.player
    others = [x for x in game.players if x != p]
    match event.type:
        case EventType.HEAD if event.close:
            return [Line(c, p, 3 * m, Item.HEAD_CLOSE, "27", now) for c in event.close]
        case EventType.HEAD:
            return [Line(x, p, m, Item.HEAD, "20", now) for x in others]
        case EventType.SPETO if event.close:
            amount = 3 * m * event.count
            return [Line(c, p, amount, Item.SPETO_CLOSE, "28", now) for c in event.close]
        case EventType.SPETO:
            return [Line(x, p, m * event.count, Item.SPETO, "41", now) for x in others]
        case EventType.DUMMY_DISCARD:
            return [Line(p, x, m, Item.DUMMY_DISCARD, "32", now) for x in others]
        case EventType.FULL_DISCARD:
            return [Line(p, x, m, Item.FULL_DISCARD, "32", now) for x in others]
        case EventType.SHOW_SPETO:
            return [Line(x, p, 2 * m, Item.SHOW_SPETO, "81", now) for x in others]
        case EventType.FINE:
            return [Line(p, x, game.fine, Item.FINE, "83", now) for x in others]


# -- validation ----------------------------------------------------------------------------------


def validate(game: Game) -> None:
    """Raise RuleError for the first thing in `game` that cannot be so."""
    _validate_table(game)
    _validate_names(game)
    _validate_events(game)
    if game.fine_event is not None:
        _validate_fined(game)
    elif game.knock is None:
        _validate_stock_out(game)
    else:
        _validate_knock(game, game.knock)
    _validate_spetos(game)


def _fail(code: str, template: str, *, field: str = "", **params: object) -> None:
    raise RuleError(code, template, field=field, **params)


def _validate_table(game: Game) -> None:
    if len(game.players) != SEATS:
        _fail(
            "players-count",
            "Knock Dummy needs 4 players, not {n}",
            field="players",
            n=len(game.players),
        )
    for p in game.players:
        if not p.strip():
            _fail("player-name", "every player needs a name", field="players")
    if len(set(game.players)) != SEATS:
        twice = next(p for p in game.players if game.players.count(p) > 1)
        _fail("player-repeated", "{name} is named twice in players", field="players", name=twice)
    s = game.stakes
    if min(s.less, s.medium, s.more) <= 0:
        _fail("stakes-positive", "every stake must be more than 0", field="stakes")
    if not s.less <= s.medium <= s.more:
        _fail("stakes-order", "stakes must go less ≤ medium ≤ more", field="stakes")
    if game.fine <= 0:
        _fail("fine-positive", "the fine must be more than 0", field="fine")


def _validate_names(game: Game) -> None:
    seated = set(game.players)
    named: list[tuple[str, Iterable[str]]] = [
        ("points", game.points),
        ("levels", game.levels or ()),
        ("collected", game.collected or ()),
        ("color", game.color),
        ("speto_held", game.speto_held),
        ("knock", [game.knock.player] if game.knock else []),
        ("fool", [game.fool] if game.fool else []),
        ("total", [game.total] if game.total else []),
        ("tie_break", game.tie_break.order if game.tie_break else ()),
    ]
    for event in game.events:
        named.append(("events", [event.player, *event.close]))
    for where, names in named:
        for name in names:
            if name not in seated:
                _fail(
                    "unknown-player",
                    "{where} names {name}, who is not at the table",
                    field=where,
                    where=where,
                    name=name,
                )
    if game.tie_break and len(set(game.tie_break.order)) != len(game.tie_break.order):
        _fail("tie-break-repeated", "tie_break names a player twice", field="tie_break")


def _validate_events(game: Game) -> None:
    heads = shows = 0
    for i, event in enumerate(game.events):
        if event.type is EventType.FINE and i != len(game.events) - 1:
            _fail(
                "events-after-fine",
                "a fine ends the game (84.3): no event can follow it",
                field="events",
            )
        if event.close and event.type not in (EventType.HEAD, EventType.SPETO):
            _fail(
                "close-not-allowed",
                "only a head or a Speto event has close discarders",
                field="events",
            )
        if event.player in event.close:
            _fail(
                "close-self",
                "{name} cannot close-discard to themselves",
                field="events",
                name=event.player,
            )
        if len(set(event.close)) != len(event.close):
            _fail("close-repeated", "a close discarder is named twice", field="events")
        if not 1 <= event.count <= SPETOS_IN_DECK:
            _fail("speto-count", "a Speto event counts 1 or 2 Spetos", field="events")
        if event.count != 1 and event.type is not EventType.SPETO:
            _fail("count-not-allowed", "only a Speto event has a count", field="events")
        if event.reason is not None and event.type is not EventType.FINE:
            _fail("reason-not-allowed", "only a fine has a reason", field="events")
        heads += event.type is EventType.HEAD
        shows += event.type is EventType.SHOW_SPETO
    if heads > 1:
        _fail("head-twice", "there is one head card: only one head event", field="events")
    if shows > 1:
        _fail("show-twice", "only one player can show both Spetos", field="events")


def _validate_fined(game: Game) -> None:
    if game.knock is not None or game.points or game.levels is not None:
        _fail(
            "fine-with-result",
            "a fine ends the game (83): no knock, points or levels with it",
            field="events",
        )
    _no_knock_fields(game, "a game ended by a fine")


def _validate_stock_out(game: Game) -> None:
    _no_knock_fields(game, "a stock-out game")
    if game.levels is not None:
        _fail(
            "levels-without-knock",
            "levels are for knock games: give points for all four",
            field="levels",
        )
    missing = [p for p in game.players if p not in game.points]
    if missing:
        _fail(
            "points-missing",
            "points missing for {names}",
            field="points",
            names=", ".join(missing),
        )


def _no_knock_fields(game: Game, what: str) -> None:
    for name, value in (("fool", game.fool), ("total", game.total)):
        if value is not None:
            _fail(
                f"{name}-without-knock",
                "{what} has no knocker, so no {name}",
                field=name,
                what=what,
                name=name,
            )


def _validate_knock(game: Game, knock: Knock) -> None:
    knocker = knock.player
    losers = [p for p in game.players if p != knocker]
    if game.fool == knocker:
        _fail("knocker-fool", "the knocker cannot be the fool discarder", field="fool")
    if game.total == knocker:
        _fail("knocker-total", "the knocker cannot pay the total", field="total")
    if knocker in game.color:
        _fail(
            "knocker-color",
            "the knocker's colour is in the knock kind, not in color",
            field="color",
        )
    if game.speto_held.get(knocker):
        _fail("knocker-speto-held", "the knocker's Spetos go in knocker_speto", field="speto_held")
    if knock.speto_held < 0 or knock.speto_picked < 0:
        _fail("speto-negative", "Speto counts cannot be negative", field="knocker_speto")
    if knock.face_down in (FaceDown.SPETO, FaceDown.SPETO_DUMMY) and knock.speto_held < 1:
        _fail(
            "face-down-speto-not-held",
            "a face-down Speto is one of the knocker's held Spetos: knocker_speto.held is 0",
            field="face_down",
        )
    if game.levels is not None:
        if game.points:
            _fail("points-and-levels", "give points or levels, not both", field="levels")
        if set(game.levels) != set(losers):
            _fail(
                "levels-incomplete",
                "levels must name every loser: {names}",
                field="levels",
                names=", ".join(losers),
            )
        return
    missing = [p for p in _needs_points(game, losers) if p not in game.points]
    if missing:
        _fail(
            "points-missing", "points missing for {names}", field="points", names=", ".join(missing)
        )


def _needs_points(game: Game, losers: list[str]) -> list[str]:
    """Return the losers whose level depends on their counted points."""
    ranked = [p for p in losers if game.sleep(p) == 1 and p != game.fool]
    return ranked if len(ranked) > 1 else []


def _validate_spetos(game: Game) -> None:
    for name, count in game.speto_held.items():
        if count < 0:
            _fail(
                "speto-negative",
                "{name} cannot hold fewer than 0 Spetos",
                field="speto_held",
                name=name,
            )
    in_play = sum(game.speto_held.values())
    in_play += sum(e.count for e in game.events if e.type is EventType.SPETO)
    if game.knock is not None:
        in_play += game.knock.speto_held + game.knock.speto_picked
    if in_play > SPETOS_IN_DECK:
        _fail(
            "too-many-spetos",
            "{n} Spetos in play, but the deck has only 2 (2♣ and Q♠)",
            field="speto_held",
            n=in_play,
        )


# -- the deal ------------------------------------------------------------------------------------


def dealer_after[P](
    seating: Sequence[P], knocker: P | None, *, fined: bool, last_drawer: P | None
) -> P:
    """Return who deals after a finished game (`seating` in turn order, the dealer first).

    Rule 10: the knocker deals; 16: a game ended by a misdeal's fine passes the deal to the next
    player; 11: after a stock-out, the player after the one who drew the last card.
    """
    if knocker is not None:  # 10
        return knocker
    if fined:  # 16
        return seating[1]
    if last_drawer is None or last_drawer not in seating:
        raise RuleError(
            "last-drawer", "a stock-out game needs who drew the last card (rule 11)",
            field="last_drawer",
        )  # fmt: skip
    return seating[(list(seating).index(last_drawer) + 1) % len(seating)]  # 11
