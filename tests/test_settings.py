"""The settings models (issue 27): types and bounds on every field, one error naming every bad variable, secrets
kept out of errors and repr, every variable the code reads documented once in docs/reference/settings.md, and that
file generated from the models."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from firebreak.api.admin import AdminCredential, AdminSettings
from firebreak.archive.database import DatabaseSettings
from firebreak.matches.config import Settings
from firebreak.matches.embedded import ServerSettings, redis_server_binary
from firebreak.matches.envsettings import EnvSettings, SettingsError, read_all, variable
from firebreak.matchmaking.config import SeekSettings
from firebreak.notifications.webhooks.settings import WebhookSettings
from firebreak.notifications.webhooks.signing import PREFIX
from firebreak.players.config import PlayerSettings
from firebreak.settings_reference import ALL_SETTINGS, markdown, names, outdated
from firebreak.workers.budget import BudgetSettings

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "reference" / "settings.md"
PACKAGES = ("domain", "matches", "players", "archive", "ratings", "notifications", "push", "matchmaking", "api",
            "workers", "integrations")
SECRET = "s3cr3t-value-nobody-may-see"


def test_the_settings_reference_is_up_to_date() -> None:
    assert not outdated(REFERENCE), "run python -m firebreak.settings_reference (or firebreak schema)"


def test_every_variable_is_documented_once_and_firebreak_redis_server_among_them() -> None:
    listed = names()
    assert len(listed) == len(set(listed)), "a variable set by two fields"
    text = REFERENCE.read_text(encoding="utf-8")
    for name in listed:
        assert text.count(f"| `{name}` |") == 1, name
    assert "FIREBREAK_REDIS_SERVER" in listed and "PROMETHEUS_MULTIPROC_DIR" in listed and "REDIS_URL" in listed


def test_every_field_has_a_variable_a_description_and_a_section() -> None:
    for model in ALL_SETTINGS:
        assert model.section, model
        for name, info in model.model_fields.items():
            assert variable(model, name) != name, f"{model.__name__}.{name} names no variable"
            assert info.description, f"{model.__name__}.{name} has no description"


def _string_literals(path: Path) -> set[str]:
    return {node.value for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)}


def test_every_variable_the_code_names_is_a_setting_of_a_model() -> None:
    """A variable read anywhere in the service's code (a string naming FIREBREAK_*, REDIS_URL...) is a field of a
    model, so it is typed, checked at start and documented."""
    known = set(names())
    seen: set[str] = set()
    named: dict[str, set[str]] = {}
    pattern = re.compile(r"\b(FIREBREAK_[A-Z0-9_]*[A-Z0-9]|QUEUE_REDIS_URL|REDIS_URL|PROMETHEUS_MULTIPROC_DIR)\b")
    for folder in (*PACKAGES, "firebreak", "scripts"):
        for path in (ROOT / folder).rglob("*.py"):
            for literal in _string_literals(path):
                for name in pattern.findall(literal):
                    seen.add(name)
                    if not any(k.startswith(name) for k in known):  # a prefix in prose (FIREBREAK_WEBHOOK_...) is fine
                        named.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    assert named == {}
    assert {"FIREBREAK_CORS_ORIGINS", "QUEUE_REDIS_URL", "FIREBREAK_REDIS_SERVER"} <= seen  # the scan sees them


def test_only_the_settings_models_read_the_environment() -> None:
    """No module reads os.environ or getenv for a setting of its own: the models do (serve and the CLI hand the
    environment to their children)."""
    allowed = {"matches/envsettings.py", "firebreak/serve.py", "firebreak/cli.py"}
    offenders = []
    for folder in (*PACKAGES, "firebreak"):
        for path in (ROOT / folder).rglob("*.py"):
            relative = str(path.relative_to(ROOT))
            text = path.read_text(encoding="utf-8")
            if re.search(r"os\.environ|getenv\(", text):
                offenders.append(relative)
    assert sorted(offenders) == sorted(allowed)


def test_one_error_names_every_bad_variable_with_what_it_must_be() -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_env({"FIREBREAK_TICK_SECONDS": "0", "FIREBREAK_APPENDFSYNC": "sometimes",
                           "FIREBREAK_MAX_BODY_BYTES": "lots", "FIREBREAK_SECONDS_PER_JOB": "inf",
                           "REDIS_URL": "http://cache:6379", "FIREBREAK_CORS_ORIGINS": "ftp://app.example"})
    text = str(caught.value)
    assert text.startswith("6 settings are not usable:")
    for line in ("FIREBREAK_TICK_SECONDS must be a positive number, not '0'",
                 "FIREBREAK_APPENDFSYNC must be one of everysec, always, not 'sometimes'",
                 "FIREBREAK_MAX_BODY_BYTES must be a positive whole number, not 'lots'",
                 "FIREBREAK_SECONDS_PER_JOB must be a number >= 0 and below 300, not 'inf'",
                 "REDIS_URL must be a redis://, rediss:// or unix:// URL",
                 "FIREBREAK_CORS_ORIGINS must be \"*\" or comma-separated origins"):
        assert line in text, text
    assert len(caught.value.problems) == 6


def test_read_all_names_the_bad_variables_of_every_model_at_once() -> None:
    env = {"FIREBREAK_QUEUE": "q", "FIREBREAK_SEEK_TTL": "-1", "FIREBREAK_WEBHOOK_ATTEMPTS": "0",
           "FIREBREAK_ACCESS_TOKEN_TTL": "soon", "FIREBREAK_SEARCH_ITERATIONS": "2.5"}
    with pytest.raises(SettingsError) as caught:
        read_all(ALL_SETTINGS, env)
    assert {p.split()[0] for p in caught.value.problems} == {
        "FIREBREAK_SEEK_TTL", "FIREBREAK_WEBHOOK_ATTEMPTS", "FIREBREAK_ACCESS_TOKEN_TTL", "FIREBREAK_SEARCH_ITERATIONS"}
    read = read_all(ALL_SETTINGS, {"FIREBREAK_QUEUE": "q", "FIREBREAK_SEEK_TTL": "30"})
    assert read[Settings].queue == "q" and read[SeekSettings].ttl == 30


@pytest.mark.parametrize(("model", "env"), [
    (PlayerSettings, {"FIREBREAK_SESSION_SECRET": SECRET}),  # too short
    (PlayerSettings, {"FIREBREAK_JWT_ISSUER": "https://id.example", "FIREBREAK_JWT_AUDIENCE": "a",
                      "FIREBREAK_JWT_SECRET": SECRET}),
    (WebhookSettings, {"FIREBREAK_WEBHOOK_URL": "https://hooks.example", "FIREBREAK_WEBHOOK_SECRET": SECRET}),
    (WebhookSettings, {"FIREBREAK_WEBHOOK_URL": "https://hooks.example",
                       "FIREBREAK_WEBHOOK_SECRET": f"{PREFIX}{SECRET} {PREFIX}a {PREFIX}b"}),
    (AdminSettings, {"FIREBREAK_ADMIN_TOKEN": SECRET[:20]}),
    (DatabaseSettings, {"FIREBREAK_DATABASE_URL": f"no such scheme {SECRET}"}),
])
def test_a_secret_never_appears_in_an_error(model: type[EnvSettings], env: dict[str, str]) -> None:
    with pytest.raises(SettingsError) as caught:
        model.from_env(env)
    assert SECRET[:20] not in str(caught.value) and SECRET[:20] not in repr(caught.value)
    assert str(caught.value).startswith(("FIREBREAK_", "the operator's")), caught.value


def test_a_secret_never_appears_in_a_repr() -> None:
    secret = SECRET + "-of-thirty-two-bytes"
    players = PlayerSettings(session_secret=secret, jwt_issuer="https://id.example", jwt_audience="a",
                             jwt_secret=secret)
    database = DatabaseSettings.from_env({"FIREBREAK_DATABASE_URL": f"postgresql://u:{secret}@db/archive"})
    for shown in (repr(players), str(players), repr(AdminSettings(admin_token=secret)),
                  repr(AdminCredential(secret)), repr(database)):
        assert secret not in shown, shown
    assert players.session_secret == secret and database.url.endswith("@db/archive")


def test_building_a_model_in_code_reads_no_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings(...) holds the documented defaults wherever it runs; from_env reads the environment."""
    monkeypatch.setenv("FIREBREAK_QUEUE", "from-the-environment")
    assert Settings().queue == "firebreak"
    assert Settings.from_env().queue == "from-the-environment"
    assert Settings.from_env({}).queue == "firebreak"


def test_an_empty_variable_counts_as_unset_and_lists_are_comma_separated() -> None:
    settings = Settings.from_env({"FIREBREAK_QUEUE": "", "FIREBREAK_FINISHED_TTL": "",
                                  "FIREBREAK_CORS_ORIGINS": "https://a.example, http://localhost:3000"})
    assert settings == Settings(cors_origins=("https://a.example", "http://localhost:3000"))
    players = PlayerSettings.from_env({"FIREBREAK_JWT_ISSUER": "https://id.example", "FIREBREAK_JWT_AUDIENCE": "a",
                                       "FIREBREAK_JWKS_URL": "https://id.example/jwks",
                                       "FIREBREAK_JWT_ALGORITHMS": "RS256, ES256"})
    assert players.algorithms == ("RS256", "ES256")
    assert BudgetSettings.from_env({"FIREBREAK_SEARCH_SECONDS": ""}).search_seconds is None


def test_the_models_are_frozen_and_hashable() -> None:
    settings = Settings()
    with pytest.raises(ValueError, match="frozen"):
        settings.queue = "other"  # type: ignore[misc]
    assert hash(settings) == hash(Settings()) and settings == Settings()


def test_firebreak_redis_server_must_be_a_program(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SettingsError, match="FIREBREAK_REDIS_SERVER must name a redis-server program"):
        ServerSettings.from_env({"FIREBREAK_REDIS_SERVER": str(tmp_path / "absent")})
    program = tmp_path / "redis-server"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.setenv("FIREBREAK_REDIS_SERVER", str(program))
    assert redis_server_binary() == str(program)


def test_the_reference_shows_types_defaults_bounds_and_marks_secrets() -> None:
    page = markdown()
    assert ("| `FIREBREAK_SECONDS_PER_JOB` | number | `20.0` | >= 0, < 300, finite | Seconds one worker job may run"
            in page)
    assert "| `FIREBREAK_APPENDFSYNC` | one of `everysec`, `always` | `always` |" in page
    assert "| `FIREBREAK_SEARCH_ITERATIONS` | integer (or unset) | (unset) | > 0 |" in page
    session = next(line for line in page.splitlines() if line.startswith("| `FIREBREAK_SESSION_SECRET`"))
    assert "**Secret**" in session
