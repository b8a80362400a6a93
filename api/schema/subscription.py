"""Subscription area: a match's events as they happen, redacted per viewer, resumable by version.

A stream opened with a credential keeps checking it, as the player's own streams do (api/myevents.py): a player
credential until its expiry and through a re-verification every `events_recheck_seconds` (signed out, token
revoked: error UNAUTHENTICATED); a seat token through a look at the match as often (the seat left: error
UNAUTHORIZED). The stream ends with that error: a seat's view never outlives the credential that showed it.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Annotated

import strawberry
from graphql import GraphQLError

from firebreak.api import myevents
from firebreak.api.context import Context, Info, unauthenticated, unauthorized
from firebreak.api.metrics import subscribed
from firebreak.api.schema.match import MatchEvent
from firebreak.api.snapshots import ViewTrail
from firebreak.domain.events import visible_to
from firebreak.matches.callers import Caller
from firebreak.matches.lifecycle import MatchStatus
from firebreak.matches.refusals import Refusal
from firebreak.players.errors import Reason, Unauthenticated
from firebreak.players.records import Principal
from firebreak.push.watching import Watch
from firebreak.social import presence

BLOCK_MS = 10_000
LEFT = "the seat token no longer holds a seat of this match"


async def _guard(context: Context, match_id: str, seat: int | None, player: bool) -> myevents.Guard | None:
    """What keeps checking the stream's credential: a player's (re-verified), a seat token's (its seat looked at
    again), or None for a stream that shows no seat's view by a token (nobody, the host token)."""
    every = context.services.settings.events_recheck_seconds
    if player:
        principal = await context.authenticate()  # verified once already: memoized
        whose = principal.player.id if isinstance(principal, Principal) else None
        return myevents.Guard(context.recheck, myevents.expiry(context.bearer), every, player=whose)
    token = context.token
    if seat is None or token is None:
        return None

    async def holds() -> Unauthenticated | None:
        loaded = await context.services.store.load(match_id)
        held = loaded is not None and loaded.seat_of(Caller(token=token)) == seat
        return None if held else Unauthenticated(Reason.REVOKED)

    return myevents.Guard(holds, None, every)


def _ended(refused: Unauthenticated, player: bool) -> GraphQLError:
    """The error a stream ends with when its credential stopped holding (a player's, or a seat token's)."""
    return unauthenticated(refused) if player else unauthorized(LEFT)


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
        connection) carries the whole view. The stream ends with error UNAUTHENTICATED when a player credential
        expires or is revoked (signed out), UNAUTHORIZED when a seat token's seat is left."""
        store = info.context.services.store
        fanout = info.context.services.fanout
        loaded = await store.load(str(match_id))
        if loaded is None:
            raise GraphQLError(f"no match {str(match_id)!r}", extensions={"code": Refusal.MATCH_NOT_FOUND.value})
        seat = await info.context.seat_in(loaded)
        principal = await info.context.authenticate()  # verified once already: memoized
        player = isinstance(principal, Principal)
        guard = await _guard(info.context, loaded.id, seat, player)
        after = max(0, after_version)
        # a player looking at the match gets no push of it (push/watching.py)
        watch = Watch(store.redis, principal.player.id, loaded.id) if isinstance(principal, Principal) else None
        try:
            with subscribed(info.context.services.metrics, "match"):
                rows = await store.events_after(loaded.id, after)
                trail = ViewTrail()
                while True:
                    refused = None if guard is None else await guard.refused()
                    if refused is not None:
                        raise _ended(refused, player)
                    if watch is not None:
                        await watch.refresh()
                    if isinstance(principal, Principal):  # an open stream keeps its player online
                        await presence.touch(store.redis, principal.player.id)
                    for version, events in rows:
                        yield MatchEvent(version=version, seen=visible_to(events, seat), loaded=loaded,
                                         match_id=loaded.id, viewer=seat, latest=version == rows[-1][0], trail=trail)
                        after = version
                    if loaded.status is MatchStatus.OVER and after >= loaded.version:
                        return
                    # this process's one reader of the match brings the next steps (no connection held per subscriber)
                    wait = BLOCK_MS / 1000 if guard is None else guard.wait(BLOCK_MS / 1000)
                    step = await fanout.next(loaded.id, after, wait)
                    if step.ended:
                        return
                    rows = await store.events_after(loaded.id, after) if step.rows is None else step.rows
        finally:
            if watch is not None:
                await watch.close()
