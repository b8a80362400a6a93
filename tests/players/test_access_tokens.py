"""Personal access tokens: made by a signed-in player, shown once, stored as a hash, listed, scoped, revoked."""

from __future__ import annotations

import pytest
from redis import Redis

from firebreak.players import keys
from firebreak.players.access import MAX_LIFETIME
from firebreak.players.authenticate import Authenticator
from firebreak.players.config import PlayerSettings
from firebreak.players.errors import BadName, BadScopes, ForbiddenScope, Reason, TokenNotFound, TooManyTokens
from firebreak.players.records import Principal, Scope, Via
from tests.players.support import device, refused, run


async def _principal(auth: Authenticator) -> Principal:
    session = await auth.sessions.sign_in_as_guest("Botwright", device())
    return await auth.authenticate(f"Bearer {session.access_token}")


def test_a_token_is_made_verified_listed_and_revoked(redis_url: str) -> None:
    async def body(auth: Authenticator) -> tuple[str, str]:
        me = await _principal(auth)
        token, info = await auth.access.create(me, "my bot", ["bot"])
        assert token.startswith(f"fbp_{me.player.id}.{info.id}.") and info.expires is None
        assert info.scopes == {Scope.BOT} and info.name == "my bot"
        principal = await auth.authenticate(f"Bearer {token}")
        assert principal.player == me.player and principal.via is Via.ACCESS_TOKEN
        assert principal.scopes == {Scope.BOT} and principal.token_id == info.id
        principal.require(Scope.BOT)
        with pytest.raises(ForbiddenScope) as caught:
            principal.require(Scope.PLAY)
        assert caught.value.code == "FORBIDDEN_SCOPE"
        me.require(Scope.PLAY)  # a session may do everything
        second, _ = await auth.access.create(me, "player two", ["play", "bot"])
        listed = await auth.access.listing(me.player.id)
        assert [t.name for t in listed] == ["my bot", "player two"] and listed[0] == info
        await auth.access.revoke(me.player.id, info.id)
        assert (await refused(auth.authenticate(f"Bearer {token}"), token)).reason is Reason.UNKNOWN
        assert [t.name for t in await auth.access.listing(me.player.id)] == ["player two"]
        with pytest.raises(TokenNotFound):
            await auth.access.revoke(me.player.id, info.id)
        assert (await auth.authenticate(f"Bearer {second}")).scopes == {Scope.PLAY, Scope.BOT}
        return me.player.id, second

    player_id, token = run(redis_url, body)
    r = Redis.from_url(redis_url, decode_responses=True)
    try:  # only the hash of the secret is stored
        secret = token.rsplit(".", 1)[1]
        assert not [k for k in r.scan_iter(f"player:{{p:{player_id}}}*") if secret in str(r.dump(k))]
    finally:
        r.close()


def test_a_wrong_secret_and_malformed_tokens_are_refused(redis_url: str) -> None:
    async def body(auth: Authenticator) -> None:
        token, _ = await auth.access.create(await _principal(auth), "bot", ["play"])
        wrong = token[:-43] + "B" * 43
        assert (await refused(auth.authenticate(f"Bearer {wrong}"), wrong)).reason is Reason.INVALID
        for bad in ("fbp_", "fbp_0.0.0", token + "x", token.replace("fbp_", "fbq_")):
            await refused(auth.access.verify(bad), bad)
            await refused(auth.authenticate(f"Bearer {bad}"), bad)

    run(redis_url, body)


def test_what_a_token_may_be_asked_for(redis_url: str) -> None:
    async def body(auth: Authenticator) -> None:
        me = await _principal(auth)
        for scopes in ([], ["admin"], ["play", "root"]):
            with pytest.raises(BadScopes):
                await auth.access.create(me, "bot", scopes)
        for lifetime in (0, -5, MAX_LIFETIME + 1):
            with pytest.raises(BadScopes):
                await auth.access.create(me, "bot", ["bot"], expires_in=lifetime)
        with pytest.raises(BadName):
            await auth.access.create(me, " ", ["bot"])
        token, _ = await auth.access.create(me, "bot", ["bot"])
        with pytest.raises(ForbiddenScope):  # a token cannot make tokens: sign in
            await auth.access.create(await auth.authenticate(f"Bearer {token}"), "another", ["bot"])

    run(redis_url, body)


def test_a_token_with_a_lifetime_expires(redis_url: str) -> None:
    async def body(auth: Authenticator) -> tuple[str, str, str]:
        me = await _principal(auth)
        token, info = await auth.access.create(me, "brief", ["bot"], expires_in=60)
        assert info.expires is not None and info.expires - info.created == pytest.approx(60)
        assert (await auth.authenticate(f"Bearer {token}")).token_id == info.id
        return me.player.id, info.id, token

    player_id, token_id, token = run(redis_url, body)
    r = Redis.from_url(redis_url, decode_responses=True)
    try:
        assert 0 < r.ttl(keys.token(player_id, token_id)) <= 60
        r.hset(keys.token(player_id, token_id), "expires", "1")  # as if its time had come before Redis dropped it
    finally:
        r.close()
    reason = run(redis_url, lambda auth: refused(auth.authenticate(f"Bearer {token}"), token))
    assert reason.reason is Reason.EXPIRED


def test_a_player_holds_a_bounded_number_of_tokens(redis_url: str) -> None:
    async def body(auth: Authenticator) -> None:
        me = await _principal(auth)
        made = [await auth.access.create(me, f"bot {n}", ["bot"]) for n in range(3)]
        with pytest.raises(TooManyTokens):
            await auth.access.create(me, "one too many", ["bot"])
        await auth.access.revoke(me.player.id, made[0][1].id)
        await auth.access.create(me, "room again", ["bot"])

    run(redis_url, body, PlayerSettings(tokens_per_player=3))
