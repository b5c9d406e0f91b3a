"""Smoke-test an installed `memory` (a wheel in a venv, not the checkout): every front door once.

Run (what .ci/run does, from a folder outside the checkout):
    VENV/bin/python /path/to/tools/smoke_wheel.py VENV/bin

It checks that the package imported is the installed one (not a checkout on sys.path), then in
a scratch folder: memory init (the store gets its own copy of the policies), add, query, mutate
(an update envelope on stdin), doctor, `memory serve` answering GET /health, and `memory mcp`
answering tools/list over stdio (a plain JSON-RPC exchange, no SDK client). Exit 0 when all pass;
otherwise the first failure's step, command and output. Standard library only.
"""
from __future__ import annotations

import json
import os
import select
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

NOW = "2026-01-01T00:00:00Z"


class SmokeFailure(Exception):
    pass


def run(bindir: Path, *args: str, stdin: str | None = None, env: dict, cwd: Path, expect: int = 0) -> str:
    done = subprocess.run([str(bindir / "memory"), *args], input=stdin, env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=120)
    if done.returncode != expect:
        raise SmokeFailure(f"memory {' '.join(args)}: exit {done.returncode} (expected {expect})\n"
                           f"stdout: {done.stdout}\nstderr: {done.stderr}")
    return done.stdout


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def check_installed(bindir: Path, env: dict, cwd: Path) -> str:
    where = subprocess.run([str(bindir / "python"), "-c", "import memory, sys; print(memory.__file__)"],
                           env=env, cwd=cwd, capture_output=True, text=True, timeout=60)
    path = where.stdout.strip()
    venv = bindir.parent.resolve()
    if where.returncode != 0 or not Path(path).resolve().is_relative_to(venv):
        raise SmokeFailure(f"import memory did not load the installed package: {path or where.stderr}")
    return path


def check_ledger(bindir: Path, env: dict, cwd: Path) -> None:
    init = json.loads(run(bindir, "init", "--json", env=env, cwd=cwd))
    store = Path(init["store"])
    copies = sorted(p.name for p in (cwd / store / "policies").glob("*.json"))
    if copies != ["forgetting-policy.json", "mutation-policy.json", "retrieval-policy.json"]:
        raise SmokeFailure(f"memory init wrote no copy of the policies into the store: {copies}")
    added = json.loads(run(bindir, "add", "The user lives in Paris.", "--user", "me", "--key", "user.home_city",
                           "--from", "2021-09-01", "--json", env=env, cwd=cwd))
    if added["status"] != "applied":
        raise SmokeFailure(f"add: {added}")
    answer = json.loads(run(bindir, "query", "where does the user live?", "--user", "me", "--json",
                            env=env, cwd=cwd))
    if answer["knowledge_state"] != "VERIFIED" or answer["evidence"][0]["id"] != added["record_id"]:
        raise SmokeFailure(f"query: {answer['knowledge_state']} {[e['id'] for e in answer['evidence']]}")
    envelope = {"schema_version": "memory.envelope.v1", "transaction_id": "smoke-update-1", "operation": "update",
                "actor": {"type": "user_via_agent", "id": "me"}, "source": {"type": "explicit_user"},
                "target": {"memory_key": "user.home_city", "scope": {"type": "user", "key": "me"}},
                "payload": {"statement": "The user lives in Berlin."},
                "valid_time": {"from": "2024-06-01T00:00:00Z"}, "reason": "moved"}
    mutated = json.loads(run(bindir, "mutate", "--json", stdin=json.dumps(envelope), env=env, cwd=cwd))
    if mutated["status"] != "applied":
        raise SmokeFailure(f"mutate: {mutated}")
    answer = json.loads(run(bindir, "query", "where does the user live?", "--user", "me", "--json",
                            env=env, cwd=cwd))
    if answer["knowledge_state"] != "VERIFIED" or answer["evidence"][0]["id"] != mutated["record_id"]:
        raise SmokeFailure(f"query after mutate: {answer['knowledge_state']}")
    doctor = json.loads(run(bindir, "doctor", "--json", env=env, cwd=cwd))
    if not doctor["clean"]:
        raise SmokeFailure(f"doctor: {doctor['problems']}")


def check_serve(bindir: Path, env: dict, cwd: Path) -> dict:
    port = free_port()
    server = subprocess.Popen([str(bindir / "memory"), "serve", "--port", str(port)], env=env, cwd=cwd,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5) as response:
                    body = json.loads(response.read())
                    if response.status != 200:
                        raise SmokeFailure(f"GET /health: {response.status} {body}")
                    return body
            except OSError:
                if server.poll() is not None:
                    raise SmokeFailure(f"memory serve exited {server.returncode}: {server.stdout.read()}") from None
                if time.monotonic() > deadline:
                    raise SmokeFailure("memory serve did not answer GET /health within 60 s") from None
                time.sleep(0.2)
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def check_mcp(bindir: Path, env: dict, cwd: Path) -> list[str]:
    """initialize, notifications/initialized, tools/list: newline-delimited JSON-RPC over stdio."""
    server = subprocess.Popen([str(bindir / "memory"), "mcp", "--user", "me"], env=env, cwd=cwd,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def send(message: dict) -> None:
        server.stdin.write(json.dumps(message) + "\n")
        server.stdin.flush()

    def answer_to(request_id: int) -> dict:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            ready, _, _ = select.select([server.stdout], [], [], 1.0)
            if not ready:
                if server.poll() is not None:
                    raise SmokeFailure(f"memory mcp exited {server.returncode}: {server.stderr.read()}")
                continue
            line = server.stdout.readline()
            if not line:
                raise SmokeFailure(f"memory mcp closed its output: {server.stderr.read()}")
            message = json.loads(line)
            if message.get("id") == request_id:
                if "error" in message:
                    raise SmokeFailure(f"memory mcp answered an error: {message['error']}")
                return message["result"]
        raise SmokeFailure("memory mcp did not answer within 60 s")

    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "smoke_wheel", "version": "1"}}})
        answer_to(1)
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}})
        tools = sorted(tool["name"] for tool in answer_to(2)["tools"])
    finally:
        server.stdin.close()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    if not {"query", "mutate"} <= set(tools):
        raise SmokeFailure(f"memory mcp lists {tools}")
    return tools


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    bindir = Path(argv[0]).absolute()
    with tempfile.TemporaryDirectory(prefix="memory-smoke-") as scratch:
        cwd = Path(scratch)
        # nothing of a checkout or a developer's setup: the installed package, a store in the scratch folder
        env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMORY_", "PYTHON"))}
        env.update({"MEMORY_STORE": str(cwd / "store"), "MEMORY_NOW": NOW, "PATH": f"{bindir}:{env.get('PATH', '')}"})
        steps = [("installed package", lambda: check_installed(bindir, env, cwd)),
                 ("init, add, query, mutate, doctor", lambda: check_ledger(bindir, env, cwd)),
                 ("serve /health", lambda: check_serve(bindir, env, cwd)),
                 ("mcp tools/list", lambda: check_mcp(bindir, env, cwd))]
        for name, step in steps:
            started = time.monotonic()
            try:
                detail = step()
            except SmokeFailure as failure:
                print(f"FAIL {name}: {failure}", file=sys.stderr)
                return 1
            print(f"ok   {name} ({time.monotonic() - started:.1f} s){': ' + str(detail) if detail else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
