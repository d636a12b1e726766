import random

from hypothesis import HealthCheck, settings, strategies as st

from shibumi.position import COLOURS, Position

settings.register_profile("default", deadline=None, max_examples=150,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("default")


def random_position(seed: int, balls: int, colours=COLOURS) -> Position:
    """A stable position reached by random placements of random colours."""
    rng = random.Random(seed)
    pos = Position.empty()
    for _ in range(balls):
        playable = [p for p in range(30) if pos.is_playable(p)]
        if not playable:
            break
        pos = pos.place(rng.choice(playable), rng.choice(colours))
    return pos


positions = st.builds(random_position, st.integers(0, 2**32), st.integers(0, 30))
