"""Sign-up and sign-in with a name as a Thai table writes it.

Django's username accepts letters, digits and @.+-_ only: a Thai name with a vowel or tone mark
(กิ่ง, น้ำ) is refused, and its NFKC folding splits ำ in two. Here the name is cleaned as every
other name is (scorekeeper.names) and may hold letters, marks, digits, spaces and @.+-_.
"""

import unicodedata
from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from scorekeeper.names import cleaned

ALSO_ALLOWED = set(" @.+-_")


class NameField(forms.CharField):
    """A user name cleaned as every name is, then folded as Django folds every user name (NFKC,
    which writes ำ as ํ + า), so accounts made before and after read alike."""

    def to_python(self, value: Any) -> str:
        return User.normalize_username(cleaned(super().to_python(value) or ""))


def _letters_marks_digits(name: str) -> None:
    for char in name:
        if char not in ALSO_ALLOWED and unicodedata.category(char)[0] not in "LMN":
            raise ValidationError(
                _("A user name holds letters, digits, spaces and @ . + - _ only."),
                code="username-characters",
            )


class SignUpForm(UserCreationForm[User]):
    username = NameField(
        label=_("User name"),
        max_length=150,
        validators=[_letters_marks_digits],
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )

    class Meta(UserCreationForm.Meta):
        # The user name is this form's own field, left out of the model's validation: Django's
        # username validator refuses the marks of Thai names.
        fields = ()
        exclude = ("username",)

    def clean_username(self) -> str:
        name: str = self.cleaned_data["username"]
        if User.objects.filter(username=name).exists():
            raise ValidationError(_("That user name is taken."), code="username-taken")
        return name

    def save(self, commit: bool = True) -> User:
        user = super().save(commit=False)
        user.username = self.cleaned_data["username"]
        if commit:
            user.save()
        return user


class SignInForm(AuthenticationForm):
    username = NameField(
        label=_("User name"),
        max_length=150,
        widget=forms.TextInput(attrs={"autofocus": True, "autocomplete": "username"}),
    )
