"""The stored table of play under search (shibumi.book.strong_play)."""
import pytest

from shibumi import all_games
from shibumi.book.chapter import Chapter
from shibumi.book.strong_play import contested, first_player_row, play, read_table

TABLE = read_table()
CONTESTED = [cls.info.name.lower() for cls in all_games() if contested(cls.info.name)]


def test_every_contested_game_has_an_entry_and_no_other_does():
    assert sorted(TABLE) == sorted(CONTESTED)


@pytest.mark.parametrize("name", CONTESTED)
def test_an_entry_adds_up(name):
    entry = TABLE[name]
    assert len(entry["by_seat"]) == entry["players"]
    # A shared win counts a fraction to each winner, stored to three decimals.
    assert sum(entry["by_seat"]) + entry["draws"] == pytest.approx(
        entry["games"], abs=0.0005 * (entry["players"] + 1))


def test_the_cheapest_entry_replays_exactly():
    """The arena is seeded, so an entry is reproducible: replaying the one that
    took least time must give the same results (a table left behind by a change
    to the search or the rules fails here)."""
    name = min(TABLE, key=lambda n: TABLE[n]["seconds"])
    entry = TABLE[name]
    again = play(name, entry["iterations"], entry["games"], entry["seed"])
    assert (again["by_seat"], again["draws"]) == (entry["by_seat"], entry["draws"])


@pytest.mark.slow
@pytest.mark.parametrize("name", CONTESTED)
def test_every_entry_replays_exactly(name):
    entry = TABLE[name]
    again = play(name, entry["iterations"], entry["games"], entry["seed"])
    assert (again["by_seat"], again["draws"]) == (entry["by_seat"], entry["draws"])


def test_the_chapter_row_reads_the_table():
    table = {"span": {"iterations": 200, "games": 30, "seed": 1, "players": 2,
                      "by_seat": [23, 7], "draws": 0, "seconds": 1.0}}
    heading, value = first_player_row("Span", table)
    assert "200 iterations" in heading
    assert value == "won 23 of 30 (77%; 95% interval 59% to 88%)"
    assert first_player_row("Spline", table) is None
    assert Chapter("span")._first_player_searched() == first_player_row("span")
    assert Chapter("sprout")._first_player_searched() is None       # cooperative
