"""Seeded random playouts: every game ends, and the invariants hold at every step."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from firebreak.domain import titles
from firebreak.domain.errors import RulesError
from firebreak.domain.events import visible_to
from firebreak.domain.greatfire.match import GreatFireMatch
from firebreak.domain.greatfire.state import TOTAL_CONES
from tests.greatfire.positions import scrambled

TITLE = titles.get("greatfire")
MAX_DECISIONS = 5000
SECRET_KEYS = ("hand", "objectives", "tokens", "colours")


def _conserved(m: GreatFireMatch, houses_removed: int) -> None:
    assert m.supply + sum(m.cones) + sum(m.put_out) == TOTAL_CONES
    assert m.supply >= 0 and min(m.cones) >= 0 and min(m.bands) >= 0
    assert sum(map(sum, m.houses)) == 120 - houses_removed
    assert all(n >= 0 for row in m.houses for n in row)
    if m.phase.value not in ("redeal", "placeBands"):
        assert sum(m.bands) == 6
    assert m.cones[m.geo.origin] >= 1


def _removed(events: list[dict[str, Any]]) -> int:
    return sum(sum(e["houses"].values()) for e in events if e["type"] in ("housesBurnt", "demolished"))


def _mutations(action: dict[str, Any], ids: list[str]) -> list[Any]:
    """Actions that must not be accepted: malformed, unknown, or altered copies of a legal one."""
    out: list[Any] = [None, [], "endActions", {"type": 3}, {"type": "teleport"}, {**action, "extra": 1}]
    for key, value in action.items():
        if key == "type":
            continue
        if isinstance(value, str):
            out.append({**action, key: "no-such-district"})
            out.extend({**action, key: other} for other in ids[:3])
        elif isinstance(value, int):
            out.append({**action, key: value + 7})
            out.append({**action, key: str(value)})
        out.append({k: v for k, v in action.items() if k != key})
    return out


def _check_no_leak(m: GreatFireMatch, viewer: int | None) -> None:
    """The view is unchanged by any change to what the viewer may not see, and shows the viewer's own."""
    v = m.view(viewer)
    if m.is_over():
        return  # P5: everything is revealed at the end
    assert scrambled(m, viewer).view(viewer) == v
    for row in v["players"]:
        for key in ("hand", "objectives"):
            assert key not in row, f"{key} of seat {row['seat']} in a player row before the end"
        if m.options["hiddenColours"]:
            assert row["colours"] is None and row["housesLost"] is None
    if viewer is None:
        assert "you" not in v
    else:
        assert v["you"]["seat"] == viewer
        assert v["you"]["hand"] == sorted(m.hands[viewer])


PUBLIC_CARD_EVENTS = ("cardPlayed", "cardDiscarded", "handRevealed", "handRedealt", "tokenPlayed", "fireCardFlipped")


def _check_events(events: list[dict[str, Any]], seats: int) -> None:
    """Secrets travel only in events with an audience; public events carry no card, token or hand."""
    for event in events:
        if "audience" in event:
            assert event["audience"] and all(0 <= a < seats for a in event["audience"])
        elif event["type"] not in PUBLIC_CARD_EVENTS:
            assert not any(k in event for k in ("card", "token", "hand")), event
    for viewer in (None, *range(seats)):
        assert all("audience" not in e or viewer in e["audience"] for e in visible_to(events, viewer))


def play_checked(seats: int, seed: int, options: dict[str, Any], *, apply_all: bool) -> GreatFireMatch:
    """Play one random game, checking every invariant at every step."""
    rng = random.Random(seed)
    m = TITLE.new_match(seats=seats, seed=seed, options=options)
    log: list[tuple[int, dict[str, Any]] | None] = []  # None: an automated (non-player) step
    removed = 0
    ids = list(m.geo.ids)
    for _ in range(MAX_DECISIONS):
        _conserved(m, removed)
        if m.is_over():
            break
        if m.system_due():
            # 2 players: the non-player turn is driven only through the automated-step calls.
            assert m.to_act() == [] and all(m.legal_actions(x) == [] for x in range(seats))
            with pytest.raises(RulesError):
                m.apply(0, {"type": "endActions"})
            events = m.run_system_step()
            log.append(None)
            assert m.version == len(log)
            removed += _removed(events)
            _check_events(events, seats)
            continue
        with pytest.raises(RulesError):
            m.run_system_step()
        (seat,) = m.to_act()
        legal = m.legal_actions(seat)
        assert legal, "a seat to act must have a legal action"
        for other in range(seats):
            if other != seat:
                assert m.legal_actions(other) == []
        before = m.to_dict()
        # Not listed -> refused, state unchanged.
        for bad in _mutations(rng.choice(legal), ids):
            if bad in legal:
                continue
            with pytest.raises(RulesError):
                m.apply(seat, bad)
        if seats > 1:
            with pytest.raises(RulesError):
                m.apply((seat + 1) % seats, legal[0])
        assert m.to_dict() == before
        # Every listed action applies (all of them, or one other than the chosen one).
        for candidate in legal if apply_all else [rng.choice(legal)]:
            trial = m.clone()
            trial.apply(seat, candidate)
        action = rng.choice(legal)
        events = m.apply(seat, action)
        assert m.version == len(log) + 1
        log.append((seat, action))
        removed += _removed(events)
        _check_events(events, seats)
        if len(log) % 7 == 0:
            for viewer in (None, *range(seats)):
                _check_no_leak(m, viewer)
            data = m.to_dict()
            assert json.loads(json.dumps(data)) == data
            assert TITLE.match_from_dict(data).to_dict() == data
    else:
        pytest.fail(f"game did not end within {MAX_DECISIONS} decisions")
    # Replay: the seed plus the action log rebuilds the same state.
    replay = TITLE.new_match(seats=seats, seed=seed, options=options)
    for entry in log:
        if entry is None:
            replay.run_system_step()
        else:
            replay.apply(*entry)
    assert replay.to_dict() == m.to_dict()
    result = m.result()
    assert result is not None and result.winners
    # R13: one (two) more rounds without drawing after the last card: every hand ends with 4 (3) cards.
    assert [len(hand) for hand in m.hands] == [3 if options["moreDestruction"] else 4] * seats
    return m


CASES = [
    (seats, seed, {"hiddenColours": hidden, "moreDestruction": more})
    for seats in (3, 4, 5, 6)
    for hidden in (False, True)
    for more in (False, True)
    for seed in range(6)
] + [
    (2, seed, {"hiddenColours": hidden, "moreDestruction": False, "npcTies": ties})
    for hidden in (False, True)
    for ties in ("conductor", "random")
    for seed in range(30)
]


@pytest.mark.parametrize(("seats", "seed", "options"), CASES)
def test_random_playout_invariants(seats: int, seed: int, options: dict[str, Any]) -> None:
    """Houses and cones conserved, legality exact, round trip, replay, no leaks (sampled apply)."""
    play_checked(seats, 1000 * seats + seed, options, apply_all=False)


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_every_listed_action_applies(seats: int) -> None:
    """At every step of a full game, each listed action applies to a copy of the state."""
    play_checked(seats, 77 + seats, {"hiddenColours": False, "moreDestruction": False}, apply_all=True)
