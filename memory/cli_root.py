"""The command line as click runs it: parse options, call ``memory.api``, print. With
``cli_commands``, the only click importers; ``memory.cli`` is the entry (``memory.cli:main``),
which answers a ``memory query`` it fully understands without importing this module.

Every command is a thin translation of one ``memory.api`` function (a test reads this file
and ``cli_commands`` to hold them to that). This module holds the root group, the click side of
the plumbing every command shares (``memory.cli`` has the rest: ``guarded``'s exit-code table,
``_printable``) and ``memory query``; the other commands are defined in
``memory.cli_commands``, which the root group imports only when a command line names one of
them (or asks for the list: ``memory --help``): a ``memory query`` process defines no other
command and imports none of their modules.
"""
from __future__ import annotations

import contextlib
import functools
import os
import sys

import click

from . import api
from . import vocabulary as V
from .cli import (INTERNAL_ERROR_EXIT, INTERRUPTED_EXIT, PIPE_CLOSED_EXIT, _PROGRESS, _answer_text,  # noqa: F401
                  _printable, guarded, open_store_named)

# -- plumbing ----------------------------------------------------------------

def _open_store(ctx, *, create: bool = False):
    return open_store_named(ctx.obj.get("store"), create=create)


def _emit(value, as_json: bool, text=None) -> None:
    from .jsonio import dumps_text
    if as_json:
        click.echo(dumps_text(value))
    else:
        # every text view, not only statements: a user id, session or actor sent over HTTP reaches
        # stats, build, history and query's sources, and must not drive the operator's terminal
        click.echo(_printable(text(value)) if text else dumps_text(value, pretty=True))


def _run(as_json_param: str = "as_json"):
    """Translate library errors to output and exit status, in one place (``memory.cli.guarded``)."""
    def decorate(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return guarded(lambda: func(*args, **kwargs), kwargs.get(as_json_param, False), click.echo,
                           passthrough=(click.exceptions.Exit, click.ClickException, SystemExit))
        return wrapper
    return decorate


json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object (JSONL for streams).")
user_option = click.option("--user", "-u", required=True, help="The caller's scope: user:<USER>.")


def _store_first(args: list) -> list:
    """The command line with a ``--store`` given after the command moved before it, where the root
    group reads it: ``memory query "..." --user u --store ./mystore`` is what a newcomer types,
    and click refused it ("No such option '--store'"). Only when the line names no store before
    the command; nothing after ``--`` is read."""
    i = 0
    while i < len(args) and args[i].startswith("-"):   # the root's own options
        if args[i] == "--store" or args[i].startswith("--store="):
            return args
        i += 1
    end = args.index("--") if "--" in args else len(args)
    for j in range(i + 1, end):
        if args[j] == "--store" and j + 1 < end:
            return args[j:j + 2] + args[:j] + args[j + 2:]
        if args[j].startswith("--store="):
            return [args[j]] + args[:j] + args[j + 1:]
    return args


def _asks_for_json(args) -> bool:
    """Whether a command line asks for --json (before any ``--``), read before click parses it."""
    args = [str(arg) for arg in args or ()]
    return "--json" in (args[:args.index("--")] if "--" in args else args)


class _JsonUsageError(click.UsageError):
    """A usage error under --json: the one JSON error object every other error is, on stdout."""

    def show(self, file=None) -> None:
        from .jsonio import dumps_text
        where = f" (see: {self.ctx.command_path} --help)" if self.ctx is not None else ""
        click.echo(dumps_text({"error": {"code": "usage_error", "message": self.format_message() + where}}))


def _json_usage_error(exc: click.UsageError, as_json: bool) -> click.UsageError:
    if not as_json or isinstance(exc, (_JsonUsageError, click.exceptions.NoArgsIsHelpError)):
        return exc
    message = exc.format_message()
    if message.startswith("Got unexpected extra argument"):  # an unquoted statement: do not echo it
        message = "got unexpected extra arguments (not shown: they may be memory text); quote a statement " \
                  "or a query that has spaces"
    converted = _JsonUsageError(message, exc.ctx)
    converted.exit_code = exc.exit_code
    return converted


class _Cli(click.Group):
    """The root group. Click reports an unknown option, a missing argument or a bad choice as
    text before any command runs; with --json on the line it is a JSON error object instead.

    Its commands other than ``query`` are added by importing ``memory.cli_commands`` when a
    command line first asks for one of them or for the list (help, completion, docs)."""

    def list_commands(self, ctx):
        _add_the_other_commands()
        return super().list_commands(ctx)

    def get_command(self, ctx, name):
        if name not in self.commands:
            _add_the_other_commands()
        return super().get_command(ctx, name)

    def make_context(self, info_name, args, parent=None, **extra):
        as_json = _asks_for_json(args)
        if parent is None:
            args = _store_first([str(arg) for arg in args])
        try:
            ctx = super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:
            raise _json_usage_error(exc, as_json) from None
        ctx.meta["memory.as_json"] = as_json
        return ctx

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:  # the subcommand's own options and arguments
            raise _json_usage_error(exc, ctx.meta.get("memory.as_json", False)) from None


@click.group(cls=_Cli, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--store", "store", type=click.Path(file_okay=False), default=None,
              help="Store folder, or a postgresql:// URL for the PostgreSQL backend "
                   "(default: $MEMORY_STORE, else ./data); may also follow the command.")
@click.version_option(package_name="memory-ledger", prog_name="memory")
@click.pass_context
def main(ctx, store):
    """memory: a policy-governed memory ledger for agents.

    \b
    Example:
      memory query "where does the user live?" --user demo
    """
    ctx.ensure_object(dict)
    ctx.obj["store"] = store


@contextlib.contextmanager
def _progress(total: int, label: str, note: str = ""):
    """A progress bar on a terminal (stderr), silent otherwise; a Ctrl-C says how far it got."""
    _PROGRESS.start(label, total, note)
    shown = sys.stderr.isatty()
    with click.progressbar(length=total, label=label, file=sys.stderr if shown else open(os.devnull, "w")) as bar:
        def advance(steps: int = 1, total: int | None = None, label: str | None = None) -> None:
            if label and label != _PROGRESS.label:  # a new phase: count again
                _PROGRESS.start(label, total or 0, _PROGRESS.note)
                bar.label, bar.pos = label, 0
            if total:
                bar.length = _PROGRESS.total = total
            _PROGRESS.done += steps
            bar.update(steps)
        yield advance


# -- query -----------------------------------------------------------------------

@main.command()
@click.argument("text")
@user_option
@click.option("--as-of", default=None, help="Answer as of this instant (valid time; default now).")
@click.option("--recorded-as-of", default=None, help="Answer from what the store held at this instant.")
@click.option("--kind", "kinds", multiple=True, type=click.Choice(V.KINDS), help="Only these kinds (repeatable).")
@click.option("--include-inactive", is_flag=True, help="Also list ineligible matches under audit_only.")
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 1000))
@click.option("--planner", type=click.Choice(V.PLANNERS), default="deterministic", show_default=True)
@click.option("--trace", is_flag=True, help="Show each planner step.")
@json_option
@click.pass_context
@_run()
def query(ctx, text, user, as_of, recorded_as_of, kinds, include_inactive, limit, planner, trace, as_json):
    """Answer a question from the caller's scope, or say UNKNOWN and why.

    \b
    Example:
      memory query "where does the user live?" --user demo
      memory query "where did the user live?" --user demo --as-of 2023-06-01 --json
    Exit 0 for any answer, UNKNOWN included. A "*" marks the records the
    answer rests on when others are listed as related.
    """
    result = api.query(_open_store(ctx), text, user, as_of=as_of, recorded_as_of=recorded_as_of, kinds=kinds,
                       include_inactive=include_inactive, limit=limit, planner=planner, trace=trace)
    _emit(result.to_json(), as_json, lambda data: _answer_text(data, [item.answers for item in result.evidence]))


def _add_the_other_commands() -> None:
    """Import ``memory.cli_commands``, whose definitions add every command but ``query`` to ``main``."""
    from . import cli_commands  # noqa: F401


def __getattr__(name: str):
    """The other commands' module-level names (``memory.cli_root.EXPORT_FORMATS``), from ``cli_commands``."""
    if name.startswith("__"):
        raise AttributeError(name)
    from . import cli_commands
    try:
        return getattr(cli_commands, name)
    except AttributeError:
        raise AttributeError(f"module 'memory.cli_root' has no attribute {name!r}") from None
