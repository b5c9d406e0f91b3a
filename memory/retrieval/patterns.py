"""A module pattern compiled when first used (``Lazy``), from code compiled at build time when it can.

A `memory query` process imports the planner, the decision and the lexicon, whose module patterns
it compiled at import: ~100 of them, ~20 ms of ``re.compile`` before the question was read, many
for features a question may not reach. ``Lazy(pattern, flags)`` stands where ``re.compile(pattern,
flags)`` stood; only its methods are read, never the compiled object.

A question still reaches ~50 of them, and ``re``'s parser and compiler are pure Python (~0.3 ms a
pattern). ``tools/gen_patterns.py`` runs them at build time for every ``Lazy`` of the read path and
writes what they produce (``memory/packaged/patterns/compiled.json``: per pattern and flags, the
arguments ``re._compiler.compile`` hands to ``_sre.compile``); ``Lazy`` hands the same arguments to
``_sre.compile`` itself, so the pattern object is the one ``re.compile`` makes. The table is used
only by the interpreter it was written with (implementation, version, ``_sre.MAGIC`` and code
size all equal); any other, or a pattern not in it, compiles with ``re.compile`` as before.
tests/test_lazy_patterns.py holds the file to its sources and each entry to ``re.compile``.
"""
from __future__ import annotations

import re
import sys
from functools import lru_cache

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "split", "sub", "subn")


class Lazy:
    """``re.compile(pattern, flags)`` done by the first method call; the compiled pattern's
    methods then become this object's own, so later calls cost a plain lookup."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str):
        # runs only for a missing attribute: the first method asked for
        compiled = precompiled(self.pattern, self._flags) or re.compile(self.pattern, self._flags)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)


def interpreter() -> dict:
    """What the packaged code is valid for: it is used only where all of these are equal."""
    import _sre
    from array import array
    return {"implementation": sys.implementation.name, "version": list(sys.version_info[:3]),
            "sre_magic": _sre.MAGIC, "code_size": _sre.CODESIZE, "u32": array("I").itemsize == 4}


def precompiled(pattern: str, flags: int = 0) -> re.Pattern | None:
    """The pattern made from its packaged code (as ``re.compile`` would make it), or None when
    the table has no code for it or was written for another interpreter."""
    args = _table().get((pattern, flags))
    if args is None:
        return None
    import _sre
    final_flags, code, groups, groupindex, indexgroup = args
    return _sre.compile(pattern, final_flags, _ints(code), groups, dict(groupindex), tuple(indexgroup))


def _ints(encoded: str) -> list[int]:
    from array import array
    from binascii import a2b_base64    # built in: ``base64`` is a module to import for the same call
    values = array("I")
    values.frombytes(a2b_base64(encoded))
    if sys.byteorder == "big":
        values.byteswap()
    return values.tolist()


@lru_cache(maxsize=1)
def _table() -> dict:
    from ..jsonio import loads_trusted     # orjson: ~2.5x faster than ``json`` on this 340 KB table
    from ..paths import PACKAGED   # not importlib.resources: ~6-14 ms of a process's start-up
    try:
        table = loads_trusted(PACKAGED.joinpath("patterns", "compiled.json").read_bytes())
    except (OSError, ValueError):
        return {}
    if table.get("interpreter") != interpreter():
        return {}
    return {(pattern, flags): rest for pattern, flags, *rest in table["patterns"]}
