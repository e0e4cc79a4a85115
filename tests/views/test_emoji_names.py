"""Every name the table types plays a whole night: emoji sequences and flags are names, from the
first game to the close, the settle-up and a move to another instance; a name with nothing
visible, or with a character no phone can show, is refused where it is typed."""

import json

import pytest
from django.db import transaction

from scorekeeper.models import Group, Membership, Night, Player
from scorekeeper.services import exports
from scorekeeper.services.ledger_audit import night_audit
from tests.views.conftest import finish_data, member

FAMILY = "👨\u200d👩\u200d👧"
DOCTOR = "👩\u200d⚕\ufe0f"
ENGLAND = "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"


@pytest.fixture
def group(db: None, client) -> Group:
    group = Group.objects.create(name="Saturday")
    member(client, group, Membership.Role.HOST)
    return group


def open_night(client, group: Group, seats: list[str]):
    data = {f"seat_{i}": name for i, name in enumerate(seats, start=1)}
    return client.post(
        f"/g/{group.pk}/sessions/new",
        {**data, "first_dealer": "1", "stake_level": "sian", "point_value": "1"},
    )


def play_two_games(client, group: Group) -> Night:
    """Open a night for the family, the doctor, England's flag and น้ำ, and play two games
    through the pages: each with a head event of England's, each knocked by the family."""
    assert open_night(client, group, [FAMILY, DOCTOR, ENGLAND, "น้ำ"]).status_code == 302
    night = Night.objects.get()
    names = [s.player.name for s in night.seats.current().select_related("player")]
    assert names == [FAMILY, DOCTOR, ENGLAND, "น้ำ"]
    for number in (1, 2):
        start = client.post(f"/s/{night.pk}/games/start", {"number": str(number)})
        assert start.status_code == 302
        game = night.games.order_by("-number").first()
        base = f"/s/{night.pk}/games/{game.pk}"
        closer = DOCTOR if number == 1 else FAMILY
        event = client.post(f"{base}/events/head", {"player": ENGLAND, "close": [closer]})
        assert event.status_code == 302, event.content.decode()[:2000]
        finish = client.post(f"{base}/finish", finish_data(knocker=FAMILY))
        assert finish.status_code == 302, finish.context["form"].errors
    return night


def test_names_made_of_emoji_sequences_and_a_flag_play_a_whole_night(en, group):
    night = play_two_games(en, group)
    for page in ("history", "summary", "card.png", "export.csv", "export.json"):
        assert en.get(f"/s/{night.pk}/{page}").status_code == 200, page


def test_a_night_of_emoji_names_closes_moves_to_another_instance_and_audits_clean(db, en):
    with transaction.atomic():  # played on another instance: this one stays empty to import into
        group = Group.objects.create(name="Saturday")
        member(en, group, Membership.Role.HOST)
        night = play_two_games(en, group)
        # Everyone settles with the family; a fee for the night to England, rounding to 5
        # baht the doctor carries: every choice names one of them.
        close = {"mode": "hub", "hub": FAMILY, "fee": "20", "fee_per": "night",
                 "fee_to": ENGLAND, "rounding": "5", "rounding_by": DOCTOR}  # fmt: skip
        closed = en.post(f"/s/{night.pk}/settle", close)
        assert closed.status_code == 302, closed.context["form"].errors
        night.refresh_from_db()
        transfers = list(night.transfers.select_related("payer", "payee"))
        assert night.closed_at and transfers
        assert {t.payee.name for t in transfers if t.payee} == {FAMILY, ENGLAND}  # hub, fee
        paid = en.post(f"/s/{night.pk}/transfers/{transfers[0].pk}/paid")
        assert paid.status_code == 302
        for page in ("settle", "summary"):
            shown = en.get(f"/s/{night.pk}/{page}")
            assert shown.status_code == 200, page
            assert all(name in shown.content.decode() for name in (FAMILY, DOCTOR, ENGLAND))
        for page in ("history", "card.png", "export.csv"):
            assert en.get(f"/s/{night.pk}/{page}").status_code == 200, page
        assert night_audit(night) == []
        exported = json.loads(en.get(f"/g/{group.pk}/export.json").content)
        transaction.set_rollback(True)

    imported = exports.group_import(data=exported)  # audits every night it brings, or refuses
    again = exports.group_json(group=imported)
    assert {**again, "exported_at": None} == {**exported, "exported_at": None}
    night = imported.nights.get()
    assert {p.name for p in imported.players.all()} == {FAMILY, DOCTOR, ENGLAND, "น้ำ"}
    assert night.transfers.count() == len(transfers)
    assert night_audit(night) == []


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("\u200b\u200d\u2060", "พิมพ์ตัวอักษร ตัวเลข หรืออีโมจิ"),
        ("Ann\x07", "อักขระควบคุม"),
        ("Bee\ue000", "อักขระควบคุม"),
        ("Cat\U000e0067", None),  # a tag outside a flag is stripped, as any format character
        ("Dan\U0010ffff", "อักขระควบคุม"),
    ],
    ids=["only format characters", "control", "private use", "stray tag", "unassigned"],
)
def test_a_name_no_phone_can_show_is_refused_where_it_is_typed_in_thai(client, group, typed, why):
    response = open_night(client, group, [typed, "Bee2", "Cat2", "Dan2"])
    if why is None:
        assert response.status_code == 302
        assert Player.objects.filter(name=typed[:3]).exists()
        return
    assert response.status_code == 422
    assert why in response.content.decode()
    assert Night.objects.count() == 0
