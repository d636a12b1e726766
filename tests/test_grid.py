"""The square grid board type holds to what the pyramid holds to: names, lines and
symmetries, position text that round-trips, move text, narrow errors; and the model,
the interaction layer, the views and the in-page board ask the game's board."""
import json
import pickle
import random

import pytest

from conformance import check_symmetries, random_walk
from shibumi import IllegalMoveError, NotationError, load
from shibumi.boards import PYRAMID
from shibumi.grid import GridPosition, grid
from shibumi.interaction import Table
from shibumi.notation import Move


@pytest.mark.parametrize("n", [7, 8])
def test_cells_lines_and_neighbours(n):
    g = grid(n)
    assert g is grid(n) and g.num_points == n * n
    assert [g.parse_point(g.name(p)) for p in range(n * n)] == list(range(n * n))
    corner, edge, inner = 0, 1, n + 1
    assert (len(g.neighbours[corner]), len(g.neighbours[edge]), len(g.neighbours[inner])) \
        == (3, 5, 8)
    assert len(g.orthogonal[inner]) == 4 and len(g.diagonal[inner]) == 4
    assert [g.name(q) for q in g.ray(0, (1, 1))][-1] == f"{g.files[-1]}{n}"
    assert sum(len(ray) for ray in g.rays[0].values()) == 3 * (n - 1)


@pytest.mark.parametrize("n", [7, 8])
def test_symmetries_are_the_eight_of_the_square(n):
    g = grid(n)
    perms = g.symmetries
    assert len(set(perms)) == 8 and perms[0] == tuple(range(n * n))
    assert all(sorted(p) == list(range(n * n)) for p in perms)
    composed = {tuple(a[b[p]] for p in range(n * n)) for a in perms for b in perms}
    assert composed == set(perms)                                  # a group
    rot = perms[1]
    assert g.name(rot[g.parse_point("a1")]) == f"{g.files[-1]}1"   # a quarter turn
    assert g.name(perms[4][g.parse_point("a1")]) == f"{g.files[-1]}1"  # mirror left-right
    assert g.name(perms[5][g.parse_point("a1")]) == f"a{n}"          # mirror top-bottom


def random_position(g, rng):
    cells = list(range(g.num_points))
    rng.shuffle(cells)
    stones, pawns, chars, chasms = [0, 0], [0, 0], 0, 0
    for p in cells[:rng.randrange(g.num_points)]:
        kind = rng.randrange(6)
        if kind < 2:
            stones[kind] |= 1 << p
            if rng.random() < 0.2:
                chars |= 1 << p
        elif kind < 4:
            pawns[kind - 2] |= 1 << p
        elif kind == 4:
            chasms |= 1 << p
    return GridPosition(g, stones, pawns, chars, chasms)


@pytest.mark.parametrize("n", [7, 8])
def test_position_text_round_trips(n):
    g = grid(n)
    rng = random.Random(n)
    for _ in range(200):
        pos = random_position(g, rng)
        assert GridPosition.parse(g, pos.text()) == pos
        assert pickle.loads(pickle.dumps(pos)) == pos
        for perm in g.symmetries:
            image = pos.transform(perm)
            assert GridPosition.parse(g, image.text()) == image
            assert image.occupied.bit_count() == pos.occupied.bit_count()
    assert GridPosition.parse(g, "/".join([str(n)] * n)) == g.empty_position()


@pytest.mark.parametrize("text, says", [
    ("......./......./.......", "7 rows"),
    ("......./......./......./......./......./......./......", "has 6 cells"),
    ("......./......./......./......./......./......./.....X.", "rank 1 must be"),
    ("......./......./......./......./......./......./........", "rank 1 must be"),
    ("x" * 500, "too long"),
])
def test_bad_position_text_is_a_notation_error(text, says):
    with pytest.raises(NotationError, match=says):
        GridPosition.parse(grid(7), text)


def test_bad_masks_are_refused():
    g = grid(7)
    with pytest.raises(NotationError, match="at most one"):
        GridPosition(g, (1, 1))
    with pytest.raises(NotationError, match="stands on a stone"):
        GridPosition(g, (0, 0), characters=1)
    with pytest.raises(NotationError, match="49-bit"):
        GridPosition(g, (1 << 49, 0))


def test_move_text_parses_back_and_stays_apart_from_the_pyramid():
    g = grid(7)
    moves = [Move.make("move", 2, None, 30, board=g), Move.make("place", 3, 1, board=g),
             Move.make("place", 3, board=g), Move.make("remove", 48, board=g),
             Move.make("slide", 0, None, 6, board=g), Move.make("pass", board=g),
             Move.make("choose", value=3, board=g)]
    assert [m.text() for m in moves] == ["c1-c5", "Wd1", "d1", "xg7", "a1~g1", "pass", "=3"]
    for m in moves:
        assert g.parse_move(m.text()) is m
        assert pickle.loads(pickle.dumps(m)) is m
    assert Move("pass") is not Move.make("pass", board=g)     # each board its own moves
    assert Move("b2>d4.1").board is None and PYRAMID.parse_move("d6").text() == "d6"
    assert g.moves_matching("d1", [moves[1]]) == [moves[1]]   # the colour may be left out
    assert g.short_text(moves[1], [moves[1]]) == "d1"


@pytest.mark.parametrize("text, says", [
    ("c1-c9", "bad cell 'c9'"), ("z1", "bad cell 'z1'"), ("c1-", "bad move"),
    ("c1>c5", "bad move"), ("", "bad move")])
def test_bad_move_text_is_a_notation_error(text, says):
    with pytest.raises(NotationError, match=says):
        grid(7).parse_move(text)
    with pytest.raises(NotationError, match="0-48"):
        Move.make("move", 2, None, 49, board=grid(7))


def test_sensei_symmetries_commute_with_move_generation():
    for start, mode in (("standard", "arashi"), ("expert", "arashi"), ("variant", "shizukana")):
        game = load("sensei", mode=mode, start=start)
        for seed in range(4):
            state = random_walk(game, seed, 3 + 8 * seed)
            check_symmetries(game, state)
            # the rotation half-turn swaps the sides: not a symmetry of the rules
            if not game.is_terminal(state):
                turned = game.transform_state(state, game.board.symmetries[2])
                assert turned.position.text() != state.position.text()


def test_illegal_moves_leave_the_state_unchanged():
    game = load("sensei", mode="arashi")
    rng = random.Random(3)
    match = game.new_match()
    for _ in range(30):
        if match.is_over():
            break
        before, record = match.state, match.record()
        legal = set(match.legal_moves())
        g = game.board
        bad = [Move.make("move", a, None, b, board=g) for a, b in
               ((rng.randrange(49), rng.randrange(49)) for _ in range(40)) if a != b]
        bad = [m for m in bad if m not in legal][:4]
        if not (before.moves or before.carried):
            bad.append(Move.make("pass", board=g))        # a turn holds one action at least
        for move in bad:
            for given in (move, move.text()):
                with pytest.raises(IllegalMoveError, match="not a legal move"):
                    match.push(given)
                assert match.state is before and match.record() == record
        for text in ("g9", "a1>a2", "Rd4", "b2>d4.1"):
            with pytest.raises(NotationError):
                match.push(text)
            assert match.state is before
        match.push(rng.choice(match.legal_moves()))


def test_state_text_errors_name_the_grid():
    game = load("sensei")
    with pytest.raises(NotationError, match="like '......./"):
        game.parse_state("nonsense")
    with pytest.raises(NotationError, match="rank 4 must be"):
        game.parse_state("BBBB*BBB/7/7/d4/7/7/WWWW*WWW 1")
    with pytest.raises(NotationError, match="rank 7 has 4 cells, not 7"):
        game.parse_state("..../..../..../....|.../.../...|../..|. 1")


def test_diagram_and_terminal_help_describe_a_grid():
    game = load("sensei")
    text = game.describe(game.initial_state())
    assert text.splitlines()[0] == " 7 B  B  B  B* B  B  B"
    assert "White to move." in text
    assert "files a-g" in game.board.help() and "c1-c5" in game.board.help()


def test_table_clicks_on_cells_two_click_moves_hints_and_last_move():
    table = Table(load("sensei", mode="arashi"), seats="human,human")
    assert table.click("a1") is None                          # several moves start on a1
    view = table.view()
    assert view["selected"] == 0
    assert set(view["targets"]) == {3, 7, 14, 21, 28, 35}     # d1 (the character), a2-a6
    assert table.click("a6").text() == "a1-a6"
    view = table.view()
    assert view["last"] == [0, 35] and view["balls"][0]["kind"] == "stone"
    assert view["hints"]["3"].startswith("d1:")               # the character's stone
    assert table.click(99) is None and "There is no point 99" in table.message
    assert table.click("z9") is None and "bad cell" in table.message
    assert table.click("c7") is None and "No legal move uses the piece on c7" in table.message
    assert "pass" in [o["label"] for o in table.view()["options"]]
    assert table.choose("pass").text() == "pass" and table.match.current_player == 1


def test_webboard_sends_the_game_boards_geometry():
    from shibumi import webboard
    reply = json.loads(webboard.handle("open", json.dumps({"board": "g1", "game": "sensei",
                                                             "seats": "human,human"})))
    geo = reply["geometry"]
    assert geo["kind"] == "grid" and geo["size"] == 7 and len(geo["points"]) == 49
    assert geo["points"][0]["name"] == "a1" and geo["points"][0]["x"] == -3
    assert {b["kind"] for b in reply["view"]["balls"]} == {"stone"}
    assert sum(bool(b.get("character")) for b in reply["view"]["balls"]) == 2
    click = json.loads(webboard.handle("click", json.dumps({"board": "g1", "point": 2})))
    assert "c1" in click["view"]["message"]
    pyramid = json.loads(webboard.handle("open", json.dumps({"board": "p1", "game": "spline"})))
    assert pyramid["geometry"]["kind"] == "pyramid" and len(pyramid["geometry"]["points"]) == 30


def test_svg_and_3d_views_draw_a_grid():
    from shibumi.views.svg import position_svg
    position = load("sensei", mode="arashi", start="expert").initial_state().position
    svg = position_svg(position, marks={"d2": "+"}, lines=[["d1", "d7"]], highlight=["d1"],
                       labels=True)
    assert svg.count('class="stone ') == 14 and svg.count('class="chasm"') == 5
    assert svg.count('class="character ') == 2 and 'data-points="d1 d7"' in svg
    assert position._repr_svg_().startswith("<svg")
    three = pytest.importorskip("pythreejs")
    from shibumi.views.three import GridView, view_of
    view = view_of(position)
    assert isinstance(view, GridView) and len(view.piece_group.children) == 16
    view.mark(["d2"], "x").mark_last(["d1"]).draw_path(["d1", "d7"])
    assert len(view.mark_group.children) == 1 and isinstance(view.widget, three.Renderer)
