"""Checks every game must pass; test_conformance runs them on all registered games.

A game's own test file may call them directly, e.g. ``check_random_games('spline')``.
"""
import random

from shibumi import TERMINAL, load
from shibumi.game import CHANCE, SIMULTANEOUS, Game
from shibumi.notation import transform_move


def check_declaration(name):
    game = load(name)
    info = game.info
    assert info.name and info.designer and info.year and info.family and info.source
    assert info.summary and 1 <= info.complexity <= 5
    assert 1 <= info.min_players <= info.max_players <= 10
    assert game.rules.strip() and game.notes.strip()
    assert load(info.name.lower()).info is info
    for alias in info.aliases:
        assert load(alias).info is info


#: Action counts after which a random game's record is replayed and compared.
REBUILD_AT = frozenset([3, 7] + [10 * 2 ** k for k in range(8)])


def check_random_games(name, seeds=range(40), **params):
    """Random games through the validating Match reach an outcome within max_length."""
    game = load(name, **params)
    for seed in seeds:
        rng = random.Random(seed)
        match = game.new_match(seed=seed)
        actions = 0
        while match.current_player != TERMINAL:
            player = match.current_player
            assert player != CHANCE                     # the match resolves chance itself
            if player == SIMULTANEOUS:
                match.push_joint(rng.choice(game.legal_moves(match.state, p))
                                 for p in range(game.num_players))
            else:
                legal = match.legal_moves()
                assert legal, f"{name}: a player to move has no legal move"
                move = rng.choice(legal)
                assert match.parse(match.move_text(move)) == move
                match.push(move)
            actions += 1
            assert actions <= game.info.max_length, f"{name}: longer than max_length"
            again = game.parse_state(game.state_text(match.state))
            assert game.state_key(again) == game.state_key(match.state), \
                f"{name}: state text does not round-trip"
            if actions in REBUILD_AT or match.is_over():        # O(n log n) replays
                resumed = game.new_match(record=match.record())
                assert game.state_key(resumed.state) == game.state_key(match.state), \
                    f"{name}: the record does not rebuild the game"
        outcome = match.outcome()
        assert outcome is not None
        assert all(0 <= w < game.num_players for w in outcome.winners)
        assert match.legal_moves() == []
        while any(game.current_player(before) != CHANCE for _, before in match.history):
            match.pop()
        assert match.state == game.new_match(seed=seed).state     # opening draws stay


def random_walk(game, seed, steps):
    """The state after up to `steps` uniformly random actions from the start."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(steps):
        if game.is_terminal(state):
            break
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    return state


def check_symmetries(game, state, indices=None):
    """Each symmetry (default: the game's own) maps legal moves and outcome along
    with the whole state; returns the images for further checks."""
    moves = set(game.legal_moves(state))
    images = []
    for index in game.symmetries if indices is None else indices:
        perm = game.board.symmetries[index]     # the pyramid's or a grid's
        image = game.transform_state(state, perm)
        assert set(game.legal_moves(image)) == {transform_move(m, perm) for m in moves}
        assert game.outcome(image) == game.outcome(state)
        images.append(image)
    return images


def check_terminal_play(name, seed=0, **params):
    """A scripted human (always the first legal move) plays the AI to the end
    through the terminal interface (``params``: the game's parameters)."""
    from shibumi.play import play_in_terminal
    out, listing = [], []

    def write(text):
        if listing == ["asked"]:          # the answer to "moves"
            listing[:] = [text]
        out.append(text)

    def read(prompt):
        if listing and listing[0] != "asked":
            move = listing.pop().split()[0]
            return move
        listing[:] = ["asked"]
        return "moves"

    play_in_terminal(load(name, **params), ai="mcts:20", seed=seed, read=read, write=write)
    assert "Game over" in out[-1], out[-3:]
    assert not any(line.startswith("Not played") for line in out)


def moves_reached_by_clicks(table) -> set:
    """Every move a human can play now with one click on a point (undone at once),
    or by picking from the list a click narrows to (the list is then reset)."""
    reached = set()
    for point in sorted({m.point for m in table.match.legal_moves() if m.point is not None}):
        played = table.click(point)
        if played is not None:
            reached.add(played)
            table.undo()
        else:
            reached |= set(table.options())
            table.show_all()
    return reached


def check_playouts(name, games=300, **params):
    """The game's own playout loop plays exactly the rules' games (or, for a
    game that draws by rejection, games the rules allow, drawn uniformly).

    From the start and from positions along random games, the game's
    ``random_playout`` and the base class's loop (``legal_moves`` and
    ``apply``, one reference draw per choice) are given generators with the
    same seed and must end in equal states, outcome included, having drawn
    the same numbers (the search goes on with the same generator).  A fast path
    that forked the rules (a missed move, a move out of order, a wrong
    capture or ending) would sooner or later play a different game.

    A game that draws by rejection (``reference_draws`` False) plays other
    games with the same seed: its actions are replayed through the rules
    instead (each one legal, the same final state) and its draws are
    checked for uniformity (:func:`check_uniform_draws`).
    """
    game = load(name, **params)
    for seed in range(games):
        start = game.initial_state(random.Random(seed))
        walk = random.Random(-seed)
        for _ in range(seed % 5 * 3):            # four starts in five from along a game,
            # some in the middle of a turn of several actions
            if game.is_terminal(start):
                break
            start = game.random_step(start, walk)
        if not game.reference_draws:
            moves = []
            fast = game.random_playout(start, random.Random(seed), moves=moves)
            match = game.new_match(state=start)
            for move in moves:
                match.push(move)                 # refuses an illegal action
            assert match.is_over() and match.state == fast, \
                f"{game!r}, seed {seed}: the fast playout's actions end elsewhere by the rules"
            continue
        fast_rng, slow_rng = random.Random(seed), random.Random(seed)
        fast = game.random_playout(start, fast_rng)
        slow = Game.random_playout(game, start, slow_rng)
        assert game.is_terminal(fast) and game.outcome(fast) is not None
        assert fast_rng.getstate() == slow_rng.getstate(), \
            f"{game!r}, seed {seed}: the fast playout drew a different number of times"
        assert fast == slow, (f"{game!r}, seed {seed}: the fast playout ended in\n"
                              f"{game.state_text(fast)} {game.outcome(fast)}\nthe rules in\n"
                              f"{game.state_text(slow)} {game.outcome(slow)}")
    if not game.reference_draws:
        check_uniform_draws(game)


def check_uniform_draws(game, seed=7, per_move=40, steps=(0, 3, 4, 5, 6, 7, 11, 17, 26)):
    """A rejection-drawing ``random_playout`` picks each legal action equally
    often. At states along a random game, the first actions of ``per_move``
    playouts per legal action pass chi-squared tests of uniformity at a
    one-in-ten-thousand level (the seed is fixed, so the test is
    repeatable): action by action at each state, and, summed over the
    states, by kind of action and colour (a mild lean towards a colour or a
    kind of action, spread over many actions, shows there)."""
    walk, rng = random.Random(seed), random.Random(seed)
    state, tested = game.initial_state(random.Random(seed)), 0
    kinds_chi2 = kinds_df = 0
    for step in range(max(steps) + 1):
        if game.is_terminal(state):
            break
        legal = game.legal_moves(state)
        if step in steps and len(legal) > 1:
            counts = dict.fromkeys(legal, 0)
            for _ in range(per_move * len(legal)):
                first = []
                game.random_playout(state, rng, moves=first)
                counts[first[0]] += 1
            chi2 = _chi2(counts.values(), [per_move] * len(legal))
            assert chi2 < _chi2_limit(len(legal) - 1), (
                f"{game!r}: first actions not uniform (chi2 {chi2:.1f} over {len(legal) - 1} "
                f"df) at {game.state_text(state)}")
            kinds: dict = {}
            for move, count in counts.items():
                seen, expected = kinds.get((move.kind, move.colour), (0, 0))
                kinds[move.kind, move.colour] = seen + count, expected + per_move
            kinds_chi2 += _chi2(*zip(*kinds.values()))
            kinds_df += len(kinds) - 1
            tested += 1
        state = game.random_step(state, walk)
    assert tested >= 3
    if kinds_df:
        assert kinds_chi2 < _chi2_limit(kinds_df), (
            f"{game!r}: kinds of first action not uniform (chi2 {kinds_chi2:.1f} over "
            f"{kinds_df} df)")


def _chi2(seen, expected) -> float:
    return sum((s - e) ** 2 / e for s, e in zip(seen, expected))


def _chi2_limit(df: int) -> float:
    """The chi-squared quantile with ``df`` degrees of freedom that is passed
    once in ten thousand (Wilson and Hilferty's approximation, at the normal
    quantile 3.72)."""
    return df * (1 - 2 / (9 * df) + 3.72 * (2 / (9 * df)) ** 0.5) ** 3


def check_honest_ai(game, seeds=range(3), steps=(0, 3, 6), iterations=40, player=None):
    """The AI decides from its seat's observation only.

    Along random games, for each seat that chooses: a state drawn from that
    seat's observation (``determinise``) looks the same from the seat, and
    the AI, given either the true state or the drawn one, makes the same
    choice with the same seed.  A search that peeked at the true hidden parts
    would, sooner or later, choose differently.  ``player(seed)`` makes the
    player under test (default: MCTS with ``iterations``).
    """
    from shibumi.players import MCTSPlayer
    if player is None:
        def player(seed):
            return MCTSPlayer(iterations=iterations, seed=seed)
    checked = 0
    for seed in seeds:
        rng = random.Random(seed)
        match = game.new_match(seed=seed)
        for ply in range(max(steps) + 1):
            if match.is_over():
                break
            mover = match.current_player
            seats = range(game.num_players) if mover == SIMULTANEOUS else [mover]
            if ply in steps:
                for seat in seats:
                    seen = game.observe(match.state, seat)
                    other = game.determinise(seen, seat, random.Random(seed * 7 + ply))
                    assert game.observe(other, seat) == seen, \
                        f"{game.info.name}: determinise gave a state that looks different"
                    choices = {player(seed).choose(game, s, seat)
                               for s in (match.state, other)}
                    assert len(choices) == 1, f"{game.info.name}: the AI's choice depends " \
                        f"on what seat {seat + 1} cannot see: {choices}"
                    checked += 1
            if mover == SIMULTANEOUS:
                match.push_joint(rng.choice(game.legal_moves(match.state, p))
                                 for p in range(game.num_players))
            else:
                match.push(rng.choice(match.legal_moves()))
    assert checked, f"{game.info.name}: no choice was checked"
