"""Great Fire's encoded contract: the stable action space, action ids, and the per-seat observation (R18)."""

from __future__ import annotations

import random

import pytest

from firebreak.domain import titles
from firebreak.domain.contract import OBSERVATION_HIGH
from firebreak.domain.greatfire.actions import MAX_PAWNS
from firebreak.domain.greatfire.components import CARDS, TOKEN_KINDS
from firebreak.domain.greatfire.encoding import observation_size, shipped_layout
from firebreak.domain.greatfire.match import GreatFireMatch
from firebreak.domain.greatfire.state import Phase
from tests.greatfire.positions import blank, scrambled

TITLE = titles.get("greatfire")


def _match(seats: int, seed: int, **options: object) -> GreatFireMatch:
    m = TITLE.new_match(seats, seed, dict(options))
    assert isinstance(m, GreatFireMatch)
    return m


def _step(m: GreatFireMatch, rng: random.Random) -> None:
    """One random decision by id, then the automated steps."""
    seat = m.to_act()[0]
    m.apply_id(seat, rng.choice(m.legal_action_ids(seat)))
    while m.system_due():
        m.run_system_step()


def test_action_space_is_the_documented_order_over_the_shipped_data() -> None:
    space = TITLE.action_space()
    board = TITLE.board()
    districts = [d["id"] for d in board["districts"]]
    n, links = len(districts), len(board["links"])
    assert len(space) == 2 + 8 * n + MAX_PAWNS * n + 2 * links + 2 * len(CARDS) + 3 == 1083
    assert space[:2] == [{"type": "keepHand"}, {"type": "redeal"}]
    assert space[2] == {"type": "placeBand", "district": districts[0]}
    assert space[2 + n] == {"type": "placePawn", "district": districts[0]}
    assert space[2 + 2 * n:2 + 2 * n + 4] == [{"type": "playCard", "card": c} for c in CARDS]
    assert space[-1] == {"type": "endActions"}
    assert space[-1 - n] == {"type": "demolish", "district": districts[0]}
    assert len({tuple(sorted(a.items())) for a in space}) == len(space)


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_ids_list_exactly_the_legal_actions_and_apply_id_is_apply(seats: int) -> None:
    """Twins: one plays by id, the other by the same action's JSON; they stay equal to the end."""
    space = TITLE.action_space()
    by_id, by_json = _match(seats, 30 + seats, hiddenColours=seats % 2 == 0), None
    by_json = by_id.clone()
    rng = random.Random(seats)
    size = TITLE.observation_size(seats)
    while not by_id.is_over():
        seat = by_id.to_act()[0]
        ids = by_id.legal_action_ids(seat)
        assert ids == sorted(space.index(a) for a in by_id.legal_actions(seat))
        for other in range(seats):
            if other != seat:
                assert by_id.legal_action_ids(other) == []
            obs = by_id.observation(other)
            assert len(obs) == size
            assert all(isinstance(x, int) and 0 <= x <= OBSERVATION_HIGH for x in obs)
        choice = rng.choice(ids)
        assert by_id.apply_id(seat, choice) == by_json.apply(seat, space[choice])
        while by_id.system_due():
            assert by_id.run_system_step() == by_json.run_system_step()
        assert by_id.to_dict() == by_json.to_dict()
    assert by_id.legal_action_ids(0) == []
    assert len(by_id.observation(0)) == size


@pytest.mark.parametrize(("seats", "hidden"), [(2, False), (2, True), (4, False), (5, True)])
def test_r18_observation_hides_what_the_view_hides(seats: int, hidden: bool) -> None:
    """A copy differing in everything the seat may not see (other hands, objectives, held tokens, hidden
    colours, deck order, face-down tokens, generator) and a resampled copy both give the seat the same
    observation, all along a match."""
    m = _match(seats, 70 + seats, hiddenColours=hidden)
    rng = random.Random(seats)
    steps = 0
    while not m.is_over():
        if steps % 9 == 0:
            for seat in range(seats):
                assert scrambled(m, seat).observation(seat) == m.observation(seat)
                assert m.resample(seat, random.Random(steps)).observation(seat) == m.observation(seat)
        _step(m, rng)
        steps += 1


def test_r18_observation_shows_the_seats_own_secrets() -> None:
    """The observer's hand and tokens (by kind) close its observation in a game of 3+; another seat's do not."""
    m = blank(4)
    m.hands[1] = ["N", "N", "W", "E", "E"]
    m.tokens[1] = ["victoryPoint", "demolition", "victoryPoint"]
    tail = len(CARDS) + len(TOKEN_KINDS)
    assert m.observation(1)[-tail:] == [2, 2, 0, 1, 1, 0, 2]
    assert m.observation(2)[-tail:] == [m.hands[2].count(c) for c in CARDS] + [0, 0, 0]


def test_observation_size_per_seat_count() -> None:
    sizes = [TITLE.observation_size(seats) for seats in range(2, 7)]
    assert sizes == [observation_size(seats) for seats in range(2, 7)]
    assert sizes[1:] == sorted(sizes[1:]) and len(set(sizes)) == 5


@pytest.mark.parametrize("seats", [2, 4])
def test_r18_tokens_stay_a_count_in_a_finished_view(seats: int) -> None:
    """At the end everything is revealed, but players[].tokens is still the count; the kinds are in
    tokenKinds (the web client and the observation read the count at every phase)."""
    m = _match(seats, 90 + seats)
    rng = random.Random(1)
    while not m.is_over():
        _step(m, rng)
    assert m.phase is Phase.OVER
    m.tokens[0] = ["victoryPoint", "demolition"]
    for viewer in (None, 0):
        for row in m.view(viewer)["players"]:
            assert row["tokens"] == len(m.tokens[row["seat"]])
            assert row["tokenKinds"] == sorted(m.tokens[row["seat"]])


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_each_piece_of_the_observation_fills_its_declared_size_and_is_never_clipped(seats: int) -> None:
    """The pieces' sizes add up to observation_size, and every number a piece fills is already 0-255 (so the
    layout need not clip), all along a match."""
    m = _match(seats, 50 + seats, hiddenColours=seats % 2 == 1)
    layout = shipped_layout()
    rng = random.Random(seats)
    sizes = [piece.size(seats) for piece in layout.pieces]
    assert sum(sizes) == layout.size(seats) == TITLE.observation_size(seats)
    while True:
        for seat in range(seats):
            filled = [piece.fill(m, seat) for piece in layout.pieces]
            assert [len(f) for f in filled] == sizes
            raw = [x for f in filled for x in f]
            assert all(0 <= x <= OBSERVATION_HIGH for x in raw) and raw == m.observation(seat)
        if m.is_over():
            break
        _step(m, rng)
