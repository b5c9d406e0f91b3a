"""The scope-size axis: what one operation costs as ONE user's memory grows (issue 14).

Contract: ``python benchmarks/perf/scale.py --stores /tmp/memory-scale`` uses (or
writes, through the real write path) one store per size holding a single scope of
1k, 10k and 100k records (``generate.scope_envelopes``: episodes as the importers
write them, ~12% keyed facts, then updates, retirements and disputes), measures,
and merges its figures into ``benchmarks/reports/perf.json`` under ``scope_scale``
(then re-renders ``perf.md``). Nothing measured is changed: writes go to scratch
copies under ``--scratch``.

Measured, per scope size:

- ``process``: ``memory query`` as a whole process (wall p50, peak RSS via the
  launcher of ``run.py``), questions drawn for the scope, the package's bytecode cached as
  an install has it; with ``--baseline-src`` and ``--baseline-stores``, another tree's
  ``memory query`` alternately with this one's (a before/after in the same minutes);
- ``serve``: a ``memory serve`` process on a copy of the store; adds of 20 messages
  and searches interleaved (a search right after each add), p50 of each;
- ``in_process``: ``run_query`` p50 beside SQLite FTS5 over the same records, in turn;
- ``apply`` (largest size only): ``Store.apply`` at the default ``--batch-size`` of
  ``memory apply`` into a fresh store, durable envelopes/s, overall and on the
  first and last 20% of the envelopes;
- ``clients`` (once): 8 concurrent clients adding to 8 different users through one
  ``memory serve``, messages/s.

Ratios are what count (the machine is shared): growth is the 100k figure over the
1k figure of the same run.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate as gen  # noqa: E402
import run as perf  # noqa: E402  (the launcher, the interleaving, FTS5)

from memory.clock import FixedClock  # noqa: E402
from memory.indexing import index_settings  # noqa: E402
from memory.store import Store  # noqa: E402

SIZES = {"1k": 1_000, "10k": 10_000, "100k": 100_000}
CLI_APPLY_BATCH = 500           # memory apply's default --batch-size
MESSAGES_PER_ADD = 20
CLIENTS = 8

TARGETS = {
    "scale_process_p50": ("`memory query` as a process p50, 100k records in the scope", "<=", 100.0, "ms"),
    "scale_process_rss": ("`memory query` peak RSS, 100k records in the scope", "<=", 80.0, "MB"),
    "scale_process_growth": ("`memory query` process p50 growth, scope 1k -> 100k", "<=", 1.5, "x"),
    "scale_serve_add": ("`memory serve` add (20 messages) p50, 100k scope, interleaved", "<=", 25.0, "ms"),
    "scale_serve_search": ("`memory serve` search p50 right after an add, 100k scope", "<=", 15.0, "ms"),
    "scale_serve_growth": ("`memory serve` add+search p50 growth, scope 1k -> 100k", "<=", 1.5, "x"),
    "scale_clients": ("add throughput, 8 clients on 8 users", ">=", 2_000.0, "msg/s"),
    "scale_apply_rate": ("`Store.apply` at the default batch size, envelopes/s", ">=", 5_000.0, "/s"),
    "scale_apply_drift": ("apply rate, first 20% / last 20% of 100k into one scope", "<=", 1.2, "x"),
    "scale_doctor": ("`memory doctor` after one new write (all sizes' revisions in one store)", "<=", 1.0, "s"),
    "scale_query_1k": ("in-process query p50, 1k scope", "<=", 2.0, "ms"),
    "scale_query_100k": ("in-process query p50, 100k scope", "<=", 20.0, "ms"),
    "scale_vs_fts5_100k": ("in-process query p50 / FTS5 p50, 100k scope", "<=", 3.0, "x"),
}


def plan(name: str) -> gen.ScopePlan:
    return gen.ScopePlan(f"scale-{name}", SIZES[name], "probe")


def ensure_stores(folder: Path, names: list[str]) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for name in names:
        root = folder / f"scale-{name}"
        if not Path(f"{root}.gen.json").exists():
            shutil.rmtree(root, ignore_errors=True)
            print(f"generating {root}", flush=True)
            gen.generate(root, SIZES[name], plans=[plan(name)])
        out[name] = root
    return out


def questions(name: str, count: int) -> list[str]:
    return gen.queries(gen.SEED, plan(name), count)

# -- memory query as a process ---------------------------------------------------------------


def _run_process(argv: list[str], env: dict) -> tuple[float, float, int, float]:
    """(wall seconds, peak RSS in MB, exit code, CPU seconds: user + system, which other jobs on the
    machine load far less than wall time) of one child, through ``run.LAUNCHER``."""
    launched = subprocess.run([sys.executable, "-S", "-c", perf.LAUNCHER, os.devnull, *argv],
                              env=env, capture_output=True, text=True, check=True)
    wall, rss_kb, code, cpu = launched.stdout.split()
    return float(wall), int(rss_kb) / 1024, int(code), float(cpu)


def _installed_env(root: Path, pycache: Path) -> dict:
    """``run.base_env`` with the package's bytecode compiled once, as an install has it: with
    the environment's PYTHONDONTWRITEBYTECODE every child compiled every module from source (the
    warm-up's "pyc" never happened; perf.md's scope-size notes have what that cost)."""
    env = perf.base_env(root)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def section_process(root: Path, name: str, runs: int, scratch: Path,
                    baseline: tuple[Path, Path] | None = None) -> dict:
    """``memory query`` processes on the store of one size. ``baseline``: (a source tree, a folder
    holding its own copy of the stores): that tree's ``memory query`` runs alternately with this
    one's, same questions, and its figures are returned under ``baseline``."""
    memory = perf.memory_command()
    qs = questions(name, runs + 1)

    def argv(store: Path):
        return lambda i: memory + ["--store", str(store), "query", qs[i], "--user", plan(name).key, "--json"]
    contenders = [(perf.ProcessTimer(name, argv(root), runs), _installed_env(root, scratch / "pycache"))]
    if baseline is not None:
        source, stores = baseline
        env = _installed_env(stores / root.name, scratch / "pycache-baseline")
        env["PYTHONPATH"] = str(source)        # that tree only: not this one's snapshot
        contenders.append((perf.ProcessTimer("baseline", argv(stores / root.name), runs), env))
    for timer, env in contenders:              # warm-up (page cache, bytecode), not counted
        _run_process(timer.argv(0), env)
    cpu: dict[str, list[float]] = {timer.name: [] for timer, _ in contenders}
    for i in range(runs):
        for timer, env in (contenders if i % 2 else contenders[::-1]):
            wall, rss, code, seconds = _run_process(timer.argv(i + 1), env)
            timer.walls.append(wall)
            timer.rss.append(rss)
            timer.failures += code != 0
            cpu[timer.name].append(seconds * 1000)
    out = [{**perf.summary(t.walls), "cpu_p50_ms": round(perf.percentile(cpu[t.name], 0.5), 1),
            "cpu_min_ms": round(min(cpu[t.name]), 1), "peak_rss_mb_p50": round(perf.percentile(t.rss, 0.5), 1),
            "peak_rss_mb_max": round(max(t.rss), 1), "failures": t.failures,
            "bytecode": "cached (PYTHONPYCACHEPREFIX, compiled by the warm-up run)"} for t, _ in contenders]
    if baseline is not None:
        out[0]["baseline"] = {**out[1], "source": str(baseline[0]), "stores": str(baseline[1])}
    return out[0]

# -- memory serve ----------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    def __init__(self, root: Path, log: Path, command: list[str] | None = None, flags: list[str] = (),
                 env: dict | None = None, cwd: Path | None = None) -> None:
        """``memory serve`` on a free port: the package's command, or ``command`` (with ``env`` and
        ``cwd``: another tree's), plus ``flags``; ready once /health answers."""
        import httpx
        self.port = _free_port()
        self.log = open(log, "wb")
        self.process = subprocess.Popen((command or perf.memory_command())
                                        + ["--store", str(root), "serve", "--port", str(self.port), *flags],
                                        env=env or perf.base_env(root), stdout=self.log, stderr=subprocess.STDOUT,
                                        cwd=cwd)
        self.client = httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=600)
        for _ in range(600):
            try:
                if self.client.get("/health").status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.1)
        raise RuntimeError("memory serve did not start")

    def close(self) -> None:
        self.client.close()
        self.process.terminate()
        self.process.wait(timeout=30)
        self.log.close()


def _add_body(user: str, request_id: str, texts: list[str]) -> dict:
    return {"request_id": request_id, "user_id": user, "session_id": f"bench-{request_id}",
            "messages": [{"role": "user", "content": t, "timestamp": "2025-05-01T10:00:00Z"} for t in texts]}


def section_serve(root: Path, name: str, rounds: int, scratch: Path,
                  baseline: tuple[Path, Path] | None = None) -> dict:
    """Adds of 20 messages, each followed by a search, through ``memory serve`` on a copy of the
    store. ``baseline``: (a source tree, a folder holding its own copy of the stores): that tree's
    server runs beside this one on its own copy, the two taking turns round by round (same
    messages, same questions), and its figures are returned under ``baseline``."""
    user, qs = plan(name).key, questions(name, rounds + 1)
    contenders = [("this", root, None, None)]
    if baseline is not None:
        source, stores = baseline
        contenders.append(("baseline", stores / root.name, [sys.executable, "-m", "memory.cli"], source))
    servers, timings = [], {label: ([], []) for label, *_ in contenders}
    try:
        for label, store, command, source in contenders:
            copy = scratch / f"serve-{name}-{label}"
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(store, copy)
            env = perf.base_env(copy)
            if source is not None:
                env["PYTHONPATH"] = str(source)      # that tree only: not this one's snapshot
            # a copy has new inodes, so its derived files' pins no longer hold: rebuild them here
            # (with the tree that serves it), not inside the server's first request (which has a timeout)
            subprocess.run((command or perf.memory_command()) + ["--store", str(copy), "query", "warm up",
                                                                 "--user", user, "--json"],
                           env=env, cwd=source, capture_output=True)   # exit 1: no answer to "warm up"
            servers.append((label, copy, Server(copy, scratch / f"serve-{name}-{label}.log", command=command,
                                                env=env, cwd=source)))
        for i in range(rounds + 1):
            texts = [f"Bench message {i}.{j}: we talked about {qs[(i + j) % len(qs)]}" for j in range(MESSAGES_PER_ADD)]
            for label, _, server in (servers if i % 2 == 0 else servers[::-1]):
                start = time.perf_counter()
                response = server.client.post("/v1/memories/add", json=_add_body(user, f"b{i}", texts))
                added = time.perf_counter() - start
                response.raise_for_status()
                start = time.perf_counter()
                response = server.client.post("/v1/memories/search", json={"query": qs[i], "user_id": user, "top_k": 10})
                searched = time.perf_counter() - start
                response.raise_for_status()
                if i:                              # the first round loads the scope: warm-up
                    timings[label][0].append(added)
                    timings[label][1].append(searched)
    finally:
        for _, copy, server in servers:
            server.close()
            shutil.rmtree(copy, ignore_errors=True)
    out = {label: {"add": perf.summary(adds), "search": perf.summary(searches), "messages_per_add": MESSAGES_PER_ADD}
           for label, (adds, searches) in timings.items()}
    if baseline is not None:
        out["this"]["baseline"] = {**out["baseline"], "source": str(baseline[0]), "stores": str(baseline[1])}
    return out["this"]


def section_clients(scratch: Path, adds_per_client: int) -> dict:
    root = scratch / "clients"
    shutil.rmtree(root, ignore_errors=True)
    Store.create(root, clock=FixedClock(gen.QUERY_NOW))
    server = Server(root, scratch / "clients.log")
    errors: list[str] = []

    def client(n: int) -> None:
        import httpx
        with httpx.Client(base_url=f"http://127.0.0.1:{server.port}", timeout=600) as http:
            for i in range(adds_per_client):
                texts = [f"Client {n} message {i}.{j} about the garden and the car." for j in range(MESSAGES_PER_ADD)]
                response = http.post("/v1/memories/add", json=_add_body(f"client-{n}", f"c{n}-{i}", texts))
                if response.status_code != 200:
                    errors.append(str(response.status_code))
    try:
        # one add per user first (creates the scopes): not counted
        for n in range(CLIENTS):
            server.client.post("/v1/memories/add", json=_add_body(f"client-{n}", f"warm-{n}", ["hello"]))
        threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
        start = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - start
    finally:
        server.close()
        shutil.rmtree(root, ignore_errors=True)
    messages = CLIENTS * adds_per_client * MESSAGES_PER_ADD
    return {"clients": CLIENTS, "messages": messages, "seconds": round(seconds, 2),
            "messages_per_second": round(messages / seconds, 1), "errors": len(errors)}

# -- in-process query beside FTS5 ----------------------------------------------------------------


def section_in_process(root: Path, name: str, scratch: Path, quick: bool) -> dict:
    store = perf.open_store(root)
    fts, fts_meta = perf.Fts5.for_store(root, scratch / f"fts-{name}.db", index_settings(store))
    key = plan(name).key
    engine = perf.engine(store, key)
    timers = [perf.Timer("engine", engine, min_runs=10, max_runs=60 if quick else 300, budget_s=10 if quick else 30),
              perf.Timer("fts5", lambda text: fts.query(key, text), min_runs=10,
                         max_runs=60 if quick else 300, budget_s=10 if quick else 30)]
    out = perf.interleave(timers, questions(name, 400))
    out["fts5_build"] = fts_meta
    return out

# -- apply ---------------------------------------------------------------------------------------


def section_apply(name: str, scratch: Path) -> dict:
    root = scratch / f"apply-{name}"
    shutil.rmtree(root, ignore_errors=True)
    envelopes = list(gen.scope_envelopes(gen.SEED, plan(name)))
    store = Store.create(root, clock=FixedClock(gen.QUERY_NOW))
    marks: list[tuple[int, float, float]] = [(0, 0.0, 0.0)]   # (envelopes done, wall s, CPU s)
    done = [0]
    load_before = os.getloadavg()[0]
    cpu = cpu_start = time.process_time()
    start = time.perf_counter()

    def progress(count: int) -> None:
        done[0] += count
        marks.append((done[0], time.perf_counter() - start, time.process_time() - cpu_start))
    statuses: dict[str, int] = {}
    for result in store.apply(envelopes, batch_size=CLI_APPLY_BATCH, progress=progress):
        statuses[result["status"]] = statuses.get(result["status"], 0) + 1
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    shutil.rmtree(root, ignore_errors=True)
    total = len(envelopes)

    def rate(low: float, high: float, clock: int = 1) -> float:
        first = min(marks, key=lambda m: abs(m[0] - low * total))
        last = min(marks, key=lambda m: abs(m[0] - high * total))
        return round((last[0] - first[0]) / (last[clock] - first[clock]), 1) if last[clock] > first[clock] else None
    return {"envelopes": total, "batch_size": CLI_APPLY_BATCH, "seconds": round(seconds, 2), "statuses": statuses,
            "envelopes_per_second": round(total / seconds, 1),
            # the CPU this process had: on a shared machine wall time also holds the others' jobs
            "cpu_seconds": round(cpu, 2), "envelopes_per_cpu_second": round(total / cpu, 1),
            "loadavg_1m": [round(load_before, 2), round(os.getloadavg()[0], 2)],
            "first_20pct_per_second": rate(0.0, 0.2), "last_20pct_per_second": rate(0.8, 1.0),
            "first_20pct_per_cpu_second": rate(0.0, 0.2, 2), "last_20pct_per_cpu_second": rate(0.8, 1.0, 2)}

# -- memory doctor -------------------------------------------------------------------------------


def section_doctor(roots: list[Path], scratch: Path) -> dict:
    """``memory doctor --full`` vs ``memory doctor`` after one new write, on copies of the stores
    merged into one (their scopes differ), as processes."""
    root = scratch / "doctor"
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(roots[0], root, ignore=shutil.ignore_patterns("index", "current", "doctor", "views"))
    for extra in roots[1:]:
        for folder in (extra / "shards").iterdir():
            shutil.copytree(folder, root / "shards" / folder.name)
    # the copy as this code would have written it: modes tightened, today's policies pinned (a store
    # generated before the policies changed reports policy_drift, and a store with a problem is never
    # recorded as clean: every "incremental" run would check it whole)
    for folder, _, files in os.walk(root):
        os.chmod(folder, 0o700)
        for name in files:
            os.chmod(os.path.join(folder, name), 0o600)
    Store.open(root, clock=FixedClock(gen.QUERY_NOW)).pin_policies()
    memory, env = perf.memory_command(), perf.base_env(root)

    def doctor(*flags: str) -> tuple[float, float, dict]:
        out = scratch / "doctor.json"
        wall, rss, code = perf.run_process(memory + ["--store", str(root), "doctor", "--json", *flags], env, out)
        return wall, rss, json.loads(out.read_text())
    full_wall, full_rss, full = doctor("--full")
    first_wall, _, first = doctor()                 # no record yet: checks in full, records
    quiet_wall, _, _ = doctor()                     # nothing changed
    store = Store.open(root, clock=FixedClock(gen.QUERY_NOW))
    episode = next(e for e in gen.scope_envelopes(gen.SEED, plan("1k")) if e["payload"]["kind"] == "episode")
    result = store.mutate({**episode, "transaction_id": "doctor-bench-1",
                           "target": {**episode["target"], "scope": gen.scope(plan("100k").key)}})
    after_wall, after_rss, after = doctor()
    shutil.rmtree(root, ignore_errors=True)
    return {"revisions": full["revisions"], "scopes": full["scopes"], "write": result["status"],
            "full_s": round(full_wall, 2), "full_peak_rss_mb": round(full_rss, 1),
            "first_incremental_s": round(first_wall, 2), "unchanged_s": round(quiet_wall, 2),
            "after_one_write_s": round(after_wall, 2), "after_one_write_peak_rss_mb": round(after_rss, 1),
            "clean": [full["clean"], first["clean"], after["clean"]]}

# -- targets and report ------------------------------------------------------------------------------


def evaluate(scale: dict) -> dict:
    sizes = scale["sizes"]
    big, small = sizes.get("100k", {}), sizes.get("1k", {})

    def get(size: dict, *path):
        for part in path:
            size = (size or {}).get(part)
        return size

    def ratio(a, b):
        return round(a / b, 2) if a and b else None
    serve_big = (get(big, "serve", "add", "p50_ms") or 0) + (get(big, "serve", "search", "p50_ms") or 0)
    serve_small = (get(small, "serve", "add", "p50_ms") or 0) + (get(small, "serve", "search", "p50_ms") or 0)
    apply = scale.get("apply") or {}
    values = {
        "scale_process_p50": get(big, "process", "p50_ms"),
        "scale_process_rss": get(big, "process", "peak_rss_mb_max"),
        "scale_process_growth": ratio(get(big, "process", "p50_ms"), get(small, "process", "p50_ms")),
        "scale_serve_add": get(big, "serve", "add", "p50_ms"),
        "scale_serve_search": get(big, "serve", "search", "p50_ms"),
        "scale_serve_growth": ratio(serve_big, serve_small),
        "scale_clients": get(scale.get("clients"), "messages_per_second"),
        "scale_apply_rate": apply.get("envelopes_per_second"),
        "scale_apply_drift": ratio(apply.get("first_20pct_per_second"), apply.get("last_20pct_per_second")),
        "scale_doctor": get(scale.get("doctor"), "after_one_write_s"),
        "scale_query_1k": get(small, "in_process", "engine", "p50_ms"),
        "scale_query_100k": get(big, "in_process", "engine", "p50_ms"),
        "scale_vs_fts5_100k": ratio(get(big, "in_process", "engine", "p50_ms"),
                                    get(big, "in_process", "fts5", "p50_ms")),
    }
    out = {}
    for key, (label, op, target, unit) in TARGETS.items():
        value = values[key]
        met = None if value is None else (value <= target if op == "<=" else value >= target)
        out[key] = {"label": label, "target": f"{op} {target:g} {unit}", "value": value, "unit": unit, "met": met}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stores", type=Path, default=Path("/tmp/memory-scale"))
    parser.add_argument("--scratch", type=Path, default=None)
    parser.add_argument("--size", action="append", choices=list(SIZES), help="sizes to measure (default: all)")
    parser.add_argument("--only", action="append",
                        choices=["process", "serve", "in_process", "apply", "clients", "doctor"],
                        help="sections to run; with --only the other sections of the report are kept")
    parser.add_argument("--quick", action="store_true", help="few runs: to check the script, not to report")
    parser.add_argument("--json-out", type=Path, default=perf.REPORTS / "perf.json")
    parser.add_argument("--md-out", type=Path, default=perf.REPORTS / "perf.md")
    parser.add_argument("--no-snapshot", action="store_true", help="measure the live working tree instead of a copy")
    parser.add_argument("--baseline-src", type=Path, default=None,
                        help="process and serve sections: a source tree (e.g. `git archive <commit> | tar -x -C DIR`) "
                             "whose `memory query` (and `memory serve`) runs alternately with this tree's")
    parser.add_argument("--baseline-stores", type=Path, default=None,
                        help="with --baseline-src: a folder with that tree's own copy of the stores (its derived "
                             "files may be of other formats)")
    args = parser.parse_args(argv)
    names = args.size or list(SIZES)
    only = set(args.only or ["process", "serve", "in_process", "apply", "clients", "doctor"])
    scratch = args.scratch or Path(tempfile.mkdtemp(prefix="memory-scale-"))
    scratch.mkdir(parents=True, exist_ok=True)
    if not args.no_snapshot and perf.SNAPSHOT_ENV not in os.environ:
        # one run measures one code, as run.py does: a copy first on PYTHONPATH, then re-executed
        source = perf.snapshot_source(scratch)
        source["command"] = " ".join(["python", "benchmarks/perf/scale.py", *(argv if argv is not None else sys.argv[1:])])
        env = {**os.environ, perf.SNAPSHOT_ENV: json.dumps(source),
               "PYTHONPATH": os.pathsep.join(filter(None, [source["path"], os.environ.get("PYTHONPATH")]))}
        command = [sys.executable, str(Path(__file__).resolve()), *(argv if argv is not None else sys.argv[1:])]
        if not args.scratch:
            command += ["--scratch", str(scratch)]
        return subprocess.run(command, env=env).returncode
    snapshot = json.loads(os.environ.get(perf.SNAPSHOT_ENV, "null"))
    stores = ensure_stores(args.stores, names)
    runs, rounds = (5, 5) if args.quick else (20, 30)
    scale: dict = {"command": (snapshot or {}).get("command") or "python benchmarks/perf/scale.py "
                   + " ".join(argv if argv is not None else sys.argv[1:]),
                   "machine": perf.machine(), "commit": perf._git("rev-parse", "--short", "HEAD"),
                   "source_snapshot": snapshot, "dirty": bool((snapshot or {}).get("uncommitted")),
                   "quick": args.quick, "sizes": {}}
    report = json.loads(args.json_out.read_text()) if args.json_out.exists() else {}
    if args.only and report.get("scope_scale"):
        kept = report["scope_scale"]
        scale["sizes"] = kept.get("sizes", {})
        for part in ("apply", "clients", "doctor"):
            if part in kept and part not in only:
                scale[part] = kept[part]
        if kept.get("notes"):
            scale["notes"] = kept["notes"]   # written by hand: kept until edited
        scale["command"] = kept.get("command", "") + " ; then " + scale["command"]
        scale["notes"] = kept.get("notes", [])      # hand-written profile notes: edited, not dropped
    for name in names:
        row = scale["sizes"].setdefault(name, {"records": SIZES[name]})
        if "process" in only:
            print(f"{name}: memory query as a process", flush=True)
            baseline = (args.baseline_src.resolve(), args.baseline_stores.resolve()) if args.baseline_src else None
            row["process"] = section_process(stores[name], name, runs, scratch, baseline)
        if "serve" in only:
            print(f"{name}: memory serve add/search", flush=True)
            baseline = (args.baseline_src.resolve(), args.baseline_stores.resolve()) if args.baseline_src else None
            row["serve"] = section_serve(stores[name], name, rounds, scratch, baseline)
        if "in_process" in only:
            print(f"{name}: in-process query beside FTS5", flush=True)
            row["in_process"] = section_in_process(stores[name], name, scratch, args.quick)
    if "apply" in only:
        name = names[-1]
        print(f"apply: {name} envelopes into one scope", flush=True)
        scale["apply"] = section_apply(name, scratch)
    if "clients" in only:
        print("8 clients on 8 users", flush=True)
        scale["clients"] = section_clients(scratch, 5 if args.quick else 25)
    if "doctor" in only:
        print("memory doctor, full and after one write", flush=True)
        # a second 100k scope, so the store holds about 200k revisions
        extra = args.stores / "doctor-100k"
        if not Path(f"{extra}.gen.json").exists():
            shutil.rmtree(extra, ignore_errors=True)
            gen.generate(extra, 100_000, plans=[gen.ScopePlan("doctor-100k", 100_000, "probe")])
        scale["doctor"] = section_doctor([stores[n] for n in reversed(names)] + [extra], scratch)
    scale["targets"] = evaluate(scale)
    report["scope_scale"] = scale
    args.json_out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    import render
    args.md_out.write_text(render.render_markdown(report))
    scale["machine"]["loadavg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps({k: [t["value"], t["met"]] for k, t in scale["targets"].items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
