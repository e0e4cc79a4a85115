"""Paid and received: the payer's side taps "paid", the payee's "received";
anyone at the table may tap for them and the audit names who tapped; everyone sees who and when;
once received, only a host reopens it."""

from django.test import Client

from scorekeeper.models import AuditEntry, Membership, Transfer
from scorekeeper.services import games, nights
from scorekeeper.services.ledger_audit import night_audit
from tests.views.conftest import HTMX, member


def closed(table) -> Transfer:
    game = games.game_start(night=table)
    games.game_finish(game=game, outcome={"knock": {"player": "Ann", "kind": "normal"},
                                          "points": {"Bee": 10, "Cat": 20, "Dan": 30}})  # fmt: skip
    return nights.night_close(night=table)[0]


def phone(table, role: str, name: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    membership = member(client, table.group, role)
    Membership.objects.filter(pk=membership.pk).update(name=name)
    return client


def test_paid_then_received_each_name_who_tapped_and_when(table):
    transfer = closed(table)
    url = f"/s/{table.pk}/transfers/{transfer.pk}/paid"
    bee = phone(table, Membership.Role.PLAYER, "Bee's phone")
    cat = phone(table, Membership.Role.PLAYER, "Cat's phone")
    bee.post(url, {})
    swap = cat.post(url, {"received": "1"}, **HTMX).content.decode()  # Cat taps for Ann
    assert "Paid · tapped by Bee&#x27;s phone" in swap or "Paid · tapped by Bee's phone" in swap
    assert "Received · tapped by Cat" in swap
    transfer.refresh_from_db()
    payment = transfer.money_lines.get()
    assert payment.by.name == "Bee's phone" and transfer.received_by.name == "Cat's phone"
    steps = AuditEntry.objects.filter(action__in=["payment-record", "payment-receive"])
    assert {(e.action, e.membership.name) for e in steps} == {
        ("payment-record", "Bee's phone"), ("payment-receive", "Cat's phone"),
    }  # fmt: skip
    assert night_audit(table) == []


def test_a_transfer_received_is_reopened_by_a_host_alone(en, table):
    transfer = closed(table)
    url = f"/s/{table.pk}/transfers/{transfer.pk}/paid"
    en.post(url, {})
    en.post(url, {"received": "1"})
    player = phone(table, Membership.Role.PLAYER, "Dan's phone")
    assert "Reopen" not in player.get(f"/s/{table.pk}/settle").content.decode()
    player.post(url, {"undo": "1"})  # sent anyway: refused, nothing changes
    transfer.refresh_from_db()
    assert transfer.received_at is not None and transfer.money_lines.count() == 1
    assert "Reopen" in en.get(f"/s/{table.pk}/settle").content.decode()
    en.post(url, {"undo": "1"})  # the host reopens a disputed one
    transfer.refresh_from_db()
    assert transfer.received_at is None
    assert transfer.money_lines.count() == 2  # the payment and its visible reversal
    assert night_audit(table) == []


def test_nothing_unpaid_can_be_received(en, table):
    transfer = closed(table)
    en.post(f"/s/{table.pk}/transfers/{transfer.pk}/paid", {"received": "1"})
    transfer.refresh_from_db()
    assert transfer.received_at is None
