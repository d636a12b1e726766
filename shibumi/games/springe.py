"""Springe: hide one or two balls in your fists; the opponent picks the one you place.

Each player has a hidden reserve of sixteen balls of their own colour and eight
red ones.  A turn: the player (the *hider*) secretly fills their two fists,
each with one ball or nothing (at least one ball in all), the opponent picks a
fist, and the hider places the ball it holds, if any; the other fist goes
unseen into the discard bag.  A line of one's colour across a level, nine
visible balls of one's colour, or one's colour on the apex wins; when both
reserves run out, or the pyramid is full, the most visible balls win.

>>> from shibumi import load
>>> game = load('springe')
>>> match = game.new_match()
>>> [m.text() for m in game.legal_moves(match.state)]     # the left fist
['=W', '=R', 'pass']
>>> match.push('pass'), match.push('=W')      # left fist empty, a white ball in the right
(Move('pass'), Move('=W'))
>>> game.secret_move(match.history[-1][1], Move('=W'))     # what Black is told
'closed their right fist'
>>> game.state_text(game.observe(match.state, 1)).split()[2:]
['reserves=W?/B16R8', 'fists=??', 'actions=2']
>>> match.push('=2')                          # Black picks the right fist: the ball
Move('=2')
>>> match.push('c3'), match.state.reserves
(Move('Wc3.0'), ((15, 8), (16, 8)))
"""

from __future__ import annotations

import dataclasses
import random
import re
from dataclasses import dataclass
from functools import lru_cache
from math import comb

from ..errors import IllegalMoveError, NotationError, ShibumiError, shown
from ..game import TERMINAL, Game, GameInfo, Outcome, State, read_fields
from ..geometry import ALL_MASK, APEX, LINE_MASKS, LINES_THROUGH, NUM_POINTS
from ..notation import PASS, PASS_MOVE, Move
from ..position import BLACK, COLOUR_NAMES, EMPTY, RED, WHITE, Position, hidden_mask
from ..registry import register
from .placement import PLACE_MOVES, playable_points

#: Each player's reserve at the start: balls of their own colour, red balls.
OWN_BALLS, RED_BALLS = 16, 8
START_RESERVES = ((OWN_BALLS, RED_BALLS),) * 2
#: Visible balls of one's own colour that win.
NINE = 9
#: The colour each player owns: Player 1 White, Player 2 Black.
OWN = (WHITE, BLACK)
#: What goes into a fist: ``=W``/``=B`` a ball of one's colour, ``=R`` a red
#: one, ``pass`` nothing.
HIDE = {c: Move.choose(c) for c in (WHITE, BLACK, RED)}
#: The two fists the opponent may pick: ``=1`` left, ``=2`` right.
FIST = (Move.choose(value=1), Move.choose(value=2))
#: A fist in an observation whose content the observer cannot see.
UNSEEN = -1
#: Longest game: at most 48 turns use balls (each uses one or two of the 48), each of
#: two hiding actions and a pick; at most 30 placements; and the passes of a player
#: out of balls, one before each of the opponent's turns (at most 24 of them).
MAX_ACTIONS = 3 * 2 * (OWN_BALLS + RED_BALLS) + NUM_POINTS + OWN_BALLS + RED_BALLS
_LETTER = {EMPTY: ".", WHITE: "W", BLACK: "B", RED: "R", UNSEEN: "?"}
_COLOUR = {v: k for k, v in _LETTER.items()}
_FIST_NAMES = ("left", "right")
#: The weights the determinisation gives a fist nobody saw: empty 3, a ball of
#: the owner's colour 2, red 1 (half the fists empty; balls two to one, as in a
#: full reserve).  A fist known to hold a ball: own 2, red 1.
_PRIOR = {EMPTY: 3, "own": 2, RED: 1}


@dataclass(frozen=True)
class SpringeState(State):
    """A Springe state.

    ``to_move`` is the player acting: the hider while hiding and placing, the
    opponent while picking a fist.  ``reserves[p]`` is (own colour, red) left to
    player ``p`` (None in an observation: the opponent's reserve is hidden).
    ``fists`` holds the hider's fists this turn, left then right (0 for an empty
    fist, UNSEEN in the picker's observation); ``shown`` is the colour of the
    picked ball waiting to be placed (0: none).

    What both players know of each other's spending (it is what an observation
    keeps): ``reds[p]``, the red balls player ``p`` has shown; ``bag[p]``, the
    fists ``p`` has put into the bag unseen, as (known to hold a ball, may hold
    one); ``out[p]``, whether ``p`` has passed for want of balls.  ``actions``
    counts the players' actions (history, for the length).
    """
    reserves: tuple = START_RESERVES
    fists: tuple[int, ...] = ()
    shown: int = 0
    reds: tuple[int, int] = (0, 0)
    bag: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0))
    out: tuple[bool, bool] = (False, False)
    actions: int = 0


def visible_counts(position: Position) -> tuple[int, int, int]:
    """Visible balls (seen from above) of white, black and red.

    >>> visible_counts(Position('..../.WW./.BB./....|.../.R./...|../..|.'))
    (2, 2, 1)
    >>> visible_counts(Position('WWWW/WWWW/BBBB/BBBB|.../RR./RR.|../R.|.'))   # c3.2 covers c3.0
    (8, 7, 5)
    """
    seen = position.occupied & ~hidden_mask(position.occupied)
    return tuple((position.mask(c) & seen).bit_count() for c in (WHITE, BLACK, RED))


def line_of(mask: int, point: int) -> int:
    """The union of the full-length lines through ``point`` held in ``mask``."""
    return sum(line for line in LINES_THROUGH[point] if mask & line == line)


def placement_win(position: Position, point: int, player: int) -> str | None:
    """Why ``player`` wins after a ball of their colour went on ``point`` (None: no win).

    >>> placement_win(Position('WWWW/..../..../....|.../.../...|../..|.'), 15, 0)
    'White completed a line'
    """
    return win_after(position.mask(OWN[player]), position.occupied, point, player)


#: The reasons of a win by placement, per player: a line, nine balls, the apex.
_WHY = tuple((f"{name} completed a line", f"{name} has {NINE} visible balls",
              f"{name} placed the apex")
             for name in (COLOUR_NAMES[c].capitalize() for c in OWN))


def win_after(mine: int, occupied: int, point: int, player: int) -> str | None:
    """:func:`placement_win` on masks: ``mine`` the player's balls, the new one at
    ``point`` among them."""
    for line in LINES_THROUGH[point]:
        if mine & line == line:
            return _WHY[player][0]
    if (mine & ~hidden_mask(occupied)).bit_count() >= NINE:
        return _WHY[player][1]
    if point == APEX:
        return _WHY[player][2]
    return None


def hiding_moves(player: int, own: int, red: int, fists: tuple[int, ...]) -> list[Move]:
    """What ``player`` may put in the next fist with ``own`` and ``red`` balls left:
    a ball of either kind, or nothing (an empty fist beside a ball; or, with
    no balls at all and no fist filled, the pass of a player out of balls)."""
    moves = ([HIDE[OWN[player]]] if own else []) + ([HIDE[RED]] if red else [])
    if not fists or fists[0] != EMPTY:
        moves.append(PASS_MOVE)
    return moves


def end_of_turn(position: Position, reserves) -> Outcome | None:
    """The count at the end of a turn, if the points or both reserves have run out."""
    if position.occupied == ALL_MASK:
        return count_result(position, "the pyramid is full")
    if not any(map(sum, reserves)):
        return count_result(position, "both reserves are empty")
    return None


def count_result(position: Position, why: str) -> Outcome:
    """The end by counting: more visible balls than the opponent and than red wins."""
    white, black, red = visible_counts(position)
    counts = f"visible balls: White {white}, Black {black}, Red {red}"
    for p, (mine, theirs) in enumerate(((white, black), (black, white))):
        if mine > theirs and mine > red:
            return Outcome((p,), f"{why}; {counts}", scores=(float(white), float(black)),
                           ranking=((p,), (1 - p,)))
    return Outcome((), f"{why}; nobody has more than both others ({counts})",
                   scores=(float(white), float(black)))


def _replace(pair: tuple, index: int, value) -> tuple:
    return pair[:index] + (value,) + pair[index + 1:]


def _fist_configs(count: int) -> list[tuple[tuple[str | int, ...], int]]:
    """The unseen fists a hider may hold (``count`` of them filled so far) with
    their prior weights; 'own' stands for the hider's colour.  Two fists are
    never both empty."""
    kinds = (EMPTY, "own", RED)
    if count == 0:
        return [((), 1)]
    if count == 1:
        return [((k,), _PRIOR[k]) for k in kinds]
    return [((a, b), _PRIOR[a] * _PRIOR[b]) for a in kinds for b in kinds
            if (a, b) != (EMPTY, EMPTY)]


@lru_cache(maxsize=4096)
def hidden_completions(own_left: int, red_left: int, sure: int, maybe: int, fists: int,
                       keeps_a_ball: bool) -> tuple[tuple, tuple[int, ...]]:
    """Every way the unseen part of a player's spending can be, with its weight.

    ``own_left``/``red_left``: the balls of each kind the player has not shown
    (reserve, bag and fists together); ``sure``/``maybe``: fists put into the
    bag unseen that held a ball for certain / perhaps; ``fists``: fists filled
    this turn that the observer has not seen; ``keeps_a_ball``: the reserve is
    known not to be empty.  Returns (outcomes, cumulative weights), each
    outcome ((own, red) in the reserve, the fists, with 'own' for the owner's
    colour).  Weights: each unseen fist independently by ``_PRIOR``, which a
    hider filling fists at random would give; then only what the public facts
    allow is kept.

    One white ball unshown and one unopened fist that may hold it: it is still
    in the reserve 3 times in 5 (the fist was empty), in the bag 2 times in 5.

    >>> hidden_completions(1, 0, 0, 1, 0, False)
    ((((1, 0), ()), ((0, 0), ())), (3, 5))
    """
    outcomes, cum, total = [], [], 0
    for j in range(maybe + 1):                       # balls among the 'maybe' fists
        balls = sure + j
        for d_red in range(balls + 1):
            d_own = balls - d_red
            weight = comb(maybe, j) * 3 ** (maybe - j) * comb(balls, d_red) * 2 ** d_own
            for held, w in _fist_configs(fists):
                own = own_left - d_own - held.count("own")
                red = red_left - d_red - held.count(RED)
                if own < 0 or red < 0:
                    continue
                if (keeps_a_ball or held == (EMPTY,)) and own + red == 0:
                    continue
                total += weight * w
                outcomes.append(((own, red), held))
                cum.append(total)
    return tuple(outcomes), tuple(cum)


@register
class Springe(Game):
    info = GameInfo(
        name="Springe", designer="Nathan Morse", year="2012",
        family="N-in-a-row", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Hide one or two balls in your fists; your opponent picks the one you "
                "place. A line across a level, nine visible balls or the apex wins.",
        complexity=2, hidden_information=True, max_length=MAX_ACTIONS)
    player_names = ("White", "Black")

    rules = """\
Two players, White and Black, and an empty board. Each player has a
reserve of 24 balls, kept out of the opponent's sight: sixteen of their
own colour and eight red ones. Red belongs to nobody. A bag takes the
balls hidden but not placed; nobody looks into it until the game is over.

White plays the first turn, then the players take turns. On your turn:

1. Fill your fists in secret: each fist holds one ball from your reserve
   or nothing, and at least one of them holds a ball. Fill the left fist,
   then the right: `=W` (or `=B` for Black) for a ball of your colour,
   `=R` for a red one, `pass` for an empty fist. Your opponent only learns
   that you closed your fists.
2. Your opponent picks one fist: `=1` (left) or `=2` (right).
3. Open the fist picked. If it holds a ball, you place that ball on any
   playable point (an empty hole, or the hollow on top of four touching
   balls); if it is empty, you place nothing. The other fist goes into
   the bag without being opened, empty or not.

A player whose reserve is empty passes each turn (`pass`) and goes on
picking the opponent's fists.

You win at once when a ball of your colour that you place

* completes a line of your colour running all the way across one level
  (4 balls on the board, 3 on level 1, 2 on level 2), along a row, a
  column or a diagonal;
* gives you nine visible balls of your colour (balls seen from above:
  a ball covered by the ball two levels over it does not count); or
* is placed on the apex.

When both reserves are empty, or the pyramid is full, the game ends: the
player with more visible balls than the opponent and more than there are
visible red balls wins. Otherwise the game is a draw.
"""
    notes = """\
* Source: Annexe 1 of the French edition of the Shibumi Rule Book,
  Nathan Morse (2012). We found no other description and no ruling. The
  text has no figure.
* The fists. What goes into each fist is the hider's own secret choice,
  from one ball to two: a ball of their colour or a red one in each fist,
  or one ball and an empty fist, on either side. We write it as two
  actions, the left fist then the right, so that each is one choice from a
  short list; the opponent is told only "closed their left fist" and
  "closed their right fist", and sees neither choice until the game ends.
  Nothing is mixed by chance: which fist holds what is the bluff itself.
* The pick and the bag. The fist picked is opened and its ball, if any,
  is placed; the other fist goes into the bag unopened. The text insists
  on this even when the other fist is empty, so that the opponent cannot
  count the reserve; the bag is opened only when the game is over (our
  boards then show every action).
* What each player knows of the other's reserve. Public: the balls each
  has placed (those of their colour are on the board, the red ones were
  seen coming out of their fist), and how many fists each has put into
  the bag unopened. A fist into the bag beside an empty fist picked
  surely held a ball (a turn hides at least one); a fist beside a ball
  picked may have held a ball or nothing. So the opponent's reserve is
  known to lie between two numbers: 24, less the balls placed, less the
  sure fists, less anywhere from none to all of the uncertain ones; of
  which colour the bagged balls were is never known. Two more facts
  narrow it: a player who passes has shown that their reserve is empty,
  and a game still going at the start of a turn shows that the two
  reserves are not both empty, so a player whose own reserve is empty
  knows the other still has a ball. An observation keeps exactly these
  facts; the AI draws the unseen parts from them, giving each unopened
  fist the odds of a hider filling fists at random (empty half the time,
  a ball of their colour twice as often as a red one), and discards what
  the facts rule out.
* The hider places the ball picked, on any playable point of their
  choice: the text gives the placing to the player whose fist it is.
  Placing is compulsory.
* "Line": a complete row, column or diagonal of one level, as in Spline
  (4 on the board, 3 on level 1, 2 on level 2); balls hidden under level
  2 still count for a line, since the text asks for visibility only for
  the nine balls. The apex is not a line; it has its own win.
* "Nine visible balls": at least nine balls of one's colour seen from
  above (the five interior points can be covered). A placement adds one
  ball and can only hide balls, so only the hider's count can reach nine,
  and it does so exactly at nine.
* Only a ball of one's own colour wins. A red ball on the apex, or a red
  line, wins for nobody, since red is a neutral player.
* The end by counting. The text gives it for both reserves empty; we
  also use it when the pyramid is full (the apex red), since nothing
  more can be placed. "More visible balls than the opponent and than the
  neutral red player": strictly more than each; if neither player has
  that (a tie, or red ahead), the game is a draw.
* Running out. A player whose reserve is empty passes (one action), which
  tells the opponent so. The game ends as soon as both reserves are
  empty, at the end of the turn that emptied the second; at the table the
  player who empties it says so, and the game is over.
* Turn order: White hides first. The text does not say who starts; this
  only fixes names.
* Length. At most 48 turns use balls (each uses at least one of the 48),
  each with at most two hiding actions and a pick; at most 30
  placements; and at most 24 passes, one before each turn of the player
  who still has balls. So a game lasts at most 198 actions.
* State text: `reserves=W16R8/B16R8` (own colour and red left to each
  player; `B?` where an observation hides it); `fists=W.` the fists filled
  this turn, left then right (`.` empty, `?` unseen); `shown=W` for the
  ball waiting to be placed; `reds=1/0` red balls each player has shown;
  `bag=1+2/0+0` for each player the fists put into the bag unopened,
  those that surely held a ball + those that may have; `out=W` players who
  have passed for want of balls; `actions=N` the players' actions.
"""

    # -- turn structure ----------------------------------------------------------
    def initial_state(self, rng: random.Random | None = None) -> SpringeState:
        return SpringeState()

    @staticmethod
    def hider(state: SpringeState) -> int:
        """Whose turn it is: the player hiding, or placing; the picker's opponent."""
        return 1 - state.to_move if len(state.fists) == 2 else state.to_move

    def current_player(self, state: SpringeState) -> int:
        return TERMINAL if state.result is not None else state.to_move

    def legal_moves(self, state: SpringeState, player: int | None = None) -> list[Move]:
        mover = self.current_player(state)
        if mover < 0 or player is not None and player != mover:
            return []
        if state.shown:
            return [PLACE_MOVES[state.shown][p] for p in playable_points(state.position.occupied)]
        if len(state.fists) == 2:
            return list(FIST)
        if state.reserves[mover] is None:     # an observation of the opponent's turn
            return []
        return hiding_moves(mover, *state.reserves[mover], state.fists)

    def apply(self, state: SpringeState, move: Move) -> SpringeState:
        """The state after a legal move (checked by :class:`Match`)."""
        mover = self.current_player(state)
        if mover == TERMINAL:
            raise IllegalMoveError("Springe: the game is over")
        if state.shown:
            return self._placed(state, move)
        if len(state.fists) == 2:
            return self._picked(state, move)
        s = state
        if move.kind == PASS and not s.fists and not sum(s.reserves[mover]):
            return self._turn_over(s, mover, move, s.position, s.reserves, s.reds, s.bag,
                                   _replace(s.out, mover, True))
        colour = EMPTY if move.kind == PASS else move.colour
        own, red = s.reserves[mover]
        left = (own - (colour == OWN[mover]), red - (colour == RED))
        fists = s.fists + (colour,)
        return SpringeState(s.position, 1 - mover if len(fists) == 2 else mover, None, move,
                            _replace(s.reserves, mover, left), fists, 0, s.reds, s.bag, s.out,
                            s.actions + 1)

    def _picked(self, s: SpringeState, move: Move) -> SpringeState:
        """The fist picked is opened; the other goes into the bag unopened."""
        hider = 1 - s.to_move
        colour = s.fists[FIST.index(move)]
        sure, maybe = s.bag[hider]
        bag = _replace(s.bag, hider, (sure, maybe + 1) if colour else (sure + 1, maybe))
        reds = _replace(s.reds, hider, s.reds[hider] + (colour == RED))
        if not colour:
            return self._turn_over(s, hider, move, s.position, s.reserves, reds, bag, s.out)
        return SpringeState(s.position, hider, None, move, s.reserves, (), colour, reds, bag,
                            s.out, s.actions + 1)

    def _placed(self, s: SpringeState, move: Move) -> SpringeState:
        hider, colour = s.to_move, s.shown
        position = s.position.place(move.point, colour)
        if colour == OWN[hider]:
            why = placement_win(position, move.point, hider)
            if why:
                return SpringeState(position, 1 - hider, Outcome(
                    (hider,), why, ranking=((hider,), (1 - hider,))), move, s.reserves, (),
                    0, s.reds, s.bag, s.out, s.actions + 1)
        return self._turn_over(s, hider, move, position, s.reserves, s.reds, s.bag, s.out)

    @staticmethod
    def _turn_over(s: SpringeState, hider: int, move: Move, position, reserves, reds, bag,
                   out) -> SpringeState:
        """The opponent's turn next, unless the balls or the points have run out
        (``s`` the state before ``move``, the other arguments its changed fields)."""
        return SpringeState(position, 1 - hider, end_of_turn(position, reserves), move,
                            reserves, (), 0, reds, bag, out, s.actions + 1)

    def random_playout(self, state: SpringeState, rng: random.Random) -> SpringeState:
        """Same games as the generic loop (the same draws over the same moves): the
        turn on plain ints and colour masks, the state built once at the end."""
        if state.result is not None or None in state.reserves:
            return super().random_playout(state, rng)
        rnd, pos = rng.random, state.position
        masks = [0, pos.white, pos.black, pos.red]
        occupied, to_move, last, actions = pos.occupied, state.to_move, state.last, state.actions
        reserves = [list(r) for r in state.reserves]
        fists, shown = state.fists, state.shown
        reds, bag, out = list(state.reds), [list(b) for b in state.bag], list(state.out)
        result = None
        while result is None:
            actions += 1
            if shown:                               # the hider places the ball picked
                choice = playable_points(occupied)
                p = choice[int(rnd() * len(choice))]
                masks[shown] |= 1 << p
                occupied |= 1 << p
                last = PLACE_MOVES[shown][p]
                hider, colour, shown = to_move, shown, 0
                to_move = 1 - hider
                if colour == OWN[hider]:
                    why = win_after(masks[colour], occupied, p, hider)
                    if why:
                        result = Outcome((hider,), why, ranking=((hider,), (1 - hider,)))
                        break
            elif len(fists) == 2:                   # the opponent picks a fist
                k = int(rnd() * 2)
                last, hider, colour = FIST[k], 1 - to_move, fists[k]
                # Into the bag unopened: (sure, maybe) to hold a ball; beside an
                # empty fist picked, the other surely held one.
                bag[hider][colour != EMPTY] += 1
                reds[hider] += colour == RED
                fists, to_move, shown = (), hider, colour
                if colour:
                    continue
                to_move = 1 - hider
            else:                                   # a fist filled, or a pass
                own, red = reserves[to_move]
                moves = hiding_moves(to_move, own, red, fists)
                last = moves[int(rnd() * len(moves))]
                if last.kind == PASS and not fists and not own + red:
                    out[to_move] = True
                    to_move = 1 - to_move
                else:
                    colour = EMPTY if last.kind == PASS else last.colour
                    reserves[to_move] = [own - (colour == OWN[to_move]), red - (colour == RED)]
                    fists += (colour,)
                    if len(fists) == 2:
                        to_move = 1 - to_move
                    continue
            # The turn is over: the opponent's turn, unless something ran out.
            if occupied == ALL_MASK or not any(map(sum, reserves)):
                result = end_of_turn(Position.from_masks(*masks[1:]), reserves)
        return SpringeState(Position.from_masks(*masks[1:]), to_move, result, last,
                            tuple(map(tuple, reserves)), fists, shown, tuple(reds),
                            tuple(map(tuple, bag)), tuple(out), actions)

    def secret_move(self, state: SpringeState, move: Move) -> str | None:
        """Filling a fist is secret: the opponent hears only which fist was closed."""
        mover = self.current_player(state)
        if mover < 0 or state.shown or len(state.fists) == 2 or \
                move.kind == PASS and not state.fists and not sum(state.reserves[mover]):
            return None
        return f"closed their {_FIST_NAMES[len(state.fists)]} fist"

    def length(self, state: SpringeState) -> int:
        """The players' actions so far."""
        return state.actions

    def state_key(self, state: SpringeState) -> tuple:
        """What the rules and the observations look at (not the last move, nor the
        count of actions)."""
        return (state.position, state.to_move, state.result, state.reserves, state.fists,
                state.shown, state.reds, state.bag, state.out)

    def winning_points(self, state: SpringeState) -> int:
        """The winner's complete lines, or visible balls, or apex; 0 for a count."""
        result = state.result
        if result is None or len(result.winners) != 1 or result.scores is not None:
            return 0
        position, colour = state.position, OWN[result.winners[0]]
        mine = position.mask(colour)
        lines = sum(m for m in LINE_MASKS if mine & m == m)
        if "line" in result.reason:
            return lines
        if "apex" in result.reason:
            return 1 << APEX
        return mine & ~hidden_mask(position.occupied)

    # -- hidden information ---------------------------------------------------------
    @staticmethod
    def unshown(state: SpringeState, player: int) -> tuple[int, int]:
        """Balls of each kind (own, red) ``player`` has not shown: in the reserve,
        the bag or the fists.  Public: the rest are on the board or shown."""
        own = OWN_BALLS - state.position.count(OWN[player]) - (state.shown == OWN[player])
        return own, RED_BALLS - state.reds[player]

    def observe(self, state: SpringeState, player: int) -> SpringeState:
        """What ``player`` sees: the opponent's reserve is hidden (unless they have
        passed for want of balls), and so are the opponent's fists while closed.
        When the game is over everything is shown."""
        other = 1 - player
        if state.result is not None or state.reserves[other] is None or state.out[other]:
            return state
        fists = state.fists
        if fists and self.hider(state) == other:
            fists = (UNSEEN,) * len(fists)
        last = None if fists and fists[0] == UNSEEN else state.last   # a fist closed
        return dataclasses.replace(state, reserves=_replace(state.reserves, other, None),
                                   fists=fists, last=last)

    def _completions(self, observation: SpringeState, player: int):
        """The ways the hidden part of ``observation`` (seen by ``player``) can be."""
        other = 1 - player
        own, red = self.unshown(observation, other)
        unseen = len(observation.fists) if observation.fists and \
            observation.fists[0] == UNSEEN else 0
        turn_start = not observation.fists and not observation.shown
        keeps = turn_start and not sum(observation.reserves[player])
        return hidden_completions(own, red, *observation.bag[other], unseen, keeps)

    def determinise(self, observation: SpringeState, player: int,
                    rng: random.Random) -> SpringeState:
        """A full state for the observation: the opponent's reserve, and their fists
        if closed, drawn by the weights of :func:`hidden_completions`."""
        other = 1 - player
        if observation.reserves[other] is not None:
            return observation
        outcomes, cum = self._completions(observation, player)
        if not outcomes:
            raise ShibumiError(f"Springe: no state fits this observation: "
                               f"{self.state_text(observation)}")
        reserve, held = rng.choices(outcomes, cum_weights=cum)[0]
        fists = tuple(OWN[other] if f == "own" else f for f in held) or observation.fists
        return dataclasses.replace(observation, fists=fists,
                                   reserves=_replace(observation.reserves, other, reserve))

    # -- words -------------------------------------------------------------------
    def status_lines(self, state: SpringeState) -> list[str]:
        lines = [self._reserve_words(state, p) for p in (0, 1)]
        lines.append("Visible balls: White {}, Black {}, Red {}".format(
            *visible_counts(state.position)))
        if state.result is not None:
            return lines + [self._bag_words(state, p) for p in (0, 1)]
        hider = self.player_name(self.hider(state))
        fists = state.fists
        if state.shown:
            lines.append(f"{hider} places the {COLOUR_NAMES[state.shown]} ball picked.")
        elif len(fists) == 2 and fists[0] == UNSEEN:
            lines.append(f"{hider} has closed both fists: pick =1 (left) or =2 (right).")
        elif len(fists) == 2:
            lines.append("{}'s fists: left {}, right {}; {} picks one.".format(
                hider, *map(_fist_words, fists), self.player_name(1 - self.hider(state))))
        elif fists and fists[0] == UNSEEN:
            lines.append(f"{hider} has closed the left fist.")
        elif fists:
            ball = " with a ball" if fists[0] == EMPTY else ""
            lines.append(f"{hider}'s left fist holds {_fist_words(fists[0])}: fill the "
                         f"right one{ball}.")
        elif state.reserves[state.to_move] == (0, 0):
            lines.append(f"{hider} has no balls left and passes.")
        else:
            letter = _LETTER[OWN[state.to_move]]
            lines.append(f"{hider} fills the left fist, then the right: ={letter} a ball "
                         "of their colour, =R a red one, pass nothing.")
        return lines

    def _reserve_words(self, state: SpringeState, player: int) -> str:
        name, colour = self.player_name(player), COLOUR_NAMES[OWN[player]]
        reserve = state.reserves[player]
        if reserve is not None:
            own, red = reserve
            return f"{name}'s reserve: {own} {colour}, {red} red"
        totals = {sum(r) for r, _ in self._completions(state, 1 - player)[0]}
        if not totals:
            return f"{name}'s reserve: hidden"
        low, high = min(totals), max(totals)
        many = f"{low} balls" if low == high else f"{low} to {high} balls"
        return f"{name}'s reserve: hidden ({many})"

    def _bag_words(self, state: SpringeState, player: int) -> str:
        """What went into ``player``'s bag (the true state, at the end)."""
        if state.reserves[player] is None:
            return ""
        own, red = self.unshown(state, player)
        left = state.reserves[player]
        return (f"{self.player_name(player)}'s bag: {own - left[0]} "
                f"{COLOUR_NAMES[OWN[player]]}, {red - left[1]} red")

    def describe(self, state: SpringeState) -> str:
        """The board, the last move and the turn or result (front ends add
        :meth:`status_lines` themselves)."""
        lines = [state.position.diagram()]
        if state.last is not None:
            lines.append(f"Last move: {state.last.text()}")
        outcome = self.outcome(state)
        if outcome is not None:
            verdict = "draw" if outcome.is_draw else \
                f"{self.player_name(outcome.winners[0])} won"
            lines.append(f"Game over: {verdict}. {outcome.reason}")
        else:
            lines.append(f"{self.player_name(self.current_player(state))} to move.")
        return "\n".join(lines)

    # -- text --------------------------------------------------------------------------
    def extra_text(self, state: SpringeState) -> str:
        parts = ["reserves=" + "/".join(
            _LETTER[OWN[p]] + ("?" if r is None else f"{r[0]}R{r[1]}")
            for p, r in enumerate(state.reserves))]
        if state.fists:
            parts.append("fists=" + "".join(_LETTER[c] for c in state.fists))
        if state.shown:
            parts.append(f"shown={_LETTER[state.shown]}")
        if any(state.reds):
            parts.append("reds={}/{}".format(*state.reds))
        if any(map(any, state.bag)):
            parts.append("bag=" + "/".join(f"{s}+{m}" for s, m in state.bag))
        if any(state.out):
            parts.append("out=" + "".join(_LETTER[OWN[p]] for p in (0, 1) if state.out[p]))
        if state.actions:
            parts.append(f"actions={state.actions}")
        return " ".join(parts)

    def state_from(self, position: Position, to_move: int, extras: str) -> SpringeState:
        name = self.info.name
        words, rest = {}, []
        for token in extras.split():
            key, eq, value = token.partition("=")
            if eq and key in _FIELDS:
                if key in words:
                    raise NotationError(f"{name} state field {shown(key)} given twice")
                found = re.fullmatch(_FIELDS[key][0], value)
                if not found:
                    raise NotationError(f"{name} state field {shown(token)}: write "
                                        f"{_FIELDS[key][1]}")
                words[key] = found.groups()
            else:
                rest.append(token)
        fields = read_fields(self, " ".join(rest), numbers=("actions",))
        if "reserves" not in words:
            raise NotationError(f"a {name} state needs reserves=W16R8/B16R8 (each "
                                "player's own colour and red left)")
        w_own, w_red, b_own, b_red = words["reserves"]
        reserves = tuple(None if own is None else (int(own), int(red))
                         for own, red in ((w_own, w_red), (b_own, b_red)))
        fists = tuple(_COLOUR[ch] for ch in words.get("fists", ("",))[0])
        shown_colour = _COLOUR[words["shown"][0]] if "shown" in words else 0
        reds = tuple(map(int, words.get("reds", (0, 0))))
        bag = tuple(tuple(map(int, pair)) for pair in
                    zip(*[iter(words.get("bag", (0, 0, 0, 0)))] * 2))
        out = tuple(_LETTER[OWN[p]] in words.get("out", ("",))[0] for p in (0, 1))
        state = SpringeState(position, to_move, None, None, reserves, fists, shown_colour,
                             reds, bag, out, fields["actions"])
        self._check(state)
        return self.settle(state)

    def _check(self, state: SpringeState) -> None:
        """Reject states the rules cannot reach; NotationError says why."""
        name, pos = f"{self.info.name} state", state.position
        hider = self.hider(state)
        fists = state.fists
        if state.shown and fists:
            raise NotationError(f"{name}: fists= and shown= are stages of a turn; give one")
        if fists[:1] == (EMPTY,) and fists[1:] == (EMPTY,):
            raise NotationError(f"{name}: at least one fist holds a ball")
        if len(set(f == UNSEEN for f in fists)) > 1:
            raise NotationError(f"{name}: the fists are all seen or all unseen (?)")
        held = [c for c in fists + (state.shown,) if c > 0]
        if any(c not in (OWN[hider], RED) for c in held):
            raise NotationError(f"{name}: {self.player_name(hider)} hides only "
                                f"{COLOUR_NAMES[OWN[hider]]} and red balls")
        if not pos.is_stable():
            raise NotationError(f"{name}: a ball is not resting on a full platform")
        if pos.count(RED) + (state.shown == RED) != sum(state.reds):
            raise NotationError(f"{name}: reds= must count the red balls shown "
                                f"({pos.count(RED) + (state.shown == RED)})")
        hidden = [p for p in (0, 1) if state.reserves[p] is None]
        if len(hidden) > 1 or hidden and (state.out[hidden[0]] or fists and fists[0] != UNSEEN
                                          and hider == hidden[0]):
            raise NotationError(f"{name}: an observation hides one reserve (not of a player "
                                "who is out), and that player's fists if closed")
        if fists and fists[0] == UNSEEN and hider not in hidden:
            raise NotationError(f"{name}: unseen fists (?) are the opponent's, in an "
                                "observation that hides their reserve")
        for p in (0, 1):
            self._check_spending(state, p, [c for c in fists if c > 0] if p == hider else [])
        if (state.shown or fists) and pos.occupied.bit_count() == NUM_POINTS:
            raise NotationError(f"{name}: the pyramid is full, so the game is over")
        if state.actions < pos.occupied.bit_count():
            raise NotationError(f"{name}: actions= must count at least the balls placed")
        if hidden and not self._completions(state, 1 - hidden[0])[0]:
            raise NotationError(f"{name}: no hidden reserve fits what this observation shows")

    def _check_spending(self, state: SpringeState, player: int, fists: list[int]) -> None:
        """A player's balls add up: shown + in the fists + in the reserve, and the bag
        holds what its unopened fists allow."""
        name, who = f"{self.info.name} state", self.player_name(player)
        own, red = self.unshown(state, player)
        if own < 0 or red < 0:
            raise NotationError(f"{name}: more balls shown than {who}'s 24")
        reserve = state.reserves[player]
        if reserve is None:
            return
        if reserve[0] > OWN_BALLS or reserve[1] > RED_BALLS:
            raise NotationError(f"{name}: a reserve holds at most {OWN_BALLS} balls of its "
                                f"colour and {RED_BALLS} red")
        bagged_own = own - reserve[0] - fists.count(OWN[player])
        bagged_red = red - reserve[1] - fists.count(RED)
        sure, maybe = state.bag[player]
        if bagged_own < 0 or bagged_red < 0 or not sure <= bagged_own + bagged_red <= sure + maybe:
            raise NotationError(f"{name}: {who}'s reserve, shown balls and bag= do not add "
                                f"up (the bag would hold {bagged_own} {COLOUR_NAMES[OWN[player]]}"
                                f" and {bagged_red} red for {sure}+{maybe} unopened fists)")
        if state.out[player] and sum(reserve):
            raise NotationError(f"{name}: {who} passed for want of balls (out=) but has some")

    def settle(self, state: SpringeState) -> SpringeState:
        """Work out the result of a state read from text."""
        if state.result is not None:
            return state
        pos = state.position
        won = []
        for p in (0, 1):
            mine = pos.mask(OWN[p])
            if any(mine & m == m for m in LINE_MASKS) or \
                    visible_counts(pos)[p] >= NINE or pos.colour_at(APEX) == OWN[p]:
                won.append(p)
        if len(won) > 1:
            raise NotationError("Springe state: both players have a winning position; "
                                "the first to make one would have ended the game")
        if won:
            if state.fists or state.shown or state.to_move != 1 - won[0]:
                raise NotationError("Springe state: the game ended with the winner's "
                                    "placement; the opponent is named to move")
            # Only the last placement can have won, so what holds now is what it made
            # (in placement_win's order: a line, nine visible balls, the apex).
            line = next(p for p in range(NUM_POINTS) if line_of(pos.mask(OWN[won[0]]), p)) \
                if any(pos.mask(OWN[won[0]]) & m == m for m in LINE_MASKS) else APEX
            why = placement_win(pos, line, won[0])
            return dataclasses.replace(state, result=Outcome(
                (won[0],), why, ranking=((won[0],), (1 - won[0],))))
        if not state.fists and not state.shown:
            if pos.occupied.bit_count() == NUM_POINTS:
                return dataclasses.replace(state, result=count_result(pos, "the pyramid is full"))
            if all(r is not None and not sum(r) for r in state.reserves):
                return dataclasses.replace(state, result=count_result(
                    pos, "both reserves are empty"))
        return state


def _fist_words(colour: int) -> str:
    return f"a {COLOUR_NAMES[colour]} ball" if colour > 0 else "nothing"


#: The state fields with a shape of their own: pattern, and how to write them.
_FIELDS = {
    "reserves": (r"W(?:(\d{1,2})R(\d)|\?)/B(?:(\d{1,2})R(\d)|\?)",
                 "W<own>R<red>/B<own>R<red>, like reserves=W16R8/B15R7 (? for hidden)"),
    "fists": (r"([WBR.?]{1,2})", "one or two of W B R . ?, like fists=W. (left, right)"),
    "shown": (r"([WBR])", "the colour of the ball picked: shown=W, B or R"),
    "reds": (r"(\d)/(\d)", "the red balls each player has shown, like reds=1/0"),
    "bag": (r"(\d{1,2})\+(\d{1,2})/(\d{1,2})\+(\d{1,2})",
            "bag=<sure>+<maybe>/<sure>+<maybe>, like bag=1+2/0+0"),
    "out": (r"(W|B|WB)", "the players out of balls: out=W, out=B or out=WB"),
}


__all__ = ["FIST", "MAX_ACTIONS", "NINE", "OWN_BALLS", "RED_BALLS", "UNSEEN", "Springe",
           "SpringeState", "count_result", "hidden_completions", "line_of", "placement_win",
           "visible_counts"]
