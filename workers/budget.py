"""The bots' thinking budget, read from the environment by the workers and passed to the pipeline.

FIREBREAK_SEARCH_SECONDS (default 0.4) and/or FIREBREAK_SEARCH_ITERATIONS (deterministic; with both set,
whichever runs out first) bound each decision of a searching bot level of any title.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from firebreak.domain.contract import Budget
from firebreak.matches.envsettings import EnvSettings, env

ENV_SECONDS = "FIREBREAK_SEARCH_SECONDS"
ENV_ITERATIONS = "FIREBREAK_SEARCH_ITERATIONS"


class BudgetSettings(EnvSettings):
    """How long a searching bot may think over one decision (read by the workers)."""

    section: ClassVar[str] = "Workers: the bots' thinking budget"

    search_seconds: float | None = env(ENV_SECONDS, None,
                                       f"Seconds a searching bot may think over one decision; unset: "
                                       f"{Budget().seconds} unless {ENV_ITERATIONS} alone is set.", gt=0)
    search_iterations: int | None = env(ENV_ITERATIONS, None,
                                        "Search iterations one decision may take (deterministic); with "
                                        f"{ENV_SECONDS} too, whichever runs out first.", gt=0)

    @property
    def budget(self) -> Budget:
        """The budget of one bot decision."""
        if self.search_iterations is not None:
            return Budget(seconds=self.search_seconds, iterations=self.search_iterations)
        return Budget() if self.search_seconds is None else Budget(seconds=self.search_seconds)


def budget_from_env(environ: Mapping[str, str] | None = None) -> Budget:
    """The budget of one bot decision; raise ValueError naming the variable when a value is not a positive number
    (workers check at start)."""
    return BudgetSettings.from_env(environ).budget
