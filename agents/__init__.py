"""Agents of the suite: the protocol, random, scripted baselines per game, trained policies.

``make_agent(game, spec)`` builds any of them from a short string:

===================  ======================================================================
spec                 agent
===================  ======================================================================
``random``           uniform over legal actions (every game)
scripted name        a baseline of that game (``BASELINES`` in ``agents/baselines/<game>.py``):
                     flip6 and sevn ``threshold``, ``ev``; ratatat ``greedy``, ``tracker``;
                     thegame ``greedy``, ``planner``; suicidium ``heuristic``
solved name          an exact player (``agents/exact``): flip6 ``optimal_round`` (each round's
                     expected points maximised by dynamic programming); thegame ``open_hand``
                     (plays the deal's best line seen open-handed: no legal player)
``zoo:NAME``         the pretrained checkpoint ``agents/zoo/NAME.zip`` (NAME: letters, digits, ``_-.``)
``path/to/x.zip``    a checkpoint written by ``train.py`` (JSON and arrays: nothing in it can run)
``sb3:path/x.zip``   the weights of a plain stable-baselines3 MaskablePPO ``model.save`` file,
                     read without unpickling anything (its pickled fields are never decoded)
``module:factory``   your own: ``factory(game=..., seed=...)`` returns an :class:`Agent`
``exec:COMMAND``     a program of any language playing through JSON lines on its stdin and
                     stdout (``agents/outside/process.py``, docs/protocol.md);
                     ``exec+obs:COMMAND`` also sends the observation vector
``llm:mod:fn[?...]`` a language model: ``fn(messages) -> reply`` (``agents/outside/llm.py``,
                     docs/llm_agents.md), e.g. ``llm:llm_fake:ask?retries=2&fallback=ev``
``pimc[:k=v,...]``   search: determinized rollouts (``agents/search``), e.g.
                     ``pimc:worlds=16,rollouts=1,rollout=ev``
``ismcts[:k=v,...]`` search: single-observer information-set MCTS, e.g.
                     ``ismcts:iterations=200,rollout=random,c=0.7``
``search:LABEL``     the search setting a game's manifest names LABEL (its ``[[search]]`` rows
                     in ``envs/<game>/game.toml``, the best measured: ``search_settings(game)``),
                     named ``search:LABEL``: flip6 ``flip6``, sevn ``sevn``, ratatat
                     ``ratatat``, suicidium ``suicidium_survive``, ``suicidium_depression``,
                     thegame ``thegame_2p``, ``thegame_4p``; e.g. ``search:flip6`` is
                     ``pimc:worlds=64,min_worlds=6,rollout=ev,horizon=round,value=leaf,gate=1.5``
``seer[:k=v,...]``   NOT a legal player: the rollout search on the true state, every hidden
                     card seen (``agents/seer.py``; tournaments need ``--allow-seers``), e.g.
                     ``seer:rollouts=1,rollout=ev,horizon=game``
===================  ======================================================================
"""

from __future__ import annotations

from cardarena.agents.base import Agent, RandomAgent
from cardarena.agents.specs import (
    ZOO_DIR,
    best_baseline,
    build_agent,
    scripted,
    scripted_names,
    search_settings,
    zoo_names,
    zoo_path,
)


def _search_agent(game: str, spec: str, seed: int | None) -> Agent:
    from cardarena.agents.search import make_search_agent

    return make_search_agent(game, spec, seed)


def make_agent(game: str, spec: str, seed: int | None = None) -> Agent:
    """Build an agent for ``game`` from a short spec (see the module docstring)."""
    if spec.partition(":")[0] == "seer":  # sees the true state: never a rollout player
        from cardarena.agents.seer import make_seer

        return make_seer(game, spec, seed)
    return build_agent(game, spec, seed, search=_search_agent)


__all__ = [
    "ZOO_DIR",
    "Agent",
    "RandomAgent",
    "best_baseline",
    "make_agent",
    "scripted",
    "scripted_names",
    "search_settings",
    "zoo_names",
    "zoo_path",
]
