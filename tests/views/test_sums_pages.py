"""Each player's money summed up where a night's money is (reads.sums), in Thai: the settle-up,
the summary and its share text, the share link, the card; an open night's running settle-up says
which fee and rounding it assumes. Every total is what that player's transfers pay or charge."""

import html
import re
import struct
from collections import Counter
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest
from django.test import Client

from scorekeeper.card import NOTE_SIZE, NightCard, card_png, card_svg
from scorekeeper.models import Membership, Night, ShareLink
from scorekeeper.reads.money import Choices, Close
from scorekeeper.reads.share import night_card, night_summary
from scorekeeper.services import games, group_rules, nights, scoresheet, sharing
from scorekeeper.services.group_rules import Usual
from tests.reads.test_sums import engine_points
from tests.test_card import drawn_texts
from tests.views.test_budgets import PAGE_BUDGET, add_settled_games, statements
from tests.views.test_budgets_pages import GONG_ZHU_HAND

SCREENS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screens"
RESULT = {"knock": {"player": "Ann", "kind": "normal"}, "points": {"Bee": 10, "Cat": 20, "Dan": 33}}


def totals(body: str) -> dict[str, Decimal]:
    """The sums a page shows: each party's name and total in baht."""
    found = re.findall(r'<li data-player="([^"]*)" data-total="([^"]+)">', body)
    return {html.unescape(name): Decimal(total) for name, total in found}


def equations(body: str) -> list[str]:
    """Each sum as it reads: "เกม +600 ฿ − ต๋ง 50 ฿ = รับ 550 ฿"."""
    found = re.findall(r'<span class="parts">(.*?)</span></li>', body)
    return [html.unescape(re.sub(r"<[^>]+>", "", e)) for e in found]


def transfer_nets(night: Night) -> Counter[str]:
    held: Counter[str] = Counter()
    for t in night.transfers.select_related("payer", "payee"):
        held[t.payer.name] -= t.baht
        held["เจ้าบ้าน" if t.payee is None else t.payee.name] += t.baht
    return held


def closed_with_fee(table: Night) -> Night:
    """One game (Ann knocks; Dan's 33 points leave satang), closed with a 50 ฿ fee a game to the
    house and rounding to 20 ฿."""
    games.game_finish(game=games.game_start(night=table), outcome=RESULT)
    choices = Choices(fee=Decimal(50), rounding=20)
    nights.night_close(night=table, choices=choices)
    return Night.objects.get(pk=table.pk)


def test_the_settle_up_sums_each_players_money_in_thai_as_its_transfers_pay(client, table):
    night = closed_with_fee(table)
    body = client.get(f"/s/{night.pk}/settle").content.decode()
    assert "แต่ละคนจ่ายหรือรับเท่าไร" in body
    shown = totals(body)
    paid = transfer_nets(night)
    assert shown == {name: paid[name] for name in shown} and set(shown) >= set(paid)
    assert shown["เจ้าบ้าน"] == Decimal(50)  # the house: a line of its own
    won = engine_points(night)  # the games' part, from the stored games by the engine
    ann = next(e for e in equations(body) if e.startswith("เกม +"))
    assert night.baht(won["Ann"]) == Decimal(600)  # 1,200 points at half a baht
    # Ann, the biggest winner, carries what rounding the others to 20 ฿ leaves.
    assert ann == "เกม +600 ฿ − ต๋ง 50 ฿ + ปัดเศษ 20 ฿ = รับ 570 ฿" and shown["Ann"] == 570
    assert all(" = " in e and e.endswith(" ฿") for e in equations(body))
    assert "คิดจริงตอนปิดวง" not in body  # closed: what the close chose, nothing assumed


def test_the_summary_its_share_text_and_the_share_link_show_the_same_sums(client, table):
    night = closed_with_fee(table)
    body = client.get(f"/s/{night.pk}/summary").content.decode()
    shown = totals(body)
    assert shown == {n: a for n, a in transfer_nets(night).items() if n in shown}
    text = html.unescape(re.search(r'data-text="([^"]*)"', body, re.S)[1])  # type: ignore[index]
    for line in equations(body):
        assert line in text  # the same sum, word for word, in the text for LINE
    assert re.search(r"^Dan: เกม −[\d,.]+ ฿ .* = จ่าย [\d,.]+ ฿$", text, re.M)
    assert re.search(r"^เจ้าบ้าน: ต๋ง 50 ฿ = รับ 50 ฿$", text, re.M)
    token = ShareLink.objects.get(night=night).token
    public = Client().get(f"/n/{token}").content.decode()
    assert totals(public) == shown and equations(public) == equations(body)


def with_usual_rules(table: Night) -> Night:
    """The group usually takes 20 ฿ a night from each player for Ann and rounds to 5 ฿."""
    host = Membership.objects.create(group=table.group, role=Membership.Role.HOST)
    ann = table.group.players.get(name="Ann")
    close = Close(fee=Decimal(20), fee_per="night", fee_to=ann.pk, rounding=5)
    group_rules.group_rules_set(group=table.group, usual=Usual(close=close), actor=host)
    games.game_finish(game=games.game_start(night=table), outcome=RESULT)
    return Night.objects.select_related("group").get(pk=table.pk)


ASSUMED = (
    "ค่าต๋งและการปัดเศษตามกติกาประจำก๊วน: ต๋ง 20 ฿ ต่อวงจากทุกคน เข้า Ann · "
    "ปัดทีละ 5 ฿ เศษตกที่ คนที่ได้มากที่สุดในวง — คิดจริงตอนปิดวง"
)


def test_an_open_night_says_which_fee_and_rounding_its_running_settle_up_assumes(client, table):
    night = with_usual_rules(table)
    for page in (f"/s/{night.pk}/", f"/s/{night.pk}/settle", f"/s/{night.pk}/summary"):
        body = html.unescape(client.get(page).content.decode())
        assert ASSUMED in body, page
    body = client.get(f"/s/{night.pk}/summary").content.decode()
    running = totals(body)
    assert running["Bee"] % 5 == 0 and "ต๋ง 20 ฿" in equations(body)[1]
    # The close with the usual choices pays what the running sums said.
    players = list(night.group.players.order_by("name"))
    nights.night_close(night=night, choices=Close(fee=Decimal(20), fee_per="night",
                           fee_to=players[0].pk, rounding=5).choices(players))  # fmt: skip
    paid = transfer_nets(night)
    assert running == {name: paid[name] for name in running}
    closed = client.get(f"/s/{night.pk}/summary").content.decode()
    assert totals(closed) == running and "คิดจริงตอนปิดวง" not in closed


def test_an_open_night_without_usual_rules_says_it_takes_no_fee_and_rounds_nothing(client, in_play):
    games.game_finish(game=in_play, outcome=RESULT)
    body = html.unescape(client.get(f"/s/{in_play.night_id}/").content.decode())
    assert "ค่าต๋งและการปัดเศษตามกติกาประจำก๊วน: ไม่เก็บต๋ง · ไม่ปัดเศษ — คิดจริงตอนปิดวง" in body


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])


def test_the_card_shows_each_sum_1200_wide_growing_taller_with_them(client, table):
    night = closed_with_fee(table)
    sharing.share_link_for(night=night)
    response = client.get(f"/s/{night.pk}/card.png")
    width, height = png_size(response.content)
    SCREENS.mkdir(parents=True, exist_ok=True)  # kept for a person to look at, as the screens
    (SCREENS / "card-sums.png").write_bytes(response.content)
    card = night_card(night_summary(night, None))  # closed: as the close chose
    bare = replace(card, nets=tuple(n[:2] for n in card.nets))  # the same card, sums left out
    assert width == 1200 and height > png_size_of(bare)[1]
    drawn = [text["string"] for text in drawn_texts(card_svg(card))]  # each text as read
    for name, total, pieces in card.nets:  # type: ignore[misc]
        assert name in drawn and total in drawn and " ".join(pieces) in drawn  # short: one line
    assert "เจ้าบ้าน" in drawn and "ต๋ง 50 ฿ = รับ 50 ฿" in drawn
    assert not [text for text in drawn if "คิดจริงตอนปิดวง" in text]  # closed: nothing assumed


def test_an_open_nights_card_and_link_preview_say_which_fee_and_rounding_they_assume(client, table):
    night = with_usual_rules(table)
    client.get(f"/s/{night.pk}/summary")  # a player's visit makes the share link
    card = night_card(night_summary(night, group_rules.usual_of(night.group).close))
    texts = drawn_texts(card_svg(card))
    strings = [text["string"] for text in texts]
    note = [i for i, text in enumerate(texts) if (text["x"], text["size"]) == (48, NOTE_SIZE)]
    assert " ".join(strings[i] for i in note) == ASSUMED  # the share text's sentence, whole
    # Beneath the sums it qualifies, before who pays whom.
    last_net = strings.index(card.nets[-1][1], strings.index(card.nets[-1][0]))
    assert last_net < note[0] and note[-1] < strings.index("ใครจ่ายใคร")
    token = ShareLink.objects.get(night=night).token
    public = Client()
    assert public.get(f"/n/{token}/card.png").content == card_png(card)  # the preview's picture
    page = html.unescape(public.get(f"/n/{token}").content.decode())
    description = re.search(r'<meta property="og:description" content="([^"]*)"', page)
    assert description and description[1].endswith(ASSUMED)


def png_size_of(card: NightCard) -> tuple[int, int]:
    return png_size(card_png(card))


@pytest.mark.ledger_broken  # the long night is copied in bulk, standings left as they were
def test_a_usual_fee_per_game_costs_the_pages_no_statement_past_their_budget(client, table):
    """The running settle-up reads each game's nets for the fee in one statement, however long
    the night: the table, the settle-up and the summary stay within the pages' budget."""
    host = Membership.objects.create(group=table.group, role=Membership.Role.HOST)
    close = Close(fee=Decimal(20), rounding=5)  # per game, from its winner, to the house
    group_rules.group_rules_set(group=table.group, usual=Usual(close=close), actor=host)
    pages = [f"/s/{table.pk}/", f"/s/{table.pk}/settle", f"/s/{table.pk}/summary"]
    client.get(pages[2])  # the first visit makes the share link: counted after it
    games.game_finish(game=games.game_start(night=table), outcome=RESULT)

    def counts() -> list[int]:
        return [statements(client, page) for page in pages]

    at_first = counts()
    add_settled_games(table, 100)
    assert counts() == at_first and max(at_first) <= PAGE_BUDGET
    body = html.unescape(client.get(pages[2]).content.decode())
    assert "ต๋ง 20 ฿ ต่อเกมจากคนชนะ เข้า เจ้าบ้าน" in body and "เจ้าบ้าน" in totals(body)


def test_the_end_of_a_gong_zhu_match_for_money_sums_each_player_as_its_transfers_pay(client, gong):
    scoresheet.hand_record(night=gong, hand=GONG_ZHU_HAND)
    choices = Choices(fee=Decimal(10), fee_per="night", rounding=5)
    scoresheet.scoresheet_close(night=gong, choices=choices)
    body = client.get(f"/s/{gong.pk}/race/settle").content.decode()
    shown = totals(body)
    paid = transfer_nets(gong)
    assert shown == {name: paid[name] for name in shown} and set(shown) >= set(paid)
    assert shown["เจ้าบ้าน"] == Decimal(40) and all("− ต๋ง 10 ฿" in e for e in equations(body)[:-1])
    text = html.unescape(re.search(r'id="share"[^>]*>([^<]*)<', body)[1])  # type: ignore[index]
    assert all(line in text for line in equations(body))
