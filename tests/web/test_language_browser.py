"""The web client in the player's language (issue 50): the language picker, then a whole Great Fire match by
clicking in German and in Ukrainian, every action button and every line of the events log the service's label in
that language (the page's own words, its headings and prompts, are checked by test_words_browser.py)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.test_labels import english_left, nouns_in, words_of
from tests.web.test_browser import FINISH_SECONDS, MATCH, click_one, opened, start_match, wait_ready

CYRILLIC = re.compile("[\u0400-\u04ff]")
BUTTONS = "[data-testid=actions] [data-testid=action], [data-testid=action-list-item]"
LOG = "[data-testid=log] li.ev"
CARDS = "[data-testid=hand-card].playable"  # a playable fire card's tooltip: its action's label


def in_language(text: str, lang: str, names: list[str]) -> bool:
    """Whether a label reads in the language: Ukrainian has Cyrillic letters, German no English word of the game
    left once the board's names (which German keeps) are taken out."""
    if lang == "uk":
        return bool(CYRILLIC.search(text))
    return not english_left(text, names)


@pytest.mark.parametrize("lang", ["de", "uk"])
def test_a_whole_match_reads_in_the_chosen_language(browser: Any, server: str, lang: str) -> None:
    names = nouns_in(words_of("greatfire"), lang)
    with opened(browser, server) as p:
        page = p.page
        sockets: list[str] = []
        page.on("websocket", lambda socket: sockets.append(socket.url))
        page.goto("/")
        page.get_by_test_id("language").select_option(lang)
        page.wait_for_load_state("load")
        page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
        start_match(page, "Dora")
        buttons: set[str] = set()
        clicks = 0
        deadline = time.monotonic() + FINISH_SECONDS
        while wait_ready(page):
            assert time.monotonic() < deadline, f"not over after {clicks} clicks"
            buttons.update(page.eval_on_selector_all(BUTTONS, "els => els.map((e) => e.textContent)"))
            buttons.update(page.eval_on_selector_all(CARDS, "els => els.map((e) => e.title)"))
            click_one(page, prefer=("keepHand", "endActions", "endFire"))
            clicks += 1
        page.get_by_test_id("log").locator("li.ev[data-type=gameOver]").first.wait_for()
        assert page.get_attribute(MATCH, "data-status") == "OVER"
        lines = page.eval_on_selector_all(LOG, "els => els.map((e) => [e.dataset.type, e.innerText])")
        assert clicks > 10 and len(buttons) > 8 and len(lines) > 50, (clicks, len(buttons), len(lines))
        wrong = sorted(b for b in buttons if not in_language(b, lang, names))
        assert wrong == [], wrong
        wrong_lines = [(kind, text) for kind, text in lines if not in_language(text, lang, names)]
        assert wrong_lines == [], wrong_lines[:10]
        # the subscription's events too: the WebSocket asked for the language in its URL
        assert sockets and all(url.endswith(f"?lang={lang}") for url in sockets), sockets
