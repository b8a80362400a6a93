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


BOT_MODULES = ("domain.bots", "domain.search")  # the generic bot levels, above every title's rules


def _imported_modules(path: Path, module: str) -> set[str]:
    """Every dotted name the file imports, anywhere in it (a from-import also names each member, maybe a module)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: level 1 is the file's own package, each further level one package up
                parts = package.split(".")
                above = parts[:len(parts) - node.level + 1]
                base = ".".join([*above, base] if base else above)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def _module_file(root: Path, name: str) -> Path | None:
    """The file under root that defines the dotted module name, if any."""
    stem = root.joinpath(*name.split("."))
    for path in (stem.with_suffix(".py"), stem / "__init__.py"):
        if path.is_file():
            return path
    return None


def _title_packages(root: Path) -> list[Path]:
    """The title packages under root/domain: each subpackage with a rules/ folder."""
    return sorted(p.parent for p in (root / "domain").glob("*/rules") if p.is_dir())


def _missing_parts(packages: list[Path]) -> list[str]:
    """The rules/ and bots/ packages the title packages lack, as title/part."""
    return sorted(f"{p.name}/{part}" for p in packages for part in ("rules", "bots")
                  if not (p / part / "__init__.py").is_file())


def _rules_reaching_bots(root: Path, title: Path) -> dict[str, str]:
    """Each module under title/rules/ that imports a bot module, directly or through the title's other modules:
    the module, and the bot module it reaches."""
    package = f"domain.{title.name}"
    forbidden = (f"{package}.bots", *BOT_MODULES)
    offenders = {}
    for start in sorted((title / "rules").rglob("*.py")):
        seen: set[Path] = set()
        todo = [start]
        while todo and str(start.relative_to(root)) not in offenders:
            path = todo.pop()
            if path in seen:
                continue
            seen.add(path)
            module = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
            for name in sorted(_imported_modules(path, module)):
                if any(name == bad or name.startswith(bad + ".") for bad in forbidden):
                    offenders[str(start.relative_to(root))] = name
                    break
                found = _module_file(root, name) if name.startswith(package + ".") else None
                if found is not None:
                    todo.append(found)
    return offenders


def test_every_title_has_rules_and_bots_and_the_rules_never_import_the_bots() -> None:
    """A title is rules/ and bots/ (and what joins them); nothing under rules/ reaches a bot (architecture.md)."""
    from domain import titles

    shipped = {ROOT / "domain" / module.split(".")[1] for module in
               (type(title).__module__ for title in titles.all_titles()) if module.startswith("domain.")}
    packages = sorted({*_title_packages(ROOT), *shipped})
    assert {"greatfire", "london"} <= {p.name for p in packages}
    assert _missing_parts(packages) == []
    offenders = {path: bot for p in packages for path, bot in _rules_reaching_bots(ROOT, p).items()}
    assert offenders == {}


def test_the_title_rule_would_catch_an_offender(tmp_path: Path) -> None:
    """Direct, relative, package-member and indirect imports of a bot from the rules are all found."""
    files = {
        "domain/__init__.py": "",
        "domain/bots.py": "",
        "domain/fake/__init__.py": "",
        "domain/fake/title.py": "from domain.fake.bots.greedy import choose\n",
        "domain/fake/state.py": "import json\n",
        "domain/fake/rules/__init__.py": "",
        "domain/fake/rules/clean.py": "from domain.fake.state import State\nfrom domain.fake.rules import clean\n",
        "domain/fake/rules/direct.py": "def f():\n    from domain.fake.bots import greedy\n",
        "domain/fake/rules/relative.py": "from ..bots.greedy import choose\n",
        "domain/fake/rules/member.py": "from domain.fake import bots\n",
        "domain/fake/rules/generic.py": "import domain.bots\n",
        "domain/fake/rules/indirect.py": "from domain.fake import state, title\n",
        "domain/fake/bots/__init__.py": "",
        "domain/fake/bots/greedy.py": "from domain.fake.rules import clean\n",
        "domain/half/__init__.py": "",
        "domain/half/rules/__init__.py": "",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    packages = _title_packages(tmp_path)
    assert [p.name for p in packages] == ["fake", "half"]
    assert _missing_parts(packages) == ["half/bots"]
    assert _rules_reaching_bots(tmp_path, packages[0]) == {
        "domain/fake/rules/direct.py": "domain.fake.bots",
        "domain/fake/rules/generic.py": "domain.bots",
        "domain/fake/rules/indirect.py": "domain.fake.bots.greedy",
        "domain/fake/rules/member.py": "domain.fake.bots",
        "domain/fake/rules/relative.py": "domain.fake.bots.greedy",
    }
