"""Hidden information: private events stay with their audience, resample keeps what the seat knows, and a seat's
view never depends on facts hidden from it.

The twin test generalises tests/greatfire/test_twins.py to any title: at sampled steps, for each seat v, the twin
is match.resample(v) (it differs from the match only in facts hidden from v, by the resample contract, and shows
v the same view). Both are played on with the same public choices: the automated step when it is due, else for
the first seat owing a decision an action legal in both (v's own legal actions must be the same in both). Until
the first step whose events visible to v differ (the rules revealed something hidden: a draw, a flip, sealed
bids shown), v's views must stay equal; the end stops the comparison too (a title may show everything then).
A spectator gets the same test with the twin resampled for a seat: whatever that seat cannot see, a spectator
cannot see either. The criterion cannot tell a leak through events alone from a reveal (both are a difference in
what v is shown); a leak through views, or through a step that changes v's view without an event, is caught.
"""

from __future__ import annotations

import json
import random
from typing import Any

from firebreak.domain.contract import Match
from firebreak.domain.events import visible_to
from tests.conformance.support import Case, sampled, take, trace, walk

TWIN_STEPS = 40  # steps a twin pair is played on at most


def _json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, allow_nan=False)


def test_private_events_reach_their_audience_only(case: Case) -> None:
    """Every "audience" is a non-empty list of the match's seats; visible_to gives a seat the public events and
    those it is in the audience of, a spectator the public ones, in order."""
    t = trace(case)
    for k, match, step in walk(t):
        if k == len(t.log):
            break
        events = take(match.clone(), step)
        for event in events:
            if "audience" in event:
                audience = event["audience"]
                assert isinstance(audience, list) and audience, f"{case} step {k}: {event}"
                assert all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < case.seats
                           for s in audience), f"{case} step {k}: {event}"
        assert visible_to(events, None) == [e for e in events if "audience" not in e]
        for viewer in range(case.seats):
            shown = visible_to(events, viewer)
            assert shown == [e for e in events if "audience" not in e or viewer in e["audience"]]


def test_resample_keeps_what_the_seat_knows(case: Case) -> None:
    """At sampled steps resample(seat) leaves the match alone and gives an independent copy showing the seat the
    same view, the same pending step and the same own legal actions, that plays on to the end."""
    t = trace(case)
    rng = random.Random(case.seed)
    played = False
    probe = sampled(t, 5)
    for k, match, _ in walk(t):
        if k not in probe:
            continue
        before = _json(match.to_dict())
        for seat in range(case.seats):
            copy = match.resample(seat, random.Random(rng.random()))
            where = f"{case} step {k} seat {seat}"
            assert _json(copy.view(seat)) == _json(match.view(seat)), f"{where}: the resample shows another view"
            assert copy.to_act() == match.to_act() and copy.system_due() == match.system_due(), where
            assert copy.is_over() == match.is_over() and copy.seats == match.seats, where
            assert copy.legal_actions(seat) == match.legal_actions(seat), where
            assert _json(match.to_dict()) == before, f"{where}: resample changed the match"
            if not played and not copy.is_over() and seat == case.seats - 1:
                _play_out(copy, random.Random(k))
                assert _json(match.to_dict()) == before, f"{where}: playing the resample changed the match"
                played = True


def _play_out(match: Match, rng: random.Random) -> None:
    for _ in range(20_000):
        if match.is_over():
            return
        if match.system_due():
            match.run_system_step()
        else:
            seat = rng.choice(match.to_act())
            match.apply(seat, rng.choice(match.legal_actions(seat)))
    raise AssertionError("a resampled match did not end")


def play_twins(a: Match, b: Match, viewer: int | None, rng: random.Random, where: str) -> int:
    """Play twins on with the same public choices; assert the viewer cannot tell them apart until its events
    differ. Returns the number of steps compared."""
    for step in range(TWIN_STEPS):
        here = f"{where}, twin step {step}"
        assert a.is_over() == b.is_over(), here
        if a.is_over():
            return step  # a title may show everything at the end
        assert _json(a.view(viewer)) == _json(b.view(viewer)), f"{here}: the views differ"
        assert a.system_due() == b.system_due() and a.to_act() == b.to_act(), here
        if a.system_due():
            seen_a, seen_b = a.run_system_step(), b.run_system_step()
        else:
            seat = a.to_act()[0]
            legal_a, legal_b = a.legal_actions(seat), b.legal_actions(seat)
            if seat == viewer:
                assert legal_a == legal_b, f"{here}: the viewer's own choices differ"
            common = [x for x in legal_a if x in legal_b]
            if not common:
                return step  # the acting seat's secrets decide what it may do; its choice may show them
            action = rng.choice(common)
            seen_a, seen_b = a.apply(seat, action), b.apply(seat, action)
        if _json(visible_to(seen_a, viewer)) != _json(visible_to(seen_b, viewer)):
            return step  # the rules showed the viewer something hidden: the twins may look different from here
    return TWIN_STEPS


def test_views_do_not_depend_on_facts_hidden_from_the_viewer(case: Case) -> None:
    """Twins made by resample(v) give v (and a spectator) the same views and events, step by step, until a
    step shows v something that differs between them."""
    t = trace(case)
    rng = random.Random(case.seed)
    compared = 0
    probe = sampled(t, 4)
    for k, match, _ in walk(t):
        if k not in probe or match.is_over():
            continue
        for viewer in [None, *range(case.seats)]:
            secret_keeper = rng.randrange(case.seats) if viewer is None else viewer
            twin = match.resample(secret_keeper, random.Random(rng.random()))
            compared += play_twins(match.clone(), twin, viewer, random.Random(rng.random()),
                                   f"{case} step {k} viewer {viewer}")
    assert compared > 0, "the twins were never played on"
