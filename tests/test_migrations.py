"""Migrations that move data: what was stored before is still found after.

Each test migrates to the schema before the migration it tests, writes rows there and migrates
on. The tests go forward through the migrations in the order of the schemas they start from, each
from where the one before left off, so that the run migrates back once rather than once a test
(migrating back renders every state since the start: a second a step); after each test every
table is emptied as it stands, and after the last the latest schema is put back.
"""

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.core.management.color import no_style
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from pytest_django import DjangoDbBlocker

# One worker takes them all, in order (make test: pytest-xdist's loadgroup).
pytestmark = pytest.mark.xdist_group("migrations")

BEFORE = [("scorekeeper", "0004_race_games")]
AFTER = [("scorekeeper", "0005_keys_in_audit")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def test_keys_move_to_their_audit_entries_and_events_into_games_in_play():
    apps = migrate(BEFORE)
    m = {name: apps.get_model("scorekeeper", name) for name in (
        "Group", "Player", "Session", "Game", "Event", "AuditEntry", "IdempotencyKey")}  # fmt: skip
    group = m["Group"].objects.create(name="Saturday")
    ann = m["Player"].objects.create(group=group, name="Ann")
    session = m["Session"].objects.create(
        group=group, ruleset="knock-dummy-2025", stake_level="sian", stake_less=100,
        stake_medium=200, stake_more=300, fine=200, point_value="0.5", first_dealer=ann,
    )  # fmt: skip
    header = {"rules": "knock-dummy-2025", "level": "sian", "fine": 200, "players": ["Ann"]}
    game = m["Game"].objects.create(
        session=session, number=1, dealer=ann, seating=[ann.pk], document=header
    )
    events = [{"type": "head", "player": "Ann"}, {"type": "speto", "player": "Ann"}]
    rows = [
        m["Event"].objects.create(game=game, number=i + 1, document=e) for i, e in enumerate(events)
    ]
    audit = m["AuditEntry"].objects
    opened = audit.create(group=group, session=session, action="session-open")
    started = audit.create(group=group, session=session, game=game, action="game-start")
    added = [audit.create(group=group, session=session, game=game, action="event-add", detail=e)
             for e in events]  # fmt: skip
    keys = m["IdempotencyKey"].objects
    keys.create(key="open", action="session-open", result={"session": session.pk})
    keys.create(key="start", action="game-start", result={"game": game.pk})
    keys.create(key="second", action="event-add", result={"event": rows[1].pk})

    apps = migrate(AFTER)
    audit = apps.get_model("scorekeeper", "AuditEntry").objects
    assert audit.get(pk=opened.pk).key == "open"
    assert audit.get(pk=started.pk).key == "start"
    assert audit.get(pk=added[0].pk).key is None
    second = audit.get(pk=added[1].pk)
    assert (second.key, second.detail) == ("second", {"number": 2, **events[1]})
    moved = apps.get_model("scorekeeper", "Game").objects.get(pk=game.pk)
    assert moved.document == {**header, "events": events}

    kept_once = migrate([("scorekeeper", "0009_events_in_rows_only")])
    moved = kept_once.get_model("scorekeeper", "Game").objects.get(pk=game.pk)
    assert moved.document == header  # the events are in their rows only
    assert [e.document for e in moved.events.order_by("number")] == events


def test_events_that_differ_from_their_rows_stop_the_upgrade_naming_the_game():
    apps = migrate([("scorekeeper", "0008_scoresheet_name")])
    Game = apps.get_model("scorekeeper", "Game")
    group = apps.get_model("scorekeeper", "Group").objects.create(name="Saturday")
    ann = apps.get_model("scorekeeper", "Player").objects.create(group=group, name="Ann")
    session = apps.get_model("scorekeeper", "Session").objects.create(
        group=group, ruleset="knock-dummy-2025", stake_level="sian", stake_less=100,
        stake_medium=200, stake_more=300, fine=200, point_value="0.5", first_dealer=ann,
    )  # fmt: skip
    head = {"type": "head", "player": "Ann"}
    game = Game.objects.create(
        session=session, number=1, dealer=ann, seating=[ann.pk],
        document={"players": ["Ann"], "events": [head, head]},
    )  # fmt: skip
    apps.get_model("scorekeeper", "Event").objects.create(game=game, number=1, document=head)
    with pytest.raises(RuntimeError, match=f"game {game.pk} "):
        migrate([("scorekeeper", "0009_events_in_rows_only")])
    assert Game.objects.get(pk=game.pk).document["events"] == [head, head]  # left as it was
    Game.objects.filter(pk=game.pk).update(document={"players": ["Ann"], "events": [head]})


def test_players_get_the_keys_of_their_names_and_keep_the_names_as_recorded():
    apps = migrate([("scorekeeper", "0009_events_in_rows_only")])
    group = apps.get_model("scorekeeper", "Group").objects.create(name="Saturday")
    Player = apps.get_model("scorekeeper", "Player")
    ann, pasted = (Player.objects.create(group=group, name=n) for n in ("Ann", "An\u200bn"))
    apps = migrate([("scorekeeper", "0010_player_key")])
    Player = apps.get_model("scorekeeper", "Player")
    assert [(p.name, p.key) for p in Player.objects.order_by("pk")] == [
        ("Ann", "Ann"),
        ("An\u200bn", " 1 Ann"),  # recorded as another player: it stays one
    ]


def test_closed_nights_are_restated_in_baht_and_their_payments_as_money_lines():
    apps = migrate([("scorekeeper", "0018_carried_debts")])
    m = {name: apps.get_model("scorekeeper", name) for name in (
        "Group", "Player", "Session", "Transfer", "LedgerLine", "MoneyLine")}  # fmt: skip
    group = m["Group"].objects.create(name="Saturday")
    ann, bee = (m["Player"].objects.create(group=group, name=n, key=n) for n in ("Ann", "Bee"))

    def night(value: str):
        return m["Session"].objects.create(
            group=group, ruleset="knock-dummy-2025", stake_level="sian", stake_less=100,
            stake_medium=200, stake_more=300, fine=200, point_value=value, first_dealer=ann,
        )  # fmt: skip

    eighth, free = night("0.125"), night("0")
    paid = m["Transfer"].objects.create(
        session=eighth, payer=bee, payee=ann, amount=333, mode="fewest"
    )
    unpaid = m["Transfer"].objects.create(
        session=free, payer=bee, payee=ann, amount=40, mode="fewest"
    )
    line = m["LedgerLine"].objects.create(session=eighth, transfer=paid, payer=bee, payee=ann,
                                          amount=333, item="payment")  # fmt: skip
    m["LedgerLine"].objects.create(session=eighth, transfer=paid, payer=ann, payee=bee,
                                   amount=333, item="payment", reverses=line)  # fmt: skip
    again = m["LedgerLine"].objects.create(session=eighth, transfer=paid, payer=bee, payee=ann,
                                           amount=333, item="payment")  # fmt: skip

    apps = migrate([("scorekeeper", "0021_transfers_in_baht_only")])
    Transfer, MoneyLine = (apps.get_model("scorekeeper", n) for n in ("Transfer", "MoneyLine"))
    assert Transfer.objects.get(pk=paid.pk).baht == Decimal("41.63")  # 333 × 0.125, half up
    assert Transfer.objects.get(pk=unpaid.pk).baht == 0  # a night for no money: nothing to pay
    lines = list(MoneyLine.objects.order_by("pk"))
    assert [(x.item, x.payer_id, x.payee_id, x.baht) for x in lines] == [
        ("paid", bee.pk, ann.pk, Decimal("41.63")),
        ("paid", ann.pk, bee.pk, Decimal("41.63")),
        ("paid", bee.pk, ann.pk, Decimal("41.63")),
    ]
    assert lines[1].reverses_id == lines[0].pk and lines[2].reverses_id is None
    assert lines[2].recorded_at == again.recorded_at and lines[0].session_id == eighth.pk
    # The points lines stay, in the night's history.
    assert apps.get_model("scorekeeper", "LedgerLine").objects.filter(transfer=paid.pk).count() == 3


T = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)  # the evening the claims below are made, minutes on


def before_one_claim(*names: str) -> tuple[dict[str, Any], Any, list[Any]]:
    """The schema before one claim per player: its models, a group, and a player of each name
    with a PromptPay number."""
    apps = migrate([("scorekeeper", "0022_nets_reading")])
    m = {name: apps.get_model("scorekeeper", name) for name in (
        "Group", "Player", "Membership", "AuditEntry")}  # fmt: skip
    group = m["Group"].objects.create(name="Saturday")
    players = [
        m["Player"].objects.create(group=group, name=n, key=n, promptpay="0812345678")
        for n in names
    ]
    return m, group, players


def test_nights_closed_before_the_standing_reading_are_marked_booked_and_open_ones_standing():
    apps = migrate([("scorekeeper", "0021_transfers_in_baht_only")])
    m = {name: apps.get_model("scorekeeper", name) for name in ("Group", "Player", "Session")}
    group = m["Group"].objects.create(name="Saturday")
    ann = m["Player"].objects.create(group=group, name="Ann", key="Ann")

    def night(closed: bool):
        return m["Session"].objects.create(
            group=group, ruleset="knock-dummy-2025", stake_level="sian", stake_less=100,
            stake_medium=200, stake_more=300, fine=200, point_value="0.5", first_dealer=ann,
            closed_at=datetime(2026, 11, 20, 23, 0, tzinfo=UTC) if closed else None,
        )  # fmt: skip

    closed, still_open = night(closed=True), night(closed=False)

    apps = migrate([("scorekeeper", "0022_nets_reading")])
    Session = apps.get_model("scorekeeper", "Session")
    readings = dict(Session.objects.values_list("pk", "nets_reading"))
    assert readings == {closed.pk: "booked", still_open.pk: "standing"}
    # A night opened after the migration reads the standing nets, by the field's default.
    later = Session.objects.create(
        group_id=group.pk, ruleset="knock-dummy-2025", stake_level="sian", stake_less=100,
        stake_medium=200, stake_more=300, fine=200, point_value="0.5", first_dealer_id=ann.pk,
    )  # fmt: skip
    assert Session.objects.get(pk=later.pk).nets_reading == "standing"


def test_one_claim_a_player_is_kept_the_earliest_and_a_number_the_kept_member_did_not_save_goes():
    m, group, (ann, bee, cat, dan) = before_one_claim("Ann", "Bee", "Cat", "Dan")

    def claim(player, minutes: int, role: str = "player", revoked: bool = False):
        return m["Membership"].objects.create(
            group=group, role=role, player=player, name=f"{player.name} {minutes}",
            joined_at=T + timedelta(minutes=minutes), revoked_at=T if revoked else None,
        )  # fmt: skip

    def saved(player, member, minutes: int) -> None:
        m["AuditEntry"].objects.create(
            group=group, membership=member, action="promptpay-set",
            detail={"player": player.name, "kind": "mobile"}, at=T + timedelta(minutes=minutes),
        )  # fmt: skip

    real_ann, impostor = claim(ann, 1), claim(ann, 5)  # the impostor saved Ann's number
    saved(ann, impostor, 6)
    real_bee, late_bee = claim(bee, 2), claim(bee, 7)  # Bee saved her own
    saved(bee, real_bee, 3)
    viewer_cat = claim(cat, 1, role="viewer")  # a viewer said they were Cat
    saved(cat, viewer_cat, 2)
    gone, dan_now = claim(dan, 0, revoked=True), claim(dan, 9)  # a removed member held Dan
    saved(dan, dan_now, 10)

    apps = migrate([("scorekeeper", "0023_one_claim_per_player")])
    Membership, Player = (apps.get_model("scorekeeper", n) for n in ("Membership", "Player"))
    holds = {x.pk: x.player_id for x in Membership.objects.all()}
    assert holds == {
        real_ann.pk: ann.pk, impostor.pk: None, real_bee.pk: bee.pk, late_bee.pk: None,
        viewer_cat.pk: None, gone.pk: dan.pk, dan_now.pk: dan.pk,
    }  # fmt: skip
    numbers = {p.name: p.promptpay for p in Player.objects.all()}
    assert numbers == {"Ann": "", "Bee": "0812345678", "Cat": "", "Dan": "0812345678"}
    kept = Player.objects.get(pk=bee.pk)
    assert (kept.promptpay_changed_at, kept.promptpay_changed_by) == (
        T + timedelta(minutes=3),
        "Bee 2",
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.filter(pk=impostor.pk).update(player=ann.pk)


def test_one_claim_the_earliest_by_the_audit_log_is_kept_not_the_member_who_joined_first():
    m, group, (eve, fay, gus) = before_one_claim("Eve", "Fay", "Gus")

    def member(name: str, minutes: int, player):
        return m["Membership"].objects.create(
            group=group, role="player", player=player, name=name,
            joined_at=T + timedelta(minutes=minutes),
        )  # fmt: skip

    def logged(member, action: str, player, minutes: int) -> None:
        m["AuditEntry"].objects.create(
            group=group, membership=member, action=action,
            detail={"player": player.name, **({"kind": "mobile"} if "promptpay" in action else {})},
            at=T + timedelta(minutes=minutes),
        )  # fmt: skip

    # The impostor joined first and said they were Eve, then Fay, then Eve again, after Eve had
    # said so herself: their claim of Eve is as old as that last "this is me".
    impostor, honest = member("early", 0, eve), member("Eve", 4, eve)
    logged(impostor, "member-is-player", eve, 1)
    logged(impostor, "member-is-player", fay, 2)
    logged(honest, "member-is-player", eve, 5)
    logged(honest, "promptpay-set", eve, 6)
    logged(impostor, "member-is-player", eve, 8)
    logged(impostor, "promptpay-set", eve, 9)  # the payers' money to the impostor's number
    # A claim the log does not hold is as old as its member: Gus's claim, made after Gus joined
    # at 3, is older than one a member who joined at 7 said at 8.
    gus_self, latecomer = member("Gus", 3, gus), member("late", 7, gus)
    logged(latecomer, "member-is-player", gus, 8)
    logged(gus_self, "promptpay-set", gus, 9)

    apps = migrate([("scorekeeper", "0023_one_claim_per_player")])
    Membership, Player = (apps.get_model("scorekeeper", n) for n in ("Membership", "Player"))
    holds = {x.name: x.player_id for x in Membership.objects.all()}
    assert holds == {"early": None, "Eve": eve.pk, "Gus": gus.pk, "late": None}
    kept = {p.name: (p.promptpay, p.promptpay_changed_by) for p in Player.objects.all()}
    # Eve's number is the one the impostor saved, whom she was not: it goes, and Eve saves hers.
    assert kept == {"Eve": ("", ""), "Fay": ("0812345678", ""), "Gus": ("0812345678", "Gus")}


def test_a_session_becomes_a_night_with_every_row_that_named_it_and_its_constraints_kept():
    apps = migrate([("scorekeeper", "0025_settled_tabs")])
    named = ("Group", "Player", "Session", "Seat", "Game", "Standing", "LedgerLine", "AuditEntry")
    m = {name: apps.get_model("scorekeeper", name) for name in named}
    group = m["Group"].objects.create(name="Saturday")
    ann, bee = (m["Player"].objects.create(group=group, name=n, key=n) for n in ("Ann", "Bee"))
    session = m["Session"].objects.create(
        group=group, ruleset="knock-dummy-2025", stake_level="sian", stake_less=100,
        stake_medium=200, stake_more=300, fine=200, point_value="0.5", first_dealer=ann,
    )  # fmt: skip
    m["Seat"].objects.create(session=session, player=ann, position=0, since_game=1)
    game = m["Game"].objects.create(session=session, number=1, dealer=ann, seating=[ann.pk])
    m["Standing"].objects.create(session=session, player=ann, net=100)
    line = m["LedgerLine"].objects.create(
        session=session, game=game, payer=bee, payee=ann, amount=100, item="level", rule="76",
        due="after-game",
    )  # fmt: skip
    entry = m["AuditEntry"].objects.create(group=group, session=session, action="session-open")

    apps = migrate([("scorekeeper", "0026_night")])
    night = apps.get_model("scorekeeper", "Night").objects.get(pk=session.pk)
    assert [g.pk for g in night.games.all()] == [game.pk]
    assert [s.player_id for s in night.standings.all()] == [ann.pk]
    assert [s.player_id for s in night.seats.all()] == [ann.pk]
    assert [x.pk for x in night.lines.all()] == [line.pk]
    assert [a.pk for a in night.audit.all()] == [entry.pk]  # its action as it was written
    assert night.audit.get().action == "session-open"
    assert list(apps.get_model("scorekeeper", "Group").objects.get(pk=group.pk).nights.all()) == [
        night
    ]
    Standing = apps.get_model("scorekeeper", "Standing")
    with pytest.raises(IntegrityError), transaction.atomic():
        Standing.objects.create(night=night, player_id=ann.pk)  # one standing a player, still
    Game = apps.get_model("scorekeeper", "Game")
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(night=night, number=1, dealer_id=ann.pk, seating=[ann.pk])


@pytest.fixture(autouse=True)
def _database(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[None]:
    """The test database in autocommit, as a deployment migrates it; after each test, every table
    of the app emptied at the schema the test left, its old tables too, so that the next test
    starts from nothing wherever it starts. Its rows were written to old schemas by hand: not a
    night the app played, so the audit after each test (tests/conftest.py) does not read them."""
    with django_db_blocker.unblock():
        yield
        tables = [t for t in connection.introspection.table_names() if t.startswith("scorekeeper_")]
        flush = connection.ops.sql_flush(no_style(), tables)  # all of them: no cascade needed
        connection.ops.execute_sql_flush(flush)


@pytest.fixture(scope="module", autouse=True)
def _latest_schema_after(
    django_db_setup: None, django_db_blocker: DjangoDbBlocker
) -> Iterator[None]:
    """Every other test runs on today's schema: migrated forward again after the module."""
    yield
    with django_db_blocker.unblock():
        migrate(latest())
