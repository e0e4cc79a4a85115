"""The main pages with 0, 100 and 10,000 games: time, SQL statements and bytes, in-process.

A fresh SQLite file (SCOREKEEPER_SQLITE, a temporary directory), migrated; debug on, as
`make run` serves. The games are built through the services, as the views write them:
scorekeeper.services.sessions.session_open, then games.game_start + games.game_finish for each
game, inside one outer transaction (the services' own transactions become savepoints: one commit,
not 20,000 fsyncs). Each game is a knock with random points; about one in five has a fool, so
seats swap (rule 17) as they do at a real table.

The visitor is Django's test Client (in-process: middleware, views and templates, no network),
which became the host by POST /groups/new. Measured:

- GET /s/<id>/ (table), /s/<id>/history, /s/<id>/settle (open), and /s/<id>/settle after the
  session is closed: median and p95 of 20 requests each (after 2 unmeasured), and the SQL
  statements of one request (django.test.utils.CaptureQueriesContext), at 0, 100 and 10,000 games;
- POST .../finish (recording one game), its statements and time; POST .../games/start too;
- bytes: the table page raw and gzipped, the first load (HTML + the static files it references,
  found with django.contrib.staticfiles.finders, gzipped), the htmx swaps (the table's poll with
  HX-Target: live, and the end-of-game preview with HX-Target: preview).

    uv run python bench/web_pages.py                 # 10,000 games
    BENCH_GAMES=2000 uv run python bench/web_pages.py
"""

import gzip
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
import warnings
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
TMP = tempfile.TemporaryDirectory(prefix="scorekeeper-pages-")
os.environ.pop("DATABASE_URL", None)
os.environ["SCOREKEEPER_SQLITE"] = str(Path(TMP.name) / "pages.sqlite3")
os.environ["SCOREKEEPER_DEBUG"] = "1"
os.environ["DJANGO_SETTINGS_MODULE"] = "scorekeeper.settings"
warnings.filterwarnings("ignore", message="Limit for query logging exceeded")

import django  # noqa: E402

django.setup()

from django.contrib.staticfiles import finders  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, reset_queries, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from scorekeeper.models import Game, Group, Session  # noqa: E402
from scorekeeper.services import games, sessions  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from webbench import bounded, finish_data, machine, new_key, percentile, verdict  # noqa: E402

NAMES = ["Ann", "Bee", "Cat", "Dan"]
BIG = int(os.environ.get("BENCH_GAMES", "10000"))
SIZES = [0, 100, BIG]
REQUESTS = 20
WARMUP = 2

BUDGET_STATEMENTS = 8
BUDGET_HTML = 14 * 1024
BUDGET_FIRST_LOAD = 45 * 1024
BUDGET_SWAP = 2 * 1024
BUDGET_SETTLE = 0.050


def gz(data: bytes, level: int = 9) -> int:
    return len(gzip.compress(data, compresslevel=level, mtime=0))


def kb(n: int) -> str:
    return f"{n / 1024:.1f} KB"


def outcome(rng: random.Random) -> dict[str, Any]:
    """A knock by anyone, random distinct points for the others, a fool one time in five."""
    knocker = rng.choice(NAMES)
    losers = [n for n in NAMES if n != knocker]
    points = rng.sample(range(-40, 120), 3)
    result: dict[str, Any] = {
        "knock": {"player": knocker, "kind": "normal"},
        "points": dict(zip(losers, points, strict=True)),
    }
    if rng.random() < 0.2:
        result["fool"] = rng.choice(losers)
    return result


def build(session: Session, n: int, rng: random.Random) -> float:
    """Play `n` games through the services, in one outer transaction; return the seconds."""
    started = time.perf_counter()
    with transaction.atomic():
        for _ in range(n):
            game = games.game_start(session=session)
            games.game_finish(game=game, outcome=outcome(rng))
    return time.perf_counter() - started


class Visitor:
    """The host's phone, in-process."""

    def __init__(self) -> None:
        self.client = Client(HTTP_ACCEPT_LANGUAGE="th")

    def request(self, method: str, path: str, data: Any = None, **headers: Any) -> Any:
        call = self.client.post if method == "POST" else self.client.get
        return call(path, data, **headers) if data is not None else call(path, **headers)

    def statements(self, method: str, path: str, data: Any = None, **headers: Any) -> tuple:
        reset_queries()  # a full query log (9,000 entries, after the build) would capture nothing
        with CaptureQueriesContext(connection) as captured:
            response = self.request(method, path, data, **headers)
        return response, [q["sql"] for q in captured.captured_queries]

    def timed(self, path: str, n: int = REQUESTS, **headers: Any) -> tuple[float, float, Any]:
        for _ in range(WARMUP):
            self.request("GET", path, **headers)
        seconds = []
        response = None
        for _ in range(n):
            t0 = time.perf_counter()
            response = self.request("GET", path, **headers)
            seconds.append(time.perf_counter() - t0)
            assert response.status_code == 200, (path, response.status_code)
        return statistics.median(seconds), percentile(seconds, 95), response


TX = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


def counted(sql: list[str]) -> int:
    """SQL statements, not counting transaction control (BEGIN/COMMIT: 2 more for a write)."""
    return sum(1 for q in sql if not q.lstrip().upper().startswith(TX))


def shape(sql: list[str]) -> str:
    """The statements of a request in short: verb and table, how many of each, in order."""
    parts: list[list[Any]] = []
    for q in sql:
        verb = q.split()[0]
        table = re.search(r'(?:FROM|INTO|UPDATE) "(?:scorekeeper_)?([a-z_]+)"', q)
        name = f"{verb} {table.group(1)}" if table else verb
        if parts and parts[-1][0] == name:
            parts[-1][1] += 1
        else:
            parts.append([name, 1])
    return ", ".join(f"{n} ×{c}" if c > 1 else n for n, c in parts)


def static_path(url: str) -> Path | None:
    if not url.startswith("/static/"):
        return None
    found = finders.find(url.removeprefix("/static/"))
    return Path(found) if found else None


def first_load(html: bytes, visitor: Visitor) -> list[tuple[str, int, int, str]]:
    """Every file the table page makes the browser fetch on a first visit: (url, raw, gz, why)."""
    text = html.decode()
    rows: list[tuple[str, int, int, str]] = [("the table page (HTML)", len(html), gz(html, 6), "")]
    seen = set()
    tags = re.findall(r"<(?:script|link)\b[^>]*>", text)
    for tag in tags:
        url = re.search(r'(?:src|href)="([^"]+)"', tag)
        if url is None or url.group(1) in seen:
            continue
        url_ = url.group(1)
        seen.add(url_)
        rel = re.search(r'rel="([^"]+)"', tag)
        why = rel.group(1) if rel else "script"
        path = static_path(url_)
        if path is not None:
            data = path.read_bytes()
            if "django-htmx.js" in url_:
                why += ", debug only (django-htmx adds it when DEBUG)"
            rows.append((url_, len(data), gz(data), why))
        else:  # a view: the manifest
            data = visitor.request("GET", url_).content
            rows.append((url_, len(data), gz(data, 6), why))
    return rows


def service_worker_extra(visitor: Visitor, already: set[str]) -> list[tuple[str, int, int, str]]:
    """sw.js, and what its install puts in the cache beyond what the page already fetched."""
    sw = visitor.request("GET", "/sw.js").content
    rows = [("/sw.js", len(sw), gz(sw, 6), "registered by app.js")]
    shell = re.search(rb"const SHELL = \[(.*?)\];", sw)
    urls = re.findall(r'"([^"]+)"', shell.group(1).decode()) if shell else []
    offline = re.search(rb'const OFFLINE = "([^"]+)"', sw)
    if offline:
        urls.append(offline.group(1).decode())
    urls = [json.loads(f'"{u}"') for u in urls]  # escapejs writes - as \u002D
    for url in urls:
        if url in already:
            continue
        path = static_path(url)
        data = path.read_bytes() if path else visitor.request("GET", url).content
        rows.append((url, len(data), gz(data, 9 if path else 6), "service worker precache"))
    return rows


def main() -> None:
    bounded(3600)
    print(machine())
    print(f"SQLite file {os.environ['SCOREKEEPER_SQLITE']}, DEBUG on, Accept-Language: th")
    call_command("migrate", "--noinput", verbosity=0)
    rng = random.Random(2026)
    visitor = Visitor()
    tables: dict[int, Session] = {}
    for size in SIZES:
        response = visitor.request("POST", "/groups/new", {"name": f"Pages {size} · วง {size}"})
        group = Group.objects.get(pk=int(re.fullmatch(r"/g/(\d+)/", response["Location"])[1]))
        session = sessions.session_open(
            group=group, players=NAMES, stake_level="sian", point_value=Decimal("0.5")
        )
        seconds = build(session, size, rng)
        if size:
            print(
                f"built {size:,} games through the services in {seconds:.1f} s "
                f"({size / seconds:.0f} games/s, one outer transaction)"
            )
        tables[size] = session
    # A server's connections are recycled (CONN_MAX_AGE) and run PRAGMA optimize as they close,
    # which gives SQLite's planner its statistics for the games just built: as a server would.
    connection.close()

    results: dict[str, dict[int, dict[str, Any]]] = {}
    pages = {"table": "/s/{}/", "history": "/s/{}/history", "settle (open)": "/s/{}/settle"}
    for name, pattern in pages.items():
        results[name] = {}
        for size, session in tables.items():
            path = pattern.format(session.pk)
            response, sql = visitor.statements("GET", path)
            median, p95, _r = visitor.timed(path)
            results[name][size] = {
                "statements": counted(sql),
                "sql": sql,
                "median": median,
                "p95": p95,
                "bytes": len(response.content),
            }

    # Bytes of the table page and of its poll, before any game is added.
    swaps: dict[str, dict[int, int]] = {"poll (changed)": {}, "poll (unchanged)": {}}
    swaps_gz: dict[str, dict[int, int]] = {"poll (changed)": {}, "poll (unchanged)": {}}
    html_by_size: dict[int, bytes] = {}
    poll_sql: dict[int, int] = {}
    for size, session in tables.items():
        html = visitor.request("GET", f"/s/{session.pk}/").content
        html_by_size[size] = html
        version = re.search(rb'\?v=(\d+)"', html)
        assert version is not None
        htmx = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "live"}
        stale = visitor.request("GET", f"/s/{session.pk}/?v=0", **htmx)
        same, sql = visitor.statements("GET", f"/s/{session.pk}/?v={version[1].decode()}", **htmx)
        assert stale.status_code == 200 and same.status_code == 204
        swaps["poll (changed)"][size] = len(stale.content)
        swaps["poll (unchanged)"][size] = len(same.content)
        swaps_gz["poll (changed)"][size] = gz(stale.content, 6)
        swaps_gz["poll (unchanged)"][size] = len(same.content)
        poll_sql[size] = counted(sql)

    # Recording a game: POST start, the preview, POST finish.
    record: dict[int, dict[str, Any]] = {}
    preview_bytes: dict[int, int] = {}
    preview_gz: dict[int, int] = {}
    in_play_sql: dict[int, int] = {}
    finish_page_bytes: dict[int, int] = {}
    for size, session in tables.items():
        sid = session.pk
        times, counts, start_counts, start_times = [], [], [], []
        runs = REQUESTS if size == BIG else 1
        for i in range(runs):
            t0 = time.perf_counter()
            start, sql_start = visitor.statements(
                "POST", f"/s/{sid}/games/start", {"fool_swap": "on", "idempotency_key": new_key()}
            )
            start_times.append(time.perf_counter() - t0)
            assert start.status_code == 302, start.status_code
            game = session.games.get(status=Game.Status.IN_PLAY)
            if i == 0:
                response, sql = visitor.statements("GET", f"/s/{sid}/")
                in_play_sql[size] = counted(sql)
                page = visitor.request("GET", f"/s/{sid}/games/{game.pk}/finish")
                finish_page_bytes[size] = len(page.content)
                preview = visitor.request(
                    "POST",
                    f"/s/{sid}/games/{game.pk}/preview",
                    finish_data(knocker=game.document["players"][0]),
                    HTTP_HX_REQUEST="true",
                    HTTP_HX_TARGET="preview",
                )
                assert preview.status_code == 200
                preview_bytes[size] = len(preview.content)
                preview_gz[size] = gz(preview.content, 6)
            # The fields of tests/views/conftest.py, with the knocker in the first row (the dealer
            # after random games need not be Ann): the other three rows have 10, 20, 30 points.
            data = finish_data(knocker=game.document["players"][0], idempotency_key=new_key())
            t0 = time.perf_counter()
            done, sql = visitor.statements("POST", f"/s/{sid}/games/{game.pk}/finish", data)
            times.append(time.perf_counter() - t0)
            assert done.status_code == 302, (done.status_code, done.content[:500])
            counts.append(counted(sql))
            start_counts.append(counted(sql_start))
            if i == 0:
                record[size] = {"sql": sql, "start_sql": sql_start}
        record[size].update(
            statements=counts[0],
            statements_max=max(counts),
            start_statements=start_counts[0],
            start_median=statistics.median(start_times),
            start_p95=percentile(start_times, 95),
            median=statistics.median(times),
            p95=percentile(times, 95),
            n=runs,
        )

    # Close every session (the host's POST), then the settle-up page of a closed session.
    closing: dict[int, dict[str, Any]] = {}
    results["settle (closed)"] = {}
    for size, session in tables.items():
        t0 = time.perf_counter()
        response, sql = visitor.statements("POST", f"/s/{session.pk}/settle", {"mode": "fewest"})
        seconds = time.perf_counter() - t0
        closing[size] = {"seconds": seconds, "statements": counted(sql), "sql": sql}
        assert response.status_code == 302, response.status_code
        path = f"/s/{session.pk}/settle"
        response, sql = visitor.statements("GET", path)
        median, p95, _r = visitor.timed(path)
        results["settle (closed)"][size] = {
            "statements": counted(sql),
            "sql": sql,
            "median": median,
            "p95": p95,
            "bytes": len(response.content),
            "games": session.games.count(),
        }

    # -- report ---------------------------------------------------------------------------------
    print(f"\n## Pages: median / p95 of {REQUESTS} GETs, SQL statements of one GET, HTML bytes")
    print("(statements never count BEGIN/COMMIT: a write has those 2 more)")
    print("| page | games | median | p95 | statements | HTML |")
    print("|---|---|---|---|---|---|")
    for name, by_size in results.items():
        for size, r in by_size.items():
            games_ = r.get("games", size)
            print(
                f"| {name} | {games_:,} | {r['median'] * 1000:.1f} ms | {r['p95'] * 1000:.1f} ms "
                f"| {r['statements']} | {kb(r['bytes'])} |"
            )
    print(f"\ntable page with a game in play: statements at 0/100/{BIG:,} = {in_play_sql}")
    print("\n## Recording a game (POST .../finish, then its 302 to the table page, not followed)")
    for size, r in record.items():
        print(
            f"- at {size:,} games: {r['statements']} statements (max {r['statements_max']} over "
            f"{r['n']}), median {r['median'] * 1000:.1f} ms, p95 {r['p95'] * 1000:.1f} ms "
            f"(n={r['n']}); POST start: {r['start_statements']} statements, median "
            f"{r['start_median'] * 1000:.1f} ms, p95 {r['start_p95'] * 1000:.1f} ms"
        )
    print("\n## Closing the session (POST settle, mode fewest)")
    for size, r in closing.items():
        print(f"- at {size:,} games: {r['seconds'] * 1000:.1f} ms, {r['statements']} statements")

    print("\n## Bytes")
    for size, html in html_by_size.items():
        print(f"- table page at {size:,} games: {kb(len(html))} raw, {kb(gz(html, 6))} gzip -6")
    for size, n in finish_page_bytes.items():
        print(f"- end-of-game page (GET finish) at {size:,} games: {kb(n)} raw")
    rows = first_load(html_by_size[0], visitor)
    print("\nfirst load of the table page (0 games), gzip -9 for static files, -6 for views:")
    print("| file | raw | gzip | why |")
    print("|---|---|---|---|")
    for url, raw, z, why in rows:
        print(f"| {url} | {raw:,} | {z:,} | {why} |")
    total = sum(z for _u, _r, z, _w in rows)
    debug = sum(z for u, _r, z, _w in rows if "django-htmx.js" in u)
    print(f"total compressed: {kb(total)} ({kb(total - debug)} without the debug-only script)")
    big_rows = first_load(html_by_size[BIG], visitor)
    big_total = sum(z for _u, _r, z, _w in big_rows)
    print(f"total compressed at {BIG:,} games: {kb(big_total)}")
    extra = service_worker_extra(visitor, {u for u, *_ in rows})
    for url, raw, z, why in extra:
        print(f"| {url} | {raw:,} | {z:,} | {why} |")
    extra_total = sum(z for _u, _r, z, _w in extra)
    print(f"the service worker then fetches {kb(extra_total)} more (compressed where it helps)")

    print("\nhtmx swaps (bytes of the response body):")
    for name, by_size in swaps.items():
        for size, n in by_size.items():
            print(f"- {name} at {size:,} games: {n:,} B raw, {swaps_gz[name][size]:,} B gzip -6")
    print(f"- poll (unchanged) statements: {poll_sql}")
    for size, n in preview_bytes.items():
        print(
            f"- finish-form preview (HX-Target: preview) at {size:,} games: {n:,} B raw, "
            f"{preview_gz[size]:,} B gzip -6"
        )

    print("\n## Budgets")
    page_counts = {
        name: [r["statements"] for r in by_size.values()] for name, by_size in results.items()
    }
    for name, counts in page_counts.items():
        same = len(set(counts)) == 1
        ok = same and max(counts) <= BUDGET_STATEMENTS
        print(
            f"- {name}: statements at 0/100/{BIG:,} = {counts}: {verdict(ok)} "
            f"(<= {BUDGET_STATEMENTS}, the same for every size)"
        )
    rec = [r["statements_max"] for r in record.values()]
    print(f"- record a game: {rec} statements: {verdict(max(rec) <= BUDGET_STATEMENTS)} (<= 8)")
    for size, html in html_by_size.items():
        print(f"- HTML of the table page at {size:,} games {kb(len(html))}: "
              f"{verdict(len(html) <= BUDGET_HTML)} (<= 14 KB)")  # fmt: skip
    print(f"- first load at 0 games {kb(total)}: {verdict(total <= BUDGET_FIRST_LOAD)} (<= 45 KB)")
    print(
        f"- first load at {BIG:,} games {kb(big_total)}: "
        f"{verdict(big_total <= BUDGET_FIRST_LOAD)} (<= 45 KB)"
    )
    # The app gzips every page and swap (GZipMiddleware): a swap costs its compressed bytes.
    for name, by_size in swaps.items():
        for size, n in by_size.items():
            sent = swaps_gz[name][size]
            print(f"- swap {name} at {size:,} games {sent:,} B sent ({n:,} B raw): "
                  f"{verdict(sent <= BUDGET_SWAP)} (<= 2 KB)")  # fmt: skip
    for size, n in preview_bytes.items():
        sent = preview_gz[size]
        print(f"- swap preview at {size:,} games {sent:,} B sent ({n:,} B raw): "
              f"{verdict(sent <= BUDGET_SWAP)} (<= 2 KB)")  # fmt: skip
    for name in ("settle (open)", "settle (closed)"):
        r = results[name][BIG]
        print(
            f"- {name} at {r.get('games', BIG):,} games: median {r['median'] * 1000:.1f} ms, "
            f"p95 {r['p95'] * 1000:.1f} ms: {verdict(r['p95'] <= BUDGET_SETTLE)} (<= 50 ms, p95)"
        )

    print(f"\n## What the statements are (at {BIG:,} games)")
    for name, by_size in results.items():
        print(f"- {name}: {shape(by_size[BIG]['sql'])}")
    print(f"- POST finish: {shape(record[BIG]['sql'])}")
    print(f"- POST start: {shape(record[BIG]['start_sql'])}")
    print(f"- POST settle (close): {shape(closing[BIG]['sql'])}")

    if os.environ.get("BENCH_SQL"):
        print("\n## SQL statements")
        for name, by_size in results.items():
            print(f"\n### {name} at {BIG:,} games")
            for q in by_size[BIG]["sql"]:
                print("  " + q[:300])
        print(f"\n### POST finish at {BIG:,} games")
        for q in record[BIG]["sql"]:
            print("  " + q[:300])
        print(f"\n### POST start at {BIG:,} games")
        for q in record[BIG]["start_sql"]:
            print("  " + q[:300])
        print(f"\n### POST settle (close) at {BIG:,} games")
        for q in closing[BIG]["sql"]:
            print("  " + q[:300])
    print(f"\nload average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    try:
        main()
    finally:
        TMP.cleanup()
