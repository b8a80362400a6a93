"""Moderation for the operator (issue 49, section 3) against the real service: reports of players and of chat
messages (typed refusals for bad ones), the admin API behind the admin token (list and resolve reports, mute and
ban, lift either, the audit log), a muted player's chat refused, a banned player's every credential failing at once
on every surface (open streams too, long before their periodic recheck), its live seat resigned by a worker, and a
report the API acknowledged surviving a kill -9 of that API."""

from __future__ import annotations

import asyncio
import json
import secrets
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from redis import Redis

from firebreak.matches import keys
from firebreak.moderation import keys as moderation_keys
from tests.docs.samples import blocks
from tests.service import support as h
from tests.service.conftest import Client
from tests.service.players_support import CREATE_TOKEN, device, guest, rest
from tests.service.test_account_deletion import seated_match
from tests.service.test_chat import send
from tests.service.test_rematch_faults import doomed_api
from tests.service.test_subscription import _open

ADMIN = "admin-" + secrets.token_urlsafe(24)
REPORT = """mutation($input: ReportInput!) { report(input: $input) { __typename ... on ReportFiled { id at }
  ... on Problem { code message } } }"""
REPORTS = """query($status: ReportStatus) { reports(status: $status) { __typename
  ... on ReportPage { reports { id reporter player matchId channel seq message reason note status resolution } }
  ... on Problem { code } } }"""
RESOLVE = """mutation($id: ID!) { resolveReport(input: {id: $id, resolution: "warned"}) { __typename
  ... on ReportResolved { report { status resolution } } ... on Problem { code } } }"""
LOG = """{ moderationLog { __typename ... on ModerationLog { entries { action player reportId detail } } } }"""


@pytest.fixture(scope="module")
def svc(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[h.Private]:
    """An API and a worker of their own with an admin token; streams recheck their credential only every
    hour, so a stream that ends within moments of a ban was ended by the revocation, not by the recheck."""
    with h.private_service(redis_url, tmp_path_factory.mktemp("moderation"), "firebreak-moderation", api=True,
                           workers=1, FIREBREAK_TICK_SECONDS="0.1", FIREBREAK_STALL_SECONDS="1",
                           FIREBREAK_ADMIN_TOKEN=ADMIN, FIREBREAK_EVENTS_RECHECK_SECONDS="3600") as service:
        service.wait_reconciling()
        yield service


@pytest.fixture()
def c(svc: h.Private) -> Iterator[Client]:
    with svc.client() as client:
        yield client


def admin(svc: h.Private, method: str, path: str, body: Any = None) -> httpx.Response:
    assert svc.base is not None
    return rest(svc.base, method, path, ADMIN, body)


def test_reports_are_kept_and_the_operator_resolves_them(c: Client, svc: h.Private) -> None:
    assert svc.base is not None
    ann, cat, dan = guest(c, "ann"), guest(c, "cat"), guest(c, "dan")
    s = seated_match(c, ann, [cat], 3, bots=1, seed=5500)
    said = send(c, ann.access, s.match_id, "SEATS", text="you are terrible")["chatMessage"]
    filed = c.gql(REPORT, {"input": {"matchId": s.match_id, "channel": "SEATS", "seq": said["seq"],
                                     "reason": "ABUSE", "note": "insult"}}, cat.access)["report"]
    assert filed["__typename"] == "ReportFiled", filed
    by_rest = rest(svc.base, "POST", "/v1/reports", dan.access, {"playerId": ann.player, "reason": "NAME"})
    assert by_rest.status_code == 201, by_rest.text
    for body, code in [({"playerId": dan.player, "reason": "SPAM"}, "BAD_REPORT"),  # oneself
                       ({"matchId": s.match_id, "channel": "SEATS", "seq": said["seq"], "reason": "ABUSE"},
                        "BAD_REPORT"),  # a message dan may not read
                       ({"playerId": ann.player, "reason": "SPAM", "note": "x\u202ey"}, "BAD_REPORT"),
                       ({"playerId": "0123456789abcdef", "reason": "SPAM"}, "PLAYER_NOT_FOUND"),
                       ({"reason": "SPAM"}, "BAD_REPORT"), ({"playerId": ann.player, "reason": "RUDE"},
                                                           "VALIDATION_FAILED")]:
        refused = rest(svc.base, "POST", "/v1/reports", dan.access, body)
        assert refused.json()["code"] == code, (body, refused.text)
    assert c.gql(REPORTS, {"status": "OPEN"}, cat.access)["reports"]["__typename"] == "AdminUnauthorized"
    listed = c.gql(REPORTS, {"status": "OPEN"}, ADMIN)["reports"]["reports"]
    mine = {r["id"]: r for r in listed}
    assert mine[filed["id"]]["message"] == "you are terrible" and mine[filed["id"]]["player"] == ann.player
    assert mine[filed["id"]]["reporter"] == cat.player and mine[filed["id"]]["reason"] == "ABUSE"
    assert mine[by_rest.json()["id"]]["reason"] == "NAME"
    done = c.gql(RESOLVE, {"id": filed["id"]}, ADMIN)["resolveReport"]
    assert done["report"] == {"status": "RESOLVED", "resolution": "warned"}
    assert filed["id"] not in {r["id"] for r in c.gql(REPORTS, {"status": "OPEN"}, ADMIN)["reports"]["reports"]}
    assert admin(svc, "POST", "/v1/admin/reports/nosuchreport/resolve", {}).json()["code"] == "REPORT_NOT_FOUND"
    entries = c.gql(LOG, token=ADMIN)["moderationLog"]["entries"]
    assert {"action": "resolveReport", "player": ann.player, "reportId": filed["id"],
            "detail": {"resolution": "warned"}} in entries


def test_a_muted_player_cannot_chat_until_the_mute_is_lifted(c: Client, svc: h.Private) -> None:
    ann, cat = guest(c, "ann"), guest(c, "cat")
    s = seated_match(c, ann, [cat], 3, bots=1, seed=5501)
    assert rest(str(svc.base), "PUT", f"/v1/admin/players/{ann.player}/mute", cat.access,
                {"seconds": 60}).json()["code"] == "ADMIN_UNAUTHORIZED"
    muted = admin(svc, "PUT", f"/v1/admin/players/{ann.player}/mute", {"seconds": 3600, "note": "insults"})
    assert muted.status_code == 200 and muted.json()["until"] > time.time() + 3500
    refused = send(c, ann.access, s.match_id, "SEATS", text="hello")
    assert refused["__typename"] == "Muted" and refused["until"] == pytest.approx(muted.json()["until"])
    assert send(c, cat.access, s.match_id, "SEATS", text="hello")["__typename"] == "ChatMessageSent"
    assert admin(svc, "DELETE", f"/v1/admin/players/{ann.player}/mute").json() == {"playerId": ann.player,
                                                                                     "had": True}
    assert send(c, ann.access, s.match_id, "SEATS", text="sorry")["__typename"] == "ChatMessageSent"
    actions = [e["action"] for e in admin(svc, "GET", "/v1/admin/moderation-log").json()["items"]
               if e["player"] == ann.player]
    assert actions == ["unmutePlayer", "mutePlayer"]


def sse_until_closed(base: str, token: str, opened: threading.Event, ended: list[float]) -> None:
    """Follow GET /v1/me/events (answered 200) until the server ends the stream; note when."""
    with httpx.stream("GET", f"{base}/v1/me/events", headers={"authorization": f"Bearer {token}"},
                      timeout=httpx.Timeout(5, read=120)) as answer:
        assert answer.status_code == 200
        opened.set()
        for _line in answer.iter_lines():
            pass
    ended.append(time.monotonic())


async def ws_until_refused(base: str, token: str, match_id: str, opened: threading.Event,
                           refused: list[dict[str, Any]]) -> None:
    """Follow a match's events over GraphQL's WebSocket until the server ends the subscription with an error."""
    ws = await _open(base, token)
    try:
        await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {
            "query": h.SUBSCRIBE, "variables": {"id": match_id, "after": 0}}}))
        opened.set()
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 120))
            if message["type"] in ("error", "complete") or message.get("payload", {}).get("errors"):
                refused.append(message)
                return
    finally:
        await ws.close()


def test_a_ban_stops_every_credential_at_once_and_resigns_the_live_seat(c: Client, svc: h.Private,
                                                                        redis: Redis) -> None:
    assert svc.base is not None
    ann_device = device()
    ann, cat = guest(c, "ann", ann_device), guest(c, "cat")
    pat = c.gql(CREATE_TOKEN, {"input": {"name": "bot", "scopes": ["PLAY"]}}, ann.access)["createAccessToken"]["token"]
    s = seated_match(c, ann, [cat], 2, seed=5502)
    opened, ended = threading.Event(), []
    stream = threading.Thread(target=sse_until_closed, args=(svc.base, ann.access, opened, ended), daemon=True)
    stream.start()
    assert opened.wait(30)
    ws_opened, ws_refused = threading.Event(), []
    subscription = threading.Thread(target=lambda: asyncio.run(ws_until_refused(
        svc.base, ann.access, s.match_id, ws_opened, ws_refused)), daemon=True)  # type: ignore[arg-type]
    subscription.start()
    assert ws_opened.wait(30)
    time.sleep(0.5)
    assert not ended, "the stream ended before the ban"
    banned_at = time.monotonic()
    banned = admin(svc, "PUT", f"/v1/admin/players/{ann.player}/ban", {"note": "cheating"})
    assert banned.status_code == 200 and banned.json()["until"] is None, banned.text
    for credential in (ann.access, pat):
        refused = rest(svc.base, "GET", "/v1/me", credential)
        assert refused.status_code == 401, refused.text
    assert rest(svc.base, "GET", "/v1/me", pat).json()["reason"] == "banned"
    again = rest(svc.base, "POST", "/v1/auth/guest", body={"name": "ann", "deviceId": ann_device})
    assert again.status_code == 401 and again.json()["reason"] == "banned"
    assert rest(svc.base, "POST", "/v1/auth/refresh", body={"refreshToken": ann.refresh}).status_code == 401
    stream.join(120)  # its credential's periodic recheck is an hour away: only the revocation ends it
    assert ended and ended[0] > banned_at, "the open stream outlived the ban"
    subscription.join(120)
    assert ws_refused and "UNAUTHENTICATED" in json.dumps(ws_refused[0]), ws_refused
    h.wait_for(lambda: redis.hget(keys.meta(s.match_id), "status") in ("over", None), "the seat to resign")
    h.wait_for(lambda: redis.zscore(moderation_keys.BANS_PENDING, ann.player) is None, "the ban's outbox")
    record = h.stored(redis, s.match_id)
    assert record["meta"]["reason"] == "resigned"
    assert [e for e in record["log"] if e.get("service") == "resigned"] == [
        e for e in record["log"] if e.get("service") == "resigned" and e.get("seat") == 0]
    lifted = admin(svc, "DELETE", f"/v1/admin/players/{ann.player}/ban")
    assert lifted.json() == {"playerId": ann.player, "had": True}
    back = rest(svc.base, "POST", "/v1/auth/guest", body={"name": "ann", "deviceId": ann_device})
    assert back.status_code in (200, 201) and back.json()["player"]["id"] == ann.player
    assert rest(svc.base, "GET", "/v1/me", ann.access).status_code == 401  # old sessions stay ended
    log = [(e["action"], e["detail"].get("note")) for e in admin(svc, "GET", "/v1/admin/moderation-log").json()[
        "items"] if e["player"] == ann.player]
    assert log == [("unbanPlayer", None), ("banPlayer", "cheating")]


def test_a_report_the_api_acknowledged_survives_a_kill_of_that_api(c: Client, svc: h.Private,
                                                                    tmp_path: Path) -> None:
    ann, cat = guest(c, "ann"), guest(c, "cat")
    with doomed_api(svc, tmp_path / "api.log") as (base, proc):
        filed = rest(base, "POST", "/v1/reports", cat.access, {"playerId": ann.player, "reason": "CHEATING",
                                                               "note": "plays like a bot"})
        assert filed.status_code == 201
        proc.kill()
        proc.wait(timeout=10)
    reports = admin(svc, "GET", "/v1/admin/reports?status=OPEN&first=100").json()["items"]
    assert [(r["player"], r["note"]) for r in reports if r["id"] == filed.json()["id"]] == [
        (ann.player, "plays like a bot")]
    assert json.dumps(reports)  # the page is plain JSON


def test_the_moderation_guides_sample_runs(svc: h.Private) -> None:
    """docs/guides/moderation.md, "Try it with curl", against this module's service (it has an admin token)."""
    assert svc.base is not None
    (sample,) = blocks("docs/guides/moderation.md", "Try it with curl")
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", sample],
                          env={"PORT": svc.base.rsplit(":", 1)[1], "ADMIN_TOKEN": ADMIN, "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    filed, listed, muted, log = (json.loads(line) for line in done.stdout.splitlines() if line.strip())
    [report] = [r for r in listed["items"] if r["id"] == filed["id"]]
    assert report["reason"] == "NAME" and report["status"] == "OPEN"
    assert muted["playerId"] == report["player"] and muted["until"] > filed["at"]
    assert log["items"][0]["action"] == "mutePlayer" and log["items"][0]["player"] == report["player"]
