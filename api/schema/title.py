"""The Title type: a playable game with its typed option specs, score columns and bot levels."""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

import strawberry

from firebreak.api import labels
from firebreak.api.schema.types import JSON
from firebreak.domain import contract, titles
from firebreak.domain.bots import levels


@strawberry.enum(description="The type of an option's value.")
class OptionKind(Enum):
    """The type of an option's value."""

    BOOL = strawberry.enum_value("bool", description="true or false.")
    INT = strawberry.enum_value("int", description="A whole number between minimum and maximum.")
    CHOICE = strawberry.enum_value("choice", description="One of the listed choices.")


@strawberry.type(description="One option a title accepts at createMatch.")
class OptionSpec:
    """One option a title accepts at createMatch."""

    name: str = strawberry.field(description="The key in createMatch's options object.")
    kind: OptionKind = strawberry.field(description="BOOL: true/false; INT: a whole number; CHOICE: one of choices.")
    default: JSON | None = strawberry.field(
        description="The value used when the option is left out (null for a nullable option: see its description).")
    description: str = strawberry.field(description="What the option does, in the rulebook's words.")
    choices: list[str] = strawberry.field(description="The allowed values of a CHOICE option ([] otherwise).")
    nullable: bool = strawberry.field(description="null is accepted too (the description says what it means).")
    minimum: int | None = strawberry.field(description="The least value of an INT option.")
    maximum: int | None = strawberry.field(
        description="The greatest value of an INT option; null for a seat number: below the seat count.")
    seats: list[int] = strawberry.field(description="The seat counts the option applies to ([]: every count).")

    @classmethod
    def of(cls, spec: contract.OptionSpec) -> OptionSpec:
        """The GraphQL form of a title's spec."""
        return cls(name=spec.name, kind=OptionKind(spec.kind.value), default=spec.default,
                   description=spec.description, choices=list(spec.choices), nullable=spec.nullable,
                   minimum=spec.minimum, maximum=spec.maximum, seats=list(spec.seats))


@strawberry.type(description="One named part of a final score (each title names its own).")
class ScoreColumn:
    """One named part of a final score (each title names its own)."""

    key: str = strawberry.field(description="The key of this part in SeatScore.parts.")
    label: str = strawberry.field(description="A short heading for a results table.")
    description: str = strawberry.field(description="How the part is counted.")


@strawberry.type(description="A bot level a seat of this title can be given (addBot's level).")
class BotLevel:
    """A bot level a seat of this title can be given (addBot's level)."""

    name: str = strawberry.field(description="The level's name, e.g. random, greedy, search.")
    description: str = strawberry.field(description="How the bot plays.")


def score_columns(columns: Iterable[contract.ScoreColumn]) -> list[ScoreColumn]:
    """A title's score columns as GraphQL values."""
    return [ScoreColumn(key=c.key, label=c.label, description=c.description) for c in columns]


@strawberry.type(description="JSON Schemas (2020-12) of a title's dynamic parts, to validate or generate code from "
                              "(also published as files under docs/schemas/<title>/).")
class TitleSchemas:
    """JSON Schemas (2020-12) of a title's dynamic parts."""

    view: JSON = strawberry.field(description="Match.view: what one seat or a spectator sees.")
    action: JSON = strawberry.field(description="One of Match.legalActions, as act takes it.")
    event: JSON = strawberry.field(description="One event of a step (MatchEvent.events, ActionAccepted.events).")
    result: JSON = strawberry.field(description="The typed result as JSON (the shape of Match.result).")


def _schemas(root: Title) -> TitleSchemas:
    found = titles.get(root.id).schemas()
    return TitleSchemas(view=found["view"], action=found["action"], event=found["event"], result=found["result"])


def _options(root: Title) -> list[OptionSpec]:
    return [OptionSpec.of(spec) for spec in labels.options(root.id, titles.get(root.id).option_specs())]


def _score_columns(root: Title) -> list[ScoreColumn]:
    return score_columns(labels.columns(root.id, titles.get(root.id).score_columns()))


def _bot_levels(root: Title) -> list[BotLevel]:
    return [BotLevel(name=level.name, description=level.description)
            for level in levels(titles.get(root.id)).values()]


def _board(root: Title) -> JSON | None:
    return titles.get(root.id).board()


@strawberry.type(description="A playable game.")
class Title:
    """A playable game."""

    id: str = strawberry.field(description="The title id createMatch takes.")
    name: str = strawberry.field(description="The game's name.")
    min_seats: int = strawberry.field(description="The fewest seats a match may have.")
    max_seats: int = strawberry.field(description="The most seats a match may have.")
    options: list[OptionSpec] = strawberry.field(
        resolver=_options, description="The options createMatch accepts, in the order a form shows them.")
    score_columns: list[ScoreColumn] = strawberry.field(
        resolver=_score_columns, description="The parts of a final score, in the order a results table shows them.")
    bot_levels: list[BotLevel] = strawberry.field(
        resolver=_bot_levels, description="The bot levels addBot accepts for this title (random first).")
    schemas: TitleSchemas = strawberry.field(
        resolver=_schemas, description="JSON Schemas of this title's view, actions, events and result.")
    board: JSON | None = strawberry.field(
        resolver=_board, description="The static data a client draws (a map, a card catalogue: the title's client "
                                     "module knows its shape); null for a title without any.")

    @classmethod
    def of(cls, title: contract.Title) -> Title:
        """The GraphQL form of a registered title."""
        return cls(id=title.id, name=title.name, min_seats=title.min_seats, max_seats=title.max_seats)
