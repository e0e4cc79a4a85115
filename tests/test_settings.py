"""Settings read from the environment parse strictly and name the variable that is wrong."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION = {"SCOREKEEPER_DEBUG": "0", "SCOREKEEPER_SECRET_KEY": "s" * 64}


def settings_with(**env: str) -> subprocess.CompletedProcess[str]:
    """Import the settings in a fresh process with these variables; print what they decided."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    environ.pop("DATABASE_URL", None)
    code = (
        "from scorekeeper import settings as s;"
        "print(s.DEBUG, getattr(s, 'SECURE_PROXY_SSL_HEADER', None), s.TRUSTED_PROXIES)"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**environ, **env},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


@pytest.mark.parametrize("word", ["true", "TRUE", " yes ", "On", "1"])
def test_behind_a_proxy_is_read_from_any_yes(word):
    result = settings_with(**PRODUCTION, SCOREKEEPER_BEHIND_PROXY=word)
    assert result.stdout.split()[1:3] == ["('HTTP_X_FORWARDED_PROTO',", "'https')"], result.stderr


@pytest.mark.parametrize("word", ["false", "No", "OFF", "0"])
def test_debug_is_read_from_any_no(word):
    result = settings_with(SCOREKEEPER_DEBUG=word, SCOREKEEPER_SECRET_KEY="s" * 64)
    assert result.stdout.split()[0] == "False", result.stderr


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("SCOREKEEPER_DEBUG", "maybe"),
        ("SCOREKEEPER_BEHIND_PROXY", "2"),
        ("SCOREKEEPER_TRUSTED_PROXIES", "one"),
        ("SCOREKEEPER_HSTS_SECONDS", "-5"),
        ("SCOREKEEPER_SIGNUPS_AN_HOUR", "ten"),
    ],
)
def test_anything_else_is_refused_naming_the_variable(variable, value):
    result = settings_with(**{**PRODUCTION, variable: value})
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and variable in result.stderr
