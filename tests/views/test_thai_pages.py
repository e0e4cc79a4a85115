"""With Thai chosen, no English is left on any page.

Every address of the URLconf is either rendered here, with data that gives it content, or listed
in NOT_PAGES with the reason it has no page of its own. The visible text of each answer (and the
attributes a person sees or hears: title, aria-label, placeholder, alt, a button's value, and the
texts the scripts show from data-*) must hold no Latin-script word beyond names, addresses, codes
and the short ALLOWED list.
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from pytest_django import DjangoDbBlocker

from scorekeeper.models import Game, Group, Membership, Night, Transfer
from scorekeeper.reads.money import Choices
from scorekeeper.services import access, costs, debts, games, nights, scoresheet, sharing
from tests.conftest import written_once
from tests.scoresheet_nights import score_sheets
from tests.views.test_group_rules import rules_data

# Latin-script words that stay as they are in a Thai page, each for its reason.
ALLOWED = {
    "EN",  # the language switch's button for English, named in English on purpose
    "CSV",  # the names of the download formats, as a spreadsheet program shows them
    "JSON",
    "LINE",  # the chat app the settle-up is pasted into, by its name
}
# A card as its face shows it (Q♠, 10♥) and a run by its ranks (Q-K-A): what the cards say.
CARDS = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]|\b(?:[2-9JQKA]|10)(?:-(?:[2-9JQKA]|10))+\b")
NAMES = ["เอ๋", "บี", "ซี", "ดี"]
GONG = ["เอ๋", "บี", "ซี", "ดี"]
WORD = re.compile(r"[A-Za-z][A-Za-z'’.-]*[A-Za-z]|[A-Za-z]")
# Addresses and codes are not words: a path, a web address, an e-mail-like or dotted name.
NOT_WORDS = re.compile(r"\S*(?:/|://|@)\S*")
PLACEHOLDERS = re.compile(r"\{\w+\}")  # filled in by queue.js: {n} entries, code {status}
TEXT_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "label"}
# The texts the scripts show from the page: a banner's template, a question before signing out …
DATA_TEXTS = {"data-template", "data-waiting", "data-unknown", "data-confirm", "data-title"}

# Addresses that are no page, each with its reason.
NOT_PAGES = {
    "manifest": "the web app manifest: JSON for the browser (its name is checked below)",
    "service-worker": "JavaScript for the browser",
    "group-export": "a file to download",
    "night-export": "a file to download",
    "set_language": "a POST that redirects",
    "logout": "a POST that redirects",
    "member-remove": "a POST that redirects to the members page",
    "claim-reassign": "a POST that redirects to the members page (a refusal: its Thai reason)",
    "invite-revoke": "a POST that redirects to the members page",
    "transfer-paid": "a POST that redirects to the settle page",
    "debt-paid": "a POST that redirects to the settle page or the group page (a refusal: its Thai"
    " message there)",
    "scoresheet-paid": "a POST that redirects to the settle page",
    "event-remove": "a POST that redirects to the table (a refusal answers with the table page)",
    "game-undo": "a POST that redirects to the end-of-game form (a refusal: the table page)",
    "summary-card": "a PNG picture (its Thai is checked in tests/test_card.py)",
    "shared-card": "a PNG picture (its Thai is checked in tests/test_card.py)",
    "share-revoke": "a POST that redirects to the summary",
    "member-is": "a POST that redirects to the group page",
    "game-paid": "a POST that redirects to the table or the game (a refusal: the table page)",
    "promptpay": "a POST that redirects to the group page (its Thai error is tested with it)",
    "cost-add": "a POST that redirects to the settle page (its Thai errors: test_costs.py)",
    "cost-remove": "a POST that redirects to the settle page",
    "tab-settle": "a POST that redirects to the group page (its Thai refusal: test_tab_pages.py)",
    "tab-undo": "a POST that redirects to the group page",
    "tab-transfer-paid": "a POST that redirects to the group page",
}


class Visible(HTMLParser):
    """The text a person sees or hears on a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[tuple[str, str]] = []
        self._skip: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "template"):
            self._skip.append(tag)
        values = dict(attrs)
        for name, value in attrs:
            if value and (name in TEXT_ATTRIBUTES or name in DATA_TEXTS):
                self.parts.append((f"<{tag} {name}>", value))
        kind = (values.get("type") or "").lower()
        # A <button>'s value is sent, not shown; an <input type="submit">'s is its label.
        if values.get("value") and tag == "input" and kind in ("submit", "button", "reset"):
            self.parts.append((f"<{tag} value>", values["value"] or ""))

    def handle_endtag(self, tag: str) -> None:
        if self._skip and self._skip[-1] == tag:
            self._skip.pop()

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.parts.append(("text", data))


def english(html: str, names: set[str]) -> list[str]:
    """Each Latin-script word of the visible text, with where it stands."""
    parser = Visible()
    parser.feed(html)
    found = []
    for where, text in parser.parts:
        for name in sorted(names, key=len, reverse=True):
            text = text.replace(name, " ")
        text = CARDS.sub(" ", PLACEHOLDERS.sub(" ", NOT_WORDS.sub(" ", text)))
        for word in WORD.findall(text):
            if word not in ALLOWED and not is_code(word):
                found.append(f"{where}: {word!r} in {text.strip()[:80]!r}")
    return found


def is_code(word: str) -> bool:
    """A card code (SQ, H10, DJ), an invite code or a key: capitals and digits, not a word."""
    return bool(re.fullmatch(r"[CDHS](?:[2-9]|10|[JQKA])|[A-Z0-9]{6,}|[A-Za-z0-9_-]{20,}", word))


def names_in_view(group: Group) -> set[str]:
    names = {group.name, *group.players.values_list("name", flat=True)}
    names |= {m.name for m in group.memberships.all() if m.name}
    names |= set(User.objects.values_list("username", flat=True))
    names |= set(group.invites.values_list("code", flat=True))
    return {n for n in names if n}


# -- the data ------------------------------------------------------------------------------------


@dataclass
class Evening:
    group: Group
    host: Membership
    player: Membership
    night: Night
    closed: Night
    dummy: Night
    gong: Night
    in_play: Game
    settled: Game
    tie: Game
    voided: Game
    hand: Game
    gong_hand: Game
    transfer: Transfer
    gong_transfer: Transfer
    start_key: str
    invite_token: str
    urls: dict[str, list[str]] = field(default_factory=dict)


def phone(client: Client, membership: Membership) -> None:
    store = client.session
    store["device"] = membership.device_id
    store.save()


def knock(knocker: str, kind: str, **points: int) -> dict[str, object]:
    return {"knock": {"player": knocker, "kind": kind}, "points": points}


@pytest.fixture(scope="module")
def written(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[Evening]:
    """The evening, written once for the module's tests, which only read it (each test's own
    writes are rolled back after it): it costs as much as most of these tests."""
    with written_once(django_db_blocker):
        yield an_evening()


@pytest.fixture
def evening(db: None, written: Evening, client: Client) -> Evening:
    """The evening, the test's phone signed in as its host."""
    phone(client, written.host)
    return written


def an_evening() -> Evening:
    """A group with a night of Knock Dummy in play, a closed one, and a sheet of each other game."""
    device = access.device_create(user_agent="test")
    group = access.group_create(name="ก๊วนวันเสาร์", device=device, host_name="ต้น")
    host = group.memberships.get()
    player, _viewer = (
        Membership.objects.create(group=group, role=role, device=access.device_create(), name=name)
        for role, name in ((Membership.Role.PLAYER, "หน่อง"), (Membership.Role.VIEWER, "แดง"))
    )
    access.invite_create(group=group, role=Membership.Role.PLAYER, by=host)
    invite = access.invite_create(group=group, role=Membership.Role.VIEWER, by=host)

    a, b, c, d = NAMES
    closed = nights.night_open(
        group=group, players=NAMES, stake_level="sian", point_value=Decimal("0.5"), actor=host
    )
    game = games.game_start(night=closed, actor=host)
    games.event_add(game=game, event={"type": "head", "player": b}, actor=host)
    games.game_finish(game=game, outcome=knock(a, "dark", **{b: 10, c: 20, d: 30}), actor=host)
    game = games.game_start(night=closed, actor=host)
    games.game_finish(game=game, outcome=knock(b, "light-color", **{a: 5, c: 25, d: 40}))
    # A shared cost, one taken back, a table fee to the house and rounding.
    seated = [s.player for s in closed.standings.select_related("player")]
    costs.cost_add(night=closed, reason="ข้าวมันไก่", baht=Decimal(200), paid_by=seated[0],
                   among=seated, actor=host)  # fmt: skip
    wrong = costs.cost_add(night=closed, reason="โค้ก", baht=Decimal(40), paid_by=seated[1],
                           among=seated[:2], actor=host)  # fmt: skip
    costs.cost_remove(cost=wrong, actor=host)
    transfers = nights.night_close(
        night=closed, choices=Choices(fee=Decimal(20), rounding=5), actor=host
    )
    nights.payment_record(transfer=transfers[0], actor=host)

    night = nights.night_open(
        group=group, players=NAMES, stake_level="thep", point_value=Decimal(1), actor=host
    )
    settled = games.game_start(night=night, actor=host)
    games.game_finish(game=settled, outcome=knock(c, "normal", **{a: 10, b: 20, d: 30}))
    voided = games.game_start(night=night, actor=host)
    games.game_finish(game=voided, outcome=knock(d, "dark-color", **{a: 10, b: 20, c: 30}))
    games.game_void(game=voided, actor=host)
    tie = games.game_start(night=night, actor=host)
    games.game_finish(game=tie, outcome=knock(c, "normal", **{a: 10, b: 10, d: 25}))
    in_play = games.game_start(night=night, head_color="red", actor=host, idempotency_key="k1")
    costs.cost_add(night=night, reason="น้ำแข็ง", baht=Decimal("30.50"), paid_by=seated[2],
                   among=seated, actor=host)  # fmt: skip
    tie.refresh_from_db()
    # Carried to next time: one still owed, one paid at the next night.
    owed, paid = (debts.transfer_carry(transfer=t, actor=host) for t in transfers[1:3])
    debts.debt_settle(debt=paid, night=night, actor=host)
    assert owed.baht > 0
    dummy, hand, gong, gong_hand = score_sheets(group, host, NAMES)
    gong_transfers = scoresheet.scoresheet_close(night=gong, actor=host)
    User.objects.create_user("สมชาย", password="ไพ่ดัมมี่ทุกคืน")
    return Evening(
        group=group,
        host=host,
        player=player,
        night=night,
        closed=closed,
        dummy=dummy,
        gong=gong,
        in_play=in_play,
        settled=settled,
        tie=tie,
        voided=voided,
        hand=hand,
        gong_hand=gong_hand,
        transfer=transfers[0],
        gong_transfer=gong_transfers[0],
        start_key="k-offline",
        invite_token=invite.token,
    )


def pages(e: Evening) -> dict[str, list[str]]:
    """Each page's addresses, by the URL name, for a GET."""
    g, n, s = e.group.pk, e.night.pk, e.closed.pk
    player = e.group.players.order_by("name").first()
    assert player is not None
    link = sharing.share_link_for(night=e.closed)
    return {
        "home": ["/"],
        "shared": [f"/n/{link.token}"],
        "offline": ["/offline"],
        "login": ["/accounts/login"],
        "signup": ["/accounts/signup"],
        "claim": ["/accounts/claim"],
        "group": [f"/g/{g}/"],
        "night-open": [f"/g/{g}/sessions/new"],
        "scoresheet-open": [f"/g/{g}/race/dummy-points/new", f"/g/{g}/race/gong-zhu/new"],
        "members": [f"/g/{g}/members"],
        "audit": [f"/g/{g}/audit"],
        "player": [f"/g/{g}/players/{player.pk}"],
        "join": ["/join"],
        "join-link": [f"/join/{e.invite_token}"],
        "table": [f"/s/{n}/", f"/s/{s}/", f"/s/{e.dummy.pk}/", f"/s/{e.gong.pk}/"],
        "seats": [f"/s/{n}/seats"],
        "settle": [f"/s/{n}/settle", f"/s/{s}/settle"],
        "summary": [f"/s/{s}/summary", f"/s/{n}/summary"],
        "history": [f"/s/{n}/history", f"/s/{s}/history"],
        "game": [f"/s/{n}/games/{g_.pk}/" for g_ in (e.settled, e.voided, e.tie, e.in_play)],
        "event-add": [f"/s/{n}/games/{e.in_play.pk}/events/{t}" for t in EVENTS],
        "game-finish": [f"/s/{n}/games/{e.in_play.pk}/finish"],
        "offline-game": [f"/s/{n}/games/key/{e.start_key}/"],
        "offline-event": [f"/s/{n}/games/key/{e.start_key}/events/{t}" for t in EVENTS],
        "offline-finish": [f"/s/{n}/games/key/{e.start_key}/finish"],
        "game-void": [f"/s/{n}/games/{e.settled.pk}/void"],
        "game-correct": [f"/s/{n}/games/{e.voided.pk}/correct"],
        "scoresheet-hand-new": [f"/s/{e.dummy.pk}/hands/new", f"/s/{e.gong.pk}/hands/new"],
        "scoresheet-hand": [
            f"/s/{e.dummy.pk}/hands/{e.hand.pk}/",
            f"/s/{e.gong.pk}/hands/{e.gong_hand.pk}/",
        ],
        "scoresheet-hand-void": [f"/s/{e.dummy.pk}/hands/{e.hand.pk}/void"],
        "scoresheet-settle": [f"/s/{e.dummy.pk}/race/settle", f"/s/{e.gong.pk}/race/settle"],
        "scoresheet-history": [f"/s/{e.dummy.pk}/race/history", f"/s/{e.gong.pk}/race/history"],
    }


ALONE = {"cost-reason": "ข้าว", "cost-baht": "๑๐๐"}  # a cost shared with nobody: refused
EVENTS = ["head", "speto", "dummy-discard", "full-discard", "show-speto", "fine"]


def posts(e: Evening) -> dict[str, list[tuple[str, dict[str, str]]]]:
    """Forms sent empty or wrong, by the URL name: the pages that answer with their errors."""
    g, n = e.group.pk, e.night.pk
    return {
        "group-create": [("/groups/new", {"name": " "})],
        "night-open": [(f"/g/{g}/sessions/new", {"seat_0": "x" * 50, "fine": "-1"})],
        "scoresheet-open": [
            (f"/g/{g}/race/dummy-points/new", {}),
            (f"/g/{g}/race/gong-zhu/new", {"seat_0": NAMES[0]}),
        ],
        "members": [(f"/g/{g}/members", {"role": "ไม่มี", "life": "สิบ"})],
        "join": [("/join", {"code": "ZZZZZZZZ", "name": "ก"})],
        "join-link": [(f"/join/{e.invite_token}", {})],
        "login": [("/accounts/login", {"username": "สมชาย", "password": "ผิด"})],
        "signup": [
            ("/accounts/signup", {}),
            ("/accounts/signup", {"username": "สมชาย", "password1": "1", "password2": "2"}),
            (
                "/accounts/signup",
                {"username": "มานี", "password1": "password", "password2": "password"},
            ),
            (
                "/accounts/signup",
                {"username": "มานี12", "password1": "มานี12x", "password2": "มานี12x"},
            ),
            (
                "/accounts/signup",
                {"username": "มานี", "password1": "83749261", "password2": "83749261"},
            ),
        ],
        "game-finish": [
            (f"/s/{n}/games/{e.in_play.pk}/finish", {}),
            (
                f"/s/{n}/games/{e.in_play.pk}/finish",
                {
                    "ending": "knock",
                    "knocker": NAMES[0],
                    "kind": "normal",
                    "points_1": "99999999999",
                },
            ),
        ],
        "event-add": [(f"/s/{n}/games/{e.in_play.pk}/events/head", {})],
        "game-preview": [
            (
                f"/s/{n}/games/{e.in_play.pk}/preview",
                {"ending": "knock", "knocker": NAMES[0], "kind": "normal", "points_1": "x"},
            ),
            (f"/s/{n}/games/{e.in_play.pk}/preview", {"ending": "knock", "kind": "dark"}),
        ],
        "scoresheet-preview": [
            (f"/s/{e.dummy.pk}/hands/preview", {"knocker": NAMES[0], "kind": "normal"}),
            (f"/s/{e.gong.pk}/hands/preview", {"card_SQ": "1"}),
        ],
        "game-start": [(f"/s/{n}/games/start", {})],
        "game-tie": [(f"/s/{n}/games/{e.tie.pk}/tie", {"head_color": "red"})],
        "owner-hand-over": [(f"/g/{g}/members/{e.player.pk}/owner", {})],
        "game-void": [(f"/s/{n}/games/{e.voided.pk}/void", {})],
        "game-correct": [(f"/s/{n}/games/{e.voided.pk}/correct", {"ending": "knock"})],
        "seats": [(f"/s/{n}/seats", {"seat_0": ""})],
        "settle": [(f"/s/{n}/settle", {"mode": "hub"})],
        "table-cost-add": [  # the form's errors at the table, and the service's refusal
            (f"/s/{n}/costs/at-table", {"cost-baht": "เยอะ"}),
            (f"/s/{n}/costs/at-table", {**ALONE, "cost-paid_by": NAMES[0], "cost-among": NAMES[0]}),
        ],
        "group-rules": [  # the forms' errors, and the service's refusal beside its field
            (f"/g/{g}/rules", {"kd-stake_level": "custom", "close-fee": "-1", "gz-direction": "ขึ"}),
            (f"/g/{g}/rules", rules_data(**{"close-mode": "hub"})),
        ],
        "scoresheet-hand-new": [
            (f"/s/{e.dummy.pk}/hands/new", {"knocker": NAMES[0], "table_0": "-3"}),
            (f"/s/{e.gong.pk}/hands/new", {}),
        ],
    }


def urlconf_names() -> set[str]:
    found: set[str] = set()

    def walk(patterns: list[URLPattern | URLResolver]) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns)
            elif p.name:
                found.add(p.name)

    walk(get_resolver().url_patterns)
    return found


# -- the tests -----------------------------------------------------------------------------------


def test_every_address_of_the_urlconf_is_a_page_rendered_here_or_named_as_no_page(
    evening: Evening,
):
    rendered = set(pages(evening)) | set(posts(evening))
    assert urlconf_names() - rendered - set(NOT_PAGES) == set()
    assert set(NOT_PAGES) & rendered == set()


@pytest.fixture
def thai(client: Client) -> Client:
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "th"
    return client


def seen(response: HttpResponse, names: set[str]) -> list[str]:
    """The English of an HTML answer (nothing for a redirect, a file or an empty body)."""
    if "text/html" not in response.get("Content-Type", "") or not response.content:
        return []
    return english(response.content.decode(), names)


def test_every_page_is_thai_to_the_last_word(thai: Client, evening: Evening):
    names = names_in_view(evening.group)
    problems: dict[str, list[str]] = {}
    for name, urls in pages(evening).items():
        for url in urls:
            if name == "claim":
                thai.force_login(User.objects.get(username="สมชาย"))
            response = thai.get(url)
            if response.status_code not in (200, 302):
                problems[f"GET {url}"] = [f"status {response.status_code}"]
            elif found := seen(response, names):
                problems[f"GET {url}"] = found
            if name == "claim":
                thai.logout()
                phone(thai, evening.host)
    for sent in posts(evening).values():
        for url, data in sent:
            if found := seen(thai.post(url, data), names):
                problems[f"POST {url} {sorted(data)}"] = found
    report = "\n".join(f"{at}\n    " + "\n    ".join(found) for at, found in problems.items())
    assert not problems, report


# -- the error pages -----------------------------------------------------------------------------


@pytest.fixture(params=[True, False], ids=["debug", "production"])
def debug(request: pytest.FixtureRequest, settings: Any) -> bool:
    """Each error page as development and as production (DEBUG off) answer it."""
    settings.DEBUG = request.param
    return bool(request.param)


def test_an_unknown_address_answers_the_thai_404_page(thai: Client, evening: Evening, debug):
    if debug:
        pytest.skip("with DEBUG on Django shows its technical 404 page, for the developer")
    response = thai.get(f"/g/{evening.group.pk + 1000}/")
    body = response.content.decode()
    assert response.status_code == 404
    assert "ไม่พบหน้านี้" in body and '<html lang="th">' in body
    assert english(body, set()) == []


def test_a_player_refused_a_hosts_page_is_told_why_in_thai(thai: Client, evening: Evening, debug):
    phone(thai, evening.player)
    response = thai.get(f"/g/{evening.group.pk}/members")
    body = response.content.decode()
    assert response.status_code == 403
    assert "เฉพาะผู้ดูแลก๊วนทำได้" in body
    assert english(body, names_in_view(evening.group)) == []


def test_a_refusal_of_the_service_is_the_reason_on_the_403_page(thai: Client, evening: Evening):
    response = thai.post(f"/g/{evening.group.pk}/members/{evening.player.pk}/owner")
    assert response.status_code == 403
    assert "ยกก๊วนให้ได้เฉพาะผู้ดูแลของก๊วนเท่านั้น" in response.content.decode()


def test_a_form_without_its_csrf_token_answers_the_thai_page(evening: Evening, debug):
    strict = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="th")
    phone(strict, evening.host)
    response = strict.post(f"/g/{evening.group.pk}/members", {"role": "player"})
    body = response.content.decode()
    assert response.status_code == 403
    assert "แบบฟอร์มหมดอายุ" in body and "คุกกี้" in body
    assert english(body, names_in_view(evening.group)) == []
    strict.get("/")  # now the browser holds the cookie, but the form has no token
    response = strict.post(f"/g/{evening.group.pk}/members", {"role": "player"})
    assert "โหลดหน้าใหม่" in response.content.decode()


def test_a_server_error_answers_the_thai_500_page(evening: Evening, settings: Any):
    settings.DEBUG = False
    crashing = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="th")
    settings.ROOT_URLCONF = "tests.views.crashing_urls"
    response = crashing.get("/crash")
    body = response.content.decode()
    assert response.status_code == 500
    assert "เกิดข้อผิดพลาด" in body and '<html lang="th">' in body
    assert english(body, set()) == []


def test_a_sign_in_locked_out_answers_the_thai_page(thai: Client, evening: Evening):
    wrong = {"username": "สมชาย", "password": "ผิด"}
    for _ in range(5):
        thai.post("/accounts/login", wrong)
    response = thai.post("/accounts/login", wrong)
    body = response.content.decode()
    assert response.status_code == 429
    assert "รอ 15 นาที" in body
    assert english(body, names_in_view(evening.group)) == []


# -- roles: nobody sees a button they may not use --------------------------------------------


@pytest.fixture
def player(thai: Client, evening: Evening) -> Client:
    phone(thai, evening.player)
    return thai


@pytest.fixture
def viewer(thai: Client, evening: Evening) -> Client:
    phone(thai, evening.group.memberships.get(role=Membership.Role.VIEWER))
    return thai


def test_a_player_sees_no_members_page_and_no_close_of_the_night(player, evening: Evening):
    group = player.get(f"/g/{evening.group.pk}/").content.decode()
    settle = player.get(f"/s/{evening.night.pk}/settle").content.decode()
    assert f"/g/{evening.group.pk}/members" not in group
    assert f'action="/s/{evening.night.pk}/settle"' not in settle
    assert "ผู้ดูแลก๊วนเป็นคนปิดวงและเคลียร์เงิน" in settle


def test_a_player_closing_the_night_anyway_is_refused_in_thai(player, evening: Evening):
    response = player.post(f"/s/{evening.night.pk}/settle", {"mode": "fewest"})
    assert response.status_code == 403
    assert "เฉพาะผู้ดูแลก๊วนทำได้" in response.content.decode()
    evening.night.refresh_from_db()
    assert evening.night.is_open


def test_a_player_removing_a_member_or_withdrawing_an_invite_is_refused_in_thai(
    player, evening: Evening
):
    g = evening.group.pk
    invite = evening.group.invites.first()
    assert invite is not None
    for url in (f"/g/{g}/members/{evening.host.pk}/remove", f"/g/{g}/invites/{invite.pk}/revoke"):
        response = player.post(url)
        assert response.status_code == 403, url
        assert "เฉพาะผู้ดูแลก๊วนทำได้" in response.content.decode()


def test_a_viewer_sees_who_paid_but_no_button_to_mark_it(viewer, evening: Evening):
    body = viewer.get(f"/s/{evening.closed.pk}/settle").content.decode()
    assert "จ่ายแล้ว" in body
    assert "/paid" not in body
    assert (
        f"/g/{evening.group.pk}/sessions/new"
        not in viewer.get(f"/g/{evening.group.pk}/").content.decode()
    )


def test_a_viewer_marking_a_transfer_paid_anyway_is_refused_in_thai(viewer, evening: Evening):
    response = viewer.post(f"/s/{evening.closed.pk}/transfers/{evening.transfer.pk}/paid")
    assert response.status_code == 403
    assert "ผู้ชมดูได้อย่างเดียว" in response.content.decode()
