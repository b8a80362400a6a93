"""Seeded random playouts to the end for 2, 3 and 4 players: every legal action applies, illegal ones are refused
and change nothing, cards are conserved, replay from seed and log is identical, the state round-trips."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from firebreak.domain import titles
from firebreak.domain.errors import RulesError
from firebreak.domain.london import state
from firebreak.domain.london.match import LondonMatch
from tests.london.positions import all_cards

TITLE = titles.get("london")
MAX_DECISIONS = 6000


def _mutations(action: dict[str, Any]) -> list[Any]:
    out: list[Any] = [None, [], "run", {"type": 3}, {"type": "teleport"}, {**action, "extra": 1}]
    for key, value in action.items():
        if key == "type":
            continue
        out.append({**action, key: "no-such-card" if isinstance(value, str) else value + 9})
        out.append({**action, key: str(value)} if isinstance(value, int) else {**action, key: 1})
        out.append({k: v for k, v in action.items() if k != key})
    return out


def _check_events(events: list[dict[str, Any]], seats: int) -> None:
    for event in events:
        if "audience" in event:
            assert event["audience"] and all(0 <= a < seats for a in event["audience"])
        elif event["type"] == "drew":
            assert event["from"] == "board" or "card" not in event


def _playout(seats: int, seed: int) -> tuple[LondonMatch, list[tuple[int, dict[str, Any]]]]:
    m = TITLE.new_match(seats=seats, seed=seed)
    assert isinstance(m, LondonMatch)
    rng = random.Random(seed)
    log: list[tuple[int, dict[str, Any]]] = []
    every = sorted(m.cat.cards)
    while not m.is_over():
        assert len(log) < MAX_DECISIONS
        seat = m.to_act()[0]
        legal = m.legal_actions(seat)
        assert legal and all(m.legal_actions(o) == [] for o in range(seats) if o != seat)
        action = rng.choice(legal)
        if len(log) % 7 == 0:
            before = m.to_dict()
            for bad in _mutations(action):
                if bad not in legal:
                    with pytest.raises(RulesError):
                        m.apply(seat, bad)
            with pytest.raises(RulesError):
                m.apply((seat + 1) % seats, legal[0])
            assert m.to_dict() == before
        version = m.version
        events = m.apply(seat, action)
        assert m.version == version + 1 and all(e["version"] == m.version for e in events)
        _check_events(events, seats)
        log.append((seat, action))
        assert sorted(all_cards(m)) == every
        assert min(m.money) >= 0 and min(m.poverty) >= 0 and 0 <= sum(m.loans) <= 12
        if len(log) % 25 == 0:
            data = json.loads(json.dumps(m.to_dict()))
            assert TITLE.match_from_dict(data).to_dict() == m.to_dict()
            other = (seat + 1) % seats
            assert m.resample(other, rng).view(other) == m.view(other)
    return m, log


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_playouts_end_and_replay(seats: int) -> None:
    for seed in range(2):
        m, log = _playout(seats, seed)
        result = m.result()
        assert result is not None and result.winners and len(result.scores) == seats
        assert all(s.total == sum(s.parts.values()) for s in result.scores)
        replay = TITLE.new_match(seats=seats, seed=seed)
        for seat, action in log:
            replay.apply(seat, action)
        assert replay.to_dict() == m.to_dict() and replay.view(None) == m.view(None)
        with pytest.raises(RulesError):
            m.apply(0, {"type": "run"})


def test_clone_is_independent() -> None:
    m = TITLE.new_match(seats=3, seed=5)
    copy = m.clone()
    copy.apply(copy.to_act()[0], {"type": "drawDeck"})
    assert copy.to_dict() != m.to_dict() and m.version == 0
    assert m.clone().to_dict() == m.to_dict()


def test_copy_shapes_cover_every_saved_field_once() -> None:
    generic = ("options", "pending", "rng", "stacks")  # copied the generic way, or by a copier of their own
    grouped = [*state._FLAT, *state._ROWS, *state._SCALARS, *generic]
    assert sorted(grouped) == sorted(state._FIELDS)


def test_a_clone_mid_game_equals_the_match_and_shares_no_mutable_part() -> None:
    m = TITLE.new_match(seats=3, seed=11)
    assert isinstance(m, LondonMatch)
    rng = random.Random(3)
    for _ in range(150):  # stacks, staged payments (pending), loans...
        seat = m.to_act()[0]
        m.apply(seat, rng.choice(m.legal_actions(seat)))
    twin = m.clone()
    assert twin.to_dict() == m.to_dict() and twin.rng is not m.rng

    def mutable_parts(value: object) -> list[int]:
        if isinstance(value, list):
            return [id(value), *(i for v in value for i in mutable_parts(v))]
        if isinstance(value, dict):
            return [id(value), *(i for v in value.values() for i in mutable_parts(v))]
        return []

    for name in state._FIELDS:
        assert not set(mutable_parts(getattr(m, name))) & set(mutable_parts(getattr(twin, name))), name


def test_playable_is_every_affordable_card_with_a_discard_or_none_needed() -> None:
    """develop.playable counts colours instead of asking discards_for card by card: the same cards, in hand order,
    at every step of random games (Workhouse-like beggar stand-ins included where the cards bring them)."""
    from firebreak.domain.london.rules import develop
    from firebreak.domain.london.rules.loans import affordable

    checked = 0
    for seed in range(12):
        m = TITLE.new_match(seats=2 + seed % 3, seed=seed)
        assert isinstance(m, LondonMatch)
        rng = random.Random(seed)
        while not m.is_over() and m.version < 400:
            for seat in range(m.seats):
                expected = [c for c in m.hands[seat] if m.card(c).kind != "beggar"
                            and affordable(m, seat, develop.cost_of(m, seat, c))
                            and (m.card(c).kind == "action" or develop.discards_for(m, seat, c))]
                assert develop.playable(m, seat) == expected
                checked += bool(expected)
            seat = m.to_act()[0]
            m.apply(seat, rng.choice(m.legal_actions(seat)))
    assert checked > 1000


def test_no_system_steps() -> None:
    m = TITLE.new_match(seats=2, seed=1)
    assert not m.system_due()
    with pytest.raises(RulesError):
        m.run_system_step()
