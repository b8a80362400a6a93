"""The ledger and the leaderboard on a real database (a SQLite file and a PostgreSQL server): a match applies once,
concurrent matches of one player from several processes lose no update, and the leaderboard pages cleanly."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import pytest
from sqlalchemy import select

from firebreak.archive.database import Database
from firebreak.ratings import board, ledger, model
from firebreak.ratings.tables import rating_changes, ratings

PROCESSES = 4
MATCHES_EACH = 8


def _match(match_id: str, keys: list[str], places: list[int]) -> ledger.RatedMatch:
    return ledger.RatedMatch(match_id, "t", dict(enumerate(keys)), dict(enumerate(places)))


def test_a_match_applies_once_and_a_rerun_changes_nothing(db: Database) -> None:
    rated = _match("m1", ["ann", "bot:random", "bot:random"], [2, 1, 3])
    assert ledger.apply(db, rated) is True
    with db.read() as conn:
        first = conn.execute(select(ratings).order_by(ratings.c.key)).all()
        changes = ledger.changes_of(conn, "m1")
    assert ledger.apply(db, rated) is False
    with db.read() as conn:
        assert conn.execute(select(ratings).order_by(ratings.c.key)).all() == first
        assert ledger.changes_of(conn, "m1") == changes
    assert [(c.seat, c.key, c.place, c.games) for c in changes] == [(0, "ann", 2, 1), (1, "bot:random", 1, 1),
                                                                     (2, "bot:random", 3, 1)]
    assert changes[1].after == changes[2].after  # the level's one new rating, on both of its seats


def _apply_all(url: str, matches: list[ledger.RatedMatch]) -> int:
    database = Database(url)
    try:
        return sum(ledger.apply(database, rated) for rated in matches)
    finally:
        database.close()


def _pool() -> ProcessPoolExecutor:
    return ProcessPoolExecutor(PROCESSES, mp_context=multiprocessing.get_context("spawn"))


def test_concurrent_matches_of_one_player_lose_no_update(db: Database) -> None:
    batches = [[_match(f"p{p}m{n}", ["ann", f"opp{p}-{n}", "bot:greedy"], [1 + (n + p) % 3, 1 + (n + p + 1) % 3,
                                                                         1 + (n + p + 2) % 3])
                for n in range(MATCHES_EACH)] for p in range(PROCESSES)]
    with _pool() as pool:
        applied = list(pool.map(_apply_all, [db.url] * PROCESSES, batches))
    assert applied == [MATCHES_EACH] * PROCESSES
    total = PROCESSES * MATCHES_EACH
    with db.read() as conn:
        for key in ("ann", "bot:greedy"):
            chain = conn.execute(select(rating_changes).where(rating_changes.c.key == key)
                                 .order_by(rating_changes.c.games_after)).mappings().all()
            assert [row["games_after"] for row in chain] == list(range(1, total + 1))
            mu, sigma = model.MU, model.SIGMA
            for row in chain:  # each match started from the rating the previous one left: none was lost
                assert (row["mu_before"], row["sigma_before"]) == (mu, sigma)
                mu, sigma = row["mu_after"], row["sigma_after"]
            final = conn.execute(select(ratings).where(ratings.c.key == key)).mappings().one()
            assert (final["mu"], final["sigma"], final["games"]) == (mu, sigma, total)


def test_one_match_applied_by_several_processes_at_once_counts_once(db: Database) -> None:
    rated = _match("same", ["ann", "bob", "bot:search"], [1, 2, 3])
    with _pool() as pool:
        applied = list(pool.map(_apply_all, [db.url] * PROCESSES, [[rated]] * PROCESSES))
    assert sorted(applied) == [0] * (PROCESSES - 1) + [1]
    with db.read() as conn:
        assert len(ledger.changes_of(conn, "same")) == 3
        assert conn.execute(select(ratings.c.games)).scalars().all() == [1, 1, 1]


def test_the_leaderboard_pages_in_order_with_ranks_and_every_entry_once(db: Database) -> None:
    players = [f"p{n:02d}" for n in range(25)]
    for n in range(0, 24, 2):  # pairs: the first of each pair wins; p24 never plays
        ledger.apply(db, _match(f"m{n}", [players[n], players[n + 1]], [1, 2]))
    ledger.apply(db, _match("m24", [players[24], "bot:random"], [1, 1]))
    seen: list[board.Entry] = []
    after = None
    with db.read() as conn:
        while True:
            page = board.leaderboard(conn, "t", 7, after)
            seen += page.items
            if not page.has_next_page:
                break
            after = page.end_cursor
        assert [e.rating.rank for e in seen] == list(range(1, 27))
        keys = [e.rating.key for e in seen]
        assert sorted(keys) == sorted([*players, "bot:random"])
        order = [(-e.rating.skill.mu, e.rating.key) for e in seen]
        assert order == sorted(order)
        assert seen[0].rating.provisional and seen[0].rating.games == 1
        mine = board.rating_of(conn, "t", seen[5].rating.key)
        assert mine is not None and mine.rank == 6
        assert [r.rank for r in board.ratings_of(conn, seen[-1].rating.key)] == [26]
        assert board.leaderboard(conn, "other", 5, None).items == []
        for bad in ("nope", "!!", board.encode(float("inf"), "x")):
            with pytest.raises(board.BadCursor):
                board.leaderboard(conn, "t", 5, bad)
