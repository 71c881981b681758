"""The study's tuning methods, one module each, registered in METHODS: NSGA-II (source 000), the
cross-entropy method (source 003), CMA-ES, random search (the control every tuner must beat) and
TD learning of an n-tuple network (source 004's next step). A method owns its settings, how it
runs, what its result file and history hold, which weights it offers and how tables and figures
name it (`base.Method`); the rest of the study asks it. Adding a method is a module with a
`Method` subclass and its entry here.

Each method's settings, declared once (its `settings_class`: for a weight tuner the tuner's
config class in g2048/tuning and the study's own settings, for td TDConfig), reach the config's
schema from here (`add_to_schema`): a weight tuner's keys join the properties of a `tune.runs`
entry (the config check refuses another method's keys and requires its required ones; their
defaults apply when the run runs), a method with its own section (td) becomes `tune.<name>`
(defaults filled in by the schema)."""

from __future__ import annotations

from g2048.study.methods import cem, cmaes, nsga2, randomsearch, td
from g2048.study.methods.base import Method, Tuned, WeightMethod

__all__ = [
    "METHODS",
    "Method",
    "Tuned",
    "WeightMethod",
    "add_to_schema",
    "get_method",
    "run_methods",
    "section_methods",
]

METHODS: dict[str, Method] = {
    m.name: m for m in (nsga2.METHOD, cem.METHOD, cmaes.METHOD, randomsearch.METHOD, td.METHOD)
}


def get_method(name: object) -> Method:
    """The method called `name`; ValueError listing the known ones otherwise."""
    try:
        return METHODS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown method {name!r}; known: {', '.join(METHODS)}") from None


def run_methods() -> list[Method]:
    """The methods configured as entries of `tune.runs`, in registry order."""
    return [m for m in METHODS.values() if not m.own_section]


def section_methods() -> list[Method]:
    """The methods configured as a section `tune.<name>` of their own (one run each)."""
    return [m for m in METHODS.values() if m.own_section]


def _default_text(spec: dict, required: bool) -> str:
    if required:
        return "required"
    return f"default {spec['default']!r}" if "default" in spec else "default none"


def run_keys() -> dict[str, dict]:
    """The schema of every method-specific key of a `tune.runs` entry: each key's value schema
    (the same in every method that takes it), described with the methods that take it."""
    merged: dict[str, dict] = {}
    for m in run_methods():
        schema = m.schema()
        for name, spec in schema["properties"].items():
            value = {k: v for k, v in spec.items() if k not in ("description", "default")}
            entry = merged.setdefault(name, {"value": value, "takes": {}})
            if entry["value"] != value:
                raise ValueError(f"methods give key {name!r} different schemas")
            takes = entry["takes"].setdefault(spec["description"], [])
            takes.append(f"{m.name} ({_default_text(spec, name in schema['required'])})")
    return {
        name: entry["value"]
        | {
            "description": "; ".join(
                f"{', '.join(methods)}: {text}" for text, methods in entry["takes"].items()
            )
            + "."
        }
        for name, entry in merged.items()
    }


def add_to_schema(schema: dict) -> dict:
    """The study's schema (as g2048/study/schema.yaml holds it) with every method's part: the
    `method` values and method keys of a tuning run, and each section method's section."""
    run = schema["$defs"]["tuning_run"]["properties"]
    run["method"]["enum"] = [m.name for m in run_methods()]
    run["method"]["description"] += " " + ", ".join(
        f"{m.name} ({m.description})" for m in run_methods()
    )
    run |= run_keys()
    tune = schema["properties"]["tune"]
    for m in section_methods():
        tune["properties"][m.name] = m.schema()
        tune["required"].append(m.name)
    return schema
