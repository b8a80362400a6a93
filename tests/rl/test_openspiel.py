"""The OpenSpiel game of every encoded title passes OpenSpiel's random_sim_test; resampling keeps the infostate."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from firebreak.domain.contract import EncodedTitle  # noqa: E402
from firebreak.domain.titles import encoded_titles  # noqa: E402
from firebreak.integrations.openspiel import SEEDS, register, register_all, short_name  # noqa: E402

CASES = [(title, seats) for title in encoded_titles() for seats in range(title.min_seats, title.max_seats + 1)]


def _case_id(case: tuple[EncodedTitle, int]) -> str:
    return f"{case[0].id}-{case[1]}"


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_random_sim_test_passes(case: tuple[EncodedTitle, int]) -> None:
    title, seats = case
    game = pyspiel.load_game(register(title.id), {"players": seats})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_register_all_names_every_encoded_title_once() -> None:
    names = register_all()
    assert names == [short_name(t.id) for t in encoded_titles()]
    assert register_all() == names
    assert set(names) <= set(pyspiel.registered_names())


def _after_seed(game: object, seed: int) -> object:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    assert state.is_chance_node() and len(state.chance_outcomes()) == SEEDS
    state.apply_action(seed)
    return state


@pytest.mark.parametrize("title", encoded_titles(), ids=lambda t: t.id)
def test_the_chance_outcome_is_the_match_seed(title: EncodedTitle) -> None:
    seats = title.min_seats
    game = pyspiel.load_game(register(title.id), {"players": seats})
    state = _after_seed(game, 42)
    match = title.new_match(seats, 42)
    while match.system_due():
        match.run_system_step()
    seat = match.to_act()[0]
    assert state.current_player() == seat
    assert state.legal_actions() == match.legal_action_ids(seat)
    assert state.observation_tensor(seat) == [float(x) for x in match.observation(seat)]


@pytest.mark.parametrize("title", encoded_titles(), ids=lambda t: t.id)
def test_resample_from_infostate_keeps_what_the_player_knows(title: EncodedTitle) -> None:
    """Through the title's resample hook: same information state, observation and player to act."""
    seats = title.max_seats
    game = pyspiel.load_game(register(title.id), {"players": seats})
    state = _after_seed(game, 5)
    rng = random.Random(5)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    steps = checked = 0
    while not state.is_terminal():
        if steps % 25 == 0:
            for player in range(seats):
                try:
                    other = state.resample_from_infostate(player, sampler)
                except ValueError:  # the title's hook refuses some phases (Great Fire: a redeal offer)
                    continue
                assert other.information_state_string(player) == state.information_state_string(player)
                assert other.observation_tensor(player) == state.observation_tensor(player)
                assert other.current_player() == state.current_player()
                checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    assert checked >= seats * (steps // 25 - 1)
    assert sum(state.returns()) == pytest.approx(1.0)


def test_options_are_game_parameters() -> None:
    game = pyspiel.load_game(register("greatfire"), {"players": 2, "hiddenColours": True, "npcTies": "random"})
    state = _after_seed(game, 3)
    view = state.information_state_string(0)
    assert '"hiddenColours": true' in view and '"npcTies": "random"' in view
    assert game.num_players() == 2 and game.num_distinct_actions() == 1083
