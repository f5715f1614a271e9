"""How games are cut into chunks: big lock-step batches only when an agent batches, else small
enough chunks that every worker has work until the end (and results do not change)."""

from __future__ import annotations

from dataclasses import asdict

from cardarena.agents.evaluation.schedule import CHUNKS_PER_WORKER, make_chunks


def _todo(deals: int, tables: int = 4) -> list:
    return [(seed, (f"t{t}",)) for seed in range(deals) for t in range(tables)]


def test_batching_agents_keep_chunks_of_batch_games_whatever_the_workers():
    todo = _todo(100)
    for workers in (1, 2, 8):
        chunks = make_chunks(todo, 4, 256, workers, batching=True)
        assert [len(c) for c in chunks] == [256, 144]


def test_without_batching_every_worker_gets_several_chunks():
    todo = _todo(100)
    for workers in (1, 2, 4, 8):  # one process too: its progress and results file move
        chunks = make_chunks(todo, 4, 256, workers, batching=False)
        assert len(chunks) >= workers * CHUNKS_PER_WORKER // 2
        assert sorted(k for c in chunks for k in c) == sorted(todo)
        for chunk in chunks:  # a deck seed's tables stay together
            seeds = {s for s, _ in chunk}
            assert all((s, t) in chunk for s in seeds for t in {t for _, t in todo})
    assert len(make_chunks(_todo(3), 4, 256, 8, batching=False)) == 3  # at most one per seed


def test_search_tournament_with_workers_matches_one_process():
    from cardarena.agents.evaluation.tournament import run_tournament

    args = ("flip6", ["pimc:worlds=2,rollout=ev,horizon=round", "ev", "ev"], 6, {"num_players": 3})
    one = run_tournament(*args, progress=False, workers=1)
    two = run_tournament(*args, progress=False, workers=2)  # 6 chunks of one deck seed
    assert [asdict(r) for r in two.records] == [asdict(r) for r in one.records]
