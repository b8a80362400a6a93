"""The documentation site builds with `mkdocs build --strict` (no broken link or anchor, no page left out of the
nav), carries the OpenAPI document the service serves, and the README stays a short door into it."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from scripts import mkdocs_hooks
from tests.docs.samples import ROOT

README_LINES = 150


def mkdocs_ready() -> None:
    """Skip (fail in CI) without the dev extra's mkdocs-material."""
    if importlib.util.find_spec("material") is None:
        reason = "mkdocs-material is needed (the dev extra: scripts/bootstrap.sh --tests installs it)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(reason + " (in CI it must be there)")
        pytest.skip(reason)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built strictly into a temporary folder."""
    mkdocs_ready()
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=False,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stderr[-4000:]
    return out


def test_the_site_builds_strictly_with_every_page(site: Path) -> None:
    built = {p.relative_to(site).as_posix() for p in site.rglob("index.html")}
    for page in (ROOT / "docs").rglob("*.md"):
        rel = page.relative_to(ROOT / "docs").with_suffix("").as_posix()
        expected = "index.html" if rel == "index" else f"{rel}/index.html"
        assert expected in built, f"{page} was not built"


def test_the_site_carries_the_openapi_document_the_service_serves(site: Path) -> None:
    served = json.loads(mkdocs_hooks.served("/v1/openapi.json"))
    assert json.loads((site / "reference" / "openapi" / "openapi.json").read_text(encoding="utf-8")) == served
    rendering = (site / "reference" / "openapi" / "index.html").read_text(encoding="utf-8")
    assert 'fetch("openapi.json")' in rendering


def test_the_graphql_reference_includes_the_schema(site: Path) -> None:
    page = (site / "reference" / "graphql" / "index.html").read_text(encoding="utf-8")
    assert "createMatch" in page and "matchEvents" in page


def test_the_readme_is_short_and_its_links_lead_into_the_docs() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_LINES
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text)
    local = [link for link in links if not link.startswith(("http://", "https://"))]
    assert local and all((ROOT / link).is_file() for link in local), [x for x in local if not (ROOT / x).is_file()]
    assert "bash scripts/run.sh" in text and "bash scripts/test.sh" in text and '-m "not slow"' in text
