"""The connectivity graph of a full pyramid: planar triangulated disc, trivalent dual, ConHex."""
from collections import Counter

import networkx as nx
import pytest

from shibumi.geometry import (CONTACTS, EXTERIOR_MASK, INTERIOR, LEVEL_MASK, PROJECTION,
                              SIDE_MASK, point_at, points_of)
from shibumi.maths import graphs
from shibumi.maths.graphs import (all_contacts_kuratowski, conhex_cells, conhex_comparison,
                                  conhex_graph, contact_graph, dual_graph, faces,
                                  is_planar_all_contacts, non_trivalent, planar_embedding,
                                  pyramid_contact_graph, sided_graph)

BOARD_RING = set(points_of(LEVEL_MASK[0] & EXTERIOR_MASK))


def test_visible_contact_graph_sizes_and_attributes():
    G = contact_graph()
    assert G.number_of_nodes() == 25 and G.number_of_edges() == 60
    assert set(G) == set(points_of(EXTERIOR_MASK))
    assert not set(G) & set(INTERIOR)
    assert G.nodes[29]["name"] == "d4.3" and G.nodes[29]["level"] == 3
    assert all(G.nodes[p]["pos"] == PROJECTION[p] for p in G)
    assert G.nodes[0]["sides"] == {"left", "bottom"}
    kinds = Counter(k for _, _, k in G.edges(data="kind"))
    assert kinds == {"flat": 24, "vertical": 36}
    # no visible contact of a full pyramid is an underpass
    assert all(over == 0 for _, _, over in G.edges(data="overpass"))


def test_all_contacts_graph():
    G = contact_graph(visible_only=False)
    assert G.number_of_nodes() == 30 and G.number_of_edges() == len(CONTACTS) == 96


@pytest.mark.parametrize("visible_only", [True, False])
def test_independent_pyramid_builder_agrees_with_engine(visible_only):
    P = pyramid_contact_graph(4, visible_only)
    P = nx.relabel_nodes(P, {v: point_at(*v) for v in P})
    G = contact_graph(visible_only)
    assert set(P) == set(G)
    assert {frozenset(e) for e in P.edges()} == {frozenset(e) for e in G.edges()}
    assert all(P.nodes[v]["pos"] == G.nodes[v]["pos"] for v in G)


def test_planar_with_a_straight_line_top_view_drawing():
    G = contact_graph()
    assert nx.check_planarity(G)[0]
    assert graphs.straight_line_crossings(G) == []
    emb = planar_embedding(G)
    emb.check_structure()
    assert set(emb) == set(G) and emb.number_of_edges() == 2 * 60   # half-edges


def test_inner_faces_are_triangles_and_outer_face_is_the_edge_ring():
    f = faces(contact_graph())
    assert len(f["inner"]) == 36 and f["all_inner_triangles"]
    assert f["euler"] == 2
    assert len(f["outer"]) == 12 and set(f["outer"]) == BOARD_RING
    # each inner face is a triangle of the graph
    G = contact_graph()
    assert all(G.has_edge(a, b) and G.has_edge(b, c) and G.has_edge(a, c)
               for a, b, c in f["inner"])


def test_dual_rim_version_is_trivalent():
    D = dual_graph(contact_graph(), "rim")
    assert D.number_of_nodes() == 36 + 12 and D.number_of_edges() == 60 + 12
    assert non_trivalent(D) == {}
    assert nx.check_planarity(D)[0] and nx.is_connected(D)


def test_dual_inner_faces_only_has_the_rim_triangles_of_degree_two():
    G = contact_graph()
    D = dual_graph(G, "inner")
    bad = non_trivalent(D)
    assert set(bad.values()) == {2} and len(bad) == 12
    # exactly the triangles with a side on the ring of edge holes
    ring = faces(G)["outer"]
    rim_edges = {frozenset(e) for e in zip(ring, ring[1:] + ring[:1])}
    assert set(bad) == {f for f in D if any(frozenset(e) in rim_edges
                                            for e in ((f[0], f[1]), (f[1], f[2]), (f[0], f[2])))}


def test_dual_with_outer_face_as_a_vertex():
    D = dual_graph(contact_graph(), "vertex")
    assert non_trivalent(D) == {"outer": 12}


def test_sided_graph_is_the_hex_setting():
    f = faces(sided_graph())
    assert f["all_inner_triangles"] and len(f["inner"]) == 52
    assert sorted(f["outer"]) == sorted(["left", "bottom", "right", "top"])


@pytest.mark.parametrize("base", [2, 3, 4, 5, 6])
def test_every_complete_pyramid_is_a_triangulated_disc(base):
    P = pyramid_contact_graph(base)
    ring = 4 * (base - 1)
    assert P.number_of_nodes() == 1 + sum(4 * k for k in range(1, base))
    f = faces(P)
    assert f["all_inner_triangles"] and len(f["outer"]) == ring
    assert non_trivalent(dual_graph(P, "rim")) == {}


def test_thirty_balls_are_not_planar():
    assert not is_planar_all_contacts()
    G = contact_graph(visible_only=False)
    assert G.number_of_edges() > 3 * G.number_of_nodes() - 6      # 96 > 84
    k = all_contacts_kuratowski()
    assert not k["planar"] and k["kind"] in ("K5", "K3,3")
    H = k["subgraph"]
    assert all(G.has_edge(a, b) for a, b in H.edges())
    assert not nx.check_planarity(H)[0]
    # contract the degree-2 vertices: the branch vertices form K5 or K3,3
    core = nx.Graph(H)
    for v in [v for v, d in H.degree() if d == 2]:
        a, b = core[v]
        core.remove_node(v)
        core.add_edge(a, b)
    model = nx.complete_graph(5) if k["kind"] == "K5" else nx.complete_bipartite_graph(3, 3)
    assert nx.is_isomorphic(core, model)


def test_conhex_board_counts():
    cells = conhex_cells()
    assert len(cells) == 41
    assert Counter(len(c["holes"]) for c in cells) == {3: 16, 6: 24, 5: 1}
    assert Counter(c["ring"] for c in cells) == {0: 16, 1: 12, 2: 8, 3: 4, 4: 1}
    C = conhex_graph()
    assert len(C.graph["holes"]) == 69
    assert Counter(len(cs) for cs in C.graph["holes"].values()) == {3: 64, 1: 5}
    sides = Counter(s for c in cells for s in c["sides"])
    assert sides == {"top": 5, "bottom": 5, "left": 5, "right": 5}
    assert C.number_of_edges() == 104


def test_conhex_against_shibumi():
    r = conhex_comparison()
    assert r["shibumi_cells"] == 25 and r["conhex_cells"] == 41
    assert r["shibumi_is_conhex"] is False            # not the same board
    assert r["shibumi_dual_is_conhex_holes"] is False
    assert r["conhex_is_pyramid5"] and r["conhex_faces_are_holes"]
    assert r["shibumi_is_conhex_inner"] and r["shibumi_faces_are_inner_holes"]
    assert r["conhex_trivalent"]
    assert not nx.is_isomorphic(contact_graph(), conhex_graph())


def test_span_sides_are_the_board_edges():
    G = contact_graph()
    for side, mask in SIDE_MASK.items():
        assert {v for v in G if side in G.nodes[v]["sides"]} == set(points_of(mask))


def test_visible_graph_of_every_filling_is_drawn_plane_from_above():
    # visibility depends only on the filled points: all 141,120 fillings cover every position
    r = graphs.every_filling_drawn_plane()
    assert r["fillings"] == 141120 and r["visible_crossed"] == 0
    # the control: with every physical contact the same check finds spoiled drawings
    assert r["physical_crossed"] == 29582 and r["example"] is not None
    assert r["conflicts"] == {"pairs": 44, "on_segment": 0, "same_spot": 5}


def test_top_view_conflicts_are_the_overpass_and_the_shared_spots():
    """The proof's case list: two contacts meet in the top view only when one is
    a flat contact and the other joins its overpass pair, or when an end of one
    and an end of the other are drawn at one spot (a ball and the ball two
    levels straight above it, the lower one hidden)."""
    from shibumi.geometry import COVER, LEVEL
    c = graphs.top_view_conflicts()
    same_spot = {frozenset(pair) for pair in c["same_spot"]}
    assert same_spot == {frozenset((p, COVER[p])) for p in INTERIOR}
    overpass = shared = 0
    for i, j in c["pairs"]:
        (a, b, over_ab), (x, y, over_xy) = CONTACTS[i], CONTACTS[j]
        if over_ab == (1 << x | 1 << y) or over_xy == (1 << a | 1 << b):
            overpass += 1
            assert LEVEL[a] == LEVEL[b] and LEVEL[x] == LEVEL[y] and abs(LEVEL[a] - LEVEL[x]) == 1
        else:
            shared += 1
            assert any(frozenset((u, v)) in same_spot for u in (a, b) for v in (x, y))
    assert overpass == sum(1 for _, _, over in CONTACTS if over) == 16 and shared == 28
    # vertical contacts are unit diagonals in the top view
    for a, b, _ in CONTACTS:
        (xa, ya), (xb, yb) = PROJECTION[a], PROJECTION[b]
        assert (xa - ya) % 2 == 0 and (xb - yb) % 2 == 0
        if LEVEL[a] != LEVEL[b]:
            assert abs(xa - xb) == abs(ya - yb) == 1


def test_position_graph_agrees_with_the_filling_masks_on_sampled_positions():
    """A sample only: position_graph (networkx, generic crossing test) against the
    masks and conflict table used by the exhaustive check above."""
    from conftest import random_position
    from shibumi.position import Position
    from shibumi.geometry import ALL_MASK
    full = graphs.position_graph(Position.from_masks(white=ALL_MASK))
    assert {frozenset(e) for e in full.edges()} == {frozenset(e) for e in contact_graph().edges()}
    crossed = 0
    for seed in range(200):
        pos = random_position(seed, 5 + seed % 26)
        G = graphs.position_graph(pos)
        vertices, edges = graphs.filling_contacts(pos.occupied)
        assert set(G) == set(points_of(vertices))
        assert {frozenset(e) for e in G.edges()} == \
            {frozenset(CONTACTS[i][:2]) for i in range(len(CONTACTS)) if edges >> i & 1}
        assert graphs.straight_line_crossings(G) == [], pos
        crossed += bool(graphs.straight_line_crossings(graphs.position_graph(pos, False)))
    assert crossed > 50


def test_a_placement_never_joins_balls_already_there():
    r = graphs.placements_never_join()
    assert r["fillings"] == 141120 and r["placements"] == 1038301
    assert r["joins"] == 0 and r["uncovers"] == 0
    assert r["cuts"] == 78092 and r["hides"] == 1957


def test_with_the_red_core_nothing_is_hidden_or_cut():
    # Sponnect's seed omits "visibly": with the interior filled it makes no difference
    assert graphs.red_core_contacts() == {"fillings": 21368, "hidden_exterior": 0,
                                          "cut_exterior": 0}


def test_face_names_and_drawings():
    names = graphs.face_names()
    assert len(names) == 36 == len(set(names)) and "c3.2 e3.2 d4.3" in names
    assert all(len(n.split()) == 3 for n in names)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots()
    graphs.draw_board(ax)
    graphs.draw_contact_graph(ax, faces_shaded=True)
    graphs.draw_dual(ax)
    n_lines = len(ax.lines)
    assert n_lines == 60 + 72            # one segment per contact and per wall
    fig2, ax2 = plt.subplots()
    graphs.draw_conhex(ax2, highlight=[0])
    assert len(ax2.patches) == 41 + 4    # a polygon per cell, the corner cells twice
    assert len(ax2.lines) == 104
    plt.close("all")
