"""Labels: every legal action and every event the service answers carries a `label`, what it means in the reader's
language (api/language.py), made from its title's phrases (domain/<title>/words.py).

Labels are computed once per (match, version, seat, language) in each API process and shared by every reader of
that step from that seat in that language (an LRU of recent steps): the legal actions of a version never change,
nor do the events of a step. A seat's player name is written as it was when the label was first made.
"""

from __future__ import annotations

import dataclasses
import gettext
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from firebreak.api import language
from firebreak.domain import titles
from firebreak.domain.bots import levels
from firebreak.domain.contract import Event, OptionSpec, ScoreColumn, Title
from firebreak.domain.errors import UnknownTitle
from firebreak.domain.words import (
    COLUMN,
    COLUMN_DESCRIPTION,
    OPTION,
    RESULT,
    Phrase,
    Words,
    bot_name,
    generic_action,
    generic_event,
    noun,
    service_event,
)
from firebreak.matches.lifecycle import SeatKind
from firebreak.matches.reading import ABANDONED, CANCELLED, RESIGNED, FinalResult, Reading
from firebreak.matches.store import Loaded

KEPT = 4096  # labelled (step, seat, language) entries kept per process
ENABLED = True  # benches turn labels off to measure what they cost (bench/act_path.py --labels)

_kept: OrderedDict[tuple[Any, ...], list[str]] = OrderedDict()


def _words(title: str) -> Words | None:
    try:
        found = titles.get(title)
    except UnknownTitle:
        return None
    words: Words | None = getattr(found, "words", None)
    return words


def _namer(loaded: Loaded, tr: gettext.NullTranslations) -> Callable[[int], str | None]:
    """A seat's name in a label: its player's name as it was given, a bot's in the language ("Bot gierig")."""
    seats = loaded.seats

    def name(seat: int) -> str | None:
        record = seats.get(seat)
        if record is None:
            return None
        if record.kind is SeatKind.BOT and record.level:
            return language.write(bot_name(record.level), tr, lambda _: None)
        return record.name

    return name


def _remembered(key: tuple[Any, ...], make: Callable[[], list[str]]) -> list[str]:
    found = _kept.get(key)
    if found is None:
        found = _kept[key] = make()
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    else:
        _kept.move_to_end(key)
    return found


def legal_actions(read: Reading, lang: str | None = None) -> list[Any]:
    """The reader's legal actions, each with its label in the request's language (or lang)."""
    actions = read.legal_actions()
    if not actions or not ENABLED:
        return actions
    lang = lang or language.chosen()
    words = _words(read.title)
    seat = read.you
    assert seat is not None  # a spectator has no legal actions

    def make() -> list[str]:
        engine = read.engine()
        tr = language.translation(words, lang)
        name = _namer(read.loaded, tr)
        phrase: Callable[[Any], Phrase] = ((lambda a: words.action(engine, seat, a)) if words is not None
                                           else generic_action)
        return [language.write(phrase(action), tr, name) for action in actions]

    labels = _remembered((read.id, read.version, seat, lang, "actions"), make)
    if len(labels) != len(actions):  # (the same version's actions are the same list; never trust a stale entry)
        labels = make()
    return [{**action, "label": label} for action, label in zip(actions, labels, strict=True)]


def events(loaded: Loaded, version: int, viewer: int | None, seen: list[Event], lang: str | None = None,
           ) -> list[Event]:
    """The events of the step that made `version` that the viewer may see, each with its label."""
    if not seen or not ENABLED:
        return seen
    lang = lang or language.chosen()
    words = _words(loaded.meta["title"])

    def make() -> list[str]:
        tr = language.translation(words, lang)
        name = _namer(loaded, tr)
        phrase: Callable[[Event], Phrase] = words.event if words is not None else generic_event
        return [language.write(service_event(event) or phrase(event), tr, name) for event in seen]

    labels = _remembered((loaded.id, version, viewer, lang, "events"), make)
    if len(labels) != len(seen):
        labels = make()
    return [{**event, "label": label} for event, label in zip(seen, labels, strict=True)]


# ----- what a title's metadata and a result say, in the reader's language -----------------------------------------

SERVICE_RESULTS = (ABANDONED.reason, CANCELLED.reason, RESIGNED)  # the reasons the service itself gives


def title_texts(title: Title) -> list[tuple[str, str]]:
    """Every (context, English text) a title's metadata says to people: its score columns and what each option
    does (its result's reason is among its words' nouns); the catalogues translate them (scripts/catalogues.py)."""
    return list(dict.fromkeys([*((COLUMN, c.label) for c in title.score_columns()),
                               *((COLUMN_DESCRIPTION, c.description) for c in title.score_columns()),
                               *((OPTION, o.description) for o in title.option_specs())]))


def _writer(title: str, lang: str | None) -> Callable[[str, str], str]:
    lang = lang or language.chosen()
    if lang == language.DEFAULT:
        return lambda _context, text: text
    tr = language.translation(_words(title), lang)
    return lambda context, text: language.write(noun(context, text), tr, lambda seat: None)


def columns(title: str, found: Iterable[ScoreColumn], lang: str | None = None) -> list[ScoreColumn]:
    """A title's score columns, label and description in the reader's language."""
    write = _writer(title, lang)
    return [dataclasses.replace(c, label=write(COLUMN, c.label), description=write(COLUMN_DESCRIPTION, c.description))
            for c in found]


def options(title: str, found: Iterable[OptionSpec], lang: str | None = None) -> list[OptionSpec]:
    """A title's options, each description in the reader's language."""
    write = _writer(title, lang)
    return [dataclasses.replace(o, description=write(OPTION, o.description)) for o in found]


def result(title: str, found: FinalResult | None, lang: str | None = None) -> FinalResult | None:
    """An over match's result, its reason and score columns in the reader's language."""
    if found is None:
        return None
    write = _writer(title, lang)
    return dataclasses.replace(found, reason=write(RESULT, found.reason),
                               columns=tuple(columns(title, found.columns, lang)))


def bot_levels() -> list[str]:
    """Every bot level's name of the registered titles (the catalogues translate them: a bot seat's name)."""
    return list(dict.fromkeys(name for title in titles.all_titles() for name in levels(title)))
