"""Deleting an account (issue 48, section 1): a recent sign-in asked for, every credential dead at once, the rest done
by the workers, and afterwards nothing of the player readable anywhere (a sweep of every Redis key and every archive
table), while the other players' matches still replay (real API, real workers, real Redis, the archive's SQLite).
Killed processes mid-deletion: test_account_deletion_faults.py."""

from __future__ import annotations

import base64
import json
import random
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
from redis import Redis
from sqlalchemy import select

from firebreak.archive.database import Database, metadata
from firebreak.matches import keys, packing
from firebreak.players import keys as player_keys
from firebreak.players.deletion import DELETED_NAME
from tests.docs.samples import blocks
from tests.service import support as h
from tests.service.conftest import Client
from tests.service.players_support import CREATE_TOKEN, JOIN, Signed, device, guest, rest
from tests.service.test_rematch_invites import CREATE, INVITE
from tests.service.test_seeks import SEEK

DELETE = """mutation { deleteAccount { __typename ... on AccountDeleted { deletedAt }
  ... on Problem { code message } } }"""
MATCH = """query($id: ID!) { match(id: $id) { status endReason seats { seat kind name player handle deleted } } }"""
MY_INVITATIONS = "{ me { invitations { match { id } } } }"
ALLOWED = ("rq:",)  # RQ's own records (a job's arguments, for its result's lifetime): the operator's, not a reader's


@pytest.fixture(scope="module")
def svc(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[h.Private]:
    """An API and two workers of their own, reconciling every 0.1 s with a one-second stall window."""
    with h.private_service(redis_url, tmp_path_factory.mktemp("deletion"), "firebreak-deletion", api=True,
                           workers=2, FIREBREAK_TICK_SECONDS="0.1", FIREBREAK_STALL_SECONDS="1") as service:
        service.wait_reconciling()
        yield service


@pytest.fixture()
def c(svc: h.Private) -> Iterator[Client]:
    with svc.client() as client:
        yield client


def session_id(access: str) -> str:
    """The session family id (sid) an access token of ours names."""
    body = access.split(".")[1]
    return str(json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))["sid"])


def seated_match(c: Client, owner: Signed, others: list[Signed], seats: int, *, rated: bool = False,
                 bots: int = 0, seed: int = 1) -> h.Setup:
    """A Great Fire match created by owner, each of owner and others joined with their credentials (then bots)."""
    body: dict[str, Any] = {"title": "greatfire", "seats": seats}
    body.update({"rated": True} if rated else {"seed": seed})
    created = c.gql(CREATE, {"input": body}, owner.access)["createMatch"]
    assert created["__typename"] == "MatchCreated", created
    s = h.Setup(created["matchId"], created["hostToken"], seats, seed, {})
    for seat, who in enumerate([owner, *others]):
        joined = c.gql(JOIN, {"input": {"matchId": s.match_id, "seat": seat}}, who.access)["joinMatch"]
        assert joined["__typename"] == "SeatJoined", joined
        s.humans[seat] = who.access
    for _ in range(bots):
        h.add_bot(c, s, "random")
    return s


def deletion_done(redis: Redis, player: str) -> bool:
    return redis.zscore(keys.DELETIONS_PENDING, player) is None


def readable(value: Any) -> str:
    """A stored value as text, packed values unpacked."""
    if isinstance(value, bytes):
        value = value.decode(errors="replace")
    if isinstance(value, str) and packing.is_packed(value):
        return json.dumps(packing.unpack(value))
    if isinstance(value, dict):
        return " ".join(f"{readable(k)}={readable(v)}" for k, v in value.items())
    if isinstance(value, list | tuple | set):
        return " ".join(readable(v) for v in value)
    return str(value)


def redis_mentions(redis: Redis, needle: str) -> list[str]:
    """Every Redis key (outside ALLOWED) whose name or value mentions needle."""
    found = []
    for key in redis.scan_iter(count=1000):
        if key.startswith(ALLOWED):
            continue
        kind = redis.type(key)
        value: Any = {"string": redis.get, "hash": redis.hgetall, "list": lambda k: redis.lrange(k, 0, -1),
                      "set": redis.smembers, "zset": lambda k: redis.zrange(k, 0, -1, withscores=True),
                      "stream": lambda k: redis.xrange(k)}.get(kind, lambda k: "")(key)
        text = readable(value)
        if needle in key or needle in text:
            at = text.find(needle)
            found.append(key if at < 0 else f"{key} ~ {text[max(0, at - 120):at + 40]}")
    return found


def archive_mentions(needle: str) -> list[str]:
    """Every archive row (every table) that mentions needle, packed columns unpacked."""
    db = Database.from_settings()
    found = []
    try:
        with db.read() as conn:
            for table in metadata.sorted_tables:
                for row in conn.execute(select(table)).mappings():
                    if needle in readable(dict(row)):
                        found.append(f"{table.name}: {dict(row)}"[:300])
    finally:
        db.close()
    return found


def test_deletion_needs_a_recent_sign_in_and_never_a_token(c: Client, svc: h.Private, redis: Redis) -> None:
    """A session begun before the window: REAUTHENTICATE on both surfaces; a personal access token: FORBIDDEN_SCOPE;
    either way nothing changed. Signing in again (a new session) deletes."""
    assert svc.base is not None
    ann = guest(c, "ann")
    redis.hset(player_keys.family(ann.player, session_id(ann.access)), "began", repr(time.time() - 3600))
    refused = c.gql(DELETE, token=ann.access)["deleteAccount"]
    assert refused["__typename"] == "Reauthenticate" and refused["code"] == "REAUTHENTICATE", refused
    answer = rest(svc.base, "DELETE", "/v1/me", ann.access)
    assert answer.status_code == 403 and answer.json()["code"] == "REAUTHENTICATE"
    token = c.gql(CREATE_TOKEN, {"input": {"name": "bot", "scopes": ["PLAY"]}}, ann.access)["createAccessToken"]
    by_token = rest(svc.base, "DELETE", "/v1/me", token["token"])
    assert by_token.status_code == 403 and by_token.json()["code"] == "FORBIDDEN_SCOPE"
    assert rest(svc.base, "GET", "/v1/me", ann.access).status_code == 200  # nothing changed
    assert redis.zscore(keys.DELETIONS_PENDING, ann.player) is None


def test_a_deleted_account_leaves_nothing_readable_and_other_players_matches_stand(
        c: Client, svc: h.Private, redis: Redis) -> None:
    """ann has a finished rated match with cat, an active one with cat and a bot, a waiting one she made and
    invited dan to, an invitation from cat, a seek, a personal access token. She deletes her account over REST:
    every credential of hers fails at once and her device signs in as a new guest; then the workers resign her live
    seat (the match ends: one person left), leave her waiting seat, withdraw her invitation, cancel her seek, take
    her off the leaderboard and show her finished seat as a deleted player, in Redis and in the archive. Afterwards
    no Redis key and no archive row mentions her id, and cat's matches still replay."""
    assert svc.base is not None
    ann_device = device()
    ann, cat, dan = guest(c, "ann", ann_device), guest(c, "cat"), guest(c, "dan")
    handle = c.gql("{ me { handle } }", token=ann.access)["me"]["handle"]
    pat = c.gql(CREATE_TOKEN, {"input": {"name": "bot", "scopes": ["PLAY"]}}, ann.access)["createAccessToken"]["token"]

    over = seated_match(c, ann, [cat], 2, rated=True)
    assert h.play_to_end(c, over, random.Random(3)).final["status"] == "OVER"
    h.wait_for(lambda: redis.zscore(keys.finished_pending(svc.settings.queue), over.match_id) is None,
               "the finished match's ratings and archive")
    active = seated_match(c, ann, [cat], 3, bots=1, seed=7)
    waiting = seated_match(c, ann, [], 3, seed=8)
    invited = c.gql(INVITE, {"id": waiting.match_id, "players": [dan.player]}, ann.access)["invitePlayers"]
    assert invited["__typename"] == "PlayersInvited", invited
    cats = seated_match(c, cat, [], 3, seed=9)
    assert c.gql(INVITE, {"id": cats.match_id, "players": [ann.player]}, cat.access)["invitePlayers"][
        "__typename"] == "PlayersInvited"
    seek = c.gql(SEEK, {"input": {"title": "london", "seats": 4}}, ann.access)["seek"]
    assert seek["__typename"] == "Seek", seek

    deleted = rest(svc.base, "DELETE", "/v1/me", ann.access)
    assert deleted.status_code == 202, deleted.text
    # at once: every credential is dead, and the device and handle are free
    for credential in (ann.access, pat):
        answer = rest(svc.base, "GET", "/v1/me", credential)
        assert answer.status_code == 401, answer.text
    assert rest(svc.base, "POST", "/v1/auth/refresh", body={"refreshToken": ann.refresh}).status_code == 401
    assert redis.get(player_keys.handle(handle.casefold())) is None  # freed before anyone signs in again
    again = guest(c, "ann", ann_device)
    assert again.player != ann.player  # the same device is a new guest

    h.wait_for(lambda: deletion_done(redis, ann.player), "the deletion's rest", deadline=90)
    shown = c.gql(MATCH, {"id": active.match_id}, cat.access)["match"]
    assert shown["status"] == "OVER" and shown["endReason"] == "RESIGNED"
    assert shown["seats"][0]["name"] == DELETED_NAME and shown["seats"][0]["player"] is None
    finished = c.gql(MATCH, {"id": over.match_id}, cat.access)["match"]
    assert finished["seats"][0]["name"] == DELETED_NAME and finished["seats"][0]["player"] is None
    assert finished["seats"][0]["deleted"] and finished["seats"][0]["handle"] is None
    assert finished["seats"][1]["player"] == cat.player and not finished["seats"][1]["deleted"]
    seat = rest(svc.base, "GET", f"/v1/matches/{over.match_id}", cat.access).json()["seats"][0]
    assert seat["deleted"] is True and seat["player"] is None and seat["name"] == DELETED_NAME
    exported = rest(svc.base, "GET", f"/v1/matches/{over.match_id}/export", cat.access).json()
    assert exported["seats"][0]["kind"] == "deleted" and exported["seats"][0]["player"] is None
    left = c.gql(MATCH, {"id": waiting.match_id}, cat.access)["match"]
    assert left["status"] == "WAITING" and all(s["player"] is None for s in left["seats"])
    assert c.gql(MY_INVITATIONS, token=dan.access)["me"]["invitations"] == []
    board = rest(svc.base, "GET", "/v1/titles/greatfire/leaderboard").json()
    assert ann.player not in json.dumps(board)
    for played in (over, active):  # cat's matches still replay as they were played (a rated match's seed is drawn)
        played.seed = int(h.stored(redis, played.match_id)["meta"]["seed"])
        h.check_replay(redis, played)

    for reader in (cat, dan):  # what the other players read of their own data names her nowhere
        export = rest(svc.base, "GET", "/v1/me/export", reader.access)
        assert export.status_code == 200 and ann.player not in export.text
    assert ann.player not in json.dumps(c.gql(MATCH, {"id": over.match_id})["match"])
    mentions = redis_mentions(redis, ann.player)
    assert mentions == [player_keys.deleted(ann.player)], "\n".join(mentions)
    assert archive_mentions(ann.player) == []
    assert json.loads(redis.get(player_keys.deleted(ann.player)) or "{}").keys() == {"at"}


def test_a_deletion_asked_twice_or_by_a_dead_credential_is_refused_cleanly(c: Client, svc: h.Private) -> None:
    """The credential that deleted the account cannot delete it again (401), and nothing fails."""
    assert svc.base is not None
    ann = guest(c, "ann")
    assert c.gql(DELETE, token=ann.access)["deleteAccount"]["__typename"] == "AccountDeleted"
    again = c.gql(DELETE, token=ann.access)["deleteAccount"]
    assert again["__typename"] == "Unauthenticated", again
    assert rest(svc.base, "DELETE", "/v1/me", ann.access).status_code == 401


def test_the_guides_deletion_sample_runs_as_written(server: str) -> None:
    """docs/guides/players.md, "Deleting an account": sign in, delete (202), and the credential then fails (401)."""
    [sample] = blocks("docs/guides/players.md", "Deleting an account")
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", sample],
                          env={"PORT": server.rsplit(":", 1)[1], "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    deleted, status = done.stdout.splitlines()
    assert json.loads(deleted)["deletedAt"] > 0 and status == "401"
