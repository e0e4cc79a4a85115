"""The group's own rules (กติกาประจำวง) through the service: kept checked as a night's own
choices are, audited, a host's alone to change, and read defensively."""

from decimal import Decimal

import pytest
from django.utils import translation

from scorekeeper.models import AuditEntry, Group, Membership, Night, Player
from scorekeeper.reads.money import Close
from scorekeeper.rules.dummy_points import PAGE_HOUSE
from scorekeeper.services import access, nights
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.group_rules import Sheet, Stakes, Usual, group_rules_set, usual_of

DUMMY, GONG_ZHU = Night.Ruleset.DUMMY_POINTS, Night.Ruleset.GONG_ZHU
DUMMY_HOUSE = {
    name: getattr(PAGE_HOUSE, name)
    for name in ("knock_card_speto_100", "dummy_discard", "head", "head_speto")
}


@pytest.fixture
def group(db: None) -> Group:
    group = access.group_create(name="วงวันเสาร์")
    for name in ("Ann", "Bee", "Cat", "Dan", "Eve"):
        nights.player_create(group=group, name=name)
    return group


def role(group: Group, role: str) -> Membership:
    return Membership.objects.create(group=group, role=role, name=role)


def player(group: Group, name: str) -> Player:
    return group.players.get(name=name)


def usual(group: Group) -> Usual:
    """Custom stakes, a fee per night to Eve, 5-baht rounding Bee carries, Ann the hub."""
    return Usual(
        stakes=Stakes(level="custom", rates=(50, 100, 150), fine=120, point_value=Decimal("0.25")),
        close=Close(
            mode="hub",
            hub=player(group, "Ann").pk,
            fee=Decimal("40.00"),
            fee_per="night",
            fee_to=player(group, "Eve").pk,
            rounding=5,
            rounding_by=player(group, "Bee").pk,
        ),
        sheets={
            DUMMY: Sheet(house=DUMMY_HOUSE, target=300),
            GONG_ZHU: Sheet(
                house={"no_point_cards": 0, "pig_in_shuan": 100},
                target={"points": 1000, "direction": "up"},
                point_value=Decimal("2"),
            ),
        },
    )


def test_a_host_keeps_the_rules_they_read_back_the_same_and_the_log_says_so(group):
    host = role(group, "host")
    kept = usual(group)
    group_rules_set(group=group, usual=kept, actor=host)
    group.refresh_from_db()
    assert usual_of(group) == kept
    entry = AuditEntry.objects.get(group=group, action="group-rules-set")
    assert entry.membership == host
    assert entry.detail["stakes"]["rates"] == [50, 100, 150]
    with translation.override("th"):  # Thai first
        assert entry.label == "แก้กติกาประจำก๊วน"


def test_a_group_without_rules_reads_as_none_so_the_forms_keep_their_defaults(group):
    assert usual_of(group) == Usual()


@pytest.mark.parametrize("who", ["player", "viewer"])
def test_only_a_host_changes_the_rules(group, who):
    with pytest.raises(ServiceError) as refused:
        group_rules_set(group=group, usual=usual(group), actor=role(group, who))
    assert refused.value.code == "not-host"
    group.refresh_from_db()
    assert group.usual == {}
    assert not AuditEntry.objects.filter(action="group-rules-set").exists()


def test_a_host_of_another_group_or_one_removed_is_refused(group):
    elsewhere = access.group_create(name="วงอื่น")
    removed = role(group, "host")
    Membership.objects.filter(pk=removed.pk).update(revoked_at="2026-01-01T00:00Z")
    removed.refresh_from_db()
    for actor in (role(elsewhere, "host"), removed):
        with pytest.raises(ServiceError, match="only a host"):
            group_rules_set(group=group, usual=usual(group), actor=actor)


@pytest.mark.parametrize(
    ("part", "code"),
    [
        (Stakes(level="custom", rates=None), "stakes-missing"),
        (Stakes(level="custom", rates=(300, 200, 100)), "stakes-order"),
        (Stakes(level="gods"), "stake-level"),
        (Stakes(fine=0), "fine-positive"),
        (Stakes(point_value=Decimal("-1")), "point-value"),
        # The bounds of what a real table plays, where a night's choices are entered.
        (Stakes(level="custom", rates=(50, 100, 100_001)), "stakes-most"),
        (Stakes(fine=100_001), "fine-positive"),
        (Stakes(point_value=Decimal("1000.01")), "point-value-most"),
        (Close(fee=Decimal("1000000.01")), "fee-most"),
        (Close(mode="hub"), "hub"),
        (Close(mode="everyone"), "mode"),
        (Close(fee=Decimal("-5")), "fee"),
        (Close(fee=Decimal("0.001")), "fee"),
        (Close(fee_per="hour"), "fee-per"),
        (Close(rounding=3), "rounding"),
        (Sheet(house={}, target=0), "document"),
        (Sheet(house={"dummy_discard": -5}, target=500), "document"),
        (Sheet(house={}, target=500, point_value=Decimal(1)), "scoresheet-money"),
        (Sheet(house={}, target={}, point_value=Decimal("1000.01")), "point-value-most"),
    ],
    ids=lambda v: v if isinstance(v, str) else type(v).__name__,
)
def test_rules_a_night_would_refuse_are_refused_and_nothing_is_kept(group, part, code):
    parts: dict = {"stakes": part} if isinstance(part, Stakes) else {}
    parts |= {"close": part} if isinstance(part, Close) else {}
    parts |= {"sheets": {DUMMY: part}} if isinstance(part, Sheet) else {}
    with pytest.raises(ServiceError if code != "document" else ValueError) as refused:
        group_rules_set(group=group, usual=Usual(**parts), actor=role(group, "host"))
    assert refused.value.code == code  # type: ignore[attr-defined]
    group.refresh_from_db()
    assert group.usual == {}


def test_a_player_of_another_group_is_refused_as_the_hub(group):
    stranger = nights.player_create(group=access.group_create(name="วงอื่น"), name="Zed")
    with pytest.raises(ServiceError) as refused:
        group_rules_set(
            group=group, usual=Usual(close=Close(mode="hub", hub=stranger.pk)),
            actor=role(group, "host"),
        )  # fmt: skip
    assert refused.value.code == "player-group"


def test_a_stored_part_that_no_longer_passes_is_left_out_and_the_others_read(group):
    host = role(group, "host")
    group_rules_set(group=group, usual=usual(group), actor=host)
    group.refresh_from_db()
    stored = group.usual
    stored["stakes"]["rates"] = [300, "many", 100]  # written by hand, or by an older version
    stored["close"]["rounding"] = 7
    stored[GONG_ZHU] = ["not", "a", "part"]
    Group.objects.filter(pk=group.pk).update(usual=stored)
    group.refresh_from_db()
    read = usual_of(group)
    assert read.stakes is None and read.close is None and GONG_ZHU not in read.sheets
    assert read.sheets[DUMMY] == usual(group).sheets[DUMMY]
    Group.objects.filter(pk=group.pk).update(usual=["not", "a", "dict"])
    group.refresh_from_db()
    assert usual_of(group) == Usual()


def test_at_a_table_the_rules_name_only_tonights_players(group):
    """Eve takes the fee and Bee carries the rounding only if they play; with Ann away, the
    hub settles by fewest transfers, as the close does unless told."""
    rules = usual(group).close
    assert rules is not None
    tonight = [player(group, n) for n in ("Ann", "Bee", "Cat", "Eve")]
    chosen = rules.choices(tonight)
    assert (chosen.mode, chosen.hub, chosen.fee_to, chosen.rounding_by) == (
        "hub", tonight[0], tonight[3], tonight[1]
    )  # fmt: skip
    away = rules.choices([player(group, n) for n in ("Cat", "Dan")])
    assert (away.mode, away.hub, away.fee_to, away.rounding_by) == ("fewest", None, None, None)
    assert (away.fee, away.fee_per, away.rounding) == (Decimal(40), "night", 5)
