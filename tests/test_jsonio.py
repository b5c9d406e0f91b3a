"""jsonio: strict parsing of untrusted JSON, the canonical form, atomic writes."""
from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory import jsonio
from memory.errors import InputError
from memory.jsonio import atomic_write, canonical_bytes, loads_strict, nfc, read_json_file


@pytest.mark.parametrize("data, code", [
    (b'{"a": 1,}', "invalid_json"),
    (b'{"a": ', "invalid_json"),
    (b"", "invalid_json"),
    (b"\xef\xbb\xbf{}", "invalid_json"),                   # a BOM is not JSON
    (b'{"a": "\xff\xfe"}', "invalid_utf8"),
    (b'{"a": "\xed\xa0\x80"}', "invalid_utf8"),             # a UTF-8-encoded surrogate
    (b'{"a": 1, "a": 2}', "duplicate_key"),
    (b'{"outer": {"b": 1, "b": 1}}', "duplicate_key"),      # nested, even with equal values
    (b'[{"k": 1, "k": 2}]', "duplicate_key"),
    (b'{"a": NaN}', "non_finite_number"),
    (b'{"a": Infinity}', "non_finite_number"),
    (b'{"a": -Infinity}', "non_finite_number"),
    (b'{"a": 1e400}', "non_finite_number"),                 # overflows to inf without the NaN hook
    (b'{"a": -1e999}', "non_finite_number"),
    (b"[" * 100_000 + b"]" * 100_000, "invalid_json"),      # nested too deeply
])
def test_loads_strict_refuses_with_a_stable_code(data, code):
    with pytest.raises(InputError) as caught:
        loads_strict(data, what="envelope")
    assert caught.value.code == code
    assert caught.value.exit_code == 3


def test_loads_strict_messages_name_the_input_not_its_content():
    with pytest.raises(InputError) as caught:
        loads_strict(b'{"statement": "SECRET-PLUM-42", oops}', what="envelope")
    assert "envelope" in caught.value.message
    assert "SECRET-PLUM-42" not in caught.value.message


def test_loads_strict_accepts_text_and_ordinary_values():
    assert loads_strict('{"a": [1, true, null, "é", 1.5]}') == {"a": [1, True, None, "é", 1.5]}
    assert loads_strict(b'"\\ud83d\\ude00"') == "\U0001F600"     # a surrogate *pair* is fine


def test_nfc_normalizes_keys_and_values_and_refuses_floats():
    decomposed = "Cafe\u0301"
    assert nfc({decomposed: [decomposed, 1, None]}) == {"Café": ["Café", 1, None]}
    with pytest.raises(InputError) as caught:
        nfc({"a": [1.0]})
    assert caught.value.code == "float_not_allowed"


def test_canonical_bytes_is_sorted_compact_utf8():
    assert canonical_bytes({"b": 1, "a": ["é", None]}) == '{"a":["é",null],"b":1}'.encode("utf-8")


json_scalars = st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1) \
    | st.text(st.characters(blacklist_categories=("Cs",)))
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(st.characters(blacklist_categories=("Cs",)), max_size=8),
                                             inner, max_size=4), max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_canonical_bytes_round_trips_and_equals_plain_json(value):
    encoded = canonical_bytes(value)
    assert loads_strict(encoded) == value
    assert encoded == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def test_atomic_write_replaces_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "sub" / "file.json"
    atomic_write(target, b"one")
    atomic_write(target, b"two")
    assert target.read_bytes() == b"two"
    assert [p.name for p in target.parent.iterdir()] == ["file.json"]


def test_atomic_write_failure_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "file.json"
    atomic_write(target, b"old")

    def broken_replace(src, dst):
        raise OSError("disk full")
    monkeypatch.setattr(jsonio.os, "replace", broken_replace)
    with pytest.raises(OSError):
        atomic_write(target, b"new")
    monkeypatch.setattr(jsonio.os, "replace", os.replace)
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["file.json"]


def test_read_json_file_missing_is_an_input_error(tmp_path):
    with pytest.raises(InputError) as caught:
        read_json_file(tmp_path / "absent.json", what="gold file")
    assert caught.value.code == "file_not_found"


# what ``nfc_canonical`` must tell apart: ASCII that NFC leaves alone, text that looks like a float
# or an escape, text that NFC changes, and finite floats
_tricky_text = st.sampled_from(["1.5", ":1.5", ",2e3", "[3E4", "true", "false", "e", 'say "hi"', "a\\b", "tab\there",
                                "Cafe\u0301", "Café", "ﬁ", "x" * 3]) | st.text(max_size=6)
_tricky_scalars = json_scalars | _tricky_text | st.floats(allow_nan=False, allow_infinity=False)
_tricky_values = st.recursive(_tricky_scalars, lambda inner: st.lists(inner, max_size=4)
                              | st.dictionaries(_tricky_text, inner, max_size=4), max_leaves=20)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(_tricky_text, _tricky_values, max_size=5))
def test_nfc_canonical_is_nfc_then_canonical_bytes(value):
    try:
        expected = nfc(value)
    except InputError as exc:
        with pytest.raises(InputError) as raised:
            jsonio.nfc_canonical(value)
        assert raised.value.code == exc.code == "float_not_allowed"
        return
    normalized, encoded = jsonio.nfc_canonical(value)
    assert normalized == expected
    assert encoded == canonical_bytes(expected)


def test_nfc_canonical_refuses_a_float_beside_ascii_text():
    # a quote escaped inside a string shifts what lies outside quotes: such bytes take the slow path
    for value in ({"a": 0.5}, {"a": [1e20]}, {"a": {"b": -0.0}}, {"a": 1.0, "true": True, "false": False},
                  {"a": 'x"', "b": 1.5}, {'a"': 2.5}, {"a": ['"', 0.5]}):
        with pytest.raises(InputError):
            jsonio.nfc_canonical(value)
    assert jsonio.nfc_canonical({"a": "1.5e3", "b": [True, False, None, 12]})[0] == {"a": "1.5e3",
                                                                                     "b": [True, False, None, 12]}
