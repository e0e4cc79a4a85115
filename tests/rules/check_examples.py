"""Send the worked examples of docs/rules/knock-dummy.md through `manage.py settle --lines`.

`make check-examples` runs it from the project root: all the examples go through the command in one
process, as a table's tool would send them, and each answer's net, levels and winners must be the
example's exactly. Exit 0 when every example matches; otherwise the first mismatches are printed.
tests/rules/test_knock_dummy_examples.py checks the same file through the engine itself.
"""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES_FILE = ROOT / "docs" / "rules" / "examples" / "knock-examples.jsonl"
SHOWN = 3  # mismatches printed in full: the first few tell what broke


def main() -> int:
    cases = [json.loads(line) for line in EXAMPLES_FILE.read_text("utf-8").splitlines() if line]
    feed = "".join(json.dumps(case["input"], ensure_ascii=False) + "\n" for case in cases)
    proc = subprocess.run(
        [sys.executable, "manage.py", "settle", "--lines"],
        cwd=ROOT, input=feed, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    answers = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    if len(answers) != len(cases):
        print(proc.stderr[-2000:])
        print(f"settle --lines answered {len(answers)} lines for {len(cases)} examples")
        return 1
    bad = 0
    for case, got in zip(cases, answers, strict=True):
        want = case["expect"]
        if (
            got.get("net") == want["net"]
            and got.get("levels", {}) == want["levels"]
            and sorted(got.get("winners", [])) == sorted(want["winners"])
        ):
            continue
        bad += 1
        if bad <= SHOWN:
            shown = {k: got.get(k) for k in ("net", "levels", "winners", "error")}
            print("MISMATCH:", case["title"])
            print("  expected", json.dumps(want, ensure_ascii=False))
            print("  got     ", json.dumps(shown, ensure_ascii=False))
    print(f"{len(cases) - bad}/{len(cases)} worked examples match")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
