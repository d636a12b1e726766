"""The live play widget: clicks, the move list, undo, the AI, every game to the end.

No browser: the tests drive the widget through its Python API (the same
calls its buttons and the 3D view's picker make) and inspect the pythreejs
scene and the ipywidgets it would send.
"""
from dataclasses import dataclass
from urllib.parse import unquote

import pytest

pytest.importorskip("pythreejs")
widgets = pytest.importorskip("ipywidgets")

from shibumi import ShibumiError, load  # noqa: E402
from shibumi.game import CHANCE, SIMULTANEOUS, TERMINAL, Game, GameInfo, Outcome, State  # noqa: E402
from shibumi.geometry import POINTS  # noqa: E402
from shibumi.notation import Move, parse_point, short_text  # noqa: E402
from shibumi.position import BLACK, EMPTY, RED, WHITE  # noqa: E402
from shibumi.registry import all_games  # noqa: E402
from shibumi.views.play import PlayWidget, move_labels  # noqa: E402


def scene(w):
    """What the 3D view shows: (visible, material) of every ball mesh."""
    return [(m.visible, m.material if m.visible else None) for m in w.view.balls]


def assert_scene_matches(w):
    pos = w.match.state.position
    if w.game.board.kind == "grid":          # a grid's view: one mesh a piece and character
        board = w.game.board
        shown = sorted(m.name for m in w.view.piece_group.children)
        wanted = sorted([f"{p['kind']} {board.name(p['point'])}" for p in board.pieces(pos)
                         if p["kind"] in ("stone", "pawn")]
                        + [f"character {board.name(p['point'])}" for p in board.pieces(pos)
                           if p.get("character")])
        assert shown == wanted
        return
    for p in POINTS:
        mesh = w.view.ball_mesh(p)
        colour = pos.colour_at(p)
        if colour == EMPTY or pos.hidden() >> p & 1:
            assert not mesh.visible, p
        else:
            assert mesh.visible and mesh.material is w.view.materials[colour], p


# -- Spline ------------------------------------------------------------------------

def test_click_places_a_ball_in_the_position_and_the_scene():
    w = PlayWidget("spline", seats="human")
    assert not w.view.ball_mesh("c3.0").visible
    move = w.click("c3")
    assert move == Move("Wc3.0")
    c3 = parse_point("c3.0")
    assert w.match.state.position.colour_at(c3) == WHITE
    mesh = w.view.ball_mesh(c3)
    assert mesh.visible and mesh.material is w.view.materials[WHITE]
    assert w.view.last_group.children                       # the last move is ringed
    assert "Black (Human) to move" in w.status
    # the markers follow the empty playable points
    markers = {w.view.point_of(m) for m in w.view.playable_group.children}
    assert markers == {p for p in range(16) if p != c3}
    assert_scene_matches(w)


def test_ai_replies_when_seat_two_is_ai_and_is_reproducible():
    runs = []
    for _ in range(2):
        w = PlayWidget("spline", seats=["human", "ai"], ai="mcts:150", seed=7, budget=60)
        w.click("c3")
        assert len(w.match.history) == 2                     # White's ball and Black's reply
        assert w.match.current_player == 0
        reply = w.match.history[-1][0]
        assert w.view.ball_mesh(reply.point).material is w.view.materials[BLACK]
        assert "(AI) played" in w.message
        assert_scene_matches(w)
        runs.append(reply)
    assert runs[0] is runs[1]


def test_undo_returns_to_the_earlier_position_and_scene():
    w = PlayWidget("spline", seats=["human", "ai"], ai="mcts:50", seed=1)
    w.click("a1")
    before, shown = w.match.state.position, scene(w)
    w.click("g7" if w.match.state.position.colour_at(parse_point("g7")) == EMPTY else "e7")
    assert len(w.match.history) == 4
    assert w.undo()                      # takes back the AI's reply and the human's move
    assert w.match.state.position == before and len(w.match.history) == 2
    assert scene(w) == shown
    assert w.undo() and w.match.state.position.occupied == 0
    assert not any(m.visible for m in w.view.balls)
    assert not w.undo() and "Nothing to undo" in w.message


def test_an_illegal_click_changes_nothing_and_says_why():
    w = PlayWidget("spline", seats="human")
    w.click("a1")
    state, shown = w.match.state, scene(w)
    assert w.click("a1") is None                    # occupied
    assert "No legal move uses the ball on a1" in w.message
    assert w.click("d4.1") is None                  # not playable yet
    assert "not playable" in w.message
    assert w.click("h9") is None                    # not a point at all
    assert w.match.state is state and scene(w) == shown
    assert w.choose("a1") is None and "not a legal move" in w.message
    assert w.match.state is state


def test_the_picker_drives_the_widget():
    """A pick in the 3D view (what a double-click does) reaches click()."""
    w = PlayWidget("spline", seats="human")
    marker = next(m for m in w.view.playable_group.children if w.view.point_of(m) == 5)
    w.view.picker.object = marker
    assert w.match.state.position.colour_at(5) == WHITE
    w.view.picker.object = w.view.ball_mesh(5)      # the ball just placed: illegal
    assert "No legal move" in w.message and len(w.match.history) == 1


def test_the_move_list_and_buttons():
    w = PlayWidget("spline", seats="human", ai="random")
    labels = [label for label, _ in w._moves_w.options]
    assert len(labels) == 16 and "a1" in labels and "c3" in labels
    w._moves_w.value = Move("We5.0")
    w._play_b.click()
    assert w.match.moves() == [Move("We5.0")]
    w._undo_b.click()
    assert w.match.moves() == []
    w._ai_b.click()
    assert len(w.match.moves()) == 1
    w._new_b.click()
    assert w.match.moves() == []
    assert isinstance(w.widget, widgets.Box) and w.view.widget in w.widget.children
    assert hasattr(w, "_ipython_display_")


def test_switching_a_seat_to_ai_makes_it_move():
    w = PlayWidget("span", seats="human", ai="random", seed=2)
    w.click("a1")
    w._seat_widgets[1].value = "ai"
    assert w.seats == ("human", "ai") and len(w.match.history) == 2
    assert w.match.current_player == 0


def test_the_game_over_is_reported():
    w = PlayWidget("spline", seats="human")
    for move in ["a1", "a3", "c1", "c3", "e1", "e3", "g1"]:
        w.choose(move)
    assert w.match.is_over()
    assert "Game over. White won" in w.status
    assert w.click("g3") is None and "The game is over" in w.message
    assert not w.view.playable_group.children and w._ai_b.disabled


# -- other move kinds ---------------------------------------------------------------

def test_spree_colour_choice_then_placement():
    w = PlayWidget("spree", seats="human")
    assert sorted(label for label, _ in w._moves_w.options) == ["=B", "=R", "=W"]
    assert w.click("c3") is None and "choose from the list" in w.message
    assert w.choose("=R") == Move.choose(RED)
    assert w.click("c3") == Move("Rc3.0")
    assert w.view.ball_mesh("c3.0").material is w.view.materials[RED]
    assert "=R" not in [label for label, _ in w._moves_w.options]   # barred now


def test_spline_plus_relocation_by_two_clicks():
    w = PlayWidget("spline+", seats="human")
    for move in ["a1", "c1", "c3", "e1", "e3", "g1"]:
        w.choose(move)
    assert w.click("a1") is None                       # which target?
    assert "Moving the ball on a1" in w.message
    assert all(m.point == parse_point("a1") for m in w.options)
    assert w.view.mark_group.children                 # the source is marked
    d2 = parse_point("d2")
    assert d2 in {w.view.point_of(m) for m in w.view.playable_group.children}
    assert w.click("d2") == Move("a1>d2")
    pos = w.match.state.position
    assert pos.colour_at(0) == EMPTY and pos.colour_at(d2) == WHITE
    assert not w.view.ball_mesh("a1").visible and w.view.ball_mesh(d2).visible
    assert not w.view.mark_group.children
    # An empty point that a new ball or a relocated one may fill: a second click
    # on it places the new ball.
    assert w.click("e5") is None and "click e5 again" in w.message
    assert w.click("e5") == Move("Be5.0")


def test_spline_plus_target_then_source_and_a_wrong_second_click():
    w = PlayWidget("spline+", seats="human")
    for move in ["a1", "c1", "c3", "e1", "e3", "g1"]:
        w.choose(move)
    state = w.match.state
    assert w.click("d2") is None                      # place Wd2 or move a1 there
    assert w.click("g1") is None and "No legal move joins d2 and g1" in w.message
    assert w.match.state is state
    w.click("d2")
    assert w.click("a1") == Move("a1>d2")


def test_spaiji_two_part_turn():
    w = PlayWidget("spaiji", seats="human")
    assert w.click("c3") is None and "2 moves use c3:" in w.message
    assert {label for label, _ in w._moves_w.options} == {"Wc3", "Bc3"}
    assert w.choose("Wc3") == Move("Wc3.0")
    assert w.match.current_player == 0                # same player, second ball
    partners = {m.point for m in w.options}
    assert partners and all(m.colour == BLACK for m in w.options)
    markers = {w.view.point_of(m) for m in w.view.playable_group.children}
    assert markers == partners
    assert w.click("c1") == Move("Bc1")
    assert w.match.current_player == 1


def test_splush_entry_and_removal_by_clicks():
    w = PlayWidget("splush", seats="human")
    assert w.click("b4") == Move("Wb4+e")             # one entry at b4: played
    assert w.match.state.position.colour_at(parse_point("b4")) == WHITE
    assert w.view.ball_mesh("b4").material is w.view.materials[WHITE]
    assert w.click("b2") is None                      # b2: from the north or the east
    assert {m.direction for m in w.options} == {"n", "e"}


def test_sploof_removal_by_click():
    w = PlayWidget("sploof", seats="human")
    assert "Stocks: White 2 balls, Black 2 balls." in w.status
    assert "State:" not in w.status and "stock 2 2" not in w.status
    assert w.click("a1") == Move("xa1")
    assert not w.view.ball_mesh("a1").visible


# -- whole games --------------------------------------------------------------------

def test_spinimax_three_ai_seats_play_to_the_end():
    w = PlayWidget("spinimax", seats=["ai"] * 3, ai="mcts:20", seed=3)
    assert w.match.history == []                      # nothing moves by itself
    while not w.match.is_over():
        w.ai_move()
    assert len(w.match.history) == 16
    assert "Game over" in w.status and "won" in w.status
    assert_scene_matches(w)


@pytest.mark.parametrize("cls", all_games(), ids=lambda c: c.info.name)
def test_every_game_plays_to_the_end_in_the_widget(cls):
    w = PlayWidget(cls, seats="ai", ai="random", seed=11)
    n = w.play_out()
    assert w.match.is_over() and 0 < n <= cls.info.max_length
    assert w.status.startswith("Game over.")
    assert_scene_matches(w)
    assert w.undo() and not w.match.is_over()


def test_labels_are_the_shortest_texts():
    for name in ("spline+", "spaiji", "splush", "spree"):
        m = load(name).new_match(seed=1)
        import random
        rng = random.Random(5)
        for _ in range(12):
            if m.is_over():
                break
            legal = m.legal_moves()
            labels = move_labels(legal)
            assert all(labels[x] == short_text(x, legal) for x in legal)
            m.push(rng.choice(legal))


def test_bad_arguments():
    with pytest.raises(ValueError):
        PlayWidget("spline", seats=["human"])
    with pytest.raises(ValueError):
        PlayWidget("spline", seats=["human", "robot"])
    with pytest.raises(ValueError):
        PlayWidget("spline", ai="alphazero")
    with pytest.raises(ValueError):
        PlayWidget("spline", budget=0)
    with pytest.raises(ValueError):
        PlayWidget("nosuchgame")


# -- chance, hidden information and simultaneous choices (small games of our own) ------

@dataclass(frozen=True)
class SecretState(State):
    secrets: tuple = ()


class Secrets(Game):
    """Each player draws a secret number (chance), then both place two balls on
    the board; the higher secret wins.  Each player sees only their own number."""
    info = GameInfo(name="Secrets", designer="test", year="2024", family="test",
                    source="test", summary="A test game with hidden draws.",
                    chance=True, hidden_information=True, max_length=6)

    def initial_state(self, rng=None):
        return SecretState()

    def current_player(self, state):
        if state.result is not None:
            return TERMINAL
        return CHANCE if len(state.secrets) < 2 else state.to_move

    def chance_outcomes(self, state):
        return [(Move.choose(value=v), 0.2) for v in (11, 22, 33, 44, 55)]

    def legal_moves(self, state, player=None):
        if self.current_player(state) < 0:
            return []
        colour = (WHITE, BLACK)[state.to_move]
        return [Move.place(p, colour) for p in range(16)
                if not state.position.occupied >> p & 1]

    def apply(self, state, move):
        if move.kind == "choose":
            return SecretState(state.position, 0, None, move, state.secrets + (move.value,))
        position = state.position.place(move.point, move.colour)
        result = None
        if position.occupied.bit_count() == 4:
            a, b = state.secrets
            result = Outcome(() if a == b else ((0,) if a > b else (1,)), "secrets compared",
                             (float(a), float(b)))
        return SecretState(position, 1 - state.to_move, result, move, state.secrets)

    def observe(self, state, player):
        masked = tuple(s if i == player else None for i, s in enumerate(state.secrets))
        return SecretState(state.position, state.to_move, state.result, state.last, masked)

    def extra_text(self, state):
        return "secrets " + " ".join("?" if s is None else str(s) for s in state.secrets)

    def status_lines(self, state):
        return [self.extra_text(state)]


def test_hidden_information_and_chance():
    w = PlayWidget(Secrets(), seats=["human", "ai"], ai="random", seed=4)
    mine, theirs = w.match.state.secrets
    assert w.match.current_player == 0
    assert f"secrets {mine} ?" in w.status and str(theirs) not in w.status.split("secrets")[1]
    assert "2 hidden draws" in w._history_w.value and str(theirs) not in w._history_w.value
    assert not w.undo()                                  # only chance so far: stays put
    assert w.match.current_player == 0
    w.click("a1")
    w.click("c1")
    assert w.match.is_over()
    assert f"secrets {mine} {theirs}" in w.status and "Scores" in w.status


@dataclass(frozen=True)
class DuelState(State):
    rounds: int = 0


class Duel(Game):
    """Both players pick a board hole at once: different holes get both balls,
    the same hole a red ball.  Two rounds; more balls on the board wins."""
    info = GameInfo(name="Duel", designer="test", year="2024", family="test",
                    source="test", summary="A test game of simultaneous choices.",
                    simultaneous=True, max_length=2)

    def initial_state(self, rng=None):
        return DuelState()

    def current_player(self, state):
        return TERMINAL if state.result is not None else SIMULTANEOUS

    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        colour = (WHITE, BLACK)[player or 0]
        return [Move.place(p, colour) for p in range(16)
                if not state.position.occupied >> p & 1]

    def apply_joint(self, state, moves):
        a, b = moves
        pos = state.position
        if a.point == b.point:
            pos = pos.place(a.point, RED)
        else:
            pos = pos.place(a.point, WHITE).place(b.point, BLACK)
        rounds = state.rounds + 1
        result = None
        if rounds == 2:
            w, k = pos.count(WHITE), pos.count(BLACK)
            result = Outcome(() if w == k else ((0,) if w > k else (1,)), "count")
        return DuelState(pos, 0, result, None, rounds)


def test_simultaneous_choices_human_against_ai():
    w = PlayWidget(Duel(), seats=["human", "ai"], ai="random", seed=5)
    assert w._secret_box.children and w._list_box.layout.display == "none"
    assert w.click("a1") == Move("Wa1")                  # locked in, AI chooses, played
    assert len(w.match.history) == 1 and isinstance(w.match.history[0][0], tuple)
    assert "Choices revealed" in w.message
    assert w.view.ball_mesh("a1").visible
    w.choose("c1")
    assert w.match.is_over() and not w._secret_box.children


def test_simultaneous_choices_between_two_humans_stay_secret():
    w = PlayWidget(Duel(), seats="human")
    assert "Pass the device to White" in w._cover_w.value and not w._secret_box.children
    assert w.choose("a1") is None                        # nobody has shown the board yet
    w.reveal()
    assert w.choose("a1") == Move("Wa1")
    assert w.match.history == []                         # waiting for Black, behind a cover
    assert "Pass the device to Black" in w._cover_w.value
    assert "a1" not in w.status and "a1" not in w._history_w.value
    assert not w.view.ball_mesh("a1").visible
    assert w.choose("c1", player=1) is None              # covered: nothing is chosen
    w.reveal()
    rows = w._secret_box.children
    assert any("chosen (hidden)" in getattr(r, "value", "") for r in rows)
    assert w.choose("a1", player=1) == Move("Ba1")       # same hole: a red ball
    assert w.match.state.position.colour_at(0) == RED
    # the Lock-in button of a row does the same
    w.reveal()
    row = next(r for r in w._secret_box.children if isinstance(r, widgets.HBox))
    dropdown, button = row.children
    dropdown.value = Move("Wc1")
    button.click()
    assert w.undo() and w._secret == {}                 # undo clears pending choices
    assert len(w.match.history) == 1


def test_input_is_locked_while_the_ai_thinks_and_old_picks_are_refused():
    w = PlayWidget("spline", seats=["human", "ai"], ai="mcts:30", seed=2)
    locked = []
    real = w.table.run_ai

    def watch():
        locked.append((w._moves_w.disabled, w._play_b.disabled))
        return real()

    w.table.run_ai = watch
    w.click("a1")
    assert locked == [(True, True)] and not w._moves_w.disabled
    stale = w._listed_version - 1                        # a pick made on the list before
    assert w.table.choose(w.options[0], version=stale) is None
    assert "earlier position" in w.message and len(w.match.history) == 2


def test_a_live_game_resumes_from_its_link():
    """The page shows a link with the game's record; opening it rebuilds the game."""
    w = PlayWidget("spline", seats=["human", "human"], link="/voila/render/play.ipynb?game=spline")
    w.choose("a1")
    w.choose("c3")
    link = w.resume_link()
    assert link == "/voila/render/play.ipynb?game=spline&record=Wa1%20Bc3.0"
    assert "Link to this game" in w._link_w.value
    record = unquote(link.split("record=")[1])
    again = PlayWidget("spline", seats=["human", "human"], record=record)
    assert again.match.state == w.match.state
    with pytest.raises(ShibumiError):
        PlayWidget("spline", record="a1 a1")


def test_an_agent_in_spy_sees_and_plays_on_their_own_set():
    w = PlayWidget("spy", seats=["ai", "human", "ai"], seed=3)
    state = w.match.state
    own = state.boards[0]                          # seat 2 is the first Agent
    assert w._shown_position() == own
    assert w.match.game.board_of(state, 0) == state.position     # the Master's code
