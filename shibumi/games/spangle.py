"""Spangle: 4 to 10 players back secret colours; proposals go to a vote; the scarcest colour in the bag wins.

Every player takes a ball of a colour of their choice out of the bag and
keeps it hidden: it is the colour they back.  In turn, each player proposes a
ball (a colour and a playable point, within the placement rules); the others
vote at once, and the proposal is refused when as many players oppose it as
the veto, which then rises by one.  When the pyramid is complete, the colour
with the fewest balls left in the bag wins for everyone who backed it.

A secret choice must not show in the record of play, which everybody sees.
So each player is first dealt, by chance and in secret, the order of three
face-down balls (one of each colour) in three slots, and chooses a slot
(``=1``, ``=2``, ``=3``) in the open: the number tells the others nothing.

>>> from shibumi import load
>>> game = load('spangle')
>>> match = game.new_match(seed=1)
>>> [PERMUTATIONS[k] for k in match.state.keys]  # each seat's slots 1, 2, 3
[(1, 2, 3), (3, 2, 1), (3, 1, 2), (1, 3, 2)]
>>> match.push_joint(['=1', '=3', '=2', '=3'])   # the slots chosen, in the open
>>> match.state.colours                          # white, white, black, black
(1, 1, 1, 2)
>>> game.state_text(game.observe(match.state, 0)).split()[2:]
['colours=W???', 'veto=2', 'actions=1']
>>> match.push('Ba1')                            # Player 1 proposes a black ball on a1
Move('Ba1')
>>> match.push_joint(['pass', '=1', '=1', '=0'])  # two oppose: the veto of 2 is reached
>>> match.state.veto, match.state.position.occupied, match.state.to_move
(3, 0, 1)
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from dataclasses import dataclass

from ..bits import nth_point, pairs_under
from ..errors import IllegalMoveError, NotationError, shown
from ..game import CHANCE, SIMULTANEOUS, TERMINAL, Game, GameInfo, Outcome, State, read_fields
from ..geometry import (BOARD_MASK, FLAT_NEIGHBOURS, NUM_POINTS, SUPPORT_MASK, SUPPORTED,
                        points_of)
from ..notation import CHOOSE, PASS_MOVE, PLACE, Move, transform_move
from ..position import BLACK, COLOUR_LETTERS, COLOUR_NAMES, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, playable_bits

#: Balls of each colour in the set (and in the bag at the start).
PER_COLOUR = 16
COLOURS = (WHITE, BLACK, RED)
#: The orders a player's three face-down balls can be dealt in (slot 1 first).
PERMUTATIONS = tuple(itertools.permutations(COLOURS))
DEALS = tuple(Move.choose(value=k) for k in range(len(PERMUTATIONS)))
#: The running sums ``Game.sample_chance`` compares its draw with, as it adds them.
_DEAL_EDGES = tuple(itertools.accumulate([1 / len(DEALS)] * len(DEALS)))
#: A player's choice of a slot, and so of the colour face down in it.
SLOTS = tuple(Move.choose(value=k) for k in (1, 2, 3))
#: The votes: let the proposal through, or oppose it (raise a hand).
ACCEPT, OPPOSE = Move.choose(value=0), Move.choose(value=1)
#: A key or colour that an observation does not show.
UNSEEN = -1
ALL_FILLED = (1 << NUM_POINTS) - 1
#: Orthogonal neighbours of each point on its own level, as a mask.
FLAT_MASK = tuple(sum(1 << q for q in FLAT_NEIGHBOURS[p]) for p in range(NUM_POINTS))


def first_veto(players: int) -> int:
    """The veto at the start: half the players, rounded up.

    >>> [first_veto(n) for n in (4, 5, 9, 10)]
    [2, 3, 5, 5]
    """
    return (players + 1) // 2


def _level_shifts(start: int, width: int) -> tuple[int, int, int, int]:
    """(first point, width, mask of the level, mask of it without its first
    column) of a level, for :func:`neighbours_of`'s shifts."""
    level = ((1 << width * width) - 1) << start
    first_column = sum(1 << start + width * y for y in range(width))
    return start, width, level, level & ~first_column


#: The levels with more than one point: board, level 1, level 2.
_LEVELS = (_level_shifts(0, 4), _level_shifts(16, 3), _level_shifts(25, 2))
_BOARD_INNER = _LEVELS[0][3]


def neighbours_of(mask: int) -> int:
    """Points orthogonally next to a ball of ``mask`` on the same level.

    Level by level with shifts: one column right (not wrapping into the next
    row's first column), one left (not out of its own first column), a row
    up and a row down.
    """
    near = 0
    for start, width, level, inner in _LEVELS:
        m = mask & level
        if m:
            near |= (m << 1 & inner | (m & inner) >> 1 | m << width | m >> width) & level
    return near


def allowed_points(masks, colour: int, playable: int) -> int:
    """Where the placement rules let a ball of ``colour`` go (before the deadlock rule).

    ``masks`` is indexed by colour.  On the board: next to a ball of the colour
    on the board (orthogonally) when there is such a free hole, else any free
    hole.  Above the board: on a platform holding at least two balls of the
    colour, or next to a ball of the colour on the same level.

    >>> from shibumi.notation import point_name
    >>> pos = Position('..../..../WW../WB..|.../.../...|../..|.')
    >>> masks = (0, pos.white, pos.black, pos.red)
    >>> [point_name(p) for p in points_of(allowed_points(masks, WHITE, pos.playable()))]
    ['e3.0', 'a5', 'c5.0', 'b2']
    >>> [point_name(p) for p in points_of(allowed_points(masks, BLACK, pos.playable()))]
    ['e1']
    """
    mine = masks[colour]
    holes = playable & BOARD_MASK
    m = mine & BOARD_MASK                           # neighbours_of, on the board alone
    near = holes & (m << 1 & _BOARD_INNER | (m & _BOARD_INNER) >> 1 | m << 4 | m >> 4)
    allowed = near or holes
    upper = playable & ~BOARD_MASK
    if upper:
        allowed |= upper & neighbours_of(mine & ~BOARD_MASK)
        while upper:
            low = upper & -upper
            upper ^= low
            if (mine & SUPPORT_MASK[low.bit_length() - 1]).bit_count() >= 2:
                allowed |= low
    return allowed


def proposals_allowed(position: Position, spent: int) -> dict[int, int]:
    """{colour: mask of points} a proposal may name, for each colour the bag still holds.

    ``spent`` is the mask of colours (bit ``c``) the bag has run out of.  When no
    colour in the bag may go anywhere, any of them may go on any playable point.
    """
    masks = (0, position.white, position.black, position.red)
    playable = playable_bits(position.occupied)
    found = {c: allowed_points(masks, c, playable) for c in COLOURS if not spent >> c & 1}
    if not any(found.values()):
        found = {c: playable for c in found}
    return found


def _random_place(near, pairs, spent: int, playable: int, rnd) -> tuple[int, int]:
    """One draw over :meth:`Spangle.legal_moves`' proposals, as (colour, point):
    :func:`allowed_points` of each colour from masks the playout keeps up to date,
    ``near[c]`` (points next to a ball of colour ``c`` on its level) and
    ``pairs[c]`` (platforms on two or more balls of ``c``)."""
    holes = playable & BOARD_MASK
    upper = playable ^ holes
    found, total = [], 0
    for c in COLOURS:
        if not spent >> c & 1:
            mask = (holes & near[c] or holes) | upper & (near[c] | pairs[c])
            found.append((c, mask))
            total += mask.bit_count()
    if not total:                                   # the deadlock rule
        found = [(c, playable) for c, _ in found]
        total = playable.bit_count() * len(found)
    k = int(rnd() * total)
    for c, mask in found:
        n = mask.bit_count()
        if k < n:
            return c, nth_point(mask, k)
        k -= n
    raise AssertionError("no proposal to draw")


def bag_counts(position: Position, colours) -> tuple[int, int, int]:
    """Balls of each colour left in the bag: the set's 16, less the secret balls
    taken at the start, less those placed (exact only when every colour is known)."""
    return tuple(PER_COLOUR - position.count(c) - sum(1 for k in colours if k == c)
                 for c in COLOURS)


def spent_of(counts) -> int:
    """The mask of colours (bit ``c``) with no ball left, from the bag's counts."""
    return sum(1 << c for c, n in zip(COLOURS, counts) if n == 0)


def winning_colours(counts, colours) -> tuple[int, ...]:
    """The colours whose backers win, from the bag's counts and everyone's colour.

    The colour with the fewest balls left wins.  Between colours tied for the
    fewest, the smaller group of backers wins (a colour nobody backed has no
    group and cannot win a tie); groups still tied win together.  A sole
    scarcest colour that nobody backed makes a game without winners.

    >>> winning_colours((3, 3, 5), (WHITE, BLACK, BLACK, RED))
    (1,)
    >>> winning_colours((3, 3, 5), (WHITE, BLACK, RED, RED))
    (1, 2)
    >>> winning_colours((2, 3, 5), (BLACK, BLACK, RED, RED))
    ()
    """
    fewest = min(counts)
    tied = [c for c, n in zip(COLOURS, counts) if n == fewest]
    if len(tied) == 1:
        return tuple(tied) if tied[0] in colours else ()
    sizes = {c: sum(1 for k in colours if k == c) for c in tied}
    groups = [c for c in tied if sizes[c]]
    if not groups:
        return ()
    smallest = min(sizes[c] for c in groups)
    return tuple(c for c in groups if sizes[c] == smallest)


def competition_points(colours, winners) -> tuple[int, ...]:
    """Each player's points for a game of a several-game competition (the
    translator's proposal): the winners score one point per loser, plus three
    when a single group wins and it is smaller than every other group.

    >>> seats = (RED,) * 2 + (BLACK,) * 3 + (WHITE,) * 5
    >>> competition_points(seats, (BLACK,))[2], competition_points(seats, (RED,))[0]
    (7, 11)
    """
    losers = sum(1 for k in colours if k not in winners)
    sizes = {c: sum(1 for k in colours if k == c) for c in COLOURS}
    others = [sizes[c] for c in COLOURS if sizes[c] and c not in winners]
    bonus = 3 if len(winners) == 1 and others and sizes[winners[0]] < min(others) else 0
    return tuple(losers + bonus if k in winners else 0 for k in colours)


@dataclass(frozen=True)
class SpangleState(State):
    """``keys``: while the secret colours are being chosen, the order of each
    player's three face-down balls (an index into ``PERMUTATIONS``, ``UNSEEN``
    in another seat's observation); empty once chosen.  ``colours``: each
    player's secret colour once chosen (``UNSEEN`` when observed by another
    seat).  ``veto``: oppositions that refuse a proposal.  ``proposal``: the
    placement being voted on.  ``spent``: colours the bag has run out of (bit
    ``c``), known to all.  ``actions``: the players' actions so far."""
    keys: tuple[int, ...] = ()
    colours: tuple[int, ...] = ()
    veto: int = 0
    proposal: Move | None = None
    spent: int = 0
    actions: int = 0


@register
class Spangle(Game):
    info = GameInfo(
        name="Spangle", designer="Angelo Nikolaou", year="2011",
        family="Counting", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Each player backs a secret colour; every ball placed is proposed and put "
                "to a vote, and the colour scarcest in the bag at the end wins for its "
                "backers.",
        min_players=4, max_players=10, complexity=2, chance=True,
        hidden_information=True, simultaneous=True, max_length=70)
    parameters = {"players": 4}
    player_names = tuple(f"Player {i}" for i in range(1, 11))

    rules = """\
Spangle is for four to ten players. The board starts empty and the set's 48
balls, 16 of each colour, go into a bag.

Secret colours. Each player looks into the bag, takes out one ball of any
colour they like and keeps it hidden until the end. That colour is the one
they back: they want as many balls of it as possible to leave the bag.

The veto starts at half the number of players, rounded up (2 with four
players, 5 with nine or ten). Player 1 starts; turns go round in order.

A turn. The player whose turn it is proposes a ball: a colour that is still
in the bag and a playable point for it (the placement rules are below).
They may argue for it, and the others may discuss it briefly. Then the
other players vote all at once: those against it raise a hand.

* If at least as many players oppose it as the veto, the proposal is
  refused: nothing is placed, and the veto goes up by one.
* Otherwise the proposer takes a ball of that colour out of the bag and
  places it as proposed.

Either way, the turn passes to the next player. Once the veto is larger
than the number of players who could oppose, proposals are no longer put
to the vote: each one is placed.

Placement rules. A proposal must respect these, for the colour proposed:

* On the board: if the board holds a ball of that colour with a free hole
  next to it (orthogonally, not diagonally), the ball must go in such a
  hole. Otherwise it may go in any free hole.
* Above the board: the ball must go either on a platform with at least two
  balls of its colour among the four, or next to a ball of its colour
  (orthogonally) on the same level.
* If no colour still in the bag has a point it may go to, any colour in
  the bag may go on any playable point.

Nothing is ever removed. The game ends when the thirtieth ball completes
the pyramid. Then the balls left in the bag are counted: the colour with
the fewest wins, and so do all the players who back it. If two or three
colours tie for the fewest, the smaller group of backers wins (a colour
nobody backs has no group); if the groups are as large, they all win. If
the scarcest colour is backed by nobody, nobody wins.

Bluffing is fair: you may vote against your own colour, or against the
player before you just to raise the veto.

How it is played here. To keep a choice secret in a record everyone
sees, each player is dealt, in secret, three face-down balls of the three
colours in slots 1, 2 and 3, and chooses a slot: `=1`, `=2` or `=3`
(only you know which colour your number means). A proposal is a
placement, such as `Ba1`. To vote, write `=1` to oppose and `=0` to let
it through; the proposer writes `pass`.
"""
    notes = """\
Source: Annexe 1 of the French edition of the Shibumi Rule Book, game by
Angelo Nikolaou, 2011. The text has no figures; we found no other public
description of the game and no later ruling.

* The secret ball. Each player takes the ball of their colour out of the
  bag, so the bag holds 48 balls less one per player when play begins, and
  counts at the end are of what is left (the set's 16 of a colour, less the
  secret balls of that colour, less those placed).
* Choosing in secret. The players choose at the same time, each unseen by
  the others. On a shared screen, and in the record of a game, every action
  is written down; so the engine deals each player, by chance and in
  secret, an order of three face-down balls (one per colour) and lets them
  choose a slot in the open. The order is drawn uniformly, so the slot tells
  the others nothing, and the player can still pick any colour: the choice
  is theirs, as in the text.
* Who votes. We read "the players opposed raise a hand" as the other
  players: the proposer is for their own proposal. The veto compares with
  the number of hands raised ("reaches or exceeds").
* The veto rises with every refused proposal and never falls. Once it is
  above the number of voters (players less one), no proposal can be
  refused, so the vote is skipped; this changes nothing but the length of
  the game. So at most half the players, rounded down, proposals are ever
  refused.
* Placement rules. The text gives them in two paragraphs, for the same
  level and for higher levels. We read the first for the board, where
  "anywhere" means any free hole, and the second for the levels above: the
  first ball of a colour on a level needs a platform with two balls of it;
  later ones may also go next to a ball of their colour on that level. The
  text lets a colour with no free place next to its balls go anywhere on
  the board; it gives no such escape above the board, where the platform
  rule is the alternative. "Next to" is orthogonal on the same level, as
  the text says (diagonals do not count).
* A colour the bag has run out of cannot be proposed: the proposer could
  not take a ball of it. Who backs what is secret, but that a colour has
  run out is seen by everyone who reaches into the bag; the engine makes it
  public.
* Deadlock (not in the text). Above the board, a platform always has two
  balls of some colour, but that colour may be gone from the bag. When no
  colour still in the bag may go anywhere, we let any colour in the bag go
  on any playable point, in the spirit of the text's own escape on the
  board. Without it the game could stop before the pyramid is complete.
* Ties. A tie between colours goes to the smaller group of backers; we
  read a colour that nobody backs as having no group, so it never wins a
  tie. When the scarcest colour alone is backed by nobody, the text gives
  the win to its backers, of whom there are none: nobody wins.
* The translator's competition scoring is given as each player's score in
  the outcome: the winners score one point per losing player, plus three
  when a single group wins and is smaller than every other group. We read
  "the only one to be less numerous" so, which fits the example (two Red,
  three Black, five White: Black scores 7, Red 8 + 3 = 11).
* The youngest player starts in the text; here Player 1 starts. The
  minute of debate, and the bag's ethics (take the first ball of the colour
  you see, never count the bag), have no part in the engine.
* What a seat knows. Everyone sees the board, the veto, every vote and which
  colours the bag has run out of; a seat knows its own colour only. The AI
  guesses the others' colours as a fresh choice would give them (each
  colour equally likely) among those that agree with what has run out of
  the bag; it does not read the votes.
* Length: one slot choice, then at most 30 placed and 5 refused proposals
  (with ten players), each proposal with its vote while votes are held. The
  last refusal ends the votes, and the thirtieth ball ends the game, so at
  least one placement goes without a vote: at most 1 + 2 x 29 + 2 x 5 + 1 =
  70 actions (the chance deals do not count).
* State text: `keys=BWR/???/...` (the slot orders, while choosing),
  `colours=WB??` (after), `veto=3`, `vote=Ba1` (the proposal being voted
  on), `spent=W` (colours the bag has run out of) and `actions=12`.
"""

    # -- structure --------------------------------------------------------------
    def initial_state(self, rng: random.Random | None = None) -> SpangleState:
        """The empty board, the full bag; the slot orders are dealt by chance."""
        return SpangleState(veto=first_veto(self.num_players))

    @property
    def voters(self) -> int:
        """Players who may oppose a proposal: all but the proposer."""
        return self.num_players - 1

    def current_player(self, state: SpangleState) -> int:
        if state.result is not None:
            return TERMINAL
        if not state.colours:
            return CHANCE if len(state.keys) < self.num_players else SIMULTANEOUS
        if state.proposal is not None:
            return SIMULTANEOUS
        return state.to_move

    def chance_outcomes(self, state: SpangleState) -> list[tuple[Move, float]]:
        """The next player's slot order, each of the six equally likely."""
        if self.current_player(state) != CHANCE:
            return []
        return [(m, 1 / len(DEALS)) for m in DEALS]

    def legal_moves(self, state: SpangleState, player: int | None = None) -> list[Move]:
        """A proposal (colour and point) for the player to move; at a simultaneous
        node, one seat's choices (a slot, or a vote: ``pass`` for the proposer)."""
        mover = self.current_player(state)
        if mover == SIMULTANEOUS:
            if player is None:
                return []
            if not state.colours:
                return list(SLOTS)
            return [PASS_MOVE] if player == state.to_move else [ACCEPT, OPPOSE]
        if mover < 0 or player not in (None, mover):
            return []
        allowed = proposals_allowed(state.position, state.spent)
        return [PLACE_MOVES[c][p] for c, mask in allowed.items() for p in points_of(mask)]

    def apply(self, state: SpangleState, move: Move) -> SpangleState:
        mover = self.current_player(state)
        name = self.info.name
        if mover == TERMINAL:
            raise IllegalMoveError(f"{name}: the game is over")
        if mover == SIMULTANEOUS:
            raise IllegalMoveError(f"{name}: every player chooses at once; play the "
                                   "choices together (push_joint)")
        if mover == CHANCE:
            if move.kind != CHOOSE or move.value is None or not 0 <= move.value < len(DEALS):
                raise IllegalMoveError(f"{name}: a deal is =0 to =5, not {shown(move.text())}")
            return dataclasses.replace(state, keys=state.keys + (move.value,), last=move)
        allowed = proposals_allowed(state.position, state.spent)
        if move.kind != PLACE or not allowed.get(move.colour, 0) >> move.point & 1:
            raise IllegalMoveError(f"{name}: {shown(move.text())} is not a proposal the "
                                   "placement rules allow (a colour still in the bag on a "
                                   "point open to it)")
        if state.veto > self.voters:                 # nobody could refuse it: no vote
            return self._place(state, move, state.actions + 1)
        return dataclasses.replace(state, proposal=move, last=move, actions=state.actions + 1)

    def apply_joint(self, state: SpangleState, moves) -> SpangleState:
        name, n = self.info.name, self.num_players
        if self.current_player(state) != SIMULTANEOUS:
            raise IllegalMoveError(f"{name}: no secret choice or vote is pending")
        moves = tuple(moves)
        if len(moves) != n:
            raise IllegalMoveError(f"{name}: give one choice per player ({n})")
        for p, move in enumerate(moves):
            if move not in self.legal_moves(state, p):
                raise IllegalMoveError(f"{name}: {shown(move.text())} is not a choice "
                                       f"{self.player_name(p)} can make now")
        if not state.colours:
            colours = tuple(PERMUTATIONS[k][m.value - 1] for k, m in zip(state.keys, moves))
            return dataclasses.replace(state, keys=(), colours=colours, last=None,
                                       actions=state.actions + 1)
        against = sum(1 for m in moves if m is OPPOSE)
        if against >= state.veto:
            return dataclasses.replace(state, to_move=(state.to_move + 1) % n, proposal=None,
                                       veto=state.veto + 1, last=None,
                                       actions=state.actions + 1)
        return self._place(state, state.proposal, state.actions + 1)

    def _place(self, state: SpangleState, move: Move, actions: int) -> SpangleState:
        """The proposal placed: the ball leaves the bag, the turn passes on."""
        position = state.position.place(move.point, move.colour)
        spent = state.spent
        if UNSEEN not in state.colours and not bag_counts(position, state.colours)[move.colour - 1]:
            spent |= 1 << move.colour
        after = SpangleState(position, (state.to_move + 1) % self.num_players, None, move,
                             (), state.colours, state.veto, None, spent, actions)
        return self.settle(after)

    def settle(self, state: SpangleState) -> SpangleState:
        """The result, once the pyramid is complete."""
        if state.position.occupied != ALL_FILLED or state.result is not None:
            return state
        return dataclasses.replace(state, result=self.final_result(state))

    def final_result(self, state: SpangleState) -> Outcome:
        counts = bag_counts(state.position, state.colours)
        winners_c = winning_colours(counts, state.colours)
        winners = tuple(p for p, c in enumerate(state.colours) if c in winners_c)
        losers = tuple(p for p in range(self.num_players) if p not in winners)
        left = ", ".join(f"{n} {COLOUR_NAMES[c]}" for c, n in zip(COLOURS, counts))
        if winners_c:
            what = " and ".join(COLOUR_NAMES[c] for c in winners_c)
            reason = f"{what} won; left in the bag: {left}"
        else:
            reason = f"nobody backed the scarcest colour; left in the bag: {left}"
        return Outcome(winners, reason,
                       scores=tuple(float(s) for s in
                                    competition_points(state.colours, winners_c)),
                       ranking=tuple(g for g in (winners, losers) if g))

    def random_playout(self, state: SpangleState, rng: random.Random) -> SpangleState:
        """The generic loop's games on masks, draw for draw: a deal by
        ``sample_chance``'s odds, one draw per seat at the slot choice and at a
        vote (the proposer's ``pass`` included), one per proposal over
        :meth:`legal_moves`' order."""
        if state.result is not None or UNSEEN in state.colours or UNSEEN in state.keys:
            return Game.random_playout(self, state, rng)
        n, rnd = self.num_players, rng.random
        actions, last, colours = state.actions, state.last, state.colours
        if not colours:
            colours = self._random_colours(state.keys, rnd)
            actions, last = actions + 1, None
        masks = [0, state.position.white, state.position.black, state.position.red]
        bag = list(bag_counts(state.position, colours))
        spent, veto, to_move, proposal = state.spent, state.veto, state.to_move, state.proposal
        voting = proposal is not None                   # a vote already called
        occupied = state.position.occupied
        playable = playable_bits(occupied)
        # allowed_points' parts, kept up to date as balls come (none ever leaves)
        near = [0] + [neighbours_of(m) for m in masks[1:]]
        pairs = [0] + [pairs_under(m) for m in masks[1:]]
        while True:
            if proposal is None:
                if occupied == ALL_FILLED:
                    break
                c, p = _random_place(near, pairs, spent, playable, rnd)
                proposal = PLACE_MOVES[c][p]
                actions += 1
                voting = veto <= self.voters
            if voting:
                actions += 1
                voting = False
                votes = [rnd() for _ in range(n)]          # oppose: index 1 of (=0, =1)
                if sum(r >= 0.5 for r in votes) - (votes[to_move] >= 0.5) >= veto:
                    veto += 1
                    to_move = (to_move + 1) % n
                    proposal, last = None, None
                    continue
            c, p = proposal.colour, proposal.point
            mine = masks[c] = masks[c] | 1 << p
            near[c] |= FLAT_MASK[p]
            occupied |= 1 << p
            playable &= ~(1 << p)
            for q in SUPPORTED[p]:                          # the platforms it completes
                support = SUPPORT_MASK[q]
                if occupied & support == support:
                    playable |= 1 << q
                if (mine & support).bit_count() >= 2:
                    pairs[c] |= 1 << q
            bag[c - 1] -= 1
            if not bag[c - 1]:
                spent |= 1 << c
            to_move = (to_move + 1) % n
            proposal, last = None, proposal
        final = SpangleState(Position.from_masks(masks[1], masks[2], masks[3]), to_move,
                             None, last, (), colours, veto, None, spent, actions)
        return self.settle(final)

    def _random_colours(self, keys: tuple[int, ...], rnd) -> tuple[int, ...]:
        """The rest of the deals (``sample_chance``'s draw), then everyone's slot
        (one draw per seat): the secret colours, as the generic loop picks them."""
        keys = list(keys)
        while len(keys) < self.num_players:
            r = rnd()
            keys.append(next((k for k, edge in enumerate(_DEAL_EDGES) if r < edge),
                             len(DEALS) - 1))
        return tuple(PERMUTATIONS[k][int(rnd() * 3)] for k in keys)

    def length(self, state: SpangleState) -> int:
        """The players' actions so far (the chance deals of slot orders not counted)."""
        return state.actions

    def transform_state(self, state: SpangleState, perm) -> SpangleState:
        return dataclasses.replace(state, position=state.position.transform(perm),
                                   last=transform_move(state.last, perm),
                                   proposal=transform_move(state.proposal, perm))

    def winning_points(self, state: SpangleState) -> int:
        """The balls of the winning colours: each one placed is one fewer in the bag."""
        if state.result is None or not state.result.winners:
            return 0
        won = {state.colours[p] for p in state.result.winners}
        return sum(state.position.mask(c) for c in won)

    # -- hidden information -------------------------------------------------------
    def observe(self, state: SpangleState, player: int) -> SpangleState:
        """The board, the veto, the votes and what has run out of the bag; of the
        secrets only the seat's own slot order and colour.  Everything at the end."""
        if state.result is not None:
            return state
        keys = tuple(k if p == player else UNSEEN for p, k in enumerate(state.keys))
        colours = tuple(c if p == player else UNSEEN for p, c in enumerate(state.colours))
        last = state.last
        if last is not None and last.kind == CHOOSE:     # a deal: nobody else saw it
            last = None
        return dataclasses.replace(state, keys=keys, colours=colours, last=last)

    def determinise(self, observation: SpangleState, player: int,
                    rng: random.Random) -> SpangleState:
        """A full state the observation could come from: the others' slot orders
        drawn uniformly, or their colours drawn as uniform independent choices
        conditioned on which colours the bag has run out of."""
        keys = tuple(rng.randrange(len(DEALS)) if k == UNSEEN else k for k in observation.keys)
        colours = observation.colours
        if UNSEEN in colours:
            colours = self._draw_colours(observation, rng)
        return dataclasses.replace(observation, keys=keys, colours=colours)

    def _draw_colours(self, observation: SpangleState, rng: random.Random) -> tuple[int, ...]:
        unseen = [p for p, c in enumerate(observation.colours) if c == UNSEEN]
        known = [c for c in observation.colours if c != UNSEEN]
        base = bag_counts(observation.position, known)
        m = len(unseen)
        options, weights = [], []
        for k_white in range(m + 1):
            for k_black in range(m + 1 - k_white):
                ks = (k_white, k_black, m - k_white - k_black)
                left = [b - k for b, k in zip(base, ks)]
                if min(left) < 0 or spent_of(left) != observation.spent:
                    continue
                options.append(ks)
                weights.append(math.factorial(m) // math.prod(math.factorial(k) for k in ks))
        if not options:
            raise NotationError(f"{self.info.name}: no choice of colours fits this observation")
        ks = rng.choices(options, weights)[0]
        drawn = [c for c, k in zip(COLOURS, ks) for _ in range(k)]
        rng.shuffle(drawn)
        colours = list(observation.colours)
        for p, c in zip(unseen, drawn):
            colours[p] = c
        return tuple(colours)

    # -- words --------------------------------------------------------------------
    def _seat_of(self, state: SpangleState) -> int | None:
        """The seat an observation belongs to (the one secret it shows), else None."""
        secrets = state.keys or state.colours
        if UNSEEN not in secrets:
            return None
        shown_ = [p for p, k in enumerate(secrets) if k != UNSEEN]
        return shown_[0] if len(shown_) == 1 else None

    def status_lines(self, state: SpangleState) -> list[str]:
        """The seat's own secret (only in its observation), the veto, the vote,
        the colours gone from the bag.  The whole state (seen by no seat) shows
        no secret before the end."""
        name, lines = self.player_name, []
        seat = self._seat_of(state)
        if not state.colours:
            if seat is not None and len(state.keys) == self.num_players:
                order = PERMUTATIONS[state.keys[seat]]
                slots = ", ".join(f"={i} {COLOUR_NAMES[c]}" for i, c in enumerate(order, 1))
                lines.append(f"Choose your secret colour: {slots}. The others see only "
                             "the number.")
            else:
                lines.append("Each player chooses a secret colour.")
            return lines
        if state.result is not None:
            backs = ", ".join(f"{name(p)} {COLOUR_NAMES[c]}" for p, c in enumerate(state.colours))
            lines.append(f"Secret colours: {backs}.")
            counts = bag_counts(state.position, state.colours)
            lines.append("Left in the bag: " + ", ".join(
                f"{n} {COLOUR_NAMES[c]}" for c, n in zip(COLOURS, counts)) + ".")
            return lines
        if seat is not None:
            lines.append(f"Your secret colour: {COLOUR_NAMES[state.colours[seat]]}.")
        if state.veto > self.voters:
            lines.append(f"Veto {state.veto}: more than the {self.voters} possible "
                         "opponents, so proposals are placed without a vote.")
        else:
            lines.append(f"Veto {state.veto}: a proposal is refused when {state.veto} or "
                         "more players oppose it.")
        placed = ", ".join(f"{state.position.count(c)} {COLOUR_NAMES[c]}" for c in COLOURS)
        lines.append(f"Placed so far: {placed}.")
        gone = [COLOUR_NAMES[c] for c in COLOURS if state.spent >> c & 1]
        if gone:
            lines.append(f"The bag has no {' or '.join(gone)} ball left.")
        if state.proposal is not None:
            move = state.proposal
            lines.append(f"{name(state.to_move)} proposes a {COLOUR_NAMES[move.colour]} ball "
                         f"on {move.text()[1:]}. Vote: =1 to oppose it, =0 to let it "
                         "through.")
        return lines

    def describe(self, state: SpangleState) -> str:
        """The board, the last move, and the result (with every secret colour)
        or whose turn it is; the rest is in :meth:`status_lines`, which front
        ends show beside it."""
        lines = [state.position.diagram()]
        if state.last is not None and state.last.kind == PLACE:
            lines.append(f"Last move: {state.last.text()}")
        outcome = self.outcome(state)
        if outcome is not None:
            names = " and ".join(self.player_name(p) for p in outcome.winners)
            backs = ", ".join(f"{self.player_name(p)} {COLOUR_NAMES[c]}"
                              for p, c in enumerate(state.colours))
            lines.append(f"Game over: {names or 'nobody'} won. {outcome.reason}. "
                         f"Secret colours: {backs}.")
        elif self.current_player(state) >= 0:
            lines.append(f"{self.player_name(state.to_move)} to move.")
        return "\n".join(lines)

    # -- text ------------------------------------------------------------------------
    def extra_text(self, state: SpangleState) -> str:
        parts = []
        if state.keys:
            parts.append("keys=" + "/".join(
                "???" if k == UNSEEN else "".join(COLOUR_LETTERS[c] for c in PERMUTATIONS[k])
                for k in state.keys))
        if state.colours:
            parts.append("colours=" + "".join("?" if c == UNSEEN else COLOUR_LETTERS[c]
                                              for c in state.colours))
        parts.append(f"veto={state.veto}")
        if state.proposal is not None:
            parts.append(f"vote={state.proposal.text()}")
        if state.spent:
            parts.append("spent=" + "".join(COLOUR_LETTERS[c] for c in COLOURS
                                            if state.spent >> c & 1))
        if state.actions:
            parts.append(f"actions={state.actions}")
        return " ".join(parts)

    def state_from(self, position: Position, to_move: int, extras: str) -> SpangleState:
        name = self.info.name
        texts, rest = {}, []
        for token in extras.split():
            key, eq, value = token.partition("=")
            if eq and key in ("keys", "colours", "vote", "spent"):
                if key in texts:
                    raise NotationError(f"{name} state field {shown(key)} given twice")
                texts[key] = value
            else:
                rest.append(token)
        fields = read_fields(self, " ".join(rest), numbers=("veto", "actions"))
        keys = self._parse_keys(texts["keys"]) if "keys" in texts else ()
        colours = self._parse_colours(texts["colours"]) if "colours" in texts else ()
        spent = 0
        for ch in texts.get("spent", ""):
            if ch not in "WBR" or spent >> COLOUR_LETTERS.index(ch) & 1:
                raise NotationError(f"{name}: spent= lists colours gone from the bag, "
                                    f"like spent=W, not {shown(texts['spent'])}")
            spent |= 1 << COLOUR_LETTERS.index(ch)
        proposal = None
        if "vote" in texts:
            try:
                proposal = Move(texts["vote"])
            except NotationError:
                proposal = None
            if proposal is None or proposal.kind != PLACE or proposal.colour is None:
                raise NotationError(f"{name}: vote= gives the proposal being voted on, "
                                    f"like vote=Ba1, not {shown(texts['vote'])}")
        state = SpangleState(position, to_move, None, None, keys, colours, fields["veto"],
                             proposal, spent, fields["actions"])
        self._check(state)
        return self.settle(state)

    def _parse_keys(self, text: str) -> tuple[int, ...]:
        parts = text.split("/")
        orders = ["".join(COLOUR_LETTERS[c] for c in perm) for perm in PERMUTATIONS]
        if len(parts) > self.num_players or not all(p in orders or p == "???" for p in parts):
            raise NotationError(f"{self.info.name}: keys= gives each dealt player's slot "
                                f"order (three different letters of W B R, or ???), "
                                f"separated by '/', at most {self.num_players}; got {shown(text)}")
        return tuple(UNSEEN if p == "???" else orders.index(p) for p in parts)

    def _parse_colours(self, text: str) -> tuple[int, ...]:
        if len(text) != self.num_players or set(text) - set("WBR?"):
            raise NotationError(f"{self.info.name}: colours= gives each player's secret "
                                f"colour, one letter of W B R (? unseen) per player, "
                                f"{self.num_players} in all; got {shown(text)}")
        return tuple(UNSEEN if ch == "?" else COLOUR_LETTERS.index(ch) for ch in text)

    def _check(self, state: SpangleState) -> None:
        """Reject states the rules cannot reach; NotationError says why."""
        name, n, pos = f"{self.info.name} state", self.num_players, state.position
        if not pos.is_stable():
            raise NotationError(f"{name}: a ball is not resting on a full platform")
        if not state.colours:
            if pos.occupied or state.proposal or state.spent or state.actions \
                    or state.to_move or state.veto != first_veto(n):
                raise NotationError(f"{name}: before the colours are chosen (colours=) the "
                                    "board is empty and nothing has been played")
            return
        if state.keys:
            raise NotationError(f"{name}: the slot orders (keys=) are gone once the "
                                "colours are chosen")
        if not first_veto(n) <= state.veto <= n:
            raise NotationError(f"{name}: with {n} players the veto is "
                                f"{first_veto(n)} to {n}")
        refused = state.veto - first_veto(n)
        placed = pos.count()
        pending = state.proposal is not None
        if not 1 + placed + 2 * refused + pending <= state.actions \
                <= 1 + 2 * (placed + refused) + pending:
            raise NotationError(f"{name}: actions= must count the slot choice, each "
                                "proposal and each vote held")
        if state.proposal is not None:
            allowed = proposals_allowed(pos, state.spent)
            if state.veto > self.voters or pos.occupied == ALL_FILLED \
                    or not allowed.get(state.proposal.colour, 0) >> state.proposal.point & 1:
                raise NotationError(f"{name}: vote={state.proposal.text()} is not a "
                                    "proposal that can be put to a vote here")
        known = [c for c in state.colours if c != UNSEEN]
        counts = bag_counts(pos, known)
        if min(counts) < 0:
            raise NotationError(f"{name}: more balls of a colour than the set's {PER_COLOUR}")
        if UNSEEN not in state.colours and spent_of(counts) != state.spent:
            raise NotationError(f"{name}: spent= must list exactly the colours with no "
                                "ball left in the bag")
        if any(state.spent >> c & 1 and n_left > n - len(known)
               for c, n_left in zip(COLOURS, counts)):
            raise NotationError(f"{name}: spent= names a colour the unseen players could "
                                "not have emptied")


__all__ = ["ACCEPT", "OPPOSE", "PERMUTATIONS", "PER_COLOUR", "SLOTS", "Spangle",
           "SpangleState", "allowed_points", "bag_counts", "competition_points",
           "first_veto", "proposals_allowed", "winning_colours"]
