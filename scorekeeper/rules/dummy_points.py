"""Classic Dummy to 500 (ดัมมี่ระบบจดแต้ม): the first game of docs/rules/other-games.md.

A deal as the table reports it goes in (`Deal`); each player's score for the deal comes out
(`DealScore`); scores add up toward the target (`Standing`). "The page" is that file;
"the source" is the Thai Wikipedia article it follows (รัมมี่).
"""

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from scorekeeper.rules import scoresheet
from scorekeeper.rules.errors import RuleError

RULES = "dummy-points"
MIN_PLAYERS, MAX_PLAYERS = 2, 4  # dealt 11, 9 or 7 cards each
TARGET = 500  # the source: 500 "or whatever was agreed" (หรือตามแต่กำหนดไว้)
KNOCK_CARD = 50  # ไพ่ใบที่ใช้น็อก
KNOCK_CARD_HIGH = 100  # the house options' knock card
FOOL = 50  # ทิ้งโง่
DARK_SLEEPER = 2  # ลบมืด
DECK_POINTS = 465  # every card of the deck counted: no table or hand can hold more

SUITS = "CDHS"  # ♣ ♦ ♥ ♠
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SPETOS = frozenset({"C2", "SQ"})  # สเปโต: 2♣ and Q♠


class KnockKind(StrEnum):
    """How the knocker knocked (page: multiplier for the knocker)."""

    NORMAL = "normal"  # น็อก
    DARK = "dark"  # น็อกมืด: never collected
    COLOR = "color"  # น็อกสี: every meld and lay-off one suit
    DARK_COLOR = "dark-color"  # น็อกมืดสี


KNOCK_MULTIPLIER = {
    KnockKind.NORMAL: 1,
    KnockKind.DARK: 2,
    KnockKind.COLOR: 2,
    KnockKind.DARK_COLOR: 4,
}


class Penalty(StrEnum):
    """A house penalty of the page, each 50 unless the house sets another amount."""

    DUMMY_DISCARD = "dummy-discard"  # ทิ้งมี่: discarding a card that could be laid off
    FULL_DISCARD = "full-discard"  # ทิ้งเต็ม: discarding a card that melds with two in the pile
    HEAD_CLOSE = "head-close"  # ทิ้งปี้หัว: a discard that let another pick up the head
    SPETO_CLOSE = "speto-close"  # ทิ้งปี้สเปโต: a discard that let another meld a Speto
    SPETO_DEFENCE = "speto-defence"  # ตีอ้อน / ตีกร่าง: a Speto-defence card as the first discard
    SPETO_LAID_OFF = "speto-laid-off"  # ถูกฝากสเปโต: a meld or lay-off another laid a Speto on


@dataclass(frozen=True, slots=True)
class HouseRules:
    """What the table agreed beyond the page's core rules; the defaults are the page's.

    The page lists the penalties and the head bonus as house options (the source: "agree first
    whether to use them"). They default to the page's amounts because a table that reports one
    plays it; an amount of 0 means the table does not play that rule, and reporting it is refused.
    """

    knock_card_speto_100: bool = False  # a Speto knock card is worth 100
    knock_card_lay_off_100: bool = False  # a knock card that could have been laid off is worth 100
    ace_in_run_10: bool = False  # an A laid in a Q-K-A run counts 10, not 15
    dummy_discard: int = 50
    full_discard: int = 50
    head_close: int = 50
    speto_close: int = 50
    speto_defence: int = 50
    speto_laid_off: int = 50
    head: int = 50  # picking up the head card (ใบหัว)
    head_speto: int = 100  # picking up the head card when it is a Speto

    def penalty(self, kind: Penalty) -> int:
        """Return what one penalty of `kind` costs at this table."""
        return {
            Penalty.DUMMY_DISCARD: self.dummy_discard,
            Penalty.FULL_DISCARD: self.full_discard,
            Penalty.HEAD_CLOSE: self.head_close,
            Penalty.SPETO_CLOSE: self.speto_close,
            Penalty.SPETO_DEFENCE: self.speto_defence,
            Penalty.SPETO_LAID_OFF: self.speto_laid_off,
        }[kind]


PAGE_HOUSE = HouseRules()


@dataclass(frozen=True, slots=True)
class Knock:
    """Who knocked, how, and with what knock card (page: knock card bonus, multiplier)."""

    player: str
    kind: KnockKind = KnockKind.NORMAL
    speto: bool = False  # the knock card is 2♣ or Q♠
    could_lay_off: bool = False  # the knock card could have been laid off on a meld on the table

    @property
    def multiplier(self) -> int:
        return KNOCK_MULTIPLIER[self.kind]


@dataclass(frozen=True, slots=True)
class Head:
    """Who picked up the head card (ใบหัว), the first card turned up after the deal."""

    player: str
    speto: bool = False


@dataclass(frozen=True, slots=True)
class Count:
    """One player's count at the end of a deal: table and hand points, or just the difference."""

    table: int = 0  # points of the cards laid on the table
    hand: int = 0  # points of the cards left in hand
    difference: int | None = None  # table − hand, when the table reports only that
    collected: bool = True  # เกิด: False for a dark sleeper, who never collected
    penalties: Mapping[Penalty, int] = field(default_factory=dict)  # how many of each

    @property
    def points(self) -> int:
        return self.table - self.hand if self.difference is None else self.difference


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal (one hand) of classic Dummy as the table reports it."""

    players: tuple[str, ...]
    counts: Mapping[str, Count]
    knock: Knock | None = None  # None: the stock ran out and nobody knocked
    fool: str | None = None  # ผู้ทิ้งโง่: discarded the one card the knocker picked up to knock
    head: Head | None = None
    house: HouseRules = PAGE_HOUSE


@dataclass(frozen=True, slots=True)
class Score:
    """One player's score for a deal, with the terms of the page's formula."""

    player: str
    points: int  # table − hand
    bonuses: int
    penalties: int
    multiplier: int
    score: int  # (points + bonuses − penalties) × multiplier


@dataclass(frozen=True, slots=True)
class DealScore:
    """What a deal scores, and whether the next deal goes the other way round (a fool discard)."""

    scores: tuple[Score, ...]
    reverse_next_deal: bool

    def by_player(self) -> dict[str, int]:
        return {s.player: s.score for s in self.scores}


@dataclass(frozen=True, slots=True)
class Standing:
    """Where the totals stand against the target after some deals."""

    totals: Mapping[str, int]
    target: int
    ended: bool
    winners: tuple[str, ...]  # empty until the match ends; several when they share the win


# -- card values ---------------------------------------------------------------------------------


def card_points(card: str, *, in_run: bool = False, house: HouseRules = PAGE_HOUSE) -> int:
    """Return what one card counts: 5, 10, 15, Spetos 50; A in a Q-K-A run 10 by house option."""
    rank = _rank(card)
    if card in SPETOS:
        return 50
    if rank == "A":
        return 10 if in_run and house.ace_in_run_10 else 15
    return 10 if rank in ("10", "J", "Q", "K") else 5


def cards_points(
    cards: Iterable[str], *, aces_in_runs: int = 0, house: HouseRules = PAGE_HOUSE
) -> int:
    """Return what cards count, `aces_in_runs` of their aces laid in a Q-K-A run (page)."""
    cards = list(cards)
    aces = sum(_rank(card) == "A" for card in cards)
    if aces_in_runs and not house.ace_in_run_10:
        _fail(
            "ace-in-run-not-played",
            "aces_in_runs needs the house option ace_in_run_10 (an A in a Q-K-A run counts 10)",
            field="house",
        )
    if not 0 <= aces_in_runs <= aces:
        _fail(
            "aces-in-runs",
            "aces_in_runs is {n}, but the cards hold {aces} A",
            field="counts",
            n=aces_in_runs,
            aces=aces,
        )
    return sum(card_points(card, house=house) for card in cards) - 5 * aces_in_runs


def _rank(card: str) -> str:
    if len(card) < 2 or card[0] not in SUITS or card[1:] not in RANKS:
        _fail(
            "card-unknown",
            "{card} is not a card: write the suit (C D H S) then the rank, like C2, SQ, H10, DA",
            field="counts",
            card=card,
        )
    return card[1:]


# -- a deal's scores -----------------------------------------------------------------------------


def score_deal(deal: Deal) -> DealScore:
    """Score a deal: (table − hand + bonuses − penalties) × multiplier for each player (page)."""
    validate(deal)
    scores = []
    for player in deal.players:
        count = deal.counts[player]
        bonuses = knock_card_bonus(deal, player) + head_bonus(deal, player)
        penalties = penalty_total(deal, player)
        raw = count.points + bonuses - penalties
        m = multiplier(deal, player, raw)
        scores.append(Score(player, count.points, bonuses, penalties, m, raw * m))
    # The source: after a fool discard "the next deal is dealt the other way round".
    return DealScore(tuple(scores), reverse_next_deal=deal.fool is not None)


def knock_card_bonus(deal: Deal, player: str) -> int:
    """Return the knock card's bonus: 50, or 100 if a Speto or could be laid off (house options)."""
    knock = deal.knock
    if knock is None or knock.player != player:
        return 0
    house = deal.house
    # The source prices the card ("that card is worth 100"), so a Speto that could also have been
    # laid off is still worth 100, not 150 or 200.
    if (knock.speto and house.knock_card_speto_100) or (
        knock.could_lay_off and house.knock_card_lay_off_100
    ):
        return KNOCK_CARD_HIGH
    return KNOCK_CARD


def head_bonus(deal: Deal, player: str) -> int:
    """Return the head card's bonus to the player who picked it up: 50, or 100 if a Speto (page)."""
    if deal.head is None or deal.head.player != player:
        return 0
    return deal.house.head_speto if deal.head.speto else deal.house.head


def penalty_total(deal: Deal, player: str) -> int:
    """Return a player's penalties added up, the fool discard's 50 included (page)."""
    count = deal.counts[player]
    total = sum(deal.house.penalty(kind) * n for kind, n in count.penalties.items())
    return total + (FOOL if deal.fool == player else 0)


def multiplier(deal: Deal, player: str, raw: int) -> int:
    """Return the knock kind's multiplier for the knocker, 2 for a dark sleeper's loss, else 1."""
    if deal.knock is not None and deal.knock.player == player:
        return deal.knock.multiplier
    # ลบมืด: "their score is doubled negative": the whole loss, penalties included, and only a loss.
    if not deal.counts[player].collected and raw < 0:
        return DARK_SLEEPER
    return 1


# -- the totals toward the target ------------------------------------------------------------------


def standing(totals: Mapping[str, int], target: int = TARGET) -> Standing:
    """Return the match's state: over once a total reaches the target; the highest total wins."""
    if target <= 0:
        _fail("target-positive", "the target must be more than 0", field="target")
    # "Reach" the target: at or above it, looked at once the whole deal is scored.
    ended = any(total >= target for total in totals.values())
    if not ended:
        return Standing(dict(totals), target, False, ())
    top = max(totals.values())
    # Several past the target in one deal: the higher total wins; equal totals share (page).
    return Standing(dict(totals), target, True, tuple(p for p, t in totals.items() if t == top))


def next_standing(totals: Mapping[str, int], scores: Mapping[str, int], target: int) -> Standing:
    """Add one deal's scores to the totals, refusing a deal after the match has ended."""
    ended = standing(totals, target).ended
    return standing(scoresheet.add_deal(totals, scores, ended=ended), target)


def play_match(
    players: Iterable[str], deals: Iterable[Mapping[str, int]], target: int = TARGET
) -> Standing:
    """Add up deals' scores from zero; refuse any deal after the one that ended the match."""
    state = standing(dict.fromkeys(players, 0), target)
    for scores in deals:
        state = next_standing(state.totals, scores, target)
    return state


# -- validation ----------------------------------------------------------------------------------


def _fail(code: str, template: str, *, field: str = "", **params: object) -> None:
    raise RuleError(code, template, field=field, **params)


def validate(deal: Deal) -> None:
    """Raise RuleError for the first thing in `deal` that cannot be so."""
    _validate_players(deal)
    _validate_house(deal.house)
    for player in deal.players:
        _validate_count(deal, player, deal.counts[player])
    _validate_deck(deal)
    _validate_knock(deal)
    _validate_head(deal)
    _validate_penalties(deal)


def _validate_players(deal: Deal) -> None:
    n = len(deal.players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        _fail("players-count", "classic Dummy needs 2 to 4 players, not {n}", field="players", n=n)
    for p in deal.players:
        if not p.strip():
            _fail("player-name", "every player needs a name", field="players")
    if len(set(deal.players)) != n:
        twice = next(p for p in deal.players if deal.players.count(p) > 1)
        _fail("player-repeated", "{name} is named twice in players", field="players", name=twice)
    named = [
        ("counts", list(deal.counts)),
        ("knock", [deal.knock.player] if deal.knock else []),
        ("fool", [deal.fool] if deal.fool else []),
        ("head", [deal.head.player] if deal.head else []),
    ]
    for where, names in named:
        for name in names:
            if name not in deal.players:
                _fail(
                    "unknown-player",
                    "{where} names {name}, who is not at the table",
                    field=where,
                    where=where,
                    name=name,
                )
    missing = [p for p in deal.players if p not in deal.counts]
    if missing:
        _fail("count-missing", "no count for {names}", field="counts", names=", ".join(missing))


def _validate_deck(deal: Deal) -> None:
    """The deck counts 465 points in all: the points reported laid and held cannot add up to
    more. A difference alone stands for at least its size (table − hand ≤ table + hand)."""
    reported = sum(
        c.table + c.hand if c.difference is None else abs(c.difference)
        for c in deal.counts.values()
    )
    if reported > DECK_POINTS:
        _fail(
            "points-deck",
            "the counts add up to {n} points laid and held, more than the whole deck's {most}",
            field="counts",
            n=reported,
            most=DECK_POINTS,
        )


def _validate_house(house: HouseRules) -> None:
    for kind in Penalty:
        if house.penalty(kind) < 0:
            _fail("house-negative", "a house amount cannot be negative", field="house")
    if house.head < 0 or house.head_speto < 0:
        _fail("house-negative", "a house amount cannot be negative", field="house")


def _validate_count(deal: Deal, player: str, count: Count) -> None:
    if count.difference is not None and (count.table or count.hand):
        _fail(
            "difference-and-points",
            "give {name}'s table and hand points or their difference, not both",
            field="counts",
            name=player,
        )
    for what, value in (("table", count.table), ("hand", count.hand)):
        if not 0 <= value <= DECK_POINTS:
            _fail(
                "points-range",
                "{name}'s {what} points must be 0 to {most} (the whole deck)",
                field="counts",
                name=player,
                what=what,
                most=DECK_POINTS,
            )
    if abs(count.points) > DECK_POINTS:
        _fail(
            "points-range",
            "{name}'s difference must be within ±{most} (the whole deck)",
            field="counts",
            name=player,
            most=DECK_POINTS,
        )
    if count.points % 5 or count.table % 5 or count.hand % 5:
        _fail(
            "points-fives",
            "{name}'s points must come in fives: every card counts 5, 10, 15 or 50",
            field="counts",
            name=player,
        )
    knocker = deal.knock is not None and deal.knock.player == player
    if knocker and not count.collected:
        _fail(
            "knocker-collected",
            "a knocker who never collected knocked dark: say so in the knock kind",
            field="counts",
        )
    if knocker and (count.hand or count.points < 0):
        _fail(
            "knocker-hand",
            "{name} knocked, so holds no cards: the knock card is the bonus, not hand points",
            field="counts",
            name=player,
        )
    # The source: until a player collects (เกิด) they can lay nothing on the table.
    if not count.collected and (count.table or count.points > 0):
        _fail(
            "sleeper-table",
            "{name} never collected, so laid nothing on the table",
            field="counts",
            name=player,
        )
    for kind, n in count.penalties.items():
        if n < 0:
            _fail(
                "penalty-negative",
                "{name} cannot have fewer than 0 {kind} penalties",
                field="counts",
                name=player,
                kind=kind,
            )
        if n and deal.house.penalty(kind) == 0:
            _fail(
                "house-not-played",
                "{name} has a {kind} penalty, but the house does not play it (its amount is 0)",
                field="counts",
                name=player,
                kind=kind,
            )


def _validate_knock(deal: Deal) -> None:
    # The fool sits just before the knocker, but which side depends on the direction of play,
    # which a previous fool may have reversed: the seat is not checked.
    if deal.fool is None:
        return
    if deal.knock is None:
        _fail(
            "fool-without-knock",
            "a fool discard lets the next player knock: a stock-out deal has no fool",
            field="fool",
        )
    elif deal.fool == deal.knock.player:
        _fail("knocker-fool", "the knocker cannot be the fool discarder", field="fool")


def _validate_head(deal: Deal) -> None:
    head = deal.head
    if head is None:
        return
    if (head.speto and deal.house.head_speto == 0) or (not head.speto and deal.house.head == 0):
        _fail(
            "house-not-played",
            "the head card was reported, but the house does not play it (its amount is 0)",
            field="head",
        )
    knocker = deal.knock is not None and deal.knock.player == head.player
    # Picking up the head is collecting; only a dark knocker picks up and knocks at once.
    if not knocker and not deal.counts[head.player].collected:
        _fail(
            "head-sleeper",
            "{name} picked up the head card, so collected: they cannot be a dark sleeper",
            field="head",
            name=head.player,
        )


def _validate_penalties(deal: Deal) -> None:
    tally: Counter[Penalty] = Counter()
    for player in deal.players:
        penalties = deal.counts[player].penalties
        tally.update(penalties)
        if penalties.get(Penalty.HEAD_CLOSE, 0) > 1:
            _fail(
                "head-close-twice",
                "{name} can close-discard the one head card once at most",
                field="counts",
                name=player,
            )
        if penalties.get(Penalty.HEAD_CLOSE) and (deal.head is None or deal.head.player == player):
            # The source: the close discard costs only if another player picked up the head.
            _fail(
                "head-close-without-head",
                "{name}'s head close discard needs another player to have picked up the head",
                field="counts",
                name=player,
            )
    for kind in (Penalty.SPETO_CLOSE, Penalty.SPETO_LAID_OFF):
        if tally[kind] > len(SPETOS):  # each Speto is melded, or laid off, once
            _fail(
                "speto-penalty-count",
                "{n} {kind} penalties, but the deck has only {most} Spetos",
                field="counts",
                n=tally[kind],
                kind=str(kind),
                most=len(SPETOS),
            )
    if tally[Penalty.SPETO_DEFENCE] > 1:
        _fail(
            "speto-defence-twice",
            "only the first discard of a deal can be a Speto-defence discard",
            field="counts",
        )
