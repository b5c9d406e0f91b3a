"""credentials: the literal pre-screen never changes what the patterns find."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from memory.credentials import _COMPILED, _LITERALS, credential_kinds

# pieces of every pattern's shapes, mixed with text: the screen must let each true hit through
PIECES = st.sampled_from([
    "-----BEGIN RSA PRIVATE KEY-----", "-----BEGIN PRIVATE KEY-----", "AKIA", "ASIA", "ABCDEFGHIJKLMNOP",
    "ghp_", "gho_", "github_pat_", "A" * 30, "sk-", "sk-proj-", "abcdefghijklmnopqrstuvwx", "xoxb-",
    "xoxs-", "AIza", "a" * 35, "eyJ", "eyJabcdefgh.eyJabcdefgh.abcdefgh", "Bearer ", "bearer ", "BEARER ",
    "password", "PassWord", "passwd", "PWD", "passphrase", "secret", "Client_Secret", "api_key", "API-KEY",
    "apikey", "access_token", "Auth-Token", " is ", "=", ":", " ", "'", '"', "hunter22", "ſecret", "K",
    "the user", ".", "\n",
])
TEXTS = st.lists(PIECES | st.text(max_size=8), max_size=8).map("".join)


def unscreened(text: str) -> list[str]:
    return [kind for kind, pattern in _COMPILED if pattern.search(text)]


@settings(max_examples=3000, deadline=None)
@given(TEXTS)
def test_the_screen_finds_what_every_pattern_finds(text):
    assert credential_kinds(text) == unscreened(text)


def test_every_pattern_has_screen_literals_and_each_shape_is_still_found():
    assert set(_LITERALS) == {kind for kind, _ in _COMPILED}
    samples = {"private_key": "-----BEGIN EC PRIVATE KEY-----", "aws_access_key": "AKIAABCDEFGHIJKLMNOP",
               "github_token": "ghp_" + "a" * 36, "openai_key": "sk-" + "a" * 24,
               "slack_token": "xoxb-1234567890ab", "google_api_key": "AIza" + "b" * 35,
               "jwt": "eyJhbGciOiJI.eyJzdWIiOiIx.c2lnbmF0dXJl", "bearer_token": "Bearer " + "t" * 24,
               "assignment": "my PASSWORD is hunter22x"}
    for kind, text in samples.items():
        assert kind in credential_kinds(f"note: {text} end"), kind


def test_every_alternative_of_every_pattern_gets_through_the_screen():
    hits = [f"{word}{sep}abcdefgh" for word in ("password", "PASSWD", "pwd", "Passphrase", "secret", "api_key",
                                               "api-key", "ApiKey", "access_token", "accesstoken", "auth-token",
                                               "AUTH_TOKEN", "client_secret", "clientsecret")
            for sep in ("=", ": ", " is ")]
    hits += [f"gh{c}_" + "a" * 30 for c in "pousr"] + ["github_pat_" + "a" * 30]
    hits += [f"xox{c}-" + "a" * 10 for c in "abprs"] + ["AKIA" + "A" * 16, "ASIA" + "B" * 16]
    hits += ["Bearer\t" + "t" * 20, "bearer\n" + "t" * 20, "sk-proj-" + "a" * 20, "sk-" + "_" * 20]
    for text in hits:
        assert credential_kinds(text) == unscreened(text) != [], text
