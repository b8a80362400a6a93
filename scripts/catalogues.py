"""The gettext catalogues of the service's words, each title's and the web client's (api/locale/,
domain/<title>/locale/, web/locale/).

    python -m scripts.catalogues            extract every message id (pybabel's Python extractor, keywords said
                                            and said_n; its JavaScript extractor over web/, keywords t and tn)
                                            and every noun a title's data names, and bring each language's .po up
                                            to date: new ids added untranslated, gone ones dropped, translations
                                            kept
    python -m scripts.catalogues --check    list what a catalogue lacks (an id or a translation) and exit 1

A new language: `python -m scripts.catalogues --add xx`, then translate every entry of the new .po files.
tests/test_catalogues.py runs the check: a string without a translation fails the suite.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from firebreak.api import labels, language, problem_words
from firebreak.api.rest import problems
from firebreak.domain import titles
from firebreak.domain.bots import levels
from firebreak.domain.words import BOT_LEVEL, RESULT, Words

ROOT = Path(__file__).resolve().parent.parent
KEYWORDS = {"said": None, "said_n": (1, 2)}
WEB_KEYWORDS = {"t": None, "tn": (1, 2)}  # web/i18n.js: t(phrase), tn(singular, plural, count)
WEB = ROOT / "web"
WEB_SKIPPED = ("vendor",)  # GraphiQL's own files
Key = tuple[str | tuple[str, str], str | None]  # (id or (singular, plural), context)


@dataclass(frozen=True)
class Domain:
    """One catalogue: its name, its folder and the files its message ids are extracted from."""

    name: str
    locale: Path
    sources: tuple[Path, ...]
    nouns: tuple[tuple[str | None, str], ...] = ()  # (context, id) not said in the sources
    method: str = "python"  # Babel's extractor
    keywords: dict[str, tuple[int, int] | None] | None = None  # KEYWORDS when None


def camel_words(name: str) -> str:
    """web/words.js's words(): "hiddenColours" -> "Hidden colours" (an option's name as the create form shows it)."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    spaced = re.sub(r"[_-]+", " ", spaced).lower()
    return spaced[:1].upper() + spaced[1:]


def service_texts() -> list[str]:
    """What the service sends in English and the web client shows (web/i18n.js's theirs()): each title's name, its
    bot levels (name and description), its options' names (as words) and choices, and the chat's presets (a preset
    message is shown in the reader's language). The service writes the rest in the reader's language itself (score
    columns, what an option does, why a match ended: api/labels.py)."""
    from firebreak.chat import presets

    found: list[str] = [*presets.PRESETS.values()]
    for title in titles.all_titles():
        found.append(title.name)
        for level in levels(title).values():
            found += [level.name, level.description]
        for spec in title.option_specs():
            found += [camel_words(spec.name), *spec.choices]
    return sorted({text for text in found if text})


def domains() -> list[Domain]:
    """The service's catalogue and each title's that has words."""
    found = [Domain(language.DOMAIN, language.LOCALE.resolve(),
                    (ROOT / "matches" / "catalogues.py", ROOT / "domain" / "words.py", ROOT / "push" / "texts.py"),
                    (*((problems.TITLE, name) for name in (*problems.TITLES.values(), problems.OTHER)),
                     *((problem_words.CONTEXT, sentence) for sentence in problem_words.sentences()),
                     *((RESULT, reason) for reason in labels.SERVICE_RESULTS),
                     *((BOT_LEVEL, level) for level in labels.bot_levels())))]
    for title in titles.all_titles():
        words: Words | None = getattr(title, "words", None)
        if words is not None:
            locale = words.locale.resolve()
            found.append(Domain(words.domain, locale, (locale.parent / "words.py",),
                                tuple(dict.fromkeys([*words.nouns(), *labels.title_texts(title)]))))
    sources = sorted(path for path in WEB.rglob("*.js")
                     if not any(part in WEB_SKIPPED for part in path.relative_to(WEB).parts))
    texts = tuple((None, text) for text in service_texts())
    found.append(Domain("web", (WEB / "locale").resolve(), tuple(sources), texts, "javascript", WEB_KEYWORDS))
    return found


def extracted(domain: Domain) -> dict[Key, list[tuple[str, int]]]:
    """Every message id of the domain (with where it is said), nouns under their context."""
    found: dict[Key, list[tuple[str, int]]] = {}
    for source in domain.sources:
        keywords = KEYWORDS if domain.keywords is None else domain.keywords
        options = {"parse_template_string": "true"} if domain.method == "javascript" else None
        for line, message, _comments, context in extract_from_file(domain.method, str(source), keywords=keywords,
                                                                   options=options):
            text: str | tuple[str, str] = message if isinstance(message, str) else (message[0], message[1])
            found.setdefault((text, context), []).append((str(source.relative_to(ROOT)), line))
    for context, name in domain.nouns:
        found.setdefault((name, context), [])
    return found


def po_path(domain: Domain, lang: str) -> Path:
    """Where a language's catalogue of the domain is."""
    return domain.locale / lang / "LC_MESSAGES" / f"{domain.name}.po"


def read(path: Path) -> Catalog | None:
    """A .po file (None: there is none)."""
    if not path.is_file():
        return None
    with path.open("rb") as text:
        return read_po(text)


def update(domain: Domain, lang: str) -> None:
    """Write the language's catalogue with every extracted id, keeping the translations it has."""
    path = po_path(domain, lang)
    old = read(path)
    catalog = Catalog(locale=Locale.parse(lang), domain=domain.name, project="Firebreak", version="1",
                      charset="utf-8", fuzzy=False)
    if old is not None:  # the same header as before: an update without a new id changes nothing
        catalog.creation_date, catalog.revision_date = old.creation_date, old.revision_date
        catalog.last_translator, catalog.language_team = old.last_translator, old.language_team
    for (text, context), where in sorted(extracted(domain).items(), key=lambda item: str(item[0])):
        previous = old.get(text, context) if old is not None else None
        if previous is not None and not previous.fuzzy:
            string = previous.string
        elif lang == language.DEFAULT:
            string = text  # English: the id is the text
        else:
            string = ("", "") if isinstance(text, tuple) else ""
        catalog.add(text, string, locations=where, context=context)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        write_po(out, catalog, width=120, sort_output=True, omit_header=False, include_previous=False)


def lacking(domain: Domain, lang: str) -> Iterator[str]:
    """What the language's catalogue of the domain lacks: an id, or a translation (every plural form of it)."""
    path = po_path(domain, lang)
    catalog = read(path)
    if catalog is None:
        yield f"{path.relative_to(ROOT)}: no catalogue"
        return
    forms = catalog.num_plurals
    for text, context in extracted(domain):
        entry = catalog.get(text, context)
        shown = f"{context}: {text}" if context else str(text)
        if entry is None:
            yield f"{path.relative_to(ROOT)}: missing {shown!r}"
        elif entry.fuzzy:
            yield f"{path.relative_to(ROOT)}: fuzzy {shown!r}"
        elif isinstance(text, tuple):
            strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
            if len(strings) != forms or not all(strings):
                yield f"{path.relative_to(ROOT)}: untranslated (needs {forms} plural forms) {shown!r}"
        elif not entry.string:
            yield f"{path.relative_to(ROOT)}: untranslated {shown!r}"


def main(argv: list[str] | None = None) -> int:
    """Update the catalogues, or check them."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="list what the catalogues lack; exit 1 if anything")
    parser.add_argument("--add", metavar="LANG", help="start catalogues for a new language (then translate them)")
    args = parser.parse_args(argv)
    langs = list(language.languages()) + ([args.add] if args.add else [])
    if args.check:
        lacks = [line for domain in domains() for lang in langs for line in lacking(domain, lang)]
        print("\n".join(lacks) or "every catalogue is complete")
        return 1 if lacks else 0
    for domain in domains():
        for lang in langs:
            update(domain, lang)
    return 0


if __name__ == "__main__":
    sys.exit(main())
