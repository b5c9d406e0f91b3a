"""Every command of the command line but ``query`` (``memory.cli_root``: the root group, the shared
plumbing and ``memory query``). Imported by the root group when a command line names one of
these commands or asks for the list, never by a ``memory query`` process: its definitions add
each command to ``memory.cli_root.main``.
"""
from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path

import click

from . import api
from . import vocabulary as V
from .cli_root import _emit, _open_store, _printable, _progress, _run, json_option, main, user_option
from .errors import GateError, InputError, UsageError


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
      memory --store postgresql://localhost/memory init   # creates the tables
    """
    out = api.init(ctx.obj.get("store"), accept_policies=accept_policies)
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
      echo '{"schema_version": "memory.envelope.v1", "transaction_id": "tx-1", "operation": "add",
        "actor": {"type": "user_via_agent", "id": "me"}, "source": {"type": "explicit_user"},
        "target": {"memory_key": "user.home_city", "scope": {"type": "user", "key": "me"}},
        "payload": {"kind": "fact", "statement": "The user lives in Berlin."}}' | memory mutate --json
    Every field and operation: docs/AGENTS.md.
    Prints {"status": "applied|idempotent|refused", ...}; a refusal exits 5, or 6 when
    the record it names is not in the target scope (record_not_found).
    """
    store = _open_store(ctx)
    # one byte past the cap is enough to refuse: a huge stdin is never read whole
    raw = _read_source(source, limit=store.policies.mutation.caps["envelope_bytes"] + 1)
    _print_result(api.mutate(store, raw), as_json)


def _read_source(source: str, limit: int = -1) -> bytes:
    if source == "-":
        return sys.stdin.buffer.read(limit)
    try:
        with open(source, "rb") as handle:
            return handle.read(limit)
    except OSError as exc:  # the reason, not only the name: a folder or a permission reads as "not found" else
        raise InputError(f"cannot read {source}: {exc.strerror or 'unreadable'}", code="file_not_found") from None



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
    Each result is the object `memory mutate --json` prints, one per non-blank
    input line (blank lines are skipped); a parse error's message names the
    input line. A summary goes to stderr: the counts and the input lines of the
    refused envelopes. Exits 5 when any envelope was refused (the others are
    applied).
    """
    from .jsonio import dumps_text
    store = _open_store(ctx)
    lines = _read_source(source).splitlines()
    numbered = [(number, line) for number, line in enumerate(lines, 1) if line.strip()]
    counts = {"applied": 0, "idempotent": 0, "refused": 0}
    refused_lines: list[int] = []
    with _progress(len(numbered), "envelopes applied", "each result printed is durable; rerunning the file "
                   "is safe, done envelopes answer idempotent") as advance:
        results = api.apply(store, [line for _, line in numbered], batch_size=batch_size)
        for (number, _), result in zip(numbered, results):
            advance(1)  # a result arrives once its batch is durable: the Ctrl-C message counts those
            counts[result.status] += 1
            if result.refused:
                refused_lines.append(number)
            click.echo(dumps_text(_numbered_result(result.to_json(), number)))
    click.echo(_apply_summary(counts, len(lines) - len(numbered), refused_lines), err=True)
    if counts["refused"]:
        sys.exit(5)


# refusals of the line as text, before it is an envelope: their messages name the line too
_PARSE_REFUSALS = frozenset({"invalid_json", "invalid_utf8", "duplicate_key", "non_finite_number"})


def _numbered_result(result: dict, number: int) -> dict:
    """An ``apply`` result whose parse error names its input line in the message: the object
    keeps DESIGN §5's fields exactly (the summary on stderr names every refused line)."""
    if result["error"] and result["error"]["code"] in _PARSE_REFUSALS:
        result = {**result, "error": {**result["error"], "message": f"line {number}: {result['error']['message']}"}}
    return result


def _apply_summary(counts: dict, blank: int, refused_lines: list[int] = ()) -> str:
    said = [f"{counts['applied']} applied"]
    if counts["idempotent"]:
        said.append(f"{counts['idempotent']} idempotent")
    lines = f" (input line{'s' if len(refused_lines) != 1 else ''} {', '.join(map(str, refused_lines))})" \
        if refused_lines else ""
    said.append(f"{counts['refused']} refused{lines}")
    if blank:
        said.append(f"{blank} blank line{'s' if blank != 1 else ''} skipped")
    return ", ".join(said)



# -- human conveniences ----------------------------------------------------------

def _actor() -> dict:
    return {"type": "user_via_agent", "id": os.environ.get("USER") or "cli"}


def _verb(ctx, as_json: bool, verb, *args, tx=None, reason=None, store=None, **options) -> None:
    """Run one ``memory.api`` write verb as the command line's caller (on ``store``, else the
    one the command line names), and print its result."""
    result = verb(store or _open_store(ctx), *args, tx=tx or f"cli-{uuid.uuid4().hex}", actor=_actor(),
                  ref="memory-cli", reason=reason or f"{verb.__name__} from the command line", **options)
    _print_result(result, as_json)


def _print_result(result, as_json: bool) -> None:
    _emit(result.to_json(), as_json, _result_text)
    if result.refused:  # 5, or 6 when the record named is not the caller's: as `memory get` says
        sys.exit(result.exit_code)


tx_option = click.option("--tx", default=None, help="Transaction id (default: a fresh one).")
reason_option = click.option("--reason", default=None, help="Why (kept in the transition row).")


@main.command()
@click.argument("statement")
@user_option
@click.option("--key", "-k", default=None,
              help="memory_key, e.g. user.home_city. Every kind but episode needs one; an episode has none.")
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

    A fact (the default kind) needs --key, and so does every other kind but episode: the key
    names the slot a later update supersedes. An episode (--kind episode) has no key.

    \b
    Example:
      memory add "The user lives in Berlin." --user demo --key user.home_city --alias "home city" --from 2019-05-01
    """
    if kind != "episode" and not key:   # before anything is sent: the option is missing, not the value wrong
        raise click.UsageError(f"a {kind} needs --key (a memory_key such as user.job; every kind but episode "
                               "has one), or pass --kind episode for a statement kept as said, without a key")
    _verb(ctx, as_json, api.add, user, statement, key=key, kind=kind, valid_from=valid_from, aliases=aliases,
          tags=tags, sensitivity=sensitivity, tx=tx, reason=reason)


@main.command()
@click.argument("statement")
@user_option
@click.option("--key", "-k", default=None, help="memory_key of the active record to supersede.")
@click.option("--id", "record_id", default=None, help="Record id of the active record to supersede.")
@click.option("--kind", type=click.Choice([k for k in V.KINDS if k != "episode"]), default=None,
              help="The new record's kind (default: the superseded record's). A negative updated by a "
                   "statement that negates nothing wants --kind fact.")
@click.option("--from", "valid_from", default=None, help="When the new value starts (default: now).")
@tx_option
@reason_option
@json_option
@click.pass_context
@_run()
def update(ctx, statement, user, key, record_id, kind, valid_from, tx, reason, as_json):
    """Supersede an active memory with a new value (the old one is retired, linked).

    The new record keeps the old one's kind unless --kind names another: "I don't drink
    coffee." (a negative) updated by "I drink coffee every morning." needs --kind fact.

    \b
    Example:
      memory update "The user lives in Lisbon." --user demo --key user.home_city --from 2022-01-01
    """
    store = _open_store(ctx)
    if key or record_id:
        notice = api.update_notice(store, user, statement, key=key, record_id=record_id, kind=kind)
        if notice:
            click.echo(f"notice: {notice}", err=True)
    _verb(ctx, as_json, api.update, user, statement, key=key, record_id=record_id, kind=kind,
          valid_from=valid_from, tx=tx, reason=reason, store=store)


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
      memory retire mem_0123456789abcdef01234567 --user demo --at 2023-09-01
    """
    _verb(ctx, as_json, api.retire, user, record_id, at=valid_to, tx=tx, reason=reason)


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
    _verb(ctx, as_json, api.forget, user, record_id=record_id, key=key, tx=tx, reason=reason)


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
    _verb(ctx, as_json, api.erase, user, record_id=record_id, key=key, whole_scope=whole_scope, tx=tx,
          reason=reason)


@main.command()
@click.argument("record_id")
@user_option
@click.option("--with", "conflict_with", multiple=True, required=True,
              help="A record that contradicts RECORD_ID (repeatable).")
@tx_option
@reason_option
@json_option
@click.pass_context
@_run()
def dispute(ctx, record_id, user, conflict_with, tx, reason, as_json):
    """Mark records as in unresolved conflict: none of them answers until one is resolved.

    \b
    Example:
      memory dispute mem_0123456789abcdef01234567 --with mem_89abcdef0123456789abcdef --user demo
    """
    _verb(ctx, as_json, api.dispute, user, record_id, conflict_with, tx=tx, reason=reason)


@main.command()
@click.argument("record_id")
@user_option
@click.option("--over", "conflict_with", multiple=True, required=True,
              help="A disputed record that RECORD_ID wins over; it becomes rejected (repeatable).")
@tx_option
@reason_option
@json_option
@click.pass_context
@_run()
def resolve(ctx, record_id, user, conflict_with, tx, reason, as_json):
    """Settle a dispute: RECORD_ID holds, the others are rejected.

    \b
    Example:
      memory resolve mem_0123456789abcdef01234567 --over mem_89abcdef0123456789abcdef --user demo
    """
    _verb(ctx, as_json, api.resolve, user, record_id, conflict_with, tx=tx, reason=reason)


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
    _emit(api.get(_open_store(ctx), record_id, user), as_json, _record_text)


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
    revisions = api.history(_open_store(ctx), record_id, user)

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
    """Review candidates: list, approve, reject (reviewer actions).

    \b
    Example:
      memory review list --user demo
      memory review approve mem_0123456789abcdef01234567 --user demo --reason "confirmed"
    """


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
    candidates = api.review_list(_open_store(ctx), user)
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
        _verb(ctx, as_json, getattr(api, operation), user, record_id, tx=tx, reason=reason)
    command.__doc__ = (f"{operation.capitalize()} a candidate as a reviewer.\n\n    \b\n    Example:\n"
                       f"      memory review {operation} mem_0123456789abcdef01234567 --user demo\n    ")
    return command


review.command("approve")(_verdict("approve"))
review.command("reject")(_verdict("reject"))


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
        summary = api.restore_into(ctx.obj.get("store"), path)  # a failed restore leaves no new store
        _emit(summary, as_json, lambda s: f"{s['status']}: {s['records']} record(s), {s['revisions']} revision(s) "
              f"({s['appended']} appended), {s['audit_rows']} erasure audit row(s)")
        return
    items = api.load_dataset(dataset, path)
    total = sum(len(item.turns) for item in items)
    store = _open_store(ctx, create=True)
    with _progress(total, f"{dataset} turns imported", "imported turns are durable; rerunning the import "
                   "is safe, done turns answer idempotent") as advance:
        counts = api.import_dataset(store, items, progress=advance)
    _emit(counts, as_json, lambda c: f"{c['items']} item(s): {c['applied']} applied, "
          f"{c['idempotent']} idempotent, {c['refused']} refused")
    if counts["refused"]:
        sys.exit(5)


@main.group()
def benchmark():
    """Measure retrieval and decision quality: gold cases, LoCoMo, LongMemEval.

    \b
    Example:
      memory benchmark gold
      memory benchmark locomo ../shared/data/locomo/locomo5_dev.json --html locomo.html
      memory benchmark locomo ../shared/data/locomo/locomo5_dev.json --via-http http://127.0.0.1:8765
    """


def _write_reports(report: dict, html: str | None, as_json: bool, verdict=None) -> None:
    from .benchmark.report import provenance, render_html, render_table  # presentation only
    # a committed figure names the command and the commit that produced it
    report["provenance"] = provenance(["memory"] + sys.argv[1:])
    if html:
        Path(html).write_text(render_html(report), encoding="utf-8")
    _emit(report, as_json, lambda r: render_table(r) + ("\n" + verdict(r) if verdict else ""))


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
    with _progress(0, "gold cases run") as advance:
        report = api.benchmark_gold(case_paths, gates_path,
                                    progress=lambda done, total: advance(1, total if done == 1 else None))
    _write_reports(report, html, as_json, _gold_verdict)
    if report["gates"]["failed"]:
        sys.exit(GateError.exit_code)


def _gates_verdict(report: dict) -> str:
    gates = report["gates"]
    lines = ["gates: passed" if gates["passed"] else f"gates: FAILED ({len(gates['failed'])})"]
    return "\n".join(lines + [f"  gate failed: {failure}" for failure in gates["failed"]])


def _gold_verdict(report: dict) -> str:
    """What a person needs after the table: did the gates pass, and which cases failed and why."""
    lines = [_gates_verdict(report)]
    failures = report.get("failures", [])
    lines.append(f"cases failed: {len(failures)} of {report['questions']}")
    lines += [f"  {f['case_id']} [{f['category']}]: {f['why']}" for f in failures]
    return "\n".join(lines)


def _dataset_command(dataset: str):
    @click.argument("path", type=click.Path(exists=True, dir_okay=False))
    @click.option("--limit", default=None, type=click.IntRange(1, 1000), help="Evidence items per question.")
    @click.option("--half", default="all", type=click.Choice(["all", "dev", "test"]),
                  help="Only the dev (tuned on) or test (reported only) half; the report has both halves either way.")
    @click.option("--gates", "gates_path", type=click.Path(exists=True, dir_okay=False), default=None,
                  help="Gates file (default config/benchmark-gates.json).")
    @click.option("--html", default=None, type=click.Path(dir_okay=False), help="Also write a self-contained HTML page.")
    @click.option("--via-http", "url", default=None, metavar="URL",
                  help="Drive a running `memory serve` at URL as the leaderboard's evaluator does (adds, then "
                       "searches with top_k 100) instead of an in-process scratch store.")
    @click.option("--token", default=None, envvar="MEMORY_TOKEN", help="Bearer token for --via-http "
                  "(default: $MEMORY_TOKEN).")
    @click.option("--store-url", default=None, metavar="URL",
                  help="Import into this empty PostgreSQL database (postgresql://...) instead of a scratch "
                       "JSONL folder: the same run on the other backend.")
    @json_option
    @click.pass_context
    @_run()
    def command(ctx, path, limit, half, gates_path, html, url, token, store_url, as_json):
        if url is None:
            with _progress(0, f"{dataset} questions asked") as advance:
                report = api.benchmark_dataset(dataset, path, limit=limit, half=half, gates_path=gates_path,
                                               query_progress=lambda done, total: advance(1, total),
                                               store_url=store_url)
        else:
            asked = f"{dataset} questions asked through {url}"
            with _progress(0, f"{dataset} sessions added through {url}") as advance:
                report = api.benchmark_via_http(dataset, path, url, token=token, limit=limit,
                                                add_progress=lambda done, total: advance(1, total),
                                                query_progress=lambda done, total: advance(1, total, asked))
        _write_reports(report, html, as_json, _gates_verdict if "gates" in report else None)
        if report.get("gates", {}).get("failed"):
            sys.exit(GateError.exit_code)
    sample = ("../shared/data/locomo/locomo5_dev.json" if dataset == "locomo"
              else "../shared/data/longmemeval/longmemeval_s_dev100.json.gz")
    command.__doc__ = (f"Import the {dataset} file into a scratch store, query every question, and score "
                       f"retrieval against the gold evidence, beside the BM25 and ReFind-style baselines.\n\n"
                       f"    With --via-http, the same questions go through a running `memory serve`: one "
                       f"/v1/memories/add per session (timestamps as Unix ms), one /v1/memories/search "
                       f"(top_k 100) per question; see docs/SERVER.md.\n\n"
                       f"    \b\n    Example:\n      memory benchmark {dataset} {sample} --json\n"
                       f"      memory benchmark {dataset} {sample} --via-http http://127.0.0.1:8765\n    ")
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
@click.option("--cache-mb", type=click.FloatRange(0), default=None,
              help="Megabytes (an estimate) of per-scope caches kept; the scopes used longest ago are "
                   "dropped first. Default: $MEMORY_CACHE_MB, else 256.")
@click.pass_context
@_run()
def serve(ctx, host, port, tokens_file, max_body_bytes, timeout, cache_mb):
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
               limits=Limits(max_body_bytes=max_body_bytes, timeout_seconds=timeout, cache_mb=cache_mb))


# -- retention -------------------------------------------------------------------

@main.group()
def retention():
    """Retention windows (config/forgetting-policy.json): erase records past them.

    \b
    Example:
      memory retention sweep --dry-run
      memory retention sweep --json
    """


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
    _emit(api.retention_sweep(_open_store(ctx), dry_run=dry_run), as_json, _sweep_text)


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
    built = api.build_views(_open_store(ctx), users)
    if isinstance(built, dict):   # a PostgreSQL store: nothing is built, and it says why
        _emit(built, as_json, lambda out: out["message"])
        return
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
    from .stats import stats_text  # presentation only
    _emit(api.stats(_open_store(ctx)), as_json, stats_text)


@main.command()
@click.option("--to", "target", required=True, metavar="STORE",
              help="The store to copy into: a folder (created when absent) or a postgresql:// URL (initialised).")
@json_option
@click.pass_context
@_run()
def copy(ctx, target, as_json):
    """Copy every scope of this store into another, verifying every hash.

    Each scope goes as `memory export` and `memory import jsonl` would take it: the
    target's policy applies, and only what the target lacks is appended, so running it
    again after a failure completes the copy. Works between a folder and a PostgreSQL store
    in either direction.

    \b
    Example:
      memory --store ./data copy --to postgresql://memory@db.internal/memory
      memory --store postgresql://memory@db.internal/memory copy --to /backups/memory --json
    """
    source = _open_store(ctx)
    destination = api.open_store(target, create=True)
    with _progress(0, "scopes copied") as advance:
        report = api.copy(source, destination, progress=lambda done, total: advance(1, total))
    _emit(report, as_json, lambda r: f"{r['scopes']} scope(s) copied, {r['revisions']} revision(s) verified, "
                                     f"{r['appended']} appended" + (f"; {len(r['unnamed'])} scope(s) with every "
                                     f"record erased left out (no record names them)" if r["unnamed"] else ""))


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
    exported = api.export(_open_store(ctx), user, active_only=active_only, fmt=fmt,
                          output=None if output == "-" else output)
    if output == "-":
        click.echo(exported.data, nl=False)
        return
    _emit(exported.summary, as_json,
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
@click.option("--repair", is_flag=True, help="Fix what a crash leaves: temporaries, torn tails, stale manifests "
              "and derived files, an interrupted erasure, loose modes.")
@click.option("--accept-tampered", is_flag=True, help="With --repair: accept scopes changed outside the store as "
              "their files now are (rewrites their manifests; review `memory doctor` first).")
@click.option("--full", is_flag=True, help="Re-verify every byte, not only what changed since the last clean run.")
@json_option
@click.pass_context
@_run()
def doctor(ctx, repair, accept_tampered, full, as_json):
    """Verify the store: hashes, manifests, chains, tails, policy drift.

    Re-verifies only what each scope gained since its last clean run (a scope whose
    files were rewritten or edited is checked whole); --full checks everything.

    \b
    Example:
      memory doctor --json
      memory doctor --full
    A scope changed outside the store (a line removed or edited, a shard deleted) refuses
    reads and writes, and --repair keeps its evidence, until --repair --accept-tampered.
    Exits 7 when a problem remains. A stale index or boot view (after a write, or a backup
    restored with cp -a) is a notice, not a problem: reads rebuild it, --repair drops it.
    """
    if accept_tampered and not repair:
        raise UsageError("--accept-tampered goes with --repair", code="usage_error")
    report = api.doctor(_open_store(ctx), repair=repair, full=full, accept_tampered=accept_tampered)
    _emit(report, as_json, _doctor_text)
    if not report["clean"]:
        sys.exit(7)


def _doctor_text(report: dict) -> str:
    lines = [f"{report['scopes']} scope(s), {report['revisions']} revision(s)"]
    lines += [f"repaired [{p['code']}] {p['where']}: {p['message']}" for p in report["repaired"]]
    lines += [f"problem [{p['code']}] {p['where']}: {p['message']}" for p in report["problems"]]
    lines += [f"notice [{n['code']}] {n['where']}: {n['message']}" for n in report.get("notices", [])]
    lines.append("clean" if report["clean"] else f"{len(report['problems'])} problem(s)")
    fixable = api.repairable(report)
    if fixable:  # e.g. a fresh git checkout of the demo store: git writes 0644 files, the store wants 0600
        lines.append(f"memory doctor --repair fixes: {', '.join(fixable)}")
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
    info = api.where(ctx.obj.get("store"))
    _emit(info, as_json, lambda i: "\n".join(
        [f"store: {i['store']}", f"config: {i['config']}"]
        + [f"{e['role']:>16}  {e['path']}  - {e['what']}" for e in i["files"]]))

