"""London's encoded contract: the stable action space, action ids, and the per-seat observation (L18)."""

from __future__ import annotations

import random

import pytest

from firebreak.domain import titles
from firebreak.domain.contract import OBSERVATION_HIGH
from firebreak.domain.london.data import shipped_catalogue
from firebreak.domain.london.encoding import PHASES, observation_size, shipped_layout
from firebreak.domain.london.match import LondonMatch
from firebreak.domain.london.state import Phase
from firebreak.domain.rng import Rng
from tests.london.positions import build, cid, new, set_hand

TITLE = titles.get("london")
CAT = shipped_catalogue()
CARDS, BOROUGHS = list(CAT.cards), list(CAT.boroughs)
N = len(CARDS)
STAGED = len(PHASES) + 4 + 3 * N + len(BOROUGHS) + 3  # the observer's staged decision closes the observation


def _match(seats: int, seed: int) -> LondonMatch:
    m = TITLE.new_match(seats, seed)
    assert isinstance(m, LondonMatch)
    return m


def _step(m: LondonMatch, rng: random.Random) -> None:
    """One random decision by id."""
    seat = m.to_act()[0]
    m.apply_id(seat, rng.choice(m.legal_action_ids(seat)))


def test_action_space_is_the_documented_order_over_the_catalogue() -> None:
    space = TITLE.action_space()
    cap = CAT.stack_cap
    assert cap == sum(1 for c in CAT.cards.values() if c.kind == "city") == 86
    assert len(space) == 5 * N + len(BOROUGHS) + cap + 13 == 624
    assert space[:4] == [{"type": "repayLoan"}, {"type": "takeLoan"}, {"type": "drawDeck"},
                         {"type": "drawBoard", "card": CARDS[0]}]
    assert space[3 + N:6 + N] == [{"type": "skipDraw"}, {"type": "develop"},
                                  {"type": "buyLand", "borough": BOROUGHS[0]}]
    assert {"type": "placeOn", "stack": cap - 1} in space and {"type": "placeOn", "stack": cap} not in space
    assert space[-2:] == [{"type": "flip", "card": CARDS[-1]}, {"type": "endRun"}]
    kinds = {a["type"] for a in space}
    schema_kinds = {d["title"] for d in TITLE.schemas()["action"]["$defs"].values() if "title" in d}
    assert kinds == schema_kinds and len(kinds) == 20


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_ids_list_exactly_the_legal_actions_and_apply_id_is_apply(seats: int) -> None:
    """Twins over a whole random game: one plays by id, the other by the same action's JSON; every listed
    action has an id, and no seat ever has more stacks than the cap (each holds a city card)."""
    space = TITLE.action_space()
    by_id = _match(seats, 40 + seats)
    by_json = by_id.clone()
    rng = random.Random(seats)
    size = TITLE.observation_size(seats)
    most = 0
    while not by_id.is_over():
        seat = by_id.to_act()[0]
        ids = by_id.legal_action_ids(seat)
        assert ids == sorted(space.index(a) for a in by_id.legal_actions(seat))
        for other in range(seats):
            if other != seat:
                assert by_id.legal_action_ids(other) == []
            obs = by_id.observation(other)
            assert len(obs) == size
            assert all(type(x) is int and 0 <= x <= OBSERVATION_HIGH for x in obs)
            assert all(CAT.cards[c].buildable for stack in by_id.stacks[other] for c in stack)
            most = max(most, len(by_id.stacks[other]))
        choice = rng.choice(ids)
        assert by_id.apply_id(seat, choice) == by_json.apply(seat, space[choice])
        assert by_id.to_dict() == by_json.to_dict()
    assert 0 < most <= CAT.stack_cap
    assert by_id.legal_action_ids(0) == []
    assert len(by_id.observation(0)) == size


def _scrambled(m: LondonMatch, seat: int, rng: random.Random) -> LondonMatch:
    """A copy differing only in facts hidden from the seat: the deck order within each letter, the borough deck
    order and the generator (resample redraws the rest)."""
    other = m.clone()
    for letter in "ABC":
        slots = [i for i, c in enumerate(other.deck) if other.card(c).deck == letter]
        cards = [other.deck[i] for i in slots]
        rng.shuffle(cards)
        for i, c in zip(slots, cards, strict=True):
            other.deck[i] = c
    rng.shuffle(other.borough_deck)
    other.rng = Rng(rng.getrandbits(64))
    return other


@pytest.mark.parametrize("seats", [2, 4])
def test_l18_observation_hides_what_the_view_hides(seats: int) -> None:
    """Copies differing in what the seat may not see (others' unknown hands, covered and face-down cards, deck
    and borough deck order, generator) give the seat the same observation, all along a match; the seat's own
    view is the same in each copy (so the copies really differ only in hidden facts)."""
    m = _match(seats, 70 + seats)
    rng = random.Random(seats)
    steps, differed = 0, 0
    while not m.is_over():
        if steps % 40 == 0:
            for seat in range(seats):
                for other in (m.resample(seat, random.Random(steps)), _scrambled(m, seat, random.Random(steps))):
                    assert other.view(seat) == m.view(seat)
                    assert other.observation(seat) == m.observation(seat)
                    differed += other.to_dict() != m.to_dict()
        _step(m, rng)
        steps += 1
    assert differed > 0


def test_l18_what_another_seat_is_staging_stays_out_of_the_observation() -> None:
    """While seat 0 stages a play (its card and discard chosen), seat 1 sees the step "develop" only: a copy where
    seat 0 has staged nothing yet gives seat 1 the same view and observation, but not seat 0."""
    m = _match(3, 11)
    rng = random.Random(3)
    while m.phase not in (Phase.PLACE, Phase.PAY) or m.pending is None or m.pending["for"] != "play":
        _step(m, rng)
    staging = m.turn
    copy = m.clone()
    copy.phase, copy.pending = Phase.DEVELOP, None
    for seat in range(3):
        if seat != staging:
            assert copy.view(seat) == m.view(seat)
            assert copy.observation(seat) == m.observation(seat)
    assert copy.observation(staging) != m.observation(staging)


def test_l18_observation_shows_the_seats_own_hand_and_city_but_not_others() -> None:
    """The observer's hand is counted per card; its covered and face-down cards are placed; another seat's
    covered and face-down cards are not, only counted."""
    m = new(3)
    hand = [cid("Paupers", 1), cid("Paupers", 2), cid("Vintners", 1)]
    set_hand(m, 1, *hand)
    stacks = [[cid("Coffee House", 1), cid("Market", 1)], [cid("Brewery", 1)]]
    build(m, 1, *stacks, down=(cid("Brewery", 1),))
    own_hand = m.observation(1)[-STAGED - N:-STAGED]
    assert sum(own_hand) == 3 and [CARDS[i] for i, k in enumerate(own_hand) if k] == sorted(hand, key=CARDS.index)
    mine, theirs = m.observation(1), m.observation(0)
    assert mine != m.observation(2)
    coffee, market, brewery = (CARDS.index(c) for c in (cid("Coffee House", 1), cid("Market", 1), cid("Brewery", 1)))

    def city(obs: list[int], rel: int) -> tuple[list[int], list[int]]:
        start = len(obs) - STAGED - N - (3 - rel) * (10 + 3 * N + 2 * len(BOROUGHS)) + 10 + N
        return obs[start:start + N], obs[start + N:start + 2 * N]

    where, place = city(mine, 0)
    assert (where[coffee], where[market], where[brewery]) == (1, 1, 2)
    assert (place[coffee], place[market], place[brewery]) == (3, 1, 2)
    where, place = city(theirs, 1)
    assert (where[coffee], where[market], where[brewery]) == (0, 1, 0)
    assert (place[coffee], place[market], place[brewery]) == (0, 1, 0)
    for obs, rel in ((mine, 0), (theirs, 1)):
        start = len(obs) - STAGED - N - (3 - rel) * (10 + 3 * N + 2 * len(BOROUGHS))
        assert obs[start + 5:start + 8] == [2, 1, 1]  # stacks, face-down tops, covered cards


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_each_piece_of_the_observation_fills_its_declared_size(seats: int) -> None:
    m = _match(seats, 7)
    rng = random.Random(seats)
    for _ in range(60):
        _step(m, rng)
    layout = shipped_layout()
    for seat in range(seats):
        filled = [len(piece.fill(m, seat)) for piece in layout.pieces]
        assert filled == [piece.size(seats) for piece in layout.pieces]
    assert layout.size(seats) == TITLE.observation_size(seats) == len(m.observation(0))


def test_observation_size_per_seat_count() -> None:
    sizes = [TITLE.observation_size(seats) for seats in (2, 3, 4)]
    assert sizes == [observation_size(seats) for seats in (2, 3, 4)]
    assert sizes == sorted(sizes) and len(set(sizes)) == 3


def test_numbers_are_clipped_to_the_contract_range() -> None:
    """Money above 255 reads 255 and a negative prestige reads 0 (the contract's 0-255)."""
    m = new(2)
    m.money[0], m.prestige_land[1], m.prestige_play[1] = 400, -3, 0
    obs = m.observation(0)
    row = len(obs) - STAGED - N - 2 * (10 + 3 * N + 2 * len(BOROUGHS))
    assert obs[row] == OBSERVATION_HIGH
    assert obs[row + 10 + 3 * N + 2 * len(BOROUGHS) + 3] == 0
    m.prestige_land[1] = 7
    assert m.observation(0)[row + 10 + 3 * N + 2 * len(BOROUGHS) + 3] == 7
