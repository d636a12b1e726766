"""A square grid of any size: the second kind of board the game model hosts.

The pyramid (:mod:`shibumi.geometry`, :mod:`shibumi.position`) is one board
type; :class:`Grid` is another.  A game names its board type in its ``board``
attribute and everything that draws, names or clicks a point asks that board
(:mod:`shibumi.boards` describes what a board type answers).

Cells are numbered ``rank * n + file`` from ``a1`` (0) to the far corner
(``n * n - 1``); files are letters from ``a``, ranks numbers from 1 on the
first player's side.  Masks are integers with one bit per cell, as on the
pyramid.

>>> g = grid(7)
>>> g.name(0), g.name(48), g.parse_point('c4')
('a1', 'g7', 23)
>>> [g.name(q) for q in g.ray(g.parse_point('c4'), (0, 1))]
['c5', 'c6', 'c7']
>>> g.move_text(Move.make('move', 2, None, 30, board=g))
'c1-c5'
>>> g.parse_move('c1-c5') == Move.make('move', 2, None, 30, board=g)
True
>>> pos = GridPosition.parse(g, '...B*.../7/7/3#3/7/7/W..W*...')
>>> pos.text()
'...B*.../......./......./...#.../......./......./W..W*...'
"""

from __future__ import annotations

import functools
import re

from .errors import NotationError, require_text, shown
from .geometry import transform_mask
from .notation import CHOOSE, MOVE, PASS, PLACE, REMOVE, SLIDE, Move

__all__ = ["Grid", "grid", "GridPosition", "ORTHOGONAL", "DIAGONAL", "ALL_DIRECTIONS",
           "STONE", "PAWN", "EMPTY_CELL", "CHASM"]

FILE_LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: Steps (files, ranks) along rows and columns, and along diagonals.
ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, -1), (-1, 1))
ALL_DIRECTIONS = ORTHOGONAL + DIAGONAL
#: The 8 symmetries of the square, in the order of ``geometry.SYMMETRY_NAMES``:
#: identity, three rotations, mirror left-right, mirror top-bottom, two diagonals.
_MAPS = (lambda x, y, m: (x, y), lambda x, y, m: (m - y, x),
         lambda x, y, m: (m - x, m - y), lambda x, y, m: (y, m - x),
         lambda x, y, m: (m - x, y), lambda x, y, m: (x, m - y),
         lambda x, y, m: (y, x), lambda x, y, m: (m - y, m - x))

#: What a cell can hold (besides a character standing on a stone).
EMPTY_CELL, STONE, PAWN, CHASM = "empty", "stone", "pawn", "chasm"
#: Colours are the pyramid's numbers: 1 white, 2 black.
WHITE, BLACK = 1, 2
_STONE_LETTERS = {WHITE: "W", BLACK: "B"}
_PAWN_LETTERS = {WHITE: "w", BLACK: "b"}


class Grid:
    """An ``n`` x ``n`` board of square cells (2 <= n <= 26): names, lines,
    neighbours, symmetries and the text of moves.  Use :func:`grid` for the
    shared instance of a size."""

    kind = "grid"
    piece_word = "piece"

    def __init__(self, size: int) -> None:
        if type(size) is not int or not 2 <= size <= 26:
            raise NotationError(f"a grid is 2-26 cells wide, not {size!r}")
        n = self.size = size
        self.num_points = n * n
        self.all_mask = (1 << n * n) - 1
        self.files = FILE_LETTERS[:n]
        self.names = tuple(f"{self.files[p % n]}{p // n + 1}" for p in range(n * n))
        self._index = {name: p for p, name in enumerate(self.names)}
        self._cell_re = re.compile(rf"([a-{self.files[-1]}])([0-9]{{1,2}})$")
        # rays[p][d]: the cells met stepping from p along direction d, nearest first
        self.rays = tuple({d: tuple(self._walk(p, d)) for d in ALL_DIRECTIONS}
                          for p in range(n * n))
        self.orthogonal = tuple(tuple(r[d][0] for d in ORTHOGONAL if r[d]) for r in self.rays)
        self.diagonal = tuple(tuple(r[d][0] for d in DIAGONAL if r[d]) for r in self.rays)
        self.neighbours = tuple(a + b for a, b in zip(self.orthogonal, self.diagonal))
        self.orthogonal_masks = tuple(_mask(cells) for cells in self.orthogonal)
        self.rank_masks = tuple(_mask(range(r * n, r * n + n)) for r in range(n))
        self.file_masks = tuple(_mask(range(f, n * n, n)) for f in range(n))
        self.symmetries = tuple(
            tuple(self.cell(*f(p % n, p // n, n - 1)) for p in range(n * n)) for f in _MAPS)

    def __repr__(self) -> str:
        return f"grid({self.size})"

    def __reduce__(self):
        return (grid, (self.size,))

    def _walk(self, p: int, d: tuple[int, int]):
        n = self.size
        x, y = p % n + d[0], p // n + d[1]
        while 0 <= x < n and 0 <= y < n:
            yield y * n + x
            x, y = x + d[0], y + d[1]

    # -- cells -------------------------------------------------------------
    def cell(self, file: int, rank: int) -> int:
        """The cell at a file and rank counted from 0."""
        return rank * self.size + file

    def coords(self, p: int) -> tuple[int, int]:
        """(file, rank) of a cell, both counted from 0."""
        return p % self.size, p // self.size

    def ray(self, p: int, direction: tuple[int, int]) -> tuple[int, ...]:
        """The cells met going from p along a direction, nearest first."""
        return self.rays[p][direction]

    def name(self, p: int) -> str:
        return self.names[p]

    point_name = name

    def parse_point(self, text: str) -> int:
        """A cell from its name (``c4``); NotationError names the grid's range."""
        require_text(text, "a cell", "c4", 10)
        m = self._cell_re.match(text.strip().lower())
        p = self._index.get(text.strip().lower()) if m else None
        if p is None:
            raise NotationError(f"bad cell {shown(text)}: use a file a-{self.files[-1]} and "
                                f"a rank 1-{self.size}, like c4")
        return p

    def point_candidates(self, text: str) -> tuple[int, ...]:
        return (self.parse_point(text),)

    def as_point(self, p) -> int:
        """A cell from its number or its name."""
        if isinstance(p, str):
            return self.parse_point(p)
        if type(p) is not int or not 0 <= p < self.num_points:
            raise NotationError(f"a cell is a number 0-{self.num_points - 1} or a name "
                                f"like 'c4', not {p!r}")
        return p

    transform_mask = staticmethod(transform_mask)

    # -- moves -------------------------------------------------------------
    def move_text(self, move: Move) -> str:
        return format_move(self, move.kind, move.point, move.colour, move.target, move.value)

    def move_candidates(self, text: str) -> list[Move]:
        """The moves a text may mean (an omitted colour is left open)."""
        require_text(text, "a move", "c1-c5", 40)
        raw = text.strip()
        m = re.fullmatch(r"([WB])?([a-z][0-9]{1,2})", raw[:1].upper() + raw[1:].lower()
                         if raw[:1] in "WBwb" and len(raw) > 2 and raw[1:2].isalpha()
                         else raw.lower())
        if m:
            colour = None if m.group(1) is None else "WB".index(m.group(1)) + 1
            return [Move.make(PLACE, self.parse_point(m.group(2)), colour, board=self)]
        low = raw.lower()
        for kind, sep in ((MOVE, "-"), (SLIDE, "~")):
            a, s, b = low.partition(sep)
            if s and a and b:
                return [Move.make(kind, self.parse_point(a), None, self.parse_point(b),
                                  board=self)]
        if low.startswith("x") and len(low) > 1:
            return [Move.make(REMOVE, self.parse_point(low[1:]), board=self)]
        if low == "pass":
            return [Move.make(PASS, board=self)]
        if re.fullmatch(r"=[0-9]{1,6}", low):
            return [Move.make(CHOOSE, value=int(low[1:]), board=self)]
        raise NotationError(f"bad move {shown(text)}: on a {self.size}x{self.size} grid moves "
                            "are written c1-c5 (move a piece), c4 or Wc4 (place), xc4 "
                            "(remove), pass, =3 (choose)")

    def parse_move(self, text: str) -> Move:
        if not isinstance(text, str):
            raise NotationError(f"a move is given as text, not {type(text).__name__}")
        return self.move_candidates(text)[0]

    def moves_matching(self, text: str, legal) -> list[Move]:
        found = []
        for cand in self.move_candidates(text):
            for move in legal:
                if (move.kind == cand.kind and move.point == cand.point
                        and move.target == cand.target and move.value == cand.value
                        and (cand.colour is None or cand.colour == move.colour)):
                    found.append(move)
        return found

    def short_text(self, move: Move, legal) -> str:
        """The move's text without its colour when no other legal move needs it."""
        full = move.text()
        if move.colour is not None and move.kind == PLACE:
            bare = full[1:]
            if self.moves_matching(bare, legal) == [move]:
                return bare
        return full

    # -- what front ends ask ----------------------------------------------
    def click_name(self, p: int, position) -> str:
        return self.names[p]

    def parse_position(self, text: str) -> "GridPosition":
        return GridPosition.parse(self, text)

    def empty_position(self) -> "GridPosition":
        return GridPosition(self)

    def empty_text(self) -> str:
        return GridPosition(self).text() + " 1"

    def pieces(self, position: "GridPosition") -> list[dict]:
        """The pieces of a position for a front end: cell, colour letter, kind
        (stone, pawn, chasm) and ``character`` for a character standing on a stone."""
        out = []
        for p in range(self.num_points):
            kind, colour = position.at(p)
            if kind == EMPTY_CELL:
                continue
            piece = {"point": p, "kind": kind,
                     "colour": "WB"[colour - 1] if colour else None}
            if position.characters >> p & 1:
                piece["character"] = True
            out.append(piece)
        return out

    def geometry(self) -> dict:
        """Where each cell is drawn in the in-page board's scene (y up, rank 1
        nearest +z, one unit a cell), for ``book/_extra/board/board.js``."""
        n, half = self.size, (self.size - 1) / 2
        cells = [{"name": self.names[p], "x": p % n - half, "z": half - p // n}
                 for p in range(self.num_points)]
        # ball_radius is the stone's (rings and picks are sized by it); a point's
        # y is the middle of a stone standing on the board's top face.
        return {"kind": "grid", "size": n, "cell": 1.0, "board_size": n + 0.3,
                "board_thickness": 0.3, "ball_radius": 0.4, "hole_radius": 0.0,
                "stone_height": 0.25, "pawn_height": 0.55, "character_radius": 0.28,
                "files": list(self.files), "ranks": [str(r) for r in range(1, n + 1)],
                "squares": cells,
                "points": [{**c, "square": c["name"], "level": 0, "y": 0.125} for c in cells]}

    def help(self) -> str:
        return (f"The board is drawn from above: files a-{self.files[-1]} left to right, "
                f"ranks 1-{self.size} bottom to top. W and B are stones, w and b pawns, "
                "* after a stone a character standing on it, # a chasm, . an empty cell. "
                "A move is written as the game lists it: c1-c5 (move the piece on c1 to "
                "c5), c4 (place), xc4 (remove), pass.")


@functools.lru_cache(maxsize=None)
def grid(size: int) -> Grid:
    """The shared :class:`Grid` of a size (moves of one grid compare equal)."""
    return Grid(size)


def _mask(cells) -> int:
    out = 0
    for c in cells:
        out |= 1 << c
    return out


def format_move(g: Grid, kind, point, colour, target, value) -> str:
    """The text of a grid move: c1-c5, c1~c5, Wc4, xc4, pass, =3."""
    if kind == PLACE:
        return ("" if colour is None else _STONE_LETTERS[colour]) + g.names[point]
    if kind == MOVE:
        return f"{g.names[point]}-{g.names[target]}"
    if kind == SLIDE:
        return f"{g.names[point]}~{g.names[target]}"
    if kind == REMOVE:
        return "x" + g.names[point]
    if kind == PASS:
        return "pass"
    if kind == CHOOSE and value is not None:
        return f"={value}"
    raise NotationError(f"a {kind} move cannot be written on a grid")


class GridPosition:
    """What stands on each cell of a grid (immutable, hashable).

    Masks: ``stones[c]`` and ``pawns[c]`` for colours 1 (white) and 2 (black),
    ``characters`` (cells where a character stands on a stone; it is the
    stone's colour), ``chasms`` (cells nothing may stop on).  ``occupied`` is
    every cell holding a stone or a pawn.

    Text: rows from the top rank down separated by ``/``; in a row ``.`` is
    empty, ``#`` a chasm, ``W``/``B`` a stone, ``w``/``b`` a pawn, a ``*``
    after a stone its character, and a digit a run of empty cells.
    """

    __slots__ = ("grid", "stones", "pawns", "characters", "chasms", "occupied")

    def __init__(self, g: Grid, stones=(0, 0), pawns=(0, 0), characters: int = 0,
                 chasms: int = 0) -> None:
        s = (0, *stones) if len(stones) == 2 else tuple(stones)
        pw = (0, *pawns) if len(pawns) == 2 else tuple(pawns)
        masks = [s[1], s[2], pw[1], pw[2], chasms]
        if not all(type(m) is int and 0 <= m <= g.all_mask for m in masks + [characters]):
            raise NotationError(f"grid masks are {g.num_points}-bit masks")
        if sum(m.bit_count() for m in masks) != _or(masks).bit_count():
            raise NotationError("a cell holds at most one stone, pawn or chasm")
        if characters & ~(s[1] | s[2]):
            raise NotationError("a character stands on a stone")
        for name, value in (("grid", g), ("stones", s), ("pawns", pw),
                            ("characters", characters), ("chasms", chasms),
                            ("occupied", s[1] | s[2] | pw[1] | pw[2])):
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError("GridPosition is immutable")

    def __reduce__(self):
        return (GridPosition, (self.grid, self.stones, self.pawns, self.characters,
                               self.chasms))

    def _key(self):
        return (self.grid.size, self.stones, self.pawns, self.characters, self.chasms)

    def __eq__(self, other) -> bool:
        return isinstance(other, GridPosition) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def replace(self, stones=None, characters=None) -> "GridPosition":
        """A copy with new stone masks (white, black) and/or characters."""
        return GridPosition(self.grid, self.stones[1:] if stones is None else stones,
                            self.pawns, self.characters if characters is None else characters,
                            self.chasms)

    # -- reading -------------------------------------------------------------
    def at(self, p: int) -> tuple[str, int]:
        """(kind, colour) on a cell: kind is empty, stone, pawn or chasm."""
        bit = 1 << self.grid.as_point(p)
        for colour in (WHITE, BLACK):
            if self.stones[colour] & bit:
                return STONE, colour
            if self.pawns[colour] & bit:
                return PAWN, colour
        return (CHASM, 0) if self.chasms & bit else (EMPTY_CELL, 0)

    def colour_at(self, p: int) -> int:
        """The colour of the piece on a cell (0 when none)."""
        return self.at(p)[1]

    def playable(self) -> int:
        """Cells a piece may stand on (every cell but the chasms)."""
        return self.grid.all_mask & ~self.chasms

    def is_playable(self, p: int) -> bool:
        return not self.chasms >> p & 1

    def transform(self, perm: tuple[int, ...]) -> "GridPosition":
        t = self.grid.transform_mask
        return GridPosition(self.grid, tuple(t(m, perm) for m in self.stones),
                            tuple(t(m, perm) for m in self.pawns),
                            t(self.characters, perm), t(self.chasms, perm))

    # -- text ------------------------------------------------------------------
    def _cell_text(self, p: int) -> str:
        kind, colour = self.at(p)
        if kind == STONE:
            return _STONE_LETTERS[colour] + ("*" if self.characters >> p & 1 else "")
        if kind == PAWN:
            return _PAWN_LETTERS[colour]
        return "#" if kind == CHASM else "."

    def text(self) -> str:
        n = self.grid.size
        return "/".join("".join(self._cell_text(r * n + f) for f in range(n))
                        for r in reversed(range(n)))

    __str__ = text

    def __repr__(self) -> str:
        return f"GridPosition({self.grid!r}, {self.text()!r})"

    @classmethod
    def parse(cls, g: Grid, text: str) -> "GridPosition":
        """A position from :meth:`text` (a digit also stands for that many empty cells)."""
        n = g.size
        example = GridPosition(g).text()
        require_text(text, "a grid position", repr(example), 4 * n * n)
        rows = text.split("/")
        if len(rows) != n:
            raise NotationError(f"grid position {shown(text)}: {n} rows separated by '/' "
                                f"expected, got {len(rows)}")
        stones, pawns, characters, chasms = [0, 0, 0], [0, 0, 0], 0, 0
        for r, row in enumerate(rows):
            rank = n - 1 - r
            cells = re.findall(r"[WB]\*?|[wb.#]|[0-9]|.", row)
            f = 0
            for token in cells:
                if token.isdigit():
                    f += int(token)
                    continue
                if token not in ("W", "B", "W*", "B*", "w", "b", ".", "#") or f >= n:
                    raise NotationError(
                        f"grid position {shown(text)}: rank {rank + 1} must be {n} cells of "
                        ". # W B w b (W* B*: a stone with its character; a digit: empty cells)")
                bit = 1 << (rank * n + f)
                if token[0] in "WB":
                    stones["WB".index(token[0]) + 1] |= bit
                    if token.endswith("*"):
                        characters |= bit
                elif token in "wb":
                    pawns["wb".index(token) + 1] |= bit
                elif token == "#":
                    chasms |= bit
                f += 1
            if f != n:
                raise NotationError(f"grid position {shown(text)}: rank {rank + 1} has {f} "
                                    f"cells, not {n}")
        return cls(g, stones, pawns, characters, chasms)

    def diagram(self) -> str:
        """A readable view with ranks and files; a character shows as ``*`` after
        its stone, so cells are two characters wide."""
        n = self.grid.size
        lines = []
        for r in reversed(range(n)):
            row = " ".join(self._cell_text(r * n + f).ljust(2) for f in range(n))
            lines.append(f"{r + 1:>2} {row}".rstrip())
        lines.append("   " + " ".join(f.ljust(2) for f in self.grid.files).rstrip())
        return "\n".join(lines)

    def _repr_svg_(self) -> str:
        from .views.svg import grid_svg
        return grid_svg(self)


def _or(masks) -> int:
    out = 0
    for m in masks:
        out |= m
    return out
