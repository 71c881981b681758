"""Settings defined once, for every family of them (an agent's, a tuner's, TD training's): a
dataclass field made by `setting` carries its default and its JSON schema (description, type,
bounds, enum, or alternatives such as depth's word "auto"), from which `object_schema` writes
the schema of the dataclass as a mapping (draft 2020-12, for the study's config) and
`check_settings` checks an instance, so the config and the package accept the same values;
`add_flags` writes a command's flags from the same fields, and `from_settings` /
`settings_mapping` map an instance from and to a config's mapping. Standard library only: every
layer of the package may import it.

`check_settings` knows the part of JSON Schema that settings use: type (integer, number,
boolean, string, array), enum, const, minimum, exclusiveMinimum, maximum, exclusiveMaximum,
multipleOf, oneOf, and an array's items, minItems and maxItems. A setting whose default is None
is optional: None stands for its absence from a config (its schema has no default). Python's
types are stricter than JSON Schema's in one way: an integer setting takes an int (or a numpy
integer), never a float such as 3.0 or a bool. An array setting holds a tuple (a dataclass
default cannot be a list); its schema's default is the list.

A setting's key, in a config and as a CLI flag, is its field's name, but for a Python keyword
(`lambda`), whose field takes PEP 8's trailing underscore (`lambda_`): `setting_key`.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import numbers
from collections.abc import Mapping
from typing import Any

_SCHEMA = "schema"  # the metadata key of a setting's schema
_LABEL = "label"  # the metadata key of the word that names a setting in messages
_KEYED = "keyed"  # the metadata key of whether a setting changes the result (a checkpoint's key)


def setting(
    default: object = dataclasses.MISSING,
    *,
    description: str,
    label: str | None = None,
    keyed: bool = True,
    **schema: object,
) -> Any:  # noqa: ANN401 (a dataclass field, typed as its value for the checkers)
    """A dataclass field with its schema: `description` and the constraints in `schema`
    (JSON Schema keywords), and `default` unless the setting is required. `label`: the word
    that names the setting in error messages (default: its name). `keyed` False declares
    that the setting does not change what a run computes (how often it saves, how far it
    goes), so that `keyed_settings` leaves it out of a checkpoint's key."""
    spec = {"description": description, **schema}
    if default is not dataclasses.MISSING and default is not None:
        spec["default"] = list(default) if isinstance(default, tuple) else default
    metadata = {_SCHEMA: spec, _LABEL: label, _KEYED: keyed}
    return dataclasses.field(default=default, metadata=metadata)


def with_default(cls: type, name: str, default: object = dataclasses.MISSING) -> Any:  # noqa: ANN401
    """The setting `name` of dataclass `cls` declared again with another `default` (none: the
    setting becomes required), for a subclass whose users need another default: its
    description and bounds stay those of `cls`."""
    field = next(f for f in settings_of(cls) if f.name == name)
    schema = {k: v for k, v in field.metadata[_SCHEMA].items() if k != "default"}
    label, keyed = field.metadata[_LABEL], field.metadata[_KEYED]
    return setting(default, label=label, keyed=keyed, **schema)


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


def keyed_settings(instance: object) -> dict[str, object]:
    """`settings_mapping` of the settings that change the result: all but those declared
    `keyed=False` (what ties a checkpoint to the run it may resume)."""
    keyed = {setting_key(f) for f in settings_of(type(instance)) if f.metadata[_KEYED]}
    return {k: v for k, v in settings_mapping(instance).items() if k in keyed}


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


_FLAG_TYPES = {"integer": int, "number": float}


def add_flags(
    parser: argparse.ArgumentParser,
    cls: type,
    *,
    omit: tuple[str, ...] = (),
    given_only: bool = False,
    supplied: tuple[str, ...] = (),
    types: Mapping[str, Any] | None = None,
) -> None:
    """One flag per setting of dataclass `cls` but those `omit`ted (--key, dashed; its value
    under the setting's key), written from its schema: a boolean one is a switch, an array
    takes several values, an enum its choices, `types` a parser of a setting's own (by key).
    A flag left out gives the setting's default, or with `given_only` nothing (the command
    fills in the rest). A setting without a default needs its flag, unless other options can
    supply it (`supplied`: the command checks it)."""
    for field in settings_of(cls):
        key = setting_key(field)
        if key in omit:
            continue
        spec = field.metadata[_SCHEMA]
        kind = spec.get("type")
        options: dict[str, Any] = {
            "dest": key,
            "help": spec["description"].replace("%", "%%"),  # argparse formats help with %
            "default": argparse.SUPPRESS if given_only else field.default,
        }
        if field.default is dataclasses.MISSING:
            options["required"] = key not in supplied
        elif kind != "boolean" and spec["default"] != "":
            options["help"] += f" (default {spec['default']})"
        if kind == "boolean":
            options["action"] = "store_true"
        elif kind == "array":
            options |= {"type": _FLAG_TYPES[spec["items"]["type"]], "nargs": "*"}
        else:
            parse = (types or {}).get(key, _FLAG_TYPES.get(kind, str))
            options |= {"type": parse, "choices": spec.get("enum")}
        parser.add_argument("--" + key.replace("_", "-"), **options)


def check_settings(instance: object) -> None:
    """SettingError naming the first setting of `instance` whose value its schema refuses."""
    for field in settings_of(type(instance)):
        value = getattr(instance, field.name)
        if value is None and field.default is None:
            continue  # an optional setting left out
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
    least, most = schema.get("minItems"), schema.get("maxItems")
    if least is not None and least == most and len(value) != most:
        return f"a list of {most} items"
    if least is not None and len(value) < least:
        return f"a list of at least {least} items"
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
    step = schema.get("multipleOf")
    if inside and (step is None or value % step == 0):
        return None
    if step is not None:
        within = _bounds(value, {**schema, "multipleOf": None})
        return f"a multiple of {step}" + (f" {within}" if within else "")
    lower = low if low is not None else low_open
    upper = high if high is not None else high_open
    if lower is None:
        return f"{'<=' if high is not None else '<'} {upper}"
    if upper is None:
        return f"{'>=' if low is not None else '>'} {lower}"
    if schema.get("type") == "integer" and low is not None and high is not None:
        return f"in {lower}..{upper}"
    return f"in {'[' if low is not None else '('}{lower}, {upper}{']' if high is not None else ')'}"
