"""The PettingZoo AEC environment passes PettingZoo's own api_test and seed_test for every encoded title."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, seed_test

from firebreak.domain.contract import EncodedTitle
from firebreak.domain.titles import encoded_titles
from firebreak.integrations.pettingzoo import FirebreakEnv

# api_test knows dict observations with an action mask only for PettingZoo's own environments (by name), so it
# warns about them for any other; the chess and go environments use the same layout.
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}

CASES = [(title, seats) for title in encoded_titles() for seats in range(title.min_seats, title.max_seats + 1)]


def _case_id(case: tuple[EncodedTitle, int]) -> str:
    return f"{case[0].id}-{case[1]}"


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_api_and_seed_tests_pass(case: tuple[EncodedTitle, int]) -> None:
    title, seats = case
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(FirebreakEnv(title.id, seats), num_cycles=1000)
        seed_test(lambda: FirebreakEnv(title.id, seats), num_cycles=1000)
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION_WARNINGS


def _play(env: FirebreakEnv, seed: int) -> tuple[list[int], dict[str, float]]:
    """Random legal play to the end; the actions taken and each agent's final reward."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    taken, final = [], {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(action)
        env.step(action)
    return taken, final


@pytest.mark.parametrize("title", encoded_titles(), ids=lambda t: t.id)
def test_the_env_plays_the_services_match_for_its_seed(title: EncodedTitle) -> None:
    """reset(seed=s) plays title.new_match(seats, s): replaying the env's actions there reaches the same end, and
    the rewards are the win shares (default) or the final totals (reward="score")."""
    seats = title.min_seats
    env = FirebreakEnv(title.id, seats)
    taken, final = _play(env, 11)
    match = title.new_match(seats, 11)
    for action in taken:
        while match.system_due():
            match.run_system_step()
        match.apply_id(match.to_act()[0], action)
    while match.system_due():
        match.run_system_step()
    result = match.result()
    assert result is not None
    winners = set(result.winners)
    assert final == {f"player_{s}": (1.0 / len(winners) if s in winners else 0.0) for s in range(seats)}
    _, scores = _play(FirebreakEnv(title.id, seats, reward="score"), 11)
    assert scores == {f"player_{row.seat}": float(row.total) for row in result.scores}


def test_the_acting_agent_alone_has_legal_actions_and_others_see_their_own_observation() -> None:
    env = FirebreakEnv("greatfire", 3)
    env.reset(seed=3)
    acting = env.agent_selection
    for agent in env.agents:
        obs: dict[str, Any] = env.observe(agent)
        assert obs["action_mask"].any() == (agent == acting)
        assert env.observation_space(agent).contains(obs)
    assert env.match is not None
    assert list(env.observe("player_2")["observation"]) == env.match.observation(2)
    env.step(int(np.flatnonzero(env.observe(acting)["action_mask"])[0]))
    env.reset()
    assert env.match is not None and env.match.to_dict()["seed"] == 4  # the next seed


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="reward"):
        FirebreakEnv("greatfire", 3, reward="money")
    with pytest.raises(ValueError, match="render_mode"):
        FirebreakEnv("greatfire", 3, render_mode="human")
