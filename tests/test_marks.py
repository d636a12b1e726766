"""One palette and one shape per mark, in every view (shibumi/views/marks.py)."""
import ast
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from shibumi.geometry import APEX, LEVEL, POINTS
from shibumi.position import BLACK, INTERIOR_REDS, WHITE, Position
from shibumi.views import marks
from shibumi.views.marks import (HALO_DARK, HALO_LIGHT, LEGEND, MARK_COLOURS, MARKS,
                                 PATH_COLOURS, SYMBOLS)
from shibumi.views.svg import MARK_SYMBOLS, legend_html, mark_swatch_svg, position_svg

ROOT = Path(__file__).resolve().parent.parent
NS = "{http://www.w3.org/2000/svg}"
FULL = Position("WBWB/BWBW/WBWB/BWBW|RWR/WBW/RWR|BB/WW|R")
HEX = re.compile(r"^#[0-9a-f]{6}$")


def test_marks_module_is_engine_free_and_complete():
    tree = ast.parse((ROOT / "shibumi/views/marks.py").read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module}
    assert imported <= {"__future__", "typing"}
    assert set(SYMBOLS) == {"+", "-", "x", "•"} == set(MARK_SYMBOLS)
    assert {"last", "playable", "selected", "target", "winning"} <= set(MARKS)
    assert set(LEGEND) == set(MARKS)
    for mark in MARKS.values():
        assert HEX.match(mark.colour) and mark.meaning and mark.shape
        assert MARK_COLOURS[mark.name] == mark.colour
    assert all(HEX.match(c) for c in (*MARK_COLOURS.values(), *PATH_COLOURS))
    # the four symbols and the last move are told apart by colour as well as shape
    distinct = [MARKS[k].colour for k in ("last", "+", "-", "x", "•", "winning")]
    assert len(set(distinct)) == len(distinct)


def test_board_js_copies_the_palette():
    source = (ROOT / "book/_extra/board/board.js").read_text()
    block = re.search(r"const MARK_COLOURS = \{(.*?)\};", source, re.S)
    assert block, "board.js has no MARK_COLOURS object"
    comment = "\n".join(source[:block.start()].splitlines()[-4:])
    assert "shibumi/views/marks.py" in comment     # the copy names its source
    copied = dict(re.findall(r'(\w+):\s*"(#[0-9a-fA-F]{6})"', block.group(1)))
    assert copied == MARK_COLOURS
    # no other mark colour is hard-coded in the mark constants
    for name in ("PLAYABLE", "LAST", "SELECTED", "TARGET", "HOVER", "WIN"):
        assert re.search(rf"^const {name} = MARK_COLOURS\.\w+;", source, re.M), name


def strokes(group):
    return {e.get("stroke") for e in group.iter() if e.get("stroke")}


def test_svg_draws_each_symbol_in_its_colour_over_a_contrasting_halo():
    svg = position_svg(FULL, marks={0: "+", 1: "-", 2: "x", 3: "•"})
    groups = {g.get("data-symbol"): g for g in ET.fromstring(svg).iter(NS + "g")
              if g.get("class") == "mark"}
    for symbol, g in groups.items():
        colour = MARKS[symbol].colour
        inks = strokes(g) | {e.get("fill") for e in g.iter() if e.get("fill")}
        assert colour in inks, symbol
    # a1 holds a black ball, c1 a white one: the halo follows the ground
    assert FULL.colour_at(0) == BLACK and FULL.colour_at(1) == WHITE
    assert groups["+"].get("stroke") == HALO_LIGHT
    assert groups["-"].get("stroke") == HALO_DARK


def test_svg_rings_lines_and_playable_use_the_palette():
    pos = Position("WB../WB../..../....|.../.../...|../..|.")
    assert pos.playable() & ~0xFFFF            # a raised point, above the four balls
    root = ET.fromstring(position_svg(pos, highlight=["a1"], lines=[(0, 1), (2, 3)]))
    rings = [e for e in root.iter(NS + "circle") if e.get("class") == "highlight"]
    assert [r.get("stroke") for r in rings] == [MARKS["last"].colour]
    lines = [e.get("stroke") for e in root.iter(NS + "polyline")]
    assert lines == list(PATH_COLOURS[:2])
    playable = [e for e in root.iter(NS + "circle") if e.get("class") == "playable"]
    assert playable and {e.get("stroke") for e in playable} == {MARKS["playable"].colour}


def test_legend_shows_every_mark():
    html = legend_html()
    for key in LEGEND:
        assert f'data-mark="{key}"' in html
        root = ET.fromstring(mark_swatch_svg(key))
        assert root.tag == NS + "svg"
        colours = {e.get(a) for e in root.iter() for a in ("stroke", "fill")}
        assert MARKS[key].colour in colours, key
    index = (ROOT / "book/system/index.md").read_text()
    assert "legend_html()" in index


# -- 3D --------------------------------------------------------------------------

three = pytest.importorskip("pythreejs")
from shibumi.views import three as three_view  # noqa: E402
from shibumi.views.three import (BALL_RADIUS, PyramidView, mark_images,  # noqa: E402
                                 ring_image, scene_position, screen_xy)


def main_colour(images):
    """The most common opaque colour of a mark's pictures."""
    pixels = np.concatenate([i.reshape(-1, 4) for i in images])
    opaque = pixels[pixels[:, 3] == 255][:, :3]
    values, counts = np.unique(opaque, axis=0, return_counts=True)
    return "#%02x%02x%02x" % tuple(values[counts.argmax()])


@pytest.mark.parametrize("symbol", list(SYMBOLS))
def test_3d_mark_pictures_have_the_palette_colour(symbol):
    for halo in (HALO_DARK, HALO_LIGHT):
        _, images = mark_images(symbol, halo)
        assert main_colour(images) == MARKS[symbol].colour
        # the parts of a two-stroke mark never overlap: together they are the mark
        if len(images) == 2:
            assert not np.any((images[0][..., 3] > 0) & (images[1][..., 3] > 0))
    _, ring = ring_image("last")
    assert main_colour([ring]) == MARKS["last"].colour


def test_plus_and_cross_differ_in_the_picture_itself():
    # sprites face the camera, so the texture is what the reader sees
    plus = sum(i[..., 3].astype(int) for i in mark_images("+", HALO_DARK)[1])
    cross = sum(i[..., 3].astype(int) for i in mark_images("x", HALO_DARK)[1])
    n = plus.shape[0]
    assert plus[n // 2, 3:-3].min() > 0 and plus[3:-3, n // 2].min() > 0   # a bar each way
    assert cross[n // 2, 2] == 0 and cross[2, n // 2] == 0
    assert np.array_equal(plus, plus.T) and np.array_equal(plus, np.rot90(plus))


def test_3d_marks_are_sprites_drawn_over_the_balls():
    view = PyramidView(FULL).mark([0, 1], "+").mark(2, "x").mark(APEX, "•").mark_last(APEX)
    for group in view.mark_group.children:
        for sprite in group.children:
            assert isinstance(sprite, three.Sprite)
            assert sprite.material.depthTest is False and sprite.renderOrder > 0
            assert isinstance(sprite.material.map, three.DataTexture)
    # halo: white on the black ball at a1, dark on the white ball at c1
    a1, c1 = view.mark_group.children[:2]
    assert a1.children[0].material is not c1.children[0].material
    (ring_group,) = view.last_group.children
    (ring,) = ring_group.children
    assert isinstance(ring, three.Sprite) and ring.material.depthTest is False
    # the ring is centred on the ball
    centre = np.add(ring_group.position, ring.position)
    assert centre == pytest.approx(scene_position(APEX))
    view.mark_last(["a1", "c1"])
    assert len(view.last_group.children) == 2


def test_3d_colours_come_from_the_palette():
    assert three_view._MARK_COLOURS == {s: MARKS[s].colour for s in SYMBOLS}
    assert three_view._PATH_COLOURS == PATH_COLOURS
    view = PyramidView(INTERIOR_REDS).show_playable()
    assert view.playable_group.children[0].material.color == MARKS["playable"].colour


@pytest.mark.parametrize("width,height", [(480, 400), (300, 300), (260, 260)])
def test_default_camera_shows_the_whole_pyramid_with_a_margin(width, height, monkeypatch):
    """Every ball of a full pyramid and the board's corners lie well inside the view."""
    spots = []
    for p in POINTS:
        x, y, z = scene_position(p)
        for dx, dy, dz in ((0, 1, 0), (0, -1, 0), (1, 0, 0), (-1, 0, 0), (0, 0, 1),
                           (0, 0, -1)):
            spots.append((x + dx * BALL_RADIUS, y + dy * BALL_RADIUS, z + dz * BALL_RADIUS))
    half = three_view.BOARD_SIZE / 2
    spots += [(sx * half, y, sz * half) for sx in (-1, 1) for sz in (-1, 1)
              for y in (0, -three_view.BOARD_THICKNESS)]
    seen = []
    for spot in spots:
        monkeypatch.setattr(three_view, "scene_position", lambda p, spot=spot: spot)
        seen.append(screen_xy(0, width, height))
    monkeypatch.undo()
    xs, ys = [s[0] for s in seen], [s[1] for s in seen]
    margin = 0.06
    assert min(xs) > margin * width and max(xs) < (1 - margin) * width
    assert min(ys) > margin * height and max(ys) < (1 - margin) * height
    # the apex's top is the highest thing in view, and not at the edge
    top = screen_xy(APEX, width, height)[1] - BALL_RADIUS
    assert top > 0 and LEVEL[APEX] == 3


def test_book_3d_view_rings_every_highlighted_point():
    from shibumi.book.chapter import _three_d_view
    view = _three_d_view(FULL, {0: "+"}, [], [0, 17], False, 200)
    assert len(view.last_group.children) == 2
    assert [g.name for g in view.mark_group.children] == ["mark + a1"]


def test_book_css_keeps_pairs_side_by_side():
    css = (ROOT / "book/_static/shibumi.css").read_text()
    assert "flex-wrap: wrap" in css
    assert re.search(r"> \.output:has\(\.shibumi-figure\) \{[^}]*flex: 1 1 \d+rem;"
                     r"[^}]*min-width: 0", css)
