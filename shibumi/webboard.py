"""The engine's side of the board in the book's pages.

In the reader's browser a Web Worker runs this package under Pyodide
(WebAssembly CPython) and passes every request of the page's boards to
:func:`handle`: an operation name and its arguments as JSON in, a JSON reply
out.  Each board of a page has its own :class:`~shibumi.interaction.Table`,
keyed by the board's id.  Nothing here draws; ``book/_extra/board/board.js``
draws the replies.

>>> import json
>>> reply = json.loads(handle("open", '{"board": 1, "game": "spline", "seed": 1}'))
>>> reply["view"]["turn"], len(reply["geometry"]["points"])
('White (you) to move.', 30)
>>> old = reply["view"]["version"]
>>> click = {"board": 1, "point": 12, "version": old}
>>> view = json.loads(handle("click", json.dumps(click)))["view"]
>>> view["message"], view["ai_due"]
('White played a7. Black (AI) to move.', True)
>>> json.loads(handle("click", json.dumps(click)))["view"]["message"]
'That click was made on an earlier position: nothing was played. Look again and choose.'
>>> json.loads(handle("fly", '{"board": 1}'))
{'error': "There is no request 'fly'; requests: open, click, choose, all, undo, new, seat, strength, reveal, values, ai, random, bench."}
"""

from __future__ import annotations

import json
import random
import time

from .errors import ShibumiError, shown
from .geometry import CENTRE, LEVEL, NUM_POINTS
from .interaction import Table
from .notation import FILES, point_name, square_of
from .registry import all_games, load

__all__ = ["handle", "geometry", "games", "playout_rate"]

#: The scene's units: ball radius 0.5, holes one unit apart, y up, the board's
#: top face at y = 0 and rank 1 nearest +z (as in shibumi.views.three).
BALL_RADIUS, BALL_HEIGHT, BOARD_SIZE, BOARD_THICKNESS, HOLE_RADIUS = 0.5, 0.4, 4.5, 0.3, 0.3
#: At most this many boards on a page (each holds a game).
MAX_BOARDS = 100

#: What a fresh board says before the first move.
OPENING_HINT = ("Click a marked point to play there (a ball, to move or remove it); "
                "drag to turn the pyramid.")

#: The same on a board of squares (a grid).
GRID_HINT = "Click a piece, then where it goes (or a marked cell); drag to turn the board."

_tables: dict[str, Table] = {}


def geometry(game=None) -> dict:
    """Where a game's board draws every point (scene coordinates, y up): the
    board type of the game (the pyramid when no game is given) says.

    >>> geometry(load('sensei'))['kind'], len(geometry(load('sensei'))['points'])
    ('grid', 49)
    """
    if game is None:
        return pyramid_geometry()
    return game.board.geometry()


def pyramid_geometry() -> dict:
    """Where every point and square of the pyramid is drawn (scene coordinates, y up)."""
    points = []
    for p in range(NUM_POINTS):
        x, y, z = CENTRE[p]
        points.append({"name": point_name(p), "square": square_of(p), "level": LEVEL[p],
                       "x": x - 1.5, "y": z + BALL_HEIGHT, "z": 1.5 - y})
    return {"kind": "pyramid", "points": points, "board_size": BOARD_SIZE, "board_thickness": BOARD_THICKNESS,
            "ball_radius": BALL_RADIUS, "hole_radius": HOLE_RADIUS,
            "files": list(FILES[:7]), "ranks": [str(r) for r in range(1, 8)],
            "squares": [{"name": f"{FILES[f]}{r + 1}", "x": f / 2 - 1.5, "z": 1.5 - r / 2}
                        for f in range(7) for r in range(7)]}


def games() -> list[list[str]]:
    """[module, name, family] of every registered game, in the catalogue's order."""
    out = []
    for cls in all_games():
        module = cls.__module__.rsplit(".", 1)[-1]
        out.append([module, cls.info.name, cls.info.family])
    return out


def handle(op: str, args_json: str) -> str:
    """Answer one request of a board: a JSON reply with the board's new ``view``
    (and, for ``open``, its ``geometry`` and the list of ``games``), or ``error``."""
    try:
        args = json.loads(args_json) if args_json else {}
        if not isinstance(args, dict):
            raise ShibumiError("the arguments are a JSON object")
        action = _OPS.get(op)
        if action is None:
            raise ShibumiError(f"There is no request {shown(op)}; requests: "
                               f"{', '.join(_OPS)}.")
        return json.dumps(action(args))
    except (ShibumiError, ValueError, TypeError, KeyError) as exc:
        text = str(exc) if not isinstance(exc, KeyError) else f"missing {exc}"
        return json.dumps({"error": text[:1:].upper() + text[1:]})


def _table(args: dict) -> Table:
    key = str(args.get("board"))
    if key not in _tables:
        raise ShibumiError(f"board {shown(key)} is not open")
    return _tables[key]


def _open(args: dict) -> dict:
    key = str(args.get("board"))
    if key not in _tables and len(_tables) >= MAX_BOARDS:
        raise ShibumiError(f"at most {MAX_BOARDS} boards on a page")
    name = args.get("game", "spline")
    module_names = {m: n for m, n, _ in games()}
    game = load(module_names.get(name, name))
    seed = args.get("seed")
    table = Table(game, seats=args.get("seats"), ai=args.get("strength", "medium"),
                  seed=seed if isinstance(seed, int) else None, record=args.get("record"))
    if not table.covered and not table.ai_due:
        table.message = OPENING_HINT if game.board.kind == "pyramid" else GRID_HINT
    _tables[key] = table
    return {"view": _view(key, table), "geometry": geometry(game), "games": games()}


def _view(key: str, table: Table) -> dict:
    view = table.view()
    view["board"] = key
    view["game"]["module"] = type(table.game).__module__.rsplit(".", 1)[-1]
    view["game"]["spec"] = str(table.game.info.name)
    return view


def _acting(action):
    """An operation on an open board: run it, reply with the board's view."""
    def op(args: dict) -> dict:
        table = _table(args)
        action(table, args)
        return {"view": _view(str(args.get("board")), table)}
    return op


def _random(table: Table, args: dict) -> None:
    """Play ``count`` (default 1, at most 10,000) uniformly random options of the
    awaited seats, AI seats answering as usual (tests and demos)."""
    rng = random.Random(args.get("seed"))
    version = args.get("version")
    for _ in range(max(1, min(int(args.get("count", 1)), 10_000))):
        if table.match.is_over():
            return
        if table.covered:
            table.reveal()
            version = table.version if version is not None else None
        if table.ai_due:
            table.ai_step(version=version)
        else:
            options = table.options()
            if not options or table.choose(rng.randrange(len(options)), version=version) is None:
                return
        version = table.version if version is not None else None


def playout_rate(game, seconds: float) -> dict:
    """Random playouts from the start in about ``seconds`` in this interpreter
    (the browser benchmark compares the page's figure with native CPython's)."""
    rng = random.Random(1)
    start = game.initial_state(rng)
    count, began = 0, time.perf_counter()
    while time.perf_counter() - began < seconds:
        game.random_playout(start, rng)
        count += 1
    return {"playouts": count, "seconds": time.perf_counter() - began}


def _bench(args: dict) -> dict:
    return playout_rate(load(args.get("game", "spline")), min(float(args.get("seconds", 2.0)), 30.0))


_OPS = {
    "open": _open,
    "click": _acting(lambda t, a: t.click(a["point"], version=a.get("version"))),
    "choose": _acting(lambda t, a: t.choose(a["index"], version=a.get("version"))),
    "all": _acting(lambda t, a: t.show_all()),
    "undo": _acting(lambda t, a: t.undo()),
    "new": _acting(lambda t, a: t.new_game()),
    "seat": _acting(lambda t, a: t.set_seat(a["player"], a["kind"])),
    "strength": _acting(lambda t, a: t.set_ai(a["level"])),
    "reveal": _acting(lambda t, a: t.reveal()),
    "values": _acting(lambda t, a: t.set_values(bool(a.get("show", True)))),
    "ai": _acting(lambda t, a: t.ai_step(version=a.get("version")) if t.ai_due else None),
    "random": _acting(_random),
    "bench": _bench,
}
