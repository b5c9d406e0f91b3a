"""LoCoMo on both backends in one run (issue 17: "the LoCoMo figures identical on both backends").

Runs ``memory benchmark locomo FILE --json`` (a scratch JSONL folder) and the same command with
``--store-url URL`` (an empty schema of a throwaway PostgreSQL started here with
tools/pg_throwaway.sh), then compares the two reports field by field, leaving out only
``timing_seconds`` and ``provenance`` (which name the command and the machine's timings).

    nice -n 5 python benchmarks/postgres_locomo.py [FILE]     # default ../shared/data/locomo/locomo5_dev.json

Writes benchmarks/reports/postgres-locomo.json (and .md). Needs psycopg and the PostgreSQL
server binaries.
"""
from __future__ import annotations

import json
import os
import platform
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "tools" / "pg_throwaway.sh"
REPORTS = REPO / "benchmarks" / "reports"
DEFAULT_FILE = "../shared/data/locomo/locomo5_dev.json"
UNCOMPARED = ("timing_seconds", "provenance")


def run(command: list[str]) -> tuple[dict, float]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    env.pop("MEMORY_STORE", None)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout), time.perf_counter() - start


def main() -> int:
    dataset = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_FILE
    folder = Path(tempfile.mkdtemp(prefix="memory-locomo-pg-"))
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = subprocess.run(["bash", str(SCRIPT), "start", str(folder / "pg"), str(port)], capture_output=True,
                         text=True, check=True).stdout.strip()
    base = [sys.executable, "-m", "memory.cli", "benchmark", "locomo", dataset, "--json"]
    try:
        jsonl, jsonl_seconds = run(base)
        postgres, postgres_seconds = run(base + ["--store-url", url])
    finally:
        subprocess.run(["bash", str(SCRIPT), "stop", str(folder / "pg")], capture_output=True)
    fields = sorted(set(jsonl) | set(postgres))
    differing = [k for k in fields if k not in UNCOMPARED and jsonl.get(k) != postgres.get(k)]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                            text=True).stdout.strip()
    command = f"nice -n 5 python benchmarks/postgres_locomo.py {dataset}"
    result = {"command": command, "commit": commit, "machine": platform.platform(), "cpus": os.cpu_count(),
              "dataset_file": Path(dataset).name, "identical": not differing, "differing_fields": differing,
              "compared_fields": [k for k in fields if k not in UNCOMPARED],
              "metrics": {"jsonl": jsonl["metrics"], "postgres": postgres["metrics"]},
              "import": {"jsonl": jsonl["import"], "postgres": postgres["import"]},
              "wall_seconds": {"jsonl": round(jsonl_seconds, 1), "postgres": round(postgres_seconds, 1)},
              "timing_seconds": {"jsonl": jsonl["timing_seconds"], "postgres": postgres["timing_seconds"]}}
    m = jsonl["metrics"]
    lines = ["# LoCoMo on PostgreSQL and on JSONL", "",
             f"Produced by `{command}` at commit `{commit}` on {result['machine']} ({os.cpu_count()} cores, "
             "shared with other work while it ran): `memory benchmark locomo FILE --json`, then the same with "
             "`--store-url` naming an empty schema of a throwaway PostgreSQL.", "",
             f"**Reports identical: {'yes' if not differing else 'NO'}** — every field but `timing_seconds` and "
             f"`provenance` ({len(result['compared_fields'])} fields"
             + (f"; differing: {', '.join(differing)}" if differing else "") + ").", "",
             f"{m['questions']} questions, {jsonl['import']['applied']} turns imported: recall@10 {m['recall@10']}, "
             f"MRR {m['mrr']} on both.", "",
             "| | JSONL | PostgreSQL |", "|---|---|---|",
             f"| whole command, wall (s) | {result['wall_seconds']['jsonl']} | {result['wall_seconds']['postgres']} |",
             f"| our engine's questions (s) | {jsonl['timing_seconds']['ours']} | "
             f"{postgres['timing_seconds']['ours']} |", ""]
    report = REPORTS / "postgres-locomo"
    report.with_suffix(".json").write_text(json.dumps(result, indent=2) + "\n")
    report.with_suffix(".md").write_text("\n".join(lines))
    print("\n".join(lines))
    return 0 if not differing else 1


if __name__ == "__main__":
    sys.exit(main())
