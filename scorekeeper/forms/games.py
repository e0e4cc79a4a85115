"""Forms of a game: an immediate event, the end of a game and a tie."""

import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper.forms.fields import NUMBER, _choices
from scorekeeper.numbers import WholeNumberField
from scorekeeper.rules.knock_dummy import KnockKind, Level

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
