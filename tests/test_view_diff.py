"""api.view_diff: applying the patch (with the jsonpatch package, an independent RFC 6902 implementation) to the old
document gives the new one, type for type; and api.snapshots.ViewTrail: a subscription's patches chain."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import jsonpatch
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from firebreak.api.snapshots import ViewTrail
from firebreak.api.view_diff import diff, pointer_token
from firebreak.domain import titles
from firebreak.domain.bots import random_bot

KEYS = st.text(alphabet="ab~/0-", max_size=3)  # JSON Pointer's two escapes, digits and "-" (array syntax) included
SCALARS = st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-3, 3, allow_nan=False) | st.text("xy", max_size=2)
DOCS = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(KEYS, inner, max_size=4),
                    max_leaves=30)


def text(doc: Any) -> str:
    """A document as JSON text, keys sorted: equal texts are equal documents, type for type (true is not 1)."""
    return json.dumps(doc, sort_keys=True)


def patched(old: Any, new: Any) -> Any:
    """old after diff(old, new), applied by jsonpatch through JSON text (what a client receives)."""
    ops = json.loads(json.dumps(diff(old, new)))
    return jsonpatch.apply_patch(copy.deepcopy(old), ops)


@st.composite
def edited(draw: st.DrawFn) -> tuple[Any, Any]:
    """A document and a copy with a few edits: values replaced, keys and elements added and removed (random
    pairs share little; views differ a little from step to step)."""
    old = draw(DOCS)
    new = copy.deepcopy(old)
    for _ in range(draw(st.integers(1, 4))):
        parent: Any = None
        node = new
        while isinstance(node, dict | list) and node and draw(st.booleans()):
            parent = node
            node = node[draw(st.sampled_from(list(node) if isinstance(node, dict) else range(len(node))))]
        target = node if isinstance(node, dict | list) else parent
        if target is None:
            new = draw(DOCS)
        elif isinstance(target, dict):
            if target and draw(st.booleans()):
                del target[draw(st.sampled_from(list(target)))]
            else:
                target[draw(KEYS)] = draw(DOCS)
        elif target and draw(st.booleans()):
            target.pop(draw(st.integers(0, len(target) - 1)))
        else:
            target.insert(draw(st.integers(0, len(target))), draw(DOCS))
    return old, new


@settings(max_examples=400, deadline=None)
@given(DOCS, DOCS)
@example([0.0], [-0.0])  # equal in Python, not in JSON text (found by this test)
def test_a_patch_between_random_documents_gives_the_target(old: Any, new: Any) -> None:
    before = text(old)
    assert text(patched(old, new)) == text(new)
    assert text(old) == before, "diffing changed its input"


@settings(max_examples=400, deadline=None)
@given(edited())
def test_a_patch_between_near_documents_gives_the_target(pair: tuple[Any, Any]) -> None:
    old, new = pair
    assert text(patched(old, new)) == text(new)


@given(DOCS)
def test_a_document_against_itself_is_an_empty_patch(doc: Any) -> None:
    assert diff(doc, copy.deepcopy(doc)) == []


def test_a_card_leaving_or_entering_a_list_anywhere_is_one_op() -> None:
    hand = [f"card-{n}" for n in range(10)]
    assert diff({"hand": hand}, {"hand": hand[:4] + hand[5:]}) == [{"op": "remove", "path": "/hand/4"}]
    assert diff({"hand": hand}, {"hand": [*hand[:7], "new", *hand[7:]]}) == [
        {"op": "add", "path": "/hand/7", "value": "new"}]
    assert diff({"hand": hand}, {"hand": hand[1:]}) == [{"op": "remove", "path": "/hand/0"}]


def test_types_are_strict_and_keys_are_escaped() -> None:
    assert diff([1, True, 2], [True, 1, 2.0]) == [{"op": "replace", "path": "/0", "value": True},
                                                  {"op": "replace", "path": "/1", "value": 1},
                                                  {"op": "replace", "path": "/2", "value": 2.0}]
    assert pointer_token("a/b~c") == "a~1b~0c"
    assert diff({"a/b~c": 1}, {"a/b~c": 2}) == [{"op": "replace", "path": "/a~1b~0c", "value": 2}]
    assert diff(1, "x") == [{"op": "replace", "path": "", "value": "x"}]
    assert diff({"x": [0.0]}, {"x": [-0.0]}) == [{"op": "replace", "path": "/x/0", "value": -0.0}]
    assert diff(float("nan"), float("nan")) == []


def test_a_trail_starts_with_the_whole_view_then_shares_each_patch_per_base_version() -> None:
    views = {3: {"version": 3, "hand": ["a", "b"]}, 4: {"version": 4, "hand": ["b"]}}
    caches: dict[int, dict[str, Any]] = {3: {}, 4: {}}
    first, second = ViewTrail(), ViewTrail()
    assert first.advance(3, views[3], caches[3]) == [{"op": "replace", "path": "", "value": views[3]}]
    assert first.advance(3, views[3], caches[3]) == [{"op": "replace", "path": "", "value": views[3]}]
    second.advance(3, views[3], caches[3])
    patch = first.advance(4, views[4], caches[4])
    assert patch == [{"op": "replace", "path": "/version", "value": 4}, {"op": "remove", "path": "/hand/0"}]
    assert second.advance(4, views[4], caches[4]) is patch  # computed once for both subscribers
    assert first.advance(4, views[4], caches[4]) is patch  # the same step asked again: the same answer
    assert jsonpatch.apply_patch(views[3], patch) == views[4]


@pytest.mark.parametrize("title_id", [t.id for t in titles.all_titles()])
def test_a_seat_and_a_spectator_keep_a_whole_random_match_s_view_from_patches(title_id: str) -> None:
    """Each viewer's view after every step equals its view before it patched with the step's diff (both titles'
    views: nested objects, hands and displays that grow and shrink)."""
    match = titles.get(title_id).new_match(seats=3, seed=5)
    rng = random.Random(5)
    viewers: list[int | None] = [None, 1]
    before = {viewer: match.view(viewer) for viewer in viewers}
    copies = {viewer: copy.deepcopy(view) for viewer, view in before.items()}
    steps = 0
    while not match.is_over():
        if match.system_due():
            match.run_system_step()
        else:
            seat = match.to_act()[0]
            match.apply(seat, random_bot(match, seat, rng))
        steps += 1
        for viewer in viewers:
            view = match.view(viewer)
            ops = json.loads(json.dumps(diff(before[viewer], view)))
            assert ops, "a step that changed nothing in a view (its version at least changes)"
            copies[viewer] = jsonpatch.apply_patch(copies[viewer], ops, in_place=True)
            assert text(copies[viewer]) == text(view), f"{title_id} step {steps}, viewer {viewer}"
            before[viewer] = view
    assert steps > 100
