"""Hostile requests against a local service: what a fan of fragments, repeated field names and guessed tokens
cost and get. Prints figures; the tests (tests/service/test_hostile.py) check the answers, not the times.

Starts its own service (as bench.api_load does: a private Redis, the API, one worker; default settings but the
per-client mutation limit, which guessing does not need). Run: python -m bench.hostile [--guesses 300]
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import time
from collections import Counter

import httpx

from bench.harness import CREATE, JOIN, local_service

FAN_LEVELS = (17, 30)
REPEATS = 5          # timed requests per query after the first (which parses and validates it)
ACT = """mutation($input: ActInput!) { act(input: $input) { ... on Problem { code } } }"""


def fan(levels: int) -> str:
    """Fragment n spreads fragment n+1 twice (2^levels selections if walked naively)."""
    fragments = [f"fragment F{n} on Title {{ ...F{n + 1} ...F{n + 1} }}" for n in range(levels)]
    return " ".join(["{ titles { ...F0 } }", *fragments, f"fragment F{levels} on Title {{ id name }}"])


def timed(http: httpx.Client, query: str) -> tuple[float, float, str]:
    """ms of the first request, median ms of the next REPEATS (validation cached), and the outcome."""
    def once() -> tuple[float, dict[str, object]]:
        started = time.perf_counter()
        body = http.post("/graphql", json={"query": query}).json()
        return (time.perf_counter() - started) * 1000, body

    first, body = once()
    cached = statistics.median(once()[0] for _ in range(REPEATS))
    errors = body.get("errors")
    outcome = f"refused {errors[0]['extensions']['code']}" if isinstance(errors, list) else "answered"
    return first, cached, outcome


def guesses(http: httpx.Client, count: int) -> tuple[float, Counter[str]]:
    """`count` acts with made-up bearer tokens on a real match: seconds taken and answers by code."""
    created = http.post("/graphql", json={"query": CREATE, "variables": {"input": {
        "title": "greatfire", "seats": 3}}}).json()["data"]["createMatch"]
    for n in range(3):
        http.post("/graphql", json={"query": JOIN, "variables": {"input": {
            "matchId": created["matchId"], "name": f"p{n}"}}})
    variables = {"input": {"matchId": created["matchId"], "action": {"type": "endActions"}, "expectedVersion": 0}}
    codes: Counter[str] = Counter()
    started = time.perf_counter()
    for _ in range(count):
        body = http.post("/graphql", json={"query": ACT, "variables": variables},
                         headers={"authorization": f"Bearer {secrets.token_urlsafe(32)}"}).json()
        codes[body["data"]["act"]["code"] if body.get("data") else body["errors"][0]["extensions"]["code"]] += 1
    return time.perf_counter() - started, codes


def main() -> int:
    """Start the service, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--guesses", type=int, default=300)
    args = parser.parse_args()
    with local_service(1) as service, httpx.Client(base_url=service.base, timeout=120) as http:
        # the plain query first: the process's first request pays for warming up, not for its text
        queries = {"plain `titles { id name }`": "{ titles { id name } }"}
        queries |= {f"fragment fan, {n} levels": fan(n) for n in FAN_LEVELS}
        queries["490 x `titles { id }`"] = "{ " + "titles { id } " * 490 + "}"
        for label, query in queries.items():
            first, cached, outcome = timed(http, query)
            print(f"{label:28} {len(query):5} bytes  first {first:7.1f} ms  cached {cached:6.1f} ms  {outcome}")
        seconds, codes = guesses(http, args.guesses)
        print(f"{args.guesses} guessed-token acts in {seconds:.2f} s: "
              + ", ".join(f"{code} {n}" for code, n in codes.most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
