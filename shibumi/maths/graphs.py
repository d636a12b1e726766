"""The connectivity graph of a complete pyramid, its faces, its dual, and ConHex.

Seen from above, a complete pyramid shows 25 of its 30 balls: the five interior
balls (the four centre holes and the middle of level 1) each lie two levels
directly beneath another ball and are hidden.  Joining the centres of touching
visible balls by the contacts that count under the visibility rule gives the
*connectivity graph* that the connection games play on.  This module builds that
graph with networkx and checks, by computation rather than by picture:

* the graph has 25 vertices and 60 edges, and drawn with the top-view (7x7 grid)
  coordinates of the balls it is a straight-line plane graph
  (:func:`contact_graph`, :func:`planar_embedding`);
* every inner face of that drawing is a triangle and the outer face is the ring
  of the twelve edge holes (:func:`faces`), so the visible balls and contacts
  triangulate a disc;
* the dual is trivalent in the sense of the Hex argument (:func:`dual_graph`,
  :func:`non_trivalent`): see :func:`dual_graph` for which version of the dual
  has every vertex of degree 3 and which vertices fail in the others;
* adding one vertex for each side of the board gives a disc whose faces are all
  triangles except the outer four-cycle left-bottom-right-top
  (:func:`sided_graph`), the setting of the Hex theorem: every colouring joins
  exactly one pair of opposite sides.  :mod:`shibumi.maths.verify` checks that
  statement for Span over all 2^25 colourings;
* with every physical contact counted (all 30 balls, 96 contacts) the graph is not
  planar (:func:`is_planar_all_contacts`, :func:`all_contacts_kuratowski`);
* the ConHex board (:func:`conhex_graph`) compared with the pyramid
  (:func:`conhex_comparison`);
* the visible contacts of any position (:func:`position_graph`), whose top view
  never has crossings (checked on all 141,120 fillings by
  :func:`every_filling_drawn_plane`); a placement never joins balls already
  there (:func:`placements_never_join`); with the five interior points filled,
  nothing else is hidden or cut (:func:`red_core_contacts`); the faces as text (:func:`face_names`), and matplotlib
  drawings over the board (:func:`draw_board`, :func:`draw_contact_graph`,
  :func:`draw_dual`, :func:`draw_conhex`, with a legend of the level colours from
  :func:`level_legend`; matplotlib is imported only there).

ConHex, by Michail Antonow (2002), is played on a square board of 41 cells with
69 holes: 16 edge cells with three holes each, a centre cell with five holes
(one of them inside the cell) and 24 other cells with six holes each; a hole
touches three cells, except the four outer corner holes and the centre hole,
which touch one.  (Counts as given on the pbmserv help page
http://www.gamerz.net/~pbmserv/conhex.html and in the Yucata and iggamecenter
rules.)  :func:`conhex_graph` builds the board from a description of its
geometry written for this module (see :func:`conhex_cells`), which reproduces,
cell for cell, the cell/hole table of the ConHex environment in
rlglab/minizero (``minizero/environment/conhex/conhex_graph.cpp``; compared by
hand when this module was written, the table itself is not copied here).

What the comparison finds: the Shibumi graph (25 cells) is *not* isomorphic to the
ConHex cell graph (41 cells), so the two tilings are not the same board.  The
ConHex board is the connectivity tiling of a complete pyramid on a 5x5 base
(16 + 12 + 8 + 4 + 1 = 41 visible balls), and the Shibumi tiling is the ConHex
board with its outer ring of 16 edge cells removed (its inner 25 cells), the same
pattern one ring smaller.  In both cases the isomorphism carries the triangular
faces of the pyramid graph onto the holes of ConHex where three cells meet.

networkx is imported here, never by the engine.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache
from itertools import combinations

import networkx as nx

from ..geometry import (ALL_MASK, CENTRE, CONTACTS, INTERIOR_MASK, LEVEL, ON_SIDES,
                        POINTS, PROJECTION, SIDES, points_of)
from ..notation import point_name
from ..position import hidden_mask, linked

__all__ = [
    "contact_graph", "pyramid_contact_graph", "planar_embedding", "faces",
    "dual_graph", "non_trivalent", "sided_graph", "is_planar_all_contacts",
    "all_contacts_kuratowski", "conhex_cells", "conhex_graph", "conhex_comparison",
    "position_graph", "top_view_conflicts", "filling_contacts", "every_filling_drawn_plane",
    "placements_never_join", "red_core_contacts", "face_names", "draw_board", "draw_contact_graph", "draw_dual", "draw_conhex",
    "level_legend", "LEVEL_COLOURS", "LEVEL_NAMES",
]

#: Top-view positions of the four side vertices of :func:`sided_graph`, far enough
#: out that their straight edges cross nothing.
SIDE_POSITIONS = {"left": (-6.0, 3.0), "right": (12.0, 3.0),
                  "bottom": (3.0, -6.0), "top": (3.0, 12.0)}


# ---------------------------------------------------------------------------
# The contact graph of the 4x4 pyramid (the engine's geometry)
# ---------------------------------------------------------------------------

def contact_graph(visible_only: bool = True) -> nx.Graph:
    """The contact graph of the complete pyramid.

    With ``visible_only`` (the default) the vertices are the 25 balls that can be
    seen from above and the edges the 60 contacts that count under the engine's
    visibility rule (:func:`shibumi.position.linked` on the full pyramid: both
    balls in view and, for a flat contact, not both overpass balls present).
    Otherwise all 30 balls and all 96 physical contacts.

    Vertices are the engine's point numbers 0-29 with attributes ``name`` (e.g.
    ``'c3.2'``), ``level``, ``pos`` (top-view grid coordinates, file and rank
    0-6, :data:`shibumi.geometry.PROJECTION`), ``xyz`` (the ball's centre) and
    ``sides`` (the board sides the ball lies on, a frozenset).  Edges carry
    ``kind`` (``'flat'`` or ``'vertical'``) and ``overpass`` (the mask of the two
    balls that would cut a flat contact, 0 if none).
    """
    hidden = hidden_mask(ALL_MASK)
    # The geometry's claim that a complete pyramid buries exactly its interior.
    assert hidden == INTERIOR_MASK, "a full pyramid should hide exactly the 5 interior balls"
    G = nx.Graph(name="visible contacts" if visible_only else "all contacts")
    for p in POINTS:
        if visible_only and hidden >> p & 1:
            continue
        G.add_node(p, name=point_name(p), level=LEVEL[p], pos=PROJECTION[p],
                   xyz=CENTRE[p], sides=frozenset(ON_SIDES[p]))
    for a, b, over in CONTACTS:
        if visible_only and not linked(a, ALL_MASK) >> b & 1:
            continue
        G.add_edge(a, b, kind="flat" if LEVEL[a] == LEVEL[b] else "vertical",
                   overpass=over)
    return G


def pyramid_contact_graph(base: int, visible_only: bool = True) -> nx.Graph:
    """The contact graph of a complete square pyramid on a ``base`` x ``base`` board.

    An independent construction from first principles, for other sizes: a ball
    at (level, x, y) rests on (level-1, x..x+1, y..y+1), touches its orthogonal
    neighbours on its level, and is hidden when (level+2, x-1, y-1) exists; a
    flat contact is cut when both balls of the level above that pass over it
    exist.  Vertices are (level, x, y) tuples with the same attributes as
    :func:`contact_graph` (``pos`` is the top view (2x + level, 2y + level)).
    For ``base=4`` it is :func:`contact_graph` relabelled; for ``base=5`` it is
    the ConHex board (:func:`conhex_comparison`).
    """
    if base < 1:
        raise ValueError("a pyramid needs a base of at least 1x1")
    levels = range(base)

    def exists(lv, x, y):
        return 0 <= lv < base and 0 <= x < base - lv and 0 <= y < base - lv

    points = [(lv, x, y) for lv in levels for y in range(base - lv) for x in range(base - lv)]
    hidden = {p for p in points if exists(p[0] + 2, p[1] - 1, p[2] - 1)}
    G = nx.Graph(name=f"pyramid {base}x{base}")
    top = base - 1
    for lv, x, y in points:
        if visible_only and (lv, x, y) in hidden:
            continue
        sides = set()
        if lv == 0:
            sides = {s for s, on in (("left", x == 0), ("right", x == top),
                                     ("bottom", y == 0), ("top", y == top)) if on}
        G.add_node((lv, x, y), name=f"{lv}:{x},{y}", level=lv,
                   pos=(2 * x + lv, 2 * y + lv),
                   xyz=(x + lv / 2, y + lv / 2, lv / math.sqrt(2)),
                   sides=frozenset(sides))
    for lv, x, y in points:
        a = (lv, x, y)
        # flat contacts to the east and north, with their overpass pairs
        for b, over in (((lv, x + 1, y), ((lv + 1, x, y - 1), (lv + 1, x, y))),
                        ((lv, x, y + 1), ((lv + 1, x - 1, y), (lv + 1, x, y)))):
            if not exists(*b):
                continue
            cut = all(exists(*q) for q in over)
            if visible_only and (a in hidden or b in hidden or cut):
                continue
            G.add_edge(a, b, kind="flat", overpass=over if all(exists(*q) for q in over) else ())
        # the four balls this one rests on
        if lv:
            for dx in (0, 1):
                for dy in (0, 1):
                    b = (lv - 1, x + dx, y + dy)
                    if visible_only and (a in hidden or b in hidden):
                        continue
                    G.add_edge(a, b, kind="vertical", overpass=())
    return G


# ---------------------------------------------------------------------------
# Plane embedding, faces, dual
# ---------------------------------------------------------------------------

def _angle_cw(G, v, w):
    (x0, y0), (x1, y1) = G.nodes[v]["pos"], G.nodes[w]["pos"]
    return -math.atan2(y1 - y0, x1 - x0)


def _segments_cross(p, q, r, s) -> bool:
    """Do the closed segments pq and rs meet anywhere but at a shared endpoint?"""
    def orient(a, b, c):
        v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return (v > 0) - (v < 0)

    def on_segment(a, b, c):  # c collinear with ab: is it within the box?
        return min(a[0], b[0]) <= c[0] <= max(a[0], b[0]) and \
            min(a[1], b[1]) <= c[1] <= max(a[1], b[1])

    shared = {p, q} & {r, s}
    if len(shared) == 2:
        return True  # the same segment twice
    o1, o2, o3, o4 = orient(p, q, r), orient(p, q, s), orient(r, s, p), orient(r, s, q)
    if shared:
        # sharing one endpoint: they overlap only if collinear and pointing the same way
        if o1 == o2 == 0:
            c = shared.pop()
            a = q if p == c else p
            b = s if r == c else r
            return (a[0] - c[0]) * (b[0] - c[0]) + (a[1] - c[1]) * (b[1] - c[1]) > 0
        return False
    if o1 != o2 and o3 != o4 and 0 not in (o1, o2, o3, o4):
        return True
    return any(o == 0 and on_segment(a, b, c) for o, a, b, c in
               ((o1, p, q, r), (o2, p, q, s), (o3, r, s, p), (o4, r, s, q)))


def straight_line_crossings(G: nx.Graph) -> list[tuple]:
    """Pairs of edges whose straight top-view segments meet other than at a shared end
    (also a vertex lying on an edge, or two vertices drawn at one spot)."""
    pos = {v: tuple(G.nodes[v]["pos"]) for v in G}
    bad = [((u,), (v,)) for u, v in combinations(G, 2) if pos[u] == pos[v]]
    edges = list(G.edges())
    for (a, b), (c, d) in combinations(edges, 2):
        if _segments_cross(pos[a], pos[b], pos[c], pos[d]):
            bad.append(((a, b), (c, d)))
    for a, b in edges:  # a vertex in the middle of an edge
        for v in G:
            if v not in (a, b) and _segments_cross(pos[a], pos[b], pos[v], pos[v]):
                bad.append(((a, b), (v,)))
    return bad


def planar_embedding(G: nx.Graph) -> nx.PlanarEmbedding:
    """The plane embedding of G given by its top-view drawing.

    networkx's :func:`~networkx.check_planarity` first confirms that G is planar
    at all; the embedding returned is then the rotation system of the straight-line
    drawing at the ``pos`` coordinates (neighbours of each vertex in clockwise
    order), checked by :meth:`~networkx.PlanarEmbedding.check_structure` (Euler's
    formula over its faces) and by testing that no two drawn edges cross.  Raises
    ValueError if G is not planar or the drawing is not a plane drawing.
    """
    planar, _ = nx.check_planarity(G)
    if not planar:
        raise ValueError(f"{G.name or 'the graph'} is not planar")
    crossings = straight_line_crossings(G)
    if crossings:
        raise ValueError(f"the top-view drawing is not plane: {crossings[:3]}")
    emb = nx.PlanarEmbedding()
    emb.set_data({v: sorted(G[v], key=lambda w: _angle_cw(G, v, w)) for v in G})
    emb.check_structure()
    for v in G:
        emb.nodes[v].update(G.nodes[v])
    return emb


def _signed_area(G, cycle) -> float:
    pts = [G.nodes[v]["pos"] for v in cycle]
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1])) / 2


def _face_walk(G):
    """(faces, half-edge -> face index, outer face index) of G's top-view drawing."""
    emb = planar_embedding(G)
    walks, owner = [], {}
    for v, w in emb.edges():
        if (v, w) in owner:
            continue
        marked = set()
        face = emb.traverse_face(v, w, mark_half_edges=marked)
        for half in marked:
            owner[half] = len(walks)
        walks.append(tuple(face))
    areas = [_signed_area(G, f) for f in walks]
    # In a connected plane drawing the inner faces share one orientation and the
    # outer face has the other (its walk encloses everything, the other way round).
    signs = Counter(a > 0 for a in areas)
    outer_sign = min(signs, key=signs.get)
    outer = [i for i, a in enumerate(areas) if (a > 0) == outer_sign]
    if len(outer) != 1 or not nx.is_connected(G):
        raise ValueError("expected a connected plane graph with one outer face")
    return walks, owner, outer[0]


def faces(G: nx.Graph) -> dict:
    """The faces of G's top-view plane drawing.

    Returns ``{"inner": [...], "outer": (...), "all_inner_triangles": bool,
    "euler": V - E + F}`` where each face is the cycle of vertices around it (the
    outer face walks the rim of the drawing).  For the visible contact graph: 36
    inner faces, every one a triangle, and the outer face is the ring of the 12
    board edge holes; V - E + F = 25 - 60 + 37 = 2.
    """
    walks, _, outer = _face_walk(G)
    inner = [f for i, f in enumerate(walks) if i != outer]
    return {"inner": inner, "outer": walks[outer],
            "all_inner_triangles": all(len(f) == 3 for f in inner),
            "euler": G.number_of_nodes() - G.number_of_edges() + len(walks)}


def dual_graph(G: nx.Graph, outer: str = "rim") -> nx.Graph:
    """The dual of G's top-view plane drawing, with the outer face handled by ``outer``.

    The inner faces of G are always dual vertices (labelled by the sorted tuple
    of their corners, ``kind='face'``, ``pos`` their centroid), joined across
    every edge that two inner faces share.  The outer face is what differs:

    ``"rim"`` (the default)
        The tiling of the board by cells, one cell per ball.  Each edge of the
        rim of G gets its own dual vertex (``('rim', a, b)``, ``kind='rim'``),
        the point where the wall between the two edge cells meets the board's
        frame; it is joined to the inner face across that edge and to the two
        neighbouring rim vertices along the frame.  This is the graph of the
        cell walls drawn in the rule book, and the one the trivalence claim is
        about: *every* vertex has degree 3 (inner faces are triangles; a rim
        vertex has its wall and two frame segments).  The frame's four corners are
        not vertices (they would only bend the frame, degree 2).
    ``"inner"``
        Inner faces only (the usual dual "restricted to inner faces"): the 12
        triangles with a side on the rim have degree 2, the other 24 degree 3.
    ``"vertex"``
        The textbook dual: the outer face is one vertex ``'outer'`` joined across
        each rim edge (a MultiGraph); it has degree 12, all others degree 3.

    Every edge crossing a primal edge carries ``crosses=(a, b)``; frame edges
    between rim vertices have ``crosses=None``.
    """
    if outer not in ("rim", "inner", "vertex"):
        raise ValueError("outer must be 'rim', 'inner' or 'vertex'")
    walks, owner, out = _face_walk(G)
    D = nx.MultiGraph() if outer == "vertex" else nx.Graph()
    D.graph["name"] = f"dual ({outer})"
    label = {}
    for i, f in enumerate(walks):
        if i == out:
            continue
        label[i] = tuple(sorted(f))
        pts = [G.nodes[v]["pos"] for v in f]
        D.add_node(label[i], kind="face", pos=(sum(p[0] for p in pts) / len(pts),
                                               sum(p[1] for p in pts) / len(pts)))
    if outer == "vertex":
        D.add_node("outer", kind="outer", pos=None)
    for a, b in G.edges():
        fa, fb = owner[(a, b)], owner[(b, a)]
        if out not in (fa, fb):
            D.add_edge(label[fa], label[fb], crosses=(a, b))
            continue
        inside = label[fb if fa == out else fa]
        if outer == "vertex":
            D.add_edge(inside, "outer", crosses=(a, b))
        elif outer == "rim":
            rim = ("rim", min(a, b), max(a, b))
            (xa, ya), (xb, yb) = G.nodes[a]["pos"], G.nodes[b]["pos"]
            D.add_node(rim, kind="rim", pos=((xa + xb) / 2, (ya + yb) / 2))
            D.add_edge(inside, rim, crosses=(a, b))
    if outer == "rim":
        ring = walks[out]
        rims = [("rim", min(a, b), max(a, b)) for a, b in zip(ring, ring[1:] + ring[:1])]
        for r, s in zip(rims, rims[1:] + rims[:1]):
            D.add_edge(r, s, crosses=None)
    return D


def non_trivalent(D: nx.Graph) -> dict:
    """The vertices of D whose degree is not 3, with their degrees ({} if trivalent)."""
    return {v: d for v, d in D.degree() if d != 3}


def sided_graph(G: nx.Graph | None = None) -> nx.Graph:
    """The visible contact graph with one extra vertex for each side of the board.

    Vertices ``'left'``, ``'right'``, ``'bottom'``, ``'top'`` are joined to the
    board holes on that side (a corner hole to two sides) and to the two adjacent
    sides, making the four-cycle left-bottom-right-top.  Its faces are all
    triangles except the outer four-cycle: the set-up of the Hex theorem (the
    Gale walk), which says that colouring the inner vertices in two colours,
    with left/right white and bottom/top black, always joins exactly one of the
    two pairs of opposite sides.
    """
    G = contact_graph() if G is None else G
    H = G.copy()
    for side in SIDES:
        H.add_node(side, name=side, level=None, pos=SIDE_POSITIONS[side],
                   sides=frozenset({side}))
    for v, data in G.nodes(data=True):
        for side in data["sides"]:
            H.add_edge(side, v, kind="side", overpass=0)
    for a, b in (("left", "bottom"), ("bottom", "right"), ("right", "top"), ("top", "left")):
        H.add_edge(a, b, kind="side", overpass=0)
    return H


# ---------------------------------------------------------------------------
# All 30 balls
# ---------------------------------------------------------------------------

def is_planar_all_contacts() -> bool:
    """Is the graph of all 30 balls and all 96 contacts planar?  (It is not.)

    Already by counting: a simple planar graph on 30 vertices has at most
    3*30 - 6 = 84 edges, and there are 96.  :func:`all_contacts_kuratowski`
    gives networkx's Kuratowski subgraph as a certificate.
    """
    planar, _ = nx.check_planarity(contact_graph(visible_only=False))
    return planar


def all_contacts_kuratowski() -> dict:
    """networkx's Kuratowski certificate that the 30-ball contact graph is not planar.

    Returns ``{"planar": False, "kind": "K5" or "K3,3", "branch": [names...],
    "subgraph": Graph}``: the subgraph is a subdivision of K5 (five branch
    vertices of degree 4) or of K3,3 (six of degree 3), every other vertex of it
    having degree 2.
    """
    G = contact_graph(visible_only=False)
    planar, cert = nx.check_planarity(G, counterexample=True)
    if planar:
        return {"planar": True, "kind": None, "branch": [], "subgraph": None}
    degrees = Counter(d for _, d in cert.degree())
    branch = sorted(v for v, d in cert.degree() if d > 2)
    if degrees.get(4) == 5 and set(degrees) <= {2, 4}:
        kind = "K5"
    elif degrees.get(3) == 6 and set(degrees) <= {2, 3}:
        kind = "K3,3"
    else:
        raise AssertionError(f"unexpected Kuratowski certificate degrees {dict(degrees)}")
    return {"planar": False, "kind": kind, "branch": [point_name(v) for v in branch],
            "subgraph": cert}


# ---------------------------------------------------------------------------
# ConHex
# ---------------------------------------------------------------------------
#
# Geometry of the ConHex board as used here.  The holes sit on a 9x9 grid of
# points (row 0 at the top, column 0 at the left, centre (4, 4)): every grid
# point except the 12 lying on the two diagonals strictly between the centre and
# the corners (81 - 12 = 69 holes).  Grouping the holes by their distance d
# (max of row and column offsets) from the centre gives square rings: the frame
# ring d = 4 (32 holes, the four corners included), and rings d = 3, 2, 1 (20, 12
# and 4 holes).  Going round a ring, a hole splits the ring into cells when its
# coordinate along its side (the one that varies along that side) is odd for
# d = 3 and the frame, even for d = 4 (without its corners) and d = 2; every
# hole of the innermost ring splits it.
#
# * 16 edge cells: consecutive arcs of the frame ring between odd splitting
#   holes (three holes each; the four corner cells hold a corner hole).
# * 12 + 8 + 4 inner cells: between ring d (outer, corners dropped) and ring
#   d - 1 (inner), the arcs of both rings between their splitting holes pair up
#   by direction from the centre; a cell holds one arc of each (3 + 3 holes along
#   a side, 4 + 2 at a corner).
# * The centre cell: the four holes of ring 1 and the centre hole.

_CONHEX_N = 9
_CONHEX_C = 4


def _conhex_ring(d: int, corners: bool) -> list[tuple[int, int]]:
    """Holes at distance d from the centre, in counter-clockwise order of direction."""
    c = _CONHEX_C
    pts = [(r, q) for r in range(_CONHEX_N) for q in range(_CONHEX_N)
           if max(abs(r - c), abs(q - c)) == d]
    on_diagonal = [p for p in pts if abs(p[0] - c) == abs(p[1] - c)]
    if d == _CONHEX_C:
        pts = [p for p in pts if corners or p not in on_diagonal]
    else:
        pts = [p for p in pts if p not in on_diagonal]   # diagonal points are not holes
    # row grows downwards: use (x, y) = (col - c, c - row) for the angle
    return sorted(pts, key=lambda p: math.atan2(c - p[0], p[1] - c) % (2 * math.pi))


def _conhex_arcs(ring, parity):
    """Split a cyclic ring at the holes whose along-side coordinate has this parity."""
    c = _CONHEX_C

    def splits(p):
        r, q = p
        d = max(abs(r - c), abs(q - c))
        if abs(r - c) == abs(q - c):
            return False           # a frame corner never splits
        along = q if abs(r - c) == d else r
        return along % 2 == parity

    cut = [i for i, p in enumerate(ring) if splits(p)]
    n = len(ring)
    arcs = []
    for i, j in zip(cut, cut[1:] + [cut[0] + n]):
        arcs.append([ring[k % n] for k in range(i, j + 1)])
    return arcs


def _direction(arc):
    c = _CONHEX_C
    x = sum(q - c for _, q in arc) / len(arc)
    y = sum(c - r for r, _ in arc) / len(arc)
    return math.atan2(y, x) % (2 * math.pi)


def conhex_cells() -> list[dict]:
    """The 41 cells of the ConHex board, each ``{"holes": frozenset of (row, col),
    "ring": 0-4, "sides": frozenset}``.

    Ring 0 holds the 16 edge cells, rings 1-3 the 12, 8 and 4 six-hole cells,
    ring 4 the centre cell.  ``sides`` names the board sides an edge cell lies on
    (at least two of its holes on that side of the frame; a corner cell is on
    two), with rows counted from the top: ``'top'`` is row 0, ``'bottom'`` row 8.
    The construction is described in the comment above this function's source.
    """
    c = _CONHEX_C
    cells = []
    frame = _conhex_ring(c, corners=True)
    for arc in _conhex_arcs(frame, 1):
        sides = set()
        for side, hit in (("top", lambda h: h[0] == 0), ("bottom", lambda h: h[0] == 8),
                          ("left", lambda h: h[1] == 0), ("right", lambda h: h[1] == 8)):
            if sum(map(hit, arc)) >= 2:
                sides.add(side)
        cells.append({"holes": frozenset(arc), "ring": 0, "sides": frozenset(sides)})
    for d in (c, c - 1, c - 2):
        parity = d % 2
        outer = sorted(_conhex_arcs(_conhex_ring(d, corners=False), parity), key=_direction)
        inner = sorted(_conhex_arcs(_conhex_ring(d - 1, corners=False), parity), key=_direction)
        if len(outer) != len(inner):
            raise AssertionError("ConHex rings do not pair up")
        for a, b in zip(outer, inner):
            gap = abs(_direction(a) - _direction(b)) % (2 * math.pi)
            if min(gap, 2 * math.pi - gap) >= math.pi / len(outer):
                raise AssertionError("ConHex arcs do not face each other")
            cells.append({"holes": frozenset(a) | frozenset(b), "ring": c + 1 - d,
                          "sides": frozenset()})
    cells.append({"holes": frozenset(_conhex_ring(1, corners=False)) | {(c, c)},
                  "ring": c, "sides": frozenset()})
    return cells


def conhex_graph() -> nx.Graph:
    """The ConHex board as a graph: a vertex per cell, an edge between cells that share a wall.

    Two cells share a wall exactly when they share a hole: every hole except the
    four frame corners and the centre lies on three cells, which meet there
    pairwise (this is checked).  Vertices are 0-40 with attributes ``holes``,
    ``ring``, ``sides`` (see :func:`conhex_cells`) and ``pos`` (the mean of the
    cell's holes, in (x, y) = (column, 8 - row)).  The graph attribute ``holes``
    maps each hole to the frozenset of cells around it.
    """
    cells = conhex_cells()
    around: dict[tuple[int, int], set[int]] = {}
    for i, cell in enumerate(cells):
        for h in cell["holes"]:
            around.setdefault(h, set()).add(i)
    G = nx.Graph(name="ConHex")
    for i, cell in enumerate(cells):
        hs = cell["holes"]
        G.add_node(i, holes=hs, ring=cell["ring"], sides=cell["sides"],
                   pos=(sum(q for _, q in hs) / len(hs), sum(8 - r for r, _ in hs) / len(hs)))
    for h, cs in around.items():
        for a, b in combinations(sorted(cs), 2):
            G.add_edge(a, b)
    G.graph["holes"] = {h: frozenset(cs) for h, cs in around.items()}
    return G


def _hole_triples(C: nx.Graph, cells=None) -> set[frozenset]:
    """The sets of three cells meeting at a hole (optionally only among ``cells``)."""
    triples = {cs for cs in C.graph["holes"].values() if len(cs) == 3}
    if cells is not None:
        triples = {t for t in triples if t <= set(cells)}
    return triples


def _faces_match(P: nx.Graph, C: nx.Graph, mapping: dict, cells=None) -> bool:
    """Does the isomorphism P -> C carry P's inner faces onto C's three-cell holes?"""
    inner = faces(P)["inner"]
    images = {frozenset(mapping[v] for v in f) for f in inner}
    return images == _hole_triples(C, cells)


def conhex_comparison() -> dict:
    """Compare the Shibumi connectivity graph and its dual with the ConHex board.

    Returns a dict of findings (all computed):

    ``shibumi_cells``, ``conhex_cells``, ``conhex_holes``, ``conhex_walls``
        sizes (25, 41, 69, 104).
    ``shibumi_is_conhex``
        ``nx.is_isomorphic(contact_graph(), conhex_graph())``: False, the boards
        differ in size (25 cells against 41).
    ``shibumi_dual_is_conhex_holes``
        whether the trivalent dual of the Shibumi drawing (:func:`dual_graph`,
        rim version, 48 vertices) could be the ConHex map: False, ConHex has 64
        holes where three cells meet (the Shibumi dual has 36 face vertices).
    ``conhex_is_pyramid5``
        ConHex is isomorphic to :func:`pyramid_contact_graph` (5), matching board
        sides to board sides (True).
    ``conhex_faces_are_holes``
        that isomorphism carries the 64 triangular faces onto the 64 holes where
        three cells meet (True): the same tiling.
    ``shibumi_is_conhex_inner``
        the Shibumi graph is isomorphic to the ConHex board without its 16 edge
        cells (True), again with faces onto holes (``shibumi_faces_are_inner_holes``).
    ``conhex_trivalent``
        every ConHex hole lies on 1 or 3 cells, 3 for all but the corners and
        centre (True).
    """
    S = contact_graph()
    C = conhex_graph()
    P5 = pyramid_contact_graph(5)
    # Match sides as sets of sides on a board turned so that ConHex's top is the
    # pyramid's top (ConHex rows count down from the top, pyramid ranks up).
    side_match = nx.algorithms.isomorphism.categorical_node_match("sides", frozenset())
    gm5 = nx.algorithms.isomorphism.GraphMatcher(P5, C, node_match=side_match)
    conhex_is_p5 = gm5.is_isomorphic()
    faces5 = conhex_is_p5 and _faces_match(P5, C, gm5.mapping)
    inner_cells = [v for v, r in C.nodes(data="ring") if r > 0]
    C_inner = C.subgraph(inner_cells).copy()
    C_inner.graph["holes"] = C.graph["holes"]
    gm_in = nx.algorithms.isomorphism.GraphMatcher(S, C_inner)
    shibumi_inner = gm_in.is_isomorphic()
    faces_in = shibumi_inner and _faces_match(S, C_inner, gm_in.mapping, inner_cells)
    counts = Counter(len(cs) for cs in C.graph["holes"].values())
    dual = dual_graph(S, "rim")
    return {
        "shibumi_cells": S.number_of_nodes(),
        "shibumi_contacts": S.number_of_edges(),
        "conhex_cells": C.number_of_nodes(),
        "conhex_holes": len(C.graph["holes"]),
        "conhex_walls": C.number_of_edges(),
        "conhex_holes_by_cells": dict(sorted(counts.items())),
        "shibumi_is_conhex": nx.is_isomorphic(S, C),
        "shibumi_dual_vertices": dual.number_of_nodes(),
        "shibumi_dual_is_conhex_holes": (sum(1 for _, k in dual.nodes(data="kind") if k == "face")
                                         == len(_hole_triples(C))),
        "conhex_is_pyramid5": conhex_is_p5,
        "conhex_faces_are_holes": faces5,
        "shibumi_is_conhex_inner": shibumi_inner,
        "shibumi_faces_are_inner_holes": faces_in,
        "conhex_trivalent": set(counts) == {1, 3} and counts[1] == 5,
    }


def position_graph(position, visible_only: bool = True) -> nx.Graph:
    """The contact graph of any position: its balls (those in view, by default) and
    the contacts that count (:func:`shibumi.position.linked`), with the attributes
    of :func:`contact_graph` plus ``colour`` (the engine's colour number).

    With ``visible_only`` the top view draws it without crossings for every stable
    position (checked for all 141,120 fillings by :func:`every_filling_drawn_plane`,
    since the graph depends only on which points are filled): a ball two levels
    under another is
    hidden, so no two visible balls share a spot, and the one kind of crossing the
    grid allows, a flat contact under the flat contact of the two balls above it,
    is exactly the one the overpass rule removes.
    """
    occ = position.occupied
    hidden = hidden_mask(occ) if visible_only else 0
    G = nx.Graph(name="position contacts")
    for p in POINTS:
        if occ >> p & 1 and not hidden >> p & 1:
            G.add_node(p, name=point_name(p), level=LEVEL[p], pos=PROJECTION[p],
                       xyz=CENTRE[p], sides=frozenset(ON_SIDES[p]),
                       colour=position.colour_at(p))
    for p in list(G):
        for q in points_of(linked(p, occ, visible_only)):
            if q > p and q in G:
                G.add_edge(p, q, kind="flat" if LEVEL[p] == LEVEL[q] else "vertical")
    return G


# ---------------------------------------------------------------------------
# Every filling at once: crossings in the top view, and what a placement does
# ---------------------------------------------------------------------------

def _contact_index() -> dict:
    """{(a, b): index in CONTACTS} for both orders of each contact."""
    index = {}
    for i, (a, b, _) in enumerate(CONTACTS):
        index[a, b] = index[b, a] = i
    return index


_INDEX = _contact_index()


def top_view_conflicts() -> dict:
    """What could spoil a top-view drawing, from the coordinates alone.

    ``pairs``: the pairs of contacts (indices into
    :data:`shibumi.geometry.CONTACTS`) whose straight segments meet other than
    at a shared end; ``on_segment``: (point, contact) with the point strictly
    inside the segment; ``same_spot``: pairs of points drawn at one spot.  Each
    is given as a list of bit masks (over contacts, or over points for
    ``same_spot``), so a drawing is plane exactly when no mask is contained in
    its set of edges (or of vertices).
    """
    P = PROJECTION
    pairs = [(i, j) for (i, (a, b, _)), (j, (c, d, _)) in combinations(enumerate(CONTACTS), 2)
             if _segments_cross(P[a], P[b], P[c], P[d])]
    on_segment = [(v, i) for i, (a, b, _) in enumerate(CONTACTS) for v in POINTS
                  if v not in (a, b) and _segments_cross(P[a], P[b], P[v], P[v])]
    same_spot = [(u, v) for u, v in combinations(POINTS, 2) if P[u] == P[v]]
    return {"pairs": pairs, "on_segment": on_segment, "same_spot": same_spot}


def filling_contacts(occupied: int, visible_only: bool = True) -> tuple[int, int]:
    """(vertex mask, contact mask) of the contact graph of a filling, read from
    the engine (:func:`shibumi.position.hidden_mask` and
    :func:`shibumi.position.linked`); the contact mask has bit i for
    ``CONTACTS[i]``.  It is the graph of :func:`position_graph`, as masks."""
    vertices = occupied & ~(hidden_mask(occupied) if visible_only else 0)
    edges = 0
    for p in points_of(vertices):
        for q in points_of(linked(p, occupied, visible_only) & ~((2 << p) - 1)):
            edges |= 1 << _INDEX[p, q]
    return vertices, edges


@lru_cache(maxsize=1)
def _all_filling_graphs() -> dict:
    """{filling: its visible (vertices, contacts)} for all 141,120 fillings."""
    from .counting import stable_sets
    return {int(occ): filling_contacts(int(occ)) for occ in stable_sets()}


def every_filling_drawn_plane(fillings=None, progress=None) -> dict:
    """Check the top view of the visible contacts of every filling for crossings.

    Which balls are in view and which contacts count depend only on which
    points are filled, not on colours, so checking the 141,120 fillings
    (:func:`shibumi.maths.counting.stable_sets`) checks every position that
    can stand.  For each filling the engine's visible contact graph
    (:func:`filling_contacts`) is tested against :func:`top_view_conflicts`;
    the same is done with every ball and every physical contact (all contacts
    between filled points), as a control that the test can fail.

    Returns ``fillings``, ``visible_crossed`` (fillings whose visible graph
    has a crossing, a vertex on an edge or two vertices at one spot: 0),
    ``physical_crossed`` (the same with every ball and contact), ``conflicts``
    (the sizes of the three lists of :func:`top_view_conflicts`) and
    ``example`` (a filling whose physical drawing is spoiled, as a mask).
    """
    graphs = _all_filling_graphs() if fillings is None else \
        {int(occ): filling_contacts(int(occ)) for occ in fillings}
    conflicts = top_view_conflicts()
    pair_masks = [1 << i | 1 << j for i, j in conflicts["pairs"]]
    segment_masks = [(1 << v, 1 << i) for v, i in conflicts["on_segment"]]
    spot_masks = [1 << u | 1 << v for u, v in conflicts["same_spot"]]

    def spoiled(vertices, edges):
        return (any(edges & m == m for m in pair_masks)
                or any(vertices & m == m for m in spot_masks)
                or any(vertices & v and edges & e for v, e in segment_masks))

    # Physically every contact between two filled points is there, so a conflict
    # shows as soon as all the points it involves are filled.
    ends = [1 << CONTACTS[i][0] | 1 << CONTACTS[i][1] for i in range(len(CONTACTS))]
    physical_masks = ([ends[i] | ends[j] for i, j in conflicts["pairs"]] + spot_masks
                      + [1 << v | ends[i] for v, i in conflicts["on_segment"]])

    counts = {True: 0, False: 0}
    example = None
    items = progress(graphs.items()) if progress is not None else graphs.items()
    for occ, visible_graph in items:
        counts[True] += spoiled(*visible_graph)
        if any(occ & m == m for m in physical_masks):
            counts[False] += 1
            if example is None or occ.bit_count() < example.bit_count():
                example = occ
    return {"fillings": len(graphs), "visible_crossed": counts[True],
            "physical_crossed": counts[False],
            "conflicts": {k: len(v) for k, v in conflicts.items()}, "example": example}


def placements_never_join(fillings=None) -> dict:
    """A placement never adds a contact between two balls already there.

    For every filling and every playable point p (so that the filling plus p
    is again a filling), the visible contacts of the larger filling that do not
    involve p are compared with the visible contacts of the smaller one: the
    new ball may hide balls and cut contacts beneath it, but it never creates
    a contact between other balls, nor brings a hidden ball back into view.
    So a ball never joins groups of the other colour, whatever the colours.

    Returns ``fillings``, ``placements`` (pairs checked), ``joins`` (placements
    adding a contact between old balls: 0), ``uncovers`` (placements bringing
    an old ball into view: 0), ``cuts`` (placements removing at least one
    contact between old balls) and ``hides`` (placements hiding an old ball).
    """
    from ..position import playable_mask
    graphs = _all_filling_graphs() if fillings is None else \
        {int(occ): filling_contacts(int(occ)) for occ in fillings}
    touching = [0] * len(POINTS)
    for (a, b), i in _INDEX.items():
        touching[a] |= 1 << i
    placements = joins = uncovers = cuts = hides = 0
    for occ, (vertices, edges) in graphs.items():
        for p in points_of(playable_mask(occ)):
            if occ | 1 << p not in graphs:
                continue                  # a partial list of fillings
            after_v, after_e = graphs[occ | 1 << p]
            old_e = after_e & ~touching[p]
            placements += 1
            joins += bool(old_e & ~edges)
            cuts += bool(edges & ~old_e)
            old_v = after_v & ~(1 << p)
            uncovers += bool(old_v & ~vertices)
            hides += bool(vertices & ~old_v)
    return {"fillings": len(graphs), "placements": placements, "joins": joins,
            "uncovers": uncovers, "cuts": cuts, "hides": hides}


def red_core_contacts(fillings=None) -> dict:
    """With the five interior points filled (Sponnect's red core, Sparro's start),
    seen and unseen make no difference to the balls played.

    Over every filling that contains the interior: no exterior ball is hidden,
    and every physical contact between two exterior balls is visible.  Returns
    ``fillings`` (those checked), ``hidden_exterior`` and ``cut_exterior``
    (fillings where that fails: both 0).
    """
    from ..geometry import EXTERIOR_MASK
    if fillings is None:
        from .counting import stable_sets
        fillings = stable_sets()
    checked = hidden = cut = 0
    for occ in fillings:
        occ = int(occ)
        if occ & INTERIOR_MASK != INTERIOR_MASK:
            continue
        checked += 1
        hidden += bool(hidden_mask(occ) & EXTERIOR_MASK)
        for p in points_of(occ & EXTERIOR_MASK):
            if (linked(p, occ) ^ linked(p, occ, False)) & EXTERIOR_MASK:
                cut += 1
                break
    return {"fillings": checked, "hidden_exterior": hidden, "cut_exterior": cut}


# ---------------------------------------------------------------------------
# Listing and drawing (matplotlib, imported only when drawing)
# ---------------------------------------------------------------------------

#: Colours of the balls of each level in the drawings (board to apex).
LEVEL_COLOURS = ("#8c6d46", "#2f6db5", "#2e9e44", "#c0392b")

#: How the legends of the drawings name the levels (board to apex).
LEVEL_NAMES = ("board holes (level 0)", "level 1", "level 2", "apex (level 3)")


def face_names(G: nx.Graph | None = None) -> list[str]:
    """The inner faces of the visible contact graph as text, e.g. ``'a1 b2 c1'``,
    corners ordered by level then name, faces sorted.  (36 faces for the pyramid.)"""
    G = contact_graph() if G is None else G
    out = []
    for f in faces(G)["inner"]:
        corners = sorted(f, key=lambda v: (G.nodes[v]["level"], G.nodes[v]["name"]))
        out.append(" ".join(G.nodes[v]["name"] for v in corners))
    return sorted(out)


def draw_board(ax, labels: bool = True, font_size: float = 11):
    """The 4x4 board in the top-view grid coordinates (files a-g and ranks 1-7 are 0-6):
    a wooden square with its 16 holes, the axes equal and bare; with ``labels`` the
    files and ranks are written along the bottom and left edges."""
    from matplotlib.patches import Circle, FancyBboxPatch
    ax.add_patch(FancyBboxPatch((-1.3, -1.3), 8.6, 8.6, boxstyle="round,pad=0,rounding_size=0.5",
                                facecolor="#ecd9b4", edgecolor="#8a6434", lw=1.5, zorder=0))
    for x in range(0, 7, 2):
        for y in range(0, 7, 2):
            ax.add_patch(Circle((x, y), 0.55, facecolor="#c9a56e", edgecolor="none", zorder=0.5))
    if labels:
        for i, f in enumerate("abcdefg"):
            ax.text(i, -1.8, f, ha="center", va="center", fontsize=font_size, color="#6d4c25")
            ax.text(-1.8, i, str(i + 1), ha="center", va="center", fontsize=font_size,
                    color="#6d4c25")
    ax.set_xlim(-2.3, 7.6)
    ax.set_ylim(-2.3, 7.6)
    ax.set_aspect("equal")
    ax.axis("off")
    return ax


def level_legend(ax, levels=range(4), extra=(), **kwargs):
    """Add a legend naming the colours of ``levels`` (:data:`LEVEL_NAMES`), followed
    by any ``extra`` matplotlib handles (each with its label set).  Keyword arguments
    go to ``ax.legend``; by default the legend sits below the drawing."""
    from matplotlib.lines import Line2D
    handles = [Line2D([], [], linestyle="none", marker="o", markersize=10,
                      markerfacecolor=LEVEL_COLOURS[lv], markeredgecolor="white",
                      label=LEVEL_NAMES[lv]) for lv in levels]
    handles += list(extra)
    options = dict(loc="upper center", bbox_to_anchor=(0.5, 0.0), frameon=False,
                   fontsize=10, ncol=min(len(handles), 4), handletextpad=0.4,
                   columnspacing=1.2)
    options.update(kwargs)
    return ax.legend(handles=handles, **options)


def draw_contact_graph(ax, G: nx.Graph | None = None, labels: bool = True,
                       edge_colour: str = "#555555", node_size: float = 160, faces_shaded=False,
                       font_size: float = 8.5, legend: bool = False):
    """Draw a contact graph at its ``pos`` (top-view) coordinates: balls coloured by
    level, contacts as straight segments; ``faces_shaded`` fills its inner faces.

    With ``labels`` each ball carries its full point name (``b2``, ``c3.2``,
    ``d4.3``) in white, and the balls are drawn large enough to hold it (at least
    ``node_size``).  ``legend`` adds a legend of the level colours
    (:func:`level_legend`)."""
    from matplotlib.patches import Polygon
    G = contact_graph() if G is None else G
    pos = {v: G.nodes[v]["pos"] for v in G}
    if faces_shaded:
        for f in faces(G)["inner"]:
            ax.add_patch(Polygon([pos[v] for v in f], closed=True, facecolor="#fff4c2",
                                 edgecolor="none", alpha=0.8, zorder=1))
    for a, b in G.edges():
        (x0, y0), (x1, y1) = pos[a], pos[b]
        ax.plot([x0, x1], [y0, y1], color=edge_colour, lw=1.2, zorder=2)
    # a label of n characters needs a disc about 0.75 n font sizes across
    size = max(node_size, (0.78 * 4 * font_size) ** 2) if labels else node_size
    for v in sorted(G, key=lambda v: G.nodes[v]["level"] or 0):
        lv = G.nodes[v]["level"]
        x, y = pos[v]
        ax.scatter([x], [y], s=size if labels else size * (1 + 0.25 * (lv or 0)),
                   color=LEVEL_COLOURS[lv or 0], edgecolors="white", linewidths=1.2, zorder=3)
        if labels:
            ax.text(x, y, G.nodes[v]["name"], ha="center", va="center", fontsize=font_size,
                    fontweight="bold", color="white", zorder=4)
    if legend:
        level_legend(ax, sorted({G.nodes[v]["level"] or 0 for v in G}))
    return ax


def draw_dual(ax, D: nx.Graph | None = None, colour: str = "#c0392b"):
    """Draw the cell walls (:func:`dual_graph`, rim version) over a top view:
    dual vertices as small dots, each wall as a segment."""
    D = dual_graph(contact_graph(), "rim") if D is None else D
    for a, b in D.edges():
        (x0, y0), (x1, y1) = D.nodes[a]["pos"], D.nodes[b]["pos"]
        ax.plot([x0, x1], [y0, y1], color=colour, lw=1.6, zorder=5)
    xs = [D.nodes[v]["pos"][0] for v in D]
    ys = [D.nodes[v]["pos"][1] for v in D]
    ax.scatter(xs, ys, s=14, color=colour, zorder=6)
    return ax


def draw_conhex(ax, C: nx.Graph | None = None, highlight=(), show_graph: bool = True):
    """Draw the ConHex board: each cell as the polygon through its holes (the centre
    hole, inside its cell, is left out of the outline), holes as dots, and with
    ``show_graph`` the cell graph as segments between cell centres.  Cells in
    ``highlight`` are shaded; the 16 edge cells are tinted."""
    from matplotlib.patches import Polygon
    C = conhex_graph() if C is None else C
    centre = (_CONHEX_C, _CONHEX_C)
    highlight = set(highlight)
    for v, data in C.nodes(data=True):
        cx, cy = data["pos"]
        corners = [(q, 8 - r) for r, q in data["holes"] if (r, q) != centre]
        if data["ring"] == 0:
            # the three holes of an edge cell lie on the frame: draw the cell as a
            # band just outside it, the holes in order along the frame
            ux, uy = cx - _CONHEX_C, cy - _CONHEX_C
            corners.sort(key=lambda p: math.atan2(ux * (p[1] - _CONHEX_C) - uy * (p[0] - _CONHEX_C),
                                                  ux * (p[0] - _CONHEX_C) + uy * (p[1] - _CONHEX_C)))

            def out(p):
                dx = -1 if p[0] == 0 else (1 if p[0] == 8 else 0)
                dy = -1 if p[1] == 0 else (1 if p[1] == 8 else 0)
                return (p[0] + 0.45 * dx, p[1] + 0.45 * dy)
            if any(p[0] in (0, 8) and p[1] in (0, 8) for p in corners):   # a corner cell
                ax.add_patch(Polygon(corners, closed=True, lw=1.0, zorder=0,
                                     facecolor="#cfe0f5" if v in highlight else "#f6d6cf",
                                     edgecolor="#8a6434"))
            corners = corners + [out(p) for p in reversed(corners)]
        else:
            corners.sort(key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
        fill = "#cfe0f5" if v in highlight else ("#f6d6cf" if data["ring"] == 0 else "#f7f3ea")
        ax.add_patch(Polygon(corners, closed=True, facecolor=fill, edgecolor="#8a6434",
                             lw=1.0, zorder=0))
    xs, ys = zip(*[(q, 8 - r) for r, q in C.graph["holes"]])
    ax.scatter(xs, ys, s=9, color="#6d4c25", zorder=1)
    if show_graph:
        for a, b in C.edges():
            (x0, y0), (x1, y1) = C.nodes[a]["pos"], C.nodes[b]["pos"]
            ax.plot([x0, x1], [y0, y1], color="#2f6db5", lw=0.7, alpha=0.6, zorder=2)
        px, py = zip(*[C.nodes[v]["pos"] for v in C])
        ax.scatter(px, py, s=16, color="#2f6db5", zorder=3)
    ax.set_xlim(-0.8, 8.8)
    ax.set_ylim(-0.8, 8.8)
    ax.set_aspect("equal")
    ax.axis("off")
    return ax
