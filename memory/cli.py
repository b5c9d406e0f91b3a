"""The command line: parse options, call ``memory.api``, print. With ``cli_commands``, the only
click importers.

Every command is a thin translation of one ``memory.api`` function (a test reads this file
and ``cli_commands`` to hold them to that). This module holds the root group, the plumbing
every command shares and ``memory query``; the other commands are defined in
``memory.cli_commands``, which the root group imports only when a command line names one of
them (or asks for the list: ``memory --help``): a ``memory query`` process defines no other
command and imports none of their modules. Exit codes (one table, applied in ``_run``):
0 success (an UNKNOWN answer is a success); 1 internal error (a bug: the message
names the exception type, ``MEMORY_DEBUG=1`` shows the traceback); 2 usage (an option or
argument wrong, missing or unreadable: a bad date, an empty query); 3 bad input (a file,
envelope or body whose content cannot be read); 4 bad policy; 5 refused; 6 not found;
7 store problem (doctor found problems); 8 bad dataset; 9 remote planner; 10 a benchmark gate failed;
130 interrupted (Ctrl-C), after saying how far the command got; 141 the output was closed.
"""
from __future__ import annotations

import atexit
import contextlib
import functools
import gc
import os
import re
import sys

if __name__ == "__main__":  # pragma: no cover  (``python -m memory.cli``: the module every other
    # importer shares, so the commands that ``cli_commands`` adds are added to the group run here)
    from memory.cli import main as _main
    sys.exit(_main())

import click

from . import api
from . import vocabulary as V
from .errors import MemoryStoreError

# A command's process ends right after it prints. At exit the interpreter would walk every
# object still alive (the scope's records, the index, every imported module) looking for
# cycles, only to free memory the OS takes back anyway: ~10 ms after a `memory query`, a
# tenth of its budget. Frozen objects are skipped by that walk. Python never promised to
# finalize objects alive at exit, and nothing here depends on it: every write is flushed
# and fsynced before its command returns.
atexit.register(gc.freeze)
# During the command, the collector runs when 10,000 new containers are alive, not 700: a
# `memory query` over a large scope allocates a container per scored hit (parsed candidates,
# neighbour tuples), and each young and middle collection walked what the previous ones kept
# (benchmarks/reports/perf.md, scope-size notes). Cycles are still collected, later. Not
# ``gc.freeze()`` here: ``Store.apply`` freezes its own state only in a process that froze
# nothing itself.
gc.set_threshold(10_000, 10, 10)

INTERNAL_ERROR_EXIT = 1
INTERRUPTED_EXIT = 128 + 2  # the shell's convention for SIGINT
PIPE_CLOSED_EXIT = 128 + 13  # ... and for SIGPIPE: the reader of the output went away (`| head`)


# -- plumbing ----------------------------------------------------------------

def _open_store(ctx, *, create: bool = False):
    try:
        return api.open_store(ctx.obj.get("store"), create=create)
    except MemoryStoreError as exc:
        if exc.code != "store_not_found" or ctx.obj.get("store") or os.environ.get("MEMORY_STORE"):
            raise
        # the README's first command, run where a newcomer installed the wheel, not in the checkout
        raise type(exc)("no store at ./data, the default: the demo store is in the source checkout "
                        "(run this from there), or make one here (memory init), or name one (--store PATH "
                        "or $MEMORY_STORE)", code="store_not_found") from None


def _emit(value, as_json: bool, text=None) -> None:
    from .jsonio import dumps_text
    if as_json:
        click.echo(dumps_text(value))
    else:
        # every text view, not only statements: a user id, session or actor sent over HTTP reaches
        # stats, build, history and query's sources, and must not drive the operator's terminal
        click.echo(_printable(text(value)) if text else dumps_text(value, pretty=True))


def _run(as_json_param: str = "as_json"):
    """Translate library errors to output and exit status, in one place."""
    def decorate(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            as_json = kwargs.get(as_json_param, False)
            _PROGRESS.__init__()   # one command's count (in-process callers run several)
            try:
                try:
                    return func(*args, **kwargs)
                except OSError as exc:   # the store's own writes say this already; any other file too
                    if os.environ.get("MEMORY_DEBUG") or isinstance(exc, BrokenPipeError):
                        raise
                    raise MemoryStoreError.from_os_error(exc) from None
            except MemoryStoreError as exc:
                if as_json:
                    from .jsonio import dumps_text
                    click.echo(dumps_text({"error": exc.to_json()}))
                else:
                    click.echo(f"error [{exc.code}]: {_printable(exc.message)}", err=True)  # it may name a path
                if _PROGRESS.done:   # a full disk half-way through an import: what is already durable
                    click.echo(f"stopped: {_PROGRESS.said()}", err=True)
                sys.exit(exc.exit_code)
            except KeyboardInterrupt:
                click.echo(f"\ninterrupted: {_PROGRESS.said()}", err=True)
                sys.exit(INTERRUPTED_EXIT)
            except BrokenPipeError:
                _stop_writing_stdout()
                if _PROGRESS.label is not None:  # a long command stopped half-way: say how far
                    with contextlib.suppress(OSError):  # (stderr may be the same closed pipe: 2>&1 | head)
                        click.echo(f"stopped, the output was closed: {_PROGRESS.said()}", err=True)
                sys.exit(PIPE_CLOSED_EXIT)
            except (click.exceptions.Exit, click.ClickException, SystemExit):
                raise
            except Exception as exc:  # never a traceback, never content: the type names the fault
                if os.environ.get("MEMORY_DEBUG"):
                    raise
                message = f"internal error ({type(exc).__name__}); rerun with MEMORY_DEBUG=1 for details"
                if as_json:
                    from .jsonio import dumps_text
                    click.echo(dumps_text({"error": {"code": "internal_error", "message": message}}))
                else:
                    click.echo(f"error [internal_error]: {message}", err=True)
                sys.exit(INTERNAL_ERROR_EXIT)
        return wrapper
    return decorate


def _stop_writing_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush does not fail again."""
    try:
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):
        pass
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (click's test runner)
        pass


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


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _printable(text: str) -> str:
    """Memory text for a terminal: control characters (escape sequences among them) shown, not obeyed."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


class _Progress:
    """How far the running command got, for the message a Ctrl-C prints."""

    def __init__(self) -> None:
        self.label, self.done, self.total, self.note = None, 0, 0, ""

    def start(self, label: str, total: int, note: str = "") -> None:
        self.label, self.done, self.total, self.note = label, 0, total, note

    def said(self) -> str:
        if self.label is None:
            return "stopped before any work was done"
        of = f" of {self.total}" if self.total else ""
        return f"{self.label}: {self.done}{of} done" + (f" ({self.note})" if self.note else "")


_PROGRESS = _Progress()


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


def _answer_text(result: dict, answers: list = ()) -> str:
    """The plain answer; ``answers``: per evidence item, whether the state was read from it."""
    lines = [result["knowledge_state"] + (f" ({result['reason_code']})" if result["reason_code"] else "")]
    lines += [f"  missing: {m}" for m in result["missing_conditions"]]
    resting = [rank for rank, flag in enumerate(answers, 1) if flag]
    if resting and len(resting) < len(result["evidence"]):
        lines.append(f"  * the answer rests on {_ranks(resting)}; the other records are related, not what it was read from")
    for rank, item in enumerate(result["evidence"], 1):
        valid = item["valid_time"]
        source = item["source"]
        origin = source["type"] + (f" {source['ref']}" if source.get("ref") else "")
        mark = ("* " if rank in resting else "  ") if resting and len(resting) < len(result["evidence"]) else ""
        lines.append(f"{mark}{rank:>2}. {_printable(item['statement'])}")
        lines.append(f"    {item['id']} r{item['revision']} [{item['status']}] score {item['score']:.4f}; "
                     f"valid {valid['from'][:10]}..{(valid['to'] or 'now')[:10]}; {origin}")
        for turn in item["context"]:
            lines.append(f"      ~ {turn['source']['ref']}: {_printable(turn['statement'])}")
    for item in result["audit_only"]:
        lines.append(f"  (audit only, {item['blocked_by']}) {item['id']} [{item['status']}] "
                     f"{_printable(item['statement'])}")
    for step in result["planner"]["steps"]:
        lines.append(f"  step: {step}")
    return "\n".join(lines)


def _ranks(ranks: list[int]) -> str:
    """[1] -> "record 1", [1, 3] -> "records 1 and 3"."""
    if len(ranks) == 1:
        return f"record {ranks[0]}"
    return "records " + ", ".join(map(str, ranks[:-1])) + f" and {ranks[-1]}"


def _add_the_other_commands() -> None:
    """Import ``memory.cli_commands``, whose definitions add every command but ``query`` to ``main``."""
    from . import cli_commands  # noqa: F401


def __getattr__(name: str):
    """The other commands' module-level names (``memory.cli.EXPORT_FORMATS``), from ``cli_commands``."""
    if name.startswith("__"):
        raise AttributeError(name)
    from . import cli_commands
    try:
        return getattr(cli_commands, name)
    except AttributeError:
        raise AttributeError(f"module 'memory.cli' has no attribute {name!r}") from None
