"""A player is one member's ("this is me"), and only that member says where the player is paid:
a claim of a player another live member holds is refused, a viewer claims nobody, a host moves a
claim (audited, the number cleared), a removed member holds nothing; the database keeps one live
claim a player, on SQLite and PostgreSQL. A number is checked where it is typed."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from scorekeeper.models import AuditEntry, Membership, Night, Player
from scorekeeper.rules.errors import RuleError
from scorekeeper.services import access, payments
from tests.services.conftest import player

ID = "1-1111-11111-11-9"  # its last digit is its check digit
MOBILE = "081-234-5678"


def joined(table: Night, role: str = Membership.Role.PLAYER, name: str = "") -> Membership:
    return Membership.objects.create(
        group=table.group, role=role, device=access.device_create(), name=name
    )


@pytest.fixture
def host(table: Night) -> Membership:
    return joined(table, Membership.Role.HOST, "Host")


def refused(code: str, call, **kwargs) -> RuleError:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError) as caught:
        call(**kwargs)
    assert caught.value.code == code
    return caught.value


def test_a_player_another_member_holds_is_refused_and_the_number_stays_theirs(table, host):
    ann = player(table, "Ann")
    real, impostor = joined(table), joined(table)
    payments.member_is(membership=real, player=ann)
    payments.promptpay_set(player=ann, target=MOBILE, actor=real)
    error = refused("player-claimed", payments.member_is, membership=impostor, player=ann)
    assert error.params == {"name": "Ann"}
    refused(
        "promptpay-not-yours", payments.promptpay_set,
        player=ann, target="0998887777", actor=impostor,
    )  # fmt: skip
    ann.refresh_from_db()
    assert ann.promptpay == "0812345678"
    assert Membership.objects.get(pk=impostor.pk).player_id is None


def test_a_viewer_claims_nobody(table):
    viewer = joined(table, Membership.Role.VIEWER)
    refused(
        "viewer-claims-nobody", payments.member_is, membership=viewer, player=player(table, "Ann")
    )
    assert Membership.objects.get(pk=viewer.pk).player_id is None


def test_a_member_who_is_a_player_does_not_become_another_but_saying_it_again_is_fine(table):
    me = joined(table)
    payments.member_is(membership=me, player=player(table, "Ann"))
    payments.member_is(membership=me, player=player(table, "Ann"))  # twice: nothing new
    refused("claim-change", payments.member_is, membership=me, player=player(table, "Bee"))
    assert AuditEntry.objects.filter(action="member-is-player").count() == 1


def test_a_host_moves_a_claim_audited_and_the_number_is_cleared(table, host):
    ann = player(table, "Ann")
    impostor, real = joined(table, name="Impostor"), joined(table, name="Real Ann")
    payments.member_is(membership=impostor, player=ann)
    payments.promptpay_set(player=ann, target=MOBILE, public=True, actor=impostor)
    payments.claim_reassign(player=ann, to=real, by=host)
    ann.refresh_from_db()
    assert (ann.promptpay, ann.promptpay_public) == ("", False)
    assert ann.promptpay_changed_by == "Host"
    assert Membership.objects.get(pk=real.pk).player == ann
    assert Membership.objects.get(pk=impostor.pk).player_id is None
    entry = AuditEntry.objects.get(action="claim-reassign")
    assert entry.membership == host
    assert entry.detail == {"player": "Ann", "from": "Impostor", "to": "Real Ann", "left": None}
    payments.promptpay_set(player=ann, target="0998887777", actor=real)  # hers to save now
    refused(
        "promptpay-not-yours", payments.promptpay_set, player=ann, target=MOBILE, actor=impostor
    )


def test_a_member_moved_to_another_player_leaves_the_first_without_a_number(table, host):
    ann, bee = player(table, "Ann"), player(table, "Bee")
    me = joined(table)
    payments.member_is(membership=me, player=ann)
    payments.promptpay_set(player=ann, target=MOBILE, actor=me)
    payments.claim_reassign(player=bee, to=me, by=host)
    ann.refresh_from_db()
    assert ann.promptpay == "" and Membership.objects.get(pk=me.pk).player == bee
    payments.claim_reassign(player=bee, to=None, by=host)  # and to nobody
    assert Membership.objects.get(pk=me.pk).player_id is None


def test_only_a_live_host_moves_a_claim_and_never_to_a_viewer(table, host):
    ann = player(table, "Ann")
    someone, viewer = joined(table), joined(table, Membership.Role.VIEWER)
    refused("claim-host", payments.claim_reassign, player=ann, to=someone, by=someone)
    refused("viewer-claims-nobody", payments.claim_reassign, player=ann, to=viewer, by=host)
    other = access.group_create(name="Another")
    stranger = Membership.objects.create(group=other, role=Membership.Role.PLAYER)
    refused("unknown-member", payments.claim_reassign, player=ann, to=stranger, by=host)
    assert not Membership.objects.filter(player=ann).exists()


def test_removing_a_member_releases_their_claim_and_the_number_they_saved(table, host):
    ann = player(table, "Ann")
    leaving, next_one = joined(table), joined(table)
    payments.member_is(membership=leaving, player=ann)
    payments.promptpay_set(player=ann, target=ID, actor=leaving)
    access.membership_revoke(membership=leaving, by=host)
    ann.refresh_from_db()
    assert ann.promptpay == ""
    payments.member_is(membership=next_one, player=ann)  # free again
    payments.promptpay_set(player=ann, target=MOBILE, actor=next_one)
    refused("promptpay-not-yours", payments.promptpay_set, player=ann, target=ID, actor=leaving)


def test_two_live_members_never_hold_one_player_in_the_database(table):
    ann = player(table, "Ann")
    first, second = joined(table), joined(table)
    Membership.objects.filter(pk=first.pk).update(player=ann)
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.filter(pk=second.pk).update(player=ann)
    Membership.objects.filter(pk=first.pk).update(revoked_at=timezone.now())
    Membership.objects.filter(pk=second.pk).update(player=ann)  # a removed member holds none
    assert Membership.objects.filter(player=ann).count() == 2


def test_a_viewer_never_holds_a_player_in_the_database(table):
    viewer = joined(table, Membership.Role.VIEWER)
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.filter(pk=viewer.pk).update(player=player(table, "Ann"))


def test_a_claim_the_constraint_refuses_is_the_same_refusal(table):
    """Two phones claiming at once: the second meets the constraint, refused with the reason."""
    ann = player(table, "Ann")
    first, second = joined(table), joined(table)
    Membership.objects.filter(pk=first.pk).update(player=ann)
    with pytest.raises(RuleError) as caught:
        payments._claimed(ann, second)
    assert caught.value.code == "player-claimed"


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("0000000000", "promptpay-all-zero"),
        ("0-0000-00000-00-0", "promptpay-all-zero"),
        ("000000000000000", "promptpay-all-zero"),
        ("021234567", "promptpay-target"),  # nine digits: a landline
        ("0212345678", "promptpay-mobile"),
        ("0712345678", "promptpay-mobile"),
        ("+66 2 1234 5678", "promptpay-mobile"),
        ("1111111111111", "promptpay-id-check"),
        ("1-2345-67890-12-3", "promptpay-id-check"),
    ],
)
def test_a_number_is_checked_where_it_is_typed(table, typed, code):
    ann, me = player(table, "Ann"), joined(table)
    payments.member_is(membership=me, player=ann)
    refused(code, payments.promptpay_set, player=ann, target=typed, actor=me)
    assert Player.objects.get(pk=ann.pk).promptpay == ""


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("061-234-5678", "0612345678"),
        ("+66 81 234 5678", "0812345678"),
        ("0912345678", "0912345678"),
        (ID, "1111111111119"),
        ("1-2345-67890-12-1", "1234567890121"),
        ("012345678901234", "012345678901234"),  # an e-wallet id has no check digit
    ],
)
def test_a_number_that_passes_is_stored_as_digits(table, typed, stored):
    ann, me = player(table, "Ann"), joined(table)
    payments.member_is(membership=me, player=ann)
    assert payments.promptpay_set(player=ann, target=typed, actor=me).promptpay == stored


def test_the_time_of_a_change_is_kept_only_when_the_number_changes(table):
    ann, me = player(table, "Ann"), joined(table, name="Ann's phone")
    payments.member_is(membership=me, player=ann)
    payments.promptpay_set(player=ann, target=MOBILE, actor=me)
    ann.refresh_from_db()
    first = ann.promptpay_changed_at
    assert first is not None and ann.promptpay_changed_by == "Ann's phone"
    Player.objects.filter(pk=ann.pk).update(promptpay_changed_at=first - timedelta(hours=1))
    payments.promptpay_set(player=ann, target=MOBILE, public=True, actor=me)  # shown, not changed
    ann.refresh_from_db()
    assert ann.promptpay_changed_at == first - timedelta(hours=1)
