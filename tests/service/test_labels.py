"""Labels over both APIs (issue 50), against the API process: each legal action and each event carries a `label` in
the caller's language (Accept-Language; English for a language without catalogues), the same over REST and
GraphQL; an action submitted as listed, label and all, is accepted."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.service import support as h
from tests.service.conftest import Client

CYRILLIC = re.compile("[\u0400-\u04ff]")
READ = """query($id: ID!) { match(id: $id) { version legalActions } }"""
EVENTS = """query($id: ID!) { match(id: $id) { events(afterVersion: 0, limit: 500) { version events } } }"""


OPEN: list[Client] = []


def speaking(base: str, lang: str | None) -> Client:
    c = Client(base)
    OPEN.append(c)
    if lang is not None:
        c.http.headers["accept-language"] = lang
    return c


@pytest.fixture(autouse=True)
def closed() -> Iterator[None]:
    yield
    while OPEN:
        OPEN.pop().http.close()


def labels_of(items: list[dict[str, Any]]) -> list[str]:
    assert items and all(isinstance(i.get("label"), str) and i["label"] for i in items), items[:3]
    return [i["label"] for i in items]


def rest_match(base: str, match_id: str, token: str, lang: str | None) -> dict[str, Any]:
    headers = {"authorization": f"Bearer {token}", **({"accept-language": lang} if lang else {})}
    answer = httpx.get(f"{base}/v1/matches/{match_id}", headers=headers, timeout=30)
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def test_legal_actions_and_events_are_labelled_in_the_callers_language(server: str) -> None:
    english = speaking(server, None)
    s = h.all_human_match(english, seats=3, seed=5001)
    _seat, token, _ = h.to_act(english, s)
    read: dict[str, list[str]] = {}
    for lang in ("en", "de", "uk", "fr-FR, xx;q=0.5"):
        c = speaking(server, lang)
        graphql = c.gql(READ, {"id": s.match_id}, token)["match"]["legalActions"]
        rest = rest_match(server, s.match_id, token, lang)["legalActions"]
        assert labels_of(graphql) == labels_of(rest), lang  # the same labels on both surfaces
        assert [{k: v for k, v in a.items() if k != "label"} for a in rest] == \
            [{k: v for k, v in a.items() if k != "label"} for a in graphql]
        read[lang] = labels_of(rest)
    assert read["fr-FR, xx;q=0.5"] == read["en"]  # no catalogue for French: English
    assert all(de != en for de, en in zip(read["de"], read["en"], strict=True)), read["de"][:3]
    assert all(CYRILLIC.search(uk) for uk in read["uk"]), read["uk"][:3]
    assert any("Brandschutztruppe" in label for label in read["de"]), read["de"][:3]  # the rulebook's word

    # REST: the action as listed, label and all, is accepted; the events come labelled in the caller's language
    listed = rest_match(server, s.match_id, token, "uk")
    answer = httpx.post(f"{server}/v1/matches/{s.match_id}/actions", timeout=30,
                        headers={"authorization": f"Bearer {token}", "accept-language": "uk"},
                        json={"action": listed["legalActions"][0], "expectedVersion": listed["version"]})
    assert answer.status_code == 200, answer.text
    events = answer.json()["events"]
    assert all(CYRILLIC.search(label) for label in labels_of(events)), events
    assert any("player " in label for label in labels_of(events)), events  # a seat's player name, as it is
    assert all(CYRILLIC.search(a["label"]) for a in answer.json()["match"]["legalActions"])

    # a refusal's problem title too (RFC 9457 title)
    for lang, title in (("uk", "Конфлікт"), ("de", "Konflikt"), (None, "Conflict")):
        stale = httpx.post(f"{server}/v1/matches/{s.match_id}/actions", timeout=30,
                           headers={"authorization": f"Bearer {token}", **({"accept-language": lang} if lang else {})},
                           json={"action": {"type": "endActions"}, "expectedVersion": 0})
        assert stale.status_code == 409 and stale.json()["code"] == "STALE_VERSION", stale.text
        assert stale.json()["title"] == title, stale.json()

    # GraphQL: the same with act
    german = speaking(server, "de")
    _seat, token, m = h.to_act(german, s)
    result = h.act(german, s.match_id, token, m["legalActions"][0], m["version"])
    assert result["__typename"] == "ActionAccepted", result
    assert labels_of(result["events"])

    # the stored steps, read back over both: the same labels, in each reader's language
    rest_steps = httpx.get(f"{server}/v1/matches/{s.match_id}/events", headers={"accept-language": "de"},
                           timeout=30).json()["items"]
    graphql_steps = german.gql(EVENTS, {"id": s.match_id})["match"]["events"]
    assert [labels_of(step["events"]) for step in rest_steps] == \
        [labels_of(step["events"]) for step in graphql_steps]
    english_steps = english.gql(EVENTS, {"id": s.match_id})["match"]["events"]
    for de_step, en_step in zip(graphql_steps, english_steps, strict=True):
        assert [e["label"] for e in de_step["events"]] != [e["label"] for e in en_step["events"]]
        assert [{k: v for k, v in e.items() if k != "label"} for e in de_step["events"]] == \
            [{k: v for k, v in e.items() if k != "label"} for e in en_step["events"]]


def test_a_whole_london_match_reads_in_ukrainian(server: str) -> None:
    """Every action and event of a London match played to the end over REST carries a Ukrainian label."""
    c = speaking(server, "uk")
    created = c.gql("""mutation { createMatch(input: {title: "london", seats: 2, seed: 77}) {
      ... on MatchCreated { matchId } } }""")["createMatch"]
    match_id = created["matchId"]
    tokens = {}
    for n in range(2):
        joined = c.gql(h.JOIN, {"input": {"matchId": match_id, "name": f"гравець {n}"}})["joinMatch"]
        tokens[joined["seat"]] = joined["token"]
    seen_types: set[str] = set()
    rng = random.Random(77)
    for _ in range(5000):
        reads = {seat: rest_match(server, match_id, token, "uk") for seat, token in tokens.items()}
        if any(r["status"] == "OVER" for r in reads.values()):
            break
        seat, m = next((seat, r) for seat, r in reads.items() if r["legalActions"])
        action = rng.choice(m["legalActions"])
        assert CYRILLIC.search(action["label"]), action
        answer = httpx.post(f"{server}/v1/matches/{match_id}/actions", timeout=30,
                            headers={"authorization": f"Bearer {tokens[seat]}", "accept-language": "uk",
                                     "prefer": "return=minimal"},
                            json={"action": action, "expectedVersion": m["version"]})
        assert answer.status_code == 200, answer.text
        for event in answer.json()["events"]:
            assert CYRILLIC.search(event["label"]), event
            seen_types.add(event["type"])
    else:
        raise AssertionError("the match did not end")
    assert "gameOver" in seen_types and len(seen_types) >= 12, seen_types


def test_a_bot_seat_is_named_in_the_readers_language(server: str) -> None:
    """A label naming a bot seat names it in the reader's language ("Bot (zufällig)"), not as its stored English
    name ("random bot")."""
    c = speaking(server, "de")
    s = h.new_match(c, seats=2, seed=5003, humans=1, bots=["random"])
    (token,) = s.humans.values()

    def named() -> list[str] | None:
        steps = c.gql(EVENTS, {"id": s.match_id}, token)["match"]["events"]
        said = [e["label"] for step in steps for e in step["events"]]
        if any("Bot (zufällig)" in label for label in said):
            return said
        m = h.state(c, s.match_id, token)
        if m["legalActions"]:  # the person's turn: play on until the bot has acted
            h.act(c, s.match_id, token, m["legalActions"][0], m["version"])
        return None

    said = h.wait_for(named, "a label naming the bot seat")
    assert not any("random bot" in label for label in said), said
