"""What the held-out sets share (see outside9/README.md): the store writer a set's build.py uses and
the runner its run.py uses, with the automatic verdict. Uses whatever `memory` the running Python
imports."""
import json
import os
import shutil
import sys

from memory import api

CURRENT = {"VERIFIED", "VERIFIED_NEGATIVE", "VERIFIED_WITH_NEGATIVE_BOUNDARY"}


def writer(user):
    """A fresh store at argv[1] (the folder is replaced) and its add / update helpers for `user`."""
    if len(sys.argv) != 2:
        sys.exit("usage: python build.py STORE  (the folder is replaced)")
    path = sys.argv[1]
    if os.path.exists(path):
        shutil.rmtree(path)
    store = api.open_store(path, create=True)

    def ok(result):
        assert result.status in ("applied", "idempotent"), (result.status, result.error)
        return result

    def add(key, text, frm, kind=None, aliases=()):
        ok(api.add(store, user, text, key=key, kind=kind, valid_from=frm, aliases=aliases))

    def upd(key, text, frm, kind=None):
        ok(api.update(store, user, text, key=key, valid_from=frm, kind=kind))

    return path, store, ok, add, upd


def add_sessions(store, user, sessions, ok) -> int:
    """The conversation turns of ``sessions`` ([(session id, start instant, [(speaker, text)])]), one
    minute apart from each session's start; how many were added."""
    from datetime import datetime, timedelta
    n = 0
    for sid, start, turns in sessions:
        t0 = datetime.strptime(start, "%Y-%m-%dT%H:%M:%SZ")
        for i, (speaker, text) in enumerate(turns):
            at = (t0 + timedelta(minutes=i)).strftime("%Y-%m-%dT%H:%M:%SZ")
            ok(api.add(store, user, text, speaker=speaker, session=sid, valid_from=at,
                       tx=f"{sid}-turn-{i}", ref=f"{sid}:{i}", actor={"type": "agent", "id": "chat-agent"}))
            n += 1
    return n


def verdict(expect, kind, state, first):
    if kind == "UNKNOWN":
        return "right" if state == "UNKNOWN" else "VERIFIED-but-wrong"
    if state == "UNKNOWN":
        return "UNKNOWN-but-answerable"
    hit = first is not None and any(e.lower() in first.lower() for e in expect)
    if not hit:
        return "VERIFIED-but-wrong"
    if kind == "ANY":
        return "right"
    family_ok = (state in CURRENT) if kind == "VERIFIED" else (state == "VERIFIED_HISTORICAL")
    return "right" if family_ok else "right-state-wrong-kind"


def run(questions, user):
    """`python run.py STORE`: one JSON line per question with its verdict."""
    if len(sys.argv) != 2:
        sys.exit("usage: python run.py STORE")
    store = api.open_store(sys.argv[1])
    for qid, text, as_of, expect, kind, cat in questions:
        r = api.query(store, text, user, **({"as_of": as_of} if as_of else {}))
        ev = r.evidence or []
        first = ev[0].statement if ev else None
        v = verdict(expect, kind, r.knowledge_state, first)
        later = None
        if v == "VERIFIED-but-wrong" and expect:
            later = next((i for i, e in enumerate(ev) if any(x.lower() in (e.statement or "").lower() for x in expect)), None)
        print(json.dumps({"id": qid, "q": text, "as_of": as_of, "cat": cat, "expected": expect or "UNKNOWN",
                          "expected_kind": kind, "state": r.knowledge_state, "reason": r.reason_code,
                          "first": first, "first_kind": ev[0].kind if ev else None,
                          "n_evidence": len(ev), "answer_at_evidence_index": later, "verdict": v},
                         ensure_ascii=False), flush=True)
