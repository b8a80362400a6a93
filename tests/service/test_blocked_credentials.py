"""A client blocked for too many failed authentications has every credential check refused, right or wrong, wherever
the credential travels (issue 47, part 5, item 4): an invite code or a refresh token in the body is refused as a
bearer token is (RATE_LIMITED, REST 429 with Retry-After), and nothing changes. A real API process with tight
limits over a Redis of its own."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firebreak.matches.embedded import EmbeddedRedis
from tests.service.conftest import Client, api_process
from tests.service.players_support import GUEST, REFRESH, codes, device, rest

TIGHT = {"FIREBREAK_RATE_AUTH_FAILURES_PER_SECOND": "0.02", "FIREBREAK_RATE_AUTH_FAILURES_BURST": "3"}
JOIN_BY_CODE = """mutation($code: String!) { joinMatch(input: {code: $code, name: "blocked"}) { __typename
  ... on SeatJoined { token } ... on Problem { code } } }"""
LINK = """mutation($t: String!) { linkIdentity(input: {token: $t}) { __typename ... on Problem { code } } }"""


@pytest.fixture(scope="module")
def blocking(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An API process that blocks a client after 3 failed authentications, for about 50 s (one every 50 s)."""
    folder: Path = tmp_path_factory.mktemp("blocking")
    redis = EmbeddedRedis(folder / "redis", appendonly=False, prefer_bundled=False)
    url = redis.start()
    try:
        with api_process(url, folder / "api.log", TIGHT) as base:
            yield base
    finally:
        redis.stop()


def block(base: str, match_id: str) -> None:
    """Fail authentications with made-up tokens until the client is blocked."""
    for _ in range(10):
        answer = rest(base, "GET", f"/v1/matches/{match_id}", secrets.token_urlsafe(24))
        if answer.status_code == 429:
            assert int(answer.headers["retry-after"]) >= 30, answer.headers  # time enough for the checks below
            return
    raise AssertionError("the client was never blocked")


def refused(answer: Any) -> None:
    """A REST answer that refuses the request as blocked."""
    assert answer.status_code == 429 and answer.json()["code"] == "RATE_LIMITED", answer.text
    assert int(answer.headers["retry-after"]) >= 1


def test_a_blocked_client_is_refused_a_right_invite_code_and_refresh_token(blocking: str) -> None:
    c = Client(blocking)
    try:
        created = rest(blocking, "POST", "/v1/matches", body={"title": "greatfire", "seats": 2, "private": True})
        assert created.status_code == 201, created.text
        match_id, code = created.json()["matchId"], created.json()["inviteCode"]
        session = c.gql(GUEST, {"input": {"name": "blocked", "deviceId": device()}})["signInAsGuest"]
        block(blocking, match_id)

        refused(rest(blocking, "POST", "/v1/matches/join", body={"code": code, "name": "blocked"}))
        assert codes(c.post(JOIN_BY_CODE, {"code": code}).json()) == ["RATE_LIMITED"]
        refused(rest(blocking, "POST", "/v1/auth/refresh", body={"refreshToken": session["refreshToken"]}))
        assert codes(c.post(REFRESH, {"t": session["refreshToken"]}).json()) == ["RATE_LIMITED"]
        refused(rest(blocking, "POST", "/v1/me/link", session["accessToken"], {"token": "x.y.z"}))
        assert codes(c.post(LINK, {"t": "x.y.z"}, session["accessToken"]).json()) == ["RATE_LIMITED"]

        # nothing changed: both seats are still free, and no credential was asked for these reads
        seats = rest(blocking, "GET", f"/v1/matches/{match_id}").json()["seats"]
        assert [seat["taken"] for seat in seats] == [False, False], seats
        assert rest(blocking, "GET", "/v1/titles").status_code == 200
    finally:
        c.http.close()
