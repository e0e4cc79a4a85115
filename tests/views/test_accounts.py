"""Optional accounts: a second phone reaches the groups; repeated failures lock a login."""

from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import Membership


def test_a_phones_groups_follow_its_account_to_a_second_phone(en, table):
    signup = en.post(
        "/accounts/signup",
        {
            "username": "ann",
            "password1": "a-long-pass-phrase-9",
            "password2": "a-long-pass-phrase-9",
        },
    )
    assert signup["Location"] == "/accounts/claim"  # asked first: the phone may be borrowed
    assert "Saturday" in en.get("/accounts/claim").content.decode()
    assert en.post("/accounts/claim", {"answer": "yes"}).status_code == 302
    assert Membership.objects.get(group=table.group).user.username == "ann"
    assert en.get(f"/s/{table.pk}/").status_code == 200  # still this phone's table
    second = Client()
    assert second.get(f"/s/{table.pk}/").status_code == 404
    second.post("/accounts/login", {"username": "ann", "password": "a-long-pass-phrase-9"})
    assert second.get(f"/s/{table.pk}/").status_code == 200


def test_five_failed_logins_lock_the_account_even_against_the_right_password(db):
    User.objects.create_user("bee", password="right-password-123")
    phone = Client(REMOTE_ADDR="10.9.9.9")
    for _ in range(5):
        phone.post("/accounts/login", {"username": "bee", "password": "wrong"})
    locked = phone.post("/accounts/login", {"username": "bee", "password": "right-password-123"})
    assert locked.status_code == 429
    assert "_auth_user_id" not in phone.session


def test_signing_out_needs_a_post(en, db):
    assert en.get("/accounts/logout").status_code == 405


def test_an_absurdly_long_login_name_is_refused_not_a_server_error(db):
    phone = Client(REMOTE_ADDR="10.9.9.8")
    response = phone.post("/accounts/login", {"username": "9" * 300, "password": "x"})
    assert response.status_code == 200  # the form again, with its error
    assert "_auth_user_id" not in phone.session


def test_a_thai_user_name_signs_up_and_signs_in_as_typed_either_way(client, db):
    typed = "น\u0e4d\u0e49\u0e32 ก\u0e48\u0e34ง"  # ํ before the tone, the tone before the vowel
    password = "a-long-pass-phrase-9"
    signup = client.post(
        "/accounts/signup", {"username": typed, "password1": password, "password2": password}
    )
    assert signup.status_code == 302
    assert User.objects.get().username == User.normalize_username("น้ำ กิ่ง")  # as Django folds
    second = Client()
    assert (
        second.post(
            "/accounts/login", {"username": "น้ำ\u200b กิ่ง", "password": password}
        ).status_code
        == 302
    )


def test_a_user_name_with_other_signs_or_taken_is_refused_in_thai(client, db):
    User.objects.create_user("น้ำ", password="x-long-pass-phrase-9")
    data = {"password1": "a-long-pass-phrase-9", "password2": "a-long-pass-phrase-9"}
    for name in ("น้ำ", "<ann>"):
        response = client.post("/accounts/signup", {**data, "username": name})
        assert response.status_code == 422
    assert User.objects.count() == 1


def test_signing_in_on_a_borrowed_phone_leaves_its_groups_with_it_and_signing_out_keeps_them(
    en, table
):
    User.objects.create_user("bee", password="a-long-pass-phrase-9")
    signed_in = en.post("/accounts/login", {"username": "bee", "password": "a-long-pass-phrase-9"})
    assert signed_in["Location"] == "/accounts/claim"
    en.post("/accounts/claim", {"answer": "no"})
    assert Membership.objects.get(group=table.group).user is None  # still the phone's alone
    en.post("/accounts/logout")
    assert en.get(f"/s/{table.pk}/").status_code == 200  # the phone's owner is not locked out


def test_the_owner_of_a_group_without_an_account_is_offered_one(en, table):
    table.group.owner = Membership.objects.get(group=table.group)  # this phone made the group
    table.group.save()
    page = en.get(f"/g/{table.group.pk}/").content.decode()
    assert 'id="owner-account"' in page
    User.objects.create_user("ann", password="a-long-pass-phrase-9")
    en.post("/accounts/login", {"username": "ann", "password": "a-long-pass-phrase-9"})
    en.post("/accounts/claim", {"answer": "yes"})
    assert 'id="owner-account"' not in en.get(f"/g/{table.group.pk}/").content.decode()
