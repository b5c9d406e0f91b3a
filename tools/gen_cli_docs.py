"""Generate docs/CLI.md from every command's ``--help``.

    python tools/gen_cli_docs.py           # rewrite docs/CLI.md
    python tools/gen_cli_docs.py --check   # exit 1 when docs/CLI.md differs (what CI's test does)

The help is rendered at a fixed width so the file does not depend on the
terminal it was generated in. ``tests/test_cli_docs.py`` fails when the file
drifts from the commands.
"""
from __future__ import annotations

import sys
from pathlib import Path

import click
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memory.cli_root import main as cli_main  # noqa: E402  (the click group itself; needs the repository on sys.path)

TARGET = ROOT / "docs" / "CLI.md"
WIDTH = 88
HEADER = """# `memory` command reference

Generated from each command's `--help` by `python tools/gen_cli_docs.py`;
`tests/test_cli_docs.py` fails when this file and the commands drift apart.
Every command takes `--help`; most take `--json`. The global options
(`--store`) come before the command: `memory --store ./mystore query ...`.
Shell completion: see the README.
"""


def _paths(command: click.Command, path: tuple[str, ...] = ()):
    """The argument path of the command and of every subcommand, depth first, in name order."""
    yield path
    if isinstance(command, click.Group):
        ctx = click.Context(command)
        for name in sorted(command.list_commands(ctx)):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                yield from _paths(sub, path + (name,))


def help_text(path: tuple[str, ...]) -> str:
    """Exactly what ``memory PATH --help`` prints, at WIDTH columns."""
    result = CliRunner().invoke(cli_main, [*path, "--help"], prog_name="memory", terminal_width=WIDTH)
    if result.exit_code != 0:
        raise SystemExit(f"memory {' '.join(path)} --help failed: {result.output}")
    return result.output.rstrip("\n")


def render() -> str:
    paths = [" ".join(("memory",) + path) for path in _paths(cli_main)]
    anchors = [name.replace(" ", "-") for name in paths]
    toc = [f"- [`{name}`](#{anchor})" for name, anchor in zip(paths, anchors)]
    body = [f'<a id="{anchor}"></a>\n## `{name}`\n\n```text\n{help_text(tuple(name.split()[1:]))}\n```\n'
            for name, anchor in zip(paths, anchors)]
    return HEADER + "\n" + "\n".join(toc) + "\n\n" + "\n".join(body)


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            print(f"{TARGET.relative_to(ROOT)} is out of date: run python tools/gen_cli_docs.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
