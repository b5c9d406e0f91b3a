"""Load the JSON Schemas (shipped in the package, sources in ``schemas/``) and validate values.

Validation collects every violation (as ``"path: message"`` strings that name
fields, never values), so callers can report them together. ``check`` first asks a
plain-Python predicate compiled from the schema (``compile_schema``): it is sound, not
complete, so a True skips jsonschema and a False asks jsonschema for the full list.
jsonschema's ``iter_errors`` was most of the time spent admitting an envelope.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from .errors import InputError
from .jsonio import loads_strict
from .paths import schema_bytes


def schema(name: str) -> dict:
    """The parsed schema ``<name>.schema.json``, as the package ships it."""
    return loads_strict(schema_bytes(name), what=f"schema {name}")


@lru_cache(maxsize=None)
def validator(name: str):
    # jsonschema is heavy to import; only the paths that validate pay for it
    import jsonschema

    loaded = schema(name)
    jsonschema.Draft202012Validator.check_schema(loaded)
    return jsonschema.Draft202012Validator(loaded)


@lru_cache(maxsize=None)
def fast_check(name: str) -> "Predicate | None":
    return compile_schema(schema(name))


def _where(error, separator: str = "/") -> str:
    return separator.join(str(p) for p in error.absolute_path) or "(root)"


# Messages name fields and the rule broken, never a value: jsonschema's own messages quote the
# offending value (memory content, in an envelope). A key is named only when it is shaped like the
# schemas' own field names (lowercase snake_case, at most 64 characters); any other key could be content.
_FIELD_NAME = re.compile(r"[a-z_][a-z0-9_]{0,63}")
_JSON_TYPES = {"object": "an object", "array": "an array", "string": "a string", "integer": "an integer",
               "number": "a number", "boolean": "true or false", "null": "null"}
_MAX_NAMED = 10


def _field(name: object) -> str:
    return name if isinstance(name, str) and _FIELD_NAME.fullmatch(name) else "(a key not in lowercase snake_case)"


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    for kind, test in (("a string", str), ("an array", list), ("an object", dict)):
        if isinstance(value, test):
            return kind
    return "a value of another kind"


def _listing(names: list) -> str:
    shown = [_field(n) for n in names[:_MAX_NAMED]]
    more = len(names) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def _literal(value: object) -> str:
    # schema literals (enum members, consts) are the schema's words, not the caller's value
    return value if isinstance(value, str) else "null" if value is None else str(value)


def _describe(error) -> str:
    rule, expected, value = error.validator, error.validator_value, error.instance
    if "propertyNames" in error.schema_path:
        # the key itself broke the rule: name it when it looks like a field name
        allowed = error.schema.get("enum") if isinstance(error.schema, dict) else None
        where = f"; expected one of: {', '.join(map(_literal, allowed))}" if isinstance(allowed, list) else ""
        return f"unknown key: {_field(value)}{where}"
    if rule == "additionalProperties" and isinstance(value, dict):
        known = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        return "unknown field(s): " + _listing(sorted((k for k in value if k not in known), key=str))
    if rule == "required" and isinstance(value, dict):
        # jsonschema reports each missing field apart ("'actor' is a required property")
        missing = [k for k in expected if k not in value] if isinstance(expected, list) else []
        named = [k for k in missing if error.message.startswith(repr(k))][:1] or missing
        return "missing required field: " + _listing(named)
    if rule == "type":
        names = [expected] if isinstance(expected, str) else list(expected)
        wanted = " or ".join(_JSON_TYPES.get(n, n) for n in names)
        # "valid_time": null and the like: say how to mean "none" instead
        hint = " (to give none, leave the field out)" if value is None and "object" in names else ""
        return f"must be {wanted}, not {_json_type(value)}{hint}"
    if rule == "enum" and isinstance(expected, list) and len(expected) <= 20:
        return "must be one of: " + ", ".join(map(_literal, expected))
    if rule == "const":
        return f"must be {_literal(expected)}"
    if rule in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        words = {"minimum": "at least", "maximum": "at most",
                 "exclusiveMinimum": "more than", "exclusiveMaximum": "less than"}
        return f"must be {words[rule]} {expected}"
    if rule in ("minLength", "maxLength", "minItems", "maxItems"):
        unit = "character(s)" if rule.endswith("Length") else "item(s)"
        return f"must have {'at least' if rule.startswith('min') else 'at most'} {expected} {unit}"
    if rule == "pattern":
        return "must be " + _format(expected)
    if rule == "uniqueItems":
        return "must not repeat an item"
    if rule == "anyOf" and isinstance(expected, list):
        return "must be " + " or ".join(_form(branch) for branch in expected)
    return f"fails '{rule}'"


# the formats the schemas use (tools/gen_schemas.py), in words
_FORMATS = (("^\\d{4}-\\d{2}-\\d{2}T", "an ISO 8601 instant such as 2024-01-31T09:00:00Z"),
            ("^mem_", "a record id (mem_ and 24 hex digits)"),
            ("^[a-z0-9_]+(", "a memory key: lowercase words joined by dots, such as user.home_city"),
            ("^[0-9a-f]{64}$", "64 lowercase hex digits (a sha256)"))


def _format(pattern: object) -> str:
    for prefix, words in _FORMATS:
        if isinstance(pattern, str) and pattern.startswith(prefix):
            return words
    return "a string of the expected format"


def _form(branch: object) -> str:
    """One alternative of an anyOf, in words."""
    if not isinstance(branch, dict):
        return "another form"
    if "const" in branch:
        return _literal(branch["const"])
    if isinstance(branch.get("enum"), list) and len(branch["enum"]) <= 20:
        return "one of " + ", ".join(map(_literal, branch["enum"]))
    if "pattern" in branch:
        return _format(branch["pattern"])
    kind = branch.get("type")
    names = [kind] if isinstance(kind, str) else kind if isinstance(kind, list) else []
    return " or ".join(_JSON_TYPES.get(n, str(n)) for n in names) or "another form"


def problems(name: str, value: object, *, separator: str = "/") -> list[str]:
    """Every violation, asking jsonschema only when the compiled check does not accept the value."""
    accepts = fast_check(name)
    if accepts is not None and accepts(value):
        return []
    return violations(name, value, separator=separator)


def violations(name: str, value: object, *, separator: str = "/") -> list[str]:
    """Every violation as "key/path: what is wrong" (``separator`` joins the path's keys)."""
    found = sorted(validator(name).iter_errors(value), key=lambda e: list(map(str, e.absolute_path)))
    # jsonschema reports each missing required field apart; the message names them all at once
    return list(dict.fromkeys(f"{_where(e, separator)}: {_describe(e)}" for e in found))


def check(name: str, value: object, *, code: str = "schema_violation", what: str | None = None) -> None:
    accepts = fast_check(name)
    if accepts is not None and accepts(value):
        return
    problems = violations(name, value)
    if problems:
        raise InputError(f"{what or name} fails its schema ({len(problems)} problem(s)): "
                         + "; ".join(problems[:10]), code=code, details=problems)


# -- the compiled subset ---------------------------------------------------------------
# Keywords: type, const, enum (strings and null only), pattern, minLength, maxLength,
# properties, required, additionalProperties, items, anyOf, minimum, maximum, minItems,
# maxItems, uniqueItems (of strings), propertyNames; annotations are ignored; any
# other keyword makes ``compile_schema`` return None (always ask jsonschema). As in JSON
# Schema, a keyword constrains only values of the type it is about.

Predicate = Callable[[object], bool]

_ANNOTATIONS = frozenset({"$schema", "$id", "title", "description", "$comment", "default", "examples"})
# bool is excluded from integer and number on purpose (JSON Schema keeps them apart)
_TYPES: dict[str, Callable[[object], bool]] = {
    "string": lambda v: isinstance(v, str), "null": lambda v: v is None,
    "object": lambda v: isinstance(v, dict), "array": lambda v: isinstance(v, list),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
}


class _Unsupported(Exception):
    pass


def compile_schema(schema: dict) -> Predicate | None:
    """``accepts(value)``: True only when jsonschema would find no violation."""
    try:
        return _compile(schema)
    except _Unsupported:
        return None


def _compile(schema: object) -> Predicate:
    if not isinstance(schema, dict) or set(schema) - _ANNOTATIONS - set(_KEYWORDS):
        raise _Unsupported
    fused = _fused(schema, set(schema) - _ANNOTATIONS)
    if fused is not None:
        return fused
    checks = [_KEYWORDS[key](schema[key], schema) for key in schema if key in _KEYWORDS]
    return _every([check for check in checks if check is not None])


def _every(checks: list[Predicate]) -> Predicate:
    if len(checks) == 1:
        return checks[0]

    def check(value) -> bool:
        for each in checks:
            if not each(value):
                return False
        return True
    return check


# -- fused shapes --------------------------------------------------------------------------
# The common nodes of the schemas in use (an object of known properties, an array of items, a
# string with its bounds) as one function each, instead of a closure per keyword joined by
# ``all`` over a generator: admitting an envelope walks ~40 nodes. Same rules as the keyword
# checks below; a type test is ``type(v) is dict`` where those say ``isinstance`` (stricter:
# a subclass, which JSON never yields, is left to jsonschema, so the predicate stays sound).

_OBJECT_KEYS = frozenset({"type", "properties", "required", "additionalProperties"})
_STRING_KEYS = frozenset({"type", "enum", "const", "minLength", "maxLength", "pattern"})


def _fused(schema: dict, keys: set) -> Predicate | None:
    kind = schema.get("type")
    if kind == "object" and keys <= _OBJECT_KEYS:
        return _object_shape(schema)
    if kind == "array" and keys <= {"type", "items"}:
        each = _compile(schema["items"]) if "items" in schema else None
        return lambda value: type(value) is list and (each is None or all(map(each, value)))
    names = [kind] if isinstance(kind, str) else kind
    if isinstance(names, list) and "string" in names and set(names) <= {"string", "null"} and keys <= _STRING_KEYS:
        return _string_shape(schema, "null" in names)
    return None


def _object_shape(schema: dict) -> Predicate:
    properties = {name: _compile(sub) for name, sub in schema.get("properties", {}).items()}
    required = frozenset(schema.get("required", ()))
    additional = schema.get("additionalProperties", True)
    extra = None if additional is True else False if additional is False else _compile(additional)

    def check(value) -> bool:
        if type(value) is not dict or not required <= value.keys():
            return False
        for name, item in value.items():
            sub = properties.get(name)
            if sub is None:
                if extra is False or (extra is not None and not extra(item)):
                    return False
            elif not sub(item):
                return False
        return True
    return check


def _string_shape(schema: dict, or_null: bool) -> Predicate:
    allowed = None
    if "enum" in schema:
        allowed = _literals(schema["enum"])
    if "const" in schema:
        allowed = _literals([schema["const"]]) & (allowed if allowed is not None else {schema["const"]})
    shortest, longest = schema.get("minLength", 0), schema.get("maxLength")
    regex = re.compile(schema["pattern"]) if "pattern" in schema else None
    null_ok = or_null and (allowed is None or None in allowed)

    def check(value) -> bool:
        if type(value) is not str:
            return null_ok and value is None
        size = len(value)
        return (size >= shortest and (longest is None or size <= longest)
                and (allowed is None or value in allowed)
                and (regex is None or regex.search(value) is not None))
    return check


def _type(spec, _schema) -> Predicate:
    names = [spec] if isinstance(spec, str) else spec
    if not isinstance(names, list) or any(name not in _TYPES for name in names):
        raise _Unsupported
    tests = [_TYPES[name] for name in names]
    return lambda value: any(test(value) for test in tests)


def _literals(values: list) -> frozenset:
    # strings and null compare unambiguously; 1 == True and 1 == 1.0 would not
    if not all(isinstance(v, str) or v is None for v in values):
        raise _Unsupported
    return frozenset(values)


def _const(spec, _schema) -> Predicate:
    allowed = _literals([spec])
    return lambda value: (isinstance(value, str) or value is None) and value in allowed


def _enum(spec, _schema) -> Predicate:
    allowed = _literals(spec)
    return lambda value: (isinstance(value, str) or value is None) and value in allowed


def _pattern(spec, _schema) -> Predicate:
    regex = re.compile(spec)  # jsonschema matches with re.search: anywhere, unless anchored
    return lambda value: not isinstance(value, str) or regex.search(value) is not None


def _min_length(spec, _schema) -> Predicate:
    return lambda value: not isinstance(value, str) or len(value) >= spec


def _max_length(spec, _schema) -> Predicate:
    return lambda value: not isinstance(value, str) or len(value) <= spec


def _properties(spec, _schema) -> Predicate:
    compiled = {name: _compile(sub) for name, sub in spec.items()}

    def check(value) -> bool:
        if not isinstance(value, dict):
            return True
        return all(compiled[name](item) for name, item in value.items() if name in compiled)
    return check


def _required(spec, _schema) -> Predicate:
    return lambda value: not isinstance(value, dict) or all(name in value for name in spec)


def _additional(spec, schema) -> Predicate:
    known = frozenset(schema.get("properties", {}))
    if spec is True:
        return None
    extra = (lambda item: False) if spec is False else _compile(spec)

    def check(value) -> bool:
        if not isinstance(value, dict):
            return True
        return all(extra(item) for name, item in value.items() if name not in known)
    return check


def _items(spec, _schema) -> Predicate:
    each = _compile(spec)
    return lambda value: not isinstance(value, list) or all(each(item) for item in value)


def _any_of(spec, _schema) -> Predicate:
    options = [_compile(sub) for sub in spec]

    def check(value) -> bool:
        for option in options:
            if option(value):
                return True
        return False
    return check


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _minimum(spec, _schema) -> Predicate:
    return lambda value: not _is_number(value) or value >= spec


def _maximum(spec, _schema) -> Predicate:
    return lambda value: not _is_number(value) or value <= spec


def _min_items(spec, _schema) -> Predicate:
    return lambda value: not isinstance(value, list) or len(value) >= spec


def _max_items(spec, _schema) -> Predicate:
    return lambda value: not isinstance(value, list) or len(value) <= spec


def _unique_items(spec, _schema) -> Predicate:
    if spec is not True:
        return None

    def check(value) -> bool:
        if not isinstance(value, list):
            return True
        # strings compare unambiguously; anything else is left to jsonschema (False = ask it)
        return all(isinstance(v, str) for v in value) and len(set(value)) == len(value)
    return check


def _property_names(spec, _schema) -> Predicate:
    each = _compile(spec)
    return lambda value: not isinstance(value, dict) or all(each(name) for name in value)


_KEYWORDS = {"type": _type, "const": _const, "enum": _enum, "pattern": _pattern,
             "minLength": _min_length, "maxLength": _max_length, "properties": _properties,
             "required": _required, "additionalProperties": _additional, "items": _items,
             "anyOf": _any_of, "minimum": _minimum, "maximum": _maximum, "minItems": _min_items,
             "maxItems": _max_items, "uniqueItems": _unique_items, "propertyNames": _property_names}
