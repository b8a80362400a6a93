"""Sessions: access tokens (our HS256 JWTs) and rotating refresh tokens; signing out, here and everywhere."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from firebreak.players import keys
from firebreak.players.authenticate import Authenticator
from firebreak.players.config import PlayerSettings
from firebreak.players.errors import Reason, Unauthenticated
from firebreak.players.records import Session, Via
from firebreak.players.sessions import AUDIENCE, ISSUER, REFRESH
from tests.players.support import device, hand_signed, refused, run

STRICT = PlayerSettings.from_env({"FIREBREAK_REFRESH_REUSE_GRACE_SECONDS": "0"})  # any reuse revokes


async def _signed_in(auth: Authenticator) -> Session:
    return await auth.sessions.sign_in_as_guest("Ada", device())


def _claims(session: Session, **changes: Any) -> dict[str, Any]:
    now = int(time.time())
    claims = {"sub": session.player.id, "ver": session.player.token_version, "sid": session.session_id,
              "iat": now, "exp": now + 600, "iss": ISSUER, "aud": AUDIENCE}
    return {k: v for k, v in {**claims, **changes}.items() if v is not None}


def test_an_access_token_round_trips(redis_url: str) -> None:
    async def body(auth: Authenticator) -> None:
        session = await _signed_in(auth)
        principal = await auth.authenticate(f"Bearer {session.access_token}")
        assert principal.player == session.player and principal.via is Via.SESSION
        assert principal.session_id == session.session_id
        claims = jwt.decode(session.access_token, options={"verify_signature": False})
        assert set(claims) == {"sub", "ver", "sid", "iat", "exp", "iss", "aud"}
        assert claims["exp"] - claims["iat"] == 15 * 60 and jwt.get_unverified_header(session.access_token)["alg"] \
            == "HS256"

    run(redis_url, body)


def _rsa_public_pem() -> bytes:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


@pytest.mark.parametrize("case", ["expired", "forged", "wrong aud", "wrong iss", "alg none", "rsa pem as hmac key",
                                  "no sid", "ver as text", "tampered"])
def test_bad_access_tokens_are_refused(redis_url: str, case: str) -> None:
    async def body(auth: Authenticator) -> None:
        session = await _signed_in(auth)
        key = await auth.sessions.signing_key()
        hs256 = {"alg": "HS256", "typ": "JWT"}
        token = {
            "expired": lambda: jwt.encode(_claims(session, iat=int(time.time()) - 3600,
                                                  exp=int(time.time()) - 60), key, algorithm="HS256"),
            "forged": lambda: jwt.encode(_claims(session), "another key of at least thirty-two bytes", "HS256"),
            "wrong aud": lambda: jwt.encode(_claims(session, aud="someone-else"), key, algorithm="HS256"),
            "wrong iss": lambda: jwt.encode(_claims(session, iss="someone-else"), key, algorithm="HS256"),
            "alg none": lambda: hand_signed({"alg": "none", "typ": "JWT"}, _claims(session), None),
            "rsa pem as hmac key": lambda: hand_signed(hs256, _claims(session), _rsa_public_pem()),
            "no sid": lambda: jwt.encode(_claims(session, sid=None), key, algorithm="HS256"),
            "ver as text": lambda: jwt.encode(_claims(session, ver="0"), key, algorithm="HS256"),
            "tampered": lambda: _tampered(session.access_token),
        }[case]()
        error = await refused(auth.sessions.verify(token), token)
        assert error.code == "UNAUTHENTICATED"
        expected = {"expired": Reason.EXPIRED, "alg none": Reason.ALGORITHM}.get(case, Reason.INVALID)
        assert error.reason is expected, error.reason
        await refused(auth.authenticate(f"Bearer {token}"), token)  # by the one entry point too

    run(redis_url, body)


def _tampered(token: str) -> str:
    header, _, signature = token.split(".")
    claims = jwt.decode(token, options={"verify_signature": False})
    forged = hand_signed({"alg": "HS256", "typ": "JWT"}, {**claims, "ver": claims["ver"] + 1}, None).split(".")[1]
    return f"{header}.{forged}.{signature}"


def test_refresh_rotates_the_token(redis_url: str) -> None:
    async def body(auth: Authenticator) -> None:
        first = await _signed_in(auth)
        second = await auth.sessions.refresh(first.refresh_token)
        assert second.refresh_token != first.refresh_token and second.session_id == first.session_id
        assert (await auth.authenticate(f"Bearer {second.access_token}")).player.id == first.player.id
        third = await auth.sessions.refresh(second.refresh_token)
        assert (await auth.authenticate(f"Bearer {third.access_token}")).session_id == first.session_id

    run(redis_url, body)


def test_reusing_a_refresh_token_revokes_the_whole_family(redis_url: str) -> None:
    """With a grace of 0 (strict), even the token just swapped revokes the family when presented again."""
    async def body(auth: Authenticator) -> None:
        first = await _signed_in(auth)
        elsewhere = await auth.sessions.sign_in_as_guest("Ada", device())
        second = await auth.sessions.refresh(first.refresh_token)
        error = await refused(auth.sessions.refresh(first.refresh_token), first.refresh_token)
        assert error.reason is Reason.REUSED
        assert (await refused(auth.sessions.refresh(second.refresh_token), second.refresh_token)).reason \
            is Reason.REVOKED
        await refused(auth.authenticate(f"Bearer {second.access_token}"), second.access_token)
        assert (await auth.authenticate(f"Bearer {elsewhere.access_token}")).player == elsewhere.player

    run(redis_url, body, STRICT)


def test_the_token_just_swapped_again_within_the_grace_answers_the_same_successor(redis_url: str) -> None:
    """Two tabs refreshing with one token: the second gets the successor the first got (and an access token of
    its own); the successor goes on working; a token older than the one just swapped still revokes."""
    async def body(auth: Authenticator) -> None:
        first = await _signed_in(auth)
        second = await auth.sessions.refresh(first.refresh_token)
        again = await auth.sessions.refresh(first.refresh_token)
        assert again.refresh_token == second.refresh_token and again.session_id == first.session_id
        assert (await auth.authenticate(f"Bearer {again.access_token}")).player.id == first.player.id
        third = await auth.sessions.refresh(again.refresh_token)
        assert third.refresh_token not in (first.refresh_token, second.refresh_token)
        error = await refused(auth.sessions.refresh(first.refresh_token), first.refresh_token)
        assert error.reason is Reason.REUSED  # older than the one just swapped: the family is revoked
        await refused(auth.sessions.refresh(third.refresh_token), third.refresh_token)
        await refused(auth.authenticate(f"Bearer {third.access_token}"), third.access_token)

    run(redis_url, body)


def test_a_reuse_after_the_grace_window_revokes(redis_url: str) -> None:
    async def body(auth: Authenticator) -> None:
        first = await _signed_in(auth)
        second = await auth.sessions.refresh(first.refresh_token)
        family = keys.family(first.player.id, first.session_id)
        rotated = float(await auth.sessions.redis.hget(family, "rotated"))
        grace = auth.sessions.settings.refresh_reuse_grace
        await auth.sessions.redis.hset(family, "rotated", repr(rotated - grace - 1))  # the window has passed
        error = await refused(auth.sessions.refresh(first.refresh_token), first.refresh_token)
        assert error.reason is Reason.REUSED
        await refused(auth.sessions.refresh(second.refresh_token), second.refresh_token)

    run(redis_url, body)


def test_no_refresh_secret_is_kept(redis_url: str) -> None:
    """The family keeps hashes only: neither the live secret nor the one just swapped is in Redis."""
    async def body(auth: Authenticator) -> None:
        first = await _signed_in(auth)
        second = await auth.sessions.refresh(first.refresh_token)
        stored = " ".join(f"{k} {v}" for k, v in (await auth.sessions.redis.hgetall(
            keys.family(first.player.id, first.session_id))).items())
        for token in (first.refresh_token, second.refresh_token):
            match = REFRESH.match(token)
            assert match is not None and match.group(3) not in stored

    run(redis_url, body)


def test_a_refresh_token_with_a_wrong_secret_is_refused_without_revoking(redis_url: str) -> None:
    """Player and family ids are not secret: guessing a secret must not let anyone sign a session out."""
    async def body(auth: Authenticator) -> None:
        session = await _signed_in(auth)
        guessed = session.refresh_token[:-43] + "A" * 43
        assert (await refused(auth.sessions.refresh(guessed), guessed)).reason is Reason.INVALID
        for bad in ("", "fbr_", "fbr_x.y.z", session.refresh_token + "x", session.access_token):
            await refused(auth.sessions.refresh(bad), bad or "-")
        assert (await auth.sessions.refresh(session.refresh_token)).player.id == session.player.id

    run(redis_url, body)


def test_concurrent_refreshes_with_one_token_all_get_the_one_successor(redis_url: str) -> None:
    async def body(auth: Authenticator) -> None:
        session = await _signed_in(auth)
        outcomes = await asyncio.gather(*(auth.sessions.refresh(session.refresh_token) for _ in range(10)))
        assert len({o.refresh_token for o in outcomes}) == 1 and outcomes[0].refresh_token != session.refresh_token
        assert (await auth.sessions.refresh(outcomes[0].refresh_token)).player.id == session.player.id

    run(redis_url, body)


def test_strict_concurrent_refreshes_with_one_token_exactly_one_wins(redis_url: str) -> None:
    async def body(auth: Authenticator) -> None:
        session = await _signed_in(auth)
        outcomes = await asyncio.gather(*(auth.sessions.refresh(session.refresh_token) for _ in range(10)),
                                        return_exceptions=True)
        won = [o for o in outcomes if isinstance(o, Session)]
        lost = [o for o in outcomes if isinstance(o, Unauthenticated)]
        assert len(won) == 1 and len(lost) == 9, outcomes
        assert any(e.reason is Reason.REUSED for e in lost)
        # the reuse revoked the family: the winner's new tokens are dead too
        await refused(auth.sessions.refresh(won[0].refresh_token), won[0].refresh_token)
        await refused(auth.authenticate(f"Bearer {won[0].access_token}"), won[0].access_token)

    run(redis_url, body, STRICT)


def test_sign_out_ends_one_session(redis_url: str) -> None:
    async def body(auth: Authenticator) -> None:
        phone = device()
        here = await auth.sessions.sign_in_as_guest("Ada", phone)
        there = await auth.sessions.sign_in_as_guest("Ada", phone)
        principal = await auth.authenticate(f"Bearer {here.access_token}")
        assert principal.session_id is not None
        await auth.sessions.sign_out(principal.player.id, principal.session_id)
        assert (await refused(auth.authenticate(f"Bearer {here.access_token}"), here.access_token)).reason \
            is Reason.REVOKED
        await refused(auth.sessions.refresh(here.refresh_token), here.refresh_token)
        assert (await auth.authenticate(f"Bearer {there.access_token}")).player.id == here.player.id
        assert (await auth.sessions.refresh(there.refresh_token)).player.id == here.player.id

    run(redis_url, body)


def test_sign_out_everywhere_stops_every_token_of_the_player(redis_url: str) -> None:
    async def body(auth: Authenticator) -> None:
        phone = device()
        sessions = [await auth.sessions.sign_in_as_guest("Ada", phone) for _ in range(3)]
        other = await _signed_in(auth)
        await auth.sessions.sign_out_everywhere(sessions[0].player.id)
        for s in sessions:
            await refused(auth.authenticate(f"Bearer {s.access_token}"), s.access_token)
            await refused(auth.sessions.refresh(s.refresh_token), s.refresh_token)
        assert (await auth.authenticate(f"Bearer {other.access_token}")).player == other.player
        fresh = await auth.sessions.sign_in_as_guest("Ada", phone)  # signing in again works, at the new version
        assert fresh.player.token_version == sessions[0].player.token_version + 1
        assert (await auth.authenticate(f"Bearer {fresh.access_token}")).player.id == fresh.player.id

    run(redis_url, body)
