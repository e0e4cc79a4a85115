"""The form of a shared cost of the night."""

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper.forms.fields import BAHT, _choices, at_most
from scorekeeper.numbers import AmountField
from scorekeeper.rules.money import BAHT_MOST


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
