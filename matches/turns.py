"""Since when each seat to act has owed its decision: the version of the step that handed it its turn, kept in the
match's meta (field "turns"), so that the players' index (matches/mine.py) announces every turn once (yourTurn)
whichever rows of two steps are written first: a worker's step (the 2-player non-player turn, a bot's) often
commits, and writes its rows, before the API has written the rows of the step before it, whose rows are then
older than the stored ones and are not written.

A step hands a seat a turn when the seat is among the seats to act after it and was not before it, or when the
step was not the seat's own (another seat's action, the service's non-player step): the rules moved on and wait
for it again. A seat's own action that leaves it to act goes on with the same turn; so do the service's steps that
change no game state (a resignation, a reclaimed seat), which write no new field.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

FIELD = "turns"  # the meta field: {"<seat>": version, ...} for each seat to act


def started(meta: Mapping[str, str]) -> dict[int, int]:
    """The version whose step handed each seat to act its present turn (a seat missing: the match's start, or a
    match stored before the field, taken as version 0)."""
    raw = meta.get(FIELD)
    return {} if not raw else {int(seat): int(version) for seat, version in json.loads(raw).items()}


def since(meta: Mapping[str, str], seat: int) -> int:
    """The version whose step handed the seat its present turn (0: the start, or not recorded)."""
    return started(meta).get(seat, 0)


def after_step(meta: Mapping[str, str], before: Iterable[int], after: Iterable[int], actor: int | None,
               version: int) -> dict[str, str]:
    """The meta field after a step to `version` (before, after: the seats to act around it; actor: the seat whose
    action it applied, None for the service's non-player step)."""
    old, was = started(meta), set(before)
    turns = {seat: old.get(seat, 0) if seat in was and seat == actor else version for seat in after}
    return {FIELD: json.dumps({str(seat): v for seat, v in turns.items()}, separators=(",", ":"))}
