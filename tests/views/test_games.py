"""The end-of-game screen with its live preview, the game page, voids, corrections and ties."""

import re
from decimal import Decimal

from scorekeeper.models import Game, LedgerLine
from scorekeeper.services import games, nights
from tests.views.conftest import HTMX, finish_data
from tests.views.test_table import KNOCK


def url(game: Game, action: str = "") -> str:
    return f"/s/{game.night.pk}/games/{game.pk}/{action}"


def scoreboard(client, game: Game) -> dict[str, int]:
    body = client.get(f"/s/{game.night.pk}/").content.decode()
    rows = re.findall(r'data-player="([^"]+)".*?data-net="(-?\d+)"', body, re.S)
    return {name: int(net) for name, net in rows}


def test_the_finish_form_offers_every_player_and_a_preview(en, in_play):
    body = en.get(url(in_play, "finish")).content.decode()
    assert "<html" in body
    assert body.count('name="knocker"') == 4
    assert f'hx-post="{url(in_play, "preview")}"' in body
    assert f'formaction="{url(in_play, "preview")}"' in body  # the same without JavaScript


def test_the_preview_swap_settles_without_writing(en, in_play):
    response = en.post(url(in_play, "preview"), finish_data(), HTTP_HX_TARGET="preview", **HTMX)
    body = response.content.decode()
    assert "<html" not in body
    assert body.lstrip().startswith('<section id="preview"')
    assert 'data-preview-net="Ann">+1,200<' in body
    assert 'data-preview-net="Bee">−500<' in body
    assert LedgerLine.objects.count() == 0
    in_play.refresh_from_db()
    assert in_play.status == Game.Status.IN_PLAY


def test_the_preview_shows_the_rule_book_formula_for_a_fool(en, in_play):
    data = finish_data(knocker="Bee", kind="dark", fool="Cat", dark=["Dan"], held_3="1")
    data.update(points_0="35", points_2="10", points_3="-80")
    body = en.post(url(in_play, "preview"), data, HTTP_HX_TARGET="preview", **HTMX).content.decode()
    assert "5 × fool + level − hold = 5 × 400 + 400 − 400 = 2,000" in body
    assert "86.2" in body and "87.4" in body


def test_the_preview_page_without_javascript_is_the_whole_form(en, in_play):
    body = en.post(url(in_play, "preview"), finish_data()).content.decode()
    assert "<html" in body
    assert 'data-preview-net="Ann">+1,200<' in body
    assert 'value="30"' in body  # what was typed is still there


def test_an_unsettleable_preview_says_why(en, in_play):
    body = en.post(
        url(in_play, "preview"), finish_data(fool="Ann"), HTTP_HX_TARGET="preview", **HTMX
    ).content.decode()
    assert "The knocker cannot be the fool discarder." in body


def test_saving_the_game_writes_the_lines_and_updates_the_scoreboard(en, in_play):
    response = en.post(url(in_play, "finish"), finish_data())
    assert response.status_code == 302
    assert scoreboard(en, in_play) == {"Ann": 1200, "Bee": -500, "Cat": -400, "Dan": -300}


def test_a_save_through_htmx_answers_with_the_table_at_its_own_address(en, in_play):
    """One round trip: the new scores come back with the save, not after a redirect."""
    save = en.post(url(in_play, "finish"), finish_data(), HTTP_HX_TARGET="main", **HTMX)
    assert save.status_code == 200
    assert save["HX-Push-Url"] == f"/s/{in_play.night.pk}/"
    body = save.content.decode()
    rows = re.findall(r'data-player="([^"]+)".*?data-net="(-?\d+)"', body, re.S)
    assert {n: int(v) for n, v in rows} == {
        "Ann": 1200,
        "Bee": -500,
        "Cat": -400,
        "Dan": -300,
    }
    assert '<main id="main">' in body
    assert scoreboard(en, in_play) == {"Ann": 1200, "Bee": -500, "Cat": -400, "Dan": -300}


def test_a_refused_save_through_htmx_swaps_in_the_form_with_its_error(en, in_play):
    save = en.post(url(in_play, "finish"), finish_data(fool="Ann"), HTTP_HX_TARGET="main", **HTMX)
    assert save.status_code == 422  # base.html's htmx config swaps a 422
    assert "HX-Push-Url" not in save
    body = save.content.decode()
    assert "The knocker cannot be the fool discarder." in body and 'value="30"' in body
    assert LedgerLine.objects.count() == 0


def test_a_save_through_htmx_after_another_phones_shows_the_table_as_it_is(en, in_play):
    games.game_finish(game=in_play, outcome={"knock": {"player": "Ann", "kind": "normal"},
                                             "points": {"Bee": 1, "Cat": 2, "Dan": 3}})  # fmt: skip
    save = en.post(url(in_play, "finish"), finish_data(), HTTP_HX_TARGET="main", **HTMX)
    assert save.status_code == 409  # swapped in by htmx (responseHandling in base.html)
    assert save["HX-Push-Url"] == f"/s/{in_play.night.pk}/"


def test_a_refused_result_shows_the_error_by_its_field_and_keeps_what_was_typed(en, in_play):
    response = en.post(url(in_play, "finish"), finish_data(fool="Ann"))
    body = response.content.decode()
    assert response.status_code == 422
    fool_field = body[body.index('id="field-fool"') :]
    assert "The knocker cannot be the fool discarder." in fool_field[: fool_field.index("</div>\n")]
    assert 'value="20"' in body and 'value="30"' in body
    assert LedgerLine.objects.count() == 0


def test_a_stock_out_asks_who_drew_last(en, in_play):
    data = finish_data(ending="stock-out", points_0="40")
    response = en.post(url(in_play, "finish"), data)
    assert response.status_code == 422
    assert "Who drew the last card?" in response.content.decode()
    ok = en.post(url(in_play, "finish"), {**data, "last_drawer": "Dan"})
    assert ok.status_code == 302
    assert scoreboard(en, in_play) == {"Ann": 600, "Bee": -300, "Cat": -200, "Dan": -100}


def test_a_tied_game_waits_and_the_head_colour_of_the_next_game_settles_it(en, in_play):
    en.post(
        url(in_play, "finish"),
        finish_data(knocker="Cat", points_0="10", points_1="10", points_2="", points_3="25"),
    )
    in_play.refresh_from_db()
    assert in_play.status == Game.Status.PENDING_TIE
    table = en.get(f"/s/{in_play.night.pk}/").content.decode()
    assert "Game 1 waits for a tie" in table
    assert "black for Ann, red for Bee" in table
    en.post(f"/s/{in_play.night.pk}/games/start", {"head_color": "red"})
    assert scoreboard(en, in_play) == {"Ann": -500, "Bee": -400, "Cat": 1200, "Dan": -300}


def test_a_tie_can_be_resolved_on_the_game_page_by_a_draw(en, in_play):
    en.post(
        url(in_play, "finish"),
        finish_data(knocker="Dan", points_0="5", points_1="5", points_2="5", points_3=""),
    )
    bad = en.post(url(in_play, "tie"), {"head_color": "red"})
    assert bad.status_code == 422
    assert "does not settle the tie" in bad.content.decode()
    ok = en.post(url(in_play, "tie"), {"order": "Cat, Ann, Bee"})
    assert ok.status_code == 302
    assert scoreboard(en, in_play) == {"Ann": -400, "Bee": -500, "Cat": -300, "Dan": 1200}


def test_the_game_page_lists_every_line_with_its_rule_and_the_handovers(en, in_play):
    en.post(url(in_play, "finish"), finish_data())
    body = en.get(url(in_play)).content.decode()
    assert "Bee → Ann <strong>300</strong>" in body
    assert "rule 59" in body and "rule 79" in body
    assert "What each hands the knocker" in body


def test_voiding_asks_first_then_strikes_the_game_through_and_restores_the_scoreboard(en, in_play):
    en.post(url(in_play, "finish"), finish_data())
    confirm = en.get(url(in_play, "void")).content.decode()
    assert "Yes, void it" in confirm
    assert in_play.lines.count() == 6  # nothing happens on a GET
    assert 'name="status" value="settled"' in confirm  # the state the host is looking at
    en.post(url(in_play, "void"), {"status": "settled", "idempotency_key": "v1"})
    again = en.post(url(in_play, "void"), {"status": "settled", "idempotency_key": "v1"})
    assert again.status_code == 302  # a second tap of the same form changes nothing
    assert in_play.lines.count() == 12
    assert scoreboard(en, in_play) == dict.fromkeys(["Ann", "Bee", "Cat", "Dan"], 0)
    table = en.get(f"/s/{in_play.night.pk}/").content.decode()
    assert "<del>1</del>" in table


def test_a_voided_game_is_entered_again_corrected_in_its_place(en, in_play):
    games.event_add(game=in_play, event={"type": "head", "player": "Bee"})
    en.post(url(in_play, "finish"), finish_data())
    en.post(url(in_play, "void"))
    form = en.get(url(in_play, "correct")).content.decode()
    event = in_play.events.get()
    assert f'name="keep" value="{event.pk}" checked' in form
    assert "Head (ค่าหัว) · Bee" in form  # the event by its name in the game
    assert 'name="points_3" value="30"' in form  # the voided result, ready to change
    response = en.post(
        url(in_play, "correct"), finish_data(knocker="Bee", points_0="10", points_1="")
    )
    fixed = Game.objects.get(replaces=in_play)
    assert response.status_code == 302
    assert fixed.number == 1 and fixed.status == Game.Status.SETTLED
    assert fixed.events.count() == 0  # the head was left out of the correction
    assert scoreboard(en, in_play) == {"Ann": -500, "Bee": 1200, "Cat": -400, "Dan": -300}


def test_a_game_is_not_found_through_another_nights_address(en, in_play):
    other = nights.night_open(
        group=in_play.night.group,
        players=["Eve", "Fay", "Gus", "Hal"],
        stake_level="thep",
        point_value=Decimal(1),
    )
    assert en.get(url(in_play)).status_code == 200
    assert en.get(f"/s/{other.pk}/games/{in_play.pk}/").status_code == 404
    assert en.post(f"/s/{other.pk}/games/{in_play.pk}/void").status_code == 404
    assert en.get(f"/s/{in_play.night.pk}/games/999/").status_code == 404


def test_missing_points_are_reported_inside_the_points_table(en, in_play):
    response = en.post(url(in_play, "finish"), finish_data(points_2=""))
    body = response.content.decode()
    points = body[
        body.index('id="field-points"') : body.index("</fieldset>", body.index('id="field-points"'))
    ]
    assert response.status_code == 422
    assert "Points are missing for Cat." in points


def test_levels_entered_against_the_forcing_rules_are_settled_with_a_warning(en, in_play):
    data = finish_data(
        by_levels="on", dark=["Dan"], level_1="more", level_2="medium", level_3="less"
    )
    body = en.post(url(in_play, "preview"), data, HTTP_HX_TARGET="preview", **HTMX).content.decode()
    assert "Dan never collected or held one suit only: rule 60 makes them lose more." in body
    assert 'data-preview-net="Dan">−400<' in body  # as given: less 100 × S 2, plus the knock 200


# -- several phones, one truth: voids, ties and corrections name their state ----------------------


def test_a_void_sent_after_another_phones_void_is_refused_with_409(en, in_play):
    en.post(url(in_play, "finish"), finish_data())
    games.game_void(game=in_play)  # another phone voided it first
    late = en.post(url(in_play, "void"), {"status": "settled"}, **HTMX)
    assert late.status_code == 409
    assert "Game 1 is already voided." in late.content.decode()
    assert in_play.lines.count() == 12  # reversed once, not twice


def test_a_void_asked_for_a_game_in_play_is_refused_once_it_has_been_finished(en, in_play):
    """The host opened "void" while the game was in play; another phone saved its result since:
    voiding now would throw away a result the host has not seen."""
    games.game_finish(game=in_play, outcome=KNOCK)
    late = en.post(url(in_play, "void"), {"status": "in-play"}, **HTMX)
    assert late.status_code == 409
    body = late.content.decode()
    assert "Game 1 has changed since this page was opened: it is now settled." in body
    assert 'id="live"' in body  # the table as it is now
    in_play.refresh_from_db()
    assert in_play.status == Game.Status.SETTLED and in_play.lines.count() == 6


def test_a_tie_settled_by_another_phone_is_refused_with_409_not_settled_twice(en, in_play):
    en.post(
        url(in_play, "finish"),
        finish_data(knocker="Dan", points_0="5", points_1="5", points_2="5", points_3=""),
    )
    games.game_resolve_tie(game=in_play, order=["Cat", "Ann", "Bee"])  # the other phone
    lines = in_play.lines.count()
    late = en.post(url(in_play, "tie"), {"order": "Ann, Bee, Cat"}, **HTMX)
    assert late.status_code == 409
    assert "was already recorded" in late.content.decode()
    assert in_play.lines.count() == lines
    assert scoreboard(en, in_play) == {"Ann": -400, "Bee": -500, "Cat": -300, "Dan": 1200}


def test_a_tie_of_a_game_voided_since_is_refused_with_409(en, in_play):
    en.post(
        url(in_play, "finish"),
        finish_data(knocker="Dan", points_0="5", points_1="5", points_2="5", points_3=""),
    )
    games.game_void(game=in_play)
    late = en.post(url(in_play, "tie"), {"order": "Ann, Bee, Cat"})
    assert late.status_code == 409
    assert "Game 1 was voided." in late.content.decode()


def test_a_correction_sent_after_another_phones_is_refused_with_409(en, in_play):
    en.post(url(in_play, "finish"), finish_data())
    en.post(url(in_play, "void"))
    first = finish_data(knocker="Bee", points_0="10", points_1="")
    assert en.post(url(in_play, "correct"), first).status_code == 302
    late = en.post(url(in_play, "correct"), finish_data(knocker="Cat", points_0="10", points_2=""))
    assert late.status_code == 409
    assert "Game 1 is already corrected." in late.content.decode()
    assert Game.objects.filter(replaces=in_play).get().document["knock"]["player"] == "Bee"
