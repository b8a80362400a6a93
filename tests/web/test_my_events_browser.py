"""The web client's own event stream outlives its access tokens (issue 50): against an API process whose access
tokens live 5 seconds (FIREBREAK_ACCESS_TOKEN_TTL=5), a signed-in page stays open for several token lifetimes,
then another player (over the REST API, from the test) invites it; the page shows the invitation without a reload,
accepts it, and stays on the match page for more token lifetimes, with its event stream cut off meanwhile (a
network drop) and its own clock wrongly holding its token good: its GraphQL subscriptions end with UNAUTHENTICATED
at each expiry and must come back with a renewed token by themselves. It shows the other player's move there; back
on "My matches" its turn is badged and listed in the news, and a second invitation comes over the resumed stream.

From the service's side: the events the page received are exactly the events the API holds for the player (none
missed, none twice); the stream was opened again and again, each time with a one-time ticket bought with another
access token and resumed with Last-Event-ID; and no long-lived credential (an access or refresh token) was ever in a
URL the page requested (HTTP or WebSocket)."""

from __future__ import annotations

import json
import subprocess
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx

from tests.service.conftest import api_process
from tests.web.test_browser import MATCH

TTL = 5  # seconds an access token lives here
LIFETIMES = 3  # how many of them the page waits through, at each stage
AUTH = ("/v1/auth/guest", "/v1/auth/refresh")
DROPPED = "**/v1/me/events**"  # the event stream and its tickets, while the network "drops" them
EVENTS = """query($after: String) { me { events(after: $after, first: 100) { edges { cursor node { __typename } }
  pageInfo { hasNextPage } } } }"""


class Other:
    """The other player, over the REST API: signs in again (the same device: the same player) before each step, as
    its access token lives only TTL seconds."""

    def __init__(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=30)
        self.device = uuid.uuid4().hex
        self.id = self.call("GET", "/v1/me")["id"]

    def call(self, method: str, path: str, body: Any = None) -> Any:
        """One request with a token signed in for it; a 429 is waited out as it says (these loops act fast)."""
        for _ in range(20):
            session = self.http.post("/v1/auth/guest", json={"name": "Bea", "deviceId": self.device})
            if session.status_code == 429:
                time.sleep(float(session.json().get("retryAfter") or 1))
                continue
            assert session.status_code == 200, session.text
            headers = {"authorization": f"Bearer {session.json()['accessToken']}",
                       "idempotency-key": uuid.uuid4().hex}
            answer = self.http.request(method, path, json=body, headers=headers)
            if answer.status_code == 429:
                time.sleep(float(answer.json().get("retryAfter") or 1))
                continue
            assert answer.status_code < 300, (method, path, answer.status_code, answer.text)
            return answer.json()
        raise AssertionError(f"{method} {path}: rate limited again and again")

    def move_until_their_turn(self, match_id: str, them: int) -> int:
        """Act (each time the first legal action) until the other seat is to act; the match's version then."""
        for _ in range(200):
            match = self.call("GET", f"/v1/matches/{match_id}")
            if them in match["toAct"] or match["status"] != "ACTIVE":
                return int(match["version"])
            if match["you"] in match["toAct"] and match["legalActions"]:
                self.call("POST", f"/v1/matches/{match_id}/actions",
                          {"action": match["legalActions"][0], "expectedVersion": match["version"]})
        raise AssertionError("the other seat's turn never came")


def test_the_page_follows_its_events_through_expiring_tokens(browser: Any, redis_url: str,
                                                              workers: list[subprocess.Popen[bytes]],
                                                              tmp_path: Path) -> None:
    settings = {"FIREBREAK_ACCESS_TOKEN_TTL": str(TTL), "FIREBREAK_EVENTS_RECHECK_SECONDS": "1"}
    with api_process(redis_url, tmp_path / "short-api.log", settings) as base:
        context = browser.new_context(base_url=base)
        requests: list[Any] = []
        sockets: list[Any] = []
        frames: list[tuple[int, str, str]] = []  # (socket, "sent" or "received", frame), in order
        errors: list[str] = []
        other: Other | None = None
        try:
            page = context.new_page()
            page.set_default_timeout(30_000)
            page.on("request", lambda request: requests.append(request))
            page.on("pageerror", lambda error: errors.append(str(error)))

            def socket(ws: Any) -> None:
                sockets.append(ws)
                n = len(sockets) - 1
                for way in ("sent", "received"):
                    ws.on(f"frame{way}", lambda payload, way=way: frames.append(
                        (n, way, payload if isinstance(payload, str) else "")))
            page.on("websocket", socket)

            page.goto("/#/me")
            page.get_by_test_id("guest-name").fill("Ada")
            page.get_by_test_id("sign-in").click()
            me = page.get_by_test_id("signed-in-as").get_attribute("data-player")
            page.locator("body[data-my-events=live]").wait_for()
            page.evaluate("() => { window.sameDocument = true; }")
            page.get_by_test_id("me-empty").wait_for()
            page.wait_for_timeout(LIFETIMES * TTL * 1000)  # the page just stays open

            other = Other(base)
            match_id = other.call("POST", "/v1/matches", {"title": "london", "seats": 2, "private": True})["matchId"]
            other.call("POST", f"/v1/matches/{match_id}/seats", {})
            other.call("POST", f"/v1/matches/{match_id}/invitations", {"playerIds": [me]})
            invited = page.locator(f"[data-testid=my-event][data-type=invited][data-match='{match_id}']")
            invited.wait_for()  # shown without a reload
            invited.get_by_test_id("accept-invitation").click()
            page.wait_for_function("id => location.hash === `#/match/${id}`", arg=match_id)
            page.locator(f"{MATCH}[data-status=ACTIVE]").wait_for()
            seat = int(page.get_attribute(MATCH, "data-viewer").removeprefix("seat-"))
            # the page's clock now says its token is good for an hour (a skewed clock, a throttled timer): only the
            # service's UNAUTHENTICATED tells it otherwise, and every stream must renew on hearing it; meanwhile the
            # player's event stream is cut off (a network drop: no ticket, no stream), so the match page's
            # subscriptions must renew by themselves, and the event stream must resume afterwards
            context.route(DROPPED, lambda route: route.abort())
            page.evaluate("""() => { const s = JSON.parse(localStorage.getItem('firebreak.session'));
                s.renewAt = s.accessExpiresAt = Date.now() + 3600e3;
                localStorage.setItem('firebreak.session', JSON.stringify(s)); }""")
            page.wait_for_timeout(LIFETIMES * TTL * 1000)  # the match page's subscription outlives its tokens
            context.unroute(DROPPED)

            version = other.move_until_their_turn(match_id, seat)
            page.locator(f"{MATCH}[data-version='{version}']").wait_for()  # pushed, not reloaded
            page.evaluate("() => { location.hash = '#/me'; }")
            page.locator(f"[data-testid=me-match][data-match='{match_id}'][data-your-turn=true]").wait_for()
            page.locator(f"[data-testid=my-event][data-type=yourTurn][data-match='{match_id}']").wait_for()
            # an event after the drop (its turn may have come before it, when its seat plays first): the stream
            # resumed, after the last event it had seen
            again = other.call("POST", "/v1/matches", {"title": "london", "seats": 2, "private": True})["matchId"]
            other.call("POST", f"/v1/matches/{again}/seats", {})
            other.call("POST", f"/v1/matches/{again}/invitations", {"playerIds": [me]})
            page.locator(f"[data-testid=my-event][data-type=invited][data-match='{again}']").wait_for()
            assert page.evaluate("() => window.sameDocument") is True  # never reloaded

            # the events the page got are the events the API holds for the player: none missed, none twice
            shown = page.eval_on_selector_all("[data-testid=my-event]", "els => els.map((e) => e.dataset.event)")
            shown.reverse()  # the news is newest first
            token = json.loads(page.evaluate("() => localStorage.getItem('firebreak.session')"))["accessToken"]
            answer = httpx.post(f"{base}/graphql", json={"query": EVENTS, "variables": {"after": "0"}},
                                headers={"authorization": f"Bearer {token}"}, timeout=30).json()
            held = [edge["cursor"] for edge in answer["data"]["me"]["events"]["edges"]]
            assert shown == held and len(held) >= 4, (shown, held)

            # the stream was opened again and again: each time with a ticket bought with a renewed access token,
            # resumed after the last event seen
            tickets = [r for r in requests if urlsplit(r.url).path == "/v1/me/events/ticket"]
            streams = [r for r in requests if urlsplit(r.url).path == "/v1/me/events"]
            bought_with = {t.headers.get("authorization") for t in tickets}
            assert len(streams) >= LIFETIMES + 1 and len(bought_with) >= LIFETIMES + 1, (len(streams), bought_with)
            resumed = [s.all_headers().get("last-event-id") for s in streams[1:]]
            assert all(resumed), resumed
            # each a cursor the API knows ("0": a ready's before the first event), never going back
            places = [-1 if cursor == "0" else held.index(cursor) for cursor in resumed if cursor in [*held, "0"]]
            assert len(places) == len(resumed) and places == sorted(places) and places[-1] >= 0, (resumed, held)
            used = [dict(parse_qsl(urlsplit(s.url).query)).get("ticket") for s in streams]
            assert all(used) and len(set(used)) == len(used)  # a new one-time ticket each time

            # the match page's subscriptions (its events, its chat) came back with a renewed token after each expiry:
            # a connection the service ended with UNAUTHENTICATED is followed by none that sends its token again
            messages = [(n, way, json.loads(f)) for n, way, f in frames if f.startswith("{")]
            inits = [(at, n, (m.get("payload") or {}).get("authorization")) for at, (n, way, m) in enumerate(messages)
                     if way == "sent" and m.get("type") == "connection_init"]
            token_of = {n: token for _, n, token in inits}
            ended = [(at, n) for at, (n, way, m) in enumerate(messages)
                     if way == "received" and "UNAUTHENTICATED" in json.dumps(m)]
            assert len(set(token_of.values())) >= LIFETIMES and ended, (inits, ended)
            for at, n in ended:
                assert all(token != token_of[n] for after, _, token in inits if after > at), (at, n, inits)

            # no long-lived credential in any URL the page asked for
            credentials = set()
            for r in requests:
                if urlsplit(r.url).path in AUTH and r.response() is not None and r.response().ok:
                    body = r.response().json()
                    credentials |= {body["accessToken"], body["refreshToken"]}
                auth = r.headers.get("authorization")
                if auth:
                    credentials.add(auth.removeprefix("Bearer "))
            assert len(credentials) >= 2 * LIFETIMES
            urls = [r.url for r in requests] + [ws.url for ws in sockets]
            leaked = [u for u in urls if any(c in u for c in credentials)]
            assert leaked == [], leaked
            named = {k for u in urls for k, _ in parse_qsl(urlsplit(u).query)}
            assert not named & {"access_token", "token", "refresh_token", "authorization"}, named
            assert errors == [], errors
        finally:
            context.close()
            if other is not None:
                other.http.close()
