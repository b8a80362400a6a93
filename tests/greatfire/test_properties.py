"""Property tests: hypothesis picks the seed, the options and every decision; the invariants must hold."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firebreak.domain import titles
from firebreak.domain.errors import RulesError
from firebreak.domain.greatfire.state import TOTAL_CONES

TITLE = titles.get("greatfire")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.integers(3, 6),
    seed=st.integers(-(2**63), 2**63),
    hidden=st.booleans(),
    more=st.booleans(),
    data=st.data(),
)
def test_any_sequence_of_legal_decisions_keeps_the_invariants(
    seats: int, seed: int, hidden: bool, more: bool, data: st.DataObject
) -> None:
    m = TITLE.new_match(seats=seats, seed=seed, options={"hiddenColours": hidden, "moreDestruction": more})
    log = []
    houses = 120
    while not m.is_over():
        (seat,) = m.to_act()
        legal = m.legal_actions(seat)
        action = legal[data.draw(st.integers(0, len(legal) - 1), label="choice")]
        events = m.apply(seat, action)
        log.append((seat, action))
        houses -= sum(sum(e["houses"].values()) for e in events if e["type"] in ("housesBurnt", "demolished"))
        assert sum(map(sum, m.houses)) == houses
        assert m.supply + sum(m.cones) + sum(m.put_out) == TOTAL_CONES
    replay = TITLE.new_match(seats=seats, seed=seed, options={"hiddenColours": hidden, "moreDestruction": more})
    for seat, action in log:
        replay.apply(seat, action)
    assert replay.to_dict() == m.to_dict()
    assert TITLE.match_from_dict(m.to_dict()).result() == m.result()


@settings(max_examples=200, deadline=None)
@given(action=st.one_of(
    st.none(), st.integers(), st.text(), st.lists(st.integers()),
    st.dictionaries(st.text(max_size=12), st.one_of(st.text(max_size=20), st.integers(), st.none()), max_size=4),
))
def test_arbitrary_input_is_refused_with_a_typed_error_and_changes_nothing(action: object) -> None:
    m = TITLE.new_match(seats=4, seed=11)
    seat = m.to_act()[0]
    before = m.to_dict()
    if action in m.legal_actions(seat):
        return
    try:
        m.apply(seat, action)  # type: ignore[arg-type]
    except RulesError:
        pass
    else:
        raise AssertionError(f"{action!r} was accepted")
    assert m.to_dict() == before
