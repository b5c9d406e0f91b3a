"""How many times a PostgreSQL add waits for the server: measured through a delaying proxy.

A throwaway PostgreSQL is started (tools/pg_throwaway.sh, Unix socket); a small TCP proxy on
loopback forwards to it and holds every chunk the server sends back for DELAY ms. One
process adds ADDS batches of 20 episodes to one scope (``store.apply``, as ``memory serve``
does for a 20-message add) through the proxy with no delay, then with the delay. Each wait for
an answer costs one DELAY more, so (ms per add with the delay - ms per add without) / DELAY is
the number of round trips an add makes — what a store on another host pays in network
latency per add.

    nice -n 5 python benchmarks/postgres_round_trips.py [--delay-ms 5] [--adds 30] [--code DIR]

``--code DIR`` imports ``memory`` from DIR instead of this checkout (e.g. an older commit:
``git archive COMMIT memory | tar -x -C DIR``), to compare. Writes
benchmarks/reports/postgres-round-trips.md (and .json) unless ``--code`` is given.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import platform
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "tools" / "pg_throwaway.sh"
REPORT = REPO / "benchmarks" / "reports" / "postgres-round-trips"
NOW = "2024-03-01T12:00:00Z"


class DelayingProxy:
    """TCP on loopback -> the server's Unix socket; what the server sends back waits ``delay`` s."""

    def __init__(self, socket_path: str) -> None:
        self.socket_path, self.delay = socket_path, 0.0
        self.loop = asyncio.new_event_loop()
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        ready = threading.Event()
        threading.Thread(target=self._run, args=(ready,), daemon=True).start()
        ready.wait()

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", self.port))
        ready.set()
        self.loop.run_forever()

    async def _serve(self, client_reader, client_writer) -> None:
        server_reader, server_writer = await asyncio.open_unix_connection(self.socket_path)

        async def upstream() -> None:
            while data := await client_reader.read(65536):
                server_writer.write(data)
                await server_writer.drain()
            server_writer.close()

        async def downstream() -> None:
            queue: asyncio.Queue = asyncio.Queue()

            async def sender() -> None:
                while (item := await queue.get()) is not None:
                    due, data = item
                    await asyncio.sleep(max(0.0, due - self.loop.time()))
                    client_writer.write(data)
                    await client_writer.drain()
                client_writer.close()
            task = asyncio.ensure_future(sender())
            while data := await server_reader.read(65536):
                queue.put_nowait((self.loop.time() + self.delay, data))
            queue.put_nowait(None)
            await task
        await asyncio.gather(upstream(), downstream(), return_exceptions=True)


def ms_per_add(url: str, adds: int, tag: str) -> float:
    from memory.clock import FixedClock
    from memory.envelope_builder import build, source, user_scope
    from memory.store import PostgresStore
    store = PostgresStore.open(url, clock=FixedClock(NOW))

    def batch(b: int) -> list[dict]:
        return [build("add", user_scope(f"rt-{tag}"), transaction_id=f"{tag}-{b}-{m}",
                      actor={"type": "agent", "id": "memory-serve"}, reason=None,
                      source=source("conversation", ref=f"{b}:{m}", observed_at=None, session=f"s{b}", speaker="user"),
                      payload={"kind": "episode", "statement": f"turn {m} of {b}: about the weather"},
                      valid_time={"from": NOW, "to": None}, sensitivity="private") for m in range(20)]
    list(store.apply(batch(-1)))    # the scope exists and the handle has read it
    start = time.perf_counter()
    for b in range(adds):
        assert all(r["status"] == "applied" for r in store.apply(batch(b)))
    elapsed = (time.perf_counter() - start) / adds * 1000
    store.close()
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--delay-ms", type=float, default=5.0)
    parser.add_argument("--adds", type=int, default=30)
    parser.add_argument("--code", default=None, help="import memory from this folder instead of the checkout")
    args = parser.parse_args()
    sys.path.insert(0, args.code or str(REPO))
    folder = Path(tempfile.mkdtemp(prefix="memory-round-trips-"))
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    subprocess.run(["bash", str(SCRIPT), "start", str(folder / "pg"), str(port)], capture_output=True, text=True,
                   check=True)
    try:
        proxy = DelayingProxy(str(folder / "pg" / f".s.PGSQL.{port}"))
        url = f"postgresql://postgres@127.0.0.1:{proxy.port}/memory"
        from memory.store import PostgresStore
        PostgresStore.create(url).close()
        plain = ms_per_add(url, args.adds, "plain")
        proxy.delay = args.delay_ms / 1000
        delayed = ms_per_add(url, args.adds, "delayed")
    finally:
        subprocess.run(["bash", str(SCRIPT), "stop", str(folder / "pg")], capture_output=True)
    trips = (delayed - plain) / args.delay_ms
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                            text=True).stdout.strip()
    command = f"nice -n 5 python benchmarks/postgres_round_trips.py --delay-ms {args.delay_ms:g} --adds {args.adds}"
    result = {"command": command, "commit": commit, "code": args.code or "this checkout",
              "machine": platform.platform(), "delay_ms": args.delay_ms, "adds": args.adds,
              "ms_per_add_without_delay": plain, "ms_per_add_with_delay": delayed, "round_trips_per_add": trips}
    lines = ["# Round trips per PostgreSQL add", "",
             f"Produced by `{command}` at commit `{commit}` on {result['machine']}: one process adds "
             f"{args.adds} batches of 20 episodes to one scope through a proxy that holds each server reply "
             f"{args.delay_ms:g} ms.", "",
             "| ms per add, no delay | ms per add, with the delay | round trips per add |", "|---|---|---|",
             f"| {plain:.1f} | {delayed:.1f} | {trips:.1f} |", ""]
    print("\n".join(lines))
    if args.code is None:
        REPORT.with_suffix(".json").write_text(json.dumps(result, indent=2) + "\n")
        REPORT.with_suffix(".md").write_text("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
