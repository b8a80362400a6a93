"""The archive on both backends (SQLite file, a private PostgreSQL): finished matches of both titles, played on the
real Redis, archived once whatever runs at once; read back as Redis held them; exported as documents that replay
through the engine alone to the same result; and the history page (my matches) served from it once Redis lets go."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from sqlalchemy import func, select

from firebreak.archive.database import Database
from firebreak.archive.export import BadExport, export, replay
from firebreak.archive.reader import ArchiveReader
from firebreak.archive.records import archive_match, is_archived, store_record
from firebreak.archive.tables import archived_matches, archived_players
from firebreak.domain import titles
from firebreak.matches import keys, mypage
from firebreak.matches.lifecycle import EndReason, MatchStatus
from firebreak.matches.store import MatchStore
from tests.service.archive_support import Played, database, play, same_match, with_store

__all__ = ["database"]  # the fixture this module uses (postgres_url: tests/conftest.py)

QUEUE = "archive-test"
PLAYS = [("greatfire", 3, ["ann", "bob"], ["random"]), ("london", 3, ["ann", "bob"], ["random"])]


def _count(db: Database, table: Any, match_id: str) -> int:
    with db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(table).where(table.c.match_id == match_id))
                   .scalar_one())


def _engine_replay(doc: dict[str, Any]) -> Any:
    """The document's log played through the title's engine directly (no service code): the engine's result."""
    match = titles.get(doc["title"]).new_match(seats=doc["seatCount"], seed=doc["seed"], options=doc["options"])
    for entry in doc["log"]:
        if "service" in entry:
            match.version += 1
        elif entry.get("system"):
            match.run_system_step()
        else:
            match.apply(entry["seat"], entry["action"])
    return match.result()


def test_a_finished_match_of_each_title_is_archived_once_and_its_export_replays_to_its_result(
        database: Database, redis_url: str) -> None:
    async def work(store: MatchStore) -> None:
        for seed, (title, seats, people, bots) in enumerate(PLAYS, start=11):
            tag = f"{seed}{time.time_ns()}"
            players = [f"{p}{tag}" for p in people]
            played = await play(store, title, seats, seed, players, bots)
            loaded = await store.load(played.match_id)
            assert loaded is not None and loaded.end_reason is EndReason.FINISHED
            live = await export(store, loaded)
            # four finishers at once, then one more: one record, one index row per player
            done = await asyncio.gather(*(archive_match(database, store, loaded) for _ in range(4)))
            assert sorted(done) == [False, False, False, True]
            assert await archive_match(database, store, loaded) is False
            assert _count(database, archived_matches, loaded.id) == 1
            assert _count(database, archived_players, loaded.id) == len(players)
            # read back as Redis held it
            reader = ArchiveReader(database)
            kept = await reader.load(loaded.id)
            assert kept is not None
            same_match(kept, loaded)
            assert await reader.history(loaded.id) == await store.history(loaded.id)
            # the export, from Redis and from the archive alike, replays to the result the service gave
            doc = await export(store, kept)
            assert doc == live
            assert doc["seed"] == seed and doc["finalVersion"] == loaded.version == len(doc["log"])
            assert {s["player"] for s in doc["seats"] if s["kind"] == "player"} == set(players)
            assert [s["level"] for s in doc["seats"] if s["kind"] == "bot"] == bots
            text = json.dumps(doc)
            assert "tokenHash" not in text and "hostHash" not in text and loaded.meta["hostHash"] not in text
            assert all(record.token_hash not in text for record in loaded.seats.values() if record.token_hash)
            assert replay(doc) == doc["result"]
            result = _engine_replay(json.loads(text))
            assert result is not None and list(result.winners) == doc["result"]["winners"]
            assert [(s.seat, s.total) for s in result.scores] == [(s["seat"], s["total"])
                                                                 for s in doc["result"]["scores"]]
            assert doc["result"]["winners"] and doc["endReason"] == EndReason.FINISHED.name

    with_store(redis_url, QUEUE, work)


def test_a_tampered_export_replays_to_another_result_or_is_refused(database: Database, redis_url: str) -> None:
    async def work(store: MatchStore) -> None:
        played = await play(store, "greatfire", 2, 5, [f"ann{time.time_ns()}"], ["random"])
        loaded = await store.load(played.match_id)
        assert loaded is not None
        doc = await export(store, loaded)
        for bad in ({**doc, "version": 2}, {**doc, "format": "other"}, {**doc, "title": "nope"},
                    {**doc, "log": [*doc["log"][:-1], {"seat": 0, "action": {"no": "such action"}}]}):
            try:
                replay(bad)
            except BadExport:
                continue
            raise AssertionError("a document that cannot be replayed was replayed")

    with_store(redis_url, QUEUE, work)


def test_resigned_and_cancelled_matches_are_archived_with_their_end_reason(database: Database,
                                                                           redis_url: str) -> None:
    async def work(store: MatchStore) -> None:
        tag = time.time_ns()
        resigned = await play(store, "london", 2, 3, [f"ann{tag}", f"bob{tag}"], [], resign=f"ann{tag}")
        cancelled = await play(store, "greatfire", 3, 4, [f"cat{tag}"], [], cancel=True)
        for played, reason in ((resigned, EndReason.RESIGNED), (cancelled, EndReason.CANCELLED)):
            loaded = await store.load(played.match_id)
            assert loaded is not None and loaded.end_reason is reason
            assert await archive_match(database, store, loaded) is True
            doc = await export(store, (await ArchiveReader(database).load(played.match_id)) or loaded)
            assert doc["endReason"] == doc["result"]["endReason"] == reason.name and replay(doc) == doc["result"]
        kept = await ArchiveReader(database).load(resigned.match_id)
        assert kept is not None
        doc = await export(store, kept)
        assert doc["result"]["resigned"] == [resigned.players[f"ann{tag}"]]
        assert doc["result"]["winners"] == [resigned.players[f"bob{tag}"]]
        cancelled_doc = await export(store, (await ArchiveReader(database).load(cancelled.match_id)) or loaded)
        assert cancelled_doc["log"] == [] and cancelled_doc["startedAt"] is None
        assert cancelled_doc["result"]["winners"] == []
        assert [s["kind"] for s in cancelled_doc["seats"]] == ["player", "open", "open"]

    with_store(redis_url, QUEUE, work)


def test_the_archive_pages_a_players_matches_newest_first_with_ties_broken_by_id(database: Database,
                                                                                   redis_url: str) -> None:
    player = f"pat{time.time_ns()}"

    async def work(store: MatchStore) -> None:
        played = await play(store, "greatfire", 2, 9, [player], ["random"])
        loaded = await store.load(played.match_id)
        assert loaded is not None and await archive_match(database, store, loaded)
        with database.read() as conn:
            row = dict(conn.execute(select(archived_matches).where(
                archived_matches.c.match_id == loaded.id)).mappings().one())
        # more records of the same player: some ending at the very same time (ties), by id
        ends = [100.0, 200.0, 200.0, 200.0, 300.0]
        for n, at in enumerate(ends):
            store_record(database, {**row, "match_id": f"{n:x}{loaded.id}"[:64], "ended_at": at}, {player: 0})
        assert not store_record(database, {**row, "ended_at": 1.0}, {player: 0})  # once per match id
        reader = ArchiveReader(database)
        everything = await reader.rows(player, None, time.time(), 100)
        expected = sorted(((m, a) for m, a in everything), key=lambda r: (r[1], r[0]), reverse=True)
        assert everything == expected and len(everything) == len(ends) + 1
        paged: list[tuple[str, float]] = []
        before = None
        while True:
            page = await reader.rows(player, before, time.time(), 2)
            if not page:
                break
            paged += page
            before = (page[-1][1], page[-1][0])
        assert paged == everything
        assert await reader.rows(player, None, 250.0, 100) == [r for r in everything if r[1] <= 250.0]
        assert is_archived(database, loaded.id)

    with_store(redis_url, QUEUE, work)


def _gone(store: MatchStore, match_id: str) -> Any:
    """Delete a finished match's Redis keys, as its time to live would."""
    return store.redis.delete(keys.archive(match_id), *keys.all_of(match_id))


def test_the_history_page_match_and_replay_come_from_the_archive_once_redis_let_go(database: Database,
                                                                                    redis_url: str) -> None:
    player = f"hal{time.time_ns()}"

    async def titles_of(store: MatchStore, status: MatchStatus | None, first: int) -> list[tuple[str, Any]]:
        out, after = [], None
        while True:
            page = await mypage.page(store, player, status, first, after)
            out += [(item.reading.id, (item.seat, item.winners(), item.end_reason(), item.outcome(),
                                       item.last_activity)) for item in page.items]
            if not page.has_next_page:
                return out
            after = page.end_cursor

    async def work(store: MatchStore) -> None:
        store.attic = ArchiveReader(database)
        games: list[Played] = []
        for seed in range(4):
            games.append(await play(store, ("greatfire", "london")[seed % 2], 2, 40 + seed, [player], ["random"]))
        live = await play(store, "london", 2, 50, [player, f"other{player}"], [])  # over too, never archived
        before_over = await titles_of(store, MatchStatus.OVER, 2)
        before_all = await titles_of(store, None, 3)
        assert {m for m, _ in before_over} == {g.match_id for g in [*games, live]}
        replays = {}
        for game in games:
            loaded = await store.load(game.match_id)
            assert loaded is not None and await archive_match(database, store, loaded)
            replays[game.match_id] = (await store.events_after(game.match_id, 0, 10000), loaded)
        for game in games[:3]:  # Redis lets three of them go
            await _gone(store, game.match_id)
            assert await store.load(game.match_id) is None
        assert await titles_of(store, MatchStatus.OVER, 2) == before_over
        assert await titles_of(store, None, 3) == before_all
        assert await titles_of(store, MatchStatus.ACTIVE, 2) == []
        for game in games[:3]:
            assert not await store.redis.hexists(keys.mine(player), game.match_id)  # the archive lists it now
            kept = await store.read(game.match_id)
            rows, loaded = replays[game.match_id]
            assert kept is not None
            same_match(kept, loaded)
            store._replays.clear()
            assert await store.events_after(game.match_id, 0, 10000) == rows
            assert await store.events_after(game.match_id, 3, 2) == rows[3:5]

    with_store(redis_url, QUEUE, work)
