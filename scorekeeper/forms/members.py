"""Forms of a group's members: joining with a code and inviting."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper.forms.fields import NameField


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
