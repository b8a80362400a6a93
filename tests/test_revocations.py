"""api/revocations.py's bookkeeping: a revoked player's streams recheck their credential, the others do not; a gap
in listening (a reconnection) makes every stream recheck once; a guard without a player rechecks on any."""

from __future__ import annotations

import asyncio

from firebreak.api import myevents, revocations
from firebreak.players.errors import Reason, Unauthenticated


def guard(player: str | None, checks: list[str]) -> myevents.Guard:
    async def recheck() -> Unauthenticated | None:
        checks.append(player or "anyone")
        return Unauthenticated(Reason.REVOKED) if player == "ann" else None
    return myevents.Guard(recheck, None, 3600.0, player=player)


def test_only_the_revoked_players_streams_recheck_and_a_gap_rechecks_all() -> None:
    checks: list[str] = []
    ann, bob, anyone = guard("ann", checks), guard("bob", checks), guard(None, checks)

    async def look() -> list[Unauthenticated | None]:
        return [await ann.refused(), await bob.refused(), await anyone.refused()]

    assert asyncio.run(look()) == [None, None, None] and checks == []  # nothing revoked: no recheck before due
    revocations.heard("ann")
    answers = asyncio.run(look())
    assert answers[0] is not None and answers[0].reason is Reason.REVOKED and answers[1:] == [None, None]
    assert checks == ["ann", "anyone"]  # bob's stream was not rechecked
    checks.clear()
    asyncio.run(look())
    assert checks == []  # each rechecked once for that revocation, not again
    bob_again = guard("bob", checks)
    revocations.heard(None)  # the listener reconnected: it may have missed one
    asyncio.run(bob_again.refused())
    assert checks == ["bob"]
