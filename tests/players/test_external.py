"""The operator's sign-in: JWTs verified against a real JWKS endpoint served over HTTP by the test, with keys made
here; key rotation; the refetch throttle under a flood of unknown kids; linking a guest."""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from collections.abc import Iterator
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives import serialization

from firebreak.players.authenticate import Authenticator
from firebreak.players.config import PlayerSettings
from firebreak.players.errors import AlreadyLinked, IdentityTaken, Reason
from firebreak.players.external import ExternalVerifier
from firebreak.players.records import Identity, PlayerKind, Via
from tests.players.support import AUDIENCE, ISSUER, Jwks, device, hand_signed, refused, run


@pytest.fixture
def jwks() -> Iterator[Jwks]:
    """A JWKS endpoint serving one key, "k1"."""
    with Jwks.one_key() as endpoint:
        yield endpoint


class Clock:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _settings(jwks: Jwks, **more: Any) -> PlayerSettings:
    return PlayerSettings(jwt_issuer=ISSUER, jwt_audience=AUDIENCE, jwks_url=jwks.url, **more)


def _claims(sub: str, /, **changes: Any) -> dict[str, Any]:
    now = int(time.time())
    claims: dict[str, Any] = {"sub": sub, "iss": ISSUER, "aud": AUDIENCE, "iat": now, "exp": now + 600,
                              "name": "Ada Lovelace"}
    return {k: v for k, v in {**claims, **changes}.items() if v is not None}


def _with_clock(auth: Authenticator, settings: PlayerSettings, clock: Clock) -> Authenticator:
    auth.external = ExternalVerifier(settings, clock)
    return auth


def test_an_operators_token_signs_in_a_player_created_on_first_sight(redis_url: str, jwks: Jwks) -> None:
    sub = f"auth0|{secrets.token_hex(8)}"
    ids: list[str] = []

    async def body(auth: Authenticator) -> None:
        token = jwks.sign(_claims(sub), "k1")
        principal = await auth.authenticate(f"Bearer {token}")
        ids.append(principal.player.id)
        assert principal.via is Via.EXTERNAL and principal.player.kind is PlayerKind.EXTERNAL
        assert principal.player.name == "Ada Lovelace"
        assert re.fullmatch(r"ada-lovelace-[1-9][0-9]{3}", principal.player.handle)  # a handle at first sight
        assert principal.player.identities == (Identity(ISSUER, sub),)
        again = await auth.authenticate(f"Bearer {jwks.sign(_claims(sub, name='Renamed'), 'k1')}")
        assert again.player == principal.player  # the same player; the name given at first sight stays

    run(redis_url, body, _settings(jwks))
    fresh = run(redis_url, lambda auth: auth.authenticate(f"Bearer {jwks.sign(_claims(sub), 'k1')}"), _settings(jwks))
    assert fresh.player.id == ids[0]  # another process (no memory of it): the same player
    assert jwks.requests == 2  # one fetch per process


def test_the_name_comes_from_the_configured_claim_else_a_short_form_of_sub(redis_url: str, jwks: Jwks) -> None:
    suffix = secrets.token_hex(4)  # fresh subjects: a player's name is fixed at first sight

    async def body(auth: Authenticator) -> list[str]:
        names = []
        for claims in (_claims(f"long-subject-{suffix}", nickname="  Grace  "), _claims(f"nameless-{suffix}"),
                       _claims(f"bad-name-{suffix}", nickname=["not", "text"])):
            names.append((await auth.authenticate(f"Bearer {jwks.sign(claims, 'k1')}")).player.name)
        return names

    names = run(redis_url, body, _settings(jwks, jwt_name_claim="nickname"))
    assert names == ["Grace", f"nameless-{suffix}"[-12:], f"bad-name-{suffix}"[-12:]]


@pytest.mark.parametrize("case", ["expired", "not yet valid", "wrong aud", "wrong iss", "no sub", "no exp",
                                  "alg none", "hs256 with the public key", "unlisted algorithm", "other key",
                                  "unknown kid"])
def test_bad_operator_tokens_are_refused(redis_url: str, jwks: Jwks, case: str) -> None:
    now = int(time.time())
    pem = jwks.private["k1"].public_key().public_bytes(serialization.Encoding.PEM,
                                                       serialization.PublicFormat.SubjectPublicKeyInfo)
    jwks.new_key("stranger")
    good = _claims("someone")
    token = {
        "expired": lambda: jwks.sign(_claims("someone", iat=now - 3600, exp=now - 600), "k1"),
        "not yet valid": lambda: jwks.sign(_claims("someone", nbf=now + 600), "k1"),
        "wrong aud": lambda: jwks.sign(_claims("someone", aud="another-app"), "k1"),
        "wrong iss": lambda: jwks.sign(_claims("someone", iss="https://evil.example.test/"), "k1"),
        "no sub": lambda: jwks.sign(_claims("someone", sub=None), "k1"),
        "no exp": lambda: jwks.sign(_claims("someone", exp=None), "k1"),
        "alg none": lambda: hand_signed({"alg": "none", "kid": "k1"}, good, None),
        "hs256 with the public key": lambda: hand_signed({"alg": "HS256", "kid": "k1"}, good, pem),
        "unlisted algorithm": lambda: jwt.encode(good, jwks.private["k1"], algorithm="RS512", headers={"kid": "k1"}),
        "other key": lambda: jwks.sign(good, "stranger", header_kid="k1"),
        "unknown kid": lambda: jwks.sign(good, "stranger"),
    }[case]()

    async def body(auth: Authenticator) -> Reason:
        return (await refused(auth.authenticate(f"Bearer {token}"), token)).reason

    reason = run(redis_url, body, _settings(jwks))
    expected = {"expired": Reason.EXPIRED, "alg none": Reason.ALGORITHM, "hs256 with the public key": Reason.ALGORITHM,
                "unlisted algorithm": Reason.ALGORITHM}.get(case, Reason.INVALID)
    assert reason is expected


def test_key_rotation_and_the_refetch_throttle(redis_url: str, jwks: Jwks) -> None:
    """A new kid is fetched once the throttle window allows; a flood of unknown kids fetches at most once a window
    (counted at the HTTP server)."""
    settings = _settings(jwks, jwks_refresh_seconds=30)
    clock = Clock()

    async def body(auth: Authenticator) -> None:
        auth = _with_clock(auth, settings, clock)
        assert (await auth.authenticate(f"Bearer {jwks.sign(_claims('rotating'), 'k1')}")).via is Via.EXTERNAL
        assert jwks.requests == 1
        await auth.authenticate(f"Bearer {jwks.sign(_claims('rotating'), 'k1')}")
        assert jwks.requests == 1, "a known kid fetched again"
        jwks.new_key("k2")
        jwks.served = ["k2"]  # the provider rotates
        rotated = jwks.sign(_claims("rotating"), "k2")
        await refused(auth.authenticate(f"Bearer {rotated}"), rotated)  # within the window of the last fetch
        assert jwks.requests == 1
        clock.now += 30
        assert (await auth.authenticate(f"Bearer {rotated}")).via is Via.EXTERNAL
        assert jwks.requests == 2, "the new kid took one refetch"

        def flood() -> list[str]:
            return [jwks.sign(_claims("flood"), "k2", header_kid=secrets.token_hex(8)) for _ in range(40)]

        outcomes = await asyncio.gather(*(auth.authenticate(f"Bearer {t}") for t in flood()), return_exceptions=True)
        assert all(getattr(o, "code", None) == "UNAUTHENTICATED" for o in outcomes)
        assert jwks.requests == 2, "a flood of unknown kids fetched within the window"
        clock.now += 30
        outcomes = await asyncio.gather(*(auth.authenticate(f"Bearer {t}") for t in flood()), return_exceptions=True)
        assert all(getattr(o, "code", None) == "UNAUTHENTICATED" for o in outcomes)
        assert jwks.requests == 3, f"{jwks.requests - 2} fetches for one window's flood"
        assert (await auth.authenticate(f"Bearer {rotated}")).via is Via.EXTERNAL  # k2 still known

    run(redis_url, body, settings)


def test_an_unreachable_key_set_keeps_the_keys_known(redis_url: str, jwks: Jwks) -> None:
    settings = _settings(jwks, jwks_cache_seconds=60, jwks_refresh_seconds=10)
    clock = Clock()
    token = jwks.sign(_claims("steady"), "k1")

    async def body(auth: Authenticator) -> None:
        auth = _with_clock(auth, settings, clock)
        await auth.authenticate(f"Bearer {token}")
        jwks.server.shutdown()  # the provider goes away
        jwks.server.server_close()
        clock.now += 120  # the key set grew old: fetching fails, the known key still serves
        assert (await auth.authenticate(f"Bearer {token}")).via is Via.EXTERNAL

    run(redis_url, body, settings)


def test_no_key_set_at_all_is_unavailable(redis_url: str) -> None:
    settings = PlayerSettings(jwt_issuer=ISSUER, jwt_audience=AUDIENCE, jwks_url="http://127.0.0.1:9/jwks.json",
                              jwks_timeout=2)
    endpoint = Jwks()
    endpoint.new_key("k1")
    token = endpoint.sign(_claims("nobody"), "k1")
    endpoint.server.server_close()
    reason = run(redis_url, lambda auth: refused(auth.authenticate(f"Bearer {token}"), token), settings)
    assert reason.reason is Reason.UNAVAILABLE


def test_a_shared_secret_provider(redis_url: str) -> None:
    secret = "the operator's shared secret, 32 bytes or more"
    settings = PlayerSettings(jwt_issuer=ISSUER, jwt_audience=AUDIENCE, jwt_secret=secret)
    good = jwt.encode(_claims(f"sb-{secrets.token_hex(6)}"), secret, algorithm="HS256")
    forged = jwt.encode(_claims("sb-user"), "some other secret of thirty-two bytes", algorithm="HS256")

    async def body(auth: Authenticator) -> None:
        assert (await auth.authenticate(f"Bearer {good}")).via is Via.EXTERNAL
        assert (await refused(auth.authenticate(f"Bearer {forged}"), forged)).reason is Reason.INVALID

    run(redis_url, body, settings)


def test_without_configuration_an_operators_token_is_refused(redis_url: str, jwks: Jwks) -> None:
    token = jwks.sign(_claims("someone"), "k1")
    reason = run(redis_url, lambda auth: refused(auth.authenticate(f"Bearer {token}"), token))
    assert reason.reason is Reason.NOT_CONFIGURED and jwks.requests == 0


@pytest.mark.parametrize("env, complaint", [
    ({"FIREBREAK_JWT_ISSUER": ISSUER}, "half configured"),
    ({"FIREBREAK_JWT_ISSUER": ISSUER, "FIREBREAK_JWT_AUDIENCE": "a", "FIREBREAK_JWKS_URL": "http://x/",
      "FIREBREAK_JWT_SECRET": "s" * 32}, "not both"),
    ({"FIREBREAK_JWT_ISSUER": ISSUER, "FIREBREAK_JWT_AUDIENCE": "a", "FIREBREAK_JWKS_URL": "http://x/",
      "FIREBREAK_JWT_ALGORITHMS": "RS256,HS256"}, "may name only"),
    ({"FIREBREAK_JWT_ISSUER": ISSUER, "FIREBREAK_JWT_AUDIENCE": "a", "FIREBREAK_JWKS_URL": "http://x/",
      "FIREBREAK_JWT_ALGORITHMS": "none"}, "may name only"),
    ({"FIREBREAK_JWT_ISSUER": ISSUER, "FIREBREAK_JWT_AUDIENCE": "a", "FIREBREAK_JWT_SECRET": "s" * 32,
      "FIREBREAK_JWT_ALGORITHMS": "RS256"}, "may name only"),
    ({"FIREBREAK_JWT_ISSUER": ISSUER, "FIREBREAK_JWT_AUDIENCE": "a", "FIREBREAK_JWT_SECRET": "short"}, "32 bytes"),
])
def test_settings_refuse_what_cannot_be_safe(env: dict[str, str], complaint: str) -> None:
    with pytest.raises(ValueError, match=complaint):
        PlayerSettings.from_env(env)


def test_settings_defaults_and_the_environment() -> None:
    assert not PlayerSettings.from_env({}).external
    jwks = PlayerSettings.from_env({"FIREBREAK_JWT_ISSUER": ISSUER, "FIREBREAK_JWT_AUDIENCE": "a",
                                    "FIREBREAK_JWKS_URL": "https://id.example.test/jwks"})
    assert jwks.external and jwks.algorithms == ("RS256",)
    shared = PlayerSettings.from_env({"FIREBREAK_JWT_ISSUER": ISSUER, "FIREBREAK_JWT_AUDIENCE": "a",
                                      "FIREBREAK_JWT_SECRET": "s" * 32, "FIREBREAK_ACCESS_TOKEN_TTL": "60"})
    assert shared.algorithms == ("HS256",) and shared.access_ttl == 60
    assert PlayerSettings().registration_rate.enabled


def test_a_guest_links_the_operators_identity_and_keeps_its_id(redis_url: str, jwks: Jwks) -> None:
    sub = f"linked-{secrets.token_hex(6)}"

    async def body(auth: Authenticator) -> None:
        guest = (await auth.sessions.sign_in_as_guest("Guest", device())).player
        token = jwks.sign(_claims(sub), "k1")
        linked = await auth.link_external(guest, token)
        assert linked.id == guest.id and linked.kind is PlayerKind.EXTERNAL and linked.name == "Guest"
        assert linked.identities == (Identity(ISSUER, sub),)
        assert (await auth.authenticate(f"Bearer {token}")).player.id == guest.id
        assert (await auth.link_external(linked, token)).id == guest.id  # linking again changes nothing
        other = (await auth.sessions.sign_in_as_guest("Other", device())).player
        with pytest.raises(IdentityTaken) as taken:
            await auth.link_external(other, token)
        assert taken.value.code == "IDENTITY_TAKEN"
        with pytest.raises(AlreadyLinked):
            await auth.link_external(linked, jwks.sign(_claims(f"{sub}-second"), "k1"))
        expired = jwks.sign(_claims(f"{sub}-x", exp=int(time.time()) - 600), "k1")
        await refused(auth.link_external(other, expired), expired)

    run(redis_url, body, _settings(jwks))
