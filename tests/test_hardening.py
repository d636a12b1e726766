"""Bounded work, no game lost, nonsense refused (the hardening issue, item by item)."""
import os
import pathlib
import subprocess
import sys

import pytest
from hypothesis import given, strategies as st

from shibumi import NotationError, ShibumiError, UnknownGameError, load
from shibumi import analysis, players, registry
from shibumi.analysis import estimate_nodes, perft
from shibumi.cli import main
from shibumi.errors import shown
from shibumi.game import SIMULTANEOUS
from shibumi.notation import parse_line
from shibumi.play import play_in_terminal
from shibumi.players import MCTSPlayer, make_player
from shibumi.registry import all_games

ROOT = pathlib.Path(__file__).resolve().parent.parent
GAMES = [cls.info.name.lower() for cls in all_games()]


def run(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "shibumi", *args], capture_output=True,
                          timeout=120, **kwargs)


# -- a name that took minutes ------------------------------------------------------

def test_a_long_game_name_is_refused_before_any_parsing():
    with pytest.raises(UnknownGameError, match="too long: at most 600"):
        load("spline" + " " * 10_000)


def test_names_are_split_without_backtracking():
    # The old pattern's work grew with the cube of these spaces; the split is linear.
    assert registry._split_spec("spline" + " " * 500) == ("spline", None)
    assert registry._split_spec("  Splade (winner='before') ") == ("splade", "winner='before'")
    assert load(" Spline   ").info.name == "Spline"


def test_a_parameter_given_twice_is_refused():
    with pytest.raises(UnknownGameError, match="winner given twice"):
        load("splade(winner='after', winner='before')")


# -- unbounded work ------------------------------------------------------------------

def test_perft_says_what_it_will_cost_and_refuses_what_cannot_finish(capsys):
    assert main(["perft", "spline", "30"]) == 2
    err = capsys.readouterr().err
    assert "would walk about" in err and "--force" in err and len(err.splitlines()) == 1
    assert main(["perft", "spline", "10000"]) == 2
    assert "at most 200" in capsys.readouterr().err


def test_the_cost_estimate_is_exact_on_a_uniform_tree():
    assert estimate_nodes(load("spline"), 2) == 1 + 16 + 16 * 15


def test_perft_memory_is_bounded_and_counts_stay_exact(monkeypatch):
    monkeypatch.setattr(analysis, "MEMO_LIMIT", 50)
    assert perft(load("spline"), 5) == 524376


@pytest.mark.parametrize("spec", ["mcts:1000001", "mcts:99999999999", "mcts:0", "mcts@0",
                                  "mcts@601", "mcts@nan", "mcts:²", "mcts:", "bogus",
                                  "m" * 100_000])
def test_player_budgets_have_bounds(spec):
    with pytest.raises(ValueError) as err:
        make_player(spec)
    assert len(str(err.value)) < 200


def test_player_specs_in_range_work():
    assert make_player("mcts:1000000").iterations == 1_000_000
    assert make_player("mcts@2.5").seconds == 2.5


def test_a_search_keeps_a_bounded_tree(monkeypatch):
    monkeypatch.setattr(players, "MAX_NODES", 40)
    game = load("spline")
    player = MCTSPlayer(iterations=400, seed=1)
    root_holder = []
    original = players._Node.__init__

    def spy(self, g, state):
        original(self, g, state)
        root_holder.append(self)

    monkeypatch.setattr(players._Node, "__init__", spy)
    assert player.choose(game, game.initial_state()) in game.legal_moves(game.initial_state())
    assert len(root_holder) <= 41                  # the root and at most 40 more


# -- games lost ------------------------------------------------------------------------

def _quit_after(moves):
    script = iter([*moves, "quit"])
    return lambda prompt: next(script)


@pytest.mark.parametrize("name, moves", [("spline", ["a1", "c1", "e1"]),
                                         ("splush", []), ("spuzzle", ["Wa1", "Ba3"])])
def test_a_terminal_game_stopped_at_any_point_resumes_to_the_same_state(name, moves):
    out = []
    game = load(name)
    first = play_in_terminal(game, ai="random", seed=4, read=_quit_after(moves),
                             write=out.append)
    line = out[-1]
    if not first.history:
        assert "nothing to save" in line
        return
    assert line.startswith(f"Game saved. To resume: shibumi play {name} --resume ")
    record = first.record()
    again = play_in_terminal(game, ai="random", seed=9, read=_quit_after([]),
                             write=out.append, record=record)
    assert game.state_key(again.state) == game.state_key(first.state)


@pytest.mark.parametrize("ending", [EOFError, KeyboardInterrupt])
def test_end_of_input_and_ctrl_c_print_the_record(ending):
    calls = iter(["a1"])

    def read(prompt):
        for text in calls:
            return text
        raise ending

    out = []
    match = play_in_terminal(load("spline"), ai="random", seed=1, read=read, write=out.append)
    assert out[-1].endswith(f"--resume '{match.record()}'") and len(match.history) == 2


def test_resume_from_the_command_line_and_a_bad_record():
    played = run("play", "spline", "--ai", "random", "--seed", "1", input=b"a1\nquit\n")
    assert played.returncode == 0
    record = played.stdout.decode().strip().splitlines()[-1].split("--resume ")[1].strip("'")
    resumed = run("play", "spline", "--ai", "random", "--resume", record, input=b"quit\n")
    assert resumed.returncode == 0 and f"--resume '{record}" in resumed.stdout.decode()
    bad = run("play", "spline", "--resume", "a1 a1")
    assert bad.returncode == 2 and b"record action 2" in bad.stderr
    assert b"Traceback" not in bad.stderr


def test_a_bad_byte_on_stdin_is_a_bad_move_not_the_end():
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8:strict"}
    env.pop("PYTHONUTF8", None)
    proc = run("play", "spline", "--ai", "random", input=b"\xff\xfe\na1\nquit\n", env=env)
    out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stderr
    assert "Not played" in out and "White plays a1" in out and "Game saved" in out


# -- nonsense accepted ---------------------------------------------------------------------

@pytest.mark.parametrize("name, text, fragment", [
    ("spline+", "WWWW/BBBB/..../....|.../.../...|../..|. 1 ply=0", "cannot have put 8"),
    ("spice", "..../..../..../....|.../.../...|../..|. 1 ply=" + "9" * 900, "not understood"),
    ("spice", "..../..../..../....|.../.../...|../..|. 1 ply=999999", "at most 1,335"),
    ("spice", "..../..../..../....|.../.../...|../..|. 1 ply=1 ply=1", "given twice"),
    ("spline", "BBB./..../..../....|.../.../...|../..|. 1", "cannot be reached"),
    ("span", "..../..../..../WB.B|.../.../...|../..|. 1", "cannot be reached"),
    ("spice", "..../..../..../....|.../.../...|../..|. 1 ply=²", "not understood"),
])
def test_impossible_states_are_refused(name, text, fragment):
    with pytest.raises(NotationError, match=fragment):
        load(name).parse_state(text)


def test_a_one_point_line_is_refused():
    with pytest.raises(NotationError, match="two or more squares"):
        parse_line("d4")


# -- rough errors ----------------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_parse_state_of_none_is_a_narrow_error(name):
    with pytest.raises(NotationError, match="is given as text"):
        load(name).parse_state(None)


@pytest.mark.parametrize("value", [None, 5, iter(range(10 ** 12))])
def test_push_joint_of_nonsense_is_a_narrow_error(value):
    match = load("spline").new_match()
    with pytest.raises(ShibumiError):
        match.push_joint(value)
    assert match.history == []


def test_errors_quote_at_most_a_little_of_the_input():
    huge = "x" * 1_000_000
    for call in (lambda: load("spline").parse_state(huge), lambda: load("spline").new_match().push(huge),
                 lambda: load(huge), lambda: parse_line(huge)):
        with pytest.raises(ShibumiError) as err:
            call()
        assert len(str(err.value)) < 300
    assert shown(huge).endswith("(1,000,000 characters)")


def test_the_cli_on_a_full_disk_and_a_closed_stdout():
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([sys.executable, "-m", "shibumi", "list"], stdout=full,
                              stderr=subprocess.PIPE, timeout=60)
    assert proc.returncode == 1 and b"No space left" in proc.stderr
    assert b"Traceback" not in proc.stderr and len(proc.stderr.splitlines()) == 1
    proc = subprocess.run(f"{sys.executable} -m shibumi list >&-", shell=True,
                          stderr=subprocess.PIPE, timeout=60)
    assert proc.returncode == 1 and b"closed" in proc.stderr and b"Traceback" not in proc.stderr


def test_the_cli_on_memory_error(monkeypatch, capsys):
    def boom(args):
        raise MemoryError
    monkeypatch.setattr("shibumi.cli._cmd_list", boom)
    assert main(["list"]) == 1
    assert "out of memory" in capsys.readouterr().err


def test_no_command_prints_help(capsys):
    assert main([]) == 0
    assert "usage: shibumi" in capsys.readouterr().out


# -- two test runs at once ------------------------------------------------------------------

def test_book_builds_take_a_lock():
    """Two builds at once on a stale book used to collide in the notebook cache;
    every build now runs under one lock file, so the second waits for the first."""
    makefile = (ROOT / "Makefile").read_text()
    build = [line for line in makefile.splitlines() if line.startswith("BOOK_BUILD :=")][0]
    assert "flock" in build and "_build/.lock" in makefile


# -- any input, any game -------------------------------------------------------------------

junk = st.one_of(st.text(max_size=80), st.binary(max_size=20), st.integers(), st.none(),
                 st.floats(), st.lists(st.text(max_size=5), max_size=3))


@pytest.mark.parametrize("name", GAMES)
@given(value=junk)
def test_any_input_gives_narrow_errors_and_leaves_the_state(name, value):
    game = load(name)
    try:
        game.parse_state(value)
    except ShibumiError:
        pass
    match = game.new_match(seed=1)
    before, history = match.state, list(match.history)
    rng_state = match.rng.getstate()
    try:
        if match.current_player == SIMULTANEOUS:
            match.push_joint(value)
        else:
            match.push(value)
    except ShibumiError:
        assert match.state is before and match.history == history
        assert match.rng.getstate() == rng_state
