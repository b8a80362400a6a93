"""A bot that goes round in circles cannot hold a match: once the service's steps run settings.automated_run_max
in a row (since a person's last step), the match ends abandoned, and a person's step starts the count again.

The title is tic-tac-toe with one more action, "think", which changes nothing but the version: the bot level
"dither" only ever thinks, "ponder" thinks until the version is a multiple of PONDER and then marks.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from redis import Redis

from firebreak.domain import titles
from firebreak.domain.contract import Action, BotLevel, Budget, Event, Match
from firebreak.matches.config import Settings
from firebreak.matches.lobby import Lobby
from firebreak.matches.outcomes import OutcomeKind
from firebreak.matches.pipeline import Pipeline
from tests.service import support as h
from tests.titles.tictactoe import TicTacToeMatch, TicTacToeTitle

RUN_MAX = 30
PONDER = 25  # "ponder" thinks at most this many steps a turn: under RUN_MAX
THINK: Action = {"type": "think"}


class ThinkingMatch(TicTacToeMatch):
    """Tic-tac-toe where the seat to mark may also think (nothing happens but the version)."""

    title_id = "thinking-tictactoe"

    def _legal_actions(self, seat: int) -> list[Action]:
        """The marks, and thinking."""
        return [*super()._legal_actions(seat), dict(THINK)]

    def _apply(self, seat: int, action: Action, events: list[Event]) -> None:
        """Think (nothing happens but the version), or mark."""
        if action == THINK:
            events.append({"type": "thought", "seat": seat})
            return
        super()._apply(seat, action, events)


def dither(match: Match, seat: int, rng: random.Random, budget: Budget) -> Action:
    """Think, for ever."""
    return dict(THINK)


def ponder(match: Match, seat: int, rng: random.Random, budget: Budget) -> Action:
    """Think until the version is a multiple of PONDER, then mark the first empty cell."""
    legal = match.legal_actions(seat)
    return dict(THINK) if match.version % PONDER else legal[0]


class ThinkingTitle(TicTacToeTitle):
    """The title of ThinkingMatch, with the two bot levels."""

    id = "thinking-tictactoe"
    name = "Tic-tac-toe with thinking (test title)"

    def bots(self) -> list[BotLevel]:
        """dither and ponder."""
        return [BotLevel("dither", "Only thinks.", dither), BotLevel("ponder", "Thinks a while, then marks.", ponder)]

    def new_match(self, seats: int, seed: int, options: dict[str, Any] | None = None) -> ThinkingMatch:
        """An empty board, seat 0 to mark."""
        return self.match_from_dict(super().new_match(seats, seed, options).to_dict())

    def match_from_dict(self, data: dict[str, Any]) -> ThinkingMatch:
        """Rebuild a match from to_dict() output."""
        m = ThinkingMatch()
        m.load(data)
        return m


TITLE = ThinkingTitle()


@pytest.fixture
def settings(redis_url: str) -> Iterator[Settings]:
    """The thinking title registered; a small cap on automated runs; a queue no worker serves (the test advances
    the match itself)."""
    titles.register(TITLE)
    try:
        yield Settings.from_env({**h.service_env(redis_url), "FIREBREAK_QUEUE": "firebreak-runs",
                                 "FIREBREAK_AUTOMATED_RUN_MAX": str(RUN_MAX)})
    finally:
        titles.unregister(TITLE.id)
        Redis.from_url(redis_url).delete("rq:queue:firebreak-runs")


def _play(settings: Settings, level: str) -> tuple[str, list[str], int]:
    """A person (seat 0, marking the first empty cell) against a bot of the level; the service's steps advanced
    here. Returns the match id, the outcomes of the advances, and the last version a person's step left."""
    async def body(lobby: Lobby, pipeline: Pipeline) -> tuple[str, list[str], int]:
        created = await lobby.create(TITLE.id, 2, None, 1)
        token = (await lobby.join(created.match_id, 0, "ann")).token
        await lobby.add_bot(created.match_id, 1, level, created.host_token)
        outcomes: list[str] = []
        human_version = 0
        for _ in range(20):
            loaded = await pipeline.store.load(created.match_id)
            assert loaded is not None
            if loaded.status != "active":
                break
            match = TITLE.match_from_dict(loaded.data)
            if 0 in match.to_act():
                outcome, after = await pipeline.act(created.match_id, token, match.legal_actions(0)[0],
                                                    loaded.version)
                assert outcome.kind is OutcomeKind.ACCEPTED and after is not None, outcome
                human_version = after.version
            else:
                outcomes.append(await pipeline.advance(created.match_id, loaded.version, 1000))
        return created.match_id, outcomes, human_version

    return h.run(settings, body)


def test_a_bot_going_round_in_circles_ends_the_match_abandoned(settings: Settings, redis: Redis) -> None:
    """The dithering bot thinks RUN_MAX times after the person's first mark, then the match ends abandoned, with an
    event saying why; nothing past the cap was applied."""
    match_id, outcomes, human_version = _play(settings, "dither")
    assert outcomes == ["abandoned"]
    stored = h.stored(redis, match_id)
    assert stored["status"] == "over" and stored["meta"].get("reason") == "abandoned"
    assert stored["version"] == human_version + RUN_MAX + 1, "the cap's steps, then the abandonment"
    last = stored["log"][-1]
    assert last["service"] == "abandoned"
    assert f"{RUN_MAX} steps in a row" in last["events"][0]["reason"]


def test_a_person_s_step_starts_the_count_again(settings: Settings, redis: Redis) -> None:
    """The pondering bot takes more than RUN_MAX automated steps over the match, but never RUN_MAX in a row
    between the person's marks: the match ends as tic-tac-toe ends."""
    match_id, outcomes, _ = _play(settings, "ponder")
    assert outcomes and "abandoned" not in outcomes
    stored = h.stored(redis, match_id)
    thoughts = sum(1 for entry in stored["log"] if entry.get("action") == THINK)
    assert stored["status"] == "over" and stored["meta"].get("reason") != "abandoned"
    assert thoughts > RUN_MAX, f"only {thoughts} automated thoughts: the test shows nothing"
