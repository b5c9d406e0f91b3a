"""perf.json -> perf.md: the figures as tables, the targets met or not, the proposals for the missed ones.

``render_markdown(report) -> str``. Proposals are text kept here (``PROPOSALS``),
keyed by target; a proposal is printed when its target is missed (or could not
be measured), beside the measured costs it is about.
"""
from __future__ import annotations

import json
from pathlib import Path

def _rows(report: dict, *path: str) -> list[dict]:
    node = report
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
        if node is None:
            return []
    return node if isinstance(node, list) else []


def _share(report: dict, profile: str, suffix: str) -> str:
    """'X ms of Y ms (Z%)' for the first profiled function whose name ends with ``suffix``."""
    prof = report.get("profile", {}).get(profile) or {}
    row = next((r for r in prof.get("by_cumtime", []) + prof.get("by_tottime", [])
                if r["function"].endswith(suffix)), None)
    if not row or not prof.get("per_call_ms"):
        return "(not in the profile's top rows)"
    return f"{row['cumtime_ms']:.1f} ms of {prof['per_call_ms']:.1f} ms per profiled query " \
           f"({100 * row['cumtime_ms'] / prof['per_call_ms']:.0f}%)"


def _fold(report: dict, size: int, key: str) -> str:
    row = next((r for r in _rows(report, "profile", "scope_fold_fresh") if r["scope_size"] == size), None)
    return _ms(row[key]) + " ms" if row else "?"


def _import_ms(report: dict, module: str) -> str:
    it = report.get("profile", {}).get("importtime_memory_query_process") or {}
    row = next((r for r in it.get("top_cumulative", []) if r["module"] == module), None)
    return f"{row['cumulative_ms']:.0f} ms" if row else "?"


def _apply_us(report: dict, suffix: str) -> str:
    prof = report.get("write", {}).get("cprofile_library_apply") or {}
    row = next((r for r in prof.get("by_cumtime", []) if r["function"].endswith(suffix)), None)
    total = prof.get("per_call_ms", 0) * 1000 / max(prof.get("envelopes", 1), 1)
    return f"{row['per_envelope_us']:.0f} us of {total:.0f} us per profiled envelope" if row else "?"


def _index_ms(report: dict, size: int, key: str) -> str:
    row = next((r for r in _rows(report, "index", "rows") if r["scope_size"] == size), None)
    return _ms(row[key]) + " ms" if row else "?"


def _profiled(report: dict, profile: str, suffix: str) -> float:
    prof = report.get("profile", {}).get(profile) or {}
    row = next((r for r in prof.get("by_cumtime", []) if r["function"].endswith(suffix)), None)
    return row["cumtime_ms"] if row else 0.0


def _query_proposal(r: dict) -> str:
    warm = "cprofile_run_query_10k_warm"
    per_query = (r.get("profile", {}).get(warm) or {}).get("per_call_ms", 0.0)
    scope_work = sum(_profiled(r, warm, s) for s in ("(_view)", "(speakers)", "(_neighbours)"))
    remaining = f"{per_query - scope_work:.1f} ms of {per_query:.1f} ms" if per_query else "?"
    return "\n".join([
        "The warm path does O(scope) work on every query that depends only on the scope's records, "
        "which change only when the shards do; then it scores in pure Python.",
        "",
        "1. `memory/query.py`, `_view`: rebuilds `records`, `created` and `sessions` from the cached "
        "`ScopeState` on every query (three passes over every record). Cache the built view on the `Store` "
        "beside `_states`, keyed by (scope digest, fingerprint, recorded_as_of), dropped exactly when the "
        f"state is. Cost today at 10k: {_share(r, warm, '(_view)')}; expected after: ~0.",
        "2. `memory/planner.py`, `SearchSpace.speakers` / `SearchSpace._neighbours` (working tree): "
        "\"computed once\" per `SearchSpace`, but a `SearchSpace` is built per query, so they are O(scope) "
        f"per query. Build them with the cached view of (1) and pass them in. Cost at 10k: "
        f"{_share(r, warm, '(speakers)')} and {_share(r, warm, '(_neighbours)')}.",
        "3. `memory/indexing.py`, `open_index` -> `ScopeIndex.open` -> `BM25Index._adopt`: reads and decodes "
        "`index.bin` and rebuilds the id and term dicts on every query. Keep the opened `ScopeIndex` on the "
        "`Store` keyed by scope digest, and reuse it when the shard sizes equal its cursor (the check "
        f"`open_index` already makes). Load cost today: {_fold(r, 1_000, 'load_index')} at 1k, "
        f"{_fold(r, 10_000, 'load_index')} at 10k, {_fold(r, 100_000, 'load_index')} at 100k; expected: "
        "a few stat calls.",
        f"4. What is left after 1-3 at 10k: {remaining} per profiled query, most of it scoring: "
        f"`SearchSpace.scores` ({_share(r, warm, '(scores)')}: neighbour smoothing over every scored document) "
        "on top of `BM25Index._slot_scores`, a Python loop per posting entry, for each of the planner's "
        "searches. FTS5 answers the same question in the time shown above because it stops at the top 10 "
        "in C. (a) `memory/retrieval/bm25.py`, `_slot_scores`: the postings are already `array('I')`; score "
        "with numpy (`np.frombuffer` on the arrays, zero-copy; numpy is already installed through rank-bm25) "
        "or prune terms whose upper bound cannot reach the current 50th score (MaxScore); (b) "
        "`memory/planner.py`, `SearchSpace.search`/`scores`: smooth only the top `candidates_per_search` "
        "hits, not every match, and use `heapq.nlargest` instead of sorting all hits; (c) `coverage`: the idf "
        "weights of the question's terms are recomputed for every candidate; compute them once in "
        "`question_coverage`.",
        "5. `memory/store.py`, `Store._fingerprint`: on every `state()` call it lists the scope folder, stats "
        "every shard and opens each one to read its last 64 bytes; a 100k scope has ~80 shards of 2 MB. "
        "Sealed shards change only by erasure or repair, which could bump one generation file that the "
        "fingerprint reads instead; only the last shard and `audit.jsonl` need the stat + tail.",
        "",
        "Expected: 1-3 remove the O(scope) rebuilds (the targets' 1k and 10k figures lose the shares quoted); "
        "4 is what decides the FTS5 ratio and the 2 ms at 1k. The ReFind ratio follows from both.",
    ])


def _process_breakdown(r: dict) -> str:
    procs = r.get("process", {}).get("processes", {})
    start = procs.get("python -c pass", {}).get("p50_ms")
    whole = procs.get("memory query (1m store, 1k scope)", {}).get("p50_ms")
    imports = (r.get("profile", {}).get("importtime_memory_query_process") or {}).get("total_ms")
    fresh = next((row["engine_fresh_store"]["p50_ms"] for row in _rows(r, "query", "rows")
                  if row["scope_size"] == 1_000), None)
    if None in (start, whole, imports, fresh):
        return ""
    return (f" Of its {whole:.0f} ms p50: interpreter start ~{start:.0f} ms (`python -c pass`), imports "
            f"~{imports:.0f} ms (`-X importtime`, which inflates them somewhat; `site` is counted in both), "
            f"opening the store and running the query with a fresh `Store` ~{fresh:.0f} ms (the query table's "
            "fresh-Store column at 1k), the rest policy validation and output.")


def _process_proposal(r: dict) -> str:
    return "\n".join([
        "A fresh `memory query` pays interpreter start, imports, policy validation and a fold of the scope's "
        "whole log before its first search." + _process_breakdown(r),
        "",
        "1. `memory/policy.py`, `load_policy`: validates the three policy files with jsonschema in every "
        f"process, which imports jsonschema (+ referencing, attrs, rpds): {_import_ms(r, 'jsonschema')} "
        "of import time in a query process. `store.json` already pins the policy sha256s at `init`; "
        "pin the policy *schemas'* sha256s beside them and skip the schema check when both match "
        "(the files were validated when pinned; `doctor` still validates fully; any drift validates as "
        "today). Expected: that import time off every read and mutate process, plus ~15 MB of RSS.",
        "2. `memory/store.py`, `Store.state` -> `scope_revisions`: a fresh process parses every revision "
        "of the scope and folds it: "
        f"{_fold(r, 1_000, 'fold_state')} at 1k, {_fold(r, 10_000, 'fold_state')} at 10k, "
        f"{_fold(r, 100_000, 'fold_state')} at 100k, nearly all of it `orjson.loads` of every line (the "
        "fresh-Store profile). Storing the current revisions as JSON again would save only the fold, not "
        "the parse. Add a derived per-scope view in the index's style (`views/<digest>/current.bin` + "
        "sidecar, pinned to the shard sizes with a cursor, refreshed from the appended tail, rebuilt when "
        "a shard shrank): per current record the columns the read path filters on (id, status, kind, "
        "valid from/to, first recorded_at, session, speaker, memory_key) as arrays, plus the byte offset of "
        "its current revision in its shard; the full record is parsed only for the ~100 candidates that "
        "reach the decision. The same file can carry the transaction table and tombstones so `mutate` "
        "stops re-folding too. Expected: about the index's own load time (the `open_index` column of the "
        "same table) instead of the fold. It also bounds RSS: a query on the 100k scope peaks at the "
        "process table's figure because every revision is held in memory.",
        "3. The `memory` modules' own import time (the importtime table, any depth): regexes compiled and "
        "text tokenized at import. `memory/planner.py` builds `_TIME_WORDS` with `tokenize` at import, which "
        "loads snowballstemmer (a query needs it anyway, so this only moves the cost); "
        "`memory/store.py` imports `envelope.admit` (and with it `credentials`' patterns) at module level, "
        "which a read never uses: import it inside `Store._apply_one`. Expected: a few ms each.",
        "4. Not the project's: the editable install's import finder (~12 ms per process; a regular install "
        "has none) and this workplace's `site` hook, which `python -c pass` pays too; compare against that "
        "row.",
    ])


def _apply_proposal(r: dict) -> str:
    return "\n".join([
        "Admission, not the disk, bounds the write rate: most of an envelope's time is the schema check.",
        "",
        "1. `memory/envelope.py`, `admit` -> `memory/schemas.py`, `check`/`violations`: jsonschema's "
        f"`iter_errors` per envelope: {_apply_us(r, '(violations)')}. Compile `envelope.schema.json` once into "
        "a plain-Python predicate (the schema uses only type, const, enum, pattern, required, "
        "additionalProperties, min/maxLength and anyOf-with-null) and run jsonschema only when the predicate "
        "fails, so a refusal still lists every violation (CONVENTIONS 6). A property test feeds the fuzz "
        "corpus to both and asserts they agree. Expected: most of that time.",
        "2. `memory/jsonio.py`, `nfc`: each envelope is walked and every string normalized three times "
        f"(`envelope_sha256`, `admit`'s `_canonical_instants(nfc(...))`, `records.seal`): {_apply_us(r, '(nfc)')}. "
        "Return the string itself when `unicodedata.is_normalized('NFC', s)` (C, fast on ASCII) and "
        "normalize the envelope once in `admit`, reusing it for the sha256.",
        "3. `memory/store.py`, `_Staging.state`: each batch re-reads and re-folds every touched scope from its "
        "JSONL instead of starting from `Store.state`'s cached fold, and `write_manifest` re-hashes every "
        "shard of the scope (sealed ones too): O(scope bytes) per batch. Start from the cached state "
        "(fingerprint-checked, dicts copied) and re-hash only shards whose size changed. It is what makes one "
        f"`Store.mutate` cost {_index_ms(r, 1_000, 'mutate_in_process')} in a 1k scope and "
        f"{_index_ms(r, 10_000, 'mutate_in_process')} in a 10k scope (index table), and the 100k probe scope "
        "the slowest part of generating the 1M store.",
        "4. `memory/lifecycle.py`, `ScopeState.active_for_key`: a linear scan of the scope's current records "
        "for every keyed add (and update by key, resolve, approve): O(n^2) per scope. Measured while writing "
        "the generator: 5,000 keyed adds into one scope 7.4 s (680/s), 20,000 took 272 s (73/s). Keep "
        "`active_by_key` in `ScopeState.absorb`/`absorb_audit`. The generator caps keyed facts at 1,000 per "
        "scope only because of this.",
    ])


def _refresh_proposal(r: dict) -> str:
    return "\n".join([
        f"Refresh at 10k costs {_index_ms(r, 10_000, 'refresh_after_one_record')} against a load of "
        f"{_index_ms(r, 10_000, 'load_unchanged')}: the difference is the save.",
        "",
        "1. `memory/retrieval/index.py`, `ScopeIndex.save`: rewrites the whole index (`BM25Index.to_state` is "
        "O(index)) and `atomic_write`s two files, each with a file fsync and a folder fsync. A derived file "
        "needs no durability, only detection: put a `zlib.crc32` of `index.bin` in the sidecar (about 1 ms "
        "for the 3 MB of a 10k index) and check it in `_read_data`; then both files can be written with "
        "`os.replace` and no fsync, and a crash can only cost a rebuild (as the generation check already "
        "ensures for a mismatched pair).",
        "2. Same file: append new documents to an `index.delta` (doc id, terms, the new cursor; one line "
        "each) instead of rewriting `index.bin`; `open` replays the delta over the base; compact into "
        "`index.bin` when the delta passes max(256 documents, 5% of the base). Expected: refresh = load + "
        "tokenize one record + one small append, i.e. about the load time above.",
        "3. With the in-process `ScopeIndex` cache (query proposal 3), a warm server's refresh drops to "
        "indexing the one record: well under 1 ms.",
    ])


def _query_left(r: dict) -> str:
    """What remains after session 2 (caches, one fingerprint per query, per-view tables are in)."""
    warm = "cprofile_run_query_10k_warm"
    return "\n".join([
        "The O(scope) rebuilds are cached and a query lists its scope's files once; what is left per query "
        "is scoring and planning in pure Python.",
        "",
        f"1. `memory/planner.py`, `SearchSpace.scores`: {_share(r, warm, '(scores)')}: neighbour smoothing walks "
        "every matching document. The exact bound (own score + `neighbour_weight` x the best raw score) was "
        "built and measured in session 2: it kept 141 of 143 matches at 1k and 717 of 809 at 10k and made "
        "the search slower (165 -> 230 us per call), so it was dropped. What would pay is smoothing over "
        "integer document numbers in C: numpy over the index's arrays, for large scopes only (its import "
        "costs ~50 ms, against the `memory query` target).",
        f"2. `memory/retrieval/bm25.py`, `_slot_scores`: {_share(r, warm, '(_slot_scores)')}: a Python loop per "
        "posting entry; the feedback search now reuses the question's sums. The same numpy note applies.",
        "3. The decision and the planner's support test walk every candidate (~100) per query: a cap on the "
        "candidates the decision sees (the top `limit` x a factor) would bound it, at a measured cost in "
        "abstention quality.",
    ])


def _process_left(r: dict) -> str:
    """What a fresh `memory query` still pays once the start-up work of session 2 is in."""
    return "\n".join([
        "jsonschema is no longer imported by a read (the policy check runs the compiled predicate), only "
        "Snowball's English stemmer is loaded, the collector is frozen at exit, and the measured code is "
        "compiled bytecode." + _process_breakdown(r) + " Ad hoc probes inside one fresh process in session 2 "
        "(CPU, on a copy of the 1M store's 1k scope; not rerun by this script, the importtime and cProfile "
        "tables above are): importing `memory.cli` ~20 ms (click ~11, defining the commands ~6), the "
        "query path's own imports ~22 ms (about 13 dataclasses at ~0.4 ms each, OpenSSL behind `hashlib` "
        "~2.5 ms), `Store.fold` 13-15 ms (nearly all `orjson.loads` of the scope's 1.7 MB), stemming "
        "the candidates' question sentences for `asserted_support` 3-5 ms, the search and decision ~2 ms.",
        "",
        "1. `memory/store.py`, `Store.state` -> `scope_revisions`: a derived per-scope current view that is "
        "read lazily. A faster encoding of the same records does not pay (an ad hoc "
        "probe in session 2: loading them with `marshal` took 11.5 ms at 1k against 16.8 ms with orjson), "
        "because the cost is building ~100 Python objects per record. The view must hold only the columns the read path filters and ranks on "
        "(id, status, kind, valid from/to, recorded_at, session, speaker, memory_key) as arrays, plus each "
        "current revision's byte offset, and parse a full record only for the candidates that reach the "
        "decision; the planner's per-view tables (speakers, sessions) come from the columns. Pinned to the "
        "shard bytes like the index, rebuilt when stale, checked by `doctor`. Expected: most of the fold's "
        "13-15 ms.",
        "2. `memory/cli.py`: load each command's module only when it runs (a lazy click group), and define "
        "its options there: ~6 ms.",
        "3. Not the project's: the editable install's import finder (~10 ms) and this machine's certifi "
        "`.pth` hook (~9 ms) run in `site`, which `python -c pass` pays too; a regular install has no finder.",
        "",
        "1 and 2 together remove an estimated 15-20 ms, which brings the process to within a few ms of "
        "the target; 3 is most of the rest of the gap to `python -c pass`.",
    ])


def _apply_left(r: dict) -> str:
    return "\n".join([
        "Admission is still most of an envelope's time; the schema predicate, NFC fast path, staging from the "
        "cached fold, incremental manifest and key table are in.",
        "",
        f"1. `memory/jsonio.py`, `nfc`: {_apply_us(r, '(nfc)')}: every envelope is still walked three times "
        "(`envelope_sha256`, `admit`, `records.seal`); normalize once in `admit` and reuse it for the sha256.",
        f"2. `memory/schemas.py`, the compiled predicate: {_apply_us(r, 'schemas.py:55(check)')}: it is a tree of "
        "closures; specialising the envelope's shape (one function per object) would halve it.",
        f"3. `memory/records.py`, `seal`: {_apply_us(r, '(seal)')}: NFC and canonical dumps of a revision built "
        "from already-normalized parts.",
    ])


PROPOSALS = {"query": _query_proposal, "process": _process_proposal, "apply": _apply_proposal,
             "refresh": _refresh_proposal}
TARGET_GROUP = {"query_p50_1k": "query", "query_p50_10k": "query", "vs_refind_10k": "query",
                "vs_fts5_10k": "query", "growth_10k_to_1m": "query", "cli_query_wall": "process",
                "cli_query_rss": "process", "apply_rate": "apply", "refresh_10k": "refresh"}


def _fn(name: str) -> str:
    """A profiled function's name without the snapshot folder or the benchmark's own wrappers."""
    return name.split("/src/", 1)[1] if "/src/memory/" in name else name


def _own(rows: list[dict]) -> list[dict]:
    """Profile rows of the measured code (not the benchmark's driving lambdas)."""
    return [r for r in rows if not r["function"].startswith("benchmarks/perf") and "_drain" not in r["function"]
            and "builtins.sum" not in r["function"]]


def _ms(figure: dict | None, key: str = "p50_ms") -> str:
    if not figure:
        return "-"
    value = figure.get(key)
    return "-" if value is None else f"{value:,.2f}"


def _table(header: list[str], rows: list[list]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines + [""]


def _value(target: dict) -> str:
    value = target["value"]
    if value is None:
        return "not measured"
    return f"{value:,.2f} {target['unit']}" if isinstance(value, float) else f"{value:,} {target['unit']}"


def _snapshot_note(snapshot: dict | None) -> str:
    if not snapshot:
        return " (the live working tree was measured)"
    changed = snapshot.get("uncommitted") or []
    note = f"; measured a copy of memory/, config/, schemas/ (sha256 {snapshot['sha256']})"
    if changed:
        note += f" with {len(changed)} uncommitted change(s): " + ", ".join(f"`{c.strip()}`" for c in changed[:12])
    return note


def _header(report: dict) -> list[str]:
    m = report["machine"]
    lines = ["# Performance: the engine beside its baselines", "",
             "Generated by `benchmarks/perf/run.py` from `benchmarks/reports/perf.json`; do not edit by hand.",
             "Latencies are median (p50) and p95 over the stated number of runs; the engine and its baselines",
             "were timed in turn, query by query, in one process.", "",
             f"- machine: {m['nproc']} cores, {m['cpu_model']}, Python {m['python']}, SQLite {m['sqlite']}",
             f"- commit: `{m['commit']}`" + _snapshot_note(report.get("source_snapshot")),
             f"- load average at start / end: {m.get('loadavg_at_start')} / {m.get('loadavg_at_end')}",
             f"- command: `{report['command']}`" + (" (quick mode: too few runs to quote)" if report.get("quick")
                                                     else ""), ""]
    sections = report.get("section_meta", {})
    if sections:
        lines += ["Sections (run one after another, possibly in separate invocations merged with `--merge`; "
                  "other work on this shared machine shows in the load averages):", ""]
        lines += _table(["section", "finished", "seconds", "load 1 min before / after", "nice", "commit",
                         "code sha256"],
                        [[name, m["finished"], m["seconds"], " / ".join(map(str, m["loadavg_1m_before_after"])),
                          m.get("niceness", "?"), m.get("commit"), m.get("source_sha256")]
                         for name, m in sections.items()])
    rows = []
    for name, meta in report["stores"].items():
        comp = meta.get("composition", {})
        secs = meta.get("seconds")
        per_100k = f"{secs / meta['records'] * 100_000:,.0f} s" if secs and meta.get("records") else "-"
        rows.append([name, f"{meta.get('records', '?'):,}", f"{meta.get('envelopes', '?'):,}", meta.get("scopes", "?"),
                     ", ".join(f"{v}x{k}" for k, v in meta.get("scopes_by_size", {}).items()),
                     f"{comp.get('episodes', 0):,} / {comp.get('facts', 0):,} / {comp.get('updates', 0):,} / "
                     f"{comp.get('retires', 0):,} / {comp.get('dispute_pairs', 0):,}",
                     f"{secs:,.0f} s" if secs else "-", per_100k])
    lines += ["## Stores (generated through `Store.apply`, batches of "
              f"{next(iter(report['stores'].values())).get('batch_size', '?')})", ""]
    lines += _table(["store", "records", "envelopes", "scopes", "scopes by size (count x records)",
                     "episodes / facts / updates / retires / dispute pairs", "generation", "per 100k"], rows)
    return lines


def _targets(report: dict) -> list[str]:
    rows = [[t["label"], t["target"], _value(t), {True: "met", False: "**not met**", None: "-"}[t["met"]]]
            for t in report["targets"].values()]
    return ["## Targets", ""] + _table(["what", "target", "measured", "verdict"], rows)


def _query(report: dict) -> list[str]:
    section = report.get("query")
    if not section:
        return []
    fts = section.get("fts5", {})
    lines = [f"## In-process scoped query (`run_query`, {section['store']} store)", "",
             "- engine: `run_query` on one open `Store` (its scope state cached between queries).",
             "- engine, fresh Store: a new `Store` per query: re-reads the scope's JSONL, as a new process does.",
             "- FTS5: one SQLite FTS5 table over every current record of the store "
             f"({fts.get('rows', '?'):,} rows, built in {fts.get('build_s', '?')} s), the scope an indexed token, "
             "the body the engine's own terms, `ORDER BY bm25 LIMIT 10`; statistics are table-wide.",
             "- ReFind rebuild: per query, read the scope's shards and run `refind_pairs` "
             "(BM25Okapi over adjacent turn pairs and over sessions, rebuilt each time; token cache warm).", ""]
    rows = [[f"{r['scope_size']:,}", f"{_ms(r['engine'])} / {_ms(r['engine'], 'p95_ms')}",
             f"{_ms(r['engine_fresh_store'])} / {_ms(r['engine_fresh_store'], 'p95_ms')}",
             f"{_ms(r['fts5'])} / {_ms(r['fts5'], 'p95_ms')}",
             f"{_ms(r['refind_rebuild'])} / {_ms(r['refind_rebuild'], 'p95_ms')}",
             f"{r['refind_over_engine']:,}x", f"{r['engine_over_fts5']}x",
             f"{r['engine']['runs']}/{r['engine_fresh_store']['runs']}/{r['fts5']['runs']}/"
             f"{r['refind_rebuild']['runs']}"] for r in section["rows"]]
    return lines + _table(["scope", "engine p50 / p95 ms", "engine, fresh Store", "FTS5", "ReFind rebuild",
                           "ReFind / engine", "engine / FTS5", "runs"], rows)


def _growth(report: dict) -> list[str]:
    section = report.get("growth")
    if not section:
        return []
    rows = [[name, _ms(fig), _ms(fig, "p95_ms"), fig["runs"]] for name, fig in section["stores"].items()]
    lines = [f"## Growth: the same 1k scope (`{section['scope']}`) as the store grows", ""]
    lines += _table(["store", "p50 ms", "p95 ms", "runs"], rows)
    if "growth_10k_to_1m" in section:
        lines += [f"p50 at 1M / p50 at 10k: **{section['growth_10k_to_1m']}x**", ""]
    return lines


def _process(report: dict) -> list[str]:
    section = report.get("process")
    if not section:
        return []
    rows = [[f"`{name}`", _ms(fig), _ms(fig, "p95_ms"), fig["peak_rss_mb_p50"], fig["peak_rss_mb_max"],
             fig["runs"], fig["failures"]] for name, fig in section["processes"].items()]
    return ([f"## Whole processes (`{' '.join(section['memory_command'])}`)", "",
             "Each child is started by a small launcher (`python -S`) that times spawn to exit and reads "
             "`resource.getrusage(RUSAGE_CHILDREN).ru_maxrss`: a child's peak RSS on Linux starts at its parent's, "
             "so the benchmark process itself must not be the parent. `/bin/true` shows the launcher's floor.", ""]
            + _table(["command", "wall p50 ms", "wall p95 ms", "RSS p50 MB", "RSS max MB", "runs", "failures"], rows))


def _write(report: dict) -> list[str]:
    section = report.get("write")
    if not section:
        return []
    rows = []
    for label, fig in section.items():
        if isinstance(fig, dict) and "per_second_p50" in fig:
            rows.append([f"`{label}`" if label.startswith("memory") else label, f"{fig['per_second_p50']:,}",
                         ", ".join(f"{w:.2f}" for w in fig["wall_s"]), fig.get("peak_rss_mb_max", "-"),
                         fig.get("last_run_statuses", "-")])
    a, i = section["apply_input"], section["import_input"]
    lines = (["## Write throughput (durable: fsynced before the result is printed)", "",
              f"`apply` input: {a['envelopes']:,} envelopes over {a['scopes']} scopes of {a['scope_size']:,} records "
              f"(the generator's mix); `import`: {i['turns']:,} turns, {i['format']}. Each run starts from an empty "
              "store; the rate is envelopes / wall time of the whole process (median run).", ""]
             + _table(["command", "envelopes/s", "wall s per run", "RSS max MB", "statuses (last run)"], rows))
    prof = section.get("cprofile_library_apply")
    if prof:
        lines += [f"cProfile of `Store.apply` (batch 5000) over the same {prof['envelopes']:,} envelopes: "
                  f"{prof['per_call_ms'] * 1000 / prof['envelopes']:,.0f} us per envelope under the profiler.", ""]
        lines += _table(["function (by cumulative time)", "us per envelope", "calls"],
                        [[f"`{_fn(r['function'])}`", r["per_envelope_us"], r["calls"]]
                         for r in _own(prof["by_cumtime"])[:18]])
    return lines


def _index(report: dict) -> list[str]:
    section = report.get("index")
    if not section:
        return []
    rows = [[f"{r['scope_size']:,}", f"{_ms(r['build'])} / {_ms(r['build'], 'p95_ms')}",
             f"{_ms(r['load_unchanged'])} / {_ms(r['load_unchanged'], 'p95_ms')}",
             f"{_ms(r['refresh_after_one_record'])} / {_ms(r['refresh_after_one_record'], 'p95_ms')}",
             f"{_ms(r['mutate_in_process'])} / {_ms(r['mutate_in_process'], 'p95_ms')}",
             f"{r['build']['runs']}/{r['refresh_after_one_record']['runs']}"] for r in section["rows"]]
    return (["## Index build and refresh (`open_index`, a scratch copy of the scope)", "",
             "build: no index on disk; load: nothing new; refresh: one record appended since the last open "
             "(reads the tail, indexes it, saves index.bin + sidecar); mutate: `Store.mutate` of that record.", ""]
            + _table(["scope", "build p50 / p95 ms", "load (unchanged)", "refresh after one record",
                      "mutate (in-process)", "runs"], rows))


def _profile(report: dict) -> list[str]:
    section = report.get("profile")
    if not section:
        return []
    lines = ["## Where the time goes", ""]
    for name, title in (("importtime_memory_cli", "`python -X importtime -c \"import memory.cli\"`"),
                        ("importtime_memory_query_process", "`python -X importtime -m memory.cli query ...` "
                                                            "(everything a query process imports)")):
        it = section.get(name)
        if not it:
            continue
        lines += [f"### {title}: {it['total_ms']} ms, {it['modules']} modules", ""]
        lines += _table(["top-level import", "cumulative ms"],
                        [[f"`{r['module']}`", f"{r['cumulative_ms']:.1f}"] for r in it["top_cumulative"][:10]])
        lines += _table(["package", "self ms (sum)"], [[f"`{k}`", v] for k, v in
                                                      list(it["by_package_self_ms"].items())[:10]])
        if it.get("top_self"):
            lines += _table(["module (any depth)", "self ms", "cumulative ms"],
                            [[f"`{r['module']}`", f"{r['self_ms']:.1f}", f"{r['cumulative_ms']:.1f}"]
                             for r in it["top_self"][:12]])
    for name, title in (("cprofile_run_query_10k_warm", "cProfile: `run_query` at 10k, warm (per query)"),
                        ("cprofile_run_query_1k_fresh_store", "cProfile: `run_query` at 1k with a fresh `Store` "
                                                              "(what a process pays), per query")):
        prof = section.get(name)
        if not prof:
            continue
        lines += [f"### {title}: {prof['per_call_ms']} ms under the profiler, {prof['repeat']} queries", ""]
        lines += _table(["function (by own time)", "own ms", "cumulative ms", "calls"],
                        [[f"`{_fn(r['function'])}`", r["tottime_ms"], r["cumtime_ms"], r["calls"]]
                         for r in _own(prof["by_tottime"])[:12]])
        lines += _table(["function (by cumulative time)", "cumulative ms", "own ms"],
                        [[f"`{_fn(r['function'])}`", r["cumtime_ms"], r["tottime_ms"]]
                         for r in _own(prof["by_cumtime"])[:14]])
    fold = section.get("scope_fold_fresh")
    if fold:
        lines += ["### A fresh process, before any search: fold the scope's JSONL, load its index", ""]
        lines += _table(["scope", "shards MB", "`Store.state` p50 ms", "`open_index` p50 ms", "runs"],
                        [[f"{r['scope_size']:,}", r["shard_mb"], _ms(r["fold_state"]), _ms(r["load_index"]),
                          r["fold_state"]["runs"]] for r in fold])
    return lines


def _before_after(report: dict) -> list[str]:
    """The targets as an earlier report measured them (``report["before"]``), beside these."""
    before = report.get("before")
    if not before:
        return []
    rows = [[t["label"], t["target"], _value(before["targets"][key]) if key in before["targets"] else "-",
             _value(t), {True: "met", False: "**not met**", None: "-"}[t["met"]]]
            for key, t in report["targets"].items()]
    lines = ["## Before and after", "", f"Before: the report of commit `{before['commit']}` "
             f"({before['note']}). After: this report.", ""]
    lines += _table(["what", "target", "before", "after", "verdict"], rows)
    return lines + [""] + [f"- {change}" for change in before.get("changes", [])] + [""]


def _proposals(report: dict) -> list[str]:
    """One block per group of missed targets (several targets share one cause)."""
    missed = [key for key, t in report["targets"].items() if t["met"] is False]
    done = report.get("before", {}).get("implemented")
    lines = ["## Proposals for the missed targets", "",
             (f"Already implemented (see Before and after): {done}. The rest "
              if done else "Nothing under memory/ was changed in this phase; ")
             + "each item names the file, the function, the change and the measured cost it removes.", ""]
    if not missed:
        return lines + ["Every measured target is met.", ""]
    proposals = {**PROPOSALS, "query": _query_left, "process": _process_left, "apply": _apply_left} if done else PROPOSALS
    for group in dict.fromkeys(TARGET_GROUP[key] for key in missed):
        targets = [report["targets"][k] for k in missed if TARGET_GROUP[k] == group]
        lines += ["### " + "; ".join(f"{t['label']} ({t['target']}, measured {_value(t)})" for t in targets),
                  "", proposals[group](report), ""]
    return lines


def _scope_scale(report: dict) -> list[str]:
    """The scope-size axis (``scale.py``): one user's memory at 1k, 10k and 100k records."""
    scale = report.get("scope_scale")
    if not scale:
        return []
    lines = ["## Records in one scope (scope-size axis)", "",
             f"Command: `{scale['command']}` at commit {scale['commit']}"
             + (" (with uncommitted changes under memory/)" if scale.get("dirty") else "")
             + (" (quick run: not worth quoting)" if scale.get("quick") else "")
             + ". One store per size holding one scope (`generate.scope_envelopes`: episodes as the importers "
               "write them, ~12% keyed facts, then updates, retirements and disputes). The machine is shared "
               "(2 cores, other jobs running): read the growth ratios, measured in one run, before the absolute "
               "figures.", "",
             "| target | goal | measured | met |", "|---|---|---|---|"]
    for t in scale["targets"].values():
        met = {True: "yes", False: "**no**", None: "not measured"}[t["met"]]
        lines.append(f"| {t['label']} | {t['target']} | {t['value'] if t['value'] is not None else '-'} {t['unit']} "
                     f"| {met} |")
    lines += ["", "| records in the scope | query process p50 | peak RSS | serve add p50 | serve search p50 "
                  "| in-process p50 | FTS5 p50 |", "|---|---|---|---|---|---|---|"]
    for name, row in scale["sizes"].items():
        process, serve, inproc = row.get("process") or {}, row.get("serve") or {}, row.get("in_process") or {}
        lines.append(f"| {name} | {_ms(process)} | {process.get('peak_rss_mb_max', '-')} MB "
                     f"| {_ms(serve.get('add'))} | {_ms(serve.get('search'))} | {_ms(inproc.get('engine'))} "
                     f"| {_ms(inproc.get('fts5'))} |")
    apply, clients = scale.get("apply"), scale.get("clients")
    if apply:
        lines += ["", f"Apply: {apply['envelopes']} envelopes into one scope at batch size {apply['batch_size']}: "
                      f"{apply['envelopes_per_second']}/s overall, {apply['first_20pct_per_second']}/s on the first "
                      f"20%, {apply['last_20pct_per_second']}/s on the last 20%"
                      + (f"; {apply['cpu_seconds']} s of CPU = {apply['envelopes_per_cpu_second']} envelopes per CPU "
                         f"second ({apply.get('first_20pct_per_cpu_second')} on the first 20%, "
                         f"{apply.get('last_20pct_per_cpu_second')} on the last 20%; load average "
                         f"{apply['loadavg_1m'][0]} before, {apply['loadavg_1m'][1]} after)"
                         if "cpu_seconds" in apply else "") + "."]
    if clients:
        lines += ["", f"Clients: {clients['clients']} clients adding to {clients['clients']} users through one "
                      f"`memory serve`: {clients['messages']} messages in {clients['seconds']} s = "
                      f"{clients['messages_per_second']} messages/s ({clients['errors']} errors)."]
    doctor = scale.get("doctor")
    if doctor:
        lines += ["", f"Doctor: {doctor['revisions']} revisions in {doctor['scopes']} scopes: `memory doctor --full` "
                      f"{doctor['full_s']} s ({doctor['full_peak_rss_mb']} MB); `memory doctor` with nothing "
                      f"recorded yet {doctor['first_incremental_s']} s, with nothing changed {doctor['unchanged_s']} s, "
                      f"after one new write {doctor['after_one_write_s']} s ({doctor['after_one_write_peak_rss_mb']} MB)."]
    if scale.get("notes"):
        lines += [""] + scale["notes"]
    return lines + [""]


MANY_USERS = Path(__file__).resolve().parents[1] / "reports" / "serve_many_users.json"


def _many_users(report: dict) -> list[str]:
    """``serve_many_users.py``'s figures (its own file beside perf.json), when there are any."""
    if not MANY_USERS.exists():
        return []
    many = json.loads(MANY_USERS.read_text())
    lines = ["## Many users: `memory serve`'s resident memory (`serve_many_users.py`)", "",
             f"{many['users']} users of ~{many['records_per_user']} records; a fresh server per run touches the "
             "first N users one after another (`search`: one search each; `add+search`: an add of two "
             f"messages, then a search; the adds stay in the store). RSS in MB after the last request (anonymous "
             f"part). {many['conditions']}.",
             "", "```sh", *many["commands"], "```", ""]
    rows = []
    for budget in many["budgets"]:
        runs = {(r["tree"], r["workload"], r["users_touched"]): r for r in budget["runs"]}
        for (tree, workload, touched), run in runs.items():
            if tree != "this":
                continue
            before = runs.get(("baseline", workload, touched))
            rows.append([budget["cache_mb"], workload, touched,
                         f"{before['rss_mb']} ({before['anon_mb']})" if before else "—",
                         f"{run['rss_mb']} ({run['anon_mb']})"])
    return lines + _table(["--cache-mb", "workload", "users touched", "before", "after"], rows) + [
        "The budget is an estimate (records times a cost per record, `memory/store/budget.py`); the "
        "scope used last is never dropped, so one hot user is served as before. At the default budget, "
        "200 users' searches alone are estimated at ~190 MB, under it: nothing is dropped. A dropped "
        "scope's memory comes back only once nothing refers to it: a reference cycle in "
        "`current.Neighbours` kept each one alive until a full collection (rare under `memory serve`'s "
        "collector thresholds), and the 64 MB / search / 200 users run read 184 MB before that was fixed.", ""]


def render_markdown(report: dict) -> str:
    parts = [_header(report), _targets(report), _before_after(report), _scope_scale(report), _many_users(report),
             _query(report),
             _growth(report), _process(report), _write(report), _index(report), _profile(report), _proposals(report)]
    return "\n".join(line for part in parts for line in part).rstrip() + "\n"
