"""Numbers as a Thai table types them: Thai digits (๐-๙), a typographic minus, thousands commas.

Every number field of the app reads through `WholeNumberField` or `AmountField`, so ๑๒๐, −20 and
1,200 mean 120, -20 and 1200 wherever they are typed.
"""

from typing import Any

from django import forms

# Thai digits, and the minus signs a phone's keyboard or a copy from a chat may give.
_READ = str.maketrans({**{chr(0x0E50 + d): str(d) for d in range(10)}, "−": "-", "–": "-"})


def read_digits(text: str) -> str:
    """The text with Thai digits as ASCII ones, any minus as "-", and commas and spaces gone."""
    return text.translate(_READ).replace(",", "").replace(" ", "").strip()


class WholeNumberField(forms.IntegerField):
    """A whole number, typed with Thai or Arabic digits."""

    def to_python(self, value: Any) -> int | None:
        return super().to_python(read_digits(value) if isinstance(value, str) else value)


class AmountField(forms.DecimalField):
    """A decimal amount (a rate in baht), typed with Thai or Arabic digits."""

    def to_python(self, value: Any) -> Any:
        return super().to_python(read_digits(value) if isinstance(value, str) else value)
