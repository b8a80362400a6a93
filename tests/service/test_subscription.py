"""matchEvents over WebSocket (graphql-transport-ws): live, redacted per viewer, and resumable without gaps."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest
from redis import Redis
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Subprotocol

from firebreak.domain.titles import all_titles
from tests.service import support as h

PROTOCOL = Subprotocol("graphql-transport-ws")
RECV_TIMEOUT = 60.0


def ws_url(base: str) -> str:
    return f"ws://{urlparse(base).netloc}/graphql"


@dataclass
class Received:
    rows: list[dict[str, Any]] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    completed: bool = False
    errors: list[Any] = field(default_factory=list)

    @property
    def versions(self) -> list[int]:
        return [r["version"] for r in self.rows]


async def _open(base: str, token: str | None) -> ClientConnection:
    ws = await connect(ws_url(base), subprotocols=[PROTOCOL], open_timeout=10)
    assert ws.subprotocol == PROTOCOL
    await ws.send(json.dumps({"type": "connection_init",
                              "payload": {"authorization": f"Bearer {token}"} if token else {}}))
    ack = json.loads(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT))
    assert ack["type"] == "connection_ack", ack
    return ws


async def subscribe(base: str, match_id: str, after: int, token: str | None,
                    stop_at: int | None = None, out: Received | None = None) -> Received:
    """Subscribe; collect steps until the server completes the subscription (or a version >= stop_at arrives,
    then disconnect without unsubscribing, as a dropped client would)."""
    got = out if out is not None else Received()
    ws = await _open(base, token)
    try:
        await ws.send(json.dumps({"id": "1", "type": "subscribe",
                                  "payload": {"query": h.SUBSCRIBE, "variables": {"id": match_id, "after": after}}}))
        while True:
            try:
                text = await asyncio.wait_for(ws.recv(), RECV_TIMEOUT)
            except TimeoutError:
                raise AssertionError(f"no message for {RECV_TIMEOUT:.0f}s after version "
                                     f"{got.versions[-1] if got.rows else after}") from None
            assert isinstance(text, str)
            got.raw.append(text)
            message = json.loads(text)
            if message["type"] == "ping":
                await ws.send(json.dumps({"type": "pong"}))
                continue
            if message["type"] == "complete":
                got.completed = True
                return got
            assert message["type"] == "next" and message["id"] == "1", message
            payload = message["payload"]
            if payload.get("errors"):
                got.errors.extend(payload["errors"])
                continue
            got.rows.append(payload["data"]["matchEvents"])
            if stop_at is not None and got.rows[-1]["version"] >= stop_at:
                return got
    finally:
        await ws.close()


async def next_row(ws: ClientConnection, raw: list[str] | None = None) -> dict[str, Any] | None:
    """The next step row ("next" without errors) of subscription "1", answering the server's pings; None when the
    server completes the subscription. raw, if given, gets every message's text."""
    while True:
        text = await asyncio.wait_for(ws.recv(), RECV_TIMEOUT)
        assert isinstance(text, str)
        if raw is not None:
            raw.append(text)
        message = json.loads(text)
        if message["type"] == "ping":
            await ws.send(json.dumps({"type": "pong"}))
            continue
        if message["type"] == "complete":
            return None
        assert message["type"] == "next" and not message["payload"].get("errors"), message
        row: dict[str, Any] = message["payload"]["data"]["matchEvents"]
        return row


class Player(threading.Thread):
    """Plays the people's seats to the end in a thread, pausing once at a version until resumed."""

    def __init__(self, base: str, s: h.Setup, pause_at: int, hidden: bool) -> None:
        super().__init__(daemon=True)
        self.base, self.s, self.pause_at, self.hidden = base, s, pause_at, hidden
        self.paused = threading.Event()
        self.resume = threading.Event()
        self.played: h.Played | None = None
        self.error: BaseException | None = None
        self.bodies: list[str] = []

    def _step(self, version: int) -> None:
        if version >= self.pause_at and not self.resume.is_set():
            self.paused.set()
            assert self.resume.wait(h.DEADLINE), "never resumed"

    def run(self) -> None:
        try:
            with h.recording(self.base) as c:
                self.played = h.play_to_end(c, self.s, random.Random(self.s.seed), hidden=self.hidden,
                                            on_step=self._step)
                self.bodies = c.bodies
        except BaseException as exc:
            self.error = exc
        finally:
            self.paused.set()


@pytest.mark.parametrize("elsewhere", [False, True], ids=["same-process", "other-process"])
def test_a_reconnecting_subscriber_resumes_without_gaps(server: str, second_server: str, elsewhere: bool) -> None:
    with h.recording(server) as c:
        s = h.create(c, 3, 301, {"hiddenColours": True})
        h.join(c, s, "ann")
        seat, token = next(iter(s.humans.items()))
        stranger = h.all_human_match(c, seats=3, seed=302).humans[0]

        async def scenario() -> tuple[Received, Received, Received, Received, Player]:
            # spectators subscribe before the match starts and stay connected to the end
            spectator = asyncio.create_task(subscribe(server, s.match_id, 0, None))
            outsider = asyncio.create_task(subscribe(server, s.match_id, 0, stranger))
            await asyncio.sleep(0.2)
            first = Received()
            live = asyncio.create_task(subscribe(server, s.match_id, 0, token, stop_at=30, out=first))
            await asyncio.sleep(0.2)
            h.add_bot(c, s, "random")
            h.add_bot(c, s, "random")
            player = Player(server, s, pause_at=60, hidden=True)
            player.start()
            await live
            assert first.rows and first.versions[-1] >= 30
            await asyncio.to_thread(player.paused.wait, h.DEADLINE)
            assert player.error is None, player.error
            # the match has moved on while nobody listened as the seat; resume play and reconnect at once
            missed_from = h.state(c, s.match_id, None)["version"]
            assert missed_from > first.versions[-1], "the match did not move while the subscriber was away"
            player.resume.set()
            second = await subscribe(second_server if elsewhere else server, s.match_id, first.versions[-1], token)
            await asyncio.to_thread(player.join, h.DEADLINE)
            return first, second, await spectator, await outsider, player

        first, second, spectator, outsider, player = asyncio.run(scenario())
        assert player.error is None, player.error
        assert player.played is not None
        final = player.played.final["version"]
        assert second.completed, "the subscription did not complete when the match ended"
        assert not first.errors and not second.errors, (first.errors, second.errors)
        assert first.versions + second.versions == list(range(1, final + 1)), "gaps or duplicates after reconnecting"
        over_http = {r["version"]: r["events"] for r in h.all_events(c, s.match_id, token)}
        private = 0
        for row in first.rows + second.rows:
            h.check_events(row["events"], seat)
            assert row["events"] == over_http[row["version"]]
            private += sum("audience" in e for e in row["events"])
        assert private, "the seat's subscription carried none of its own private events"
        public = {r["version"]: r["events"] for r in h.all_events(c, s.match_id, None)}
        assert spectator.completed and not spectator.errors
        assert spectator.versions == list(range(1, final + 1))
        for row in spectator.rows:
            h.check_events(row["events"], None)
            assert row["events"] == public[row["version"]]
        # another match's token is refused, not served as a spectator
        assert outsider.completed and outsider.rows == []
        assert [e["extensions"]["code"] for e in outsider.errors] == ["UNAUTHORIZED"]
        c.assert_secrets_confined(extra_bodies=[*player.bodies,
                                                *(m for r in (first, second, spectator, outsider) for m in r.raw)])


def test_a_finished_match_replays_and_completes(server: str, redis: Redis) -> None:
    with h.recording(server) as c:
        s = h.new_match(c, 3, 310, humans=0, bots=["random"] * 3)
        final = h.wait_for(lambda: (m := h.state(c, s.match_id, None))["status"] == "OVER" and m["version"],
                           "the bot match to finish", pause=0.1)

        async def scenario() -> tuple[Received, Received, Received, Received]:
            return (await subscribe(server, s.match_id, 0, None),
                    await subscribe(server, s.match_id, -50, None),
                    await subscribe(server, s.match_id, final - 7, None),
                    await subscribe(server, s.match_id, final, None))

        everything, negative, tail, nothing = asyncio.run(scenario())
        assert any(any("audience" in e for e in events) for events in h.raw_events(redis, s.match_id)), \
            "the match had no private events to withhold"
        assert everything.completed and everything.versions == list(range(1, final + 1))
        assert negative.completed and negative.versions == list(range(1, final + 1))
        assert tail.completed and tail.versions == list(range(final - 6, final + 1))
        assert nothing.completed and nothing.rows == []
        for row in everything.rows:
            h.check_events(row["events"], None)


def test_an_unknown_match_is_a_typed_error_and_the_connection_survives(server: str) -> None:
    async def scenario() -> tuple[Received, dict[str, Any]]:
        got = await subscribe(server, "0123456789abcdef", 0, None)
        ws = await _open(server, None)
        try:
            bad_id = {"id": "not an id!", "after": 0}
            await ws.send(json.dumps({"id": "a", "type": "subscribe",
                                      "payload": {"query": h.SUBSCRIBE, "variables": bad_id}}))
            first = json.loads(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT))
            await ws.send(json.dumps({"id": "b", "type": "subscribe", "payload": {"query": "{ titles { id } }"}}))
            answers = [json.loads(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT)) for _ in range(3)]
        finally:
            await ws.close()
        by_id = {(a["id"], a["type"]): a for a in [first, *answers]}
        assert by_id[("a", "next")]["payload"]["errors"][0]["extensions"]["code"] == "MATCH_NOT_FOUND"
        return got, by_id[("b", "next")]

    got, titles = asyncio.run(scenario())
    assert got.completed and got.rows == []
    assert [e["extensions"]["code"] for e in got.errors] == ["MATCH_NOT_FOUND"]
    assert titles["payload"]["data"]["titles"] == [{"id": t.id} for t in all_titles()]


@pytest.mark.parametrize("message", [
    pytest.param("this is not json", id="invalid-json"),
    pytest.param("[" * 5000 + "]" * 5000, id="deeply-nested-json"),
    pytest.param(json.dumps({"type": "no-such-message"}), id="unknown-type"),
])
def test_a_bad_websocket_message_closes_with_4400(server: str, message: str) -> None:
    """The protocol's answer to a message it cannot take is close code 4400 (not an abrupt drop or 1011)."""

    async def scenario() -> tuple[int | None, str | None]:
        ws = await _open(server, None)
        try:
            await ws.send(message)
            try:
                extra = await asyncio.wait_for(ws.recv(), RECV_TIMEOUT)
            except ConnectionClosed as closed:
                return (closed.rcvd.code, closed.rcvd.reason) if closed.rcvd else (None, None)
            raise AssertionError(f"the server answered instead of closing: {extra!r}")
        finally:
            await ws.close()

    code, reason = asyncio.run(scenario())
    assert code == 4400, f"closed with {code} {reason!r}; graphql-transport-ws requires 4400 for a bad message"
    # and the service is still fine
    assert httpx.get(f"{server}/healthz", timeout=10).status_code == 200


def test_odd_or_foreign_credentials_subscribe_as_a_spectator_or_are_refused(server: str, redis: Redis) -> None:
    """connection_init payloads that name no seat of the match read as a spectator when they carry no credential
    or the host token, are refused with UNAUTHORIZED when they carry a wrong one (another match's seat, not a
    bearer token), or close with 4400; the Authorization header of the upgrade request names a seat."""
    with h.recording(server) as c:
        s = h.new_match(c, 3, 320, humans=1, bots=["random", "random"])
        h.play_to_end(c, s, random.Random(320))
        stranger = h.all_human_match(c, seats=3, seed=321).humans[0]
    seat, token = next(iter(s.humans.items()))
    final = h.stored(redis, s.match_id)["version"]

    async def as_payload(payload: Any) -> Received | int | None:
        ws = await connect(ws_url(server), subprotocols=[PROTOCOL], open_timeout=10)
        got = Received()
        try:
            await ws.send(json.dumps({"type": "connection_init", "payload": payload}))
            try:
                ack = json.loads(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT))
            except ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None
            assert ack["type"] == "connection_ack", ack
            await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {
                "query": h.SUBSCRIBE, "variables": {"id": s.match_id, "after": 0}}}))
            while not got.completed:
                message = json.loads(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT))
                if message["type"] == "complete":
                    got.completed = True
                elif message["type"] == "next" and message["payload"].get("errors"):
                    got.errors.extend(message["payload"]["errors"])
                elif message["type"] == "next":
                    got.rows.append(message["payload"]["data"]["matchEvents"])
            return got
        finally:
            await ws.close()

    async def with_header() -> Received:
        ws = await connect(ws_url(server), subprotocols=[PROTOCOL], open_timeout=10,
                           additional_headers={"authorization": f"Bearer {token}"})
        got = Received()
        try:
            await ws.send(json.dumps({"type": "connection_init", "payload": {}}))
            assert json.loads(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT))["type"] == "connection_ack"
            await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {
                "query": h.SUBSCRIBE, "variables": {"id": s.match_id, "after": 0}}}))
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT))
                if message["type"] == "complete":
                    return got
                got.rows.append(message["payload"]["data"]["matchEvents"])
        finally:
            await ws.close()

    spectators: list[Any] = [{"token": 5}, {"authorization": None}, {"authorization": f"Bearer {s.host}"},
                             {"token": s.host}, ["Bearer", token], f"Bearer {token}", 7]
    wrong: list[Any] = [{"authorization": 5}, {"authorization": ["Bearer", token]},
                        {"authorization": f"Bearer {stranger}"}, {"authorization": f"Basic {token}"},
                        {"authorization": token}]
    for payload in spectators + wrong:
        outcome = asyncio.run(as_payload(payload))
        if isinstance(outcome, Received) and payload in wrong:
            assert outcome.completed and outcome.rows == [], payload
            assert [e["extensions"]["code"] for e in outcome.errors] == ["UNAUTHORIZED"], payload
        elif isinstance(outcome, Received):
            assert outcome.completed and not outcome.errors, (payload, outcome.errors)
            assert outcome.versions == list(range(1, final + 1)), payload
            for row in outcome.rows:
                h.check_events(row["events"], None)
        else:
            assert outcome == 4400, f"payload {payload!r}: closed with {outcome}"
    mine = asyncio.run(with_header())
    assert mine.versions == list(range(1, final + 1))
    assert any("audience" in e for row in mine.rows for e in row["events"]), "the header did not name the seat"
    for row in mine.rows:
        h.check_events(row["events"], seat)


IDLE_SECONDS = 12.0  # longer than redis-py's 5 s default socket timeout and than one 10 s blocking read


def test_an_idle_subscription_stays_open_and_delivers_the_next_step(server: str) -> None:
    """Nothing happens for 12 s: the subscription must neither error nor close, then deliver the next move."""
    with h.recording(server) as c:
        s = h.all_human_match(c, seats=3, seed=411)
        _seat, token, m = h.to_act(c, s)

        async def scenario() -> Received:
            got = Received()
            task = asyncio.create_task(subscribe(server, s.match_id, m["version"], token,
                                                 stop_at=m["version"] + 1, out=got))
            await asyncio.sleep(IDLE_SECONDS)
            assert not task.done(), f"the subscription ended while idle: {got.raw}"
            assert got.rows == [] and got.errors == []
            await asyncio.to_thread(h.act, c, s.match_id, token, m["legalActions"][0], m["version"])
            return await asyncio.wait_for(task, RECV_TIMEOUT)

        got = asyncio.run(scenario())
    assert got.errors == [] and got.versions == [m["version"] + 1]
