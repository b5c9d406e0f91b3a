"""Load the JSON Schemas in ``schemas/`` and validate values against them.

Validation collects every violation (as ``"path: message"`` strings that name
fields, never values), so callers can report them together.
"""
from __future__ import annotations

from functools import lru_cache

from .errors import InputError
from .jsonio import loads_strict
from .paths import SCHEMA_DIR


@lru_cache(maxsize=None)
def validator(name: str):
    # jsonschema is heavy to import; only the paths that validate pay for it
    import jsonschema

    schema = loads_strict((SCHEMA_DIR / f"{name}.schema.json").read_bytes(), what=f"schema {name}")
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _where(error) -> str:
    return "/".join(str(p) for p in error.absolute_path) or "(root)"


def _describe(error) -> str:
    # jsonschema's message quotes the offending value; name the rule instead
    if error.validator == "additionalProperties":
        return "unknown field(s)"
    if error.validator in ("maxLength", "minLength", "maxItems", "minItems", "pattern", "enum",
                           "type", "required", "const", "format", "maxProperties"):
        detail = error.message if error.validator == "required" else f"fails '{error.validator}'"
        return detail
    return f"fails '{error.validator}'"


def violations(name: str, value: object) -> list[str]:
    found = sorted(validator(name).iter_errors(value), key=lambda e: list(map(str, e.absolute_path)))
    return [f"{_where(e)}: {_describe(e)}" for e in found]


def check(name: str, value: object, *, code: str = "schema_violation", what: str | None = None) -> None:
    problems = violations(name, value)
    if problems:
        raise InputError(f"{what or name} fails its schema ({len(problems)} problem(s)): "
                         + "; ".join(problems[:10]), code=code, details=problems)
