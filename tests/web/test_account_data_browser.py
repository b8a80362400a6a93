"""The web client's "Download my data" (issue 48, section 1), in headless Chromium: a signed-in guest downloads the
export as a file through a one-time URL, which a second use is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

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
