"""The firebreak command: serve (everything), api, worker, schema (export), play (the local terminal game).

    firebreak serve [--port 8000] ...   the API, RQ worker(s) and an embedded Redis when REDIS_URL is not set
    firebreak api [--port 8000] ...     one API server (uvicorn) on the Redis REDIS_URL names
    firebreak worker [--burst]          one RQ worker
    firebreak schema [--check] [--out D] write (or check) schema.graphql, the JSON Schemas and the settings reference
    firebreak play --title greatfire    a match in the terminal against bots (no server)

Every setting is an environment variable; `--help` on serve, api and worker lists those each reads (all of them:
`firebreak --help`). A command that finds a bad setting exits with status 2 and one message naming every bad
variable; `serve` and `api` exit with status 1 when their port is taken.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from firebreak import __version__
from firebreak.matches.envsettings import EnvSettings, SettingsError, read_all
from firebreak.settings_reference import ALL_SETTINGS, help_text

BAD_SETTINGS = 2


def parser() -> argparse.ArgumentParser:
    """The command line: one subcommand per thing firebreak runs."""
    from firebreak import serve
    from firebreak.api.settings import API_SETTINGS
    from firebreak.workers.settings import WORKER_SETTINGS

    top = argparse.ArgumentParser(prog="firebreak", description=__doc__, epilog=help_text(ALL_SETTINGS),
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    top.add_argument("--version", action="version", version=f"firebreak {__version__}")
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, summary: str, run: Callable[[argparse.Namespace], int],
                settings: Sequence[type[EnvSettings]] = ()) -> argparse.ArgumentParser:
        epilog = help_text(settings) if settings else "This command reads no settings."
        sub = commands.add_parser(name, help=summary, description=summary, epilog=epilog,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
        sub.set_defaults(run=run)
        return sub

    serve.add_arguments(command("serve", "Run the service: the API, RQ worker(s), and an embedded Redis (its data "
                                "folder locked) when REDIS_URL is not set; children that die are restarted.",
                                _serve, ALL_SETTINGS))
    api = command("api", "Run one API server (uvicorn) on the Redis REDIS_URL names.", _api, API_SETTINGS)
    api.add_argument("--host", default="127.0.0.1")
    api.add_argument("--port", type=int, default=8000)
    api.add_argument("--workers", type=int, default=1,
                     help="API processes behind the one port (uvicorn --workers); /metrics adds up all of them")
    worker = command("worker", "Run one RQ worker (bots, timers, webhooks, archiving) on the Redis REDIS_URL names.",
                     _worker, WORKER_SETTINGS)
    worker.add_argument("--burst", action="store_true", help="exit once the queue is empty")
    schema = command("schema", "Write schema.graphql, every title's JSON Schemas (docs/schemas) and the settings "
                     "reference (docs/reference/settings.md) from the code, under --out (in a checkout: its root).",
                     _schema)
    schema.add_argument("--check", action="store_true", help="only check they are up to date (status 1 if not)")
    schema.add_argument("--out", type=Path, default=Path.cwd(), help="the folder to write under (default: this one)")
    play = command("play", "Play a match in the terminal against bots (no server needed).", _play)
    play.add_argument("args", nargs=argparse.REMAINDER, help="the game's options: firebreak play --help")
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command the arguments name; its exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["play"]:  # the game has its own options (and --help): hand them all over
        from firebreak.domain import play

        return play.main(args[1:])
    parsed = parser().parse_args(args)
    run: Callable[[argparse.Namespace], int] = parsed.run
    return run(parsed)


def _refuse_bad_settings(who: str, models: Sequence[type[EnvSettings]]) -> int | None:
    """Check every setting the command reads: on a bad one, say which (all of them) and return status 2."""
    try:
        read_all(models)
    except SettingsError as exc:
        print(f"firebreak {who}: {exc}", file=sys.stderr, flush=True)
        return BAD_SETTINGS
    return None


def _serve(args: argparse.Namespace) -> int:
    from firebreak import serve

    return serve.run(args)


def _api(args: argparse.Namespace) -> int:
    from firebreak import serve
    from firebreak.api.metrics import FOLDER
    from firebreak.api.settings import API_SETTINGS

    refused = _refuse_bad_settings("api", API_SETTINGS)
    if refused is not None:
        return refused
    try:
        sock = serve.listen(args.host, args.port)  # bound here first: a taken port stops the start, named
    except OSError as exc:
        return serve.refuse(serve.unbindable(args.host, args.port, exc), who="firebreak api")
    # several processes share one metrics folder: a fresh one made here unless PROMETHEUS_MULTIPROC_DIR names one
    # (then it is the operator's, maybe shared with other servers, to empty before they start)
    made = serve.metrics_folder(os.environ) if args.workers > 1 and not os.environ.get(FOLDER) else None
    try:
        from firebreak import apiserver

        print(f"firebreak api on http://{args.host}:{args.port}/graphql", file=sys.stderr, flush=True)
        # uvicorn stops gracefully on SIGTERM / Ctrl-C, then raises the signal again for the handler it found:
        # let that be a no-op, so a requested stop exits with status 0
        for stop in (signal.SIGTERM, signal.SIGINT):
            signal.signal(stop, lambda *_: None)
        apiserver.run(sock, args.workers)  # the socket as the TCP socket it is: TCP_NODELAY on each connection
    finally:
        sock.close()
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)
    return 0


def _worker(args: argparse.Namespace) -> int:
    from firebreak.workers import main as worker

    worker.main(["--burst"] if args.burst else [])
    return 0


def _schema(args: argparse.Namespace) -> int:
    from firebreak import settings_reference
    from firebreak.api import export_schema

    out: Path = args.out
    flags = ["--check"] if args.check else []
    return max(export_schema.main([*flags, "--out", str(out)]),
               settings_reference.main([*flags, "--output", str(out / settings_reference.OUTPUT)]))


def _play(args: argparse.Namespace) -> int:  # main hands `play ...` over before parsing; this serves the parser
    from firebreak.domain import play

    return play.main(args.args)


if __name__ == "__main__":
    sys.exit(main())
