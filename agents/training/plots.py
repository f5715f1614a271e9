"""The learning-curve PNG of a run."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any


def curve_options(env: dict[str, Any]) -> str:
    """The table of a run in a few words: ``4 players``, ``3 players, target_score=30``."""
    opts = dict(env)
    n = opts.pop("num_players", None)
    words = [f"{n} players"] if n else []
    words += [f"{k}={v}" for k, v in sorted(opts.items())]
    return ", ".join(words)


def plot_learning_curve(
    history: Sequence[dict[str, Any]],
    path: Path,
    baselines: Sequence[str],
    par: float | None,
    team: bool = False,
    warm: dict[str, Any] | None = None,
    title: str = "",
) -> None:
    """Greedy evaluation win rate over training against each baseline, 95% bands, par line;
    ``warm`` (the evaluation right after the warm start, ``warm_start.json``'s ``evaluation``)
    is the step-0 point, drawn as a diamond and joined to the curve; ``title`` names the run."""
    if not history and warm is None:
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = ([warm] if warm is not None else []) + list(history)
    t = [h["timesteps"] for h in points]
    fig, ax = plt.subplots(figsize=(7, 4))
    for name in baselines:
        rows = [h[name] for h in points if name in h]
        steps = [h["timesteps"] for h in points if name in h]
        label = "team win rate (learner in every seat)" if team else f"vs {name}"
        (line,) = ax.plot(steps, [r["win_rate"] for r in rows], marker="o", label=label)
        ax.fill_between(
            steps, [r["ci_low"] for r in rows], [r["ci_high"] for r in rows], alpha=0.15
        )
        if warm is not None and name in warm:
            ax.plot([0], [warm[name]["win_rate"]], marker="D", ms=9, ls="", color=line.get_color())
    if warm is not None:
        ax.plot([], [], marker="D", ls="", color="black", label="step 0: after the warm start")
    if par is not None:
        ax.axhline(par, color="grey", ls="--", label=f"par ({par:.3g})")
    if t:
        ax.set_xlim(left=min(0, min(t)) - 0.02 * max(1, max(t)))
    ax.set_xlabel("learner timesteps (PPO)")
    who = "the learner's team" if team else "the learner"
    ax.set_ylabel(f"greedy win rate of {who}")
    measured = "y: greedy win rate in evaluation games, 95% band"
    ax.set_title(f"{title}\n{measured}" if title else measured, fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def log_warm_start(
    tb_dir: Path, info: dict[str, Any], baselines: Sequence[str], team: bool = False
) -> None:
    """The warm start in TensorBoard (``tb_dir/warm_start``): its loss, policy and value terms
    and greedy agreement with the teacher per cloning epoch (``warm_start/*``, step = epoch),
    and the evaluation right after it at step 0 under the tags PPO's evaluations use
    (``eval/win_rate_vs_<baseline>``, ``eval/mean_score_...``), so the curve starts there."""
    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter(str(Path(tb_dir) / "warm_start"))
    try:
        for epoch, row in enumerate(info.get("epochs", []), start=1):
            for key, value in row.items():
                writer.add_scalar(f"warm_start/{key}", value, epoch)
        writer.add_scalar("warm_start/final_agreement", info["agreement"], 0)
        evaluation = info.get("evaluation") or {}
        for name in baselines:
            if name in evaluation:
                tag = "team" if team else f"vs_{name}"
                writer.add_scalar(f"eval/win_rate_{tag}", evaluation[name]["win_rate"], 0)
                writer.add_scalar(f"eval/mean_score_{tag}", evaluation[name]["mean_score"], 0)
    finally:
        writer.close()


def _run_results(run: Path) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """(evaluation history, final evaluation or None) of a run directory; a run stopped before
    its end has the history of its last checkpoint (``trainer_state.json``) and no final."""
    import json

    if (run / "eval_history.json").exists():
        final = json.loads((run / "summary.json").read_text())["final_eval"]
        return json.loads((run / "eval_history.json").read_text()), final
    return json.loads((run / "trainer_state.json").read_text())["history"], None


def plot_runs(runs: dict[str, Path], path: Path, title: str = "") -> None:
    """Several runs' headline learning curves in one picture (label -> run directory): greedy
    win rate against each run's headline baseline, 95% bands, and the final evaluation as a
    point with its interval at the last step."""

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for label, run in runs.items():
        history, final = _run_results(run)
        t = [h["timesteps"] for h in history]
        (line,) = ax.plot(t, [h["win_rate"] for h in history], marker="o", label=label)
        ax.fill_between(
            t, [h["ci_low"] for h in history], [h["ci_high"] for h in history], alpha=0.12
        )
        if final is None:
            continue
        low, high = final["win_rate"] - final["ci_low"], final["ci_high"] - final["win_rate"]
        ax.errorbar(
            [t[-1] if t else 0],
            [final["win_rate"]],
            yerr=[[low], [high]],
            fmt="s",
            color=line.get_color(),
            capsize=4,
        )
    ax.set_xlabel("learner timesteps (square: final evaluation)")
    ax.set_ylabel("greedy win rate vs the headline baseline")
    ax.set_title(title)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def critic_fit(run: Path) -> dict[str, float]:
    """Means of SB3's ``train/explained_variance`` and ``train/value_loss`` (TensorBoard) over
    the first and the second half of a run's PPO updates."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    out: dict[str, float] = {}
    for tag in ("train/explained_variance", "train/value_loss"):
        values: list[float] = []
        for events in sorted((run / "tb").rglob("events.out.tfevents.*")):
            acc = EventAccumulator(str(events), size_guidance={"scalars": 0})
            acc.Reload()
            if tag in acc.Tags()["scalars"]:
                values += [e.value for e in acc.Scalars(tag)]
        half = len(values) // 2
        name = tag.split("/")[1]
        if half:
            out[f"{name}_first_half"] = sum(values[:half]) / half
        if values:
            out[f"{name}_second_half"] = sum(values[half:]) / (len(values) - half)
            out["updates"] = len(values)
    return out


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m cardarena.agents.training.plots --out PNG [--title T] LABEL=RUN_DIR ...``"""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--title", default="")
    parser.add_argument("runs", nargs="+", metavar="LABEL=RUN_DIR")
    args = parser.parse_args(argv)
    runs = {}
    for item in args.runs:
        label, sep, run = item.partition("=")
        if not sep:
            parser.error(f"expected LABEL=RUN_DIR, got {item!r}")
        runs[label] = Path(run)
    plot_runs(runs, args.out, args.title)
    for label, run in runs.items():  # the table of the results page
        history, final = _run_results(run)
        fit = ", ".join(f"{k} {v:.3f}" for k, v in critic_fit(run).items())
        curve = " ".join(f"{h['timesteps']}:{h['win_rate']:.3f}" for h in history)
        head = "no final evaluation"
        if final is not None:
            head = (
                f"final win rate vs {final['against']} {final['win_rate']:.3f} "
                f"[{final['ci_low']:.3f}, {final['ci_high']:.3f}] over {final['deals']} deals"
            )
        print(f"{label}: {head}; curve {curve}; {fit}")


if __name__ == "__main__":
    main()
