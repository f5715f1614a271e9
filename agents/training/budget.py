"""The wall-clock budget of a training run (the config's ``time_limit_minutes``).

The budget covers the whole run from its start: the warm start (teacher games, rollout
relabelling, cloning), the expert-iteration rounds and PPO, with the evaluations, snapshots and
checkpoints made along the way. It does **not** cover the final evaluation (``eval.final_deals``)
nor the plots and files written after it: those always run, so that a run cut by its budget ends
like any other run, and their time is reported apart (``final_eval_seconds`` in
``summary.json``). The model is saved and evaluated whatever the budget did.

Nothing is cut in the middle of a unit of work; the budget is checked between units:

* a phase that has not started when the budget is spent is skipped (PPO, the expert-iteration
  rounds);
* a phase that has started does at least one unit, so that what it has already computed is
  used (one teacher game, one labelling job, one cloning epoch, one PPO rollout and its update);
* before each further unit the budget asks whether that unit still fits, estimating it by the
  duration of the unit before: the run stops at the last boundary before the budget would run
  out, rather than up to one unit after it (PPO's unit is a rollout and its update, ~8k steps).

Every cut is recorded (phase, units done of units planned), printed when it happens and written
to ``summary.json`` under ``time_limit``. ``--resume`` keeps counting from the run time saved
with the checkpoint (``run_seconds`` in ``trainer_state.json``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from stable_baselines3.common.callbacks import BaseCallback, CallbackList

T = TypeVar("T")


class TimeBudget:
    """``minutes`` of wall clock (None: no limit) from now, ``spent`` seconds already used (a
    resumed run); ``clock`` is injectable for tests (seconds, monotonic)."""

    def __init__(
        self,
        minutes: float | None,
        spent: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.minutes = minutes
        self.limit = None if minutes is None else 60.0 * float(minutes)
        self.clock = clock
        self.start = clock() - float(spent)
        self.cuts: list[dict[str, Any]] = []

    @classmethod
    def from_config(cls, cfg: Any, spent: float = 0.0) -> TimeBudget:
        return cls(cfg.time_limit_minutes, spent)

    def elapsed(self) -> float:
        return self.clock() - self.start

    def allows(self, next_seconds: float = 0.0) -> bool:
        """Whether a unit of work estimated at ``next_seconds`` still fits in the budget."""
        return self.limit is None or self.elapsed() + max(next_seconds, 0.0) <= self.limit

    def cut(self, phase: str, done: int, of: int, unit: str) -> None:
        """Record (and print) that the budget stopped ``phase`` after ``done`` of ``of``."""
        self.cuts.append({"phase": phase, "done": int(done), "of": int(of), "unit": unit})
        print(
            f"time limit ({self.minutes:g} min): {phase} stopped after {done:,} of {of:,} {unit} "
            f"({self.elapsed() / 60:.1f} min used)",
            flush=True,
        )

    def steps(
        self, items: Iterable[T], phase: str, of: int, unit: str, least: int = 1
    ) -> Iterator[T]:
        """``items`` while the budget allows: after each one (and before the first when
        ``least`` is 0) the next must fit, estimated by the previous one's duration. At least
        ``least`` items always pass. Without a limit: ``items`` unchanged."""
        if self.limit is None:
            yield from items
            return
        done = 0
        prev = self.clock()
        if least == 0 and of > 0 and not self.allows():
            self.cut(phase, 0, of, unit)
            return
        for item in items:
            yield item
            done += 1
            now = self.clock()
            last, prev = now - prev, now
            if done >= least and done < of and not self.allows(last):
                self.cut(phase, done, of, unit)
                if hasattr(items, "close"):  # a progress bar
                    items.close()
                return

    @property
    def stopped(self) -> bool:
        return bool(self.cuts)

    def report(self, run_seconds: float) -> dict[str, Any] | None:
        """The ``time_limit`` entry of ``summary.json`` (None without a limit); ``run_seconds``:
        the budgeted time, taken before the final evaluation."""
        if self.limit is None:
            return None
        return {
            "minutes": self.minutes,
            "stopped": self.stopped,
            "cuts": list(self.cuts),
            "run_seconds": round(run_seconds, 1),
            "message": self.message(),
        }

    def message(self) -> str:
        if self.limit is None:
            return "no time limit"
        if not self.cuts:
            return f"finished within its time limit of {self.minutes:g} min"
        what = "; ".join(
            f"{c['phase']} after {c['done']:,} of {c['of']:,} {c['unit']}" for c in self.cuts
        )
        return f"the time limit of {self.minutes:g} min stopped the run: {what}"


class TimeLimit(BaseCallback):
    """Stops PPO at a rollout boundary once the next rollout and its update (estimated by the
    last ones) no longer fit in ``budget``: the first step of the rollout that would not fit
    returns False, so that rollout is dropped before anything is learnt from it.
    ``timesteps`` is the step count at the end of the last rollout that was learnt from."""

    def __init__(self, budget: TimeBudget) -> None:
        super().__init__()
        self.budget = budget
        self.stopping = False
        self.timesteps: int | None = None
        self._last_start: float | None = None

    def _on_rollout_start(self) -> None:
        now = self.budget.clock()
        if self._last_start is not None and not self.budget.allows(now - self._last_start):
            self.stopping = True
        self._last_start = now

    def _on_rollout_end(self) -> None:
        self.timesteps = int(self.model.num_timesteps)

    def _on_step(self) -> bool:
        return not self.stopping


class StopFirst(CallbackList):
    """A CallbackList whose first callback returning False skips the rest of that step (so no
    snapshot, evaluation or checkpoint is made on the step that ends the run)."""

    def _on_step(self) -> bool:
        return all(callback.on_step() for callback in self.callbacks)
