"""Settling the tab on the group's page (views/tabs.py): each player's total across the carried
debts, the host's one button, the settled tab's transfers paid and received with PromptPay QR
codes masked as on a night's, the debts it settled shown so, and taking it back."""

import re

from django.test import Client

from scorekeeper import promptpay
from scorekeeper.models import AuditEntry, Membership, MoneyLine, Night, Player, Tab, TabTransfer
from scorekeeper.reads.debts import owed as still_owed
from scorekeeper.services import tabs
from scorekeeper.services.debts_audit import tab_audit
from tests.qr_read import scan
from tests.tab_nights import two_way_tab
from tests.views.conftest import member

ID = "3-1012-34567-89-3"  # its last digit is its check digit
DIGITS = promptpay.normalised(ID)
FIGURE = r'<figure class="qr" role="img" aria-label="[^"]+">(<svg.*?</svg>)'


def phone(table: Night, role: str, name: str = "") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    member(client, table.group, role)
    if name:
        player = Player.objects.get(group=table.group, name=name)
        assert client.post(f"/g/{table.group_id}/me", {"player": str(player.pk)}).status_code == 302
    return client


def scanned(body: bytes) -> list[str]:
    return sorted(scan(svg, "#fff") for svg in re.findall(FIGURE, body.decode(), re.S))


def section(page: str) -> str:
    """The tab's section of the group page."""
    return page.split('id="tab"')[1].split("</section>")[0]


def test_the_group_page_shows_each_player_s_total_and_the_host_s_button(en, table):
    two_way_tab(table.group)
    page = section(en.get(f"/g/{table.group_id}/").content.decode())
    totals = re.findall(r"<tr><td>(\w+)</td><td class=\"num (?:pos|neg)\">([^<]+)</td>", page)
    assert totals == [
        ("Cat", "−433.32 ฿"), ("Dan", "−324.99 ฿"), ("Bee", "+24.96 ฿"), ("Ann", "+733.35 ฿"),
    ]  # fmt: skip
    assert "Settle the tab (เคลียร์ยอดค้าง)" in page
    assert f'action="/g/{table.group_id}/tab/settle"' in page


def test_a_player_sees_the_totals_but_no_button_and_is_refused_in_thai(en, table):
    two_way_tab(table.group)
    player = phone(table, Membership.Role.PLAYER)
    page = section(player.get(f"/g/{table.group_id}/").content.decode())
    assert "+733.35 ฿" in page and "/tab/settle" not in page
    assert "A host can settle the tab" in page
    thai = Client()
    member(thai, table.group, Membership.Role.PLAYER)
    refused = thai.post(f"/g/{table.group_id}/tab/settle")
    assert refused.status_code == 403 and "ผู้ดูแล" in refused.content.decode()
    assert not Tab.objects.exists() and still_owed(table.group).count() == 9


def test_the_host_s_tap_nets_the_tab_and_the_page_shows_its_transfers_and_settled_debts(en, table):
    owed = two_way_tab(table.group)
    answer = en.post(f"/g/{table.group_id}/tab/settle")
    assert answer.status_code == 302 and answer["Location"] == f"/g/{table.group_id}/#tab"
    tab = Tab.objects.get()
    assert AuditEntry.objects.filter(action="tab-settle", membership__isnull=False).exists()
    page = en.get(f"/g/{table.group_id}/").content.decode()
    assert "Owed across nights" not in page  # nothing carried is still owed one by one
    shown = section(page)
    assert "Tab settled" in shown and "Take the tab back" in shown
    for payer, payee, baht in [("Cat", "Ann", "433.32"), ("Dan", "Ann", "300.03"),
                               ("Dan", "Bee", "24.96")]:  # fmt: skip
        assert f"{payer} → {payee} <strong>{baht} ฿</strong>" in shown
    assert "The 9 carried debts it settled" in shown
    assert shown.count("settled by the tab") == len(owed) == 9
    for night in table.group.nights.filter(closed_at__isnull=False):  # and on each night
        settle_up = en.get(f"/s/{night.pk}/settle").content.decode()
        assert settle_up.count("Settled by the tab, ") == 3 and "Paid since" not in settle_up
    # A second tap, on this phone or another: nothing left to net, said so.
    again = en.post(f"/g/{table.group_id}/tab/settle", follow=True).content.decode()
    assert "there is no tab to settle" in again and Tab.objects.count() == 1
    assert tab_audit(tab) == []


def test_a_transfer_of_the_tab_is_paid_received_and_then_the_tab_cannot_be_taken_back(en, table):
    two_way_tab(table.group)
    host = Membership.objects.get(group=table.group, role=Membership.Role.HOST)
    tab = tabs.tab_settle(group=table.group, actor=host)
    transfer = tab.transfers.get(payer__name="Cat")
    url = f"/g/{table.group_id}/tab-transfers/{transfer.pk}/paid"
    cat = phone(table, Membership.Role.PLAYER, "Cat")
    assert cat.post(url).status_code == 302
    assert MoneyLine.objects.filter(tab_transfer=transfer, item="paid").count() == 1
    twice = cat.post(url, follow=True).content.decode()
    assert "This transfer is already marked paid." in twice
    en.post(url, {"received": "1"})
    assert TabTransfer.objects.get(pk=transfer.pk).received_at is not None
    page = section(en.get(f"/g/{table.group_id}/").content.decode())
    assert "Paid · tapped by" in page and "Received · tapped by" in page
    assert "Take the tab back" not in page  # one is paid: the button is gone
    refused = en.post(f"/g/{table.group_id}/tabs/{tab.pk}/undo", follow=True).content.decode()
    assert "mark it unpaid first" in refused
    assert not still_owed(table.group).exists()
    viewer = phone(table, Membership.Role.VIEWER)
    assert viewer.post(url, {"undo": "1"}).status_code == 403


def test_taking_the_tab_back_shows_it_struck_and_the_debts_owed_again(en, table):
    owed = two_way_tab(table.group)
    en.post(f"/g/{table.group_id}/tab/settle")
    tab = Tab.objects.get()
    player = phone(table, Membership.Role.PLAYER)
    assert player.post(f"/g/{table.group_id}/tabs/{tab.pk}/undo").status_code == 403
    assert en.post(f"/g/{table.group_id}/tabs/{tab.pk}/undo").status_code == 302
    assert list(still_owed(table.group)) == owed
    page = en.get(f"/g/{table.group_id}/").content.decode()
    assert "Owed across nights" in page
    shown = section(page)
    assert "Taken back: the debts it settled are owed again." in shown
    assert "Mark paid" not in shown and "Settle the tab (เคลียร์ยอดค้าง)" in shown


def test_the_tab_s_qr_codes_go_only_to_each_transfer_s_payer_payee_and_host(client, table):
    two_way_tab(table.group)
    ann = phone(table, Membership.Role.PLAYER, "Ann")
    assert ann.post(f"/g/{table.group_id}/promptpay", {"promptpay": ID}).status_code == 302
    host = Membership.objects.get(group=table.group, role=Membership.Role.HOST)
    tab = tabs.tab_settle(group=table.group, actor=host)
    to_ann = {t.payer.name: promptpay.payload(DIGITS, t.baht) for t in tab.transfers.all()
              if t.payee and t.payee.name == "Ann"}  # fmt: skip
    assert sorted(to_ann) == ["Cat", "Dan"]
    url = f"/g/{table.group_id}/"
    assert scanned(client.get(url).content) == sorted(to_ann.values())  # the host's phone
    assert scanned(ann.get(url).content) == sorted(to_ann.values())  # the payee's
    cat = phone(table, Membership.Role.PLAYER, "Cat")
    assert scanned(cat.get(url).content) == [to_ann["Cat"]]  # the payer's own alone
    for other in (phone(table, Membership.Role.PLAYER, "Bee"), phone(table, "viewer")):
        body = other.get(url).content
        assert scanned(body) == [] and DIGITS.encode() not in body
        assert body.decode().count(promptpay.masked(ID)) == 2
