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
