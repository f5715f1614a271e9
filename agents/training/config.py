"""The training config: one validated dataclass, every hyper-parameter documented here.

A YAML file (``configs/*.yaml``) is read with ``yaml.safe_load`` and laid over the defaults
below, section by section; then every value is checked before anything is built or trained:
its type, its range, the cross-field rules (``ppo.batch_size`` divides a rollout, the opponent
probabilities add up to at most 1, ...), the game's options (by building the engine) and every
agent name (by building the agent). A bad value is a :class:`~envs.core.engine.ConfigError`
naming its key path, e.g. ``ppo.batch_sise: unknown key; known: ...`` or
``ppo.batch_size must be an integer >= 2, got 0``.

Each field's ``doc`` metadata is its documentation; ``python -c "from agents.training.config
import describe; print(describe())"`` prints them all.
"""

from __future__ import annotations

from dataclasses import MISSING, asdict, dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from cardarena.agents.files import YAML_MAX_BYTES, load_yaml
from cardarena.agents.training.config_checks import (
    Bad,
    Checker,
    agent_list,
    boolean,
    choice,
    game_name,
    improve,
    integer,
    layers,
    mapping,
    minutes,
    nonempty,
    number,
    optional,
    weights,
)
from cardarena.envs.core.engine import ConfigError


def doc(default: Any, check: Checker, meaning: str) -> Any:
    """A config field: its default, its checker and its documentation."""
    meta = {"check": check, "doc": meaning}
    if isinstance(default, (list, dict)):
        return field(default_factory=lambda: type(default)(default), metadata=meta)
    return field(default=default, metadata=meta)


def section(cls: type) -> Any:
    return field(default_factory=cls, metadata={"section": cls})


@dataclass
class PPOConfig:
    """MaskablePPO hyper-parameters (sb3-contrib's names; passed to ``MaskablePPO`` as they are)."""

    learning_rate: float = doc(3e-4, number(0, open_low=True), "Adam step size")
    n_steps: int = doc(256, integer(1), "rollout length per env; a rollout is n_steps x n_envs")
    batch_size: int = doc(512, integer(2), "minibatch size; must divide n_steps x n_envs")
    n_epochs: int = doc(5, integer(1), "passes over each rollout")
    gamma: float = doc(0.995, number(0, 1), "discount")
    gae_lambda: float = doc(0.95, number(0, 1), "GAE bias/variance trade-off")
    clip_range: float = doc(0.2, number(0, open_low=True), "PPO ratio clip")
    ent_coef: float = doc(0.01, number(0), "entropy bonus coefficient")
    vf_coef: float = doc(0.5, number(0), "value loss coefficient")
    max_grad_norm: float = doc(0.5, number(0, open_low=True), "gradient clipping norm")
    target_kl: float | None = doc(
        None, optional(number(0, open_low=True)), "stop an update early past this KL (null: off)"
    )


@dataclass
class PolicyConfig:
    """The actor-critic network."""

    net_arch: list[int] = doc([128, 128], layers, "hidden layers of the actor and of the critic")
    activation: str = doc("tanh", choice("tanh", "relu"), "hidden activation")
    privileged_critic: bool = doc(
        False,
        boolean,
        "the critic also sees the hidden state in training (agents/training/privileged.py)",
    )


@dataclass
class TorchThreadsConfig:
    """torch (and BLAS) threads: rollouts run one small batch per step, where extra threads only
    add overhead; the PPO update and the cloning work on big minibatches."""

    rollout: int | None = doc(1, optional(integer(1)), "threads while collecting (null: 1)")
    update: int | None = doc(None, optional(integer(1)), "threads for updates (null: every core)")

    def counts(self) -> tuple[int, int]:
        """(rollout, update) thread counts, nulls resolved."""
        import os

        if hasattr(os, "sched_getaffinity"):
            cores = len(os.sched_getaffinity(0))
        else:
            cores = os.cpu_count() or 1
        return self.rollout or 1, self.update or cores


@dataclass
class OpponentsConfig:
    """Who sits in the other seats (:class:`agents.training.opponents.OpponentPool`); each seat
    is drawn independently. Irrelevant for a cooperative game (one policy plays every seat)."""

    scripted: dict[str, float] = doc(
        {"random": 0.1}, weights, "agent name -> weight in the scripted share (any agent spec)"
    )
    latest: float = doc(0.45, number(0, 1), "probability of the newest snapshot of the learner")
    past: float = doc(0.45, number(0, 1), "probability of an older snapshot; the rest: scripted")
    prioritized: bool = doc(True, boolean, "older snapshots by (1 - win rate vs them) ** power")
    priority_power: float = doc(1.0, number(0), "the power of the prioritisation")
    snapshot_every: int = doc(50_000, integer(1), "freeze a copy of the learner this often")
    snapshot_win_rate: float | None = doc(
        None,
        optional(number(0, 1)),
        "also freeze one when the learner wins more than this share of its last 200 games",
    )
    max_snapshots: int = doc(20, integer(1), "keep the newest N snapshots in the pool")


@dataclass
class EvalConfig:
    """Greedy evaluations of the learner during and after the run."""

    every: int = doc(50_000, integer(1), "evaluate this often (timesteps)")
    deals: int = doc(100, integer(1), "deck seeds per evaluation (x seat rotations)")
    against: str | None = doc(None, optional(nonempty), "the headline baseline (null: game's best)")
    baselines: str | list[str] = doc("all", agent_list, "also evaluate against these ('all')")
    final_deals: int = doc(500, integer(1), "deck seeds of the final evaluation (summary.json)")


@dataclass
class WarmStartConfig:
    """Behaviour cloning before PPO (:mod:`agents.training.warm_start`)."""

    imitate: str | None = doc(None, optional(nonempty), "teacher agent in every seat (null: skip)")
    games: int = doc(2000, integer(1), "teacher games whose decisions are learnt")
    epochs: int = doc(15, integer(1), "passes over those decisions")
    learning_rate: float = doc(1e-3, number(0, open_low=True), "Adam step size of the cloning")
    lr_decay: float = doc(1.0, number(0, 1, open_low=True), "learning rate x this per pass")
    rare_games: int = doc(0, integer(0), "more teacher games adding only their rare decisions")
    improve: dict[str, Any] | None = doc(
        None,
        improve,
        "rollout relabelling (null: off); keys: agents.training.improve.IMPROVE_DEFAULTS",
    )


@dataclass
class ExpertIterationConfig:
    """Expert iteration (:mod:`agents.training.expert_iteration`): imitate a search agent's
    decisions, then let the search roll out with the network; replaces PPO when ``rounds`` > 0."""

    rounds: int = doc(0, integer(0), "label-then-fit rounds (0: off, the run trains by PPO)")
    games_per_round: int = doc(16, integer(1), "games of the search in every seat per round")
    teacher: str = doc(
        "pimc:worlds=8,rollout=random",
        nonempty,
        "the search agent (a pimc or ismcts spec, or search:LABEL)",
    )
    network_rollout: bool = doc(
        True, boolean, "the search rolls out with the latest network once there is one"
    )
    epochs: int = doc(5, integer(1), "passes over the kept labels per round")
    learning_rate: float = doc(1e-3, number(0, open_low=True), "Adam step size of the fit")
    batch_size: int = doc(256, integer(1), "minibatch size of the fit")
    policy_target: str = doc(
        "action", choice("action", "scores"), "the search's action, or its scores' distribution"
    )
    temperature: float = doc(
        0.1, number(0, open_low=True), "softmax temperature of pimc's scores (policy_target)"
    )
    value_target: str = doc(
        "result", choice("result", "search"), "the seat's final return, or the search's value"
    )
    value_coef: float = doc(0.5, number(0), "weight of the value loss")
    keep_rounds: int = doc(0, integer(0), "fit on the newest N rounds' labels (0: all)")
    chunk_games: int = doc(4, integer(1), "games per labelling task (a process or Ray task)")


@dataclass
class TrainConfig:
    """One self-play training run."""

    game: str = doc("flip6", game_name, "a registered game (envs.names())")
    env: dict[str, Any] = doc({}, mapping, "options of the game's engine (envs.make(game, ...))")
    seed: int = doc(0, integer(0, 2**32 - 1), "seeds torch, the envs and the opponent draws")
    total_timesteps: int = doc(200_000, integer(1), "learner decisions to train for")
    time_limit_minutes: float | None = doc(
        None,
        minutes,
        "wall-clock budget of the run (warm start, expert iteration, PPO; not the final "
        "evaluation), checked between units of work (agents/training/budget.py); null: no limit",
    )
    n_envs: int = doc(8, integer(1), "parallel games")
    vec_env: str = doc(
        "dummy", choice("dummy", "split", "subproc"), "where the games run (split_vec_env)"
    )
    reward_shaping: float = doc(0.0, number(0), "potential-based shaping coefficient (0: off)")
    output_dir: str = doc("runs/flip6", nonempty, "the run directory")
    checkpoint_every: int = doc(100_000, integer(1), "checkpoint for --resume this often")
    device: str = doc("auto", choice("auto", "cpu", "cuda"), "torch device (auto: cuda if any)")
    ppo: PPOConfig = section(PPOConfig)
    policy: PolicyConfig = section(PolicyConfig)
    torch_threads: TorchThreadsConfig = section(TorchThreadsConfig)
    opponents: OpponentsConfig = section(OpponentsConfig)
    eval: EvalConfig = section(EvalConfig)
    warm_start: WarmStartConfig = section(WarmStartConfig)
    expert_iteration: ExpertIterationConfig = section(ExpertIterationConfig)

    def to_dict(self) -> dict[str, Any]:
        """Plain data, as a config file holds it (``config.yaml`` of a run)."""
        return asdict(self)


def _section_type(f: Any) -> type | None:
    return f.metadata.get("section")


def _merge(cls: type, base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``over`` laid on ``base``: sections merge key by key, every other value is replaced."""
    out = dict(base)
    sections = {f.name: _section_type(f) for f in fields(cls) if _section_type(f)}
    for key, value in over.items():
        sub = sections.get(key)
        if sub is not None and isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(sub, out[key], value)
        else:
            out[key] = value
    return out


def _build(cls: type, data: Any, where: str) -> Any:
    known = [f.name for f in fields(cls)]
    if not isinstance(data, dict):
        raise ConfigError(f"{where} must be a mapping with keys {known}, got {data!r}")
    for key in data:
        if key not in known:
            path = f"{where}.{key}" if where else str(key)
            raise ConfigError(f"{path}: unknown key; known: {', '.join(known)}")
    values = {}
    for f in fields(cls):
        path = f"{where}.{f.name}" if where else f.name
        sub = _section_type(f)
        if sub is not None:
            values[f.name] = _build(sub, data.get(f.name, {}), path)
        elif f.name in data:
            try:
                values[f.name] = f.metadata["check"](data[f.name])
            except Bad as bad:
                raise ConfigError(f"{path} {bad}, got {data[f.name]!r}") from None
    return cls(**values)


def _check_agent(game: str, name: str, key: str) -> None:
    from cardarena.agents import make_agent

    try:
        make_agent(game, name)
    except ConfigError as err:
        raise ConfigError(f"{key}: {err}") from None


def _check_opponents(cfg: TrainConfig) -> None:
    """The opponent mix's weights, and every scripted opponent's name."""
    opp = cfg.opponents
    if opp.latest + opp.past > 1 + 1e-9:
        raise ConfigError(
            f"opponents.latest + opponents.past must be at most 1, got {opp.latest} + {opp.past}"
        )
    if sum(opp.scripted.values()) <= 0 and opp.latest + opp.past < 1 - 1e-9:
        raise ConfigError(
            "opponents.scripted needs a positive weight (or opponents.latest + past = 1)"
        )
    for name in opp.scripted:
        _check_agent(cfg.game, name, f"opponents.scripted.{name}")


def _check_together(cfg: TrainConfig) -> None:
    """Rules between fields, the game's options and every agent name."""
    from cardarena.envs.core.registry import get_spec

    try:
        get_spec(cfg.game).make_engine(**cfg.env)
    except ConfigError as err:
        raise ConfigError(f"env: {err}") from None
    if cfg.vec_env == "split" and cfg.n_envs < 2:
        raise ConfigError("vec_env: split needs n_envs >= 2 (one game here, one in the worker)")
    rollout = cfg.ppo.n_steps * cfg.n_envs
    if rollout % cfg.ppo.batch_size:
        raise ConfigError(
            f"ppo.batch_size ({cfg.ppo.batch_size}) must divide a rollout, n_steps x n_envs = "
            f"{cfg.ppo.n_steps} x {cfg.n_envs} = {rollout} (else SB3 trains on a truncated "
            f"minibatch, or on one smaller than asked)"
        )
    _check_opponents(cfg)
    if cfg.eval.against is not None:
        _check_agent(cfg.game, cfg.eval.against, "eval.against")
    if cfg.eval.baselines != "all":
        for name in cfg.eval.baselines:
            _check_agent(cfg.game, name, "eval.baselines")
    warm = cfg.warm_start
    if warm.imitate is not None:
        _check_agent(cfg.game, warm.imitate, "warm_start.imitate")
        if warm.improve is not None and warm.rare_games and not warm.improve["pretrain_games"]:
            raise ConfigError(
                "warm_start.rare_games: with warm_start.improve the rare games go to the plain "
                "pretraining, so they need warm_start.improve.pretrain_games > 0"
            )
    if cfg.expert_iteration.rounds:
        from cardarena.agents.search import is_search_spec
        from cardarena.agents.specs import NAMED_SEARCH, search_settings

        teacher = cfg.expert_iteration.teacher
        written = teacher
        if teacher.startswith(NAMED_SEARCH):  # a manifest's setting: an unknown label fails here
            _check_agent(cfg.game, teacher, "expert_iteration.teacher")
            written = search_settings(cfg.game)[teacher[len(NAMED_SEARCH) :]]
        if not is_search_spec(written):
            raise ConfigError(
                f"expert_iteration.teacher must be a search agent (pimc:..., ismcts:... or "
                f"search:LABEL), got {teacher!r}"
            )
        _check_agent(cfg.game, teacher, "expert_iteration.teacher")
    if cfg.policy.privileged_critic:
        from cardarena.agents.training.privileged import privileged_module

        privileged_module(cfg.game)
    from cardarena.agents.training.device import resolve_device

    resolve_device(cfg.device)
    out = Path(cfg.output_dir)
    for path in (out, *out.parents):
        if path.exists() and not path.is_dir():
            raise ConfigError(f"output_dir {cfg.output_dir!r}: {str(path)!r} is a file")


def from_dict(data: dict[str, Any], overrides: dict[str, Any] | None = None) -> TrainConfig:
    """A checked :class:`TrainConfig` from plain data (and overrides laid over it)."""
    if not isinstance(data, dict):
        raise ConfigError(f"a config must be a mapping at the top level, got {data!r}")
    cfg = _build(TrainConfig, _merge(TrainConfig, data, overrides or {}), "")
    _check_together(cfg)
    return cfg


def packaged_configs() -> dict[str, Any]:
    """The default configs shipped with the package (``configs/*.yaml``), by name."""
    folder = resources.files("cardarena.configs")
    return {
        item.name.removesuffix(".yaml"): item
        for item in folder.iterdir()
        if item.name.endswith(".yaml")
    }


def find_config(path: str | Path) -> Path | Any:
    """A config file, or the name of a packaged one (``flip6``, ``configs/flip6.yaml`` from
    anywhere, so an installed package finds its defaults)."""
    path = Path(path)
    if path.exists():
        return path
    shipped = packaged_configs()
    if path.name.removesuffix(".yaml") in shipped and path.parent in (Path("."), Path("configs")):
        return shipped[path.name.removesuffix(".yaml")]
    raise ConfigError(
        f"config file {str(path)!r} not found; give a YAML file or the name of a default config: "
        f"{', '.join(sorted(shipped))}"
    )


def load_config(path: str | Path, overrides: dict[str, Any] | None = None) -> TrainConfig:
    """Read a YAML config over the defaults and check every value (``ConfigError`` if bad).
    ``path`` is a file or a packaged config's name (see :func:`find_config`)."""
    path = find_config(path)
    if not path.is_file():
        raise ConfigError(f"config file {str(path)!r} is not a file")
    if path.stat().st_size > YAML_MAX_BYTES:
        raise ConfigError(
            f"config file {path} is {path.stat().st_size} bytes; the limit is {YAML_MAX_BYTES}"
        )
    try:  # safe loading builds plain data only: a python/object tag is an error, never a call
        data = load_yaml(path.read_text(encoding="utf-8"), str(path))
    except (yaml.YAMLError, UnicodeDecodeError) as err:
        raise ConfigError(f"{path} is not a valid YAML config: {err}") from None
    if data is None:
        raise ConfigError(
            f"{path} is empty; a config needs at least 'game:' (see configs/*.yaml for examples)"
        )
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: top level must be a mapping, got {type(data).__name__}")
    try:
        return from_dict(data, overrides)
    except ConfigError as err:
        raise ConfigError(f"{path}: {err}") from None


def describe(cls: type = TrainConfig, where: str = "") -> str:
    """Every key with its default and documentation, one per line."""
    lines = []
    for f in fields(cls):
        path = f"{where}.{f.name}" if where else f.name
        sub = _section_type(f)
        if sub is not None:
            lines.append(f"{path}:  # {(sub.__doc__ or '').split(chr(10))[0]}")
            lines.append(describe(sub, path))
        else:
            default = f.default if f.default is not MISSING else f.default_factory()
            lines.append(f"{path} = {default!r}  # {f.metadata['doc']}")
    return "\n".join(lines)
