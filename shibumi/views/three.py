"""A 3D view of the pyramid with pythreejs.

:class:`PyramidView` builds one scene: a wooden board with its 16 holes, one
sphere mesh for each of the 30 points (created once, shown or hidden as the
position changes), two lights, a perspective camera with orbit controls and
a picker.  ``view.widget`` is the pythreejs ``Renderer`` to display.

Three.js is y-up, so a point's centre ``(x, y, z)`` from
:data:`shibumi.geometry.CENTRE` is drawn at ``(x - 1.5, z + BALL_HEIGHT,
1.5 - y)``: the board lies in the x-z plane, centred on the origin, files
a-g run along +x and rank 1 (the first player's side) is nearest +z, where
the camera starts.

Overlays (playable markers, last move, ``+ - x •`` marks, paths, labels)
live in their own groups; showing and clearing them adds and removes
children of those groups and never touches the balls.  Objects for an
overlay are created once per point and reused.  Their colours and shapes
come from :mod:`shibumi.views.marks`, as in the flat diagrams; the marks and
the last-move ring are pictures that always face the camera (sprites whose
textures are drawn here with numpy), drawn over the balls.

pythreejs is imported by this module only; the engine never imports it.
"""

from __future__ import annotations

import math

import numpy as np
import pythreejs as three

from ..geometry import CENTRE, LEVEL, NUM_POINTS, POINTS
from ..notation import as_point, point_name
from ..position import BLACK, EMPTY, RED, WHITE, Position
from .marks import GEOMETRY, HALO_DARK, MARKS, PATH_COLOURS, SYMBOLS, halo_for

__all__ = ["PyramidView", "GridView", "view_of", "scene_position", "BALL_RADIUS", "BALL_HEIGHT"]

BALL_RADIUS = 0.5
#: Height of a board ball's centre above the board's top face (it sits in its hole).
BALL_HEIGHT = 0.4
HOLE_RADIUS = 0.3
BOARD_SIZE = 4.5
BOARD_THICKNESS = 0.3

_BALL_COLOURS = {WHITE: "#f1ede2", BLACK: "#1c1c1c", RED: "#c3261b"}
_MARK_COLOURS = {s: MARKS[s].colour for s in SYMBOLS}
MARK_SYMBOLS = tuple(SYMBOLS)
_PATH_COLOURS = PATH_COLOURS
_COLOUR_NAME = {EMPTY: None, WHITE: "white", BLACK: "black", RED: "red"}
_MARK_ORDER = 40          # marks are drawn after (over) everything else but labels
# 45 degrees up and 9.9 away: a complete pyramid (apex ball included) fits a square or
# 6:5 view with a margin of about a tenth of the view above it and more on the
# other sides (the target is the board's centre, so the pyramid sits high).
_CAMERA_EYE = (0.0, 7.0, 7.0)
# The front end's orbit controls turn the camera to the origin whatever target
# they are given, so the camera looks there from the start (and screen_xy agrees).
_CAMERA_TARGET = (0.0, 0.0, 0.0)
_CAMERA_FOV = 38
_GLYPH_WIDTH = {".": 0.28, "f": 0.28, "c": 0.5}   # Arial advance widths (em); others ~0.56


def scene_position(p: int) -> tuple[float, float, float]:
    """Scene coordinates (y up) of the centre of a ball at point p."""
    x, y, z = CENTRE[p]
    return (x - 1.5, z + BALL_HEIGHT, 1.5 - y)


def marker_position(p: int) -> tuple[float, float, float]:
    """Scene coordinates of the marker showing that empty point p is playable.

    A board marker sits low in its hole; higher ones float where the ball would be.
    """
    x, y, z = scene_position(p)
    return (x, y - 0.2 if LEVEL[p] == 0 else y, z)


def screen_xy(p: int, width: int = 480, height: int = 400,
              marker: bool = False) -> tuple[float, float]:
    """Where point p's ball (or playable ``marker``) appears in a view's canvas.

    In pixels from the canvas's top left corner, for the default camera
    (before anyone orbits it): browser tests click there.

    >>> x, y = screen_xy(29)          # the apex is above the board's centre
    >>> round(x), 0 < y < 200
    (240, True)
    """
    eye, target = _CAMERA_EYE, _CAMERA_TARGET
    centre = marker_position(p) if marker else scene_position(p)
    forward = _unit(tuple(t - e for t, e in zip(target, eye)))
    right = _unit(_cross(forward, (0.0, 1.0, 0.0)))
    up = _cross(right, forward)
    d = tuple(s - e for s, e in zip(centre, eye))
    depth = sum(a * b for a, b in zip(d, forward))
    half = math.tan(math.radians(_CAMERA_FOV) / 2) * depth
    ndc_x = sum(a * b for a, b in zip(d, right)) / (half * width / height)
    ndc_y = sum(a * b for a, b in zip(d, up)) / half
    return (ndc_x + 1) / 2 * width, (1 - ndc_y) / 2 * height


def _directional_light(intensity: float, position) -> "three.DirectionalLight":
    # A target and a shadow given explicitly: left "uninitialized", the front end
    # calls .on() on them and logs "Error setting state: t.on is not a function".
    return three.DirectionalLight(
        color="#ffffff", intensity=intensity, position=position,
        target=three.Object3D(),
        shadow=three.DirectionalLightShadow(camera=three.OrthographicCamera(-5, 5, 5, -5)))


def _unit(v):
    n = math.sqrt(sum(a * a for a in v))
    return tuple(a / n for a in v)


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _look_at_quaternion(eye, target, up=(0.0, 1.0, 0.0)):
    """The (x, y, z, w) rotation that points a camera at eye towards target."""
    ez = np.subtract(eye, target).astype(float)
    ez /= np.linalg.norm(ez)
    ex = np.cross(up, ez)
    ex /= np.linalg.norm(ex)
    ey = np.cross(ez, ex)
    m = np.column_stack((ex, ey, ez))        # columns: the camera's axes
    trace = m[0, 0] + m[1, 1] + m[2, 2]
    if trace > 0:
        s = 2.0 * math.sqrt(trace + 1.0)
        w, x = s / 4, (m[2, 1] - m[1, 2]) / s
        y, z = (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s
    else:  # not needed for the default camera, kept for other eyes
        i = int(np.argmax(np.diag(m)))
        j, k = (i + 1) % 3, (i + 2) % 3
        s = 2.0 * math.sqrt(1.0 + m[i, i] - m[j, j] - m[k, k])
        q = [0.0, 0.0, 0.0]
        q[i] = s / 4
        q[j] = (m[j, i] + m[i, j]) / s
        q[k] = (m[k, i] + m[i, k]) / s
        w = (m[k, j] - m[j, k]) / s
        x, y, z = q
    return (float(x), float(y), float(z), float(w))


# A quarter turn about x, laying flat shapes (circles, rings) made in the x-y plane
# on the board.  Rotations are given as quaternions: pythreejs 2.4 sends an Euler
# ``rotation`` set at construction, but the browser keeps the identity quaternion.
_FLAT = (-math.sin(math.pi / 4), 0.0, 0.0, math.cos(math.pi / 4))


# -- mark pictures (textures drawn with numpy: no canvas needed) ----------------

def _rgb(hexa: str) -> np.ndarray:
    return np.array([int(hexa[i:i + 2], 16) for i in (1, 3, 5)], dtype=float) / 255


def _coverage(distance, half_width, pixel):
    """Anti-aliased coverage of a stroke of this half width at these distances."""
    return np.clip((half_width - distance) / pixel + 0.5, 0.0, 1.0)


def _segment_distance(x, y, a, b):
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    t = np.clip(((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy), 0.0, 1.0)
    return np.hypot(x - ax - t * dx, y - ay - t * dy)


def _paint(colour: str, halo: str, core_alpha, halo_alpha) -> np.ndarray:
    """RGBA bytes of a coloured shape over its halo (straight alpha)."""
    alpha = core_alpha + (1 - core_alpha) * halo_alpha
    c, h = _rgb(colour), _rgb(halo)
    weight = np.divide(core_alpha, alpha, out=np.zeros_like(alpha), where=alpha > 0)
    rgb = weight[..., None] * c + (1 - weight[..., None]) * h
    return np.round(np.dstack((rgb, alpha)) * 255).astype(np.uint8)


def mark_images(symbol: str, halo: str, n: int = 64):
    """The texture(s) of a ``+ - x •`` mark, and the half width they cover (ball radii).

    Shapes and sizes are those of :data:`shibumi.views.marks.GEOMETRY`.  A mark
    of two strokes comes as two pictures that together make the whole mark
    (each pixel belongs to the stroke nearer to it), one sprite each.
    """
    g = GEOMETRY
    if symbol == "•":
        extent = g["dot"] + g["halo"] + 0.06
    else:
        extent = g["arm"] + g["stroke"] / 2 + g["halo"] + 0.06
    pixel = 2 * extent / n
    ticks = (np.arange(n) + 0.5) * pixel - extent
    x, y = np.meshgrid(ticks, ticks)
    if symbol == "•":
        dists = [np.hypot(x, y)]
        core, outline = g["dot"], g["dot"] + g["halo"]
    else:
        arm = g["arm"]
        segments = {"+": [((-arm, 0), (arm, 0)), ((0, -arm), (0, arm))],
                    "-": [((-arm, 0), (arm, 0))]}.get(symbol)
        if segments is None:     # x
            d = arm * 0.8
            segments = [((-d, -d), (d, d)), ((-d, d), (d, -d))]
        dists = [_segment_distance(x, y, a, b) for a, b in segments]
        core, outline = g["stroke"] / 2, g["stroke"] / 2 + g["halo"]
    nearest = np.min(dists, axis=0)
    image = _paint(MARKS[symbol].colour, halo, _coverage(nearest, core, pixel),
                   _coverage(nearest, outline, pixel))
    if len(dists) == 1:
        return extent, [image]
    owner = np.argmin(dists, axis=0)
    return extent, [np.where((owner == k)[..., None], image, 0).astype(np.uint8)
                    for k in range(len(dists))]


def ring_image(kind: str = "last", n: int = 64):
    """The texture of a ring around a ball in mark ``kind``'s colour, and its half width."""
    g = GEOMETRY
    radius, half = g["ring"], g["ring_stroke"] / 2
    extent = radius + half + g["halo"] + 0.06
    pixel = 2 * extent / n
    ticks = (np.arange(n) + 0.5) * pixel - extent
    x, y = np.meshgrid(ticks, ticks)
    d = np.abs(np.hypot(x, y) - radius)
    image = _paint(MARKS[kind].colour, HALO_DARK, _coverage(d, half, pixel),
                   0.55 * _coverage(d, half + g["halo"], pixel))
    return extent, image


def _texture(image: np.ndarray) -> "three.DataTexture":
    return three.DataTexture(data=image, format="RGBAFormat", type="UnsignedByteType",
                             magFilter="LinearFilter", minFilter="LinearFilter",
                             generateMipmaps=False)


def _sprite_material(image: np.ndarray) -> "three.SpriteMaterial":
    # Not depth tested: a mark is drawn over every ball, never hidden behind one.
    return three.SpriteMaterial(map=_texture(image), transparent=True, depthTest=False,
                                depthWrite=False)


# Mark materials (and their textures) are shared by every view of a kernel: a page
# of the book then carries each picture once, however many views show it.
_SHARED_MATERIALS: dict = {}


def _mark_materials(symbol: str, halo: str):
    """(half width in ball radii, one sprite material per part) of a mark."""
    key = ("mark", symbol, halo)
    if key not in _SHARED_MATERIALS:
        extent, images = mark_images(symbol, halo)
        _SHARED_MATERIALS[key] = (extent, [_sprite_material(i) for i in images])
    return _SHARED_MATERIALS[key]


def _ring_material(kind: str = "last"):
    """(half width in ball radii, sprite material) of a ring around a ball."""
    key = ("ring", kind)
    if key not in _SHARED_MATERIALS:
        extent, image = ring_image(kind)
        _SHARED_MATERIALS[key] = (extent, _sprite_material(image))
    return _SHARED_MATERIALS[key]


def _as_points(points) -> tuple:
    """One point or a sequence of points, as a tuple."""
    if isinstance(points, (int, str)):
        return (points,)
    return tuple(points)


class PyramidView:
    """An orbitable 3D picture of a position, updated in place.

    >>> view = PyramidView(Position.empty().place(0, WHITE))   # doctest: +SKIP
    >>> view.widget                                            # doctest: +SKIP

    ``update(position)`` changes only the balls whose look changed.  The
    overlay methods return the view, so calls chain.
    """

    def __init__(self, position: Position | None = None, width: int = 480,
                 height: int = 400, pick_event: str = "dblclick") -> None:
        self.position = Position.empty()
        self._show_hidden = False
        self._playable: int | bool = False      # False: off, True: follow, int: fixed
        self._labels = False
        self._click_callbacks: list = []
        self._point_of_model: dict[str, int] = {}

        # shared geometries and materials
        self._sphere_geometry = three.SphereBufferGeometry(
            radius=BALL_RADIUS, widthSegments=32, heightSegments=24)
        self.materials = {c: three.MeshPhongMaterial(color=hexa, shininess=60,
                                                     specular="#444444")
                          for c, hexa in _BALL_COLOURS.items()}
        # Hidden balls, when shown, are ghosts drawn through the balls covering them.
        self.ghost_materials = {c: three.MeshPhongMaterial(
            color=hexa, transparent=True, opacity=0.45, depthTest=False,
            depthWrite=False) for c, hexa in _BALL_COLOURS.items()}

        self.balls = [self._make_ball(p) for p in POINTS]
        self.ball_group = three.Group(name="balls", children=tuple(self.balls))
        self.playable_group = three.Group(name="playable")
        self.mark_group = three.Group(name="marks")
        self.last_group = three.Group(name="last move")
        self.path_group = three.Group(name="paths")
        self.label_group = three.Group(name="labels")
        # Only what a player may click goes under the picker's group.
        self.pickable = three.Group(name="pickable", children=(
            self.ball_group, self.playable_group, self.mark_group))
        self.board = self._make_board()

        self.lights = (
            three.AmbientLight(color="#ffffff", intensity=0.55),
            _directional_light(0.65, (3, 9, 6)),
            _directional_light(0.2, (-5, 4, -4)),
        )
        self.scene = three.Scene(background="#eeeae2", children=(
            *self.lights, self.board, self.pickable, self.last_group,
            self.path_group, self.label_group))
        self.camera = three.PerspectiveCamera(
            position=_CAMERA_EYE, up=(0, 1, 0), fov=_CAMERA_FOV, aspect=width / height,
            near=1, far=60, quaternion=_look_at_quaternion(_CAMERA_EYE, _CAMERA_TARGET))
        self.controls = three.OrbitControls(
            controlling=self.camera, target=_CAMERA_TARGET, enablePan=False,
            minDistance=4, maxDistance=25, maxPolarAngle=math.radians(85))
        self.picker = three.Picker(controlling=self.pickable, event=pick_event)
        self.picker.observe(self._on_pick, names="object")
        self.widget = three.Renderer(
            camera=self.camera, scene=self.scene, controls=[self.controls, self.picker],
            width=width, height=height, antialias=True)

        # overlay objects, made on first use and kept
        self._playable_markers: dict[int, three.Mesh] = {}
        self._labels_made: dict[int, three.Group] = {}
        self._marks: dict[int, tuple[str, three.Group]] = {}
        self._last_markers: list[three.Group] = []
        self._marker_geometry = self._marker_material = None

        if position is not None:
            self.update(position)

    # -- building ----------------------------------------------------------
    def _make_ball(self, p: int) -> three.Mesh:
        mesh = three.Mesh(geometry=self._sphere_geometry, material=self.materials[WHITE],
                          position=scene_position(p), visible=False, name=point_name(p))
        self._point_of_model[mesh.model_id] = p
        return mesh

    def _make_board(self) -> three.Group:
        wood = three.MeshPhongMaterial(color="#d4ad6e", shininess=15)
        slab = three.Mesh(
            geometry=three.BoxBufferGeometry(width=BOARD_SIZE, height=BOARD_THICKNESS,
                                             depth=BOARD_SIZE),
            material=wood, position=(0, -BOARD_THICKNESS / 2, 0), name="board")
        hole_geometry = three.CircleBufferGeometry(radius=HOLE_RADIUS, segments=32)
        hole_material = three.MeshBasicMaterial(color="#4a3318")
        holes = []
        for p in POINTS:
            if LEVEL[p] == 0:
                x, _, z = scene_position(p)
                holes.append(three.Mesh(geometry=hole_geometry, material=hole_material,
                                        position=(x, 0.01, z),
                                        quaternion=_FLAT,
                                        name=f"hole {point_name(p)}"))
        return three.Group(name="board", children=(slab, *holes))

    # -- the balls -----------------------------------------------------------
    def _look(self, position: Position, p: int, hidden: int):
        """(visible, material or None) wanted for the mesh at p."""
        colour = position.colour_at(p)
        if colour == EMPTY:
            return False, None
        if hidden >> p & 1:
            return self._show_hidden, self.ghost_materials[colour]
        return True, self.materials[colour]

    def _apply(self, position: Position, points) -> set[int]:
        hidden = position.hidden()
        changed = set()
        for p in points:
            mesh = self.balls[p]
            visible, material = self._look(position, p, hidden)
            if material is not None and mesh.material is not material:
                mesh.material = material
                changed.add(p)
            if mesh.visible != visible:
                mesh.visible = visible
                changed.add(p)
        return changed

    def update(self, position: Position) -> set[int]:
        """Show a new position; returns the points whose ball mesh changed.

        Only points whose colour or hidden state differ from the shown
        position are looked at; the scene graph itself is left as it is.
        """
        if not isinstance(position, Position):
            raise TypeError(f"update() takes a Position, not {type(position).__name__}")
        old = self.position
        diff = ((old.white ^ position.white) | (old.black ^ position.black)
                | (old.red ^ position.red) | (old.hidden() ^ position.hidden()))
        self.position = position
        changed = self._apply(position, [p for p in POINTS if diff >> p & 1])
        if self._playable is True:
            self._set_playable(position.playable())
        if self._labels:
            self._refresh_labels()
        if self._marks:
            self._refresh_marks()
        return changed

    def show_hidden(self, show: bool = True) -> "PyramidView":
        """Draw hidden balls as ghosts seen through the balls above (or not at all)."""
        self._show_hidden = bool(show)
        hidden = self.position.hidden()
        self._apply(self.position, [p for p in POINTS if hidden >> p & 1])
        return self

    def ball_mesh(self, p) -> three.Mesh:
        """The sphere mesh of a point (it exists even while the point is empty)."""
        return self.balls[as_point(p)]

    # -- overlays ------------------------------------------------------------
    def show_playable(self, mask: int | bool = True) -> "PyramidView":
        """Small translucent markers on playable points.

        ``True`` follows the shown position (refreshed by :meth:`update`), an
        ``int`` mask shows those points, ``False`` (or ``0``) clears them.
        """
        if mask is True:
            self._playable = True
            mask = self.position.playable()
        elif mask is False or mask is None:
            self._playable, mask = False, 0
        elif type(mask) is int and mask >= 0:
            self._playable = mask
        else:
            raise ValueError(f"show_playable takes a point mask, True or False, not {mask!r}")
        self._set_playable(mask)
        return self

    def _set_playable(self, mask: int) -> None:
        shown = []
        for p in POINTS:
            if mask >> p & 1:
                if p not in self._playable_markers:
                    if self._marker_geometry is None:
                        self._marker_geometry = three.SphereBufferGeometry(
                            radius=0.16, widthSegments=16, heightSegments=12)
                        self._marker_material = three.MeshPhongMaterial(
                            color=MARKS["playable"].colour, transparent=True, opacity=0.7)
                    marker = three.Mesh(geometry=self._marker_geometry,
                                        material=self._marker_material,
                                        position=marker_position(p),
                                        name=f"playable {point_name(p)}")
                    self._point_of_model[marker.model_id] = p
                    self._playable_markers[p] = marker
                shown.append(self._playable_markers[p])
        if tuple(shown) != tuple(self.playable_group.children):
            self.playable_group.children = tuple(shown)

    def mark_last(self, point=None) -> "PyramidView":
        """Ring the ball of the last move (None clears); a sequence rings several.

        The ring is the ``last`` mark of :mod:`shibumi.views.marks`: a cyan
        ring that faces the camera and is drawn over the balls.  Each ring
        hangs from a group standing on top of the ball, centred on the ball.
        """
        if point is None:
            self.last_group.children = ()
            return self
        rings = []
        for i, p in enumerate(map(as_point, _as_points(point))):
            while len(self._last_markers) <= i:
                extent, material = _ring_material("last")
                size = 2 * extent * BALL_RADIUS
                ring = three.Sprite(material=material, scale=(size, size, 1),
                                    position=(0, -(BALL_RADIUS + 0.04), 0),
                                    renderOrder=_MARK_ORDER - 1)
                self._last_markers.append(three.Group(children=(ring,), name="last move"))
            group = self._last_markers[i]
            x, y, z = scene_position(p)
            group.position = (x, y + BALL_RADIUS + 0.04, z)
            rings.append(group)
        self.last_group.children = tuple(rings)
        return self

    def mark(self, points, symbol: str = "+") -> "PyramidView":
        """Put a ``+``, ``-``, ``x`` or ``•`` on top of the balls at these points.

        A mark on an empty point floats where the ball's centre would be.  A
        point holds one mark: marking it again replaces the symbol.
        """
        if symbol not in _MARK_COLOURS:
            raise ValueError(f"a mark is one of {' '.join(MARK_SYMBOLS)}, not {symbol!r}")
        for p in map(as_point, _as_points(points)):
            if p in self._marks and self._marks[p][0] == symbol:
                continue
            self._marks[p] = (symbol, self._make_mark(p, symbol))
        self._refresh_marks()
        return self

    def clear_marks(self, points=None) -> "PyramidView":
        """Remove the marks at these points (all marks by default)."""
        if points is None:
            self._marks.clear()
        else:
            for p in map(as_point, _as_points(points)):
                self._marks.pop(p, None)
        self._refresh_marks()
        return self

    def _refresh_marks(self) -> None:
        for p, (symbol, group) in self._marks.items():
            x, y, z = scene_position(p)
            occupied = self.position.occupied >> p & 1
            if occupied:   # a little up the ball, toward its top
                y += 0.1
            if tuple(group.position) != (x, y, z):
                group.position = (x, y, z)
            colour = self.position.colour_at(p) if occupied else EMPTY
            _, materials = _mark_materials(symbol, halo_for(_COLOUR_NAME[colour]))
            for sprite, material in zip(group.children, materials):
                if sprite.material is not material:
                    sprite.material = material
        children = tuple(self._marks[p][1] for p in sorted(self._marks))
        if children != tuple(self.mark_group.children):
            self.mark_group.children = children

    def _make_mark(self, p: int, symbol: str) -> three.Group:
        """A mark as camera-facing sprites (one per stroke), drawn over the balls."""
        extent, materials = _mark_materials(symbol, halo_for(None))
        size = 2 * extent * BALL_RADIUS
        parts = [three.Sprite(material=m, scale=(size, size, 1), renderOrder=_MARK_ORDER)
                 for m in materials]
        for part in parts:
            self._point_of_model[part.model_id] = p
        return three.Group(children=tuple(parts), name=f"mark {symbol} {point_name(p)}")

    def draw_path(self, points, color: str | None = None, keep: bool = False,
                  linewidth: float = 6) -> "PyramidView":
        """A thick line through the centres of these points, drawn over the balls.

        Replaces the paths already drawn unless ``keep``; an empty sequence
        clears them.  ``linewidth`` is in pixels.
        """
        pts = [as_point(p) for p in _as_points(points)]
        paths = tuple(self.path_group.children) if keep else ()
        if len(pts) >= 2:
            colour = color or _PATH_COLOURS[len(paths) % len(_PATH_COLOURS)]
            positions = np.array([scene_position(p) for p in pts], dtype=np.float32)
            line = three.Line2(
                geometry=three.LineGeometry(positions=positions),
                material=three.LineMaterial(color=colour, linewidth=linewidth,
                                            depthTest=False, transparent=True,
                                            opacity=0.85),
                renderOrder=10, name="path " + "-".join(point_name(p) for p in pts))
            paths += (line,)
        self.path_group.children = paths
        return self

    def clear_paths(self) -> "PyramidView":
        self.path_group.children = ()
        return self

    def labels(self, show: bool = True) -> "PyramidView":
        """Write point names on the visible balls and the playable points."""
        self._labels = bool(show)
        self._refresh_labels()
        return self

    def _refresh_labels(self) -> None:
        if not self._labels:
            self.label_group.children = ()
            return
        pos = self.position
        wanted = pos.visible() | pos.playable()
        shown = []
        for p in POINTS:
            if wanted >> p & 1:
                label = self._labels_made.get(p)
                if label is None:
                    label = self._labels_made[p] = self._make_label(p)
                shown.append(label)
        if tuple(shown) != tuple(self.label_group.children):
            self.label_group.children = tuple(shown)

    def _make_label(self, p: int) -> three.Group:
        text = point_name(p)
        # The text texture is a square as wide as the text: size the sprite by the
        # text's width so that every label gets the same letter height.
        width = 0.17 * sum(_GLYPH_WIDTH.get(ch, 0.56) for ch in text) + 0.02
        backing = three.Sprite(
            material=three.SpriteMaterial(color="#ffffff", opacity=0.7, transparent=True,
                                          depthTest=False, depthWrite=False),
            scale=(width + 0.06, 0.22, 1), renderOrder=20)
        letters = three.Sprite(
            material=three.SpriteMaterial(
                map=three.TextTexture(string=text, size=64, color="#111111",
                                      squareTexture=True),
                transparent=True, depthTest=False, depthWrite=False),
            scale=(width, width, 1), renderOrder=21)
        # Drawn at the ball's centre, over everything: the name sits on the ball.
        return three.Group(children=(backing, letters), position=scene_position(p),
                           name=f"label {text}")

    # -- picking ---------------------------------------------------------------
    def on_click(self, callback, remove: bool = False) -> "PyramidView":
        """Call ``callback(point)`` when a ball, a playable marker or a mark is picked.

        The picking event is the constructor's ``pick_event`` (a double click by
        default, so that dragging to orbit never picks).  Needs a live kernel.
        """
        if remove:
            self._click_callbacks = [c for c in self._click_callbacks if c != callback]
        else:
            self._click_callbacks.append(callback)
        return self

    def point_of(self, obj) -> int | None:
        """The point a pickable scene object stands for, or None."""
        return None if obj is None else self._point_of_model.get(obj.model_id)

    def _on_pick(self, change) -> None:
        p = self.point_of(change["new"])
        if p is None:
            return
        # Forget the pick so that picking the same object again is a change too.
        self.picker.object = None
        for callback in list(self._click_callbacks):
            callback(p)

    # -- display ---------------------------------------------------------------
    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


    def annotate(self, texts: dict | None = None, color: str = "#1b5e20") -> "PyramidView":
        """Write a short text at each given point, e.g. the value of a move there.

        ``texts`` maps points (numbers or names) to strings; each is drawn as a
        small label (white letters on a coloured backing, over everything) at
        the ball's centre, or on top of the ball if the point is filled.  A
        call replaces the previous annotations; ``None`` or ``{}`` clears them.
        ``color`` is the backing's colour, or a dict {point: colour}.
        """
        group = getattr(self, "_annotation_group", None)
        if group is None:
            group = self._annotation_group = three.Group(name="annotations")
            self.scene.children = tuple(self.scene.children) + (group,)
        colours = ({as_point(q): c for q, c in color.items()} if isinstance(color, dict)
                   else {})
        shown = []
        for p, text in (texts or {}).items():
            p = as_point(p)
            text = str(text)
            backing_colour = colours.get(p, "#1b5e20") if isinstance(color, dict) else color
            width = 0.17 * sum(_GLYPH_WIDTH.get(ch, 0.56) for ch in text) + 0.02
            backing = three.Sprite(
                material=three.SpriteMaterial(color=backing_colour, opacity=0.85,
                                              transparent=True, depthTest=False,
                                              depthWrite=False),
                scale=(width + 0.08, 0.24, 1), renderOrder=30)
            letters = three.Sprite(
                material=three.SpriteMaterial(
                    map=three.TextTexture(string=text, size=64, color="#ffffff",
                                          squareTexture=True),
                    transparent=True, depthTest=False, depthWrite=False),
                scale=(width, width, 1), renderOrder=31)
            x, y, z = scene_position(p)
            if self.position.occupied >> p & 1:
                y += BALL_RADIUS + 0.15
            shown.append(three.Group(children=(backing, letters), position=(x, y, z),
                                     name=f"annotation {point_name(p)} {text}"))
        group.children = tuple(shown)
        return self


# -- a square grid (games of another board type) ----------------------------------------

_STONE_RADIUS, _STONE_HEIGHT, _CHARACTER_RADIUS, _PAWN_HEIGHT = 0.4, 0.25, 0.28, 0.55


class GridView:
    """An orbitable 3D picture of a position on a square grid (:mod:`shibumi.grid`).

    The board is a slab of wooden cells (chasms are dark pits); stones are
    flat cylinders, pawns tall ones, a character a ball standing on its stone.
    The scene's units are the in-page board's (``grid.geometry()``): one unit a
    cell, the board centred on the origin, rank 1 nearest +z.  ``update``,
    ``mark``, ``mark_last`` and ``draw_path`` as for :class:`PyramidView`.

    >>> from shibumi.grid import GridPosition, grid
    >>> view = GridView(GridPosition.parse(grid(7), 'BBBB*BBB/7/7/7/7/7/WWWW*WWW'))
    >>> len(view.piece_group.children)       # 14 stones and 2 characters
    16
    """

    def __init__(self, position, width: int = 480, height: int = 400,
                 pick_event: str = "dblclick") -> None:
        self.grid = position.grid
        n = self.grid.size
        self.position = position
        self._point_of_model: dict[str, int] = {}
        self._click_callbacks: list = []
        self._scale = 7.0 / max(n, 1) * 0.62          # a 7x7 grid fills the pyramid's view
        self.materials = {c: three.MeshPhongMaterial(color=hexa, shininess=60,
                                                     specular="#444444")
                          for c, hexa in _BALL_COLOURS.items()}
        self._stone_geometry = three.CylinderBufferGeometry(
            radiusTop=_STONE_RADIUS, radiusBottom=_STONE_RADIUS, height=_STONE_HEIGHT,
            radialSegments=32)
        self._pawn_geometry = three.CylinderBufferGeometry(
            radiusTop=0.22, radiusBottom=0.3, height=_PAWN_HEIGHT, radialSegments=24)
        self._ball_geometry = three.SphereBufferGeometry(
            radius=_CHARACTER_RADIUS, widthSegments=24, heightSegments=16)
        self.piece_group = three.Group(name="pieces")
        self.mark_group = three.Group(name="marks")
        self.last_group = three.Group(name="last move")
        self.path_group = three.Group(name="paths")
        self._marks: dict[int, str] = {}
        self.board = self._make_board(position)
        s = self._scale
        self.world = three.Group(scale=(s, s, s), children=(
            self.board, self.piece_group, self.mark_group, self.last_group, self.path_group))
        self.scene = three.Scene(background="#eeeae2", children=(
            three.AmbientLight(color="#ffffff", intensity=0.55),
            _directional_light(0.65, (3, 9, 6)), _directional_light(0.2, (-5, 4, -4)),
            self.world))
        self.camera = three.PerspectiveCamera(
            position=_CAMERA_EYE, up=(0, 1, 0), fov=_CAMERA_FOV, aspect=width / height,
            near=1, far=60, quaternion=_look_at_quaternion(_CAMERA_EYE, _CAMERA_TARGET))
        self.controls = three.OrbitControls(
            controlling=self.camera, target=_CAMERA_TARGET, enablePan=False,
            minDistance=4, maxDistance=25, maxPolarAngle=math.radians(85))
        self.playable_group = three.Group(name="playable")
        self.world.children = (*self.world.children, self.playable_group)
        self.picker = three.Picker(controlling=self.world, event=pick_event)
        self.picker.observe(self._on_pick, names="object")
        self.widget = three.Renderer(camera=self.camera, scene=self.scene,
                                     controls=[self.controls, self.picker], width=width,
                                     height=height, antialias=True)
        self.update(position)

    def cell_xz(self, p: int) -> tuple[float, float]:
        point = self.grid.geometry()["points"][p]
        return point["x"], point["z"]

    def _make_board(self, position) -> three.Group:
        n = self.grid.size
        light = three.MeshPhongMaterial(color="#e2c48e", shininess=15)
        dark = three.MeshPhongMaterial(color="#cfa96c", shininess=15)
        pit = three.MeshPhongMaterial(color="#2a1d10")
        cell_geometry = three.BoxBufferGeometry(width=0.98, height=BOARD_THICKNESS, depth=0.98)
        cells = []
        for p in range(self.grid.num_points):
            f, r = self.grid.coords(p)
            x, z = self.cell_xz(p)
            chasm = position.chasms >> p & 1
            cells.append(three.Mesh(
                geometry=cell_geometry, material=pit if chasm else (dark if (f + r) % 2 == 0
                                                                    else light),
                position=(x, -BOARD_THICKNESS / 2 - (0.25 if chasm else 0), z),
                name=f"{'chasm' if chasm else 'cell'} {self.grid.name(p)}"))
            self._point_of_model[cells[-1].model_id] = p
        frame = three.Mesh(geometry=three.BoxBufferGeometry(
            width=n + 0.3, height=BOARD_THICKNESS, depth=n + 0.3),
            material=three.MeshPhongMaterial(color="#8a6434"),
            position=(0, -BOARD_THICKNESS / 2 - 0.3, 0), name="frame")
        return three.Group(name="board", children=(frame, *cells))

    def update(self, position) -> "GridView":
        """Show a new position (the pieces are rebuilt: a grid holds few)."""
        self.position = position
        meshes = []
        for piece in self.grid.pieces(position):
            if piece["kind"] not in ("stone", "pawn"):
                continue
            x, z = self.cell_xz(piece["point"])
            material = self.materials[WHITE if piece["colour"] == "W" else BLACK]
            name = self.grid.name(piece["point"])
            if piece["kind"] == "stone":
                meshes.append(three.Mesh(geometry=self._stone_geometry, material=material,
                                         position=(x, _STONE_HEIGHT / 2, z),
                                         name=f"stone {name}"))
            else:
                meshes.append(three.Mesh(geometry=self._pawn_geometry, material=material,
                                         position=(x, _PAWN_HEIGHT / 2, z),
                                         name=f"pawn {name}"))
            if piece.get("character"):
                meshes.append(three.Mesh(
                    geometry=self._ball_geometry, material=self.materials[RED],
                    position=(x, _STONE_HEIGHT + _CHARACTER_RADIUS, z),
                    name=f"character {name}"))
        for mesh in meshes:
            self._point_of_model[mesh.model_id] = self.grid.parse_point(mesh.name.split()[-1])
        self.piece_group.children = tuple(meshes)
        return self

    # -- what the play widget asks, as PyramidView answers it -----------------------
    def on_click(self, callback, remove: bool = False) -> "GridView":
        """Call ``callback(cell)`` when a cell or a piece is picked (double click)."""
        if remove:
            self._click_callbacks = [c for c in self._click_callbacks if c != callback]
        else:
            self._click_callbacks.append(callback)
        return self

    def _on_pick(self, change) -> None:
        obj = change["new"]
        p = None if obj is None else self._point_of_model.get(obj.model_id)
        if p is None:
            return
        self.picker.object = None
        for callback in list(self._click_callbacks):
            callback(p)

    def show_playable(self, mask: int | bool = True) -> "GridView":
        """Small markers on the cells given by a mask (True: none is implied on a grid)."""
        mask = 0 if mask is True or not mask else mask
        markers = []
        for p in range(self.grid.num_points):
            if mask >> p & 1 and not self.position.occupied >> p & 1:
                x, z = self.cell_xz(p)
                marker = three.Mesh(geometry=three.SphereBufferGeometry(radius=0.14),
                                    material=three.MeshPhongMaterial(
                                        color=MARKS["playable"].colour, transparent=True,
                                        opacity=0.7),
                                    position=(x, 0.1, z), name=f"playable {self.grid.name(p)}")
                self._point_of_model[marker.model_id] = p
                markers.append(marker)
        self.playable_group.children = tuple(markers)
        return self

    def clear_marks(self, points=None) -> "GridView":
        if points is None:
            self._marks.clear()
        else:
            for p in map(self.grid.as_point, _as_points(points)):
                self._marks.pop(p, None)
        return self.mark([], "+")

    def clear_paths(self) -> "GridView":
        self.path_group.children = ()
        return self

    def _top(self, p: int) -> tuple[float, float, float]:
        x, z = self.cell_xz(p)
        high = self.position.characters >> p & 1
        return (x, _STONE_HEIGHT + (2 * _CHARACTER_RADIUS if high else 0) + 0.05, z)

    def mark(self, points, symbol: str = "+") -> "GridView":
        if symbol not in _MARK_COLOURS:
            raise ValueError(f"a mark is one of {' '.join(MARK_SYMBOLS)}, not {symbol!r}")
        for p in map(self.grid.as_point, _as_points(points)):
            self._marks[p] = symbol
        groups = []
        for p, sym in sorted(self._marks.items()):
            extent, materials = _mark_materials(sym, halo_for(None))
            size = extent * 2 * 0.5
            groups.append(three.Group(position=self._top(p), name=f"mark {sym}", children=tuple(
                three.Sprite(material=m, scale=(size, size, 1), renderOrder=_MARK_ORDER)
                for m in materials)))
        self.mark_group.children = tuple(groups)
        return self

    def mark_last(self, point=None) -> "GridView":
        rings = []
        for p in ([] if point is None else map(self.grid.as_point, _as_points(point))):
            extent, material = _ring_material("last")
            size = 2 * extent * 0.5
            rings.append(three.Sprite(material=material, scale=(size, size, 1),
                                      position=self._top(p), renderOrder=_MARK_ORDER - 1))
        self.last_group.children = tuple(rings)
        return self

    def draw_path(self, points, color: str | None = None, keep: bool = False,
                  linewidth: float = 6) -> "GridView":
        pts = [self.grid.as_point(p) for p in _as_points(points)]
        paths = tuple(self.path_group.children) if keep else ()
        if len(pts) >= 2:
            colour = color or _PATH_COLOURS[len(paths) % len(_PATH_COLOURS)]
            positions = np.array([self._top(p) for p in pts], dtype=np.float32)
            paths += (three.Line2(
                geometry=three.LineGeometry(positions=positions),
                material=three.LineMaterial(color=colour, linewidth=linewidth,
                                            depthTest=False, transparent=True, opacity=0.85),
                renderOrder=10),)
        self.path_group.children = paths
        return self

    def show_hidden(self, show: bool = True) -> "GridView":
        """Nothing is hidden on a grid (kept so both views answer alike)."""
        return self

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def view_of(position, width: int = 480, height: int = 400):
    """The 3D view that fits a position's board type: a :class:`GridView` for a
    grid, else a :class:`PyramidView`."""
    if getattr(position, "grid", None) is not None:
        return GridView(position, width=width, height=height)
    return PyramidView(position, width=width, height=height)
