"""Player handles (players/handles.py, players/directory.py): the grammar, the uniqueness key, the handle assigned
at sign-in (retried on collision), the lazy handle of a player made before handles, renames and their limit."""

from __future__ import annotations

import asyncio
import time

import pytest
from redis import Redis

from firebreak.players import handles, keys
from firebreak.players.authenticate import Authenticator
from firebreak.players.config import PlayerSettings
from firebreak.players.directory import HANDLE_GRACE, device_hash, new_id
from firebreak.players.errors import BadHandle, BadName, HandleChangesLimited, HandleTaken
from firebreak.players.handles import HandleReason
from tests.players.support import device, run

FULLWIDTH = "\uff21\uff2e\uff2e"  # ANN in fullwidth letters


@pytest.mark.parametrize("handle", ["ann", "Ann-4821", "a.b_c-d", "x" * 24, "Ελλάδα", "タワー", "bob1",
                                    "  ann  ", FULLWIDTH])
def test_good_handles(handle: str) -> None:
    assert handles.problem(handle)[1] is None


@pytest.mark.parametrize(("handle", "reason"), [
    ("ab", HandleReason.TOO_SHORT), ("", HandleReason.TOO_SHORT), ("x" * 25, HandleReason.TOO_LONG),
    ("ann smith", HandleReason.CHARACTERS), ("ann@home", HandleReason.CHARACTERS), ("ann\n1", HandleReason.CHARACTERS),
    ("-ann", HandleReason.PUNCTUATION), ("ann.", HandleReason.PUNCTUATION), ("_a_", HandleReason.PUNCTUATION),
    ("\u0430nn", HandleReason.MIXED_SCRIPT), ("p\u0430ypal", HandleReason.MIXED_SCRIPT),
    ("ab\u0661", HandleReason.MIXED_SCRIPT),
    ("東京タワー", HandleReason.MIXED_SCRIPT),  # the library counts Han and Katakana as two scripts
])
def test_bad_handles_say_why(handle: str, reason: HandleReason) -> None:
    assert handles.problem(handle)[1] is reason


def test_the_key_is_nfkc_casefolded() -> None:
    assert handles.key("Ann") == handles.key("ANN") == handles.key(FULLWIDTH) == "ann"
    assert handles.key("Straße") == handles.key("STRASSE")
    assert handles.problem(FULLWIDTH)[0] == "ANN"  # kept as NFKC, its case as given


@pytest.mark.parametrize(("name", "slug"), [("ann", "ann"), ("Ann Smith!", "ann-smith"), ("  ", "player"),
                                            ("a", "player"), ("Δημήτρης", "δημήτρης"), ("\u0430nn", "player"),
                                            ("A very long display name indeed", "a-very-long-disp")])
def test_an_assigned_handle_is_a_slug_of_the_name_and_digits(name: str, slug: str) -> None:
    assert handles.slug(name) == slug
    assigned = handles.candidate(name, 4821, 4)
    assert assigned == f"{slug}-4821" and handles.problem(assigned)[1] is None


def test_sign_in_assigns_a_handle_and_a_collision_is_retried(redis_url: str) -> None:
    async def body(auth: Authenticator) -> None:
        numbers = iter([0, 0, 0, 7])  # ann-1000 for the first, then ann-1000 twice taken, then ann-1007
        auth.directory.draw = lambda _: next(numbers)
        name = f"hx{new_id()[:6]}"
        first = await auth.sessions.sign_in_as_guest(name, device())
        second = await auth.sessions.sign_in_as_guest(name, device())
        assert first.player.handle == f"{name}-1000" and second.player.handle == f"{name}-1007"
        assert (await auth.directory.get(first.player.id)) == first.player
        assert (await auth.directory.by_handle(f"{name.upper()}-1007")) == second.player

    run(redis_url, body)


def test_a_player_made_before_handles_gets_one_on_its_first_read(redis_url: str) -> None:
    player_id, phone = new_id(), device()
    r = Redis.from_url(redis_url, decode_responses=True)
    try:  # the records as the service wrote them before handles existed
        r.hset(keys.player(player_id), mapping={"name": "Old Timer", "kind": "guest", "created": "1.0", "ver": "0",
                                                "links": "[]", "device": device_hash(phone)})
        r.set(keys.device(device_hash(phone)), player_id)

        async def body(auth: Authenticator) -> tuple[str, str, str]:
            read = await auth.directory.get(player_id)
            again = await auth.directory.get(player_id)
            session = await auth.sessions.sign_in_as_guest("ignored", phone)
            assert read is not None and again is not None
            return read.handle, again.handle, session.player.handle

        read, again, signed_in = run(redis_url, body)
        assert read.startswith("old-timer-") and read == again == signed_in
        assert r.hget(keys.player(player_id), "handle") == read
        assert r.get(keys.handle(handles.key(read))).split(" ")[0] == player_id
    finally:
        r.close()


def test_a_session_of_a_player_made_before_handles_reads_its_handle(redis_url: str) -> None:
    async def body(auth: Authenticator) -> None:
        session = await auth.sessions.sign_in_as_guest("Before", device())
        redis = auth.directory.redis  # the player as it was stored before handles: no handle, no handle key
        await redis.hdel(keys.player(session.player.id), "handle")
        await redis.delete(keys.handle(handles.key(session.player.handle)))
        me = await auth.authenticate(f"Bearer {session.access_token}")
        assert me.player.handle.startswith("before-")
        assert await redis.hget(keys.player(session.player.id), "handle") == me.player.handle

    run(redis_url, body)


def test_a_rename_frees_the_old_handle_and_case_folded_twins_are_one_handle(redis_url: str) -> None:
    stem = f"rn{new_id()[:8]}"

    async def body(auth: Authenticator) -> None:
        ann = (await auth.sessions.sign_in_as_guest("ann", device())).player
        bob = (await auth.sessions.sign_in_as_guest("bob", device())).player
        old = ann.handle
        renamed = await auth.directory.change_handle(ann.id, stem)
        assert renamed.handle == stem and (await auth.directory.by_handle(old)) is None
        for twin in (stem.upper(), f"  {stem}  ", stem.replace("r", "\uff52")):
            with pytest.raises(HandleTaken):
                await auth.directory.change_handle(bob.id, twin)
        taken = await auth.directory.change_handle(bob.id, old)  # ann's old handle is free at once
        assert taken.handle == old
        assert (await auth.directory.get(bob.id)).handle == old  # type: ignore[union-attr]
        recased = await auth.directory.change_handle(ann.id, stem.upper())  # the same key: kept, shown recased
        assert recased.handle == stem.upper() and (await auth.directory.by_handle(stem)) == recased

    run(redis_url, body)


def test_refused_changes_change_nothing(redis_url: str) -> None:
    async def body(auth: Authenticator) -> None:
        ann = (await auth.sessions.sign_in_as_guest("ann", device())).player
        with pytest.raises(BadHandle) as caught:
            await auth.directory.update_profile(ann.id, "-no-", "New Name")
        assert caught.value.reason is HandleReason.PUNCTUATION and caught.value.code == "BAD_HANDLE"
        with pytest.raises(BadName):
            await auth.directory.update_profile(ann.id, f"ok{new_id()[:6]}", "")
        assert (await auth.directory.get(ann.id)) == ann
        both = await auth.directory.update_profile(ann.id, f"ok{new_id()[:6]}", " Ann B ")
        assert both.name == "Ann B" and both.handle != ann.handle

    run(redis_url, body)


def test_handle_changes_are_limited_a_day(redis_url: str) -> None:
    async def body(auth: Authenticator) -> None:
        ann = (await auth.sessions.sign_in_as_guest("ann", device())).player
        for n in range(2):
            await auth.directory.change_handle(ann.id, f"lim{n}{new_id()[:6]}")
        held = (await auth.directory.get(ann.id)).handle  # type: ignore[union-attr]
        wanted = f"lim{new_id()[:6]}"
        with pytest.raises(HandleChangesLimited) as caught:
            await auth.directory.change_handle(ann.id, wanted)
        assert 0 < caught.value.retry_after <= 24 * 3600 and caught.value.code == "RATE_LIMITED"
        assert (await auth.directory.get(ann.id)).handle == held  # type: ignore[union-attr]
        assert (await auth.directory.by_handle(wanted)) is None  # the refused change holds nothing
        assert (await auth.directory.update_profile(ann.id, None, "Still Renamable")).name == "Still Renamable"

    run(redis_url, body, PlayerSettings(handle_changes_per_day=2))


def test_concurrent_claims_of_one_handle_leave_one_holder(redis_url: str) -> None:
    wanted = f"race{new_id()[:6]}"

    async def body(auth: Authenticator) -> list[object]:
        players = [(await auth.sessions.sign_in_as_guest("racer", device())).player for _ in range(20)]
        return await asyncio.gather(*(auth.directory.change_handle(p.id, wanted) for p in players),
                                    return_exceptions=True)

    outcomes = run(redis_url, body)
    assert sum(isinstance(o, HandleTaken) for o in outcomes) == 19
    assert sum(getattr(o, "handle", None) == wanted for o in outcomes) == 1


def test_a_stale_hold_is_taken_over_after_the_grace(redis_url: str) -> None:
    wanted, ghost = f"stale{new_id()[:6]}", new_id()
    r = Redis.from_url(redis_url, decode_responses=True)
    try:  # a crash between taking the key and writing the player left a key its player does not show
        r.set(keys.handle(handles.key(wanted)), f"{ghost} {time.time() - HANDLE_GRACE - 1!r}")

        async def body(auth: Authenticator) -> str:
            ann = (await auth.sessions.sign_in_as_guest("ann", device())).player
            return (await auth.directory.change_handle(ann.id, wanted)).handle

        assert run(redis_url, body) == wanted
        fresh = f"fresh{new_id()[:6]}"
        r.set(keys.handle(handles.key(fresh)), f"{ghost} {time.time()!r}")  # within the grace: a rename under way

        async def refused(auth: Authenticator) -> None:
            bob = (await auth.sessions.sign_in_as_guest("bob", device())).player
            with pytest.raises(HandleTaken):
                await auth.directory.change_handle(bob.id, fresh)

        run(redis_url, refused)
    finally:
        r.close()
