"""Copy config/*.json and schemas/*.json into memory/packaged/, which the wheel ships.

Run: python tools/sync_package_data.py          (write the copies)
     python tools/sync_package_data.py --check  (exit 1 and name the files that differ)

The repository's config/ and schemas/ are the sources; memory/packaged/ holds byte-for-byte
copies so that an installed package (no checkout beside it) reads them with
importlib.resources. tests/test_packaging.py fails when the copies drift;
tools/gen_schemas.py runs this after writing schemas/.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGED = ROOT / "memory" / "packaged"
PARTS = ("config", "schemas")


def pairs() -> list[tuple[Path, Path]]:
    """(source, packaged copy) for every JSON file of config/ and schemas/."""
    return [(source, PACKAGED / part / source.name)
            for part in PARTS for source in sorted((ROOT / part).glob("*.json"))]


def stale() -> list[str]:
    """Packaged files that differ from their source, are missing, or have no source any more."""
    out = [str(copy.relative_to(ROOT)) for source, copy in pairs()
           if not copy.exists() or copy.read_bytes() != source.read_bytes()]
    sources = {copy for _, copy in pairs()}
    out += [str(p.relative_to(ROOT)) for part in PARTS for p in sorted((PACKAGED / part).glob("*.json"))
            if p not in sources]
    return out


def sync() -> list[str]:
    written = []
    for source, copy in pairs():
        copy.parent.mkdir(parents=True, exist_ok=True)
        if not copy.exists() or copy.read_bytes() != source.read_bytes():
            copy.write_bytes(source.read_bytes())
            written.append(str(copy.relative_to(ROOT)))
    sources = {copy for _, copy in pairs()}
    for part in PARTS:
        for orphan in sorted((PACKAGED / part).glob("*.json")):
            if orphan not in sources:
                orphan.unlink()
                written.append(f"removed {orphan.relative_to(ROOT)}")
    return written


if __name__ == "__main__":
    if "--check" in sys.argv[1:]:
        drift = stale()
        for name in drift:
            print(f"out of date: {name} (run: python tools/sync_package_data.py)")
        sys.exit(1 if drift else 0)
    for line in sync() or ["memory/packaged/ is up to date"]:
        print(line)
