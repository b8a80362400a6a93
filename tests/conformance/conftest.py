"""Parametrize the conformance tests over every case, and register the reference title while they run."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from domain import titles
from tests.conformance.support import cases, seed_count, titles_under_test
from tests.titles.blind_auction import BLIND_AUCTION


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test taking "case" runs once per title, seat count and seed; one taking "title" once per title."""
    if "case" in metafunc.fixturenames:
        all_cases = cases(seed_count(metafunc.config))
        metafunc.parametrize("case", all_cases, ids=[str(c) for c in all_cases])
    if "title" in metafunc.fixturenames:
        every = titles_under_test()
        metafunc.parametrize("title", every, ids=[t.id for t in every])


@pytest.fixture(scope="package", autouse=True)
def reference_title() -> Iterator[None]:
    """Blind Auction is in the registry while the conformance tests run, and gone afterwards (the shipped
    registry is unchanged for the other tests)."""
    if BLIND_AUCTION.id in {t.id for t in titles.all_titles()}:
        yield
        return
    titles.register(BLIND_AUCTION)
    yield
    titles.unregister(BLIND_AUCTION.id)
