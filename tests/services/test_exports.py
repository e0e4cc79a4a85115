"""Exports: the ledger as CSV for people, the group as JSON that imports into an empty instance."""

import copy
import csv
import io
import json
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest
from django.db import transaction

from scorekeeper.models import (
    AuditEntry,
    Event,
    Game,
    Group,
    LedgerLine,
    Membership,
    MoneyLine,
    Night,
    Player,
    Seat,
    Standing,
    Tab,
    TabTransfer,
    Transfer,
)
from scorekeeper.reads.debts import owed
from scorekeeper.reads.money import Choices
from scorekeeper.services import (
    access,
    costs,
    debts,
    exports,
    games,
    group_rules,
    nights,
    tabs,
)
from scorekeeper.services.debts_audit import tab_audit
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.ledger_audit import night_audit
from tests.services.conftest import make_night
from tests.tab_nights import two_way_tab

SOMCHAI, SOMYING, EVE = "สมชาย", "สมหญิง", "อีฟ"


def make_rich_group() -> Group:
    """Two nights of a Thai group played through the real services, with every kind of row.

    Night 1 (sian): events, a result undone and saved again, a fine, a void and its correction,
    a tie resolved by the next head card, a seat change, a stock-out, two shared costs (one taken
    back), then closed with a table fee to the house and rounding to 5 baht, paid, one payment
    undone and paid again.
    Night 2 (custom stakes, a quarter baht a point): a three-way tie resolved by a draw and a
    game still in play with an event and another taken back.
    The group keeps its own rules: custom stakes, a close through สมชาย with a fee to อีฟ and
    rounding สมหญิง carries, and Gong Zhu's target.
    """
    host_device = access.device_create(user_agent="host phone")
    group = access.group_create(name="วงวันเสาร์", device=host_device, host_name="พี่หนึ่ง")
    host = Membership.objects.get(group=group)
    invite = access.invite_create(group=group, role=Membership.Role.PLAYER, by=host)
    guest = access.invite_join(device=access.device_create(), token=invite.token, name="น้องบี")

    def who(name: str) -> Player:
        return nights.player_create(group=group, name=name)

    table = nights.night_open(
        group=group,
        players=[SOMCHAI, "Bee", SOMYING, "Dan"],
        stake_level="sian",
        point_value=Decimal("0.5"),
        actor=host,
    )
    first = games.game_start(night=table, actor=host)
    games.event_add(game=first, event={"type": "head", "player": "Bee", "close": ["Dan"]})
    games.event_add(game=first, event={"type": "dummy-discard", "player": SOMYING}, actor=guest)
    games.game_finish(
        game=first,
        outcome={
            "knock": {"player": SOMCHAI, "kind": "normal"},
            "points": {"Bee": 10, SOMYING: 20, "Dan": 30},
        },
        actor=guest,
    )
    games.game_undo(game=first, actor=guest)  # a result taken back at once, and saved again
    games.game_finish(
        game=first,
        outcome={
            "knock": {"player": SOMCHAI, "kind": "normal"},
            "points": {"Bee": 10, SOMYING: 25, "Dan": 30},
        },
        actor=guest,
    )
    fined = games.game_start(night=table, actor=host)
    games.event_add(game=fined, event={"type": "fine", "player": "Bee", "reason": "misdeal"})
    wrong = games.game_start(night=table)
    dark_fool = {
        "knock": {"player": "Bee", "kind": "dark"},
        "collected": [SOMCHAI, SOMYING],
        "fool": SOMYING,
        "speto_held": {"Dan": 1},
        "points": {SOMCHAI: 35, SOMYING: 10, "Dan": -80},
    }
    games.game_finish(game=wrong, outcome={**dark_fool, "fool": None})
    games.game_void(game=wrong, actor=host)
    games.game_correct(
        voided=wrong,
        events=[{"type": "head", "player": SOMCHAI}],
        outcome=dark_fool,
        actor=host,
    )
    tied = games.game_start(night=table)
    games.game_finish(
        game=tied,
        outcome={
            "knock": {"player": SOMYING, "kind": "normal"},
            "points": {SOMCHAI: 10, "Bee": 10, "Dan": 25},
        },
    )
    seats = {s.player.name: s.position for s in table.seats.current().select_related("player")}
    nights.seat_change(night=table, position=seats["Dan"], player=who(EVE), actor=host)
    last = games.game_start(night=table, head_color="red", actor=host)
    games.game_finish(
        game=last,
        outcome={"points": {SOMCHAI: 40, "Bee": 30, SOMYING: 20, EVE: 10}},
        last_drawer=who(EVE),
    )
    # Shared costs, one taken back, a table fee to the house and rounding.
    seated = [who(name) for name in (SOMCHAI, "Bee", SOMYING, EVE)]
    costs.cost_add(night=table, reason="ข้าวมันไก่", baht=Decimal("250.00"), paid_by=who("Bee"),
                   among=seated, actor=guest)  # fmt: skip
    wrong_cost = costs.cost_add(night=table, reason="เบียร์", baht=Decimal("99.99"),
                                paid_by=who(EVE), among=seated[:2], actor=guest)  # fmt: skip
    costs.cost_remove(cost=wrong_cost, actor=host)
    settle_up = nights.night_close(
        night=table,
        choices=Choices(fee=Decimal(20), rounding=5, rounding_by=who(SOMYING)),
        actor=host,
    )
    for transfer in settle_up:
        nights.payment_record(transfer=transfer, actor=host)
    nights.payment_undo(transfer=settle_up[0], actor=host)
    nights.payment_record(transfer=settle_up[0], actor=guest)

    second = nights.night_open(
        group=group,
        players=["Bee", "Dan", EVE, SOMCHAI],
        stake_level="custom",
        stakes=(10, 20, 30),
        fine=50,
        point_value=Decimal("0.25"),
        first_dealer=1,
        actor=guest,
    )
    three_way = games.game_start(night=second, actor=guest)
    games.game_finish(
        game=three_way,
        outcome={
            "knock": {"player": EVE, "kind": "normal"},
            "points": {"Bee": 5, "Dan": 5, SOMCHAI: 5},
        },
    )
    games.game_resolve_tie(game=three_way, order=[SOMCHAI, "Bee", "Dan"], actor=guest)
    playing = games.game_start(night=second)
    games.event_add(game=playing, event={"type": "show-speto", "player": "Bee"})
    games.event_add(game=playing, event={"type": "head", "player": "Dan"})
    games.event_remove(game=playing, number=2, actor=guest)  # a mistake, taken back
    # Carried to next time, paid at the second night, taken back and paid again.
    nights.payment_undo(transfer=settle_up[-1], actor=host)
    carry = debts.transfer_carry(transfer=settle_up[-1], actor=host)
    debts.debt_settle(debt=carry, night=second, actor=guest)
    debts.debt_settle_undo(debt=carry, actor=guest)
    debts.debt_settle(debt=carry, actor=host)  # between nights, from the group's page
    group_rules.group_rules_set(group=group, usual=rich_rules(group), actor=host)
    return group


def rich_rules(group: Group) -> group_rules.Usual:
    def pk(name: str) -> int:
        return group.players.get(name=name).pk

    return group_rules.Usual(
        stakes=group_rules.Stakes(
            level="custom", rates=(50, 100, 150), fine=120, point_value=Decimal("0.25")
        ),
        close=group_rules.Close(
            mode="hub",
            hub=pk(SOMCHAI),
            fee=Decimal("40.00"),
            fee_per="night",
            fee_to=pk(EVE),
            rounding=5,
            rounding_by=pk(SOMYING),
        ),  # fmt: skip
        sheets={
            "gong-zhu": group_rules.Sheet(
                house={"pig_in_shuan": 100}, target={"points": 1000, "direction": "up"}
            )
        },
    )


@pytest.fixture(scope="module")
def export(django_db_setup, django_db_blocker) -> dict:
    """The rich group's JSON export, made in a transaction rolled back: the database stays empty."""
    with django_db_blocker.unblock(), transaction.atomic():
        data = exports.group_json(group=make_rich_group())
        transaction.set_rollback(True)
    return data


def without_time_of_export(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "exported_at"}


def test_the_rich_group_has_every_kind_of_row_and_audits_clean(db):
    group = make_rich_group()
    statuses = set(Game.objects.values_list("status", flat=True))
    assert statuses == {"settled", "fined", "voided", "in-play"}
    assert Game.objects.filter(replaces__isnull=False).count() == 1
    assert Game.objects.exclude(document__tie_break=None).count() == 2  # head card and a draw
    assert Seat.objects.filter(until_game__isnull=False).exists()
    paid = MoneyLine.objects.filter(item=MoneyLine.Item.PAID)
    assert paid.filter(reverses__isnull=False).count() == 2
    assert {"carry", "settle", "paid", "cost", "fee", "rounding"} == set(
        MoneyLine.objects.values_list("item", flat=True)
    )
    assert MoneyLine.objects.filter(item="fee", payee=None).exists()  # to the house
    assert MoneyLine.objects.filter(item="cost", reverses__isnull=False).count() == 2
    assert Event.objects.count() == 6
    assert Event.objects.filter(removed_at__isnull=False).count() == 1
    assert AuditEntry.objects.filter(action__in=("game-undo", "event-remove")).count() == 2
    for night in group.nights.all():
        assert night_audit(night) == []


# -- CSV ------------------------------------------------------------------------------------------


def read_csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_a_night_csv_has_a_header_and_one_row_per_ledger_line_with_thai_names_intact(db):
    table = make_night(names=(SOMCHAI, SOMYING, "Bee", "Dan"), point_value=Decimal("0.3333"))
    game = games.game_start(night=table)
    games.event_add(game=game, event={"type": "head", "player": SOMYING, "close": ["Dan"]})
    games.game_finish(
        game=game,
        outcome={
            "knock": {"player": SOMCHAI, "kind": "normal"},
            "points": {SOMYING: 10, "Bee": 20, "Dan": 30},
        },
    )
    games.game_void(game=game)
    text = exports.night_csv(night=table)
    assert text.splitlines()[0].split(",") == list(exports.CSV_HEADER)
    rows = read_csv(text)
    lines = list(LedgerLine.objects.for_night(table).select_related("payer", "payee"))
    assert len(rows) == len(lines) > 0
    for row, line in zip(rows, lines, strict=True):
        assert (row["line"], row["payer"], row["payee"]) == (
            str(line.pk),
            line.payer.name,
            line.payee.name,
        )
        assert (row["game"], row["game status"], row["item"], row["rule"], row["due"]) == (
            "1",
            "voided",
            line.item,
            line.rule,
            line.due,
        )
        assert row["reversal of"] == (str(line.reverses_id) if line.reverses_id else "")
    assert {SOMCHAI, SOMYING} <= {row["payer"] for row in rows} | {row["payee"] for row in rows}
    assert any(row["event"] == "1" for row in rows)


def test_the_baht_column_is_points_times_the_rate_rounded_half_up_to_the_satang(db):
    table = make_night(point_value=Decimal("0.3333"))
    game = games.game_start(night=table)
    games.game_finish(
        game=game,
        outcome={
            "knock": {"player": "Ann", "kind": "dark"},
            "points": {"Bee": 7, "Cat": 21, "Dan": 35},
        },
    )
    for row in read_csv(exports.night_csv(night=table)):
        want = (int(row["points"]) * Decimal("0.3333")).quantize(
            Decimal("0.01"), rounding=ROUND_HALF_UP
        )
        assert Decimal(row["baht"]) == want
        assert row["baht"] == f"{want}"


def test_a_group_csv_holds_the_lines_of_every_night(db):
    group = make_rich_group()
    rows = read_csv(exports.group_csv(group=group))
    assert len(rows) == LedgerLine.objects.count() + MoneyLine.objects.count()
    assert {row["unit"] for row in rows} == {"points", "baht"}
    fee = next(row for row in rows if row["item"] == "fee")
    assert (fee["payee"], fee["points"], fee["baht"]) == ("เจ้าบ้าน", "", "20.00")
    assert {row["session"] for row in rows} - {""} == {str(s.pk) for s in group.nights.all()}
    assert [row["item"] for row in rows if not row["session"]] == ["settle"]  # between nights
    assert {row["game status"] for row in rows} >= {"settled", "fined", "voided", ""}
    assert EVE in {row["payee"] for row in rows} | {row["payer"] for row in rows}


# -- JSON export ----------------------------------------------------------------------------------


def test_the_json_export_is_versioned_and_keeps_devices_invites_and_keys_behind(export):
    assert (export["format"], export["version"]) == ("scorekeeper-group", 4)
    assert set(export) == {
        "format",
        "version",
        "exported_at",
        "group",
        "players",
        "memberships",
        "sessions",
        "tabs",
        "lines",
        "money_lines",
        "audit",
    }
    assert {line["unit"] for line in export["money_lines"]} == {"baht"}  # never points
    assert export["group"]["name"] == "วงวันเสาร์"
    assert export["memberships"][0] == {
        "name": "พี่หนึ่ง",
        "role": "host",
        "joined_at": export["memberships"][0]["joined_at"],
        "revoked_at": None,
    }
    text = repr(export)
    assert "token" not in text and "host phone" not in text and "device" not in text


def test_the_json_export_links_by_name_and_position_not_by_database_id(export):
    first, second = export["sessions"]
    assert first["point_value"] == "0.5000" and second["point_value"] == "0.2500"
    assert second["stakes"] == {"less": 10, "medium": 20, "more": 30}
    voided, corrected = (g for g in first["games"] if g["number"] == 3)
    assert (voided["status"], corrected["status"]) == ("voided", "settled")
    assert corrected["replaces"] == first["games"].index(voided)
    assert voided["seating"][0] in {SOMCHAI, "Bee", SOMYING, "Dan"}
    reversal = next(line for line in export["lines"] if line["reverses"] is not None)
    original = export["lines"][reversal["reverses"]]
    assert (reversal["payer"], reversal["payee"]) == (original["payee"], original["payer"])
    assert (reversal["amount"], reversal["game"]) == (original["amount"], original["game"])


def test_a_night_export_holds_that_night_alone(db):
    group = make_rich_group()
    second = group.nights.order_by("pk").last()
    data = exports.night_json(night=second)
    assert len(data["sessions"]) == 1
    assert {line["session"] for line in data["lines"]} == {0}
    assert len(data["lines"]) == second.lines.count()
    assert all(entry["session"] == 0 for entry in data["audit"])


# -- JSON import ----------------------------------------------------------------------------------


def test_an_import_into_an_empty_instance_exports_again_unchanged_and_audits_clean(db, export):
    group = exports.group_import(data=export)
    again = exports.group_json(group=group)
    assert without_time_of_export(again) == without_time_of_export(export)
    assert LedgerLine.objects.count() == len(export["lines"])
    for night in group.nights.all():
        assert night_audit(night) == []
    assert not Membership.objects.filter(device__isnull=False).exists()


def test_an_import_of_a_night_export_recreates_that_night(db, export):
    with transaction.atomic():
        group = exports.group_import(data=export)
        data = exports.night_json(night=group.nights.order_by("pk").first())
        transaction.set_rollback(True)
    group = exports.group_import(data=data)
    assert group.nights.count() == 1
    assert without_time_of_export(exports.group_json(group=group))["lines"] == data["lines"]


def counts() -> dict[str, int]:
    tables = (
        Group,
        Player,
        Membership,
        Night,
        Seat,
        Game,
        Event,
        Transfer,
        LedgerLine,
        MoneyLine,
        Tab,
        TabTransfer,
    )
    return {m.__name__: m.objects.count() for m in (*tables, Standing, AuditEntry)}


def test_an_import_into_an_instance_with_a_group_is_refused_and_writes_nothing(db, export):
    access.group_create(name="วงเดิม")
    before = counts()
    with pytest.raises(ServiceError, match="already has a group"):
        exports.group_import(data=export)
    assert counts() == before


def broken(export: dict, where: str, value: object) -> dict:
    """A deep copy of the export with one field (a dotted path, numbers for list items) changed."""
    data = copy.deepcopy(export)
    *path, last = where.split(".")
    node = data
    for step in path:
        node = node[int(step)] if isinstance(node, list) else node[step]
    if value is KeyError:
        del node[last]
    else:
        node[int(last) if isinstance(node, list) else last] = value
    return data


@pytest.mark.parametrize(
    ("where", "value", "message"),
    [
        ("format", "something-else", "not a Scorekeeper group export"),
        ("version", 5, "unknown export version 5"),
        ("players", "everyone", r"export: players should be list"),
        ("sessions.0.games.2.status", "lost", "status: Value .lost. is not a valid choice"),
        ("sessions.0.games.3.replaces", 9, "games\\[3\\]\\.replaces refers to 9"),
        ("sessions.1.seats.0.player", "Nobody", "'Nobody', who is not among the players"),
        ("sessions.0.point_value", "half", "not a number"),
        ("sessions.0.started_at", "yesterday", "not an ISO-8601 time"),
        ("lines.-1.amount", 0, "breaks a rule of the database"),
        ("lines.-1.amount", "12", r"amount should be int"),
        ("lines.-1.reverses", 10**6, r"reverses refers to 1000000"),
        ("lines.-1.recorded_at", KeyError, r"recorded_at is missing"),
        ("sessions.0.standings.0.net", 999, "sessions\\[0\\] does not add up"),
        ("money_lines.0.unit", "points", r"money_lines\[0\]\.unit must be 'baht'"),
        ("money_lines.0.baht", "lots", r"money_lines\[0\]\.baht must be an amount of baht"),
        ("money_lines.1.carried", 3, r"money_lines\[1\]\.carried refers to 3"),
        ("money_lines.0.baht", "1.00", "is not a share of shared cost"),
        ("money_lines.-4.baht", "1.00", "is not the carry of transfer"),
    ],
    ids=[
        "unknown format",
        "unknown version",
        "players not a list",
        "unknown game status",
        "correction of a game not exported",
        "seat of an unknown player",
        "point value not a number",
        "time not ISO-8601",
        "zero amount",
        "amount as text",
        "reversal of a line not exported",
        "missing time",
        "standings that disagree with the ledger",
        "money line in points",
        "money line amount not a number",
        "payment of a debt carried later",
        "share that is not its cost's",
        "carry that is not its transfer's",
    ],
)
def test_an_import_of_malformed_data_is_refused_with_a_clear_error_and_writes_nothing(
    db, export, where, value, message
):
    if where.startswith("lines.-1"):
        where = where.replace("-1", str(len(export["lines"]) - 1))
    with pytest.raises(ServiceError, match=message):
        exports.group_import(data=broken(export, where, value))
    assert set(counts().values()) == {0}


def test_an_import_of_something_that_is_not_an_object_is_refused(db):
    with pytest.raises(ServiceError, match="not a Scorekeeper group export"):
        exports.group_import(data=["format", "scorekeeper-group"])  # type: ignore[arg-type]


def test_an_export_outside_any_transaction_reads_one_snapshot_and_says_the_same(transactional_db):
    group = make_rich_group()
    alone = exports.group_json(group=group)  # on PostgreSQL: its own repeatable-read snapshot
    with transaction.atomic():
        inside = exports.group_json(group=group)
    assert without_time_of_export(alone) == without_time_of_export(inside)
    assert exports.group_csv(group=group) == exports.group_csv(group=group)


def test_a_version_1_export_made_before_the_score_sheet_rename_still_imports(db):
    """tests/services/data/export-v1.json was written by commit c8ffc3b, whose nights kept
    their score-sheet settings under "race"."""
    data = json.loads((Path(__file__).parent / "data" / "export-v1.json").read_text())
    assert data["version"] == 1
    group = exports.group_import(data=data)
    sheet = group.nights.get(ruleset="gong-zhu")
    assert sheet.scoresheet["target"] == {"points": 300, "direction": "down"}
    again = exports.group_json(group=group)
    assert again["version"] == exports.VERSION
    assert [s["scoresheet"] for s in again["sessions"]] == [s["race"] for s in data["sessions"]]
    assert again["lines"] == data["lines"]
    for night in group.nights.all():
        assert night_audit(night) == []


def test_a_version_2_export_with_its_settle_up_in_points_imports_in_baht(db):
    """tests/services/data/export-v2.json was written by commit 2b039b4, whose transfers were in
    points and paid by points lines: they come in at their night's point value, each payment
    beside its points line as a money line, and the nights audit clean."""
    data = json.loads((Path(__file__).parent / "data" / "export-v2.json").read_text())
    assert data["version"] == 2
    group = exports.group_import(data=data)
    first = group.nights.order_by("pk").first()
    points = [t["amount"] for t in data["sessions"][0]["transfers"]]
    assert [t.baht for t in first.transfers.order_by("pk")] == [first.baht(p) for p in points]
    paid_in_points = LedgerLine.objects.filter(night=first, transfer__isnull=False)
    paid_in_baht = MoneyLine.objects.filter(night=first, item=MoneyLine.Item.PAID)
    assert paid_in_points.count() == paid_in_baht.count() > 0
    assert paid_in_baht.filter(reverses__isnull=False).count() == 2  # undone twice, visibly
    again = exports.group_json(group=group)
    assert again["version"] == exports.VERSION and again["lines"] == data["lines"]
    for night in group.nights.all():
        assert night_audit(night) == []


def _first(data: dict, **where: object) -> dict:
    """The first ledger line of the export with these fields."""
    return next(line for line in data["lines"] if all(line[k] == v for k, v in where.items()))


def _reversal_of_a_reversal(data: dict) -> None:
    at = next(i for i, line in enumerate(data["lines"]) if line["reverses"] is not None)
    reversal = dict(data["lines"][at])
    reversal.update(payer=reversal["payee"], payee=reversal["payer"], reverses=at)
    data["lines"].append(reversal)


def _knocker_with_points(data: dict) -> None:
    document = data["sessions"][0]["games"][0]["document"]
    document["knock"]["player"] = next(iter(document["points"]))  # a knocker holds no points


AUDIT_ROWS = [
    (
        "a line outside any game",
        lambda d: _first(d, session=0, item="level").update(game=None, event=None),
        "belongs to no game, event or transfer",
    ),
    ("a reversal reversed", _reversal_of_a_reversal, "reverses a reversal"),
    (
        "a settle-up transfer ×10",
        lambda d: d["sessions"][0]["transfers"][0].update(
            baht=str(Decimal(d["sessions"][0]["transfers"][0]["baht"]) * 10)
        ),
        "is not the payment of transfer",
    ),
    (
        "a settled game relabelled in play",
        lambda d: d["sessions"][0]["games"][0].update(status="in-play", finished_at=None),
        "in a closed night",
    ),
    ("a knocker changed against the rules", _knocker_with_points, "the rules refuse it"),
]


@pytest.mark.parametrize(
    ("change", "reason"), [row[1:] for row in AUDIT_ROWS], ids=[row[0] for row in AUDIT_ROWS]
)
def test_an_import_that_does_not_audit_from_scratch_is_refused_whole_with_its_first_reason(
    db, export, change, reason
):
    data = copy.deepcopy(export)
    change(data)
    before = counts()
    with pytest.raises(ServiceError, match=reason) as refused:
        exports.group_import(data=data)
    assert refused.value.code == "import-audit"
    assert counts() == before


# -- names, cleaned as typed ---------------------------------------------------------------------


def renamed_in_file(data: Any, recorded: str, typed: str) -> Any:
    """The file with every text that is `recorded` (a value or a key) written as `typed`."""
    if isinstance(data, str):
        return typed if data == recorded else data
    if isinstance(data, list):
        return [renamed_in_file(v, recorded, typed) for v in data]
    if isinstance(data, dict):
        return {renamed_in_file(k, recorded, typed): renamed_in_file(v, recorded, typed)
                for k, v in data.items()}  # fmt: skip
    return data


def test_a_name_recorded_with_a_format_character_comes_in_cleaned_and_its_games_read_so(db, export):
    # Bee with a zero-width space pasted inside, Dan after a left-to-right mark, wherever the
    # file names them: the players, their seats and lines, the games' documents (knocks,
    # points, tie orders as keys and values) and the audit trail.
    dirty = renamed_in_file(export, "Bee", "B\u200bee")
    dirty = renamed_in_file(dirty, "Dan", "\u200eDan")
    assert "B\u200bee" in json.dumps(dirty["sessions"][0]["games"], ensure_ascii=False)
    group = exports.group_import(data=dirty)
    typed = {SOMCHAI, "Bee", SOMYING, "Dan", EVE}
    assert set(group.players.values_list("name", flat=True)) == typed
    assert set(group.players.values_list("key", flat=True)) == typed
    # Read by the cleaned names, the nights are the ones exported: documents, lines and all.
    assert without_time_of_export(exports.group_json(group=group)) == without_time_of_export(export)
    for night in group.nights.all():
        assert night_audit(night) == []
    knocks = [g.document["knock"]["player"] for g in Game.objects.exclude(document__knock=None)]
    assert "Bee" in knocks and "B\u200bee" not in knocks


def test_two_names_that_clean_the_same_are_refused_as_one_player_and_nothing_is_written(db, export):
    data = copy.deepcopy(export)
    data["players"].append({**data["players"][1], "name": "B\u200bee"})  # players[1] is Bee
    with pytest.raises(
        ServiceError, match=r"players\[5\]\.name is 'B\\u200bee', which reads as 'Bee'"
    ):
        exports.group_import(data=data)
    assert set(counts().values()) == {0}


@pytest.mark.parametrize(
    ("typed", "stored"),
    [("น้อง\u200bบี", "น้องบี"), ("  น้อง   บี ", "น้อง บี"), ("", ""), ("   ", "")],
    ids=["a zero-width space inside", "spaces", "left empty", "only spaces"],
)
def test_a_member_name_comes_in_cleaned_as_the_join_form_cleans_it(db, export, typed, stored):
    data = broken(export, "memberships.1.name", typed)
    exports.group_import(data=data)
    assert Membership.objects.order_by("pk")[1].name == stored


@pytest.mark.parametrize(
    "typed",
    ["Bee\x07", "Bee\ue000", "\u200b\u200d"],
    ids=["a control character", "private use", "only format characters"],
)
def test_a_member_name_no_phone_can_show_is_refused_and_nothing_is_written(db, export, typed):
    with pytest.raises(
        ServiceError, match=r"memberships\[1\]\.name is not a name a phone can show"
    ):
        exports.group_import(data=broken(export, "memberships.1.name", typed))
    assert set(counts().values()) == {0}


def test_the_group_name_comes_in_cleaned(db, export):
    group = exports.group_import(data=broken(export, "group.name", "วงวัน\u200bเสาร์"))
    assert group.name == "วงวันเสาร์"


# -- the group's own rules -------------------------------------------------------------------------


def test_the_groups_own_rules_round_trip_their_players_named_not_numbered(db, export):
    usual = export["group"]["usual"]
    assert set(usual) == {"stakes", "close", "gong-zhu"}
    assert usual["stakes"] == {
        "level": "custom", "rates": [50, 100, 150], "fine": 120, "point_value": "0.25",
    }  # fmt: skip
    close = usual["close"]
    assert (close["hub"], close["fee_to"], close["rounding_by"]) == (SOMCHAI, EVE, SOMYING)
    group = exports.group_import(data=export)
    kept = group_rules.usual_of(group)
    assert kept == rich_rules(group)  # by this instance's players: the same people
    assert Player.objects.get(pk=kept.close.hub).name == SOMCHAI  # type: ignore[union-attr]
    assert exports.group_json(group=group)["group"]["usual"] == usual


def test_a_rule_that_no_longer_passes_is_left_out_of_the_export_as_the_nights_leave_it(db):
    group = access.group_create(name="วงวันเสาร์")
    Group.objects.filter(pk=group.pk).update(  # by hand, or by an older version
        usual={
            "stakes": {"level": "sian", "rates": None, "fine": 10**6, "point_value": "1"},
            "close": {
                "mode": "hub",
                "hub": 10**6,
                "fee": "0",
                "fee_per": "game",
                "fee_to": None,
                "rounding": 0,
                "rounding_by": None,
            },
        }
    )
    assert exports.group_json(group=group)["group"]["usual"] == {}  # an export, not a 500


@pytest.mark.parametrize(
    ("where", "value", "message"),
    [
        ("group.usual", ["stakes"], r"group\.usual should be dict"),
        (
            "group.usual.poker",
            {},
            r"group\.usual has parts a group's rules do not have: \['poker'\]",
        ),
        ("group.usual.stakes", "sian", r"group\.usual\.stakes should be dict"),
        ("group.usual.stakes.fine", 100_001, r"stakes is refused: the fine .* at most 100,000"),
        ("group.usual.stakes.rates", [50, 100, 100_001], r"is refused: a rate is at most 100,000"),
        (
            "group.usual.stakes.point_value",
            "1000.01",
            r"is refused: a point is worth at most 1,000",
        ),
        ("group.usual.stakes.level", KeyError, r"group\.usual\.stakes has no 'level'"),
        ("group.usual.stakes.rates", [50, 100, 150, 200], r"stakes is not as an export writes it"),
        ("group.usual.stakes.house", {}, r"stakes is not as an export writes it"),
        ("group.usual.close.fee", "1000000.01", r"close is refused: a table fee is at most"),
        ("group.usual.close.rounding", 3, r"close is refused: round to 1, 5, 10 or 20 baht"),
        ("group.usual.close.hub", "Nobody", r"close\.hub names 'Nobody', who is not among"),
        ("group.usual.close.hub", None, r"close is refused: choose who everyone settles with"),
        ("group.usual.gong-zhu.target", {"points": 0}, r"gong-zhu is refused"),
    ],
    ids=[
        "not an object",
        "a part no group has",
        "a part not an object",
        "a fine above a real table's",
        "a rate above a real table's",
        "a point value above a real table's",
        "a level missing",
        "a fourth rate",
        "a field unknown",
        "a fee above a real table's",
        "a rounding step no table uses",
        "a hub who is not a player",
        "a close through nobody",
        "a target no sheet plays to",
    ],
)
def test_an_import_of_rules_a_group_could_not_keep_is_refused_and_writes_nothing(
    db, export, where, value, message
):
    with pytest.raises(ServiceError, match=message) as refused:
        exports.group_import(data=broken(export, where, value))
    assert refused.value.code == "import-malformed"
    assert set(counts().values()) == {0}


# -- settled tabs (version 4) ---------------------------------------------------------------------


def make_tab_group() -> Group:
    """Nine debts carried both ways, a tab settled and taken back, then settled again, one of its
    transfers paid and received, another paid and taken back."""
    group = access.group_create(name="วงวันเสาร์", device=access.device_create(), host_name="Ann")
    host = group.owner
    assert host is not None
    two_way_tab(group, host)
    tabs.tab_undo(tab=tabs.tab_settle(group=group, actor=host), actor=host)
    tab = tabs.tab_settle(group=group, actor=host)
    paid, unpaid = tab.transfers.all()[:2]
    tabs.tab_payment_record(transfer=paid, actor=host)
    tabs.tab_payment_receive(transfer=paid, actor=host)
    tabs.tab_payment_record(transfer=unpaid, actor=host)
    tabs.tab_payment_undo(transfer=unpaid, actor=host)
    return group


@pytest.fixture(scope="module")
def tab_export(django_db_setup, django_db_blocker) -> dict:
    with django_db_blocker.unblock(), transaction.atomic():
        data = exports.group_json(group=make_tab_group())
        transaction.set_rollback(True)
    return data


def test_a_settled_tab_round_trips_through_the_json_and_audits_clean(db, tab_export):
    assert tab_export["version"] == 4 and len(tab_export["tabs"]) == 2
    first, second = tab_export["tabs"]
    assert first["by"] == second["by"] == 0 and len(second["transfers"]) == 3
    assert {t["unit"] for t in second["transfers"]} == {"baht"}
    assert second["transfers"][0]["received_by"] == 0 and second["transfers"][0]["received_at"]
    settles = [m for m in tab_export["money_lines"] if m["tab"] == 1 and m["item"] == "settle"]
    assert len(settles) == 9 and all(m["session"] is None for m in settles)
    group = exports.group_import(data=tab_export)
    again = exports.group_json(group=group)
    assert without_time_of_export(again) == without_time_of_export(tab_export)
    assert Tab.objects.standing().count() == 1 and TabTransfer.objects.count() == 6
    assert not owed(group).exists()  # settled by the tab, as exported
    for tab in Tab.objects.all():
        assert tab_audit(tab) == []
    for night in group.nights.all():
        assert night_audit(night) == []


@pytest.mark.parametrize(
    ("where", "value", "message"),
    [
        ("tabs.1.transfers.2.baht", "1.00", r"tabs\[1\] does not add up: .* do not net"),
        ("tabs.1.transfers.0.unit", "points", r"tabs\[1\]\.transfers\[0\]\.unit must be 'baht'"),
        ("tabs.1.by", 7, r"tabs\[1\]\.by refers to 7"),
        ("money_lines.-1.tab", 9, r"\.tab refers to 9"),
        ("money_lines.-1.tab_transfer", 9, r"\.tab_transfer refers to 9"),
    ],
    ids=[
        "transfers that do not net",
        "transfer in points",
        "unknown host",
        "no such tab",
        "no such transfer",
    ],
)
def test_an_import_of_a_malformed_tab_is_refused_and_writes_nothing(
    db, tab_export, where, value, message
):
    if where.startswith("money_lines.-1"):
        where = where.replace("-1", str(len(tab_export["money_lines"]) - 1))
    with pytest.raises(ServiceError, match=message):
        exports.group_import(data=broken(tab_export, where, value))
    assert set(counts().values()) == {0}


def test_a_version_3_export_made_before_tabs_still_imports(db):
    """tests/services/data/export-v3.json was written by commit c85ffa3 (the rich group), before
    a tab could be settled: it has no "tabs", and its money lines no "tab"."""
    data = json.loads((Path(__file__).parent / "data" / "export-v3.json").read_text())
    assert data["version"] == 3 and "tabs" not in data
    group = exports.group_import(data=data)
    again = exports.group_json(group=group)
    assert again["version"] == exports.VERSION and again["tabs"] == []
    assert group.usual == {} and again["group"]["usual"] == {}  # no rules kept before version 4
    assert again["lines"] == data["lines"] and again["sessions"] == data["sessions"]
    mine = [{k: v for k, v in m.items() if k not in ("tab", "tab_transfer")}
            for m in again["money_lines"]]  # fmt: skip
    assert mine == data["money_lines"]
    for night in group.nights.all():
        assert night_audit(night) == []
