"""Forms of the score sheets: opening classic Dummy or Gong Zhu, and entering one hand.

Each turns what was tapped into the engine's words (docs/rules/other-games.md): the house options
and the target of a night, the `counts`/`knock`/`fool`/`head` or the `captured` of a hand.
"""

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from scorekeeper.forms.fields import NAME, NUMBER, POINT_VALUE, NameField, _choices
from scorekeeper.names import cleaned
from scorekeeper.numbers import AmountField, WholeNumberField
from scorekeeper.reads.scoresheet import KIND_LABELS, PENALTY_LABELS
from scorekeeper.rules.dummy_points import DECK_POINTS, PAGE_HOUSE, KnockKind, Penalty
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.gong_zhu import CARD_POINTS, GLASS_ALONE, HEARTS, Card, Direction

SEATS = 4
SEAT_FIELDS = [f"seat_{i}" for i in range(1, SEATS + 1)]

HOUSE_AMOUNTS = {
    "dummy_discard": PENALTY_LABELS[Penalty.DUMMY_DISCARD],
    "full_discard": PENALTY_LABELS[Penalty.FULL_DISCARD],
    "head_close": PENALTY_LABELS[Penalty.HEAD_CLOSE],
    "speto_close": PENALTY_LABELS[Penalty.SPETO_CLOSE],
    "speto_defence": PENALTY_LABELS[Penalty.SPETO_DEFENCE],
    "speto_laid_off": PENALTY_LABELS[Penalty.SPETO_LAID_OFF],
    "head": _("Picking up the head card (เก็บหัว)"),
    "head_speto": _("Picking up a Speto head card (หัวสเปโต)"),
}
HOUSE_FLAGS = {
    "knock_card_speto_100": _("A Speto knock card is worth 100"),
    "knock_card_lay_off_100": _("A knock card that could have been laid off is worth 100"),
    "ace_in_run_10": _("An A laid in a Q-K-A run counts 10"),
}
DIRECTION_LABELS = {
    Direction.DOWN: _("Down: ends at −target, the first there is the pig (หมู)"),
    Direction.UP: _("Up: ends at +target"),
    Direction.EITHER: _("Either way: ends at ±target"),
}
SUIT_LABELS = {"H": _("Hearts ♥"), "S": _("Spades ♠"), "D": _("Diamonds ♦"), "C": _("Clubs ♣")}
NOT_DEALT = "out"  # a three-player deal's card taken out with the spare card


# -- opening a night ---------------------------------------------------------------------------


class ScoresheetOpenForm(forms.Form):
    """Players in seat order and the first dealer; the game's own settings in subclasses."""

    fewest = 2
    seat_1 = NameField(label=_("Seat 1"), max_length=40, widget=forms.TextInput(attrs=NAME))
    seat_2 = NameField(label=_("Seat 2"), max_length=40, widget=forms.TextInput(attrs=NAME))
    seat_3 = NameField(
        label=_("Seat 3"), max_length=40, required=False, widget=forms.TextInput(attrs=NAME)
    )
    seat_4 = NameField(
        label=_("Seat 4"), max_length=40, required=False, widget=forms.TextInput(attrs=NAME)
    )
    first_dealer = forms.TypedChoiceField(
        label=_("First dealer (ผู้แจกไพ่คนแรก)"),
        choices=[(i, format_lazy("{} {}", _("Seat"), i)) for i in range(1, SEATS + 1)],
        coerce=int,
        initial=1,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in SEAT_FIELDS[: self.fewest]:
            self.fields[name].required = True

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in SEAT_FIELDS]

    def names(self) -> list[str]:
        return [n for n in (self.cleaned_data[f] for f in SEAT_FIELDS) if n]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        names = [cleaned(str(data.get(f) or "")) for f in SEAT_FIELDS]
        for i, name in enumerate(names):
            data[SEAT_FIELDS[i]] = name
            if name and names.index(name) != i:
                self.add_error(SEAT_FIELDS[i], _("%(name)s is already seated") % {"name": name})
        seated = [i for i, name in enumerate(names) if name]
        dealer = data.get("first_dealer")
        if dealer is not None and dealer - 1 not in seated:
            self.add_error("first_dealer", _("Nobody sits in that seat."))
        return data

    def dealer_index(self) -> int:
        """Return the first dealer's place among the players, empty seats left out."""
        seat = self.cleaned_data["first_dealer"] - 1
        return sum(1 for f in SEAT_FIELDS[:seat] if self.cleaned_data[f])

    def scoresheet_house(self) -> dict[str, Any]:
        raise NotImplementedError

    def scoresheet_target(self) -> Any:
        raise NotImplementedError

    def scoresheet_point_value(self) -> Decimal:
        return Decimal(0)


def _amount(label: Any, initial: int) -> WholeNumberField:
    return WholeNumberField(
        label=label, min_value=0, max_value=1000, initial=initial, widget=forms.TextInput(NUMBER)
    )


def _target(label: Any) -> WholeNumberField:
    return WholeNumberField(
        label=label, min_value=1, max_value=100_000, initial=500, widget=forms.TextInput(NUMBER)
    )


class DummyOpenForm(ScoresheetOpenForm):
    """Classic Dummy to 500 (ดัมมี่จดแต้ม): 2 to 4 players, the target and the house options."""

    fewest = 2
    target = _target(_("Target (แต้มเข้าเส้น)"))
    knock_card_speto_100 = forms.BooleanField(
        label=HOUSE_FLAGS["knock_card_speto_100"], required=False
    )
    knock_card_lay_off_100 = forms.BooleanField(
        label=HOUSE_FLAGS["knock_card_lay_off_100"], required=False
    )
    ace_in_run_10 = forms.BooleanField(
        label=HOUSE_FLAGS["ace_in_run_10"],
        required=False,
        help_text=_("Count it so when you add up the table points."),
    )
    dummy_discard = _amount(HOUSE_AMOUNTS["dummy_discard"], PAGE_HOUSE.dummy_discard)
    full_discard = _amount(HOUSE_AMOUNTS["full_discard"], PAGE_HOUSE.full_discard)
    head_close = _amount(HOUSE_AMOUNTS["head_close"], PAGE_HOUSE.head_close)
    speto_close = _amount(HOUSE_AMOUNTS["speto_close"], PAGE_HOUSE.speto_close)
    speto_defence = _amount(HOUSE_AMOUNTS["speto_defence"], PAGE_HOUSE.speto_defence)
    speto_laid_off = _amount(HOUSE_AMOUNTS["speto_laid_off"], PAGE_HOUSE.speto_laid_off)
    head = _amount(HOUSE_AMOUNTS["head"], PAGE_HOUSE.head)
    head_speto = _amount(HOUSE_AMOUNTS["head_speto"], PAGE_HOUSE.head_speto)

    def flag_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in HOUSE_FLAGS]

    def amount_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in HOUSE_AMOUNTS]

    def scoresheet_house(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in [*HOUSE_FLAGS, *HOUSE_AMOUNTS]}

    def scoresheet_target(self) -> int:
        value: int = self.cleaned_data["target"]
        return value


class GongZhuOpenForm(ScoresheetOpenForm):
    """Gong Zhu (ไพ่จับหมู): 3 or 4 players, the target, the house options and the money."""

    fewest = 3
    target_points = _target(_("Target (points)"))
    direction = forms.ChoiceField(
        label=_("The match ends"),
        choices=list(DIRECTION_LABELS.items()),
        initial=Direction.DOWN,
        widget=forms.RadioSelect,
    )
    no_point_cards = forms.TypedChoiceField(
        label=_("A player who took no point card"),
        choices=[(-50, "−50"), (0, "0")],
        coerce=int,
        initial=-50,
        widget=forms.RadioSelect,
    )
    pig_in_shuan = forms.TypedChoiceField(
        label=_("Q♠ taken by someone else in a Shuan (ช้วน) deal"),
        choices=[(-100, "−100"), (100, "+100")],
        coerce=int,
        initial=-100,
        widget=forms.RadioSelect,
    )
    point_value = AmountField(
        label=_("Baht per point"),
        initial=Decimal(1),
        help_text=_("0: for no money. Settled pairwise on the final totals."),
        **POINT_VALUE,
    )

    def scoresheet_house(self) -> dict[str, Any]:
        return {
            "no_point_cards": self.cleaned_data["no_point_cards"],
            "pig_in_shuan": self.cleaned_data["pig_in_shuan"],
        }

    def scoresheet_target(self) -> dict[str, Any]:
        return {
            "points": self.cleaned_data["target_points"],
            "direction": self.cleaned_data["direction"],
        }

    def scoresheet_point_value(self) -> Decimal:
        value: Decimal = self.cleaned_data["point_value"]
        return value


# -- a hand of Gong Zhu --------------------------------------------------------------------------


def card_points(card: Card) -> str:
    """The card's value as the sheet shows it: −10, −100, +100, ×2."""
    if card is Card.C10:
        return f"×2 / +{GLASS_ALONE}"
    points = CARD_POINTS[card]
    return f"+{points}" if points > 0 else f"−{-points}"


class GongZhuHandForm(forms.Form):
    """Who took each of the sixteen point cards: one radio group a card, so one taker each."""

    def __init__(self, *args: Any, players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = players
        self.choices: list[tuple[str, Any]] = [(str(i), p) for i, p in enumerate(players)]
        if len(players) == 3:
            self.choices.append((NOT_DEALT, _("not dealt")))
        for card in Card:
            self.fields[f"card_{card}"] = forms.ChoiceField(
                label=card.label,
                choices=self.choices,
                widget=forms.RadioSelect,
                error_messages={"required": _("Who took %(card)s?") % {"card": card.label}},
            )

    @property
    def columns(self) -> list[str]:
        """The grid's column heads: the players, and “not dealt” at a three-player table."""
        return [str(label) for _, label in self.choices]

    def suits(self) -> list[dict[str, Any]]:
        """The cards laid out by suit, each with its points and its radio group."""
        rows: dict[str, dict[str, Any]] = {}
        for card in Card:
            suit = rows.setdefault(
                card.value[0], {"label": SUIT_LABELS[card.value[0]], "cards": []}
            )
            field = self[f"card_{card}"]
            suit["cards"].append(
                {"card": card, "points": card_points(card), "field": field, "red": card.value[0]
                 in "HD"}
            )  # fmt: skip
        return list(rows.values())

    def _takers(self, data: dict[str, Any]) -> dict[Card, str]:
        takers = {}
        for card in Card:
            value = data.get(f"card_{card}")
            if value and value != NOT_DEALT:
                takers[card] = self.players[int(value)]
        return takers

    def hand(self) -> dict[str, Any]:
        """Return the hand as the engine's `captured`: each player's point cards."""
        captured: dict[str, list[str]] = {p: [] for p in self.players}
        for card, player in self._takers(self.cleaned_data).items():
            captured[player].append(str(card))
        return {"captured": {p: cards for p, cards in captured.items() if cards}}

    def entered(self) -> int:
        """How many cards have an answer so far (valid ones: call after is_valid)."""
        return sum(1 for card in Card if self.cleaned_data.get(f"card_{card}"))

    def shuan_so_far(self) -> str | None:
        """Who holds every heart among the answers so far: a Shuan in the making."""
        takers = self._takers(self.cleaned_data)
        holders = {takers.get(card) for card in HEARTS}
        return holders.pop() if len(holders) == 1 else None

    def field_for(self, error: RuleError) -> str | None:
        """Return the form field where an engine error belongs; None: above the cards."""
        label = error.params.get("card")
        card = next((c for c in Card if c.label == label), None)
        return f"card_{card}" if card is not None else None


# -- a hand of classic Dummy ---------------------------------------------------------------------

STOCK_OUT = "stock-out"
PENALTIES_SHOWN = 4  # 0-3 of a kind in one hand: more is a typo
COUNT_WORDS = {"table": _("table"), "hand": _("hand"), "difference": _("table − hand")}


class DummyHandForm(forms.Form):
    """One hand of classic Dummy: everyone's count, the knock, the fool, the head, penalties."""

    knocker = forms.ChoiceField(
        label=_("Who knocked? (ผู้น็อก)"),
        widget=forms.RadioSelect,
        error_messages={"required": _("Who knocked? Or did the stock run out?")},
    )
    kind = forms.ChoiceField(
        label=_("Knock kind"),
        choices=list(KIND_LABELS.items()),
        initial=KnockKind.NORMAL,
        widget=forms.RadioSelect,
    )
    knock_speto = forms.BooleanField(label=_("The knock card was a Speto"), required=False)
    could_lay_off = forms.BooleanField(
        label=_("The knock card could have been laid off"), required=False
    )
    fool = forms.ChoiceField(
        label=_("Fool discard (ทิ้งโง่) by"), required=False, widget=forms.RadioSelect
    )
    head = forms.ChoiceField(
        label=_("Picked up the head card (เก็บหัว)"), required=False, widget=forms.RadioSelect
    )
    head_speto = forms.BooleanField(label=_("The head card was a Speto"), required=False)
    dark = forms.MultipleChoiceField(
        label=_("Never collected: dark sleeper (ลบมืด) ×2"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    by_difference = forms.BooleanField(
        label=_("Enter only the difference (table − hand)"), required=False
    )

    def __init__(
        self, *args: Any, players: list[str], house: dict[str, Any], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.players = players
        self.house = {**_house_defaults(), **house}
        choices: list[tuple[str, Any]] = [(p, p) for p in players]
        _choices(self, "knocker").choices = [
            *choices,
            (STOCK_OUT, _("Nobody: the stock ran out")),
        ]
        _choices(self, "fool").choices = [("", _("Nobody")), *choices]
        _choices(self, "head").choices = [("", _("Nobody")), *choices]
        _choices(self, "dark").choices = choices
        if not self.house["knock_card_speto_100"]:
            del self.fields["knock_speto"]
        if not self.house["knock_card_lay_off_100"]:
            del self.fields["could_lay_off"]
        if not self.house["head"] and not self.house["head_speto"]:
            del self.fields["head"]
        if not self.house["head"] or not self.house["head_speto"]:
            del self.fields["head_speto"]
        self.penalties = [kind for kind in Penalty if self.house[_house_key(kind)]]
        for i, player in enumerate(players):
            for what, words in COUNT_WORDS.items():
                self.fields[f"{what}_{i}"] = WholeNumberField(
                    label=player,
                    required=False,
                    min_value=-DECK_POINTS if what == "difference" else 0,
                    max_value=DECK_POINTS,
                    widget=forms.TextInput(attrs={**NUMBER, "aria-label": f"{player} · {words}"}),
                )
            for kind in self.penalties:
                label = f"{PENALTY_LABELS[kind]} · {player}"
                self.fields[_penalty_field(kind, i)] = forms.TypedChoiceField(
                    label=label,
                    choices=[(n, str(n)) for n in range(PENALTIES_SHOWN)],
                    coerce=int,
                    initial=0,
                    required=False,
                    widget=forms.Select(attrs={"aria-label": label}),
                )

    def count_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "player": player,
                "table": self[f"table_{i}"],
                "hand": self[f"hand_{i}"],
                "difference": self[f"difference_{i}"],
                "errors": [
                    *self[f"table_{i}"].errors,
                    *self[f"hand_{i}"].errors,
                    *self[f"difference_{i}"].errors,
                ],
            }
            for i, player in enumerate(self.players)
        ]

    def penalty_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "label": PENALTY_LABELS[kind],
                "fields": [self[_penalty_field(kind, i)] for i in range(len(self.players))],
            }
            for kind in self.penalties
        ]

    def penalties_entered(self) -> bool:
        """Whether any penalty was entered: its section then opens by itself."""
        return any(
            self.data.get(_penalty_field(kind, i)) not in (None, "", "0")
            for kind in self.penalties
            for i in range(len(self.players))
        )

    def penalty_errors(self) -> list[str]:
        return [
            str(e)
            for kind in self.penalties
            for i in range(len(self.players))
            for e in self[_penalty_field(kind, i)].errors
        ]

    def hand(self) -> dict[str, Any]:
        """Return the hand as the engine's `counts`, `knock`, `fool` and `head`."""
        data = self.cleaned_data
        counts: dict[str, Any] = {}
        for i, player in enumerate(self.players):
            count: dict[str, Any] = {}
            if data["by_difference"]:
                count["difference"] = data[f"difference_{i}"] or 0
            else:
                count["table"] = data[f"table_{i}"] or 0
                count["hand"] = data[f"hand_{i}"] or 0
            if player in data["dark"]:
                count["collected"] = False
            penalties = {
                str(kind): data[_penalty_field(kind, i)]
                for kind in self.penalties
                if data.get(_penalty_field(kind, i))
            }
            if penalties:
                count["penalties"] = penalties
            counts[player] = count
        hand: dict[str, Any] = {"counts": counts}
        if data["knocker"] != STOCK_OUT:
            knock: dict[str, Any] = {"player": data["knocker"], "kind": data["kind"]}
            if data.get("knock_speto"):
                knock["speto"] = True
            if data.get("could_lay_off"):
                knock["could_lay_off"] = True
            hand["knock"] = knock
            if data["fool"]:  # hidden when the stock ran out: a fool needs a knock
                hand["fool"] = data["fool"]
        if data.get("head"):
            speto = bool(data.get("head_speto")) or not self.house["head"]
            hand["head"] = {"player": data["head"], **({"speto": True} if speto else {})}
        return hand

    def field_for(self, error: RuleError) -> str | None:
        """Return the form field where an engine error belongs; None: above the form."""
        name = error.params.get("name")
        at = self.players.index(name) if name in self.players else None
        if error.code in ("head-close-twice", "head-close-without-head") and at is not None:
            return _penalty_field(Penalty.HEAD_CLOSE, at)
        if error.code == "speto-defence-twice" and Penalty.SPETO_DEFENCE in self.penalties:
            return _penalty_field(Penalty.SPETO_DEFENCE, 0)
        if error.code == "knocker-collected":
            return "dark"
        if error.field == "counts" and at is not None:
            return f"{'difference' if self.cleaned_data.get('by_difference') else 'table'}_{at}"
        return {"knock": "knocker", "fool": "fool", "head": "head"}.get(error.field)


def _house_key(kind: Penalty) -> str:
    return str(kind).replace("-", "_")


def _penalty_field(kind: Penalty, i: int) -> str:
    return f"penalty_{_house_key(kind)}_{i}"


def _house_defaults() -> dict[str, Any]:
    return {name: getattr(PAGE_HOUSE, name) for name in [*HOUSE_FLAGS, *HOUSE_AMOUNTS]}
