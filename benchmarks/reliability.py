"""Run the heavy reliability suite and write ``benchmarks/reports/reliability.md``.

    python benchmarks/reliability.py            # the heavy run (MEMORY_HEAVY=1) + the report
    python benchmarks/reliability.py --light    # the everyday sizes, same report shape

The tests do the work (concurrent writers and readers, kill -9 trials, truncation
at every byte, hypothesis fuzzing, the isolation property, retention and erasure,
tampering); each appends its figures as a JSON line to the file named by
``$MEMORY_RELIABILITY_FIGURES``. This script runs them in one pytest process,
collects those lines and writes the report with the machine, the commit and the
exact command, so a reader can rerun it. It exits with pytest's status.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "benchmarks" / "reports" / "reliability.md"
TESTS = ["tests/test_reliability_concurrency.py", "tests/test_reliability_crash.py", "tests/test_fuzz.py",
         "tests/test_isolation_property.py", "tests/test_retention.py"]


def git(*args: str) -> str:
    run = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    return run.stdout.strip() if run.returncode == 0 else "unknown"


def run_suite(heavy: bool, figures_path: Path) -> tuple[int, str, float, str]:
    env = dict(os.environ, MEMORY_RELIABILITY_FIGURES=str(figures_path), PYTHONPATH=str(ROOT))
    env.pop("MEMORY_HEAVY", None)
    prefix = ""
    if heavy:
        env["MEMORY_HEAVY"] = "1"
        prefix = "MEMORY_HEAVY=1 "
    # -q comes from pyproject's addopts; a second one would drop pytest's "N passed in S s" line
    argv = [sys.executable, "-m", "pytest", *TESTS, "-p", "no:cacheprovider"]
    command = prefix + " ".join(["python", "-m", "pytest", *TESTS, "-p", "no:cacheprovider"])
    started = time.monotonic()
    run = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
    elapsed = time.monotonic() - started
    summary = next((line for line in reversed(run.stdout.splitlines())
                    if " in " in line and ("passed" in line or "failed" in line)), "no pytest summary line")
    if run.returncode:
        sys.stderr.write(run.stdout[-5000:] + run.stderr[-2000:])
    return run.returncode, command, elapsed, summary.strip("= ")


def load_figures(path: Path) -> dict[str, dict]:
    figures = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            figures[row.pop("test")] = row
    return figures


def fmt(value) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in sorted(value.items())) or "none"
    return str(value)


SECTIONS = [
    ("concurrency", "Concurrent writers and readers",
     "`memory apply` processes write one store at once (batch sizes 1/3/10/50, so they contend for the lock); "
     "a reader process folds every scope, checks every hash and transaction group and runs queries in a loop; "
     "the test also calls `memory query` throughout. Afterwards every acknowledged envelope is present exactly "
     "once, every line is whole canonical JSON, `doctor` is clean."),
    ("crash_kill9", "kill -9 during `memory apply`",
     "Each trial kills `memory apply` after a random number of acknowledged results (plus jitter). Every "
     "acknowledged transaction is present; no transaction is visible with lines missing; doctor reports only "
     "repairable problems; recovery by re-running the file (after a reader indexed the crashed state) or by "
     "`doctor --repair` first ends with every transaction present exactly once and a clean doctor."),
    ("crash_truncation", "A crash at any byte of a write",
     "The last write of a store (several transaction groups) is cut at every line boundary and at random "
     "offsets; readers never see a torn line or a cut-short group, the next writer cuts it before appending, "
     "the index built over the crashed state is dropped, and re-applying finishes the work once."),
    ("fuzz_admission", "Fuzzing: admission", "Arbitrary bytes, arbitrary JSON and mutated valid envelopes "
     "(dict and bytes paths) through `admit`: only documented codes."),
    ("fuzz_store", "Fuzzing: the store", "Mutated envelopes and byte-level mutations through `Store.mutate`: "
     "documented codes only, and a refusal changes no byte of the store."),
    ("fuzz_sequences", "Fuzzing: operation sequences", "Random sequences of mostly-admissible envelopes "
     "(all nine operations, existing ids, few keys): documented refusals, refusals write nothing, `doctor` "
     "stays clean, never two active records for one key."),
    ("fuzz_cli_mutate", "Fuzzing: `memory mutate` / `memory apply`", "No traceback, exit code 0 or 5, one "
     "result line per envelope, nothing written on refusal."),
    ("fuzz_query", "Fuzzing: queries", "Random text, users, instants, kinds and limits through `run_query`: "
     "an answer or a documented usage code."),
    ("fuzz_cli_query", "Fuzzing: `memory query`", "Random arguments and options: no traceback, exit codes "
     "from the table."),
    ("isolation", "Isolation property",
     "Random multi-user stores: each viewer's query (with and without trace and inactive records) equals the "
     "same query on a store holding the viewer's scope alone; `get`, `history`, by-id mutations and "
     "`conflict_with` aimed at another scope answer exactly as for an id that exists nowhere; another "
     "scope's transaction ids are free. `leaks_found` counts any difference or foreign id/marker."),
]


def render(figures: dict, *, heavy: bool, command: str, status: int, elapsed: float, summary: str) -> str:
    commit = git("rev-parse", "--short", "HEAD")
    dirty = " (with uncommitted changes)" if git("status", "--porcelain", "--", "memory", "tests") else ""
    leaks = figures.get("isolation", {}).get("leaks_found", "n/a")
    fuzz_cases = sum(figures.get(name, {}).get("cases", 0) for name in
                     ("fuzz_admission", "fuzz_store", "fuzz_cli_mutate", "fuzz_query", "fuzz_cli_query"))
    fuzz_cases += figures.get("fuzz_sequences", {}).get("envelopes", 0)
    lines = [
        "# Reliability report", "",
        "Generated by `python benchmarks/reliability.py`" + ("" if heavy else " --light") + "; do not edit by hand.", "",
        f"- result: **{'pass' if status == 0 else 'FAIL'}** ({summary}), {elapsed:.0f} s wall",
        f"- command: `{command}`",
        f"- commit: `{commit}`{dirty}",
        f"- machine: {os.cpu_count()} CPU(s) (`nproc`), {platform.system()} {platform.machine()}, "
        f"Python {platform.python_version()}",
        "", "## Headline figures", "",
        "| figure | value |", "|---|---|",
        f"| concurrent writers x envelopes | {figures.get('concurrency', {}).get('writers', 'n/a')} x "
        f"{figures.get('concurrency', {}).get('envelopes_per_writer', 'n/a')} |",
        f"| kill -9 trials (killed mid-run) | {figures.get('crash_kill9', {}).get('trials', 'n/a')} "
        f"({figures.get('crash_kill9', {}).get('killed_mid_run', 'n/a')}) |",
        f"| truncation offsets | {figures.get('crash_truncation', {}).get('offsets', 'n/a')} |",
        f"| fuzz cases (all fuzzers) | {fuzz_cases} |",
        f"| isolation worlds / queries / foreign-id probes | {figures.get('isolation', {}).get('worlds', 'n/a')} / "
        f"{figures.get('isolation', {}).get('queries', 'n/a')} / "
        f"{figures.get('isolation', {}).get('foreign_id_probes', 'n/a')} |",
        f"| leaks found (goal: 0) | {leaks} |",
        f"| undocumented error codes or tracebacks (goal: 0) | "
        f"{sum(figures.get(n, {}).get('undocumented', 0) + figures.get(n, {}).get('tracebacks', 0) for n in figures)} |",
        "",
    ]
    for key, title, what in SECTIONS:
        row = figures.get(key)
        lines += [f"## {title}", "", what, ""]
        if row is None:
            lines += ["(no figures: the test did not run to the end)", ""]
            continue
        lines += ["| figure | value |", "|---|---|"] + [f"| {k} | {fmt(v)} |" for k, v in row.items()] + [""]
    lines += ["## Also run", "",
              "`tests/test_retention.py` (retention windows, sweeps, erasure leaving no byte of content in "
              "shards, index/ or views/) and the tampering test in `tests/test_reliability_crash.py` "
              "(policy_drift, record_hash_mismatch, manifest_mismatch, transition_chain_broken named by "
              "`memory doctor`) have no heavy variant; they ran in the same pytest process.", ""]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--light", action="store_true", help="the everyday sizes instead of MEMORY_HEAVY=1")
    parser.add_argument("--out", type=Path, default=REPORT, help=f"report path (default: {REPORT.relative_to(ROOT)})")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        figures_path = Path(scratch) / "figures.jsonl"
        status, command, elapsed, summary = run_suite(not args.light, figures_path)
        figures = load_figures(figures_path)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(render(figures, heavy=not args.light, command=command, status=status, elapsed=elapsed,
                               summary=summary), encoding="utf-8")
    print(f"{'pass' if status == 0 else 'FAIL'}: {summary}; report: {args.out}")
    return status


if __name__ == "__main__":
    sys.exit(main())
