"""Rebuild the bundled demo store in data/ from examples/demo-envelopes.jsonl.

Run: python tools/build_demo.py   (deletes data/ first; the envelopes file is the source)
Each line is {"at": <instant>, "envelope": {...}}; "@<transaction_id>" in a
record id names the record an earlier envelope created.
"""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memory.clock import FixedClock  # noqa: E402
from memory.store import Store  # noqa: E402


def substitute(value, created: dict):
    if isinstance(value, str) and value.startswith("@"):
        return created[value[1:]]
    if isinstance(value, list):
        return [substitute(v, created) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, created) for k, v in value.items()}
    return value


def build(source: Path, target: Path) -> int:
    shutil.rmtree(target, ignore_errors=True)
    steps = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]
    clock = FixedClock(steps[0]["at"])
    store = Store.create(target, clock=clock)
    created = {}
    for number, step in enumerate(steps, 1):
        clock.set(step["at"])
        result = store.mutate(substitute(step["envelope"], created))
        if result["status"] != "applied":
            raise SystemExit(f"step {number}: {result['status']} {result['error']}")
        created[result["transaction_id"]] = result["record_id"]
    return len(steps)


if __name__ == "__main__":
    count = build(ROOT / "examples" / "demo-envelopes.jsonl", ROOT / "data")
    print(f"demo store rebuilt in data/ from {count} envelopes")
