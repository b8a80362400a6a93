"""The engine's Python samples run as printed: "Adding a title" (the engine alone) and "Learning environments"
(PettingZoo and OpenSpiel, with the rl extra)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

from tests.docs.samples import ROOT, blocks


def run(source: str) -> subprocess.CompletedProcess[str]:
    """Run a sample in a fresh interpreter of this environment, from the repository's root."""
    return subprocess.run([sys.executable, "-c", source], cwd=ROOT, capture_output=True, text=True, timeout=600,
                          check=False)


def test_the_engine_sample_plays_a_first_action() -> None:
    (sample,) = blocks("docs/guides/adding-a-title.md", "The engine", "python")
    done = run(sample + "\nassert isinstance(events, list) and match.version == 1, (events, match.version)\n")
    assert done.returncode == 0, done.stderr[-2000:]


def test_the_learning_environments_sample_plays_a_game_and_loads_the_openspiel_game() -> None:
    missing = [m for m in ("pettingzoo", "pyspiel") if importlib.util.find_spec(m) is None]
    if missing:
        reason = f"the rl extra is needed ({', '.join(missing)} missing)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(reason + " (in CI it must be there)")
        pytest.skip(reason)
    (sample,) = blocks("docs/guides/learning-environments.md", "Learning environments (PettingZoo, OpenSpiel)",
                       "python")
    check = "\nassert all(env.terminations.values()) and game.num_players() == 4\n"
    done = run(sample + check)
    assert done.returncode == 0, done.stderr[-2000:]
