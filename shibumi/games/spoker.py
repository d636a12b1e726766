"""Spoker: poker hands built on the pyramid with balls drawn from a bag, in challenges.

Thirty balls (ten of each colour) go into a bag. On a turn a player draws
one (a chance action, ``=W`` draws a white ball, made by the match's seeded
generator) and places it on any playable point. A placement that makes a
*combination* through the ball just placed — a straight, three of a kind, a
full house, four of a kind or a straight flush — challenges the opponent,
whose next ball must make a better one. The winner of a challenge scores a
point; a straight flush wins the game at once.

>>> from shibumi import load
>>> game = load('spoker')
>>> s = game.parse_state('..../..../..../WW..|.../.../...|../..|. 1 drawn=W')
>>> s = game.apply(s, Move('We1'))
>>> s.challenge, game.status_lines(s)[1]
((2, 0), "Player 2 must beat Player 1's three of a kind (height 0) with the next ball.")
>>> s = game.apply(game.apply(s, Move('=B')), Move('Bg1'))
>>> s.scores, s.challenge
((1, 0), None)
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from ..bits import points_in, raised
from ..errors import NotationError, shown
from ..game import CHANCE, TERMINAL, Game, GameInfo, Outcome, State
from ..geometry import (BOARD_MASK, CONTACTS, FLAT_NEIGHBOURS, LEVEL, NUM_POINTS, SUPPORT_MASK,
                        SUPPORTED_MASK, points_of, segments, sloped_runs)
from ..notation import CHOOSE, Move
from ..position import (BLACK, COLOUR_LETTERS, COLOUR_NAMES, EMPTY, RED, WHITE, Position,
                        hidden_mask, playable_mask)
from ..registry import register
from .placement import PLACE_MOVES, playable_points

COLOURS = (WHITE, BLACK, RED)
#: Balls of each colour in the bag at the start: exactly the thirty points.
PER_COLOUR = 10
#: The chance actions: drawing a ball of each colour.
DRAWS = {c: Move.choose(c) for c in COLOURS}

#: Ranks of the combinations, weakest first.
STRAIGHT, THREE, FULL, FOUR, FLUSH = 1, 2, 3, 4, 5
RANK_NAMES = {STRAIGHT: "straight", THREE: "three of a kind", FULL: "full house",
              FOUR: "four of a kind", FLUSH: "straight flush"}
#: One-word names of the ranks a challenge can hold, for the state text.
RANK_KEYS = {STRAIGHT: "straight", THREE: "three", FULL: "full", FOUR: "four"}

_OVERPASS = {(a, b): over for a, b, over in CONTACTS}


def _straight_runs(length: int) -> tuple[tuple[int, ...], ...]:
    """Runs of touching balls on a straight line in space: rows and columns of one
    level (balls diagonal on a level do not touch), and runs climbing a face or
    ridge of the pyramid a level at a time."""
    flat = tuple(run for run in segments(length)
                 if all(b in FLAT_NEIGHBOURS[a] for a, b in zip(run, run[1:])))
    return flat + sloped_runs(length)


def _line_table(length: int):
    """For each point, the lines of ``length`` through it as (mask, height, overpasses):
    height is the level of the highest ball; overpasses are the pairs of points
    whose balls, both present, pass over a contact of the line and cut it."""
    lines = []
    for run in _straight_runs(length):
        overs = tuple(o for o in (_OVERPASS[min(a, b), max(a, b)]
                                  for a, b in zip(run, run[1:])) if o)
        lines.append((sum(1 << p for p in run), max(LEVEL[p] for p in run), overs))
    return tuple(tuple(line for line in lines if line[0] >> p & 1) for p in range(NUM_POINTS))


#: LINES3[p], LINES4[p]: the straight lines of three and of four through each point.
LINES3 = _line_table(3)
LINES4 = _line_table(4)
#: The heights each rank can have (for checking a challenge read from text).
_HEIGHTS3 = {h for lines in LINES3 for _, h, _ in lines}
HEIGHTS = {STRAIGHT: _HEIGHTS3, THREE: _HEIGHTS3, FULL: {1, 2, 3},
           FOUR: {h for lines in LINES4 for _, h, _ in lines}}


_HIGH_MASK = sum(1 << p for p in range(NUM_POINTS) if LEVEL[p] >= 2)


def combinations_at(position: Position, point: int) -> list[tuple[int, int, int]]:
    """Every combination the ball at ``point`` is part of, seen from above, as
    ``(rank, height, mask)``.

    Lines need all their balls in view and no contact along them crossed by two
    touching balls on the level above; a pyramid is ``point`` on top of its four
    supports, all in view.

    >>> from shibumi.notation import parse_point
    >>> pos = Position('..../..../..../WBR.|.../.../...|../..|.')
    >>> combinations_at(pos, parse_point('c1'))
    [(1, 0, 7)]
    >>> combinations_at(pos, parse_point('g1'))
    []
    """
    return combinations_of(position.white, position.black, position.red, point)


def _cut(occupied: int, overs: tuple[int, ...]) -> bool:
    """Whether a pair of balls passes over a contact of a line (both balls present)."""
    for o in overs:
        if occupied & o == o:
            return True
    return False


def combinations_of(white: int, black: int, red: int, point: int) -> list[tuple[int, int, int]]:
    """:func:`combinations_at` on colour masks (the rules' core, used by every path)."""
    occupied = white | black | red
    if not occupied >> point & 1:
        return []
    # Only a ball on level 2 or the apex can hide one.
    hidden = hidden_mask(occupied) if occupied & _HIGH_MASK else 0
    if hidden >> point & 1:
        return []
    found = []
    for mask, height, overs in LINES3[point]:
        if occupied & mask != mask or hidden & mask or overs and _cut(occupied, overs):
            continue
        if white & mask == mask or black & mask == mask or red & mask == mask:
            found.append((THREE, height, mask))
        elif white & mask and black & mask and red & mask:
            found.append((STRAIGHT, height, mask))
    for mask, height, overs in LINES4[point]:
        if (white & mask == mask or black & mask == mask or red & mask == mask) \
                and not hidden & mask and not (overs and _cut(occupied, overs)):
            found.append((FOUR, height, mask))
    base = SUPPORT_MASK[point]
    if base and not hidden & base:
        pyramid = base | 1 << point
        if white >> point & 1:
            mine, others = white, (black, red)
        elif black >> point & 1:
            mine, others = black, (white, red)
        else:
            mine, others = red, (white, black)
        same = (mine & base).bit_count()
        if same == 4:
            found.append((FLUSH, LEVEL[point], pyramid))
        elif same == 2 and ((others[0] & base).bit_count() == 2
                            or (others[1] & base).bit_count() == 2):
            found.append((FULL, LEVEL[point], pyramid))
    return found


def strongest(white: int, black: int, red: int, point: int) -> tuple[int, int] | None:
    """(rank, height) of the strongest combination through ``point``, or None: what
    :func:`best_combination` ranks, on colour masks."""
    found = combinations_of(white, black, red, point)
    return max(found)[:2] if found else None


def best_combination(position: Position, point: int) -> tuple[int, int, int] | None:
    """The strongest combination through ``point`` (rank, then height), or None.

    >>> from shibumi.notation import parse_point
    >>> best_combination(Position('..../..../..../WWWW|.../.../...|../..|.'), parse_point('c1'))
    (4, 0, 15)
    """
    found = combinations_at(position, point)
    return max(found, key=lambda c: c[:2]) if found else None


def combination_name(rank: int, height: int) -> str:
    """A combination in words: ``three of a kind (height 1)``."""
    return f"{RANK_NAMES[rank]} (height {height})"


def flush_tops(position: Position) -> list[int]:
    """The tops of the pyramids of five balls of one colour in a position (seen or not)."""
    masks = (0, position.white, position.black, position.red)
    return [q for q in points_of(position.occupied & ~BOARD_MASK)
            if masks[position.colour_at(q)] & SUPPORT_MASK[q] == SUPPORT_MASK[q]]


def draw_colour(white: int, black: int, red: int, x: float) -> int:
    """The colour drawn by one ``rng.random()`` value ``x`` from a bag holding
    ``white``, ``black`` and ``red`` balls, as :meth:`Game.sample_chance` picks
    among :meth:`Spoker.chance_outcomes` (the same sums, in the same order)."""
    total = white + black + red
    acc, colour = 0.0, EMPTY
    if white:
        acc += white / total
        if x < acc:
            return WHITE
        colour = WHITE
    if black:
        acc += black / total
        if x < acc:
            return BLACK
        colour = BLACK
    if red:
        acc += red / total
        if x < acc:
            return RED
        colour = RED
    return colour                         # rounding left x above the sum: the last one


def bag_left(position: Position, drawn: int = EMPTY) -> tuple[int, int, int]:
    """Balls of each colour (white, black, red) still in the bag."""
    return tuple(PER_COLOUR - position.count(c) - (drawn == c) for c in COLOURS)


@dataclass(frozen=True)
class SpokerState(State):
    drawn: int = EMPTY
    """The colour of the ball the player to move holds (EMPTY: a draw is due)."""
    scores: tuple[int, int] = (0, 0)
    """Challenges won by each player (a drawn challenge gives both a point)."""
    challenge: tuple[int, int] | None = None
    """(rank, height) the player to move must beat, set by the other player's last ball."""


@register
class Spoker(Game):
    info = GameInfo(
        name="Spoker", designer="Giacomo Galimberti", year="2012",
        family="Pattern", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Draw a ball from a bag and place it; make a poker hand through it "
                "(straight, three of a kind, full house, four of a kind) to challenge "
                "your opponent to beat it with the next ball; a one-colour pyramid wins.",
        min_players=2, max_players=2, complexity=2, chance=True, max_length=NUM_POINTS)
    player_names = ("Player 1", "Player 2")

    rules = """\
Spoker brings poker hands to the Shibumi set. Nobody owns a colour. Thirty
balls, ten white, ten black and ten red, go into a bag; the board starts
empty. Player 1 begins.

**A turn.** Draw one ball from the bag without looking, show it, and put it
on any playable point: an empty hole of the board, or a point above a
finished square of four balls.

**Combinations.** Like a poker hand, a combination is a small pattern of
balls. It only counts if the ball you have just placed is one of its balls
and if all its balls can be seen from above. From weakest to strongest:

1. *Straight*: three touching balls in a straight line, one of each colour,
   in any order.
2. *Three of a kind*: three touching balls of one colour in a straight line.
3. *Full house*: a ball on top of a square of four, the four being two
   balls of one colour and two of another, and the top ball having one of
   those two colours.
4. *Four of a kind*: four touching balls of one colour in a straight line.
5. *Straight flush*: a ball on top of a square of four, all five balls of
   one colour.

A straight line runs either flat, along a row or a column of one level
(balls on a diagonal of a level do not touch), or upwards, each ball resting
on the one before, along a face or an edge of the pyramid. Where two
touching balls pass over the contact between two balls of a flat line, the
line is cut and does not count.

The *height* of a combination is the level of its highest ball: 0 for the
board, 1, 2, and 3 for the apex. Between two combinations, the higher rank
is stronger; at equal rank, the greater height; equal rank and height are
equal. If your ball makes several combinations at once, only the strongest
one counts.

**Challenges.** When your ball makes a combination (and you were not
answering a challenge), you challenge your opponent. They draw and place
their ball as usual, and the challenge is settled at once:

* their ball makes a stronger combination: they score 1 point;
* it makes an equal one: you both score 1 point;
* it makes a weaker one or none at all: you score 1 point.

The answering ball never starts a new challenge. If the very last ball of
the pyramid makes a combination, there is no ball left to answer it and the
player who placed it scores the point.

**The end.** Whoever makes a straight flush wins at once, even when
answering a challenge. Otherwise the game ends when the pyramid is
complete (the bag is then empty): the higher score wins; equal scores are
a draw.

In the engine each draw is a chance action (`=W`, `=B`, `=R`) that the
match makes for you; your move names the point (`c3`).
"""
    notes = """\
Source: Annexe 1 of the French edition of the Shibumi Rule Book, game by
Giacomo Galimberti (2012). The card of the game at BoardGameGeek (copied at
boardgames.com) adds the designer's clarifications used below.

* Which groups score. The French text only says a player "forms" a
  combination. The designer's clarifications say the balls must be visible
  and must include the ball just placed; we follow them. A ball buried two
  levels down cannot be part of a combination, so a placement can also
  break a combination that was there.
* "Connected, flat or one above the other." We read a line as three (or
  four) touching balls on a straight line in space: a row or a column of a
  level, or a run climbing one level at each step along a face or an edge
  (ridge) of the pyramid. Balls on a diagonal of one level do not touch, and
  a chain that goes up and down again is not straight, so neither counts.
  This matches the clarification that a straight is three touching balls of
  three colours "flat or climbing". There are 42 lines of three and 12 of
  four.
* Seen from above. We also apply the rule book's general rule that
  overpasses cut underpasses: a flat line whose contact is crossed by two
  touching balls on the level above is not connected as seen from above.
  Lines that climb and pyramids have no such contacts.
* Full house. "Two pairs of balls of the same colour" is read as in poker:
  two pairs of two different colours (four of one colour under the top is
  not a full house; with the top of the same colour it is a straight flush).
  The top must have the colour of one of the pairs. Where the pairs lie in
  the square does not matter.
* The top combination. The French text calls it "Poker"; the designer's
  English name is "straight flush", which we use.
* Height. The text breaks a tie in rank by which combination is "higher",
  without saying how to measure it. We take the level of the highest ball of
  each combination (0 for the board to 3 for the apex); equal levels are a
  tie, which gives both players a point, as the text says.
* Answering. The designer's clarification settles that a challenged player
  whose ball makes no combination loses the challenge. We let the answering
  ball settle the challenge only: even if it makes a combination, it does
  not open a new challenge. Otherwise every reply would open a challenge and
  the text's "the one who wins the challenge scores 1 point" would stop
  being the whole of the scoring.
* The last ball. Ten balls of each colour fill the thirty points exactly, so
  the bag empties as the pyramid is completed, always by Player 2 and always
  on the apex. A combination made by that ball cannot be answered: like a
  challenged player who makes nothing, the missing answer loses, and the
  player who placed the ball scores. The text does not say this.
* Ties. Equal scores at the end are a draw (the text names no tie-break).
* Chance and information. Draws come from the real bag: a colour's chance
  is its share of the balls left. The drawn ball is shown before it is
  placed and the bag can be counted, so nothing is hidden.
* The text's page of figures showing the five combinations is lost; the
  chapter rebuilds one example of each as real positions.
* Length: exactly thirty placements unless a straight flush ends the game
  earlier (the draws are chance actions and are not counted).
"""

    # -- rules ---------------------------------------------------------------------
    def initial_state(self, rng=None) -> SpokerState:
        return SpokerState()

    def current_player(self, state) -> int:
        if state.result is not None:
            return TERMINAL
        return CHANCE if state.drawn == EMPTY else state.to_move

    def chance_outcomes(self, state):
        if self.current_player(state) != CHANCE:
            return []
        left = bag_left(state.position)
        total = sum(left)
        return [(DRAWS[c], n / total) for c, n in zip(COLOURS, left) if n]

    def legal_moves(self, state, player=None):
        if self.current_player(state) < 0:
            return []
        row = PLACE_MOVES[state.drawn]
        return [row[p] for p in playable_points(state.position.occupied)]

    def apply(self, state, move):
        if move.kind == CHOOSE:
            return SpokerState(state.position, state.to_move, state.result, move, move.colour,
                               state.scores, state.challenge)
        position, point = state.position, move.point
        masks = [0, position.white, position.black, position.red]
        masks[move.colour] |= 1 << point
        _, white, black, red = masks
        scores, challenge, result = self._after_ball(white, black, red, point, state.to_move,
                                                     state.scores, state.challenge)
        return SpokerState(Position.from_masks(white, black, red), 1 - state.to_move, result,
                           move, EMPTY, scores, challenge)

    def _after_ball(self, white, black, red, point, mover, scores, challenge):
        """(scores, challenge, result) once ``mover``'s ball is down at ``point``,
        ``challenge`` being the one it answers (or None): the rules of a placement."""
        made = strongest(white, black, red, point)
        if made is not None and made[0] == FLUSH:
            return scores, None, self._flush(mover, scores)
        new = None
        if challenge is not None:
            scores = list(scores)
            self._settle_challenge(scores, mover, challenge, made)
            scores = tuple(scores)
        elif made is not None:
            new = made
        if (white | black | red).bit_count() == NUM_POINTS:
            if new is not None:           # the last ball: nobody can answer it
                scores = (scores[0] + 1, scores[1]) if mover == 0 else (scores[0], scores[1] + 1)
                new = None
            return scores, None, self._final(scores)
        return scores, new, None

    def random_playout(self, state, rng):
        """Same games as the generic loop, on raw masks (the benchmark path): the same
        draw from the bag (one ``rng.random()`` over the colours in order) and the
        same choice among the playable points (one more)."""
        if state.result is not None:
            return state
        rnd = rng.random
        position, mover, drawn = state.position, state.to_move, state.drawn
        masks = [0, position.white, position.black, position.red]
        scores, challenge, last = state.scores, state.challenge, state.last
        occ = position.occupied
        playable = playable_mask(occ)
        bag = [0] + [PER_COLOUR - masks[c].bit_count() for c in COLOURS]
        while True:
            if drawn == EMPTY:
                drawn = draw_colour(bag[WHITE], bag[BLACK], bag[RED], rnd())
            pts = points_in(playable)
            point = pts[int(rnd() * len(pts))]
            masks[drawn] |= 1 << point
            bag[drawn] -= 1
            playable = playable & ~(1 << point) | raised(occ, point)
            occ |= 1 << point
            last = PLACE_MOVES[drawn][point]
            scores, challenge, result = self._after_ball(masks[1], masks[2], masks[3], point,
                                                         mover, scores, challenge)
            mover, drawn = 1 - mover, EMPTY
            if result is not None:
                return SpokerState(Position.from_masks(masks[1], masks[2], masks[3]), mover,
                                   result, last, EMPTY, scores, challenge)

    @staticmethod
    def _settle_challenge(scores: list, answerer: int, challenge, made) -> None:
        """Give the point of a challenge: to the answerer for a stronger combination,
        to both for an equal one, else to the challenger."""
        answer = made[:2] if made is not None else (0, 0)
        if answer > challenge:
            scores[answerer] += 1
        elif answer == challenge:
            scores[0] += 1
            scores[1] += 1
        else:
            scores[1 - answerer] += 1

    def _flush(self, winner: int, scores) -> Outcome:
        return Outcome((winner,), f"{self.player_name(winner)} made a straight flush",
                       tuple(float(s) for s in scores), ((winner,), (1 - winner,)))

    def _final(self, scores) -> Outcome:
        text = f"the pyramid is complete: {scores[0]} points to {scores[1]}"
        floats = tuple(float(s) for s in scores)
        if scores[0] == scores[1]:
            return Outcome((), text, floats, ((0, 1),))
        winner = 0 if scores[0] > scores[1] else 1
        return Outcome((winner,), text, floats, ((winner,), (1 - winner,)))

    def length(self, state) -> int:
        return state.position.occupied.bit_count()

    # -- what players read -------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """Scores, the ball in hand, the challenge to beat and the bag."""
        lines = [f"Scores: {self.player_name(0)} {state.scores[0]}, "
                 f"{self.player_name(1)} {state.scores[1]}."]
        if state.result is None and state.challenge is not None:
            lines.append(f"{self.player_name(state.to_move)} must beat "
                         f"{self.player_name(1 - state.to_move)}'s "
                         f"{combination_name(*state.challenge)} with the next ball.")
        if state.result is None and state.drawn != EMPTY:
            lines.append(f"{self.player_name(state.to_move)} has drawn a "
                         f"{COLOUR_NAMES[state.drawn]} ball.")
        white, black, red = bag_left(state.position, state.drawn)
        lines.append(f"In the bag: {white} white, {black} black and {red} red balls.")
        return lines

    def winning_points(self, state) -> int:
        """The straight flush that won the game, if one did."""
        if state.result is None or not state.result.winners:
            return 0
        tops = flush_tops(state.position)
        return SUPPORT_MASK[tops[0]] | 1 << tops[0] if tops else 0

    def describe(self, state) -> str:
        """The board, the last move, and the result or whose turn it is, followed
        on that same line by :meth:`status_lines` (front ends show those apart)."""
        lines = [state.position.diagram()]
        if state.last is not None:
            lines.append(f"Last move: {state.last.text()}")
        status = " ".join(self.status_lines(state))
        outcome = state.result
        if outcome is not None:
            verdict = ("a draw" if outcome.is_draw
                       else f"{self.player_name(outcome.winners[0])} won")
            lines.append(f"Game over: {verdict}. {outcome.reason}. {status}")
        elif self.current_player(state) >= 0:
            lines.append(f"{self.player_name(state.to_move)} to move. {status}")
        else:
            lines.append(f"{self.player_name(state.to_move)} draws a ball. {status}")
        return "\n".join(lines)

    # -- state text --------------------------------------------------------------------
    def extra_text(self, state) -> str:
        parts = []
        if state.drawn != EMPTY:
            parts.append(f"drawn={COLOUR_LETTERS[state.drawn]}")
        if state.scores != (0, 0):
            parts.append(f"score={state.scores[0]}-{state.scores[1]}")
        if state.challenge is not None:
            rank, height = state.challenge
            parts.append(f"challenge={RANK_KEYS[rank]}@{height}")
        return " ".join(parts)

    def state_from(self, position, to_move, extras):
        drawn, scores, challenge = EMPTY, (0, 0), None
        seen = set()
        for token in extras.split():
            key, _, value = token.partition("=")
            if key in seen:
                raise NotationError(f"Spoker state field {shown(key)} given twice")
            seen.add(key)
            if key == "drawn" and value in ("W", "B", "R"):
                drawn = COLOUR_LETTERS.index(value)
            elif key == "score" and re.fullmatch(r"[0-9]{1,2}-[0-9]{1,2}", value):
                scores = tuple(int(n) for n in value.split("-"))
            elif key == "challenge" and re.fullmatch(r"[a-z]{1,8}@[0-3]", value) \
                    and value.split("@")[0] in RANK_KEYS.values():
                name, height = value.split("@")
                rank = next(r for r, k in RANK_KEYS.items() if k == name)
                if int(height) not in HEIGHTS[rank]:
                    raise NotationError(f"Spoker state: a {RANK_NAMES[rank]} cannot have "
                                        f"height {height}")
                challenge = (rank, int(height))
            else:
                raise NotationError(
                    f"Spoker state field {shown(token)} not understood; fields: drawn=W|B|R, "
                    "score=<n>-<n>, challenge=<straight|three|full|four>@<height 0-3>")
        self._check(position, to_move, drawn, scores, challenge)
        return self.settle(SpokerState(position, to_move, None, None, drawn, scores, challenge))

    @staticmethod
    def _check(position, to_move, drawn, scores, challenge) -> None:
        """Reject states the rules cannot reach; NotationError says why."""
        placed = position.occupied.bit_count()
        if not position.is_stable():
            raise NotationError("Spoker position: a ball is not resting on a full platform")
        if min(bag_left(position, drawn)) < 0:
            raise NotationError(f"Spoker uses {PER_COLOUR} balls of each colour: this state "
                                "has more of one colour")
        if to_move != placed % 2:
            raise NotationError(f"Spoker: with {placed} balls placed it is Player "
                                f"{placed % 2 + 1}'s turn (players alternate, Player 1 first)")
        if drawn != EMPTY and placed == NUM_POINTS:
            raise NotationError("Spoker state: the pyramid is complete, no ball can be in hand")
        if sum(scores) > placed:
            raise NotationError(f"Spoker state: {sum(scores)} points cannot be scored with "
                                f"{placed} balls placed")
        if challenge is not None and (placed < 3 or placed == NUM_POINTS):
            raise NotationError("Spoker state: a challenge needs a combination (three balls "
                                "at least) and a ball left to answer it")
        tops = flush_tops(position)
        if len(tops) > 1 or tops and (SUPPORTED_MASK[tops[0]] & position.occupied
                                      or drawn != EMPTY or challenge is not None):
            raise NotationError("Spoker state: a straight flush ends the game at once, so "
                                "nothing can follow it")

    def settle(self, state):
        if state.result is not None:
            return state
        if flush_tops(state.position):
            return dataclasses.replace(state, result=self._flush(1 - state.to_move,
                                                                 state.scores))
        if state.position.occupied.bit_count() == NUM_POINTS:
            return dataclasses.replace(state, result=self._final(state.scores))
        return state


__all__ = ["DRAWS", "FLUSH", "FOUR", "FULL", "LINES3", "LINES4", "PER_COLOUR", "RANK_NAMES",
           "STRAIGHT", "THREE", "Spoker", "SpokerState", "bag_left", "best_combination",
           "combination_name", "combinations_at", "flush_tops"]
