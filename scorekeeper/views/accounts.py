"""Optional accounts, so one person reaches their groups from a second phone.

Django's own authentication; django-axes refuses logins after repeated failures.
"""

from typing import Any, cast

from django.contrib.auth import login
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import User
from django.contrib.auth.views import LoginView
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from scorekeeper.forms_accounts import SignInForm, SignUpForm
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.services import access
from scorekeeper.views.access import visitor_device


def axes_username(request: HtmxHttpRequest, credentials: dict[str, Any] | None = None) -> str:
    """The name django-axes counts failures under, cut to what a username can be.

    Its table holds 255 characters; a longer name typed at the login form must not make a 500.
    """
    source = credentials if credentials is not None else request.POST
    return str(source.get("username", ""))[: User._meta.get_field("username").max_length]


def _claim(request: HtmxHttpRequest) -> None:
    device = visitor_device(request)
    if device is not None and request.user.is_authenticated:
        access.memberships_claim(device=device, user=request.user)


class SignIn(LoginView):
    """Sign in; this phone's groups become the account's, reachable from any phone signed in."""

    template_name = "accounts/login.html"
    form_class = SignInForm

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        request = cast(HtmxHttpRequest, self.request)
        device = visitor_device(request)  # login() rotates the session: remember it first
        response = super().form_valid(form)
        if device is not None:
            self.request.session["device"] = device.pk
            access.memberships_claim(device=device, user=self.request.user)
        return response


@require_http_methods(["GET", "POST"])
def signup(request: HtmxHttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        device = visitor_device(request)
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        if device is not None:
            request.session["device"] = device.pk
        _claim(request)
        return redirect("home")
    return render(
        request, "accounts/signup.html", {"form": form}, status=422 if form.errors else 200
    )
