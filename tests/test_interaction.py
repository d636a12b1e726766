"""The interaction model every front end uses (shibumi.interaction.Table) and the
engine's side of the book's boards (shibumi.webboard)."""
from __future__ import annotations

import dataclasses
import json
import random

import pytest

from shibumi.book import game_module
from shibumi.errors import ShibumiError
from shibumi.game import SIMULTANEOUS
from shibumi.interaction import STRENGTHS, Table, parse_ai
from shibumi.maths.solve import move_values
from shibumi.registry import all_games, load, names
from shibumi import webboard


def play_random_views(table: Table, rng: random.Random, limit: int = 2000) -> dict:
    """Drive a table the way a board does: read the view, pick one of its options."""
    for _ in range(limit):
        view = table.view()
        json.dumps(view)                                   # plain data, always
        if view["over"]:
            return view
        if view["cover"]:
            assert view["balls"] == [] and view["options"] == [] and view["status"] == []
            table.reveal()
            continue
        if view["ai_due"]:
            table.ai_step(version=view["version"])
            continue
        assert view["options"], view["turn"]
        option = rng.choice(view["options"])
        assert table.choose(option["index"], version=view["version"]) is not None, table.message
    raise AssertionError(f"{table.game.info.name} did not end in {limit} actions")


@pytest.mark.parametrize("name", names())
def test_every_game_plays_to_the_end_through_views(name):
    table = Table(name, seats="human", ai="beginner", seed=1)
    end = play_random_views(table, random.Random(2))
    assert end["result"] and end["history"] and end["record"] == table.match.record()
    assert [h["number"] for h in end["history"]] == list(range(1, len(end["history"]) + 1))


@pytest.mark.parametrize("name", ["spline", "spanic", "spy", "spindizzy", "splush"])
def test_human_against_the_ai_through_views(name):
    table = Table(name, ai="beginner", seed=3)
    play_random_views(table, random.Random(4))


def test_a_stale_action_is_refused_and_nothing_changes():
    table = Table("spline", seats="human")
    old = table.version
    assert table.click("c3", version=old) is not None
    after = table.match.state
    for action in (lambda: table.click("a1", version=old),
                   lambda: table.choose(0, version=old),
                   lambda: table.ai_step(version=old)):
        assert action() is None and "earlier position" in table.message
        assert table.match.state is after


def test_input_waits_for_the_ai_and_the_ai_waits_for_its_turn():
    table = Table("spline", seats=["human", "ai"], ai="random", seed=1)
    assert not table.ai_due
    table.click("a1")
    assert table.ai_due and table.click("c1") is None and "Wait" in table.message
    assert len(table.match.history) == 1
    table.run_ai()
    assert not table.ai_due and len(table.match.history) == 2
    assert webboard.json.loads(webboard.handle("open", '{"board": "w", "game": "spline"}'))
    # the board's "ai" request plays nothing when no AI seat is due
    reply = json.loads(webboard.handle("ai", '{"board": "w"}'))
    assert reply["view"]["history"] == []


def test_two_humans_with_secrets_pass_the_device():
    table = Table("spanic", seats=["human", "human", "ai"], seed=5)
    view = table.view()
    assert view["cover"] and "Player 1" in view["cover"] and view["balls"] == []
    assert table.click("a1") is None                     # covered: nothing happens
    table.reveal()
    hands = " ".join(table.view()["status"])
    assert "Player 2 ??" in hands and "Player 1 ?" not in hands
    table.choose(0)
    assert table.covered or table.ai_due or table.match.current_player == 0


def test_a_record_with_hidden_draws_is_not_shown_before_the_end():
    table = Table("spanic", seats=["human", "ai", "ai"], ai="beginner", seed=5)
    view = table.view()
    assert view["record_secret"] and view["record"]        # kept for resuming, marked secret
    play_random_views(table, random.Random(1))
    assert not table.view()["record_secret"]
    assert not Table("spline").view()["record_secret"]


def test_simultaneous_choices_stay_secret_until_all_are_made():
    table = Table("spindizzy", seats="human", seed=2)
    table.reveal()
    assert table.match.current_player == SIMULTANEOUS
    first = table.choose(0)
    assert first is not None and table.match.history == [] and table.covered
    view = table.view()
    assert view["chosen"] == [0] and first.text() not in json.dumps(view["history"])


def test_the_other_set_is_shown_beside_the_set_in_play():
    """Spair is played on two sets: the view carries the set not in play, and
    nothing of it while the board is covered."""
    table = Table("spair", seats="human", seed=1)
    view = table.view()
    assert [b["label"] for b in view["boards"]] == ["Set B: a line here wins for Player 1"]
    assert view["boards"][0]["balls"] == []
    first = table.choose(0)                            # a ball on set A, then one on set B
    view = table.view()
    assert view["boards"][0]["label"].startswith("Set A")
    assert [b["point"] for b in view["boards"][0]["balls"]] == [first.point]
    assert Table("spline").view()["boards"] == []      # one set: nothing beside it
    hidden = Table("spanic", seats="human", seed=1)
    assert hidden.covered and hidden.view()["boards"] == []


def test_strengths_and_bad_settings():
    assert [s[0] for s in STRENGTHS] == ["beginner", "easy", "medium", "strong", "strongest"]
    assert parse_ai("beginner") == ("random", None, None)
    assert parse_ai("mcts@2") == ("mcts", None, 2.0)
    for bad in ("grandmaster", "mcts:0", "mcts@900", 3):
        with pytest.raises(ValueError):
            parse_ai(bad)
    table = Table("spline")
    with pytest.raises(ValueError):
        table.set_seat(5, "human")
    with pytest.raises(ValueError):
        table.set_seat(0, "robot")
    with pytest.raises(ShibumiError):
        Table("spice").set_values(True)                 # not solved here


def test_spline_values_are_the_solvers():
    table = Table("spline", seats="human")
    for text in "a1 c5 a3 e1 c1 g7 c3".split():
        table.choose(text)
    table.set_values(True)
    view = table.view()
    exact = move_values(table.match.state.position)
    options = table.options()
    for index, text in view["values"].items():
        value = exact[options[int(index)].point]
        assert text == {"win": "wins", "loss": "loses", "draw": "draws"}[value.result] \
            + f" (ball {value.length})"
    assert len(view["values"]) == len(view["options"])


def test_splastwo_values_agree_with_the_solve():
    from shibumi.maths.splastwo import solve

    table = Table("splastwo", seats="human")
    table.set_values(True)
    values = table.view()["values"]
    best = solve()["value"]
    margins = [int(v.split()[-1]) * (1 if v.startswith("wins") else -1) for v in values.values()]
    assert max(margins) == best


def test_webboard_requests():
    def ask(op, **args):
        return json.loads(webboard.handle(op, json.dumps(args)))

    opened = ask("open", board="t", game="splade")
    assert opened["view"]["game"]["module"] == "splade" and len(opened["geometry"]["points"]) == 30
    assert [m for m, _, _ in opened["games"]] == [game_module(cls()) for cls in all_games()]
    assert "error" in ask("open", board="t", game="nosuchgame")
    assert "error" in ask("click", board="nope", point=3)
    assert "error" in ask("click", board="t")                     # no point
    assert ask("click", board="t", point=99)["view"]["error"]
    assert "error" in json.loads(webboard.handle("open", "[1, 2]"))
    assert "error" in json.loads(webboard.handle("open", "{not json"))
    record = ask("open", board="r", game="spline", record="Wa1 Bc3.0")["view"]["record"]
    assert record == "Wa1 Bc3.0"
    assert "error" in ask("open", board="r2", game="spline", record="a1 a1")


class _SecretSpline(load("spline").__class__):
    """Spline where White's balls are announced only as 'placed a ball' (a test game)."""
    info = dataclasses.replace(load("spline").info, hidden_information=True)

    def secret_move(self, state, move):
        return "placed a ball" if state.to_move == 0 else None

    def determinise(self, observation, player, rng):
        return observation                  # nothing is really hidden in this test game


def test_a_secret_move_is_read_only_by_its_mover_until_the_end():
    table = Table(_SecretSpline(), seats="human", seed=1)
    table.reveal()
    table.click("a1")                                  # White's secret move
    view = table.view()
    shown = {k: v for k, v in view.items() if k != "record"}   # kept to resume, not shown
    assert view["cover"] and "a1" not in json.dumps(shown) and view["record_secret"]
    assert "placed a ball" in table.message
    table.reveal()                                     # Black looks
    view = table.view()
    assert view["history"] == [{"number": 1, "text": "White placed a ball"}]
    assert view["last"] == [] and view["record_secret"]
    table.click("c3")
    table.reveal()                                     # White looks again: reads their own move
    assert table.view()["history"][0]["text"] == "White a1"
    alone = Table(_SecretSpline(), seats=["ai", "human"], ai="mcts:20", seed=2)
    alone.run_ai()
    assert alone.view()["history"][0]["text"] == "White placed a ball"
    assert "placed a ball" in alone.message


def test_a_cooperative_game_is_won_or_lost_together():
    table = Table("sprout(players=2)", seats="human", seed=3)
    end = play_random_views(table, random.Random(3))
    assert end["result"].startswith(("Won together!", "Lost together.")), end["result"]
    assert "Draw" not in end["result"]


def test_the_strongest_ai_plays_a_solved_game_perfectly_and_keeps_its_tree():
    from shibumi.players import MCTSPlayer, PerfectPlayer
    table = Table("spline", seats=["ai", "human"], ai="strongest", seed=1)
    table.ai_step()
    assert isinstance(table._players[0], PerfectPlayer)
    assert isinstance(Table("spline", ai="perfect", seed=1)._player(), PerfectPlayer)
    with pytest.raises(ValueError, match="only solved games.*not Spice"):
        Table("spice", ai="perfect")
    assert not isinstance(Table("spice", ai="strongest")._player(), PerfectPlayer)
    search = Table("span", seats=["ai", "human"], ai="mcts:300", seed=2)
    search.ai_step()
    player = search._players[0]
    assert isinstance(player, MCTSPlayer) and player.root.visits == 300
    search.click(search.view()["playable"][0])
    search.ai_step()
    assert search._players[0] is player and player.root.visits > 300    # the tree went on


def test_a_secret_kept_from_every_player_needs_no_cover():
    """Imbriqua's deck order is hidden from both players alike: two humans at one
    screen see the same things, so the board is never covered between them."""
    table = Table("imbriqua", seats="human", seed=1)
    for _ in range(6):
        assert not table.covered and table.view()["cover"] is None
        table.choose(0)
    assert Table("spanic", seats="human", seed=1).covered        # a private hand: covered
