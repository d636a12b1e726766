"""Spetris: "Tetris" on the pyramid; lay your six shapes, the fewest left wins.

Each player owns six small shapes of touching balls.  The shapes are rigid
figures of the face-centred cubic packing the pyramid is made of, so where
they fit is pure geometry: every placement of every shape is listed once, at
import, from the balls' centres, and a position only asks which listed
placements are empty and carried.

>>> from shibumi import load
>>> game = load("spetris")
>>> [len(PLACEMENTS[kind]) for kind in KINDS]
[42, 96, 114, 168, 88]
>>> match = game.new_match()
>>> for text in ("a1", "c1", "e1"):       # White lays the line of three
...     _ = match.push(text)
>>> match.state.hands[0], match.current_player
((0, 2, 1, 1, 1), 1)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..errors import NotationError, shown
from ..game import Game, GameInfo, Outcome, State, read_fields, write_fields
from ..geometry import (CENTRE, CONTACTS, NUM_POINTS, POINTS, SUPPORT_MASK, TOUCHING,
                        points_of, transform_mask)
from ..notation import PASS_MOVE, point_name
from ..position import BLACK, COLOUR_NAMES, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, playable_bits

PLAYER_COLOURS = (WHITE, BLACK, RED)
FULL = (1 << NUM_POINTS) - 1

#: The five kinds of shape, by index: a straight line of three, a line of two,
#: a right angle, a 120-degree angle and a triangle (three balls all touching).
LINE3, LINE2, RIGHT, WIDE, TRIANGLE = KINDS = (0, 1, 2, 3, 4)
KIND_NAMES = ("line of three", "line of two", "right angle", "120-degree angle", "triangle")
KIND_LETTERS = "IDLVT"
SIZE = (3, 2, 3, 3, 3)
#: A hand at the start: one of each shape but two lines of two (16 balls).
START_HAND = (1, 2, 1, 1, 1)
#: Squared distance between the two end balls of a bent or straight run of three
#: touching balls (diameter 1), and the shape that distance makes.
_KIND_OF_SPREAD = {1: TRIANGLE, 2: RIGHT, 3: WIDE, 4: LINE3}


def _spread(a: int, c: int) -> int:
    """Squared distance between two ball centres, rounded (it is a whole number)."""
    return round(sum((u - v) ** 2 for u, v in zip(CENTRE[a], CENTRE[c])))


def _carried(mask: int) -> int:
    """The balls outside a shape that must already be in place to carry it."""
    need = 0
    for p in points_of(mask):
        need |= SUPPORT_MASK[p]
    return need & ~mask


def _build_placements() -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every placement of each shape as (points, balls it rests on), once each.

    A line of two is any contact.  A shape of three is a chain a-b-c of
    touching balls; the distance from a to c (1, sqrt 2, sqrt 3 or 2) says
    which of the four shapes it is, and these are the only four angles
    (60, 90, 120, 180 degrees) between contacts in the packing.
    """
    found: list[set[int]] = [set() for _ in KINDS]
    found[LINE2] = {1 << a | 1 << b for a, b, _ in CONTACTS}
    for b in POINTS:
        ends = TOUCHING[b]
        for i, a in enumerate(ends):
            for c in ends[i + 1:]:
                found[_KIND_OF_SPREAD[_spread(a, c)]].add(1 << a | 1 << b | 1 << c)
    return tuple(tuple((m, _carried(m)) for m in sorted(masks)) for masks in found)


PLACEMENTS = _build_placements()
"""PLACEMENTS[kind]: (mask, carrying mask) of every way the shape fits the pyramid."""
KIND_OF = {m: kind for kind in KINDS for m, _ in PLACEMENTS[kind]}
"""The shape of a mask of two or three balls, when it is one."""


# -- placements as bits of one integer ----------------------------------------------
# Placement i (kinds in order, each kind in PLACEMENTS order) is bit i of a
# "placement set".  A position rules placements out point by point, so the set
# of those still open is a few table look-ups, not a scan of the 508 shapes.
_ALL = [(m, carry, kind) for kind in KINDS for m, carry in PLACEMENTS[kind]]
ALL_OPEN = (1 << len(_ALL)) - 1
#: KIND_BITS[kind]: the placement set of one kind; KINDSET_BITS[set of kinds as 5 bits].
KIND_BITS = tuple(sum(1 << i for i, (_, _, k) in enumerate(_ALL) if k == kind)
                  for kind in KINDS)
KINDSET_BITS = tuple(sum(KIND_BITS[k] for k in KINDS if kinds >> k & 1)
                     for kinds in range(1 << len(KINDS)))
#: CONTAINS[p]: placements with a ball at p; CARRIED_BY[p]: those resting on p.
CONTAINS = tuple(sum(1 << i for i, (m, _, _) in enumerate(_ALL) if m >> p & 1)
                 for p in POINTS)
CARRIED_BY = tuple(sum(1 << i for i, (_, c, _) in enumerate(_ALL) if c >> p & 1)
                   for p in POINTS)
#: For each point, (point above, its supports) of the points a ball there may
#: help carry: placing it makes those playable once their four supports are in.
_RAISED = tuple(tuple((1 << q, SUPPORT_MASK[q]) for q in POINTS if SUPPORT_MASK[q] >> p & 1)
                for p in POINTS)
#: The placement bit of each line of two, by its mask.
LINE2_BIT = {m: 1 << i for i, (m, _, k) in enumerate(_ALL) if k == LINE2}


def _near(p: int) -> int:
    """The other points of the placements holding ``p``: a shape laid in part can
    only grow onto points near every ball of it (the playout's filter before
    :func:`shapes_reach`, which then has fewer points to test)."""
    out = 0
    for m, _, _ in _ALL:
        if m >> p & 1:
            out |= m
    return out & ~(1 << p)


_NEAR = tuple(_near(p) for p in POINTS)


def _byte_tables(per_point):
    """For each byte of a point mask (points 8j to 8j + 7), the union of
    ``per_point`` over the points set in it: four look-ups replace a loop."""
    return tuple(tuple(_union_of(per_point, 8 * j, byte) for byte in range(256))
                 for j in range(4))


def _union_of(per_point, base, byte):
    out = 0
    for b in range(8):
        if byte >> b & 1 and base + b < NUM_POINTS:
            out |= per_point[base + b]
    return out


_BALLS = _byte_tables(CONTAINS)      # placements a ball (not of the shape) spoils
_GAPS = _byte_tables(CARRIED_BY)     # placements an empty point leaves uncarried


def open_placements(occupied: int, placed: int = 0) -> int:
    """The placement set of shapes that fit: their points empty (but those of
    ``placed``, the part laid this turn, which they must contain), every ball
    carried once the shape is in."""
    balls, gaps = occupied ^ placed, FULL ^ occupied
    b0, b1, b2, b3 = _BALLS
    g0, g1, g2, g3 = _GAPS
    blocked = (b0[balls & 255] | b1[balls >> 8 & 255] | b2[balls >> 16 & 255]
               | b3[balls >> 24] | g0[gaps & 255] | g1[gaps >> 8 & 255]
               | g2[gaps >> 16 & 255] | g3[gaps >> 24])
    fitting = ALL_OPEN & ~blocked
    while placed:
        low = placed & -placed
        fitting &= CONTAINS[low.bit_length() - 1]
        placed ^= low
    return fitting


def shapes_reach(fitting: int, candidates: int) -> list[int]:
    """The points of ``candidates`` that some placement of the set covers, in order."""
    reach = []
    while candidates:
        low = candidates & -candidates
        p = low.bit_length() - 1
        if fitting & CONTAINS[p]:
            reach.append(p)
        candidates ^= low
    return reach


def growth(occupied: int, placed: int, kinds: int) -> tuple[int, bool]:
    """(placement set the balls laid so far can still grow into, may the mover
    stop here with a line of two), for the allowed placement set ``kinds``."""
    fitting = open_placements(occupied, placed) & kinds
    stop = LINE2_BIT.get(placed, 0) & fitting
    return fitting ^ stop, bool(stop)


def placement_masks(fitting: int) -> list[int]:
    """The masks of a placement set, in placement order."""
    out = []
    while fitting:
        low = fitting & -fitting
        out.append(_ALL[low.bit_length() - 1][0])
        fitting ^= low
    return out


def held_kinds(hand: tuple[int, ...]) -> int:
    """The kinds a hand holds, as 5 bits."""
    return sum(1 << k for k, n in enumerate(hand) if n)


def fits(kind: int, occupied: int, placed: int = 0) -> list[int]:
    """Masks where a shape can go: empty points, every ball carried once it is in.

    ``placed`` is the part of the shape already laid this turn (it is in
    ``occupied``); only placements containing it are kept.
    """
    return placement_masks(open_placements(occupied, placed) & KIND_BITS[kind])


def hand_text(hand: tuple[int, ...]) -> str:
    """A hand in letters, e.g. ``IDDLVT`` for a full one (``-`` for none)."""
    return "".join(KIND_LETTERS[k] * n for k, n in enumerate(hand)) or "-"


def hand_words(hand: tuple[int, ...]) -> str:
    """A hand in words, e.g. ``a line of three, 2 lines of two``."""
    words = []
    for kind, n in enumerate(hand):
        if n:
            name = KIND_NAMES[kind]
            words.append(f"a {name}" if n == 1 else f"{n} {name.replace('line', 'lines')}")
    return ", ".join(words) or "nothing"


def balls_left(hand: tuple[int, ...]) -> int:
    return sum(SIZE[k] * n for k, n in enumerate(hand))


@dataclass(frozen=True)
class SpetrisState(State):
    hands: tuple[tuple[int, ...], ...] = (START_HAND, START_HAND)
    """Shapes each player still holds, counted by kind."""
    placed: int = 0
    """Balls of the shape the mover is laying (this turn)."""
    barred: int = -1
    """The shape last laid, which the others may not repeat (-1: none)."""
    placer: int = -1
    """Who laid the barred shape (the bar ends when their turn comes back)."""
    ply: int = 0


@register
class Spetris(Game):
    info = GameInfo(
        name="Spetris", designer="Pablo Schulman", year="2011",
        family="Pattern", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Take turns laying small rigid shapes of your balls (lines, angles, a "
                "triangle); never repeat the shape just laid; fewest shapes left wins.",
        min_players=2, max_players=3, complexity=2, max_length=105)
    parameters = {"players": 2}

    rules = """\
Each player owns 16 balls of their colour (White, Black, and Red for a third
player), made up into six shapes of touching balls:

* a straight line of three balls;
* two lines of two balls;
* a right angle of three balls;
* a 120-degree angle of three balls;
* a triangle of three balls, each touching the other two.

The board starts empty. On your turn lay one of your shapes, exactly as it
is, anywhere in the pyramid: every ball of it must sit on an empty point and
end up carried, either in a hole of the board or on four balls below
(balls of the same shape may carry one another). The shapes are rigid
figures of the pyramid's packing and may be turned any way it allows: a
line of three lies along a row or column of a level or runs up a ridge; the
angles and the triangle can stand on the levels or climb between them.

You may not lay the kind of shape that was laid last by someone else; that
bar ends when the turn comes back to whoever laid it. Who cannot lay any
shape passes. In this program a shape is laid one ball at a time, lowest
balls first: every ball must be part of a legal placement of a shape you may
lay. After two touching balls play `pass` to stop there, as a line of two,
when you could go on to a shape of three.

The game ends when the pyramid is complete, or when nobody can lay any of
the shapes they hold. The player with the fewest shapes left wins; if that
ties, the fewest balls left; if that ties too, the tied players share the
win.

With three players the rules are the same, except that the first player
must open with a line of two.
"""
    notes = """\
* The shapes (figure lost): the text lists them (a line of three, two lines
  of two, a right angle, a 120-degree angle and a triangle, 16 balls in
  all), and the pyramid's packing (face-centred cubic) admits exactly these
  four bends of a chain of three touching balls: 60 (the triangle), 90, 120
  and 180 degrees (the straight line). The figure may have shown them flat,
  but we cannot tell which orientations were drawn, and "Tetris on the
  pyramid" suggests any orientation the packing allows, so every placement
  counts: 96 lines of two (the 96 contacts), 42 lines of three, 114 right
  angles, 168 120-degree angles and 88 triangles. A triangle always
  stands across two levels and a 120-degree angle across two or three;
  right angles and lines of three also lie flat on one level.
* "Placed as they are, every ball resting on the board or carried by other
  balls": a ball may rest on balls of its own shape (the top of a triangle
  rests on its two lower balls and on two balls already there). Entering a
  shape ball by ball, lowest first, is only how the program takes the move.
* "Not the same group as the previous player": group means kind of shape
  (two lines of two are the same kind). The bar is the kind most recently
  laid and binds everybody but the player who laid it, until that player's
  turn comes round again (the text: once everybody else has passed, the
  player is free of the rule). So with three players a pass does not lift
  the bar for the next player.
* The end. Read literally, "all players pass in a row" could end a game
  while a player still holds a shape that fits and was only barred; we end
  the game when nobody can lay any shape they hold, bar or no bar, which is
  when a whole round of passes would follow once the bar is lifted. Passes
  that the bar forces are still played, one by one.
* Passing is only allowed when no shape can be laid (the text says the
  players must pass when they cannot play, not that they may).
* Ties beyond shapes and balls are not settled by the text: the tied
  players share the win (a draw when all tie).
* Length: at most 30 balls, 15 shapes each followed by at most one `pass`
  to stop at two balls, and between two shapes at most 2n - 2 passes (the
  barred players, the player who laid the shape, then players who cannot
  lay anything before one who can): 30 + 15 + 15 x 4 = 105 actions.
"""

    def initial_state(self, rng=None) -> SpetrisState:
        return SpetrisState(hands=(START_HAND,) * self.num_players)

    def length(self, state) -> int:
        return state.ply

    # -- what may be laid ------------------------------------------------------
    def allowed_kinds(self, state) -> list[int]:
        """The kinds the mover may lay now: in hand, not barred, and for three
        players a line of two to open the game."""
        kinds = self._allowed(state.hands, state.to_move, state.barred, state.placer)
        return [k for k in KINDS if kinds >> k & 1]

    def _allowed(self, hands, mover, barred, placer) -> int:
        """:meth:`allowed_kinds` as 5 bits."""
        if self.num_players == 3 and all(h == START_HAND for h in hands):
            return 1 << LINE2 if hands[mover][LINE2] else 0
        kinds = held_kinds(hands[mover])
        if barred >= 0 and placer != mover:
            kinds &= ~(1 << barred)
        return kinds

    def _options(self, state) -> tuple[list[int], bool]:
        """(placements that the balls laid so far can still grow into, may the
        mover stop here with a line of two)."""
        fitting, may_stop = self._growth(state, state.position.occupied, state.placed)
        return placement_masks(fitting), may_stop

    def _growth(self, state, occupied, placed) -> tuple[int, bool]:
        """:func:`growth` for the mover of ``state`` (as a placement set)."""
        kinds = self._allowed(state.hands, state.to_move, state.barred, state.placer)
        return growth(occupied, placed, KINDSET_BITS[kinds])

    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        occupied, placed = state.position.occupied, state.placed
        fitting, may_stop = self._growth(state, occupied, placed)
        row = PLACE_MOVES[PLAYER_COLOURS[state.to_move]]
        moves = [row[p] for p in shapes_reach(fitting, playable_bits(occupied) & ~placed)]
        if may_stop or not moves:
            moves.append(PASS_MOVE)
        return moves

    def can_lay(self, hand: tuple[int, ...], occupied: int) -> bool:
        """Does some shape of a hand fit the pyramid (bar or no bar)?"""
        return bool(open_placements(occupied) & KINDSET_BITS[held_kinds(hand)])

    # -- playing ---------------------------------------------------------------
    def apply(self, state, move):
        ply = state.ply + 1
        if move.kind == "pass":
            if state.placed:                          # stop at a line of two
                return self._laid(state, state.position, LINE2, move, ply)
            return self._next(state, state.position, state.hands, state.barred,
                              state.placer, move, ply)
        position = state.position.place(move.point, move.colour)
        placed = state.placed | 1 << move.point
        if placed.bit_count() == 3:
            return self._laid(state, position, KIND_OF[placed], move, ply)
        if placed.bit_count() == 2:
            fitting, may_stop = self._growth(state, position.occupied, placed)
            if may_stop and not fitting:              # nothing of three goes on from here
                return self._laid(state, position, LINE2, move, ply)
        return SpetrisState(position, state.to_move, None, move, state.hands, placed,
                            state.barred, state.placer, ply)

    def _laid(self, state, position, kind, move, ply):
        """A shape is down: take it from the hand, bar it, pass the turn."""
        mover = state.to_move
        hand = list(state.hands[mover])
        hand[kind] -= 1
        hands = state.hands[:mover] + (tuple(hand),) + state.hands[mover + 1:]
        return self._next(state, position, hands, kind, mover, move, ply)

    def _next(self, state, position, hands, barred, placer, move, ply):
        to_move = (state.to_move + 1) % self.num_players
        if to_move == placer:                         # a full round: the bar is lifted
            barred, placer = -1, -1
        after = SpetrisState(position, to_move, None, move, hands, 0, barred, placer, ply)
        result = self.result(after)
        if result is None:
            return after
        return SpetrisState(position, to_move, result, move, hands, 0, barred, placer, ply)

    def random_playout(self, state, rng):
        """Same games as the generic loop, on raw masks and placement sets: the
        same :func:`growth` and :func:`shapes_reach` as ``legal_moves``, the
        same turn ends as ``apply``, no state built until the end."""
        if state.result is not None:
            return state
        rnd = rng.random
        n = self.num_players
        colours = [state.position.white, state.position.black, state.position.red]
        occupied, placed, mover = state.position.occupied, state.placed, state.to_move
        hands = [list(h) for h in state.hands]
        held = [held_kinds(h) for h in state.hands]
        barred, placer, ply, last = state.barred, state.placer, state.ply, state.last
        opening = n == 3 and all(h == START_HAND for h in state.hands)
        playable = playable_bits(occupied)
        unlaid = open_placements(occupied)          # the set at the start of a turn
        # grown: the placements of the turn's kinds holding every ball laid this turn,
        # i.e. growth()'s set before a line of two is taken out.  A placement never
        # rests on its own points, so the balls laid block no placement holding them:
        # the set at the turn's start, and-ed with CONTAINS of each ball laid.
        grown = open_placements(occupied, placed) if placed else 0
        zone = FULL                                 # the points the shape may grow onto
        for q in points_of(placed):
            zone &= _NEAR[q]
        first = bool(placed)                        # grown still lacks the kinds
        while True:
            if opening:
                kinds = 1 << LINE2 if hands[mover][LINE2] else 0
            else:
                kinds = held[mover]
                if barred >= 0 and placer != mover:
                    kinds &= ~(1 << barred)
            if placed:
                if first:
                    grown &= KINDSET_BITS[kinds]
                    first = False
                stop = LINE2_BIT.get(placed, 0) & grown
                fitting, may_stop = grown ^ stop, bool(stop)
            else:
                fitting = grown = unlaid & KINDSET_BITS[kinds]
                may_stop = False
            points = shapes_reach(fitting, playable & zone)
            count = len(points)
            i = int(rnd() * (count + 1 if may_stop or not count else count))
            ply += 1
            if i < count:                               # a ball of the shape
                p = points[i]
                bit = 1 << p
                occupied |= bit
                colours[mover] |= bit
                placed |= bit
                playable ^= bit
                grown &= CONTAINS[p]
                zone &= _NEAR[p]
                for above, support in _RAISED[p]:       # platforms the ball completes
                    if occupied & support == support:
                        playable |= above
                last = PLACE_MOVES[PLAYER_COLOURS[mover]][p]
                size = placed.bit_count()
                if size == 1:
                    continue
                if size == 2:                           # growth(): may it stop, and only stop?
                    stop = LINE2_BIT.get(placed, 0) & grown
                    if not stop or grown != stop:
                        continue
                    kind = LINE2
                else:
                    kind = KIND_OF[placed]
            else:
                last = PASS_MOVE
                kind = LINE2 if placed else -1          # stop at a line of two, or pass
            if kind >= 0:                               # the shape is down
                hand = hands[mover]
                hand[kind] -= 1
                if not hand[kind]:
                    held[mover] &= ~(1 << kind)
                barred, placer, opening = kind, mover, False
            placed, zone = 0, FULL
            mover = (mover + 1) % n
            if mover == placer:
                barred, placer = -1, -1
            unlaid = open_placements(occupied)
            if occupied == FULL or not any(unlaid & KINDSET_BITS[h] for h in held):
                break
        end = SpetrisState(Position.from_masks(*colours), mover, None, last,
                           tuple(map(tuple, hands)), 0, barred, placer, ply)
        return dataclasses.replace(end, result=self.result(end))

    def result(self, state) -> Outcome | None:
        """The outcome once no shape can be laid any more, else None."""
        occupied = state.position.occupied
        if occupied != FULL and any(self.can_lay(h, occupied) for h in state.hands):
            return None
        why = "the pyramid is complete" if occupied == FULL else "no shape fits any more"
        keys = [(sum(h), balls_left(h)) for h in state.hands]
        ranking = tuple(tuple(p for p in range(self.num_players) if keys[p] == key)
                        for key in sorted(set(keys)))
        scores = tuple(float(sum(START_HAND) - sum(h)) for h in state.hands)
        if len(ranking) == 1:
            return Outcome((), f"{why}; everybody holds the same", scores, ranking)
        best = ranking[0]
        names = " and ".join(self.player_name(p) for p in best)
        shapes, balls = keys[best[0]]
        return Outcome(best, f"{why}; {names} {'holds' if len(best) == 1 else 'hold'} "
                             f"the fewest ({shapes} shape{'s' * (shapes != 1)}, "
                             f"{balls} ball{'s' * (balls != 1)})", scores, ranking)

    def winning_points(self, state) -> int:
        return 0

    # -- symmetry and text -----------------------------------------------------
    def transform_state(self, state, perm):
        state = super().transform_state(state, perm)
        return dataclasses.replace(state, placed=transform_mask(state.placed, perm))

    def status_lines(self, state) -> list[str]:
        lines = [f"{self.player_name(p)} holds {hand_words(h)} "
                 f"({balls_left(h)} ball{'s' * (balls_left(h) != 1)})."
                 for p, h in enumerate(state.hands)]
        if state.result is not None:
            return lines
        me = self.player_name(state.to_move)
        if state.barred >= 0 and state.placer != state.to_move:
            lines.append(f"{self.player_name(state.placer)} just laid a "
                         f"{KIND_NAMES[state.barred]}: {me} may not lay one.")
        if state.placed:
            laid = " ".join(point_name(p) for p in points_of(state.placed))
            lines.append(f"{me} is laying a shape ({laid} so far).")
            if PASS_MOVE in self.legal_moves(state):
                lines.append(f"{me} may stop here with a line of two (pass) or add a third ball.")
        return lines

    def extra_text(self, state) -> str:
        fields = {f"hand{p + 1}": hand_text(h) for p, h in enumerate(state.hands)}
        if state.placed:
            fields["placed"] = ",".join(point_name(p) for p in points_of(state.placed))
        if state.barred >= 0:
            fields["bar"] = f"{KIND_LETTERS[state.barred]}{state.placer + 1}"
        return " ".join(f"{k}={v}" for k, v in fields.items()) + " " + write_fields(ply=state.ply)

    def _read_hand(self, text: str) -> tuple[int, ...]:
        if text == "-":
            return (0,) * len(KINDS)
        if any(ch not in KIND_LETTERS for ch in text):
            raise NotationError(f"Spetris hand {shown(text)}: letters {KIND_LETTERS} "
                                "(line of three, line of two, right angle, 120-degree "
                                "angle, triangle) or - for none")
        hand = tuple(text.count(ch) for ch in KIND_LETTERS)
        if any(n > m for n, m in zip(hand, START_HAND)):
            raise NotationError(f"Spetris hand {shown(text)} holds more than a player "
                                f"starts with ({hand_text(START_HAND)})")
        return hand

    def state_from(self, position, to_move, extras):
        from ..notation import parse_point
        own, rest = {}, []
        for token in extras.split():
            key, eq, value = token.partition("=")
            if eq and (key in ("placed", "bar") or key.startswith("hand")):
                if key in own:
                    raise NotationError(f"Spetris state field {shown(key)} given twice")
                own[key] = value
            else:
                rest.append(token)
        ply = read_fields(self, " ".join(rest), numbers=("ply",))["ply"]
        names = [f"hand{p + 1}" for p in range(self.num_players)]
        stray = set(own) - set(names) - {"placed", "bar"}
        if stray:
            raise NotationError(f"Spetris state field {shown(sorted(stray)[0])} not "
                                f"understood; fields: {' '.join(names)} placed bar ply")
        hands = tuple(self._read_hand(own.get(n, hand_text(START_HAND))) for n in names)
        placed = 0
        for name in filter(None, own.get("placed", "").split(",")):
            placed |= 1 << parse_point(name)
        barred, placer = -1, -1
        if "bar" in own:
            bar = own["bar"]
            if len(bar) != 2 or bar[0] not in KIND_LETTERS or not bar[1].isdigit() \
                    or not 1 <= int(bar[1]) <= self.num_players:
                raise NotationError(f"Spetris bar {shown(bar)}: a shape letter and the "
                                    "player who laid it, like D1")
            barred, placer = KIND_LETTERS.index(bar[0]), int(bar[1]) - 1
        self._check(position, to_move, hands, placed)
        state = SpetrisState(position, to_move, None, None, hands, placed, barred, placer, ply)
        return dataclasses.replace(state, result=None if placed else self.result(state))

    def _check(self, position, to_move, hands, placed) -> None:
        """Refuse states whose balls do not match the hands and the shape being laid."""
        if not position.is_stable():
            raise NotationError("Spetris: every ball must be carried")
        for p, hand in enumerate(hands):
            colour = PLAYER_COLOURS[p]
            due = balls_left(START_HAND) - balls_left(hand)
            laying = (placed & position.mask(colour)).bit_count() if p == to_move else 0
            if position.count(colour) != due + laying:
                raise NotationError(
                    f"Spetris: {self.player_name(p)} has laid {hand_text(START_HAND)} "
                    f"less {hand_text(hand)}, {due} balls, but the board has "
                    f"{position.count(colour)} {COLOUR_NAMES[colour]} balls"
                    + (" with the shape being laid" if laying else ""))
        for colour in PLAYER_COLOURS[self.num_players:]:
            if position.mask(colour):
                raise NotationError(f"Spetris for {self.num_players}: no "
                                    f"{COLOUR_NAMES[colour]} balls")
        if placed & ~position.mask(PLAYER_COLOURS[to_move]) or placed.bit_count() > 2:
            raise NotationError("Spetris: the shape being laid is one or two balls of "
                                "the player to move")
