"""Three PostgreSQL servers on this machine: a coordinator and two shards (issue 17, part 7).

Starts three throwaway clusters (tools/pg_throwaway.sh: separate data directories and
ports, Unix sockets only), makes the shards the coordinator's postgres_fdw servers, then

1. runs the PostgreSQL test modules with every test's tables laid out across the shards
   (partition r of every table on shard r % 2: co-located by scope digest), so each
   statement of the suite goes through the coordinator to the shards;
2. writes a few scopes through the coordinator and records, for each scoped statement the
   ledger issues, which relations its plan reaches (EXPLAIN): one foreign partition;
3. writes benchmarks/reports/postgres-fdw.md (and .json) with what it saw.

    python benchmarks/postgres_fdw_demo.py [--keep]

Needs the PostgreSQL server binaries, postgres_fdw (Debian's postgresql package) and
psycopg (`pip install '.[postgres]'`).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

import psycopg  # noqa: E402

from memory.postgres_ledger import PostgresLedger, scanned_partitions  # noqa: E402

SCRIPT = REPO / "tools" / "pg_throwaway.sh"
TEST_MODULES = ["tests/test_postgres_ledger.py", "tests/test_store_contract.py", "tests/test_postgres_cli.py",
                "tests/test_postgres_serve.py", "tests/test_postgres_store.py", "tests/test_postgres_admin.py"]
PORTS = {"coordinator": 56101, "shard1": 56102, "shard2": 56103}
REPORT = REPO / "benchmarks" / "reports" / "postgres-fdw"
NOW = "2024-01-01T00:00:00Z"

# the statements the ledger runs, each scoped to one digest
# (sql, its parameters for a digest)
SCOPED_STATEMENTS = {
    "read a scope's log after a sequence":
        ("SELECT seq, line FROM revisions WHERE scope_digest = %s AND seq > %s ORDER BY seq", lambda d: (d, 0)),
    "a scope's last sequence": ("SELECT last_seq FROM scopes WHERE scope_digest = %s", lambda d: (d,)),
    "a reader's position (last seq, audit rows)":
        ("SELECT coalesce((SELECT last_seq FROM scopes WHERE scope_digest = %s), 0), "
         "(SELECT count(*) FROM audit WHERE scope_digest = %s)", lambda d: (d, d)),
    "idempotency lookup": ("SELECT envelope_sha256 FROM transactions WHERE scope_digest = %s AND transaction_id = %s",
                           lambda d: (d, "tx-1")),
    "erase a record's revisions": ("DELETE FROM revisions WHERE scope_digest = %s AND record_id = ANY(%s)",
                                   lambda d: (d, ["mem_1"])),
}


def start(folder: Path) -> dict[str, str]:
    urls = {}
    for name, port in PORTS.items():
        done = subprocess.run(["bash", str(SCRIPT), "start", str(folder / name), str(port)],
                              capture_output=True, text=True, check=True)
        urls[name] = done.stdout.strip()
    return urls


def wire(urls: dict[str, str], folder: Path) -> None:
    with psycopg.connect(urls["coordinator"], autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS postgres_fdw")
        for shard in ("shard1", "shard2"):
            conn.execute(f"CREATE SERVER {shard} FOREIGN DATA WRAPPER postgres_fdw "
                         f"OPTIONS (host '{folder / shard}', port '{PORTS[shard]}', dbname 'memory')")
            conn.execute(f"CREATE USER MAPPING FOR CURRENT_USER SERVER {shard} OPTIONS (user 'postgres')")


def run_suite(urls: dict[str, str]) -> dict:
    env = {**os.environ, "MEMORY_TEST_POSTGRES_URL": urls["coordinator"],
           "MEMORY_TEST_POSTGRES_SHARDS": f"shard1={urls['shard1']},shard2={urls['shard2']}",
           "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *TEST_MODULES],
                          cwd=REPO, env=env, capture_output=True, text=True)
    return {"modules": TEST_MODULES, "exit_code": done.returncode,
            "summary": done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-500:]}


def explain(urls: dict[str, str]) -> dict:
    from pg import _distribute  # the same layout the suite ran on
    with psycopg.connect(urls["coordinator"], autocommit=True) as conn:
        conn.execute("CREATE SCHEMA demo")
        _distribute(conn, "demo", [["shard1", urls["shard1"]], ["shard2", urls["shard2"]]])
    ledger = PostgresLedger(urls["coordinator"] + "&options=-c%20search_path%3Ddemo")
    digests = [f"{n:x}" * 32 for n in range(1, 7)]
    for digest in digests:
        with ledger.writing(digest) as write:
            write.append([("mem_1", "tx-1", b"{}")], {"tx-1": "h"}, now=NOW)
    plans = {}
    for digest in digests[:3]:
        holder = ledger.partition_of("revisions", digest)
        plans[digest[:8]] = {"partition": holder, "statements": {
            what: scanned_partitions(ledger, sql, params(digest))
            for what, (sql, params) in SCOPED_STATEMENTS.items()}}
    placement = {}
    for index, shard in enumerate(("shard1", "shard2")):
        with psycopg.connect(urls[shard]) as conn:
            placement[shard] = sum(conn.execute(f"SELECT count(*) FROM demo.revisions_p{r}").fetchone()[0]
                                   for r in range(index, 4, 2))
    ledger.close()
    return {"plans": plans, "rows_on_shards": placement}


def render(result: dict) -> str:
    lines = ["# PostgreSQL backend: one coordinator, two shards through postgres_fdw", "",
             f"Produced by `python benchmarks/postgres_fdw_demo.py` at commit `{result['commit']}`, on this "
             "machine: three PostgreSQL 15 clusters (separate data directories and ports, Unix sockets).",
             "Every table is hash-partitioned by `scope_digest` into 4 partitions; partition r of every table "
             "is a foreign table on shard r % 2 (co-located by scope).", "",
             "## The test suite through the coordinator", "",
             f"`{' '.join(result['suite']['modules'])}`: **{result['suite']['summary']}** "
             f"(exit {result['suite']['exit_code']}).", "",
             "## Each scoped statement reaches one partition", "",
             "| scope | holding partition | statement | relations in the plan |", "|---|---|---|---|"]
    for digest, entry in result["explain"]["plans"].items():
        for what, relations in entry["statements"].items():
            lines.append(f"| `{digest}…` | `{entry['partition']}` | {what} | {', '.join(f'`{r}`' for r in relations)} |")
    lines += ["", "Rows of the demo schema's `revisions` held by each shard: " +
              ", ".join(f"{k}: {v}" for k, v in result["explain"]["rows_on_shards"].items()) + ".", ""]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="leave the three servers running")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="memory-fdw-"))
    try:
        urls = start(folder)
        wire(urls, folder)
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                                text=True).stdout.strip()
        result = {"commit": commit, "suite": run_suite(urls), "explain": explain(urls)}
        REPORT.with_suffix(".json").write_text(json.dumps(result, indent=2) + "\n")
        REPORT.with_suffix(".md").write_text(render(result))
        print(render(result))
        return 0 if result["suite"]["exit_code"] == 0 else 1
    finally:
        if not args.keep:
            for name in PORTS:
                subprocess.run(["bash", str(SCRIPT), "stop", str(folder / name)], capture_output=True)


if __name__ == "__main__":
    sys.exit(main())
