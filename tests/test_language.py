"""Accept-Language negotiation (RFC 9110) against the service's catalogues, and the catalogues' completeness: the
message ids `pybabel extract` finds in the code, and the names of the titles' data, each translated in every
language, every plural form (a string without a translation fails the suite)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from firebreak.api import language
from scripts import catalogues

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("header", "expected"), [
    (None, "en"),
    ("", "en"),
    ("de", "de"),
    ("uk-UA", "uk"),
    ("de-AT,de;q=0.9,en;q=0.8", "de"),
    ("fr-FR,fr;q=0.9", "en"),                    # a language without catalogues: English
    ("fr, uk;q=0.5, de;q=0.4", "uk"),            # the first supported one by q
    ("en;q=0.2, de;q=0.9", "de"),                # q, not the order, decides
    ("de;q=0.5, uk;q=0.5", "de"),                # a tie: the order
    ("uk;q=0, de;q=0.1", "de"),                  # q=0 refuses a language
    ("*", "en"),
    ("xx;q=abc, uk", "uk"),                      # a malformed q is skipped
    ("DE-de", "de"),                             # tags are case-insensitive
    ("uk;q=2", "en"),                            # q above 1 is not a weight
    ("x" * 2000 + ",de", "en"),                  # read only so far
])
def test_accept_language_is_negotiated(header: str | None, expected: str) -> None:
    assert language.negotiate(header) == expected


def test_the_languages_are_the_service_catalogues() -> None:
    assert language.languages() == ("de", "en", "uk")


def test_pybabel_extract_finds_only_translated_ids(tmp_path: Path) -> None:
    """pybabel's own extraction of each domain's sources: every id it finds is in each language's catalogue with
    a translation (every plural form of the language)."""
    mapping = tmp_path / "babel.cfg"
    mapping.write_text("[python: **.py]\n[javascript: **.js]\nparse_template_string = true\n", encoding="utf-8")
    for domain in catalogues.domains():
        template = tmp_path / f"{domain.name}.pot"
        keywords = ["-k", "t", "-k", "tn:1,2"] if domain.method == "javascript" else ["-k", "said", "-k", "said_n:1,2"]
        subprocess.run([str(Path(sys.executable).parent / "pybabel"), "-q", "extract", "--no-default-keywords",
                        *keywords, "-F", str(mapping), "-o", str(template),
                        *(str(source) for source in domain.sources)], check=True, cwd=ROOT)
        found = catalogues.read(template)
        assert found is not None and len(found) > 1, domain.name
        for lang in language.languages():
            catalog = catalogues.read(catalogues.po_path(domain, lang))
            assert catalog is not None, (domain.name, lang)
            for message in found:
                if not message.id:
                    continue
                entry = catalog.get(message.id, message.context)
                assert entry is not None and not entry.fuzzy, (domain.name, lang, message.id)
                strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
                assert all(strings), f"{domain.name} {lang}: {message.id!r} is not translated"
                if isinstance(message.id, tuple):
                    assert len(strings) == catalog.num_plurals, (lang, message.id)


def test_every_catalogue_is_complete() -> None:
    """Ids and the titles' nouns (names of districts, cards, boroughs), as scripts/catalogues.py --check sees it."""
    assert [line for domain in catalogues.domains() for lang in language.languages()
            for line in catalogues.lacking(domain, lang)] == []


def test_the_check_fails_on_a_string_without_translation(tmp_path: Path) -> None:
    """A new phrase in the code with no translation is found (the check can fail)."""
    source = tmp_path / "words.py"
    source.write_text('from firebreak.domain.words import said\nX = said("A brand new sentence")\n', encoding="utf-8")
    existing = next(d for d in catalogues.domains() if d.name == "greatfire")
    planted = catalogues.Domain("greatfire", existing.locale, (*existing.sources, source))
    original = catalogues.ROOT
    catalogues.ROOT = Path("/")
    try:
        lacking = list(catalogues.lacking(planted, "de"))
    finally:
        catalogues.ROOT = original
    assert any("A brand new sentence" in line for line in lacking), lacking


def test_the_check_fails_on_a_web_string_without_translation(tmp_path: Path) -> None:
    """A new phrase of the web client (t() in a module of web/) with no translation is found."""
    source = tmp_path / "page.js"
    source.write_text("import { t } from './i18n.js';\nexport const x = () => `${t('A brand new button')}!`;\n",
                      encoding="utf-8")
    existing = next(d for d in catalogues.domains() if d.name == "web")
    planted = catalogues.Domain("web", existing.locale, (*existing.sources, source), existing.nouns, existing.method,
                                existing.keywords)
    original = catalogues.ROOT
    catalogues.ROOT = Path("/")
    try:
        lacking = list(catalogues.lacking(planted, "uk"))
    finally:
        catalogues.ROOT = original
    assert any("A brand new button" in line for line in lacking), lacking


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", {"one": 0, "other": 1}), ("de", {"one": 0, "other": 1}),
    ("uk", {"one": 0, "few": 1, "many": 2, "other": 2}),
])
def test_each_cldr_plural_category_is_the_catalogues_form(lang: str, expected: dict[str, int]) -> None:
    """The map the page picks a plural form with (Intl.PluralRules gives the category): from the catalogue's own
    plural expression, checked against Babel's CLDR rules on every whole number up to 999."""
    from firebreak.api.web import WEB_DIR, plural_indexes, web_catalogue_path

    catalog = catalogues.read(web_catalogue_path(WEB_DIR, lang))
    assert catalog is not None
    assert plural_indexes(lang, catalog.plural_expr, catalog.num_plurals) == expected


def test_every_refusal_code_says_what_it_means_in_every_language() -> None:
    """Each registered code has a sentence for a person (api/problem_words.py), translated in every catalogue
    (tests/test_catalogues.py checks them all); English keeps the precise message; a title's own rules code (not
    registered) reads as an illegal move."""
    from firebreak.api import problem_words
    from firebreak.matches.refusals import Refusal

    assert set(problem_words.SAID) == set(Refusal)
    assert problem_words.said(Refusal.NOT_YOUR_TURN, "seat 2 acts", "en") == "seat 2 acts"
    german = problem_words.said(Refusal.NOT_YOUR_TURN, "seat 2 acts", "de")
    assert german == "Du bist nicht am Zug; nichts wurde geändert."
    assert problem_words.said("MALFORMED_ACTION", "no such district", "uk") == \
        problem_words.said(Refusal.ILLEGAL_ACTION, "", "uk") != problem_words.ILLEGAL
