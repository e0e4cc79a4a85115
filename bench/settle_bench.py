"""Settlement benchmarks: `make bench`, i.e. `uv run python bench/settle_bench.py`.

a. in-process: 10,000 random games through `game_from_document` + `settle` +
   `settlement_to_document`, games per second, best of 3 runs;
b. the real command: `manage.py settle --lines` in a subprocess fed the same games as JSON Lines,
   wall time best of 3 (Django's start-up included, as a user would see it), with the start-up
   alone (no games) for comparison; then the same with cached bytecode (see `cached_bytecode_env`);
c. `fewest_transfers` on random non-zero nets summing to zero: 12 people (exact search) and
   20 people (greedy path), mean and max over 200 runs.

`--in-process-only` runs (a) alone, for profiling:
    uv run python -m cProfile -s cumtime bench/settle_bench.py --in-process-only --runs 1

The aim is 10,000 games through `settle --lines` in under 2 s; the script reports PASS or MISS
against it and does not fail on a MISS. Figures go in docs/performance.md.
"""

import argparse
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.random_games import check_documents, random_game_documents  # noqa: E402
from scorekeeper.rules.knock_dummy import settle  # noqa: E402
from scorekeeper.rules.knock_dummy_document import (  # noqa: E402
    game_from_document,
    settlement_to_document,
)
from scorekeeper.rules.transfers import EXACT_LIMIT, fewest_transfers  # noqa: E402

GAMES = 10_000
SEED = 2025
RUNS = 3
TRANSFER_RUNS = 200
AIM_SECONDS = 2.0  # 10,000 games through `settle --lines`


def nproc() -> str:
    """What `nproc` says (CPUs this process may use)."""
    if shutil.which("nproc"):
        return subprocess.run(["nproc"], capture_output=True, text=True, check=True).stdout.strip()
    return str(os.process_cpu_count())


def load_average() -> str:
    """The 1, 5 and 15 minute load averages: other work on the machine skews the figures."""
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def best_of(runs: int, work: Callable[[], object]) -> float:
    """Run `work` `runs` times; return the fastest wall time in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


# -- a. in-process -------------------------------------------------------------------------------


def settle_all(docs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [settlement_to_document(settle(game_from_document(doc))) for doc in docs]


# -- b. through the command ----------------------------------------------------------------------


def run_command(
    stdin: bytes, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "manage.py", "settle", "--lines"],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        check=False,
        env=env,
    )


def cached_bytecode_env(prefix: str) -> dict[str, str]:
    """This environment, but with bytecode written to and read from `prefix`.

    Without .pyc files (PYTHONDONTWRITEBYTECODE set, none in .venv) every start compiles Django's
    modules from source; a deployed app would not. The prefix keeps .venv untouched.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = prefix
    return env


def check_command_output(
    done: subprocess.CompletedProcess[bytes], expected: list[dict[str, Any]]
) -> None:
    """Raise AssertionError unless the command answered every game, without error, as in-process."""
    if done.returncode != 0:
        raise AssertionError(f"settle --lines exited {done.returncode}: {done.stderr[-2000:]!r}")
    lines = done.stdout.decode("utf-8").splitlines()
    if len(lines) != len(expected):
        raise AssertionError(f"settle --lines answered {len(lines)} lines for {len(expected)}")
    for i, (line, want) in enumerate(zip(lines, expected, strict=True)):
        got = json.loads(line)
        if "error" in got:
            raise AssertionError(f"settle --lines: game {i}: {got['error']}")
        if got != want:
            raise AssertionError(f"settle --lines: game {i} differs from the in-process result")


# -- c. transfers --------------------------------------------------------------------------------


def random_nets(rng: random.Random, people: int) -> dict[str, int]:
    """`people` non-zero nets (whole tens of points) that sum to zero."""
    names = [f"P{i:02}" for i in range(1, people + 1)]
    while True:
        nets = [rng.choice((-1, 1)) * rng.randrange(1, 500) * 10 for _ in names[:-1]]
        last = -sum(nets)
        if last:
            return dict(zip(names, [*nets, last], strict=True))


def time_transfers(people: int, runs: int, seed: int) -> tuple[float, float]:
    """Mean and max seconds of one `fewest_transfers` call over `runs` random nets."""
    rng = random.Random(seed)
    times = []
    for _ in range(runs):
        nets = random_nets(rng, people)
        start = time.perf_counter()
        transfers = fewest_transfers(nets)
        times.append(time.perf_counter() - start)
        if not transfers or len(transfers) > people - 1:
            raise AssertionError(f"{len(transfers)} transfers for {people} people")
    return sum(times) / len(times), max(times)


# -- report --------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument(
        "--in-process-only",
        action="store_true",
        help="only (a), e.g. under `python -m cProfile -s cumtime`",
    )
    args = parser.parse_args()
    n, runs = args.games, args.runs

    print(f"nproc: {nproc()}  Python {platform.python_version()}  ({platform.platform()})")
    no_pyc = os.environ.get("PYTHONDONTWRITEBYTECODE", "")
    print(f"PYTHONDONTWRITEBYTECODE={no_pyc!r}  load average: {load_average()}")
    docs = random_game_documents(n, args.seed)
    expected = check_documents(docs)  # every game settles, else AssertionError
    print(f"{n} random games (seed {args.seed}), each settled once: all valid")

    in_process = best_of(runs, lambda: settle_all(docs))
    if args.in_process_only:
        print(f"in-process: {n:,} games, best of {runs}: {in_process:.3f} s", end=" ")
        print(f"({n / in_process:,.0f} games per second)")
        return

    stdin = ("\n".join(json.dumps(d, ensure_ascii=False) for d in docs) + "\n").encode()
    check_command_output(run_command(stdin), expected)
    command = best_of(runs, lambda: run_command(stdin))
    startup = best_of(runs, lambda: run_command(b""))
    with tempfile.TemporaryDirectory(prefix="settle-bench-pycache-") as prefix:
        env = cached_bytecode_env(prefix)
        check_command_output(run_command(stdin, env), expected)  # also fills the cache
        command_pyc = best_of(runs, lambda: run_command(stdin, env))
        startup_pyc = best_of(runs, lambda: run_command(b"", env))

    mean12, max12 = time_transfers(EXACT_LIMIT, TRANSFER_RUNS, args.seed)
    mean20, max20 = time_transfers(20, TRANSFER_RUNS, args.seed)

    ms = 1000
    rows = [
        (f"in-process: {n:,} games, best of {runs}", f"{in_process:.3f} s"),
        ("in-process: games per second", f"{n / in_process:,.0f}"),
        (f"`settle --lines`: {n:,} games, wall, best of {runs}", f"{command:.3f} s"),
        ("`settle --lines`: games per second (start-up included)", f"{n / command:,.0f}"),
        (f"`settle --lines`: start-up alone (no games), best of {runs}", f"{startup:.3f} s"),
        (f"`settle --lines` with cached bytecode: {n:,} games, wall", f"{command_pyc:.3f} s"),
        ("`settle --lines` with cached bytecode: start-up alone", f"{startup_pyc:.3f} s"),
        (
            f"`fewest_transfers`, {EXACT_LIMIT} people (exact): mean / max of {TRANSFER_RUNS}",
            f"{mean12 * ms:.1f} ms / {max12 * ms:.1f} ms",
        ),
        (
            f"`fewest_transfers`, 20 people (greedy): mean / max of {TRANSFER_RUNS}",
            f"{mean20 * ms:.3f} ms / {max20 * ms:.3f} ms",
        ),
    ]
    print()
    print("| measure | figure |")
    print("|---|---|")
    for measure, figure in rows:
        print(f"| {measure} | {figure} |")
    print()
    verdict = "PASS" if command < AIM_SECONDS and n >= GAMES else "MISS"
    print(
        f"{verdict}: {n:,} games through `settle --lines` in {command:.3f} s "
        f"(aim: {GAMES:,} in under {AIM_SECONDS:.0f} s)"
    )


if __name__ == "__main__":
    main()
