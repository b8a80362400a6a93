"""Learning-environment speed: decisions/s of the PettingZoo env (and the OpenSpiel game) against the raw engine.

Every loop plays the same --games seeds with random legal actions and counts seat decisions only (the automated
steps of a 2-player non-player turn run in all of them but are not counted):
  raw engine   legal_actions + apply (JSON actions), no observation: what the issue measured at 2,765/s
  raw by id    legal_action_ids + apply_id + the acting seat's observation: the floor of any env
  pettingzoo   FirebreakEnv: last() (observation and action mask as numpy) + step(id)
  openspiel    the registered game: legal_actions + observation_tensor + apply_action
The issue's outside adapter ran at 203 decisions/s through the JSON view.

Run: python -m bench.rl [--games 5] [--seats 3] [--title greatfire] (needs `pip install firebreak[rl]`); without
--title it prints one block per encoded title (Great Fire, London).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

from firebreak.domain.contract import EncodedTitle
from firebreak.domain.titles import encoded_titles
from firebreak.integrations.common import encoded_title


def raw_engine(title: EncodedTitle, seats: int, seeds: list[int]) -> int:
    """Random games through the JSON contract; return the seat decisions made."""
    decisions = 0
    for seed in seeds:
        match = title.new_match(seats, seed)
        rng = random.Random(seed)
        while not match.is_over():
            if match.system_due():
                match.run_system_step()
                continue
            seat = match.to_act()[0]
            match.apply(seat, rng.choice(match.legal_actions(seat)))
            decisions += 1
    return decisions


def raw_by_id(title: EncodedTitle, seats: int, seeds: list[int]) -> int:
    """Random games by action id, computing the acting seat's observation each decision."""
    decisions = 0
    for seed in seeds:
        match = title.new_match(seats, seed)
        rng = random.Random(seed)
        while not match.is_over():
            if match.system_due():
                match.run_system_step()
                continue
            seat = match.to_act()[0]
            match.observation(seat)
            match.apply_id(seat, rng.choice(match.legal_action_ids(seat)))
            decisions += 1
    return decisions


def pettingzoo_env(title: EncodedTitle, seats: int, seeds: list[int]) -> int:
    """Random games through the AEC env; return the decisions stepped."""
    from firebreak.integrations.pettingzoo import FirebreakEnv

    env = FirebreakEnv(title.id, seats)
    decisions = 0
    for seed in seeds:
        rng = random.Random(seed)
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            decisions += 1
    return decisions


def openspiel_game(title: EncodedTitle, seats: int, seeds: list[int]) -> int:
    """Random games through the OpenSpiel game (the chance node set to the seed); return the decisions."""
    import pyspiel

    from firebreak.integrations.openspiel import register

    game = pyspiel.load_game(register(title.id), {"players": seats})
    decisions = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        state.apply_action(seed)
        while not state.is_terminal():
            state.observation_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions


LOOPS: dict[str, Callable[[EncodedTitle, int, list[int]], int]] = {
    "raw engine": raw_engine,
    "raw by id": raw_by_id,
    "pettingzoo": pettingzoo_env,
    "openspiel": openspiel_game,
}


def measure(title_id: str, seats: int, games: int) -> dict[str, float]:
    """Decisions per second of each loop over the same seeds."""
    title = encoded_title(title_id)
    seeds = list(range(games))
    rates = {}
    for name, loop in LOOPS.items():
        started = time.perf_counter()
        decisions = loop(title, seats, seeds)
        rates[name] = decisions / (time.perf_counter() - started)
    return rates


def main() -> None:
    """Print each loop's decisions/s and its ratio to the raw engine."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--title", default=None, help="one encoded title (default: every one)")
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--games", type=int, default=5, help="games per loop (seeds 0..games-1)")
    args = parser.parse_args()
    for title_id in [args.title] if args.title else [t.id for t in encoded_titles()]:
        rates = measure(title_id, args.seats, args.games)
        raw = rates["raw engine"]
        print(f"{title_id}, {args.seats} seats, {args.games} random games per loop")
        print("loop          decisions/s  vs raw engine")
        for name, rate in rates.items():
            print(f"{name:<12} {rate:>12.0f} {rate / raw:>14.2f}")


if __name__ == "__main__":
    main()
