"""The Thai catalogue uses one word per thing (docs/glossary.md): the words ruled out stay out."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "scorekeeper" / "locale" / "th" / "LC_MESSAGES" / "django.po"
RULED_OUT = {
    "เจ้ามือ": "the host is ผู้ดูแล: เจ้ามือ is the banker",
    "รอบการเล่น": "a night is วง",
    "น็อค": "knock is spelled น็อก, as the club's rules spell it",
}


def thai_strings() -> list[str]:
    text = CATALOGUE.read_text()
    return ["".join(re.findall(r'"(.*)"', m)) for m in re.findall(r'msgstr((?: ".*"\n)+)', text)]


@pytest.mark.parametrize("word", sorted(RULED_OUT))
def test_the_thai_catalogue_does_not_use_a_word_the_glossary_rules_out(word):
    found = [s for s in thai_strings() if word in s]
    assert not found, f"{word}: {RULED_OUT[word]}; found in {found}"


def test_the_glossary_names_every_model():
    from django.apps import apps

    glossary = (ROOT / "docs" / "glossary.md").read_text()
    for model in apps.get_app_config("scorekeeper").get_models():
        assert f"`{model.__name__}`" in glossary or model.__name__ == "Limit", model.__name__
