"""``cribcam`` with subcommands; each lives in ``cribcam/commands/<name>.py``.

A command module defines ``register(subparsers)`` which adds its parser and sets
``func`` (``args -> exit code``). Errors meant for people (``ValueError``,
``CribcamError``, ``OSError``) print one line and exit with code 2; anything else
prints one line too (exit 1), and its traceback only when ``CRIBCAM_DEBUG`` is set.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pkgutil
import sys
from collections.abc import Sequence

from cribcam import commands


class CribcamError(Exception):
    """An error whose message is meant for the person at the keyboard."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cribcam", description="Count cribbage hands from photos.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        importlib.import_module(f"cribcam.commands.{info.name}").register(sub)
    return parser


def print_json(data: object) -> None:
    """Print ``data`` as indented JSON on stdout."""
    print(json.dumps(data, indent=2, ensure_ascii=False))


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (ValueError, CribcamError, OSError) as error:
        print(f"cribcam {args.command}: {one_line(error)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except MemoryError:
        print(f"cribcam {args.command}: ran out of memory; try a smaller input.", file=sys.stderr)
        return 1
    except Exception as error:  # never a traceback for a person; CRIBCAM_DEBUG=1 shows it for a developer
        if os.environ.get("CRIBCAM_DEBUG"):
            raise
        print(
            f"cribcam {args.command}: unexpected {type(error).__name__} ({one_line(error)}); "
            "run again with CRIBCAM_DEBUG=1 to see where, and report it.",
            file=sys.stderr,
        )
        return 1


def one_line(error: BaseException) -> str:
    """An error's message on one line (OSErrors without their errno tuple)."""
    if isinstance(error, OSError) and error.filename and error.strerror:
        return f"{error.filename}: {error.strerror}"
    return " ".join(str(error).split()) or type(error).__name__


if __name__ == "__main__":
    sys.exit(main())
