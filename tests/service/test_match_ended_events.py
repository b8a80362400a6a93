"""matchEnded names the winners the match's result names (issue 47, part 3), on every surface that carries it: GET
/v1/me/events (SSE), GraphQL's myEvents, me.events and the webhooks; real Redis, API, worker and webhook receiver."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from firebreak.notifications.webhooks.signing import new_secret
from tests.service import events_support as ev
from tests.service.players_support import guest, rest
from tests.service.support import add_bot, create, private_service, wait_for
from tests.service.test_my_matches import seat_player
from tests.service.test_turn_events import hooked, me_events
from tests.service.test_webhooks import FAST
from tests.service.webhook_receiver import receiver


def test_a_resignation_ends_the_match_with_its_results_winners_on_every_surface(redis_url: str,
                                                                                tmp_path: Path) -> None:
    """2-seat Great Fire, seat 1 (a random bot) starts; after its turn the player in seat 0 resigns: the result names
    seat 1 the winner, and so does the player's matchEnded (reason resigned) on SSE, myEvents, me.events and the
    webhooks, where it said null ("not known")."""
    secret = new_secret()
    with receiver() as rx, private_service(redis_url, tmp_path, "ended-resigned", workers=1, api=True,
                                           FIREBREAK_WEBHOOK_URL=rx.url("/good"), FIREBREAK_WEBHOOK_SECRET=secret,
                                           **FAST) as svc, svc.client() as c:
        base = svc.base
        assert base is not None
        me = guest(c, "resigns")
        s = create(c, 2, 7, {"startSeat": 1})
        seat_player(c, s, me, 0)
        add_bot(c, s, "random", 1)

        def read() -> dict[str, Any]:
            answer = rest(base, "GET", f"/v1/matches/{s.match_id}", me.access)
            assert answer.status_code == 200, answer.text
            body: dict[str, Any] = answer.json()
            return body

        wait_for(lambda: read()["toAct"] == [0], "the bot's turn, then the player's")
        resigned = rest(base, "POST", f"/v1/matches/{s.match_id}/resign", me.access)
        assert resigned.status_code == 200, resigned.text
        result = read()["result"]
        assert result["endReason"] == "RESIGNED" and result["winners"] == [1], result

        def ended(events: list[dict[str, Any]]) -> bool:
            return any(e["type"] == "matchEnded" and e["matchId"] == s.match_id for e in events)

        sse = asyncio.run(ev.sse(base, me.access, after="0", until=ended))
        ws = asyncio.run(ev.ws(base, me.access, after="0", until=ended))
        wait_for(lambda: ended(hooked(rx, secret, me)), "the webhooks' matchEnded")
        surfaces = {"sse": sse.events, "myEvents": ws.events, "me.events": me_events(c, me),
                    "webhooks": hooked(rx, secret, me)}
        for name, events in surfaces.items():
            got = [(e["reason"], e["winners"]) for e in events if e["type"] == "matchEnded"]
            assert got == [("resigned", [1])], (name, got)
