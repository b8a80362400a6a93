"""The generic information-set search (domain/search.py), on the reference title Blind Auction."""

from __future__ import annotations

import random
from typing import Any

import pytest

from firebreak.domain import search
from firebreak.domain.contract import Action, Budget, Match
from firebreak.domain.errors import NotYourTurn
from tests.titles.blind_auction import BLIND_AUCTION, BlindAuctionMatch

ITERATIONS = Budget(seconds=None, iterations=60)


def _play(m: Match, pick: Any, rng: random.Random, steps: int) -> None:
    """Play up to steps steps, pick(match, seat) choosing for the first seat owing a decision."""
    for _ in range(steps):
        if m.is_over():
            return
        if m.system_due():
            m.run_system_step()
        else:
            seat = m.to_act()[0]
            m.apply(seat, pick(m, seat))


def _mid_bidding(seats: int, seed: int, **options: Any) -> BlindAuctionMatch:
    """A match in its second round after the first seat has sealed its bid."""
    m = BLIND_AUCTION.new_match(seats, seed, options)
    rng = random.Random(seed)
    _play(m, lambda m, s: search.random_policy(m, s, rng), rng, 1 + seats + 2)
    assert m.phase == "bid" and m.round == 2 and len(m.to_act()) == seats - 1
    return m


class ResampleOnly:
    """A match stand-in that offers resample() and nothing else: any other access fails the test."""

    def __init__(self, match: BlindAuctionMatch) -> None:
        self._match = match

    def resample(self, seat: int, rng: random.Random) -> Match:
        """The wrapped match's resample."""
        return self._match.resample(seat, rng)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_choice_is_legal_with_several_seats_to_act_and_automated_steps(seats: int) -> None:
    """At every decision of whole games (sealed bids by several seats at once, prizes turned up by automated
    steps in the playouts) the bot returns one of the seat's legal actions and leaves the match alone."""
    m = BLIND_AUCTION.new_match(seats, 5)
    rng = random.Random(5)
    decisions = 0
    while not m.is_over():
        if m.system_due():
            m.run_system_step()
            continue
        for seat in m.to_act():
            before = m.to_dict()
            action = search.choose(m, seat, rng, Budget(seconds=None, iterations=12))
            assert action in m.legal_actions(seat) and m.to_dict() == before
            decisions += 1
        seat = m.to_act()[-1]
        m.apply(seat, search.random_policy(m, seat, rng))
    assert decisions >= seats * 3


def test_an_iteration_budget_makes_the_choice_a_function_of_the_rng() -> None:
    """Same rng seed and iteration budget, same action (and the seed matters across positions)."""
    choices = set()
    for seed in range(6):
        m = _mid_bidding(3, seed, coins=12)
        seat = m.to_act()[0]
        first = search.choose(m, seat, random.Random(seed), ITERATIONS)
        assert search.choose(m, seat, random.Random(seed), ITERATIONS) == first
        choices.add(first["amount"])
    assert len(choices) > 1


def test_twins_differing_only_in_hidden_facts_choose_alike() -> None:
    """Hidden-information safety: a twin with other sealed bids and another prize order (resample of the seat)
    gets the same choice for the same rng; the bot works on an object offering resample() alone."""
    for seed in range(8):
        m = _mid_bidding(3, seed)
        seat = m.to_act()[0]
        twin = m.resample(seat, random.Random(100 + seed))
        assert twin.view(seat) == m.view(seat)
        assert twin.to_dict() != m.to_dict()
        first = search.choose(m, seat, random.Random(seed), ITERATIONS)
        assert search.choose(twin, seat, random.Random(seed), ITERATIONS) == first
        only = ResampleOnly(m)
        assert search.choose(only, seat, random.Random(seed), ITERATIONS) == first  # type: ignore[arg-type]


def test_it_plays_the_reference_title_better_than_random() -> None:
    """Over 36 seeded games (2-4 seats, the search in a rotating seat, random rivals), it wins far more than the
    share a random seat expects (about 0.36 across these seat counts)."""
    share = 0.0
    games = 36
    for game in range(games):
        seats = 2 + game % 3
        me = game % seats
        m = BLIND_AUCTION.new_match(seats, 1000 + game)
        rng = random.Random(game)

        def pick(m: Match, seat: int, me: int = me, rng: random.Random = rng) -> Action:
            if seat == me:
                return search.choose(m, seat, rng, Budget(seconds=None, iterations=80))
            return search.random_policy(m, seat, rng)

        _play(m, pick, rng, 1000)
        result = m.result()
        assert result is not None
        if me in result.winners:
            share += 1 / len(result.winners)
    assert share / games > 0.6


def test_playouts_are_capped_and_an_unfinished_one_is_a_draw_or_the_leaf_score() -> None:
    """A playout stops after max_steps; without a leaf hook it scores 0 (a draw), with one the hook's value
    clamped to [-1, 1]."""
    m = _mid_bidding(2, 3)
    assert search.playout(m.clone(), 0, random.Random(1), max_steps=1) == 0.0
    assert search.playout(m.clone(), 0, random.Random(1), leaf=lambda w, s: 0.25, max_steps=1) == 0.25
    assert search.playout(m.clone(), 0, random.Random(1), leaf=lambda w, s: 7.0, max_steps=2) == 1.0
    finished = m.clone()
    value = search.playout(finished, 0, random.Random(1), leaf=lambda w, s: 7.0)
    assert finished.is_over() and value == search.reward(finished, 0)


def _ended(coins: list[int], won: list[int]) -> BlindAuctionMatch:
    m = BLIND_AUCTION.new_match(len(coins), 1)
    m.coins, m.won, m.phase = list(coins), list(won), "over"
    return m


def test_the_reward_ranks_first_then_weighs_the_margin() -> None:
    """The reward is in [-1, 1]: mostly the rank against each rival, then the margin: a draw is 0, a wide win beats
    a narrow one, a loss mirrors the win, beating one of two rivals sits in between."""
    assert search.reward(_ended([0, 0], [5, 5]), 0) == 0.0  # a draw
    big, narrow = search.reward(_ended([0, 0], [12, 1]), 0), search.reward(_ended([0, 0], [6, 5]), 0)
    assert 1.0 >= big > narrow > 0.5
    assert search.reward(_ended([0, 0], [5, 6]), 0) == -narrow
    middle = search.reward(_ended([0, 0, 0], [3, 6, 1]), 0)
    assert -0.5 < middle < 0.5  # beat one rival, lost to the other
    assert search.reward(BLIND_AUCTION.new_match(2, 1), 0) == 0.0  # not over


def test_the_level_uses_its_budget_and_refuses_a_seat_with_nothing_to_decide() -> None:
    """search_level() is the "search" BotLevel; a seconds budget gives a legal action; a seat that has already
    bid gets NotYourTurn."""
    level = search.search_level()
    assert level.name == "search" and level.description
    m = _mid_bidding(3, 2)
    seat = m.to_act()[0]
    assert level.choose(m, seat, random.Random(1), Budget(seconds=0.02)) in m.legal_actions(seat)
    done = next(s for s in range(3) if s not in m.to_act())
    with pytest.raises(NotYourTurn):
        level.choose(m, done, random.Random(1), ITERATIONS)


def test_a_title_policy_is_used_in_the_playouts() -> None:
    """A title's own playout policy replaces the random one in the playouts."""
    calls: list[int] = []

    def all_in(m: Match, seat: int, rng: random.Random) -> Action:
        calls.append(seat)
        return m.legal_actions(seat)[-1]

    m = _mid_bidding(3, 4)
    seat = m.to_act()[0]
    search.choose(m, seat, random.Random(1), ITERATIONS, policy=all_in)
    assert calls


def test_a_title_root_hook_sets_the_moves_searched() -> None:
    """The root hook's actions are the only ones searched: the search picks among them, whatever the playouts say
    of the others (a title keeps an undo out of the root this way)."""
    m = _mid_bidding(3, 4)
    seat = m.to_act()[0]
    legal = m.legal_actions(seat)
    assert len(legal) > 2
    for kept in ([legal[0]], legal[-2:]):
        def root(world: Match, s: int, kept: list[Action] = kept) -> list[Action]:
            return [a for a in world.legal_actions(s) if a in kept]

        level = search.search_level(root=root)
        for n in range(5):
            assert level.choose(m, seat, random.Random(n), ITERATIONS) in kept
