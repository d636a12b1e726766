"""The game model carries the shapes of every game in the catalogue.

Small games declared here (not registered) exercise what Spline and Span do
not: chance from a seeded generator, hidden information, simultaneous
choices, multi-part turns, 1 and 10 players, scores.
"""
import random
from dataclasses import dataclass

import pytest

from shibumi import CHANCE, SIMULTANEOUS, TERMINAL, IllegalMoveError, Move
from shibumi.analysis import perft, playouts
from shibumi.game import Game, GameInfo, Outcome, State
from shibumi.games.placement import playable_points
from shibumi.players import MCTSPlayer
from shibumi.position import BLACK, RED, WHITE

from conformance import check_honest_ai

INFO = dict(designer="test", year="2026", family="test", source="tests", summary="toy")


@dataclass(frozen=True)
class BagState(State):
    bag: tuple[int, ...] = (4, 4, 4)     # white, black, red balls left
    drawn: int | None = None


class DrawAndPlace(Game):
    """Solitaire: draw a ball from a bag, place it; score = balls placed."""
    info = GameInfo(name="Bagtoy", min_players=1, max_players=1, chance=True,
                    max_length=24, **INFO)

    def initial_state(self, rng=None):
        return BagState()

    def current_player(self, state):
        if state.result is not None:
            return TERMINAL
        return CHANCE if state.drawn is None else 0

    def chance_outcomes(self, state):
        total = sum(state.bag)
        return [(Move.choose(c), n / total) for c, n in zip((WHITE, BLACK, RED), state.bag) if n]

    def legal_moves(self, state, player=None):
        return [Move.place(p, state.drawn) for p in playable_points(state.position.occupied)]

    def apply(self, state, move):
        if move.kind == "choose":
            bag = list(state.bag)
            bag[move.colour - 1] -= 1
            return BagState(state.position, 0, None, move, tuple(bag), move.colour)
        position = state.position.place(move.point, move.colour)
        result = None if sum(state.bag) else Outcome((0,), "bag empty",
                                                     scores=(position.count(),))
        return BagState(position, 0, result, move, state.bag, None)


@dataclass(frozen=True)
class DuelState(State):
    hands: tuple[tuple[int, ...], ...] = ((WHITE, BLACK, RED) * 2,) * 2
    chosen: tuple[int, ...] | None = None


class Duel(Game):
    """Two players secretly choose colours at once; white beats black beats red
    beats white; the winner places the winning ball.  Hands are hidden."""
    info = GameInfo(name="Dueltoy", simultaneous=True, hidden_information=True,
                    max_length=12, **INFO)
    BEATS = {WHITE: BLACK, BLACK: RED, RED: WHITE}

    def initial_state(self, rng=None):
        return DuelState()

    def current_player(self, state):
        if state.result is not None:
            return TERMINAL
        return SIMULTANEOUS if state.chosen is None else state.to_move

    def legal_moves(self, state, player=None):
        if state.chosen is None:
            return sorted({Move.choose(c) for c in state.hands[player]})
        return [Move.place(p, state.chosen[0]) for p in playable_points(state.position.occupied)]

    def apply_joint(self, state, moves):
        a, b = (m.colour for m in moves)
        hands = tuple(_without(h, m.colour) for h, m in zip(state.hands, moves))
        if a == b:
            return self._maybe_end(DuelState(state.position, 0, None, None, hands, None))
        winner = 0 if self.BEATS[a] == b else 1
        return DuelState(state.position, winner, None, None, hands, ((a, b)[winner],))

    def apply(self, state, move):
        pos = state.position.place(move.point, move.colour)
        return self._maybe_end(DuelState(pos, 0, None, move, state.hands, None))

    def _maybe_end(self, state):
        if any(state.hands):
            return state
        w, b = state.position.count(WHITE), state.position.count(BLACK)
        winners = () if w == b else ((0,) if w > b else (1,))
        return DuelState(state.position, 0, Outcome(winners, "hands empty", scores=(w, b)),
                         None, state.hands, None)

    def observe(self, state, player):
        hidden = tuple(h if i == player else () for i, h in enumerate(state.hands))
        return DuelState(state.position, state.to_move, state.result, state.last, hidden,
                         state.chosen)

    def determinise(self, observation, player, rng):
        """The other hand: as many balls as one's own, drawn from a starting hand."""
        size = len(observation.hands[player])
        drawn = tuple(sorted(rng.sample((WHITE, BLACK, RED) * 2, size)))
        hands = tuple(h if i == player else drawn for i, h in enumerate(observation.hands))
        return DuelState(observation.position, observation.to_move, observation.result,
                         observation.last, hands, observation.chosen)


def _without(hand, colour):
    i = hand.index(colour)
    return hand[:i] + hand[i + 1:]


@dataclass(frozen=True)
class PairState(State):
    part: int = 0


class Pairs(Game):
    """2 to 10 players; each turn places two balls (a two-part turn)."""
    info = GameInfo(name="Pairtoy", min_players=2, max_players=10, max_length=30, **INFO)
    parameters = {"players": 10}

    def initial_state(self, rng=None):
        return PairState()

    def legal_moves(self, state, player=None):
        return [Move.place(p, RED) for p in playable_points(state.position.occupied)]

    def apply(self, state, move):
        pos = state.position.place(move.point, RED)
        part, to_move = (1, state.to_move) if state.part == 0 else \
            (0, (state.to_move + 1) % self.num_players)
        result = Outcome((state.to_move,), "placed the last ball") if pos.count() == 30 else None
        return PairState(pos, to_move, result, move, part)


def test_chance_is_seeded_and_undo_skips_it():
    game = DrawAndPlace()
    a, b = game.new_match(seed=5), game.new_match(seed=5)
    assert a.state == b.state and a.current_player == 0   # first draw already made
    assert a.history[0][0].kind == "choose"
    move = a.legal_moves()[0]
    a.push(move)
    a.pop()                                # undoes the move and the draw after it
    assert a.state.drawn is not None and len(a.history) == 1
    stats = playouts(game, max_games=50, seed=1)
    assert stats.games == 50 and stats.mean_length == 12 * 2 - 12  # 12 balls placed
    assert perft(game, 2) == 3 * 16          # 3 colours can be drawn, then 16 holes


def test_simultaneous_choices_and_hidden_hands():
    game = Duel()
    match = game.new_match(seed=1)
    assert match.current_player == SIMULTANEOUS
    with pytest.raises(IllegalMoveError):
        match.push_joint([Move("=W"), Move("=3")])   # 3 is no colour in hand
    match.push_joint([Move("=W"), Move("=B")])      # white beats black
    assert match.current_player == 0
    match.push("a1")
    assert match.state.position.colour_at(0) == WHITE
    seen = game.observe(match.state, 1)
    assert seen.hands[0] == () and len(seen.hands[1]) == 5
    rng = random.Random(3)
    while not match.is_over():
        if match.current_player == SIMULTANEOUS:
            match.push_joint(rng.choice(game.legal_moves(match.state, p)) for p in (0, 1))
        else:
            match.push(MCTSPlayer(iterations=30, seed=2).choose(game, match.state))
    assert match.outcome().scores is not None


def test_the_ai_plays_a_hidden_hand_game_honestly():
    check_honest_ai(Duel(), seeds=range(6), steps=(0, 1, 2, 3, 4, 5))


def test_an_ai_that_peeked_would_be_caught():
    """The honesty check fails for a player whose choice follows a hidden hand,
    and for a game whose observation hides nothing its determinise redraws."""
    class Peeker:
        def __init__(self, seed):
            pass

        def choose(self, game, state, player=None):   # plays the opponent's first colour
            if game.current_player(state) == SIMULTANEOUS:
                wanted = Move.choose(state.hands[1 - player][0])
                legal = game.legal_moves(state, player)
                return wanted if wanted in legal else legal[0]
            return game.legal_moves(state)[0]

    with pytest.raises(AssertionError, match="cannot see"):
        check_honest_ai(Duel(), seeds=range(6), steps=(0, 1, 2, 3), player=Peeker)

    class Unmasked(Duel):
        def observe(self, state, player):
            return state

    with pytest.raises(AssertionError, match="looks different"):
        check_honest_ai(Unmasked(), seeds=range(3), steps=(0, 1, 2))


@pytest.mark.parametrize("players", [2, 3, 7, 10])
def test_multi_part_turns_for_up_to_ten_players(players):
    game = Pairs(players=players)
    match = game.new_match()
    match.push("a1")
    assert match.current_player == 0        # second part of the same turn
    match.push("c1")
    assert match.current_player == 1
    final = game.random_playout(match.state, random.Random(0))
    assert final.result.winners == ((29 // 2) % players,)
    with pytest.raises(ValueError, match="players"):
        Pairs(players=11)


def test_self_play_counts_choices_not_draws():
    from shibumi.analysis import self_play
    stats = self_play(DrawAndPlace(), games=5, seed=1)
    assert set(stats.branching[0]) == {16}         # 16 holes, whatever colour was drawn
