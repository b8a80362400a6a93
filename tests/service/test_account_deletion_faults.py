"""A process killed in the middle of an account's deletion loses nothing and does nothing twice (issue 48, section 1):
the API killed with -9 at random moments of a deletion request, the request's process dying at each point between its
writes (with nobody asking again), and the workers killed with -9 while they erase a player with many matches. Each
time the deletion completes through the reconciler, nothing of the player stays readable (the sweep of
test_account_deletion.py), each live seat resigned exactly once, and the other players' matches replay."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis import Redis

from firebreak.matches import keys
from firebreak.matches.lobby import Lobby
from firebreak.matches.pipeline import Pipeline
from firebreak.players.authenticate import Authenticator
from firebreak.players.config import PlayerSettings
from firebreak.players.deletion import Deletions
from tests.service import support as h
from tests.service.conftest import Client
from tests.service.players_support import Signed, device, guest, rest
from tests.service.test_account_deletion import archive_mentions, deletion_done, redis_mentions, seated_match
from tests.service.test_rematch_faults import burst_then_kill, doomed_api

ROUNDS = 3  # kills of the API, each at another moment
DELETE = """mutation { deleteAccount { __typename ... on AccountDeleted { deletedAt } ... on Problem { code } } }"""


@pytest.fixture(scope="module")
def svc(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[h.Private]:
    """A steady API and a worker of their own, whose reconciler ticks every 0.1 s with a one-second stall window."""
    with h.private_service(redis_url, tmp_path_factory.mktemp("deletion-faults"), "firebreak-deletion-faults",
                           api=True, workers=1, FIREBREAK_TICK_SECONDS="0.1", FIREBREAK_STALL_SECONDS="1") as service:
        service.wait_reconciling()
        yield service


@pytest.fixture()
def c(svc: h.Private) -> Iterator[Client]:
    with svc.client() as client:
        yield client


def with_matches(c: Client, ann: Signed, cat: Signed, seed: int, live: int = 1) -> list[h.Setup]:
    """`live` active 3-seat matches of ann, cat and a bot (ann at seat 0)."""
    return [seated_match(c, ann, [cat], 3, bots=1, seed=seed + n) for n in range(live)]


def check_gone(c: Client, redis: Redis, ann: Signed, matches: list[h.Setup]) -> None:
    """The deletion completed: the outbox entry is gone, ann's credential fails, each of her live seats resigned
    exactly once, the matches replay, and nothing of her is readable."""
    h.wait_for(lambda: deletion_done(redis, ann.player), "the deletion to complete", deadline=90)
    for s in matches:
        record = h.stored(redis, s.match_id)
        resigned = [e for e in record["log"] if e.get("service") == "resigned" and e.get("seat") == 0]
        assert len(resigned) == 1, f"seat 0 resigned {len(resigned)} times in {s.match_id}"
        s.seed = int(record["meta"]["seed"])
        h.check_replay(redis, s)
    assert redis_mentions(redis, ann.player) == [f"player:{{p:{ann.player}}}:deleted"]
    assert archive_mentions(ann.player) == []


def test_a_request_cut_off_between_its_writes_is_finished_by_the_reconciler(
        svc: h.Private, c: Client, redis: Redis) -> None:
    """The request's process dies after writing the outbox entry (before sealing), or after sealing (before freeing
    the device and queueing the job): with nobody asking again, a worker's reconciler finishes the deletion, and
    the device then signs in as a new guest."""
    for stop in ("outbox", "sealed"):
        ann_device = device()
        ann, cat = guest(c, "ann", ann_device), guest(c, "cat")
        matches = with_matches(c, ann, cat, 5100 + len(stop))

        async def cut_off(lobby: Lobby, _: Pipeline, player: str = ann.player, at: str = stop) -> None:
            auth = Authenticator.build(lobby.store.redis, PlayerSettings())
            deletions = Deletions(lobby.store.redis, lobby.store.queue, auth.directory, 300.0)
            await lobby.store.queue.zadd(keys.DELETIONS_PENDING, {player: 0.0})
            if at == "sealed":
                await deletions.seal(player)

        h.run(svc.settings, cut_off)
        check_gone(c, redis, ann, matches)
        assert guest(c, "ann", ann_device).player != ann.player


def test_an_api_killed_during_a_deletion_request_leaves_a_deletion_that_completes(
        svc: h.Private, c: Client, redis: Redis, tmp_path: Path) -> None:
    """kill -9 an API process at a random moment of a deletion request (and two concurrent ones of the same
    session), several times: each time the deletion completes, once."""
    rng = random.Random(5200)
    for n in range(ROUNDS):
        ann, cat = guest(c, "ann"), guest(c, "cat")
        matches = with_matches(c, ann, cat, 5201 + 10 * n)
        with doomed_api(svc, tmp_path / f"api{n}.log") as (base, proc):
            def began(player: str = ann.player) -> bool:
                return redis.zscore(keys.DELETIONS_PENDING, player) is not None

            answers = burst_then_kill(proc, [(DELETE, {}, ann.access)] * 2, base, began, rng.uniform(0, 0.01))
        for answer in answers:
            assert answer is None or answer["deleteAccount"]["__typename"] in ("AccountDeleted", "Unauthenticated")
        assert svc.base is not None
        if redis.zscore(keys.DELETIONS_PENDING, ann.player) is None and \
                rest(svc.base, "GET", "/v1/me", ann.access).status_code == 200:
            continue  # the kill came before anything was written: nothing was asked (the person asks again)
        check_gone(c, redis, ann, matches)


def test_workers_killed_while_erasing_a_player_leave_a_deletion_that_completes_once(
        svc: h.Private, c: Client, redis: Redis) -> None:
    """ann sits in many live matches; the worker erasing her is killed with -9 once some are done; a new worker's
    reconciler finishes the deletion: every seat resigned exactly once."""
    assert svc.base is not None
    ann, cat = guest(c, "ann"), guest(c, "cat")
    matches = with_matches(c, ann, cat, 5300, live=8)
    assert rest(svc.base, "DELETE", "/v1/me", ann.access).status_code == 202

    def some_erased() -> bool:
        return any(redis.hget(keys.meta(s.match_id), "status") == "over" for s in matches) or \
            deletion_done(redis, ann.player)

    h.wait_for(some_erased, "the deletion's job to begin erasing", deadline=60, pause=0.005)
    svc.kill_workers()
    svc.start_worker()
    check_gone(c, redis, ann, matches)
