"""What the conformance tests share: the titles under test, seeded random playouts recorded as logs, and a walk
that replays a log step by step.

A case is (title, seat count, seed). Its playout draws options at random from the title's option specs (seed
index 0 plays the defaults), then at each step runs the automated step when one is due, else lets a random seat
among those owing a decision pick a random legal action. The log (None for an automated step, else (seat,
action)) is kept, so every test re-walks the same playout and can stop anywhere to probe a position.
"""

from __future__ import annotations

import functools
import os
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from firebreak.domain import titles
from firebreak.domain.contract import Action, Event, Match, OptionKind, OptionSpec, Title
from firebreak.domain.errors import BadOptions
from tests.titles.blind_auction import BLIND_AUCTION
from tests.titles.tictactoe import TITLE as TIC_TAC_TOE

SEEDS_ENV = "FIREBREAK_CONFORMANCE_SEEDS"
DEFAULT_SEEDS = 2
REFERENCE_TITLES: tuple[Title, ...] = (BLIND_AUCTION, TIC_TAC_TOE)  # registered for the session by conftest
MAX_STEPS = 20_000  # a random playout longer than this is taken to be one that never ends
Step = tuple[int, Action] | None  # None: the service's automated step


def titles_under_test() -> list[Title]:
    """Every registered title, plus the reference titles (registered for the session by conftest)."""
    out = {t.id: t for t in titles.all_titles()}
    for title in REFERENCE_TITLES:
        out.setdefault(title.id, title)
    return [out[k] for k in sorted(out)]


def seed_count(config: pytest.Config) -> int:
    """Seeds per title and seat count: --conformance-seeds, else $FIREBREAK_CONFORMANCE_SEEDS, else 2."""
    given = config.getoption("conformance_seeds", default=None) or os.environ.get(SEEDS_ENV) or DEFAULT_SEEDS
    return max(1, int(given))


@dataclass(frozen=True)
class Case:
    """One playout to check: a title, a seat count and the index of the seed."""

    title: Title
    seats: int
    index: int

    @property
    def seed(self) -> int:
        """The match seed (and the playout's random stream)."""
        return 7919 * self.index + 101 * self.seats + 17

    def __str__(self) -> str:
        return f"{self.title.id}-{self.seats}p-{self.index}"


def cases(count: int) -> list[Case]:
    """Every title at every seat count, count seeds each."""
    return [Case(t, seats, k) for t in titles_under_test() for seats in range(t.min_seats, t.max_seats + 1)
            for k in range(count)]


def applies(spec: OptionSpec, seats: int) -> bool:
    """Whether an option is offered at this seat count."""
    return not spec.seats or seats in spec.seats


def valid_values(spec: OptionSpec, seats: int) -> list[Any]:
    """Every value the spec allows at this seat count (ints: the bounds and a middle value)."""
    values: list[Any]
    if spec.kind is OptionKind.BOOL:
        values = [False, True]
    elif spec.kind is OptionKind.CHOICE:
        values = list(spec.choices)
    else:
        low = 0 if spec.minimum is None else spec.minimum
        high = seats - 1 if spec.maximum is None else spec.maximum
        values = sorted({low, (low + high) // 2, high})
    return [*values, None] if spec.nullable else values


def invalid_values(spec: OptionSpec, seats: int) -> list[Any]:
    """Values the spec refuses at this seat count: wrong types, out of range, unknown choices, null if not nullable."""
    out: list[Any] = [{"nested": 1}, [1]]
    if spec.kind is OptionKind.BOOL:
        out += ["yes", 1, 0]
    elif spec.kind is OptionKind.CHOICE:
        out += ["no-such-choice", 0, True]
    else:
        out += ["1", 1.5, True]
        if spec.minimum is not None:
            out.append(spec.minimum - 1)
        out.append(seats if spec.maximum is None else spec.maximum + 1)
    if not spec.nullable:
        out.append(None)
    return out


def random_options(title: Title, seats: int, rng: random.Random) -> dict[str, Any]:
    """Options drawn from the specs; a combination the title refuses is drawn again (defaults at worst)."""
    specs = [s for s in title.option_specs() if applies(s, seats)]
    for _ in range(20):
        options = {s.name: rng.choice(valid_values(s, seats)) for s in specs}
        try:
            title.check_options(seats, options)
        except BadOptions:
            continue
        return options
    return {}


@dataclass(frozen=True)
class Trace:
    """A recorded playout: how the match was made and every step taken."""

    case: Case
    options: dict[str, Any]
    log: tuple[Step, ...]

    def new_match(self) -> Match:
        """The match at step 0."""
        return self.case.title.new_match(self.case.seats, self.case.seed, dict(self.options))


def take(match: Match, step: Step) -> list[Event]:
    """Play one logged step."""
    if step is None:
        return match.run_system_step()
    return match.apply(step[0], dict(step[1]))


@functools.cache
def trace(case: Case) -> Trace:
    """The case's seeded random playout (recorded once per session)."""
    rng = random.Random(case.seed)
    options = {} if case.index == 0 else random_options(case.title, case.seats, rng)
    match = case.title.new_match(case.seats, case.seed, dict(options))
    log: list[Step] = []
    while not match.is_over():
        assert len(log) < MAX_STEPS, f"{case}: no end after {MAX_STEPS} random steps"
        step: Step = None
        if not match.system_due():
            seat = rng.choice(match.to_act())
            step = (seat, rng.choice(match.legal_actions(seat)))
        take(match, step)
        log.append(step)
    return Trace(case, options, tuple(log))


def walk(t: Trace) -> Iterator[tuple[int, Match, Step]]:
    """Yield (index, match before the step, step) along the playout, then (len(log), the ended match, None); the
    match is advanced after each yield (the caller may probe it, but must leave it as it found it)."""
    match = t.new_match()
    for k, step in enumerate(t.log):
        yield k, match, step
        take(match, step)
    yield len(t.log), match, None


def sampled(t: Trace, count: int) -> set[int]:
    """About count step indices spread over the playout (the first and the end included), more in a short
    playout (whose steps are cheap): count + 400 // steps."""
    rng = random.Random(t.case.seed + 1)
    every = range(len(t.log) + 1)
    return {0, len(t.log), *rng.sample(every, min(count + 400 // len(every), len(every)))}
