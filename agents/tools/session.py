"""One game with an outside player at one seat and agents at the others.

The terminal table (``play.py``), the browser table and the MCP server all seat someone who is not
an agent of this process (a person, an MCP client) and play the other seats with agent specs. A
:class:`SeatSession` is that game: it deals, lets the agents play until the outside seat must
decide (:meth:`advance`), takes the outside seat's action by id or text and refuses anything
illegal (:meth:`play`), tells what happened in the seat's own words (``envs.core.narration``:
read from the seat's views only), records the replay and reports the result.

It shows the outside seat only what that seat may see: its render (``spec.render(state, seat)``),
its view (``spec.view(state, seat)``), the legal actions and the narration; never the state.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from cardarena.agents.files import check_writable
from cardarena.envs.core import seeding
from cardarena.envs.core.errors import AgentFault, CardArenaError, ConfigError, IllegalActionError
from cardarena.envs.core.loop import decide, finish, result
from cardarena.envs.core.narration import narrate
from cardarena.envs.core.registry import get_spec
from cardarena.envs.core.replay import agent_note

HUMAN = "human"


def table_size(game: str, agents: Sequence[str], num_players: int | None) -> int:
    """Seats: ``num_players`` if given, else one per agent plus the outside player when the game
    allows it, else the game's default."""
    if num_players is not None:
        return num_players
    engine_cls = get_spec(game).engine_cls
    wanted = len(agents) + 1
    if agents and engine_cls.min_players <= wanted <= engine_cls.max_players:
        return wanted
    return get_spec(game).make_engine().num_players


def seat_specs(
    num_players: int, seat: int, agents: Sequence[str], cooperative: bool = False
) -> list[str]:
    """Who sits where: the outside player at ``seat``, the agents in the other seats in order.
    The rule of tournaments (``check_enough_agents``): a competitive game needs one agent per
    other seat (list one twice to seat it twice); a cooperative game's team repeats its agents
    round the table."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < num_players:
        raise ConfigError(f"the human seat must be in [0, {num_players - 1}], got {seat!r}")
    others = num_players - 1
    if others and not agents:
        raise ConfigError(f"{num_players} seats: give agents for the other seats (--agents ...)")
    if len(agents) > others or (not cooperative and len(agents) < others):
        example = [*agents, *[agents[-1]] * (others - len(agents))][:others] if agents else []
        raise ConfigError(
            f"{num_players} seats with you at seat {seat}: give one agent per other seat "
            f"({others}), got {len(agents)} ({' '.join(agents)}); list one more than once to "
            f"seat it several times (e.g. --agents {' '.join(example)}), or change --num-players"
        )
    out, k = [], 0
    for s in range(num_players):
        if s == seat:
            out.append(HUMAN)
        else:
            out.append(agents[k % len(agents)])
            k += 1
    return out


def check_seed(seed: Any) -> None:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ConfigError(f"the deal seed must be an integer >= 0, got {seed!r} (or leave it out)")


def verdict(cooperative: bool, seat: int, winners: list[int], who: Any) -> str:
    """How the game ended for the player at ``seat`` (``who(s)`` names a seat)."""
    if cooperative:
        return "the team won" if winners else "the team lost"
    if seat in winners:
        return "you won" if len(winners) == 1 else f"you share the win with {winners}"
    return f"you lost; winners: {[who(w) for w in winners]}"


class SeatSession:
    """A game of ``game`` with the outside player at ``seat`` and ``agents`` at the other seats
    (``seat_specs``' rule). ``record_dir`` saves the replay there (None: no replay); ``source``
    labels it. After construction the agents have played up to the outside seat's first
    decision (or the game's end)."""

    def __init__(
        self,
        game: str,
        seat: int,
        agents: Sequence[str],
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        record_dir: str | Path | None = None,
        source: str = "human play",
    ) -> None:
        from cardarena.agents import make_agent
        from cardarena.envs.core.replay import ReplayWriter, replay_name

        check_seed(seed)
        if record_dir is not None:
            check_writable("the replay directory (--record)", Path(record_dir), directory=True)
        options = dict(options or {})
        self.game = game
        self.spec = spec = get_spec(game)
        num_players = table_size(game, agents, options.pop("num_players", None))
        options["num_players"] = num_players
        self.options = options
        self.engine = engine = spec.make_engine(**options)
        self.seat = seat
        self.lineup = seat_specs(num_players, seat, list(agents), spec.cooperative)
        self.seed = int(np.random.default_rng().integers(2**31)) if seed is None else seed
        self.players: dict[int, Any] = {}
        for s, name in enumerate(self.lineup):
            if name != HUMAN:
                self.players[s] = make_agent(game, name, seed=seeding.agent_seed(self.seed, s))
                self.players[s].reset(seeding.agent_seed(self.seed, s))
        self.state = engine.new_game(np.random.default_rng(self.seed))
        self.writer = None
        if record_dir is not None:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            path = Path(record_dir) / f"{stamp}-{replay_name(game, self.seed, self.lineup)}"
            self.writer = ReplayWriter(path, game, options, self.seed, self.lineup, source=source)
            self.writer.begin(engine, self.state)
        #: what happened since the outside seat's last decision, in its words (take_events)
        self.events: list[str] = []
        self._mask = np.zeros(engine.num_actions, dtype=np.int8)
        self._closed = False
        self.advance()

    # -- what the outside seat sees ----------------------------------------------------------

    def who(self, s: int) -> str:
        return "you" if s == self.seat else f"seat {s} ({self.lineup[s]})"

    @property
    def over(self) -> bool:
        return bool(self.engine.is_over(self.state))

    @property
    def to_move(self) -> bool:
        """Whether the outside seat must decide now."""
        return not self.over and self.engine.current_player(self.state) == self.seat

    def legal(self) -> list[tuple[int, str]]:
        """The outside seat's legal actions (id, text); empty when it is not its decision."""
        if not self.to_move:
            return []
        engine = self.engine
        return [(int(a), engine.describe_action(a)) for a in engine.legal_actions(self.state)]

    def render(self) -> str:
        return str(self.spec.render(self.state, self.seat))

    def view(self) -> dict[str, Any]:
        return self.spec.view(self.state, self.seat)

    def decision_name(self) -> str:
        return str(self.engine.decision_name(self.state)) if self.to_move else ""

    def take_events(self) -> list[str]:
        """The narration since the last call (and since the outside seat's last decision)."""
        events, self.events = self.events, []
        return events

    def result(self) -> dict[str, Any]:
        """Scores, winners and the outside seat's verdict in words (the game must be over)."""
        if not self.over:
            raise ConfigError("the game is not over yet: play on (legal actions: legal())")
        winners = [int(w) for w in self.engine.winners(self.state)]
        return {
            "scores": list(self.engine.scores(self.state)),
            "winners": winners,
            "returns": [float(r) for r in self.engine.returns(self.state)],
            "verdict": verdict(self.spec.cooperative, self.seat, winners, self.who),
        }

    # -- playing -----------------------------------------------------------------------------

    def _apply(self, action: int, actor: int) -> None:
        spec, engine, state, seat = self.spec, self.engine, self.state, self.seat
        before = spec.view(state, seat)
        engine.apply(state, action, actor)
        after = spec.view(state, seat)
        text = engine.describe_action(action)
        self.events += narrate(spec, before, after, actor, text, seat, self.who)
        if self.writer is not None:
            note = None if actor == seat else agent_note(self.players[actor])
            self.writer.action(engine, state, actor, action, note)
        if self.over:
            self.close()

    def advance(self) -> None:
        """Let the agents play until the outside seat must decide or the game ends."""
        engine, state = self.engine, self.state
        while not engine.is_over(state):
            current = engine.current_player(state)
            if current == self.seat:
                return
            try:
                action = decide(
                    self.spec, engine, state, current, self.players[current], self._mask
                )
            except AgentFault as err:  # an outside agent: its verdict names the deck seed
                raise err.at(current, self.seed) from None
            self._apply(action, current)

    def action_of(self, entry: Any) -> int:
        """The legal action meant by ``entry``: an action id, or its text in any form the game
        reads (``parse_action``), or an :class:`IllegalActionError` with the legal list."""
        menu = self.legal()
        if not menu:
            why = "the game is over" if self.over else "it is not your decision"
            raise IllegalActionError(f"no action can be played now: {why}")
        legal_ids = {a for a, _ in menu}
        action: int | None = None
        if isinstance(entry, (int, np.integer)) and not isinstance(entry, bool):
            action = int(entry) if int(entry) in legal_ids else None
        elif isinstance(entry, str):
            text = " ".join(entry.split())
            for a, label in menu:
                if text.lower() == label.lower():
                    action = a
            if action is None and text:
                try:
                    parsed = self.engine.parse_action(text)
                except CardArenaError:
                    parsed = None
                action = parsed if parsed in legal_ids else None
        if action is None:
            shown = repr(entry) if len(repr(entry)) <= 60 else repr(entry)[:57] + "..."
            raise IllegalActionError(
                f"{shown} is not a legal action here; legal now: "
                + ", ".join(f"{a} ({t})" for a, t in menu)
            )
        return action

    def play(self, entry: Any) -> None:
        """Play the outside seat's action (an id or a text; refused when illegal, the game
        unchanged), then let the agents play on to its next decision."""
        action = self.action_of(entry)
        self._apply(action, self.seat)
        self.advance()

    def close(self) -> None:
        """End the replay (the game stopped or ended) and, when the game is over, tell the
        agents how it ended (``loop.finish``: outside agents hear the result); further calls do
        nothing."""
        if self._closed:
            return
        self._closed = True
        if self.writer is not None:
            self.writer.end(self.engine, self.state)
        if self.over:
            seated = [self.players.get(s) for s in range(self.engine.num_players)]
            finish(seated, result(self.engine, self.state, cooperative=self.spec.cooperative))

    @property
    def replay_path(self) -> Path | None:
        return None if self.writer is None else Path(self.writer.path)
