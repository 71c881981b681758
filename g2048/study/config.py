"""A study's configuration: validation against the package's schema with messages that name the
key, and the lists of jobs and weight sets that the Snakemake rules are made of."""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from g2048.agents import EXPECTIMAX, AgentConfig, agent_schema
from g2048.evaluators import check_bounded, check_downgrade, check_rules, check_weights
from g2048.settings import SettingError, setting_schema, settings_of
from g2048.study.methods import (
    Method,
    add_to_schema,
    get_method,
    run_methods,
    section_methods,
)
from g2048.study.naming import (
    NETWORK_EVALUATOR,
    RUN_NAME,
    TRANSFER_PREFIX,
    WEIGHT_SPEC,
    candidate_name,
    parse_candidate,
    parse_weights,
    transfer_name,
)
from g2048.study.weights import weights_problem

# Shipped with the package; config/schema.yaml links here for readers of the config folder.
SCHEMA = Path(__file__).resolve().parent / "schema.yaml"
# What a study config may be, checked before the schema is: the shipped ones are about 10 KB,
# 1 000 values and 5 levels deep. A YAML file can be small and still expand, through its
# aliases, into billions of values (an "alias bomb"): the values are counted as they expand.
MAX_CONFIG_BYTES = 1 << 20
MAX_CONFIG_VALUES = 100_000
MAX_CONFIG_DEPTH = 32
# Snakemake reads a config file with YTE: when its top level sets this key, the file's values
# are Python templates that Snakemake evaluates (runs) as it reads the file.
TEMPLATE_KEY = "__use_yte__"


class ConfigError(ValueError):
    """An invalid study configuration; the message names the offending key."""


def _key(path: Iterator[Any]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


# What a number of the schema that is NaN or infinite is told (YAML reads .nan and .inf as
# floats, which JSON Schema's `number` takes, and NaN passes every bound).
NOT_FINITE = "is not a finite number (NaN and infinity are refused)"


def _finite_type(validator, types, instance, schema):  # noqa: ANN001, ANN202
    """JSON Schema's `type`, with NaN and infinity no numbers (nor integers)."""
    numeric = {"number", "integer"} & set([types] if isinstance(types, str) else types)
    if numeric and isinstance(instance, float) and not math.isfinite(instance):
        yield jsonschema.ValidationError(f"{instance} {NOT_FINITE}")
    else:
        yield from _TYPE(validator, types, instance, schema)


_TYPE = jsonschema.Draft202012Validator.VALIDATORS["type"]
# The validator of every config value and of the CLI options that are config keys.
_VALIDATOR = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"type": _finite_type})


def _with_defaults(validator_class: type) -> type:
    """A validator that also fills in each property's schema default (jsonschema's recipe)."""
    validate_properties = validator_class.VALIDATORS["properties"]

    def set_defaults(validator, properties, instance, schema):  # noqa: ANN001, ANN202
        if isinstance(instance, dict):
            for name, sub in properties.items():
                if isinstance(sub, dict) and "default" in sub:
                    instance.setdefault(name, sub["default"])
        yield from validate_properties(validator, properties, instance, schema)

    return jsonschema.validators.extend(validator_class, {"properties": set_defaults})


def _errors(validator: jsonschema.protocols.Validator, value: object) -> list:
    """The errors of `value`, a non-finite number's one alone (not also its bounds')."""
    errors = [_reported(e) for e in validator.iter_errors(value)]
    return [
        e
        for e in errors
        if e.message.endswith(NOT_FINITE)
        or not (isinstance(e.instance, float) and not math.isfinite(e.instance))
    ]


def _reported(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """The error to report: a non-finite number's own, where one alternative of a oneOf or
    anyOf refused it (rather than that no alternative took the value)."""
    for sub in error.context or ():
        if sub.message.endswith(NOT_FINITE):
            return sub
        if sub.context:
            deeper = _reported(sub)
            if deeper is not sub:
                return deeper
    return error


# The deepest fixed search the study plays (validate.depth, validate.transfer_depths) and
# `profile` times: a stated range narrower than AgentConfig's depth (1..MAX_PLIES plies, which
# a budget's deepening reaches), since a fixed search without a budget takes seconds a move
# beyond it.
MAX_FIXED_DEPTH = 9


def fixed_depth_schema() -> dict:
    """The schema of a fixed search depth in plies: AgentConfig's depth (its integer
    alternative, not "auto") up to MAX_FIXED_DEPTH."""
    depth = next(f for f in settings_of(AgentConfig) if f.name == "depth")
    plies = next(a for a in setting_schema(depth)["oneOf"] if a.get("type") == "integer")
    return plies | {"maximum": min(plies["maximum"], MAX_FIXED_DEPTH)}


def load_schema(path: Path = SCHEMA) -> dict:
    """The study's JSON schema: schema.yaml, with the parts that the package defines once
    added (each method's keys, the patterns of run names and weight specs)."""
    schema = yaml.safe_load(Path(path).read_text())
    defs = schema["$defs"]
    defs["agent"] = agent_schema()  # from AgentConfig's settings
    defs["fixed_depth"] = fixed_depth_schema()  # and its depth's range for the study's searches
    defs["weights"]["oneOf"][1]["pattern"] = f"^{WEIGHT_SPEC}$"
    reserved = "|".join(m.name for m in section_methods())
    defs["tuning_run"]["properties"]["name"]["pattern"] = f"^(?!(?:{reserved})$){RUN_NAME}$"
    return add_to_schema(schema)


def _count_values(value: object, depth: int, seen: dict[int, int]) -> int:
    """The number of values of a parsed YAML document once its aliases are expanded (an alias
    is a shared object: it is counted once per use, but walked once); ConfigError beyond
    MAX_CONFIG_DEPTH levels (which a recursive alias reaches too)."""
    if not isinstance(value, dict | list):
        return 1
    if depth >= MAX_CONFIG_DEPTH:
        raise ConfigError(
            f"invalid configuration: nested deeper than {MAX_CONFIG_DEPTH} levels (a study "
            "config has 5; a recursive YAML alias?)"
        )
    if id(value) not in seen:
        children = [*value.keys(), *value.values()] if isinstance(value, dict) else value
        seen[id(value)] = 1 + sum(_count_values(v, depth + 1, seen) for v in children)
    return seen[id(value)]


def check_plain(config: object) -> None:
    """ConfigError unless `config` is plain data of a study config's size: no Snakemake
    template key, at most MAX_CONFIG_VALUES values with its aliases expanded, at most
    MAX_CONFIG_DEPTH levels deep. Cheap whatever the aliases would expand to."""
    if isinstance(config, dict) and TEMPLATE_KEY in config:
        raise ConfigError(
            f"invalid configuration:\n  config key {TEMPLATE_KEY}: turns the file's values into "
            "Python templates that Snakemake runs as it reads the file; a study config is plain "
            "data (remove the key)"
        )
    count = _count_values(config, 0, {})
    if count > MAX_CONFIG_VALUES:
        raise ConfigError(
            f"invalid configuration: {count:,} values once its YAML aliases are expanded, more "
            f"than the {MAX_CONFIG_VALUES:,} a study config may hold (a shipped one has about "
            "1 000): an alias bomb?"
        )


def validate_config(config: dict, schema: dict | None = None) -> dict:
    """Check a study configuration (in place, filling defaults); ConfigError names the key."""
    check_plain(config)
    schema = load_schema() if schema is None else schema
    validator = _with_defaults(_VALIDATOR)(schema)
    errors = sorted(_errors(validator, config), key=lambda e: list(e.absolute_path))
    if errors:
        lines = [f"config key {_key(e.absolute_path)}: {e.message}" for e in errors]
        raise ConfigError("invalid configuration:\n  " + "\n  ".join(lines))
    _check_semantics(config)
    return config


def value_problem(schema: dict, value: object) -> str | None:
    """What check-config says of `value` as a config key of `schema` (e.g. "2.0 is greater
    than the maximum of 1"), or None when the schema takes it: for the CLI's options that are
    config keys too, so both refuse a value in the same words."""
    error = jsonschema.exceptions.best_match(_errors(_VALIDATOR(schema), value))
    return None if error is None else error.message


class _UniqueKeys(yaml.SafeLoader):
    """yaml.SafeLoader that refuses a mapping holding a key twice (YAML forbids it; PyYAML and
    Snakemake keep the last silently), naming both lines."""

    def construct_mapping(self, node: yaml.Node, deep: bool = False) -> dict:
        if isinstance(node, yaml.MappingNode):
            seen: dict[tuple[str, str], int] = {}
            for key, _ in node.value:  # its own keys: a merge (<<) may be overridden
                if not isinstance(key, yaml.ScalarNode) or key.tag.endswith(":merge"):
                    continue
                line = key.start_mark.line + 1
                first = seen.setdefault((key.tag, key.value), line)
                if first != line:
                    raise yaml.constructor.ConstructorError(
                        problem=f"duplicate key {key.value!r} (lines {first} and {line}): YAML "
                        "keeps only the last; give it once",
                        problem_mark=key.start_mark,
                    )
        return super().construct_mapping(node, deep)


def _line(root: yaml.Node | None, key: str) -> int | None:
    """The line of the config key `key` (e.g. tune.runs[0].games) in a composed YAML file:
    that of the deepest part of it the file holds (None: not even the first)."""
    node, line = root, None
    for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", key):
        if isinstance(node, yaml.MappingNode) and name:
            found = [(k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode)]
            found = [(k, v) for k, v in found if k.value == name]
            if not found:
                break
            node, line = found[-1][1], found[-1][0].start_mark.line + 1
        elif isinstance(node, yaml.SequenceNode) and index and int(index) < len(node.value):
            node = node.value[int(index)]
            line = node.start_mark.line + 1
        else:
            break
    return line


def _with_lines(message: str, text: str) -> str:
    """A ConfigError's message with each `config key K:` followed by K's line in the file
    whose YAML is `text`, where the file holds it."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError):
        return message

    def add(match: re.Match) -> str:
        line = _line(root, match[1])
        return match[0] if line is None else f"config key {match[1]} (line {line}):"

    return re.sub(r"config key ([^\s:]+):", add, message)


def read_yaml(path: str | Path, plain: bool = True) -> object:
    """A config file's YAML, parsed safely (no tags that build objects) and within bounds:
    at most MAX_CONFIG_BYTES, then (`plain`) `check_plain`. ConfigError names the file and,
    for a YAML syntax error, its line and column (Snakemake's own message names neither)."""
    try:
        size = Path(path).stat().st_size
        if size > MAX_CONFIG_BYTES:
            raise ConfigError(
                f"{path}: {size:,} bytes, more than the {MAX_CONFIG_BYTES:,} a study config may "
                "have (a shipped one has about 10 000)"
            )
        config = yaml.load(Path(path).read_text(), Loader=_UniqueKeys)  # noqa: S506 (safe)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except RecursionError:
        raise ConfigError(f"{path}: not valid YAML: nested too deeply") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        problem = getattr(exc, "problem", None) or str(exc)
        raise ConfigError(f"{where}: not valid YAML: {problem}") from None
    try:
        if plain:
            check_plain(config)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    return config


def load_config(path: str | Path) -> dict:
    """Read and validate a study's YAML file (`read_yaml`, then `validate_config`);
    ConfigError names the file."""
    config = read_yaml(path)
    if not isinstance(config, dict):
        raise ConfigError(f"{path}: a study config is a YAML mapping of keys")
    try:
        return validate_config(config)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {_with_lines(str(exc), Path(path).read_text())}") from None


def refuse_templates(paths: list[str | Path]) -> None:
    """ConfigError naming the first of the config files `paths` (those that exist) whose top
    level sets Snakemake's TEMPLATE_KEY, for the workflow's first lines: Snakemake has already
    evaluated the templates of the files given by --configfile when the Snakefile starts (and
    removed the key from `config`), but not those of its own `configfile:`, which is read
    after this check."""
    for path in paths:
        if not Path(path).is_file():
            continue
        data = read_yaml(path, plain=False)
        if isinstance(data, dict) and TEMPLATE_KEY in data:
            raise ConfigError(
                f"{path}: sets {TEMPLATE_KEY}, which makes Snakemake evaluate the file's values "
                "as Python templates (Snakemake has run those of a --configfile before this "
                "check could); a study config is plain data: remove the key"
            )


def _shown(path: str | Path) -> str:
    """`path` as a message names it: relative to the working folder when under it (Snakemake
    hands the workflow its --configfile as an absolute path)."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def study_config(
    configfiles: list[str | Path], default: str | Path, overrides: dict | None = None
) -> tuple[str, dict]:
    """The workflow's config file and its contents checked as `check-config` checks them (same
    messages): the one --configfile given, else `default`, with Snakemake's --config
    `overrides` (as it parsed them) applied and checked by the same schema
    (`with_overrides`). A study is one file: a --configfile replaces the default instead of
    merging with it, and more than one is refused (Snakemake would merge them). For the
    Snakefile's first lines, before its `configfile:` reads (and would evaluate the templates
    of) the default."""
    if len(configfiles) > 1:
        names = ", ".join(_shown(p) for p in configfiles)
        raise ConfigError(
            f"{names}: a study is one config file, give one --configfile (Snakemake would "
            "merge them into a study that no file states)"
        )
    path = _shown(configfiles[0]) if configfiles else str(default)
    refuse_templates([path])
    checked = load_config(path)
    return path, (with_overrides(path, overrides) if overrides else checked)


def _merge(base: dict, new: dict) -> dict:
    """`base` updated in place by `new` as Snakemake's update_config updates a config with
    --config: a mapping into a mapping key by key, any other value replacing."""
    for key, value in new.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge(base[key], value)
        else:
            base[key] = copy.deepcopy(value)
    return base


def typed_overrides(overrides: object) -> object:
    """Snakemake's --config values as a config file gives them: Snakemake reads a top-level
    value as a number or boolean where it is one, but every value inside a mapping or list
    (`--config 'validate={games: 10}'`) as a string; each such string is read here as YAML
    reads a config file's value (10 a number, true a boolean, .nan a float that the schema
    refuses)."""
    if isinstance(overrides, dict):
        return {key: typed_overrides(value) for key, value in overrides.items()}
    if isinstance(overrides, list):
        return [typed_overrides(value) for value in overrides]
    if isinstance(overrides, str):
        try:
            return yaml.safe_load(overrides) if overrides.strip() else overrides
        except yaml.YAMLError:
            return overrides
    return overrides


def flat_overrides(overrides: dict, prefix: str = "") -> dict[str, object]:
    """--config overrides (`typed_overrides`) by dotted key, e.g. {"validate.games": 10}: how
    messages and provenance records name them."""
    flat: dict[str, object] = {}
    for key, value in overrides.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            flat |= flat_overrides(value, f"{name}.")
        else:
            flat[name] = value
    return flat


def with_overrides(path: str | Path, overrides: dict) -> dict:
    """The config file `path` with Snakemake's --config `overrides` (as it parsed them) applied
    as it applies them, their values typed (`typed_overrides`), checked by the same schema and
    rules as a file: ConfigError in one line naming the overridden keys and the fault."""
    typed = typed_overrides(overrides)
    config = _merge(read_yaml(path), typed)
    try:
        return validate_config(config)
    except ConfigError as exc:
        given = " ".join(f"{k}={json.dumps(v)}" for k, v in flat_overrides(typed).items())
        problems = str(exc).removeprefix("invalid configuration:").strip().split("\n")
        faults = "; ".join(line.strip() for line in problems)
        raise ConfigError(f"{path} with --config {given}: {faults}") from None


def _first_difference(a: object, b: object, path: tuple = ()) -> tuple | None:
    """The key path of the first value where `a` and `b` differ (None: they are equal)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for name in [*a, *(k for k in b if k not in a)]:
            if name not in a or name not in b:
                return (*path, name)
            if (found := _first_difference(a[name], b[name], (*path, name))) is not None:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if (found := _first_difference(x, y, (*path, i))) is not None:
                return found
        return None
    return None if a == b else path


def use_checked(config: dict, path: str, checked: dict, overrides: dict | None = None) -> None:
    """Make Snakemake's `config` the checked contents of its one file `path` with its --config
    `overrides` (study_config), defaults filled in; ConfigError naming the first key where the
    run's config is not the file's with those overrides (the study would not be what was
    checked)."""
    raw = _merge(read_yaml(path), overrides or {})
    key = _first_difference(config, raw)
    if key is not None:
        raise ConfigError(
            f"{path}: config key {_key(iter(key))} differs from the file and its --config "
            "overrides in this run: the study would not be the one checked"
        )
    config.clear()
    config.update(checked)


def _fail(key: str, message: str) -> None:
    raise ConfigError(f"invalid configuration:\n  config key {key}: {message}")


def _check_weights(key: str, evaluator: str, weights: object) -> None:
    try:
        check_weights(evaluator, weights)
    except ValueError as exc:
        _fail(key, str(exc))
    problem = weights_problem(evaluator, weights)
    if problem is not None:
        _fail(key, problem)


def _agent(key: str, spec: dict) -> AgentConfig:
    try:
        return AgentConfig(**spec)
    except ValueError as exc:
        _fail(key, str(exc))


def weight_runs(config: dict) -> list[str]:
    """Names of the config's runs that tune heuristic weights, in config order."""
    return [run["name"] for run in config["tune"]["runs"]]


def run_settings(config: dict, name: str) -> dict:
    """The settings of the tuning run called `name` (a `tune.runs` entry, or the section of a
    method with one of its own)."""
    for run in config["tune"]["runs"]:
        if run["name"] == name:
            return run
    if name in config["tune"] and name not in ("seeds", "runs", "progress"):
        return config["tune"][name]
    raise KeyError(name)


def train_threads(config: dict, name: str) -> int:
    """The threads of the training job of the network run `name`: the config's `threads` when
    it plays games in parallel (rounds of batch > 1, or lock-free), else 1 (serial training
    uses one core, so the job leaves the others to other jobs)."""
    settings = run_settings(config, name)
    parallel = settings["batch"] > 1 or settings["lock_free"]
    return config["threads"] if parallel else 1


def selection_rule(config: dict) -> dict:
    """The study's one selection rule (`methods.SelectionRule`'s fields, plain data: a
    Snakemake parameter): `tune.selection`'s candidates and games, and `tune.metric`."""
    return dict(config["tune"]["selection"]) | {"metric": config["tune"]["metric"]}


def run_record(config: dict, name: str) -> dict:
    """What every result file of the tuning run `name` must record, as the config says: its
    `run` name, `method`, the `evaluator` its weight sets are for, its `settings` (as the
    config check filled them in), the `study_seed`, the tuning `seeds`, for a weight run the
    `selection` rule its seeds' picks follow, and for a run that trains a network the
    `network` it names and its `stages` (plain data: a Snakemake parameter)."""
    settings = run_settings(config, name)
    method = get_method(settings.get("method", name))
    record = {
        "run": name,
        "method": method.name,
        "evaluator": method.evaluator(settings),
        "settings": settings,
        "study_seed": config["study_seed"],
        "seeds": list(config["tune"]["seeds"]),
    }
    if method.trains_network:
        record["network"] = settings["network"]
        record["stages"] = list(settings.get("stages", []))
    else:
        record["selection"] = selection_rule(config)
    return record


def run_method(config: dict, name: str) -> Method:
    """The method of the tuning run called `name`."""
    settings = run_settings(config, name)
    return get_method(settings.get("method", name))


def run_names(config: dict) -> list[str]:
    """Names of every tuning run: the weight runs, then each section method's (td)."""
    return [*weight_runs(config), *(m.name for m in section_methods())]


def tuned_evaluator(config: dict, run: str) -> str:
    """The evaluator whose weights a tuning run yields (td: the n-tuple network)."""
    return run_method(config, run).evaluator(run_settings(config, run))


def _check_run(key: str, run: dict) -> None:
    name = run["name"]
    if re.search(r"-s\d+(-|$)", name):
        _fail(key, "a run's name must not contain -s<digits> (its candidates are <run>-s<seed>)")
    method = get_method(run["method"])
    others = {k for m in run_methods() for k in m.keys} - set(method.keys)
    for extra in sorted(others & set(run)):
        _fail(f"{key}.{extra}", f"not a setting of method {method.name}")
    for needed in method.missing(run):
        _fail(key, f"method {method.name} needs {needed!r}")
    try:  # the checks of the method's settings (its tuner's config and the study's own)
        method.check_section(run)
    except SettingError as exc:
        _fail(f"{key}.{exc.key}", str(exc))
    agent = _agent(f"{key}.agent", run["agent"])
    if agent.weight_rows > 1:
        _fail(f"{key}.agent.name", "switching cannot be tuned (it takes a front)")
    if run["evaluator"] == NETWORK_EVALUATOR:
        _fail(f"{key}.evaluator", "ntuple networks are trained by tune.td")
    _check(f"{key}.agent.downgrade", check_downgrade, run["evaluator"], agent.downgrade)
    if agent.star:
        _check(f"{key}.agent.star", check_bounded, run["evaluator"])


def _check_budgets(runs: list[dict], selection: dict) -> None:
    """Runs that tune the same evaluator are compared with one another (the method pairs, and
    each against its random-search control), so they play one game and equal budgets: the
    same training games, to the game. Selection is the same for all by construction (one
    rule: `tune.selection`), but each run's final step must hold its `candidates`."""
    first: dict[str, dict] = {}
    for i, run in enumerate(runs):
        method = get_method(run["method"])
        size = method.final_size(run)
        if size is not None and size < selection["candidates"]:
            _fail(
                f"tune.runs[{i}]",
                f"run {run['name']}'s final step holds {size} candidates, fewer than the "
                f"{selection['candidates']} tune.selection.candidates every run's seed plays "
                "on its selection games",
            )
        base = first.setdefault(run["evaluator"], run)
        if base is run:
            continue
        a, b = (get_method(r["method"]).tuning_game(r) for r in (base, run))
        for key, what in (("agent", "agents"), ("max_moves", "move caps")):
            if a[key] != b[key]:
                shown = "" if key == "agent" else f": {a[key]} against {b[key]}"
                _fail(
                    f"tune.runs[{i}]",
                    f"runs {base['name']} and {run['name']} both tune {run['evaluator']}, so "
                    "their picks are tested against each other in the game they were tuned in, "
                    f"but their {what} differ{shown}",
                )
        a, b = (get_method(r["method"]).training_games(r) for r in (base, run))
        if a != b:
            _fail(
                f"tune.runs[{i}]",
                f"runs {base['name']} and {run['name']} both tune {run['evaluator']}, so the "
                f"study compares them, but their training budgets differ: {a} games against "
                f"{b} (candidates x steps x games)",
            )


def _check(key: str, check: Callable[..., None], *args: object) -> None:
    """check(*args), its ValueError refused under `key`."""
    try:
        check(*args)
    except ValueError as exc:
        _fail(key, str(exc))


def _check_semantics(config: dict) -> None:
    runs = run_names(config)
    for method in section_methods():
        try:
            method.check_section(config["tune"][method.name])
        except SettingError as exc:
            _fail(f"tune.{method.name}.{exc.key}", str(exc))
    for i, run in enumerate(config["tune"]["runs"]):
        if runs.index(run["name"]) != i:
            _fail(f"tune.runs[{i}].name", f"duplicate name {run['name']!r}")
        _check_run(f"tune.runs[{i}]", run)
    _check_budgets(config["tune"]["runs"], selection_rule(config))
    names = [b["name"] for b in config["validate"]["baselines"]]
    for i, name in enumerate(names):
        if names.index(name) != i:
            _fail(f"validate.baselines[{i}].name", f"duplicate name {name!r}")
        if parse_candidate(name, runs):
            _fail(f"validate.baselines[{i}].name", "names like cem-s1 are the tuned weight sets'")
        if name.startswith(TRANSFER_PREFIX):
            _fail(f"validate.baselines[{i}].name", "names like tuned-cem are the runs' picks")
    for i, base in enumerate(config["validate"]["baselines"]):
        if base["evaluator"] == NETWORK_EVALUATOR:
            _fail(
                f"validate.baselines[{i}].evaluator", "trained networks are validated as td-s<seed>"
            )
        if "weights" in base:
            _check_weights(f"validate.baselines[{i}].weights", base["evaluator"], base["weights"])
    if config["validate"]["reference"] not in names:
        _fail("validate.reference", f"{config['validate']['reference']!r} is not a baseline name")
    entries = config["benchmark"]["entries"]
    seen: set[str] = set()
    for i, entry in enumerate(entries):
        key = f"benchmark.entries[{i}]"
        if entry["name"] in seen:
            _fail(f"{key}.name", f"duplicate name {entry['name']!r}")
        seen.add(entry["name"])
        weights = entry.get("weights")
        spec = parse_weights(weights)
        agent = _agent(f"{key}.agent", entry["agent"])
        switching = agent.weight_rows > 1
        if agent.star:
            _check(f"{key}.agent.star", check_bounded, entry["evaluator"])
        _check(f"{key}.agent.downgrade", check_downgrade, entry["evaluator"], agent.downgrade)
        _check(f"{key}.agent.rules", check_rules, entry["evaluator"], agent.rules)
        if spec is not None:
            if spec.run not in runs:
                _fail(f"{key}.weights", f"{weights}: no tuning run {spec.run!r} (runs: {runs})")
            tuned, method = tuned_evaluator(config, spec.run), run_method(config, spec.run)
            if spec.switching and not method.switches(tuned):
                _fail(
                    f"{key}.weights",
                    f"{weights}: a {method.label} run over {tuned} offers no switching rows "
                    "(an NSGA-II front over an evaluator with empty-cells and corner features "
                    "does)",
                )
            if spec.entry not in ("weights", "switching", *method.selection_keys):
                _fail(
                    f"{key}.weights",
                    f"{weights}: a {method.label} run offers no {spec.entry} point (an NSGA-II "
                    "run's front does)",
                )
            if entry["evaluator"] != tuned:
                _fail(
                    f"{key}.evaluator",
                    f"{weights} weights are for {tuned}, not {entry['evaluator']}",
                )
            if switching != spec.switching:
                _fail(f"{key}.weights", "the switching agent, and only it, takes front:<run>")
        elif switching:
            _fail(f"{key}.weights", "the switching agent needs weights: front:<run>")
        elif entry["evaluator"] == NETWORK_EVALUATOR:
            _fail(f"{key}.weights", "the ntuple evaluator plays a trained network: tuned:td")
        elif weights is not None:
            _check_weights(f"{key}.weights", entry["evaluator"], weights)
        if entry["games"] < entry_shards(config, entry["name"]):
            shards = "shards" if "shards" in entry else "benchmark.shards"
            _fail(f"{key}.games", f"fewer games than {shards}")


def agent_config(spec: dict) -> AgentConfig:
    """The AgentConfig of a config's agent mapping."""
    return AgentConfig(**spec)


def shard_range(games: int, shards: int, shard: int) -> tuple[int, int]:
    """(start, count) of shard `shard` when `games` games are split as evenly as possible."""
    if not 0 <= shard < shards:
        raise ValueError(f"shard must be in 0..{shards - 1}, got {shard}")
    base, extra = divmod(games, shards)
    start = shard * base + min(shard, extra)
    return start, base + (shard < extra)


def validation_candidates(config: dict) -> list[str]:
    """Names of the weight sets the validate stage plays: tuned ones, then baselines."""
    tuned = [candidate_name(r, s) for r in run_names(config) for s in config["tune"]["seeds"]]
    return tuned + [b["name"] for b in config["validate"]["baselines"]]


def tuned_candidates(config: dict) -> list[str]:
    """Names of every seed's selection of each weight run (<run>-s<seed>), run by run."""
    return [candidate_name(r, s) for r in weight_runs(config) for s in config["tune"]["seeds"]]


def tuned_game_sets(config: dict) -> list[str]:
    """Names of the weight sets played on the test games in the game they are compared in:
    every seed's selection of each weight run, then each baseline of an evaluator that a
    weight run tunes (the runs of one evaluator play one game: the config check)."""
    evaluators = {tuned_evaluator(config, run) for run in weight_runs(config)}
    return tuned_candidates(config) + [
        b["name"] for b in config["validate"]["baselines"] if b["evaluator"] in evaluators
    ]


def weight_set_run(config: dict, name: str) -> str | None:
    """The tuning run behind a weight set: a tuned candidate <run>-s<seed> or a run's pick
    tuned-<run>; None for a baseline."""
    runs = run_names(config)
    tuned = parse_candidate(name, runs)
    if tuned is not None:
        return tuned[0]
    return next((run for run in runs if name == transfer_name(run)), None)


def tuning_game(config: dict, run: str) -> dict:
    """The game (agent, max_moves) the weight run `run` plays its candidates in."""
    return run_method(config, run).tuning_game(run_settings(config, run))


def tuned_game_for(config: dict, name: str) -> dict:
    """The game (agent, max_moves) a test set plays: its run's tuning game, for a baseline
    that of the first weight run that tunes its evaluator."""
    tuned = parse_candidate(name, run_names(config))
    if tuned is not None:
        run = tuned[0]
    else:
        evaluator = next(
            b["evaluator"] for b in config["validate"]["baselines"] if b["name"] == name
        )
        run = next(r for r in weight_runs(config) if tuned_evaluator(config, r) == evaluator)
    return tuning_game(config, run)


def transfer_sets(config: dict) -> list[str]:
    """Names of the weight sets of the depth-transfer validation (none without depths): each
    weight run's picked weights (`tuned-<run>`), then the baselines."""
    if not config["validate"]["transfer_depths"]:
        return []
    tuned = [transfer_name(run) for run in weight_runs(config)]
    return tuned + [b["name"] for b in config["validate"]["baselines"]]


def entry(config: dict, name: str) -> dict:
    """The benchmark entry called `name`."""
    for e in config["benchmark"]["entries"]:
        if e["name"] == name:
            return e
    raise KeyError(name)


def entry_shards(config: dict, name: str) -> int:
    """The jobs of the benchmark entry called `name`: its own `shards`, else one for a timed
    row (`budget_ms`: its job holds every core and plays as many games at once as it has cores
    but one, so a second shard would only wait for the first), else benchmark.shards."""
    e = entry(config, name)
    default = 1 if e["agent"].get("budget_ms") else config["benchmark"]["shards"]
    return e.get("shards", default)


SHARD_RUNTIME = 240  # minutes a benchmark shard may run on a cluster, unless its entry says


def entry_runtime(config: dict, name: str) -> int:
    """The runtime resource (minutes) of the benchmark entry `name`'s jobs."""
    return entry(config, name).get("runtime", SHARD_RUNTIME)


def switching_pairs(config: dict) -> list[tuple[str, str]]:
    """(switching entry, its balanced twin) of the benchmark: the twin plays the `balanced:`
    point of the front the switching entry switches along, with the same evaluator and depth,
    as expectimax (source 000's comparison of switching with its balanced point)."""
    entries = config["benchmark"]["entries"]
    pairs = []
    for e in entries:
        spec = parse_weights(e.get("weights"))
        if spec is None or not spec.switching:
            continue
        depth = AgentConfig(**e["agent"]).depth
        for twin in entries:
            twin_spec = parse_weights(twin.get("weights"))
            agent = AgentConfig(**twin["agent"])
            if (
                twin_spec is not None
                and twin_spec.kind == "balanced"
                and twin_spec.run == spec.run
                and twin["evaluator"] == e["evaluator"]
                and agent.kind == EXPECTIMAX
                and agent.depth == depth
            ):
                pairs.append((e["name"], twin["name"]))
                break
    return pairs


def network_pairs(config: dict) -> list[tuple[str, str]]:
    """(network entry, heuristic entry) of the benchmark: every entry that plays the trained
    network (evaluator ntuple, weights `tuned:td`) against every heuristic entry of the same
    agent settings and move cap (the paired comparisons of the learned evaluation with the
    hand-made ones)."""
    entries = config["benchmark"]["entries"]
    pairs = []
    for e in entries:
        if e["evaluator"] != NETWORK_EVALUATOR:  # plays a trained network (the config check)
            continue
        for other in entries:
            if (
                other["evaluator"] != NETWORK_EVALUATOR
                and AgentConfig(**other["agent"]) == AgentConfig(**e["agent"])
                and other.get("max_moves", 0) == e.get("max_moves", 0)
            ):
                pairs.append((e["name"], other["name"]))
    return pairs
