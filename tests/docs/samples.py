"""The code samples of the documentation (docs/**/*.md and README.md), found by one rule so that no test picks or
skips a sample by hand.

A fenced block's language says what it is:
- `sh`, `python`, `js`: samples, each run by a test (against a live service where it needs one), exactly as printed
  (`js`: an ES module using the TypeScript SDK, clients/typescript, run with Node and checked by tsc --strict);
- `graphql`: a document, validated against the schema (tests/docs/test_samples.py);
- `console`: commands for the reader to type (a `$` prompt): start the service, run the suite or a benchmark;
- `text`, `json`: output or the shape of a document: nothing to run.
A block that is only a snippet include (`--8<-- "file"`) shows a file checked by its own test (schema.graphql).

Every `sh` and `python` block belongs to a claimed section (CLAIMS): the page, the heading above it and the test
module that runs it. tests/docs/test_samples.py fails on a runnable block no claim covers, on a claim whose
section holds none, and on a language outside the rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUN = frozenset({"sh", "python", "js"})
VALIDATED = frozenset({"graphql"})
SHOWN = frozenset({"console", "text", "json"})
LANGUAGES = RUN | VALIDATED | SHOWN
SNIPPET = re.compile(r'^--8<-- "[^"]+"\s*$')
FENCE = re.compile(r"^(`{3,})([\w-]*)[^\n]*$")


@dataclass(frozen=True)
class Block:
    """One fenced block: where it is, its language, the nearest heading above it, its text."""

    page: str
    line: int
    language: str
    section: str
    text: str


@dataclass(frozen=True)
class Claim:
    """A test module that runs every block of one language in one section of one page."""

    page: str
    section: str
    language: str
    runner: str  # the test module, relative to the repository


CLAIMS = (
    Claim("README.md", "A first look", "sh", "tests/service/test_docs_first_match.py"),
    Claim("docs/getting-started.md", "A first match with curl", "sh", "tests/service/test_docs_first_match.py"),
    Claim("docs/getting-started.md", "The same match over REST", "sh", "tests/service/test_docs_first_match.py"),
    Claim("docs/guides/bots.md", "Writing a bot against the API", "sh", "tests/service/test_docs_bots.py"),
    Claim("docs/guides/players.md", "Players and sign-in", "sh", "tests/service/test_docs_players.py"),
    Claim("docs/guides/players.md", "Deleting an account", "sh", "tests/service/test_account_deletion.py"),
    Claim("docs/guides/chat.md", "Try it with curl", "sh", "tests/service/test_docs_chat.py"),
    Claim("docs/guides/moderation.md", "Try it with curl", "sh", "tests/service/test_moderation.py"),
    Claim("docs/guides/seeks.md", "Finding opponents: seeks", "sh", "tests/service/test_docs_seeks.py"),
    Claim("docs/guides/social.md", "Try it with curl", "sh", "tests/service/test_docs_social.py"),
    Claim("docs/guides/webhooks.md", "Webhooks for your push service", "python",
          "tests/service/test_docs_webhooks.py"),
    Claim("docs/reference/events.md", "Your player's events", "sh", "tests/service/test_docs_events.py"),
    Claim("docs/reference/events.md", "Opening the stream from a browser", "sh", "tests/service/test_docs_events.py"),
    Claim("docs/app-developers.md", "*", "sh", "tests/service/test_app_developers_doc.py"),
    Claim("docs/app-developers.md", "The TypeScript SDK", "js", "tests/service/test_typescript_client.py"),
    Claim("docs/reference/rest.md", "Typed views, actions and events per title", "js",
          "tests/service/test_typescript_client.py"),
    Claim("docs/guides/adding-a-title.md", "The engine", "python", "tests/docs/test_engine_samples.py"),
    Claim("docs/guides/learning-environments.md", "Learning environments (PettingZoo, OpenSpiel)", "python",
          "tests/docs/test_engine_samples.py"),
)


def pages() -> list[Path]:
    """Every Markdown page of the site, and the README."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def parse(path: Path) -> list[Block]:
    """The fenced blocks of one page, in order (a block inside a longer fence is part of that fence)."""
    page = path.relative_to(ROOT).as_posix()
    lines = path.read_text(encoding="utf-8").split("\n")
    out: list[Block] = []
    section = ""
    i = 0
    while i < len(lines):
        heading = re.match(r"^#{1,6} (.+)$", lines[i])
        if heading:
            section = heading.group(1).strip()
        opened = FENCE.match(lines[i].strip()) if lines[i].lstrip().startswith("```") else None
        if opened:
            fence, language = opened.group(1), opened.group(2)
            end = i + 1
            while end < len(lines) and lines[end].strip() != fence:
                end += 1
            assert end < len(lines), f"{page}:{i + 1}: a fence that never closes"
            out.append(Block(page, i + 1, language, section, "\n".join(lines[i + 1:end]) + "\n"))
            i = end + 1
            continue
        i += 1
    return out


def every_block() -> list[Block]:
    """The fenced blocks of every page."""
    return [block for path in pages() for block in parse(path)]


def claimed(block: Block) -> Claim | None:
    """The claim covering a block, if any."""
    for claim in CLAIMS:
        if (claim.page, claim.language) == (block.page, block.language) and claim.section in ("*", block.section):
            return claim
    return None


def blocks(page: str, section: str, language: str = "sh") -> list[str]:
    """The texts of one claimed section's blocks of one language, in order (for the test that runs them)."""
    assert Claim(page, section, language, runner="") in {Claim(c.page, c.section, c.language, "") for c in CLAIMS}, (
        f"({page}, {section}, {language}) is not claimed in tests/docs/samples.py")
    return [b.text for b in parse(ROOT / page) if b.language == language and section in ("*", b.section)]
