"""The web client's "Download my data" and "Delete my account" (issue 48, section 1), in headless Chromium: a
signed-in guest downloads the export as a file through a one-time URL, which a second use is refused; and deletes
the account after typing its handle, signing in again first when the service asks for a recent sign-in."""

from __future__ import annotations

import base64
import json
import time
from pathlib import Path
from typing import Any

import httpx
from redis import Redis

from firebreak.players import keys as player_keys
from tests.web.test_browser import opened
from tests.web.test_players_browser import sign_in


def test_download_my_data_saves_the_players_export(browser: Any, server: str) -> None:
    with opened(browser, server) as p:
        page = p.page
        player = sign_in(page, "Data Dana")
        page.get_by_test_id("edit-profile").click()
        with page.expect_download() as info:
            page.get_by_test_id("download-data").click()
        download = info.value
        doc = json.loads(Path(download.path()).read_text(encoding="utf-8"))
        assert doc["format"] == "firebreak.player-export" and doc["profile"]["id"] == player
        assert doc["profile"]["name"] == "Data Dana" and len(doc["sessions"]) == 1
        assert download.suggested_filename == f"firebreak-{player}.json"
        used = httpx.get(download.url, timeout=30)  # the ticket in the URL worked once
        assert used.status_code == 401 and used.json()["code"] == "UNAUTHENTICATED"


def test_delete_my_account_signs_in_again_when_asked_and_ends_the_account(browser: Any, server: str,
                                                                          redis_url: str) -> None:
    """Edit > Delete my account > type the handle > Delete for good: the session is older than the service allows
    (its family began an hour ago), so the page signs the guest in again with its device and deletes; the page is
    then signed out, the old credential is refused, and the next sign-in is a new guest."""
    redis = Redis.from_url(redis_url, decode_responses=True)
    with opened(browser, server) as p:
        page = p.page
        player = sign_in(page, "Gone Gina")
        session = page.evaluate("JSON.parse(localStorage.getItem('firebreak.session'))")
        body = session["accessToken"].split(".")[1]
        family = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))["sid"]
        redis.hset(player_keys.family(player, family), "began", repr(time.time() - 3600))
        handle = page.get_by_test_id("my-handle").inner_text().lstrip("@")
        page.get_by_test_id("edit-profile").click()
        page.get_by_test_id("delete-account").click()
        confirm = page.get_by_test_id("confirm-delete")
        page.get_by_test_id("confirm-handle").fill(handle[:-1])
        assert confirm.is_disabled()  # only the exact handle confirms
        page.get_by_test_id("confirm-handle").fill(handle)
        confirm.click()
        page.get_by_test_id("sign-in-form").wait_for()
        refused = httpx.get(f"{server}/v1/me", headers={"authorization": f"Bearer {session['accessToken']}"},
                            timeout=30)
        assert refused.status_code == 401
        assert redis.exists(player_keys.deleted(player))
        assert sign_in(page, "Gone Gina") != player  # a new guest
    redis.close()
