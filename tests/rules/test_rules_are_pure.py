"""rules/ is pure Python: importing all of it loads no Django (STYLE.md, layer 1). So is
scorekeeper/promptpay.py, the PromptPay payload, which stands outside rules/ beside qr.py."""

import json
import os
import subprocess
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]

IMPORT_ALL_RULES = """
import importlib, json, pkgutil, sys
import scorekeeper.rules as rules
names = [m.name for m in pkgutil.walk_packages(rules.__path__, rules.__name__ + ".")]
names.append("scorekeeper.promptpay")
for name in names:
    importlib.import_module(name)
print(json.dumps({
    "imported": names,
    "django": sorted(m for m in sys.modules if m == "django" or m.startswith("django")),
}))
"""


def test_importing_every_rules_module_loads_no_django():
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL_RULES],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
    )

    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert "scorekeeper.rules.knock_dummy" in report["imported"]
    assert "scorekeeper.rules.knock_dummy_document" in report["imported"]
    assert "scorekeeper.rules.knock_dummy_formulas" in report["imported"]
    assert "scorekeeper.rules.errors" in report["imported"]
    assert "scorekeeper.promptpay" in report["imported"]
    assert report["django"] == []
