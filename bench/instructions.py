"""Instructions a recorded game costs the app, counted by valgrind: a figure the machine's speed
does not move.

This machine's speed moves by up to 2× from one minute to the next (docs/performance.md), so a
CPU time cannot tell a change of 5% from the weather. Instructions can: valgrind's callgrind tool
counts every instruction the process runs, the same count for the same code and input whatever
else the machine is doing.

It runs bench/write_hold.py (in-process, debug off, a fresh SQLite file, each game POST start and
POST finish through Django's WSGI handler, after 50 games of warm-up) under callgrind twice, with
BENCH_INSTR_FEW (default 20) and BENCH_INSTR_MANY (default 120) games, and divides the difference
of the two totals by the difference of the games: start-up, migrations and warm-up cancel out.
PYTHONHASHSEED is fixed. The untimed read of the game in play between the two POSTs is counted
too (one small SELECT through the ORM). About 3 minutes: callgrind runs Python some 50× slower.

    uv run python bench/instructions.py
    ROOT=/path/to/another/checkout uv run python bench/instructions.py   # the same, on other code
"""

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from webbench import bounded, machine

HERE = Path(__file__).resolve().parent


def counted(games: int) -> int:
    """Instructions of one run of write_hold.py recording `games` games after its warm-up."""
    with tempfile.TemporaryDirectory(prefix="scorekeeper-instr-") as tmp:
        run = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={tmp}/callgrind.out",
                sys.executable,
                str(HERE / "write_hold.py"),
            ],
            env={**os.environ, "BENCH_HOLD_N": str(games), "PYTHONHASHSEED": "0"},
            capture_output=True,
            text=True,
            check=True,
        )
    found = re.search(r"Collected : (\d+)", run.stderr)
    assert found is not None, run.stderr[-2000:]
    return int(found[1])


def main() -> None:
    bounded(1200)
    few = int(os.environ.get("BENCH_INSTR_FEW", "20"))
    many = int(os.environ.get("BENCH_INSTR_MANY", "120"))
    print(machine())
    if "ROOT" in os.environ:
        print(f"(the app measured is the one in {os.environ['ROOT']}, not the commit named above)")
    low, high = counted(few), counted(many)
    per_game = (high - low) / (many - few)
    print(
        f"{few} games: {low:,} instructions; {many} games: {high:,}\n"
        f"a game (POST start + POST finish): {per_game / 1e6:.2f} million instructions"
    )


if __name__ == "__main__":
    main()
