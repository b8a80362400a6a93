"""Labels in every language (issue 50): every legal action and every event met in seeded playouts of both titles
gets a label in English, German and Ukrainian, written from the title's phrases with its catalogues; the German
and Ukrainian ones are translations (no English word of the game left, once the names of districts, cards and
boroughs, which the catalogues translate separately, are taken out)."""

# ruff: noqa: RUF001, RUF002 (the Ukrainian catalogue's words, asserted as written)

from __future__ import annotations

import gettext
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from firebreak.api import language
from firebreak.domain import titles
from firebreak.domain.contract import Match
from firebreak.domain.words import Listed, Phrase, Seat, Words, noun, said, said_n, service_event

LANGUAGES = ("en", "de", "uk")
# English words of the games' sentences that a German or Ukrainian label must not keep (names taken out first)
ENGLISH = {"the", "and", "fire", "band", "bands", "pawn", "cone", "cones", "card", "cards", "token", "tokens", "turn",
           "loan", "loans", "poverty", "prestige", "stack", "deck", "board", "discard", "discarded", "draw", "drew",
           "play", "played", "your", "their", "seat", "point", "points", "city", "buy", "run", "pay", "left", "moved",
           "placed", "took", "non-player", "hand", "shuffled", "borough", "develop", "activate", "flip", "cancel"}
CYRILLIC = re.compile("[\u0400-\u04ff]")
SERVICE_EVENTS = ("clockExpired", "seatTakenOver", "seatReturned", "seatResigned", "matchAbandoned")


def words_of(title_id: str) -> Words:
    words: Words | None = getattr(titles.get(title_id), "words", None)
    assert words is not None, f"{title_id} has no words"
    return words


def playout(title_id: str, seats: int, seed: int) -> Iterator[tuple[Match, int | None, dict[str, Any]]]:
    """(match before the step, seat, listed action) for the legal actions of each step (at most 40 a step) and
    (match after, None, event) for each event, over one seeded random playout."""
    title = titles.get(title_id)
    match = title.new_match(seats, seed, title.check_options(seats, None))
    rng = random.Random(seed)
    for _ in range(5000):
        if match.is_over():
            return
        if match.system_due():
            events = match.run_system_step()
        else:
            seat = match.to_act()[0]
            actions = match.legal_actions(seat)
            for action in actions[:40]:
                yield match, seat, action
            events = match.apply(seat, rng.choice(actions))
        for event in events:
            yield match, None, event


def write(phrase: Phrase, words: Words, lang: str) -> str:
    return language.write(phrase, language.translation(words, lang), lambda seat: f"P{seat}")


def nouns_in(words: Words, lang: str) -> list[str]:
    """Every name of the title's data as the language writes it, longest first."""
    written = {write(noun(context, name), words, lang) for context, name in words.nouns()}
    return sorted(written, key=len, reverse=True)


def english_left(label: str, names: list[str]) -> set[str]:
    for name in names:
        label = label.replace(name, " ")
    return {w for w in re.findall(r"[a-z][a-z-]*", label.lower()) if w in ENGLISH}


CASES = [("greatfire", 3, 11), ("greatfire", 2, 12), ("greatfire", 5, 13), ("london", 2, 21), ("london", 4, 22)]


@pytest.mark.parametrize(("title_id", "seats", "seed"), CASES)
def test_every_action_and_event_met_has_a_label_in_each_language(title_id: str, seats: int, seed: int) -> None:
    words = words_of(title_id)
    names = {lang: nouns_in(words, lang) for lang in LANGUAGES}
    met: set[str] = set()
    for match, seat, item in playout(title_id, seats, seed):
        phrase = words.event(item) if seat is None else words.action(match, seat, item)
        assert not phrase.text.startswith(("Event: ", "Action: ")), f"no words for {item['type']}"
        met.add(item["type"])
        english = write(phrase, words, "en")
        assert english and "{" not in english and "}" not in english, (item, english)
        for lang in ("de", "uk"):
            label = write(phrase, words, lang)
            assert label and "{" not in label and "}" not in label, (lang, item, label)
            assert label not in (phrase.text, english), f"{lang}: {item} reads in English: {label!r}"
            assert not english_left(label, names[lang]), (lang, item, label, english_left(label, names[lang]))
            if lang == "uk":
                assert CYRILLIC.search(label), (item, label)
    assert len(met) >= 20, sorted(met)


@pytest.mark.parametrize("title_id", ["greatfire", "london"])
def test_every_type_of_the_titles_schemas_has_words(title_id: str) -> None:
    """Types a playout may not meet (a redeal, a tie of the non-player) have their own phrase too: each action
    and event type of the title's JSON Schemas, the service's events included."""
    words = words_of(title_id)
    schemas = titles.get(title_id).schemas()
    for part in ("action", "event"):
        for definition in schemas[part]["$defs"].values():
            kind = definition.get("properties", {}).get("type", {}).get("const")
            if kind is None:
                continue
            item: dict[str, Any] = {"type": kind, "seat": 0}
            if part == "event" and kind in SERVICE_EVENTS:
                phrase = service_event(item)
                assert phrase is not None, kind
            elif part == "event":
                phrase = words.event(item)
            else:
                phrase = words.action(titles.get(title_id).new_match(2, 1), 0, item)
            assert not phrase.text.startswith(("Event: ", "Action: ")), f"{title_id} has no words for {kind}"
            for lang in LANGUAGES:
                assert write(phrase, words, lang), (kind, lang)


def test_the_rulebooks_terms_are_the_catalogues() -> None:
    """The German rulebook of The Great Fire names its things (Brandschutztruppe, Grundbesitzer, Feuerzylinder,
    Sprengladung, Held von London); London's Ukrainian rulebook names its own (боро, позика, поле розвитку,
    Гугеноти, Шпиталь, Сіті)."""
    great_fire, london = words_of("greatfire"), words_of("london")
    band = said("{who} placed a trained band in {district}", who=Seat(0), district=noun("district", "Pudding Lane"))
    assert write(band, great_fire, "de") == "P0 setzte eine Brandschutztruppe nach Pudding Lane"
    token = said("{who} played a {token} token", who=Seat(1), token=noun("token", "demolition"))
    assert write(token, great_fire, "de") == "P1 spielte einen Sprengladungsmarker aus"
    assert write(said("{who} is now the Hero of London", who=Seat(2)), great_fire, "de") == \
        "P2 ist jetzt der Held von London"
    buy = said("Buy {borough}", borough=noun("borough", "City"))
    assert write(buy, london, "uk") == "Купити боро Сіті"
    assert write(noun("city card", "Huguenots"), london, "uk") == "Гугеноти"
    assert write(noun("city card", "Hospital"), london, "uk") == "Шпиталь"
    assert write(said("Repay a loan (\u00a315)"), london, "uk") == "Погасити позику (15£)"


@pytest.mark.parametrize(("n", "german", "ukrainian"), [
    (1, "P0 hat 1 Aktionspunkt", "P0 має 1 очко дії"),
    (3, "P0 hat 3 Aktionspunkte", "P0 має 3 очки дії"),
    (5, "P0 hat 5 Aktionspunkte", "P0 має 5 очок дії"),
    (21, "P0 hat 21 Aktionspunkte", "P0 має 21 очко дії"),
])
def test_plural_forms_follow_each_languages_rule(n: int, german: str, ukrainian: str) -> None:
    words = words_of("greatfire")
    phrase = said_n("{who} has {n} action point", "{who} has {n} action points", "n", who=Seat(0), n=n)
    assert write(phrase, words, "de") == german
    assert write(phrase, words, "uk") == ukrainian
    assert write(phrase, words, "en") == f"P0 has {n} action point{'' if n == 1 else 's'}"


def test_a_seat_nobody_sits_in_and_lists_are_written_in_the_language() -> None:
    words = words_of("greatfire")
    phrase = said("Fire cones put out went back to the supply ({seats})", seats=Listed((Seat(0), Seat(2))))
    tr = language.translation(words, "de")
    assert language.write(phrase, tr, lambda seat: None) == \
        "Gelöschte Feuerzylinder gingen zurück in den Vorrat (Platz 1, Platz 3)"


def test_a_translation_whose_placeholders_do_not_fit_reads_in_english() -> None:
    """A broken catalogue entry never breaks a read: the English text is written instead."""

    class Broken(gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            return "{nope}"

    assert language.write(said("Turn of {who}", who=Seat(0)), Broken(), lambda seat: "Ann") == "Turn of Ann"


def test_a_titles_score_columns_options_and_result_read_in_the_language() -> None:
    """What a title's metadata and an over match's result say to people (score columns, option descriptions, why
    the match ended: the title's own reason and the service's) reads in the language; English as written."""
    from firebreak.api import labels
    from firebreak.matches.lifecycle import EndReason
    from firebreak.matches.reading import FinalResult

    for title in titles.all_titles():
        columns, options = title.score_columns(), title.option_specs()
        assert labels.columns(title.id, columns, "en") == list(columns)
        assert labels.options(title.id, options, "en") == list(options)
        for lang in ("de", "uk"):
            said = labels.columns(title.id, columns, lang)
            assert [c.key for c in said] == [c.key for c in columns]
            assert all(a.description != b.description for a, b in zip(said, columns, strict=True)), said
            assert all(a.description != b.description
                       for a, b in zip(labels.options(title.id, options, lang), options, strict=True))
        uk = [*labels.columns(title.id, columns, "uk"), *labels.options(title.id, options, "uk")]
        assert all(CYRILLIC.search(getattr(x, "label", "") + x.description) for x in uk), uk
        words = getattr(title, "words", None)
        reason = next(text for context, text in words.nouns() if context == "how a match ended")
        for english in (reason, labels.RESIGNED):
            ended = FinalResult(EndReason.FINISHED, english, tuple(columns), (), ())
            assert labels.result(title.id, ended, "en") == ended
            written = labels.result(title.id, ended, "uk")
            assert written is not None and CYRILLIC.search(written.reason) and written.columns[0].label != "Houses"
