"""Guest players: created by a device's first sign-in, the same player when that device signs in again."""

from __future__ import annotations

import asyncio

import pytest
from redis import Redis

from firebreak.players import keys
from firebreak.players.authenticate import Authenticator
from firebreak.players.config import PlayerSettings
from firebreak.players.directory import device_hash
from firebreak.players.errors import BadDeviceId, BadName, PlayerNotFound
from firebreak.players.records import PlayerKind
from tests.players.support import SECRET, device, run


def test_a_device_signs_in_as_a_guest_and_again_as_the_same_player(redis_url: str) -> None:
    phone = device()

    async def body(auth: Authenticator) -> None:
        first = await auth.sessions.sign_in_as_guest("  Ada  ", phone)
        assert first.created and first.player.name == "Ada" and first.player.kind is PlayerKind.GUEST
        again = await auth.sessions.sign_in_as_guest("Someone else", phone)
        assert not again.created
        assert again.player.id == first.player.id and again.player.name == "Ada"  # the name is kept: rename() renames
        assert again.session_id != first.session_id and again.refresh_token != first.refresh_token
        other = await auth.sessions.sign_in_as_guest("Ada", device())
        assert other.created and other.player.id != first.player.id

    run(redis_url, body)


def test_the_device_id_is_stored_only_as_its_hash(redis_url: str) -> None:
    phone = device()
    session = run(redis_url, lambda auth: auth.sessions.sign_in_as_guest("Grace", phone))
    r = Redis.from_url(redis_url, decode_responses=True)
    try:
        assert r.get(keys.device(device_hash(phone))) == session.player.id
        stored = r.hgetall(keys.player(session.player.id))
        assert phone not in str(stored) and stored["device"] == device_hash(phone)
        assert not [k for k in r.scan_iter(f"*{phone}*")]
    finally:
        r.close()


@pytest.mark.parametrize("name", ["", "   ", "x" * 41, "tab\there", "new\nline", "\x00"])
def test_bad_names_are_refused(redis_url: str, name: str) -> None:
    with pytest.raises(BadName) as caught:
        run(redis_url, lambda auth: auth.sessions.sign_in_as_guest(name, device()))
    assert caught.value.code == "BAD_NAME"


@pytest.mark.parametrize("phone", ["short", "x" * 15, "x" * 201, "sixteen chars\n..."])
def test_bad_device_ids_are_refused(redis_url: str, phone: str) -> None:
    with pytest.raises(BadDeviceId) as caught:
        run(redis_url, lambda auth: auth.sessions.sign_in_as_guest("Ada", phone))
    assert caught.value.code == "BAD_DEVICE_ID" and phone not in caught.value.message


def test_a_name_of_forty_characters_is_fine_and_rename_renames(redis_url: str) -> None:
    async def body(auth: Authenticator) -> None:
        session = await auth.sessions.sign_in_as_guest("é" * 40, device())
        renamed = await auth.directory.rename(session.player.id, " Lin ")
        assert renamed.name == "Lin" and (await auth.directory.get(session.player.id)) == renamed
        with pytest.raises(BadName):
            await auth.directory.rename(session.player.id, "")
        with pytest.raises(PlayerNotFound):
            await auth.directory.rename("0" * 16, "Lin")
        assert await auth.directory.get("not an id") is None

    run(redis_url, body)


def test_concurrent_first_sign_ins_of_one_device_make_one_player(redis_url: str) -> None:
    phone = device()

    async def body(auth: Authenticator) -> None:
        sessions = await asyncio.gather(*(auth.sessions.sign_in_as_guest("Ada", phone) for _ in range(10)))
        assert len({s.player.id for s in sessions}) == 1
        assert sum(s.created for s in sessions) == 1

    run(redis_url, body)


def test_every_process_shares_the_signing_key(redis_url: str) -> None:
    """Without FIREBREAK_SESSION_SECRET the first process makes one and keeps it in Redis; a token one process
    signs, another verifies. With the setting, that secret signs."""
    session = run(redis_url, lambda auth: auth.sessions.sign_in_as_guest("Ada", device()))
    principal = run(redis_url, lambda auth: auth.authenticate(f"Bearer {session.access_token}"))
    assert principal.player.id == session.player.id
    configured = PlayerSettings(session_secret=SECRET)
    assert run(redis_url, lambda auth: auth.sessions.signing_key(), configured) == SECRET
    with pytest.raises(ValueError, match="32 bytes"):
        PlayerSettings(session_secret="too short")
