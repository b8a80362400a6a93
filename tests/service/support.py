"""Shared helpers for the service tests: GraphQL documents, a recording client, match set-up, a player loop,
and the checks that nothing secret reaches a viewer who may not see it.

Every check here is semantic: it knows which parts of a view and which events are a seat's secrets (a view's
"you", hands, objectives, token identities, colours under Hidden Colours; events with an "audience") and
checks them against the viewer, instead of looking for strings. Tokens are the exception: being random
strings, each is looked for verbatim (with its stored hash) in every answer but the one that issued it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

import httpx
from redis import Redis
from redis.asyncio import Redis as AsyncRedis

from firebreak.domain import titles
from firebreak.matches import history, keys, packing
from firebreak.matches.config import Settings
from firebreak.matches.lobby import Lobby
from firebreak.matches.pipeline import Pipeline
from firebreak.matches.scheduler import Scheduler
from firebreak.matches.store import MatchStore
from tests.service.conftest import QUEUE, Client, api_process, service_env

__all__ = ["QUEUE", "Client", "api_process", "service_env"]

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 120.0

CREATE = """mutation($input: CreateMatchInput!) { createMatch(input: $input) { __typename
  ... on MatchCreated { matchId hostToken match { id status version seatCount options } }
  ... on Problem { code message } } }"""
JOIN = """mutation($input: JoinMatchInput!) { joinMatch(input: $input) { __typename
  ... on SeatJoined { matchId seat token started } ... on Problem { code message } } }"""
BOT = """mutation($input: AddBotInput!) { addBot(input: $input) { __typename
  ... on BotAdded { matchId seat level started } ... on Problem { code message } } }"""
ACT = """mutation($input: ActInput!) { act(input: $input) { __typename
  ... on ActionAccepted { version events }
  ... on IllegalAction { code message at: version }
  ... on NotYourTurn { code message at: version }
  ... on StaleVersion { code message currentVersion }
  ... on MatchOver { code message at: version }
  ... on Problem { code message } } }"""
STATE = """query($id: ID!) { match(id: $id) { id title status version seatCount options you toAct serviceToAct
  view legalActions result { endReason reason winners scores { seat total parts { key value } } }
  seats { seat taken name kind level } } }"""
EVENTS = """query($id: ID!, $after: Int!, $limit: Int!) { match(id: $id) { version you
  events(afterVersion: $after, limit: $limit) { version events } } }"""
SUBSCRIBE = """subscription($id: ID!, $after: Int!) {
  matchEvents(matchId: $id, afterVersion: $after) { version events } }"""

# Events that carry a seat's secret; the engine gives each an audience. handRevealed / handRedealt show a
# hand to everyone on purpose (R15), so they are public.
PRIVATE_EVENT_TYPES = {"handDealt", "cardSeen", "tokenRevealed"}
# Events the service adds to a step (turn clocks, abandonment): not the engine's, so a replay does not make them.
SERVICE_EVENT_TYPES = {"clockExpired", "seatTakenOver", "seatReturned", "seatResigned", "matchAbandoned"}
SECRET_VIEW_KEYS = {"hand", "objectives"}


# ----- a client that keeps every answer ------------------------------------------------------------------

class RecordingClient(Client):
    """The conftest client, keeping every response body so that secrets can be looked for afterwards."""

    def __init__(self, base: str) -> None:
        super().__init__(base)
        self.bodies: list[str] = []
        # secret (a seat or host token) -> index of the one body allowed to carry it (its own answer)
        self.origins: dict[str, int] = {}

    def post(self, query: str, variables: dict[str, Any] | None = None, token: str | None = None) -> httpx.Response:
        response = super().post(query, variables, token)
        self.bodies.append(response.text)
        return response

    def close(self) -> None:
        self.http.close()

    def assert_secrets_confined(self, extra_bodies: Sequence[str] = ()) -> None:
        """Every token appears only in the answer that issued it (joinMatch / createMatch)."""
        assert self.origins, "no secrets were recorded"
        for secret, origin in self.origins.items():
            assert secret in self.bodies[origin], "the issuing answer does not hold its own token"
            digest = hashlib.sha256(secret.encode()).hexdigest()
            assert not any(digest in body for body in [*self.bodies, *extra_bodies]), "a token's hash leaked"
            for n, body in enumerate(self.bodies):
                if n != origin:
                    assert secret not in body, f"a token leaked into response #{n}: {body[:300]}"
            for body in extra_bodies:
                assert secret not in body, f"a token leaked into a subscription message: {body[:300]}"


@contextlib.contextmanager
def recording(base: str) -> Iterator[RecordingClient]:
    c = RecordingClient(base)
    try:
        yield c
    finally:
        c.close()


# ----- set-up --------------------------------------------------------------------------------------------

@dataclass
class Setup:
    """A match and the secrets that came with it."""

    match_id: str
    host: str
    seats: int
    seed: int
    options: dict[str, Any]
    humans: dict[int, str] = field(default_factory=dict)  # seat -> token
    bots: dict[int, str] = field(default_factory=dict)     # seat -> level


def create(c: Client, seats: int, seed: int, options: dict[str, Any] | None = None) -> Setup:
    """Create a waiting match (seeded, so the test can replay it)."""
    body: dict[str, Any] = {"title": "greatfire", "seats": seats, "seed": seed}
    if options is not None:
        body["options"] = options
    created = c.gql(CREATE, {"input": body})["createMatch"]
    assert created["__typename"] == "MatchCreated", created
    assert created["match"]["status"] == "WAITING" and created["match"]["version"] == 0
    if isinstance(c, RecordingClient):
        c.origins[created["hostToken"]] = len(c.bodies) - 1
    return Setup(created["matchId"], created["hostToken"], seats, seed, created["match"]["options"])


def join(c: Client, s: Setup, name: str, seat: int | None = None) -> dict[str, Any]:
    """Take a seat as a person; record the token."""
    variables: dict[str, Any] = {"matchId": s.match_id, "name": name}
    if seat is not None:
        variables["seat"] = seat
    joined: dict[str, Any] = c.gql(JOIN, {"input": variables})["joinMatch"]
    assert joined["__typename"] == "SeatJoined", joined
    s.humans[joined["seat"]] = joined["token"]
    if isinstance(c, RecordingClient):
        c.origins[joined["token"]] = len(c.bodies) - 1
    return joined


def add_bot(c: Client, s: Setup, level: str, seat: int | None = None) -> dict[str, Any]:
    """Seat a bot with the host token."""
    variables: dict[str, Any] = {"matchId": s.match_id, "level": level}
    if seat is not None:
        variables["seat"] = seat
    added: dict[str, Any] = c.gql(BOT, {"input": variables}, s.host)["addBot"]
    assert added["__typename"] == "BotAdded", added
    s.bots[added["seat"]] = level
    return added


def new_match(c: Client, seats: int, seed: int, humans: int, bots: list[str],
              options: dict[str, Any] | None = None) -> Setup:
    """Create a match with `humans` people (seats first) then the bots; it is started afterwards."""
    assert humans + len(bots) == seats
    s = create(c, seats, seed, options)
    for n in range(humans):
        join(c, s, f"player {n}")
    started = False
    for level in bots:
        started = add_bot(c, s, level)["started"]
    if not bots:
        started = True  # the last join started it
    assert started
    return s


def state(c: Client, match_id: str, token: str | None) -> dict[str, Any]:
    m: dict[str, Any] | None = c.gql(STATE, {"id": match_id}, token)["match"]
    assert m is not None, f"match {match_id} is gone"
    return m


def act(c: Client, match_id: str, token: str | None, action: Any, version: int,
        key: str | None = None) -> dict[str, Any]:
    variables: dict[str, Any] = {"matchId": match_id, "action": action, "expectedVersion": version}
    if key is not None:
        variables["idempotencyKey"] = key
    result: dict[str, Any] = c.gql(ACT, {"input": variables}, token)["act"]
    return result


def all_events(c: Client, match_id: str, token: str | None) -> list[dict[str, Any]]:
    """Every stored step as the token's holder (None: a spectator) sees it, page by page."""
    out: list[dict[str, Any]] = []
    after = 0
    while True:
        m = c.gql(EVENTS, {"id": match_id, "after": after, "limit": 500}, token)["match"]
        page = m["events"]
        if not page:
            return out
        out.extend(page)
        after = page[-1]["version"]


def wait_for(predicate: Callable[[], Any], what: str, deadline: float = DEADLINE, pause: float = 0.02) -> Any:
    """Poll until predicate() is truthy; return its value, or fail naming what was awaited."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(pause)
    raise AssertionError(f"timed out after {deadline:.0f}s waiting for {what}")


# ----- what a viewer may see -----------------------------------------------------------------------------

def check_view(view: dict[str, Any], viewer: int | None, *, hidden: bool) -> None:
    """A view holds the viewer's own secrets under "you" and nobody else's (until the match is over); for Great
    Fire also its own secrets' shape (other titles: the conformance suite checks their views)."""
    over = "result" in view
    if viewer is not None and not over:
        you = view.get("you")
        assert isinstance(you, dict), f"seat {viewer}'s view has no 'you'"
        assert you["seat"] == viewer, f"seat {viewer} was shown seat {you['seat']}'s secrets"
    elif viewer is None:
        assert "you" not in view, f"a spectator view carries 'you': {view.get('you')}"
    if not over:
        for row in view["players"]:
            leaked = SECRET_VIEW_KEYS & set(row)
            assert not leaked, f"players[{row['seat']}] carries {sorted(leaked)} for viewer {viewer}"
    if view.get("title") == "greatfire":
        _check_great_fire_view(view, viewer, hidden=hidden, over=over)


def _check_great_fire_view(view: dict[str, Any], viewer: int | None, *, hidden: bool, over: bool) -> None:
    if over:
        assert "you" not in view, f"a finished view carries 'you': {view.get('you')}"
        return  # R18: everything is revealed at the end
    if viewer is not None:
        you = view["you"]
        assert {"hand", "objectives", "tokens", "colours"} <= set(you), sorted(you)
        assert you["colours"] and you["objectives"], "a seat's view lacks its own colours or objectives"
    for row in view["players"]:
        assert isinstance(row["tokens"], int), f"players[{row['seat']}].tokens shows token identities"
        if hidden:
            assert row["colours"] is None, f"players[{row['seat']}].colours shown under hiddenColours"
            assert row["housesLost"] is None, f"players[{row['seat']}].housesLost shown under hiddenColours"


def check_events(events: list[dict[str, Any]], viewer: int | None) -> None:
    """A viewer receives a private event only if it is in the event's audience (a spectator: never)."""
    assert isinstance(events, list), events
    for e in events:
        if "audience" in e:
            assert viewer is not None and viewer in e["audience"], \
                f"viewer {viewer} received a private event of {e['audience']}: {e}"
        if e.get("type") in PRIVATE_EVENT_TYPES:
            assert "audience" in e, f"a private event lost its audience: {e}"


def check_match(m: dict[str, Any], viewer: int | None, humans: set[int], *, hidden: bool) -> None:
    """One read of a match, as viewer: secrets, 'you', and who is to act."""
    assert m["you"] == viewer, f"match.you is {m['you']}, expected {viewer}"
    assert m["view"]["version"] == m["version"], "the view and the match disagree on the version"
    check_view(m["view"], viewer, hidden=hidden)
    if viewer is None:
        assert m["legalActions"] == [], "a spectator was given legal actions"
    if m["status"] != "ACTIVE":
        assert m["toAct"] == [] and m["legalActions"] == [] and not m["serviceToAct"]
        return
    if m["serviceToAct"]:
        assert not m["legalActions"], f"seat {viewer} has legal actions while the service is to act"
        assert not set(m["toAct"]) & humans, f"a person {m['toAct']} is to act while serviceToAct is true"
    else:
        assert m["toAct"], "nobody (and not the service) is to act in an active match"
        assert set(m["toAct"]) <= humans, f"a bot seat {m['toAct']} waits while serviceToAct is false"
    if viewer is not None:
        assert bool(m["legalActions"]) == (viewer in m["toAct"]), (viewer, m["toAct"], m["legalActions"][:3])


def check_event_log(c: Client, s: Setup, final_version: int) -> None:
    """The stored steps, as each human and a spectator read them: versions 1..final once each, each viewer's
    events redacted for them, and every seat's copy equal to the spectator's copy plus its own private events."""
    spectator = all_events(c, s.match_id, None)
    assert [row["version"] for row in spectator] == list(range(1, final_version + 1)), "gaps or duplicates"
    for row in spectator:
        check_events(row["events"], None)
    for seat, token in s.humans.items():
        rows = all_events(c, s.match_id, token)
        assert [row["version"] for row in rows] == list(range(1, final_version + 1))
        private = 0
        for mine, public in zip(rows, spectator, strict=True):
            check_events(mine["events"], seat)
            assert [e for e in mine["events"] if "audience" not in e] == public["events"], mine["version"]
            private += sum("audience" in e for e in mine["events"])
        assert private, f"seat {seat} never received its own private events (its dealt hand, its draws)"


# ----- the store, read directly --------------------------------------------------------------------------

def stored(redis: Redis, match_id: str) -> dict[str, Any]:
    """The match as Redis holds it, live or archived: version, state data, log, the versions the event stream
    holds (none once archived), status and meta. (Read again when a match ending meanwhile was archived between
    the reads.)"""
    for _ in range(5):
        archived: Any = redis.get(keys.archive(match_id))
        if archived:
            record = packing.unpack(archived)
            return {"version": record["v"], "data": record["data"], "log": record["log"], "stream": [],
                    "status": record["meta"]["status"], "meta": record["meta"], "archived": True}
        # one MULTI/EXEC (the match's keys share its slot): a worker playing a resigned or taken-over seat may
        # commit between separate reads (seen: version 2 read, then a log of 3)
        pipe = redis.pipeline(transaction=True)
        pipe.hgetall(keys.state(match_id))
        pipe.xrange(keys.events(match_id))
        pipe.hgetall(keys.meta(match_id))
        pipe.lrange(keys.log(match_id), 0, -1)
        pipe.exists(keys.archive(match_id))
        st, stream, meta, raw_log, gone = cast(list[Any], pipe.execute())
        log = history.entries(raw_log)
        if st and meta and not gone:
            return {"version": int(st["v"]), "data": json.loads(st["data"]), "log": log,
                    "stream": [int(entry_id.split("-")[0]) for entry_id, _ in stream],
                    "status": meta.get("status"), "meta": meta, "archived": False}
    raise AssertionError(f"match {match_id} is neither live nor archived")


def replay(s: Setup, log: list[dict[str, Any]]) -> tuple[Any, list[list[dict[str, Any]]]]:
    """The engine's match after the seed and the log, and each step's full (unredacted) events."""
    match = titles.get("greatfire").new_match(seats=s.seats, seed=s.seed, options=s.options)
    steps = []
    for n, entry in enumerate(log):
        if entry.get("service"):  # a step of the service's own (a seat resigned or reclaimed, abandonment): the
            match.version += 1    # game itself did not move; the engine counts the step
            assert entry["service"] != "abandoned" or n == len(log) - 1, "abandonment that is not the last step"
            steps.append([])
            continue
        if entry.get("system"):
            steps.append(match.run_system_step())
        else:
            steps.append(match.apply(entry["seat"], entry["action"]))
        assert match.version == n + 1
    return match, steps


def check_replay(redis: Redis, s: Setup) -> dict[str, Any]:
    """Replaying the seed and the stored log through the engine gives the stored state and the stored events:
    every step was applied exactly once and in order. Returns the stored record."""
    record = stored(redis, s.match_id)
    assert record["version"] == len(record["log"]), (record["version"], len(record["log"]))
    kept = [] if record["archived"] else list(range(max(1, record["version"] - history.EVENTS_KEPT + 1),
                                                     record["version"] + 1))
    assert record["stream"] == kept, "the event stream has gaps or duplicates, or is not trimmed"
    match, steps = replay(s, record["log"])
    assert json.loads(json.dumps(match.to_dict())) == record["data"], "the stored state differs from the replay"
    # the one record read above throughout: a worker may add steps meanwhile (a bot playing a resigned seat)
    events = [step for _, step in history.replay(record["meta"], record["log"], 0, len(record["log"]))]
    engine_events = [[e for e in step if e.get("type") not in SERVICE_EVENT_TYPES] for step in events]
    assert [json.loads(json.dumps(e)) for e in steps] == engine_events, "the stored events differ from the replay's"
    stream: Any = redis.xrange(keys.events(s.match_id), "-", f"{record['version']}-0")
    assert [json.loads(fields["events"]) for _, fields in stream] == events[len(events) - len(stream):], \
        "the events the stream kept differ from the log's replay"
    return record


def raw_events(redis: Redis, match_id: str) -> list[list[dict[str, Any]]]:
    """Each stored step's events as the service keeps them (audiences included), in version order: replayed
    from the seed and log, as the service serves steps older than its stream."""
    record = stored(redis, match_id)
    return [events for _, events in history.replay(record["meta"], record["log"], 0, len(record["log"]))]


def check_redaction(c: Client, redis: Redis, s: Setup, extra: dict[str | None, int | None] | None = None) -> None:
    """match.events for each person and a spectator is exactly the stored events minus those whose audience
    leaves the viewer out (extra: more tokens, each with the seat it must read as)."""
    raw = raw_events(redis, s.match_id)
    viewers: dict[str | None, int | None] = {None: None, **{t: seat for seat, t in s.humans.items()}, **(extra or {})}
    for token, viewer in viewers.items():
        rows = all_events(c, s.match_id, token)
        assert [r["version"] for r in rows] == list(range(1, len(raw) + 1))
        for row, events in zip(rows, raw, strict=True):
            expected = [e for e in events if "audience" not in e or (viewer is not None and viewer in e["audience"])]
            assert all(isinstance(e.get("label"), str) and e["label"] for e in row["events"]), row["events"]
            served = [{k: v for k, v in e.items() if k != "label"} for e in row["events"]]  # each labelled (issue 50)
            assert served == expected, f"version {row['version']} as viewer {viewer}"


# ----- playing -------------------------------------------------------------------------------------------

@dataclass
class Played:
    final: dict[str, Any]
    accepted: dict[int, int]  # seat -> actions accepted


def play_to_end(c: Client, s: Setup, rng: random.Random, *, hidden: bool = False,
                deadline: float = DEADLINE, on_step: Callable[[int], None] | None = None) -> Played:
    """Every human plays random legal actions (read with the version they were listed at) until the match is
    over; each read and each answer is checked for secrets."""
    humans = set(s.humans)
    accepted = dict.fromkeys(s.humans, 0)
    end = time.monotonic() + deadline
    reads = 0
    while time.monotonic() < end:
        acted = False
        for seat, token in s.humans.items():
            m = state(c, s.match_id, token)
            check_match(m, seat, humans, hidden=hidden)
            if m["status"] == "OVER":
                return Played(m, accepted)
            if seat in m["toAct"] and m["legalActions"]:
                action = rng.choice(m["legalActions"])
                result = act(c, s.match_id, token, action, m["version"])
                assert result["__typename"] == "ActionAccepted", (action, result)
                assert result["version"] == m["version"] + 1
                check_events(result["events"], seat)
                accepted[seat] += 1
                acted = True
                if on_step:
                    on_step(result["version"])
        reads += 1
        if reads % 25 == 0 or not s.humans:
            m = state(c, s.match_id, None)
            check_match(m, None, humans, hidden=hidden)
            if not s.humans and m["status"] == "OVER":
                return Played(m, accepted)
        if not acted:
            time.sleep(0.01)
    raise AssertionError(f"match {s.match_id} did not finish within {deadline:.0f}s")


# ----- the lobby and pipeline in-process (for tests that crash at one line) -------------------------------

T = TypeVar("T")


def run(settings: Settings, body: Callable[[Lobby, Pipeline], Awaitable[T]],
        scheduler: type[Scheduler] = Scheduler) -> T:
    """Run body with an in-process lobby and pipeline over the settings (and a scheduler of the test's)."""
    async def go() -> T:
        connection = AsyncRedis.from_url(settings.redis_url, decode_responses=True)
        try:
            store = MatchStore(connection, settings)
            sched = scheduler(connection, settings)
            return await body(Lobby(store, sched), Pipeline(store, sched))
        finally:
            await connection.aclose()

    return asyncio.run(go())


def bot_match(settings: Settings, seed: int, seats: int = 3, scheduler: type[Scheduler] = Scheduler,
              levels: tuple[str, ...] = ("random", "greedy")) -> Setup:
    """An all-bot match created in-process, started by its last addBot (through `scheduler`)."""
    async def body(lobby: Lobby, _: Pipeline) -> Setup:
        created = await lobby.create("greatfire", seats, None, seed)
        s = Setup(created.match_id, created.host_token, seats, seed, {})
        for n in range(seats):
            level = levels[n % len(levels)]
            s.bots[(await lobby.add_bot(created.match_id, None, level, created.host_token)).seat] = level
        return s

    return run(settings, body, scheduler)


# ----- processes -----------------------------------------------------------------------------------------

@dataclass
class Private:
    """Workers (and optionally an API) of their own, on a private queue with their own settings."""

    env: dict[str, str]
    settings: Settings
    folder: Path
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)
    logs: list[Path] = field(default_factory=list)
    base: str | None = None

    @contextlib.contextmanager
    def client(self) -> Iterator[Client]:
        """A GraphQL client of this service's API, closed after the block."""
        assert self.base is not None
        client = Client(self.base)
        try:
            yield client
        finally:
            client.http.close()

    def start_worker(self) -> subprocess.Popen[bytes]:
        """One more RQ worker process (with its reconciler thread) on the private queue."""
        path = self.folder / f"worker{len(self.workers)}.log"
        with path.open("wb") as log:  # the child keeps its own descriptor
            proc = subprocess.Popen([sys.executable, "-m", "firebreak.workers.main"], cwd=ROOT, env=self.env,
                                    stdout=log, stderr=subprocess.STDOUT)
        self.workers.append(proc)
        self.logs.append(path)
        return proc

    def wait_reconciling(self) -> None:
        """Wait until every running worker's reconciler thread has started (it logs its adoption pass)."""
        def ready() -> bool:
            return all("adopted" in path.read_text(errors="replace")
                       for proc, path in zip(self.workers, self.logs, strict=True) if proc.poll() is None)

        wait_for(ready, "the workers' reconcilers to start", deadline=60, pause=0.05)

    def kill_workers(self) -> None:
        """kill -9 every worker still running (jobs they hold stay "started" in RQ)."""
        for proc in self.workers:
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)


@contextlib.contextmanager
def private_service(redis_url: str, folder: Path, queue: str, *, workers: int = 1, api: bool = False,
                    **settings: str) -> Iterator[Private]:
    """Start workers (and an API if asked) on `queue` with FIREBREAK_* settings; stop them all afterwards."""
    env = {**service_env(redis_url), "FIREBREAK_QUEUE": queue, **settings}
    private = Private(env, Settings.from_env(env), folder)
    try:
        for _ in range(workers):
            private.start_worker()
        if api:
            with api_process(redis_url, folder / "api.log", env) as base:
                private.base = base
                yield private
        else:
            yield private
    finally:
        for proc in private.workers:
            if proc.poll() is None:
                proc.terminate()
        for proc in private.workers:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


# ----- concurrent submissions ----------------------------------------------------------------------------

def act_concurrently(bases: list[str], match_id: str, token: str, action: Any, version: int,
                     keys_: list[str | None]) -> list[dict[str, Any]]:
    """Submit len(keys_) acts of one action at once (round-robin over the API base URLs); return the results."""
    return _concurrently(bases, match_id, token, [(action, k) for k in keys_], version)


def act_concurrently_varied(bases: list[str], match_id: str, token: str, actions: list[Any],
                            version: int) -> list[dict[str, Any]]:
    """Submit one act per action at once, without idempotency keys; return the results."""
    return _concurrently(bases, match_id, token, [(a, None) for a in actions], version)


def _concurrently(bases: list[str], match_id: str, token: str, submissions: list[tuple[Any, str | None]],
                  version: int) -> list[dict[str, Any]]:
    def submit(action: Any, key: str | None) -> Callable[[httpx.AsyncClient], Awaitable[dict[str, Any]]]:
        async def call(client: httpx.AsyncClient) -> dict[str, Any]:
            variables: dict[str, Any] = {"matchId": match_id, "action": action, "expectedVersion": version}
            if key is not None:
                variables["idempotencyKey"] = key
            response = await client.post("/graphql", json={"query": ACT, "variables": {"input": variables}},
                                         headers={"authorization": f"Bearer {token}"})
            assert response.status_code == 200, response.text
            body = response.json()
            assert "errors" not in body, body
            result: dict[str, Any] = body["data"]["act"]
            return result
        return call

    return at_once(bases, [submit(a, k) for a, k in submissions])


def at_once(bases: list[str], calls: Sequence[Callable[[httpx.AsyncClient], Awaitable[T]]]) -> list[T]:
    """Run the calls at once, call n with a client of bases[n % len(bases)]: connections are opened first and every
    call waits for one start signal, so that they reach the servers together; their results, in order."""
    async def run() -> list[T]:
        limits = httpx.Limits(max_connections=len(calls) + 10, max_keepalive_connections=len(calls) + 10)
        clients = [httpx.AsyncClient(base_url=b, timeout=60, limits=limits) for b in bases]
        try:
            await asyncio.gather(*(cl.get("/healthz") for cl in clients for _ in range(len(calls) // len(bases) + 1)))
            start = asyncio.Event()

            async def one(n: int, call: Callable[[httpx.AsyncClient], Awaitable[T]]) -> T:
                await start.wait()
                return await call(clients[n % len(clients)])

            tasks = [asyncio.create_task(one(n, call)) for n, call in enumerate(calls)]
            await asyncio.sleep(0.05)
            start.set()
            return list(await asyncio.gather(*tasks))
        finally:
            for cl in clients:
                await cl.aclose()

    return asyncio.run(run())


def all_human_match(c: Client, seats: int = 3, seed: int = 1) -> Setup:
    """A started match of people only: nothing moves unless the test acts."""
    return new_match(c, seats, seed, humans=seats, bots=[])


def to_act(c: Client, s: Setup) -> tuple[int, str, dict[str, Any]]:
    """The seat to act now in an all-human match, its token and its read of the match."""
    for seat, token in s.humans.items():
        m = state(c, s.match_id, token)
        if m["legalActions"]:
            return seat, token, m
    raise AssertionError("no seat of the all-human match has a legal action")
