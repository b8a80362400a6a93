"""Sessions that survive two tabs (issue 50): refreshes with one refresh token at once, over both surfaces of a real
API process, all get the one successor within FIREBREAK_REFRESH_REUSE_GRACE_SECONDS; an older token still revokes
the session; with a grace of 0 any reuse does."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from tests.service.conftest import Client
from tests.service.players_support import REFRESH, Signed, guest, rest
from tests.service.support import private_service


async def _refresh_at_once(base: str, token: str, count: int) -> list[dict[str, Any]]:
    """count refreshes with one token sent at once, half over REST and half over GraphQL: each answer's session
    ({accessToken, refreshToken}) or refusal ({code, reason})."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        async def over_rest() -> dict[str, Any]:
            answer: dict[str, Any] = (await http.post("/v1/auth/refresh", json={"refreshToken": token})).json()
            return answer

        async def over_graphql() -> dict[str, Any]:
            answer: dict[str, Any] = (await http.post("/graphql", json={"query": REFRESH, "variables": {
                "t": token}})).json()["data"]["refreshSession"]
            return answer

        return list(await asyncio.gather(*((over_rest if n % 2 else over_graphql)() for n in range(count))))


def _access_works(base: str, token: str) -> bool:
    return rest(base, "GET", "/v1/me", token).status_code == 200


def test_tabs_refreshing_at_once_share_one_successor(client: Client, server: str) -> None:
    ann = guest(client, "ann")
    answers = asyncio.run(_refresh_at_once(server, ann.refresh, 6))
    assert all("refreshToken" in a for a in answers), answers
    successors = {a["refreshToken"] for a in answers}
    assert len(successors) == 1 and ann.refresh not in successors
    assert all(_access_works(server, a["accessToken"]) for a in answers)
    successor = successors.pop()
    # the successor rotates on; then the first token, older than the one just swapped, revokes the session
    later = rest(server, "POST", "/v1/auth/refresh", body={"refreshToken": successor}).json()
    assert later["refreshToken"] != successor
    reused = client.gql(REFRESH, {"t": ann.refresh})["refreshSession"]
    assert (reused["__typename"], reused["code"], reused["reason"]) == ("Unauthenticated", "UNAUTHENTICATED", "reused")
    gone = rest(server, "POST", "/v1/auth/refresh", body={"refreshToken": later["refreshToken"]})
    assert gone.status_code == 401 and gone.json()["code"] == "UNAUTHENTICATED"
    assert not _access_works(server, later["accessToken"])


def test_a_grace_of_zero_is_strict(redis_url: str, tmp_path: Path) -> None:
    with private_service(redis_url, tmp_path, "refresh-strict", workers=0, api=True,
                         FIREBREAK_REFRESH_REUSE_GRACE_SECONDS="0") as svc, svc.client() as c:
        assert svc.base is not None
        ann: Signed = guest(c, "ann")
        answers = asyncio.run(_refresh_at_once(svc.base, ann.refresh, 6))
        won = [a for a in answers if "refreshToken" in a]
        assert len(won) == 1, answers
        assert {a.get("reason") for a in answers if a not in won} <= {"reused", "revoked"}
        assert not _access_works(svc.base, won[0]["accessToken"])  # the reuse revoked the session
