"""The bots' thinking budget: read from the environment by the workers (workers/budget.py), refused by name."""

from __future__ import annotations

import pytest

from firebreak.domain.contract import Budget
from firebreak.workers.budget import budget_from_env


def test_budget_from_the_environment() -> None:
    """FIREBREAK_SEARCH_SECONDS / _ITERATIONS set the budget; neither: the default."""
    assert budget_from_env({}) == Budget()
    assert budget_from_env({"FIREBREAK_SEARCH_SECONDS": "0.05"}) == Budget(seconds=0.05)
    both = {"FIREBREAK_SEARCH_SECONDS": "0.05", "FIREBREAK_SEARCH_ITERATIONS": "30"}
    assert budget_from_env(both) == Budget(seconds=0.05, iterations=30)
    assert budget_from_env({"FIREBREAK_SEARCH_ITERATIONS": "30"}) == Budget(seconds=None, iterations=30)
    with pytest.raises(ValueError):
        Budget(seconds=None, iterations=None)


@pytest.mark.parametrize(("name", "value"), [
    ("FIREBREAK_SEARCH_SECONDS", "fast"), ("FIREBREAK_SEARCH_SECONDS", "0"), ("FIREBREAK_SEARCH_SECONDS", "-1"),
    ("FIREBREAK_SEARCH_SECONDS", "inf"), ("FIREBREAK_SEARCH_SECONDS", "nan"), ("FIREBREAK_SEARCH_ITERATIONS", "2.5"),
    ("FIREBREAK_SEARCH_ITERATIONS", "-3"), ("FIREBREAK_SEARCH_ITERATIONS", "many"),
])
def test_an_unusable_budget_is_refused_by_name(name: str, value: str) -> None:
    """A bad setting is a clear error naming the variable (a worker refuses to start), never a silent default."""
    with pytest.raises(ValueError, match=name):
        budget_from_env({name: value})
