"""An act at the version its process kept applies the step to the kept engine itself (no copy: matches.pipeline,
matches.store.taken), over a real Redis: whoever still reads the previous version (the previous act's answer,
read lazily as GraphQL does) sees it exactly as it was, and a refused act gives the kept engine back unchanged."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from redis import Redis

from firebreak.domain import titles
from firebreak.matches.config import Settings
from firebreak.matches.lobby import Lobby
from firebreak.matches.outcomes import OutcomeKind
from firebreak.matches.pipeline import Pipeline
from firebreak.matches.reading import Reading
from firebreak.matches.store import Loaded
from tests.service import support as h

QUEUE = "firebreak-in-place"  # served by no worker: every seat is a person's


@pytest.fixture
def settings(redis_url: str) -> Iterator[Settings]:
    """A queue no worker serves."""
    yield Settings.from_env({**h.service_env(redis_url), "FIREBREAK_QUEUE": QUEUE})
    Redis.from_url(redis_url).delete(f"rq:queue:{QUEUE}")


def _read(loaded: Loaded, seats: int) -> str:
    """Everything a reader of this loaded match may compute, for every seat and a spectator, as JSON."""
    out: dict[str, Any] = {}
    for viewer in [None, *range(seats)]:
        read = Reading.of(loaded, viewer)
        out[str(viewer)] = {"view": read.view(), "toAct": read.to_act(),
                            "legal": read.legal_actions() if viewer is not None else []}
    return json.dumps(out, sort_keys=True)


async def _started(lobby: Lobby, title: str, seats: int, seed: int) -> tuple[str, dict[int, str]]:
    created = await lobby.create(title, seats, None, seed)
    tokens = {}
    for seat in range(seats):
        tokens[seat] = (await lobby.join(created.match_id, seat, f"p{seat}")).token
    return created.match_id, tokens


@pytest.mark.parametrize(("title", "seats", "seed"), [("greatfire", 4, 31), ("london", 3, 32)])
def test_the_previous_answer_reads_its_own_version_after_the_next_act(settings: Settings, title: str, seats: int,
                                                                       seed: int) -> None:
    async def body(lobby: Lobby, pipeline: Pipeline) -> None:
        match_id, tokens = await _started(lobby, title, seats, seed)
        loaded = await pipeline.store.load(match_id)
        assert loaded is not None
        mirror = titles.get(title).match_from_dict(loaded.data)
        rng = random.Random(seed)
        previous: tuple[Loaded, str, str, Any] | None = None  # an answer not read yet, what it must read, its events
        in_place = 0
        for _ in range(60):
            if mirror.is_over():
                break
            seat = mirror.to_act()[0]
            action = rng.choice(mirror.legal_actions(seat))
            kept = pipeline.recent.get(match_id)
            kept_engine = kept.engine if kept is not None else None
            outcome, after = await pipeline.act(match_id, tokens[seat], action, mirror.version)
            assert outcome.kind is OutcomeKind.ACCEPTED and after is not None
            in_place += after.engine is kept_engine is not None  # the step went to the kept engine, not a copy
            if previous is not None:  # read only now, after the next act changed the engine it was built with
                before, expected, events_then, events = previous
                assert _read(before, seats) == expected
                assert json.dumps(events, sort_keys=True) == events_then
            mirror.apply(seat, action)
            mirror_reading = Loaded(after.id, after.meta, after.seats, mirror.version, stored=mirror.to_dict(),
                                    engine=mirror.clone())
            previous = (after, _read(mirror_reading, seats), json.dumps(outcome.events, sort_keys=True),
                        outcome.events)
            stored = await pipeline.store.load(match_id)
            assert stored is not None and stored.data == mirror.to_dict()
        assert in_place >= 30

    h.run(settings, body)


def test_a_refused_act_gives_the_kept_engine_back_unchanged(settings: Settings) -> None:
    async def body(lobby: Lobby, pipeline: Pipeline) -> None:
        match_id, tokens = await _started(lobby, "greatfire", 4, 33)
        loaded = await pipeline.store.load(match_id)
        assert loaded is not None
        mirror = titles.get("greatfire").match_from_dict(loaded.data)
        seat = mirror.to_act()[0]
        action = mirror.legal_actions(seat)[0]
        outcome, after = await pipeline.act(match_id, tokens[seat], action, mirror.version)
        assert outcome.kind is OutcomeKind.ACCEPTED and after is not None
        mirror.apply(seat, action)
        kept = after.engine
        assert kept is not None
        seat = mirror.to_act()[0]
        other = next(s for s in range(4) if s != seat)
        refused, _ = await pipeline.act(match_id, tokens[other], mirror.legal_actions(seat)[0], mirror.version)
        assert refused.kind is OutcomeKind.NOT_YOUR_TURN
        refused, _ = await pipeline.act(match_id, tokens[seat], {"type": "noSuchAction"}, mirror.version)
        assert refused.kind is OutcomeKind.ILLEGAL
        assert pipeline.recent[match_id].engine is kept
        assert kept.to_dict() == mirror.to_dict()
        action = mirror.legal_actions(seat)[0]
        outcome, after = await pipeline.act(match_id, tokens[seat], action, mirror.version)
        assert outcome.kind is OutcomeKind.ACCEPTED and after is not None and after.engine is kept
        mirror.apply(seat, action)
        assert kept.to_dict() == mirror.to_dict()

    h.run(settings, body)


@pytest.mark.parametrize("kept", [0, 2])
def test_a_process_keeps_at_most_the_matches_its_setting_allows_and_acts_alike_without_them(
        redis_url: str, kept: int) -> None:
    """FIREBREAK_KEPT_MATCHES: the newest matches stay kept up to the setting (0: none, every act reads its match
    from Redis and rebuilds it), and the acts' outcomes and stored states are the same either way."""
    settings = Settings.from_env({**h.service_env(redis_url), "FIREBREAK_QUEUE": QUEUE,
                                  "FIREBREAK_KEPT_MATCHES": str(kept)})

    async def body(lobby: Lobby, pipeline: Pipeline) -> None:
        games = [await _started(lobby, "greatfire", 4, seed) for seed in (41, 42, 43)]
        mirrors = []
        for match_id, _tokens in games:
            loaded = await pipeline.store.load(match_id)
            assert loaded is not None
            mirrors.append(titles.get("greatfire").match_from_dict(loaded.data))
        rng = random.Random(kept)
        for _ in range(4):
            for (match_id, tokens), mirror in zip(games, mirrors, strict=True):
                seat = mirror.to_act()[0]
                action = rng.choice(mirror.legal_actions(seat))
                outcome, after = await pipeline.act(match_id, tokens[seat], action, mirror.version)
                assert outcome.kind is OutcomeKind.ACCEPTED and after is not None
                mirror.apply(seat, action)
                assert len(pipeline.recent) <= kept
                stored = await pipeline.store.load(match_id)
                assert stored is not None and stored.data == mirror.to_dict()
        assert list(pipeline.recent) == [match_id for match_id, _ in games][len(games) - kept:]

    try:
        h.run(settings, body)
    finally:
        Redis.from_url(redis_url).delete(f"rq:queue:{QUEUE}")
