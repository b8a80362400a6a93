"""A private match's invite link (issue 48, section 3): FIREBREAK_INVITE_URL's template filled with the code,
relative ones resolved against the base URL the caller reached, and a template without {code} refused at start."""

from __future__ import annotations

import pytest

from firebreak.api.invite_links import invite_url
from firebreak.matches.config import Settings
from firebreak.matches.envsettings import SettingsError


def test_the_default_link_is_the_web_clients_join_page_under_the_base_url() -> None:
    template = Settings.from_env({}).invite_url
    assert invite_url(template, "Ab3-xyz", "http://play.example:8000/") == "http://play.example:8000/#/join/Ab3-xyz"
    assert invite_url(template, "c0de", "https://example.org/games/") == "https://example.org/games/#/join/c0de"
    assert invite_url(template, None, "http://h/") is None  # a listed match has no code, hence no link


def test_an_absolute_template_is_kept_and_the_code_is_escaped() -> None:
    template = Settings.from_env({"FIREBREAK_INVITE_URL": "https://app.example/join?c={code}"}).invite_url
    assert invite_url(template, "a/b c", "http://h/") == "https://app.example/join?c=a%2Fb%20c"


def test_a_template_without_the_code_is_refused() -> None:
    with pytest.raises(SettingsError, match="FIREBREAK_INVITE_URL"):
        Settings.from_env({"FIREBREAK_INVITE_URL": "https://app.example/join"})
