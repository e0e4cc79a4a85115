"""Sharing a night: the summary's share button, the card, and the share
link that a chat's preview fetcher (no cookies, no account) opens with its Open Graph tags."""

import re
from urllib.parse import unquote

from django.test import Client

from scorekeeper.models import AuditEntry, Membership, ShareLink
from scorekeeper.services import nights
from tests.views.conftest import finish_data, member


def meta(body: str, name: str) -> str:
    found = re.search(rf'<meta property="{name}" content="([^"]*)"', body)
    assert found, f"no {name}"
    return found[1]


def played(client: Client, in_play) -> None:
    client.post(f"/s/{in_play.night_id}/games/{in_play.pk}/finish", finish_data())


def test_the_summary_offers_the_share_sheet_line_and_a_copy(client, in_play):
    played(client, in_play)
    body = client.get(f"/s/{in_play.night_id}/summary").content.decode()
    link = ShareLink.objects.get()
    url = f"http://testserver/n/{link.token}"
    assert meta(body, "og:url") == url
    assert meta(body, "og:image") == f"{url}/card.png"
    assert "data-share" in body and f'data-card="/s/{in_play.night_id}/card.png"' in body
    line = re.search(r'href="(https://line\.me/R/share\?text=[^"]+)"', body)
    assert line and url in unquote(line[1])
    text = re.search(r'data-text="([^"]*)"', body, re.S)[1]  # type: ignore[index]
    assert "พ.ศ." not in text and re.search(r"\d+ [ก-๙.]+ 25\d\d", text)  # 25 พ.ย. 2569
    assert "1 เกม" in text and ".00" not in text
    assert "Bee → Ann" in text or "→ Ann" in text


def test_the_link_is_made_once_however_often_the_summary_is_opened(client, in_play):
    for _ in range(3):
        client.get(f"/s/{in_play.night_id}/summary")
    assert ShareLink.objects.count() == 1
    assert AuditEntry.objects.filter(action="share-link-create").count() == 1


def test_a_viewer_reads_the_summary_but_makes_no_link(table, in_play):
    viewer = Client()
    member(viewer, table.group, Membership.Role.VIEWER)
    body = viewer.get(f"/s/{table.pk}/summary").content.decode()
    assert "data-share" not in body
    assert not ShareLink.objects.exists()


def test_the_share_link_opens_without_cookies_with_its_preview_and_card(client, in_play):
    played(client, in_play)
    nights.night_close(night=in_play.night)
    client.get(f"/s/{in_play.night_id}/summary")
    token = ShareLink.objects.get().token
    stranger = Client()  # a chat app's preview fetcher: no cookies, no account
    page = stranger.get(f"/n/{token}")
    assert page.status_code == 200
    assert not page.cookies and "Set-Cookie" not in page  # read-only: it leaves nothing behind
    body = page.content.decode()
    assert meta(body, "og:title").startswith("Saturday · ")
    assert "data-share" not in body and "Ann" in body
    card = stranger.get(f"/n/{token}/card.png")
    assert card.status_code == 200 and card["Content-Type"] == "image/png"
    assert card.content.startswith(b"\x89PNG")
    again = stranger.get(f"/n/{token}/card.png", HTTP_IF_NONE_MATCH=card["ETag"])
    assert again.status_code == 304


def test_the_host_revokes_the_link_and_it_answers_nothing(client, in_play):
    client.get(f"/s/{in_play.night_id}/summary")
    token = ShareLink.objects.get().token
    player = Client()
    member(player, in_play.night.group, Membership.Role.PLAYER)
    assert player.post(f"/s/{in_play.night_id}/share/revoke").status_code == 403
    assert client.post(f"/s/{in_play.night_id}/share/revoke").status_code == 302
    assert Client().get(f"/n/{token}").status_code == 404
    assert Client().get(f"/n/{token}/card.png").status_code == 404
    assert AuditEntry.objects.filter(action="share-link-revoke").count() == 1
    client.get(f"/s/{in_play.night_id}/summary")  # a new share makes a new link
    assert ShareLink.objects.filter(revoked_at__isnull=True).exclude(token=token).count() == 1


def test_an_unknown_link_is_not_found(db):
    assert Client().get("/n/not-a-token").status_code == 404


def test_a_member_opening_the_share_link_can_go_on_to_the_night_in_full(client, in_play):
    client.get(f"/s/{in_play.night_id}/summary")
    token = ShareLink.objects.get().token
    assert f"/s/{in_play.night_id}/history" in client.get(f"/n/{token}").content.decode()
    assert f"/s/{in_play.night_id}/history" not in Client().get(f"/n/{token}").content.decode()
