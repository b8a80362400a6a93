"""The REST request models against the rules they document: the printable-text pattern and the per-title seat and
option branches say exactly what pydantic (and the layer behind it) accepts."""

from __future__ import annotations

import itertools
import re
import sys
from typing import Any

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from firebreak.api.rest.checking import body_refusal
from firebreak.api.rest.requests import URL, CreateMatch, SignInAsGuest
from firebreak.api.rest.schemas import components
from firebreak.api.rest.text import Printable
from firebreak.domain import titles
from firebreak.matches.refusals import Refusal
from firebreak.notifications.webhooks.endpoints import check_url

NAME = Printable(1, 40, True, Refusal.BAD_NAME)
DEVICE = Printable(16, 200, False, Refusal.BAD_DEVICE_ID)
DESCRIPTION = Printable(0, 200, True, Refusal.BAD_WEBHOOK)
EDGES = ["ann", "  ann  ", " ", "", "a" * 40, " " + "a" * 40 + " ", "a" * 41, "a\tb", "é", "\u200b", "a\u00a0b",
         "x\n", "a]b", "a-b^\\[", "ab" * 8, "\t" + "ab" * 8, "\U0001f600" * 16, "\udc00" * 16]


@settings(max_examples=400, deadline=None)
@given(st.text(min_size=0, max_size=45) | st.sampled_from(EDGES))
def test_the_printable_pattern_accepts_what_the_rule_accepts(text: str) -> None:
    for rule in (NAME, DEVICE, DESCRIPTION):
        assert bool(re.fullmatch(rule.pattern(), text)) == rule.accepts(text), (rule.least, rule.most, text)


def test_a_name_the_players_layer_refuses_is_refused_with_its_code() -> None:
    try:
        SignInAsGuest.model_validate({"name": "a\u0007", "deviceId": "d" * 16})
    except ValidationError as error:
        refused = body_refusal(SignInAsGuest, error)
    assert (refused.status, refused.code) == (422, "BAD_NAME")
    assert SignInAsGuest.model_validate({"name": "  ann ", "deviceId": "d" * 16}).name == "  ann "


def _bodies() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for title in titles.all_titles():
        for seats in range(title.min_seats - 1, title.max_seats + 2):
            out.append({"title": title.id, "seats": seats})
            for spec in title.option_specs():
                values = [spec.default, None, True, 0, 1, seats - 1, seats, 2.0, "x", *spec.choices]
                out.extend({"title": title.id, "seats": seats, "options": {spec.name: v}} for v in values)
    return out


def test_the_branch_of_each_title_and_seat_count_is_what_the_title_checks() -> None:
    """jsonschema on the document, pydantic on the model and the title's own check_options agree on every body."""
    validator = jsonschema.Draft202012Validator({"$ref": "#/components/schemas/CreateMatch",
                                                 "components": {"schemas": components()}})
    for body in itertools.chain(_bodies(), ({"title": "greatfire", "seats": 3, "rated": True, "seed": 1},
                                            {"title": "greatfire", "seats": 3, "rated": True})):
        try:
            CreateMatch.model_validate(body)
            enforced = True
        except ValidationError:
            enforced = False
        assert validator.is_valid(body) == enforced, body


@settings(max_examples=300, deadline=None)
@given(st.from_regex(URL, fullmatch=True))
def test_every_url_the_pattern_documents_passes_the_endpoints_check(url: str) -> None:
    assert check_url(url).lower().startswith("http")  # check_url raises EndpointError for a URL it refuses


def test_no_code_point_above_u3000_is_whitespace() -> None:
    """The URL pattern's blanks stop at U+3000."""
    assert not any(chr(code).isspace() for code in range(0x3001, sys.maxunicode + 1))
