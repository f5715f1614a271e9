"""A tournament's leaderboard as terminal text, and as a Markdown report with PNG plots next to it
(matplotlib, Agg canvas).

Competitive games: the leaderboard, the rating with its intervals (``<stem>_rating.png``) and the
head-to-head heatmap (``<stem>_h2h.png``). Cooperative games: the team table and the cross-play
heatmap (``<stem>_crossplay.png``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from cardarena.agents.evaluation.ratings import bootstrap_means
from cardarena.agents.evaluation.records import TournamentResult
from cardarena.agents.evaluation.summaries import wins_per_seed


# ---- terminal text -------------------------------------------------------------------------------
def _render(table: Any) -> str:
    from rich.console import Console

    console = Console(width=140, record=True, force_terminal=False)
    with console.capture() as cap:
        console.print(table)
    return cap.get()


def _title(result: TournamentResult) -> str:
    opts = " ".join(f"{k}={v}" for k, v in result.options.items())
    how = "every seating" if result.permutations else "rotations"
    return (
        f"{result.game} {opts}: {len(result.records)} games "
        f"({result.num_deals} deck seeds x {result.tables_per_deal} tables, {how})"
    )


def _ci(ci: Sequence[float] | None, fmt: str) -> str:
    if ci is None or any(v is None or not math.isfinite(v) for v in ci):
        return "-"
    return f"[{ci[0]:{fmt}}, {ci[1]:{fmt}}]"


def _leaderboard_cells(rank: int, s: Any, name: str) -> list[str]:
    """One leaderboard row as text, the same in the terminal and the Markdown report."""
    return [
        str(rank),
        name,
        str(s.games),
        "-" if s.rating is None else f"{s.rating:+.0f}",
        _ci(s.rating_ci, "+.0f"),
        f"{s.win_rate:.3f}",
        _ci(s.win_ci, ".3f"),
        f"{s.mean_score:.2f}",
        _ci(s.score_ci, ".2f"),
    ]


def ranked_by(result: TournamentResult) -> str:
    """What the leaderboard's order is, in words."""
    if result.rank_by == "win-rate":
        return "win rate (ties: rating)"
    return "rating (ties: win rate)"


def rating_note(result: TournamentResult, random: str) -> str:
    anchor = (result.rating() or {}).get("anchor")
    zero = f"{random} = 0" if anchor == "random" else "mean of the agents = 0"
    return (
        "Rating: Bradley-Terry fit over all games at once of who finishes ahead of whom at each "
        f"table (Elo scale: +400 = 10:1 odds of finishing ahead), {zero}; it does not depend on "
        "the order of the games. Win rate: ties share the win. 95% intervals: paired bootstrap "
        f"over deck seeds ({result.bootstrap} resamples)."
    )


def forfeits_text(result: TournamentResult, shown: int = 3) -> str:
    """The games forfeited by outside agents (how many per agent, the first verdicts); empty
    when there are none."""
    lost = [r for r in result.records if r.forfeit is not None]
    if not lost:
        return ""
    per: dict[str, int] = {}
    for r in lost:
        name = r.lineup[r.forfeit]  # type: ignore[index]
        per[name] = per.get(name, 0) + 1
    lines = [
        f"{len(lost)} games forfeited (ranked as the forfeiting seat's loss): "
        + ", ".join(f"{name} {n}" for name, n in per.items())
    ]
    lines += [f"  {r.fault}" for r in lost[:shown]]
    if len(lost) > shown:
        lines.append(
            f"  ... and {len(lost) - shown} more (the 'fault' of each game in the results)"
        )
    return "\n".join(lines) + "\n"


def order_note(result: TournamentResult) -> str:
    """One sentence when the rating and the win rate put two agents in opposite orders (""
    otherwise): what each column measures, so the order is not read as a contradiction."""
    board = [(s, s.rating) for s in result.summaries() if s.rating is not None]
    for i, (a, ra) in enumerate(board):
        for b, rb in board[i + 1 :]:
            if (ra - rb) * (a.win_rate - b.win_rate) < 0:
                up, down = (a, b) if ra > rb else (b, a)
                return (
                    f"The two orders differ here: {up.name} is above {down.name} by rating, "
                    f"{down.name} wins more ({down.win_rate:.3f} to {up.win_rate:.3f}); the "
                    "rating counts every opponent an agent finishes ahead of (a second place "
                    "beats two), the win rate only first places."
                )
    return ""


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def verdict_line(result: TournamentResult, agent: str) -> str:
    """One line in words on ``agent``: its share of the wins at the table against par (the equal
    share, 1 / seats), with its 95% interval, and above / level with / below each other agent by
    the paired 95% interval of the difference in win rate over deck seeds."""
    if result.cooperative:
        return (
            f"verdict: none for {agent}: {result.game} is cooperative, the team table above is "
            "the result"
        )
    board = {s.name: s for s in result.summaries()}
    me = board.get(agent)
    if me is None or not result.records:
        return f"verdict: none for {agent}: it played no game here"
    seats = len(result.records[0].lineup)
    par = 1.0 / seats
    low, high = me.win_ci
    versus_par = "above par" if low > par else "below par" if high < par else "at par"
    by_seed = wins_per_seed(result.records, result.agents)
    me_i = result.agents.index(agent)
    others = [a for a in result.agents if a != agent and a in board]
    groups: dict[str, list[str]] = {"above": [], "level with": [], "below": []}
    if others:
        index = [result.agents.index(a) for a in others]
        diff = by_seed[:, [me_i]] - by_seed[:, index]
        _, d_low, d_high = bootstrap_means(diff, result._resamples())
        for a, lo, hi in zip(others, d_low, d_high, strict=True):
            where = "above" if lo > 0 else "below" if hi < 0 else "level with"
            groups[where].append(f"{a} ({_pct(board[a].win_rate)})")
    compared = "; ".join(f"{k} {', '.join(v)}" for k, v in groups.items() if v)
    return (
        f"verdict: {result.shown(agent)} wins {_pct(me.win_rate)} of its games at a {seats}-seat table "
        f"(par {_pct(par)}: an equal share of the wins), 95% interval "
        f"{_pct(low)}-{_pct(high)}: {versus_par}"
        + (f"; {compared}" if compared else "")
        + f" (paired 95% intervals over {by_seed.shape[0]} deck seeds; ties share the win)"
    )


def leaderboard_text(result: TournamentResult) -> str:
    """The leaderboard and head-to-head matrix (or, for a cooperative game, the team table and
    cross-play matrix), then the games forfeited, if any."""
    return _board_text(result) + forfeits_text(result)


def _board_text(result: TournamentResult) -> str:
    from rich.table import Table

    title = _title(result)
    if result.cooperative:
        return coop_text(result, title)
    table = Table(title=title)
    cols = ("rank", "agent", "games", "rating", "95% CI", "win rate", "95% CI ", "mean score")
    for col in (*cols, "95% CI  "):
        table.add_column(col, justify="left" if col == "agent" else "right")
    board = result.summaries()
    for i, s in enumerate(board, 1):
        table.add_row(*_leaderboard_cells(i, s, result.shown(s.name)))
    note = order_note(result)
    table.caption = f"ranked by {ranked_by(result)}. " + rating_note(result, "random")
    table.caption += f" {note}" if note else ""
    out = _render(table)
    if len(board) > 1:
        share, games = result.head_to_head()
        index = {a: i for i, a in enumerate(result.agents)}
        matrix = Table(title="head-to-head: share of games where row finished ahead of column")
        matrix.add_column("")
        for j, _ in enumerate(board, 1):
            matrix.add_column(f"#{j}", justify="right")
        for i, a in enumerate(board, 1):
            cells = []
            for b in board:
                v = share[index[a.name], index[b.name]]
                cells.append("-" if a.name == b.name or not math.isfinite(v) else f"{v:.3f}")
            matrix.add_row(f"#{i} {result.shown(a.name)}", *cells)
        out += _render(matrix)
    return out


def coop_text(result: TournamentResult, title: str) -> str:
    from rich.table import Table

    teams = result.team_summaries()
    table = Table(title=title)
    for col in ("team", "games", "win rate", "95% CI", "< 10 left", "mean left", "95% CI "):
        table.add_column(col, justify="left" if col == "team" else "right")
    for s in teams:
        table.add_row(
            s.team,
            str(s.games),
            f"{s.win_rate:.3f}",
            _ci(s.win_ci, ".3f"),
            f"{s.good_share:.3f}",
            f"{s.mean_score:.2f}",
            _ci(s.score_ci, ".2f"),
        )
    out = _render(table)
    if len(result.agents) > 1 and any("+" in s.team for s in teams):
        cp = result.cross_play()
        matrix = Table(title="cross-play: win rate (mean cards left) of row and column as partners")
        matrix.add_column("")
        for b in result.agents:
            matrix.add_column(b, justify="right")
        for i, a in enumerate(result.agents):
            cells = []
            for j in range(len(result.agents)):
                w, s = cp["win_rate"][i, j], cp["mean_score"][i, j]
                cells.append(f"{w:.3f} ({s:.1f})" if math.isfinite(w) else "-")
            matrix.add_row(a, *cells)
        out += _render(matrix)
    return out


# ---- Markdown and plots ---------------------------------------------------------------------
def _figure(width: float, height: float) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=110)
    FigureCanvasAgg(fig)
    return fig


#: longest line of an agent's name on a plot axis; longer specs wrap after a comma
TICK_WIDTH = 30


def tick_label(name: str, width: int = TICK_WIDTH) -> str:
    """``name`` wrapped after commas into lines of at most ``width`` characters (a spec such as
    ``pimc:worlds=64,min_worlds=6,...`` is too long for one line of a plot's axis); a piece longer
    than ``width`` on its own stays whole."""
    lines: list[str] = []
    for piece in name.split(","):
        if lines and len(lines[-1]) + 1 + len(piece) <= width:
            lines[-1] += "," + piece
        else:
            if lines:
                lines[-1] += ","
            lines.append(piece)
    return "\n".join(lines)


def _label_inches(names: Sequence[str]) -> float:
    """About the width the longest line of the (wrapped) names takes on an axis, in inches."""
    return 0.07 * max((len(line) for n in names for line in n.split("\n")), default=0)


def _md_table(header: Sequence[str], rows: Sequence[Sequence[str]], left: int = 1) -> str:
    """A Markdown table; column ``left`` (the names) is left-aligned, the others right."""

    def esc(x: str) -> str:
        return str(x).replace("|", "\\|")

    lines = ["| " + " | ".join(esc(h) for h in header) + " |"]
    lines.append("|" + "|".join("---" if i == left else "---:" for i in range(len(header))) + "|")
    lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def plot_rating(result: TournamentResult, path: Path) -> None:
    board = result.summaries()
    names = [tick_label(s.name) for s in board][::-1]
    mu = np.array([s.rating for s in board][::-1], dtype=float)
    low = np.array([s.rating_ci[0] if s.rating_ci else np.nan for s in board][::-1], dtype=float)
    high = np.array([s.rating_ci[1] if s.rating_ci else np.nan for s in board][::-1], dtype=float)
    fig = _figure(5.5 + _label_inches(names), 0.9 + 0.45 * sum(n.count("\n") + 1 for n in names))
    ax = fig.add_subplot()
    err = np.vstack([np.nan_to_num(mu - low), np.nan_to_num(high - mu)]).clip(min=0)
    ax.errorbar(mu, np.arange(len(names)), xerr=err, fmt="o", color="tab:blue", capsize=4)
    ax.axvline(0.0, color="grey", lw=0.8, ls="--")
    ax.set_yticks(np.arange(len(names)), labels=names)
    anchor = (result.rating() or {}).get("anchor")
    ax.set_xlabel(
        "Bradley-Terry rating (Elo scale, "
        + ("random = 0" if anchor == "random" else "mean = 0")
        + ") with 95% bootstrap interval"
    )
    ax.set_title(_title(result), fontsize=9)
    fig.tight_layout()
    fig.savefig(path)


def plot_matrix(
    matrix: np.ndarray,
    names: Sequence[str],
    title: str,
    path: Path,
    labels: np.ndarray | None = None,
    cmap: str = "RdYlGn",
    vmin: float = 0.0,
    vmax: float = 1.0,
) -> None:
    """A heatmap of ``matrix`` with each cell's value (or ``labels``) written in it."""
    k = len(names)
    names = [tick_label(n) for n in names]
    lines = max(n.count("\n") + 1 for n in names) if names else 1
    margin = _label_inches(names)  # the names beside and (rotated) below the cells
    fig = _figure(1.8 + 0.95 * k + margin, 1.2 + 0.8 * k + 0.15 * lines + 0.5 * margin)
    ax = fig.add_subplot()
    im = ax.imshow(np.ma.masked_invalid(matrix), cmap=cmap, vmin=vmin, vmax=vmax)
    ax.set_xticks(np.arange(k), labels=names, rotation=30, ha="right")
    ax.set_yticks(np.arange(k), labels=names)
    for i in range(k):
        for j in range(k):
            v = matrix[i, j]
            text = (
                "-" if not math.isfinite(v) else labels[i][j] if labels is not None else f"{v:.2f}"
            )
            ax.text(j, i, text, ha="center", va="center", fontsize=8)
    ax.set_title(title, fontsize=9)
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    fig.tight_layout()
    fig.savefig(path)


def write_report(
    result: TournamentResult, path: str | Path, results_file: str | None = None
) -> list[Path]:
    """Write the Markdown report and its plots; returns the files written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    stem = path.with_suffix("")
    written: list[Path] = []
    lines = [f"# {result.game} tournament", ""]
    opts = ", ".join(f"`{k}={v}`" for k, v in result.options.items()) or "defaults"
    lines += [
        f"* {len(result.records)} games: {result.num_deals} deck seeds "
        f"({result.first_seed}..{result.first_seed + result.num_deals - 1}) x "
        f"{result.tables_per_deal} tables ({'every seating' if result.permutations else 'seat rotations'}); "
        f"options: {opts}",
        f"* played now: {result.played}, read back from the results file: {result.reused}; "
        f"backend `{result.backend}`, {result.seconds:.1f} s",
        f"* written {time.strftime('%Y-%m-%d %H:%M:%S')}"
        + (f"; every game is in `{results_file}`" if results_file else ""),
        "",
    ]
    forfeits = forfeits_text(result)
    if forfeits:  # the verdicts, as the terminal shows them
        lines += ["## Forfeits", "", "```text", forfeits.rstrip("\n"), "```", ""]
    if result.cooperative:
        lines += ["## Teams", ""]
        rows = [
            [
                s.team,
                str(s.games),
                f"{s.win_rate:.3f}",
                _ci(s.win_ci, ".3f"),
                f"{s.good_share:.3f}",
                f"{s.mean_score:.2f}",
                _ci(s.score_ci, ".2f"),
            ]
            for s in result.team_summaries()
        ]
        lines += [
            _md_table(
                ["team", "games", "win rate", "95% CI", "< 10 left", "mean left", "95% CI"],
                rows,
                left=0,
            ),
            "",
            "A team is the set of agents at the table, over every seating. Intervals: paired "
            f"bootstrap over deck seeds ({result.bootstrap} resamples).",
            "",
        ]
        cp = result.cross_play()
        if len(result.agents) > 1:
            png = Path(f"{stem}_crossplay.png")
            score = cp["mean_score"]
            labels = [
                [f"{cp['win_rate'][i, j]:.2f}\n({score[i, j]:.1f})" for j in range(len(score))]
                for i in range(len(score))
            ]
            top = float(np.nanmax(score)) if np.isfinite(score).any() else 1.0
            plot_matrix(
                score,
                result.agents,
                "cross-play as partners:\nwin rate (mean score), colour: mean score",
                png,
                labels=np.array(labels, dtype=object),
                cmap="RdYlGn_r",
                vmin=0.0,
                vmax=max(top, 1e-9),
            )
            written.append(png)
            lines += ["## Cross-play", "", f"![cross-play]({png.name})", ""]
            cells = [
                [a]
                + [
                    "-"
                    if not math.isfinite(cp["win_rate"][i, j])
                    else f"{cp['win_rate'][i, j]:.3f} ({cp['mean_score'][i, j]:.1f})"
                    for j in range(len(result.agents))
                ]
                for i, a in enumerate(result.agents)
            ]
            lines += [
                _md_table(["win rate (mean left)", *result.agents], cells, left=0),
                "",
            ]
    else:
        board = result.summaries()
        rows = [_leaderboard_cells(i, s, result.shown(s.name, "`")) for i, s in enumerate(board, 1)]
        lines += [
            "## Leaderboard",
            "",
            _md_table(
                [
                    "rank",
                    "agent",
                    "games",
                    "rating",
                    "95% CI",
                    "win rate",
                    "95% CI",
                    "mean score",
                    "95% CI",
                ],
                rows,
            ),
            "",
            f"Ranked by {ranked_by(result)}. " + rating_note(result, "`random`"),
            "",
            *([order_note(result), ""] if order_note(result) else []),
        ]
        if board and all(s.rating is not None for s in board):
            png = Path(f"{stem}_rating.png")
            plot_rating(result, png)
            written.append(png)
            lines += [f"![rating]({png.name})", ""]
        if len(board) > 1:
            share, games = result.head_to_head()
            index = {a: i for i, a in enumerate(result.agents)}
            order = [index[s.name] for s in board]
            sub = share[np.ix_(order, order)]
            names = [s.name for s in board]
            png = Path(f"{stem}_h2h.png")
            plot_matrix(
                sub, names, "head-to-head: share of games row finished ahead of column", png
            )
            written.append(png)
            cells = [
                [f"`{a}`"]
                + [
                    "-" if i == j or not math.isfinite(sub[i, j]) else f"{sub[i, j]:.3f}"
                    for j in range(len(names))
                ]
                for i, a in enumerate(names)
            ]
            lines += [
                "## Head-to-head",
                "",
                "Share of the games with both at the table where the row agent finished ahead "
                "of the column agent (ties count half).",
                "",
                f"![head-to-head]({png.name})",
                "",
                _md_table(["row beats column", *[f"`{n}`" for n in names]], cells, left=0),
                "",
            ]
    path.write_text("\n".join(lines))
    written.insert(0, path)
    return written
