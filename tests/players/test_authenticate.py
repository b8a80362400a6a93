"""The one entry point: each kind of credential told apart by shape; whatever header arrives, the answer is a
Principal or Unauthenticated."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import jwt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redis.asyncio import Redis

from firebreak.players.authenticate import Authenticator, bearer, kind_of
from firebreak.players.config import PlayerSettings
from firebreak.players.errors import Reason, Unauthenticated
from firebreak.players.records import Principal, Via
from firebreak.players.sessions import ISSUER as OURS
from tests.players.support import AUDIENCE, ISSUER, SECRET, device, hand_signed, refused, run

OPERATOR_SECRET = "the operator's shared secret for the fuzzing run"
FUZZED = PlayerSettings(session_secret=SECRET, jwt_issuer=ISSUER, jwt_audience=AUDIENCE, jwt_secret=OPERATOR_SECRET)


def test_each_kind_is_told_apart_by_its_shape(redis_url: str) -> None:
    async def body(auth: Authenticator) -> None:
        session = await auth.sessions.sign_in_as_guest("Ada", device())
        token, _ = await auth.access.create(await auth.sessions.verify(session.access_token), "bot", ["bot"])
        assert kind_of(session.access_token) is Via.SESSION
        assert kind_of(token) is Via.ACCESS_TOKEN
        assert kind_of(jwt.encode({"iss": ISSUER}, OPERATOR_SECRET, algorithm="HS256")) is Via.EXTERNAL
        assert kind_of(session.refresh_token) is None  # a refresh token is no bearer credential
        assert kind_of("a-seat-token_made-by-token_urlsafe") is None
        for header in (f"bearer {token}", f"BEARER   {token}", f"  Bearer {token}  "):
            assert (await auth.authenticate(header)).via is Via.ACCESS_TOKEN
        assert (await refused(auth.authenticate(f"Bearer {session.refresh_token}"), session.refresh_token)).reason \
            is Reason.MALFORMED

    run(redis_url, body, FUZZED)


@pytest.mark.parametrize("header, reason", [
    (None, Reason.MISSING), ("", Reason.MISSING), ("   ", Reason.MISSING), ("Bearer", Reason.MALFORMED),
    ("Bearer ", Reason.MALFORMED), ("Basic dXNlcjpwYXNz", Reason.MALFORMED), ("Bearer a b", Reason.MALFORMED),
    ("Bearer " + "a" * 9000, Reason.MALFORMED), ("Bearer é", Reason.MALFORMED),
])
def test_missing_and_malformed_headers(header: str | None, reason: Reason) -> None:
    with pytest.raises(Unauthenticated) as caught:
        bearer(header)
    assert caught.value.reason is reason and caught.value.code == "UNAUTHENTICATED"


_CLAIM_VALUES = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20),
                          st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(),
                                                                                max_size=2))
_CLAIMS = st.dictionaries(st.sampled_from(["sub", "ver", "sid", "iat", "exp", "nbf", "iss", "aud", "name"]),
                          _CLAIM_VALUES, max_size=9)


def _signed(claims: dict[str, Any], ours: bool, alg: str) -> str:
    now = int(time.time())
    base = {"iss": OURS if ours else ISSUER, "aud": "firebreak" if ours else AUDIENCE, "exp": now + 60}
    key = SECRET if ours else OPERATOR_SECRET
    return hand_signed({"alg": alg, "typ": "JWT"}, {**base, **claims}, None if alg == "none" else key.encode())


_HEADERS = st.one_of(
    st.none(),
    st.text(max_size=60),
    st.text(max_size=60).map(lambda s: f"Bearer {s}"),
    st.from_regex(r"[A-Za-z0-9_-]{0,24}\.[A-Za-z0-9_-]{0,24}\.[A-Za-z0-9_-]{0,24}", fullmatch=True)
    .map(lambda s: f"Bearer {s}"),
    st.from_regex(r"fb[pr]_[0-9a-f]{16}\.[0-9a-f]{16}\.[A-Za-z0-9_-]{43}", fullmatch=True).map(lambda s: f"Bearer {s}"),
    st.builds(_signed, _CLAIMS, st.booleans(), st.sampled_from(["HS256", "none", "RS256"]))
    .map(lambda s: f"Bearer {s}"),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(header=_HEADERS)
def test_no_header_crashes_authenticate(redis_url: str, header: str | None) -> None:
    """Any header at all: a Principal or Unauthenticated, nothing else (with every kind of verifier on)."""
    async def once() -> None:
        redis = Redis.from_url(redis_url, decode_responses=True)
        try:
            outcome = await Authenticator.build(redis, FUZZED).authenticate(header)
            assert isinstance(outcome, Principal)
        except Unauthenticated:
            pass
        finally:
            await redis.aclose()

    asyncio.run(once())
