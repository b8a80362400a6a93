"""The dependency rule: domain/ imports only the standard library (and pydantic) and itself."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ALLOWED_THIRD_PARTY = {"pydantic"}
FIRST_PARTY = {"domain", "matches", "players", "archive", "ratings", "notifications", "matchmaking", "api", "workers",
               "integrations", "push", "social", "chat", "moderation"}


def _top(name: str) -> str:
    """The package an absolute import names: the first part, or the second under the firebreak namespace (the
    wheel installs api/, domain/, ... as firebreak.api, firebreak.domain, ...)."""
    parts = name.split(".")
    return parts[1] if parts[0] == "firebreak" and len(parts) > 1 else parts[0]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(_top(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(_top(node.module))
    return names


def _bare_imports(path: Path) -> set[str]:
    """The first-party packages a file imports by their bare name (api, domain, ...) instead of firebreak.<name>."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names if alias.name.split(".")[0] in FIRST_PARTY)
        elif (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
              and node.module.split(".")[0] in FIRST_PARTY):
            names.add(node.module)
    return names


def test_first_party_code_is_imported_under_the_firebreak_name() -> None:
    """One import package (issue 27): a bare `import api` would load a second copy of a module in a checkout and
    fail outright from the installed wheel, which has only firebreak.*."""
    offenders = {}
    for folder in (*sorted(FIRST_PARTY), "bench", "scripts", "tests", "examples", "firebreak"):
        for path in (ROOT / folder).rglob("*.py"):
            if ".venv" in path.parts or "node_modules" in path.parts:
                continue
            if bare := _bare_imports(path):
                offenders[str(path.relative_to(ROOT))] = sorted(bare)
    assert offenders == {}


def test_the_namespace_rule_would_catch_a_bare_import(tmp_path: Path) -> None:
    sample = tmp_path / "bad.py"
    sample.write_text("import api.app\nfrom domain import titles\nfrom firebreak.matches import store\n")
    assert _bare_imports(sample) == {"api.app", "domain"}


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
        out[str(path.relative_to(ROOT))] = _imports(path) & FIRST_PARTY
    return out


def test_layers_point_inward() -> None:
    """domain <- matches <- players <- (api | workers); api and workers never import each other. The services a
    player comes back for sit between: the archive and ratings on matches, notifications on players, matchmaking
    on ratings."""
    allowed = {
        "domain": {"domain"},
        "matches": {"domain", "matches"},
        "players": {"matches", "players"},
        "archive": {"domain", "matches", "archive"},
        "ratings": {"domain", "matches", "archive", "ratings"},
        "notifications": {"domain", "matches", "players", "notifications"},
        "push": {"domain", "matches", "players", "notifications", "push"},  # pushes to closed apps (issue 48)
        # friends, blocks, search, presence (issue 49), below matchmaking (seeks keep blocked pairs apart)
        "social": {"domain", "matches", "players", "archive", "ratings", "social"},
        "matchmaking": {"domain", "matches", "players", "archive", "ratings", "notifications", "matchmaking",
                        "social"},
        # chat beside the board, and the operator's moderation (issue 49)
        "chat": {"domain", "matches", "players", "archive", "chat"},
        "moderation": {"domain", "matches", "players", "archive", "moderation"},
        "api": {"domain", "matches", "players", "archive", "ratings", "notifications", "matchmaking", "push", "social",
                "chat", "moderation", "api"},
        "workers": {"domain", "matches", "players", "archive", "ratings", "notifications", "matchmaking", "push",
                    "social", "chat", "moderation", "workers"},
        "integrations": {"domain", "integrations"},  # the learning adapters (rl extra) sit on the engine only
    }
    offenders = {}
    for package, may in allowed.items():
        for path, names in _first_party_imports(package).items():
            if names - may:
                offenders[path] = sorted(names - may)
    assert offenders == {}


def test_the_two_api_surfaces_never_import_each_other() -> None:
    """api/rest and api/schema both render matches/' read model; what they share lives in api/ or matches/."""
    offenders = {}
    for surface, other in (("rest", "firebreak.api.schema"), ("schema", "firebreak.api.rest")):
        for path in (ROOT / "api" / surface).rglob("*.py"):
            imported = _imported_modules(path, _module_name_at(ROOT, path))
            bad = {name for name in imported if name == other or name.startswith(other + ".")}
            if bad:
                offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert offenders == {}


def _title_words() -> set[str]:
    """Every registered title's id and name, and its package name, lower-cased."""
    from firebreak.domain import titles

    words = set()
    for title in titles.all_titles():
        words |= {title.id.lower(), title.name.lower(), type(title).__module__.split(".")[2].lower()}
        words.add(title.name.split(":")[0].split("(")[0].strip().lower())
    return words


def _service_files() -> list[Path]:
    """The code that must serve any title without naming one: api/, matches/, players/, the archive, ratings,
    notifications, matchmaking, workers/, integrations/ and generic domain/."""
    files = [p for package in ("api", "matches", "players", "archive", "ratings", "notifications", "push",
                               "social", "chat", "moderation", "matchmaking", "workers", "integrations")
             for p in (ROOT / package).rglob("*.py")]
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
    """The browser client's shell: every file under web/ but the title modules' folders (web/titles/<id>/),
    vendored third-party files (web/vendor/) and the catalogue of the client's words (web/locale/: generated by
    scripts/catalogues.py from every module, the title modules included, and from the titles' registry)."""
    web = ROOT / "web"
    return sorted(p for p in web.rglob("*") if p.is_file() and p.relative_to(web).parts[0] not in ("vendor", "locale")
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


BOT_MODULES = ("firebreak.domain.bots", "firebreak.domain.search")  # the generic bot levels, above every title's rules


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
    """The file under root that defines the dotted module name, if any (firebreak.<package> is root/<package>)."""
    parts = name.split(".")
    stem = root.joinpath(*(parts[1:] if parts[0] == "firebreak" else parts))
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
    package = f"firebreak.domain.{title.name}"
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
            for name in sorted(_imported_modules(path, _module_name_at(root, path))):
                if any(name == bad or name.startswith(bad + ".") for bad in forbidden):
                    offenders[str(start.relative_to(root))] = name
                    break
                found = _module_file(root, name) if name.startswith(package + ".") else None
                if found is not None:
                    todo.append(found)
    return offenders


def test_every_title_has_rules_and_bots_and_the_rules_never_import_the_bots() -> None:
    """A title is rules/ and bots/ (and what joins them); nothing under rules/ reaches a bot (architecture.md)."""
    from firebreak.domain import titles

    shipped = {ROOT / "domain" / module.split(".")[2] for module in
               (type(title).__module__ for title in titles.all_titles()) if module.startswith("firebreak.domain.")}
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
        "domain/fake/title.py": "from firebreak.domain.fake.bots.greedy import choose\n",
        "domain/fake/state.py": "import json\n",
        "domain/fake/rules/__init__.py": "",
        "domain/fake/rules/clean.py": ("from firebreak.domain.fake.state import State\n"
                                       "from firebreak.domain.fake.rules import clean\n"),
        "domain/fake/rules/direct.py": "def f():\n    from firebreak.domain.fake.bots import greedy\n",
        "domain/fake/rules/relative.py": "from ..bots.greedy import choose\n",
        "domain/fake/rules/member.py": "from firebreak.domain.fake import bots\n",
        "domain/fake/rules/generic.py": "import firebreak.domain.bots\n",
        "domain/fake/rules/indirect.py": "from firebreak.domain.fake import state, title\n",
        "domain/fake/bots/__init__.py": "",
        "domain/fake/bots/greedy.py": "from firebreak.domain.fake.rules import clean\n",
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
        "domain/fake/rules/direct.py": "firebreak.domain.fake.bots",
        "domain/fake/rules/generic.py": "firebreak.domain.bots",
        "domain/fake/rules/indirect.py": "firebreak.domain.fake.bots.greedy",
        "domain/fake/rules/member.py": "firebreak.domain.fake.bots",
        "domain/fake/rules/relative.py": "firebreak.domain.fake.bots.greedy",
    }

CIRCLE_CHECKED = ("domain", "matches", "players", "archive", "ratings", "notifications", "matchmaking", "api",
                  "workers", "integrations", "bench")  # and their imports


def _resolve(importer: str, is_package: bool, node: ast.Import | ast.ImportFrom, known: set[str]) -> set[str]:
    """The first-party modules an import statement loads (a from-import of a submodule loads the submodule)."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in known}
    base = node.module or ""
    if node.level:
        package = importer if is_package else importer.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{base}" if base else package
    out = {f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known}
    if base in known:
        out.add(base)
    return out


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_graph(root: Path, packages: tuple[str, ...]
                  ) -> tuple[dict[str, set[str]], dict[str, list[tuple[int, str]]]]:
    """Module -> the first-party modules it imports when loaded (module level, TYPE_CHECKING blocks left out), and
    module -> (line, module) of each import made inside a function."""
    files = {p: _module_name_at(root, p) for package in packages for p in (root / package).rglob("*.py")}
    known = set(files.values())
    eager: dict[str, set[str]] = {}
    deferred: dict[str, list[tuple[int, str]]] = {}
    for path, name in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        is_package = path.name == "__init__.py"
        eager[name], deferred[name] = set(), []

        def visit(node: ast.AST, in_function: bool, _name: str = name, _pkg: bool = is_package) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.If) and _type_checking_only(child):
                    for sub in child.orelse:
                        visit(sub, in_function)
                    continue
                if isinstance(child, ast.Import | ast.ImportFrom):
                    targets = _resolve(_name, _pkg, child, known)
                    if in_function:
                        deferred[_name].extend((child.lineno, t) for t in sorted(targets))
                    else:
                        eager[_name] |= targets
                visit(child, in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda))

        visit(tree, False)
    return eager, deferred


def _module_name_at(root: Path, path: Path) -> str:
    """The dotted name a file is imported as: the first-party packages sit under the firebreak namespace."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    if parts[0] in FIRST_PARTY:
        parts.insert(0, "firebreak")
    return ".".join(parts)


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    """Whether `start` leads to `goal` through the graph's imports and the packages modules sit in."""
    seen, frontier = {start}, [start]
    while frontier:
        module = frontier.pop()
        if module == goal:
            return True
        parents = {module.rsplit(".", n)[0] for n in range(1, module.count(".") + 1)}
        for nxt in (graph.get(module, set()) | parents) - seen:
            seen.add(nxt)
            frontier.append(nxt)
    return False


def _hidden_circles(root: Path, packages: tuple[str, ...]) -> list[str]:
    eager, deferred = _import_graph(root, packages)
    every = {module: eager[module] | {target for _, target in deferred[module]} for module in eager}
    return sorted(f"{module}:{line} imports {target}, which imports {module} back"
                  for module, imports in deferred.items() for line, target in imports
                  if _reaches(every, target, module))


def test_no_import_inside_a_function_closes_a_circle() -> None:
    """An import inside a function may defer loading something heavy, never hide an import circle (issue 23)."""
    assert _hidden_circles(ROOT, CIRCLE_CHECKED) == []


def test_the_circle_rule_would_catch_one(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text("def f():\n    from pkg import a\n    return a\n")
    (package / "c.py").write_text("def g():\n    from pkg import b\n    return b\n")  # no circle: nothing loads c
    (package / "f.py").write_text("def k():\n    from pkg import g\n")  # two deferred imports close this one
    (package / "g.py").write_text("def m():\n    from pkg import f\n")
    (package / "d.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import e\n")
    (package / "e.py").write_text("def h():\n    import pkg.d\n")  # d loads e only for the type checker
    assert _hidden_circles(tmp_path, ("pkg",)) == ["pkg.b:2 imports pkg.a, which imports pkg.b back",
                                                   "pkg.f:2 imports pkg.g, which imports pkg.f back",
                                                   "pkg.g:2 imports pkg.f, which imports pkg.g back"]
