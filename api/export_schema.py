"""Write what clients generate code from, as the code defines it: the GraphQL schema to schema.graphql and every
title's JSON Schemas to docs/schemas/<title>/<part>.schema.json: python -m firebreak.api.export_schema [--check]."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from strawberry.printer import print_schema

from firebreak.api.schema import schema
from firebreak.domain import titles

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_FILE = ROOT / "schema.graphql"
JSON_SCHEMAS = ROOT / "docs" / "schemas"


def schema_text() -> str:
    """The SDL of the schema, with a trailing newline."""
    return print_schema(schema).rstrip() + "\n"


def json_schema_files() -> dict[Path, str]:
    """Every title's published JSON Schemas: file -> text."""
    return {JSON_SCHEMAS / title.id / f"{part}.schema.json": json.dumps(schema, indent=2) + "\n"
            for title in titles.all_titles() for part, schema in title.schemas().items()}


def outdated() -> list[str]:
    """The exported files that differ from what the code defines (or are missing, or left over)."""
    wanted = {SCHEMA_FILE: schema_text(), **json_schema_files()}
    stale = [str(path.relative_to(ROOT)) for path, text in wanted.items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    extra = [str(p.relative_to(ROOT)) for p in JSON_SCHEMAS.rglob("*.schema.json") if p not in wanted]
    return stale + extra


def main(argv: list[str] | None = None) -> int:
    """Write the file, or with --check exit 1 when it is out of date."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    if args.check:
        stale = outdated()
        if stale:
            print(f"out of date: {', '.join(stale)}: run python -m firebreak.api.export_schema", file=sys.stderr)
            return 1
        return 0
    SCHEMA_FILE.write_text(schema_text(), encoding="utf-8")
    for left_over in JSON_SCHEMAS.rglob("*.schema.json"):
        left_over.unlink()
    for path, text in json_schema_files().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
