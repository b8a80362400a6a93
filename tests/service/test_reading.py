"""The read model (matches.reading) over a real Redis: what a waiting, an active and an over match show each
viewer, the clock's running seats, and that what needs the engine is computed only when asked for, once."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from redis import Redis

from firebreak.domain import titles
from firebreak.matches.config import Settings
from firebreak.matches.lifecycle import EndReason, MatchStatus, SeatKind
from firebreak.matches.lobby import Lobby
from firebreak.matches.outcomes import OutcomeKind
from firebreak.matches.pipeline import Advanced, Pipeline
from firebreak.matches.reading import Reading, SeatReading
from tests.service import support as h
from tests.titles.tictactoe import TicTacToeTitle

TITLE = TicTacToeTitle()
QUEUE = "firebreak-reading"  # served by no worker: the tests advance matches themselves


@pytest.fixture
def settings(redis_url: str) -> Iterator[Settings]:
    """Tic-tac-toe registered; a queue no worker serves."""
    titles.register(TITLE)
    try:
        yield Settings.from_env({**h.service_env(redis_url), "FIREBREAK_QUEUE": QUEUE})
    finally:
        titles.unregister(TITLE.id)
        Redis.from_url(redis_url).delete(f"rq:queue:{QUEUE}")


def test_a_waiting_match_has_nobody_to_act_and_no_legal_actions(settings: Settings) -> None:
    async def body(lobby: Lobby, pipeline: Pipeline) -> None:
        created = await lobby.create(TITLE.id, 2, None, 1, (60.0, 5.0))
        await lobby.join(created.match_id, 0, "ann")
        loaded = await pipeline.store.load(created.match_id)
        assert loaded is not None
        read = Reading.of(loaded, 0)
        assert (read.status, read.version, read.seat_count, read.you) == (MatchStatus.WAITING, 0, 2, 0)
        assert read.to_act() == [] and read.legal_actions() == [] and not read.service_to_act()
        assert read.seats() == [SeatReading(0, True, "ann", SeatKind.HUMAN, None), SeatReading(1, False)]
        clock = read.clock()
        assert clock is not None and not any(seat.running for seat in clock.seats)
        assert read.end_reason is None and read.result() is None

    h.run(settings, body)


def test_a_spectator_sees_no_legal_actions_and_the_clock_runs_for_the_person_to_act(settings: Settings) -> None:
    async def body(lobby: Lobby, pipeline: Pipeline) -> None:
        created = await lobby.create(TITLE.id, 2, None, 1, (60.0, 5.0))
        ann = (await lobby.join(created.match_id, 0, "ann")).token
        await lobby.add_bot(created.match_id, 1, "greedy", created.host_token)
        loaded = await pipeline.store.load(created.match_id)
        assert loaded is not None and loaded.status is MatchStatus.ACTIVE
        spectator, seat = Reading.of(loaded, None), Reading.of(loaded, 0)
        assert spectator.to_act() == [0] and spectator.legal_actions() == [] and spectator.you is None
        assert len(seat.legal_actions()) == 9 and not seat.service_to_act()
        clock = seat.clock()
        assert clock is not None and [s.running for s in clock.seats] == [True, False]
        outcome, after = await pipeline.act(created.match_id, ann, seat.legal_actions()[0], loaded.version)
        assert outcome.kind is OutcomeKind.ACCEPTED and after is not None
        bots_turn = Reading.of(after, 0)
        assert bots_turn.to_act() == [1] and bots_turn.service_to_act() and bots_turn.legal_actions() == []
        clock = bots_turn.clock()
        assert clock is not None and not any(s.running for s in clock.seats), "no clock runs on the service's turn"
        assert clock.seats[0].seconds_left == pytest.approx(65.0, abs=1.0), "the increment is the owner's"

    h.run(settings, body)


def test_an_over_match_has_its_result_and_nobody_to_act(settings: Settings) -> None:
    async def body(lobby: Lobby, pipeline: Pipeline) -> None:
        created = await lobby.create(TITLE.id, 2, None, 1)
        tokens = [(await lobby.join(created.match_id, seat, f"p{seat}")).token for seat in (0, 1)]
        loaded = await pipeline.store.load(created.match_id)
        assert loaded is not None
        for cell in (0, 3, 1, 4, 2):  # seat 0 takes the top row
            seat = Reading.of(loaded, None).to_act()[0]
            outcome, after = await pipeline.act(created.match_id, tokens[seat], {"type": "mark", "cell": cell},
                                                loaded.version)
            assert outcome.kind is OutcomeKind.ACCEPTED and after is not None, outcome
            loaded = after
        stored = await pipeline.store.load(created.match_id)
        assert stored is not None
        read = Reading.of(stored, 1)
        assert read.status is MatchStatus.OVER and read.end_reason is EndReason.FINISHED
        assert read.to_act() == [] and read.legal_actions() == [] and not read.service_to_act()
        result = read.result()
        assert result is not None and result.end_reason is EndReason.FINISHED
        assert result.winners == (0,) and [s.total for s in result.scores] == [2, 0]
        assert [c.key for c in result.columns] == ["points"] and result.reason == "seat 0 has three in a row"

    h.run(settings, body)


def test_an_abandoned_match_has_an_empty_result(settings: Settings) -> None:
    async def body(lobby: Lobby, pipeline: Pipeline) -> None:
        created = await lobby.create(TITLE.id, 2, None, 1)
        for seat in (0, 1):
            await lobby.join(created.match_id, seat, f"p{seat}")
        assert await pipeline.advance(created.match_id, 0, 10) is Advanced.ABANDONED
        loaded = await pipeline.store.load(created.match_id)
        assert loaded is not None
        result = Reading.of(loaded, 0).result()
        assert result is not None and result.end_reason is EndReason.ABANDONED
        assert result.scores == () and result.winners == () and result.reason.startswith("abandoned")

    h.run(settings.model_copy(update={"abandoned_ttl": 0}), body)  # unvalidated: no deployment may set 0


def test_the_engine_is_built_only_when_asked_for_and_views_are_shared_through_the_memo(settings: Settings) -> None:
    async def body(lobby: Lobby, pipeline: Pipeline) -> None:
        created = await lobby.create(TITLE.id, 2, None, 1)
        for seat in (0, 1):
            await lobby.join(created.match_id, seat, f"p{seat}")
        loaded = await pipeline.store.load(created.match_id)
        assert loaded is not None
        read = Reading.of(loaded, 0)
        assert (read.id, read.title, read.version, read.options()) == (created.match_id, TITLE.id, 0, {"firstSeat": 0})
        assert loaded.engine is None, "the version, the seats and the options need no engine"
        memo: dict[str, object] = {}
        first, second = Reading.of(loaded, 0, memo), Reading.of(loaded, 0, memo)
        assert first.view() is second.view() and first.legal_actions() is second.legal_actions()
        built = loaded.engine
        assert built is not None and Reading.of(loaded, None).engine() is built, "one engine per loaded match"

    h.run(settings, body)
