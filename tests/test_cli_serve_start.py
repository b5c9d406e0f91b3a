"""`memory serve` binds its port before it says anything about starting: a busy port or an address
it cannot take is a usage error naming it (exit 2) with no traceback and no "started" line, and a
server that did start says the URL it listens on (the real port, with --port 0)."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed (pip install -e '.[server]')")
pytest.importorskip("uvicorn", reason="the server extra is not installed (pip install -e '.[server]')")

import httpx  # noqa: E402

from helpers import NOW, make_store  # noqa: E402

REPO = Path(__file__).resolve().parent.parent


def _env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_")}
    env["MEMORY_NOW"] = NOW
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


def _serve(store: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "memory.cli", "--store", str(store), "serve", *args]


def test_a_busy_port_is_a_usage_error_named_before_anything_starts(tmp_path):
    make_store(tmp_path / "store")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run(_serve(tmp_path / "store", "--port", str(port)), capture_output=True, text=True,
                              env=_env(), cwd=REPO, timeout=60)
    assert done.returncode == 2
    assert f"error [port_in_use]: port {port} on 127.0.0.1 is in use" in done.stderr
    assert "Traceback" not in done.stderr and "Started" not in done.stderr and "listening" not in done.stderr
    assert done.stdout == ""


def test_an_unknown_host_is_a_usage_error(tmp_path):
    make_store(tmp_path / "store")
    tokens = tmp_path / "tokens.json"
    tokens.write_text('{"tok-1": "*"}')
    done = subprocess.run(_serve(tmp_path / "store", "--host", "no-such-host.invalid", "--tokens", str(tokens)),
                          capture_output=True, text=True, env=_env(), cwd=REPO, timeout=60)
    assert done.returncode == 2 and "error [address_invalid]" in done.stderr
    assert "Traceback" not in done.stderr and "Started" not in done.stderr


def test_a_started_server_says_where_it_listens_and_answers_there(tmp_path):
    make_store(tmp_path / "store")
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(_serve(tmp_path / "store", "--port", "0"), stdout=out, stderr=out,
                                   env=_env(), cwd=REPO)
    try:
        deadline, url = time.monotonic() + 30, None
        while url is None and time.monotonic() < deadline and process.poll() is None:
            found = re.search(r"memory\.serve: listening on (http://127\.0\.0\.1:(\d+))", log.read_text())
            url = found.group(1) if found and found.group(2) != "0" else None
            time.sleep(0.05)
        assert url, log.read_text()
        assert httpx.get(f"{url}/health", timeout=10).json() == {"status": "ok"}
    finally:
        process.terminate()
        process.wait(timeout=10)
