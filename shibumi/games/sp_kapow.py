"""SP-Kapow: grow your colour up the pyramid; one bomb each blasts away what it touches.

A turn is either a ball of the mover's colour touching one of their own, or
their single bomb (a red ball) on any playable point.  The bomb then removes,
one action at a time and in the bomber's chosen order, every unpinned ball it
touches; balls above a removed one drop, and the bomb itself may fall onto
new victims.  Blown-away balls leave the game.  When no one can play, the
most visible balls on the highest level decides.

>>> from shibumi import load
>>> m = load('sp-kapow').new_match()
>>> m.push('Ra1')                          # White's bomb lands beside its own c1
Move('Ra1')
>>> [m.move_text(mv) for mv in m.legal_moves()]   # and must blow it away
['xc1']
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from ..bits import (neighbour_tables, next_to, nth_point, points_in, raised, remove_ball,
                    unpinned)
from ..errors import NotationError, shown
from ..game import Game, GameInfo, Outcome, State, read_fields, write_fields
from ..geometry import LEVEL_MASK, SUPPORTED_MASK, TOUCHING_MASK, points_of, transform_mask
from ..notation import PASS_MOVE, Move, parse_point, point_name
from ..position import BLACK, RED, WHITE, Position, hidden_mask
from ..registry import register
from .placement import PLACE_MOVES, REMOVE_MOVES, playable_bits

COLOURS = (WHITE, BLACK)
#: Balls of each colour in a Shibumi set (the French edition's 16 of each).
SET_BALLS = 16
#: The start (the book's figure is lost; see the rules notes): each player has
#: two touching balls in the middle of their own edge of the board.
START = Position(".BB./..../..../.WW.|.../.../...|../..|.")
LEVEL_NAMES = ("board", "level 1", "level 2", "apex")
#: A true bound on a game's actions.  A blown-away ball leaves the game, so
#: each colour is placed at most 14 times (16 less the 2 of the start): 28
#: placements and 2 bombs; a removal takes away one of the at most 34 balls
#: ever put on the pyramid; a pass is followed by a turn of the other player
#: or is the game's last action: 28 + 2 + 34 + (28 + 2 + 1) = 95.
MOST_ACTIONS = 95


def pinned_mask(occupied: int, mask: int) -> int:
    """The balls of ``mask`` that rest under two or more balls (they cannot be removed)."""
    out = 0
    for p in points_of(mask & occupied):
        if (SUPPORTED_MASK[p] & occupied).bit_count() > 1:
            out |= 1 << p
    return out


#: Tables for :func:`shibumi.bits.next_to` over physical contact (a symmetric relation).
_TOUCH_TABLES = neighbour_tables(TOUCHING_MASK)


def touching_own(own: int, playable: int) -> int:
    """The points of ``playable`` touching a ball of ``own``: the points ``p`` with
    ``TOUCHING_MASK[p] & own``, from the union of the contacts of ``own``'s balls."""
    return next_to(own, _TOUCH_TABLES)[0] & playable


def landing(position: Position, bomb: int) -> int:
    """The balls a bomb touches as it lands on ``bomb`` (placed, or fallen)."""
    return TOUCHING_MASK[bomb] & position.occupied


def blast_targets(position: Position, hit: int) -> int:
    """The balls of ``hit`` (touched by the bomb as it landed) removable now (not pinned)."""
    occupied = position.occupied
    return unpinned(hit & occupied, occupied)


def blow(position: Position, bomb: int, hit: int, target: int) -> tuple[Position, int, int, tuple]:
    """Remove ``target``, one of the balls ``hit`` by the bomb at ``bomb``.

    The balls resting on it drop (a ball dropping into the gap was not touched
    by the bomb, so it stays).  When the bomb itself rested on the gap it
    falls and lands again, and what it touches there is hit.  Returns the
    position, the bomb's point, the balls hit and the drops.
    """
    after, drops = position.remove(target)
    hit &= ~(1 << target)
    for source, to in drops:
        if source == bomb:
            bomb = to
            hit = landing(after, bomb)
    return after, bomb, hit, drops


def _placed(position: Position, p: int, colour: int) -> Position:
    """``position.place(p, colour)`` for a legal move, without its checks (the
    move lists give only playable points and the players' colours)."""
    bit = 1 << p
    after = Position.__new__(Position)
    after._set(position.white | bit if colour == WHITE else position.white,
               position.black | bit if colour == BLACK else position.black,
               position.red | bit if colour == RED else position.red)
    return after


def _at_rest(masks: list[int]) -> Position:
    """The position of ``[white, black, red]`` masks the rules produced (disjoint,
    stable), without ``Position.from_masks``' checks."""
    position = Position.__new__(Position)
    position._set(masks[0], masks[1], masks[2])
    return position


def visible_counts(position: Position) -> tuple[tuple[int, int], ...]:
    """(white, black) visible balls on each level, apex first."""
    seen = position.occupied & ~hidden_mask(position.occupied)
    return tuple(((position.white & seen & LEVEL_MASK[lv]).bit_count(),
                  (position.black & seen & LEVEL_MASK[lv]).bit_count())
                 for lv in (3, 2, 1, 0))


@dataclass(frozen=True)
class KapowState(State):
    bombs: tuple[bool, bool] = (True, True)
    """Whether White and Black still hold their bomb."""
    blast: int | None = None
    """Point of the bomb going off (its bomber is to move), else None."""
    hit: int = 0
    """The balls the bomb going off touched when it last landed, still to blow away."""
    passed: bool = False
    """The previous turn was a pass (a second pass in a row ends the game)."""
    actions: int = 0
    """Actions played so far (the game's length)."""
    lost: tuple[int, int] = (0, 0)
    """White and black balls blown away: out of the game for good."""


@register
class SPKapow(Game):
    info = GameInfo(
        name="SP-Kapow", designer="Emil Danielsen", year="2020",
        family="Counting", source="Annexe 2 of the French edition of the Shibumi Rule Book",
        summary="Build your colour upwards touching your own balls; one bomb each blows "
                "away what it touches; the most balls highest up wins.",
        complexity=2, aliases=("kapow", "sp_kapow"), max_length=MOST_ACTIONS)
    symmetries = (0, 4)       # the start is only symmetric left-right

    rules = """\
White and Black each own the sixteen balls of their colour and one red ball,
their bomb. The game starts with two white balls on c1 and e1 and two black
balls on c7 and e7; White moves first.

On your turn, do one of two things:

1. Place a ball of your colour on a playable point where it touches a ball
   of your colour (on its level, below it or above it).
2. Play your bomb, once per game, on any playable point. It blows away,
   one at a time and in the order you choose, every ball it touched as it
   landed that is not pinned (resting under two or more balls): white,
   black or an old bomb alike. The balls resting on a removed ball drop into
   the gap, and a ball dropping next to the bomb is spared, as the bomb did
   not touch it. If the bomb itself rested on the removed ball it falls, and
   the balls it touches where it lands are blown away next, instead of those
   it has left. When nothing it touched can be removed, the bomb stays on
   the pyramid as a plain red ball and the turn ends.

Blown-away balls leave the game: they are not given back, so every ball
the bomb takes is one its owner can never place again. A player who can do
neither (no bomb, and no ball in hand or no point touching their colour) passes
(a player who can still do something must do it). When both pass in turn,
the game is over: the player with more visible balls on the highest level
wins; a tie there is broken by the level below, and so on down to the board.
A tie on every level is a draw.
"""
    notes = """\
* The start is our own design: the rule book's figure of the four starting
  balls is lost and no other description was found. Each player gets two
  touching balls in the middle of their own edge of the board (White c1 and
  e1, Black c7 and e7), a mirror image of each other. We checked the choice
  by computation: random games from it are even (White won 510 and Black
  490 of 1,000), MCTS against MCTS (150 iterations a move, 12 games) won 7
  for White and 5 for Black (the tests keep both checks), and both of the text's
  examples happen in games from it. A start of four separate corner balls
  or a centre checkerboard was as even, but the centre one lets the first
  player climb at once, and corners give little to do early.
* "The bomb removes the unpinned balls it touches, in the order it touches
  them; if it touches several at once, the bomber chooses" is read as: the
  balls touched when the bomb lands are blown away in the bomber's order,
  one removal per action; a ball dropping into a gap is not touched by the
  bomb and stays; when the bomb falls into a gap it lands again, and what
  it touches there (and only that) is hit next. This is the reading that
  fits the text's example, where a black bomb removes five white balls and
  a black ball drops and stays on the pyramid: a ball dropping into a gap is
  always beside the bomb, so a bomb that swept up everything beside it would
  have removed the black ball too. The tests rebuild that example in a game.
* A ball pinned when its turn would come stays; it goes if later removals
  unpin it before the blast ends (the blast ends only when nothing it hit
  can be removed).
* "Touching" is physical contact; a ball placed fresh is never hidden and no
  pair above can cut its contacts, so this is the same as a visible link.
  Red balls (played bombs) count for neither player and help no placement.
* Blown-away balls leave the game for good (the text says the bomb
  "removes" them and that Black "eliminates" five white balls, and does not
  say they come back). The text's final example decides the reading: Black,
  with no placement left, had to bomb its own balls, then levels 2 and 1
  were tied and Black won on the board with 6 visible balls to 5. If removed
  balls went back to their owners, that ending could not happen: nobody
  could then hold all sixteen balls of a colour in such a position (White
  has at most 5 + 4 hidden + 4 + 2 = 15; Black 16 only with level 2 full,
  when White could still play on the apex), so at the end every playable
  point would touch no white or black ball, only the two bombs; a count of
  every stack shows that, with the text's numbers, this leaves only full
  pyramids with a red apex, and a bomb on the apex always blows away a
  level-2 ball and falls. With balls leaving the game, players run out, the
  apex often stays empty, and the text's ending happens in a real game
  (the tests and the chapter rebuild it). A player's hand is the sixteen of
  a set less the balls on the pyramid and those blown away.
* Who starts is not said; White does.
* The final count uses visible balls: the text's last example decides on the
  board by "visible" balls, 6 to 5, and we count every level the same way
  (only the middle of level 1 under the apex and the middle board holes under
  level 2 can be hidden). The apex is the highest level: owning it wins.
* A pass is a move of its own (`pass`). When a player passes and the other
  cannot play either, the second pass is forced, so the game ends there.
* The game's length bound counts every action: 95 (see the module).
"""

    # -- turns -----------------------------------------------------------
    def initial_state(self, rng=None) -> KapowState:
        return KapowState(position=START)

    def length(self, state) -> int:
        return state.actions

    def reserve(self, state, player: int) -> int:
        """Balls the player still has in hand: the set less those on the pyramid
        and those blown away."""
        return SET_BALLS - state.position.count(COLOURS[player]) - state.lost[player]

    def placements(self, state, player: int) -> int:
        """Playable points where the player's colour touches a ball of its own."""
        position = state.position
        own = position.white if player == 0 else position.black
        if SET_BALLS - own.bit_count() - state.lost[player] == 0:
            return 0
        return touching_own(own, playable_bits(position.occupied))

    def legal_moves(self, state, player=None) -> list[Move]:
        if state.result is not None:
            return []
        occupied = state.position.occupied
        if state.blast is not None:
            return [REMOVE_MOVES[p] for p in points_in(unpinned(state.hit & occupied,
                                                                occupied))]
        mover = state.to_move
        row = PLACE_MOVES[COLOURS[mover]]
        moves = [row[p] for p in points_in(self.placements(state, mover))]
        if state.bombs[mover]:
            row = PLACE_MOVES[RED]
            moves += [row[p] for p in points_in(playable_bits(occupied))]
        return moves or [PASS_MOVE]

    def apply(self, state, move) -> KapowState:
        mover, n, lost = state.to_move, state.actions + 1, state.lost
        if move is PASS_MOVE:
            return self.settle(KapowState(state.position, 1 - mover, None, move,
                                          state.bombs, None, 0, True, n, lost))
        if move.kind == "remove":
            colour = state.position.colour_at(move.point)
            lost = tuple(k + (COLOURS[p] == colour) for p, k in enumerate(lost))
            position, bomb, hit, _ = blow(state.position, state.blast, state.hit, move.point)
            return self.after_blast(KapowState(position, mover, None, move, state.bombs,
                                               bomb, hit, False, n, lost))
        position = _placed(state.position, move.point, move.colour)
        if move.colour == RED:
            bombs = tuple(b and p != mover for p, b in enumerate(state.bombs))
            return self.after_blast(KapowState(position, mover, None, move, bombs,
                                               move.point, landing(position, move.point),
                                               False, n, lost))
        return KapowState(position, 1 - mover, None, move, state.bombs, None, 0, False, n,
                          lost)

    def after_blast(self, state) -> KapowState:
        """Hand the turn over once the bomb touches nothing it can remove."""
        if blast_targets(state.position, state.hit):
            return state
        return KapowState(state.position, 1 - state.to_move, state.result, state.last,
                          state.bombs, None, 0, state.passed, state.actions, state.lost)

    def random_playout(self, state, rng: random.Random) -> KapowState:
        """Same games as the generic loop (the moves of ``legal_moves`` in its
        order, one draw per action, a lone pass included), on raw masks: a
        blast's victims from ``unpinned``, removals by ``remove_ball``, and
        placements on the playable points among those touching the mover's
        balls, a mask kept up to date as balls are placed (built again after
        a blast, which moves balls).  The game ends, as in ``settle``, at a
        pass after which the other player cannot play either."""
        if state.result is not None:
            return state
        rnd, pos = rng.random, state.position
        masks = [pos.white, pos.black, pos.red]          # the colours of players 0, 1; red
        occ, mover, n = pos.occupied, state.to_move, state.actions
        bombs, lost, blast, hit = list(state.bombs), list(state.lost), state.blast, state.hit
        # Balls in hand: a removal takes one off the pyramid and counts it lost,
        # so only placements change them.
        left = [SET_BALLS - masks[0].bit_count() - lost[0],
                SET_BALLS - masks[1].bit_count() - lost[1]]
        near = [next_to(masks[0], _TOUCH_TABLES)[0], next_to(masks[1], _TOUCH_TABLES)[0]]
        playable = playable_bits(occ)               # kept up to date by placements
        # The game ends on a pass, so the moves played need no Move objects.
        while True:
            if blast is not None:
                # The bomber blows away one of the unpinned balls the bomb touched.
                victims = unpinned(hit & occ, occ)
                p = nth_point(victims, int(rnd() * victims.bit_count()))
                bit = 1 << p
                if not masks[2] & bit:
                    lost[0 if masks[0] & bit else 1] += 1
                occ, column = remove_ball(masks, occ, p)
                hit &= ~bit
                if column >> blast & 1:
                    # The column drops one place: the bomb lands on the highest
                    # point of the chain below it (the chain climbs in index).
                    below = column & (1 << blast) - 1
                    blast = below.bit_length() - 1 if below else p
                    hit = TOUCHING_MASK[blast] & occ
                n += 1
                if not unpinned(hit & occ, occ):
                    blast, hit, mover = None, 0, 1 - mover
                    near = [next_to(masks[0], _TOUCH_TABLES)[0],
                            next_to(masks[1], _TOUCH_TABLES)[0]]
                    playable = playable_bits(occ)
                continue
            mine = near[mover] & playable if left[mover] else 0
            count = mine.bit_count()
            total = count + playable.bit_count() if bombs[mover] else count
            if not total:
                rnd()                           # the draw that picks the lone pass
                other = 1 - mover
                if not (bombs[other] and playable or left[other] and near[other] & playable):
                    # Neither can play: the pass ends the game (as ``settle`` has it).
                    position = _at_rest(masks)
                    return KapowState(position, other, self.score(
                        position, "neither player can play"), PASS_MOVE, tuple(bombs),
                        None, 0, True, n + 1, tuple(lost))
                n, mover = n + 1, other
                continue
            k = int(rnd() * total)
            n += 1
            if k < count:
                p = nth_point(mine, k)
                masks[mover] |= 1 << p
                playable ^= 1 << p | raised(occ, p)
                occ |= 1 << p
                left[mover] -= 1
                near[mover] |= TOUCHING_MASK[p]
                mover = 1 - mover
                continue
            p = nth_point(playable, k - count)
            masks[2] |= 1 << p
            playable ^= 1 << p | raised(occ, p)
            occ |= 1 << p
            bombs[mover] = False
            hit = TOUCHING_MASK[p] & occ
            if unpinned(hit, occ):
                blast = p
            else:
                hit, mover = 0, 1 - mover

    # -- the end -------------------------------------------------------------
    def score(self, position: Position, reason: str) -> Outcome:
        counts = visible_counts(position)
        white = sum(w for w, _ in counts)
        black = sum(b for _, b in counts)
        for level, (w, b) in zip((3, 2, 1, 0), counts):
            if w != b:
                winner = 0 if w > b else 1
                how = (f"{self.player_name(winner)} has more visible balls on the "
                       f"{LEVEL_NAMES[level]}, {max(w, b)} to {min(w, b)}")
                return Outcome((winner,), f"{reason}; {how}", (float(white), float(black)),
                               ((winner,), (1 - winner,)))
        return Outcome((), f"{reason}; every level is tied", (float(white), float(black)),
                       ((0, 1),))

    def deciding_level(self, position: Position) -> int | None:
        for level, (w, b) in zip((3, 2, 1, 0), visible_counts(position)):
            if w != b:
                return level
        return None

    def winning_points(self, state) -> int:
        """The winner's visible balls on the level that decided."""
        if state.result is None or len(state.result.winners) != 1:
            return 0
        level = self.deciding_level(state.position)
        pos = state.position
        seen = pos.occupied & ~hidden_mask(pos.occupied)
        return pos.mask(COLOURS[state.result.winners[0]]) & seen & LEVEL_MASK[level]

    def status_lines(self, state) -> list[str]:
        lines = []
        for player in (0, 1):
            left, gone = self.reserve(state, player), state.lost[player]
            bomb = "bomb in hand" if state.bombs[player] else "bomb used"
            lines.append(f"{self.player_name(player)}: {left} ball{'s' * (left != 1)} "
                         f"in hand" + (f" ({gone} blown away)" if gone else "")
                         + f", {bomb}.")
        if state.result is None:
            if state.blast is not None:
                lines.append(f"The bomb on {point_name(state.blast)} is going off: "
                             f"{self.player_name(state.to_move)} removes a ball it touches.")
            elif state.passed:
                lines.append(f"{self.player_name(1 - state.to_move)} passed.")
        return lines

    # -- text and symmetry ------------------------------------------------------
    def transform_state(self, state, perm):
        image = super().transform_state(state, perm)
        return image if state.blast is None else dataclasses.replace(
            image, blast=perm[state.blast], hit=transform_mask(state.hit, perm))

    def extra_text(self, state) -> str:
        return write_fields(white_bomb=state.bombs[0], black_bomb=state.bombs[1],
                            blast=None if state.blast is None else ("point", state.blast),
                            passed=state.passed, n=state.actions,
                            white_lost=state.lost[0] or None,
                            black_lost=state.lost[1] or None) + (
            "" if state.blast is None else
            " hit=" + ",".join(point_name(p) for p in points_of(state.hit)))

    def state_from(self, position, to_move, extras) -> KapowState:
        tokens = extras.split()
        hits = [tok for tok in tokens if tok.startswith("hit=")]
        if len(hits) > 1:
            raise NotationError(f"SP-Kapow state field 'hit' given twice")
        hit = 0
        for name in hits[0][4:].split(",") if hits and hits[0] != "hit=" else []:
            hit |= 1 << parse_point(name)
        f = read_fields(self, " ".join(tok for tok in tokens if not tok.startswith("hit=")),
                        numbers=("n", "white_lost", "black_lost"), points=("blast",),
                        flags=("white_bomb", "black_bomb", "passed"))
        bombs = (f["white_bomb"], f["black_bomb"])
        lost = (f["white_lost"], f["black_lost"])
        blast = f["blast"]
        where = f"SP-Kapow state {shown(position.text() + ' ' + extras)}"
        for colour, gone in zip(COLOURS, lost):
            if position.count(colour) + gone > SET_BALLS:
                raise NotationError(f"{where}: a set has only {SET_BALLS} balls of a colour, "
                                    "counting those on the pyramid and those blown away")
        if position.count(RED) > 2 - sum(bombs):
            raise NotationError(f"{where}: {position.count(RED)} red balls, but only "
                                f"{2 - sum(bombs)} bomb{'s' * (sum(bombs) != 1)} played")
        if blast is not None:
            if position.colour_at(blast) != RED or bombs[to_move] or f["passed"]:
                raise NotationError(f"{where}: blast= names the red bomb going off, played "
                                    "by the player to move, who has not just passed")
            if hit & ~landing(position, blast) or not blast_targets(position, hit):
                raise NotationError(f"{where}: hit= names the balls the bomb on "
                                    f"{point_name(blast)} touched and may still remove, "
                                    "at least one of them unpinned")
        elif hits:
            raise NotationError(f"{where}: hit= is only given while a bomb goes off")
        state = KapowState(position, to_move, None, None, bombs, blast, hit, f["passed"],
                           f["n"], lost)
        return self.settle(state)

    def can_play(self, state) -> bool:
        return bool(state.bombs[state.to_move] and playable_bits(state.position.occupied)
                    or self.placements(state, state.to_move))

    def settle(self, state) -> KapowState:
        """After a pass: if the other player cannot play either, their pass is
        forced and ends the game, so it ends here."""
        if state.passed and state.result is None and not self.can_play(state):
            return dataclasses.replace(state, result=self.score(
                state.position, "neither player can play"))
        return state
