"""Spagyric: rock-paper-scissors for the colour; a visible group of exactly four wins.

Both players hold a stock of eight balls of each colour.  Every turn both
choose a ball in secret (with the point it will take if it wins); white beats
black, black beats red, red beats white, and only the stronger ball is
placed.  Its placer wins with a visible group of exactly four and loses with
one of three or of five or more.

>>> from shibumi import load
>>> game = load('spagyric')
>>> match = game.new_match()
>>> len(game.legal_moves(match.state, 0))          # 3 colours x 16 holes
48
>>> match.push_joint(['Wc3', 'Ba1'])                # white beats black: c3 is white
>>> match.state.position.text(), match.state.stocks
('..../..../.W../....|.../.../...|../..|.', ((7, 8, 8), (8, 7, 8)))
>>> game.state_text(match.state).split()[-1]
'stocks=W7B8R8/W8B7R8'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import IllegalMoveError, NotationError, shown
from ..game import SIMULTANEOUS, TERMINAL, Game, GameInfo, Match, Outcome, State
from ..geometry import SUPPORTED_MASK, TOUCHING_MASK, points_of
from ..notation import CHOOSE, Move
from ..position import BLACK, COLOUR_LETTERS, COLOUR_NAMES, RED, WHITE, Position, group_of
from ..registry import register
from .placement import PLACE_MOVES, playable_points, sole_winner

#: Balls of each colour in one player's stock at the start.
PER_COLOUR = 8
#: Duels in a game: each takes one ball from each stock of 24.
DUELS = 3 * PER_COLOUR
START_STOCKS = ((PER_COLOUR,) * 3,) * 2
#: BEATS[c] is the colour that c beats: white beats black, black red, red white.
BEATS = {WHITE: BLACK, BLACK: RED, RED: WHITE}
COLOURS = (WHITE, BLACK, RED)
CHOICES = {c: Move.choose(c) for c in COLOURS}
#: The group size that wins; 3 and 5 or more lose.
TARGET = 4


@dataclass(frozen=True)
class SpagyricState(State):
    """``stocks``: balls left per player, as (white, black, red).  ``placer``:
    on a game ended by a placement, who placed the deciding ball (else None).
    ``tiebreak``: on a game ended by the tiebreaker, the two colours chosen."""
    stocks: tuple[tuple[int, int, int], tuple[int, int, int]] = START_STOCKS
    placer: int | None = None
    tiebreak: tuple[int, int] | None = None


def duel_winner(first: int, second: int) -> int | None:
    """Which player's colour wins a duel (0 or 1), or None when the colours match.

    >>> duel_winner(WHITE, BLACK), duel_winner(WHITE, RED), duel_winner(RED, RED)
    (0, 1, None)
    """
    if first == second:
        return None
    return 0 if BEATS[first] == second else 1


def discard_pile(position, stocks) -> tuple[int, int, int]:
    """(white, black, red) balls on the discard pile: the set's 16 of a colour
    (8 per stock) less those on the board and those still in the stocks."""
    return tuple(2 * PER_COLOUR - position.mask(c).bit_count() - stocks[0][i] - stocks[1][i]
                 for i, c in enumerate(COLOURS))


def group_size(position, point: int) -> int:
    """Size of the visibly connected group of the ball at ``point``."""
    colour = position.colour_at(point)
    return group_of(point, position.mask(colour), position.occupied).bit_count()


def big_groups(position) -> list[int]:
    """The visible groups of three or more balls, any colour (one ends the game)."""
    return [g for c in COLOURS for g in position.groups(c) if g.bit_count() >= 3]


def placement_result(size: int, placer: int, colour: int, names) -> Outcome | None:
    """The outcome once ``placer`` has made a group of ``size`` (None: play on)."""
    if size < 3:
        return None
    what = f"a {COLOUR_NAMES[colour]} group of {size}"
    if size == TARGET:
        return Outcome((placer,), f"{names[placer]} made {what}",
                       ranking=((placer,), (1 - placer,)))
    return Outcome((1 - placer,), f"{names[placer]} made {what} and loses",
                   ranking=((1 - placer,), (placer,)))


def tiebreak_result(first: int, second: int, names) -> Outcome:
    winner = duel_winner(first, second)
    if winner is None:
        return Outcome((), f"the tiebreaker is tied too: both chose {COLOUR_NAMES[first]}")
    strong, weak = (first, second) if winner == 0 else (second, first)
    return Outcome((winner,), f"tiebreaker: {names[winner]}'s {COLOUR_NAMES[strong]} "
                              f"beats {COLOUR_NAMES[weak]}",
                   ranking=((winner,), (1 - winner,)))


def _without(stock: tuple[int, int, int], colour: int) -> tuple[int, int, int]:
    i = colour - 1
    return stock[:i] + (stock[i] - 1,) + stock[i + 1:]


_STOCK_RE = re.compile(r"W([0-8])B([0-8])R([0-8])")


@register
class Spagyric(Game):
    info = GameInfo(
        name="Spagyric", designer="Nathan Morse", year="2011",
        family="Counting", source="Shibumi Rule Book (2012)",
        summary="Both players secretly pick a ball; white beats black beats red beats "
                "white and the stronger ball is placed. A visible group of exactly four "
                "wins for its placer; three, or five or more, loses.",
        complexity=3, simultaneous=True, max_length=DUELS + 1)
    player_names = ("Player 1", "Player 2")

    rules = """\
Nobody owns a colour. The board starts empty, and each player has a stock
of 24 balls, eight of each colour, which the opponent does not get to see.

Every turn is a duel for the colour. Both players take a ball from their
own stock in secret, then show the two balls together. White beats black,
black beats red and red beats white. Whoever showed the stronger ball must
put it on a playable point of their choice (an empty hole, or the hollow on
top of four touching balls); the weaker ball goes face down onto a discard
pile that both players share. Two balls of the same colour both go to the
discard pile, and nothing is placed that turn.

Groups are counted as seen from above: balls of one colour linked by
visible contacts (hidden balls, and contacts cut by an overpass, link
nothing). A player whose ball makes a group of exactly four, of any colour,
wins at once. A player whose ball makes a group of three, or of five or
more, loses at once.

A duel uses one ball of each stock, so the stocks run out after 24 duels.
If nobody has won or lost by then, a tiebreaker settles it: each player
names in secret a colour that is on the discard pile, and the stronger
colour wins the game. The same colour twice makes the game a draw.

How choices are written: a secret choice names the ball and the point it
will take if it wins, such as `Wd4` (white, to go on d4); the point of a
ball that does not win is never used. In the tiebreaker a choice is only a
colour: `=W`, `=B` or `=R`.
"""
    notes = """\
* Source: the Shibumi Rule Book v1.1 (2012), Nathan Morse (2011); the book
  says the game was reworked into its present form by Morse, Cameron Browne
  and Néstor Romeral Andrés. We found no other public description of it,
  and no later ruling.
* The secret choice includes the point. In the book the winner of a duel
  places the ball after the reveal; we ask each player to name, with the
  ball, where it would go if it wins. This changes nothing: the only news
  a reveal brings the winner is the opponent's colour, and that colour is
  fixed by the fact of winning (a white ball can only beat a black one).
  So the winner could have decided the point before the reveal, and
  nothing else happens between the reveal and the placement. Folding the
  two steps into one keeps a game at one action per duel (the book's "at
  most 24 moves"). The point named with a ball that loses or ties is
  ignored and is not recorded in the state.
* What is hidden. The book keeps the stocks and the discard pile out of sight,
  but every ball that leaves a stock is shown at a reveal, so a player who
  remembers the game knows the opponent's stock and the pile exactly. The
  engine gives players perfect memory: nothing stays hidden between turns
  except the choice being made, which the simultaneous duel itself keeps
  secret. What a player observes is therefore the whole state, and the game
  does not carry the hidden-information flag (the catalogue marks it H for the
  physical secrecy of the stocks).
* Groups are visibly connected groups, as everywhere in this project:
  hidden balls and contacts cut by an overpass do not link. Only the group
  of the ball just placed can reach three: every other group was at most
  two balls before (a group of three or more ends the game), and a
  placement can only shrink other groups (by hiding a ball or cutting a
  contact). So "beforehand" in the book means simply that the first group
  of three or more decides the game, for or against whoever placed the
  ball that made it. The tests check this against a brute force that
  looks at every group on the board.
* Placing is compulsory, even when every playable point loses: the book's
  example shows a player who won a duel with black and had to lose.
* The book's example (figure lost) had three playable points, all losing
  for black, and a winning point for red in the middle of them. We rebuild
  it with a position of our own: a3, c3 and e3 are the only playable
  points; black loses on each of them, red wins on c3.
* Tie and tiebreaker. The book says that in case of a tie each player
  secretly picks a ball from the discard pile for a tiebreaking duel. We
  read the tie as the stocks running out with nobody having won or lost,
  and the tiebreaking duel as deciding the game by itself, with no ball
  placed: the book also says a game lasts at most 24 moves, which a
  placing tiebreaker could exceed. The pile is shared (the book speaks of
  one pile), so each player may name any colour it holds; we let both name
  the same colour even when the pile holds one ball of it, since a match is
  a tie either way. The book does not say what happens when the tiebreaker
  is tied as well; we call the game a draw. Both players choose from the
  same pile, so the tiebreaker is a fair coin for both whatever they do,
  and replaying it until it is decided would be worth exactly as much to
  each; a draw keeps the game finite.
* Length. There are 24 duels at most (each takes a ball from both stocks
  of 24), plus one tiebreaker: 25 actions at most. Both bounds are reached:
  24 tied duels and a tiebreaker make 25 actions, and the tests also play
  24 duels that each place a ball without making any group of three.
* State text: `stocks=W8B8R8/W8B8R8` gives what each player has left
  (Player 1 first); the discard pile is whatever of the set's 16 balls of
  each colour is neither on the board nor in a stock. A finished game adds
  `by=1` or `by=2` (who placed the ball that decided it) or `tiebreak=RW`
  (the colours chosen in the tiebreaker, Player 1's first). The player
  field is always 1, since both players choose at once. The text is
  checked: a stable position, no more than 16 balls of a colour, equal
  stocks used, and a sequence of duels that could have put exactly these
  colours on the board.
* The book calls the players X and Y; we call them Player 1 and Player 2.
"""

    def initial_state(self, rng=None) -> SpagyricState:
        return SpagyricState()

    def current_player(self, state) -> int:
        return TERMINAL if state.result is not None else SIMULTANEOUS

    def legal_moves(self, state, player: int | None = None) -> list[Move]:
        """One player's secret choices.  Without a player, none: nobody ever
        moves alone (both choices are played together, with ``push_joint``)."""
        if state.result is not None or player is None:
            return []
        stock = state.stocks[player]
        if any(stock):
            points = playable_points(state.position.occupied)
            return [PLACE_MOVES[c][p] for c in COLOURS if stock[c - 1] for p in points]
        pile = discard_pile(state.position, state.stocks)
        return [CHOICES[c] for c, n in zip(COLOURS, pile) if n]

    def apply(self, state, move):
        raise IllegalMoveError(f"{self.info.name}: both players choose at once; play the "
                               "two choices together (push_joint)")

    def apply_joint(self, state, moves) -> SpagyricState:
        first, second = moves
        if first.kind == CHOOSE:                       # the tiebreaker
            colours = (first.colour, second.colour)
            return SpagyricState(state.position, 0,
                                 tiebreak_result(*colours, self.player_names),
                                 None, state.stocks, None, colours)
        stocks = (_without(state.stocks[0], first.colour),
                  _without(state.stocks[1], second.colour))
        winner = duel_winner(first.colour, second.colour)
        if winner is None:
            return SpagyricState(state.position, 0, None, None, stocks)
        move = moves[winner]
        point, colour, old = move.point, move.colour, state.position
        masks = [0, old.white, old.black, old.red]
        masks[colour] |= 1 << point
        position = _position(masks)                    # legal: Match checked the choice
        alone = not TOUCHING_MASK[point] & masks[colour] & ~(1 << point)
        result = None if alone else placement_result(
            group_of(point, masks[colour], position.occupied).bit_count(), winner, colour,
            self.player_names)
        return SpagyricState(position, 0, result, move, stocks,
                             None if result is None else winner)

    def length(self, state) -> int:
        """Actions played: the duels so far, and the tiebreaker if it was played."""
        return DUELS - sum(state.stocks[0]) + (state.tiebreak is not None)

    def random_playout(self, state, rng):
        """The generic loop's games, on masks: each player draws one of its
        ``legal_moves`` (a colour in stock times a playable point, in that
        order) by the reference draw; only the duel winner's point is placed."""
        if state.result is not None:
            return state
        rnd = rng.random
        stocks = [list(s) for s in state.stocks]
        masks = [0, state.position.white, state.position.black, state.position.red]
        occupied = state.position.occupied
        duels = sum(stocks[0])
        while duels:
            duels -= 1
            points = playable_points(occupied)
            n = len(points)
            picks = []
            for stock in stocks:
                have = [c for c in COLOURS if stock[c - 1]]
                i = int(rnd() * len(have) * n)
                colour = have[i // n]
                stock[colour - 1] -= 1
                picks.append((colour, points[i % n]))
            (first, _), (second, _) = picks
            if first == second:
                continue
            winner = 0 if BEATS[first] == second else 1
            colour, point = picks[winner]
            occupied |= 1 << point
            mask = masks[colour] = masks[colour] | 1 << point
            if not TOUCHING_MASK[point] & mask & ~(1 << point):
                continue                                # alone: a group of one
            size = group_of(point, mask, occupied).bit_count()
            if size >= 3:
                return SpagyricState(_position(masks), 0,
                                     placement_result(size, winner, colour,
                                                      self.player_names),
                                     PLACE_MOVES[colour][point], _frozen(stocks), winner)
        final = _position(masks)
        have = [c for c, n in zip(COLOURS, discard_pile(final, stocks)) if n]
        colours = (have[int(rnd() * len(have))], have[int(rnd() * len(have))])
        return SpagyricState(final, 0, tiebreak_result(*colours, self.player_names),
                             None, _frozen(stocks), None, colours)

    def winning_points(self, state) -> int:
        """The group of the ball that decided the game (four wins, three or five+
        loses, whatever its colour); 0 after the tiebreaker."""
        if sole_winner(state) is None or state.placer is None:
            return 0
        return sum(big_groups(state.position))

    # -- text ----------------------------------------------------------------
    def extra_text(self, state) -> str:
        parts = ["stocks=" + "/".join("W{}B{}R{}".format(*s) for s in state.stocks)]
        if state.placer is not None:
            parts.append(f"by={state.placer + 1}")
        if state.tiebreak is not None:
            parts.append("tiebreak=" + "".join(COLOUR_LETTERS[c] for c in state.tiebreak))
        return " ".join(parts)

    def state_from(self, position, to_move, extras) -> SpagyricState:
        name = self.info.name
        if to_move != 0:
            raise NotationError(f"{name}: both players choose at once, so the player "
                                "field is always 1")
        fields = {}
        for token in extras.split():
            key, eq, value = token.partition("=")
            if not eq or key not in ("stocks", "by", "tiebreak") or key in fields:
                raise NotationError(f"{name} state field {shown(token)} not understood "
                                    "(or given twice); fields: stocks=W8B8R8/W8B8R8, "
                                    "by=1|2, tiebreak=<two of W B R>")
            fields[key] = value
        if "stocks" not in fields:
            raise NotationError(f"{name} state needs the stocks, like stocks=W8B8R8/W8B8R8")
        halves = fields["stocks"].split("/")
        found = [_STOCK_RE.fullmatch(h) for h in halves]
        if len(halves) != 2 or not all(found):
            raise NotationError(f"{name} stocks {shown(fields['stocks'])}: write each "
                                "player's white, black and red balls left (0-8), like "
                                "stocks=W8B8R8/W7B8R6")
        stocks = tuple(tuple(int(g) for g in m.groups()) for m in found)
        if sum(stocks[0]) != sum(stocks[1]):
            raise NotationError(f"{name}: each duel takes a ball from both stocks, so "
                                "they hold as many balls each")
        if not position.is_stable():
            raise NotationError(f"{name} position: a ball is not resting on a full platform")
        if min(discard_pile(position, stocks)) < 0:
            raise NotationError(f"{name}: more balls of a colour on the board and in the "
                                f"stocks than the set's {2 * PER_COLOUR}")
        if not _duels_fit(position, stocks):
            raise NotationError(f"{name}: no sequence of duels leaves these stocks with "
                                "these balls on the board")
        placer = None
        if "by" in fields:
            if fields["by"] not in ("1", "2"):
                raise NotationError(f"{name}: by= names the player who placed the "
                                    "deciding ball, 1 or 2")
            placer = int(fields["by"]) - 1
        tiebreak = None
        if "tiebreak" in fields:
            text = fields["tiebreak"].upper()
            pile = discard_pile(position, stocks)
            if (len(text) != 2 or any(ch not in "WBR" for ch in text)
                    or not all(pile[COLOUR_LETTERS.index(ch) - 1] for ch in text)):
                raise NotationError(f"{name}: tiebreak= gives the two colours chosen "
                                    "from the discard pile, like tiebreak=RW")
            if any(stocks[0]) or placer is not None:
                raise NotationError(f"{name}: the tiebreaker comes only when the stocks "
                                    "are empty and nobody has won")
            tiebreak = tuple(COLOUR_LETTERS.index(ch) for ch in text)
        return self.settle(SpagyricState(position, 0, None, None, stocks, placer, tiebreak))

    def settle(self, state) -> SpagyricState:
        """Work out the result of a state read from text (and check it is one)."""
        name, position = self.info.name, state.position
        big = big_groups(position)
        if len(big) > 1:
            raise NotationError(f"{name}: two groups of three or more; the first one "
                                "would have ended the game")
        if not big:
            if state.placer is not None:
                raise NotationError(f"{name}: by= is only for a game decided by a group "
                                    "of three or more, and there is none")
            if state.tiebreak is not None:
                return SpagyricState(position, 0, tiebreak_result(*state.tiebreak,
                                                                   self.player_names),
                                     None, state.stocks, None, state.tiebreak)
            return state
        group = big[0]
        if state.tiebreak is not None:
            raise NotationError(f"{name}: no tiebreaker after a group of three or more")
        free = [p for p in points_of(group) if not SUPPORTED_MASK[p] & position.occupied]
        if not free or sum(state.stocks[0]) == DUELS:
            raise NotationError(f"{name}: the group of {group.bit_count()} could not have "
                                "been made by the last ball placed")
        if state.placer is None:
            raise NotationError(f"{name}: the game is over (a group of "
                                f"{group.bit_count()}); say who placed the deciding ball "
                                "with by=1 or by=2")
        colour = position.colour_at(free[0])
        result = placement_result(group.bit_count(), state.placer, colour, self.player_names)
        return SpagyricState(position, 0, result, None, state.stocks, state.placer)

    def describe(self, state) -> str:
        lines = [state.position.diagram()]
        if state.last is not None:
            lines.append(f"Last ball placed: {state.last.text()}")
        for p, stock in enumerate(state.stocks):
            lines.append(f"{self.player_name(p)}'s stock: "
                         "{} white, {} black, {} red".format(*stock))
        lines.append("Discard pile: {} white, {} black, {} red".format(
            *discard_pile(state.position, state.stocks)))
        outcome = self.outcome(state)
        if outcome is None:
            what = "a ball" if any(state.stocks[0]) else "a colour for the tiebreaker"
            lines.append(f"Both players choose {what} in secret.")
        elif outcome.is_draw:
            lines.append(f"Game over: draw. {outcome.reason}")
        else:
            lines.append(f"Game over: {self.player_name(outcome.winners[0])} won. "
                         f"{outcome.reason}")
        return "\n".join(lines)

    # -- hidden information -------------------------------------------------
    def observe(self, state, player: int) -> SpagyricState:
        """Everything: every ball leaving a stock is shown at a reveal, so the
        stocks and the discard pile are known to a player with a memory; the
        choice being made is never part of the state."""
        return state

    def determinise(self, observation, player: int, rng) -> SpagyricState:
        """The observation itself: there is nothing hidden to draw."""
        return observation


def _position(masks) -> Position:
    return Position.from_masks(masks[1], masks[2], masks[3])


def _frozen(stocks) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    return (tuple(stocks[0]), tuple(stocks[1]))


def _duels_fit(position, stocks) -> bool:
    """Could duels have used these balls and put these colours on the board?

    Count the duels by the pair of colours shown, ``n[a][b]`` with Player 1's
    colour ``a``: the rows add up to Player 1's used balls, the columns to
    Player 2's, and each colour on the board came from a duel it won
    (white from white-black pairs, and so on).  Unmatched pairs are ties.
    """
    used = [[PER_COLOUR - k for k in s] for s in stocks]
    placed = [position.mask(c).bit_count() for c in COLOURS]
    i = {c: c - 1 for c in COLOURS}
    for a_first in range(placed[0] + 1):              # white placed by Player 1
        for b_first in range(placed[1] + 1):          # black placed by Player 1
            for r_first in range(placed[2] + 1):      # red placed by Player 1
                n = [[0] * 3 for _ in range(3)]
                for colour, by_first in ((WHITE, a_first), (BLACK, b_first),
                                         (RED, r_first)):
                    weak = BEATS[colour]
                    n[i[colour]][i[weak]] = by_first
                    n[i[weak]][i[colour]] = placed[i[colour]] - by_first
                ties = [used[0][k] - sum(n[k]) for k in range(3)]
                if ties == [used[1][k] - sum(row[k] for row in n) for k in range(3)] \
                        and min(ties) >= 0:
                    return True
    return False


def play_duels(game: Spagyric, text: str, state=None) -> Match:
    """A match after the duels in ``text``: pairs of choices like ``Wc3/Ba1``,
    separated by spaces (Player 1's choice first).  Each pair is checked.

    >>> from shibumi import load
    >>> play_duels(load('spagyric'), 'Wc3/Ba1 Rc1/Rc1').state.stocks
    ((7, 8, 7), (8, 7, 7))
    """
    match = game.new_match(state=state)
    for pair in text.split():
        parts = pair.split("/")
        if len(parts) != 2:
            raise NotationError(f"a duel is two choices joined by '/', like Wc3/Ba1, "
                                f"not {shown(pair)}")
        match.push_joint(parts)
    return match


__all__ = ["BEATS", "DUELS", "SpagyricState", "Spagyric", "discard_pile", "duel_winner",
           "group_size", "play_duels"]
