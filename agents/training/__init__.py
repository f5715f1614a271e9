"""Training by self-play with MaskablePPO: config, trainer, callbacks, opponent pool, warm start,
rollout improvement, the fast masked policy and vector envs."""
