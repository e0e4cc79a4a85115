"""The members page shows each open invite as a QR code a phone across the table can scan."""

import html
import re

from scorekeeper.models import Invite, Membership
from scorekeeper.services import access
from tests.qr_read import scan

FIGURE = re.compile(
    r'<figure class="invite-qr" role="img" aria-label="([^"]*)">(<svg .*?</svg>)</figure>'
)


def link(invite: Invite) -> str:
    return f"http://testserver/join/{invite.token}"


def test_each_open_invite_scans_back_to_its_join_link_on_a_dark_page_too(client, table):
    host = Membership.objects.get(group=table.group)
    older = access.invite_create(group=table.group, role=Membership.Role.VIEWER, by=host)
    response = client.post(f"/g/{table.group.pk}/members", {"role": "player", "life": "24"})
    made = Invite.objects.exclude(pk=older.pk).get()
    figures = FIGURE.findall(response.content.decode())
    # The invite just made at the top, then each still open, newest first.
    assert [scan(svg, "#fff") for _, svg in figures] == [link(made), link(made), link(older)]
    assert all(scan(svg, "#000") == link(made) for _, svg in figures[:2])  # its own white


def test_the_qr_code_sits_beside_the_code_and_the_link(client, table):
    host = Membership.objects.get(group=table.group)
    invite = access.invite_create(group=table.group, role=Membership.Role.VIEWER, by=host)
    body = client.get(f"/g/{table.group.pk}/members").content.decode()
    item = body[body.index('<ul class="list" id="invites">') :]
    item = item[: item.index("</li>")]
    assert 'role="img"' in item
    assert f'<strong class="code">{invite.code}</strong>' in item
    assert f'value="{link(invite)}"' in item


def test_the_qr_code_is_named_in_thai_and_in_english(client, table):
    table.group.name = 'Saturday "5" & co'
    table.group.save()
    host = Membership.objects.get(group=table.group)
    access.invite_create(group=table.group, role=Membership.Role.VIEWER, by=host)
    thai = FIGURE.findall(client.get(f"/g/{table.group.pk}/members").content.decode())
    english = FIGURE.findall(
        client.get(f"/g/{table.group.pk}/members", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    )
    group = 'Saturday "5" & co'
    assert html.unescape(thai[0][0]) == (f"คิวอาร์โค้ดสำหรับเข้าก๊วน {group}: สแกนด้วยกล้องของโทรศัพท์")
    assert html.unescape(english[0][0]) == (
        f"QR code to join {group}: scan it with the phone's camera"
    )


def test_a_page_without_open_invites_draws_no_qr_code(client, table):
    body = client.get(f"/g/{table.group.pk}/members").content.decode()
    assert "<svg" not in body
