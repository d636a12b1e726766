"""Sprenge: three players, each placing only the other two players' colours.

Every turn puts two balls on the pyramid, one of each opponent's colour, in
the order the mover likes; after fifteen turns the pyramid is full and the
largest visible group decides.  Everything about the turn follows from the
balls on the board, so a state is just the position and the player to move.

>>> from shibumi import load
>>> match = load('sprenge').new_match()
>>> sorted({m.text()[0] for m in match.legal_moves()})   # White places black or red
['B', 'R']
>>> [match.push(m).text() for m in ('Rc3', 'a1')]        # then the other colour
['Rc3.0', 'Ba1']
>>> match.current_player, sorted({m.text()[0] for m in match.legal_moves()})
(1, ['R', 'W'])
"""

from __future__ import annotations

import random

from ..errors import NotationError, UnknownGameError, shown
from ..game import Game, GameInfo, Outcome, State
from ..geometry import ALL_MASK, NUM_POINTS
from ..position import BLACK, COLOUR_NAMES, RED, WHITE, Position
from ..registry import register
from .placement import (PLACE_MOVES, PLAYER_COLOURS, playable_points, sole_winner,
                        uniform_choice)

#: The colours each player places: those of the two others (White places black and red).
OTHERS = tuple(tuple(c for c in PLAYER_COLOURS if c != own) for own in PLAYER_COLOURS)
#: The tie rules offered: the annex's turn order, or the designer's "third player".
TIE_RULES = ("order", "third")


def turn_of(balls: int) -> int:
    """The player who places ball number `balls` (0-based): two balls a turn."""
    return (balls // 2) % 3


def placed_by_now(balls: int, colour: int) -> int:
    """How many balls of `colour` the finished turns before ball `balls` hold.

    Each turn holds one ball of each colour but the mover's own, so a colour
    gains one ball in every turn its owner does not play.
    """
    owner = PLAYER_COLOURS.index(colour)
    return sum(1 for t in range(balls // 2) if t % 3 != owner)


def colours_to_place(position: Position) -> tuple[int, ...]:
    """The colours the mover may place now: both opponents', or the one still owed."""
    balls = position.occupied.bit_count()
    mover = turn_of(balls)
    if balls % 2 == 0:
        return OTHERS[mover]
    return tuple(c for c in OTHERS[mover] if position.count(c) == placed_by_now(balls, c))


def largest_groups(position: Position) -> tuple[tuple[int, int], ...]:
    """For each player: the size of their largest visible group and the union of
    the groups of that size (0, 0 with no ball in view)."""
    return tuple(position.largest_groups(colour) for colour in PLAYER_COLOURS)


def tie_winner(sizes, rule: str) -> tuple[int, str]:
    """The winner from the three largest-group sizes, and how the tie (if any) went.

    ``order``: the highest size wins; among tied players White beats Black
    beats Red.  ``third``: a tie of exactly two players for the highest size
    gives the win to the third player; a tie of all three falls back on turn
    order.

    >>> tie_winner((5, 5, 3), 'order'), tie_winner((5, 5, 3), 'third')
    ((0, 'tie broken by turn order'), (2, 'two-way tie: the third player wins'))
    >>> tie_winner((4, 6, 6), 'order'), tie_winner((4, 4, 4), 'third')
    ((1, 'tie broken by turn order'), (0, 'three-way tie broken by turn order'))
    """
    best = max(sizes)
    tied = [p for p, s in enumerate(sizes) if s == best]
    if len(tied) == 1:
        return tied[0], ""
    if rule == "third" and len(tied) == 2:
        return 3 - sum(tied), "two-way tie: the third player wins"
    return tied[0], ("three-way tie broken by turn order" if rule == "third"
                     else "tie broken by turn order")


@register
class Sprenge(Game):
    info = GameInfo(
        name="Sprenge", designer="Nathan Morse", year="2012",
        family="Counting", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Three players each place the other two players' colours, two balls a "
                "turn; when the pyramid is full the largest visible group wins.",
        min_players=3, max_players=3, complexity=1, max_length=30)
    parameters = {"tiebreak": "order"}

    rules = """\
Three players, White, Black and Red, start with an empty board and play in
that order. You never place your own colour: each turn you put one ball of
each of your two opponents' colours on playable points (empty holes, or
hollows on top of complete 2x2 platforms), in the order you choose. White
places a black and a red ball, Black a white and a red one, Red a white and
a black one. The second ball may go on a platform the first one completed.

After fifteen turns (five each) the pyramid is full. Each player's score is
the size of their largest group: balls of their colour joined by contacts
that can be seen from above (hidden balls do not count, and a contact is cut
where two touching balls on the level above pass over it). The largest
group wins.

Ties: a tie for the largest group goes to the earlier player in turn order,
White before Black before Red. (Option `tiebreak='third'`: when exactly two
players tie for the largest group, the third player wins; a three-way tie
still goes by turn order.)
"""
    notes = """\
* Ties, two rules. The annex breaks ties by turn order: White beats Black,
  who beats Red. The translator's comment on the game says the designer's
  own rule was different: when two players tie for the largest group, the
  third, untied player wins. Both are offered: `tiebreak='order'` (the
  default) and `tiebreak='third'`. The default is the printed rule because
  it is the text this project follows and the one a reader holding the
  annex will play, because the translator, who knew both, chose it, and
  because it settles every case, while the designer's rule says nothing
  about three players tied; under `third` we settle that case by turn order
  too, the only rule either source gives.
* "Largest group of visibly connected balls": groups as the rule book
  defines them (contacts seen from above; balls hidden under level 2 belong
  to no group). The players' own colours are the scoring colours, though each
  player never places a ball of their own colour: their score is built
  entirely by the two opponents.
* Turn order of the colours: the mover chooses which of the two balls comes
  first (the text: "in the order of their choice"), and the second may use a
  platform the first completed, as with every two-ball turn in the system.
* The example's figure (the first three turns, "did Red play well?") is
  lost. The chapter plays three turns of its own and discusses them.
* Length: thirty balls in fifteen turns, always; a full pyramid always has
  one winner under either tie rule. Each colour gets ten balls.
* Everything about a turn follows from the board: ball n (from 0) belongs to
  player (n div 2) mod 3's turn, and after an odd number of balls the colour
  still owed is the one with fewer balls than the finished turns gave it.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        if self.params["tiebreak"] not in TIE_RULES:
            raise UnknownGameError(f"sprenge parameter tiebreak is one of "
                                   f"{', '.join(map(repr, TIE_RULES))}, "
                                   f"not {self.params['tiebreak']!r}")

    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        pts = playable_points(state.position.occupied)
        return [PLACE_MOVES[c][p] for c in colours_to_place(state.position) for p in pts]

    def apply(self, state, move):
        position = state.position.place(move.point, move.colour)
        result = self.score(position) if position.occupied == ALL_MASK else None
        return State(position, turn_of(position.occupied.bit_count()), result, move)

    def score(self, position: Position) -> Outcome:
        """The outcome of a full pyramid: the largest groups and the tie rule."""
        sizes = tuple(s for s, _ in largest_groups(position))
        winner, how = tie_winner(sizes, self.params["tiebreak"])
        told = ", ".join(f"{self.player_name(p)} {s}" for p, s in enumerate(sizes))
        verdict = f"{self.player_name(winner)} wins" + (f" ({how})" if how else "")
        ranking = tuple(tuple(p for p in range(3) if sizes[p] == s)
                        for s in sorted(set(sizes), reverse=True))
        return Outcome((winner,), f"largest groups: {told}; {verdict}",
                       tuple(float(s) for s in sizes), ranking)

    def winning_points(self, state) -> int:
        """The winner's largest group (whatever its size, as the tie rule may
        crown a smaller one)."""
        winner = sole_winner(state)
        return 0 if winner is None else largest_groups(state.position)[winner][1]

    def status_lines(self, state) -> list[str]:
        """The colours to place and everyone's largest group so far."""
        sizes = [s for s, _ in largest_groups(state.position)]
        lines = ["Largest groups: " + ", ".join(
            f"{self.player_name(p)} {s}" for p, s in enumerate(sizes)) + "."]
        if state.result is None:
            names = [COLOUR_NAMES[c] for c in colours_to_place(state.position)]
            me = self.player_name(state.to_move)
            lines.insert(0, f"{me} places a {' and a '.join(names)} ball"
                            + (" (either first)." if len(names) == 2 else " to end the turn."))
        return lines

    def state_from(self, position, to_move, extras):
        if extras:
            raise NotationError(f"Sprenge states have no extra fields, got {shown(extras)}")
        balls = position.occupied.bit_count()
        for colour in PLAYER_COLOURS:
            done = placed_by_now(balls, colour)
            owed = balls % 2 and colour in OTHERS[turn_of(balls)]
            if not done <= position.count(colour) <= done + bool(owed):
                raise NotationError(
                    f"Sprenge: after {balls} balls there are {done}"
                    f"{' or ' + str(done + 1) if owed else ''} {COLOUR_NAMES[colour]} "
                    f"ones, not {position.count(colour)}")
        if to_move != turn_of(balls):
            raise NotationError(f"Sprenge: after {balls} balls {self.player_name(turn_of(balls))}"
                                f" is to move, not {self.player_name(to_move)}")
        return self.settle(State(position, to_move))

    def settle(self, state):
        if state.position.occupied == ALL_MASK:
            return State(state.position, state.to_move, self.score(state.position), state.last)
        return state

    def random_playout(self, state, rng: random.Random):
        """The generic loop's games (same choices from the same generator), on masks."""
        if state.result is not None:
            return state
        choose = uniform_choice(rng)
        masks = [0, state.position.white, state.position.black, state.position.red]
        occ, move = state.position.occupied, state.last
        while occ != ALL_MASK:
            balls = occ.bit_count()
            mover = turn_of(balls)
            colours = OTHERS[mover] if balls % 2 == 0 else tuple(
                c for c in OTHERS[mover] if masks[c].bit_count() == placed_by_now(balls, c))
            pts = playable_points(occ)
            move = choose([PLACE_MOVES[c][p] for c in colours for p in pts])
            occ |= 1 << move.point
            masks[move.colour] |= 1 << move.point
        position = Position.from_masks(masks[WHITE], masks[BLACK], masks[RED])
        return State(position, turn_of(NUM_POINTS), self.score(position), move)


__all__ = ["Sprenge", "colours_to_place", "largest_groups", "tie_winner"]
