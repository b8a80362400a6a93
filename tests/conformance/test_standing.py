"""A title that ranks an unfinished match (Match.standing, used when a resignation ends a match early) ranks only
the seats it is given, scores every seat, changes nothing, and agrees with its own result once the match is over
(ruling P18)."""

from __future__ import annotations

import random

import pytest

from firebreak.domain.errors import UnknownSeat
from tests.conformance.support import Case, sampled, trace, walk


def test_a_standing_ranks_the_seats_given_at_any_point_and_is_the_result_at_the_end(case: Case) -> None:
    t = trace(case)
    points = sampled(t, 12)
    rng = random.Random(case.seed + 7)
    for k, match, _step in walk(t):
        standing = getattr(match, "standing", None)
        if standing is None:
            pytest.skip(f"{case.title.id} ranks only a finished match")
        if k not in points:
            continue
        before = match.to_dict()
        among = tuple(sorted(rng.sample(range(case.seats), rng.randint(1, case.seats))))
        ranked = standing(among, "ended early")
        if ranked is None:
            pytest.skip(f"{case.title.id} ranks only a finished match")
        assert ranked.reason == "ended early"
        assert sorted(s.seat for s in ranked.scores) == list(range(case.seats)), "every seat is scored"
        assert ranked.winners and set(ranked.winners) <= set(among), (among, ranked.winners)
        best = max(s.total for s in ranked.scores if s.seat in among)
        assert all(s.total == best for s in ranked.scores if s.seat in ranked.winners), "a winner has the best total"
        assert match.to_dict() == before, "ranking a match changes nothing"
        if match.is_over():
            final = match.result()
            assert final is not None
            everyone = standing(tuple(range(case.seats)), final.reason)
            assert (everyone.scores, everyone.winners, everyone.reason) == (final.scores, final.winners, final.reason)
        with pytest.raises(UnknownSeat):
            standing((case.seats,), "no such seat")
