"""Helpers for the archive's tests: both archive backends (SQLite, the session's PostgreSQL: tests/postgres.py) as
one parametrized fixture, and matches played to their end in-process on the
real Redis (bots through the pipeline's own advance, people through act)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from redis.asyncio import Redis as AsyncRedis

from firebreak.archive.database import Database, DatabaseSettings
from firebreak.matches.callers import Caller
from firebreak.matches.config import Settings
from firebreak.matches.lifecycle import MatchStatus
from firebreak.matches.lobby import Lobby
from firebreak.matches.pipeline import Pipeline
from firebreak.matches.scheduler import Scheduler, automated_next
from firebreak.matches.seatlife import SeatLife
from firebreak.matches.store import Loaded, MatchStore, engine

BACKENDS = ["sqlite", "postgresql"]


def database_url(request: pytest.FixtureRequest, backend: str, folder: Path) -> str:
    """The archive URL of a backend: a SQLite file in the folder, or the session's PostgreSQL."""
    if backend == "postgresql":
        return str(request.getfixturevalue("postgres_url"))
    return DatabaseSettings(data_dir=str(folder)).resolved_url


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """The archive on each backend in turn, its tables created."""
    db = Database(database_url(request, request.param, tmp_path))
    db.create()
    yield db
    db.close()


@dataclass
class Played:
    """A match played in-process: its id, who sat where (person seats by player id) and the seed."""

    match_id: str
    title: str
    seats: int
    players: dict[str, int]


async def play(store: MatchStore, title: str, seats: int, seed: int, players: list[str], bots: list[str],
               resign: str | None = None, cancel: bool = False) -> Played:
    """Create a match with seats bound to the players and the bots, play it to its end (random legal actions for
    the people, the pipeline's own advance for the bots and non-player steps); `resign`: that player resigns at
    once; `cancel`: the match is called off before it starts instead (its bot seats left open)."""
    scheduler = Scheduler(store.queue, store.settings)
    lobby, pipeline = Lobby(store, scheduler), Pipeline(store, scheduler)
    created = await lobby.create(title, seats, None, seed)
    seated: dict[str, int] = {}
    for player in players:
        seated[player] = (await lobby.join(created.match_id, None, player, player=player)).seat
    if cancel:
        await SeatLife(store, scheduler).cancel(created.match_id)
        return Played(created.match_id, title, seats, seated)
    for level in bots:
        await lobby.add_bot(created.match_id, None, level, created.host_token)
    if resign is not None:
        await SeatLife(store, scheduler).resign(created.match_id, seated[resign])
    rng = random.Random(seed)
    while True:
        loaded = await store.load(created.match_id)
        assert loaded is not None
        if loaded.status is MatchStatus.OVER:
            return Played(created.match_id, title, seats, seated)
        match = engine(loaded)
        if automated_next(match, loaded.seats):
            await pipeline.advance(loaded.id, loaded.version, 100000)
            continue
        seat = match.to_act()[0]
        player = next(p for p, s in seated.items() if s == seat)
        await pipeline.act(loaded.id, Caller(player=player), rng.choice(match.legal_actions(seat)), loaded.version)


def with_store(redis_url: str, queue: str, work: object, **settings: str) -> object:
    """Run `work(store)` (a coroutine function) on a store over the Redis, with FIREBREAK_* settings."""
    async def go() -> object:
        connection = AsyncRedis.from_url(redis_url, decode_responses=True)
        try:
            config = Settings.from_env({"REDIS_URL": redis_url, "FIREBREAK_QUEUE": queue, **settings})
            return await work(MatchStore(connection, config))  # type: ignore[operator]
        finally:
            await connection.aclose()

    return asyncio.run(go())


def same_match(a: Loaded, b: Loaded) -> None:
    """Two loads of a match hold the same stored match."""
    assert (a.id, a.meta, a.seats, a.version, a.data) == (b.id, b.meta, b.seats, b.version, b.data)


def wait(predicate: object, what: str, deadline: float = 60.0) -> object:
    """Poll until the predicate answers something truthy (at most `deadline` seconds)."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        got = predicate()  # type: ignore[operator]
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")
