"""Thousands of random and malformed form posts to every write URL, as the group's host.

Forms come from Hypothesis: the real field names of each URL mixed with junk, values empty, huge,
Unicode, negative, non-numeric or lists, either at random or as small changes to a valid form
(so that some of them do write). Each post must answer without a server error (Django's test
client re-raises one), and a refusal (4xx) must leave the ledger as it was: ledger lines, games
and events counted before and after. A post that went through (302) with an idempotency key is
sent again, as a retry: that must not fail either, nor write anything.

This one runs in process on pytest-django's test database; SCOREKEEPER_FUZZ_EXAMPLES sets the
number of posts per URL (default 100; the event URL gets half that per event type).
"""

import itertools
import os
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.internal.conjecture import engine

from scorekeeper.models import (
    Cost,
    Device,
    Event,
    Game,
    Group,
    Invite,
    LedgerLine,
    Membership,
    MoneyLine,
    Night,
    Transfer,
)
from scorekeeper.services import access, costs, debts, games, nights

pytestmark = [pytest.mark.soak]

EXAMPLES = int(os.environ.get("SCOREKEEPER_FUZZ_EXAMPLES", "100"))
NAMES = ("Ann", "Bee", "Cat", "Dan")
EVENT_TYPES = ("head", "speto", "dummy-discard", "full-discard", "show-speto", "fine", "junk")

FINISH = [
    "ending", "knocker", "kind", "fool", "dark", "color", "knocker_held", "knocker_picked",
    "face_down", "total", "by_levels", "last_drawer", "listed",
    *(f"{f}_{i}" for f in ("points", "level", "held") for i in range(4)),
]  # fmt: skip
FIELDS: dict[str, list[str]] = {
    "group-create": ["name", "host_name"],
    "night-open": [
        "seat_1",
        "seat_2",
        "seat_3",
        "seat_4",
        "first_dealer",
        "stake_level",
        "less",
        "medium",
        "more",
        "fine",
        "point_value",
    ],  # fmt: skip
    "members": ["role", "life", "single_use"],
    "member-remove": [],
    "join": ["code", "name"],
    "join-link": ["name"],
    "game-start": ["head_color", "fool_swap"],
    "event-add": ["player", "close", "count", "reason"],
    "event-remove": [],
    "game-undo": [],
    "share-revoke": [],
    "game-paid": ["event", "back"],
    "member-is": ["player"],
    "promptpay": ["promptpay", "promptpay_public"],
    "seats": ["position", "name"],
    "settle": ["mode", "hub", "fee", "fee_per", "fee_to", "rounding", "rounding_by"],
    "cost-add": ["cost-reason", "cost-baht", "cost-paid_by", "cost-among"],
    "cost-remove": [],
    "table-cost-add": ["cost-reason", "cost-baht", "cost-paid_by", "cost-among"],
    "claim-reassign": ["player"],
    "group-rules": [
        "kd-stake_level",
        "kd-less",
        "kd-medium",
        "kd-more",
        "kd-fine",
        "kd-point_value",
        "close-mode",
        "close-hub",
        "close-fee",
        "close-fee_per",
        "close-fee_to",
        "close-rounding",
        "close-rounding_by",
        "dummy-target",
        "dummy-knock_card_speto_100",
        "dummy-knock_card_lay_off_100",
        "dummy-ace_in_run_10",
        "dummy-dummy_discard",
        "dummy-full_discard",
        "dummy-head_close",
        "dummy-speto_close",
        "dummy-speto_defence",
        "dummy-speto_laid_off",
        "dummy-head",
        "dummy-head_speto",
        "gz-target_points",
        "gz-direction",
        "gz-no_point_cards",
        "gz-pig_in_shuan",
        "gz-point_value",
    ],  # fmt: skip
    "transfer-paid": ["undo", "carry", "uncarry", "received"],
    "debt-paid": ["night", "undo"],
    "game-finish": FINISH,
    "offline-event": ["player", "close", "count", "reason"],
    "offline-finish": FINISH,
    "game-preview": FINISH,
    "game-void": [],
    "game-tie": ["head_color", "order"],
    "game-correct": [*FINISH, "keep"],
    "set_language": ["language", "next"],
    "login": ["username", "password"],
    "signup": ["username", "password1", "password2"],
    "logout": ["next"],
}
VALID_FINISH = {
    "ending": "knock", "knocker": "Ann", "kind": "normal", "knocker_held": "0",
    "knocker_picked": "0", "points_0": "5", "points_1": "10", "points_2": "20", "points_3": "30",
    **{f"held_{i}": "0" for i in range(4)},
}  # fmt: skip
VALID: dict[str, dict[str, Any]] = {
    "group-create": {"name": "วงใหม่", "host_name": "เอ๋"},
    "night-open": {
        "seat_1": "Ann",
        "seat_2": "Bee",
        "seat_3": "Cat",
        "seat_4": "Dan",
        "first_dealer": "2",
        "stake_level": "sian",
        "point_value": "0.5",
    },  # fmt: skip
    "members": {"role": "player"},
    "member-remove": {},
    "join": {"code": "ABCD2345", "name": "Eve"},
    "join-link": {"name": "Eve"},
    "game-start": {"fool_swap": "on"},
    "event-add": {"player": "Bee", "close": "Cat", "count": "1", "reason": "misdeal"},
    "event-remove": {},
    "game-undo": {},
    "share-revoke": {},
    "game-paid": {"event": "1", "back": "game"},
    "member-is": {"player": "1"},
    "promptpay": {"promptpay": "0812345678", "promptpay_public": "on"},
    "seats": {"position": "1", "name": "Eve"},
    "settle": {"mode": "fewest"},
    "cost-add": {
        "cost-reason": "ข้าว",
        "cost-baht": "100",
        "cost-paid_by": "Ann",
        "cost-among": ["Ann", "Bee"],
    },  # fmt: skip
    "cost-remove": {},
    "table-cost-add": {
        "cost-reason": "น้ำแข็ง",
        "cost-baht": "40",
        "cost-paid_by": "Bee",
        "cost-among": ["Ann", "Bee", "Cat"],
    },  # fmt: skip
    "claim-reassign": {"player": "2"},
    "group-rules": {
        "kd-stake_level": "custom",
        "kd-less": "50",
        "kd-medium": "100",
        "kd-more": "150",
        "kd-fine": "120",
        "kd-point_value": "0.25",
        "close-mode": "fewest",
        "close-fee": "20",
        "close-fee_per": "night",
        "close-rounding": "5",
        "dummy-target": "300",
        "gz-target_points": "1000",
        "gz-direction": "up",
        "gz-no_point_cards": "0",
        "gz-pig_in_shuan": "100",
        "gz-point_value": "2",
    },  # fmt: skip
    "transfer-paid": {},
    "debt-paid": {},
    "game-finish": VALID_FINISH,
    "offline-event": {"player": "Bee", "close": "Cat", "count": "1", "reason": "misdeal"},
    "offline-finish": VALID_FINISH,
    "game-preview": VALID_FINISH,
    "game-void": {},
    "game-tie": {"order": "Bee,Cat"},
    "game-correct": VALID_FINISH,
    "set_language": {"language": "en", "next": "/"},
    "login": {"username": "ann", "password": "wrong"},
    "signup": {"username": "ann", "password1": "a-long-pass-phrase", "password2": "x"},
    "logout": {},
}

JUNK_KEYS = [
    "", " ", "x", "points_4", "points_-1", "held_9", "level_", "points_0 ", "POINTS_0",
    "csrfmiddlewaretoken", "idempotency_key", "__proto__", "seat_0", "seat_5", "ชื่อ", "a[]",
    "knocker[]", "\x00", "😀",
]  # fmt: skip
SPECIAL = [
    "", " ", "0", "1", "2", "3", "4", "5", "-1", "-0", "+1", "01", "1.5", "1e3", "1_000",
    "NaN", "nan", "inf", "-inf", "Infinity", "9" * 25, "-" + "9" * 25, "0x10", "๓", "٣", "１",
    "on", "off", "true", "false", "null", "None", "[]", "{}", "<script>alert(1)</script>",
    "' OR 1=1 --", "\x00", "a\x00b", "\u202e", "\ufeff", "\r\n", "Ann", "Bee", "Cat", "Dan",
    "Eve", "ann", " Ann ", "Ann,Bee", "Ann,Ann", "Bee,Cat", "Bee, Cat", "Ann,Bee,Cat,Dan",
    "knock", "stock-out", "normal", "dark", "light-color", "dark-color", "less", "medium",
    "more", "speto", "dummy", "speto-dummy", "black", "red", "sian", "thep", "khot-sian",
    "custom", "fewest", "hub", "host", "player", "viewer", "misdeal", "false-knock", "th", "en",
    "/", "//evil.example", "http://evil.example/", "ABCD2345",
]  # fmt: skip
# Idempotency keys: short ones (shared across posts: a replay or a key used for something else),
# and keys around the 64 characters a form carries.
KEY_POOL = ["k1", "k2", "0" * 64, "a" * 64, "a" * 65, "b" * 200, "ก" * 70, " ", ""]

TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=30)
HUGE = st.builds(
    lambda c, n: c * n,
    st.sampled_from(["9", "A", "ก", "😀", "\x00", ",", "-1,"]),
    st.integers(100, 5_000),
)
VALUE = st.one_of(st.sampled_from(SPECIAL), TEXT, st.integers(-(2**70), 2**70).map(str), HUGE)
FIELD_VALUE = st.one_of(VALUE, VALUE, st.lists(VALUE, max_size=4))
KEY_VALUE = st.one_of(st.sampled_from(KEY_POOL), VALUE, st.uuids().map(lambda u: u.hex))


def forms(name: str) -> st.SearchStrategy[dict[str, Any]]:
    """Form dicts for the URL `name`: at random, or a valid form with a few changes."""
    real = [*FIELDS[name], "idempotency_key"]
    keys = st.one_of(st.sampled_from(real), st.sampled_from(JUNK_KEYS), TEXT.map(lambda t: t[:12]))
    anything = st.dictionaries(keys, FIELD_VALUE, max_size=12)
    valid = VALID[name]

    def changed(changes: dict[str, Any], dropped: set[str], key: str) -> dict[str, Any]:
        form = {k: v for k, v in valid.items() if k not in dropped}
        return {**form, "idempotency_key": key, **changes}

    nearly = st.builds(
        changed,
        st.dictionaries(st.sampled_from(real), FIELD_VALUE, max_size=3),
        st.sets(st.sampled_from(sorted(valid)), max_size=2) if valid else st.just(set()),
        KEY_VALUE,
    )
    return st.one_of(anything, nearly, nearly)


# -- the table the posts go to --------------------------------------------------------------------


@dataclass
class Targets:
    """A group whose host posts: one open night with games in every state, one closed."""

    group: Group
    host: Membership
    player: Membership
    night: Night
    closed: Night
    transfer: Transfer
    invite: Invite
    debt: MoneyLine  # a transfer of the closed night carried to next time
    cost: Cost  # a shared cost of the open night

    def ensure(self, in_play: bool = True) -> dict[str, int]:
        """Put back what earlier posts used up: a game waiting for a tie, a voided game not yet
        corrected, a settled game, and a game in play (or none), in the one open night.

        Return the id of a game in each of those states (0: none in play).
        """
        night = Night.objects.get(pk=self.night.pk)
        if not night.is_open:  # a post closed it: the next posts go to a new one
            self.night = nights.night_open(
                group=self.group, players=list(NAMES), stake_level="sian", point_value=Decimal(1)
            )
        while True:
            found = self._games()
            if not found["pending"]:
                games.game_finish(game=self._in_play(found), outcome=TIED)
            elif not found["voided"]:
                games.game_void(game=Game.objects.get(pk=self._settled(found)))
            elif not found["settled"]:
                self._settled(found)
            elif in_play and not found["in_play"]:
                games.game_start(night=self.night)
            elif not in_play and found["in_play"]:  # the game-start posts need none in play
                games.game_void(game=Game.objects.get(pk=found["in_play"]))
            else:
                return found

    def _games(self) -> dict[str, int]:
        rows = list(self.night.games.values_list("pk", "status", "replaces_id"))
        replaced = {r for _pk, _s, r in rows if r is not None}
        last = {status: pk for pk, status, _r in sorted(rows)}
        voided = [pk for pk, status, _r in rows if status == "voided" and pk not in replaced]
        return {
            "in_play": last.get(Game.Status.IN_PLAY, 0),
            "settled": last.get(Game.Status.SETTLED, 0),
            "pending": last.get(Game.Status.PENDING_TIE, 0),
            "voided": max(voided, default=0),
        }

    def _in_play(self, found: dict[str, int]) -> Game:
        if found["in_play"]:
            return Game.objects.get(pk=found["in_play"])
        return games.game_start(night=self.night)

    def _settled(self, found: dict[str, int]) -> int:
        if found["settled"]:
            return found["settled"]
        return games.game_finish(game=self._in_play(found), outcome=KNOCKED).pk

    def address(self, name: str, found: dict[str, int], event_type: str = "head") -> str:
        s = self.night.pk
        game = {
            "game-void": "settled", "game-tie": "pending", "game-correct": "voided",
            "game-undo": "settled",
        }  # fmt: skip
        game_id = found[game.get(name, "in_play")]  # 0 when none is in play: game-start posts
        return {
            "group-create": "/groups/new",
            "night-open": f"/g/{self.group.pk}/sessions/new",
            "members": f"/g/{self.group.pk}/members",
            "member-remove": f"/g/{self.group.pk}/members/{self.player.pk}/remove",
            "join": "/join",
            "join-link": f"/join/{self.invite.token}",
            "game-start": f"/s/{s}/games/start",
            "event-add": f"/s/{s}/games/{game_id}/events/{event_type}",
            "event-remove": f"/s/{s}/games/{game_id}/events/1/remove",
            "game-undo": f"/s/{s}/games/{game_id}/undo",
            "share-revoke": f"/s/{s}/share/revoke",
            "game-paid": f"/s/{s}/games/{game_id}/paid",
            "member-is": f"/g/{self.group.pk}/me",
            "promptpay": f"/g/{self.group.pk}/promptpay",
            "seats": f"/s/{s}/seats",
            "settle": f"/s/{s}/settle",
            "cost-add": f"/s/{s}/costs",
            "cost-remove": f"/s/{s}/costs/{self.cost.pk}/remove",
            "table-cost-add": f"/s/{s}/costs/at-table",
            "claim-reassign": f"/g/{self.group.pk}/members/{self.player.pk}/player",
            "group-rules": f"/g/{self.group.pk}/rules",
            "transfer-paid": f"/s/{self.closed.pk}/transfers/{self.transfer.pk}/paid",
            "debt-paid": f"/g/{self.group.pk}/debts/{self.debt.pk}/paid",
            "game-finish": f"/s/{s}/games/{game_id}/finish",
            # A game started offline by a key: one that never landed (refused, 409)
            "offline-event": f"/s/{s}/games/key/never-started/events/{event_type}",
            "offline-finish": f"/s/{s}/games/key/never-started/finish",
            "game-preview": f"/s/{s}/games/{game_id}/preview",
            "game-void": f"/s/{s}/games/{game_id}/void",
            "game-tie": f"/s/{s}/games/{game_id}/tie",
            "game-correct": f"/s/{s}/games/{game_id}/correct",
            "set_language": "/i18n/setlang/",
            "login": "/accounts/login",
            "signup": "/accounts/signup",
            "logout": "/accounts/logout",
        }[name]

    def phone(self) -> Client:
        """A browser of the host's device."""
        client = Client(HTTP_ACCEPT_LANGUAGE="en")
        store = client.session
        store["device"] = self.host.device_id
        store.save()
        return client


# Posts to these may sign the browser in or out, or rotate its night: a fresh one after them.
NEW_BROWSER_AFTER = {"login", "logout", "signup", "join", "join-link", "set_language"}
TIED = {"knock": {"player": "Ann", "kind": "normal"}, "points": {"Bee": 10, "Cat": 10, "Dan": 30}}
KNOCKED = {"knock": {"player": "Bee", "kind": "normal"}, "points": {"Ann": 5, "Cat": 15, "Dan": 25}}


@pytest.fixture
def targets(db: None, settings: Any) -> Targets:
    # Sign-in and sign-up posts hash passwords: the fast hasher keeps a post a post.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    device = access.device_create(user_agent="fuzz")
    group = access.group_create(name="Fuzz night", device=device)
    host = Membership.objects.get(group=group, device=device)
    player = Membership.objects.create(
        group=group, role=Membership.Role.PLAYER, device=Device.objects.create(), name="Bee's"
    )
    invite = access.invite_create(group=group, role=Membership.Role.PLAYER, by=host)
    night = nights.night_open(
        group=group, players=list(NAMES), stake_level="sian", point_value=Decimal("0.5")
    )
    closed = nights.night_open(
        group=group, players=list(NAMES), stake_level="thep", point_value=Decimal(1)
    )
    game = games.game_start(night=closed)
    games.game_finish(
        game=game,
        outcome={
            "knock": {"player": "Cat", "kind": "dark"},
            "points": {"Ann": 1, "Bee": 2, "Dan": 3},
        },
    )
    transfer, *_, last = nights.night_close(night=closed)
    debt = debts.transfer_carry(transfer=last)
    seated = [s.player for s in night.standings.select_related("player")]
    cost = costs.cost_add(night=night, reason="ข้าว", baht=Decimal(80), paid_by=seated[0],
                          among=seated)  # fmt: skip
    return Targets(group, host, player, night, closed, transfer, invite, debt, cost)


def ledger() -> tuple[int, int, int, int]:
    counts = LedgerLine.objects.count(), MoneyLine.objects.count()
    return *counts, Game.objects.count(), Event.objects.count()


@pytest.fixture(autouse=True)
def quick_shrink(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shrink a failing post for 10 s at most (Hypothesis allows 5 min): each try is a request."""
    monkeypatch.setattr(engine, "MAX_SHRINKING_SECONDS", 10, raising=False)


def fuzz(targets: Targets, name: str, examples: int, event_type: str = "head") -> None:
    answered: Counter[int] = Counter()
    phone: list[Client] = []  # the browser, kept from one post to the next
    serial = itertools.count()

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        report_multiple_bugs=False,  # the first bug, shrunk: enough to act on, and quicker
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(form=forms(name))
    def post(form: dict[str, Any]) -> None:
        found = targets.ensure(in_play=name != "game-start")
        url = targets.address(name, found, event_type)
        form = own_key(form, next(serial))
        if not phone or name in NEW_BROWSER_AFTER:
            phone[:] = [targets.phone()]
        before = ledger()
        response = phone[0].post(url, form)  # a server error is raised here
        answered[response.status_code] += 1
        assert response.status_code < 500, (url, shown(form), response.status_code)
        after = ledger()
        if 400 <= response.status_code < 500:
            assert after == before, f"refused with {response.status_code} but wrote: {url}"
        key = form.get("idempotency_key")  # the view reads the last value given
        if isinstance(key, list):
            key = key[-1] if key else ""
        if response.status_code == 302 and key:
            # The same post again, as a phone retries on a flaky network: it records nothing.
            again = phone[0].post(url, form)
            answered[again.status_code] += 1
            assert again.status_code < 500, ("retried", url, shown(form), again.status_code)
            assert ledger() == after, f"a retry with the same key wrote again: {url} {shown(form)}"

    post()
    print(f"\n{name} {event_type if name == 'event-add' else ''}: {dict(sorted(answered.items()))}")


def own_key(form: dict[str, Any], serial: int) -> dict[str, Any]:
    """Give a key of 8 characters or more this post's own first 8 (its length kept), so that a key
    is used again only by the retry within one example and an example fails the same every time."""
    key = form.get("idempotency_key")
    if isinstance(key, str) and len(key) >= 8:
        return {**form, "idempotency_key": f"{serial:08d}{key[8:]}"}
    return form


def shown(form: dict[str, Any]) -> str:
    return repr(
        {k: v if len(str(v)) < 80 else f"{str(v)[:40]}… ({len(v)})" for k, v in form.items()}
    )


# Addresses that only read (GET), and the score-sheet screens (classic Dummy, Gong Zhu), which
# take other forms and are not fuzzed here yet.
READS = {
    "home", "group", "audit", "player", "group-export", "table", "summary", "history",
    "night-export", "game", "manifest", "service-worker", "offline", "scoresheet-hand",
    "scoresheet-history", "offline-game", "summary-card", "shared", "shared-card",
}  # fmt: skip
NOT_FUZZED = {
    "scoresheet-open", "scoresheet-hand-new", "scoresheet-preview", "scoresheet-hand-void",
    "scoresheet-settle", "scoresheet-paid",
    # Forms without fields to fuzz (withdraw, hand over, settle or take back the tab) or only for
    # a signed-in account (claim).
    "invite-revoke", "owner-hand-over", "claim", "tab-settle", "tab-undo",
    # A settled tab's transfer: tests/views/test_tab_pages.py taps each of its steps, twice.
    "tab-transfer-paid",
}  # fmt: skip


def test_every_address_that_writes_is_fuzzed() -> None:
    names = {n for n in get_resolver().reverse_dict if isinstance(n, str)}
    assert names - READS - NOT_FUZZED == set(FIELDS), "a new address: add it to FIELDS or READS"


@pytest.mark.parametrize("name", sorted(n for n in FIELDS if n != "event-add"))
def test_random_posts_never_fail_and_a_refusal_writes_nothing(targets: Targets, name: str) -> None:
    fuzz(targets, name, EXAMPLES)


@pytest.mark.parametrize("event_type", EVENT_TYPES)
def test_random_events_never_fail_and_a_refusal_writes_nothing(
    targets: Targets, event_type: str
) -> None:
    fuzz(targets, "event-add", max(EXAMPLES // 2, 5), event_type)
