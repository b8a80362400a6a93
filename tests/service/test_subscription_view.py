"""MatchEvent.viewChanges: a subscriber keeps its view current from JSON Patches alone, without selecting
match.view: as a seat that plays a whole match against bots (dropping the connection halfway) and as a spectator,
the patched view equals the view at every version it was patched to, and never shows what the viewer may not see."""

from __future__ import annotations

import asyncio
import copy
import json
import random
from dataclasses import dataclass, field
from typing import Any

import httpx
import jsonpatch
from redis import Redis

from firebreak.domain import titles
from tests.service import support as h
from tests.service.test_subscription import _open, next_row

PATCHED = """subscription($id: ID!, $after: Int!) { matchEvents(matchId: $id, afterVersion: $after) {
  version viewChanges match { version status you toAct legalActions } } }"""


@dataclass
class Follower:
    """A subscriber's copy of its view, kept by patches, and what it held at each version it was patched to."""

    view: Any = None
    views: dict[int, Any] = field(default_factory=dict)
    patches: list[list[dict[str, Any]]] = field(default_factory=list)  # as received, connection after connection
    firsts: list[int] = field(default_factory=list)  # index in patches of each connection's first patch
    raw: list[str] = field(default_factory=list)
    versions: list[int] = field(default_factory=list)

    def take(self, row: dict[str, Any], first: bool) -> None:
        """Apply one step's patch (if it has one) and remember the result."""
        self.versions.append(row["version"])
        patch = row["viewChanges"]
        assert (patch is None) == (row["match"] is None), "viewChanges and match disagree on being set"
        if patch is None:
            return
        if first:
            self.firsts.append(len(self.patches))
        self.patches.append(patch)
        self.view = jsonpatch.apply_patch(self.view, patch)
        assert self.view["version"] == row["version"], "the patched view is not at the step's version"
        self.views[row["version"]] = copy.deepcopy(self.view)


async def follow(base: str, s: h.Setup, token: str | None, after: int, me: Follower,
                 stop_after: int | None = None) -> bool:
    """Subscribe from `after` and apply each step's viewChanges; with a seat's token, play its turns from the
    step's match (reading the match by query first whenever only this seat can move it, to compare views). True
    once the match is over, False when it stopped after stop_after of its own actions."""
    rng = random.Random(s.seed)
    acted = 0
    ws = await _open(base, token)
    try:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            headers = {"authorization": f"Bearer {token}"} if token else {}
            await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {
                "query": PATCHED, "variables": {"id": s.match_id, "after": after}}}))
            first = True

            async def act_on(m: dict[str, Any]) -> None:
                body = {"query": h.ACT, "variables": {"input": {"matchId": s.match_id,
                                                                "action": rng.choice(m["legalActions"]),
                                                                "expectedVersion": m["version"]}}}
                answer = await http.post("/graphql", json=body, headers=headers)
                assert answer.json()["data"]["act"]["__typename"] == "ActionAccepted", answer.text

            async def read() -> dict[str, Any]:
                answer = await http.post("/graphql", json={"query": h.STATE, "variables": {"id": s.match_id}},
                                          headers=headers)
                m: dict[str, Any] = answer.json()["data"]["match"]
                return m

            if token is not None and after:
                m = await read()
                if m["version"] == after and m["status"] == "ACTIVE" and m["you"] in m["toAct"]:
                    assert m["view"] == me.view  # the view patched to on the last connection
                    await act_on(m)  # nothing newer to be told about: this read is the start
                    acted += 1
            while True:
                row = await next_row(ws, me.raw)
                if row is None:
                    return True
                me.take(row, first)
                m = row["match"]
                if m is None:
                    continue
                first = False
                if token is None or m["status"] != "ACTIVE" or m["you"] not in m["toAct"]:
                    continue
                if m["toAct"] == [m["you"]]:  # nobody else can move the match: a query reads this very version
                    now = await read()
                    assert now["version"] == row["version"] and now["view"] == me.view
                if stop_after is not None and acted == stop_after:
                    return False
                await act_on(m)
                acted += 1
    finally:
        await ws.close()


def replayed_views(redis: Redis, s: h.Setup, viewer: int | None, versions: set[int]) -> dict[int, Any]:
    """The engine's view for the viewer at each of these versions, replaying the stored log from the seed."""
    log = h.stored(redis, s.match_id)["log"]
    match = titles.get("greatfire").new_match(seats=s.seats, seed=s.seed, options=s.options)
    out = {}
    for version, entry in enumerate(log, start=1):
        if entry.get("system"):
            match.run_system_step()
        else:
            match.apply(entry["seat"], entry["action"])
        if version in versions:
            out[version] = json.loads(json.dumps(match.view(viewer)))
    return out


def test_a_seat_and_a_spectator_keep_their_views_from_patches_alone(server: str, redis: Redis) -> None:
    with h.recording(server) as c:
        s = h.new_match(c, seats=3, seed=9031, humans=1, bots=["random", "random"], options={"hiddenColours": True})
        (seat, token), = s.humans.items()
        mine, public = Follower(), Follower()

        async def scenario() -> None:
            spectator = asyncio.create_task(follow(server, s, None, 0, public))
            assert await follow(server, s, token, 0, mine, stop_after=6) is False
            assert await follow(server, s, token, mine.versions[-1], mine) is True  # reconnect, resume
            assert await spectator is True

        asyncio.run(scenario())
        final = h.state(c, s.match_id, None)
        assert final["status"] == "OVER"
        assert h.state(c, s.match_id, token)["view"] == mine.view
        assert final["view"] == public.view

    for follower, viewer in ((mine, seat), (public, None)):
        assert follower.versions == list(range(1, final["version"] + 1)), "gaps or duplicates"
        assert len(follower.views) > 10, "too few steps carried a patch to test anything"
        assert follower.views == replayed_views(redis, s, viewer, set(follower.views)), \
            "a patched view differs from the engine's view at that version"
        for view in follower.views.values():
            h.check_view(view, viewer, hidden=True)
        # each connection's first patch is the whole view, every later one only what changed
        whole = [n for n, patch in enumerate(follower.patches) if [op["path"] for op in patch] == [""]]
        assert whole == follower.firsts
        sent = sum(len(json.dumps(p)) for p in follower.patches)
        assert sent * 3 < sum(len(json.dumps(v)) for v in follower.views.values()), "the patches are not small"
    assert len(mine.firsts) == 2, "the seat did not get a first, whole view on each of its two connections"
    c.assert_secrets_confined(extra_bodies=[*mine.raw, *public.raw])
