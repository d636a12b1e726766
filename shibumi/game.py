"""The game model shared by every Shibumi game.

A game is declared as data (:class:`GameInfo`) plus a few hooks on a
:class:`Game` subclass; the base class does everything else.  The pieces:

* :class:`State` — an immutable snapshot (position, whose turn, anything else
  a game tracks such as stocks, a bag or a phase).  Games subclass it.
* :class:`Game` — the rules: ``initial_state``, ``legal_moves``, ``apply``,
  ``outcome``; optional hooks for chance (``chance_outcomes``), simultaneous
  choices (``legal_moves(state, player)`` and ``apply_joint``) and hidden
  information (``observe``).  The base class turns these into random
  playouts and state text.
* :class:`Match` — a game in progress: validates moves, keeps history with
  undo, resolves chance from a seeded generator, reports the outcome.

Turn structure is expressed through ``current_player``: a player index (0
is the first player), :data:`CHANCE`, :data:`SIMULTANEOUS` or
:data:`TERMINAL`.  A multi-part turn is several actions by the same player.

>>> from shibumi import load
>>> match = load('spline').new_match()
>>> match.push('c3')
Move('Wc3.0')
>>> match.move_text(match.legal_moves()[0])
'a1'
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import re
from dataclasses import dataclass, field
from typing import ClassVar, Iterable

from .errors import (IllegalMoveError, NotationError, ShibumiError, UnknownGameError,
                     is_number, require_text, shown)
from .boards import PYRAMID
from .notation import Move, parse_point, point_name, transform_move
from .position import Position

#: Longest state text and move text accepted (checked before parsing).
LONGEST_STATE = 1000
LONGEST_MOVE = 40
LONGEST_RECORD = 20000
EMPTY_STATE = "..../..../..../....|.../.../...|../..|. 1"

CHANCE = -1
SIMULTANEOUS = -2
TERMINAL = -3


@dataclass(frozen=True)
class GameInfo:
    """What a game is, as data: the card shown by ``shibumi list``."""
    name: str
    designer: str
    year: str
    family: str
    source: str
    summary: str
    min_players: int = 2
    max_players: int = 2
    complexity: int = 1
    aliases: tuple[str, ...] = ()
    chance: bool = False
    hidden_information: bool = False
    simultaneous: bool = False
    boards: int = 1
    cooperative: bool = False
    """All players win together or lose together (Sprout): there is no draw."""
    hidden_from_all: bool = False
    """What is hidden is hidden from every player alike (a shuffled deck): the
    players see the same things, so nothing is covered between them."""
    max_length: int = 30
    """Most actions a game can last (the conformance test holds games to it)."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winners`` is empty for a draw.  ``scores`` (one per player) and
    ``ranking`` (groups of tied players, best first) are filled in by games
    that score.
    """
    winners: tuple[int, ...]
    reason: str = ""
    scores: tuple[float, ...] | None = None
    ranking: tuple[tuple[int, ...], ...] | None = None

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def returns(self, num_players: int) -> tuple[float, ...]:
        """Utility per player: winners share +1, others get 0 (draw: all 1/n).

        A solitaire has no draw: no winner means the puzzle was not solved (0).
        """
        if not self.winners:
            if num_players == 1:
                return (0.0,)
            return tuple(1.0 / num_players for _ in range(num_players))
        share = 1.0 / len(self.winners)
        return tuple(share if p in self.winners else 0.0 for p in range(num_players))


@dataclass(frozen=True)
class State:
    """Immutable snapshot of a game.  Games subclass it to add fields."""
    position: Position = field(default_factory=Position.empty)
    to_move: int = 0
    result: Outcome | None = None
    last: Move | None = None


def read_fields(game: "Game", extras: str, numbers=(), flags=(), points=()) -> dict:
    """The fields of a state's extra text: ``key=number``, ``key=point`` and flags.

    Numbers default to 0, points to None and flags to False. Anything else
    is a NotationError naming what is allowed.
    """
    found: dict = {key: 0 for key in numbers}
    found.update({key: None for key in points})
    found.update({key: False for key in flags})
    allowed = [f"{k}=<number>" for k in numbers] + [f"{k}=<point>" for k in points] \
        + list(flags)
    seen = set()
    for token in extras.split():
        key, eq, value = token.partition("=")
        if key in seen:
            raise NotationError(f"{game.info.name} state field {shown(key)} given twice")
        seen.add(key)
        try:
            if eq and key in numbers and is_number(value) and len(value) < 7:
                found[key] = int(value)
                continue
            if eq and key in points:
                found[key] = parse_point(value)
                continue
        except NotationError:
            pass
        if not eq and key in flags:
            found[key] = True
            continue
        raise NotationError(f"{game.info.name} state field {shown(token)} not understood; "
                            f"fields: {' '.join(allowed) or 'none'}")
    return found


def write_fields(**fields) -> str:
    """Extra text from fields: numbers and points as ``key=value``, flags bare.

    Points are given as ``('point', p)`` pairs; false flags and None are left out.
    """
    out = []
    for key, value in fields.items():
        if value is None or value is False:
            continue
        if value is True:
            out.append(key)
        elif isinstance(value, tuple):
            out.append(f"{key}={point_name(value[1])}")
        else:
            out.append(f"{key}={value}")
    return " ".join(out)


class Game:
    """Base class of every game.  Subclasses set ``info`` and the rule hooks.

    ``parameters`` maps each parameter a game accepts to its default; the
    registry passes values through, e.g. ``load('splade', variant='before')``.
    """

    info: ClassVar[GameInfo]
    parameters: ClassVar[dict[str, object]] = {}
    player_names: ClassVar[tuple[str, ...]] = ("White", "Black", "Red")
    rules: ClassVar[str] = ""
    """The rules in the project's words (shown by ``shibumi rules``)."""
    symmetries: ClassVar[tuple[int, ...]] = tuple(range(8))
    """Indices into ``board.symmetries`` of the turns that leave the rules unchanged."""
    board: ClassVar = PYRAMID
    """The board type (:mod:`shibumi.boards`): the pyramid, or a grid such as
    ``shibumi.grid.grid(7)``.  Names of points, move text, position text, the
    front ends and the views all ask it; games on a grid set it here."""
    notes: ClassVar[str] = ""
    """Interpretation choices and reconstructions (rules notes)."""
    reference_draws: ClassVar[bool] = True
    """Whether ``random_playout`` draws as ``random_step`` does, so that the same
    generator plays the same game (the tests compare the two).  A game whose
    legal actions are dear to count may instead draw each action uniformly by
    rejection (False): its ``random_playout`` then takes a ``moves`` list that
    it fills with the actions played, and the tests replay those through the
    rules and check that each action is drawn uniformly."""

    def __init__(self, **params) -> None:
        unknown = set(params) - set(self.parameters)
        if unknown:
            allowed = ", ".join(self.parameters) or "none"
            raise UnknownGameError(f"{self.info.name} has no parameter "
                                   f"{', '.join(sorted(unknown))}; parameters: {allowed}")
        for key, value in params.items():
            default = self.parameters[key]
            if default is not None and type(value) is not type(default):
                raise UnknownGameError(
                    f"{self.info.name} parameter {key} takes a {type(default).__name__} "
                    f"(default {default!r}), not {value!r}")
        self.params = {**self.parameters, **params}
        self.num_players = int(self.params.get("players", self.info.min_players))
        if not self.info.min_players <= self.num_players <= self.info.max_players:
            raise UnknownGameError(
                f"{self.info.name} is for {self.info.min_players}-{self.info.max_players} "
                f"players, not {self.num_players}")

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items()
                         if v != self.parameters[k])
        return f"load({self.info.name.lower()!r}{', ' if args else ''}{args})"

    # -- the hooks a game supplies ---------------------------------------
    def initial_state(self, rng: random.Random | None = None) -> State:
        return State()

    def current_player(self, state: State) -> int:
        return TERMINAL if state.result is not None else state.to_move

    def legal_moves(self, state: State, player: int | None = None) -> list[Move]:
        raise NotImplementedError(f"{type(self).__name__} must define legal_moves")

    def apply(self, state: State, move: Move) -> State:
        """The state after a legal move (not checked: use :class:`Match` for that)."""
        raise NotImplementedError(f"{type(self).__name__} must define apply")

    def outcome(self, state: State) -> Outcome | None:
        """The outcome of a finished game, else None."""
        return state.result

    def chance_outcomes(self, state: State) -> list[tuple[Move, float]]:
        """At a CHANCE node: each possible draw and its probability."""
        return []

    def apply_joint(self, state: State, moves: tuple[Move, ...]) -> State:
        """At a SIMULTANEOUS node: apply one choice per player at once."""
        raise NotImplementedError(f"{self.info.name} has no simultaneous moves")

    def observe(self, state: State, player: int) -> State:
        """What a player can see of a state (hidden information masked)."""
        return state

    def determinise(self, observation: State, player: int, rng: random.Random) -> State:
        """A full state consistent with what ``player`` observed, hidden parts drawn at random.

        ``observation`` is ``observe(state, player)``; the result must be a state
        the game could really be in given that observation (the other players'
        hands drawn from what is unseen, in proportion to how likely each is).
        The honest AI searches such samples, never the true state.  Games with
        hidden information must override this; without hidden parts the
        observation is the state.
        """
        if self.info.hidden_information:
            raise NotImplementedError(f"{self.info.name} hides information: it must "
                                      "define determinise for the AI to play it")
        return observation

    def board_of(self, state: State, player: int | None) -> Position:
        """The pyramid a player looks at and plays on (``None``: the shared one).

        Games with one set for everyone return ``state.position``; games where
        each player builds on a set of their own (Spy) return that player's.
        """
        return state.position

    def secret_move(self, state: State, move: Move) -> str | None:
        """What the other players are told of a move that stays secret, or None.

        A game with a player's own secret choice (Springe's fists, what goes into
        a hand) returns the words the others read, e.g. ``'hid two balls'``;
        front ends show those words instead of the move to everyone but the
        mover until the game ends.  ``state`` is the state the move is made in;
        at a simultaneous choice ``move`` is one player's choice.
        """
        return None

    def other_boards(self, state: State, player: int | None) -> list[tuple[str, Position]]:
        """Sets the player sees besides the one they play on, as (label, position).

        Most games have one set; Spair is played on two, and the board shows
        the set not in play beside the one that is.
        """
        return []

    def status_lines(self, state: State) -> list[str]:
        """What players read beside the board, in their words: stocks, the colour
        to place, a barred colour, roles, the ball drawn.  Front ends show these
        instead of the state's internal fields (``extra_text``), which only the
        engine reads.  ``state`` may be a seat's observation."""
        return []

    def winning_move(self, state: State) -> Move | None:
        """A legal move that wins at once for the player to move, if the game can
        find one cheaply; None when there is none or the game does not say.

        The search uses it to settle a position one move deeper than it has
        looked (a game without it is searched just the same, only less sharply).
        """
        return None

    def winning_points(self, state: State) -> int:
        """Mask of the points that won the game (a line, a group), for front
        ends to draw at the end; 0 when the game names none."""
        return 0

    def player_name(self, player: int) -> str:
        return self.player_names[player] if player < len(self.player_names) \
            else f"Player {player + 1}"

    # -- derived behaviour -------------------------------------------------
    def state_key(self, state: State) -> tuple:
        """What identifies a state for the rules (the last move is history only).

        Games whose rules look at the last move override this.
        """
        return tuple(getattr(state, f.name) for f in dataclasses.fields(state)
                     if f.name != "last")

    def transform_state(self, state: State, perm: tuple[int, ...]) -> State:
        """Image of a state under a point permutation (one of ``board.symmetries``).

        Games whose extra state fields name points override this.
        """
        return dataclasses.replace(state, position=state.position.transform(perm),
                                   last=transform_move(state.last, perm))

    def length(self, state: State) -> int:
        """Actions played to reach a state; placement games count balls."""
        return state.position.occupied.bit_count()

    def is_terminal(self, state: State) -> bool:
        return self.current_player(state) == TERMINAL

    def sample_chance(self, state: State, rng: random.Random) -> Move:
        outcomes = self.chance_outcomes(state)
        r, acc = rng.random(), 0.0
        for move, prob in outcomes:
            acc += prob
            if r < acc:
                return move
        return outcomes[-1][0]

    def random_step(self, state: State, rng: random.Random) -> State:
        """Advance one node with uniformly random choices (and chance by its odds).

        This is the reference draw: a choice among ``legal_moves`` takes one
        ``rng.random()`` (index ``int(rng.random() * n)``, see
        :func:`random_index`), a chance node one (``sample_chance``), and a
        simultaneous choice one per seat in seat order.  A game's faster
        ``random_playout`` draws the same way over moves in the same order, so
        with the same generator it plays exactly the same game (tested for
        every game but those that set ``reference_draws`` False).
        """
        player = self.current_player(state)
        if player == CHANCE:
            return self.apply(state, self.sample_chance(state, rng))
        if player == SIMULTANEOUS:
            return self.apply_joint(state, tuple(
                random_choice(rng, self.legal_moves(state, p)) for p in range(self.num_players)))
        return self.apply(state, random_choice(rng, self.legal_moves(state)))

    def random_playout(self, state: State, rng: random.Random) -> State:
        """Play uniformly random moves to the end; returns the final state.

        Games may override this with a faster loop that plays the same games
        (the same draws over the same move order as ``random_step``), or,
        with ``reference_draws`` False, the same uniformly random choices
        drawn another way.
        """
        while self.current_player(state) != TERMINAL:
            state = self.random_step(state, rng)
        return state

    def playout(self, state: State, rng: random.Random) -> State:
        """The playout the MCTS player runs from a leaf: random moves by default.

        A game may play smarter, still legal moves here (take a win at once,
        block the opponent's), which makes the search stronger without touching
        the rules; ``random_playout`` stays uniformly random for statistics.
        """
        return self.random_playout(state, rng)

    def new_match(self, seed: int | None = None, state: State | None = None,
                  record: str | None = None) -> "Match":
        """A match from the start, from ``state``, or rebuilt from a ``record``."""
        return Match(self, seed=seed, state=state, record=record)

    # -- text ----------------------------------------------------------------
    def state_text(self, state: State) -> str:
        """The whole state as one line: position, player to move (1 = first), extras.

        A finished game still names the player whose turn it would be; the
        result is worked out again when the text is read.
        """
        extras = self.extra_text(state)
        parts = [state.position.text(), str(state.to_move + 1)]
        return " ".join(parts + ([extras] if extras else []))

    def extra_text(self, state: State) -> str:
        """Game-specific state beyond the position and turn (stocks, bag...)."""
        return ""

    def parse_state(self, text: str) -> State:
        """A state from :meth:`state_text`; raises NotationError when malformed."""
        empty = EMPTY_STATE if self.board is PYRAMID else self.board.empty_text()
        require_text(text, "a state", f"{empty!r}", LONGEST_STATE)
        parts = text.split()
        if len(parts) < 2:
            raise NotationError(f"state {shown(text)}: expected '<position> <player to "
                                f"move>' like {empty!r}")
        position = self.board.parse_position(parts[0])
        if not re.fullmatch("[0-9]{1,2}", parts[1]) or not 1 <= int(parts[1]) <= self.num_players:
            raise NotationError(f"state {shown(text)}: player to move must be 1-"
                                f"{self.num_players}, got {shown(parts[1])}")
        state = self.state_from(position, int(parts[1]) - 1, " ".join(parts[2:]))
        if self.length(state) > self.info.max_length:
            raise NotationError(f"{self.info.name} state {shown(text)}: {self.length(state):,} "
                                f"actions played, but a game lasts at most "
                                f"{self.info.max_length:,}")
        return state

    def state_from(self, position: Position, to_move: int, extras: str) -> State:
        """Build a state from parsed text; games with extras override this."""
        if extras:
            raise NotationError(f"{self.info.name} states have no extra fields, "
                                f"got {shown(extras)}")
        return self.settle(State(position=position, to_move=to_move))

    def settle(self, state: State) -> State:
        """Fill in derived fields (such as a result) of a state built from text."""
        return state

    def describe(self, state: State) -> str:
        """A readable board and status for the terminal."""
        lines = [state.position.diagram()]
        if state.last is not None:
            lines.append(f"Last move: {state.last.text()}")
        extras = self.extra_text(state)
        if extras:
            lines.append(f"State: {extras}")
        outcome = self.outcome(state)
        if outcome is not None:
            if outcome.is_draw:
                verdict = "not solved" if self.num_players == 1 else "draw"
                lines.append(f"Game over: {verdict}. {outcome.reason}")
            else:
                names = " and ".join(self.player_name(p) for p in outcome.winners)
                lines.append(f"Game over: {names} won. {outcome.reason}")
        else:
            player = self.current_player(state)
            if player >= 0:
                lines.append(f"{self.player_name(player)} to move.")
        return "\n".join(lines)


class Match:
    """A game in progress: validated moves, history with undo, seeded chance.

    >>> from shibumi import load
    >>> m = load('span').new_match()
    >>> m.push('a1')
    Move('Wa1')
    >>> m.pop()
    Move('Wa1')
    """

    def __init__(self, game: Game, seed: int | None = None, state: State | None = None,
                 record: str | None = None):
        self.game = game
        self.rng = random.Random(seed)
        self.history: list[tuple[Move | tuple[Move, ...], State]] = []
        self._replaying = False
        if record is not None:
            self._replaying = True
            try:
                self._replay(record)
            finally:
                self._replaying = False
        else:
            self.state = state if state is not None else game.initial_state(self.rng)
        self._resolve_chance()

    # -- the record: a game in progress as one line of notation ---------------------
    def record(self) -> str:
        """Every action so far (draws and joint choices included) as one line.

        ``Match(game, record=...)`` rebuilds the same state.  A match that did
        not start from the game's start begins with its state text and ``:``.

        >>> from shibumi import load
        >>> m = load('spline').new_match()
        >>> _ = m.push('a1'), m.push('c3')
        >>> m.record()
        'Wa1 Bc3.0'
        >>> Match(m.game, record=m.record()).state == m.state
        True
        """
        tokens = [",".join(m.text() for m in move) if isinstance(move, tuple) else move.text()
                  for move, _ in self.history]
        start = self.history[0][1] if self.history else self.state
        fresh = self.game.initial_state(random.Random(0))
        prefix = [] if self.game.state_key(start) == self.game.state_key(fresh) \
            else [self.game.state_text(start), ":"]
        return " ".join(prefix + tokens)

    def _replay(self, record: str) -> None:
        require_text(record, "a record", "'a1 c3 e5'", LONGEST_RECORD)
        start, colon, actions = record.rpartition(":")
        self.state = self.game.parse_state(start.strip()) if colon \
            else self.game.initial_state(random.Random(0))
        for number, token in enumerate(actions.split(), 1):
            try:
                self._replay_one(token)
            except ShibumiError as exc:
                raise NotationError(f"record action {number} ({shown(token)}): {exc}") from None

    def _replay_one(self, token: str) -> None:
        mover = self.current_player
        if mover == SIMULTANEOUS:
            self.push_joint(token.split(","))
        elif mover == CHANCE:
            move = self._parse_among(token, [m for m, _ in self.game.chance_outcomes(self.state)])
            before = self.state
            self.state = self.game.apply(before, move)
            self.history.append((move, before))
        else:
            self.push(token)

    def __repr__(self) -> str:
        return f"<Match {self.game!r} after {len(self.history)} moves: " \
               f"{self.game.state_text(self.state)!r}>"

    @property
    def current_player(self) -> int:
        return self.game.current_player(self.state)

    def legal_moves(self, player: int | None = None) -> list[Move]:
        if self.current_player == TERMINAL:
            return []
        return self.game.legal_moves(self.state, player)

    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    def is_over(self) -> bool:
        return self.current_player == TERMINAL

    def parse(self, text: str) -> Move:
        """A move from text, resolved against the legal moves of this state."""
        return self._parse_among(text, self.legal_moves())

    def _parse_among(self, text: str, legal: list[Move]) -> Move:
        require_text(text, "a move", "'d6'", LONGEST_MOVE)
        found = self.game.board.moves_matching(text, legal)
        if len(found) == 1:
            return found[0]
        if not found:
            listed = " ".join(sorted(self.game.board.short_text(m, legal) for m in legal)) \
                or "none (game over)"
            raise IllegalMoveError(f"{shown(text)} is not a legal move here; legal: {listed}")
        raise NotationError(f"{shown(text)} is ambiguous: it may mean "
                            f"{' or '.join(m.text() for m in found)}")

    def move_text(self, move: Move) -> str:
        """The shortest text naming a move in this state (``d6`` for ``Wd6``)."""
        return self.game.board.short_text(move, self.legal_moves())

    def push(self, move: Move | str) -> Move:
        """Play a move (or its text) after checking it is legal; returns the move."""
        if isinstance(move, str):
            move = self.parse(move)
        elif not isinstance(move, Move):
            raise NotationError(f"a move is a Move or its text, not {type(move).__name__}")
        elif move not in self.legal_moves():
            raise IllegalMoveError(f"{move.text()} is not a legal move here")
        before = self.state
        self.state = self.game.apply(before, move)
        self.history.append((move, before))
        self._resolve_chance()
        return move

    def push_joint(self, moves: Iterable[Move | str]) -> None:
        """Play one simultaneous choice per player (moves or their texts)."""
        if self.current_player != SIMULTANEOUS:
            raise IllegalMoveError("no simultaneous choice is pending")
        n = self.game.num_players
        try:
            given = tuple(itertools.islice(moves, n + 1))   # never drains an endless iterable
        except TypeError:
            raise NotationError("simultaneous choices are given as one move per player, "
                                f"not {type(moves).__name__}") from None
        if len(given) != n:
            raise IllegalMoveError(f"one choice per player is needed: {n}, "
                                   f"not {len(given) if len(given) <= n else 'more'}")
        chosen = []
        for p, move in enumerate(given):
            legal = self.game.legal_moves(self.state, p)
            if isinstance(move, str):
                move = self._parse_among(move, legal)
            elif not isinstance(move, Move):
                raise NotationError(f"a choice is a Move or its text, not {type(move).__name__}")
            if move not in legal:
                raise IllegalMoveError(f"{move.text()} is not legal for "
                                       f"{self.game.player_name(p)}")
            chosen.append(move)
        moves = tuple(chosen)
        before = self.state
        self.state = self.game.apply_joint(before, moves)
        self.history.append((moves, before))
        self._resolve_chance()

    def pop(self) -> Move | tuple[Move, ...]:
        """Undo the last player's action and the chance that followed it.

        Draws made before anyone acted (a deal, a first draw) stay: undoing
        everything gives back the match as it started.
        """
        acted = [i for i, (_, before) in enumerate(self.history)
                 if self.game.current_player(before) != CHANCE]
        if not acted:
            raise IllegalMoveError("there is no move to undo")
        move, self.state = self.history[acted[-1]]
        del self.history[acted[-1]:]
        return move

    def _resolve_chance(self) -> None:
        if self._replaying:                # a record gives the draws itself
            return
        while self.game.current_player(self.state) == CHANCE:
            move = self.game.sample_chance(self.state, self.rng)
            before = self.state
            self.state = self.game.apply(before, move)
            self.history.append((move, before))

    def moves(self) -> list[Move | tuple[Move, ...]]:
        return [m for m, _ in self.history]


def random_index(rng: random.Random, n: int) -> int:
    """The reference draw of a uniform index below ``n``: one ``rng.random()``."""
    return int(rng.random() * n)


def random_choice(rng: random.Random, options):
    """One of ``options`` by the reference draw (:func:`random_index`)."""
    return options[int(rng.random() * len(options))]


def replace(state: State, **changes) -> State:
    """A copy of a state with some fields changed."""
    return dataclasses.replace(state, **changes)
