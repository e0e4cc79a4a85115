"""`manage.py settle`: the settle contract on stdin and stdout.

A few tests run it for real in a subprocess (`manage.py settle`, exit code and all); the rest run
the same command line through Django's ManagementUtility, as manage.py does, in this process with
stdin, stdout and stderr as bytes (a subprocess costs half a second, mostly Python starting).
"""

import io
import json
import subprocess
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path
from typing import TextIO

import pytest
from django.core.management import ManagementUtility

PROJECT_ROOT = Path(__file__).resolve().parents[2]
BAD_INPUT = 2
CONTRACT_KEYS = {"net", "levels", "winners", "lines"}
LINE_KEYS = {"payer", "payee", "amount", "item", "rule", "due"}


def make_game(**overrides):
    """Return the worked example as a game: Bee knocks dark, Cat fools, Dan holds a Speto."""
    game = {
        "rules": "knock-dummy-2025",
        "level": "sian",
        "players": ["Ann", "Bee", "Cat", "Dan"],
        "knock": {"player": "Bee", "kind": "dark"},
        "collected": ["Ann", "Cat"],
        "fool": "Cat",
        "speto_held": {"Dan": 1},
        "points": {"Ann": 35, "Cat": 10, "Dan": -80},
    }
    game.update(overrides)
    return {key: value for key, value in game.items() if value is not None}


def run_settle_process(stdin: bytes, *args: str) -> subprocess.CompletedProcess:
    """`manage.py settle` in a process of its own."""
    return subprocess.run(
        [sys.executable, "manage.py", "settle", *args],
        cwd=PROJECT_ROOT,
        input=stdin,
        capture_output=True,
        timeout=60,
    )


@contextmanager
def patch_stdin(stream: TextIO) -> Iterator[None]:
    kept, sys.stdin = sys.stdin, stream
    try:
        yield
    finally:
        sys.stdin = kept


def run_settle(stdin: bytes, *args: str) -> subprocess.CompletedProcess:
    """`manage.py settle` as manage.py runs it, in this process: what it writes to stdout and
    stderr as bytes, its exit code, and an exception that escapes it printed as the interpreter
    would (a traceback on stderr, exit 1)."""
    streams = {name: io.TextIOWrapper(io.BytesIO(), encoding="utf-8") for name in ("out", "err")}
    given = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    code = 0
    with (
        redirect_stdout(streams["out"]),
        redirect_stderr(streams["err"]),
        patch_stdin(given),
    ):
        try:
            ManagementUtility(["manage.py", "settle", *args]).execute()
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else 1
        except Exception:  # noqa: BLE001 (what the interpreter does with it)
            traceback.print_exc()
            code = 1
    out, err = (stream.detach() for stream in (streams["out"], streams["err"]))  # flushed
    return subprocess.CompletedProcess(["settle", *args], code, out.getvalue(), err.getvalue())


def encode(game) -> bytes:
    return json.dumps(game).encode()


def assert_only_an_error_object(result):
    """Exit 2, stdout exactly one JSON object {"error": "..."}, and no traceback on stderr."""
    assert result.returncode == BAD_INPUT, result.stderr
    lines = result.stdout.decode().splitlines()
    assert len(lines) == 1, result.stdout
    answer = json.loads(lines[0])
    assert list(answer) == ["error"]
    assert isinstance(answer["error"], str) and answer["error"]
    assert b"Traceback" not in result.stderr
    return answer["error"]


def test_one_game_settles_with_the_contracts_keys_and_exit_zero():
    result = run_settle_process(encode(make_game()))

    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert set(answer) >= CONTRACT_KEYS
    assert answer["net"] == {"Ann": 200, "Bee": 4200, "Cat": -2000, "Dan": -2400}
    assert answer["levels"] == {"Ann": "less", "Cat": "medium", "Dan": "more"}
    assert answer["winners"] == ["Bee"]
    assert all(set(line) >= LINE_KEYS for line in answer["lines"])
    assert "handed_to_knocker" not in answer
    assert result.stderr == b""


def test_a_stock_out_game_settles_too():
    game = make_game(knock=None, fool=None, points={"Ann": 45, "Bee": 20, "Cat": -35, "Dan": 30})

    result = run_settle(encode(game))

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["winners"] == ["Ann"]


BAD_INPUTS = [
    ("not JSON", b"{not json", "JSON"),
    ("empty input", b"", "JSON"),
    ("non-UTF-8 bytes", b'{"rules": "knock-dummy-2025", "players": ["\xff\xfe"]}', "UTF-8"),
    ("a JSON list, not an object", b"[1, 2, 3]", "object"),
    (
        "points given as text",
        encode(make_game(points={"Ann": "35", "Cat": 10, "Dan": -80})),
        "points",
    ),
    ("a level given as an object", encode(make_game(level={"name": "sian"})), "level"),
    ("an unknown player", encode(make_game(total="Eve")), "Eve"),
    (
        "an unresolved tie",
        encode(make_game(fool=None, collected=None, points={"Ann": 1, "Cat": 1, "Dan": 9})),
        "tie",
    ),
    ("deeply nested JSON", b"[" * 100_000 + b"]" * 100_000, ""),
]


@pytest.mark.parametrize(
    ("stdin", "mentioned"),
    [row[1:] for row in BAD_INPUTS],
    ids=[row[0] for row in BAD_INPUTS],
)
def test_bad_input_exits_2_with_only_an_error_object(stdin, mentioned):
    message = assert_only_an_error_object(run_settle(stdin))

    assert "\n" not in message
    assert mentioned in message  # the field or the problem, where there is one to name


def assert_a_clean_answer(result):
    """Exit 0 with one result, or exit 2 with only an error: valid UTF-8 JSON, no traceback."""
    assert b"Traceback" not in result.stderr, result.stderr.decode(errors="replace")[-400:]
    assert result.returncode in (0, BAD_INPUT)
    lines = result.stdout.decode("utf-8").splitlines()
    assert len(lines) == 1
    answer = json.loads(lines[0])
    if result.returncode == 0:
        assert set(answer) == CONTRACT_KEYS
    else:
        assert list(answer) == ["error"]


def lone_surrogate_name(**overrides):
    """A game whose JSON names a player with an escaped lone surrogate (no Unicode character)."""
    return encode(make_game(**overrides)).replace(b'"Ann"', b'"\\ud800"')


EDGE_INPUTS = [
    (
        "a number too long for Python to read (5000 digits)",
        encode(make_game()).replace(b'"Ann": 35', b'"Ann": ' + b"9" * 5000),
    ),
    (
        "valid stakes whose amounts run past 4300 digits",
        encode(
            make_game(
                level=None,
                stakes={"less": 1, "medium": 1, "more": 10**4299},
                knock={"player": "Bee", "kind": "dark-color"},
                fool=None,
                speto_held=None,
            )
        ),
    ),
    ("a player named by a lone surrogate escape", lone_surrogate_name()),
    (
        "a fool named by a lone surrogate escape",
        encode(make_game(fool="Eve")).replace(b"Eve", b"\\udc80"),
    ),
]


@pytest.mark.parametrize(
    "stdin", [row[1] for row in EDGE_INPUTS], ids=[row[0] for row in EDGE_INPUTS]
)
def test_odd_but_well_formed_json_gets_a_result_or_an_error_never_a_crash(stdin):
    assert_a_clean_answer(run_settle(stdin))


def test_lines_mode_answers_every_line_in_order_and_exits_2_if_any_failed():
    good = make_game()
    stock_out = make_game(
        knock=None, fool=None, points={"Ann": 45, "Bee": 20, "Cat": -35, "Dan": 30}
    )
    stdin = b"\n".join(
        [
            encode(good),
            b"{not json",
            encode(stock_out),
            b"\xff\xfe",
            encode(make_game(fool="Eve")),
            encode(
                make_game(
                    knock={"player": "Ann", "kind": "normal"},
                    fool=None,
                    points={"Bee": 5, "Cat": 6, "Dan": 7},
                )
            ),
        ]
    )

    result = run_settle_process(stdin, "--lines")

    assert result.returncode == BAD_INPUT
    answers = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert [("error" in a) for a in answers] == [False, True, False, True, True, False]
    assert answers[0]["net"] == {"Ann": 200, "Bee": 4200, "Cat": -2000, "Dan": -2400}
    assert answers[2]["winners"] == ["Ann"]
    assert answers[5]["winners"] == ["Ann"]
    assert all(list(answers[i]) == ["error"] for i in (1, 3, 4))
    assert b"Traceback" not in result.stderr


def test_lines_mode_with_every_line_valid_exits_0():
    games = [make_game(), make_game(speto_held=None), make_game(level="thep")]
    stdin = b"\n".join(encode(g) for g in games) + b"\n"

    result = run_settle(stdin, "--lines")

    assert result.returncode == 0, result.stderr
    answers = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert len(answers) == 3
    assert all(set(a) >= CONTRACT_KEYS for a in answers)
    assert answers[0]["net"]["Bee"] == 4200


def test_formulas_adds_what_each_loser_hands_the_knocker():
    result = run_settle(encode(make_game()), "--formulas")

    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert set(answer) >= CONTRACT_KEYS
    handed = {h["player"]: h for h in answer["handed_to_knocker"]}
    assert {p: h["amount"] for p, h in handed.items()} == {"Ann": -200, "Cat": 2000, "Dan": 2400}
    assert handed["Cat"]["case"] == "86.2"
    assert handed["Cat"]["formula"] == "5 × fool + lv − hold"
    assert handed["Cat"]["worked"] == "5 × 400 + 400 − 400 = 2000"


def test_formulas_with_lines_answers_each_line():
    stdin = encode(make_game()) + b"\n" + encode(make_game(fool=None)) + b"\n"

    result = run_settle(stdin, "--lines", "--formulas")

    assert result.returncode == 0, result.stderr
    answers = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert [len(a["handed_to_knocker"]) for a in answers] == [3, 3]


def test_the_command_scores_a_classic_dummy_hand_and_a_gong_zhu_deal():
    dummy = {
        "rules": "dummy-points",
        "players": ["Ann", "Bee"],
        "knock": {"player": "Bee", "kind": "normal"},
        "counts": {"Ann": {"table": 30, "hand": 45}, "Bee": {"table": 60}},
    }
    gong_zhu = {
        "rules": "gong-zhu",
        "players": ["Ann", "Bee", "Cat", "Dan"],
        "captured": {
            "Ann": ["SQ"],
            "Bee": ["DJ", "C10"],
            "Cat": ["H2", "H3"],
            "Dan": ["H4", "H5", "H6", "H7", "H8", "H9", "H10", "HJ", "HQ", "HK", "HA"],
        },
    }
    feed = "\n".join(json.dumps(d) for d in (dummy, gong_zhu)).encode()
    result = run_settle(feed, "--lines")
    answers = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert result.returncode == 0, result.stderr
    assert answers[0]["scores"] == {"Ann": -15, "Bee": 110}  # 30 − 45; 60 + the knock card's 50
    # Q♠ −100; J♦ +100 doubled by the 10♣; ♥2 ♥3; ♥4-♥10 −49 and J Q K A −140
    assert answers[1]["scores"] == {"Ann": -100, "Bee": 200, "Cat": -5, "Dan": -189}


def test_a_gong_zhu_card_taken_twice_is_refused_naming_the_card():
    doc = {
        "rules": "gong-zhu",
        "players": ["A", "B", "C", "D"],
        "captured": {"A": ["SQ"], "B": ["SQ"]},
    }
    result = run_settle(json.dumps(doc).encode())
    assert result.returncode == 2
    assert json.loads(result.stdout) == {
        "error": "Q♠ is listed for both A and B: one player took it"
    }


def custom(less: int, medium: int, more: int, **overrides):
    return make_game(level=None, stakes={"less": less, "medium": medium, "more": more}, **overrides)


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (custom(1, 1, 100_001), "stakes.more: must be at most 100,000"),
        (make_game(fine=100_001), "fine: must be at most 100,000"),
    ],
    ids=["a rate of 100,001", "a fine of 100,001"],
)
def test_stakes_or_a_fine_above_a_real_tables_exit_2_with_only_the_bound(game, message):
    assert assert_only_an_error_object(run_settle(encode(game))) == message


def test_stakes_and_a_fine_of_exactly_100000_settle():
    result = run_settle(encode(custom(100_000, 100_000, 100_000, fine=100_000)))

    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert sum(answer["net"].values()) == 0
    assert answer["net"]["Bee"] > 0 and answer["winners"] == ["Bee"]


def test_lines_mode_refuses_each_line_above_a_real_table_and_answers_the_others():
    games = [
        make_game(),
        custom(10**9, 10**9, 10**9),  # the largest the document reader takes
        custom(10, 20, 30, fine=10**9),
        make_game(),
    ]

    result = run_settle(b"\n".join(encode(g) for g in games), "--lines")

    assert result.returncode == BAD_INPUT
    answers = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert answers[1:3] == [
        {"error": "stakes.more: must be at most 100,000"},
        {"error": "fine: must be at most 100,000"},
    ]
    assert answers[0] == answers[3]
    assert answers[0]["net"] == {"Ann": 200, "Bee": 4200, "Cat": -2000, "Dan": -2400}
