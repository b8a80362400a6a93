"""The reference of every setting, generated from the settings models so that it cannot drift from the code:
docs/reference/settings.md (python -m firebreak.settings_reference [--check] [--output FILE], or `firebreak
schema`) and the settings part of `firebreak --help`.

Each layer keeps its own model (matches/config.py, players/config.py, ...); this module only lists them.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import annotated_types
from pydantic.fields import FieldInfo

from firebreak.api.admin import AdminSettings
from firebreak.api.metrics import MetricsSettings
from firebreak.archive.database import DatabaseSettings
from firebreak.chat.config import ChatSettings
from firebreak.matches.config import Settings
from firebreak.matches.embedded import ServerSettings
from firebreak.matches.envsettings import EnvSettings, is_secret, variable
from firebreak.matchmaking.config import SeekSettings
from firebreak.notifications.webhooks.settings import WebhookSettings
from firebreak.players.config import PlayerSettings
from firebreak.push.settings import PushSettings
from firebreak.social.config import SocialSettings
from firebreak.workers.budget import BudgetSettings

# Every settings model of the service, in the reference's order
ALL_SETTINGS: tuple[type[EnvSettings], ...] = (Settings, PlayerSettings, AdminSettings, WebhookSettings, PushSettings,
                                               SeekSettings, SocialSettings, ChatSettings, BudgetSettings,
                                               DatabaseSettings, ServerSettings, MetricsSettings)
OUTPUT = Path("docs") / "reference" / "settings.md"  # relative to the working directory (the checkout's root)
COMMAND = "python -m firebreak.settings_reference"

INTRODUCTION = """\
Firebreak reads its settings from environment variables, each of them listed here once. Every one has a working
default: `firebreak serve` runs with none set. An empty variable counts as unset.

At its start, `firebreak serve`, `firebreak api` and `firebreak worker` read and check every setting they use and
refuse to start, with exit status 2, when any is not usable: one message names every bad variable and what it must
be. (An API started with uvicorn itself stops at its start with the same message.) Secrets (marked below) never
appear in a message, a log line or a `repr`.

This page is generated from the settings models (each layer's own, e.g. `matches/config.py`) by
`{command}` (or `firebreak schema`); a test fails when it is out of date.
`firebreak --help` lists the same settings.
"""


def fields(model: type[EnvSettings]) -> list[tuple[str, FieldInfo]]:
    """A model's settings in declaration order: (variable, field)."""
    return [(variable(model, name), info) for name, info in model.model_fields.items()]


def names(models: Iterable[type[EnvSettings]] = ALL_SETTINGS) -> list[str]:
    """Every variable the models read."""
    return [name for model in models for name, _ in fields(model)]


def kind(info: FieldInfo) -> str:
    """A field's type in words."""
    annotation = info.annotation
    optional = ""
    if type(None) in get_args(annotation) and get_origin(annotation) is not Literal:
        annotation = next(arg for arg in get_args(annotation) if arg is not type(None))
        optional = " (or unset)"
    if get_origin(annotation) is Literal:
        return "one of " + ", ".join(f"`{choice}`" for choice in get_args(annotation))
    if get_origin(annotation) is tuple:
        return "list" + optional
    words = {int: "integer", float: "number", bool: "boolean", str: "text"}
    return (words.get(annotation, str(annotation)) if isinstance(annotation, type) else str(annotation)) + optional


def bounds(info: FieldInfo) -> str:
    """A field's bounds in symbols (> 0, >= 60, < 300, at least 1 character), or ""."""
    out: list[str] = []
    for item in info.metadata:
        if isinstance(item, annotated_types.Gt):
            out.append(f"> {_number(item.gt)}")
        elif isinstance(item, annotated_types.Ge):
            out.append(f">= {_number(item.ge)}")
        elif isinstance(item, annotated_types.Lt):
            out.append(f"< {_number(item.lt)}")
        elif isinstance(item, annotated_types.Le):
            out.append(f"<= {_number(item.le)}")
        elif isinstance(item, annotated_types.MinLen) and item.min_length:
            out.append(f"at least {item.min_length} character" + ("s" if item.min_length > 1 else ""))
    if info.annotation in (float, float | None):
        out.append("finite")
    return ", ".join(out)


def default(info: FieldInfo) -> str:
    """A field's default as it would be written in the environment ("" for empty)."""
    value: Any = info.default
    if value is None:
        return "(unset)"
    if isinstance(value, tuple):
        return ",".join(str(item) for item in value)
    if isinstance(value, float) and value.is_integer():
        return f"{value:.1f}"
    return str(value)


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(models: Iterable[type[EnvSettings]] = ALL_SETTINGS) -> str:
    """The reference page: an introduction, then one table per model."""
    lines = ["# Settings", "", f"<!-- Generated by `{COMMAND}` from the settings models: do not edit by hand. -->",
             "", INTRODUCTION.format(command=COMMAND).rstrip(), ""]
    for model in models:
        lines += [f"## {model.section}", "", _cell(" ".join((model.__doc__ or "").split())),
                  f"(`{model.__module__}.{model.__qualname__}`)", "",
                  "| Variable | Type | Default | Bounds | Description |", "| --- | --- | --- | --- | --- |"]
        for name, info in fields(model):
            shown = default(info)
            cell = f"`{shown}`" if shown and shown != "(unset)" else (shown or "(empty)")
            description = (info.description or "") + (" **Secret**: never printed." if is_secret(info) else "")
            lines.append(f"| `{name}` | {kind(info)} | {_cell(cell)} | {bounds(info)} | {_cell(description)} |")
        lines.append("")
    return "\n".join(lines)


def help_text(models: Iterable[type[EnvSettings]] = ALL_SETTINGS, width: int = 100) -> str:
    """The settings part of a command's --help: each variable with its type, default and what it does."""
    out = ["settings (environment variables; an empty one counts as unset; the reference: docs/reference/settings.md):"]
    for model in models:
        out.append(f"\n  {model.section}:")
        for name, info in fields(model):
            shown = default(info)
            facts = ", ".join(part for part in (kind(info).replace("`", ""), bounds(info),
                                                f"default {shown or '(empty)'}") if part)
            out.append(f"    {name} ({facts})")
            description = (info.description or "").replace("`", "") + (" Secret." if is_secret(info) else "")
            out += textwrap.wrap(description, width, initial_indent=" " * 8, subsequent_indent=" " * 8)
    return "\n".join(out)


def outdated(path: Path = OUTPUT) -> bool:
    """Whether the file at path differs from what the models define (or is missing)."""
    return not path.exists() or path.read_text(encoding="utf-8") != markdown()


def write(path: Path = OUTPUT) -> None:
    """Write the reference page."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(markdown(), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Write docs/reference/settings.md, or with --check exit 1 when it is out of date."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only check that the file is up to date (status 1 if not)")
    parser.add_argument("--output", type=Path, default=OUTPUT, help=f"the file (default: {OUTPUT})")
    args = parser.parse_args(argv)
    if args.check:
        if outdated(args.output):
            print(f"out of date: {args.output}: run {COMMAND}", file=sys.stderr)
            return 1
        return 0
    write(args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
