"""The group's own rules (กติกาประจำวง) on its page, and the initial values they give the forms
that open and close a night.

Each part of the rules form is the form that opens (or closes) a night without its players, so a
field and its bounds are defined once, where the night is opened.
"""

from collections.abc import Sequence
from typing import Any

from scorekeeper.forms import SessionOpenForm, SettleForm
from scorekeeper.forms_scoresheet import SEAT_FIELDS, DummyOpenForm, GongZhuOpenForm
from scorekeeper.models import Player, Session
from scorekeeper.services.group_rules import Close, Sheet, Stakes, Usual

DUMMY, GONG_ZHU = Session.Ruleset.DUMMY_POINTS, Session.Ruleset.GONG_ZHU


class StakesRulesForm(SessionOpenForm):
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
    """The initial values of the form opening a Knock Dummy night (SessionOpenForm)."""
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
