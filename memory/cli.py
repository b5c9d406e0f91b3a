"""The command line: parse options, call the library, print. The only click importer.

Exit codes (one table, applied in ``_run``): 0 success (an UNKNOWN answer is a
success); 1 unexpected; 2 usage; 3 bad input; 4 bad policy; 5 refused;
6 not found; 7 store problem (doctor found problems); 8 bad dataset;
9 remote planner; 10 a benchmark gate failed.
"""
from __future__ import annotations

import atexit
import functools
import gc
import os
import re
import sys
import uuid
from pathlib import Path

import click

from . import vocabulary as V
from .errors import InputError, MemoryStoreError, UsageError

# A command's process ends right after it prints. At exit the interpreter would walk every
# object still alive (the scope's records, the index, every imported module) looking for
# cycles, only to free memory the OS takes back anyway: ~10 ms after a `memory query`, a
# tenth of its budget. Frozen objects are skipped by that walk. Python never promised to
# finalize objects alive at exit, and nothing here depends on it: every write is flushed
# and fsynced before its command returns.
atexit.register(gc.freeze)

EPILOG_EXIT = "Exit codes: 0 ok, 2 usage, 3 bad input, 5 refused, 6 not found, 7 store problem."


# -- plumbing ----------------------------------------------------------------

def _clock():
    from .clock import clock_from_env
    return clock_from_env()


def _open_store(ctx, *, create: bool = False):
    from .paths import store_root
    from .store import Store
    root = store_root(ctx.obj.get("store"))
    factory = Store.create if create else Store.open
    return factory(root, clock=_clock())


def _emit(value, as_json: bool, text=None) -> None:
    from .jsonio import dumps_text
    if as_json:
        click.echo(dumps_text(value))
    else:
        click.echo(text(value) if text else dumps_text(value, pretty=True))


def _run(as_json_param: str = "as_json"):
    """Translate library errors to output and exit status, in one place."""
    def decorate(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            as_json = kwargs.get(as_json_param, False)
            try:
                return func(*args, **kwargs)
            except MemoryStoreError as exc:
                if as_json:
                    from .jsonio import dumps_text
                    click.echo(dumps_text({"error": exc.to_json()}))
                else:
                    click.echo(f"error [{exc.code}]: {exc.message}", err=True)
                sys.exit(exc.exit_code)
            except (click.exceptions.Exit, click.ClickException, SystemExit, KeyboardInterrupt):
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
                sys.exit(1)
        return wrapper
    return decorate


json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object (JSONL for streams).")
user_option = click.option("--user", "-u", required=True, help="The caller's scope: user:<USER>.")


def _scope(user: str) -> dict:
    from .store import user_scope
    return user_scope(user)


def _instant(value: str | None, name: str) -> str | None:
    if value is None:
        return None
    from .clock import normalize_instant
    try:
        return normalize_instant(value)
    except ValueError:
        raise UsageError(f"{name} is not a valid ISO 8601 instant or date", code="invalid_date") from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--store", "store", type=click.Path(file_okay=False), default=None,
              help="Store folder (default: $MEMORY_STORE, else ./data).")
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


# -- store ---------------------------------------------------------------------

@main.command()
@click.option("--accept-policies", is_flag=True, help="Pin the current policy files (after reviewing a change).")
@json_option
@click.pass_context
@_run()
def init(ctx, accept_policies, as_json):
    """Create a store (or re-pin its policies).

    \b
    Example:
      memory --store ./mystore init
    """
    store = _open_store(ctx, create=True)
    if accept_policies:
        store.pin_policies()
    out = {"store": str(store.root), "policy_sha256": store.marker()["policy_sha256"]}
    _emit(out, as_json, lambda o: f"store ready at {o['store']}")


@main.command()
@click.option("--envelope", "-e", "source", default="-", show_default=True,
              help="Envelope file, or - for standard input.")
@json_option
@click.pass_context
@_run()
def mutate(ctx, source, as_json):
    """Apply one mutation envelope (JSON) through the mutation policy.

    \b
    Example:
      echo '{"schema_version": "memory.envelope.v1", ...}' | memory mutate --json
    Prints {"status": "applied|idempotent|refused", ...}; a refusal exits 5.
    """
    store = _open_store(ctx)
    # one byte past the cap is enough to refuse: a huge stdin is never read whole
    raw = _read_source(source, limit=store.policies.mutation.caps["envelope_bytes"] + 1)
    result = store.mutate(raw)
    _emit(result, as_json, _result_text)
    if result["status"] == "refused":
        sys.exit(5)


def _read_source(source: str, limit: int = -1) -> bytes:
    if source == "-":
        return sys.stdin.buffer.read(limit)
    try:
        with open(source, "rb") as handle:
            return handle.read(limit)
    except OSError:
        raise InputError(f"cannot read {source}", code="file_not_found") from None


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _printable(text: str) -> str:
    """Memory text for a terminal: control characters (escape sequences among them) shown, not obeyed."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _result_text(result: dict) -> str:
    if result["status"] == "refused":
        return f"refused [{result['error']['code']}]: {result['error']['message']}"
    where = f" {result['record_id']}" if result["record_id"] else ""
    rev = f" r{result['revision']}" if result["revision"] else ""
    return f"{result['status']}: {result['operation']}{where}{rev}"


@main.command()
@click.argument("source", default="-")
@click.option("--batch-size", default=500, show_default=True, type=click.IntRange(1, 100000),
              help="Envelopes per durable group commit.")
@json_option
@click.pass_context
@_run()
def apply(ctx, source, batch_size, as_json):
    """Apply a JSONL file of envelopes; one JSON result line per envelope.

    \b
    Example:
      memory apply envelopes.jsonl > results.jsonl
    Exits 5 when any envelope was refused (the others are applied).
    """
    from .jsonio import dumps_text
    store = _open_store(ctx)
    lines = [line for line in _read_source(source).splitlines() if line.strip()]
    refused = 0
    with _progress(len(lines), "applying") as bar:
        for result in store.apply(lines, batch_size=batch_size, progress=bar.update):
            refused += result["status"] == "refused"
            click.echo(dumps_text(result))
    if refused:
        sys.exit(5)


def _progress(total: int, label: str):
    """A progress bar on a terminal (stderr), silent otherwise."""
    shown = sys.stderr.isatty()
    return click.progressbar(length=total, label=label, file=sys.stderr if shown else open(os.devnull, "w"))


# -- human conveniences ----------------------------------------------------------

def _envelope(operation: str, user: str, *, record_id=None, key=None, payload=None, valid=None,
              reason=None, actor_type="user_via_agent", tx=None) -> dict:
    envelope = {
        "schema_version": "memory.envelope.v1",
        "transaction_id": tx or f"cli-{uuid.uuid4().hex}",
        "operation": operation,
        "actor": {"type": actor_type, "id": os.environ.get("USER") or "cli"},
        "source": {"type": "explicit_user", "ref": "memory-cli", "observed_at": None,
                   "evidence_hash": None, "session": None, "speaker": None},
        "target": {"record_id": record_id, "memory_key": key, "scope": _scope(user)},
        "reason": reason or f"{operation} from the command line",
    }
    if payload is not None:
        envelope["payload"] = payload
    if valid is not None:
        envelope["valid_time"] = valid
    return envelope


def _submit(ctx, envelope: dict, as_json: bool) -> None:
    store = _open_store(ctx)
    result = store.mutate(envelope)
    _emit(result, as_json, _result_text)
    if result["status"] == "refused":
        sys.exit(5)


tx_option = click.option("--tx", default=None, help="Transaction id (default: a fresh one).")
reason_option = click.option("--reason", default=None, help="Why (kept in the transition row).")


@main.command()
@click.argument("statement")
@user_option
@click.option("--key", "-k", default=None, help="memory_key, e.g. user.home_city (not for episodes).")
@click.option("--kind", type=click.Choice(V.KINDS), default="fact", show_default=True)
@click.option("--from", "valid_from", default=None, help="When it became true (default: now).")
@click.option("--alias", "aliases", multiple=True, help="Another way to ask for it (repeatable).")
@click.option("--tag", "tags", multiple=True, help="A tag (repeatable).")
@click.option("--sensitivity", type=click.Choice(V.CLASSIFICATIONS), default="private", show_default=True)
@tx_option
@reason_option
@json_option
@click.pass_context
@_run()
def add(ctx, statement, user, key, kind, valid_from, aliases, tags, sensitivity, tx, reason, as_json):
    """Add a memory the user stated.

    \b
    Example:
      memory add "The user lives in Berlin." --user demo --key user.home_city --alias "home city"
    """
    envelope = _envelope("add", user, key=key, tx=tx, reason=reason,
                         payload={"kind": kind, "statement": statement, "aliases": list(aliases),
                                  "tags": list(tags)},
                         valid={"from": _instant(valid_from, "--from"), "to": None})
    envelope["sensitivity"] = {"classification": sensitivity}
    _submit(ctx, envelope, as_json)


@main.command()
@click.argument("statement")
@user_option
@click.option("--key", "-k", default=None, help="memory_key of the active record to supersede.")
@click.option("--id", "record_id", default=None, help="Record id of the active record to supersede.")
@click.option("--from", "valid_from", default=None, help="When the new value starts (default: now).")
@tx_option
@reason_option
@json_option
@click.pass_context
@_run()
def update(ctx, statement, user, key, record_id, valid_from, tx, reason, as_json):
    """Supersede an active memory with a new value (the old one is retired, linked).

    \b
    Example:
      memory update "The user lives in Lisbon." --user demo --key user.home_city --from 2026-01-01
    """
    if not key and not record_id:
        raise UsageError("name the record: --key or --id", code="usage_error")
    _submit(ctx, _envelope("update", user, record_id=record_id, key=key, tx=tx, reason=reason,
                           payload={"statement": statement},
                           valid={"from": _instant(valid_from, "--from"), "to": None}), as_json)


@main.command()
@click.argument("record_id")
@user_option
@click.option("--at", "valid_to", default=None, help="When it stopped holding (default: now).")
@tx_option
@reason_option
@json_option
@click.pass_context
@_run()
def retire(ctx, record_id, user, valid_to, tx, reason, as_json):
    """Close a memory's validity; its history is kept.

    \b
    Example:
      memory retire mem_0123456789abcdef01234567 --user demo --at 2026-03-01
    """
    _submit(ctx, _envelope("retire", user, record_id=record_id, tx=tx, reason=reason,
                           valid={"from": None, "to": _instant(valid_to, "--at")}), as_json)


@main.command()
@click.argument("record_id", required=False)
@user_option
@click.option("--key", "-k", default=None, help="memory_key of the active record to forget.")
@tx_option
@reason_option
@json_option
@click.pass_context
@_run()
def forget(ctx, record_id, user, key, tx, reason, as_json):
    """Reject a memory and tombstone its value so it can never be stored again.

    \b
    Example:
      memory forget --user demo --key user.favourite_food
    """
    if not key and not record_id:
        raise UsageError("name the record: RECORD_ID or --key", code="usage_error")
    _submit(ctx, _envelope("forget", user, record_id=record_id, key=key, tx=tx, reason=reason), as_json)


@main.command()
@click.argument("record_id", required=False)
@user_option
@click.option("--key", "-k", default=None, help="Erase every record that ever filled this memory_key.")
@click.option("--whole-scope", is_flag=True, help="Erase every record of the user's scope.")
@tx_option
@reason_option
@json_option
@click.pass_context
@_run()
def erase(ctx, record_id, user, key, whole_scope, tx, reason, as_json):
    """Remove a memory's content from every file (privacy); a content-free audit row remains.

    \b
    Example:
      memory erase mem_0123456789abcdef01234567 --user demo --reason "user asked"
      memory erase --key user.home_city --user demo   # the slot's current and past values
    """
    if sum(map(bool, (record_id, key, whole_scope))) != 1:
        raise UsageError("name one RECORD_ID, or --key, or pass --whole-scope", code="usage_error")
    _submit(ctx, _envelope("erase", user, record_id=record_id, key=key, tx=tx, reason=reason), as_json)


# -- reading ---------------------------------------------------------------------

@main.command()
@click.argument("record_id")
@user_option
@json_option
@click.pass_context
@_run()
def get(ctx, record_id, user, as_json):
    """Show a record's current revision (only within your scope).

    \b
    Example:
      memory get mem_0123456789abcdef01234567 --user demo --json
    """
    store = _open_store(ctx)
    _emit(store.get(record_id, _scope(user)), as_json, _record_text)


def _record_text(record: dict) -> str:
    valid = record["valid_time"]
    return (f"{record['id']} r{record['revision']} [{record['status']}] {record['kind']}"
            f" {record['memory_key'] or ''}\n  {_printable(record['statement'])}\n"
            f"  valid {valid['from']} .. {valid['to'] or 'open'}; recorded {record['recorded_time']['recorded_at']}"
            f" by {record['recorded_time']['recorded_by']}")


@main.command()
@click.argument("record_id")
@user_option
@json_option
@click.pass_context
@_run()
def history(ctx, record_id, user, as_json):
    """Show every revision of a record with its transition row.

    \b
    Example:
      memory history mem_0123456789abcdef01234567 --user demo
    """
    store = _open_store(ctx)
    revisions = store.history(record_id, _scope(user))

    def text(revs):
        rows = []
        for r in revs:
            t = r["transition"]
            rows.append(f"r{r['revision']} {t['recorded_at']} {t['operation']}: {t['from_status'] or '-'} -> "
                        f"{t['to_status']} by {t['actor']['type']}:{t['actor']['id']} ({t['reason'] or ''})")
        return "\n".join(rows)
    _emit(revisions, as_json, text)


@main.group()
def review():
    """Review candidates: list, approve, reject (reviewer actions)."""


@review.command("list")
@user_option
@json_option
@click.pass_context
@_run()
def review_list(ctx, user, as_json):
    """List candidate records awaiting review.

    \b
    Example:
      memory review list --user demo
    """
    store = _open_store(ctx)
    candidates = store.candidates(_scope(user))
    _emit(candidates, as_json, lambda cs: "\n".join(_record_text(c) for c in cs) or "no candidates")


def _verdict(operation: str):
    @click.argument("record_id")
    @user_option
    @tx_option
    @reason_option
    @json_option
    @click.pass_context
    @_run()
    def command(ctx, record_id, user, tx, reason, as_json):
        _submit(ctx, _envelope(operation, user, record_id=record_id, tx=tx, reason=reason,
                               actor_type="reviewer"), as_json)
    command.__doc__ = (f"{operation.capitalize()} a candidate as a reviewer.\n\n    \b\n    Example:\n"
                       f"      memory review {operation} mem_0123456789abcdef01234567 --user demo\n    ")
    return command


review.command("approve")(_verdict("approve"))
review.command("reject")(_verdict("reject"))


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
    Exit 0 for any answer, UNKNOWN included.
    """
    from .query import QueryRequest, run_query
    request = QueryRequest(text=text, user=user, as_of=as_of, recorded_as_of=recorded_as_of, kinds=tuple(kinds),
                           include_inactive=include_inactive, limit=limit, planner=planner, trace=trace)
    result = run_query(_open_store(ctx), request)
    _emit(result, as_json, _answer_text)


def _answer_text(result: dict) -> str:
    lines = [result["knowledge_state"] + (f" ({result['reason_code']})" if result["reason_code"] else "")]
    lines += [f"  missing: {m}" for m in result["missing_conditions"]]
    for rank, item in enumerate(result["evidence"], 1):
        valid = item["valid_time"]
        source = item["source"]
        origin = source["type"] + (f" {source['ref']}" if source.get("ref") else "")
        lines.append(f"{rank:>2}. {_printable(item['statement'])}")
        lines.append(f"    {item['id']} r{item['revision']} [{item['status']}] score {item['score']:.2f}; "
                     f"valid {valid['from'][:10]}..{(valid['to'] or 'now')[:10]}; {origin}")
        for turn in item["context"]:
            lines.append(f"      ~ {turn['source']['ref']}: {_printable(turn['statement'])}")
    for item in result["audit_only"]:
        lines.append(f"  (audit only, {item['blocked_by']}) {item['id']} [{item['status']}] "
                     f"{_printable(item['statement'])}")
    for step in result["planner"]["steps"]:
        lines.append(f"  step: {step}")
    return "\n".join(lines)


# -- datasets and benchmarks -------------------------------------------------------

DATASETS = ("locomo", "longmemeval")


@main.command("import")
@click.argument("dataset", type=click.Choice(DATASETS + ("jsonl",)))
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@json_option
@click.pass_context
@_run()
def import_command(ctx, dataset, path, as_json):
    """Import a public dataset's turns as episodes, through the mutation policy,
    or restore a `memory export` file (jsonl) after verifying every hash and chain.

    \b
    Example:
      memory --store /tmp/locomo import locomo ../shared/data/locomo/locomo5_dev.json
      memory --store /tmp/moved import jsonl demo-export.jsonl
    LoCoMo scopes are user:<sample_id>; LongMemEval scopes user:<question_id>.
    """
    if dataset == "jsonl":
        from .portability import restore_file
        summary = restore_file(_open_store(ctx, create=True), Path(path))
        _emit(summary, as_json, lambda s: f"{s['status']}: {s['records']} record(s), {s['revisions']} revision(s) "
              f"({s['appended']} appended), {s['audit_rows']} erasure audit row(s)")
        return
    from .benchmark.runner import import_items, load_dataset
    items = load_dataset(dataset, Path(path))
    total = sum(len(item.turns) for item in items)
    store = _open_store(ctx, create=True)
    with _progress(total, f"importing {dataset}") as bar:
        counts = import_items(store, items, progress=bar.update)
    counts["items"] = len(items)
    _emit(counts, as_json, lambda c: f"{c['items']} item(s): {c['applied']} applied, "
          f"{c['idempotent']} idempotent, {c['refused']} refused")
    if counts["refused"]:
        sys.exit(5)


@main.group()
def benchmark():
    """Measure retrieval and decision quality: gold cases, LoCoMo, LongMemEval."""


def _write_reports(report: dict, html: str | None, as_json: bool) -> None:
    from .benchmark.report import provenance, render_html, render_table
    # a committed figure names the command and the commit that produced it
    report["provenance"] = provenance(["memory"] + sys.argv[1:])
    if html:
        Path(html).write_text(render_html(report), encoding="utf-8")
    _emit(report, as_json, render_table)


@benchmark.command("gold")
@click.option("--cases", "case_paths", multiple=True, type=click.Path(exists=True),
              help="Gold-case JSONL file or folder (repeatable; default benchmarks/gold/).")
@click.option("--gates", "gates_path", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Gates file (default config/benchmark-gates.json).")
@click.option("--html", default=None, type=click.Path(dir_okay=False), help="Also write a self-contained HTML page.")
@json_option
@click.pass_context
@_run()
def benchmark_gold(ctx, case_paths, gates_path, html, as_json):
    """Run the gold cases, each in a fresh store, and check the hard gates.

    \b
    Example:
      memory benchmark gold --json
    Exits 10 when a gate fails.
    """
    from .benchmark.gold import check_gates, load_cases, run_gold
    from .jsonio import read_json_file
    from .paths import PROJECT_ROOT, config_dir
    paths = [Path(p) for p in case_paths] or [PROJECT_ROOT / "benchmarks" / "gold"]
    files = [f for p in paths for f in (sorted(p.glob("*.jsonl")) if p.is_dir() else [p])]
    cases = load_cases(files)
    with _progress(len(cases), "gold cases") as bar:
        report = run_gold(cases, progress=lambda done, total: bar.update(1))
    gates = read_json_file(Path(gates_path) if gates_path else config_dir() / "benchmark-gates.json", what="gates")
    failed = check_gates(report, gates)
    report["gates"] = {"passed": not failed, "failed": failed}
    _write_reports(report, html, as_json)
    if failed:
        from .errors import GateError
        if not as_json:
            click.echo("gate(s) failed: " + "; ".join(failed), err=True)
        sys.exit(GateError.exit_code)


def _dataset_command(dataset: str):
    @click.argument("path", type=click.Path(exists=True, dir_okay=False))
    @click.option("--limit", default=None, type=click.IntRange(1, 1000), help="Evidence items per question.")
    @click.option("--half", default="all", type=click.Choice(["all", "dev", "test"]),
                  help="Only the dev (tuned on) or test (reported only) half; the report has both halves either way.")
    @click.option("--gates", "gates_path", type=click.Path(exists=True, dir_okay=False), default=None,
                  help="Gates file (default config/benchmark-gates.json).")
    @click.option("--html", default=None, type=click.Path(dir_okay=False), help="Also write a self-contained HTML page.")
    @json_option
    @click.pass_context
    @_run()
    def command(ctx, path, limit, half, gates_path, html, as_json):
        from .benchmark.gold import check_gates
        from .benchmark.runner import run_dataset
        from .jsonio import read_json_file
        from .paths import config_dir
        with _progress(0, f"{dataset}") as bar:
            report = run_dataset(dataset, Path(path), limit=limit, half=half,
                                 query_progress=lambda done, total: (setattr(bar, "length", total), bar.update(1)))
        gates = read_json_file(Path(gates_path) if gates_path else config_dir() / "benchmark-gates.json", what="gates")
        failed = check_gates(report, gates)
        report["gates"] = {"passed": not failed, "failed": failed}
        _write_reports(report, html, as_json)
        if failed:
            from .errors import GateError
            if not as_json:
                click.echo("gate(s) failed: " + "; ".join(failed), err=True)
            sys.exit(GateError.exit_code)
    command.__doc__ = (f"Import the {dataset} file into a scratch store, query every question, and score "
                       f"retrieval against the gold evidence, beside the BM25 and ReFind-style baselines.\n\n"
                       f"    \b\n    Example:\n      memory benchmark {dataset} "
                       + ("../shared/data/locomo/locomo5_dev.json" if dataset == "locomo"
                          else "../shared/data/longmemeval/longmemeval_s_dev100.json.gz") + " --json\n    ")
    return command


for _name in DATASETS:
    benchmark.command(_name)(_dataset_command(_name))


# -- serve -----------------------------------------------------------------------

@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (others need --tokens).")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535))
@click.option("--tokens", "tokens_file", type=click.Path(dir_okay=False), default=None,
              help='JSON {"<token>": ["user id", ...] or "*"}; without it: loopback only, no auth.')
@click.option("--max-body-bytes", default=1024 * 1024, show_default=True, type=click.IntRange(1024, 64 * 1024 * 1024))
@click.option("--timeout", default=30.0, show_default=True, type=click.FloatRange(0.1, 3600),
              help="Seconds a request may take (body read, then the work).")
@click.pass_context
@_run()
def serve(ctx, host, port, tokens_file, max_body_bytes, timeout):
    """Serve the store over HTTP: the memory leaderboard API plus query and mutate.

    \b
    Example:
      memory serve --tokens tokens.json --host 0.0.0.0 --port 8765
    Needs the server extra: pip install 'memory-ledger[server]'. See docs/SERVER.md.
    """
    try:
        from .server import Limits, serve as run_server
    except ModuleNotFoundError as exc:
        if exc.name not in ("fastapi", "uvicorn", "starlette", "pydantic", "anyio"):
            raise
        raise UsageError("memory serve needs the server extra: pip install 'memory-ledger[server]'",
                         code="server_extra_missing") from None
    run_server(_open_store(ctx), host=host, port=port, tokens_file=Path(tokens_file) if tokens_file else None,
               limits=Limits(max_body_bytes=max_body_bytes, timeout_seconds=timeout))


# -- retention -------------------------------------------------------------------

@main.group()
def retention():
    """Retention windows (config/forgetting-policy.json): erase records past them."""


@retention.command("sweep")
@click.option("--dry-run", is_flag=True, help="Report what is past its window; erase nothing.")
@json_option
@click.pass_context
@_run()
def retention_sweep(ctx, dry_run, as_json):
    """Erase the content of every record past its retention window (an audit row names the rule).

    \b
    Example:
      memory retention sweep --json
    Expired records stop answering at read time already; the sweep removes their content.
    """
    from .retention import sweep
    _emit(sweep(_open_store(ctx), dry_run=dry_run), as_json, _sweep_text)


def _sweep_text(summary: dict) -> str:
    verb = "would erase" if summary["dry_run"] else "erased"
    lines = [f"{verb} {summary['records_erased']} record(s) in {summary['scopes_checked']} scope(s)"]
    lines += [f"  rule {r['rule']} ({r['kind']}, {r['classification']}, {r['days']} days): {r['records']}"
              for r in summary["by_rule"]]
    return "\n".join(lines)


# -- agents: boot view, stats, export, MCP -----------------------------------------

EXPORT_FORMATS = ("jsonl", "json")  # memory.portability.FORMATS (a test keeps the two equal)


@main.command()
@click.option("--user", "-u", "users", multiple=True, help="Build this user's scope (repeatable; default: every scope).")
@json_option
@click.pass_context
@_run()
def build(ctx, users, as_json):
    """Write each scope's boot view: views/<scope_digest>/agent-memory.json.

    The view lists the active, currently valid records an agent loads at start
    (no episodes), each pinned by its record hash; the file is pinned to the
    scope's manifest sha256. `memory doctor` reports a stale or edited view.

    \b
    Example:
      memory build --user demo
    """
    from .bootview import build_views
    built = build_views(_open_store(ctx), [_scope(user) for user in users] if users else None)
    _emit(built, as_json, lambda views: "\n".join(
        f"{v['scope']['type']}:{v['scope']['key']}: {v['records']} record(s) -> {v['path']}" for v in views)
        or "no scopes to build")


@main.command()
@json_option
@click.pass_context
@_run()
def stats(ctx, as_json):
    """Count what the store holds: records by status and kind, scopes, last write,
    and whether each scope's index and boot view are fresh. Prints no memory content.

    \b
    Example:
      memory stats --json
    """
    from .stats import stats_text, store_stats
    _emit(store_stats(_open_store(ctx)), as_json, stats_text)


@main.command()
@user_option
@click.option("--active-only", is_flag=True, help="Only records whose current status is active (not restorable).")
@click.option("--format", "fmt", type=click.Choice(EXPORT_FORMATS), default="jsonl", show_default=True)
@click.option("--output", "-o", default="-", show_default=True, help="File to write, or - for standard output.")
@json_option
@click.pass_context
@_run()
def export(ctx, user, active_only, fmt, output, as_json):
    """Write every revision of the user's scope, with transitions and hashes.

    The file restores into another store with `memory import jsonl FILE`.

    \b
    Example:
      memory export --user demo -o demo-export.jsonl
      memory --store /tmp/moved import jsonl demo-export.jsonl
    With -o, prints a summary (--json: the export's end line plus the path).
    """
    from .jsonio import atomic_write
    from .portability import collect, render
    exported = collect(_open_store(ctx), _scope(user), active_only=active_only)
    data = render(exported, fmt)
    if output == "-":
        click.echo(data, nl=False)
        return
    atomic_write(Path(output), data)
    _emit({**exported.end(), "path": output}, as_json,
          lambda e: f"{e['records']} record(s), {e['revisions']} revision(s), {e['audit_rows']} erasure audit "
                    f"row(s) -> {e['path']}")


@main.command()
@user_option
@click.pass_context
@_run()
def mcp(ctx, user):
    """Serve the user's scope to an agent as MCP tools over stdio:
    query, mutate, get, history, review_list (each answers the CLI's JSON).

    \b
    Example:
      memory mcp --user demo
    Needs the mcp extra: pip install 'memory-ledger[mcp]'. See docs/AGENTS.md.
    """
    try:
        from .mcp_server import serve_stdio
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith("mcp"):
            raise
        raise UsageError("memory mcp needs the mcp extra (mcp 2.x): pip install 'memory-ledger[mcp]'",
                         code="mcp_extra_missing") from None
    serve_stdio(_open_store(ctx), user)


# -- integrity -------------------------------------------------------------------

@main.command()
@click.option("--repair", is_flag=True, help="Cut torn tails, rewrite manifests, drop stale derived files.")
@json_option
@click.pass_context
@_run()
def doctor(ctx, repair, as_json):
    """Verify the whole store: hashes, manifests, chains, tails, policy drift.

    \b
    Example:
      memory doctor --json
    Exits 7 when a problem remains.
    """
    from .doctor import check_store
    report = check_store(_open_store(ctx), repair=repair).to_json()
    _emit(report, as_json, _doctor_text)
    if not report["clean"]:
        sys.exit(7)


def _doctor_text(report: dict) -> str:
    lines = [f"{report['scopes']} scope(s), {report['revisions']} revision(s)"]
    lines += [f"repaired [{p['code']}] {p['where']}: {p['message']}" for p in report["repaired"]]
    lines += [f"problem [{p['code']}] {p['where']}: {p['message']}" for p in report["problems"]]
    lines.append("clean" if report["clean"] else f"{len(report['problems'])} problem(s)")
    return "\n".join(lines)


main.add_command(doctor, name="validate")


@main.command()
@json_option
@click.pass_context
@_run()
def where(ctx, as_json):
    """Say which files are the source of truth and which are derived.

    \b
    Example:
      memory where --json
    """
    from .paths import store_root
    from .where import describe
    info = describe(store_root(ctx.obj.get("store")))
    _emit(info, as_json, lambda i: "\n".join(
        [f"store: {i['store']}", f"config: {i['config']}"]
        + [f"{e['role']:>16}  {e['path']}  - {e['what']}" for e in i["files"]]))


if __name__ == "__main__":  # pragma: no cover
    main()
