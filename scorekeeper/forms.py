"""Forms of the table's screens: each turns what was tapped into a service's arguments."""

import json
from decimal import Decimal
from typing import Any, cast

from django import forms
from django.utils.functional import lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scorekeeper.error_text import error_text
from scorekeeper.models import Player, Session, Transfer
from scorekeeper.names import cleaned
from scorekeeper.numbers import AmountField, WholeNumberField
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.knock_dummy import KnockKind, Level
from scorekeeper.rules.money import BAHT_MOST, POINT_VALUE_MOST, STAKE_MOST
from scorekeeper.rules.names import Fault, fault
from scorekeeper.rules.settle_up import STEPS as ROUNDING_STEPS
from scorekeeper.services import payments, settle_up

KIND_LABELS = {
    KnockKind.NORMAL: _("Normal knock (น็อกธรรมดา)"),
    KnockKind.DARK: _("Dark knock (น็อกมืด) ×2"),
    KnockKind.LIGHT_COLOR: _("Light colour knock (น็อกสีสว่าง) ×4"),
    KnockKind.DARK_COLOR: _("Dark colour knock (น็อกสีมืด) ×8"),
}
LEVEL_LABELS = {
    Level.LESS: _("Lose less (เสียน้อย)"),
    Level.MEDIUM: _("Lose medium (เสียกลาง)"),
    Level.MORE: _("Lose more (เสียมาก)"),
}
FACE_DOWN_LABELS = {
    "": _("No Speto or dummy face down"),
    "dummy": _("A dummy (คว่ำดัมมี่)"),
    "speto": _("A Speto (คว่ำสเปโต)"),
    "speto-dummy": _("A Speto that was also a dummy"),
}


def _choices(form: forms.Form, name: str) -> forms.ChoiceField:
    """Return a choice field of `form`, typed so its choices can be set per request."""
    return cast(forms.ChoiceField, form.fields[name])


NAME = {"list": "names", "autocomplete": "off", "autocapitalize": "words"}
# No `pattern`: Thai digits and a minus are read on the server (numbers.py), which says what is
# wrong in Thai; a phone's own check would refuse ๑๒๐ without a word.
NUMBER = {"inputmode": "numeric", "autocomplete": "off"}
# Baht with satang: a text field with the decimal pad, so ๔๐ or 1,200 reach numbers.py whole.
BAHT = forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"})


NAME_FAULTS = {
    Fault.EMPTY: _("This name has nothing visible in it: type a letter, a digit or an emoji."),
    Fault.HIDDEN: _("This name holds a control character or one no phone can show."),
}


class NameField(forms.CharField):
    """A name as the table types it: cleaned, and refused in the visitor's language when it
    cannot be a player's name (scorekeeper.rules.names, the one definition)."""

    def clean(self, value: Any) -> Any:
        typed = self.to_python(value) or ""  # stripped, as every text field
        name = cleaned(typed)
        why = fault(name or typed) if typed else None
        if why is not None:  # typed, yet nothing visible, or a character no phone can show
            raise forms.ValidationError(NAME_FAULTS[why], code=why.value)
        return super().clean(name)


def at_most(message: str, most: int | Decimal = 0) -> Any:
    """The message of a field's bound (rules.money) in the visitor's language, read when shown."""
    return lazy(lambda: gettext(message) % {"n": f"{most:,}"}, str)()


# What a real table plays (rules.money): refused where it is typed, with the bound in Thai.
STAKE: dict[str, Any] = {
    "min_value": 1,
    "max_value": STAKE_MOST,
    "error_messages": {"max_value": at_most("A rate is at most %(n)s points.", STAKE_MOST)},
    "required": False,
}
POINT_VALUE: dict[str, Any] = {
    "min_value": Decimal(0),
    "max_value": POINT_VALUE_MOST,
    "max_digits": 12,
    "decimal_places": 4,
    "error_messages": {
        "max_value": at_most("A point is worth at most %(n)s baht.", POINT_VALUE_MOST)
    },
}


class GroupForm(forms.Form):
    name = NameField(label=_("Name of the group (ชื่อก๊วน)"), max_length=80)
    # The creator is a member like any other: the others know them by this name, not "host 1".
    host_name = NameField(
        label=_("Your name in this group"),
        max_length=40,
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
        error_messages={"required": _("Give the name the others know you by.")},
    )


class SessionOpenForm(forms.Form):
    seat_1 = NameField(label=_("Seat 1"), max_length=40, widget=forms.TextInput(attrs=NAME))
    seat_2 = NameField(label=_("Seat 2"), max_length=40, widget=forms.TextInput(attrs=NAME))
    seat_3 = NameField(label=_("Seat 3"), max_length=40, widget=forms.TextInput(attrs=NAME))
    seat_4 = NameField(label=_("Seat 4"), max_length=40, widget=forms.TextInput(attrs=NAME))
    first_dealer = forms.TypedChoiceField(
        label=_("First dealer (ผู้ทำไพ่คนแรก)"),
        choices=[(i, format_lazy("{} {}", _("Seat"), i)) for i in range(1, 5)],
        coerce=int,
        initial=1,
    )
    stake_level = forms.ChoiceField(
        label=_("Stakes (ระดับการเล่น)"),
        choices=Session.StakeLevel.choices,
        initial=Session.StakeLevel.SIAN,
        widget=forms.RadioSelect,
    )
    less = WholeNumberField(label=_("Lose less"), **STAKE)
    medium = WholeNumberField(label=_("Lose medium"), **STAKE)
    more = WholeNumberField(label=_("Lose more"), **STAKE)
    fine = WholeNumberField(
        label=_("Fine (ค่าปรับรอบวง)"),
        min_value=1,
        max_value=STAKE_MOST,
        error_messages={
            "max_value": at_most("The fine must be more than 0 and at most %(n)s.", STAKE_MOST)
        },
        required=False,
        help_text=_("Leave empty to use the medium rate."),
    )
    point_value = AmountField(label=_("Baht per point"), initial=Decimal(1), **POINT_VALUE)
    pays = forms.ChoiceField(
        label=_("When is the money handed over?"),
        choices=[
            ("end", _("At the end of the night: one settle-up")),
            ("table", _("At the table, after every game and event (rules 80, 86-87)")),
        ],
        required=False,
        initial="end",
        widget=forms.RadioSelect,
    )

    def names(self) -> list[str]:
        return [self.cleaned_data[f"seat_{i}"] for i in range(1, 5)]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        names = [cleaned(str(data.get(f"seat_{i}", ""))) for i in range(1, 5)]
        for i, name in enumerate(names, start=1):
            if name and names.index(name) != i - 1:
                self.add_error(f"seat_{i}", _("%(name)s is already seated") % {"name": name})
        if data.get("stake_level") == Session.StakeLevel.CUSTOM:
            for rate in ("less", "medium", "more"):
                if data.get(rate) is None:
                    self.add_error(rate, _("Give all three rates for custom stakes."))
        return data

    def stakes(self) -> tuple[int, int, int] | None:
        if self.cleaned_data["stake_level"] != Session.StakeLevel.CUSTOM:
            return None
        return (self.cleaned_data["less"], self.cleaned_data["medium"], self.cleaned_data["more"])


class StartForm(forms.Form):
    head_color = forms.ChoiceField(
        label=_("Colour of this game's head card"),
        choices=[("", _("Not needed")), ("black", _("Black ♠♣")), ("red", _("Red ♥♦"))],
        required=False,
    )
    fool_swap = forms.BooleanField(
        label=_("Swap the seats of the fool discarder and the knocker (rule 17)"),
        required=False,
        initial=True,
    )
    # The number of the game this phone saw as next: a start sent after another phone's is refused.
    number = WholeNumberField(widget=forms.HiddenInput, required=False, min_value=1)


class EventForm(forms.Form):
    """One immediate event; which fields matter depends on its type."""

    player = forms.ChoiceField(label=_("Which player"))
    close = forms.MultipleChoiceField(
        label=_("Close discard by (ตีปี้ / ตีตัวกัน)"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    count = forms.TypedChoiceField(
        label=_("How many Spetos?"), choices=[(1, "1"), (2, "2")], coerce=int, initial=1
    )
    reason = forms.ChoiceField(
        label=_("Why"),
        choices=[
            ("misdeal", _("Misdeal (แจกไพ่ขาด/เกิน) 83.1")),
            ("false-knock", _("False knock, hand shown 83.2")),
            ("unmeldable-pickup", _("Picked up and could not meld 83.3")),
        ],
        initial="misdeal",
    )

    def __init__(self, *args: Any, players: list[str], event_type: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.event_type = event_type
        choices = [(p, p) for p in players]
        _choices(self, "player").choices = choices
        _choices(self, "close").choices = choices
        if event_type not in ("head", "speto"):
            del self.fields["close"]
        if event_type != "speto":
            del self.fields["count"]
        if event_type != "fine":
            del self.fields["reason"]

    def event(self) -> dict[str, Any]:
        """Return the event as the settle contract writes it."""
        event: dict[str, Any] = {"type": self.event_type, "player": self.cleaned_data["player"]}
        if self.cleaned_data.get("close"):
            event["close"] = self.cleaned_data["close"]
        if self.event_type == "speto" and self.cleaned_data["count"] != 1:
            event["count"] = self.cleaned_data["count"]
        if self.event_type == "fine":
            event["reason"] = self.cleaned_data["reason"]
        return event


class FinishForm(forms.Form):
    """The end of a game: how it ended and everything the settlement needs."""

    ending = forms.ChoiceField(
        label=_("How did the game end?"),
        choices=[("knock", _("Someone knocked (น็อก)")), ("stock-out", _("Stock ran out (จั่วหมด)"))],
        initial="knock",
        widget=forms.RadioSelect,
    )
    knocker = forms.ChoiceField(label=_("Knocker (ผู้น็อก)"), required=False, widget=forms.RadioSelect)
    kind = forms.ChoiceField(
        label=_("Knock kind"),
        choices=list(KIND_LABELS.items()),
        initial=KnockKind.NORMAL,
        widget=forms.RadioSelect,
    )
    fool = forms.ChoiceField(
        label=_("Fool discarder (ผู้ตีโง่)"), required=False, widget=forms.RadioSelect
    )
    dark = forms.MultipleChoiceField(
        label=_("Never collected: dark (มืด)"), required=False, widget=forms.CheckboxSelectMultiple
    )
    color = forms.MultipleChoiceField(
        label=_("All cards one suit (ถือสี)"), required=False, widget=forms.CheckboxSelectMultiple
    )
    knocker_held = forms.TypedChoiceField(
        label=_("Spetos the knocker knocked with (อมสเปโตน็อก)"),
        choices=[(0, "0"), (1, "1"), (2, "2")],
        coerce=int,
        initial=0,
        widget=forms.RadioSelect,
    )
    knocker_picked = forms.TypedChoiceField(
        label=_("Spetos picked up to knock (เก็บสเปโตน็อก)"),
        choices=[(0, "0"), (1, "1"), (2, "2")],
        coerce=int,
        initial=0,
        widget=forms.RadioSelect,
    )
    face_down = forms.ChoiceField(
        label=_("Face-down knock card (ไพ่คว่ำ)"),
        choices=list(FACE_DOWN_LABELS.items()),
        required=False,
        widget=forms.RadioSelect,
    )
    total = forms.ChoiceField(
        label=_("Pays the total (เหมา, rule 82)"), required=False, widget=forms.RadioSelect
    )
    by_levels = forms.BooleanField(label=_("Enter levels instead of points"), required=False)
    last_drawer = forms.ChoiceField(
        label=_("Who drew the last card? (rule 11)"), required=False, widget=forms.RadioSelect
    )

    # The players in the order the page listed them (seat order); its rows of points, levels and
    # Spetos held are numbered in that order. A page made before its game's start landed (on a
    # phone without a connection) lists them as they sat then: the numbers still name them.
    listed = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players_changed = False
        if self.is_bound and self.data.get("listed"):
            try:
                listed = json.loads(self.data["listed"])
            except ValueError:
                listed = None
            if isinstance(listed, list) and sorted(map(str, listed)) == sorted(players):
                players = listed
            else:
                self.players_changed = True
        self.players = players
        self.initial["listed"] = json.dumps(players, ensure_ascii=False)
        choices: list[tuple[str, Any]] = [(p, p) for p in players]
        _choices(self, "knocker").choices = choices
        _choices(self, "fool").choices = [("", _("Nobody")), *choices]
        _choices(self, "total").choices = [("", _("Nobody")), *choices]
        _choices(self, "dark").choices = choices
        _choices(self, "color").choices = choices
        _choices(self, "last_drawer").choices = choices
        for i, player in enumerate(players):
            self.fields[f"points_{i}"] = WholeNumberField(
                label=player,
                required=False,
                widget=forms.TextInput(attrs={**NUMBER, "enterkeyhint": "next"}),
            )
            self.fields[f"level_{i}"] = forms.ChoiceField(
                label=player, choices=[("", "—"), *LEVEL_LABELS.items()], required=False
            )
            self.fields[f"held_{i}"] = forms.TypedChoiceField(
                label=player, choices=[(0, "0"), (1, "1"), (2, "2")], coerce=int, initial=0
            )

    @staticmethod
    def initial_from(outcome: dict[str, Any], players: list[str]) -> dict[str, Any]:
        """Return the form's initial values for a result as the settle contract writes it."""
        knock = outcome.get("knock")
        initial: dict[str, Any] = {
            "ending": "knock" if knock else "stock-out",
            "knocker": knock["player"] if knock else "",
            "kind": knock["kind"] if knock else KnockKind.NORMAL,
            "fool": outcome.get("fool", ""),
            "total": outcome.get("total", ""),
            "dark": [p for p in players if p not in outcome.get("collected", players)],
            "color": outcome.get("color", []),
            "knocker_held": outcome.get("knocker_speto", {}).get("held", 0),
            "knocker_picked": outcome.get("knocker_speto", {}).get("picked", 0),
            "face_down": outcome.get("face_down", ""),
            "by_levels": "levels" in outcome,
        }
        for i, player in enumerate(players):
            initial[f"points_{i}"] = outcome.get("points", {}).get(player)
            initial[f"level_{i}"] = outcome.get("levels", {}).get(player, "")
            initial[f"held_{i}"] = outcome.get("speto_held", {}).get(player, 0)
        return initial

    MORE = ("kind", "fool", "dark", "color", "knocker_held", "knocker_picked", "face_down", "total")

    @property
    def more_open(self) -> bool:
        """Whether the fields beyond an ordinary game's hold anything (or an error): shown open."""
        plain = {"kind": KnockKind.NORMAL, "knocker_held": 0, "knocker_picked": 0}
        for name in self.MORE:
            value = self[name].value()
            if self[name].errors or value not in (
                None,
                "",
                [],
                plain.get(name),
                str(plain.get(name)),
            ):
                return True
        return bool(self["by_levels"].value()) or any(
            str(held.value() or 0) != "0" or held.errors for _, _, held in self.point_fields()
        )

    def point_fields(self) -> list[tuple[forms.BoundField, forms.BoundField, forms.BoundField]]:
        return [
            (self[f"points_{i}"], self[f"level_{i}"], self[f"held_{i}"])
            for i in range(len(self.players))
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.players_changed:
            raise forms.ValidationError(
                _(
                    "The players at the table changed since this page was opened: check the"
                    " names and enter the points again."
                ),
                code="players-changed",
            )
        if data.get("ending") == "knock" and not data.get("knocker"):
            self.add_error("knocker", _("Who knocked?"))
        if data.get("ending") == "stock-out" and not data.get("last_drawer"):
            self.add_error("last_drawer", _("Who drew the last card?"))
        return data

    def outcome(self) -> dict[str, Any]:
        """Return the result as the settle contract writes it."""
        data = self.cleaned_data
        knock = data["ending"] == "knock"
        outcome: dict[str, Any] = {}
        if knock:
            outcome["knock"] = {"player": data["knocker"], "kind": data["kind"]}
        if data["dark"]:
            outcome["collected"] = [p for p in self.players if p not in data["dark"]]
        if data["color"]:
            outcome["color"] = list(data["color"])
        held = {p: data[f"held_{i}"] for i, p in enumerate(self.players) if data[f"held_{i}"]}
        if held:
            outcome["speto_held"] = held
        if knock:
            if data["fool"]:
                outcome["fool"] = data["fool"]
            if data["total"]:
                outcome["total"] = data["total"]
            spetos = {"held": data["knocker_held"], "picked": data["knocker_picked"]}
            if any(spetos.values()):
                outcome["knocker_speto"] = {k: v for k, v in spetos.items() if v}
            if data["face_down"]:
                outcome["face_down"] = data["face_down"]
        losers = [p for p in self.players if not knock or p != data["knocker"]]
        if knock and data["by_levels"]:
            outcome["levels"] = {
                p: data[f"level_{i}"]
                for i, p in enumerate(self.players)
                if p in losers and data[f"level_{i}"]
            }
        else:
            outcome["points"] = {
                p: data[f"points_{i}"]
                for i, p in enumerate(self.players)
                if p in losers and data[f"points_{i}"] is not None
            }
        return outcome

    def field_for(self, engine_field: str) -> str | None:
        """Return the form field where an engine error about `engine_field` belongs."""
        return {
            "knock": "knocker",
            "fool": "fool",
            "total": "total",
            "color": "color",
            "collected": "dark",
            "knocker_speto": "knocker_held",
            "face_down": "face_down",
            # Points, levels and Spetos in hand share one table: its errors go under it.
            "points": "by_levels",
            "levels": "by_levels",
            "speto_held": "by_levels",
        }.get(engine_field)


class TieForm(forms.Form):
    head_color = forms.ChoiceField(
        label=_("Colour of the next head card"),
        choices=[("", "—"), ("black", _("Black ♠♣")), ("red", _("Red ♥♦"))],
        required=False,
    )
    order = forms.CharField(
        label=_("Or the order of a high-card draw, best first, comma separated"), required=False
    )


class SettleForm(forms.Form):
    """How the host closes the night: the transfers, the table fee (ต๋ง) and
    the rounding. Every field has a default, so a night closes with one tap."""

    mode = forms.ChoiceField(
        label=_("How to settle up"),
        choices=[
            (Transfer.Mode.FEWEST, _("Fewest transfers")),
            (Transfer.Mode.HUB, _("Everyone with one person")),
        ],
        initial=Transfer.Mode.FEWEST,
        widget=forms.RadioSelect,
        required=False,
    )
    hub = forms.ChoiceField(label=_("Who everyone settles with"), required=False)
    fee = AmountField(
        label=_("Table fee (ต๋ง), baht"),
        min_value=Decimal(0),
        max_value=BAHT_MOST,
        error_messages={"max_value": at_most("A table fee is at most %(n)s baht.", BAHT_MOST)},
        max_digits=12,
        decimal_places=2,
        required=False,
        help_text=_("Leave empty for no table fee."),
        widget=BAHT,
    )
    fee_per = forms.ChoiceField(
        label=_("The fee is paid"),
        choices=Session.FeePer.choices,
        initial=Session.FeePer.GAME,
        required=False,
    )
    fee_to = forms.ChoiceField(label=_("The fee goes to"), required=False)
    rounding = forms.TypedChoiceField(
        label=_("Round each transfer to"),
        coerce=int,
        choices=[
            (0, _("exact, to the satang")),
            *((step, format_lazy("{} {}", step, _("baht"))) for step in ROUNDING_STEPS if step),
        ],
        initial=0,
        required=False,
    )
    rounding_by = forms.ChoiceField(label=_("Who carries what rounding leaves"), required=False)

    def __init__(self, *args: Any, players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        named = [(p, p) for p in players]
        _choices(self, "hub").choices = [("", "—"), *named]
        _choices(self, "fee_to").choices = [("", _("the house")), *named]
        _choices(self, "rounding_by").choices = [("", _("the night's biggest winner")), *named]

    def choices(self, players: list[Player]) -> settle_up.Choices:
        """What was chosen, the players named (the form's choices allow only theirs)."""
        data, by_name = self.cleaned_data, {p.name: p for p in players}
        return settle_up.Choices(
            mode=data["mode"] or Transfer.Mode.FEWEST,
            hub=by_name.get(data["hub"]),
            fee=data["fee"] or Decimal(0),
            fee_per=data["fee_per"] or Session.FeePer.GAME,
            fee_to=by_name.get(data["fee_to"]),
            rounding=data["rounding"] or 0,
            rounding_by=by_name.get(data["rounding_by"]),
        )


class CostForm(forms.Form):
    """A shared cost of the night (ค่าใช้จ่ายร่วม): what, how much, who paid, shared among whom."""

    reason = forms.CharField(label=_("What for (food, drinks…)"), max_length=60)
    baht = AmountField(
        label=_("How much, baht"),
        min_value=Decimal("0.01"),
        max_value=BAHT_MOST,
        error_messages={
            "max_value": at_most(
                "A cost is more than 0 and at most %(n)s baht, to the satang.", BAHT_MOST
            )
        },
        max_digits=9,
        decimal_places=2,
        widget=BAHT,
    )
    paid_by = forms.ChoiceField(label=_("Who paid"))
    among = forms.MultipleChoiceField(label=_("Shared among"), widget=forms.CheckboxSelectMultiple)

    def __init__(
        self,
        *args: Any,
        players: list[str],
        seated: list[str] | None = None,
        payer: str = "",
        **kwargs: Any,
    ) -> None:
        """`players`: who may be named; `seated`: who is ticked to share (all by default);
        `payer`: who paid, chosen already (this phone's own player), else nobody is."""
        super().__init__(*args, **kwargs)
        named = [(p, p) for p in players]
        # A blank first choice: a cost is never put on whoever sorts first by accident.
        _choices(self, "paid_by").choices = [("", "—"), *named]
        _choices(self, "among").choices = named
        self.fields["paid_by"].initial = payer if payer in players else ""
        self.fields["among"].initial = players if seated is None else seated


class SeatForm(forms.Form):
    position = forms.TypedChoiceField(label=_("Seat"), coerce=int)
    name = NameField(label=_("Who sits there (name)"), max_length=40)

    def __init__(self, *args: Any, seats: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choices(self, "position").choices = [
            (i, format_lazy("{} {}", _("Seat"), i + 1)) for i in range(seats)
        ]


class JoinForm(forms.Form):
    code = forms.CharField(
        label=_("Code (8 letters and digits)"),
        max_length=20,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )
    name = NameField(label=_("Your name in this group"), max_length=40, required=False)

    def __init__(self, *args: Any, with_code: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not with_code:
            del self.fields["code"]


class InviteForm(forms.Form):
    role = forms.ChoiceField(
        label=_("Invite as"),
        choices=[
            ("player", _("Player: enters games and events")),
            ("viewer", _("Viewer: can only look")),
            ("host", _("Host: also voids games, changes seats, closes the night")),
        ],
        initial="player",
        widget=forms.RadioSelect,
    )
    life = forms.TypedChoiceField(
        label=_("Valid for"),
        choices=[(1, _("an hour")), (24, _("a day")), (72, _("three days")), (168, _("a week"))],
        coerce=int,
        initial=24,
        required=False,  # a day, unless the host chooses
    )
    single_use = forms.BooleanField(label=_("For one phone only"), required=False)


class MeForm(forms.Form):
    """Which player a member is at the table ("this is me")."""

    player = forms.ChoiceField(label=_("Which player are you?"))

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choices(self, "player").choices = [(str(pk), name) for pk, name in players]


class PromptPayForm(forms.Form):
    """Where the member is paid: a PromptPay number, shown to the others masked or whole."""

    promptpay = forms.CharField(
        label=_("Your PromptPay: mobile number, national or tax id, or e-wallet id"),
        max_length=32,
        required=False,
        widget=forms.TextInput(attrs={**NUMBER, "autocomplete": "tel"}),
    )
    promptpay_public = forms.BooleanField(
        label=_("Show my mobile number to the group in full (an id is always masked)"),
        required=False,
    )

    def clean_promptpay(self) -> str:
        """Refuse, where it is typed, a number no bank pays to, saying why in the member's words."""
        target: str = self.cleaned_data["promptpay"]
        if target.strip():
            try:
                payments.promptpay_typed(target)
            except RuleError as e:
                raise forms.ValidationError(error_text(e), code=e.code) from e
        return target
