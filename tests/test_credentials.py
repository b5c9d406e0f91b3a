"""credentials: the token shapes found, prose passed, the pre-screen sound, disguises undone."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from memory.credentials import _DETECTORS, _LITERALS, credential_kinds, fields_with_credentials, redact, screen_form

HEX32 = "3f9a1c0b7d2e4f6a8b9c0d1e2f3a4b5c"

# (kind, text): one realistic shape per detector, each inside a sentence
SHAPES = [
    ("private_key", "-----BEGIN OPENSSH PRIVATE KEY-----"),
    ("private_key", "-----BEGIN PGP PRIVATE KEY BLOCK-----"),
    ("aws_access_key", "AKIAIOSFODNN7EXAMPLE"),
    ("aws_access_key", "ASIAY34FZKBOKMUTVV7A"),
    ("github_token", "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"),
    ("github_token", "gho_" + "a" * 36),
    ("github_token", "ghs_" + "Ab1" * 12),
    ("github_token", "github_pat_11ABCDEFG0" + "a1B2c3" * 10),
    ("gitlab_token", "glpat-xY3kZ9aB2cD4eF6gH8iJ"),
    ("gitlab_token", "glrt-" + "Ab1_" * 6),
    ("slack_token", "xoxb-123456789012-abcdefghij"),
    ("slack_token", "xoxp-1234-5678-ABCDEFGHIJ"),
    ("slack_webhook", "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"),
    ("stripe_key", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"),
    ("stripe_key", "rk_test_4eC39HqLyjWDarjtT1zdp7dc"),
    ("npm_token", "npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"),
    ("pypi_token", "pypi-AgEIcHlwaS5vcmcCJDU3ZjYwNjQ0LWE1LTRhZDktOWE1Mi1kOWNiZjM0MDk4YmMAAIJ"),
    ("openai_key", "sk-proj-" + "Ab1Cd2" * 5),
    ("openai_key", "sk-" + "T3BlbkFJ" * 6),
    ("anthropic_key", "sk-ant-api03-" + "Ab1_" * 20),
    ("google_api_key", "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"),
    ("huggingface_token", "hf_" + "AbCdEfGhIj" * 3 + "KlMn"),
    ("sendgrid_key", "SG." + "a1B2c3D4e5F6g7H8i9J0k1" + "." + "Z" * 43),
    ("jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"),
    ("bearer_token", "Authorization: Bearer " + "t0K3n" * 5),
    ("url_credentials", "postgres://user:password@db.example.com:5432/app"),
    ("url_credentials", "mongodb+srv://admin:Pa55w0rd@cluster0.example.net"),
    ("url_credentials", "https://deploy:s3cr3t@git.example.com/repo.git"),
    ("assignment", "my PASSWORD is hunter22x"),
    ("assignment", "the wifi password is sunflower"),
    ("assignment", "DB_PASSWORD=correcthorse"),
    ("assignment", '{"password": "hunter22x"}'),
    ("assignment", "passwd: Tr0ub4dor&3"),
    ("secret_assignment", "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8Lm2NvKEY"),
    ("secret_assignment", "api_key=sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX"),
    ("secret_assignment", "the api key is Xk29fLq0Pz"),
    ("secret_assignment", "client_secret: abcdefgh12"),
    ("token_assignment", "token: " + HEX32),
    ("token_assignment", "key=" + HEX32),
    ("token_assignment", "auth = 'Zm9vYmFyYmF6cXV4MTIzNDU2'"),
]

# the issue's list (issue 16 point 8): each was stored with exit 0
ISSUE_16 = [
    "charge it with sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "my gitlab token glpat-xY3kZ9aB2cD4eF6gH8iJ",
    "publish with npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "token: " + HEX32,
    "the database is postgres://user:password@db.internal/app",
    "key=" + HEX32,
    "pass\u200bword=hunter22x",                         # a zero-width space inside the name
    "ｐａｓｓｗｏｒｄ=hunter22x",                          # full-width letters and sign
]

PROSE = [
    "my password manager is 1Password",
    "the key to success is practice",
    "The secret is chocolate",
    "the secret isolation layer",
    "the password is required",
    "Please reset your password tomorrow.",
    "The user's API key rotation is monthly",
    "token budget: 4096 tokens",
    "key: the red one",
    "Key: 2024-03-01T10:00:00Z",
    "passenger: Johnathan",
    "primary key = customer_id",
    "keyboard: 2024 model",
    "sk-learn-compatible-estimator-api",
    "ssh://git@github.com/org/repo.git",
    "https://example.com/path?user=1",
    "evidence sha256:" + "ab" * 32,
    "cli-0e54d7cb37f1465c8da8df5a11384fc3",
    "Password:\n```php\n$user = 1;",
    'api_key="my_api_key"',
    "neo4j_password = \"<your_neo4j_password>\"",
    "the user's private key is protected.",
    "Use a strong passphrase and keep your secrets safe.",
]


@pytest.mark.parametrize("kind, text", SHAPES, ids=[f"{k}-{i}" for i, (k, _) in enumerate(SHAPES)])
def test_each_token_shape_is_found_and_redacted(kind, text):
    sentence = f"note: {text} end"
    assert kind in credential_kinds(sentence)
    redacted = redact(sentence)
    assert f"[REDACTED:{kind}]" in redacted or "[REDACTED:" in redacted
    assert credential_kinds(redacted) == []


@pytest.mark.parametrize("text", ISSUE_16)
def test_the_shapes_issue_16_found_stored_are_caught(text):
    assert credential_kinds(text) != []


@pytest.mark.parametrize("text", PROSE)
def test_ordinary_prose_passes(text):
    assert credential_kinds(text) == []


def test_invisible_and_compatibility_characters_are_undone_before_screening():
    assert screen_form("pa\u00ads\u200cs\u2060w\ufeffo\u200drd") == "password"
    assert screen_form("ＡＰＩ＿ＫＥＹ＝") == "API_KEY="
    assert credential_kinds("\u202eghp_" + "A1b" * 12) == ["github_token"]     # a bidi override before it
    assert credential_kinds("api\u200b_key\uff1a Xk29fLq0Pz") == ["secret_assignment"]


def test_redact_leaves_clean_text_exactly_as_it_was():
    text = "Cafe\u0301 ｆｕｌｌ-width, zero\u200bwidth"
    assert redact(text) is text


def test_fields_with_credentials_names_each_field_once():
    fields = [("transaction_id", "tx-1"), ("payload.tags", "ok"), ("payload.tags", "token: " + HEX32),
              ("actor.id", "ghp_" + "A1b" * 12), ("payload.tags", "key=" + HEX32)]
    assert fields_with_credentials(fields) == ["payload.tags", "actor.id"]
    assert fields_with_credentials([("reason", "the key to success")]) == []


# -- the literal pre-screen never changes what the detectors find ------------------------

def unscreened(text: str) -> list[str]:
    form = screen_form(text)
    return [d.kind for d in _DETECTORS if next(d.matches(form), None) is not None]


PIECES = st.sampled_from(
    [text for _, text in SHAPES] + ISSUE_16 + PROSE + [
        "-----BEGIN RSA PRIVATE KEY-----", "AKIA", "ASIA", "A3TX", "ABCDEFGHIJKLMNOP", "ghp_", "gho_",
        "github_pat_", "glpat-", "GR1348941", "A" * 30, "sk-", "sk-ant-api03-", "sk_live_", "rk_prod_", "npm_",
        "pypi-AgEIcHlwaS5vcmc", "hf_", "SG.", "abcdefghijklmnopqrstuvwx", "xoxb-", "xapp-1-", "AIza", "a" * 35,
        "eyJ", "Bearer ", "BEARER ", "hooks.slack.com/services/", "://", "user:pw@", "@host",
        "password", "PassWord", "passwd", "PWD", "passphrase", "passcode", "secret", "Client_Secret",
        "api_key", "API-KEY", "api key", "apikey", "access_token", "Auth-Token", "session token", "token",
        "TOKEN", "key", "Key", "auth", "creds", "credentials", "access_key_id", " is ", "=", ":", "=>", " ",
        "'", '"', "hunter22", HEX32, "Xk29fLq0Pz", "required", "ſecret", "ı", "İ", "K", "ToKEN", "SeCReT=", "\u200b", "ｐａｓｓ",
        "the user", ".", "\n", "\t", "<", "your", "$",
    ])
TEXTS = st.lists(PIECES | st.text(max_size=8), max_size=8).map("".join)


@settings(max_examples=3000, deadline=None)
@given(TEXTS)
def test_the_screen_finds_what_every_detector_finds(text):
    assert credential_kinds(text) == unscreened(text)


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), TEXTS), max_size=5))
def test_the_one_pass_screen_of_many_fields_finds_what_each_field_holds(fields):
    expected = list(dict.fromkeys(name for name, text in fields if unscreened(text)))
    assert fields_with_credentials(fields) == expected


def test_every_detector_has_screen_literals_that_are_lower_case():
    for detector in _DETECTORS:
        assert detector.literals and all(lit == lit.lower() for lit in detector.literals), detector.kind
    assert set(_LITERALS) == {lit for d in _DETECTORS for lit in d.literals}


def test_every_alternative_of_every_name_gets_through_the_screen():
    hits = [f"{name}{sep}Xk29fLq0Pz" for name in ("password", "PASSWD", "pwd", "Passphrase", "passcode", "secret",
                                                 "api_key", "api-key", "ApiKey", "api key", "access_token",
                                                 "accesstoken", "auth-token", "AUTH_TOKEN", "client_secret",
                                                 "clientsecret", "secret_key", "secret_access_key",
                                                 "private_key", "refresh_token", "session token")
            for sep in ("=", ": ", " is ", "=>", '": "')]
    hits += [f"{name}={HEX32}" for name in ("token", "KEY", "auth", "credential", "creds", "access_key_id")]
    hits += [f"gh{c}_" + "a" * 30 for c in "pousr"] + ["github_pat_" + "a" * 30]
    hits += [f"xox{c}-" + "a" * 10 for c in "abeoprs"] + [f"{p}" + "A" * 16 for p in ("AKIA", "ASIA", "ABIA", "ACCA")]
    hits += [f"gl{p}-" + "a" * 20 for p in ("pat", "dt", "rt", "ptt", "ft", "imt", "oas", "cbt", "soat", "agent")]
    hits += [f"{p}_{e}_" + "a1" * 6 for p in ("sk", "rk") for e in ("live", "test", "prod")]
    hits += ["Bearer\t" + "t" * 20, "bearer\n" + "t" * 20, "sk-proj-" + "A" * 20, "sk-svcacct-" + "a1" * 10]
    for text in hits:
        assert credential_kinds(text) == unscreened(text) != [], text


def _reference_spans(detector, form: str) -> list[tuple[int, int]]:
    """What a folded detector means: its pattern with (?i) on the text itself."""
    pattern = re.compile("(?i)" + detector.pattern.pattern)
    edge = re.compile("(?i)[A-Za-z0-9]")
    spans, position = [], 0
    while (match := pattern.search(form, position)) is not None:
        start = match.start()
        if detector.edge is not None and start and edge.match(form, start - 1):
            position = start + 1
            continue
        if detector.judge is None or detector.judge(match, form):
            spans.append(match.span())
        position = max(match.end(), start + 1)
    return spans


@settings(max_examples=2000, deadline=None)
@given(TEXTS)
def test_a_folded_detector_matches_as_its_pattern_would_with_ignorecase(text):
    form = screen_form(text)
    for detector in (d for d in _DETECTORS if d.folded):
        assert [m.span() for m in detector.matches(form)] == _reference_spans(detector, form), detector.kind
