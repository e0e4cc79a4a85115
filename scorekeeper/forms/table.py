"""Forms of the table's page: starting a game, changing a seat and closing the night."""

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from scorekeeper.forms.fields import BAHT, NameField, _choices, at_most
from scorekeeper.models import Night, Player, Transfer
from scorekeeper.numbers import AmountField, WholeNumberField
from scorekeeper.reads.money import Choices
from scorekeeper.rules.money import BAHT_MOST
from scorekeeper.rules.settle_up import STEPS as ROUNDING_STEPS


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


class SeatForm(forms.Form):
    position = forms.TypedChoiceField(label=_("Seat"), coerce=int)
    name = NameField(label=_("Who sits there (name)"), max_length=40)

    def __init__(self, *args: Any, seats: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choices(self, "position").choices = [
            (i, format_lazy("{} {}", _("Seat"), i + 1)) for i in range(seats)
        ]


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
        choices=Night.FeePer.choices,
        initial=Night.FeePer.GAME,
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

    def choices(self, players: list[Player]) -> Choices:
        """What was chosen, the players named (the form's choices allow only theirs)."""
        data, by_name = self.cleaned_data, {p.name: p for p in players}
        return Choices(
            mode=data["mode"] or Transfer.Mode.FEWEST,
            hub=by_name.get(data["hub"]),
            fee=data["fee"] or Decimal(0),
            fee_per=data["fee_per"] or Night.FeePer.GAME,
            fee_to=by_name.get(data["fee_to"]),
            rounding=data["rounding"] or 0,
            rounding_by=by_name.get(data["rounding_by"]),
        )
