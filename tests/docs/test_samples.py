"""The rule for the documentation's code samples (tests/docs/samples.py): every fenced block has a language the
rule knows, every runnable block is claimed by the test that runs it, and every GraphQL document is valid against
the schema the service serves."""

from __future__ import annotations

import pytest
from graphql import parse, validate

from firebreak.api.schema import schema
from tests.docs import samples


def test_every_block_has_a_language_the_rule_knows() -> None:
    unknown = [f"{b.page}:{b.line} {b.language or '(none)'}" for b in samples.every_block()
               if b.language not in samples.LANGUAGES]
    assert unknown == [], f"label these blocks sh, python, graphql, console, text or json: {unknown}"


def test_every_runnable_block_is_claimed_by_a_test() -> None:
    loose = [f"{b.page}:{b.line} ({b.section!r}, {b.language})" for b in samples.every_block()
             if b.language in samples.RUN and samples.claimed(b) is None]
    assert loose == [], f"no test runs these samples; add a claim in tests/docs/samples.py and a test: {loose}"


@pytest.mark.parametrize("claim", samples.CLAIMS, ids=lambda c: f"{c.page}:{c.section}:{c.language}")
def test_every_claim_covers_a_block_and_its_runner_reads_the_page(claim: samples.Claim) -> None:
    assert samples.blocks(claim.page, claim.section, claim.language), "the claimed section has no such block"
    runner = samples.ROOT / claim.runner
    assert runner.is_file(), claim.runner
    assert claim.page in runner.read_text(encoding="utf-8"), f"{claim.runner} never names {claim.page}"


def test_console_blocks_show_a_prompt_on_every_command() -> None:
    """A console block is a command to type, written `$ command`, so no reader mistakes it for output."""
    bare = [f"{b.page}:{b.line}" for b in samples.every_block() if b.language == "console"
            and not all(line.startswith("$ ") for line in b.text.splitlines() if line.strip())]
    assert bare == []


def test_every_graphql_document_is_valid_against_the_schema() -> None:
    documents = [b for b in samples.every_block() if b.language == "graphql"]
    assert documents, "the pages hold GraphQL documents"
    for block in documents:
        if samples.SNIPPET.match(block.text.strip()):
            continue  # an included file (schema.graphql), checked by tests/service/test_schema_file.py
        assert validate(schema._schema, parse(block.text)) == [], f"{block.page}:{block.line}"
