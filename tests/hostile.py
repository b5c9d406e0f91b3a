"""The hostile-input corpus of issue 16 (points 5, 6 and 8), shared by its tests and the
reliability report: envelopes that must be refused with a given code, prose that must be
admitted, and the front-door inputs (options, request fields, files) that must be refused.

Import as ``from hostile import ...`` (pytest puts ``tests/`` on ``sys.path``).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Callable

from helpers import add_env, changed, raw

HEX32 = "3f9a1c0b7d2e4f6a8b9c0d1e2f3a4b5c"
BIG_INT = "1" + "0" * 5000            # past int()'s 4,300-digit limit: was HTTP 500 / exit 1
GITHUB_TOKEN = "ghp_" + "Zx81KqWmB2vLp09RtYh3NcD4" + "a1B2c3D4e5F6"


@dataclass(frozen=True)
class Case:
    name: str
    point: int                       # of issue 16
    build: Callable[[], dict | bytes]
    code: str                        # the refusal code, or "applied" for prose that must pass


def base(tx: str = "tx-hostile") -> dict:
    return add_env("The user keeps notes in a plain notebook.", "user.notes", tx,
                   payload_extra={"aliases": ["notebook"], "tags": ["habits"]})


def _set(field: str, value) -> Callable[[], dict]:
    return lambda: changed(base(), **{field: value})


def _number(literal: str) -> Callable[[], bytes]:
    return lambda: raw(base()).replace(b'"confidence":"high"', b'"confidence":' + literal.encode())


def _statement(text: str) -> Callable[[], dict]:
    return _set("payload.statement", f"The user said: {text} (remember this)")


INSTANTS = [
    ("valid_time.from year 999", "valid_time", {"from": "0999-01-01T00:00:00Z", "to": None}),
    ("valid_time.from year 1", "valid_time", {"from": "0001-01-01T00:00:00Z", "to": None}),
    ("valid_time.to year 999", "valid_time", {"from": None, "to": "0999-12-31T23:59:59Z"}),
    ("valid_time.from 999 in UTC", "valid_time", {"from": "1000-01-01T00:30:00+01:00", "to": None}),
    ("valid_time.to past 9999 in UTC", "valid_time", {"from": None, "to": "9999-12-31T23:59:59-01:00"}),
    ("source.observed_at year 999", "source.observed_at", "0999-06-01T00:00:00Z"),
]

NUMBERS = [
    ("integer of 5,000 digits", BIG_INT),
    ("integer of 4,301 digits", "9" * 4301),
    ("negative integer of 5,000 digits", "-" + BIG_INT),
    ("integer 2**64", str(2**64)),
    ("integer -(2**63)-1", str(-(2**63) - 1)),
    ("float 1e5000", "1e5000"),
]

# the issue's list, each in the statement
ISSUE_SECRETS = [
    ("stripe sk_live_", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"),
    ("gitlab glpat-", "glpat-xY3kZ9aB2cD4eF6gH8iJ"),
    ("npm npm_", "npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"),
    ("token: <hex>", f"token: {HEX32}"),
    ("postgres://user:password@host", "postgres://user:password@db.internal:5432/app"),
    ("key=<hex>", f"key={HEX32}"),
    ("zero-width inside password=", "pass\u200bword=hunter22x"),
    ("full-width password=", "ｐａｓｓｗｏｒｄ=hunter22x"),
]

# the common token formats the screen names
TOKEN_FORMATS = [
    ("aws access key", "AKIAIOSFODNN7EXAMPLE"),
    ("aws secret", "aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8Lm2NvKEY"),
    ("github ghp_", GITHUB_TOKEN),
    ("github gho_", "gho_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"),
    ("github ghs_", "ghs_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"),
    ("github_pat_", "github_pat_11ABCDEFG0" + "a1B2c3" * 10),
    ("slack xoxb-", "xoxb-123456789012-abcdefghij"),
    ("slack webhook", "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"),
    ("pypi", "pypi-AgEIcHlwaS5vcmcCJDU3ZjYwNjQ0LWE1LTRhZDktOWE1Mi1kOWNiZjM0MDk4YmMAAIJ"),
    ("openai sk-proj-", "sk-proj-" + "Ab1Cd2" * 5),
    ("anthropic sk-ant-", "sk-ant-api03-" + "Ab1_" * 20),
    ("google AIza", "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"),
    ("private key block", "-----BEGIN RSA PRIVATE KEY-----"),
    ("jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"),
    ("bearer", "Authorization: Bearer " + "t0K3n" * 5),
    ("password is", "my wifi password is sunflower"),
    ("api key is", "the api key is Xk29fLq0Pz"),
]

# the fields that were never screened, and the lists that were
FIELDS = [
    ("transaction_id", "transaction_id", GITHUB_TOKEN),
    ("actor.id", "actor.id", GITHUB_TOKEN),
    ("source.ref", "source.ref", f"see {GITHUB_TOKEN}"),
    ("source.session", "source.session", f"session {GITHUB_TOKEN}"),
    ("source.speaker", "source.speaker", f"token: {HEX32}"),
    ("source.evidence_hash", "source.evidence_hash", GITHUB_TOKEN),
    ("target.scope.key", "target.scope.key", GITHUB_TOKEN),
    ("reason", "reason", f"pasted {GITHUB_TOKEN}"),
    ("payload.aliases", "payload.aliases", [f"key={HEX32}"]),
    ("payload.tags", "payload.tags", ["sk_live_4eC39HqLyjWDarjtT1zdp7dc"]),
    ("payload.negative_triggers", "payload.negative_triggers", ["glpat-xY3kZ9aB2cD4eF6gH8iJ"]),
]

# prose and real hashes that must still be admitted (false positives would refuse them)
PROSE = [
    "my password manager is 1Password",
    "the key to success is practice",
    "The secret is chocolate",
    "the password is required on every login",
    "token budget: 4096 tokens",
    "The user's API key rotation is monthly",
    "primary key = customer_id",
    "ssh://git@github.com/org/repo.git is the mirror",
]

CASES: list[Case] = (
    [Case(f"instant: {name}", 5, _set(field, value), "instant_out_of_range") for name, field, value in INSTANTS]
    + [Case(f"number: {name}", 6, _number(literal), "non_finite_number" if "e" in literal else "invalid_json")
       for name, literal in NUMBERS]
    + [Case(f"secret: {name}", 8, _statement(text), "credential_detected") for name, text in ISSUE_SECRETS]
    + [Case(f"format: {name}", 8, _statement(text), "credential_detected") for name, text in TOKEN_FORMATS]
    + [Case(f"field: {name}", 8, _set(field, value), "credential_detected") for name, field, value in FIELDS]
    + [Case(f"prose: {text}", 8, _statement(text), "applied") for text in PROSE]
    + [Case("prose: a real evidence hash", 8,
            _set("source.evidence_hash", "sha256:" + "0123456789abcdef" * 4), "applied")]
)


def envelope_of(case: Case, tx: str) -> dict | bytes:
    """The case's envelope under its own transaction id (prose cases are applied, so each needs one)."""
    built = case.build()
    if isinstance(built, bytes):
        return built.replace(b'"transaction_id":"tx-hostile"', f'"transaction_id":"{tx}"'.encode())
    built = copy.deepcopy(built)
    if built["transaction_id"] == "tx-hostile":
        built["transaction_id"] = tx
    if built["target"]["memory_key"] == "user.notes":
        built["target"]["memory_key"] = f"user.notes_{tx.replace('-', '_')}"
    return built
