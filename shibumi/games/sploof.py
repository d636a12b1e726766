"""Sploof: four in a row seen from above, fed by a two-ball stock and a red moat.

Also home of :class:`VisibleRuns`, the test "a run of touching balls of one
colour that can be seen from above", shared with Spaniel.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..bits import hidden_of, nth_point, playable_cached, remove_ball, unpinned
from ..errors import NotationError, is_number, shown
from ..game import Game, GameInfo, Outcome, State
from ..geometry import CONTACTS, NUM_POINTS, SIDE_MASK, points_of, touching_runs
from ..notation import Move
from ..position import BLACK, COLOUR_NAMES, RED, WHITE, Position, hidden_mask
from ..registry import register
from .placement import PLACE_MOVES, REMOVE_MOVES, playable_points, sole_winner

_OVERPASS = {(a, b): over for a, b, over in CONTACTS}


class VisibleRuns:
    """Runs of `length` touching balls that look straight from above, as masks.

    A run is *seen* in one colour when all its balls have that colour and
    none is hidden; with ``overpass_cuts`` each contact along it must also be
    visible (no pair of touching balls on the level above passes over it),
    the book's rule that overpasses cut underpasses.
    """

    def __init__(self, length: int) -> None:
        runs = []
        for run in touching_runs(length):
            overs = tuple(_OVERPASS[min(a, b), max(a, b)] for a, b in zip(run, run[1:]))
            runs.append((sum(1 << p for p in run), tuple(o for o in overs if o)))
        self.runs: tuple[tuple[int, tuple[int, ...]], ...] = tuple(runs)
        self.through: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...] = tuple(
            tuple(r for r in runs if r[0] >> p & 1) for p in range(NUM_POINTS))

    @staticmethod
    def _visible(runs, mine: int, occupied: int, overpass_cuts: bool):
        """Yield the masks of the `runs` seen in the colour mask `mine`."""
        hidden = None
        for mask, overs in runs:
            if mine & mask != mask:
                continue
            if hidden is None:
                hidden = hidden_mask(occupied)
            if hidden & mask:
                continue
            if overpass_cuts and any(occupied & o == o for o in overs):
                continue
            yield mask

    @classmethod
    def _seen(cls, runs, mine: int, occupied: int, overpass_cuts: bool) -> bool:
        return any(cls._visible(runs, mine, occupied, overpass_cuts))

    def seen(self, mine: int, occupied: int, overpass_cuts: bool = True) -> bool:
        """Whether any run of the colour mask `mine` is seen from above."""
        return self._seen(self.runs, mine, occupied, overpass_cuts)

    def shown(self, mine: int, occupied: int, overpass_cuts: bool = True) -> int:
        """The union of the runs of the colour mask `mine` seen from above."""
        out = 0
        for mask in self._visible(self.runs, mine, occupied, overpass_cuts):
            out |= mask
        return out

    def seen_through(self, point: int, mine: int, occupied: int,
                     overpass_cuts: bool = True) -> bool:
        """Whether a run through `point` is seen (a placement can only make those)."""
        return self._seen(self.through[point], mine, occupied, overpass_cuts)


def _run_seen(runs, mine: int, occupied: int, cuts: bool) -> bool:
    """:meth:`VisibleRuns.seen` over ``runs``, without the generator (the playout's test)."""
    hidden = -1
    for mask, overs in runs:
        if mine & mask == mask:
            if hidden < 0:
                hidden = hidden_of(occupied)
            if hidden & mask:
                continue
            if cuts:
                for o in overs:
                    if occupied & o == o:
                        break
                else:
                    return True
            else:
                return True
    return False


RUNS4 = VisibleRuns(4)
PLAYER_COLOURS = (WHITE, BLACK)
BALLS_PER_COLOUR = 16
EDGE_HOLES = SIDE_MASK["left"] | SIDE_MASK["right"] | SIDE_MASK["bottom"] | SIDE_MASK["top"]
START = Position.from_masks(red=EDGE_HOLES)
START_REDS = EDGE_HOLES.bit_count()                    # 12


@dataclass(frozen=True)
class SploofState(State):
    stock: tuple[int, int] = (2, 2)
    """Balls in White's and Black's stocks."""
    bag: tuple[int, int, int] = (14, 14, 4)
    """White, black and red balls in the bag."""


@register
class Sploof(Game):
    info = GameInfo(
        name="Sploof", designer="Matt Green", year="2011",
        family="N-in-a-row", source="Shibumi Rule Book (2012)",
        summary="Make four touching balls in a row as seen from above, placing from a "
                "small stock that you refill by taking red balls off the board.",
        aliases=("splroof",), complexity=3, max_length=40)
    parameters = {"overpass_cuts": True}

    rules = """\
Two players, White then Black. The twelve holes around the edge of the board
hold red balls and the four centre holes are empty. Each player has a stock
of two balls of their own colour; every other ball is in a shared bag.

On your turn do one of these:
1. Place a ball from your stock on any playable point (an empty hole or a
   complete 2x2 platform).
2. Take a red ball off the board and put it in the bag, then move two balls
   of your colour from the bag into your stock. A red ball that holds up two
   or more balls is pinned and cannot be taken; if one ball rests on it, that
   ball drops into its place (and any ball on that one drops too).

You win when four balls of your colour form a line of touching balls that
looks straight when you look down on the pyramid: along a row or column of
the board, or diagonally from ball to ball up and down the levels (the line
may zigzag between two levels). Every ball of the line must be in view, and
so must the places where they touch: two touching balls on the level above
that pass over the line cut it.

If you cannot move you lose: that is, when you have nothing to place (or
nowhere to place it) and no red ball can be taken.
"""
    notes = """\
* Start (figure lost): red balls in the 12 edge holes, the 4 centre holes
  empty, two balls of each player's colour in their stock. The set has 16
  balls of each colour, so the bag starts with 14 white, 14 black and 4 red.
* No chance: the bag is only a supply. You always take balls of your own
  colour from it, so nothing about a draw is random or secret; the state
  text records both stocks and the bag (`stock 2 2 bag 14 14 4`).
* If the bag holds fewer than two balls of your colour you take what is
  left (possibly none). The removal stays legal: the book's loss rule, in
  its French wording, describes a player without moves as one whose stock
  is empty and who cannot take a red ball, with no word about the bag.
* Red balls can be taken from anywhere they are (always the board level,
  since no red ball is ever placed again) unless pinned, by the book's
  general definition of pinning.
* Lines are runs of four touching balls: flat rows and columns of the board,
  and chains that step diagonally in the top view from a ball to one it rests
  on or that rests on it. The book says the line is judged from above, so a
  hidden ball (one buried two levels down) cannot be part of it. We also apply
  the book's general rule that overpasses cut underpasses: a board row whose
  contact is crossed by two touching level-1 balls is not a line until one of
  them drops away. Another published implementation of Sploof
  (donkirkby/shibumi-games on GitHub) reads it the same way. A variant ignores
  crossings and only asks for the four balls to be in view.
* A removal can drop balls and so uncover lines for either player. If a move
  shows a line for both players, the mover wins (as in Splice, where the
  same question is answered that way); if it shows only the opponent's line,
  the opponent wins.
* Length. A red ball taken off never comes back, so there are at most 12
  removals; each player can place at most two balls plus two per removal
  they made. A game therefore lasts at most 12 + (4 + 2 x 12) = 40 actions
  and cannot cycle. The bound is met: about one random game in fifty
  lasts exactly 40 actions (770 of 40,000 in a measurement, just under 2%).
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        self.cuts = self.params["overpass_cuts"]

    def initial_state(self, rng=None) -> SploofState:
        return SploofState(position=START)

    def length(self, state) -> int:
        pos = state.position
        return (pos.white | pos.black).bit_count() + START_REDS - pos.red.bit_count()

    # -- rules ------------------------------------------------------------------
    def _removable_reds(self, position) -> list[int]:
        return [p for p in points_of(position.red) if not position.is_pinned(p)]

    def _moves(self, state, player) -> list[Move]:
        moves = []
        if state.stock[player]:
            row = PLACE_MOVES[PLAYER_COLOURS[player]]
            moves = [row[p] for p in playable_points(state.position.occupied)]
        moves += [REMOVE_MOVES[p] for p in self._removable_reds(state.position)]
        return moves

    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        return self._moves(state, state.to_move)

    def apply(self, state, move):
        mover = state.to_move
        stock, bag = list(state.stock), list(state.bag)
        if move.kind == "place":
            position = state.position.place(move.point, move.colour)
            stock[mover] -= 1
            mine = position.white if mover == 0 else position.black
            won = RUNS4.seen_through(move.point, mine, position.occupied, self.cuts)
            lines = (won, False) if mover == 0 else (False, won)
        else:
            position, _drops = state.position.remove(move.point)
            bag[2] += 1
            take = min(2, bag[mover])
            bag[mover] -= take
            stock[mover] += take
            lines = (RUNS4.seen(position.white, position.occupied, self.cuts),
                     RUNS4.seen(position.black, position.occupied, self.cuts))
        after = SploofState(position, 1 - mover, None, move, tuple(stock), tuple(bag))
        return self._judge(after, lines, mover)

    def _judge(self, state, lines, mover):
        """Set the result: a line shown (the mover's first), else a stuck player."""
        result = None
        if lines[mover]:
            result = Outcome((mover,), f"{self.player_name(mover)} made a line of four")
        elif lines[1 - mover]:
            result = Outcome((1 - mover,), f"{self.player_name(mover)} uncovered "
                                           f"{self.player_name(1 - mover)}'s line of four")
        elif not self._moves(state, state.to_move):
            winner = 1 - state.to_move
            result = Outcome((winner,), f"{self.player_name(state.to_move)} has no legal move")
        if result is None:
            return state
        return SploofState(state.position, state.to_move, result, state.last,
                           state.stock, state.bag)

    def random_playout(self, state, rng):
        """The generic loop's games on raw masks: the same moves in the same order
        (placements, then removable reds, by point) and the same draws."""
        if state.result is not None:
            return state
        rnd, cuts = rng.random, self.cuts
        white, black, red = state.position.white, state.position.black, state.position.red
        stock, bag, mover = list(state.stock), list(state.bag), state.to_move
        through, runs = RUNS4.through, RUNS4.runs
        while True:
            occ = white | black | red
            places = playable_cached(occ) if stock[mover] else 0
            reds = unpinned(red, occ)
            n_places = places.bit_count()
            k = int(rnd() * (n_places + reds.bit_count()))
            if k < n_places:
                p = nth_point(places, k)
                stock[mover] -= 1
                if mover == 0:
                    white |= 1 << p
                    lines = (_run_seen(through[p], white, occ | 1 << p, cuts), False)
                else:
                    black |= 1 << p
                    lines = (False, _run_seen(through[p], black, occ | 1 << p, cuts))
                move = PLACE_MOVES[PLAYER_COLOURS[mover]][p]
            else:
                p = nth_point(reds, k - n_places)
                masks = [white, black, red]
                remove_ball(masks, occ, p)
                white, black, red = masks
                occ = white | black | red
                bag[2] += 1
                take = min(2, bag[mover])
                bag[mover] -= take
                stock[mover] += take
                lines = (_run_seen(runs, white, occ, cuts), _run_seen(runs, black, occ, cuts))
                move = REMOVE_MOVES[p]
            mover = 1 - mover
            if lines[0] or lines[1]:
                break
            occ = white | black | red
            if not (stock[mover] and playable_cached(occ)) and not unpinned(red, occ):
                break                         # the next player is stuck
        after = SploofState(Position.from_masks(white, black, red), mover, None, move,
                            tuple(stock), tuple(bag))
        return self._judge(after, lines, 1 - mover)

    def winning_points(self, state) -> int:
        """The winner's lines of four seen from above (0 for a player left stuck)."""
        winner = sole_winner(state)
        if winner is None:
            return 0
        position = state.position
        return RUNS4.shown(position.mask(PLAYER_COLOURS[winner]), position.occupied, self.cuts)

    # -- text ---------------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """Both stocks and the balls of each player's colour still to take."""
        stock = [f"{self.player_name(p)} {n} ball{'s' * (n != 1)}"
                 for p, n in enumerate(state.stock)]
        white, black, red = state.bag
        return [f"Stocks: {', '.join(stock)}.",
                f"In the bag: {white} white, {black} black and {red} red balls."]

    def extra_text(self, state) -> str:
        return "stock {} {} bag {} {} {}".format(*state.stock, *state.bag)

    def state_from(self, position, to_move, extras):
        parts = extras.split()
        shape = ["stock", None, None, "bag", None, None, None]
        if len(parts) != 7 or any(s is not None and s != p for s, p in zip(shape, parts)) \
                or not all(is_number(p) and len(p) < 4 for p in parts[1:3] + parts[4:]):
            raise NotationError(f"Sploof state extras are 'stock <white> <black> bag "
                                f"<white> <black> <red>', e.g. 'stock 2 2 bag 14 14 4', "
                                f"not {shown(extras)}")
        stock = (int(parts[1]), int(parts[2]))
        bag = (int(parts[4]), int(parts[5]), int(parts[6]))
        held = (stock[0], stock[1], 0)
        for i, colour in enumerate((WHITE, BLACK, RED)):
            total = position.count(colour) + held[i] + bag[i]
            if total != BALLS_PER_COLOUR:
                raise NotationError(f"Sploof: {COLOUR_NAMES[colour]} balls on the board, "
                                    f"in stock and in the bag add up to {total}, not "
                                    f"{BALLS_PER_COLOUR}")
        if position.red & ~EDGE_HOLES:
            raise NotationError("Sploof: red balls only ever stand in the edge holes")
        state = SploofState(position, to_move, None, None, stock, bag)
        return self.settle(state)

    def settle(self, state):
        pos = state.position
        lines = (RUNS4.seen(pos.white, pos.occupied, self.cuts),
                 RUNS4.seen(pos.black, pos.occupied, self.cuts))
        return self._judge(state, lines, 1 - state.to_move)
