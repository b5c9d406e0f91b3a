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
