"""Run the reliability suite, or some of its sections, and write ``benchmarks/reports/reliability.md``.

    python benchmarks/reliability.py                            # every section, heavy sizes (MEMORY_HEAVY=1)
    python benchmarks/reliability.py --light                    # every section, the everyday sizes
    python benchmarks/reliability.py --section hostile_input    # rerun one section, keep the others' figures
    python benchmarks/reliability.py --list                     # the sections and the tests behind them

The tests do the work (concurrent writers and readers, kill -9 trials, truncation at
every byte, hypothesis fuzzing, the isolation property, the hostile-input corpus);
each appends its figures as a JSON line to the file named by
``$MEMORY_RELIABILITY_FIGURES``. This script runs the chosen sections' test files in
one pytest process, collects those lines, merges them into
``benchmarks/reports/reliability.json`` (every section's latest figures, each tagged
with the run that produced it: command, commit, machine, result) and renders the
report from that file, so a reader can rerun any figure. It exits with pytest's status.

A new section is one ``Section`` in ``SECTIONS`` (its figures key, the test file that
records it, a title and what it checks) and, if it has a headline, a row in ``HEADLINES``.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "benchmarks" / "reports" / "reliability.md"
FIGURES = REPORT.with_suffix(".json")


@dataclass(frozen=True)
class Section:
    key: str          # the name the test passes to record_figures
    test: str         # the test file that records it (several sections may share one)
    title: str
    what: str


SECTIONS = [
    Section("concurrency", "tests/test_reliability_concurrency.py", "Concurrent writers and readers",
            "`memory apply` processes write one store at once (batch sizes 1/3/10/50, so they contend for the "
            "lock); a reader process folds every scope, checks every hash and transaction group and runs queries "
            "in a loop; the test also calls `memory query` throughout. Afterwards every acknowledged envelope is "
            "present exactly once, every line is whole canonical JSON, `doctor` is clean."),
    Section("crash_kill9", "tests/test_reliability_crash.py", "kill -9 during `memory apply`",
            "Each trial kills `memory apply` after a random number of acknowledged results (plus jitter). Every "
            "acknowledged transaction is present; no transaction is visible with lines missing; doctor reports "
            "only repairable problems; recovery by re-running the file (after a reader indexed the crashed state) "
            "or by `doctor --repair` first ends with every transaction present exactly once and a clean doctor."),
    Section("crash_truncation", "tests/test_reliability_crash.py", "A crash at any byte of a write",
            "The last write of a store (several transaction groups) is cut at every line boundary and at random "
            "offsets; readers never see a torn line or a cut-short group, the next writer cuts it before "
            "appending, the index built over the crashed state is dropped, and re-applying finishes the work once."),
    Section("crash_erase", "tests/test_reliability_erasure.py", "kill -9 during `memory erase` (issue 16 point 1)",
            "`memory erase` of a record spread over several shards (with a successor that inherited its alias) is "
            "stopped by a test hook before the rename of each of its atomic writes in turn (erasing.json, each "
            "rewritten shard, last first, the manifest) and killed with SIGKILL there, plus kills at random moments. "
            "Then the scope's next ordinary write (`memory add`) must leave no temporary anywhere under the store "
            "and no byte of the erased content whenever the erase had written its audit row (otherwise nothing was "
            "promised, and a retry of the erase must complete it); `doctor` must end clean. "
            "`stopped_before_rename_of` counts the step trials by the file being replaced."),
    Section("tamper_then_write", "tests/test_reliability_erasure.py", "Tamper, then write (issue 16 points 2, 3)",
            "Each kind of hand edit no crash produces (a line deleted mid-shard or at the end, lines swapped, a "
            "statement edited with and without its record hash recomputed, a shard or the manifest deleted, a line "
            "of another user's shard appended or inserted). The next `memory add` must exit 7 `scope_tampered`, "
            "`memory query` must exit 7 instead of answering, the manifest must not be rewritten over the evidence, "
            "and `doctor` must still report it after the write and after `doctor --repair`."),
    Section("fuzz_admission", "tests/test_fuzz.py", "Fuzzing: admission",
            "Arbitrary bytes, arbitrary JSON and mutated valid envelopes (dict and bytes paths) through `admit`: "
            "only documented codes."),
    Section("fuzz_store", "tests/test_fuzz.py", "Fuzzing: the store",
            "Mutated envelopes and byte-level mutations through `Store.mutate`: documented codes only, and a "
            "refusal changes no byte of the store."),
    Section("fuzz_sequences", "tests/test_fuzz.py", "Fuzzing: operation sequences",
            "Random sequences of mostly-admissible envelopes (all nine operations, existing ids, few keys): "
            "documented refusals, refusals write nothing, `doctor` stays clean, never two active records for one key."),
    Section("fuzz_cli_mutate", "tests/test_fuzz.py", "Fuzzing: `memory mutate` / `memory apply`",
            "No traceback, exit code 0 or 5, one result line per envelope, nothing written on refusal."),
    Section("fuzz_query", "tests/test_fuzz.py", "Fuzzing: queries",
            "Random text, users, instants, kinds and limits through `run_query`: an answer or a documented usage code."),
    Section("fuzz_cli_query", "tests/test_fuzz.py", "Fuzzing: `memory query`",
            "Random arguments and options: no traceback, exit codes from the table."),
    Section("isolation", "tests/test_isolation_property.py", "Isolation property",
            "Random multi-user stores: each viewer's query (with and without trace and inactive records) equals "
            "the same query on a store holding the viewer's scope alone; `get`, `history`, by-id mutations and "
            "`conflict_with` aimed at another scope answer exactly as for an id that exists nowhere; another "
            "scope's transaction ids are free. `leaks_found` counts any difference or foreign id/marker."),
    Section("hostile_input", "tests/test_hostile_input.py", "Hostile input (issue 16 points 5, 6, 8)",
            "The corpus in `tests/hostile.py`: instants outside years 1000-9999 (as written or in UTC), integer "
            "literals past 64 bits (5,000 and 4,301 digits, 2**64) and 1e5000, the credentials issue 16 found "
            "stored, the common token formats (AWS, GitHub, GitLab, Slack, Stripe, npm, PyPI, OpenAI, Anthropic, "
            "Google, private keys, JWT, bearer, URL credentials, name=value pairs) and a secret in each stored "
            "field (transaction_id, actor.id, source.ref/session/speaker/evidence_hash, scope key, reason, "
            "aliases, tags, negative_triggers). Each goes through `Store.mutate`, `memory mutate`, one "
            "`memory apply` file and `POST /v1/mutate` (a real server process); a case counts when it is refused "
            "with its code and the store's files are byte-identical afterwards. Prose that must not be taken for "
            "a secret (\"my password manager is 1Password\", a real evidence hash, ...) must be applied. "
            "`front_door_inputs` counts the non-envelope doors checked by the same file: a policy file and import "
            "files with a 5,000-digit integer (exit 4 / 8 / 3), import dates in year 999 (exit 8), a token in an "
            "imported turn (exit 5); `http_request_fields` the server's: a 5,000-digit, a 4,301-digit and a 2**64 "
            "integer in the body of each POST route (400 `invalid_json`) and an instant in year 999 in a request "
            "field (422), each leaving the store unchanged."),
]

# (label, function of the figures -> value); a missing figure shows as n/a
HEADLINES = [
    ("concurrent writers x envelopes", lambda f: f"{f['concurrency']['writers']} x {f['concurrency']['envelopes_per_writer']}"),
    ("kill -9 trials (killed mid-run)", lambda f: f"{f['crash_kill9']['trials']} ({f['crash_kill9']['killed_mid_run']})"),
    ("truncation offsets", lambda f: f["crash_truncation"]["offsets"]),
    ("kill -9 during erase: trials (killed mid-erase) / erased content left after the next write (goal: 0)",
     lambda f: f"{f['crash_erase']['trials']} ({f['crash_erase']['killed_mid_erase']}) / "
               f"{f['crash_erase']['content_left_after_next_write']}"),
    ("tamper kinds: next write refused / query refused / evidence kept",
     lambda f: " / ".join(f"{f['tamper_then_write'][k]}/{f['tamper_then_write']['kinds']}" for k in
                          ("write_refused_exit_7", "query_refused_exit_7", "evidence_kept"))),
    ("fuzz cases (all fuzzers)", lambda f: sum(f[n]["cases"] for n in ("fuzz_admission", "fuzz_store", "fuzz_cli_mutate",
                                                                       "fuzz_query", "fuzz_cli_query"))
     + f["fuzz_sequences"]["envelopes"]),
    ("isolation worlds / queries / foreign-id probes",
     lambda f: f"{f['isolation']['worlds']} / {f['isolation']['queries']} / {f['isolation']['foreign_id_probes']}"),
    ("leaks found (goal: 0)", lambda f: f["isolation"]["leaks_found"]),
    ("hostile inputs refused with the right code, nothing written (4 front doors)",
     lambda f: " / ".join(str(f["hostile_input"][door]).split(" refused")[0] for door in
                          ("library Store.mutate", "memory mutate", "memory apply (one file)", "POST /v1/mutate"))),
    ("undocumented error codes or tracebacks (goal: 0)",
     lambda f: sum(row.get("undocumented", 0) + row.get("tracebacks", 0) for row in f.values())),
]


def git(*args: str) -> str:
    run = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    return run.stdout.strip() if run.returncode == 0 else "unknown"


def run_tests(tests: list[str], heavy: bool, figures_path: Path) -> dict:
    """One pytest process over ``tests``; returns the run's provenance (the figures go to ``figures_path``)."""
    env = dict(os.environ, MEMORY_RELIABILITY_FIGURES=str(figures_path), PYTHONPATH=str(ROOT))
    env.pop("MEMORY_HEAVY", None)
    if heavy:
        env["MEMORY_HEAVY"] = "1"
    # -q comes from pyproject's addopts; a second one would drop pytest's "N passed in S s" line
    argv = ["-m", "pytest", *tests, "-p", "no:cacheprovider"]
    started = time.monotonic()
    run = subprocess.run([sys.executable, *argv], cwd=ROOT, env=env, capture_output=True, text=True)
    elapsed = time.monotonic() - started
    summary = next((line for line in reversed(run.stdout.splitlines())
                    if " in " in line and ("passed" in line or "failed" in line)), "no pytest summary line")
    if run.returncode:
        sys.stderr.write(run.stdout[-5000:] + run.stderr[-2000:])
    return {"status": run.returncode, "command": ("MEMORY_HEAVY=1 " if heavy else "") + " ".join(["python", *argv]),
            "elapsed_s": round(elapsed), "summary": summary.strip("= "), "heavy": heavy,
            "commit": git("rev-parse", "--short", "HEAD"),
            "dirty": bool(git("status", "--porcelain", "--", "memory", "tests")),
            "machine": f"{os.cpu_count()} CPU(s) (`nproc`), {platform.system()} {platform.machine()}, "
                       f"Python {platform.python_version()}",
            "at": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}


def read_figures(path: Path) -> dict[str, dict]:
    figures = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            figures[row.pop("test")] = row
    return figures


def merge(stored: dict, run: dict, figures: dict[str, dict]) -> dict:
    """The stored runs and figures with this run's figures replacing those of the same sections."""
    runs = dict(stored.get("runs", {}))
    run_id = f"run-{max((int(rid.split('-')[1]) for rid in runs), default=0) + 1}"
    runs[run_id] = run
    merged = {key: row for key, row in stored.get("figures", {}).items() if key not in figures}
    merged.update({key: {**row, "run": run_id} for key, row in figures.items()})
    used = {row["run"] for row in merged.values()} | {run_id}
    return {"runs": {rid: r for rid, r in runs.items() if rid in used}, "figures": merged}


def fmt(value) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in sorted(value.items())) or "none"
    if isinstance(value, list):
        return "; ".join(map(str, value)) or "none"
    return str(value)


def _headline(fn, figures: dict) -> str:
    try:
        return str(fn(figures))
    except KeyError:
        return "n/a"


def render(data: dict) -> str:
    runs, figures = data["runs"], data["figures"]
    plain = {key: {k: v for k, v in row.items() if k != "run"} for key, row in figures.items()}
    passed = all(r["status"] == 0 for r in runs.values())
    lines = ["# Reliability report", "",
             "Generated by `python benchmarks/reliability.py` from `reliability.json`; do not edit by hand. "
             "A section rerun alone (`--section`) keeps the other sections' figures and names its own run.", "",
             f"- result: **{'pass' if passed else 'FAIL'}** in every run below", "", "## Runs", "",
             "| run | result | command | commit | machine | at |", "|---|---|---|---|---|---|"]
    for run_id, run in runs.items():
        dirty = " (with uncommitted changes)" if run["dirty"] else ""
        lines.append(f"| {run_id} | {'pass' if run['status'] == 0 else 'FAIL'} ({run['summary']}), "
                     f"{run['elapsed_s']} s wall | `{run['command']}` | `{run['commit']}`{dirty} | {run['machine']} | "
                     f"{run.get('at', 'n/a')} |")
    lines += ["", "## Headline figures", "", "| figure | value |", "|---|---|"]
    lines += [f"| {label} | {_headline(fn, plain)} |" for label, fn in HEADLINES] + [""]
    for section in SECTIONS:
        row = figures.get(section.key)
        lines += [f"## {section.title}", "", section.what, ""]
        if row is None:
            lines += ["(no figures: the test has not run to the end)", ""]
            continue
        lines += [f"Figures from {row['run']} (`{section.test}`).", "", "| figure | value |", "|---|---|"]
        lines += [f"| {k} | {fmt(v)} |" for k, v in row.items() if k != "run"] + [""]
    lines += ["## Also run", "",
              "`tests/test_retention.py` (retention windows, sweeps, erasure leaving no byte of content in "
              "shards, index/ or views/) and the tampering test in `tests/test_reliability_crash.py` "
              "(policy_drift, record_hash_mismatch, shard_altered, shard_truncated, transition_chain_broken named "
              "by `memory doctor`) have no figures; they run with every full run.", ""]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--light", action="store_true", help="the everyday sizes instead of MEMORY_HEAVY=1")
    parser.add_argument("--section", action="append", choices=[s.key for s in SECTIONS], metavar="KEY",
                        help="rerun only this section's test file (repeatable); the others keep their figures")
    parser.add_argument("--list", action="store_true", help="list the sections and their test files")
    parser.add_argument("--out", type=Path, default=REPORT, help=f"report path (default: {REPORT.relative_to(ROOT)})")
    args = parser.parse_args()
    if args.list:
        for section in SECTIONS:
            print(f"{section.key:18} {section.test}")
        return 0
    chosen = [s for s in SECTIONS if not args.section or s.key in args.section]
    tests = list(dict.fromkeys(s.test for s in chosen))
    if not args.section:
        tests.append("tests/test_retention.py")  # no figures of its own: see "Also run"
    sidecar = args.out.with_suffix(".json")
    stored = json.loads(sidecar.read_text(encoding="utf-8")) if sidecar.exists() and args.section else {}
    with tempfile.TemporaryDirectory() as scratch:
        figures_path = Path(scratch) / "figures.jsonl"
        run = run_tests(tests, not args.light, figures_path)
        figures = read_figures(figures_path)
    data = merge(stored, run, figures)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    sidecar.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    args.out.write_text(render(data), encoding="utf-8")
    print(f"{'pass' if run['status'] == 0 else 'FAIL'}: {run['summary']}; report: {args.out}")
    return run["status"]


if __name__ == "__main__":
    sys.exit(main())
