"""Write what clients generate code from, as the code defines it: the GraphQL schema to schema.graphql and every
title's JSON Schemas to docs/schemas/<title>/<part>.schema.json, under a folder (the checkout's root when run there):
python -m firebreak.api.export_schema [--out FOLDER] [--check].

A tool for the repository, never needed by the service: the service answers with the same schemas from the code
(GraphQL introspection, /v1/titles/{id}), so an installed Firebreak reads none of these files.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from strawberry.printer import print_schema

from firebreak.api.schema import schema
from firebreak.domain import titles

SCHEMA_FILE = "schema.graphql"
JSON_SCHEMAS = Path("docs") / "schemas"


def schema_text() -> str:
    """The SDL of the schema, with a trailing newline."""
    return print_schema(schema).rstrip() + "\n"


def json_schema_files(out: Path) -> dict[Path, str]:
    """Every title's published JSON Schemas under the folder `out`: file -> text."""
    return {out / JSON_SCHEMAS / title.id / f"{part}.schema.json": json.dumps(schema, indent=2) + "\n"
            for title in titles.all_titles() for part, schema in title.schemas().items()}


def wanted_files(out: Path) -> dict[Path, str]:
    """Every exported file under the folder `out`, with its text."""
    return {out / SCHEMA_FILE: schema_text(), **json_schema_files(out)}


def outdated(out: Path) -> list[str]:
    """The exported files under `out` that differ from what the code defines (or are missing, or left over)."""
    wanted = wanted_files(out)
    stale = [str(path.relative_to(out)) for path, text in wanted.items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    extra = [str(p.relative_to(out)) for p in (out / JSON_SCHEMAS).rglob("*.schema.json") if p not in wanted]
    return stale + extra


def write(out: Path) -> None:
    """Write every exported file under `out`, removing JSON Schemas of parts or titles that are gone."""
    for left_over in (out / JSON_SCHEMAS).rglob("*.schema.json"):
        left_over.unlink()
    for path, text in wanted_files(out).items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """Write the files, or with --check exit 1 when they are out of date."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path.cwd(),
                        help="the folder to write schema.graphql and docs/schemas/ under (default: the current one)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a file is out of date")
    args = parser.parse_args(argv)
    out: Path = args.out
    if args.check:
        stale = outdated(out)
        if stale:
            print(f"out of date: {', '.join(stale)}: run python -m firebreak.api.export_schema", file=sys.stderr)
            return 1
        return 0
    write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
