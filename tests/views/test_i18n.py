"""Thai first, English second: the catalogue is complete and the pages follow the language."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from scorekeeper.error_text import error_text
from scorekeeper.rules.errors import RuleError

PO = Path(settings.LOCALE_PATHS[0]) / "th" / "LC_MESSAGES" / "django.po"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")

THAI_HOME = ["สมุดจดแต้ม", "จดแต้มและคิดเงินวงไพ่", "ยังไม่มีก๊วน"]
ENGLISH_HOME = ["Scorekeeper", "Score and money for the card table", "No group yet."]


def read_po(path: Path) -> list[tuple[str, str]]:
    """Return the (msgid, msgstr) pairs of a .po file, the header left out.

    Thai has one plural form, so a plural entry reads as its msgid and its msgstr[0].
    """
    entries: list[tuple[str, str]] = []
    current: dict[str, list[str]] = {}
    key = ""

    def flush() -> None:
        if "msgid" in current:
            msgid, msgstr = "".join(current["msgid"]), "".join(current.get("msgstr", []))
            if msgid:
                entries.append((msgid, msgstr))
        current.clear()

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = re.match(r'^(msgid|msgstr|msgid_plural|msgstr\[0\]) "(.*)"$', line)
        if match:
            key = {"msgstr[0]": "msgstr"}.get(match.group(1), match.group(1))
            if key == "msgid":
                flush()
            current.setdefault(key, []).append(match.group(2))
        elif line.startswith('"') and line.endswith('"'):
            current[key].append(line[1:-1])
    flush()
    return entries


def test_the_home_page_is_in_thai_when_the_browser_asks_for_nothing(client, db):
    body = client.get("/").content.decode()
    assert '<html lang="th">' in body
    for text in THAI_HOME:
        assert text in body
    assert "Score and money for the card table" not in body


def test_the_home_page_is_in_thai_when_the_browser_asks_for_thai(client, db):
    body = client.get("/", HTTP_ACCEPT_LANGUAGE="th").content.decode()
    assert '<html lang="th">' in body
    for text in THAI_HOME:
        assert text in body


def test_the_home_page_is_in_english_when_the_browser_asks_for_english(client, db):
    body = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="en">' in body
    for text in ENGLISH_HOME:
        assert text in body
    assert "จดแต้มและคิดเงินวงไพ่" not in body


def test_the_language_switch_turns_a_thai_browser_to_english_and_back(client, db):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "th"
    assert '<html lang="th">' in client.get("/").content.decode()

    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"}, follow=True)
    assert response.redirect_chain[-1] == ("/", 302)
    body = response.content.decode()
    assert '<html lang="en">' in body
    assert "Score and money for the card table" in body
    assert '<html lang="en">' in client.get("/").content.decode()

    response = client.post("/i18n/setlang/", {"language": "th", "next": "/"}, follow=True)
    body = response.content.decode()
    assert '<html lang="th">' in body
    assert "จดแต้มและคิดเงินวงไพ่" in body


def test_the_thai_catalogue_has_no_untranslated_or_fuzzy_message():
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("msgfmt (GNU gettext) is not installed: `make gettext` installs it")
    result = subprocess.run(
        [msgfmt, "--check", "--statistics", "-o", "/dev/null", str(PO)],
        capture_output=True,
        text=True,
        check=False,
    )
    report = result.stderr + result.stdout
    assert result.returncode == 0, report
    assert "translated message" in report, report
    assert "untranslated" not in report, report
    assert "fuzzy" not in report, report


def test_every_thai_message_keeps_the_placeholders_of_its_english_one():
    entries = read_po(PO)
    assert len(entries) > 100
    wrong = [
        (msgid, msgstr)
        for msgid, msgstr in entries
        if set(PLACEHOLDER.findall(msgid)) != set(PLACEHOLDER.findall(msgstr))
    ]
    assert wrong == []


def test_every_thai_message_is_filled_in():
    assert [msgid for msgid, msgstr in read_po(PO) if not msgstr] == []


def test_an_error_of_the_engine_is_told_in_thai_and_in_english():
    error = RuleError("knocker-fool", "x")
    with translation.override("th"):
        assert error_text(error) == "ผู้น็อกเป็นผู้ตีโง่ไม่ได้"
    with translation.override("en"):
        assert error_text(error) == "The knocker cannot be the fool discarder."
