"""The command line, run as a user would (in a subprocess) and in-process."""
import json
import subprocess
import sys

import pytest

from shibumi import load
from shibumi.cli import main
from shibumi.play import play_in_terminal


def run(*args):
    return subprocess.run([sys.executable, "-m", "shibumi", *args],
                          capture_output=True, text=True, timeout=120)


def test_list_shows_every_game_with_metadata(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "Spline" in out and "Romeral Andrés (2011)" in out and "Connection" in out
    assert main(["list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["name"] for r in rows} >= {"Spline", "Span"}
    assert all(r["designer"] and r["year"] and r["family"] for r in rows)


def test_rules_prints_rules_and_notes(capsys):
    assert main(["rules", "span"]) == 0
    out = capsys.readouterr().out
    assert "Rules notes" in out and "overpasses cut underpasses" in out


def test_perft_from_start_and_from_a_position():
    assert run("perft", "spline", "4").stdout.strip() == "43680"
    done = run("perft", "spline", "2", "--position",
               "..../..../BBB./WWWW|.../.../...|../..|. 2")
    assert done.stdout.strip() == "0"
    assert run("perft", "span", "0").stdout.strip() == "1"
    divide = run("perft", "span", "3", "--divide").stdout.split("\n")
    assert divide[0] == "Wa1: 210" and divide[16] == "3360"


def test_playouts_json():
    proc = run("playouts", "spline", "--seconds", "0.5", "--seed", "3", "--json")
    data = json.loads(proc.stdout)
    assert set(data) == {"games", "mean_length", "wins", "playouts_per_second"}
    assert sum(data["wins"].values()) == data["games"] > 0
    assert set(data["wins"]) <= {"White", "Black", "draw"}
    assert 7 <= data["mean_length"] <= 30


@pytest.mark.parametrize("args, fragment", [
    (["perft", "nosuchgame", "2"], "unknown game"),
    (["perft", "spline", "2", "--position", "garbage"], "player to move"),
    (["perft", "spline", "2", "--position", "garbage 1"], "4 levels"),
    (["perft", "spline", "x"], "invalid int"),
    (["playouts", "spline", "--seconds", "-1"], "positive"),
    (["playouts", "spline", "--bogus"], "unrecognized"),
    (["frobnicate"], "invalid choice"),
    (["rules", "spline(colour=3)"], "no parameter"),
])
def test_errors_are_one_line_without_traceback(args, fragment):
    proc = run(*args)
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0] and "Traceback" not in proc.stderr


def test_play_in_the_terminal_with_undo():
    script = iter(["zz", "moves", "a1", "undo", "c1", "quit"])
    out = []
    play_in_terminal(load("spline"), ai="random", seed=1,
                     read=lambda prompt: next(script), write=out.append)
    text = "\n".join(out)
    assert "Not played" in text and "a1 a3" in text
    assert text.count("Black plays") == 2     # one reply undone, then one more


def test_play_against_the_ai_to_the_end():
    answers = iter(["a1", "c1", "e1", "g1", "a3", "c3", "e3", "g3", "a5", "c5", "e5",
                    "g5", "a7", "c7", "e7", "g7"] * 3)
    out = []

    def read(prompt):
        # Play the first legal square from a fixed list; skip taken ones.
        return next(answers)

    play_in_terminal(load("span"), ai="mcts:50", seed=2, read=read, write=out.append)
    assert "Game over" in out[-1]


def test_verify_span_json():
    pytest.importorskip("numpy")
    proc = run("verify", "span", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data == {"colourings": 2 ** 25, "white": 2 ** 24, "black": 2 ** 24,
                    "both": 0, "neither": 0}


def test_solve_spline_json():
    proc = run("solve", "spline", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["winner"] == 2 and data["length"] == 26
    assert len(data["principal_variation"]) == 26


# -- the arena ----------------------------------------------------------------------

def test_arena_json_counts_every_game_and_rotates_the_seats(capsys):
    assert main(["arena", "spline", "--players", "mcts:40,random", "--games", "6",
                 "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 6 and data["players"] == ["mcts:40", "random"]
    assert set(data["wins"]) == {"mcts:40", "random", "draw"}
    assert sum(data["wins"].values()) == 6 and sum(data["by_seat"]) + data["wins"]["draw"] == 6
    assert data["wins"]["mcts:40"] >= 4                     # the search beats random moves
    low, high = data["interval"]["mcts:40"]
    assert low <= data["win_rate"]["mcts:40"] <= high
    assert "scores" not in data                              # Spline does not score
    again = main(["arena", "spline", "--players", "mcts:40,random", "--games", "6",
                  "--seed", "3", "--json"])
    assert again == 0 and json.loads(capsys.readouterr().out) == data   # reproducible


def test_arena_same_specs_are_named_by_place_and_scores_are_kept(capsys):
    assert main(["arena", "spao", "--players", "random,random,random", "--games", "3",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["wins"]) == {"1", "2", "3", "draw"} and set(data["scores"]) == {"1", "2", "3"}


def test_arena_perfect_against_mcts_and_the_text_report():
    proc = run("arena", "spline", "--players", "mcts:30,perfect", "--games", "2", "--seed", "1")
    assert proc.returncode == 0, proc.stderr
    assert "Spline: 2 games, seats rotated" in proc.stdout and "perfect" in proc.stdout
    assert "95%" in proc.stdout


@pytest.mark.parametrize("args,words", [
    (["spline", "--players", "mcts:x,random"], "bad player 'mcts:x'"),
    (["spline", "--players", "mcts:10,,random"], "specs separated by commas"),
    (["spice", "--players", "perfect,random"], "'perfect' plays only solved games"),
    (["spline", "--players", "random"], "Spline is for 2 player(s); 1 were given"),
    (["spline", "--players", "random,random", "--games", "0"], "1 to 100,000 games"),
])
def test_arena_bad_input_is_one_line(args, words):
    proc = run("arena", *args)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and words in proc.stderr


def test_solve_span_json():
    """Span, the Hex of the set: White wins with the 13th ball, and only from the centre."""
    proc = run("solve", "span", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["winner"] == 1 and data["length"] == 13
    assert sorted(data["winning_first_moves"]) == ["c3.0", "c5.0", "e3.0", "e5.0"]
    assert len(data["principal_variation"]) == 13


def test_solve_spodd_json():
    """Spodd: White wins; every game fills the pyramid, 28 balls placed."""
    proc = run("solve", "spodd", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["winner"] == 1 and data["length"] == 28
    assert "Wc1 Bc3.0" in data["winning_first_moves"]
    assert len(data["winning_first_moves"]) == 8 and len(data["principal_variation"]) == 28


def test_solve_text_for_the_placement_games(capsys, monkeypatch):
    """The text report of a placement game's solution (the solver stubbed: the
    real solves are in tests/test_maths_placement_solve.py)."""
    from shibumi.maths import placement_solve
    canned = {"winner": 1, "length": None, "winning_first_moves": ["c1", "pass"],
              "principal_variation": ["c1", "a1"], "nodes": 5, "seconds": 0.1}
    monkeypatch.setitem(placement_solve.SOLVERS, "sponnect", lambda progress=None: canned)
    assert main(["solve", "sponnect"]) == 0
    out = capsys.readouterr().out
    assert "Sponnect under perfect play: White (player 1) wins." in out
    assert "Winning first moves: c1 pass" in out
    monkeypatch.setitem(placement_solve.SOLVERS, "sparro",
                        lambda progress=None: dict(canned, length=24))
    assert main(["solve", "sparro", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["length"] == 24


def test_solve_refuses_an_unsolved_game_in_one_line():
    proc = run("solve", "spava")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "invalid choice: 'spava'" in proc.stderr
