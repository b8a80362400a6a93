"""The game-agnostic contract every title implements; the API, the live-match layer and the workers only speak this.

A title is one package under domain/ (registered in domain/titles.py) and one client module under web/titles/.
It provides a Title (what the game is: seats, typed option specs, score columns, its bots, the match factory)
and Match objects (whose decision is pending, legal actions, apply, views, the typed result, resampling of what
a seat cannot see). Values crossing the contract are frozen dataclasses or JSON-able data.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

JSON = Any
Action = dict[str, Any]
Event = dict[str, Any]


class RawJSON:
    """A part of a JSON document already written as compact JSON text (a part of a view that a title keeps written:
    Match.json_view). A JSON writer of the service writes the text as it is (matches/packing.py); it never changes
    once made, so views may share it."""

    __slots__ = ("text",)
    text: str

    def __init__(self, text: str) -> None:
        object.__setattr__(self, "text", text)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("RawJSON never changes")

    def __repr__(self) -> str:
        return f"RawJSON({self.text!r})"


class OptionKind(StrEnum):
    """The type of an option's value."""

    BOOL = "bool"
    INT = "int"
    CHOICE = "choice"


@dataclass(frozen=True)
class OptionSpec:
    """One option a title accepts when a match is created.

    kind: bool (true/false), int (a whole number between minimum and maximum; a maximum of None for seat
    options means "below the seat count") or choice (one of choices). nullable: null is accepted too (its
    meaning is in the description). seats: the seat counts the option applies to (empty: every count).
    """

    name: str
    kind: OptionKind
    default: JSON
    description: str
    choices: tuple[str, ...] = ()
    nullable: bool = False
    minimum: int | None = None
    maximum: int | None = None
    seats: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, JSON]:
        """The spec as JSON-able data."""
        return {"name": self.name, "kind": self.kind.value, "default": self.default,
                "description": self.description, "choices": list(self.choices), "nullable": self.nullable,
                "minimum": self.minimum, "maximum": self.maximum, "seats": list(self.seats)}


@dataclass(frozen=True)
class ScoreColumn:
    """One named part of a seat's final score (each title names its own: houses, putOut...; money, poverty...)."""

    key: str
    label: str
    description: str = ""


@dataclass(frozen=True)
class SeatScore:
    """A seat's final total and its parts, keyed by the title's score columns (in their order)."""

    seat: int
    total: int
    parts: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Result:
    """How a match played to its end came out: every seat's score, the winners (several on a true tie) and, in
    the title's words, why it ended."""

    scores: tuple[SeatScore, ...]
    winners: tuple[int, ...]
    reason: str

    def to_dict(self) -> dict[str, JSON]:
        """The result as JSON-able data."""
        return {"scores": [{"seat": s.seat, "total": s.total, "parts": dict(s.parts)} for s in self.scores],
                "winners": list(self.winners), "reason": self.reason}


@dataclass(frozen=True)
class Budget:
    """How long one bot decision may think: seconds and/or iterations, whichever runs out first (the service
    reads it from its settings and passes it in; a bot that does not search ignores it)."""

    seconds: float | None = 0.4
    iterations: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is None and self.iterations is None:
            raise ValueError("a budget needs seconds or iterations")


BotChoice = Callable[["Match", int, random.Random, Budget], Action]


@dataclass(frozen=True)
class BotLevel:
    """A bot a seat can be given: its level name, what it does, and the function that picks its action.

    choose(match, seat, rng, budget) must read only what match.view(seat) (or match.resample(seat, ...)) shows,
    and return one of match.legal_actions(seat).
    """

    name: str
    description: str
    choose: BotChoice


class Match(Protocol):
    """A live match of some title: whose decision is pending, legal actions, apply, views, result."""

    title_id: str
    seats: int
    version: int

    def to_act(self) -> list[int]:
        """Return the seats owing a decision now, any number at once ([] when the match is over or the next
        step is the service's)."""
        ...

    def legal_actions(self, seat: int) -> list[Action]:
        """Return the JSON-able actions the seat may take now ([] for a seat not to act)."""
        ...

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply an action and return its events; raise a RulesError and change nothing if illegal.

        An event with an "audience" list of seats is private to them (domain.events.visible_to)."""
        ...

    def system_due(self) -> bool:
        """Return True when the next step is the service's (e.g. a non-player turn), not a seat's."""
        ...

    def run_system_step(self) -> list[Event]:
        """Perform the next automated step and return its events."""
        ...

    def view(self, seat: int | None) -> dict[str, JSON]:
        """Return what the seat (None: a spectator) may see."""
        ...

    def is_over(self) -> bool:
        """Return True once the match has ended."""
        ...

    def result(self) -> Result | None:
        """Return the typed result once over, else None."""
        ...

    def resample(self, seat: int, rng: random.Random) -> Match:
        """Return a copy in which everything hidden from the seat is redrawn at random, consistently with what
        the seat has seen (its view and the events it was shown): the copy depends on hidden facts only through
        what the seat knows. An information-set search (domain.search) plays in such copies."""
        ...

    # Optional: json_view(seat, raw=RawJSON) -> dict, the view with some parts as raw(JSON text) (RawJSON, or a JSON
    # writer's own kind of pre-written JSON), which the service's JSON writer (matches/packing.py) writes as the same
    # bytes as view(seat); a title whose views are large and mostly unchanged from step to step keeps those parts
    # written (the read model asks for it only to send the view as JSON). BaseMatch offers it, guarded as view is,
    # through the hook _json_view (the plain view unless the title writes it).

    def to_dict(self, copied: bool = True) -> dict[str, JSON]:
        """Return the whole state as JSON-able data (secret parts included: never send it to a client); copied=False
        hands out the state's own containers instead of copies: encode it at once, never keep or change it."""
        ...

    def clone(self) -> Match:
        """Return an independent copy."""
        ...


class Title(Protocol):
    """A playable game: metadata, typed options, score columns, its bots, and the factory for matches."""

    id: str
    name: str
    min_seats: int
    max_seats: int
    takeover_level: str  # the level of bots() that plays a seat whose turn clock ran out

    def option_specs(self) -> list[OptionSpec]:
        """Return the options this title accepts, in the order a form shows them."""
        ...

    def check_options(self, seats: object, options: dict[str, JSON] | None) -> dict[str, JSON]:
        """Return the options with defaults filled in; raise BadOptions naming what is wrong with the seat count
        or an option."""
        ...

    def score_columns(self) -> list[ScoreColumn]:
        """Return the named parts of a final score, in the order a results table shows them."""
        ...

    def bots(self) -> list[BotLevel]:
        """Return the title's own bot levels (the generic "random" level is added by domain.bots)."""
        ...

    def schemas(self) -> dict[str, JSON]:
        """Return the JSON Schemas (2020-12) of the title's "view", "action", "event" and "result" (the typed result
        as Result.to_dict() gives it); domain/schemas.py has the shared building blocks."""
        ...

    def new_match(self, seats: int, seed: int, options: dict[str, JSON] | None = None) -> Match:
        """Set up a new match from a seed; raise BadOptions for a seat count or option it does not support."""
        ...

    def board(self) -> dict[str, JSON] | None:
        """Return the static data a client draws (a map; None for a title without one)."""
        ...

    def match_from_dict(self, data: dict[str, JSON]) -> Match:
        """Rebuild a match from to_dict() output."""
        ...


OBSERVATION_HIGH = 255  # every number of an observation is a whole number from 0 to this


class EncodedMatch(Match, Protocol):
    """A match of a title with an integer action space and an observation encoding (see EncodedTitle)."""

    def legal_action_ids(self, seat: int) -> list[int]:
        """Return the ids (indices into Title.action_space()) of the seat's legal actions, ascending."""
        ...

    def apply_id(self, seat: int, action_id: int) -> list[Event]:
        """Apply the action with this id; raise a RulesError and change nothing if it is unknown or illegal."""
        ...

    def observation(self, seat: int) -> list[int]:
        """Return the seat's observation as Title.observation_size(seats) whole numbers from 0 to
        OBSERVATION_HIGH, computed from the state and revealing nothing the seat's view does not."""
        ...

    def resample(self, seat: int, rng: random.Random) -> EncodedMatch:
        """Return a copy with everything hidden from the seat redrawn (as Match.resample)."""
        ...

    def clone(self) -> EncodedMatch:
        """Return an independent copy."""
        ...


class EncodedTitle(Title, Protocol):
    """Optional part of the contract for learning environments: a stable integer action space and an
    observation size. A title provides it when its matches are EncodedMatch objects."""

    def action_space(self) -> list[Action]:
        """Return every action the title can ever list, in a documented order built from its component data,
        so that an action's id is its index (stable while the data are)."""
        ...

    def observation_size(self, seats: int) -> int:
        """Return the length of Match.observation(seat) for a match of this many seats."""
        ...

    def new_match(self, seats: int, seed: int, options: dict[str, JSON] | None = None) -> EncodedMatch:
        """Set up a new match from a seed (an EncodedMatch)."""
        ...
