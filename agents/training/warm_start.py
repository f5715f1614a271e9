"""Imitation warm start ("kickstarting"): behaviour cloning of a teacher before PPO."""

from __future__ import annotations

from typing import Any

import numpy as np

from cardarena.agents import make_agent
from cardarena.agents.training.config import TrainConfig
from cardarena.envs.core import seeding
from cardarena.envs.core.loop import play

#: decision kinds under this share of the teacher games' decisions count as rare (rare_games)
RARE_SHARE = 0.1


def imitation_warm_start(
    model: Any,
    game: str,
    env_options: dict[str, Any],
    teacher: str,
    games: int,
    epochs: int,
    learning_rate: float,
    shaping: float,
    seed: int,
    progress: bool = True,
    improve: dict[str, Any] | None = None,
    lr_decay: float = 1.0,
    threads: int = 1,
    rare_games: int = 0,
    budget: Any = None,
) -> dict[str, Any]:
    """Behaviour cloning before PPO ("kickstarting"): fit the policy to ``teacher``'s decisions
    and the value head to the return-to-go, on ``games`` games the teacher plays in every seat.

    PPO then starts from the teacher's level instead of spending millions of steps re-deriving
    it. With ``improve`` (``warm_start.improve``), every decision is relabelled by rollouts
    (:mod:`agents.training.improve`): the policy imitates the teacher improved by one step of policy
    iteration, which is how a trained agent gets above the teacher. The value target matches what the self-play env pays: the seat's final return, minus
    ``shaping * potential`` at the decision (the shaping still to come sums to exactly that).

    ``rare_games`` more teacher games add only their rare decisions: the kinds
    (``engine.decision_name``) that make up less than :data:`RARE_SHARE` of the first games'
    decisions (sevn: FREEZE / FLIP_THREE targets, FORK), so that the network sees enough of
    them; the common kinds already have plenty of examples. With ``improve`` they go to the
    plain-teacher pretraining (``improve.pretrain_games``), so they need one.

    ``budget`` (a :class:`~agents.training.budget.TimeBudget`): the teacher games, the labelling
    jobs and the epochs stop when it runs out (at least one of each, so that the games already
    played are learnt from).
    """
    import torch

    from cardarena.agents.training.budget import TimeBudget
    from cardarena.envs.core.registry import get_spec

    if budget is None:
        budget = TimeBudget(None)

    spec = get_spec(game)
    engine = spec.make_engine(**env_options)
    # a privileged critic's rows are [observation | hidden state], as in its self-play env
    privileged = getattr(model.policy, "actor_inputs", None) is not None
    extra: dict[str, Any] = {}
    weights = None
    if improve is not None:
        from cardarena.agents.training.improve import improved_dataset

        # labels first: the labelling forks worker processes, which must happen before torch
        # starts its thread pool for the cloning
        data = improved_dataset(
            game, env_options, teacher, games, improve, seed, progress, privileged, budget
        )
        pretrain_agreement = None
        if improve["pretrain_games"]:  # clone the plain teacher first, on cheap games
            first = imitation_warm_start(
                model,
                game,
                env_options,
                teacher,
                improve["pretrain_games"],
                epochs,
                learning_rate,
                shaping,
                seed + 1,
                progress,
                lr_decay=lr_decay,
                threads=threads,
                rare_games=rare_games,
                budget=budget,
            )
            pretrain_agreement = first["agreement"]
        changed = data["improved"] != data["teacher"]
        weights = np.where(changed, float(improve["changed_weight"]), 1.0).astype(np.float32)
        obs_rows, mask_rows, act_rows = list(data["obs"]), list(data["mask"]), data["improved"]
        seat_rows, game_rows, pot_rows = data["seat"], data["game"], data["pot"]
        finals = list(data["finals"])
        extra = {
            "improved": True,
            "changed_share": data["changed"],
            "leaf_value_rows": data["leaf_rows"],
            "leaf_value_r2": data["leaf_r2"],
        }
        if pretrain_agreement is not None:
            extra["pretrain_agreement"] = pretrain_agreement
    else:  # rare_games, with improve, went to the pretraining above
        rows = _teacher_decisions(
            spec, engine, teacher, games, rare_games, seed, progress, privileged, budget
        )
        obs_rows, mask_rows, act_rows = rows.obs, rows.mask, rows.act
        seat_rows, game_rows, pot_rows, finals = rows.seat, rows.game, rows.pot, rows.finals
        if rare_games:
            extra["rare_kinds"] = sorted(rows.rare)
            extra["rare_decisions"] = rows.rare_rows
    finals_arr = np.asarray(finals, dtype=np.float32)
    policy = model.policy
    obs_t = torch.as_tensor(np.asarray(obs_rows), device=policy.device)
    mask_np = np.asarray(mask_rows)
    act_t = torch.as_tensor(np.asarray(act_rows), device=policy.device)
    target = finals_arr[np.asarray(game_rows), np.asarray(seat_rows)] - shaping * np.asarray(
        pot_rows, dtype=np.float32
    )
    target_t = torch.as_tensor(target, device=policy.device)
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    n = len(act_rows)
    order_rng = np.random.default_rng(seed + 1)
    policy.set_training_mode(True)
    weights_t = None if weights is None else torch.as_tensor(weights, device=policy.device)
    # the fitting uses ``threads`` torch threads (labelling workers, if any, are done by now)
    threads_before = torch.get_num_threads()
    torch.set_num_threads(threads)
    epoch_iter: Any = range(epochs)
    if progress:
        from tqdm import tqdm

        epoch_iter = tqdm(epoch_iter, desc=f"cloning {n} decisions", unit="epoch")
    # per epoch: the mean loss of its batches and the greedy agreement on a fixed sample
    # (TensorBoard's warm_start/ scalars, warm_start.json's "epochs")
    sample = np.random.default_rng(seed + 2).permutation(n)[:1024]
    per_epoch: list[dict[str, float]] = []
    for _ in budget.steps(epoch_iter, "warm start: cloning", epochs, "epochs"):
        order = order_rng.permutation(n)
        sums = np.zeros(3)
        batches = 0
        for start in range(0, n, 512):
            idx = order[start : start + 512]
            values, log_prob, _ = policy.evaluate_actions(
                obs_t[idx], act_t[idx], action_masks=mask_np[idx]
            )
            if weights is None:
                nll = -log_prob.mean()
            else:  # decisions the rollouts changed may count more: they are few
                w = weights_t[idx]
                nll = -(log_prob * w).sum() / w.sum()
            value_mse = torch.nn.functional.mse_loss(values.flatten(), target_t[idx])
            loss = nll + 0.5 * value_mse
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            sums += [float(loss.detach()), float(nll.detach()), float(value_mse.detach())]
            batches += 1
        with torch.no_grad():
            probs = policy.get_distribution(
                obs_t[sample], action_masks=mask_np[sample]
            ).distribution.probs
            sampled = float((probs.argmax(dim=1) == act_t[sample]).float().mean())
        loss_mean, nll_mean, mse_mean = (sums / max(batches, 1)).tolist()
        per_epoch.append(
            {"loss": loss_mean, "nll": nll_mean, "value_mse": mse_mean, "agreement": sampled}
        )
        for group in optimizer.param_groups:  # per-epoch decay: settle on the labels
            group["lr"] *= lr_decay
    policy.set_training_mode(False)
    with torch.no_grad():
        dist = policy.get_distribution(obs_t, action_masks=mask_np)
        agree = float((dist.distribution.probs.argmax(dim=1) == act_t).float().mean())
    torch.set_num_threads(threads_before)
    played = min(games, len(finals))  # fewer than asked if the time limit stopped the games
    return {
        "teacher": teacher,
        "decisions": n,
        "games": played,
        "agreement": agree,
        "epochs": per_epoch,
        **extra,
    }


class _Rows:
    """Decisions kept from teacher games: the training rows of the cloning."""

    def __init__(self) -> None:
        self.obs: list[np.ndarray] = []
        self.mask: list[np.ndarray] = []
        self.act: list[int] = []
        self.seat: list[int] = []
        self.game: list[int] = []
        self.pot: list[float] = []
        self.finals: list[np.ndarray] = []
        self.kinds: dict[str, int] = {}  # decision kind -> rows of the plain games
        self.rare: set[str] = set()
        self.rare_rows = 0


class _Recorder:
    """The teacher at one seat, played by :func:`envs.core.loop.play`, writing the decisions the
    warm start keeps (every one of a plain game, the rare kinds of a rare game) into ``rows``."""

    def __init__(
        self, agent: Any, seat: int, engine: Any, rows: _Rows, plain: int, hidden: Any = None
    ) -> None:
        self.agent, self.seat, self.engine, self.rows, self.plain = agent, seat, engine, rows, plain
        self.hidden = hidden  # a privileged critic's encode_privileged: rows get the hidden state
        self.name = getattr(agent, "name", "teacher")
        self.uses_view = getattr(agent, "uses_view", True)
        self.state: Any = None
        self.g = 0

    def _keep(self) -> bool:
        return self.g < self.plain or self.engine.decision_name(self.state) in self.rows.rare

    @property
    def uses_observation(self) -> bool:  # read by loop.decide just before act()
        return self._keep() or getattr(self.agent, "uses_observation", True)

    def act(self, observation: Any, action_mask: np.ndarray, view: Any) -> int:
        action = int(self.agent.act(observation, action_mask, view))
        if self._keep():
            rows = self.rows
            if self.hidden is not None:
                observation = np.concatenate([observation, self.hidden(self.state, self.seat)])
            rows.obs.append(observation)
            rows.mask.append(action_mask.astype(bool))
            rows.act.append(action)
            rows.seat.append(self.seat)
            rows.game.append(self.g)
            rows.pot.append(self.engine.potential(self.state, self.seat))
            if self.g < self.plain:
                kind = self.engine.decision_name(self.state)
                rows.kinds[kind] = rows.kinds.get(kind, 0) + 1
            else:
                rows.rare_rows += 1
        return action


def _teacher_decisions(
    spec: Any,
    engine: Any,
    teacher: str,
    plain: int,
    rare_games: int,
    seed: int,
    progress: bool,
    privileged: bool = False,
    budget: Any = None,
) -> _Rows:
    """``plain`` teacher games with every decision kept, then ``rare_games`` keeping only the
    kinds under :data:`RARE_SHARE` of the plain games' decisions; the teacher in every seat.
    Game ``g`` is dealt from ``seeding.derive(seed, 3, g)``, its agents reset with
    ``seeding.agent_seed`` of that deal. ``budget``: stop between games when it runs out."""
    from cardarena.agents.training.budget import TimeBudget

    budget = budget if budget is not None else TimeBudget(None)
    rows = _Rows()
    hidden = None
    if privileged:
        from cardarena.agents.training.privileged import privileged_module

        hidden = privileged_module(spec.name).encode_privileged
    seats = [
        _Recorder(make_agent(spec.name, teacher), i, engine, rows, plain, hidden)
        for i in range(engine.num_players)
    ]
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    iterator: Any = range(plain + rare_games)
    if progress:
        from tqdm import tqdm

        iterator = tqdm(iterator, desc=f"imitating {teacher}", unit="game")
    planned = plain + rare_games
    for g in budget.steps(iterator, f"warm start: {teacher} games", planned, "games"):
        if g == plain:  # the first games are done: which kinds are rare?
            total = sum(rows.kinds.values())
            rows.rare = {k for k, c in rows.kinds.items() if c < RARE_SHARE * total}
        deal = seeding.derive(seed, 3, g)
        state = engine.new_game(np.random.default_rng(deal))
        for seat in seats:
            seat.agent.reset(seeding.agent_seed(deal, seat.seat))
            seat.state, seat.g = state, g
        play(spec, engine, state, seats, mask=mask)
        rows.finals.append(engine.returns(state))
    return rows


def warm_start(
    model: Any, cfg: TrainConfig, progress: bool, threads: int, budget: Any = None
) -> dict[str, Any]:
    """The warm start of a config's ``warm_start`` section (``imitate`` set); prints a line.
    ``budget``: the run's :class:`~agents.training.budget.TimeBudget` (None: no limit)."""
    warm = cfg.warm_start
    info = imitation_warm_start(
        model,
        cfg.game,
        cfg.env,
        warm.imitate,
        warm.games,
        warm.epochs,
        warm.learning_rate,
        cfg.reward_shaping,
        cfg.seed,
        progress=progress,
        improve=warm.improve,
        lr_decay=warm.lr_decay,
        threads=threads,
        rare_games=warm.rare_games,
        budget=budget,
    )
    print(
        f"warm start: imitated {info['teacher']} on {info['decisions']} decisions "
        f"({info['games']} games); greedy agreement {info['agreement']:.3f}"
        + (
            f"; rollouts changed {info['changed_share']:.1%} of the teacher's choices "
            f"(leaf value R^2 {info['leaf_value_r2']:.3f})"
            if info.get("improved")
            else ""
        ),
        flush=True,
    )
    return info
