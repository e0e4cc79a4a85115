"""Optional accounts, so one person reaches their groups from a second phone.

Django's own authentication; django-axes refuses logins after repeated failures.
"""

from typing import Any, cast

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import User
from django.contrib.auth.views import LoginView, LogoutView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from scorekeeper.error_text import error_text
from scorekeeper.forms.accounts import SignInForm, SignUpForm
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.models import Membership
from scorekeeper.rules.errors import RuleError
from scorekeeper.services import access
from scorekeeper.views.access import DEVICE_KEY, client_address, visitor_device


def axes_username(request: HtmxHttpRequest, credentials: dict[str, Any] | None = None) -> str:
    """The name django-axes counts failures under, cut to what a username can be.

    Its table holds 255 characters; a longer name typed at the login form must not make a 500.
    """
    source = credentials if credentials is not None else request.POST
    return str(source.get("username", ""))[: User._meta.get_field("username").max_length]


def locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """django-axes' answer to a sign-in past the failure limit (AXES_LOCKOUT_CALLABLE): a page
    in the visitor's language saying how long to wait."""
    minutes = max(1, int(settings.AXES_COOLOFF_TIME.total_seconds() // 60))
    return render(request, "accounts/locked_out.html", {"minutes": minutes}, status=429)


def _unclaimed(request: HtmxHttpRequest) -> "list[Membership]":
    """The memberships this phone holds that no account holds yet."""
    device = visitor_device(request)
    if device is None:
        return []
    mine = Membership.objects.filter(device=device, user__isnull=True, revoked_at__isnull=True)
    return list(mine.select_related("group").order_by("joined_at"))


def _after_sign_in(request: HtmxHttpRequest) -> HttpResponse:
    """Ask before this phone's groups go to the account just signed in: the phone may be
    borrowed, and its groups someone else's."""
    return redirect("claim") if _unclaimed(request) else redirect("home")


class SignIn(LoginView):
    """Sign in; then, if this phone is in groups no account holds, ask whether they are yours."""

    template_name = "accounts/login.html"
    form_class = SignInForm

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        request = cast(HtmxHttpRequest, self.request)
        device = visitor_device(request)  # login() rotates the session: remember it first
        super().form_valid(form)
        if device is not None:
            request.session[DEVICE_KEY] = device.pk
        return _after_sign_in(request)


class SignOut(LogoutView):
    """Sign out; the phone keeps its own groups (those it joined itself), as before signing in."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        device = request.session.get(DEVICE_KEY)  # logout() empties the session: keep the phone
        response = super().post(request, *args, **kwargs)
        if device is not None:
            request.session[DEVICE_KEY] = device
        return response


@require_http_methods(["GET", "POST"])
def signup(request: HtmxHttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            access.signup_attempt(address=client_address(request))
        except RuleError as e:
            form.add_error(None, error_text(e))
    if request.method == "POST" and form.is_valid():
        device = visitor_device(request)
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        if device is not None:
            request.session[DEVICE_KEY] = device.pk
        return _after_sign_in(request)
    return render(
        request, "accounts/signup.html", {"form": form}, status=422 if form.errors else 200
    )


@login_required
@require_http_methods(["GET", "POST"])
def claim(request: HtmxHttpRequest) -> HttpResponse:
    """Ask whether this phone's groups are the account's: yes ties them to it (reachable from
    any phone signed in); no leaves them with the phone alone."""
    if request.method == "POST":
        device = visitor_device(request)
        if request.POST.get("answer") == "yes" and device is not None:
            access.memberships_claim(device=device, user=request.user)
        return redirect("home")
    return render(request, "accounts/claim.html", {"memberships": _unclaimed(request)})
