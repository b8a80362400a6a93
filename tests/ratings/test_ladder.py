"""The bot ladder bench's lineups: every level of a title sits once per match, in every seat equally often."""

from __future__ import annotations

from collections import Counter

from bench.ratings_ladder import lineups
from firebreak.domain import titles
from firebreak.domain.bots import levels


def test_every_level_sits_once_per_match_and_in_every_seat_equally() -> None:
    for title in titles.all_titles():
        names = list(levels(title))
        if not title.min_seats <= len(names) <= title.max_seats:
            continue
        games = lineups(title.id, 3 * len(names))
        assert all(sorted(lineup) == sorted(names) for lineup in games)
        for seat in range(len(names)):
            assert set(Counter(lineup[seat] for lineup in games).values()) == {3}
