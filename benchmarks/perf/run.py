"""Performance benchmarks: the engine beside its baselines, in one process, as ratios.

Contract: ``python benchmarks/perf/run.py --stores /tmp/memory-perf`` reads the
stores that ``generate.py`` wrote there (``store-10k``, ``store-100k``,
``store-1m``; missing ones are skipped and said so), measures, and writes
``benchmarks/reports/perf.json`` and ``perf.md``. Every latency is the median
and p95 over many runs (the run count is reported); the engine and its
baselines are timed in turn, query by query, in the same process, so machine
noise hits them alike. Scratch stores go under ``--scratch`` (default: a
temporary folder), never into the repository. Nothing here changes a measured
store except the scope ``perf-mutate-1k``, which exists for ``memory mutate``.

Sections (``--only`` picks some): ``query`` (in-process ``run_query`` per scope
size vs a ReFind-style rebuild and SQLite FTS5), ``growth`` (1k scope as the
store grows), ``process`` (``memory query``/``mutate`` as whole processes vs
``python -c pass`` and a process that only imports the dependencies),
``write`` (``memory apply``/``import`` throughput), ``index`` (build and
one-record refresh), ``profile`` (import time, cProfile).
"""
from __future__ import annotations

import argparse
import compileall
import cProfile
import gc
import hashlib
import json
import os
import platform
import pstats
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate as gen  # noqa: E402  (puts the project root on sys.path)

from memory.benchmark.baselines import refind_pairs  # noqa: E402
from memory.clock import FixedClock  # noqa: E402
from memory.importers import Turn  # noqa: E402
from memory.indexing import document_text, index_settings, open_index  # noqa: E402
from memory.jsonio import loads_trusted  # noqa: E402
from memory.paths import scope_digest  # noqa: E402
from memory.query import QueryRequest, run_query  # noqa: E402
from memory.retrieval.tokenize import tokenize  # noqa: E402
from memory.store import Store  # noqa: E402
from memory.indexing import read_cache  # noqa: E402

REPORTS = gen.PROJECT_ROOT / "benchmarks" / "reports"
DEPENDENCIES = ("click", "jsonschema", "orjson", "rank_bm25", "httpx")
PROBE_KEYS = {100: "probe-100", 1_000: "probe-1k", 10_000: "probe-10k", 100_000: "probe-100k"}
STORE_NAMES = ("10k", "100k", "1m")
LIMIT = 10

TARGETS = {
    "query_p50_1k": ("in-process query p50 at 1k/scope", "<=", 2.0, "ms"),
    "query_p50_10k": ("in-process query p50 at 10k/scope", "<=", 20.0, "ms"),
    "vs_refind_10k": ("speed-up over the ReFind-style rebuild at 10k (p50 ratio)", ">=", 10.0, "x"),
    "vs_fts5_10k": ("engine p50 / FTS5 p50 at 10k", "<=", 3.0, "x"),
    "cli_query_wall": ("`memory query` wall p50, 1M store, 1k scope", "<=", 100.0, "ms"),
    "cli_query_rss": ("`memory query` peak RSS, 1M store, 1k scope", "<=", 150.0, "MB"),
    "growth_10k_to_1m": ("query p50 growth, 1k scope, 10k -> 1M store", "<=", 1.5, "x"),
    "apply_rate": ("`memory apply` durable envelopes/s", ">=", 5_000.0, "/s"),
    "refresh_10k": ("one new record refreshes a 10k scope's index (p50)", "<=", 10.0, "ms"),
}

# -- statistics --------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    at = (len(ordered) - 1) * q
    low = int(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def summary(seconds: list[float]) -> dict:
    ms = [s * 1000 for s in seconds]
    return {"runs": len(ms), "p50_ms": round(percentile(ms, 0.5), 3), "p95_ms": round(percentile(ms, 0.95), 3),
            "min_ms": round(min(ms), 3) if ms else None}


@dataclass
class Timer:
    """One contender in an interleaved comparison: a call, its samples, its run bounds."""

    name: str
    call: Callable[[str], object]
    min_runs: int = 5
    max_runs: int = 200
    budget_s: float = 20.0
    samples: list[float] = field(default_factory=list)

    def wants_more(self) -> bool:
        if len(self.samples) < self.min_runs:
            return True
        return len(self.samples) < self.max_runs and sum(self.samples) < self.budget_s

    def run(self, argument: str) -> None:
        start = time.perf_counter()
        self.call(argument)
        self.samples.append(time.perf_counter() - start)


def interleave(timers: list[Timer], arguments: list[str]) -> dict[str, dict]:
    """Each argument goes to every timer that still wants runs, in turn; warm-up runs are dropped."""
    for timer in timers:
        timer.call(arguments[0])
    # what the warm-up loaded (whole scopes) stays alive: keep the collector from re-walking it
    # on every allocation burst, or one contender's garbage would bill another's time
    gc.collect()
    gc.freeze()
    i = 1
    while any(t.wants_more() for t in timers):
        argument = arguments[i % len(arguments)] if len(arguments) > 1 else arguments[0]
        for timer in timers:
            if timer.wants_more():
                timer.run(argument)
        i += 1
    gc.unfreeze()
    return {t.name: summary(t.samples) for t in timers}

# -- the machine ---------------------------------------------------------------------


SNAPSHOT_ENV = "MEMORY_PERF_SNAPSHOT"
SNAPSHOT_PARTS = ("memory", "config", "schemas")


def snapshot_source(scratch: Path) -> dict:
    """Copy the package, policies and schemas as they are now: one run measures one code.

    Other people edit the working tree while a run takes its time; the run re-executes
    itself with the copy first on PYTHONPATH (``memory`` commands included).
    """
    target = scratch / "src"
    shutil.rmtree(target, ignore_errors=True)
    digest = hashlib.sha256()
    for part in SNAPSHOT_PARTS:
        shutil.copytree(gen.PROJECT_ROOT / part, target / part,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        for path in sorted((target / part).rglob("*")):
            if path.is_file():
                digest.update(str(path.relative_to(target)).encode() + b"\0" + path.read_bytes())
    # an installed package has its bytecode compiled (pip does it); without this, every
    # measured process would compile the copy from source (PYTHONDONTWRITEBYTECODE may be set)
    compileall.compile_dir(target / "memory", quiet=1)
    return {"path": str(target), "sha256": digest.hexdigest()[:16],
            "uncommitted": _git("status", "--porcelain", "--", *SNAPSHOT_PARTS).splitlines()}


def machine() -> dict:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import memory
    return {"nproc": os.cpu_count(), "cpu_model": model, "python": platform.python_version(),
            "platform": platform.platform(), "commit": _git("rev-parse", "--short", "HEAD"),
            "memory_imported_from": str(Path(memory.__file__).parent), "sqlite": sqlite3.sqlite_version,
            "loadavg_at_start": [round(x, 2) for x in os.getloadavg()]}


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=gen.PROJECT_ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"

# -- stores ------------------------------------------------------------------------------


def open_store(root: Path) -> Store:
    return Store.open(root, clock=FixedClock(gen.QUERY_NOW))


def find_stores(folder: Path) -> dict[str, Path]:
    """The finished stores: ``generate`` writes ``<root>.gen.json`` last."""
    return {name: folder / f"store-{name}" for name in STORE_NAMES if (folder / f"store-{name}.gen.json").exists()}


def plan_for(key: str) -> gen.ScopePlan:
    size = next(size for size, probe in PROBE_KEYS.items() if probe == key) if key in PROBE_KEYS.values() \
        else gen.MUTATE_SCOPE[1]
    return gen.ScopePlan(key, size, "probe")


def scope_queries(key: str, count: int = 400) -> list[str]:
    return gen.queries(gen.SEED, plan_for(key), count)


def engine(store: Store, key: str) -> Callable[[str], dict]:
    def query(text: str) -> dict:
        return run_query(store, QueryRequest(text=text, user=key, limit=LIMIT))
    return query


def current_records(scope_dir: Path) -> dict[str, dict]:
    """Each record's last revision, read straight from a scope folder's shards."""
    records: dict[str, dict] = {}
    for path in sorted(scope_dir.glob("[0-9]*.jsonl")):
        data = path.read_bytes()
        for line in data[:data.rfind(b"\n") + 1].splitlines():
            record = loads_trusted(line)
            records[record["id"]] = record
    return records

# -- baseline (a): a ReFind-style rebuild per query --------------------------------------------


def refind(store: Store, key: str) -> Callable[[str], list[str]]:
    """Read the scope's records from its shards, then ``refind_pairs`` (two BM25Okapi builds) per query."""
    directory = store.scope_dir(gen.scope(key))

    def query(text: str) -> list[str]:
        turns = [Turn(ref=r["id"], session=(r["source"].get("session") or r["id"]),
                      speaker=r["source"].get("speaker") or "", text=document_text(r), date=r["valid_time"]["from"])
                 for r in current_records(directory).values()]
        return refind_pairs(turns, text, LIMIT)
    return query

# -- baseline (b): SQLite FTS5 with the scope as an indexed token --------------------------------


class Fts5:
    """Every current record of a store in one FTS5 table: (scope token, body terms, record id).

    The body is the engine's own terms (``tokenize(document_text(...))``), so both
    rank the same words; FTS5's bm25 takes its statistics over the whole table.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.db = sqlite3.connect(path)

    @classmethod
    def for_store(cls, store_root: Path, db_path: Path, settings: dict) -> tuple["Fts5", dict]:
        fingerprint = _store_fingerprint(store_root)
        meta_path = db_path.with_suffix(".json")
        if db_path.exists() and meta_path.exists():
            meta = json.loads(meta_path.read_text())
            if meta.get("fingerprint") == fingerprint:
                return cls(db_path), {k: v for k, v in meta.items() if k != "fingerprint"}
        db_path.unlink(missing_ok=True)
        started = time.perf_counter()
        rows = _build_fts(db_path, store_root, settings)
        meta = {"fingerprint": fingerprint, "rows": rows, "build_s": round(time.perf_counter() - started, 1)}
        meta_path.write_text(json.dumps(meta))
        return cls(db_path), {k: v for k, v in meta.items() if k != "fingerprint"}

    def query(self, key: str, text: str) -> list:
        terms = list(dict.fromkeys(tokenize(text)))
        if not terms:
            return []
        match = f'scope : "s{scope_digest("user", key)}" AND body : (' + " OR ".join(
            '"' + t.replace('"', '""') + '"' for t in terms) + ")"
        return self.db.execute("SELECT rid FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 0.0, 1.0) LIMIT ?",
                               (match, LIMIT)).fetchall()


def _store_fingerprint(root: Path) -> list:
    shards = root / "shards"
    return [[d.name, sum(p.stat().st_size for p in d.glob("[0-9]*.jsonl"))] for d in sorted(shards.iterdir())]


def _build_fts(db_path: Path, store_root: Path, settings: dict) -> int:
    db = sqlite3.connect(db_path)
    db.execute("PRAGMA journal_mode=OFF")
    db.execute("PRAGMA synchronous=OFF")
    db.execute("CREATE VIRTUAL TABLE docs USING fts5(scope, body, rid UNINDEXED, tokenize='unicode61')")
    rows = 0
    for scope_dir in sorted((store_root / "shards").iterdir()):
        records = current_records(scope_dir).values()
        db.executemany("INSERT INTO docs(scope, body, rid) VALUES (?, ?, ?)", [
            (f"s{scope_dir.name}", " ".join(tokenize(document_text(r, speaker_field=settings["speaker_field"]))),
             r["id"]) for r in records])
        rows += len(records)
    db.execute("INSERT INTO docs(docs) VALUES ('optimize')")
    db.commit()
    db.close()
    return rows

# -- section: in-process scoped queries ---------------------------------------------------------


def section_query(stores: dict[str, Path], scratch: Path, quick: bool) -> dict:
    name = max(stores, key=lambda n: gen.SIZES[n])
    store = open_store(stores[name])
    # derived from a generated store, so kept beside it (rebuilt when the store's shards change)
    fts, fts_meta = Fts5.for_store(stores[name], stores[name].parent / f"fts-{name}.sqlite", index_settings(store))
    rows = []
    for size, key in PROBE_KEYS.items():
        if not store.scope_dir(gen.scope(key)).is_dir():
            continue
        big = size >= 100_000
        timers = [
            Timer("engine", engine(store, key), max_runs=40 if quick else 300, budget_s=8 if quick else 30),
            Timer("engine_fresh_store", lambda q, k=key: engine(open_store(stores[name]), k)(q),
                  min_runs=3, max_runs=10 if quick else 60, budget_s=8 if quick else 30),
            Timer("fts5", lambda q, k=key: fts.query(k, q), max_runs=40 if quick else 300,
                  budget_s=8 if quick else 30),
            Timer("refind_rebuild", refind(store, key), min_runs=3 if big else 5,
                  max_runs=10 if quick else 60, budget_s=10 if quick else (60 if big else 40)),
        ]
        open_index(store, gen.scope(key))  # a first query builds the index: that is the index section's
        figures = interleave(timers, scope_queries(key))
        engine_p50 = figures["engine"]["p50_ms"]
        rows.append({"scope_size": size, "scope": key, **{k: v for k, v in figures.items()},
                     "refind_over_engine": round(figures["refind_rebuild"]["p50_ms"] / engine_p50, 1),
                     "engine_over_fts5": round(engine_p50 / figures["fts5"]["p50_ms"], 2)})
        print(f"[query] {key}: engine {engine_p50} ms, fts5 {figures['fts5']['p50_ms']} ms, "
              f"refind {figures['refind_rebuild']['p50_ms']} ms", file=sys.stderr, flush=True)
    return {"store": name, "fts5": fts_meta, "rows": rows}

# -- section: growth -------------------------------------------------------------------------


def section_growth(stores: dict[str, Path], quick: bool) -> dict:
    key = PROBE_KEYS[1_000]
    timers = []
    for name in sorted(stores, key=lambda n: gen.SIZES[n]):
        store = open_store(stores[name])
        open_index(store, gen.scope(key))
        timers.append(Timer(name, engine(store, key), max_runs=60 if quick else 400, budget_s=8 if quick else 30))
    figures = interleave(timers, scope_queries(key))
    out = {"scope": key, "stores": figures}
    if "10k" in figures and "1m" in figures:
        out["growth_10k_to_1m"] = round(figures["1m"]["p50_ms"] / figures["10k"]["p50_ms"], 2)
    return out

# -- whole processes ------------------------------------------------------------------------------


def memory_command() -> list[str]:
    script = Path(sys.executable).parent / "memory"
    return [str(script)] if script.exists() else [sys.executable, "-m", "memory.cli"]


# The child is started by a small launcher, not by this process: on Linux a child's peak RSS
# starts at its parent's (exec records the old address space's high-water mark), and this
# process holds whole scopes in memory. The launcher's own floor is reported beside the figures.
LAUNCHER = """
import os, sys, time, resource
out = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
null = os.open(os.devnull, os.O_RDWR)
actions = [(os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, out, 1), (os.POSIX_SPAWN_DUP2, null, 2)]
start = time.perf_counter()
pid = os.posix_spawnp(sys.argv[2], sys.argv[2:], os.environ, file_actions=actions)
_, status = os.waitpid(pid, 0)
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(wall, usage.ru_maxrss, os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime)
"""


def run_process(argv: list[str], env: dict, stdout_path: Path | None = None) -> tuple[float, float, int]:
    """(wall seconds, peak RSS in MB, exit code) of one child: spawn to exit, as the launcher saw it."""
    launched = subprocess.run([sys.executable, "-S", "-c", LAUNCHER, str(stdout_path or os.devnull), *argv],
                              env=env, capture_output=True, text=True, check=True)
    wall, rss_kb, code, _cpu = launched.stdout.split()
    return float(wall), int(rss_kb) / 1024, int(code)


@dataclass
class ProcessTimer:
    name: str
    argv: Callable[[int], list[str]]
    runs: int
    walls: list[float] = field(default_factory=list)
    rss: list[float] = field(default_factory=list)
    failures: int = 0


def interleave_processes(timers: list[ProcessTimer], env: dict) -> dict:
    for timer in timers:                       # warm-up (page cache, pyc), not counted
        run_process(timer.argv(0), env)
    for i in range(max(t.runs for t in timers)):
        for timer in timers:
            if i < timer.runs:
                wall, rss, code = run_process(timer.argv(i + 1), env)
                timer.walls.append(wall)
                timer.rss.append(rss)
                timer.failures += code != 0
    return {t.name: {**summary(t.walls), "peak_rss_mb_p50": round(percentile(t.rss, 0.5), 1),
                     "peak_rss_mb_max": round(max(t.rss), 1), "failures": t.failures} for t in timers}


def base_env(store_root: Path | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_")}
    env["MEMORY_NOW"] = gen.QUERY_NOW
    if store_root:
        env["MEMORY_STORE"] = str(store_root)
    return env


def section_process(stores: dict[str, Path], scratch: Path, quick: bool) -> dict:
    runs = 8 if quick else 40
    memory = memory_command()
    deps = "import " + ", ".join(DEPENDENCIES)
    out: dict = {"memory_command": memory}
    name = max(stores, key=lambda n: gen.SIZES[n])
    questions = scope_queries(PROBE_KEYS[1_000])

    def query_argv(root: Path, key: str, qs: list[str]):
        return lambda i: memory + ["--store", str(root), "query", qs[i % len(qs)], "--user", key, "--json"]

    timers = [ProcessTimer("/bin/true (launcher floor)", lambda i: ["/bin/true"], runs),
              ProcessTimer("python -c pass", lambda i: [sys.executable, "-c", "pass"], runs),
              ProcessTimer("python -c '" + deps + "'", lambda i: [sys.executable, "-c", deps], runs),
              ProcessTimer("memory --help", lambda i: memory + ["--help"], runs)]
    for store_name in sorted(stores, key=lambda n: gen.SIZES[n]):
        open_index(open_store(stores[store_name]), gen.scope(PROBE_KEYS[1_000]))
        timers.append(ProcessTimer(f"memory query ({store_name} store, 1k scope)",
                                   query_argv(stores[store_name], PROBE_KEYS[1_000], questions), runs))
    big = open_store(stores[name])
    for size in (10_000, 100_000):
        key = PROBE_KEYS[size]
        if big.scope_dir(gen.scope(key)).is_dir():
            open_index(big, gen.scope(key))
            timers.append(ProcessTimer(f"memory query ({name} store, {size // 1000}k scope)",
                                       query_argv(stores[name], key, scope_queries(key)),
                                       max(3, runs // (4 if size == 10_000 else 8))))
    mutate_dir = scratch / "mutate-envelopes"
    mutate_dir.mkdir(parents=True, exist_ok=True)
    if big.scope_dir(gen.scope(gen.MUTATE_SCOPE[0])).is_dir():
        timers.append(ProcessTimer(f"memory mutate ({name} store, 1k scope)",
                                   lambda i: memory + ["--store", str(stores[name]), "mutate", "--envelope",
                                                       str(_mutate_envelope(mutate_dir)), "--json"], runs))
    out["processes"] = interleave_processes(timers, base_env())
    return out


def _mutate_envelope(folder: Path) -> Path:
    """A fresh episode for the mutate scope, with a never-used transaction id."""
    tx = f"perf-mutate-{uuid.uuid4().hex}"
    envelope = {"schema_version": "memory.envelope.v1", "transaction_id": tx, "operation": "add",
                "actor": {"type": "user_via_agent", "id": "perf-run"},
                "source": {"type": "conversation", "ref": tx, "observed_at": None, "evidence_hash": None,
                           "session": "perf-mutate", "speaker": "Perf"},
                "target": {"record_id": None, "memory_key": None, "scope": gen.scope(gen.MUTATE_SCOPE[0])},
                "payload": {"kind": "episode", "statement": "Maria booked 3 tickets to Lisbon for 2025-07-04."},
                "reason": "perf mutate"}
    path = folder / f"{tx}.json"
    path.write_text(json.dumps(envelope))
    return path

# -- section: write throughput ---------------------------------------------------------------------


def section_write(scratch: Path, quick: bool) -> dict:
    memory = memory_command()
    plans = [gen.ScopePlan(f"apply-{i:02d}", 1_000, "filler") for i in range(4 if quick else 10)]
    envelopes_path = scratch / "apply-envelopes.jsonl"
    with open(envelopes_path, "w", encoding="utf-8") as handle:
        for envelope in gen.store_envelopes(gen.SEED, plans):
            handle.write(json.dumps(envelope) + "\n")
    count = sum(1 for _ in open(envelopes_path, encoding="utf-8"))
    locomo_path = scratch / "locomo-synthetic.json"
    turns = gen.locomo_file(locomo_path, conversations=4 if quick else 10, turns=1_000)
    runs = 2 if quick else 3
    out: dict = {"apply_input": {"envelopes": count, "scopes": len(plans), "scope_size": 1_000},
                 "import_input": {"turns": turns, "format": "LoCoMo (synthetic)"}, "runs": runs}
    cases = {f"memory apply --batch-size {b}": ["apply", str(envelopes_path), "--batch-size", str(b)]
             for b in (500, 5_000)}
    cases["memory import locomo"] = ["import", "locomo", str(locomo_path), "--json"]
    for label, args in cases.items():
        out[label] = _throughput(memory, args, turns if "import" in label else count, scratch, runs)
        print(f"[write] {label}: {out[label]['per_second_p50']}/s", file=sys.stderr, flush=True)
    out["library Store.apply (batch 5000)"] = _library_apply(envelopes_path, count, scratch, runs)
    out["cprofile_library_apply"] = _profile_apply(envelopes_path, scratch)
    return out


def _drain(results) -> None:
    for _ in results:
        pass


def _profile_apply(envelopes_path: Path, scratch: Path) -> dict:
    """cProfile of ``Store.apply`` over the apply input into an empty store (figures per envelope)."""
    lines = [line for line in envelopes_path.read_bytes().splitlines() if line.strip()]
    root = scratch / f"prof-{uuid.uuid4().hex[:8]}"
    store = Store.create(root, clock=FixedClock(gen.QUERY_NOW))
    profile = profile_calls(lambda: _drain(store.apply(lines, batch_size=5_000)), 1, top=40)
    shutil.rmtree(root)
    for key in ("by_tottime", "by_cumtime"):
        for row in profile[key]:
            row["per_envelope_us"] = round(row["cumtime_ms" if key == "by_cumtime" else "tottime_ms"]
                                           * 1000 / len(lines), 1)
    profile["envelopes"] = len(lines)
    return profile


def _throughput(memory: list[str], args: list[str], count: int, scratch: Path, runs: int) -> dict:
    walls, rss, statuses = [], [], {}
    for run in range(runs):
        root = scratch / f"write-{uuid.uuid4().hex[:8]}"
        env = base_env(root)
        subprocess.run(memory + ["--store", str(root), "init"], env=env, check=True, capture_output=True)
        results = scratch / "results.jsonl"
        wall, peak, _ = run_process(memory + ["--store", str(root)] + args, env, results)
        walls.append(wall)
        rss.append(peak)
        statuses = _statuses(results)
        shutil.rmtree(root)
    return {"wall_s": [round(w, 2) for w in walls], "per_second_p50": round(count / percentile(walls, 0.5)),
            "peak_rss_mb_max": round(max(rss), 1), "last_run_statuses": statuses}


def _statuses(results: Path) -> dict:
    text = results.read_text(encoding="utf-8").strip()
    if text.startswith("{") and "\n" not in text:   # import --json prints counts
        counts = json.loads(text)
        return {k: counts[k] for k in ("applied", "idempotent", "refused") if k in counts}
    found: dict[str, int] = {}
    for line in text.splitlines():
        status = json.loads(line)["status"]
        found[status] = found.get(status, 0) + 1
    return found


def _library_apply(envelopes_path: Path, count: int, scratch: Path, runs: int) -> dict:
    lines = [line for line in envelopes_path.read_bytes().splitlines() if line.strip()]
    walls = []
    for _ in range(runs):
        root = scratch / f"lib-{uuid.uuid4().hex[:8]}"
        store = Store.create(root, clock=FixedClock(gen.QUERY_NOW))
        start = time.perf_counter()
        for _result in store.apply(lines, batch_size=5_000):
            pass
        walls.append(time.perf_counter() - start)
        shutil.rmtree(root)
    return {"wall_s": [round(w, 2) for w in walls], "per_second_p50": round(count / percentile(walls, 0.5))}

# -- section: index build and refresh ---------------------------------------------------------------


def scratch_copy(source: Path, key: str, scratch: Path) -> Store:
    """A store holding one scope copied from ``source`` (its shards and manifest, no index)."""
    root = scratch / f"index-{key}-{uuid.uuid4().hex[:6]}"
    store = Store.create(root, clock=FixedClock(gen.QUERY_NOW))
    digest = scope_digest("user", key)
    shutil.copytree(source / "shards" / digest, root / "shards" / digest)
    return store


def section_index(stores: dict[str, Path], scratch: Path, quick: bool) -> dict:
    name = max(stores, key=lambda n: gen.SIZES[n])
    rows = []
    for size in (1_000, 10_000):
        key = PROBE_KEYS[size]
        if not (stores[name] / "shards" / scope_digest("user", key)).is_dir():
            continue
        store = scratch_copy(stores[name], key, scratch)
        target = gen.scope(key)
        index_dir = store.layout.index_dir(scope_digest("user", key))
        builds = []
        for _ in range(3 if quick else (20 if size == 1_000 else 8)):
            shutil.rmtree(index_dir, ignore_errors=True)
            read_cache(store).clear()  # the read side keeps opened indexes: measure the build, not the cache
            start = time.perf_counter()
            open_index(store, target)
            builds.append(time.perf_counter() - start)
        loads, refreshes, mutates = [], [], []
        for i in range(10 if quick else 40):
            read_cache(store).clear()  # a load from disk, as a new process does
            start = time.perf_counter()
            open_index(store, target)
            loads.append(time.perf_counter() - start)
            start = time.perf_counter()
            result = store.mutate(_refresh_envelope(key, i))
            mutates.append(time.perf_counter() - start)
            assert result["status"] == "applied", result
            start = time.perf_counter()
            open_index(store, target)
            refreshes.append(time.perf_counter() - start)
        rows.append({"scope_size": size, "build": summary(builds), "load_unchanged": summary(loads),
                     "refresh_after_one_record": summary(refreshes), "mutate_in_process": summary(mutates)})
        shutil.rmtree(store.root)
    return {"store": name, "rows": rows}


def _refresh_envelope(key: str, i: int) -> dict:
    return {"schema_version": "memory.envelope.v1", "transaction_id": f"refresh-{i}-{uuid.uuid4().hex[:8]}",
            "operation": "add", "actor": {"type": "user_via_agent", "id": "perf-run"},
            "source": {"type": "conversation", "ref": f"R:{i}", "observed_at": None, "evidence_hash": None,
                       "session": "perf-refresh", "speaker": "Perf"},
            "target": {"record_id": None, "memory_key": None, "scope": gen.scope(key)},
            "payload": {"kind": "episode", "statement": f"Nora paid {i} euros for the concert in Porto."},
            "reason": "perf refresh"}

# -- section: profiles ----------------------------------------------------------------------------------


def importtime(argv: list[str], env: dict) -> dict:
    """Parse ``-X importtime`` output: total, and the top modules by cumulative and by self time."""
    proc = subprocess.run(argv, env=env, capture_output=True, text=True)
    rows = []
    for line in proc.stderr.splitlines():
        match = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)", line)
        if match:
            rows.append({"self_ms": int(match[1]) / 1000, "cumulative_ms": int(match[2]) / 1000,
                         "depth": len(match[3]) // 2, "module": match[4]})
    top_level = [r for r in rows if r["depth"] == 0]
    packages: dict[str, float] = {}
    for r in rows:
        package = r["module"].split(".")[0]
        packages[package] = packages.get(package, 0.0) + r["self_ms"]
    return {"total_ms": round(sum(r["cumulative_ms"] for r in top_level), 1), "modules": len(rows),
            "top_cumulative": sorted(top_level, key=lambda r: -r["cumulative_ms"])[:12],
            "top_self": sorted(rows, key=lambda r: -r["self_ms"])[:15],
            "by_package_self_ms": dict(sorted(((k, round(v, 1)) for k, v in packages.items()),
                                              key=lambda kv: -kv[1])[:15])}


def profile_calls(call: Callable[[], object], repeat: int, top: int = 15) -> dict:
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(repeat):
        call()
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = stats.total_tt
    rows = []
    for (filename, line, func), (cc, nc, tt, ct, _) in stats.stats.items():
        where = f"{_short(filename)}:{line}({func})"
        rows.append({"function": where, "calls": nc, "tottime_ms": round(tt * 1000 / repeat, 3),
                     "cumtime_ms": round(ct * 1000 / repeat, 3)})
    return {"repeat": repeat, "per_call_ms": round(total * 1000 / repeat, 3),
            "by_tottime": sorted(rows, key=lambda r: -r["tottime_ms"])[:top],
            "by_cumtime": sorted(rows, key=lambda r: -r["cumtime_ms"])[:top]}


def _short(filename: str) -> str:
    for marker in ("/site-packages/", "/src/", "/work/main/", "/lib/python3"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    return filename


def section_profile(stores: dict[str, Path], quick: bool) -> dict:
    name = max(stores, key=lambda n: gen.SIZES[n])
    env = base_env()
    out = {"importtime_memory_cli": importtime([sys.executable, "-X", "importtime", "-c", "import memory.cli"], env)}
    questions = scope_queries(PROBE_KEYS[1_000])
    out["importtime_memory_query_process"] = importtime(
        [sys.executable, "-X", "importtime", "-m", "memory.cli", "--store", str(stores[name]), "query",
         questions[0], "--user", PROBE_KEYS[1_000], "--json"], env)
    store = open_store(stores[name])
    if store.scope_dir(gen.scope(PROBE_KEYS[10_000])).is_dir():
        key = PROBE_KEYS[10_000]
        ask = engine(store, key)
        qs = iter(scope_queries(key) * 10)
        ask(next(qs))
        out["cprofile_run_query_10k_warm"] = profile_calls(lambda: ask(next(qs)), 10 if quick else 50)
    key = PROBE_KEYS[1_000]
    qs1 = iter(questions * 10)
    out["cprofile_run_query_1k_fresh_store"] = profile_calls(
        lambda: engine(open_store(stores[name]), key)(next(qs1)), 10 if quick else 40)
    out["scope_fold_fresh"] = _fold_costs(stores[name], quick)
    return out


def _fold_costs(root: Path, quick: bool) -> list[dict]:
    """What a fresh process pays before searching: fold the scope's JSONL, load its index."""
    rows = []
    for size, key in PROBE_KEYS.items():
        store = open_store(root)
        if not store.scope_dir(gen.scope(key)).is_dir():
            continue
        folds, loads = [], []
        for _ in range(3 if quick or size >= 100_000 else 10):
            fresh = open_store(root)
            start = time.perf_counter()
            fresh.state(gen.scope(key))
            folds.append(time.perf_counter() - start)
            start = time.perf_counter()
            open_index(fresh, gen.scope(key))
            loads.append(time.perf_counter() - start)
        shard_bytes = sum(p.stat().st_size for p in store.shard_paths(gen.scope(key)))
        rows.append({"scope_size": size, "shard_mb": round(shard_bytes / 2**20, 1),
                     "fold_state": summary(folds), "load_index": summary(loads)})
    return rows

# -- targets and report ---------------------------------------------------------------------------------


def evaluate(report: dict) -> dict:
    values: dict[str, float | None] = dict.fromkeys(TARGETS)
    rows = {r["scope_size"]: r for r in report.get("query", {}).get("rows", [])}
    if 1_000 in rows:
        values["query_p50_1k"] = rows[1_000]["engine"]["p50_ms"]
    if 10_000 in rows:
        values["query_p50_10k"] = rows[10_000]["engine"]["p50_ms"]
        values["vs_refind_10k"] = rows[10_000]["refind_over_engine"]
        values["vs_fts5_10k"] = rows[10_000]["engine_over_fts5"]
    procs = report.get("process", {}).get("processes", {})
    cli = procs.get("memory query (1m store, 1k scope)")
    if cli:
        values["cli_query_wall"] = cli["p50_ms"]
        values["cli_query_rss"] = cli["peak_rss_mb_max"]
    values["growth_10k_to_1m"] = report.get("growth", {}).get("growth_10k_to_1m")
    write = report.get("write", {})
    if "memory apply --batch-size 5000" in write:
        values["apply_rate"] = max(write[f"memory apply --batch-size {b}"]["per_second_p50"] for b in (500, 5000))
    index_rows = {r["scope_size"]: r for r in report.get("index", {}).get("rows", [])}
    if 10_000 in index_rows:
        values["refresh_10k"] = index_rows[10_000]["refresh_after_one_record"]["p50_ms"]
    out = {}
    for key, (label, op, goal, unit) in TARGETS.items():
        value = values[key]
        met = None if value is None else (value <= goal if op == "<=" else value >= goal)
        out[key] = {"target": f"{op} {goal:g} {unit}", "label": label, "value": value, "unit": unit, "met": met}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stores", type=Path, default=Path("/tmp/memory-perf"))
    parser.add_argument("--scratch", type=Path, default=None, help="scratch folder (default: a temporary one)")
    parser.add_argument("--only", action="append",
                        choices=["query", "growth", "process", "write", "index", "profile"])
    parser.add_argument("--quick", action="store_true", help="few runs: to check the script, not to report")
    parser.add_argument("--json-out", type=Path, default=REPORTS / "perf.json")
    parser.add_argument("--md-out", type=Path, default=REPORTS / "perf.md")
    parser.add_argument("--merge", action="store_true", help="keep sections of an existing --json-out not re-run")
    parser.add_argument("--no-snapshot", action="store_true", help="measure the live working tree instead of a copy")
    args = parser.parse_args(argv)
    stores = find_stores(args.stores)
    if not stores:
        parser.error(f"no generated stores under {args.stores} (run generate.py first)")
    scratch = args.scratch or Path(tempfile.mkdtemp(prefix="memory-perf-run-"))
    scratch.mkdir(parents=True, exist_ok=True)
    if not args.no_snapshot and SNAPSHOT_ENV not in os.environ:
        source = snapshot_source(scratch)
        source["command"] = " ".join(["python", *sys.argv])
        env = {**os.environ, SNAPSHOT_ENV: json.dumps(source),
               "PYTHONPATH": os.pathsep.join(filter(None, [source["path"], os.environ.get("PYTHONPATH")]))}
        command = [sys.executable, str(Path(__file__).resolve()), *(argv if argv is not None else sys.argv[1:])]
        if not args.scratch:
            command += ["--scratch", str(scratch)]
        code = subprocess.run(command, env=env).returncode
        if not args.scratch:
            shutil.rmtree(scratch, ignore_errors=True)
        return code
    sections = args.only or ["query", "growth", "process", "write", "index", "profile"]
    report = json.loads(args.json_out.read_text()) if args.merge and args.json_out.exists() else {}
    report.pop("section_seconds", None)
    snapshot = json.loads(os.environ.get(SNAPSHOT_ENV, "null"))
    report.update({"machine": machine(), "source_snapshot": snapshot,
                   "command": (snapshot or {}).get("command") or " ".join(["python", *sys.argv]),
                   "stores": {n: _store_meta(p) for n, p in stores.items()}, "quick": args.quick})
    steps = {"query": lambda: section_query(stores, scratch, args.quick),
             "growth": lambda: section_growth(stores, args.quick),
             "process": lambda: section_process(stores, scratch, args.quick),
             "write": lambda: section_write(scratch, args.quick),
             "index": lambda: section_index(stores, scratch, args.quick),
             "profile": lambda: section_profile(stores, args.quick)}
    for section in sections:
        started = time.perf_counter()
        print(f"== {section}", file=sys.stderr, flush=True)
        load_before = os.getloadavg()[0]
        report[section] = steps[section]()
        report.setdefault("section_meta", {})[section] = {
            "seconds": round(time.perf_counter() - started, 1), "finished": time.strftime("%Y-%m-%d %H:%M:%S"),
            "loadavg_1m_before_after": [round(load_before, 2), round(os.getloadavg()[0], 2)],
            "source_sha256": (snapshot or {}).get("sha256"), "commit": report["machine"]["commit"],
            "niceness": os.nice(0)}
    report["machine"]["loadavg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    report["targets"] = evaluate(report)
    args.json_out.parent.mkdir(parents=True, exist_ok=True)
    args.json_out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    from render import render_markdown
    args.md_out.write_text(render_markdown(report), encoding="utf-8")
    print(json.dumps({k: [t["value"], t["met"]] for k, t in report["targets"].items()}))
    return 0


def _store_meta(root: Path) -> dict:
    meta_path = Path(f"{root}.gen.json")
    meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    keep = ("records", "envelopes", "scopes", "scopes_by_size", "composition", "seconds", "envelopes_per_second",
            "seed", "batch_size")
    return {"root": str(root), **{k: meta[k] for k in keep if k in meta}}


if __name__ == "__main__":
    sys.exit(main())
