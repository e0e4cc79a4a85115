"""Two granian servers on one PostgreSQL database, the phones of every table split between them.

What a load balancer in front of several app processes does to a table. Four tables, each with
two hosts: one phone's home is server A, the other's server B, and each phone is one browser (one
cookie jar, one device) whose request may land on either server. Round after round, in step:

  start    both phones tap "start" at the same instant: one game starts, the other is refused
  events   both add events at once
  save     one phone saves the end of the game while the other saves it too, with its own form,
           or records one more event (a fine, now and then)
  void     every third round both hosts void the game at once, each through its own server
  correct  then both enter the corrected game at once, with different results

Any write may go once, again to the other server after its answer (a retry the balancer routes
elsewhere), or to both servers at the same instant (a double tap split by the balancer).

Afterwards the database must hold exactly what the phones were told: each game they saw start
once, numbered 1, 2, 3 … with no gap or double (a correction takes the number of the game it
replaces), as many events as were answered recorded, each game saved once by the one form told
so and voided once, one correction per voided game and it is the one a phone was shown; no game in
play, no 5xx, no traceback in either server's log, every night's standings summing to zero and
equal to a replay of its ledger, and `manage.py ledger_audit` clean.

What it catches: writes to one table that do not queue on the night's row lock (`SELECT … FOR
UPDATE`, services/nights.py) wherever they arrive, or that act on what they read before the lock
was theirs. With the lock taken away every run fails: two starts both find no game in play and
the second dies on the game number (a 500) or starts a second game in play; two events take one
number; a double-tapped void dies on reversing a line twice. So does a lock only the processes of
one server share (a PostgreSQL advisory lock named after the server's port), which the one-server
soak cannot tell from the real one. A game read by the very statement that waits for the lock
(PostgreSQL hands back the game as it was before the wait) is saved twice: both end-of-game forms
answered saved, its lines written twice, `ledger_audit` failing. A form's key not found by its
copy (looked up outside the lock, or not at all) fails it too: the copy dies on the stored key,
or writes again, or is answered otherwise than the first.

It needs PostgreSQL (the soak's other runs cover SQLite, where one file lock serialises every
write and two servers share nothing to race on): without a PostgreSQL DATABASE_URL it is skipped.
The servers' database is one of its own on the soak's PostgreSQL (`database` in conftest.py:
a copy of one migrated once, dropped afterwards), not pytest-django's test database.
"""

import os
import random
import re
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.soak import conftest
from tests.soak.conftest import (
    NAMES,
    Call,
    Database,
    Phone,
    Recorder,
    Server,
    _json,
    event_form,
    finish_form,
    ledger_audit,
    new_key,
    summary,
)

POSTGRES = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))

pytestmark = [
    pytest.mark.soak,
    pytest.mark.skipif(
        not POSTGRES,
        reason="two servers on one database need PostgreSQL: set DATABASE_URL=postgres://…",
    ),
]

TABLES = 4
ROUNDS = 9
VOID_EVERY = 3  # rounds: a void and a correction in every third
# Two processes of two threads per server: the machine has two cores, and what matters is that
# the writes of one table meet across servers, across processes and within one.
TWO_WORKERS = ["--workers", "2", "--blocking-threads", "2", "--workers-kill-timeout", "5"]
EXPECTED = {
    "table": {200},
    "correct-page": {200},
    # 409: the page the phone wrote from was out of date (another phone started, saved, voided
    # or corrected the game first): refused, nothing booked, the phone shown the table as it is.
    "start": {302, 409, 422},
    "event": {302, 409, 422},
    "finish": {302, 409, 422},
    "void": {302, 409},
    "correct": {302, 409, 422},
}
# In the server logs: a traceback, a 500, granian's own errors (a worker died).
LOG_TROUBLE = re.compile(r"Traceback|Internal Server Error|\[ERROR\]|\[CRITICAL\]")


# -- a phone that reaches either server ------------------------------------------------------------


def through(phone: Phone, server: Server, label: str) -> Phone:
    """The same browser reaching another server: a client of its own on the one cookie jar."""
    other = Phone(server.url, f"{phone.name.rsplit('@', 1)[0]}@{label}", phone.recorder)
    other.http.close()
    # httpx copies a Cookies object it is given but shares a bare CookieJar: one jar, one device.
    other.http = other._client(cookies=phone.http.cookies.jar)  # type: ignore[arg-type]
    return other


@dataclass
class Browser:
    """One phone at a table: `near` is its home server, `far` the other one."""

    near: Phone
    far: Phone

    def close(self) -> None:
        self.near.close()
        self.far.close()


def at_once(*sends: Callable[[], list[Call]]) -> list[list[Call]]:
    """Run each send in a thread of its own, released together; return their calls in order."""
    gate = threading.Barrier(len(sends))
    results: list[list[Call]] = [[] for _ in sends]
    crashed: list[BaseException] = []

    def run(i: int, send: Callable[[], list[Call]]) -> None:
        try:
            gate.wait(timeout=60)
            results[i] = send()
        except BaseException as e:  # a bug of the test itself: raised below
            crashed.append(e)

    threads = [threading.Thread(target=run, args=(i, s)) for i, s in enumerate(sends)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if crashed:
        raise crashed[0]
    return results


def write(browser: Browser, path: str, data: dict[str, Any], action: str, mode: str) -> list[Call]:
    """POST a form with a fresh idempotency key: `once`, or `retry` (again through the other
    server after the answer), or `twin` (through both servers at the same instant)."""
    data = {"idempotency_key": new_key(), **data}
    if mode == "twin":
        near, far = at_once(
            lambda: [browser.near.post(path, data, action)],
            lambda: [browser.far.post(path, data, action, retry="twin")],
        )
        return near + far
    calls = [browser.near.post(path, data, action)]
    if mode == "retry":
        calls.append(browser.far.post(path, data, action, retry="retry"))
    return calls


# -- what the phones of one table were told --------------------------------------------------------


@dataclass
class Told:
    """What the phones were told about one game (keys: the forms' idempotency keys)."""

    round: int
    events: set[str] = field(default_factory=set)  # event forms answered "recorded"
    # Answered with the table while the game was being saved: recorded, or found nothing in play.
    late_events: set[str] = field(default_factory=set)
    saved: set[str] = field(default_factory=set)  # end-of-game forms answered "saved"
    voided: bool = False
    corrected: dict[str, int] = field(default_factory=dict)  # correction form -> game shown
    replaces: int | None = None  # a correction: the voided game it replaces


def keyed(calls: list[Call]) -> dict[str, list[Call]]:
    by_key: dict[str, list[Call]] = defaultdict(list)
    for call in calls:
        by_key[call.key].append(call)
    return by_key


def to(location: str, night_id: int) -> int | None:
    """The game a redirect names (0: the table itself, None: elsewhere)."""
    if location == f"/s/{night_id}/":
        return 0
    found = re.fullmatch(rf"/s/{night_id}/games/(\d+)/", location)
    return int(found.group(1)) if found else None


def plain_result(rng: random.Random) -> dict[str, Any]:
    """A result the rules take whatever events were kept: a normal knock, no Spetos in hand."""
    points = rng.sample(range(-60, 200), 4)
    return {
        "ending": "knock",
        "knocker": rng.choice(NAMES),
        "kind": "normal",
        "knocker_held": "0",
        "knocker_picked": "0",
        **{f"held_{i}": "0" for i in range(4)},
        **{f"points_{i}": str(p) for i, p in enumerate(points)},
    }


def mode(rng: random.Random) -> str:
    return rng.choices(["once", "retry", "twin"], [2, 1, 1])[0]


class TableBroken(Exception):
    """The table cannot go on: what the phones see already contradicts itself."""


@dataclass
class Table:
    number: int
    group_id: int
    night_id: int
    phones: list[Browser]  # two hosts: phones[0] at home on one server, phones[1] on the other
    rng: random.Random
    games: dict[int, Told] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def path(self, rest: str) -> str:
        return f"/s/{self.night_id}/{rest}"

    def in_play(self, browser: Browser) -> int | None:
        look, game_id = browser.near.in_play(self.night_id)
        if look.status != 200:
            raise TableBroken(f"table {self.number}: the table page answered {look}")
        return game_id

    def play(self) -> None:
        """Every round in step; a contradiction stops this table and is reported."""
        try:
            for n in range(1, ROUNDS + 1):
                game_id = self.start(n)
                self.add_events(game_id)
                saved = self.save(game_id)
                if saved and n % VOID_EVERY == 0:
                    self.void_and_correct(game_id)
        except TableBroken as e:
            self.problems.append(str(e))

    def start(self, n: int) -> int:
        """Both phones tap start at once: exactly one game starts, and both then see it."""
        host, cohost = self.phones
        start, table = self.path("games/start"), self.path("")
        how = [mode(self.rng) for _ in self.phones]
        answers = at_once(
            lambda: write(host, start, {"fool_swap": "on"}, "start", how[0]),
            lambda: write(cohost, start, {"fool_swap": "on"}, "start", how[1]),
        )
        started = {
            c.key for calls in answers for c in calls if (c.status, c.location) == (302, table)
        }
        seen = {self.in_play(host), self.in_play(cohost)}
        if len(started) != 1 or len(seen) != 1 or None in seen:
            raise TableBroken(
                f"table {self.number} round {n}: {len(started)} start forms answered started, "
                f"the phones see {sorted(seen, key=str)} in play"
            )
        game_id = seen.pop()
        assert game_id is not None
        if game_id in self.games:
            raise TableBroken(f"table {self.number} round {n}: game id {game_id} started again")
        self.games[game_id] = Told(n)
        return game_id

    def add_events(self, game_id: int) -> None:
        """Both phones add one or two events at once (no fine: that would end the game)."""
        told = self.games[game_id]

        def events(browser: Browser, forms: list[tuple[str, dict[str, Any], str]]) -> list[Call]:
            calls = []
            for kind, data, how in forms:
                path = self.path(f"games/{game_id}/events/{kind}")
                calls += write(browser, path, data, "event", how)
            return calls

        rolled = [[self.event(fine=False) for _ in range(self.rng.randint(1, 2))] for _ in "ab"]
        answers = at_once(
            *(lambda b=b, f=f: events(b, f) for b, f in zip(self.phones, rolled, strict=True))
        )
        told.events |= {c.key for calls in answers for c in calls if c.status == 302}

    def event(self, *, fine: bool) -> tuple[str, dict[str, Any], str]:
        """An event form, rolled before the threads start (so a seed replays the same run)."""
        kind, data = event_form(self.rng)
        while kind == "fine" and not fine:
            kind, data = event_form(self.rng)
        return kind, data, mode(self.rng)

    def save(self, game_id: int) -> bool:
        """One phone saves the game; the other saves it too or adds a late event, at once.

        Return whether it was saved; a game both forms failed to save is voided, so that the next
        round can start.
        """
        told = self.games[game_id]
        first, second = self.rng.sample(self.phones, 2)
        finish = self.path(f"games/{game_id}/finish")
        how = "twin" if self.rng.random() < 0.5 else mode(self.rng)
        saving = finish_form(self.rng)
        # The other phone saves it too, with its own form, or records one more event: sent once,
        # since a retry that finds the game saved is sent back to the table unrecorded.
        if self.rng.random() < 0.6:
            other = (finish, finish_form(self.rng), "finish", mode(self.rng))
        else:
            kind, data, _how = self.event(fine=True)
            other = (self.path(f"games/{game_id}/events/{kind}"), data, "event", "once")
        answers = at_once(
            lambda: write(first, finish, saving, "finish", how), lambda: write(second, *other)
        )
        for call in (c for calls in answers for c in calls):
            if call.status == 302 and to(call.location, self.night_id) == 0:
                (told.saved if call.action == "finish" else told.late_events).add(call.key)
        if self.in_play(self.phones[0]) == game_id:
            write(self.phones[0], self.path(f"games/{game_id}/void"), {}, "void", "once")
            told.voided = True
        return bool(told.saved)

    def void_and_correct(self, game_id: int) -> None:
        """Both hosts void the game at once, then both enter its correction at once."""
        told = self.games[game_id]
        void = self.path(f"games/{game_id}/void")
        at_once(*(lambda b=b: write(b, void, {}, "void", "once") for b in self.phones))
        told.voided = True

        correct = self.path(f"games/{game_id}/correct")
        page, body = self.phones[0].near.page(correct, "correct-page")
        if page.status != 200:
            raise TableBroken(f"table {self.number}: the correction page answered {page}")
        keep = re.findall(r'name="keep" value="(\d+)"', body)
        forms = [({**plain_result(self.rng), "keep": keep}, mode(self.rng)) for _ in self.phones]
        answers = at_once(
            *(
                lambda b=b, f=f: write(b, correct, f[0], "correct", f[1])
                for b, f in zip(self.phones, forms, strict=True)
            )
        )
        for call in (c for calls in answers for c in calls):
            shown = to(call.location, self.night_id) if call.status == 302 else None
            if shown and shown != game_id:
                if told.corrected.setdefault(call.key, shown) != shown:
                    self.problems.append(f"one correction form shown two games: {call}")
                self.games.setdefault(shown, Told(told.round, replaces=game_id))


def set_up_table(number: int, servers: dict[str, Server], recorder: Recorder) -> Table:
    """A group with two hosts, one at home on each server (which one alternates), one night."""
    home, away = ("A", "B") if number % 2 else ("B", "A")
    host = Phone(servers[home].url, f"t{number}-host@{home}", recorder)
    group_id = host.create_group(f"Scale-out table {number} · วงที่ {number}")
    _code, token = host.invite(group_id, role="host")
    cohost = Phone(servers[away].url, f"t{number}-cohost@{away}", recorder)
    assert cohost.join_link(token, "Second host's phone") == group_id
    night_id = host.open_night(group_id)
    phones = [
        Browser(host, through(host, servers[away], away)),
        Browser(cohost, through(cohost, servers[home], home)),
    ]
    rng = random.Random(f"scale-out-{number}")
    return Table(number, group_id, night_id, phones, rng)


# -- what the answers and the database must say ----------------------------------------------------


def answer_problems(calls: list[Call]) -> list[str]:
    """Every answer expected, and every copy of a write that succeeded answered the same."""
    problems = [
        f"{c.status or 'no answer'} for {c}"
        for c in calls
        if c.status == 0 or c.status >= 500 or c.status not in EXPECTED.get(c.action, {c.status})
    ]
    for key, copies in keyed([c for c in calls if c.key]).items():
        if len(copies) < 2 or copies[0].action not in ("start", "event", "finish"):
            continue
        sid = int(copies[0].path.split("/")[2])
        answers = {(c.status, c.location) for c in copies}
        if (302, f"/s/{sid}/") in answers and len(answers) > 1:
            problems.append(f"the copies of form {key} were answered {sorted(answers)}")
    return problems


def log_problems(servers: dict[str, Server]) -> list[str]:
    problems = []
    for label, server in servers.items():
        text = server.log_text(tail=10_000_000)
        for match in LOG_TROUBLE.finditer(text):
            start = text.rfind("\n", 0, match.start()) + 1
            problems.append(f"server {label} log: {text[start : start + 2000]}")
            break
    return problems


def database_problems(db: Database, tables: list[Table]) -> list[str]:
    """Read the database directly: is what the phones were told all there, once, and whole?"""
    problems: list[str] = []
    nights = ",".join(str(t.night_id) for t in tables)
    games = {
        gid: (sid, number, status, replaces, _json(document))
        for gid, sid, number, status, replaces, document in db.rows(
            "SELECT id, night_id, number, status, replaces_id, document FROM scorekeeper_game "
            f"WHERE night_id IN ({nights})"
        )
    }
    events: dict[int, list[int]] = defaultdict(list)
    for gid, number in db.rows("SELECT game_id, number FROM scorekeeper_event ORDER BY number"):
        if gid in games:
            events[gid].append(number)
    audit = Counter(
        (action, gid)
        for action, gid in db.rows(
            "SELECT action, game_id FROM scorekeeper_auditentry "
            f"WHERE night_id IN ({nights}) AND game_id IS NOT NULL"
        )
    )
    lines = db.rows(
        "SELECT id, night_id, game_id, payer_id, payee_id, amount, item, due, reverses_id "
        f"FROM scorekeeper_ledgerline WHERE night_id IN ({nights})"
    )
    standings = db.rows(
        "SELECT night_id, player_id, net, settled FROM scorekeeper_standing "
        f"WHERE night_id IN ({nights})"
    )

    for table in tables:
        sid = table.night_id
        where = f"table {table.number} (night {sid})"
        mine = {gid: g for gid, g in games.items() if g[0] == sid}
        # Numbered 1..n without a gap; one standing game a number; later ones correct earlier.
        numbers = Counter(number for _s, number, *_rest in mine.values())
        if set(numbers) != set(range(1, len(numbers) + 1)):
            problems.append(f"{where}: game numbers {sorted(numbers)} have a gap")
        standing = Counter(n for _s, n, status, *_r in mine.values() if status != "voided")
        problems += [f"{where}: game {n} stands {c} times" for n, c in standing.items() if c > 1]
        for gid, (_s, number, status, replaces, _doc) in sorted(mine.items()):
            if status == "in-play":
                problems.append(f"{where}: game {number} (id {gid}) is still in play")
            if replaces is not None and (
                replaces not in mine or mine[replaces][1:3] != (number, "voided")
            ):
                problems.append(
                    f"{where}: game id {gid} replaces id {replaces}, not a voided {number}"
                )
        # Exactly the games the phones saw: each started once, each correction the one shown.
        originals = {gid for gid, g in mine.items() if g[3] is None}
        corrections = {gid for gid, g in mine.items() if g[3] is not None}
        told_started = {gid for gid, t in table.games.items() if t.replaces is None}
        told_corrected = {gid for gid, t in table.games.items() if t.replaces is not None}
        if originals != told_started:
            problems.append(
                f"{where}: games nobody saw start {sorted(originals - told_started)}, "
                f"seen to start but missing {sorted(told_started - originals)}"
            )
        if corrections != told_corrected:
            problems.append(
                f"{where}: corrections nobody was shown {sorted(corrections - told_corrected)}, "
                f"shown but missing {sorted(told_corrected - corrections)}"
            )
        for gid, told in sorted(table.games.items()):
            if gid not in mine:
                continue
            _s, number, status, replaces, document = mine[gid]
            what = f"{where} game {number} (id {gid}, round {told.round}, {status})"
            problems += _game_problems(what, gid, status, document, told, events, audit)
            if replaces is None and audit["game-start", gid] != 1:
                problems.append(f"{what}: started {audit['game-start', gid]} times")
            if told.corrected and len(set(told.corrected)) != 1:
                problems.append(f"{what}: {len(told.corrected)} correction forms each succeeded")

    # The ledger: each night sums to zero; the running totals equal a replay of the lines.
    replay: Counter[tuple[int, int]] = Counter()
    reversed_ = Counter(rev for *_x, rev in lines if rev is not None)
    after: Counter[int] = Counter()
    for line, sid, gid, payer, payee, amount, item, due, rev in lines:
        if item != "payment":
            replay[sid, payer] -= amount
            replay[sid, payee] += amount
        if reversed_[line] > 1:
            problems.append(f"line {line} reversed {reversed_[line]} times")
        if gid is not None and rev is None:
            if due == "after-game":
                after[gid] += 1
            if games[gid][2] == "voided" and not reversed_[line]:
                problems.append(f"line {line} of voided game id {gid} is not reversed")
    for gid, (_s, _n, status, *_r) in games.items():
        if (status == "settled") != bool(after[gid]) and status != "voided":
            problems.append(f"game id {gid} is {status} with {after[gid]} after-game lines")
    totals: Counter[int] = Counter()
    for sid, player, net, settled in standings:
        totals[sid] += net
        if settled:
            problems.append(f"night {sid} player {player}: settled {settled} with no payment")
        if net != replay[sid, player]:
            problems.append(
                f"night {sid} player {player}: running total {net}, "
                f"ledger replay {replay[sid, player]}"
            )
    problems += [f"night {sid}: the nets sum to {s}" for sid, s in totals.items() if s]
    return problems


def _game_problems(
    what: str,
    gid: int,
    status: str,
    document: dict[str, Any],
    told: Told,
    events: dict[int, list[int]],
    audit: Counter[tuple[str, int]],
) -> list[str]:
    problems = []
    numbers = events[gid]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"{what}: events numbered {numbers}")
    if audit["event-add", gid] != len(numbers):
        problems.append(f"{what}: {len(numbers)} events, {audit['event-add', gid]} in the audit")
    if told.replaces is None:  # a correction copies the events kept: no form of its own
        fewest, most = len(told.events), len(told.events) + len(told.late_events)
        if not fewest <= len(numbers) <= most:
            problems.append(
                f"{what}: {len(numbers)} events, but {fewest} were answered recorded "
                f"(and {len(told.late_events)} more perhaps, sent while it was being saved)"
            )
    if "events" in document:  # events are kept once, in their rows
        problems.append(f"{what}: its document repeats {len(document['events'])} events")
    saves = audit["game-finish", gid]
    if saves > 1:
        problems.append(f"{what}: saved {saves} times")
    if len(told.saved) > 1:
        problems.append(f"{what}: {len(told.saved)} different end-of-game forms answered saved")
    if told.saved and (saves != 1 or status not in ("settled", "pending-tie", "voided")):
        problems.append(f"{what}: a phone was told it was saved; saved {saves} times")
    if told.replaces is None and not told.saved and saves:
        problems.append(f"{what}: saved, but no phone was told so")
    voids = audit["game-void", gid]
    if (status == "voided") != told.voided or voids != (1 if told.voided else 0):
        problems.append(f"{what}: voided {voids} times, told {'so' if told.voided else 'not'}")
    return problems


# Named: the `database` fixture's default is SQLite.
@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
def test_two_servers_on_one_database_record_each_game_once(
    database: Database,
    serve: Callable[..., Server],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(conftest, "SERVER_OPTIONS", TWO_WORKERS)  # what Server.start runs with
    servers = {"A": serve(database), "B": serve(database)}
    recorder = Recorder(tmp_path)
    tables = [set_up_table(n, servers, recorder) for n in range(1, TABLES + 1)]
    set_up = len(recorder.calls)

    started = time.monotonic()
    crashed: list[BaseException] = []

    def play(table: Table) -> None:
        try:
            table.play()
        except BaseException as e:  # a bug of the test itself: reported below
            crashed.append(e)

    threads = [threading.Thread(target=play, args=(t,), name=f"table {t.number}") for t in tables]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.monotonic() - started
    for table in tables:
        for browser in table.phones:
            browser.close()
    calls = recorder.calls[set_up:]

    audit = ledger_audit(database)
    by_server = Counter(c.phone.rsplit("@", 1)[1] for c in calls if c.method == "POST")
    told = [t for table in tables for t in table.games.values()]
    print(f"\n== two servers, one PostgreSQL database: {TABLES} tables, {ROUNDS} rounds ==")
    print(summary(calls, seconds))
    print(
        f"writes through server A: {by_server['A']}, B: {by_server['B']}; games started "
        f"{sum(1 for t in told if t.replaces is None)}, saved {sum(1 for t in told if t.saved)}, "
        f"voided {sum(1 for t in told if t.voided)}, corrected "
        f"{sum(1 for t in told if t.replaces is not None)}"
    )
    print(audit.stdout.strip() or audit.stderr.strip())

    failures = [f"the test's own threads failed: {e!r}" for e in crashed]
    failures += [p for table in tables for p in table.problems]
    failures += answer_problems(recorder.calls)[:30]
    failures += log_problems(servers)
    failures += database_problems(database, tables)[:50]
    if audit.returncode != 0:
        failures.append(f"ledger_audit exited {audit.returncode}:\n{audit.stdout}{audit.stderr}")
    assert not failures, "\n".join(failures)
    assert by_server["A"] and by_server["B"], f"one server took no writes: {by_server}"
    assert sum(1 for t in told if t.replaces is not None) > 0, "no game was corrected at all"
