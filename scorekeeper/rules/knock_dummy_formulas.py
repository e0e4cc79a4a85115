"""What each loser hands the knocker, in the terms of rules 86-87 (การคิดแต้มโดยใช้สูตร).

Thai tables settle a knock game by each loser handing the knocker one amount. Those amounts are the
after-game nets of the ledger lines; for the cases of rules 86-87 this module also gives the rule
book's formula, so a player can check the amount against it.
"""

from dataclasses import dataclass
from typing import Any

from scorekeeper.rules.knock_dummy import Due, Game, Item, Settlement

# A term's symbol: the value of one unit of it, as the rule book names them.
LV = "lv"  # the player's level × K × S (ลำดับขั้นการเสียแต้ม × จำนวนเท่า)
FOOL = "fool"  # M × K (ค่าโง่อัตราเสียกลาง × จำนวนเท่าของประเภทการตีโง่)
KNOCK = "knock"  # M × K (ค่าน็อกตามประเภทการน็อก)
HOLD = "hold"  # 2 × M (ค่าอมสเปโต)
SPETO = "speto"  # M per Speto the knocker picked up to knock (ค่าสเปโต)
FACE_DOWN = "face-down"  # what the face-down card earns (ค่าคว่ำ)
TOTAL = "total"  # other losers' lines paid by the total payer (เหมา, 82)
MISC = "other"  # anything else between losers


@dataclass(frozen=True, slots=True)
class Term:
    coefficient: int
    symbol: str
    value: int  # of one unit


@dataclass(frozen=True, slots=True)
class Handover:
    """What one loser hands the knocker after the game (negative: receives from the knocker)."""

    player: str
    amount: int
    terms: tuple[Term, ...]
    case: str | None = None  # "86.1" … "87.4" when the rule book's formula applies

    def formula(self) -> str:
        """Return the terms as the rule book writes them, e.g. `5 × fool + lv − hold`."""
        return _join((c, s) for c, s, _ in self._parts())

    def worked(self) -> str:
        """Return the formula with numbers, e.g. `5 × 400 + 400 − 400 = 2000`."""
        amount = f"−{-self.amount}" if self.amount < 0 else str(self.amount)
        return f"{_join((c, str(v)) for c, _, v in self._parts())} = {amount}"

    def _parts(self) -> list[tuple[int, str, int]]:
        return [(t.coefficient, t.symbol, t.value) for t in self.terms if t.coefficient]


def _join(parts: Any) -> str:
    text = ""
    for coefficient, name in parts:
        sign = "−" if coefficient < 0 else "+"
        size = abs(coefficient)
        word = name if size == 1 else f"{size} × {name}"
        text = f"{sign} {word}" if not text else f"{text} {sign} {word}"
    text = text or "0"
    return text[2:] if text.startswith("+ ") else text.replace("− ", "−", 1)


def handovers(game: Game, settlement: Settlement) -> list[Handover]:
    """Return what each loser of a knock game hands the knocker, with its formula."""
    knocker = settlement.knocker
    if knocker is None:
        return []
    net = settlement.net(Due.AFTER_GAME)
    losers = [p for p in game.players if p != knocker]
    cases = _cases(game, settlement, losers)
    result = []
    for x in losers:
        amount = -net[x]
        case = cases.get(x)
        terms = case[1] if case else _generic_terms(game, settlement, x)
        result.append(Handover(x, amount, terms, case[0] if case else None))
    return result


def _units(game: Game) -> dict[str, int]:
    assert game.knock is not None
    m, k = game.medium, game.knock.multiplier
    return {FOOL: m * k, KNOCK: m * k, HOLD: 2 * m}


def _lv(settlement: Settlement, player: str) -> int:
    return sum(
        line.amount for line in settlement.lines if line.item is Item.LEVEL and line.payer == player
    )


def _cases(
    game: Game, settlement: Settlement, losers: list[str]
) -> dict[str, tuple[str, tuple[Term, ...]]]:
    """Return, for each loser, the rule 86-87 case and its terms, when one applies."""
    knock = game.knock
    assert knock is not None
    if game.total or knock.speto_picked or knock.face_down or knock.speto_held > 1:
        return {}
    holders = [p for p in losers if game.speto_held.get(p)]
    if any(game.speto_held[p] > 1 for p in holders):
        return {}
    fool = game.fool
    if fool is None and not holders:
        return {}
    if knock.speto_held and (fool is not None or len(holders) != 1):
        return {}
    units = _units(game)

    def terms(player: str, **coefficients: int) -> tuple[Term, ...]:
        lv = Term(1, LV, _lv(settlement, player))
        named = [Term(c, s, units[s]) for s, c in coefficients.items()]
        return (*named[:1], lv, *named[1:]) if fool == player else (lv, *named)

    table: dict[str, tuple[str, tuple[Term, ...]]] = {}
    others = [p for p in losers if p != fool and p not in holders]
    if fool is not None:
        others_hold = [h for h in holders if h != fool]
        fool_holds = fool in holders
        if not holders:
            case = "86.1"
            table[fool] = (case, terms(fool, fool=5))
            per_other = 0
        elif not fool_holds and len(others_hold) == 1:
            case = "86.2"
            table[fool] = (case, terms(fool, fool=5, hold=-1))
            table[others_hold[0]] = ("87.4", terms(others_hold[0], hold=3))
            per_other = -1
        elif fool_holds and not others_hold:
            case = "86.3"
            table[fool] = (case, terms(fool, fool=5, hold=3))
            per_other = -1
        elif fool_holds and len(others_hold) == 1:
            case = "86.4"
            table[fool] = (case, terms(fool, fool=5, hold=2))
            table[others_hold[0]] = (case, terms(others_hold[0], hold=2))
            per_other = -2
        else:  # two holders besides the fool: no formula in the rule book
            return {}
        for x in others:
            table[x] = (case, terms(x, hold=per_other))
    elif knock.speto_held:
        case = "87.3"
        table[holders[0]] = (case, terms(holders[0], hold=4, knock=1))
        for x in others:
            table[x] = (case, terms(x, knock=1))
    else:
        case, hold = ("87.1", 3) if len(holders) == 1 else ("87.2", 2)
        for h in holders:
            table[h] = (case, terms(h, hold=hold, knock=1))
        for x in others:
            table[x] = (case, terms(x, knock=1, hold=-len(holders)))
    return table


def _generic_terms(game: Game, settlement: Settlement, player: str) -> tuple[Term, ...]:
    """Break a loser's after-game net down by item, for games outside rules 86-87."""
    unit = {**_units(game), SPETO: game.medium, FACE_DOWN: game.medium}
    symbol_of = {
        Item.LEVEL: LV,
        Item.KNOCK: KNOCK,
        Item.FOOL: FOOL,
        Item.FOOL_ROUND: FOOL,
        Item.SPETO_HOLD: HOLD,
        Item.KNOCKER_SPETO_HELD: HOLD,
        Item.KNOCKER_SPETO_PICKED: SPETO,
        Item.FACE_DOWN_DUMMY: FACE_DOWN,
        Item.FACE_DOWN_SPETO: FACE_DOWN,
    }
    amounts: dict[str, int] = {}
    for line in settlement.lines:
        if line.due is not Due.AFTER_GAME or player not in (line.payer, line.payee):
            continue
        symbol = TOTAL if line.instead_of else symbol_of.get(line.item, MISC)
        amounts[symbol] = amounts.get(symbol, 0) + (
            line.amount if line.payer == player else -line.amount
        )
    terms = []
    for symbol in (LV, FOOL, KNOCK, HOLD, SPETO, FACE_DOWN, TOTAL, MISC):
        amount = amounts.get(symbol, 0)
        if symbol in unit:
            terms.append(Term(amount // unit[symbol], symbol, unit[symbol]))
        elif amount:
            terms.append(Term(1 if amount > 0 else -1, symbol, abs(amount)))
    return tuple(terms)


def handovers_to_document(game: Game, settlement: Settlement) -> list[dict[str, Any]]:
    """Write the handovers for the settle command's --formulas output."""
    return [
        {
            "player": h.player,
            "amount": h.amount,
            "case": h.case,
            "formula": h.formula(),
            "worked": h.worked(),
        }
        for h in handovers(game, settlement)
    ]
