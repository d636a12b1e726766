"""Splink: a shared pool of white and red balls; one role wants them to touch.

The players are not colours but roles, settled by an auction before play
(or, in the duel, by playing twice). The Attractor scores one point for each
contact between a white and a red ball seen on the finished pyramid; a full
pyramid shows sixty contacts, fifteen on each of its four sides.

>>> from shibumi import load
>>> match = load('splink').new_match()
>>> match.push('=20'), match.push('=25'), match.push('pass')
(Move('=20'), Move('=25'), Move('pass'))
>>> match.state.attractor, match.state.bid, match.current_player
(1, 25, 1)
>>> match.push('Wa1'), match.push('Rc1')
(Move('Wa1'), Move('Rc1'))
>>> contacts(match.state.position)
1
>>> len(FULL_CONTACTS), [len(side) for side in SIDES]
(60, [15, 15, 15, 15])
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from ..bits import (carried, lift_ball, nth_point, playable_of,
                    playable_points_cached as playable_points, points_in)
from ..errors import NotationError, UnknownGameError, is_number, shown
from ..game import Game, GameInfo, Outcome, State
from ..geometry import (ALL_MASK, CONTACTS, COORDS, LEVEL, NUM_POINTS, SIZES,
                        SUPPORTED_MASK)
from ..notation import CHOOSE, MOVE, PASS, PASS_MOVE, Move
from ..position import RED, WHITE, Position, hidden_mask
from ..registry import register
from .placement import PLACE_MOVES, uniform_index

#: Balls of each colour in the shared pool at the start.
BALLS = 16
#: The highest bid: the number of contacts a complete pyramid shows.
MAX_BID = 60
#: ``BIDS[v]`` is the action bidding v (``=v``), for v from 1 to MAX_BID.
BIDS = (None,) + tuple(Move.choose(value=v) for v in range(1, MAX_BID + 1))
OTHER = {WHITE: RED, RED: WHITE}
LETTER = {WHITE: "W", RED: "R"}
MODES = ("bid", "duel")
#: RELOCATE[s][t]: the interned action lifting the ball at s and setting it on t.
RELOCATE = tuple(tuple(Move.relocate(s, t) for t in range(NUM_POINTS)) for s in range(NUM_POINTS))


def contacts(position: Position) -> int:
    """The Attractor's score: white-red contacts seen from above.

    Both balls must be visible, and a contact crossed by an overpass (the
    two balls resting on it both present) is out of sight.

    >>> contacts(Position('..../..../..../WR..|.../.../...|../..|.'))
    1
    """
    occ = position.occupied
    hidden = hidden_mask(occ)
    white, red = position.white & ~hidden, position.red & ~hidden
    total = 0
    for a, b, over in CONTACTS:
        if (white >> a & 1 and red >> b & 1 or red >> a & 1 and white >> b & 1) \
                and not (over and occ & over == over):
            total += 1
    return total


def _full_contacts() -> tuple[tuple[int, int], ...]:
    hidden = hidden_mask(ALL_MASK)
    return tuple((a, b) for a, b, over in CONTACTS
                 if not (hidden >> a & 1 or hidden >> b & 1 or over))


#: The contacts a complete pyramid shows, as point pairs (the text's "60").
FULL_CONTACTS = _full_contacts()


def _sides() -> tuple[tuple[tuple[str, tuple[tuple[int, int], ...]], ...], ...]:
    """The four sides of the pyramid, each as (rows, right diagonals, left diagonals).

    A side is the triangle of ten balls (4 + 3 + 2 + 1) facing one edge of
    the board. Looking at it from outside, a row is a run on one level, a
    right diagonal climbs to the right and a left diagonal climbs to the
    left. The left diagonals leave out the side's right-hand ridge, which
    the next side (going round anticlockwise seen from above) counts among
    its right diagonals, so every contact is counted once.
    """
    # Each side: which balls belong to it, and the step along a level that
    # points to the right of a viewer facing the side from outside.
    faces = (("south", lambda lv, x, y: y == 0, (1, 0)),
             ("east", lambda lv, x, y: x == SIZES[lv] - 1, (0, 1)),
             ("north", lambda lv, x, y: y == SIZES[lv] - 1, (-1, 0)),
             ("west", lambda lv, x, y: x == 0, (0, -1)))
    found = []
    for name, on, (dx, dy) in faces:
        balls = [p for p in range(NUM_POINTS) if on(*COORDS[p])]

        def across(p, dx=dx, dy=dy):      # how far right, in top-view units
            lv, x, y = COORDS[p]
            return (2 * x + lv) * dx + (2 * y + lv) * dy

        ridge = {p for p in balls
                 if across(p) == max(across(q) for q in balls if LEVEL[q] == LEVEL[p])}
        rows, right, left = [], [], []
        for a, b in FULL_CONTACTS:
            if a not in balls or b not in balls:
                continue
            if LEVEL[a] == LEVEL[b]:
                rows.append((a, b))
                continue
            low, high = (a, b) if LEVEL[a] < LEVEL[b] else (b, a)
            if across(high) > across(low):
                right.append((a, b))
            elif not (a in ridge and b in ridge):
                left.append((a, b))
        found.append(((f"{name} rows", tuple(rows)), (f"{name} right", tuple(right)),
                      (f"{name} left", tuple(left))))
    return tuple(found)


SIDES_DETAIL = _sides()
#: The contacts counted on each side (south, east, north, west), 15 each.
SIDES = tuple(tuple(c for _, part in side for c in part) for side in SIDES_DETAIL)


def side_counts(position: Position) -> list[tuple[int, int, int]]:
    """The side-by-side count of a complete pyramid: for each side (south,
    east, north, west) the white-red contacts along its rows, its right
    diagonals and its left diagonals (ridge excepted). They add up to
    :func:`contacts`.
    """
    white, red = position.white, position.red

    def mixed(pairs):
        return sum(1 for a, b in pairs
                   if white >> a & 1 and red >> b & 1 or red >> a & 1 and white >> b & 1)

    return [tuple(mixed(part) for _, part in side) for side in SIDES_DETAIL]


@dataclass(frozen=True)
class SplinkState(State):
    """A Splink state.

    ``attractor`` is None while the roles are being bid for; ``bid`` is the
    highest bid so far (0 before the first) and, once play starts, the
    Attractor's target. ``pending`` is the colour of the ball still to be
    placed this turn (None between turns). In the duel, ``round`` is 1 or 2
    and ``first_score`` is the first Attractor's score once round 1 is over.
    ``ply`` counts the actions played.
    """
    ply: int = 0
    bid: int = 0
    attractor: int | None = None
    pending: int | None = None
    round: int = 1
    first_score: int | None = None


def lift(occupied: int, source: int) -> tuple[int, int]:
    """Occupancy after lifting the (movable) ball at ``source``, and the point it
    frees: the top of the column that drops, or ``source`` itself."""
    gap = source
    above = SUPPORTED_MASK[gap] & occupied
    while above:
        gap = above.bit_length() - 1      # a single ball rests on a movable ball's gap
        above = SUPPORTED_MASK[gap] & occupied
    return occupied & ~(1 << gap), gap


def relocation_targets(occupied: int, source: int, playable: int | None = None) -> int:
    """Where the ball lifted from ``source`` may go: any playable point but the
    one it came from (0 when the ball is pinned).  ``playable`` is
    ``playable_of(occupied)`` when the caller has it already."""
    above = SUPPORTED_MASK[source] & occupied
    if above & (above - 1):
        return 0                          # pinned: two or more balls rest on it
    gap = lift(occupied, source)[1] if above else source
    if playable is None:
        playable = playable_of(occupied)
    # Lifting empties only the top of the dropped column (its supports stay
    # full, so it becomes playable) and unsupports only the points on it.
    return (playable & ~SUPPORTED_MASK[gap] | 1 << gap) & ~(1 << source)


_MOVERS: dict[int, tuple[tuple[tuple[int, int], ...], int]] = {}


def mover_table(occupied: int) -> tuple[tuple[tuple[int, int], ...], int]:
    """(ball, targets mask) for every ball that can be lifted to another point,
    and the number of relocations they offer in all, memoised per occupancy
    (a stable pyramid has only 141,120 of them)."""
    found = _MOVERS.get(occupied)
    if found is None:
        _, pinned = carried(occupied)           # pinned balls have no targets: skip them
        playable = playable_of(occupied)
        pairs = tuple([(s, t) for s in points_in(occupied & ~pinned)
                       if (t := relocation_targets(occupied, s, playable))])
        found = _MOVERS[occupied] = (pairs, sum([t.bit_count() for _, t in pairs]))
    return found


def movers(occupied: int) -> tuple[tuple[int, int], ...]:
    """(ball, targets mask) for every ball that can be lifted to another point."""
    return mover_table(occupied)[0]


def lift_sources(white: int, red: int) -> int:
    """The balls a relocation may lift: those whose other colour is still in the pool."""
    w_left, r_left = BALLS - white.bit_count(), BALLS - red.bit_count()
    return (white if r_left else 0) | (red if w_left else 0)


def pair_allowed(white: int, red: int, occupied: int) -> bool:
    """Whether a turn may start with a first ball: both colours needed in the
    pool and room for two balls (so some point is playable)."""
    return white.bit_count() < BALLS and red.bit_count() < BALLS \
        and occupied.bit_count() <= NUM_POINTS - 2


def first_ball_points(white: int, red: int, occupied: int) -> tuple[int, ...]:
    """Where a turn's first ball may go (for either colour), if it may be played."""
    return playable_points(occupied) if pair_allowed(white, red, occupied) else ()


def turn_starts(position: Position) -> list[Move]:
    """The first actions of a turn: a first ball (both colours needed in the
    pool and room for two balls), or a relocation (a ball of the other colour
    needed in the pool)."""
    white, red, occ = position.white, position.red, position.occupied
    points = first_ball_points(white, red, occ)
    moves = [PLACE_MOVES[WHITE][p] for p in points] + [PLACE_MOVES[RED][p] for p in points]
    sources = lift_sources(white, red)
    for s, targets in movers(occ):
        if sources >> s & 1:
            row = RELOCATE[s]
            moves.extend(row[t] for t in points_in(targets))
    return moves


def has_turn(position: Position) -> bool:
    """Whether the player to move has any legal turn (quick answer first)."""
    return has_turn_of(position.white, position.red)


def has_turn_of(white: int, red: int) -> bool:
    """:func:`has_turn` on the two colour masks."""
    occ = white | red
    if pair_allowed(white, red, occ):
        return True
    sources = lift_sources(white, red)
    return any(sources >> s & 1 for s, _ in movers(occ))


@register
class Splink(Game):
    info = GameInfo(
        name="Splink", designer="Cameron Browne and Néstor Romeral Andrés", year="2011",
        family="Counting", source="Shibumi Rule Book (2012)",
        summary="Two roles share white and red balls: the Attractor scores every "
                "white-red contact seen on the finished pyramid, the Repulsor tries "
                "to keep the count below the Attractor's winning bid.",
        complexity=3, max_length=119)
    parameters = {"mode": "bid"}
    player_names = ("Player 1", "Player 2")

    rules = """\
Nobody owns a colour. The players share a pool of 16 white and 16 red
balls and play two roles: the Attractor wants white and red balls to touch,
the Repulsor wants to keep them apart.

**Choosing roles** (the default, `splink(mode="bid")`). The players hold an
auction for the Attractor's role. Player 1 opens by bidding a number from 1
to 60 (written `=17`): the white-red contacts the bidder promises to make as
Attractor. Then the players take turns either bidding a higher number, up
to 60, or passing (`pass`). The first player to pass becomes the Repulsor;
the other is the Attractor and must make at least the last bid.

**Play.** The board starts empty and the Attractor moves first. On a turn
the player does one of two things:

1. takes one white and one red ball from the pool and puts them on
   playable points, one after the other (the second may sit on a platform
   the first has just completed); or
2. lifts a ball that is not pinned (the balls resting on it drop down into
   the gap), puts it on another playable point (the top of the column that
   just dropped is allowed), and then takes a ball of the other colour from
   the pool and puts it on any playable point. This needs a ball of that
   other colour in the pool.

Each ball is one action: a turn is the first ball (`Wd6`, `Rd6`) or the lift
(`a1>b2`), then the second ball (`d6`). Every turn adds at least one ball.

**End.** When the pyramid is complete the Attractor scores a point for each
place where a white ball and a red ball touch in plain view: both balls
seen from above, and the contact not crossed by an overpass. A complete
pyramid shows sixty such contacts. The Attractor wins by reaching the bid;
otherwise the Repulsor wins. Should the player to move have no legal turn
(possible only with 28 or 29 balls in play and one colour's pool empty),
the game stops and the position is scored as it stands.

**Duel** (`splink(mode="duel")`). No auction: two games are played in a
row, Player 1 being the Attractor in the first and Player 2 in the second.
The higher Attractor score wins; equal scores are a draw.
"""
    notes = """\
* Source: the Shibumi Rule Book (v1.1, 2012), game by Cameron Browne and
  Néstor Romeral Andrés (2011), and its French translation. All the book's
  figures for this game are lost: the 33-point example game and the three
  pictures of the side-by-side count.
* The auction. The book only says that the players bid on the Attractor's
  score, that whoever passes becomes the Repulsor, and that the Attractor
  must reach that score; the French text adds that it is the *first* player
  to pass. We fill in the rest as an ordinary rising auction: Player 1 bids
  first and must bid (a pass before any bid would leave the Attractor with
  no score to reach); every later bid must be higher than the last one; the
  first pass ends the auction, the passer is the Repulsor and the last
  bidder the Attractor, whose target is their own last bid. "Achieve" is
  read as "reach or exceed". Bids are whole numbers from 1 to 60, the
  number of contacts the text says a pyramid offers (anything above 42 can
  never be made good, as shown below, but the text forbids no number, so
  such bids are allowed). The bid is part of the game: it is made of
  actions (`=n`, `pass`) that a human or the AI chooses.
* What a bid is worth. A complete pyramid scores at least 10 and at most
  42, over every colouring the pool allows (an exhaustive check in the
  tests). The 42 has a short proof: the sixty contacts form the 36 small
  triangles of the four sides, a triangle of three balls in two colours has
  at most two mixed contacts, and only the 12 contacts along the board's
  edge belong to a single triangle, so twice the score is at most
  2 x 36 + 12. A chequered pyramid (every level a chequerboard) makes 42.
  The 10 needs the apex and the four balls of level 2 all of one colour,
  which no game can finish with: the completing turn either puts its two
  balls on the last point of level 2 and on the apex, or (from 29 balls)
  lifts a corner ball, lands it on the point of level 2 that its column
  left empty and puts a ball of the other colour on the apex. So a
  finished pyramid scores 11 to 42, and both ends are reached in games
  built in the tests; the dead ends below score 22 to 40. A bid of 11 or
  less cannot lose, and one above 42 cannot win.
* The duel. Player 1 is the first Attractor (the book does not say who);
  the second game starts on an empty board as soon as the first ends; the
  book names no result for equal scores, so they are a draw. The outcome's
  scores are the two Attractor scores.
* The two balls of the first kind of turn go down one after the other, and
  the second may use a platform the first has completed (as in Spodd and
  Spaiji). Read the other way, with 28 balls in play (one point of level 2
  and the apex empty) the first kind of turn would be impossible.
* The second kind of turn follows the system's rules for removal: a pinned
  ball (two or more balls resting on it) cannot be lifted, and the ball
  resting on a lifted ball drops into its place, the balls above following.
  The lifted ball must go to a different point ("elsewhere"), and may go on
  top of the column that dropped, as the text says in so many words (so the
  system's optional ban on landing on dropped balls does not apply). When
  the whole column has the lifted ball's colour this rebuilds the same
  position; we allow it, as the ball did move, and the turn still adds a
  ball of the other colour. The order is the text's: the relocation first,
  then the new ball.
* The pool. Thirty points and 32 balls: the first kind of turn needs a
  ball of each colour in the pool, the second a ball of the colour *not*
  lifted (the book's footnote). Only one colour can ever run out.
* A player with no legal turn. The book does not cover it, and it can
  happen. While both colours are in the pool and two points are free, the
  first kind of turn is always there; otherwise one colour has all 16
  balls in play and only balls of that colour may be lifted, so the player
  is stuck exactly when none of them can go anywhere else (being pinned,
  or having no other free point to go to). Whether a ball can go elsewhere
  depends only on which points are filled, and a search of every stable
  set of filled points (141,120 of them, in the tests) finds only two
  kinds of dead end: 29 balls with the eight corner balls (four on the
  board, four on level 1) all of the colour still in the pool, and 28 balls
  with the apex and one point of level 2 empty, where exactly 16 balls are
  unable to move and all of them share the used-up colour. Passing would
  not help, since the other player would face the same position (a turn's
  options do not depend on the role), so the game stops there and the
  position is scored as it stands. Random games end this way a few times
  in ten thousand.
* Cycles. The book says cycles are possible and leaves it to the players to
  break them, since every move changes the score. Neither holds. Every turn
  takes at least one ball from the pool (two in the first kind of turn; in the
  second the relocation keeps the count and the new ball adds one), so the
  number of balls in play rises every turn and no position can come back. A
  game lasts at most 29 turns (the first turn must place two balls, as there
  is nothing to lift), so 58 actions, plus at most 61 for the auction (60
  rising bids and a pass): the longest game is 119 actions, and the tests play
  a game that long. The duel lasts at most 116. Nor does every turn change the
  score: a white ball on a1 and a red one on g7 leave it at 0, and about one
  turn in five of a random game changes nothing. The remark was perhaps
  written for an earlier draft in which the second kind of turn added no ball.
* "60 possible connections": a complete pyramid shows exactly 60 contacts,
  checked by computation. The five interior balls are hidden and the only
  flat contacts left in view are along the edges of the levels, so the
  contacts seen are exactly those of the four triangular sides: 18 on each
  side, less the 3 of each of the four ridges shared by two sides,
  4 x 18 - 4 x 3 = 60. The book's side-by-side count (rows, then the
  diagonals climbing one way, then those climbing the other way except
  the ridge) takes 15 contacts on each side; the tests check that the four
  subtotals always add up to the score.
* Scoring is the system's visibility rule: a contact counts when both balls
  are seen from above and no overpass crosses it. On a complete pyramid no
  overpass matters (every flat contact still in view lies on the edge of
  its level); it does in a game that stops early.
* The book's example game scoring 33 is lost; the tests and the chapter
  rebuild a complete game that scores 33.
* In the auction mode the outcome's scores are the Attractor's contacts and,
  for the Repulsor, the bid the Attractor had to reach.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        if self.params["mode"] not in MODES:
            raise UnknownGameError(f"Splink mode must be one of {', '.join(MODES)}, "
                                   f"not {shown(self.params['mode'])}")
        self.duel = self.params["mode"] == "duel"

    def initial_state(self, rng: random.Random | None = None) -> SplinkState:
        if self.duel:
            return SplinkState(attractor=0)
        return SplinkState()

    def length(self, state) -> int:
        return state.ply

    # -- moves -------------------------------------------------------------
    def legal_moves(self, state, player=None) -> list[Move]:
        if state.result is not None:
            return []
        if state.attractor is None:
            moves = list(BIDS[state.bid + 1:])
            if state.bid:
                moves.append(PASS_MOVE)
            return moves
        if state.pending is not None:
            row = PLACE_MOVES[state.pending]
            return [row[p] for p in playable_points(state.position.occupied)]
        return turn_starts(state.position)

    def apply(self, state, move: Move):
        ply = state.ply + 1
        if move.kind == CHOOSE:
            return dataclasses.replace(state, to_move=1 - state.to_move, bid=move.value,
                                       ply=ply, last=move)
        if move.kind == PASS:
            attractor = 1 - state.to_move
            return dataclasses.replace(state, to_move=attractor, attractor=attractor,
                                       ply=ply, last=move)
        position = state.position
        if move.kind == MOVE:
            colour = position.colour_at(move.point)
            lifted, _ = position.remove(move.point)
            return dataclasses.replace(state, position=lifted.place(move.target, colour),
                                       pending=OTHER[colour], ply=ply, last=move)
        position = position.place(move.point, move.colour)
        if state.pending is None:
            return dataclasses.replace(state, position=position, pending=OTHER[move.colour],
                                       ply=ply, last=move)
        after = dataclasses.replace(state, position=position, pending=None,
                                    to_move=1 - state.to_move, ply=ply, last=move)
        return self._between_turns(after)

    def _between_turns(self, state):
        """End the game (or the duel's first round) if the pyramid is complete
        or the player to move has no legal turn."""
        position = state.position
        full = position.occupied == ALL_MASK
        if not full and has_turn(position):
            return state
        score = contacts(position)
        why = "the pyramid is complete" if full else \
            f"{self.player_name(state.to_move)} has no legal turn"
        if self.duel and state.round == 1:
            return dataclasses.replace(state, position=Position.empty(), to_move=1,
                                       attractor=1, round=2, first_score=score)
        return dataclasses.replace(state, result=self._outcome(state, score, why))

    def _outcome(self, state, score: int, why: str) -> Outcome:
        if self.duel:
            scores = (state.first_score, score)
            text = (f"{why}; as Attractor {self.player_name(0)} made {scores[0]} "
                    f"contacts and {self.player_name(1)} {scores[1]}")
            if scores[0] == scores[1]:
                return Outcome((), text, (float(scores[0]), float(scores[1])), ((0, 1),))
            winner = 0 if scores[0] > scores[1] else 1
            return Outcome((winner,), text, (float(scores[0]), float(scores[1])),
                           ((winner,), (1 - winner,)))
        attractor, target = state.attractor, state.bid
        winner = attractor if score >= target else 1 - attractor
        text = (f"{why}; {self.player_name(attractor)}, the Attractor, made {score} "
                f"contacts against a bid of {target}")
        scores = [0.0, 0.0]
        scores[attractor], scores[1 - attractor] = float(score), float(target)
        return Outcome((winner,), text, tuple(scores), ((winner,), (1 - winner,)))

    # -- fast random games ----------------------------------------------------
    def random_playout(self, state, rng: random.Random):
        """Uniformly random games on raw masks: the same draw as the generic
        loop (each action uniform among the legal ones)."""
        pick = uniform_index(rng)
        while state.result is None:
            if state.attractor is None:
                state = self._random_auction(state, pick)
            elif state.pending is not None:     # the second ball of a turn begun
                moves = self.legal_moves(state)
                state = self.apply(state, moves[pick(len(moves))])
            else:
                state = self._random_turns(state, pick)
        return state

    @staticmethod
    def _random_auction(state, pick):
        """The rest of the auction drawn on plain numbers, over legal_moves'
        options in their order: every higher bid, then the pass once a bid
        has been made; the first pass ends it (as in apply)."""
        bid, to_move, ply = state.bid, state.to_move, state.ply
        while True:
            higher = MAX_BID - bid
            k = pick(higher + (bid > 0))
            ply += 1
            if k == higher:
                attractor = 1 - to_move
                return dataclasses.replace(state, to_move=attractor, attractor=attractor,
                                           bid=bid, ply=ply, last=PASS_MOVE)
            bid, to_move = bid + k + 1, 1 - to_move

    def _random_turns(self, state, pick):
        """Whole turns (two actions each) drawn uniformly, action by action, on
        raw masks, up to the end of the game or of the duel's first round."""
        position, to_move, ply = state.position, state.to_move, state.ply
        white, red = position.white, position.red
        while True:
            occ = white | red
            places = first_ball_points(white, red, occ)
            sources = lift_sources(white, red)
            options, total = mover_table(occ)
            if sources != occ:                  # one colour's pool is empty
                options = [(s, t) for s, t in options if sources >> s & 1]
                total = sum(t.bit_count() for _, t in options)
            k = pick(2 * len(places) + total)   # first balls, white then red, then lifts
            if k < 2 * len(places):
                colour = WHITE if k < len(places) else RED
                point = places[k % len(places)]
                if colour == WHITE:
                    white |= 1 << point
                else:
                    red |= 1 << point
            else:
                k -= 2 * len(places)
                for s, targets in options:
                    n = targets.bit_count()
                    if k < n:
                        break
                    k -= n
                t = nth_point(targets, k)
                # The column above s drops one step; the lifted ball lands on t.
                if white >> s & 1:
                    colour = WHITE
                    white, red, _ = lift_ball(s, white, red, occ)
                    white |= 1 << t
                else:
                    colour = RED
                    red, white, _ = lift_ball(s, red, white, occ)
                    red |= 1 << t
            pending = OTHER[colour]
            spots = playable_points(white | red)
            point = spots[pick(len(spots))]
            if pending == WHITE:
                white |= 1 << point
            else:
                red |= 1 << point
            to_move, ply = 1 - to_move, ply + 2
            if white | red == ALL_MASK or not has_turn_of(white, red):
                after = SplinkState(Position.from_masks(white=white, red=red), to_move, None,
                                    PLACE_MOVES[pending][point], ply, state.bid,
                                    state.attractor, None, state.round, state.first_score)
                return self._between_turns(after)

    # -- text ----------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """The auction or the roles and target, the contacts so far, the next ball."""
        name, pos = self.player_name, state.position
        if state.attractor is None:
            if not state.bid:
                return [f"Auction for the Attractor's role: {name(state.to_move)} opens "
                        f"with a bid from 1 to {MAX_BID}."]
            return [f"Auction for the Attractor's role: {name(1 - state.to_move)} bid "
                    f"{state.bid}; {name(state.to_move)} may bid higher, or pass and "
                    "become the Repulsor."]
        a = state.attractor
        if self.duel:
            lines = [f"Game {state.round} of 2: {name(a)} is the Attractor."]
            if state.first_score is not None:
                lines.append(f"{name(0)} made {state.first_score} contacts as Attractor "
                             "in game 1.")
        else:
            lines = [f"{name(a)} is the Attractor and must make at least {state.bid} "
                     f"white-red contacts; {name(1 - a)} is the Repulsor."]
        lines.append(f"White-red contacts in view: {contacts(pos)}.")
        lines.append(f"Pool: {BALLS - pos.count(WHITE)} white and "
                     f"{BALLS - pos.count(RED)} red balls left.")
        if state.result is None and state.pending is not None:
            colour = "white" if state.pending == WHITE else "red"
            lines.append(f"The next ball to place is {colour}.")
        return lines

    def extra_text(self, state) -> str:
        parts = []
        if self.duel:
            parts.append(f"round={state.round}")
            if state.first_score is not None:
                parts.append(f"first={state.first_score}")
        elif state.attractor is None:
            if state.bid:
                parts.append(f"bid={state.bid}")
        else:
            parts += [f"attractor={state.attractor + 1}", f"target={state.bid}"]
        if state.pending is not None:
            parts.append(f"next={LETTER[state.pending]}")
        parts.append(f"ply={state.ply}")
        return " ".join(parts)

    def state_from(self, position, to_move, extras):
        keys = ("round", "first") if self.duel else ("bid", "attractor", "target")
        fields: dict[str, str] = {}
        for token in extras.split():
            key, eq, value = token.partition("=")
            if not eq or key not in keys + ("next", "ply") or key in fields:
                raise NotationError(
                    f"Splink state field {shown(token)} not understood; fields: "
                    + " ".join(f"{k}=<number>" for k in keys if k != "attractor")
                    + (" attractor=1|2" if "attractor" in keys else "")
                    + " next=W|R ply=<number>")
            fields[key] = value
        numbers = {}
        for key, value in fields.items():
            if key == "next":
                continue
            if not is_number(value) or len(value) > 6:
                raise NotationError(f"Splink state field {key}= takes a number, "
                                    f"not {shown(value)}")
            numbers[key] = int(value)
        pending = None
        if "next" in fields:
            if fields["next"] not in ("W", "R"):
                raise NotationError(f"Splink state: next= is W or R (the colour still to "
                                    f"place this turn), not {shown(fields['next'])}")
            pending = WHITE if fields["next"] == "W" else RED
        self._check_position(position, pending)
        if self.duel:
            state = self._duel_state(position, to_move, numbers, pending)
        elif "attractor" in numbers or "target" in numbers:
            state = self._play_state(position, to_move, numbers, pending)
        else:
            state = self._bidding_state(position, to_move, numbers, pending)
        if "ply" in numbers:
            if numbers["ply"] < state.ply:
                raise NotationError(f"Splink state: ply={numbers['ply']} is fewer actions "
                                    f"than this state needs ({state.ply})")
            state = dataclasses.replace(state, ply=numbers["ply"])
        if state.attractor is None:
            return state
        if state.pending is None and not position.occupied and to_move != state.attractor:
            raise NotationError("Splink: the Attractor makes the first move")
        return self._between_turns(state) if state.pending is None else state

    def _check_position(self, position, pending) -> None:
        if position.black:
            raise NotationError("Splink uses white and red balls only")
        for colour, name in ((WHITE, "white"), (RED, "red")):
            if position.mask(colour).bit_count() > BALLS:
                raise NotationError(f"Splink: the pool has only {BALLS} {name} balls")
        n = position.occupied.bit_count()
        if pending is not None:
            if n == 0 or n == NUM_POINTS:
                raise NotationError("Splink state: next= (a turn half done) needs a ball "
                                    "in play and room for the second ball")
            if position.mask(pending).bit_count() >= BALLS:
                raise NotationError("Splink state: next= names a colour the pool has run "
                                    "out of")

    def _bidding_state(self, position, to_move, numbers, pending):
        """While bidding: k rising bids (k = ply) from 1 reach bid >= k, and
        Player 1 made the odd-numbered ones, so Player (k % 2) + 1 bids next."""
        bid = numbers.get("bid", 0)
        if position.occupied or pending is not None:
            raise NotationError("Splink: while the roles are bid for, the board is empty "
                                "(give attractor= and target= for a game in play)")
        if bid > MAX_BID:
            raise NotationError(f"Splink: bids go up to {MAX_BID}, not {bid}")
        bids = numbers.get("ply", 0 if not bid else 2 - to_move)
        if bids % 2 != to_move or bids > bid or bid and not bids:
            raise NotationError(f"Splink: {bids} rising bids cannot end at {bid} with "
                                f"{self.player_name(to_move)} to bid next")
        return SplinkState(position, to_move, ply=bids, bid=bid)

    def _play_state(self, position, to_move, numbers, pending):
        if "attractor" not in numbers or "target" not in numbers:
            raise NotationError("Splink: a game in play needs both attractor=1|2 and "
                                "target=<the winning bid>")
        attractor, target = numbers["attractor"], numbers["target"]
        if attractor not in (1, 2):
            raise NotationError(f"Splink: attractor= is 1 or 2, not {attractor}")
        if not 1 <= target <= MAX_BID:
            raise NotationError(f"Splink: the target is a bid from 1 to {MAX_BID}, "
                                f"not {target}")
        # At least one bid and a pass, then one action per ball in play.
        return SplinkState(position, to_move, ply=2 + position.occupied.bit_count(),
                           bid=target, attractor=attractor - 1, pending=pending)

    def _duel_state(self, position, to_move, numbers, pending):
        rnd = numbers.get("round", 1)
        if rnd not in (1, 2):
            raise NotationError(f"Splink duel: round= is 1 or 2, not {rnd}")
        first = numbers.get("first")
        if (first is None) != (rnd == 1):
            raise NotationError("Splink duel: first=<score> gives the first round's "
                                "score, in round 2 only")
        if first is not None and first > MAX_BID:
            raise NotationError(f"Splink duel: a score is at most {MAX_BID}, not {first}")
        return SplinkState(position, to_move, ply=position.occupied.bit_count(),
                           attractor=rnd - 1, pending=pending, round=rnd, first_score=first)


__all__ = ["BALLS", "FULL_CONTACTS", "MAX_BID", "SIDES", "Splink", "SplinkState",
           "contacts", "has_turn", "lift", "movers", "relocation_targets", "side_counts",
           "turn_starts"]
