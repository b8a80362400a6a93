"""Write the GraphQL schema, as the code defines it, to schema.graphql: python -m api.export_schema [--check]."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from strawberry.printer import print_schema

from api.schema import schema

SCHEMA_FILE = Path(__file__).resolve().parent.parent / "schema.graphql"


def schema_text() -> str:
    """The SDL of the schema, with a trailing newline."""
    return print_schema(schema).rstrip() + "\n"


def main() -> int:
    """Write the file, or with --check exit 1 when it is out of date."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    text = schema_text()
    if args.check:
        current = SCHEMA_FILE.read_text(encoding="utf-8") if SCHEMA_FILE.exists() else ""
        if current != text:
            print("schema.graphql is out of date: run python -m api.export_schema", file=sys.stderr)
            return 1
        return 0
    SCHEMA_FILE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
