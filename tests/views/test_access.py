"""Who may see and change a table: every URL as an outsider, a viewer and a player."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import get_resolver
from django.utils import timezone

from scorekeeper.models import Game, Invite, Limit, Membership
from scorekeeper.services import access, costs, debts, games, nights, scoresheet, tabs
from tests.conftest import written_once
from tests.views.conftest import finish_data, make_table, member

VIEWER, PLAYER, HOST = Membership.Role.VIEWER, Membership.Role.PLAYER, Membership.Role.HOST
PUBLIC = {
    "home", "group-create", "join", "join-link", "set_language", "login", "logout", "signup",
    "claim", "manifest", "service-worker", "offline",
    "shared", "shared-card",  # a night's share link: the unguessable token is the key
}  # fmt: skip

# name -> (method, the role it needs)
GUARDED = {
    "group": ("get", VIEWER),
    "audit": ("get", VIEWER),
    "player": ("get", VIEWER),
    "history": ("get", VIEWER),
    "group-export": ("get", VIEWER),
    "night-export": ("get", VIEWER),
    "night-open": ("post", PLAYER),
    "members": ("post", HOST),
    "member-is": ("post", VIEWER),
    "promptpay": ("post", VIEWER),
    "group-rules": ("post", HOST),
    "member-remove": ("post", HOST),
    "claim-reassign": ("post", HOST),
    "invite-revoke": ("post", HOST),
    "owner-hand-over": ("post", HOST),
    "table": ("get", VIEWER),
    "game-start": ("post", PLAYER),
    "event-add": ("post", PLAYER),
    "event-remove": ("post", PLAYER),
    "game-undo": ("post", PLAYER),
    "game-paid": ("post", PLAYER),
    "seats": ("post", HOST),
    "settle": ("post", HOST),
    "cost-add": ("post", PLAYER),
    "cost-remove": ("post", PLAYER),
    "table-cost-add": ("post", PLAYER),
    "summary": ("get", VIEWER),
    "summary-card": ("get", VIEWER),
    "share-revoke": ("post", HOST),
    "transfer-paid": ("post", PLAYER),
    "debt-paid": ("post", PLAYER),
    "tab-settle": ("post", HOST),
    "tab-undo": ("post", HOST),
    "tab-transfer-paid": ("post", PLAYER),
    "game": ("get", VIEWER),
    "game-finish": ("post", PLAYER),
    "offline-game": ("get", PLAYER),
    "offline-event": ("post", PLAYER),
    "offline-finish": ("post", PLAYER),
    "game-preview": ("post", PLAYER),
    "game-void": ("post", HOST),
    "game-tie": ("post", PLAYER),
    "game-correct": ("post", HOST),
    "scoresheet-open": ("post", PLAYER),
    "scoresheet-hand-new": ("post", PLAYER),
    "scoresheet-preview": ("post", PLAYER),
    "scoresheet-hand": ("get", VIEWER),
    "scoresheet-hand-void": ("post", HOST),
    "scoresheet-settle": ("post", HOST),
    "scoresheet-history": ("get", VIEWER),
    "scoresheet-paid": ("post", PLAYER),
}


def url_names() -> set[str]:
    return {name for name in get_resolver().reverse_dict if isinstance(name, str)}


@pytest.fixture
def night(table, client):
    """A table with a finished game, a game in play and a closed-night transfer elsewhere."""
    return evening(table)


def evening(table):
    """The `night` fixture's data on `table`: the ids of everything an address names."""
    first = games.game_start(night=table)
    games.game_finish(
        game=first,
        outcome={
            "knock": {"player": "Ann", "kind": "normal"},
            "points": {"Bee": 1, "Cat": 2, "Dan": 3},
        },
    )
    games.game_start(night=table, fool_swap=False)
    other = nights.night_open(
        group=table.group,
        players=["Ann", "Bee", "Cat", "Dan"],
        stake_level="thep",
        point_value=Decimal(1),
    )
    play = games.game_start(night=other)
    games.game_finish(
        game=play,
        outcome={
            "knock": {"player": "Bee", "kind": "normal"},
            "points": {"Ann": 1, "Cat": 2, "Dan": 3},
        },
    )
    transfer, second = nights.night_close(night=other)[:2]
    host = Membership.objects.get(group=table.group, role=HOST)
    carried = debts.transfer_carry(transfer=second)
    tab = tabs.tab_settle(group=table.group, actor=host)  # the tab of that one carry
    gong_zhu = {"house": {}, "target": {"points": 100, "direction": "down"}}
    sheet = scoresheet.scoresheet_open(
        group=table.group, ruleset="gong-zhu", players=["Ann", "Bee", "Cat"], **gong_zhu
    )
    deal = {"captured": {"Ann": ["SQ"], "Bee": [c for c in scoresheet.BIG_SHUAN if c != "SQ"]}}
    hand = scoresheet.hand_record(night=sheet, hand=deal)
    paid = scoresheet.scoresheet_open(
        group=table.group, ruleset="gong-zhu", players=["Ann", "Bee", "Cat"], **gong_zhu,
        point_value=Decimal(1),
    )  # fmt: skip
    scoresheet.hand_record(night=paid, hand=deal)
    return {
        "scoresheet_night": sheet.pk,
        "scoresheet_game": hand.pk,
        "scoresheet_transfer_night": paid.pk,
        "scoresheet_transfer": scoresheet.scoresheet_close(night=paid)[0].pk,
        "group_id": table.group.pk,
        "night_id": table.pk,
        "game_id": first.pk,
        "transfer_night": other.pk,
        "transfer_id": transfer.pk,
        "debt_id": debts.transfer_carry(transfer=transfer).pk,
        "tab_id": tab.pk,
        "tab_transfer_id": tab.transfers.get(payer=carried.payer, payee=carried.payee).pk,
        "membership_id": host.pk,
        "player_id": first.dealer.pk,
        "invite_id": access.invite_create(group=table.group, role=PLAYER, by=host).pk,
        "cost_id": costs.cost_add(
            night=table,
            reason="ข้าว",
            baht=Decimal(100),
            paid_by=first.dealer,
            among=[s.player for s in table.standings.select_related("player")],
        ).pk,  # fmt: skip
    }


def address(name: str, ids: dict) -> str:
    from django.urls import reverse

    kwargs = {
        "group": {"group_id": ids["group_id"]},
        "audit": {"group_id": ids["group_id"]},
        "player": {"group_id": ids["group_id"], "player_id": ids["player_id"]},
        "group-export": {"group_id": ids["group_id"], "kind": "csv"},
        "night-export": {"night_id": ids["night_id"], "kind": "json"},
        "night-open": {"group_id": ids["group_id"]},
        "members": {"group_id": ids["group_id"]},
        "member-is": {"group_id": ids["group_id"]},
        "promptpay": {"group_id": ids["group_id"]},
        "group-rules": {"group_id": ids["group_id"]},
        "member-remove": {"group_id": ids["group_id"], "membership_id": ids["membership_id"]},
        "claim-reassign": {"group_id": ids["group_id"], "membership_id": ids["membership_id"]},
        "owner-hand-over": {"group_id": ids["group_id"], "membership_id": ids["membership_id"]},
        "invite-revoke": {"group_id": ids["group_id"], "invite_id": ids["invite_id"]},
        "event-add": {
            "night_id": ids["night_id"],
            "game_id": ids["game_id"],
            "event_type": "head",
        },
        "event-remove": {"night_id": ids["night_id"], "game_id": ids["game_id"], "number": 1},
        "offline-game": {"night_id": ids["night_id"], "key": "k1"},
        "offline-event": {"night_id": ids["night_id"], "key": "k1", "event_type": "head"},
        "offline-finish": {"night_id": ids["night_id"], "key": "k1"},
        "transfer-paid": {"night_id": ids["transfer_night"], "transfer_id": ids["transfer_id"]},
        "debt-paid": {"group_id": ids["group_id"], "debt_id": ids["debt_id"]},
        "tab-settle": {"group_id": ids["group_id"]},
        "tab-undo": {"group_id": ids["group_id"], "tab_id": ids["tab_id"]},
        "tab-transfer-paid": {"group_id": ids["group_id"], "transfer_id": ids["tab_transfer_id"]},
        "cost-remove": {"night_id": ids["night_id"], "cost_id": ids["cost_id"]},
        "scoresheet-open": {"group_id": ids["group_id"], "ruleset": "gong-zhu"},
        "scoresheet-hand": {
            "night_id": ids["scoresheet_night"],
            "game_id": ids["scoresheet_game"],
        },
        "scoresheet-hand-void": {
            "night_id": ids["scoresheet_night"],
            "game_id": ids["scoresheet_game"],
        },
        "scoresheet-paid": {
            "night_id": ids["scoresheet_transfer_night"],
            "transfer_id": ids["scoresheet_transfer"],
        },
    }.get(name)
    if kwargs is None and name.startswith("scoresheet-"):
        kwargs = {"night_id": ids["scoresheet_night"]}
    if kwargs is None and name.startswith("game-") and name != "game-start" or name == "game":
        kwargs = {"night_id": ids["night_id"], "game_id": ids["game_id"]}
    if kwargs is None:
        kwargs = {"night_id": ids["night_id"]}
    return reverse(name, kwargs=kwargs)


def test_every_url_is_either_public_or_guarded_with_a_role():
    assert url_names() == PUBLIC | set(GUARDED)


@pytest.mark.django_db
class TestEveryAddress:
    """Every guarded address tried by each role, on one evening written once for them all: the
    tests only read it, and each runs in a transaction of its own inside the evening's
    (tests/conftest.py, written_once), so none sees what another wrote."""

    @pytest.fixture(scope="class")
    @classmethod
    def night(cls, django_db_setup, django_db_blocker):
        with written_once(django_db_blocker):
            yield evening(make_table(Client()))

    @pytest.mark.parametrize("name", sorted(GUARDED))
    def test_an_outsider_finds_nothing_at_any_address_of_a_group(self, night, name):
        outsider = Client()
        url = address(name, night)
        method, _ = GUARDED[name]
        assert getattr(outsider, method)(url, {}).status_code == 404
        # The other method is refused too: 405 comes before any lookup, so it tells nothing either.
        other = outsider.post if method == "get" else outsider.get
        assert other(url).status_code in (404, 405)

    @pytest.mark.parametrize(
        "name",
        sorted(n for n, (method, role) in GUARDED.items() if role != VIEWER and method == "post"),
    )
    def test_a_viewer_can_look_but_not_write(self, night, name):
        viewer = Client()
        member(viewer, Game.objects.get(pk=night["game_id"]).night.group, VIEWER)
        lines_before = Game.objects.get(pk=night["game_id"]).night.lines.count()
        assert viewer.post(address(name, night), finish_data()).status_code == 403
        assert Game.objects.get(pk=night["game_id"]).night.lines.count() == lines_before

    @pytest.mark.parametrize(
        "name",
        sorted(n for n, (method, role) in GUARDED.items() if role == VIEWER and method == "get"),
    )
    def test_a_viewer_sees_every_page_for_viewers(self, night, name):
        viewer = Client()
        member(viewer, Game.objects.get(pk=night["game_id"]).night.group, VIEWER)
        assert viewer.get(address(name, night)).status_code == 200

    @pytest.mark.parametrize("name", sorted(n for n, (_, role) in GUARDED.items() if role == HOST))
    def test_a_player_cannot_do_what_is_the_hosts(self, night, name):
        player = Client()
        member(player, Game.objects.get(pk=night["game_id"]).night.group, PLAYER)
        assert (
            player.post(
                address(name, night),
                {"role": "host", "position": "0", "name": "X", "mode": "fewest"},
            ).status_code
            == 403
        )


def test_the_home_page_lists_only_the_visitors_own_groups(en, table):
    access.group_create(name="Someone else's table")
    body = en.get("/").content.decode()
    assert "Saturday" in body
    assert "Someone else" not in body


def test_a_player_joins_with_the_code_read_out_at_the_table(en, table):
    host = Membership.objects.get(group=table.group)
    invite = access.invite_create(group=table.group, role=PLAYER, by=host)
    phone = Client()
    phone.get("/")
    before = phone.session.session_key
    response = phone.post(
        "/join", {"code": invite.code.lower()[:4] + " " + invite.code.lower()[4:], "name": "Bee"}
    )
    assert response.status_code == 302
    assert response.url == f"/s/{table.pk}/"  # straight to the night being played
    assert phone.session.session_key != before  # the session key is rotated on join
    assert phone.get(f"/s/{table.pk}/").status_code == 200
    assert Membership.objects.get(group=table.group, name="Bee").role == PLAYER


def test_codes_are_rate_limited_per_address(en, table):
    host = Membership.objects.get(group=table.group)
    invite = access.invite_create(group=table.group, role=PLAYER, by=host)
    phone = Client(REMOTE_ADDR="10.1.2.3", HTTP_ACCEPT_LANGUAGE="en")
    for _ in range(10):
        assert phone.post("/join", {"code": "WRONG234"}).status_code == 422
    refused = phone.post("/join", {"code": invite.code})
    assert refused.status_code == 422
    assert "wait ten minutes" in refused.content.decode()
    assert not Membership.objects.filter(group=table.group, role=PLAYER).exists()
    Limit.objects.update(since=timezone.now() - timedelta(minutes=11))
    assert phone.post("/join", {"code": invite.code}).status_code == 302


def test_an_invite_link_carries_at_least_128_random_bits_and_expires(en, table):
    host = Membership.objects.get(group=table.group)
    invite = access.invite_create(group=table.group, role=VIEWER, by=host)
    assert len(invite.token) * 6 >= 128  # URL-safe base64: 6 bits a character
    phone = Client()
    assert (
        "Join Saturday"
        in phone.get(f"/join/{invite.token}", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    )
    Invite.objects.filter(pk=invite.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    phone.post(f"/join/{invite.token}", {"name": "Late"})
    assert not Membership.objects.filter(name="Late").exists()
    assert phone.get(f"/join/{'x' * 32}").status_code == 404


def test_the_host_makes_an_invite_on_the_members_page(en, table):
    body = en.post(
        f"/g/{table.group.pk}/members", {"role": "viewer", "life": "24"}
    ).content.decode()
    invite = Invite.objects.get()
    assert invite.code in body and invite.token in body
    assert timedelta(hours=23) < invite.expires_at - timezone.now() <= timedelta(hours=24)


def test_the_last_host_cannot_be_removed(en, table):
    host = Membership.objects.get(group=table.group)
    en.post(f"/g/{table.group.pk}/members/{host.pk}/remove")
    host.refresh_from_db()
    assert host.revoked_at is None


def test_a_double_tap_on_save_records_the_game_once(en, in_play):
    data = {**finish_data(), "idempotency_key": "k" * 32}
    first = en.post(f"/s/{in_play.night.pk}/games/{in_play.pk}/finish", data)
    second = en.post(f"/s/{in_play.night.pk}/games/{in_play.pk}/finish", data)
    assert first.status_code == second.status_code == 302
    assert in_play.lines.count() == 6


def test_a_retried_event_is_recorded_once(en, in_play):
    data = {"player": "Bee", "idempotency_key": "e" * 32}
    en.post(f"/s/{in_play.night.pk}/games/{in_play.pk}/events/head", data)
    en.post(f"/s/{in_play.night.pk}/games/{in_play.pk}/events/head", data)
    assert in_play.events.count() == 1


def test_the_second_phone_to_finish_a_game_is_told_who_recorded_it(en, in_play, client):
    other = Client(HTTP_ACCEPT_LANGUAGE="en")
    member(other, in_play.night.group, PLAYER)
    Membership.objects.filter(group=in_play.night.group, role=HOST).update(name="Ann's phone")
    en.post(f"/s/{in_play.night.pk}/games/{in_play.pk}/finish", finish_data())
    late = other.post(
        f"/s/{in_play.night.pk}/games/{in_play.pk}/finish",
        finish_data(knocker="Bee", points_1=""),
    )
    assert late.status_code == 409  # refused: the table as it is now, and who was first
    assert "Game 1 was already recorded by Ann&#x27;s phone" in late.content.decode()
    assert in_play.lines.count() == 6


def test_the_audit_log_says_who_did_what(en, in_play):
    Membership.objects.filter(group=in_play.night.group).update(name="Ann's phone")
    en.post(f"/s/{in_play.night.pk}/games/{in_play.pk}/finish", finish_data())
    body = en.get(f"/g/{in_play.night.group.pk}/audit").content.decode()
    assert "Ann&#x27;s phone · recorded a game&#x27;s end · game 1" in body


def test_every_write_needs_the_csrf_token_which_htmx_sends_in_a_header(table):
    phone = Client(enforce_csrf_checks=True)
    member(phone, table.group, PLAYER)
    page = phone.get(f"/s/{table.pk}/").content.decode()
    assert 'hx-headers=\'{"X-CSRFToken": "' in page  # every htmx request carries it
    refused = phone.post(f"/s/{table.pk}/games/start", {})
    assert refused.status_code == 403
    assert not table.games.exists()
    token = phone.cookies["csrftoken"].value
    allowed = phone.post(f"/s/{table.pk}/games/start", {}, HTTP_X_CSRFTOKEN=token)
    assert allowed.status_code == 302
    assert table.games.count() == 1


def test_long_idempotency_keys_that_share_a_beginning_are_different_keys(en, table):
    start = f"/s/{table.pk}/games/start"
    common = "k" * 64
    en.post(start, {"idempotency_key": common + "first"})
    game = table.games.get()
    games.game_void(game=game)
    second = en.post(start, {"idempotency_key": common + "second"})
    assert second.status_code == 302
    assert table.games.count() == 2  # not mistaken for a retry of the first
    again = en.post(start, {"idempotency_key": common + "second"})
    assert again.status_code == 302 and table.games.count() == 2  # a real retry replays


def test_a_key_holding_a_nul_character_is_stored_safely_and_still_replays(en, table):
    start = f"/s/{table.pk}/games/start"
    assert en.post(start, {"idempotency_key": "a\x00b"}).status_code == 302
    assert en.post(start, {"idempotency_key": "a\x00b"}).status_code == 302  # the retry
    assert table.games.count() == 1


def test_a_refused_seat_change_leaves_no_new_member_behind(en, in_play):
    response = en.post(f"/s/{in_play.night.pk}/seats", {"position": "0", "name": "Zed"})
    assert response.status_code == 422
    assert not in_play.night.group.players.filter(name="Zed").exists()


def test_behind_trusted_proxies_each_phone_has_its_own_limit(table, settings):
    settings.TRUSTED_PROXIES = 1
    proxy = {"REMOTE_ADDR": "127.0.0.1", "HTTP_ACCEPT_LANGUAGE": "en"}
    first = Client(**proxy, HTTP_X_FORWARDED_FOR="203.0.113.7")
    for _ in range(10):
        assert first.post("/join", {"code": "WRONG234"}).status_code == 422
    assert "wait ten minutes" in first.post("/join", {"code": "WRONG234"}).content.decode()
    # Another phone behind the same proxy, which also writes a forged address of its own first
    second = Client(**proxy, HTTP_X_FORWARDED_FOR="203.0.113.7, 198.51.100.4")
    assert "wait ten minutes" not in second.post("/join", {"code": "WRONG234"}).content.decode()


def test_a_phone_without_an_account_makes_only_so_many_groups_an_hour(db, settings):
    settings.GROUPS_AN_HOUR = 3
    phone = Client(REMOTE_ADDR="10.9.9.9", HTTP_ACCEPT_LANGUAGE="en")
    for n in range(3):
        assert (
            phone.post("/groups/new", {"name": f"Group {n}", "host_name": "Ann"}).status_code == 302
        )
    refused = phone.post("/groups/new", {"name": "One more", "host_name": "Ann"})
    assert refused.status_code == 422 and "wait an hour" in refused.content.decode()


def test_a_viewer_is_not_offered_a_game_to_start_on_their_phone(night):
    viewer = Client()
    member(viewer, Game.objects.get(pk=night["game_id"]).night.group, VIEWER)
    assert viewer.get(address("offline-game", night)).status_code == 403


def test_a_phone_joining_a_group_with_no_night_open_lands_on_the_group(en, table):
    nights.night_close(night=table)
    host = Membership.objects.get(group=table.group)
    invite = access.invite_create(group=table.group, role=PLAYER, by=host)
    response = Client().post(f"/join/{invite.token}", {"name": "Bee"})
    assert response.status_code == 302
    assert response.url == f"/g/{table.group_id}/"
