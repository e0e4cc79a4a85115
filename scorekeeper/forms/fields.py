"""The fields, widgets and bounds the forms share: names, numbers, amounts and their limits."""

from decimal import Decimal
from typing import Any, cast

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scorekeeper.names import cleaned
from scorekeeper.rules.money import POINT_VALUE_MOST, STAKE_MOST
from scorekeeper.rules.names import Fault, fault


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
