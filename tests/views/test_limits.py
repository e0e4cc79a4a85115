"""Limits wherever a stranger can knock: signing up is limited per address
(SCOREKEEPER_SIGNUPS_AN_HOUR), and new groups per address and per signed-in account
(SCOREKEEPER_GROUPS_AN_HOUR); each refusal is told in Thai."""

from django.contrib.auth.models import User
from django.test import Client


def sign_up(phone: Client, name: str) -> int:
    password = "ไพ่ดัมมี่-" + "x" * 10
    data = {"username": name, "password1": password, "password2": password}
    return phone.post("/accounts/signup", data).status_code


def test_an_address_signs_up_only_so_many_accounts_an_hour(db, settings):
    settings.SIGNUPS_AN_HOUR = 2
    club = {"REMOTE_ADDR": "10.7.7.7"}
    assert [sign_up(Client(**club), name) for name in ("ann", "bee")] == [302, 302]
    refused = Client(**club).post(
        "/accounts/signup", {"username": "cat", "password1": "x" * 12, "password2": "x" * 12}
    )
    assert refused.status_code == 422
    assert "สมัครบัญชีใหม่จากที่นี่มากเกินไป: รอหนึ่งชั่วโมงแล้วลองใหม่" in refused.content.decode()
    assert not User.objects.filter(username="cat").exists()
    assert sign_up(Client(REMOTE_ADDR="10.8.8.8"), "cat") == 302  # another address


def test_a_signed_in_account_is_held_to_the_group_limit_from_any_address(db, settings):
    settings.GROUPS_AN_HOUR = 2
    phone = Client()
    phone.force_login(User.objects.create_user("ann", password="x" * 12))
    for n, address in enumerate(["10.1.0.1", "10.1.0.2"]):
        made = phone.post(
            "/groups/new", {"name": f"ก๊วน {n}", "host_name": "Ann"}, REMOTE_ADDR=address
        )
        assert made.status_code == 302
    refused = phone.post(
        "/groups/new", {"name": "อีกก๊วน", "host_name": "Ann"}, REMOTE_ADDR="10.1.0.3"
    )
    assert refused.status_code == 422
    assert "บัญชีนี้ตั้งก๊วนใหม่มากเกินไป" in refused.content.decode()


def test_signing_in_is_no_way_round_the_address_s_group_limit(db, settings):
    settings.GROUPS_AN_HOUR = 1
    club = "10.2.0.1"
    assert (
        Client()
        .post("/groups/new", {"name": "ก๊วน", "host_name": "Ann"}, REMOTE_ADDR=club)
        .status_code
        == 302
    )
    phone = Client()
    phone.force_login(User.objects.create_user("bee", password="x" * 12))
    refused = phone.post("/groups/new", {"name": "อีกก๊วน", "host_name": "Ann"}, REMOTE_ADDR=club)
    assert refused.status_code == 422
    assert "ตั้งก๊วนใหม่จากที่นี่มากเกินไป" in refused.content.decode()
