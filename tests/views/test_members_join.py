"""Joining by a link or a code never ends in a server error: two phones on a one-phone link at
once, a link withdrawn or running out as it is tapped, a member removed since the invite was made,
each get a sentence in Thai. A removed member comes back only by an invite made after the
removal."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from scorekeeper.models import Group, Invite, Membership
from scorekeeper.services import access
from tests.concurrency import race

PLAYER = Membership.Role.PLAYER


def a_group() -> tuple[Group, Membership]:
    group = access.group_create(name="วงวันเสาร์", device=access.device_create(), host_name="Ann")
    assert group.owner is not None
    return group, group.owner


def test_a_removed_member_is_told_in_thai_that_an_invite_from_before_lets_them_in_no_more(db):
    group, ann = a_group()
    invite = access.invite_create(group=group, role=PLAYER, by=ann)
    bee = Client()  # a Thai phone: the site's language
    assert bee.post(f"/join/{invite.token}", {"name": "Bee"}).status_code == 302
    access.membership_revoke(membership=Membership.objects.get(name="Bee"), by=ann)
    again = bee.post(f"/join/{invite.token}", {"name": "Bee"})
    assert again.status_code == 409
    assert "คุณถูกนำออกจากก๊วนนี้หลังจากคำเชิญนี้ถูกสร้างขึ้น" in again.content.decode()
    by_code = bee.post("/join", {"code": invite.code, "name": "Bee"})
    assert by_code.status_code == 422
    assert "ขอให้ผู้ดูแลก๊วนเชิญคุณใหม่" in by_code.content.decode()
    assert not group.memberships.filter(name="Bee", revoked_at__isnull=True).exists()
    new = access.invite_create(group=group, role=PLAYER, by=ann)
    assert bee.post(f"/join/{new.token}", {"name": "Bee"}).status_code == 302  # invited again
    assert group.memberships.filter(name="Bee", revoked_at__isnull=True).exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="two connections at once")
@pytest.mark.django_db(transaction=True)
def test_a_link_used_or_withdrawn_as_a_second_phone_taps_join_is_explained_in_thai():
    group, ann = a_group()
    once = access.invite_create(group=group, role=PLAYER, by=ann, single_use=True)
    _, second = race(
        lambda: access.invite_join(device=access.device_create(), token=once.token, name="Bee"),
        lambda: Client().post(f"/join/{once.token}", {"name": "Cat"}),
    )
    assert second.status_code == 409
    assert "โทรศัพท์อีกเครื่องเพิ่งใช้ไปแล้ว" in second.content.decode()
    invite = access.invite_create(group=group, role=PLAYER, by=ann)
    _, second = race(
        lambda: access.invite_revoke(invite=invite, by=ann),
        lambda: Client().post(f"/join/{invite.token}", {"name": "Dan"}),
    )
    assert second.status_code == 409
    assert "ไม่พบคำเชิญนี้ หรือคำเชิญหมดอายุแล้ว" in second.content.decode()
    assert Invite.objects.get(pk=invite.pk).revoked_at is not None
    assert sorted(group.memberships.values_list("name", flat=True)) == ["Ann", "Bee"]


def expire(invite: Invite) -> None:
    """Let the invite's time run out now, as the clock would."""
    Invite.objects.filter(pk=invite.pk).update(expires_at=timezone.now() - timedelta(seconds=1))


def test_a_link_that_runs_out_between_the_page_and_the_tap_is_explained_in_thai(db):
    group, ann = a_group()
    invite = access.invite_create(group=group, role=PLAYER, by=ann)
    bee = Client()  # a Thai phone: the site's language
    page = bee.get(f"/join/{invite.token}").content.decode()
    assert "วงวันเสาร์" in page and "เข้าก๊วน" in page  # the join button
    expire(invite)
    tapped = bee.post(f"/join/{invite.token}", {"name": "Bee"})
    assert tapped.status_code < 500
    answer = tapped.content.decode()
    assert "คำเชิญนี้หมดอายุแล้ว" in answer and "ขอคำเชิญใหม่จากผู้ดูแลก๊วน" in answer
    assert 'name="name"' not in answer  # no form left to send again
    by_code = bee.post("/join", {"code": invite.code, "name": "Bee"})
    assert by_code.status_code == 422
    assert "ไม่พบคำเชิญนี้ หรือคำเชิญหมดอายุแล้ว" in by_code.content.decode()
    assert list(group.memberships.values_list("name", flat=True)) == ["Ann"]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="two connections at once")
@pytest.mark.django_db(transaction=True)
def test_a_link_running_out_while_the_join_waits_its_turn_is_explained_in_thai():
    group, ann = a_group()
    invite = access.invite_create(group=group, role=PLAYER, by=ann)

    def another_phone_joins_and_the_time_runs_out() -> None:
        access.invite_join(device=access.device_create(), token=invite.token, name="Cat")
        expire(invite)

    # Bee's page read the invite live; her join waits for Cat's, then reads it afresh.
    _, tapped = race(
        another_phone_joins_and_the_time_runs_out,
        lambda: Client().post(f"/join/{invite.token}", {"name": "Bee"}),
    )
    assert tapped.status_code == 409
    assert "ไม่พบคำเชิญนี้ หรือคำเชิญหมดอายุแล้ว" in tapped.content.decode()
    assert sorted(group.memberships.values_list("name", flat=True)) == ["Ann", "Cat"]
