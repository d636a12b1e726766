"""The 3D view's scene graph: what is shown follows the position, updated in place.

Everything here runs without a browser: it inspects the pythreejs widgets
that would be sent to one.
"""
import math

import pytest

three = pytest.importorskip("pythreejs")

from conftest import random_position  # noqa: E402
from shibumi.geometry import APEX, CENTRE, POINTS  # noqa: E402
from shibumi.position import BLACK, EMPTY, INTERIOR_REDS, RED, WHITE, Position  # noqa: E402
from shibumi.views.three import PyramidView, scene_position  # noqa: E402

THREE_QUARTERS = Position("WBWB/BWBW/WBWB/BWBW|RWR/WBW/RWR|../..|.")


@pytest.fixture(scope="module")
def view():
    return PyramidView(INTERIOR_REDS)


def watch(view):
    """Record which ball meshes get a trait change."""
    touched = set()
    for p, mesh in enumerate(view.balls):
        mesh.observe(lambda change, p=p: touched.add(p), names=["visible", "material"])
    return touched


def shown(view, position):
    """Check every mesh against the position."""
    hidden = position.hidden()
    for p in POINTS:
        mesh = view.balls[p]
        colour = position.colour_at(p)
        if colour == EMPTY:
            assert not mesh.visible, p
        elif hidden >> p & 1:
            assert mesh.visible == view._show_hidden, p
            assert mesh.material is view.ghost_materials[colour]
        else:
            assert mesh.visible, p
            assert mesh.material is view.materials[colour]


def test_thirty_spheres_at_the_ball_centres(view):
    balls = view.ball_group.children
    assert len(balls) == 30 and list(balls) == view.balls
    for p, mesh in enumerate(balls):
        assert isinstance(mesh, three.Mesh)
        assert isinstance(mesh.geometry, three.SphereBufferGeometry)
        assert mesh.geometry.radius == 0.5
        assert mesh.position == pytest.approx(scene_position(p))
    # neighbours on a level are one diameter apart; a raised ball touches its supports
    assert scene_position(1)[0] - scene_position(0)[0] == pytest.approx(1)
    assert math.dist(scene_position(16), scene_position(0)) == pytest.approx(1)
    # y is up: the apex is highest, rank 1 is nearest the camera (+z)
    assert scene_position(APEX)[1] == max(scene_position(p)[1] for p in POINTS)
    assert scene_position(0)[2] > scene_position(12)[2]
    assert CENTRE[APEX][2] == pytest.approx(scene_position(APEX)[1] - scene_position(0)[1])


def test_board_with_sixteen_holes(view):
    holes = [m for m in view.board.children if m.name.startswith("hole")]
    assert len(holes) == 16
    assert all(m.position[1] > 0 for m in holes)


@pytest.mark.parametrize("seed,balls", [(1, 8), (2, 17), (3, 25), (4, 30)])
def test_meshes_follow_the_position(seed, balls):
    pos = random_position(seed, balls)
    view = PyramidView(pos)
    shown(view, pos)
    assert sum(m.visible for m in view.balls) == bin(pos.visible()).count("1")


def test_update_changes_only_what_changed():
    view = PyramidView(INTERIOR_REDS)
    balls, scene_children = list(view.balls), view.scene.children
    ball_children = view.ball_group.children
    touched = watch(view)
    pos = INTERIOR_REDS.place(0, WHITE)
    assert view.update(pos) == {0}
    assert touched == {0}
    touched.clear()
    assert view.update(pos) == set() and not touched
    pos2 = pos.place(1, BLACK).place(2, RED)
    assert view.update(pos2) == {1, 2} and touched == {1, 2}
    touched.clear()
    pos3, _ = pos2.remove(1)
    assert view.update(pos3) == {1} and touched == {1}
    assert view.balls == balls
    assert all(a is b for a, b in zip(view.ball_group.children, ball_children))
    assert view.scene.children == scene_children
    assert len(view.scene.children) == len(scene_children)
    shown(view, pos3)


def test_covering_a_ball_hides_it():
    view = PyramidView(THREE_QUARTERS)
    level2 = THREE_QUARTERS.place(25, RED).place(26, RED).place(27, RED).place(28, RED)
    assert view.update(level2) == {5, 6, 9, 10, 25, 26, 27, 28}  # board centre now hidden
    shown(view, level2)
    touched = watch(view)
    view.show_hidden(True)
    assert touched == {5, 6, 9, 10}
    shown(view, level2)
    assert all(view.balls[p].material.transparent for p in (5, 6, 9, 10))
    touched.clear()
    capped = level2.place(APEX, WHITE)
    assert view.update(capped) == {20, 29} and touched == {20, 29}
    shown(view, capped)
    view.show_hidden(False)
    shown(view, capped)
    assert not any(view.balls[p].visible for p in (5, 6, 9, 10, 20))


def test_update_takes_a_position(view):
    with pytest.raises(TypeError):
        view.update("WBWB")


def test_camera_lights_and_controls(view):
    scene = view.scene
    assert any(isinstance(c, three.AmbientLight) for c in scene.children)
    assert any(isinstance(c, three.DirectionalLight) for c in scene.children)
    assert not view.camera.children          # lights live in the scene
    renderer = view.widget
    assert isinstance(renderer, three.Renderer)
    assert renderer.scene is scene and renderer.camera is view.camera
    orbit = [c for c in renderer.controls if isinstance(c, three.OrbitControls)]
    assert orbit and orbit[0].controlling is view.camera
    assert isinstance(view.camera, three.PerspectiveCamera)
    assert view.camera.aspect == pytest.approx(480 / 400)
    # the camera is on the first player's side (+z), above the board, aimed at the target
    x, y, z = view.camera.position
    assert z > 0 and y > 2 and x == 0
    qx, qy, qz, qw = view.camera.quaternion
    # rotate the camera's forward direction (0, 0, -1) by the quaternion
    fwd = (-2 * (qx * qz + qw * qy), -2 * (qy * qz - qw * qx), -(1 - 2 * (qx * qx + qy * qy)))
    tx, ty, tz = orbit[0].target
    aim = (tx - x, ty - y, tz - z)
    norm = math.sqrt(sum(a * a for a in aim))
    assert fwd == pytest.approx(tuple(a / norm for a in aim), abs=1e-9)


def test_size():
    view = PyramidView(width=300, height=200)
    assert (view.widget.width, view.widget.height) == (300, 200)
    assert not any(m.visible for m in view.balls)


def test_overlays_add_and_remove_without_touching_balls():
    view = PyramidView(INTERIOR_REDS)
    touched = watch(view)
    count = len(view.scene.children)

    view.show_playable()
    assert len(view.playable_group.children) == bin(INTERIOR_REDS.playable()).count("1")
    view.show_playable(1 << 3 | 1 << 7)
    assert len(view.playable_group.children) == 2
    view.show_playable(False)
    assert view.playable_group.children == ()

    view.mark([0, "g1"], "+").mark(20, "x").mark("d4.1", "-")
    assert [g.name for g in view.mark_group.children] == ["mark + a1", "mark + g1", "mark - d4.1"]
    assert [len(g.children) for g in view.mark_group.children] == [2, 2, 1]
    view.mark(5, "•")
    view.clear_marks([0])
    assert len(view.mark_group.children) == 3
    view.clear_marks()
    assert view.mark_group.children == ()
    with pytest.raises(ValueError):
        view.mark(0, "?")

    view.mark_last(20)
    assert len(view.last_group.children) == 1
    ring = view.last_group.children[0]
    assert ring.position[1] > scene_position(20)[1] + 0.5
    view.mark_last(None)
    assert view.last_group.children == ()

    view.draw_path([0, 16, 25])
    (line,) = view.path_group.children
    assert isinstance(line, three.Line2)
    assert line.geometry.positions.shape == (3, 3)
    assert line.geometry.positions[1] == pytest.approx(scene_position(16))
    view.draw_path(["g1", "f2"], keep=True)
    assert len(view.path_group.children) == 2
    view.draw_path([])
    assert view.path_group.children == ()

    view.labels(True)
    expected = bin(INTERIOR_REDS.visible() | INTERIOR_REDS.playable()).count("1")
    assert len(view.label_group.children) == expected
    sprite_textures = [s.material.map for g in view.label_group.children for s in g.children
                       if s.material.map is not None]
    assert sorted(t.string for t in sprite_textures)[:2] == ["a1", "a3"]
    view.labels(False)
    assert view.label_group.children == ()

    assert not touched
    assert len(view.scene.children) == count


def test_overlays_follow_updates():
    view = PyramidView(INTERIOR_REDS).show_playable().labels().mark(0, "x")
    markers = {view.point_of(m) for m in view.playable_group.children}
    assert 0 in markers
    mark_height = view.mark_group.children[0].position[1]
    pos = INTERIOR_REDS.place(0, WHITE)
    view.update(pos)
    markers = {view.point_of(m) for m in view.playable_group.children}
    assert markers == {p for p in POINTS if pos.playable() >> p & 1}
    assert len(view.label_group.children) == bin(pos.visible() | pos.playable()).count("1")
    assert view.mark_group.children[0].position[1] > mark_height    # now on top of the ball
    # a fixed mask stays put
    view.show_playable(1 << 3)
    view.update(INTERIOR_REDS)
    assert [view.point_of(m) for m in view.playable_group.children] == [3]


def pick(view, obj, point=(0.1, 0.2, 0.3)):
    """What the browser sends when the picker hits an object."""
    ref = None if obj is None else "IPY_MODEL_" + obj.model_id
    view.picker.set_state({"object": ref, "point": list(point)})


def test_picking_calls_back_with_the_point():
    view = PyramidView(INTERIOR_REDS).show_playable().mark(20, "+")
    picker = view.picker
    assert isinstance(picker, three.Picker) and picker in view.widget.controls
    assert picker.controlling is view.pickable
    got = []
    view.on_click(got.append)
    pick(view, view.ball_mesh(5))
    pick(view, view.ball_mesh("c3.0"))        # the same ball twice in a row
    pick(view, view.playable_group.children[0])
    pick(view, view.mark_group.children[0].children[1])
    pick(view, view.board)                    # not pickable: ignored
    pick(view, None)                          # a miss
    assert got == [5, 5, view.point_of(view.playable_group.children[0]), 20]
    view.on_click(got.append, remove=True)
    pick(view, view.ball_mesh(0))
    assert len(got) == 4


def test_annotate_writes_texts_at_points():
    view = PyramidView(INTERIOR_REDS)
    count = len(view.scene.children)
    view.annotate({0: "W26", "d4.3": "L27", 5: "x"})
    group = view.scene.children[-1]
    assert len(view.scene.children) == count + 1 and group.name == "annotations"
    assert len(group.children) == 3
    strings = sorted(s.material.map.string for g in group.children for s in g.children
                     if s.material.map is not None)
    assert strings == ["L27", "W26", "x"]
    by_name = {g.name: g for g in group.children}
    assert by_name["annotation a1 W26"].position == pytest.approx(scene_position(0))
    # c3 (point 5) holds a red ball: the text sits above the ball
    assert by_name["annotation c3.0 x"].position[1] > scene_position(5)[1]
    view.annotate({"b2": "L9"}, color={"b2": "#b71c1c"})
    assert len(view.scene.children) == count + 1 and len(group.children) == 1
    assert group.children[0].children[0].material.color == "#b71c1c"
    view.annotate(None)
    assert group.children == ()
    with pytest.raises(ValueError):
        view.annotate({99: "no"})
