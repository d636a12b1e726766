"""The SVG diagrams: well-formed, faithful to the position, deterministic."""
import xml.etree.ElementTree as ET

import pytest

from conftest import random_position
from shibumi.geometry import APEX, INTERIOR_MASK, LEVEL, POINTS
from shibumi.notation import point_name
from shibumi.position import BLACK, INTERIOR_REDS, RED, WHITE, Position
from shibumi.views.svg import levels_svg, position_svg

NS = "{http://www.w3.org/2000/svg}"
FULL = Position("WBWB/BWBW/WBWB/BWBW|RWR/WBW/RWR|BB/WW|R")   # five hidden balls
SAMPLES = [Position.empty(), INTERIOR_REDS, FULL] + [
    random_position(seed, balls) for seed, balls in ((1, 6), (2, 14), (3, 22), (4, 30), (5, 27))]


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    return root


def with_class(root, name, tag="circle"):
    return [e for e in root.iter(NS + tag) if name in e.get("class", "").split()]


def bits(mask):
    return bin(mask).count("1")


@pytest.mark.parametrize("pos", SAMPLES, ids=str)
def test_one_circle_per_visible_ball(pos):
    root = parse(position_svg(pos))
    balls = with_class(root, "ball")
    assert len(balls) == bits(pos.visible())
    assert {b.get("data-point") for b in balls} == {
        point_name(p) for p in POINTS if pos.visible() >> p & 1}
    for ball in balls:
        colour = {"white": WHITE, "black": BLACK, "red": RED}[ball.get("class").split()[1]]
        p = next(q for q in POINTS if point_name(q) == ball.get("data-point"))
        assert pos.colour_at(p) == colour
    # lower balls come first, so higher ones are drawn over them
    levels = [int(b.get("data-level")) for b in balls]
    assert levels == sorted(levels)
    assert not with_class(root, "hidden-ball")


def test_board_has_sixteen_holes():
    assert len(with_class(parse(position_svg(Position.empty())), "hole")) == 16


def test_raised_balls_are_larger_and_cast_shadows():
    pos = FULL
    root = parse(position_svg(pos))
    radius = {b.get("data-point"): float(b.get("r")) for b in with_class(root, "ball")}
    assert radius["d4.3"] > radius["c3.2"] > radius["a1"]
    assert len(with_class(root, "shadow")) == bits(pos.visible() & ~0xFFFF)


def test_hidden_balls_shown_dashed_on_request():
    pos = FULL
    assert pos.hidden() == INTERIOR_MASK
    root = parse(position_svg(pos, show_hidden=True))
    hidden = with_class(root, "hidden-ball")
    assert len(hidden) == 5
    assert all(h.get("stroke-dasharray") for h in hidden)
    assert len(with_class(root, "ball")) == bits(pos.visible())


def test_playable_rings_above_the_board():
    pos = random_position(2, 14)
    raised = pos.playable() & ~0xFFFF
    assert len(with_class(parse(position_svg(pos)), "playable")) == bits(raised)
    assert not with_class(parse(position_svg(pos, show_playable=False)), "playable")


def test_marks_lines_and_highlights():
    pos = INTERIOR_REDS
    svg = position_svg(pos, marks={0: "+", "d4.1": "-", 3: "x", 16: "•"},
                       lines=[(0, 16, 25), ("g1", "f2")], highlight=["a1", 20])
    root = parse(svg)
    marks = {(g.get("data-point"), g.get("data-symbol"))
             for g in root.iter(NS + "g") if g.get("class") == "mark"}
    assert marks == {("a1", "+"), ("d4.1", "-"), ("g1", "x"), ("b2", "•")}
    lines = with_class(root, "line", "polyline")
    assert [len(line.get("points").split()) for line in lines] == [3, 2]
    assert lines[0].get("data-points") == "a1 b2 c3.2"
    assert len(with_class(root, "highlight")) == 2


def test_bad_mark_and_point_rejected():
    with pytest.raises(ValueError):
        position_svg(Position.empty(), marks={0: "?"})
    with pytest.raises(ValueError):
        position_svg(Position.empty(), lines=[(0, 30)])


def test_labels_around_the_edge():
    assert not list(parse(position_svg(INTERIOR_REDS)).iter(NS + "text"))
    texts = [t.text for t in parse(position_svg(INTERIOR_REDS, labels=True)).iter(NS + "text")]
    assert sorted(set(texts)) == sorted("abcdefg1234567")


def test_size_sets_the_width():
    root = parse(position_svg(INTERIOR_REDS, size=200))
    assert root.get("width") == "200" and root.get("viewBox")


@pytest.mark.parametrize("pos", SAMPLES, ids=str)
def test_levels_view(pos):
    root = parse(levels_svg(pos))
    cells = with_class(root, "cell", "rect")
    assert len(cells) == 30
    assert sorted(c.get("data-point") for c in cells) == sorted(map(point_name, POINTS))
    assert len(with_class(root, "ball")) == bits(pos.visible())
    assert len(with_class(root, "hidden-ball")) == bits(pos.hidden())
    by_level = [len(with_class(g, "cell", "rect")) for g in root.iter(NS + "g")
                if g.get("class") == "level"]
    assert by_level == [16, 9, 4, 1]
    empty_playable = pos.playable() & ~pos.occupied
    assert len(with_class(root, "playable")) == bits(empty_playable)


def test_levels_view_marks():
    root = parse(levels_svg(INTERIOR_REDS, marks={"d4.1": "x"}, highlight=[APEX]))
    assert [g.get("data-point") for g in root.iter(NS + "g") if g.get("class") == "mark"] \
        == ["d4.1"]
    assert len(with_class(root, "highlight", "rect")) == 1


def test_repr_svg_and_determinism():
    pos = random_position(3, 22)
    assert pos._repr_svg_() == position_svg(pos)
    same = Position(pos.text())
    assert position_svg(same, marks={1: "+", 0: "x"}, lines=[(0, 1)], labels=True) == \
        position_svg(pos, marks={0: "x", 1: "+"}, lines=[(0, 1)], labels=True)
    assert levels_svg(same) == levels_svg(pos)


def test_self_contained():
    svg = position_svg(random_position(4, 30), labels=True, show_hidden=True) \
        + levels_svg(random_position(4, 30))
    for needle in ("href", "url(", "<script", "<image", "@import", ' id="'):
        assert needle not in svg


def test_every_level_gets_drawn():
    pos = random_position(4, 30)
    levels = {int(b.get("data-level")) for b in with_class(parse(position_svg(pos)), "ball")}
    assert levels == {LEVEL[p] for p in POINTS if pos.visible() >> p & 1}


def test_mark_ink_contrasts_with_the_ball_seen():
    # point 5 (c3.0) holds a black ball hidden under the white ball at c3.2
    assert FULL.colour_at(5) == BLACK and FULL.colour_at(25) == WHITE
    assert FULL.colour_at(0) == BLACK and FULL.colour_at(1) == WHITE
    marks = [g for g in parse(position_svg(FULL, marks={5: "x", 0: "+", 1: "-"})).iter(NS + "g")
             if g.get("class") == "mark"]
    ink = {g.get("data-point"): g.get("stroke") for g in marks}
    assert ink["c3.0"] == ink["c1"] != ink["a1"]     # dark on white, light on black
