"""Settings defined once: a dataclass field made by `setting` carries its default and its JSON
schema (description, type, bounds, enum, or alternatives such as depth's word "auto"), from
which `object_schema` writes the schema of the dataclass as a mapping (draft 2020-12, for the
study's config) and `check_settings` checks an instance, so the config and the package accept
the same values.

`check_settings` knows the part of JSON Schema that settings use: type (integer, number,
boolean, string, array), enum, const, minimum, exclusiveMinimum, maximum, exclusiveMaximum,
oneOf, and an array's items and maxItems. Python's types are stricter than JSON Schema's in one
way: an integer setting takes an int (or a numpy integer), never a float such as 3.0 or a bool.
An array setting holds a tuple (a dataclass default cannot be a list); its schema's default is
the list.

A setting's key, in a config and as a CLI flag, is its field's name, but for a Python keyword
(`lambda`), whose field takes PEP 8's trailing underscore (`lambda_`): `setting_key`.
"""

from __future__ import annotations

import copy
import dataclasses
import numbers
from collections.abc import Mapping
from typing import Any

_SCHEMA = "schema"  # the metadata key of a setting's schema
_LABEL = "label"  # the metadata key of the word that names a setting in messages


def setting(
    default: object = dataclasses.MISSING,
    *,
    description: str,
    label: str | None = None,
    **schema: object,
) -> Any:  # noqa: ANN401 (a dataclass field, typed as its value for the checkers)
    """A dataclass field with its schema: `description` and the constraints in `schema`
    (JSON Schema keywords), and `default` unless the setting is required. `label`: the word
    that names the setting in error messages (default: its name)."""
    spec = {"description": description, **schema}
    if default is not dataclasses.MISSING:
        spec["default"] = list(default) if isinstance(default, tuple) else default
    return dataclasses.field(default=default, metadata={_SCHEMA: spec, _LABEL: label})


class SettingError(ValueError):
    """A value a setting refuses, or settings that do not go together: `key` names the
    setting to blame (as `setting_key` gives it)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


def settings_of(cls: type) -> list[dataclasses.Field]:
    """The fields of dataclass `cls` that `setting` made, in order."""
    return [f for f in dataclasses.fields(cls) if _SCHEMA in f.metadata]


def setting_key(field: dataclasses.Field) -> str:
    """The setting's key in a config mapping and its CLI flag's word: the field's name, without
    the trailing underscore of a field named after a Python keyword (`lambda_`: lambda)."""
    return field.name.removesuffix("_")


def from_settings(cls: type, settings: Mapping[str, object]) -> Any:  # noqa: ANN401
    """An instance of dataclass `cls` from a mapping of its settings' keys (as a config holds
    them); settings left out take their defaults."""
    fields = {setting_key(f): f.name for f in settings_of(cls)}
    unknown = [k for k in settings if k not in fields]
    if unknown:
        raise SettingError(unknown[0], f"unknown setting {unknown[0]!r}")
    return cls(**{fields[k]: v for k, v in settings.items()})


def settings_mapping(instance: object) -> dict[str, object]:
    """An instance's settings by key, arrays as lists (a config mapping's values)."""
    out = {}
    for field in settings_of(type(instance)):
        value = getattr(instance, field.name)
        out[setting_key(field)] = list(value) if isinstance(value, tuple) else value
    return out


def setting_schema(field: dataclasses.Field) -> dict:
    """The JSON schema of one setting (a copy)."""
    return copy.deepcopy(field.metadata[_SCHEMA])


def object_schema(cls: type, description: str) -> dict:
    """The JSON schema of a mapping of `cls`'s settings: its required settings (those without
    a default) and no other keys."""
    fields = settings_of(cls)
    return {
        "description": description,
        "type": "object",
        "additionalProperties": False,
        "required": [setting_key(f) for f in fields if f.default is dataclasses.MISSING],
        "properties": {setting_key(f): setting_schema(f) for f in fields},
    }


def check_settings(instance: object) -> None:
    """SettingError naming the first setting of `instance` whose value its schema refuses."""
    for field in settings_of(type(instance)):
        value = getattr(instance, field.name)
        wanted = _requirement(value, field.metadata[_SCHEMA])
        if wanted is not None:
            shown = repr(value) if isinstance(value, str) else value
            shown = list(value) if isinstance(value, tuple) else shown
            key = setting_key(field)
            raise SettingError(
                key, f"{field.metadata[_LABEL] or key} must be {wanted}, got {shown}"
            )


def _requirement(value: object, schema: dict) -> str | None:
    """None when `value` satisfies `schema`, else what it must be ("in 0..26")."""
    if "oneOf" in schema:
        wanted = [_requirement(value, alternative) for alternative in schema["oneOf"]]
        return None if None in wanted else " or ".join(w for w in wanted if w)
    if "const" in schema:
        return None if _equal(value, schema["const"]) else repr(schema["const"])
    if "enum" in schema:
        enum = schema["enum"]
        ok = any(_equal(value, e) for e in enum)
        return None if ok else f"one of {', '.join(map(str, enum))}"
    kind = schema.get("type")
    if kind is not None and not _is_type(value, kind):
        return _TYPE_WORDS[kind]
    if kind == "array":
        return _items(value, schema)
    return _bounds(value, schema)


def _items(value: list | tuple, schema: dict) -> str | None:
    """None when the items of array `value` satisfy `schema`, else what the array must be."""
    most = schema.get("maxItems")
    if most is not None and len(value) > most:
        return f"a list of at most {most} items"
    for item in value:
        wanted = _requirement(item, schema.get("items", {}))
        if wanted is not None:
            return f"a list of items each {wanted}"
    return None


_TYPE_WORDS = {
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "string": "a string",
    "array": "a list",
}


def _equal(value: object, const: object) -> bool:
    """JSON equality: as Python's, but true and 1 differ."""
    return isinstance(value, bool) == isinstance(const, bool) and bool(value == const)


def _is_type(value: object, kind: str) -> bool:
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "string":
        return isinstance(value, str)
    if kind == "array":
        return isinstance(value, list | tuple)
    if isinstance(value, bool):
        return False
    return isinstance(value, numbers.Integral if kind == "integer" else numbers.Real)


def _bounds(value: object, schema: dict) -> str | None:
    """None when `value` is within the schema's bounds, else the range it must lie in."""
    low, high = schema.get("minimum"), schema.get("maximum")
    low_open, high_open = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    inside = (
        (low is None or value >= low)
        and (high is None or value <= high)
        and (low_open is None or value > low_open)
        and (high_open is None or value < high_open)
    )
    if inside:
        return None
    lower = low if low is not None else low_open
    upper = high if high is not None else high_open
    if lower is None:
        return f"{'<=' if high is not None else '<'} {upper}"
    if upper is None:
        return f"{'>=' if low is not None else '>'} {lower}"
    if schema.get("type") == "integer" and low is not None and high is not None:
        return f"in {lower}..{upper}"
    return f"in {'[' if low is not None else '('}{lower}, {upper}{']' if high is not None else ')'}"
