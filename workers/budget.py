"""The bots' thinking budget, read from the environment by the workers and passed to the pipeline.

FIREBREAK_SEARCH_SECONDS (default 0.4) and/or FIREBREAK_SEARCH_ITERATIONS (deterministic; with both set,
whichever runs out first) bound each decision of a searching bot level of any title.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping

from firebreak.domain.contract import Budget

ENV_SECONDS = "FIREBREAK_SEARCH_SECONDS"
ENV_ITERATIONS = "FIREBREAK_SEARCH_ITERATIONS"


def budget_from_env(environ: Mapping[str, str] | None = None) -> Budget:
    """The budget of one bot decision; raise ValueError naming the variable when a value is not a positive number
    (workers check at start)."""
    env = os.environ if environ is None else environ
    seconds = _positive(env, ENV_SECONDS)
    iterations = _positive(env, ENV_ITERATIONS)
    if iterations is not None:
        if not iterations.is_integer():
            raise ValueError(f"{ENV_ITERATIONS} must be a whole number, not {iterations}")
        return Budget(seconds=seconds, iterations=int(iterations))
    return Budget() if seconds is None else Budget(seconds=seconds)


def _positive(env: Mapping[str, str], name: str) -> float | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise ValueError(f"{name} must be a positive number, not {raw!r}")
    return value
