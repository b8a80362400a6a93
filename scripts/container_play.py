"""The HTTP half of the container check (scripts/container_check.py runs it inside the services' network namespace,
so every address it reaches is 127.0.0.1 there): the API's readiness and web client, a Great Fire match over GraphQL
and a London match over REST, each a person against bots to the end, then each read again through the API once
Redis has let it go, so from the archive a worker wrote on the shared volume.

    python scripts/container_play.py --api http://127.0.0.1:8000 --redis redis://127.0.0.1:6379/0
Exit status 0 when every check held; otherwise the first failure is printed and the status is 1.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from redis import Redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout's firebreak

from firebreak.matches import keys

ROOT = Path(__file__).resolve().parent.parent
MATCH_DEADLINE = 300.0  # seconds a whole match may take here
GONE_DEADLINE = 120.0   # seconds for Redis to let a finished match go (the check sets FIREBREAK_FINISHED_TTL)


class Failed(Exception):
    """A check that did not hold."""


def say(message: str) -> None:
    """One line of the check's report."""
    print(f"container-play: {message}", flush=True)


def expect(condition: bool, message: str) -> None:
    """Fail with the message unless the condition holds."""
    if not condition:
        raise Failed(message)


def wait_ready(http: httpx.Client, deadline: float = 120.0) -> None:
    """Until /readyz answers 200 (the API serves and reaches Redis)."""
    end = time.monotonic() + deadline
    last = "no answer"
    while time.monotonic() < end:
        try:
            answer = http.get("/readyz", timeout=2)
            if answer.status_code == 200:
                return
            last = f"{answer.status_code} {answer.text[:200]}"
        except httpx.HTTPError as exc:
            last = type(exc).__name__
        time.sleep(0.5)
    raise Failed(f"/readyz not 200 after {deadline:.0f} s: {last}")


def check_web_client(http: httpx.Client) -> None:
    """The page and a title's module of the web client are the checkout's files; GraphiQL and the REST docs
    answer."""
    page = http.get("/")
    expect(page.status_code == 200 and page.content == (ROOT / "web" / "index.html").read_bytes(),
           f"/ is not web/index.html ({page.status_code})")
    module = http.get("/static/titles/london/index.js")
    mine = (ROOT / "web" / "titles" / "london" / "index.js").read_bytes()
    expect(module.status_code == 200 and module.content == mine,
           f"/static/titles/london/index.js is not the checkout's ({module.status_code})")
    expect(http.get("/graphql", headers={"accept": "text/html"}).status_code == 200, "no GraphiQL page")
    expect(http.get("/v1/docs").status_code == 200, "no REST docs page")
    say("the web client, GraphiQL and the REST docs are served")


def healthz_p50(http: httpx.Client, count: int = 30) -> float:
    """The median time of `count` GET /healthz on one keep-alive connection, in milliseconds (a figure, not a
    check)."""
    times = []
    for _ in range(count):
        start = time.perf_counter()
        answer = http.get("/healthz")
        times.append(time.perf_counter() - start)
        expect(answer.status_code == 200, f"/healthz answered {answer.status_code}")
    return statistics.median(times) * 1000


def gql(http: httpx.Client, query: str, variables: dict[str, Any] | None = None,
        token: str | None = None) -> dict[str, Any]:
    """One GraphQL request; its data (errors fail the check)."""
    headers = {"authorization": f"Bearer {token}"} if token else {}
    answer = http.post("/graphql", json={"query": query, "variables": variables or {}}, headers=headers)
    expect(answer.status_code == 200, f"GraphQL answered {answer.status_code}: {answer.text[:300]}")
    body: dict[str, Any] = answer.json()
    expect(not body.get("errors"), f"GraphQL errors: {body.get('errors')}")
    data: dict[str, Any] = body["data"]
    return data


CREATE = """mutation($seed: Int) { createMatch(input: {title: "greatfire", seats: 3, seed: $seed}) {
  ... on MatchCreated { matchId hostToken } ... on Problem { code message } } }"""
JOIN = """mutation($m: ID!) { joinMatch(input: {matchId: $m, name: "ann"}) {
  ... on SeatJoined { seat token } ... on Problem { code message } } }"""
ADD_BOT = """mutation($m: ID!, $level: String!) { addBot(input: {matchId: $m, level: $level}) {
  ... on BotAdded { seat started } ... on Problem { code message } } }"""
READ = "query($m: ID!) { match(id: $m) { status version toAct you legalActions } }"
ACT = """mutation($m: ID!, $a: JSON!, $v: Int!, $k: String) {
  act(input: {matchId: $m, action: $a, expectedVersion: $v, idempotencyKey: $k}) {
  __typename ... on Problem { code message } } }"""
RESULT = "query($m: ID!) { match(id: $m) { status version result { endReason winners scores { seat total } } } }"


def play_great_fire(http: httpx.Client, seed: int) -> tuple[str, str]:
    """A person against a greedy and a random bot over GraphQL, to the end; the match id and the person's token."""
    made = gql(http, CREATE, {"seed": seed})["createMatch"]
    expect("matchId" in made, f"createMatch: {made}")
    match_id, host = made["matchId"], made["hostToken"]
    joined = gql(http, JOIN, {"m": match_id})["joinMatch"]
    expect("token" in joined, f"joinMatch: {joined}")
    token = joined["token"]
    for level in ("greedy", "random"):
        added = gql(http, ADD_BOT, {"m": match_id, "level": level}, token=host)["addBot"]
        expect("seat" in added, f"addBot {level}: {added}")
    rng, acted = random.Random(seed), 0
    end = time.monotonic() + MATCH_DEADLINE
    while True:
        m = gql(http, READ, {"m": match_id}, token=token)["match"]
        if m["status"] == "OVER":
            break
        expect(time.monotonic() < end, f"Great Fire not over after {acted} actions (version {m['version']})")
        if m["legalActions"]:
            done = gql(http, ACT, {"m": match_id, "a": rng.choice(m["legalActions"]), "v": m["version"],
                                   "k": f"{match_id}-{m['version']}"}, token=token)["act"]
            expect(done["__typename"] != "Problem" or done["code"] == "STALE_VERSION", f"act: {done}")
            acted += done["__typename"] != "Problem"
        else:
            time.sleep(0.05)
    expect(acted > 0, "the person never acted")
    say(f"Great Fire {match_id} over GraphQL: over after {acted} of the person's actions")
    return match_id, token


def play_london(http: httpx.Client, seed: int) -> tuple[str, str]:
    """A person against a random bot over REST, to the end; the match id and the person's token."""
    created = http.post("/v1/matches", json={"title": "london", "seats": 2, "seed": seed})
    expect(created.status_code == 201, f"POST /v1/matches: {created.status_code} {created.text[:300]}")
    match_id, host = created.json()["matchId"], created.json()["hostToken"]
    joined = http.post(f"/v1/matches/{match_id}/seats", json={"name": "ann"})
    expect(joined.status_code == 201, f"join: {joined.status_code} {joined.text[:300]}")
    token = joined.json()["token"]
    bot = http.post(f"/v1/matches/{match_id}/bots", json={"level": "random"},
                    headers={"authorization": f"Bearer {host}"})
    expect(bot.status_code == 201 and bot.json()["started"], f"bot: {bot.status_code} {bot.text[:300]}")
    mine = {"authorization": f"Bearer {token}"}
    rng, acted = random.Random(seed), 0
    end = time.monotonic() + MATCH_DEADLINE
    while True:
        read = http.get(f"/v1/matches/{match_id}", headers=mine)
        expect(read.status_code == 200, f"read: {read.status_code} {read.text[:300]}")
        m: dict[str, Any] = read.json()
        if m["status"] == "OVER":
            break
        expect(time.monotonic() < end, f"London not over after {acted} actions (version {m['version']})")
        if m["legalActions"]:
            answer = http.post(f"/v1/matches/{match_id}/actions", headers=mine,
                               json={"action": rng.choice(m["legalActions"]), "expectedVersion": m["version"]})
            expect(answer.status_code in (200, 409), f"act: {answer.status_code} {answer.text[:300]}")
            acted += answer.status_code == 200
        else:
            time.sleep(0.05)
    expect(acted > 0, "the person never acted")
    say(f"London {match_id} over REST: over after {acted} of the person's actions")
    return match_id, token


def finished(http: httpx.Client, match_id: str, token: str) -> dict[str, Any]:
    """What the API answers of a finished match: its REST read, its GraphQL result and its export."""
    read = http.get(f"/v1/matches/{match_id}", headers={"authorization": f"Bearer {token}"})
    expect(read.status_code == 200, f"read {match_id}: {read.status_code} {read.text[:300]}")
    export = http.get(f"/v1/matches/{match_id}/export")
    expect(export.status_code == 200, f"export {match_id}: {export.status_code} {export.text[:300]}")
    body = read.json()
    expect(body["status"] == "OVER" and body["result"]["endReason"] == "FINISHED" and body["result"]["winners"],
           f"{match_id} did not finish with winners: {body['status']} {body.get('result')}")
    return {"rest": {k: body[k] for k in ("status", "version", "result", "you")},
            "graphql": gql(http, RESULT, {"m": match_id}, token=token)["match"], "export": export.json()}


def redis_keys(redis: Redis, match_id: str) -> list[str]:
    """The keys that hold a match in Redis (its record and its archive marker: what the store reads it from; its
    idempotency and job keys expire on their own clocks)."""
    names = [*keys.all_of(match_id), keys.archive(match_id)]
    return [name for name, there in zip(names, [redis.exists(name) for name in names], strict=True) if there]


def check_read_from_archive(http: httpx.Client, redis: Redis, matches: dict[str, str]) -> None:
    """Once Redis no longer holds the finished matches, the API still answers each as before: from the archive
    (the SQLite file on the volume the workers and the API share; only a worker's finishing job writes it)."""
    before = {match_id: finished(http, match_id, token) for match_id, token in matches.items()}
    end = time.monotonic() + GONE_DEADLINE
    while any(redis_keys(redis, m) for m in matches):
        expect(time.monotonic() < end, f"Redis still holds {[redis_keys(redis, m) for m in matches]}")
        time.sleep(1)
    for match_id, token in matches.items():
        after = finished(http, match_id, token)
        expect(after == before[match_id], f"{match_id} reads differently from the archive:\n{before[match_id]}\n"
                                          f"{after}")
    say(f"Redis let {len(matches)} finished matches go; the API reads each from the archive as before "
        "(REST read, GraphQL result, export)")


def main(argv: list[str] | None = None) -> int:
    """Run the checks; 0 when they all held."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--api", required=True, help="the API's base URL (127.0.0.1 of the services' namespace)")
    parser.add_argument("--redis", required=True, help="the services' Redis URL")
    parser.add_argument("--seed", type=int, default=47)
    args = parser.parse_args(argv)
    redis = Redis.from_url(args.redis, socket_timeout=5)
    try:
        with httpx.Client(base_url=args.api, timeout=30) as http:
            wait_ready(http)
            say("/readyz answers 200")
            check_web_client(http)
            say(f"/healthz p50 over 30 keep-alive requests: {healthz_p50(http):.2f} ms (a figure, not a check)")
            matches = dict([play_great_fire(http, args.seed), play_london(http, args.seed)])
            check_read_from_archive(http, redis, matches)
    except (Failed, httpx.HTTPError) as failure:
        print(f"container-play: FAILED: {failure}", file=sys.stderr, flush=True)
        return 1
    finally:
        redis.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
