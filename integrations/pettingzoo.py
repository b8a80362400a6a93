"""A PettingZoo AEC environment for any title that provides the encoded contract (`pip install firebreak[rl]`).

    env = FirebreakEnv(title_id, seats=3)
    env.reset(seed=42)                      # the match seed is 42: the same match the service sets up from it
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Agents are "player_0".."player_{seats-1}" (seat numbers). An observation is a dict: "observation" (the title's
encoding for that seat, float32 in a Box of 0..OBSERVATION_HIGH) and "action_mask" (int8, one per action id of
Title.action_space(); all zeros for an agent that owes no decision). The service's automated steps (system_due(),
e.g. a 2-player non-player turn) run inside step() and reset(). Rewards come only at the end: by default each
agent's share of the win (winners split 1), or its final score with reward="score". reset() without a seed plays
the next seed (the last one plus one; a random one at first).
"""

from __future__ import annotations

import json
import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from firebreak.domain.contract import OBSERVATION_HIGH, EncodedMatch, EncodedTitle
from firebreak.integrations.common import acting_seat, encoded_title, final_scores, run_system_steps, win_shares

REWARDS = ("win", "score")
RENDER_MODES = ("ansi",)


def agent_name(seat: int) -> str:
    """The agent name of a seat."""
    return f"player_{seat}"


class FirebreakEnv(AECEnv):
    """A match of an encoded title as an AEC environment: one agent per seat, the acting seat's turn at a time."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES), "name": "firebreak_v0",
                                          "is_parallelizable": False}

    def __init__(self, title_id: str, seats: int, options: dict[str, Any] | None = None,
                 reward: str = "win", render_mode: str | None = None) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None or one of {', '.join(RENDER_MODES)}")
        self.title: EncodedTitle = encoded_title(title_id)
        self.options = self.title.check_options(seats, options)
        self.seats = seats
        self.reward = reward
        self.render_mode = render_mode
        self.possible_agents = [agent_name(seat) for seat in range(seats)]
        self.agents: list[str] = []
        self.n_actions = len(self.title.action_space())
        size = self.title.observation_size(seats)
        box = spaces.Box(0, OBSERVATION_HIGH, shape=(size,), dtype=np.float32)
        mask = spaces.Box(0, 1, shape=(self.n_actions,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.n_actions) for a in self.possible_agents}
        self.match: EncodedMatch | None = None
        self.next_seed: int | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space: Discrete over the title's action ids."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new match from the seed (None: the next seed); options here are ignored (set them at
        construction, as the title checks them for the seat count)."""
        if seed is None:
            seed = random.SystemRandom().getrandbits(62) if self.next_seed is None else self.next_seed
        self.next_seed = seed + 1
        self.match = self.title.new_match(self.seats, seed, self.options)
        run_system_steps(self.match)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        """Point agent_selection at the seat owing the decision, or mark every agent terminated at the end."""
        assert self.match is not None
        seat = acting_seat(self.match)
        if seat is not None:
            self.agent_selection = agent_name(seat)
            return
        payoffs = win_shares(self.match) if self.reward == "win" else final_scores(self.match)
        for seat_ in range(self.seats):
            name = agent_name(seat_)
            self.rewards[name] = payoffs[seat_]
            self.terminations[name] = True
        self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        """The agent's observation and its action mask."""
        assert self.match is not None
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.n_actions, dtype=np.int8)
        mask[self.match.legal_action_ids(seat)] = 1
        return {"observation": np.asarray(self.match.observation(seat), dtype=np.float32), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action id (None for an agent already done), then any automated steps."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.match is not None and action is not None
        self.match.apply_id(self.possible_agents.index(agent), int(action))
        run_system_steps(self.match)
        self._cumulative_rewards[agent] = 0.0
        for name in self.agents:
            self.rewards[name] = 0.0
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The spectator's view as JSON text (render_mode "ansi"); None otherwise."""
        if self.render_mode != "ansi" or self.match is None:
            return None
        return json.dumps(self.match.view(None), sort_keys=True)

    def close(self) -> None:
        """Nothing to release."""
        self.match = None
