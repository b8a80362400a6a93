"""The dependency rule: domain/ imports only the standard library (and pydantic) and itself."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ALLOWED_THIRD_PARTY = {"pydantic"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_domain_imports_only_stdlib_and_itself() -> None:
    offenders = {}
    for path in (ROOT / "domain").rglob("*.py"):
        bad = {
            name for name in _imports(path)
            if name != "domain" and name not in sys.stdlib_module_names and name not in ALLOWED_THIRD_PARTY
        }
        if bad:
            offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert offenders == {}


def test_the_rule_would_catch_an_offender(tmp_path: Path) -> None:
    sample = tmp_path / "bad.py"
    sample.write_text("import redis\nfrom strawberry import type\nimport json\n", encoding="utf-8")
    assert _imports(sample) - set(sys.stdlib_module_names) == {"redis", "strawberry"}


def _first_party_imports(package: str) -> dict[str, set[str]]:
    out = {}
    for path in (ROOT / package).rglob("*.py"):
        out[str(path.relative_to(ROOT))] = _imports(path) & {"domain", "matches", "api", "workers", "integrations"}
    return out


def test_layers_point_inward() -> None:
    """domain <- matches <- (api | workers); api and workers never import each other."""
    allowed = {
        "domain": {"domain"},
        "matches": {"domain", "matches"},
        "api": {"domain", "matches", "api"},
        "workers": {"domain", "matches", "workers"},
        "integrations": {"domain", "integrations"},  # the learning adapters (rl extra) sit on the engine only
    }
    offenders = {}
    for package, may in allowed.items():
        for path, names in _first_party_imports(package).items():
            if names - may:
                offenders[path] = sorted(names - may)
    assert offenders == {}


def _modules(path: Path) -> set[str]:
    """The full names of the first-party modules a file imports."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_the_two_api_surfaces_never_import_each_other() -> None:
    """api/rest and api/schema both render matches/' read model; what they share lives in api/ or matches/."""
    offenders = {}
    for surface, other in (("rest", "api.schema"), ("schema", "api.rest")):
        for path in (ROOT / "api" / surface).rglob("*.py"):
            bad = {name for name in _modules(path) if name == other or name.startswith(other + ".")}
            if bad:
                offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert offenders == {}


def _title_words() -> set[str]:
    """Every registered title's id and name, and its package name, lower-cased."""
    from domain import titles

    words = set()
    for title in titles.all_titles():
        words |= {title.id.lower(), title.name.lower(), type(title).__module__.split(".")[1].lower()}
        words.add(title.name.split(":")[0].split("(")[0].strip().lower())
    return words


def _service_files() -> list[Path]:
    """The code that must serve any title without naming one: api/, matches/, workers/, integrations/ and
    generic domain/."""
    files = [p for package in ("api", "matches", "workers", "integrations") for p in (ROOT / package).rglob("*.py")]
    return files + [p for p in (ROOT / "domain").glob("*.py") if p.name != "titles.py"]


def test_no_service_code_names_a_title() -> None:
    """A title is a plug-in: only domain/<title>/ and the registry (domain/titles.py) name it (issue 12)."""
    words = _title_words()
    assert "greatfire" in words
    offenders = {}
    for path in _service_files():
        text = path.read_text(encoding="utf-8").lower()
        named = sorted(w for w in words if w in text)
        if named:
            offenders[str(path.relative_to(ROOT))] = named
    assert offenders == {}


def _web_shell_files() -> list[Path]:
    """The browser client's shell: every file under web/ but the title modules' folders (web/titles/<id>/) and
    vendored third-party files (web/vendor/)."""
    web = ROOT / "web"
    return sorted(p for p in web.rglob("*") if p.is_file() and p.relative_to(web).parts[0] != "vendor"
                  and not (p.relative_to(web).parts[0] == "titles" and len(p.relative_to(web).parts) > 2))


def test_the_web_shell_names_no_title() -> None:
    """The lobby, the match frame and the generic client serve any title; only web/titles/<id>/ names one."""
    words = _title_words()
    files = {str(p.relative_to(ROOT)) for p in _web_shell_files()}
    assert {"web/index.html", "web/match.js", "web/lobby.js", "web/titles/fallback.js"} <= files
    assert not any(name.startswith("web/titles/greatfire/") for name in files)
    offenders = {}
    for path in _web_shell_files():
        text = path.read_text(encoding="utf-8").lower()
        named = sorted(w for w in words if w in text)
        if named:
            offenders[str(path.relative_to(ROOT))] = named
    assert offenders == {}
