"""Gong Zhu (ไพ่จับหมู): the second game of docs/rules/other-games.md.

Which point cards each player captured in a deal goes in (`Deal`); each player's score comes out
(`DealScore`); scores add up toward an agreed target (`Standing`), settled pairwise on the
final totals (`pairwise`). "The page" is that file; "the source" is the Thai Wikipedia article it
follows (ไพ่จับหมู).
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from scorekeeper.rules import scoresheet
from scorekeeper.rules.errors import RuleError

RULES = "gong-zhu"
PLAYERS_FULL = 4
PLAYERS_SHORT = 3  # หมูพิการ: one random card is taken out of each deal
BIG_SHUAN = 1000  # บิ๊กช้วน, flat
SHUAN_HEARTS = 194  # ช้วน: the thirteen hearts count plus instead of minus
SHUAN_PIG = 100  # the Q♠ taken by the Shuan player
PIG_IN_SHUAN_OPTIONS = (-100, 100)  # the Q♠ taken by someone else in a Shuan deal
NO_POINT_CARDS_OPTIONS = (-50, 0)  # the source's −50, or a house's 0
GLASS_ALONE = 50  # 10♣ (กระจก) as the only point card


class Card(StrEnum):
    """The sixteen point cards, written suit then rank."""

    H2 = "H2"
    H3 = "H3"
    H4 = "H4"
    H5 = "H5"
    H6 = "H6"
    H7 = "H7"
    H8 = "H8"
    H9 = "H9"
    H10 = "H10"
    HJ = "HJ"
    HQ = "HQ"
    HK = "HK"
    HA = "HA"
    SQ = "SQ"  # หมู, the pig (แหม่มดำ)
    DJ = "DJ"  # แจ็คเหลี่ยม
    C10 = "C10"  # กระจก, the glass

    @property
    def label(self) -> str:
        """Return the card as the table says it: 10♥, Q♠, 10♣."""
        return self.value[1:] + {"H": "♥", "S": "♠", "D": "♦", "C": "♣"}[self.value[0]]


HEARTS = tuple(c for c in Card if c.value.startswith("H"))
CARD_POINTS = {
    **{Card(f"H{n}"): -n for n in range(2, 11)},
    Card.HJ: -20,
    Card.HQ: -30,
    Card.HK: -40,
    Card.HA: -50,
    Card.SQ: -100,
    Card.DJ: 100,
    Card.C10: 0,  # the glass doubles; alone it is GLASS_ALONE
}


class Direction(StrEnum):
    """Which way the agreed target lies (the source: +500 or −500, or ±1000)."""

    DOWN = "down"  # ends at −points: the first there is the pig
    UP = "up"  # ends at +points
    EITHER = "either"  # ends at whichever is reached first


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The two house options of the page; the defaults are the source's."""

    no_point_cards: int = -50  # a player who captured no point card: −50, or 0 by house option
    pig_in_shuan: int = -100  # the Q♠ taken by someone else in a Shuan deal: −100 or +100


PAGE_HOUSE = HouseRules()


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal of Gong Zhu as the table reports it: the point cards each player captured."""

    players: tuple[str, ...]
    captured: Mapping[str, tuple[Card, ...]]  # a player left out captured no point card
    house: HouseRules = PAGE_HOUSE

    def cards(self, player: str) -> frozenset[Card]:
        return frozenset(self.captured.get(player, ()))


@dataclass(frozen=True, slots=True)
class DealScore:
    """What a deal scores, with its Shuan, Big Shuan and the point card left out, if any."""

    scores: Mapping[str, int]
    shuan: str | None = None
    big_shuan: str | None = None
    missing: Card | None = None  # a three-player deal's point card taken out with the spare card


@dataclass(frozen=True, slots=True)
class Target:
    """The agreed end of the match: a number of points and the direction it lies in."""

    points: int = 500
    direction: Direction = Direction.DOWN

    def reached_down(self, total: int) -> bool:
        return self.direction is not Direction.UP and total <= -self.points

    def reached_up(self, total: int) -> bool:
        return self.direction is not Direction.DOWN and total >= self.points


PAGE_TARGET = Target()  # the source's example: the first to −500 is the pig


@dataclass(frozen=True, slots=True)
class Standing:
    """Where the match stands after some deals."""

    totals: Mapping[str, int]
    target: Target
    ended: bool
    winners: tuple[str, ...]  # the highest total once the match has ended
    pigs: tuple[str, ...]  # หมู: the lowest total at the negative target, once reached


@dataclass(frozen=True, slots=True)
class Payment:
    """Points one player owes another on the final totals: the difference of the two."""

    payer: str
    payee: str
    points: int


# -- a deal's scores -----------------------------------------------------------------------------


def score_deal(deal: Deal) -> DealScore:
    """Score a deal by the page's table, Shuan and Big Shuan included."""
    validate(deal)
    # The page asks for all thirteen hearts (all sixteen point cards for a Big Shuan), so a
    # three-player deal whose missing card is a heart (a point card) has none.
    shuan = next((p for p in deal.players if deal.cards(p) >= set(HEARTS)), None)
    big_shuan = next((p for p in deal.players if deal.cards(p) == set(Card)), None)
    scores = {
        p: player_score(deal.cards(p), deal.house, shuan=shuan, player=p) for p in deal.players
    }
    captured = set().union(*(deal.cards(p) for p in deal.players))
    missing = next((c for c in Card if c not in captured), None)
    return DealScore(scores, shuan, big_shuan, missing)


def player_score(
    cards: frozenset[Card], house: HouseRules, *, shuan: str | None, player: str
) -> int:
    """Return one player's score for the point cards they captured (page: the table)."""
    if cards == set(Card):
        # Big Shuan is "+1000 flat": the glass does not double it.
        return BIG_SHUAN
    if not cards:  # in a Big Shuan deal too: the page makes no exception for the others
        return house.no_point_cards
    if cards == {Card.C10}:
        return GLASS_ALONE
    pig = CARD_POINTS[Card.SQ]
    hearts = sum(CARD_POINTS[c] for c in cards if c in HEARTS)
    if shuan == player:
        pig, hearts = SHUAN_PIG, SHUAN_HEARTS
    elif shuan is not None:
        pig = house.pig_in_shuan
    total = (
        hearts
        + (pig if Card.SQ in cards else 0)
        + (CARD_POINTS[Card.DJ] if Card.DJ in cards else 0)
    )
    # The page says the glass "doubles the player's total": a Shuan total too.
    return 2 * total if Card.C10 in cards else total


# -- the match -----------------------------------------------------------------------------------


def standing(totals: Mapping[str, int], target: Target = PAGE_TARGET) -> Standing:
    """Return the match's state: over once a total reaches the target; the pig is the lowest."""
    if target.points <= 0:
        _fail("target-positive", "the target's points must be more than 0", field="target")
    down = [p for p, t in totals.items() if target.reached_down(t)]
    ended = bool(down) or any(target.reached_up(t) for t in totals.values())
    if not ended:
        return Standing(dict(totals), target, False, (), ())
    top = max(totals.values())
    winners = tuple(p for p, t in totals.items() if t == top)
    # Several past the negative target in one deal: the lowest total is the pig, equal ones share.
    bottom = min((totals[p] for p in down), default=None)
    pigs = tuple(p for p in down if totals[p] == bottom)
    return Standing(dict(totals), target, True, winners, pigs)


def next_standing(totals: Mapping[str, int], scores: Mapping[str, int], target: Target) -> Standing:
    """Add one deal's scores to the totals, refusing a deal after the match has ended."""
    ended = standing(totals, target).ended
    return standing(scoresheet.add_deal(totals, scores, ended=ended), target)


def play_match(
    players: Iterable[str], deals: Iterable[Mapping[str, int]], target: Target = PAGE_TARGET
) -> Standing:
    """Add up deals' scores from zero; refuse any deal after the one that ended the match."""
    state = standing(dict.fromkeys(players, 0), target)
    for scores in deals:
        state = next_standing(state.totals, scores, target)
    return state


def pairwise(totals: Mapping[str, int]) -> tuple[Payment, ...]:
    """Have each player pay every player with a higher total the difference (page: money)."""
    names = list(totals)
    payments = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if totals[a] > totals[b]:
                payments.append(Payment(b, a, totals[a] - totals[b]))
            elif totals[b] > totals[a]:
                payments.append(Payment(a, b, totals[b] - totals[a]))
    return tuple(payments)


def pairwise_net(totals: Mapping[str, int]) -> dict[str, int]:
    """Return what each player receives in all, net, from the pairwise payments."""
    net = dict.fromkeys(totals, 0)
    for payment in pairwise(totals):
        net[payment.payer] -= payment.points
        net[payment.payee] += payment.points
    return net


# -- validation ----------------------------------------------------------------------------------


def _fail(code: str, template: str, *, field: str = "", **params: object) -> None:
    raise RuleError(code, template, field=field, **params)


def validate(deal: Deal) -> None:
    """Raise RuleError for the first thing in `deal` that cannot be so."""
    n = len(deal.players)
    if n not in (PLAYERS_SHORT, PLAYERS_FULL):
        _fail("players-count", "Gong Zhu needs 4 players (or 3), not {n}", field="players", n=n)
    for p in deal.players:
        if not p.strip():
            _fail("player-name", "every player needs a name", field="players")
    if len(set(deal.players)) != n:
        twice = next(p for p in deal.players if deal.players.count(p) > 1)
        _fail("player-repeated", "{name} is named twice in players", field="players", name=twice)
    if deal.house.no_point_cards not in NO_POINT_CARDS_OPTIONS:
        _fail("house-no-point-cards", "no_point_cards must be -50 or 0", field="house")
    if deal.house.pig_in_shuan not in PIG_IN_SHUAN_OPTIONS:
        _fail("house-pig-in-shuan", "pig_in_shuan must be -100 or 100", field="house")
    holder: dict[Card, str] = {}
    for player, cards in deal.captured.items():
        if player not in deal.players:
            _fail(
                "unknown-player",
                "captured names {name}, who is not at the table",
                field="captured",
                name=player,
            )
        for card in cards:
            if holder.get(card) == player:
                _fail(
                    "card-repeated",
                    "{card} is listed twice for {name}",
                    field="captured",
                    card=card.label,
                    name=player,
                )
            if card in holder:
                _fail(
                    "card-shared",
                    "{card} is listed for both {first} and {second}: one player took it",
                    field="captured",
                    card=card.label,
                    first=holder[card],
                    second=player,
                )
            holder[card] = player
    missing = [c.label for c in Card if c not in holder]
    if n == PLAYERS_FULL and missing:
        _fail(
            "card-missing",
            "nobody captured {cards}: in a four-player deal every point card is taken",
            field="captured",
            cards=", ".join(missing),
        )
    if n == PLAYERS_SHORT and len(missing) > 1:
        _fail(
            "cards-missing",
            "nobody captured {cards}: a three-player deal leaves out one card at most",
            field="captured",
            cards=", ".join(missing),
        )
