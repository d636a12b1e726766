"""Imbriqua: an 8x8 grid, eleven action cards, framed empty cells."""

import itertools
import random
from collections import Counter

import pytest

import shibumi.games.imbriqua  # noqa: F401  (registers the game until it is catalogued)
from conformance import (check_declaration, check_honest_ai, check_playouts,
                         check_random_games, check_terminal_play)
from shibumi import CHANCE, TERMINAL, IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.errors import UnknownGameError
from shibumi.games.imbriqua import BOARD, CARDS, TURNS, card_actions, card_at, revealed
from shibumi.grid import GridPosition

GAME = load("imbriqua")
EIGHT = load("imbriqua", opening=8)
FILES = "abcdefgh"
#: A dealt first pile (cards 1-10 in this order, card 11 beneath).
DECK = "BIHCEFGJAD"
EMPTY = "8/8/8/8/8/8/8/8"


def state(text, game=GAME):
    return game.parse_state(text)


def dealt(seed=0, game=GAME):
    """The state once the ten cards are dealt (chance by its odds)."""
    rng = random.Random(seed)
    s = game.initial_state()
    while game.current_player(s) == CHANCE:
        s = game.random_step(s, rng)
    return s


def walk(game, seed, steps):
    """A state after the deal and up to `steps` random actions."""
    rng = random.Random(seed)
    s = dealt(seed, game)
    for _ in range(steps):
        if game.is_terminal(s):
            break
        s = game.random_step(s, rng)
    return s


def texts(game, s):
    return sorted(m.text() for m in game.legal_moves(s))


def deck_first(card):
    """A first pile that starts with this card (the others in order)."""
    return "".join(CARDS[c].letter for c in [card] + [c for c in range(1, 11) if c != card])


def cells(*names):
    return sum(1 << BOARD.parse_point(n) for n in names)


def position(light=(), dark=()):
    return GridPosition(BOARD, (cells(*light), cells(*dark)))


# -- the engine-free model: the rules written again on a dict of cells --------------
# A cell is (file, rank) counted from 0; the board maps cells to 'W' (Light) or 'B'.
ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
#: card number: (what it does, its directions, only the pawn placed this turn)
REF_CARDS = {1: ("step", ORTH, False), 2: ("step", DIAG, False),
             3: ("slide", ORTH, False), 4: ("slide", DIAG, False),
             5: ("jump", ORTH, False), 6: ("jump", DIAG, False),
             7: ("long", ORTH, True), 8: ("long", DIAG, True),
             9: ("double", ORTH, True), 10: ("double", DIAG, True),
             11: ("place", (), False)}


def name(c):
    return f"{FILES[c[0]]}{c[1] + 1}"


def inside(c):
    return 0 <= c[0] < 8 and 0 <= c[1] < 8


def add(c, d, k=1):
    return (c[0] + k * d[0], c[1] + k * d[1])


def ref_sequence(deck):
    """The 44 cards in order: the pile, then each discard pile turned over."""
    pile = list(deck) + [11]
    return pile + pile[::-1] + pile + pile[::-1]


def ref_actions(board, me, card, placed, jumper):
    """(from, to, jumped cells) for a card."""
    what, dirs, new_only = REF_CARDS[card]
    enemy = "B" if me == "W" else "W"
    if jumper is not None:
        sources = [jumper]
    elif new_only:
        sources = [placed] if board.get(placed) == me else []
    else:
        sources = [c for c, v in board.items() if v == me]
    out = []
    for p in sources:
        for d in dirs:
            if what == "step":
                t = add(p, d)
                if inside(t) and t not in board:
                    out.append((p, t, []))
            elif what == "slide":
                t = add(p, d)
                while inside(t) and t not in board:
                    out.append((p, t, []))
                    t = add(t, d)
            elif what == "jump":
                a, b = add(p, d), add(p, d, 2)
                if inside(b) and board.get(a) == enemy and b not in board:
                    out.append((p, b, [a]))
            elif what == "double":
                a, b, t = add(p, d), add(p, d, 2), add(p, d, 3)
                if inside(t) and board.get(a) == enemy and board.get(b) == enemy \
                        and t not in board:
                    out.append((p, t, [a, b]))
            elif what == "long":
                a = add(p, d)
                while inside(a) and a not in board:
                    a = add(a, d)
                if inside(a) and board.get(a) == enemy:
                    t = add(a, d)
                    while inside(t) and t not in board:
                        out.append((p, t, [a]))
                        t = add(t, d)
    return out


def ref_children(s):
    """[(move text, next state)] of a reference state (a dict)."""
    if s["turn"] == TURNS:
        return []
    board, opening = s["board"], s["opening"]
    seq = ref_sequence(s["deck"])
    in_opening = s["opened"] < opening
    mover = s["opened"] % 2 if in_opening else s["turn"] % 2
    me = "WB"[mover]
    empty = [(f, r) for f in range(8) for r in range(8) if (f, r) not in board]

    def end(board2):
        return dict(s, board=board2, turn=s["turn"] + 1, step="place", placed=None,
                    jumper=None)

    out = []
    if s["step"] == "owed":
        for c, v in board.items():
            if v == me:
                b2 = dict(board)
                del b2[c]
                out.append(("x" + name(c), end(b2)))
        return out
    if s["step"] == "place":
        if in_opening:
            for c in empty:
                out.append((me + name(c), dict(s, board={**board, c: me},
                                                opened=s["opened"] + 1)))
            return out
        inner = [c for c in empty if 1 <= c[0] <= 6 and 1 <= c[1] <= 6]
        for c in inner or empty:
            b2 = {**board, c: me}
            card = seq[s["turn"]]
            step = "act"
            if card != 11 and not ref_actions(b2, me, card, c, None):
                step = "owed"
            out.append((me + name(c), dict(s, board=b2, step=step, placed=c)))
        return out
    card = seq[s["turn"]]
    if card == 11:
        for c in empty:
            b2 = {**board, c: me}
            out.append((me + name(c), dict(s, board=b2, step="more") if s["step"] == "act"
                        else end(b2)))
        return out
    for p, t, jumped in ref_actions(board, me, card, s["placed"], s["jumper"]):
        b2 = {c: v for c, v in board.items() if c != p and c not in jumped}
        b2[t] = me
        placed = t if p == s["placed"] else s["placed"]
        chains = REF_CARDS[card][0] in ("jump", "long")
        if chains and ref_actions(b2, me, card, placed, t):
            out.append((f"{name(p)}-{name(t)}",
                        dict(s, board=b2, step="more", placed=placed, jumper=t)))
        else:
            out.append((f"{name(p)}-{name(t)}", end(b2)))
    if s["step"] == "more":
        out.append(("pass", end(board)))
    return out


def ref_perft(s, depth):
    if depth == 0:
        return 1
    kids = ref_children(s)
    if depth == 1:
        return len(kids)
    return sum(ref_perft(k, depth - 1) for _, k in kids)


def to_ref(game, s):
    """The reference model of an engine state (read from its fields)."""
    board = {}
    for p in range(64):
        colour = s.position.colour_at(p)
        if colour:
            board[(p % 8, p // 8)] = "WB"[colour - 1]
    cell = lambda p: None if p is None else (p % 8, p // 8)  # noqa: E731
    return {"board": board, "deck": list(s.deck), "opened": s.opened, "turn": s.turn,
            "step": s.step, "placed": cell(s.placed), "jumper": cell(s.jumper),
            "opening": game.opening}


# -- conformance ------------------------------------------------------------------
def test_declaration():
    check_declaration("imbriqua")
    assert GAME.info.family == "Companion"
    assert GAME.info.source == "Imbriqua (companion game, seed 002)"
    assert GAME.board is BOARD and BOARD.size == 8


def test_random_games():
    check_random_games("imbriqua", seeds=range(5))
    check_random_games("imbriqua", seeds=range(1), opening=8)


def test_terminal_play():
    check_terminal_play("imbriqua")


def test_honest_ai():
    """The AI never knows the next card: it decides the same from the true deck and
    from a deck drawn from what it has seen (during the first pile, where it matters)."""
    check_honest_ai(GAME, seeds=range(2), steps=(4, 9), iterations=30)


def test_fast_playout_is_the_generic_loop():
    """The bare-mask playout makes the very choices the generic loop makes (the same
    lists in the same order), so the same random games, seed for seed."""
    from shibumi.game import Game
    for game, seeds in ((GAME, range(12)), (EIGHT, range(3))):
        for seed in seeds:
            start = walk(game, seed, seed * 7) if seed % 2 else game.initial_state()
            fast = game.random_playout(start, random.Random(seed))
            slow = Game.random_playout(game, start, random.Random(seed))
            assert fast.position == slow.position and fast.ply == slow.ply
            assert fast.result == slow.result and game.is_terminal(fast)


def test_fast_playout_is_exact_with_each_opening():
    """The playout's games equal the rules' games, state for state (the default
    opening is also checked by the conformance suite)."""
    check_playouts("imbriqua", games=100, opening=8)
    check_playouts("imbriqua", games=40)


def test_slides_counted_and_drawn_without_listing_them():
    """The playout's slide count and k-th slide agree with the listed slides."""
    from shibumi.games.imbriqua import ALL, nth_slide, slide_count
    rng = random.Random(0)
    for _ in range(400):
        cells = rng.sample(range(64), rng.randrange(2, 62))
        cut = rng.randrange(1, len(cells))
        own, opp = sum(1 << c for c in cells[:cut]), sum(1 << c for c in cells[cut:])
        for card in (3, 4):
            listed = card_actions(card, own, opp, None)
            sources = sum(1 << p for p in {p for p, _ in listed})     # pawns that slide
            assert slide_count(card, sources, ALL & ~(own | opp)) == len(listed)
            assert [nth_slide(card, own | opp, sources, k) for k in range(len(listed))] \
                == listed


def _random_sides(rng):
    """Two random disjoint sets of pawns (own, opp), of every density."""
    cells = rng.sample(range(64), rng.randrange(2, 62))
    cut = rng.randrange(1, len(cells))
    return sum(1 << c for c in cells[:cut]), sum(1 << c for c in cells[cut:])


def test_steps_counted_and_drawn_without_listing_them():
    """The playout's step count and k-th step agree with the listed steps."""
    from shibumi.games.imbriqua import ALL, nth_step, step_count
    rng = random.Random(1)
    for _ in range(400):
        own, opp = _random_sides(rng)
        empty = ALL & ~(own | opp)
        for card in (1, 2):
            listed = card_actions(card, own, opp, None)
            sources = sum(1 << p for p in {p for p, _ in listed})     # pawns that step
            assert step_count(card, own, empty) == len(listed)
            assert [nth_step(card, sources, empty, k) for k in range(len(listed))] == listed


def test_jumps_are_the_plain_rule():
    """Short and double jumps (found from tables of masks, over the pawns able to
    jump) are those of the rule: enemy pawns next in line, an empty cell beyond."""
    from shibumi.games.imbriqua import ALL
    from shibumi.grid import DIAGONAL, ORTHOGONAL
    rng = random.Random(2)
    for _ in range(400):
        own, opp = _random_sides(rng)
        for card, dirs, span in ((5, ORTHOGONAL, 1), (6, DIAGONAL, 1), (9, ORTHOGONAL, 2),
                                 (10, DIAGONAL, 2)):
            placed = rng.choice([p for p in range(64) if own >> p & 1])
            sources = [placed] if span == 2 else [p for p in range(64) if own >> p & 1]
            plain = [(p, ray[span]) for p in sources for d in dirs
                     if len(ray := BOARD.ray(p, d)) > span
                     and all(opp >> q & 1 for q in ray[:span])
                     and (ALL & ~(own | opp)) >> ray[span] & 1]
            assert card_actions(card, own, opp, placed) == plain


def test_framed_is_two_pawns_either_side():
    """Framing by masks: an empty cell with a pawn on each side along an alignment."""
    from shibumi.games.imbriqua import ALL, AXES, framed
    rng = random.Random(3)
    for _ in range(300):
        own, opp = _random_sides(rng)
        empty = ALL & ~(own | opp)
        plain = []
        for dx, dy in AXES:
            cells = 0
            for c in range(64):
                x, y = c % 8, c // 8
                ends = [(x + dx, y + dy), (x - dx, y - dy)]
                if empty >> c & 1 and all(0 <= a < 8 and 0 <= b < 8 and own >> (a + 8 * b) & 1
                                          for a, b in ends):
                    cells |= 1 << c
            plain.append(cells)
        assert framed(own, empty) == plain


def test_symmetries():
    """Every symmetry of the square maps legal moves and the end along with the state."""
    from shibumi.notation import transform_move
    for seed in range(3):
        for steps in (5, 30, 80):
            s = walk(GAME, seed, steps)
            for perm in BOARD.symmetries:
                image = GAME.transform_state(s, perm)
                assert set(GAME.legal_moves(image)) == \
                    {transform_move(m, perm) for m in GAME.legal_moves(s)}
                assert GAME.scores(image.position) == GAME.scores(s.position)


def test_options():
    with pytest.raises(UnknownGameError):
        load("imbriqua", opening=6)
    assert EIGHT.opening == 8


# -- perft, cross-checked by the engine-free model --------------------------------
GOLDEN_START = {1: 64, 2: 4032, 3: 249984}
#: After the opening a1 h8 d4 e5 (Light to place), deck BIHCEFGJAD: the first card is
#: a diagonal step.
OPENED = f"7B/8/8/4B3/3W4/8/8/W7 1 deck={DECK} opened=4"
GOLDEN_OPENED = {1: 34, 2: 260, 3: 8589, 4: 25651}


@pytest.mark.parametrize("depth", [1, 2, pytest.param(3, marks=pytest.mark.slow)])
def test_perft_start(depth):
    s = GAME.parse_state(f"{EMPTY} 1 deck={DECK}")
    assert perft(GAME, depth, s) == GOLDEN_START[depth]
    assert ref_perft(to_ref(GAME, s), depth) == GOLDEN_START[depth]


@pytest.mark.parametrize("depth", [1, 2, 3, pytest.param(4, marks=pytest.mark.slow)])
def test_perft_after_opening(depth):
    s = state(OPENED)
    assert perft(GAME, depth, s) == ref_perft(to_ref(GAME, s), depth) == GOLDEN_OPENED[depth]


def test_moves_match_the_model_along_random_games():
    """At every action of random games (both openings), the engine's legal moves are
    exactly the model's, and the model's next state is the engine's."""
    for game, seeds in ((GAME, range(6)), (EIGHT, range(2))):
        for seed in seeds:
            rng = random.Random(seed)
            s = dealt(seed, game)
            while not game.is_terminal(s):
                model = dict(ref_children(to_ref(game, s)))
                assert texts(game, s) == sorted(model), (seed, game.state_text(s))
                move = rng.choice(game.legal_moves(s))
                s = game.apply(s, move)
                assert to_ref(game, s)["board"] == model[move.text()]["board"]
            assert to_ref(game, s)["turn"] == TURNS and ref_children(to_ref(game, s)) == []


@pytest.mark.parametrize("seed,steps", [(1, 20), (2, 45), (3, 70)])
def test_perft_random_positions(seed, steps):
    s = walk(GAME, seed, steps)
    assert perft(GAME, 2, s) == ref_perft(to_ref(GAME, s), 2)


@pytest.mark.slow
@pytest.mark.parametrize("seed,steps", [(4, 12), (5, 33), (6, 60)])
def test_perft_random_positions_deep(seed, steps):
    s = walk(GAME, seed, steps)
    assert perft(GAME, 4, s) == ref_perft(to_ref(GAME, s), 4)


# -- the deck -----------------------------------------------------------------------
def test_card_eleven_turns_and_each_card_twice_per_player():
    """The texts' facts: card 11 at turns 11, 12, 33, 34, alternately to each player;
    every card twice to each player (for every order of the ten shuffled cards)."""
    for deck in itertools.islice(itertools.permutations(range(1, 11)), 0, None, 9973):
        seq = [card_at(deck, t) for t in range(TURNS)]
        assert seq == ref_sequence(deck)
        assert [t + 1 for t, c in enumerate(seq) if c == 11] == [11, 12, 33, 34]
        per_player = Counter((c, t % 2) for t, c in enumerate(seq))
        assert set(per_player.values()) == {2} and len(per_player) == 22


def test_cards_turned_in_play():
    """In a played game, each player applies every card twice; card 11 at 11-12, 33-34."""
    s, rng = dealt(7), random.Random(7)
    turned = []
    while not GAME.is_terminal(s):
        before = s
        s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))
        if before.step == "place" and before.opened == GAME.opening:
            turned.append((before.turn, card_at(s.deck, s.turn), before.to_move))
    assert len(turned) == TURNS
    assert [t + 1 for t, c, _ in turned if c == 11] == [11, 12, 33, 34]
    assert [p for t, c, p in turned if c == 11] == [0, 1, 0, 1]
    assert set(Counter((c, p) for _, c, p in turned).values()) == {2}


def test_deal_is_ten_even_draws():
    s = GAME.initial_state()
    assert GAME.current_player(s) == CHANCE
    outcomes = GAME.chance_outcomes(s)
    assert sorted(m.value for m, _ in outcomes) == list(range(1, 11))
    assert all(abs(p - 0.1) < 1e-12 for _, p in outcomes)
    s = GAME.apply(s, outcomes[3][0])
    assert len(GAME.chance_outcomes(s)) == 9
    firsts = Counter(dealt(seed).deck[0] for seed in range(400))
    assert set(firsts) == set(range(1, 11)) and max(firsts.values()) < 70


def test_observation_hides_only_the_cards_not_turned():
    s = state(OPENED)
    seen = GAME.observe(s, 0)
    assert seen.deck == (0,) * 10 and GAME.observe(s, 1) == seen
    assert revealed(s) == 0
    s = GAME.apply(s, GAME.legal_moves(s)[0])          # the pawn: the first card is up
    seen = GAME.observe(s, 1)
    assert seen.deck == (2,) + (0,) * 9 and seen.card == 2
    other = GAME.determinise(seen, 1, random.Random(3))
    assert GAME.observe(other, 1) == seen and sorted(other.deck) == list(range(1, 11))
    decks = {GAME.determinise(seen, 1, random.Random(k)).deck for k in range(30)}
    assert len(decks) > 20                       # the unseen order really is drawn
    late = walk(GAME, 1, 40)                         # past the first pile: nothing hidden
    assert late.turn >= 10 and GAME.observe(late, 0).deck == late.deck


def test_status_tells_the_card_and_what_is_known():
    s = state(OPENED)
    lines = GAME.status_lines(s)
    assert "Turn 1 of 44" in lines[0] and "off the edge" in lines[0]
    assert "no one knows" in lines[-1] and "double diagonal jump" in lines[-1]
    s = GAME.apply(s, GAME.legal_moves(s)[0])
    assert "Card: diagonal step" in GAME.status_lines(s)[0]
    late = walk(GAME, 1, 40)
    assert GAME.status_lines(late)[-1].startswith("Next card:")


# -- the rules, one at a time ------------------------------------------------------------
def test_opening_four_in_all_anywhere():
    s = GAME.parse_state(f"{EMPTY} 1 deck={DECK}")
    assert len(GAME.legal_moves(s)) == 64                 # edges allowed in the opening
    m = GAME.new_match(state=s)
    for text in ("a1", "h8", "a8"):
        m.push(text)
    assert m.state.to_move == 1 and m.state.step == "place"
    m.push("h1")
    assert m.state.opened == 4 and m.state.to_move == 0
    assert len(m.legal_moves()) == 36                    # now the inner cells only
    e = EIGHT.new_match(state=EIGHT.parse_state(f"{EMPTY} 1 deck={DECK}"))
    for text in ("a1", "h8", "a8", "h1", "b1", "b8", "c1", "c8"):
        e.push(text)
    assert e.state.opened == 8 and len(e.legal_moves()) == 36


def test_edge_only_when_the_inner_cells_are_full():
    inner_full = "8/.BWBWBW./.WBWBWB./.BWBWBW./.WBWBWB./.BWBWBW./.WBWBWB./8"
    s = state(f"{inner_full} 1 deck={DECK} opened=4 turn=2")
    assert len(GAME.legal_moves(s)) == 28                 # every edge cell
    almost = inner_full.replace(".BWBWBW.", ".BWBW.W.", 1)
    s = state(f"{almost} 1 deck={DECK} opened=4 turn=2")
    assert texts(GAME, s) == ["Wf7"]


def test_the_two_pawn_card_allows_the_edge():
    # turn 11 (0-based 10) is card 11: the pawn, then two more anywhere
    s = state(f"8/8/8/8/3W4/8/8/8 1 deck={DECK} opened=4 turn=10 ply=50")
    m = GAME.new_match(state=s)
    m.push("e4")
    assert m.state.card == 11 and len(m.legal_moves()) == 62
    m.push("a1")
    assert m.state.step == "more"
    m.push("h8")
    assert m.state.turn == 11 and m.state.to_move == 1


CARD_POSITIONS = {
    # card: (position, placed pawn, expected moves)
    1: ("8/8/8/8/3W4/8/8/7W", "d4", ["d4-c4", "d4-d3", "d4-d5", "d4-e4", "h1-g1", "h1-h2"]),
    2: ("8/8/8/8/3W4/8/8/7W", "d4", ["d4-c3", "d4-c5", "d4-e3", "d4-e5", "h1-g2"]),
    5: ("8/8/8/3B4/2BWB3/3B4/8/W7", "d4", ["d4-b4", "d4-d2", "d4-d6", "d4-f4"]),
    9: ("8/8/8/8/1BBW1BBW/8/8/8", "d4", ["d4-a4"]),
}


@pytest.mark.parametrize("card", sorted(CARD_POSITIONS))
def test_card_examples(card):
    pos, placed, want = CARD_POSITIONS[card]
    s = state(f"{pos} 1 deck={deck_first(card)} opened=4 act placed={placed} ply=5")
    assert texts(GAME, s) == want


def test_slides_stop_before_pawns():
    s = state(f"8/8/8/8/W2W1B2/8/8/8 1 deck={deck_first(3)} opened=4 act placed=d4")
    got = texts(GAME, s)
    assert "d4-e4" in got and "d4-f4" not in got and "d4-b4" in got and "d4-a4" not in got
    assert "a4-c4" in got and "a4-a8" in got


def test_long_jump_only_new_pawn_any_distance_and_chain():
    # Light's new pawn on b4, Dark on e4 and e7; Light's a1 may not do a red card
    s = state(f"8/4B3/8/8/1W2B3/8/8/W7 1 deck={deck_first(7)} opened=4 act placed=b4")
    assert texts(GAME, s) == ["b4-f4", "b4-g4", "b4-h4"]
    m = GAME.new_match(state=s)
    m.push("b4-h4")                       # e4 is taken; nothing in line from h4: turn over
    assert m.state.step == "place" and not m.state.position.stones[2] & cells("e4")
    s = state(f"8/6B1/8/8/1W2B3/8/8/W7 1 deck={deck_first(7)} opened=4 act placed=b4")
    m = GAME.new_match(state=s)
    m.push("b4-g4")                       # g7 is now in line: the pawn may jump on
    assert m.state.step == "more" and texts(GAME, m.state) == ["g4-g8", "pass"]
    assert m.state.placed == m.state.jumper == BOARD.parse_point("g4")
    m.push("pass")
    assert m.state.step == "place" and m.state.to_move == 1
    # a second pawn on the line blocks a long jump: exactly one pawn is jumped
    assert card_actions(7, cells("b4"), cells("d4", "e4"), BOARD.parse_point("b4")) == []


def test_green_cards_move_any_pawn_red_cards_only_the_new_one():
    before = "8/8/8/8/8/1B6/W7/8 1 deck={} opened=4"      # Light a2, Dark b3
    green = GAME.apply(state(before.format(deck_first(6))), BOARD.parse_move("We4"))
    assert green.step == "act" and texts(GAME, green) == ["a2-c4"]    # the old pawn jumps
    red = GAME.apply(state(before.format(deck_first(8))), BOARD.parse_move("We4"))
    assert red.step == "owed" and texts(GAME, red) == ["xa2", "xe4"]  # only e4 may jump


def test_chain_of_short_jumps_is_optional_and_same_pawn():
    s = state(f"8/8/3B4/8/3B4/3W4/8/W7 1 deck={deck_first(5)} opened=4 act placed=d3")
    assert texts(GAME, s) == ["d3-d5"]
    m = GAME.new_match(state=s)
    m.push("d3-d5")
    assert texts(GAME, m.state) == ["d5-d7", "pass"]
    m.push("d5-d7")
    assert m.state.step == "place" and not m.state.position.stones[2]


def test_double_jump_is_never_repeated():
    s = state(f"8/8/8/8/1BBW1BB1/8/8/8 1 deck={deck_first(9)} opened=4 act placed=d4")
    m = GAME.new_match(state=s)
    assert texts(GAME, m.state) == ["d4-a4"]
    s = state(f"8/8/8/1B6/1B6/W7/8/8 1 deck={deck_first(10)} opened=4 act placed=a3"
              .replace("1B6/1B6/W7", "2B5/1B6/W7"))
    m = GAME.new_match(state=s)
    assert texts(GAME, m.state) == ["a3-d6"]
    m.push("a3-d6")
    assert m.state.step == "place" and not m.state.position.stones[2]


def test_failed_card_opponent_removes_any_pawn():
    # the first card is a double orthogonal jump; Light's new pawn cannot make it
    s = state(f"8/8/8/8/3B4/8/8/W7 1 deck={deck_first(9)} opened=4")
    m = GAME.new_match(state=s)
    m.push("d5")
    assert m.state.step == "owed" and m.current_player == 1
    assert texts(GAME, m.state) == ["xa1", "xd5"]
    m.push("xd5")
    assert m.state.turn == 1 and m.current_player == 1 and m.state.step == "place"


def test_framing_along_rows_columns_and_diagonals():
    # b6 d6 frame c6 (row); d6 d4 frame d5 (column); b6 d4 frame c5 (diagonal)
    assert GAME.scores(position(light=("b6", "d6", "d4"))) == (3, 0)
    # only the cells next to the framed one count: b6 and e6 frame nothing
    assert GAME.scores(position(light=("b6", "e6"))) == (0, 0)
    # an edge cell is framed along the edge
    assert GAME.scores(position(dark=("a1", "a3"))) == (0, 1)


def test_a_cell_counts_once_per_alignment():
    # c3 framed along its row (b3 d3) and its column (c2 c4): two
    assert GAME.scores(position(light=("b3", "d3", "c2", "c4"))) == (2, 0)
    # all four lines: eight pawns around c3
    ring = ("b3", "d3", "c2", "c4", "b2", "d4", "b4", "d2")
    assert GAME.scores(position(light=ring)) == (4, 0)          # c3 along all four
    # the same cell framed by both players along different lines counts for both
    assert GAME.scores(position(light=("b3", "d3"), dark=("c2", "c4"))) == (1, 1)
    # an occupied cell is never framed
    assert GAME.scores(position(light=("b3", "d3"), dark=("c3",))) == (0, 0)


def test_scoring_example_light_three_dark_four():
    """A position like the lost scoring figure (light 3, dark 4)."""
    pos = position(light=("b6", "d6", "d4"), dark=("a1", "c1", "e1", "a3"))
    # Dark: b1 and d1 (row), a2 (column a1-a3), b2 (diagonal a3-c1)
    assert GAME.scores(pos) == (3, 4)
    end = state(f"{pos.text()} 1 deck={DECK} opened=4 turn=44")
    assert GAME.is_terminal(end) and end.result.winners == (1,)
    assert end.result.scores == (3, 4)
    assert GAME.winning_points(end) == cells("a1", "c1", "e1", "a3")


def test_tie_break_then_draw():
    # both frame one cell; Light has more pawns
    s = state(f"8/8/8/8/8/W1W5/8/B1B2W2 1 deck={DECK} opened=4 turn=44")
    assert GAME.scores(s.position) == (1, 1)
    assert s.result.winners == (0,) and "pawns 3 to 2" in s.result.reason
    s = state(f"8/8/8/8/8/W1W5/8/B1B5 1 deck={DECK} opened=4 turn=44")
    assert s.result.is_draw


def test_state_text_round_trip_mid_chain():
    s = state(f"8/8/3B4/8/3B4/3W4/8/W7 1 deck={deck_first(5)} opened=4 act placed=d3")
    s = GAME.apply(s, GAME.legal_moves(s)[0])
    text = GAME.state_text(s)
    assert "more" in text and "jumper=d5" in text
    assert GAME.state_key(GAME.parse_state(text)) == GAME.state_key(s)


# -- bad input ----------------------------------------------------------------------
@pytest.mark.parametrize("move", ["a1", "d4-d6", "xh8", "pass", "=3", "i9", "", "d4-"])
def test_bad_moves_refused_state_unchanged(move):
    m = GAME.new_match(state=state(OPENED))
    before = m.state
    with pytest.raises((IllegalMoveError, NotationError)):
        m.push(move)
    assert m.state is before


@pytest.mark.parametrize("text", [
    f"{EMPTY} 1 deck=ABCDEFGHIK",              # card 11 is not shuffled
    f"{EMPTY} 1 deck=AACDEFGHIJ",              # a card twice
    f"{EMPTY} 1 deck={DECK} opened=9",
    f"{EMPTY} 2 deck={DECK}",                  # Light places first
    f"{EMPTY} 1 deck={DECK} opened=4 turn=45",
    f"{EMPTY} 1 deck={DECK} opened=4 more",
    f"{EMPTY} 1 deck={DECK} opened=4 act",     # no pawn placed
    f"8/8/8/8/3W4/8/8/8 1 deck={deck_first(9)} opened=4 act placed=d4",   # owed, not act
    f"{EMPTY} 1 opened=4",                     # not dealt
    f"{EMPTY} 1 deck={DECK} colour=3",
    "8/8/8/8/8/8/8 1",
    "8/8/8/8/8/8/8/7w 1",
])
def test_bad_states_refused(text):
    with pytest.raises(NotationError):
        GAME.parse_state(text)


def test_table_plays_a_whole_game_by_clicks():
    """Every move is made by clicks (a placement or removal: its cell; a move or jump:
    its two cells); pass is picked from the list. The deal stays hidden."""
    from shibumi.interaction import Table
    table = Table(GAME, seats="human,human", seed=3)
    rng = random.Random(3)
    assert table.history() == [{"number": 1, "text": "10 hidden draws"}]
    assert "=" not in "".join(table.status_lines())
    while not table.match.is_over():
        if table.covered:                      # two humans: the board waits to be shown
            table.reveal()
        if table.match.state.step == "place" and table.match.state.opened == 4 \
                and table.match.state.turn == 0:
            assert any("no one knows" in line for line in table.status_lines())
        move = rng.choice(table.options())
        if move.kind == "pass":
            assert table.choose("pass") == move
            continue
        played = table.click(move.point)
        if played is None:
            played = table.click(move.target)
        assert played == move, (move, table.message)
    view = table.view()
    assert table.match.state.turn == TURNS and view is not None
    assert not any("hidden draws" in h["text"] for h in table.history())   # shown at the end
