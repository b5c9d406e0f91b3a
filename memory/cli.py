"""The command line's entry, ``memory.cli:main``: ``memory query`` answered without click, every
other command line handed to click (``memory.cli_root``, ``memory.cli_commands``).

A ``memory query`` process is mostly start-up: click, with ``typing``, ``inspect`` parts and the
option machinery, cost it ~11-25 ms of its ~100-200 ms before the question was read. ``main`` reads
a command line it fully understands (``[--store S] query TEXT --user U`` and ``query``'s own
options, each once, every value checked as click checks it) and answers it itself, through the
same ``api`` calls, output, errors and exit codes as click's ``query``; anything else (help, a
typo, an option twice, a value click would refuse, ``--``, a completion request) goes to click
untouched, which gives its usual answer. ``tests/test_cli_fast_query.py`` runs both over a grid.

``main`` is also the root click group to every other caller: ``main.main(...)``,
``main.commands``, ``CliRunner().invoke(main, ...)`` reach ``memory.cli_root.main``, and this
module's other names (``memory.cli.EXPORT_FORMATS``) are ``cli_root``'s and ``cli_commands``'.
Exit codes (one table, applied in ``guarded``): 0 success (an UNKNOWN answer is a success);
1 internal error (a bug: the message names the exception type, ``MEMORY_DEBUG=1`` shows the
traceback); 2 usage (an option or argument wrong, missing or unreadable: a bad date, an empty
query); 3 bad input (a file, envelope or body whose content cannot be read); 4 bad policy;
5 refused; 6 not found; 7 store problem (doctor found problems); 8 bad dataset; 9 remote
planner; 10 a benchmark gate failed; 130 interrupted (Ctrl-C), after saying how far the command
got; 141 the output was closed.
"""
from __future__ import annotations

import atexit
import gc
import os
import re
import sys

from . import vocabulary as V
from .errors import MemoryStoreError

if __name__ == "__main__":  # pragma: no cover  (``python -m memory.cli``: the module every other
    # importer shares, so the commands that ``cli_commands`` adds are added to the group run here)
    from memory.cli import main as _main
    sys.exit(_main())

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


class _Main:
    """``memory.cli:main``, the console script's entry: ``main()`` runs ``sys.argv``, a ``memory
    query`` this module understands without click, anything else through the root click group;
    every attribute (``main.main``, ``main.commands``, ``main.name``) is that group's."""

    def __call__(self, *args, **kwargs):
        if not args and not kwargs:
            try:
                code = _fast_query(sys.argv[1:])
            except SystemExit as exc:   # an error's exit status (``guarded``)
                code = exc.code
            if code is not None:
                _end(code)
        return _group()(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(_group(), name)

    def __repr__(self) -> str:
        return "<memory.cli.main: the root command group>"


main = _Main()


def _group():
    from .cli_root import main as group
    return group


def _end(code) -> None:
    """``sys.exit(code)`` after a query; in a process that ``main`` runs as its own entry (the
    ``memory`` script, ``python -m memory``), the process ends there: exit handlers run and the
    output is flushed as the interpreter's exit would, then ``os._exit``. Its exit would also free,
    one by one, every object still alive (the scope's view, index and records: ~3 ms after a query
    at 1k records, ~10-14 ms at 100k), memory the OS takes back at once. Every write was flushed
    and fsynced before the command returned; a caller in the same process (a test, a script
    calling ``main()``) gets ``SystemExit`` as before."""
    if type(code) is not int or not 0 <= code <= 255 or not _main_is_the_entry() or _other_threads():
        sys.exit(code)
    atexit._run_exitfuncs()
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except Exception:   # the interpreter's own exit reports it (and ends with its status)
        sys.exit(code)
    os._exit(code)


def _main_is_the_entry() -> bool:
    """Whether this process was started to run ``main``: the console script, or ``python -m
    memory`` / ``python -m memory.cli``."""
    started = sys.modules.get("__main__")
    spec = getattr(started, "__spec__", None)
    if spec is not None:
        return spec.name in ("memory.__main__", "memory.cli")
    script = os.path.basename(getattr(started, "__file__", None) or "")
    return script in ("memory", "memory.exe", "memory-script.py")


def _other_threads() -> bool:
    """Whether a thread the interpreter's exit would wait for is still running."""
    threading = sys.modules.get("threading")
    return threading is not None and any(
        thread is not threading.main_thread() and not thread.daemon and thread.is_alive()
        for thread in threading.enumerate())


def __getattr__(name: str):
    """The click modules' names (``memory.cli.EXPORT_FORMATS``, ``memory.cli._run``), importing them."""
    if name.startswith("__"):
        raise AttributeError(name)
    from . import cli_root
    try:
        return getattr(cli_root, name)
    except AttributeError:
        raise AttributeError(f"module 'memory.cli' has no attribute {name!r}") from None


# -- plumbing every command shares ----------------------------------------------------------

def open_store_named(store: str | None, *, create: bool = False):
    """``api.open_store`` of the ``--store`` option's value (None: not given)."""
    from . import api
    try:
        return api.open_store(store, create=create)
    except MemoryStoreError as exc:
        if exc.code != "store_not_found" or store or os.environ.get("MEMORY_STORE"):
            raise
        # the README's first command, run where a newcomer installed the wheel, not in the checkout
        raise type(exc)("no store at ./data, the default: the demo store is in the source checkout "
                        "(run this from there), or make one here (memory init), or name one (--store PATH "
                        "or $MEMORY_STORE)", code="store_not_found") from None


def guarded(call, as_json: bool, echo, passthrough: tuple = ()):
    """``call()``, with library errors translated to output and exit status, in one place (``echo``:
    ``click.echo`` or ``_echo``; ``passthrough``: exceptions re-raised as they are, click's own)."""
    _PROGRESS.__init__()   # one command's count (in-process callers run several)
    try:
        try:
            return call()
        except OSError as exc:   # the store's own writes say this already; any other file too
            if os.environ.get("MEMORY_DEBUG") or isinstance(exc, BrokenPipeError):
                raise
            raise MemoryStoreError.from_os_error(exc) from None
    except MemoryStoreError as exc:
        if as_json:
            from .jsonio import dumps_text
            echo(dumps_text({"error": exc.to_json()}))
        else:
            echo(f"error [{exc.code}]: {_printable(exc.message)}", err=True)  # it may name a path
        if _PROGRESS.done:   # a full disk half-way through an import: what is already durable
            echo(f"stopped: {_PROGRESS.said()}", err=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        echo(f"\ninterrupted: {_PROGRESS.said()}", err=True)
        sys.exit(INTERRUPTED_EXIT)
    except BrokenPipeError:
        _stop_writing_stdout()
        if _PROGRESS.label is not None:  # a long command stopped half-way: say how far
            try:  # (stderr may be the same closed pipe: 2>&1 | head)
                echo(f"stopped, the output was closed: {_PROGRESS.said()}", err=True)
            except OSError:
                pass
        sys.exit(PIPE_CLOSED_EXIT)
    except passthrough:   # click's own (``Exit``, usage errors): click shows them
        raise
    except Exception as exc:  # never a traceback, never content: the type names the fault
        if os.environ.get("MEMORY_DEBUG"):
            raise
        message = f"internal error ({type(exc).__name__}); rerun with MEMORY_DEBUG=1 for details"
        if as_json:
            from .jsonio import dumps_text
            echo(dumps_text({"error": {"code": "internal_error", "message": message}}))
        else:
            echo(f"error [internal_error]: {message}", err=True)
        sys.exit(INTERNAL_ERROR_EXIT)


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


def _answer_text(result: dict, answers: list = ()) -> str:
    """``memory query``'s text view of one answer; ``answers``: per evidence item, whether the state
    was read from it (``api.Evidence.answers``)."""
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
            # a turn's neighbours are named by their ref (session:turn); a keyed record's context is
            # its key's other values (the chain it answered through), whose ref names only the writer
            said = f"another value of {item['memory_key']}" if item["kind"] != "episode" and item["memory_key"] \
                else turn["source"]["ref"]
            lines.append(f"      ~ {said}: {_printable(turn['statement'])}")
    for item in result["audit_only"]:
        lines.append(f"  (audit only, {item['blocked_by']}) {item['id']} [{item['status']}] "
                     f"{_printable(item['statement'])}")
    if result["planner"]["steps"]:
        from .jsonio import dumps_text
    for step in result["planner"]["steps"]:
        lines.append(f"  step: {dumps_text(step)}")
    return "\n".join(lines)


def _ranks(ranks: list[int]) -> str:
    """[1] -> "record 1", [1, 3] -> "records 1 and 3"."""
    if len(ranks) == 1:
        return f"record {ranks[0]}"
    return "records " + ", ".join(map(str, ranks[:-1])) + f" and {ranks[-1]}"


# -- memory query without click ----------------------------------------------------------

# query's options as click declares them in ``cli_root.query``: name -> (parameter, kind)
_QUERY_OPTIONS = {"--user": ("user", "text"), "-u": ("user", "text"), "--as-of": ("as_of", "text"),
                  "--recorded-as-of": ("recorded_as_of", "text"), "--kind": ("kinds", "kind"),
                  "--include-inactive": ("include_inactive", "flag"), "--limit": ("limit", "limit"),
                  "--planner": ("planner", "planner"), "--trace": ("trace", "flag"), "--json": ("as_json", "flag")}
_LIMITS = (1, 1000)   # click.IntRange(1, 1000)


def _query_line(args: list[str]) -> dict | None:
    """The parameters of a ``memory query`` command line exactly as click would bind them, or None
    for any line this reader does not fully understand or click would refuse (click answers it)."""
    if any(name.startswith("_") and name.endswith("_COMPLETE") for name in os.environ):
        return None   # a shell-completion request: click's
    store, seen, params, text = None, set(), {}, None
    i = 0
    while i < len(args) and args[i] != "query":   # the root's own options: only --store
        arg = args[i]
        if arg == "--store" and i + 1 < len(args):
            store, i = args[i + 1], i + 2
        elif arg.startswith("--store="):
            store, i = arg[len("--store="):], i + 1
        else:
            return None
        if "store" in seen:
            return None
        seen.add("store")
    i += 1
    if i > len(args):
        return None
    while i < len(args):
        arg = args[i]
        name, value, step = arg, None, 1
        if arg.startswith("--") and "=" in arg:
            name, value = arg.split("=", 1)
        if not arg.startswith("-"):
            if text is not None:
                return None   # an extra argument: click's usage error
            text, i = arg, i + 1
            continue
        if name == "--store":   # ``_store_first`` moves it before the command, where the root reads it
            key, kind = "store", "text"
        elif name in _QUERY_OPTIONS:
            key, kind = _QUERY_OPTIONS[name]
        else:
            return None   # help, ``--``, ``-``, ``-uX``, an unknown option, a text that starts with '-'
        if key in seen and kind != "kind":
            return None   # an option twice: click's rules (last wins, flags counted) are click's
        seen.add(key)
        if kind == "flag":
            if value is not None:
                return None
            params[key] = True
            i += 1
            continue
        if value is None:
            if i + 1 >= len(args) or args[i + 1].startswith("-"):
                return None
            value, step = args[i + 1], 2
        if kind == "kind":
            if value not in V.KINDS:
                return None
            params.setdefault("kinds", []).append(value)
        elif kind == "planner":
            if value not in V.PLANNERS:
                return None
            params[key] = value
        elif kind == "limit":
            try:
                number = int(value)   # click.INT's conversion
            except ValueError:
                return None
            if not _LIMITS[0] <= number <= _LIMITS[1]:
                return None
            params[key] = number
        elif key == "store":
            store = value
        else:
            params[key] = value
        i += step
    if text is None or "user" not in params or not _store_passes_click(store):
        return None
    params["kinds"] = tuple(params.get("kinds", ()))
    return {"store": store, "text": text, **params}


def _store_passes_click(store: str | None) -> bool:
    """Whether click.Path(file_okay=False) takes the --store value as it is (not a file, readable)."""
    if store is None:
        return True
    try:
        mode = os.stat(store).st_mode
    except OSError:
        return True
    import stat
    return not stat.S_ISREG(mode) and os.access(store, os.R_OK)


def _fast_query(args: list[str]) -> int | None:
    """Run a ``memory query`` command line without click; None when click must run it."""
    line = _query_line(args)
    if line is None:
        return None
    as_json = line.pop("as_json", False)

    def answer() -> None:
        from . import api
        from .jsonio import dumps_text
        store = line.pop("store")
        text, user = line.pop("text"), line.pop("user")
        result = api.query(open_store_named(store), text, user, **{
            "as_of": None, "recorded_as_of": None, "include_inactive": False, "limit": 10,
            "planner": "deterministic", "trace": False, **line})
        value = result.to_json()
        _echo(dumps_text(value) if as_json else _printable(_answer_text(value, [e.answers for e in result.evidence])))

    guarded(answer, as_json, _echo)
    return 0


def _echo(message: str, err: bool = False) -> None:
    """``click.echo(message, err=err)``: the same characters, written and flushed; click's own
    echo where it would change them (an escape sequence it strips off a terminal, a stream it
    re-encodes, Windows' console)."""
    stream = sys.stderr if err else sys.stdout
    if "\x1b" in message or sys.platform == "win32" or not _plain_text_stream(stream):
        import click
        click.echo(message, err=err)
        return
    stream.write(message + "\n")
    stream.flush()


def _plain_text_stream(stream) -> bool:
    """A text stream click writes to as it is: an encoding and errors set, not ASCII."""
    encoding = getattr(stream, "encoding", None)
    if stream is None or not encoding or getattr(stream, "errors", None) is None or not hasattr(stream, "write"):
        return False
    import codecs
    try:
        return codecs.lookup(encoding).name != "ascii"
    except LookupError:
        return False
