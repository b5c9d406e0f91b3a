"""Retention: erase the content of records whose window in the forgetting policy has passed.

A window is a ``retention`` rule of ``config/forgetting-policy.json``
(``{"kind", "classification", "days"}``, ``*`` matches any); when several match,
the shortest applies, as in ``ForgettingPolicy.retention_days``. A record's age
counts from its first revision's recorded time — the instant the read path uses
too, so a record past its window stopped answering (``decision.blocker``) before
any sweep ran; the sweep only removes what can no longer be served.

``sweep(store)`` erases through ``Store.erase_content``: one content-free audit
row per scope and rule, naming the rule and the policy hash, written before the
shards are rewritten. It returns a JSON-ready summary that names records by id
and scopes by digest only.
"""
from __future__ import annotations

from collections import defaultdict

from .clock import add_days
from .lifecycle import ScopeState
from .paths import scope_digest
from .policy import ForgettingPolicy
from .store import Store

SWEEP_ACTOR = {"type": "automation", "id": "retention-sweep"}


def matching_rule(policy: ForgettingPolicy, kind: str, classification: str) -> tuple[int, dict] | None:
    """(index, rule) of the shortest window that applies, or None when the record is kept."""
    rules = [(i, rule) for i, rule in enumerate(policy.data["retention"])
             if rule["kind"] in ("*", kind) and rule["classification"] in ("*", classification)]
    return min(rules, key=lambda pair: (pair[1]["days"], pair[0])) if rules else None


def expires_at(created_at: str, days: int) -> str | None:
    try:
        return add_days(created_at, days)
    except (OverflowError, ValueError):  # past year 9999: never, in practice
        return None


def expired(state: ScopeState, policy: ForgettingPolicy, now: str) -> dict[int, list[str]]:
    """Record ids past their window, grouped by the index of the rule that expired them."""
    found: dict[int, list[str]] = defaultdict(list)
    for record in state.currents():
        match = matching_rule(policy, record["kind"], record["sensitivity"]["classification"])
        if match is None:
            continue
        created = state.revisions[record["id"]][0]["recorded_time"]["recorded_at"]
        end = expires_at(created, match[1]["days"])
        if end is not None and end <= now:
            found[match[0]].append(record["id"])
    return dict(found)


def _scope_of(store: Store, digest: str) -> dict | None:
    """The scope a shard folder holds, read from its first record (folders never carry the key)."""
    scope = store.scope_in_folder(digest)
    # a misfiled record must not steer the sweep into another scope (doctor reports it)
    return scope if scope is not None and scope_digest(scope["type"], scope["key"]) == digest else None


def sweep(store: Store, *, dry_run: bool = False) -> dict:
    """Erase every record past its retention window; returns what was (or would be) erased."""
    now, policy = store.clock.now(), store.policies.forgetting
    summary = {"swept_at": now, "dry_run": dry_run, "policy_sha256": policy.sha256, "scopes_checked": 0,
               "records_erased": 0, "by_rule": [], "erased": []}
    per_rule: dict[int, int] = defaultdict(int)
    for digest in store.scope_digests():
        scope = _scope_of(store, digest)
        if scope is None:
            continue
        summary["scopes_checked"] += 1
        with store.writer(scope):
            state = store.state(scope)          # read again under the lock
            for index, record_ids in sorted(expired(state, policy, now).items()):
                if not dry_run:
                    store.erase_content(scope, state, set(record_ids), _why(policy, index))
                per_rule[index] += len(record_ids)
                summary["erased"] += [{"scope_digest": digest, "record_id": i, "rule": index}
                                      for i in sorted(record_ids)]
    summary["records_erased"] = sum(per_rule.values())
    summary["by_rule"] = [{"rule": index, **policy.data["retention"][index], "records": count}
                          for index, count in sorted(per_rule.items())]
    return summary


def _why(policy: ForgettingPolicy, index: int) -> dict:
    rule = policy.data["retention"][index]
    return {"event": "erase_retention", "actor": dict(SWEEP_ACTOR),
            "reason": f"retention rule {index}: kind {rule['kind']}, classification {rule['classification']}, "
                      f"{rule['days']} days",
            "retention_rule": {"index": index, **rule}, "policy_sha256": policy.sha256}
