"""The one place that touches orjson: strict parsing, canonical dumps, atomic writes.

Canonical form (``memory-c14n-v1``), the rule a stranger uses to recompute a hash:
the object without its ``hash`` field; every string NFC-normalized; object keys
sorted by Unicode code point; no insignificant whitespace (``,`` and ``:``);
UTF-8 with non-ASCII characters written as themselves; integers only (a float
anywhere is an error). In Python it equals
``json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()``.
"""
from __future__ import annotations

import fcntl
import json
import os
import unicodedata
from pathlib import Path

import orjson

from .errors import InputError

CANONICALIZATION = "memory-c14n-v1"


def _reject_constant(name: str):
    raise InputError(f"{name} is not allowed in JSON input", code="non_finite_number")


def _finite_float(text: str) -> float:
    # 1e400 parses to inf without passing through parse_constant
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise InputError("a number overflows to Infinity, which is not allowed in JSON input",
                         code="non_finite_number")
    return value


# the canonical form (orjson) carries integers from -2**63 to 2**64-1; a longer literal is refused
# by its length before int() sees it (int() of 4,301+ digits raises a plain ValueError, and
# with the digit limit lifted it would parse a megabyte of digits in quadratic time)
_INT_MIN, _INT_MAX = -(2**63), 2**64 - 1
_INT_LITERAL_MAX = len(str(_INT_MIN))


def bounded_int(text: str) -> int:
    """``json.loads``'s ``parse_int`` for untrusted input: InputError past the 64-bit range."""
    value = int(text) if len(text) <= _INT_LITERAL_MAX else None
    if value is None or not _INT_MIN <= value <= _INT_MAX:
        raise InputError("an integer is outside the 64-bit range JSON input may carry", code="invalid_json")
    return value


def _no_duplicate_keys(pairs: list) -> dict:
    out = dict(pairs)
    if len(out) == len(pairs):
        return out  # no key repeats (the common case, without a Python loop per key)
    out = {}
    for key, value in pairs:
        if key in out:
            # the key is structure, not memory content, so naming it is safe
            raise InputError(f"duplicate JSON key {key!r}", code="duplicate_key")
        out[key] = value
    return out


def loads_strict(data: bytes | str, *, what: str = "input") -> object:
    """Parse untrusted JSON: invalid UTF-8, duplicate keys, NaN, Infinity and integers past 64 bits
    are errors (``InputError``, never a bare ValueError)."""
    if isinstance(data, (bytes, bytearray)):
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"{what} is not valid UTF-8 (byte {exc.start})", code="invalid_utf8") from None
    else:
        text = data
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_reject_constant,
                          parse_float=_finite_float, parse_int=bounded_int)
    except json.JSONDecodeError as exc:
        # one line of input (an envelope of a JSONL file): "line 1" would read as the file's first line
        where = f"line {exc.lineno}, column {exc.colno}" if "\n" in text else f"column {exc.colno}"
        raise InputError(f"{what} is not valid JSON ({where}: {exc.msg})", code="invalid_json") from None
    except RecursionError:
        raise InputError(f"{what} is nested too deeply", code="invalid_json") from None
    except ValueError:  # a number the hooks above did not see; no input reaches here today
        raise InputError(f"{what} holds a number that cannot be read", code="invalid_json") from None


def loads_trusted(data: bytes | str) -> object:
    """Parse JSON the store wrote itself (shards, manifests, indexes): fast path."""
    return orjson.loads(data)


def nfc(value: object) -> object:
    """NFC-normalize every string in a JSON value; refuse floats."""
    kind = type(value)
    if kind is dict:
        return _nfc_dict(value)
    if kind is list:
        return _nfc_list(value)
    if isinstance(value, str):
        return _nfc_text(value)
    if isinstance(value, dict):
        return {nfc(k): nfc(v) for k, v in value.items()}
    if isinstance(value, list):
        return [nfc(v) for v in value]
    if isinstance(value, float):
        raise InputError("floats are not allowed in canonical JSON", code="float_not_allowed")
    return value


def _nfc_text(text: str) -> str:
    # an ASCII string is NFC (a flag test); else the C quick check; most strings stay as they are
    if text.isascii() or unicodedata.is_normalized("NFC", text):
        return text
    return unicodedata.normalize("NFC", text)


# ``nfc`` is called on every envelope and every revision written, some 200 values each: the
# plain JSON types are handled in the loops below without a call per value
def _nfc_dict(value: dict) -> dict:
    out = {}
    for key, item in value.items():
        if type(key) is not str or not key.isascii():
            key = nfc(key)
        kind = type(item)
        if kind is str:
            if not item.isascii():
                item = _nfc_text(item)
        elif kind is dict:
            item = _nfc_dict(item)
        elif item is not None and kind is not int and kind is not bool:
            item = nfc(item)
        out[key] = item
    return out


def _nfc_list(value: list) -> list:
    out = []
    for item in value:
        kind = type(item)
        if kind is str:
            if not item.isascii():
                item = _nfc_text(item)
        elif kind is dict:
            item = _nfc_dict(item)
        elif item is not None and kind is not int and kind is not bool:
            item = nfc(item)
        out.append(item)
    return out


def canonical_bytes(value: object) -> bytes:
    """The canonical encoding of an already-NFC value (see module docstring)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def nfc_canonical(value: dict) -> tuple[dict, bytes]:
    """``(nfc(value), canonical_bytes(nfc(value)))`` without walking every value in Python when
    that walk would change nothing: the caller hands over a dict it built and no longer changes.

    ``nfc`` returns an equal copy of a value whose strings are all ASCII and that holds no float,
    and both show in its canonical bytes: every string is ASCII there, and with no backslash in
    them (no escape) the bytes outside quotes are the structure, where only a float writes a
    ``.``, an ``e`` (beside ``true`` and ``false``) or an ``E``. Then ``value`` itself is returned;
    otherwise ``nfc`` does its work (and refuses a float as it always did). The one float not
    seen is a non-finite one, which orjson writes as ``null``: no parser of the store lets one
    in (``loads_strict`` refuses it, orjson cannot read it), and ``seal``, the caller, builds
    revisions only from what those parsed."""
    if type(value) is dict:
        try:
            encoded = canonical_bytes(value)
        except TypeError:
            encoded = b"\\"    # what orjson cannot encode: nfc and canonical_bytes say why
        if encoded.isascii() and b"\\" not in encoded:
            structure = b"".join(encoded.split(b'"')[0::2])
            if b"." not in structure and b"E" not in structure and \
                    structure.count(b"e") == structure.count(b"true") + structure.count(b"false"):
                return value, encoded
    normalized = nfc(value)
    return normalized, canonical_bytes(normalized)


def dumps(value: object, *, pretty: bool = False) -> bytes:
    option = orjson.OPT_SORT_KEYS | (orjson.OPT_INDENT_2 if pretty else 0)
    return orjson.dumps(value, option=option)


def dumps_digested(value: object) -> tuple[bytes, str]:
    """(``dumps(value)``, its sha256 hex): how derived files save a list two of them hold (the
    record ids of a scope's current view and of its index), so equal digests mean equal lists."""
    import hashlib
    data = dumps(value)
    return data, hashlib.sha256(data).hexdigest()


def dumps_text(value: object, *, pretty: bool = False) -> str:
    return dumps(value, pretty=pretty).decode("utf-8")


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# a test's fault injection point: called with (temporary, final path) between the fsync of the
# temporary and its rename (tests/test_reliability_crash.py stops a real process there)
_before_replace = None

TEMPORARY_SUFFIX = ".tmp"


def is_temporary(name: str) -> bool:
    """Whether a file name is an ``atomic_write`` temporary (``.<name>.<random>.tmp``)."""
    return name.startswith(".") and name.endswith(TEMPORARY_SUFFIX)


def abandoned(path: Path | str) -> bool:
    """Whether an ``atomic_write`` temporary was left by a writer that died (no one holds it)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


def private_mkdir(path: Path) -> None:
    """``mkdir -p`` whose new folders are 0700 whatever the umask."""
    path = Path(path)
    if path.is_dir():
        return
    missing = []
    while not path.exists():
        missing.append(path)
        if path.parent == path:
            break
        path = path.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            continue
        os.chmod(folder, 0o700)


def open_private(path: Path | str, flags: int = os.O_WRONLY | os.O_APPEND | os.O_CREAT):
    """A binary file handle on ``path``, created 0600 whatever the umask (append by default)."""
    fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0), 0o600)
    mode = "ab" if flags & os.O_APPEND else ("r+b" if flags & os.O_RDWR else "wb")
    return os.fdopen(fd, mode)


def atomic_write(path: Path, data: bytes) -> None:
    """Write to a temporary file beside ``path`` (0600), fsync, ``os.replace``, fsync the folder.

    A crash before the rename leaves the temporary (``is_temporary``): the store's next writer
    of that folder and ``doctor --repair`` remove it."""
    import tempfile   # here: a read-only process (`memory query`) never writes, and tempfile imports
    # shutil, random, bz2 and lzma (~3 ms of its start-up)
    path = Path(path)
    private_mkdir(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMPORARY_SUFFIX)
    # held until the rename: a temporary nobody holds was left by a process that died (``abandoned``)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if _before_replace is not None:
            _before_replace(tmp, path)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def read_json_file(path: Path, *, what: str) -> object:
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(f"{what} not found: {path}", code="file_not_found") from None
    return loads_strict(data, what=what)
