"""A refusal is the client's mistake, not the service's: it leaves one line in the API's log, never a traceback
(issue 47, part 5, item 5: a malformed `after` on me.events or myEvents logged a full traceback). A real API
process whose log the test reads."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from tests.service import events_support as ev
from tests.service.conftest import Client, api_process
from tests.service.players_support import codes, guest, rest
from tests.service.support import STATE, create

PAGE = 'query { me { events(after: "12-x", first: 3) { edges { cursor } } } }'


def test_refused_cursors_and_tokens_log_one_line_each(redis_url: str, tmp_path: Path) -> None:
    log = tmp_path / "api.log"
    with api_process(redis_url, log) as base:
        c = Client(base)
        try:
            me = guest(c, "logged")
            assert codes(c.post(PAGE, token=me.access).json()) == ["BAD_CURSOR"]
            over_ws = asyncio.run(ev.ws(base, me.access, after="12-x"))
            assert [e["extensions"]["code"] for e in over_ws.errors] == ["BAD_CURSOR"], over_ws.errors
            over_sse = rest(base, "GET", "/v1/me/events?after=12-x", me.access)
            assert over_sse.status_code == 422 and over_sse.json()["code"] == "BAD_CURSOR"
            s = create(c, 2, 1)
            stranger = c.post(STATE, {"id": s.match_id}, "not-a-token-of-this-match").json()
            assert codes(stranger) == ["UNAUTHORIZED"], stranger
            assert httpx.get(f"{base}/healthz").status_code == 200
        finally:
            c.http.close()
    text = log.read_text()
    assert "Traceback" not in text, text
    refusals = [line for line in text.splitlines() if "BAD_CURSOR" in line]
    assert len(refusals) == 2, text  # GraphQL's two (REST's problem answer logs nothing)
    assert all("after is not an event id" in line for line in refusals), refusals
    assert sum("UNAUTHORIZED" in line for line in text.splitlines()) == 1, text
