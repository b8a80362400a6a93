"""Great Fire's outlook (the search's leaf): a fitted estimate of the final margin, read from plain quantities that
add up to what the scoring counts (R17)."""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from dataclasses import fields

import pytest

from firebreak.domain.greatfire.bots import outlook, search
from firebreak.domain.greatfire.bots.lookahead import evaluate
from firebreak.domain.greatfire.bots.outlook import COEFFICIENTS, FAR, Coefficients, Features, features, lead, weighted
from firebreak.domain.greatfire.bots.rollout import rollout
from firebreak.domain.greatfire.match import GreatFireMatch
from firebreak.domain.greatfire.rules import scoring
from tests.greatfire.bot_positions import positions
from tests.greatfire.positions import blank, put


def _some_positions() -> list[GreatFireMatch]:
    """Mid-game positions of seeded random games, 2 to 6 seats."""
    out = []
    for seats, seed in ((2, 11), (4, 12), (6, 13)):
        for k, m in enumerate(positions(seats, seed, every=25)):
            if k % 3 == 1:
                out.append(m.clone())
    return out


POSITIONS = _some_positions()


def test_distances_count_steps_from_a_fire_that_can_spread() -> None:
    m = blank()
    origin = m.geo.origin
    dist = outlook.distances(m)
    assert dist[origin] == 0
    for e in m.geo.adjacent[origin]:
        assert dist[e] == 1
    two = {f for e in m.geo.adjacent[origin] for f in m.geo.adjacent[e]} - set(m.geo.adjacent[origin]) - {origin}
    assert two and all(dist[f] == 2 for f in two)
    # a single cone cannot leave its district (R1): no fire can spread, every district is out of reach
    put(m, m.geo.ids[origin], cones=1)
    assert set(outlook.distances(m)) == {FAR}


def test_houses_in_a_district_burning_again_count_at_the_edge() -> None:
    """A band that leaves a contained fire lets it burn where houses still stand: they are counted, nearest."""
    m = blank()
    d = next(e for e in m.geo.adjacent[m.geo.origin] if sum(m.houses[e]) and e != m.geo.origin)
    owner = next(seat for seat in range(m.seats) if any(m.houses[d][c] for c in m.colours[seat]))
    before = features(m)[owner]
    put(m, m.geo.ids[d], cones=2, bands=0)
    assert m.burning(d) and outlook.distances(m)[d] == 0
    after = features(m)[owner]
    assert after.houses_far + after.houses_near + after.houses_edge == scoring.score(m, owner)["housesLeft"]
    assert after.houses_edge >= before.houses_edge


@pytest.mark.parametrize("m", POSITIONS)
def test_the_features_add_up_to_the_score(m: GreatFireMatch) -> None:
    for seat, f in enumerate(features(m)):
        score = scoring.score(m, seat)
        assert f.houses_far + f.houses_near + f.houses_edge == score["housesLeft"]
        assert f.objectives_far + f.objectives_near == score["objectives"]
        assert f.put_out == score["putOut"]
        assert f.vp_tokens == score["tokens"]
        assert 2 * f.hero == score["hero"]
        assert f.held_tokens == len(m.tokens[seat]) - score["tokens"]
        assert 0 <= f.houses_banded <= score["housesLeft"]
        assert f.to_move == (m.turn == seat)


def test_the_weights_read_like_the_game() -> None:
    """The fitted weights agree with the game: once the deck is drawn a house far from the fire is worth about its
    2 VP; with more deck left, and nearer the fire, it is worth less; banked VP (put-outs, one-VP tokens, the Hero of
    London card) count."""
    k = COEFFICIENTS
    assert 1.5 < k.houses_far < 2.5
    assert k.houses_edge < k.houses_far
    assert k.far_left < 0 and k.near_left < 0 and k.edge_left < 0
    assert k.houses_edge + k.edge_left < k.houses_far + k.far_left
    assert k.put_out > 0.3 and k.vp_tokens > 0.3 and k.hero > 0.3


@pytest.mark.parametrize("m", [p for p in POSITIONS if p.seats == 2])
def test_two_seats_leads_are_opposite(m: GreatFireMatch) -> None:
    assert lead(m, 0) == pytest.approx(-lead(m, 1))


def test_the_lead_weighs_the_best_rival_and_the_mean_alike() -> None:
    m = next(p for p in POSITIONS if p.seats == 4)
    standing = [weighted(f) for f in features(m)]
    for seat in range(4):
        others = [x for o, x in enumerate(standing) if o != seat]
        assert lead(m, seat) == pytest.approx(standing[seat] - 0.5 * max(others) - 0.5 * sum(others) / 3)


def test_a_house_lost_costs_more_the_less_deck_is_left() -> None:
    m = blank()
    dist = outlook.distances(m)
    far = max(range(len(m.cones)), key=lambda d: (dist[d], sum(m.houses[d])))
    assert dist[far] == FAR and sum(m.houses[far]) > 1  # the district keeps houses: no objective changes
    owner = next(seat for seat in range(m.seats) if any(m.houses[far][c] for c in m.colours[seat]))
    colour = next(c for c in m.colours[owner] if m.houses[far][c])
    losses = []
    for deck in (list(m.deck), []):
        m.deck = deck
        before = lead(m, owner)
        m.houses[far][colour] -= 1
        losses.append(before - lead(m, owner))
        m.houses[far][colour] += 1
    early, late = losses
    assert 0 < early < late
    assert late == pytest.approx(COEFFICIENTS.houses_far + COEFFICIENTS.houses_banded * (m.bands[far] > m.cones[far]))


def test_every_feature_is_read() -> None:
    """A unit weight on one feature makes the standing that feature (no name is missed or misspelt)."""
    m = POSITIONS[len(POSITIONS) // 2]
    f = features(m)[0]
    for field in fields(Features):
        unit = Coefficients(**{g.name: float(g.name == field.name) for g in fields(Features)})
        assert weighted(f, unit) == getattr(f, field.name)


@pytest.mark.parametrize(("judge", "horizon", "score"), [(search.FITTED, 1, lead), (search.HAND_WEIGHTED, 3, evaluate)],
                         ids=["fitted", "hand-weighted"])
def test_a_judge_rolls_out_to_its_horizon_and_scores_by_its_leaf(judge: search.Judge, horizon: int,
                                                               score: Callable[[GreatFireMatch, int], float]) -> None:
    """FITTED (the service's): the rest of the seat's turn, the outlook; HAND_WEIGHTED (the bench's `hand-weighted`
    level): to the end of the seat's next turn, lookahead.evaluate."""
    m = next(p for p in POSITIONS if p.seats == 4 and p.phase.value == "fire")
    seat = m.turn
    move = search.root_moves(m, seat)[0]
    expected = m.clone()
    for action in move:
        search.apply(expected, seat, action)
    rollout(expected, seat, random.Random(99), horizon)
    assert judge.horizon == horizon and judge.score is score
    assert search._simulate(m.clone(), seat, move, 99, judge) == score(expected, seat)


def test_the_service_s_search_uses_the_fitted_judge() -> None:
    for entry in (search.choose, search.search_from_view, search.search_bot_with, search._simulate):
        assert inspect.signature(entry).parameters["judge"].default is search.FITTED
