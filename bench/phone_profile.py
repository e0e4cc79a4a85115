"""A phone on a slow network: the table page's first paint, and the time from "save" to the scores.

Debian's /usr/bin/chromium, headless, through Playwright, at 390 × 844 (th-TH), against granian
(`--workers 4 --blocking-threads 2`) on a fresh SQLite file. Through a CDP session on each page:
Emulation.setCPUThrottlingRate 4, and Network.emulateNetworkConditions with 150 ms latency and
1.6 Mbit/s (200,000 bytes/s) each way. Service workers are blocked (Playwright's
`service_workers="block"`): a worker's fetches would bypass the page's network emulation.

Set-up, unthrottled: a group and a session through the app's own forms (home page, "open a
session"), then BENCH_PHONE_GAMES games (default 20: an evening) over HTTP with the same cookies.

1. Largest contentful paint of the table page on a first load: a fresh browser context (empty
   cache) carrying the phone's cookies, PerformanceObserver('largest-contentful-paint', buffered).
2. Save → scoreboard: on the end-of-game screen of a started game, filled in and previewed, from
   the tap on "save" (a real click; a click listener in the capture phase takes performance.now()
   before htmx sends anything) to the new scoreboard painted. The save posts through htmx and
   the answer is the table page, swapped into <main> in the same document (one request): the
   time is Element Timing of the scoreboard's points cells (an init script's MutationObserver
   sets the attribute as the swap inserts them, before their first paint), or, where Chromium
   reports no entry for the swapped-in cells (it did not, in the runs of 2026-11-21), a task
   queued from the first animation frame with the scoreboard inserted and on the screen: it runs
   once that frame is drawn. The request's own times come from Resource Timing.
3. LCP again with the page's scripts not fetched (htmx, app.js), to see what they cost.

Median of BENCH_PHONE_RUNS runs (default 5) each, for two ways of serving (bench/phone_settings.py
says why granian needs help with static files):
  --serve debug       SCOREKEEPER_DEBUG=1 as in bench/web_record.py, static files from the finders
  --serve production  SCOREKEEPER_DEBUG=0 as `make serve`: collectstatic (hashed, gzipped), plain
                      HTTP on 127.0.0.1
Default: both.

    uv run python bench/phone_profile.py
Aims: save → scoreboard <= 400 ms; LCP <= 1.5 s (median).
"""

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright
from webbench import (
    ROOT,
    bounded,
    collectstatic,
    finish_data,
    fresh_database,
    loadavg,
    machine,
    new_key,
    serve,
    verdict,
)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
LATENCY_MS = 150
BYTES_PER_S = 200_000  # 1.6 Mbit/s
CPU_SLOWDOWN = 4
TIMEOUT_MS = 60_000
RUNS = int(os.environ.get("BENCH_PHONE_RUNS", "5"))
GAMES = int(os.environ.get("BENCH_PHONE_GAMES", "20"))
AIM_SAVE = 0.400
AIM_LCP = 1.5

INIT_SCRIPT = r"""
(() => {
  // The tap: the click on "save", in the capture phase, before htmx sends the request.
  addEventListener("click", (event) => {
    const save = event.target instanceof Element
      && event.target.closest(".sticky-actions button.primary");
    if (save) window.__tap = performance.now();
  }, true);
  // The end-of-game screen has no scoreboard: the first one inserted after the tap is the answer.
  // Element Timing: each points cell reports when it is painted; the attribute is set as the swap
  // inserts the cells, before their first paint. A task queued from the next animation frame
  // runs once that frame is drawn: the cross-check.
  const observer = new MutationObserver(() => {
    if (window.__tap === undefined) return;
    const board = document.querySelector("table.board");
    if (!board) return;
    for (const cell of board.querySelectorAll("td[data-net]")) {
      cell.setAttribute("elementtiming", "board");
    }
    observer.disconnect();
    // The first frame drawn with the scoreboard on the screen (the swap scrolls to the top).
    const onScreen = () => {
      const top = board.getBoundingClientRect().top;
      if (top < 0 || top >= innerHeight) return requestAnimationFrame(onScreen);
      setTimeout(() => {
        window.__boardAt = performance.now();
        window.__boardTop = top;
      }, 0);
    };
    requestAnimationFrame(onScreen);
  });
  addEventListener("DOMContentLoaded", () => {
    observer.observe(document.body, { childList: true, subtree: true });
  });
})();
"""

LCP_SCRIPT = """
() => new Promise((resolve) => {
  let last = null;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) last = entry;
  }).observe({ type: "largest-contentful-paint", buffered: true });
  setTimeout(() => {
    const nav = performance.getEntriesByType("navigation")[0];
    const fcp = performance.getEntriesByName("first-contentful-paint")[0];
    const resources = performance.getEntriesByType("resource");
    resolve({
      lcp: last ? last.startTime : null,
      element: last && last.element
        ? last.element.tagName + (last.element.id ? "#" + last.element.id : "")
          + (last.element.className ? "." + last.element.className : "")
        : null,
      fcp: fcp ? fcp.startTime : null,
      ttfb: nav.responseStart,
      html_end: nav.responseEnd,
      dcl: nav.domContentLoadedEventEnd,
      load: nav.loadEventEnd,
      html_bytes: nav.transferSize,
      resources: resources.map((r) => [r.name, r.transferSize, r.responseEnd]),
    });
  }, 1000);
})
"""

SAVE_SCRIPT = """
() => new Promise((resolve) => {
  const painted = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.identifier === "board") painted.push(entry.renderTime || entry.loadTime);
    }
  }).observe({ type: "element", buffered: true });
  setTimeout(() => {
    const saves = performance.getEntriesByType("resource")
      .filter((r) => r.name.endsWith("/finish") && r.startTime >= window.__tap);
    const post = saves[saves.length - 1];
    resolve({
      tap: window.__tap,
      board: window.__boardAt,
      board_painted: painted.length ? Math.max(...painted) : null,
      cells_painted: painted.length,
      board_top: window.__boardTop,
      inner_height: innerHeight,
      requests: saves.length,
      request_start: post ? post.startTime : null,
      response_start: post ? post.responseStart : null,
      response_end: post ? post.responseEnd : null,
      html_bytes: post ? post.transferSize : null,
    });
  }, 300);
})
"""


def throttle(context: BrowserContext, page: Page) -> None:
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": LATENCY_MS,
            "downloadThroughput": BYTES_PER_S,
            "uploadThroughput": BYTES_PER_S,
        },
    )
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})


def new_context(
    browser: Browser, cookies: list[Any] | None = None, javascript: bool = True
) -> BrowserContext:
    context = browser.new_context(viewport=PHONE, locale="th-TH", service_workers="block")
    if not javascript:  # the page's own scripts are not fetched; the measuring scripts still run
        context.route(re.compile(r".*\.js(\?.*)?$"), lambda route: route.abort())
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(INIT_SCRIPT)
    if cookies:
        context.add_cookies(cookies)
    return context


def csrf(context: BrowserContext) -> dict[str, str]:
    token = next(c["value"] for c in context.cookies() if c["name"] == "csrftoken")
    return {"X-CSRFToken": token}


def set_up(browser: Browser, base: str) -> tuple[list[Any], str]:
    """A group and a session through the app's forms, then GAMES games over HTTP."""
    context = new_context(browser)
    page = context.new_page()
    page.goto(base + "/")
    page.fill('input[name="name"]', "Phone bench · วงทดสอบ")
    page.locator('form[action="/groups/new"] button').click()
    page.wait_for_url(re.compile(r"/g/\d+/$"))
    page.locator('a[href$="/sessions/new"]').click()
    for i, name in enumerate(["Ann", "Bee", "Cat", "Dan"], start=1):
        page.fill(f'input[name="seat_{i}"]', name)
    page.select_option('select[name="first_dealer"]', "1")
    page.check('input[name="stake_level"][value="sian"]')
    page.fill('input[name="point_value"]', "0.5")
    page.locator("main form button.primary").click()
    page.wait_for_url(re.compile(r"/s/\d+/$"))
    table = page.url.removeprefix(base)
    for _ in range(GAMES):
        game_id = start_game(context, base, table)
        finish = finish_data(idempotency_key=new_key())
        r = context.request.post(
            f"{base}{table}games/{game_id}/finish",
            form=finish,
            headers=csrf(context),
            max_redirects=0,
        )
        assert r.status == 302, r.status
    cookies = context.cookies()
    context.close()
    return cookies, table


def start_game(context: BrowserContext, base: str, table: str) -> int:
    data = {"fool_swap": "on", "idempotency_key": new_key()}
    r = context.request.post(
        f"{base}{table}games/start", form=data, headers=csrf(context), max_redirects=0
    )
    assert r.status == 302, r.status
    body = context.request.get(base + table).text()
    found = re.search(rf"{table}games/(\d+)/finish", body)
    assert found, "no game in play"
    return int(found.group(1))


def first_load(
    browser: Browser, base: str, table: str, cookies: list[Any], javascript: bool = True
) -> dict[str, Any]:
    context = new_context(browser, cookies, javascript)
    try:
        page = context.new_page()
        throttle(context, page)
        page.goto(base + table, wait_until="load")
        result: dict[str, Any] = page.evaluate(LCP_SCRIPT)
        return result
    finally:
        context.close()


def save_runs(browser: Browser, base: str, table: str, cookies: list[Any]) -> list[dict]:
    context = new_context(browser, cookies)
    results = []
    try:
        page = context.new_page()
        throttle(context, page)
        page.goto(base + table)  # warms the cache with the static files, as a phone in use has
        for _ in range(RUNS):
            game_id = start_game(context, base, table)
            page.goto(f"{base}{table}games/{game_id}/finish")
            page.check('input[name="ending"][value="knock"]')
            page.check('input[name="knocker"][value="Ann"]')
            page.check('input[name="kind"][value="normal"]')
            for name, points in (("Bee", 10), ("Cat", 20), ("Dan", 30)):
                header = page.get_by_role("rowheader", name=name, exact=True)
                row = page.locator("table.entry tbody tr").filter(has=header)
                row.locator('input[name^="points_"]').fill(str(points))
            expect(page.locator("#preview [data-preview-net]")).to_have_count(4)
            page.wait_for_load_state("networkidle")  # no preview still on its way
            games_before = GAMES + len(results)
            page.click(".sticky-actions button.primary")
            page.wait_for_url(re.compile(r"/s/\d+/$"))  # pushed by the answer: no navigation
            page.wait_for_function("() => window.__boardAt !== undefined")
            r = page.evaluate(SAVE_SCRIPT)
            newest = page.locator("table.games tbody tr td a").first.inner_text()
            r["rows"] = int(newest.strip())  # the newest game listed: the one just saved
            r["expected_rows"] = games_before + 1
            results.append(r)
    finally:
        context.close()
    return results


def ms(x: float | None) -> str:
    return "—" if x is None else f"{x:.0f} ms"


def run(mode: str, browser: Browser) -> None:
    with tempfile.TemporaryDirectory(prefix="scorekeeper-static-") as static_root:
        extra = {
            "DJANGO_SETTINGS_MODULE": "phone_settings",
            "PYTHONPATH": str(ROOT / "bench") + os.pathsep + str(ROOT),
            "SCOREKEEPER_DEBUG": "1" if mode == "debug" else "0",
            "BENCH_STATIC_ROOT": static_root,
        }
        with fresh_database("sqlite") as db:
            if mode == "production":
                collectstatic(db, extra)
            with serve(db, env=extra) as server:
                load_before = loadavg()
                cookies, table = set_up(browser, server.url)
                loads = [first_load(browser, server.url, table, cookies) for _ in range(RUNS)]
                no_js = [
                    first_load(browser, server.url, table, cookies, javascript=False)
                    for _ in range(RUNS)
                ]
                saves = save_runs(browser, server.url, table, cookies)
                load_after = loadavg()
                finish_path = r"/s/\d+/games/\d+/finish"
                finish_server = server.access_times("POST", finish_path, "200")[-RUNS:]
    print(f"\n== serve {mode}: {GAMES} games at the table, load average {load_before} → "
          f"{load_after} ==")  # fmt: skip
    lcp = [x["lcp"] for x in loads if x["lcp"] is not None]
    print(f"first load, LCP of each run: {', '.join(ms(x) for x in lcp)}")
    first = sorted(loads, key=lambda x: x["lcp"] or 0)[len(loads) // 2]  # the median run
    print(
        f"  the median run: LCP {ms(first['lcp'])} on {first['element']}, FCP {ms(first['fcp'])}, "
        f"HTML first byte {ms(first['ttfb'])}, last byte {ms(first['html_end'])}, "
        f"DOMContentLoaded {ms(first['dcl'])}, load {ms(first['load'])}"
    )
    total = first["html_bytes"] + sum(size for _n, size, _e in first["resources"])
    print(f"  bytes over the wire (one run): HTML {first['html_bytes']:,} B, total {total:,} B")
    for name, size, end in first["resources"]:
        print(f"    {name.removeprefix(server.url)}: {size:,} B, done at {end:.0f} ms")
    lcp_no_js = [x["lcp"] for x in no_js if x["lcp"] is not None]
    print(
        f"  the same without the page's scripts (htmx, app.js not fetched): LCP "
        f"{', '.join(ms(x) for x in lcp_no_js)}"
    )
    median_lcp = statistics.median(lcp) / 1000 if lcp else float("nan")
    print(f"  LCP median {median_lcp * 1000:.0f} ms: {verdict(median_lcp <= AIM_LCP)} (<= 1.5 s)")

    spans = []
    for r in saves:
        board = r["board_painted"] or r["board"]
        spans.append(
            {
                "total": board - r["tap"],
                "frame": r["board"] - r["tap"],
                "tap_to_request": r["request_start"] - r["tap"],
                "post": r["response_end"] - r["request_start"],
                "render": board - r["response_end"],
                "bytes": r["html_bytes"],
                "cells": r["cells_painted"],
                "requests": r["requests"],
                "visible": r["board_top"] < r["inner_height"],
            }
        )
    how = (
        "the scoreboard's cells painted, Element Timing"
        if all(s["cells"] for s in spans)
        else "the task after the first frame drawn with the new scoreboard: Element Timing "
        "reported no swapped-in cell"
    )
    print(f"save → scoreboard ({how}), each run: " + ", ".join(ms(s["total"]) for s in spans))

    def med(key: str) -> float:
        return statistics.median(s[key] for s in spans if s[key] is not None)

    print(
        f"  median parts: tap → request sent {med('tap_to_request'):.0f} ms · POST finish, "
        f"answered with the table page (to last byte) {med('post'):.0f} ms · swap, style, "
        f"paint to the scoreboard {med('render'):.0f} ms"
    )
    print(
        f"  cross-check (median, after the tap): the task after the scoreboard's first frame "
        f"{med('frame'):.0f} ms; cells reported {[s['cells'] for s in spans]}; requests to "
        f"/finish per save {[s['requests'] for s in spans]}"
    )
    print(
        f"  answer (the table page) {spans[-1]['bytes']:,} B over the wire; scoreboard in the "
        f"first screen: {all(s['visible'] for s in spans)}; newest game listed after each save "
        f"/ expected: {[(r['rows'], r['expected_rows']) for r in saves]}"
    )
    if finish_server:
        print(
            f"  granian's own time: POST finish (recording and the table page) median "
            f"{statistics.median(finish_server) * 1000:.1f} ms"
        )
    print(
        f"  (Chrome holds each emulated response until {LATENCY_MS} ms after its request began: "
        f"the latency overlaps the server's time instead of adding to it, so a request costs at "
        f"least {LATENCY_MS} ms)"
    )
    total_median = med("total") / 1000
    print(
        f"  save → scoreboard median {total_median * 1000:.0f} ms: "
        f"{verdict(total_median <= AIM_SAVE)} (<= 400 ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--serve", choices=["debug", "production", "both"], default="both")
    args = parser.parse_args()
    bounded(1200)
    print(machine())
    print(
        f"Chromium {CHROMIUM}, {PHONE['width']}×{PHONE['height']}, CPU ÷{CPU_SLOWDOWN}, "
        f"{LATENCY_MS} ms latency, {BYTES_PER_S:,} B/s each way; median of {RUNS} runs"
    )
    started = time.monotonic()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        print(f"Chromium version {browser.version}")
        try:
            modes = ["debug", "production"] if args.serve == "both" else [args.serve]
            for mode in modes:
                run(mode, browser)
        finally:
            browser.close()
    print(f"\n{time.monotonic() - started:.0f} s in all; load average {loadavg()}")


if __name__ == "__main__":
    sys.exit(main())
