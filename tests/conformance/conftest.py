"""Parametrize the conformance tests over every case, and register the reference title while they run."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from firebreak.domain import titles
from tests.conformance.support import REFERENCE_TITLES, cases, seed_count, titles_under_test


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test taking "case" runs once per title, seat count and seed; one taking "title" once per title."""
    if "case" in metafunc.fixturenames:
        all_cases = cases(seed_count(metafunc.config))
        metafunc.parametrize("case", all_cases, ids=[str(c) for c in all_cases])
    if "title" in metafunc.fixturenames:
        every = titles_under_test()
        metafunc.parametrize("title", every, ids=[t.id for t in every])


@pytest.fixture(scope="package", autouse=True)
def reference_titles() -> Iterator[None]:
    """The reference titles (Blind Auction, tic-tac-toe) are in the registry while the conformance tests run, and
    gone afterwards (the shipped registry is unchanged for the other tests)."""
    known = {t.id for t in titles.all_titles()}
    added = [t for t in REFERENCE_TITLES if t.id not in known]
    for title in added:
        titles.register(title)
    yield
    for title in added:
        titles.unregister(title.id)
