"""Where a request's time goes: cProfile of POST finish, POST start and GET table, in-process.

A fresh SQLite file, Django's test Client as the host's phone (as bench/web_pages.py), the forms
posted URL-encoded as a browser and bench/web_record.py post them. The session has
BENCH_PROFILE_GAMES games first (default 100, played through the services), then
BENCH_PROFILE_N (default 200) games are recorded through the views, each as POST start and
POST finish; cProfile runs only around the request named by --request.

Debug is on unless BENCH_PROFILE_DEBUG=0, which serves with the settings of `make serve`
(bench/phone_settings.py: debug off, plain HTTP), as bench/web_record.py measures: debug on
keeps every statement and its time, which the profile then counts.

    uv run python bench/web_profile.py --request finish
    uv run python bench/web_profile.py --request start
    uv run python bench/web_profile.py --request table
    BENCH_PROFILE_DEBUG=0 BENCH_SORT=tottime uv run python bench/web_profile.py --request finish
"""

import argparse
import cProfile
import io
import os
import pstats
import re
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
TMP = tempfile.TemporaryDirectory(prefix="scorekeeper-profile-")
os.environ.pop("DATABASE_URL", None)
os.environ["SCOREKEEPER_SQLITE"] = str(Path(TMP.name) / "profile.sqlite3")
DEBUG = os.environ.get("BENCH_PROFILE_DEBUG", "1") != "0"
os.environ["SCOREKEEPER_DEBUG"] = "1" if DEBUG else "0"
os.environ["DJANGO_SETTINGS_MODULE"] = "scorekeeper.settings" if DEBUG else "phone_settings"
os.environ["BENCH_STATIC_ROOT"] = str(Path(TMP.name) / "static")  # read only with debug off
os.environ.setdefault("SCOREKEEPER_SECRET_KEY", "bench-profile-" + os.urandom(16).hex())
sys.path.insert(0, str(ROOT / "bench"))

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils.http import urlencode  # noqa: E402
from webbench import bounded, finish_data, machine, new_key  # noqa: E402

from scorekeeper.models import Game, Group  # noqa: E402
from scorekeeper.services import games, sessions  # noqa: E402

NAMES = ["Ann", "Bee", "Cat", "Dan"]
FORM = "application/x-www-form-urlencoded"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--request", choices=["finish", "start", "table"], default="finish")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    bounded(1800)
    before = int(os.environ.get("BENCH_PROFILE_GAMES", "100"))
    n = int(os.environ.get("BENCH_PROFILE_N", "200"))
    print(machine())
    call_command("migrate", "--noinput", verbosity=0)
    client = Client(HTTP_ACCEPT_LANGUAGE="th")
    response = client.post("/groups/new", {"name": "Profile"})
    group = Group.objects.get(pk=int(re.fullmatch(r"/g/(\d+)/", response["Location"])[1]))
    session = sessions.session_open(
        group=group, players=NAMES, stake_level="sian", point_value=Decimal("0.5")
    )
    outcome = {"knock": {"player": "Ann", "kind": "normal"}, "points": {"Bee": 10, "Cat": 20}}
    outcome["points"]["Dan"] = 30
    with transaction.atomic():
        for _ in range(before):
            games.game_finish(game=games.game_start(session=session), outcome=outcome)
    sid = session.pk
    profiler = cProfile.Profile()
    spent = 0.0
    for _ in range(n):
        data = {"fool_swap": "on", "idempotency_key": new_key()}
        if args.request == "start":
            profiler.enable()
        t0 = time.perf_counter()
        assert client.post(f"/s/{sid}/games/start", urlencode(data), FORM).status_code == 302
        if args.request == "start":
            spent += time.perf_counter() - t0
            profiler.disable()
        game = session.games.get(status=Game.Status.IN_PLAY)
        data = finish_data(idempotency_key=new_key())
        if args.request == "finish":
            profiler.enable()
        t0 = time.perf_counter()
        assert (
            client.post(f"/s/{sid}/games/{game.pk}/finish", urlencode(data), FORM).status_code
            == 302
        )
        if args.request == "finish":
            spent += time.perf_counter() - t0
            profiler.disable()
        if args.request == "table":
            profiler.enable()
            t0 = time.perf_counter()
            assert client.get(f"/s/{sid}/").status_code == 200
            spent += time.perf_counter() - t0
            profiler.disable()
    print(
        f"{n} × {args.request} after {before} games (the session grows to {before + n}): "
        f"{spent / n * 1000:.1f} ms each on average, profiler on"
    )
    out = io.StringIO()
    order = os.environ.get("BENCH_SORT", "cumulative")  # or tottime: where the time itself goes
    stats = pstats.Stats(profiler, stream=out).sort_stats(order)
    stats.print_stats(args.top)
    print(out.getvalue())


if __name__ == "__main__":
    try:
        main()
    finally:
        TMP.cleanup()
