"""Invites expire, may be single-use, can be withdrawn; the owner stays; a group keeps a host."""

import threading
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from scorekeeper.models import Group, Invite, Membership
from scorekeeper.services import access
from scorekeeper.services.errors import ServiceError
from tests.concurrency import race, refused

HOST, PLAYER = Membership.Role.HOST, Membership.Role.PLAYER


def phone():
    return access.device_create(user_agent="test")


@pytest.fixture
def group(db) -> Group:
    return access.group_create(name="Saturday", device=phone(), host_name="Ann")


def owner_of(group: Group) -> Membership:
    group.refresh_from_db()
    return group.owner


def co_host(group: Group) -> Membership:
    invite = access.invite_create(group=group, role=HOST, by=owner_of(group))
    return access.invite_join(device=phone(), token=invite.token, name="Bee")


def test_an_invite_lasts_a_day_unless_the_host_chooses_an_hour_to_a_week(group):
    ann = owner_of(group)
    day = access.invite_create(group=group, role=PLAYER, by=ann)
    assert timedelta(hours=23, minutes=59) < day.expires_at - timezone.now() <= timedelta(hours=24)
    week = access.invite_create(group=group, role=PLAYER, by=ann, life=timedelta(days=7))
    assert week.expires_at - timezone.now() > timedelta(days=6)
    for life in (timedelta(minutes=59), timedelta(days=8)):
        with pytest.raises(ServiceError) as refused:
            access.invite_create(group=group, role=PLAYER, by=ann, life=life)
        assert refused.value.code == "invite-life"


def test_a_single_use_invite_lets_one_phone_in(group):
    invite = access.invite_create(group=group, role=PLAYER, by=owner_of(group), single_use=True)
    access.invite_join(device=phone(), code=invite.code, name="Bee")
    with pytest.raises(ServiceError) as refused:
        access.invite_join(device=phone(), code=invite.code, name="Cat")
    assert refused.value.code == "invite-used"
    assert group.memberships.count() == 2


def test_a_withdrawn_invite_lets_nobody_in(group):
    invite = access.invite_create(group=group, role=PLAYER, by=owner_of(group))
    access.invite_revoke(invite=invite, by=owner_of(group))
    with pytest.raises(ServiceError):
        access.invite_join(device=phone(), token=invite.token)


def test_a_removed_co_host_cannot_come_back_with_their_invite_nor_remove_the_owner(group):
    bee = co_host(group)
    old = access.invite_create(group=group, role=HOST, by=bee)
    with pytest.raises(ServiceError) as refused:
        access.membership_revoke(membership=owner_of(group), by=bee)
    assert refused.value.code == "owner"
    access.membership_revoke(membership=bee, by=owner_of(group))
    assert Invite.objects.get(pk=old.pk).revoked_at is not None  # theirs are withdrawn with them
    with pytest.raises(ServiceError):
        access.invite_join(device=bee.device, token=old.token)
    with pytest.raises(ServiceError) as refused:
        access.membership_revoke(membership=owner_of(group), by=bee)
    assert refused.value.code in ("not-host", "owner")


def test_the_owner_hands_the_group_on_to_a_host_and_then_can_be_removed(group):
    ann, bee = owner_of(group), co_host(group)
    with pytest.raises(ServiceError):
        access.owner_hand_over(group=group, to=ann, by=bee)
    access.owner_hand_over(group=group, to=bee, by=ann)
    assert owner_of(group) == bee
    access.membership_revoke(membership=ann, by=bee)
    assert owner_of(group) == bee


@pytest.mark.skipif(connection.vendor != "postgresql", reason="two connections at once")
@pytest.mark.django_db(transaction=True)
def test_two_hosts_removing_each_other_at_once_leave_one_host():
    for _ in range(5):
        group = access.group_create(name="Saturday", device=phone(), host_name="Ann")
        bee, cat = co_host(group), co_host(group)
        barrier = threading.Barrier(2)

        def remove(who: Membership, by: Membership, barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            try:
                access.membership_revoke(membership=who, by=by)
            except ServiceError:
                pass
            finally:
                connection.close()

        threads = [
            threading.Thread(target=remove, args=(bee, cat)),
            threading.Thread(target=remove, args=(cat, bee)),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        live = group.memberships.filter(role=HOST, revoked_at__isnull=True)
        assert live.filter(pk__in=[bee.pk, cat.pk]).count() == 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="many connections at once")
@pytest.mark.django_db(transaction=True)
def test_a_burst_of_join_codes_is_counted_exactly():
    tries = access.CODE_TRIES + 5
    barrier = threading.Barrier(tries)
    allowed = []

    def attempt() -> None:
        barrier.wait()
        try:
            access.code_attempt(address="203.0.113.9")
            allowed.append(1)
        except ServiceError:
            pass
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt) for _ in range(tries)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(allowed) == access.CODE_TRIES


def test_an_idempotency_key_counts_only_in_the_group_it_was_sent_for(db):
    from decimal import Decimal

    from scorekeeper.services import nights

    opened = [
        nights.night_open(
            group=access.group_create(name=name), players=["Ann", "Bee", "Cat", "Dan"],
            stake_level="sian", point_value=Decimal(1), idempotency_key="same-key",
        )
        for name in ("Saturday", "Sunday")
    ]  # fmt: skip
    assert opened[0].pk != opened[1].pk  # two groups, two nights: not a replay of the other


def test_a_removed_member_comes_back_only_by_an_invite_made_after_the_removal(group):
    ann = owner_of(group)
    before = access.invite_create(group=group, role=HOST, by=ann)
    bees_phone, bees_account = phone(), User.objects.create_user("bee", password="x" * 12)
    bee = access.invite_join(device=bees_phone, user=bees_account, token=before.token, name="Bee")
    access.membership_revoke(membership=bee, by=ann)
    for way in ({"device": bees_phone}, {"device": phone(), "user": bees_account}):
        with pytest.raises(ServiceError) as refused_:
            access.invite_join(token=before.token, name="Bee", **way)  # her phone, her account
        assert refused_.value.code == "invite-removed"
    after = access.invite_create(group=group, role=PLAYER, by=ann)
    back = access.invite_join(device=bees_phone, user=bees_account, code=after.code, name="Bee")
    assert back.revoked_at is None and back.role == PLAYER
    with pytest.raises(ServiceError) as refused_:  # nor does the old one make her a host again
        access.invite_join(device=bees_phone, token=before.token)
    assert refused_.value.code == "invite-removed"
    assert access.invite_join(device=phone(), token=before.token, name="Cat").role == HOST


@pytest.mark.skipif(connection.vendor != "postgresql", reason="two connections at once")
@pytest.mark.django_db(transaction=True)
def test_two_phones_on_one_single_use_invite_at_once_one_joins_the_other_is_told_why():
    group = access.group_create(name="Saturday", device=phone(), host_name="Ann")
    invite = access.invite_create(group=group, role=PLAYER, by=owner_of(group), single_use=True)
    first, second = race(
        lambda: access.invite_join(device=phone(), token=invite.token, name="Bee"),
        lambda: access.invite_join(device=phone(), token=invite.token, name="Cat"),
    )
    assert isinstance(first, Membership) and refused(second, "invite-used")
    assert group.memberships.count() == 2


@pytest.mark.skipif(connection.vendor != "postgresql", reason="two connections at once")
@pytest.mark.django_db(transaction=True)
def test_a_member_removed_as_they_join_again_waits_for_the_removal_and_is_refused():
    group = access.group_create(name="Saturday", device=phone(), host_name="Ann")
    invite = access.invite_create(group=group, role=PLAYER, by=owner_of(group))
    bees_phone = phone()
    bee = access.invite_join(device=bees_phone, token=invite.token, name="Bee")
    removed, joined = race(
        lambda: access.membership_revoke(membership=bee, by=owner_of(group)),
        lambda: access.invite_join(device=bees_phone, token=invite.token, name="Bee"),
    )
    assert removed.revoked_at is not None and refused(joined, "invite-removed")
    assert not group.memberships.filter(device=bees_phone, revoked_at__isnull=True).exists()
