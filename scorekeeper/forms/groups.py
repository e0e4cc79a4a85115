"""Forms of a group's page: the group, who a member is, where they are paid, opening a night,
and the group's own rules (กติกาประจำวง) with the initial values they give the forms that open
and close a night.

Each part of the rules form is the form that opens (or closes) a night without its players, so a
field and its bounds are defined once, where the night is opened.
"""

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from scorekeeper.error_text import error_text
from scorekeeper.forms.fields import NAME, NUMBER, POINT_VALUE, STAKE, NameField, _choices, at_most
from scorekeeper.forms.scoresheet import SEAT_FIELDS, DummyOpenForm, GongZhuOpenForm
from scorekeeper.forms.table import SettleForm
from scorekeeper.models import Night, Player
from scorekeeper.names import cleaned
from scorekeeper.numbers import AmountField, WholeNumberField
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.money import STAKE_MOST
from scorekeeper.services import payments
from scorekeeper.services.group_rules import Close, Sheet, Stakes, Usual


class GroupForm(forms.Form):
    name = NameField(label=_("Name of the group (ชื่อก๊วน)"), max_length=80)
    # The creator is a member like any other: the others know them by this name, not "host 1".
    host_name = NameField(
        label=_("Your name in this group"),
        max_length=40,
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
        error_messages={"required": _("Give the name the others know you by.")},
    )


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


class NightOpenForm(forms.Form):
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
        choices=Night.StakeLevel.choices,
        initial=Night.StakeLevel.SIAN,
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
        if data.get("stake_level") == Night.StakeLevel.CUSTOM:
            for rate in ("less", "medium", "more"):
                if data.get(rate) is None:
                    self.add_error(rate, _("Give all three rates for custom stakes."))
        return data

    def stakes(self) -> tuple[int, int, int] | None:
        if self.cleaned_data["stake_level"] != Night.StakeLevel.CUSTOM:
            return None
        return (self.cleaned_data["less"], self.cleaned_data["medium"], self.cleaned_data["more"])


DUMMY, GONG_ZHU = Night.Ruleset.DUMMY_POINTS, Night.Ruleset.GONG_ZHU


class StakesRulesForm(NightOpenForm):
    """Knock Dummy's usual stakes, fine and point value: the night's own fields, no seats."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in [*SEAT_FIELDS, "first_dealer", "pays"]:
            del self.fields[name]

    def usual(self) -> Stakes:
        data = self.cleaned_data
        return Stakes(
            level=data["stake_level"],
            rates=self.stakes(),
            fine=data["fine"],
            point_value=data["point_value"],
        )


class CloseRulesForm(SettleForm):
    """How the group usually settles up: the close's own fields, among the group's players."""

    def __init__(self, *args: Any, players: Sequence[Player], **kwargs: Any) -> None:
        super().__init__(*args, players=[p.name for p in players], **kwargs)
        self.players = list(players)

    def usual(self) -> Close:
        chosen = self.choices(self.players)
        return Close(
            mode=chosen.mode,
            hub=chosen.hub.pk if chosen.hub else None,
            fee=chosen.fee,
            fee_per=chosen.fee_per,
            fee_to=chosen.fee_to.pk if chosen.fee_to else None,
            rounding=chosen.rounding,
            rounding_by=chosen.rounding_by.pk if chosen.rounding_by else None,
        )


class _WithoutSeats:
    """A score sheet's opening form without its players and first dealer."""

    fields: dict[str, Any]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in [*SEAT_FIELDS, "first_dealer"]:
            del self.fields[name]

    def usual(self) -> Sheet:
        form: Any = self
        return Sheet(
            house=form.scoresheet_house(),
            target=form.scoresheet_target(),
            point_value=form.scoresheet_point_value(),
        )


class DummyRulesForm(_WithoutSeats, DummyOpenForm):
    """Classic Dummy's usual target and house rules."""


class GongZhuRulesForm(_WithoutSeats, GongZhuOpenForm):
    """Gong Zhu's usual target, house rules and point value."""


def rules_forms(data: Any, players: Sequence[Player], usual: Usual) -> dict[str, Any]:
    """The rules form's parts, by the name the group's page gives each, their initial values
    the group's rules as they are."""
    return {
        "stakes_form": StakesRulesForm(data, prefix="kd", initial=open_initial(usual)),
        "close_form": CloseRulesForm(
            data, prefix="close", players=players, initial=close_initial(usual, players)
        ),
        "dummy_form": DummyRulesForm(data, prefix="dummy", initial=sheet_initial(usual, DUMMY)),
        "gong_zhu_form": GongZhuRulesForm(
            data, prefix="gz", initial=sheet_initial(usual, GONG_ZHU)
        ),
    }


def usual_from(forms: dict[str, Any]) -> Usual:
    """The group's rules as the valid parts of the rules form give them."""
    return Usual(
        stakes=forms["stakes_form"].usual(),
        close=forms["close_form"].usual(),
        sheets={DUMMY: forms["dummy_form"].usual(), GONG_ZHU: forms["gong_zhu_form"].usual()},
    )


def open_initial(usual: Usual) -> dict[str, Any]:
    """The initial values of the form opening a Knock Dummy night (NightOpenForm)."""
    stakes = usual.stakes
    if stakes is None:
        return {}
    less, medium, more = stakes.rates or (None, None, None)
    return {
        "stake_level": stakes.level,
        "less": less,
        "medium": medium,
        "more": more,
        "fine": stakes.fine,
        "point_value": stakes.point_value,
    }


def sheet_initial(usual: Usual, ruleset: str) -> dict[str, Any]:
    """The initial values of the form opening a score sheet (DummyOpenForm, GongZhuOpenForm)."""
    sheet = usual.sheets.get(ruleset)
    if sheet is None:
        return {}
    if ruleset == GONG_ZHU:
        target = {"target_points": sheet.target["points"], "direction": sheet.target["direction"]}
        return {**sheet.house, **target, "point_value": sheet.point_value}
    return {**sheet.house, "target": sheet.target}


def close_initial(usual: Usual, players: Sequence[Player]) -> dict[str, Any]:
    """The initial values of the close (SettleForm) at a table of `players`: a player the rules
    name is taken only if at the table (Close.choices)."""
    if usual.close is None:
        return {}
    chosen = usual.close.choices(players)
    return {
        "mode": chosen.mode,
        "hub": chosen.hub.name if chosen.hub else "",
        "fee": chosen.fee or None,
        "fee_per": chosen.fee_per,
        "fee_to": chosen.fee_to.name if chosen.fee_to else "",
        "rounding": chosen.rounding,
        "rounding_by": chosen.rounding_by.name if chosen.rounding_by else "",
    }
