"""The TypeScript SDK (clients/typescript): its types are generated from the served OpenAPI document and must not
drift from it (like schema.graphql), it and the Node example bot pass tsc --strict, its own tests (node --test)
pass against a live service (two players seek each other, play London and The Great Fire to the end, rematch),
the samples of docs/app-developers.md ("The TypeScript SDK") and docs/reference/rest.md ("Typed views, actions and
events per title") run as printed, and typecheck/titled.ts compiles (the per-title types: a London action of a type
London lacks is an error, a view narrowed on `title` has the title's fields).

One module-scoped install (npm ci from the package's lock file, then the build) serves every test here."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from firebreak.api.rest.routes import document
from tests.docs import samples
from tests.service.conftest import api_process

ROOT = Path(__file__).resolve().parents[2]
SDK = ROOT / "clients" / "typescript"
PAGE = "docs/app-developers.md"
SECTION = "The TypeScript SDK"
TYPED_PAGE = "docs/reference/rest.md"
TYPED_SECTION = "Typed views, actions and events per title"
DEADLINE = 600  # seconds: a bound on a step that must end, not a measure


def _run(cwd: Path, *command: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(list(command), cwd=cwd, capture_output=True, text=True, timeout=DEADLINE, check=False,
                          env={**os.environ, **(env or {})})
    assert done.returncode == 0, (command, done.stdout[-4000:], done.stderr[-4000:])
    return done


@pytest.fixture(scope="module")
def sdk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the package, installed from its lock file (npm ci) and built (tsc --strict: dist/). A copy, so
    that the tree's node_modules and dist/, which the Node example bot runs on (tests/service/test_examples.py, in
    another test process maybe at the same time), are never rewritten under it."""
    if shutil.which("npm") is None or shutil.which("node") is None:
        reason = "node and npm are needed (scripts/bootstrap.sh --tests installs them)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(reason + " (in CI they must be there)")
        pytest.skip(reason)
    work = tmp_path_factory.mktemp("sdk")
    for name in ("package.json", "package-lock.json", "tsconfig.json"):
        shutil.copy(SDK / name, work / name)
    for folder in ("src", "test", "typecheck"):
        shutil.copytree(SDK / folder, work / folder)
    _run(work, "npm", "ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error")
    _run(work, "npm", "run", "--silent", "build")
    return work


def test_the_committed_types_are_generated_from_the_served_document(sdk: Path, tmp_path: Path) -> None:
    served = tmp_path / "openapi.json"
    served.write_text(json.dumps(document()), encoding="utf-8")
    out = tmp_path / "schema.d.ts"
    _run(sdk, "node_modules/.bin/openapi-typescript", str(served), "--default-non-nullable", "false", "-o", str(out))
    committed = (SDK / "src" / "schema.d.ts").read_text(encoding="utf-8")
    assert out.read_text(encoding="utf-8") == committed, (
        "clients/typescript/src/schema.d.ts is stale: regenerate it (see clients/typescript/README.md)")


def _sample(sdk: Path) -> Path:
    """The page's sample, written inside the package copy (where it imports @firebreak/client by name)."""
    [block] = samples.blocks(PAGE, SECTION, "js")
    path = sdk / ".sample" / "app-developers.mjs"
    path.parent.mkdir(exist_ok=True)
    path.write_text(block, encoding="utf-8")
    return path


def _typed_sample(sdk: Path) -> Path:
    """The REST reference's sample of the per-title types, written beside the other."""
    [block] = samples.blocks(TYPED_PAGE, TYPED_SECTION, "js")
    path = sdk / ".sample" / "rest-typed.mjs"
    path.parent.mkdir(exist_ok=True)
    path.write_text(block, encoding="utf-8")
    return path


def test_the_example_bot_and_the_docs_sample_pass_tsc_strict(sdk: Path) -> None:
    """The SDK itself passed tsc --strict in its build; here the JavaScript that uses it, checked as TypeScript."""
    bot = ROOT / "examples" / "node" / "bot.mjs"
    if not (ROOT / "examples" / "node" / "node_modules" / "graphql-ws").is_dir():
        pytest.skip("examples/node/node_modules is needed (scripts/bootstrap.sh --tests installs it)")
    _sample(sdk)
    _typed_sample(sdk)
    config = {"compilerOptions": {"target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",
                                  "lib": ["ES2022", "DOM"], "types": ["node"], "typeRoots": ["./node_modules/@types"],
                                  "paths": {"@firebreak/client": ["./dist/index.d.ts"]}, "allowJs": True,
                                  "checkJs": True, "strict": True, "noEmit": True, "skipLibCheck": True},
              "files": [str(bot), "typecheck/titled.ts"], "include": [".sample/*.mjs"]}
    (sdk / "examples.tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    _run(sdk, "node_modules/.bin/tsc", "-p", "examples.tsconfig.json")


def test_the_sdk_tests_pass_against_the_live_service(sdk: Path, server: str, redis_url: str, tmp_path: Path) -> None:
    """FIREBREAK_SHORT_URL: a second API process over the same Redis whose access tokens live 3 seconds, for the
    stream that outlives its token."""
    with api_process(redis_url, tmp_path / "short-api.log", {"FIREBREAK_ACCESS_TOKEN_TTL": "3"}) as short:
        done = _run(sdk, "node", "--test", "--test-timeout=120000", "--test-reporter=spec", "test/",
                    env={"FIREBREAK_URL": server, "FIREBREAK_SHORT_URL": short})
    assert "skipped 0" in done.stdout, done.stdout[-4000:]
    assert "# fail 0" in done.stdout or " fail 0" in done.stdout, done.stdout[-4000:]


def test_the_docs_sample_runs_as_printed(sdk: Path, server: str) -> None:
    done = _run(sdk, "node", str(_sample(sdk)), env={"FIREBREAK_URL": server})
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith("signed in as "), lines
    assert any(line.startswith("played ") for line in lines), lines
    assert lines[-1] == "over: RESIGNED", lines


def test_the_typed_rest_sample_runs_as_printed(sdk: Path, server: str) -> None:
    done = _run(sdk, "node", str(_typed_sample(sdk)), env={"FIREBREAK_URL": server})
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith("london: money "), lines
    assert lines[-1].endswith(": ACCEPTED"), lines
