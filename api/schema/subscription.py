"""Subscription area: a match's events as they happen, redacted per viewer, resumable by version."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Annotated

import strawberry
from graphql import GraphQLError

from firebreak.api.context import Info
from firebreak.api.metrics import subscribed
from firebreak.api.schema.match import MatchEvent
from firebreak.api.snapshots import ViewTrail
from firebreak.domain.events import visible_to
from firebreak.matches.lifecycle import MatchStatus
from firebreak.matches.refusals import Refusal

BLOCK_MS = 10_000


@strawberry.type
class Subscription:
    """Pushed updates."""

    @strawberry.subscription
    async def match_events(
        self, info: Info, match_id: Annotated[strawberry.ID, strawberry.argument(description="The match.")],
        after_version: Annotated[int, strawberry.argument(
            description="Send the steps after this version (0: from the start; resume with the last one seen).")] = 0,
    ) -> AsyncGenerator[MatchEvent, None]:
        """Every step after afterVersion, then each new one; reconnect with the last version seen to resume
        without gaps. The seat comes from the connection_init payload ({"authorization": "Bearer ..."}); a token that
        is not this match's (a seat's or the host's) gets an error with code UNAUTHORIZED and no events.
        viewChanges patches the view this subscription last delivered: the first of each subscription (each
        connection) carries the whole view."""
        store = info.context.services.store
        fanout = info.context.services.fanout
        loaded = await store.load(str(match_id))
        if loaded is None:
            raise GraphQLError(f"no match {str(match_id)!r}", extensions={"code": Refusal.MATCH_NOT_FOUND.value})
        seat = await info.context.seat_in(loaded)
        after = max(0, after_version)
        with subscribed(info.context.services.metrics, "match"):
            rows = await store.events_after(loaded.id, after)
            trail = ViewTrail()
            while True:
                for version, events in rows:
                    yield MatchEvent(version=version, events=visible_to(events, seat), match_id=loaded.id,
                                     viewer=seat, latest=version == rows[-1][0], trail=trail)
                    after = version
                if loaded.status is MatchStatus.OVER and after >= loaded.version:
                    return
                # this process's one reader of the match brings the next steps (no connection held per subscriber)
                step = await fanout.next(loaded.id, after, BLOCK_MS / 1000)
                if step.ended:
                    return
                rows = await store.events_after(loaded.id, after) if step.rows is None else step.rows
