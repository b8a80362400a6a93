"""Every title's published JSON Schemas (issue 13): valid schemas, and every view, legal action, event and result of
random matches at every seat count validates against them; a malformed one does not."""

from __future__ import annotations

import random
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from domain import titles
from domain.bots import random_bot
from domain.contract import Title

PARTS = ("view", "action", "event", "result")
SEEDS = 1
EVERY = 5  # steps between checks of the legal actions and of a view (validation is slow; many matches run)


def _validators(title: Title) -> dict[str, Draft202012Validator]:
    schemas = title.schemas()
    assert set(schemas) == set(PARTS)
    for schema in schemas.values():
        Draft202012Validator.check_schema(schema)
    return {part: Draft202012Validator(schema) for part, schema in schemas.items()}


def _check(validator: Draft202012Validator, instance: Any, where: str) -> None:
    errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.path))
    assert not errors, f"{where}: {errors[0].message} at {list(errors[0].path)}"


@pytest.mark.parametrize("title_id", [t.id for t in titles.all_titles()])
def test_random_matches_validate_against_the_published_schemas(title_id: str) -> None:
    title = titles.get(title_id)
    check = _validators(title)
    for seats in range(title.min_seats, title.max_seats + 1):
        for seed in range(SEEDS):
            match = title.new_match(seats, seed)
            rng = random.Random(seed)
            steps = 0
            while not match.is_over():
                if match.system_due():
                    events = match.run_system_step()
                else:
                    seat = match.to_act()[0]
                    if steps % EVERY == 0:
                        for action in match.legal_actions(seat):
                            _check(check["action"], action, f"{title_id} action")
                    events = match.apply(seat, random_bot(match, seat, rng))
                for event in events:
                    _check(check["event"], event, f"{title_id} event {event.get('type')}")
                if steps % EVERY == 0:
                    viewer = rng.choice([None, *range(seats)])
                    _check(check["view"], match.view(viewer), f"{title_id} view of {viewer} at {steps}")
                steps += 1
            for viewer in [None, *range(seats)]:
                _check(check["view"], match.view(viewer), f"{title_id} final view of {viewer}")
            result = match.result()
            assert result is not None
            _check(check["result"], result.to_dict(), f"{title_id} result")


@pytest.mark.parametrize("title_id", [t.id for t in titles.all_titles()])
def test_the_schemas_refuse_what_the_engine_never_sends(title_id: str) -> None:
    title = titles.get(title_id)
    check = _validators(title)
    match = title.new_match(title.min_seats, 1)
    seat = match.to_act()[0] if match.to_act() else 0
    assert not check["action"].is_valid({"type": "noSuchAction"})
    assert not check["action"].is_valid({**match.legal_actions(seat)[0], "extra": 1})
    assert not check["event"].is_valid({"type": "noSuchEvent"})
    assert not check["view"].is_valid({**match.view(None), "secret": True})
    assert not check["result"].is_valid({"scores": [], "winners": [], "reason": 3})
