"""Sensei: carry your character across a 7x7 grid by passing it between your stones.

A companion game, not played on the pyramid: the board is
:func:`shibumi.grid.grid` (7x7).  Each player has seven stones on their
nearest rank and a character on the middle one.  A turn is one to three
actions by the same player, in any order: up to two stone moves and one
move of the character from stone to stone; ``pass`` ends a turn early.

>>> from shibumi import load
>>> match = load('sensei').new_match()
>>> match.push('c1-c2'), match.push('d1-c2')     # a stone steps up, the character follows
(Move('c1-c2'), Move('d1-c2'))
>>> match.push('pass')
Move('pass')
>>> print(match.state.position.diagram())
 7 B  B  B  B* B  B  B
 6 .  .  .  .  .  .  .
 5 .  .  .  .  .  .  .
 4 .  .  .  .  .  .  .
 3 .  .  .  .  .  .  .
 2 .  .  W* .  .  .  .
 1 W  W  .  W  W  W  W
   a  b  c  d  e  f  g
>>> match.state.to_move          # the pass ended White's turn
1
"""

from __future__ import annotations

import dataclasses
import random
from bisect import insort
from dataclasses import dataclass
from functools import lru_cache

from ..errors import NotationError, UnknownGameError, shown
from ..game import Game, GameInfo, Outcome, State, read_fields, write_fields
from ..grid import GridPosition, grid
from ..notation import MOVE, PASS, Move
from ..registry import register

BOARD = grid(7)
N = 7
ALL = BOARD.all_mask
FILE_A, FILE_G = BOARD.file_masks[0], BOARD.file_masks[N - 1]
#: Each player's starting rank (White: rank 1, Black: rank 7) and goal (the other).
HOME = (BOARD.rank_masks[0], BOARD.rank_masks[N - 1])
GOAL = (HOME[1], HOME[0])
MODES = ("shizukana", "arashi")
STARTS = ("standard", "variant", "expert")
#: Stone moves a turn may hold, and the longest game the turn_limit may allow.
STONE_MOVES = 2
MOST_TURNS = 300
#: Contacts with the blocking line that win by anti-game.
CONTACTS = 3


def _cells(*names: str) -> int:
    mask = 0
    for name in names:
        mask |= 1 << BOARD.parse_point(name)
    return mask


#: The chasms of the Arashi-Expert board (its figure is lost: our design, an X
#: in the middle, the same under every symmetry of the square).
EXPERT_CHASMS = _cells("c3", "e3", "d4", "c5", "e5")
#: The variant start (figure lost: our design): each player's stones on b and f
#: stand on the opponent's starting rank.
VARIANT_VISITORS = (_cells("b7", "f7"), _cells("b1", "f1"))
D1, D7 = BOARD.parse_point("d1"), BOARD.parse_point("d7")
#: Every from-to action as a move, made once: ``MOVES[p][q]`` (stones and character).
MOVES = tuple(tuple(Move.make(MOVE, p, None, q, board=BOARD) if p != q else None
                    for q in range(N * N)) for p in range(N * N))
END_TURN = Move.make(PASS, board=BOARD)


def _position(white: int, black: int, characters: int, chasms: int) -> GridPosition:
    """``GridPosition(BOARD, (white, black), characters=..., chasms=...)`` without
    its checks, for masks the rules made (the search and the playouts build one
    an action)."""
    position = GridPosition.__new__(GridPosition)
    for name, value in (("grid", BOARD), ("stones", (0, white, black)), ("pawns", (0, 0, 0)),
                        ("characters", characters), ("chasms", chasms),
                        ("occupied", white | black)):
        object.__setattr__(position, name, value)
    return position


def start_position(start: str) -> GridPosition:
    white, black = HOME
    chasms = EXPERT_CHASMS if start == "expert" else 0
    if start == "variant":
        white = (white & ~VARIANT_VISITORS[1]) | VARIANT_VISITORS[0]
        black = (black & ~VARIANT_VISITORS[0]) | VARIANT_VISITORS[1]
    return GridPosition(BOARD, (white, black), characters=(1 << D1) | (1 << D7), chasms=chasms)


def _spread(mask: int) -> int:
    """The cells orthogonally next to a mask's cells."""
    return (((mask << N) | (mask >> N)) & ALL) | ((mask & ~FILE_G) << 1) \
        | ((mask & ~FILE_A) >> 1)


def reachable(sources: int, free: int) -> int:
    """Cells reached from ``sources`` by orthogonal steps through ``free`` cells."""
    reach = sources
    while True:
        grown = reach | (_spread(reach) & free)
        if grown == reach:
            return reach
        reach = grown


def blocked(position: GridPosition, player: int) -> bool:
    """Is the player walled off: can no stone of theirs walk, step by step along
    rows and columns, past the opponent's stones and the chasms to the goal rank?"""
    return walled(position.stones[player + 1], position.stones[2 - player], position.chasms,
                  player)


def contacts(position: GridPosition, player: int) -> int:
    """The player's stones face to face (orthogonally next) with an opponent's stone."""
    return position.stones[player + 1] & _spread(position.stones[2 - player])


#: Steps up the ranks, toward White's goal, and down, toward Black's: the quick
#: first look of :func:`walled` (a stone with a clear file ahead is not walled).
_AHEAD = ((N, 2 * N, 4 * N), (-N, -2 * N, -4 * N))


def walled(own: int, other: int, chasms: int, player: int) -> bool:
    """:func:`blocked` on masks: first the files straight ahead of the player's stones
    (the usual answer), then the full walk along rows and columns."""
    free = ALL & ~other & ~chasms
    gen, pro = own, free
    for step in _AHEAD[player]:
        if step > 0:
            gen |= pro & (gen << step)
            pro &= pro << step
        else:
            gen |= pro & (gen >> -step)
            pro &= pro >> -step
    if gen & GOAL[player]:
        return False
    return not reachable(own, free) & GOAL[player]


def _file_ahead(p: int, player: int) -> int:
    rank, file = divmod(p, N)
    span = range(rank + 1, N) if player == 0 else range(rank)
    return sum(1 << (r * N + file) for r in span)


#: FILE_AHEAD[player][p]: the cells of p's file beyond p toward the player's goal.
FILE_AHEAD = tuple(tuple(_file_ahead(p, player) for p in range(N * N)) for player in (0, 1))


def _watch(watch: list, player: int, own: int, blockers: int) -> int:
    """Look for a stone of the player with none of ``blockers`` on its file ahead:
    while it stands and the file stays clear, the player is not walled off.  Kept
    in ``watch[player]`` (its bit, 0 for none) and ``watch[player + 2]`` (its file
    ahead, returned; -1 for none: the player may be walled).

    The stone nearest the goal is taken (the shorter its file, the likelier it
    stays clear).  The cells with a blocker ahead are the blockers' shadow down
    their files, cast by shifts doubling in length."""
    if player == 0:                          # White looks up the ranks
        shadow = blockers | blockers >> N
        shadow |= shadow >> 2 * N
        shadow |= shadow >> 4 * N
        clear = own & ~(shadow >> N)
        bit = 1 << clear.bit_length() - 1 if clear else 0
    else:
        shadow = blockers | blockers << N
        shadow |= shadow << 2 * N
        shadow |= shadow << 4 * N
        clear = own & ~(shadow << N)
        bit = clear & -clear
    if bit:
        ahead = FILE_AHEAD[player][bit.bit_length() - 1]
        watch[player], watch[player + 2] = bit, ahead
        return ahead
    watch[player], watch[player + 2] = 0, -1
    return -1


def verdict(stones, characters: int, chasms: int, mover: int) -> tuple[int, bool] | None:
    """The end after an action by ``mover``, on masks: (winner, True) for a character
    home, (winner, False) for anti-game, else None (see :meth:`Sensei.judge`)."""
    for player in (mover, 1 - mover):
        if characters & stones[player] & GOAL[player]:
            return player, True
    for player in (1 - mover, mover):
        own, other = stones[player], stones[1 - player]
        if (own & _spread(other)).bit_count() >= CONTACTS \
                and walled(own, other, chasms, player):
            return player, False
    return None


@dataclass(frozen=True)
class SenseiState(State):
    """``moves``: stone moves made this turn (0-2); ``carried``: the character
    has moved this turn; ``turn``: turns finished; ``played``: actions so far
    (passes included)."""
    moves: int = 0
    carried: bool = False
    turn: int = 0
    played: int = 0


def _ray_mask(ray) -> int:
    mask = 0
    for q in ray:
        mask |= 1 << q
    return mask


_ROOK = ((0, 1), (1, 0), (0, -1), (-1, 0))
#: LINES[p]: the cells along the rows and columns through p (stone moves look there).
LINES = tuple(sum(_ray_mask(BOARD.rays[p][d]) for d in _ROOK) for p in range(N * N))
#: NEXT[p]: the cells orthogonally next to p (a Shizukana stone looks there).
NEXT = tuple(sum(_ray_mask(BOARD.rays[p][d][:1]) for d in _ROOK) for p in range(N * N))
#: QUEEN_RAYS[p]: per direction of the character's moves, in the rules' order, (the
#: ray's cells as a mask, whether they run to higher numbers, the cells nearest first).
QUEEN_RAYS = tuple(tuple((_ray_mask(ray), ray[0] > p, ray) for ray in BOARD.rays[p].values()
                         if ray) for p in range(N * N))


def _stone_targets(p: int, stop: int, slide: bool) -> tuple[int, ...]:
    out = []
    for d in _ROOK:
        for q in BOARD.rays[p][d]:
            if stop >> q & 1:
                break
            out.append(q)
            if not slide:
                break
    return tuple(out)


class TargetTable:
    """The stone moves from each cell, by the stops around it: ``get(p, stop)`` is
    the moves of :func:`stone_targets` (as ``MOVES[p][q]``, in its order), worked
    out once per pattern of stopping cells on the stone's lines (at most 4,096 a
    cell) and then looked up."""

    def __init__(self, slide: bool) -> None:
        self.slide = slide
        self.near = LINES if slide else NEXT
        self.known: tuple[dict, ...] = tuple({} for _ in range(N * N))

    def get(self, p: int, stop: int) -> tuple[Move, ...]:
        key = stop & self.near[p]
        found = self.known[p].get(key)
        if found is None:
            row = MOVES[p]
            found = self.known[p][key] = tuple(row[q] for q in
                                               _stone_targets(p, key, self.slide))
        return found


#: The shared tables of the two modes.
TARGETS = {True: TargetTable(True), False: TargetTable(False)}

#: The playout sees the board in four copies, one per direction of a stone move in
#: the rules' order (north, east, south, west), each turned so that its direction
#: runs along a row toward higher bits: east as it is, west mirrored, north and
#: south transposed.  A copy's rows are 8 bits, the last always clear, and copies
#: stand 64 bits apart.  Then ``empty + (stones << 1)`` carries through each run of
#: empty cells in front of a stone and stops at the clear bit that ends it, so
#: ``empty & ~(empty + (stones << 1))`` is every slide of every stone at once, each
#: stone's moves in the order of ``legal_moves`` (copy by copy, nearest first).
LANE, ROW = 64, 8


def _lanes(p: int) -> int:
    rank, file = divmod(p, N)
    last = N - 1
    places = (ROW * file + rank, ROW * rank + file,                 # north, east
              ROW * file + last - rank, ROW * rank + last - file)   # south, west
    return sum(1 << (LANE * i + place) for i, place in enumerate(places))


#: LANES[p]: cell p in the four copies; FRONT[p]: the cells in front of p there.
LANES = tuple(_lanes(p) for p in range(N * N))
FRONT = tuple(lanes << 1 for lanes in LANES)
#: The four copies' masks, in order.
LANE_MASKS = tuple(((1 << LANE) - 1) << (LANE * i) for i in range(4))
ALL_LANES = sum(LANES)


#: The character's sight the same way, in eight copies in the order of its rays
#: (north, east, south, west, north-east, south-east, south-west, north-west): the
#: four above, then the diagonals as rows of 8 bits (13 of them; copies 104 bits
#: apart).  With ``open`` every cell but the opponent's stones, ``open & ~(open +
#: (character << 1))`` is all it sees, and its targets come copy by copy, nearest
#: first, as the bits of a mask do: the k-th target is the k-th bit.
DIAGONAL = 13 * ROW


def _sight_lanes(p: int) -> int:
    rank, file = divmod(p, N)
    last = N - 1
    up, down = file - rank + last, file + rank                      # its diagonals' rows
    places = (ROW * up + rank, ROW * down + file,                   # north-east, south-east
              ROW * up + last - rank, ROW * down + last - file)     # south-west, north-west
    return _lanes(p) + sum(1 << (4 * LANE + DIAGONAL * i + place)
                           for i, place in enumerate(places))


#: SIGHT_LANES[p]: cell p in the eight copies; SIGHT_CELL[i]: the cell of bit i.
SIGHT_LANES = tuple(_sight_lanes(p) for p in range(N * N))
SIGHT_CELL = [None] * (4 * LANE + 4 * DIAGONAL)
for _p, _mask in enumerate(SIGHT_LANES):
    while _mask:
        SIGHT_CELL[(_mask & -_mask).bit_length() - 1] = _p
        _mask &= _mask - 1
SIGHT_CELL = tuple(SIGHT_CELL)
ALL_SIGHT = sum(SIGHT_LANES)


# A playout starts by putting its position in the copies: cached, as the searches
# start many playouts from the same few sets of stones.
@lru_cache(maxsize=1 << 12)
def _cells_of(mask: int) -> tuple[int, ...]:
    """The cells of a mask, in order."""
    cells = []
    while mask:
        cells.append((mask & -mask).bit_length() - 1)
        mask &= mask - 1
    return tuple(cells)


@lru_cache(maxsize=1 << 12)
def _in_lanes(mask: int) -> int:
    return sum(LANES[p] for p in _cells_of(mask))


@lru_cache(maxsize=1 << 12)
def _in_sight_lanes(mask: int) -> int:
    return sum(SIGHT_LANES[p] for p in _cells_of(mask))


#: Each player's goal rank in the copies of SIGHT_LANES: the character's winning targets.
GOAL_SIGHT = (_in_sight_lanes(GOAL[0]), _in_sight_lanes(GOAL[1]))


def stone_targets(position: GridPosition, p: int, slide: bool) -> list[int]:
    """Where the stone on p may go: along a row or column, stopped by any stone
    and by chasms (not over them), any distance when ``slide`` else one cell."""
    return [m.target for m in TARGETS[slide].get(p, position.occupied | position.chasms)]


#: QUEEN[p]: every cell on a line (row, column, diagonal) through p.
QUEEN = tuple(sum(mask for mask, _, _ in rays) for rays in QUEEN_RAYS)
#: Most patterns the character's sight cache holds before it starts afresh.
SIGHT_CACHE_SIZE = 200_000
_SIGHT: dict[int, int] = {}


def _visible(at: int, other: int) -> int:
    """The cells a character on ``at`` sees: along each line, those before the first
    opponent stone (cached by the opponent stones on its lines, which recur)."""
    key = at | (other & QUEEN[at]) << 6
    seen = _SIGHT.get(key)
    if seen is None:
        if len(_SIGHT) >= SIGHT_CACHE_SIZE:
            _SIGHT.clear()
        seen = 0
        for mask, rising, _ in QUEEN_RAYS[at]:
            block = other & mask
            if block:
                if rising:
                    mask &= (block & -block) - 1
                else:
                    mask &= ~((1 << block.bit_length()) - 1)
            seen |= mask
        _SIGHT[key] = seen
    return seen


def sight(at: int, own: int, other: int) -> list[int]:
    """The cells of ``own`` a character on ``at`` may move to, in the rules' order:
    per direction, the own stones before the first opponent stone, nearest first."""
    seen = own & _visible(at, other)
    out = []
    if seen:
        for mask, _, cells in QUEEN_RAYS[at]:
            if seen & mask:
                out += [q for q in cells if seen >> q & 1]
    return out


def character_targets(position: GridPosition, player: int) -> list[int]:
    """The stones the player's character may move to: own stones on a line (row,
    column or diagonal) from it with no opponent stone between; chasms and the
    player's own stones do not stop it."""
    own, other = position.stones[player + 1], position.stones[2 - player]
    return sight((position.characters & own).bit_length() - 1, own, other)


@register
class Sensei(Game):
    info = GameInfo(
        name="Sensei", designer="Philippe Lefrançois", year="2002 (Diaballik); Senseï re-edition",
        family="Companion", source="Sensei (companion game, seed 004)",
        summary="Pass your character from stone to stone to the far rank of a 7x7 grid.",
        complexity=3, aliases=("sensei", "diaballik", "senseï"),
        max_length=3 * MOST_TURNS)
    parameters = {"mode": "arashi", "start": "standard", "turn_limit": 200}
    board = BOARD
    #: Mirror left-right keeps the ranks and so the rules (the others swap the sides).
    symmetries = (0, 4)
    rules = """\
Sensei is played on a 7x7 grid (files a-g, ranks 1-7). Each player has seven stones
of their colour and a character. White starts with a stone on every cell of rank 1,
Black on every cell of rank 7; each character stands on the middle stone (d1, d7).
White moves first.

Before the game the players agree on one way of moving stones, kept all game:
Shizukana (a stone moves one cell) or Arashi (a stone moves any number of cells, in
one direction).

A turn is one, two or three actions by the same player, in any order:
- a stone move (at most two a turn, the same stone or two different ones);
- one move of the character (at most one a turn).
After at least one action the player may end the turn ("pass"); after all three the
turn ends by itself.

A stone moves along its row or column, never diagonally, and never turns during a
move. It cannot enter or cross a cell holding another stone (of either colour). A
stone carrying a character cannot move.

The character moves from the stone it stands on to another stone of its owner that
lies on the same row, column or diagonal, at any distance, provided no opponent's
stone stands between them (the player's own stones in between do not matter).

A player wins at once when their character stands on one of their stones on the
opponent's starting rank (rank 7 for White, rank 1 for Black).

Anti-game: a player whose stones are walled off (none of them can walk, cell by
cell along rows and columns, past the opponent's stones to the rank they must
reach) wins at once when at least three of their stones face an opponent's stone
(orthogonally next to it). The wall's builder loses.

Variant start: each player's stones on files b and f begin on the opponent's
starting rank (b7 f7 for White, b1 f1 for Black).

Arashi-Expert (Arashi moves only): five cells are chasms (c3 e3 d4 c5 e5). A stone
may neither stop on a chasm nor cross one; the character moves over them. Chasms
count as part of a wall.

A game lasting 200 turns (the turn_limit parameter) is a draw."""
    notes = """\
- The source: Sensei (Senseï) is the re-edition of Philippe Lefrançois's Diaballik.
  The seed holds both editions; the first half (the earlier edition, pieces called
  supports and a ball) is the same game with stones that move one cell only (our
  Shizukana mode), a "ball" passed between supports (our character), and the same
  start, goal, variant start and anti-game. The re-edition adds the Arashi mode
  (sliding stones), names the variant start "Shizukana variant", and adds the
  Arashi-Expert board with chasms. Differences in wording only otherwise: the
  earlier edition's winning sentence says "the last enemy line", the re-edition
  "one of one's stones on the opponent's starting line", the same thing.
- Turn order: "at least one of the three actions, in any order" reads as one to
  three actions, each a separate action of the same player here, and "pass" ends
  a turn early once one action is made. A player with no action at all (every
  stone stuck and the character with nowhere to go) may only pass: the text does
  not foresee it; we keep the game going rather than invent a loss.
- Several cells in one move (Arashi): a stone stops before the first stone in its
  way; it may stop anywhere before it. Stones never jump.
- The character "between two stones of its colour": it needs a stone to land on;
  only opponent stones between block it (the text names them alone), so own stones
  and chasms are passed over.
- The anti-game rule. The text: a player who builds a line the opponent's stones
  cannot cross loses if the opponent brings at least three stones into contact,
  face to face, with that line. Ludii reads it as: a player whose ball cannot reach
  the goal rank through orthogonally connected empty or own cells is blocked, and
  wins with three stones touching opponent stones orthogonally. We keep Ludii's
  test of contact (three of the blocked player's stones orthogonally next to an
  opponent stone) but test the wall as the text says, for the stones: the player is
  walled off when no stone of theirs can walk to the goal rank along rows and
  columns through cells free of opponent stones (and chasms). A stone already
  beyond the wall means there is no wall for that player. The rule is tested after
  every action and applies at once (the text's "announcing" it is not modelled);
  if both players are walled off with three contacts, the player who just acted
  built the last piece of wall and loses. Reaching the goal wins before any
  anti-game test.
- Lost figures: the start (fig. 1) is described in words (stones on one's nearest
  rank, the character on the middle one). The variant start (fig. 3 of the earlier
  edition, fig. 5 of the re-edition: "two of one's stones on the opponent's
  starting line") is lost: we put the stones of files b and f there, a symmetric
  choice that keeps the character's middle stone home. The Arashi-Expert board
  (fig. 6, the reverse of the board) is lost: we designed five chasms in an X at the
  centre (c3 e3 d4 c5 e5), the same for both players under every symmetry. In
  Arashi-Expert, chasms count as stones of the wall (the text), not as stones to
  be in contact with ("contact is stones face to face").
- The mode is the players' choice; Arashi is the default here (the re-edition
  describes it first), Shizukana is the earlier edition's game.
- Which player starts is not said: White (rank 1) moves first, as in the other
  games of this book.
- An endless game is possible (stones can shuffle forever): after turn_limit turns
  (200 by default) the game is a draw, our safeguard."""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        mode, start, limit = self.params["mode"], self.params["start"], \
            self.params["turn_limit"]
        if mode not in MODES:
            raise UnknownGameError(f"Sensei mode is {' or '.join(MODES)}, not {mode!r}")
        if start not in STARTS:
            raise UnknownGameError(f"Sensei start is {', '.join(STARTS)}, not {start!r}")
        if start == "expert" and mode != "arashi":
            raise UnknownGameError("Sensei start 'expert' (Arashi-Expert) is played in "
                                   "mode 'arashi' only")
        if not 1 <= limit <= MOST_TURNS:
            raise UnknownGameError(f"Sensei turn_limit is 1-{MOST_TURNS}, not {limit!r}")
        self.slide = mode == "arashi"
        self.targets = TARGETS[self.slide]
        self.turn_limit = limit
        self.start = start_position(start)

    def initial_state(self, rng: random.Random | None = None) -> SenseiState:
        return SenseiState(position=self.start)

    def length(self, state) -> int:
        """Actions so far, passes included."""
        return state.played

    # -- moves ---------------------------------------------------------------
    def legal_moves(self, state, player: int | None = None) -> list[Move]:
        if state.result is not None:
            return []
        position, me = state.position, state.to_move
        own, other = position.stones[me + 1], position.stones[2 - me]
        moves = []
        if state.moves < STONE_MOVES:
            stop, table = position.occupied | position.chasms, self.targets
            free_stones = own & ~position.characters
            while free_stones:
                p = (free_stones & -free_stones).bit_length() - 1
                free_stones &= free_stones - 1
                moves += table.get(p, stop)
        if not state.carried:
            at = (position.characters & own).bit_length() - 1
            row = MOVES[at]
            moves += [row[q] for q in sight(at, own, other)]
        if state.moves or state.carried or not moves:
            moves.append(END_TURN)
        return moves

    def apply(self, state, move: Move) -> SenseiState:
        # One new state, built directly (the search applies a move every iteration).
        me, moves, carried, turn = state.to_move, state.moves, state.carried, state.turn
        position, played = state.position, state.played + 1
        if move.kind == PASS:
            return self._end_turn(position, me, move, turn, played)
        bit, to = 1 << move.point, 1 << move.target
        white, black = position.stones[1], position.stones[2]
        if position.characters & bit:
            position = _position(white, black, position.characters ^ bit ^ to, position.chasms)
            carried = True
        else:
            if me:
                black ^= bit | to
            else:
                white ^= bit | to
            position = _position(white, black, position.characters, position.chasms)
            moves += 1
        result = self.judge(position, me)
        if result is None and moves == STONE_MOVES and carried:
            return self._end_turn(position, me, move, turn, played)
        return SenseiState(position, me, result, move, moves, carried, turn, played)

    def _end_turn(self, position, me: int, last: Move, turn: int, played: int) -> SenseiState:
        turn += 1
        result = None
        if turn >= self.turn_limit:
            result = Outcome((), f"{turn} turns were played")
        return SenseiState(position, 1 - me, result, last, 0, False, turn, played)

    def judge(self, position: GridPosition, mover: int) -> Outcome | None:
        """The end after an action by ``mover``: a character home, else anti-game."""
        found = verdict((position.stones[1], position.stones[2]), position.characters,
                        position.chasms, mover)
        if found is None:
            return None
        player, home = found
        if home:
            return Outcome((player,), f"{self.player_name(player)}'s character "
                                      "reached the far rank")
        return Outcome((player,), f"anti-game: {self.player_name(1 - player)} walled "
                                  f"{self.player_name(player)} off")

    def winning_points(self, state) -> int:
        """The character's stone on the far rank, or the stones in contact with the wall."""
        result = state.result
        if result is None or not result.winners:
            return 0
        w = result.winners[0]
        position = state.position
        home = position.characters & position.stones[w + 1] & GOAL[w]
        return home or contacts(position, w)

    # -- fast random games ---------------------------------------------------------
    def random_playout(self, state, rng: random.Random) -> SenseiState:
        """Uniformly random actions to the end: see :meth:`_play_out`."""
        return self._play_out(state, rng, False)

    def playout(self, state, rng: random.Random) -> SenseiState:
        """The search's playout: random actions, except that a player whose
        character can reach the far rank at once does so.  Random games walk
        past most such wins (one option among twenty or so), which makes the
        search's playouts long and their results noisy."""
        return self._play_out(state, rng, True)

    def _play_out(self, state, rng: random.Random, take_wins: bool) -> SenseiState:
        """Actions to the end on bare masks; uniformly random ones: the choices of
        ``legal_moves`` in its order, one ``rng.random()`` each, and the end of
        :func:`verdict`, so the very games of the generic loop.

        The moves are counted, not listed: every stone move at once in the copies
        of LANES, the character's in those of SIGHT_LANES; then the k-th is found
        stone by stone (or bit by bit).  The anti-game test runs in full only when
        its quick looks (see :func:`_watch`) cannot rule it out.

        With ``take_wins`` a character move that wins is made, without a draw,
        whenever one is open."""
        if state.result is not None:
            return state
        rnd, limit, slide = rng.random, self.turn_limit, self.slide
        north_lane, east_lane, south_lane = LANE_MASKS[:3]
        position = state.position
        stones = [position.stones[1], position.stones[2]]
        chars, chasms = position.characters, position.chasms
        # Each player's stones free to move (no character on them), as sorted cells
        # and in the copies of LANES, and the empty cells there.
        free = [list(_cells_of(stones[0] & ~chars)), list(_cells_of(stones[1] & ~chars))]
        lanes = [_in_lanes(stones[0] & ~chars), _in_lanes(stones[1] & ~chars)]
        empty = ALL_LANES ^ _in_lanes(stones[0] | stones[1] | chasms)
        sighted = [_in_sight_lanes(stones[0]), _in_sight_lanes(stones[1])]
        watch = [0, 0, 0, 0]                           # see _watch
        me, moves, carried = state.to_move, state.moves, state.carried
        turn, played = state.turn, state.played
        p = q = -1                                     # the last action; p < 0: a pass
        # Once verdict() has found nothing, an action can change only part of it: a
        # stone move the anti-game test (no character moved, nor a character's
        # stone), a character move only its own goal test (no stone moved).
        clean = ended = False
        while True:                                    # a turn, or what is left of it
            you = 1 - me
            own, other, mine, free4 = stones[me], stones[you], free[me], lanes[me]
            own8 = sighted[me]
            my_goal = GOAL[me]
            # No opponent stone moves in a turn: the character's sight holds, and
            # so do the files ahead of our watched stone.
            at = (chars & own).bit_length() - 1
            if not carried:
                view = ALL_SIGHT ^ sighted[you]
                view &= ~(view + (SIGHT_LANES[at] << 1))
            my_stone = watch[me] if watch[me] & own and not watch[me + 2] & other else 0
            your_ahead = watch[you + 2] if watch[you] & other else -1
            my_none = your_none = False                # a look this turn found none
            while True:
                n = stone_moves = 0
                if moves < STONE_MOVES:                # every stone move, as in LANES
                    if slide:
                        n = stone_moves = (empty & ~(empty + (free4 << 1))).bit_count()
                    else:
                        n = stone_moves = (empty & free4 << 1).bit_count()
                k = -1
                if not carried:
                    seen = own8 & view
                    n += seen.bit_count()
                    if take_wins and seen & GOAL_SIGHT[me]:   # a win: made at once
                        seen &= GOAL_SIGHT[me]
                        seen &= -seen
                        k = stone_moves
                if k < 0:
                    k = int(rnd() * (n + 1 if moves or carried or not n else n))
                played += 1
                if k == n:                             # pass: the turn ends
                    p = -1
                    break
                if k < stone_moves:                    # a stone: anti-game may change
                    # The k-th move, stone by stone from the nearer end of the list.
                    if k + k < stone_moves:
                        for p in mine:
                            reach = empty & ~(empty + FRONT[p]) if slide else empty & FRONT[p]
                            c = reach.bit_count()
                            if k < c:
                                break
                            k -= c
                    else:
                        k = stone_moves - 1 - k
                        for p in reversed(mine):
                            reach = empty & ~(empty + FRONT[p]) if slide else empty & FRONT[p]
                            c = reach.bit_count()
                            if k < c:
                                k = c - 1 - k
                                break
                            k -= c
                    # Its target: copy by copy, k cells along the direction's run.
                    c = (reach & north_lane).bit_count()
                    if k < c:
                        q = p + N * (k + 1)
                    else:
                        k -= c
                        c = (reach & east_lane).bit_count()
                        if k < c:
                            q = p + k + 1
                        else:
                            k -= c
                            c = (reach & south_lane).bit_count()
                            q = p - N * (k + 1) if k < c else p - (k - c) - 1
                    mine.remove(p)
                    insort(mine, q)
                    own ^= 1 << p | 1 << q
                    own8 ^= SIGHT_LANES[p] | SIGHT_LANES[q]
                    moved = LANES[p] | LANES[q]
                    free4 ^= moved
                    empty ^= moved
                    moves += 1
                    # A player is not walled off while a watched stone of theirs has
                    # its file clear to the goal, nor with fewer than three contacts;
                    # verdict() looks when neither is sure, or on the first action.
                    doubt = not clean
                    if your_ahead & own:
                        # After a look that found none, only the stones behind the
                        # cell we left can have had their file cleared.
                        if not your_none or other & FILE_AHEAD[me][p]:
                            your_ahead = _watch(watch, you, other, own | chasms)
                            your_none = your_ahead < 0
                        doubt |= your_none and (other & _spread(own)).bit_count() \
                            >= CONTACTS
                    if not my_stone & own:
                        if not my_none:
                            _watch(watch, me, own, other | chasms)
                            my_stone = watch[me]
                            my_none = not my_stone
                        elif not FILE_AHEAD[me][q] & (other | chasms):   # only q is new
                            my_stone, my_none = 1 << q, False
                            watch[me], watch[me + 2] = my_stone, FILE_AHEAD[me][q]
                        doubt |= my_none and (own & _spread(other)).bit_count() \
                            >= CONTACTS
                    if doubt:
                        stones[me] = own
                        if verdict(stones, chars, chasms, me) is not None:
                            ended = True
                            break
                else:                                  # the character: only a goal may
                    k -= stone_moves                   # its k-th target, bit by bit
                    while k:
                        seen &= seen - 1
                        k -= 1
                    p, q = at, SIGHT_CELL[(seen & -seen).bit_length() - 1]
                    chars ^= 1 << p | 1 << q
                    free4 ^= LANES[p] | LANES[q]
                    mine.remove(q)
                    insort(mine, p)
                    carried = True
                    if not clean:
                        stones[me] = own
                        if verdict(stones, chars, chasms, me) is not None:
                            ended = True
                            break
                    elif my_goal >> q & 1:             # the mover's character home
                        ended = True
                        break
                clean = True
                if moves == STONE_MOVES and carried:   # all three actions made
                    break
            stones[me], lanes[me], sighted[me] = own, free4, own8
            if ended:
                break
            moves, carried, turn, me = 0, False, turn + 1, you
            if turn >= limit:
                break
        position = _position(stones[0], stones[1], chars, chasms)
        if turn >= limit:
            result = Outcome((), f"{turn} turns were played")
        else:
            result = self.judge(position, me)
        last = END_TURN if p < 0 else MOVES[p][q]
        return SenseiState(position, me, result, last, moves, carried, turn, played)

    # -- text, symmetry, status ------------------------------------------------
    def status_lines(self, state) -> list[str]:
        if state.result is not None:
            return []
        name = self.player_name(state.to_move)
        left = []
        if state.moves < STONE_MOVES:
            left.append(f"{STONE_MOVES - state.moves} stone move"
                        f"{'s' if STONE_MOVES - state.moves > 1 else ''}")
        if not state.carried:
            left.append("the character's move")
        lines = [f"{name} may still make: {' and '.join(left)}"
                 + (" (or pass to end the turn)." if state.moves or state.carried else ".")]
        mode = "Arashi (stones slide)" if self.slide else "Shizukana (stones step one cell)"
        lines.append(f"Mode {mode}; turn {state.turn + 1} of {self.turn_limit}.")
        return lines

    def extra_text(self, state) -> str:
        return write_fields(moves=state.moves or None, carried=state.carried,
                            turn=state.turn or None, played=state.played or None)

    def state_from(self, position, to_move, extras) -> SenseiState:
        name = self.info.name
        fields = read_fields(self, extras, numbers=("moves", "turn", "played"),
                             flags=("carried",))
        moves, carried, turn = fields["moves"], fields["carried"], fields["turn"]
        played, now = fields["played"], fields["moves"] + fields["carried"]
        if not turn + now <= played <= 3 * turn + now:
            raise NotationError(f"{name}: played={played} actions cannot make {turn} turns "
                                f"and {now} actions of this one (a turn is 1-3 actions)")
        if not 0 <= moves <= STONE_MOVES or not 0 <= turn <= self.turn_limit:
            raise NotationError(f"{name}: moves={moves} turn={turn} cannot be (stone "
                                f"moves 0-{STONE_MOVES}, turns 0-{self.turn_limit})")
        if position.grid is not BOARD or position.pawns != (0, 0, 0) \
                or position.chasms != self.start.chasms:
            raise NotationError(f"{name} position {shown(position.text())}: stones and "
                                "characters on the 7x7 grid"
                                + (", chasms on c3 e3 d4 c5 e5" if self.start.chasms
                                   else ", no chasms"))
        for player in (0, 1):
            stones = position.stones[player + 1]
            if stones.bit_count() != 7 or (position.characters & stones).bit_count() != 1:
                raise NotationError(f"{name} position {shown(position.text())}: "
                                    f"{self.player_name(player)} has 7 stones and its "
                                    "character on one of them")
        state = self.settle(SenseiState(position, to_move, None, None, moves, carried, turn,
                                        played))
        if state.result is None and moves == STONE_MOVES and carried:
            raise NotationError(f"{name}: all three actions made (moves=2 carried) but the "
                                "turn did not end: only a finished game stops there")
        if turn == self.turn_limit and (moves or carried):
            raise NotationError(f"{name}: turn={turn} is the turn limit: the game ended "
                                "before any action of that turn")
        return state

    def settle(self, state) -> SenseiState:
        mid_turn = state.moves or state.carried
        result = self.judge(state.position, state.to_move if mid_turn else 1 - state.to_move)
        if result is None and state.turn >= self.turn_limit:
            result = Outcome((), f"{state.turn} turns were played")
        return dataclasses.replace(state, result=result) if result else state


__all__ = ["Sensei", "SenseiState", "BOARD", "EXPERT_CHASMS", "VARIANT_VISITORS",
           "blocked", "contacts", "reachable", "start_position", "stone_targets",
           "character_targets"]
