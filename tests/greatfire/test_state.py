"""State copies and the engine's derived tables: a clone is load(to_dict()) without the round trip, the cached
burning groups follow every change of cones and bands, a bounded path search agrees with the full one."""

from __future__ import annotations

import random

from firebreak.domain import titles
from firebreak.domain.bots import random_bot
from firebreak.domain.greatfire import state
from firebreak.domain.greatfire.match import GreatFireMatch
from firebreak.domain.greatfire.rules import fire
from tests.greatfire.positions import blank, idx, put


def _played(seats: int, seed: int, decisions: int) -> GreatFireMatch:
    m = titles.get("greatfire").new_match(seats=seats, seed=seed)
    assert isinstance(m, GreatFireMatch)
    rng = random.Random(seed)
    for _ in range(decisions):
        if m.is_over():
            break
        if m.system_due():
            m.run_system_step()
        else:
            seat = m.to_act()[0]
            m.apply(seat, random_bot(m, seat, rng))
    return m


def test_copy_groups_cover_every_saved_field_once() -> None:
    rebuilt = ("rng", "options", "npc_choice", "npc_bands")
    grouped = [*state._SHARED, *state._FLAT_LISTS, *state._NESTED_LISTS, *rebuilt]
    assert sorted(grouped) == sorted(state._FIELDS)


def test_clone_equals_a_round_trip_and_shares_no_mutable_part_but_the_rows_of_houses() -> None:
    for seats, seed in ((2, 3), (4, 5)):
        m = _played(seats, seed, 120)
        twin = m.clone()
        reloaded = GreatFireMatch(m.geo, m.comps)
        reloaded.load(m.to_dict())
        assert twin.to_dict() == reloaded.to_dict() == m.to_dict()
        assert twin.rng is not m.rng
        for name in state._FIELDS:
            mine, theirs = getattr(m, name), getattr(twin, name)
            if isinstance(mine, (list, dict)):
                assert theirs is not mine, name
            if isinstance(mine, list) and name not in state._ROWS_SHARED:
                assert all(a is not b for a, b in zip(mine, theirs, strict=True) if isinstance(a, list)), name
        # the rules replace a row of houses, never change it (test_rating_memo.py): a clone shares the rows
        assert all(a is b for a, b in zip(m.houses, twin.houses, strict=True))


def test_clone_plays_on_alone() -> None:
    m = _played(4, 7, 60)
    before = m.to_dict()
    twin = m.clone()
    rng = random.Random(1)
    for _ in range(40):
        seat = twin.to_act()[0]
        twin.apply(seat, random_bot(twin, seat, rng))
    assert m.to_dict() == before
    assert twin.to_dict() != before


def test_burning_groups_follow_cones_and_bands_changed_in_place() -> None:
    m = blank()
    put(m, "sion-college", cones=2)
    put(m, "cripplegate", cones=2)
    first = list(fire.burning_groups(m))
    sion, cripple = idx(m, "sion-college"), idx(m, "cripplegate")
    assert first[sion] != -1 and first[cripple] != -1
    m.bands[cripple] = 2  # contained now: no longer burning
    second = fire.burning_groups(m)
    assert second[cripple] == -1 and second[sion] != -1
    m.cones[cripple] = 3  # burning again
    third = fire.burning_groups(m)
    assert third[cripple] != -1
    fresh = m.clone()
    fresh.groups_cache = None
    assert fire.burning_groups(fresh) == third


def test_bounded_paths_agree_with_the_full_search_within_the_bound() -> None:
    m = _played(4, 11, 150)
    geo = m.geo
    crossable = [c <= b for c, b in zip(m.cones, m.bands, strict=True)]
    far = len(geo.ids) + 1
    for target in range(len(geo.ids)):
        dist, hop = geo.paths_to(target, crossable)
        for within in range(5):
            near, near_hop = geo.paths_to(target, crossable, within)
            for d in range(len(geo.ids)):
                if dist[d] <= within:
                    assert (near[d], near_hop[d]) == (dist[d], hop[d])
                else:
                    assert (near[d], near_hop[d]) == (far, -1)
