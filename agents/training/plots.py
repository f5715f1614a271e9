"""The learning-curve PNG of a run."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any


def plot_learning_curve(
    history: Sequence[dict[str, Any]],
    path: Path,
    baselines: Sequence[str],
    par: float | None,
    team: bool = False,
) -> None:
    """Greedy evaluation win rate over training against each baseline, 95% bands, par line."""
    if not history:
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = [h["timesteps"] for h in history]
    fig, ax = plt.subplots(figsize=(7, 4))
    for name in baselines:
        rows = [h[name] for h in history]
        label = "team win rate (learner in every seat)" if team else f"vs {name}"
        ax.plot(t, [r["win_rate"] for r in rows], marker="o", label=label)
        ax.fill_between(t, [r["ci_low"] for r in rows], [r["ci_high"] for r in rows], alpha=0.15)
    if par is not None:
        ax.axhline(par, color="grey", ls="--", label=f"par ({par:.3g})")
    ax.set_xlabel("learner timesteps")
    ax.set_ylabel("greedy win rate")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


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
