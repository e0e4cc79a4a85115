"""Every name the table types plays a whole night: emoji sequences and flags are names; a name
with nothing visible, or with a character no phone can show, is refused where it is typed."""

import pytest

from scorekeeper.models import Group, Membership, Player, Session
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


def test_names_made_of_emoji_sequences_and_a_flag_play_a_whole_night(en, group):
    assert open_night(en, group, [FAMILY, DOCTOR, ENGLAND, "น้ำ"]).status_code == 302
    night = Session.objects.get()
    names = [s.player.name for s in night.seats.current().select_related("player")]
    assert names == [FAMILY, DOCTOR, ENGLAND, "น้ำ"]
    for number in (1, 2):
        start = en.post(f"/s/{night.pk}/games/start", {"number": str(number)})
        assert start.status_code == 302
        game = night.games.order_by("-number").first()
        base = f"/s/{night.pk}/games/{game.pk}"
        closer = DOCTOR if number == 1 else FAMILY
        event = en.post(f"{base}/events/head", {"player": ENGLAND, "close": [closer]})
        assert event.status_code == 302, event.content.decode()[:2000]
        finish = en.post(f"{base}/finish", finish_data(knocker=FAMILY))
        assert finish.status_code == 302, finish.context["form"].errors
    for page in ("history", "summary", "card.png", "export.csv", "export.json"):
        assert en.get(f"/s/{night.pk}/{page}").status_code == 200, page


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
    assert Session.objects.count() == 0
