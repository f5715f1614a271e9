"""sb3-contrib's masked actor-critic policy with the masked distribution computed in place.

``MaskableActorCriticPolicy`` builds two ``torch.distributions.Categorical`` objects for every
forward pass (one on the raw logits, one after masking), each validating its arguments; at the
rollout's batch of 8 that object overhead was most of the distribution's cost. This subclass runs
the very same tensor operations in the same order (normalise, mask with -1e8, normalise again,
softmax, one ``torch.multinomial`` draw, gather, masked entropy) without the objects, so actions,
log-probabilities, entropies and the random stream are bit-identical to the parent's
(``tests/test_training.py::test_fast_masked_policy_matches_sb3_contrib``). Only ``forward`` (the
rollout) and ``evaluate_actions`` (the PPO update) change; ``predict`` and ``get_distribution`` are
the parent's. Checkpoints name this class, so loading one needs this module importable.
"""

from __future__ import annotations

import numpy as np
import torch as th
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

_HUGE_NEG = -1e8  # what sb3-contrib's MaskableCategorical puts on masked logits


def masked_log_probs(
    raw: th.Tensor, masks: th.Tensor | np.ndarray | None
) -> tuple[th.Tensor, th.Tensor | None]:
    """(normalised masked logits, boolean masks) exactly as ``MaskableCategorical`` computes them."""
    logits = raw - raw.logsumexp(dim=-1, keepdim=True)
    if masks is None:
        return logits, None
    mask = th.as_tensor(masks, dtype=th.bool, device=raw.device).reshape(logits.shape)
    logits = th.where(mask, logits, th.tensor(_HUGE_NEG, dtype=logits.dtype, device=raw.device))
    return logits - _MaskedLogSumExp.apply(logits, mask), mask


class _MaskedLogSumExp(th.autograd.Function):
    """``x.logsumexp(dim=-1, keepdim=True)`` for ``x`` holding -1e8 at the masked entries, with
    the same values and gradients bit for bit, without taking ``exp`` of those entries.

    torch's CPU ``exp`` leaves its vectorised path for any input below about -87 (whose exp is a
    denormal or 0): on the masked logits, most of them near -1e8, it ran 15 times slower than on
    ordinary numbers, and the two logsumexps of a masked distribution (forward and backward) were
    about an eighth of a PPO update of a game with 434 actions. torch computes ``logsumexp`` as
    ``log(sum(exp(x - max))) + max`` and its gradient as ``grad * exp(x - result)``; here each
    masked term, whose exp is exactly 0 in float32 either way, is 0 without being computed, and
    every other term is computed as torch computes it, so the sums, the logs and the gradients are
    those of ``logsumexp`` (``tests/test_training.py`` checks values, gradients and a whole
    ``learn`` against sb3-contrib's policy bit for bit). A row must hold at least one legal entry
    (an action mask is never empty).
    """

    @staticmethod
    def forward(ctx: object, x: th.Tensor, mask: th.Tensor) -> th.Tensor:  # type: ignore[override]
        zero = th.zeros((), dtype=x.dtype, device=x.device)
        maxes = x.amax(dim=-1, keepdim=True)
        terms = th.where(mask, x - maxes, zero).exp_()
        out = th.where(mask, terms, zero).sum(dim=-1, keepdim=True).log_().add_(maxes)
        ctx.save_for_backward(x, out, mask)  # type: ignore[attr-defined]
        return out

    @staticmethod
    def backward(ctx: object, grad: th.Tensor) -> tuple[th.Tensor, None]:  # type: ignore[override]
        x, out, mask = ctx.saved_tensors  # type: ignore[attr-defined]
        zero = th.zeros((), dtype=x.dtype, device=x.device)
        return grad * th.where(mask, th.where(mask, x - out, zero).exp(), zero), None


class FastMaskablePolicy(MaskableActorCriticPolicy):
    """``MaskableActorCriticPolicy`` without distribution objects in ``forward`` and
    ``evaluate_actions`` (see the module docstring)."""

    def _latents(self, obs: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        features = self.extract_features(obs)
        if self.share_features_extractor:
            return self.mlp_extractor(features)
        pi_features, vf_features = features
        return self.mlp_extractor.forward_actor(pi_features), self.mlp_extractor.forward_critic(
            vf_features
        )

    def forward(
        self,
        obs: th.Tensor,
        deterministic: bool = False,
        action_masks: np.ndarray | None = None,
    ) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
        latent_pi, latent_vf = self._latents(obs)
        values = self.value_net(latent_vf)
        logits, _ = masked_log_probs(self.action_net(latent_pi), action_masks)
        probs = th.softmax(logits, dim=-1)  # Categorical.probs
        if deterministic:  # Categorical.mode
            actions = probs.argmax(dim=-1)
        else:  # Categorical.sample: one multinomial draw per row
            actions = th.multinomial(probs, 1, True).T.reshape(logits.shape[:-1])
        log_prob = logits.gather(-1, actions.long().unsqueeze(-1)).squeeze(-1)
        actions = actions.reshape((-1, *self.action_space.shape))  # type: ignore[misc]
        return actions, values, log_prob

    def evaluate_actions(
        self,
        obs: th.Tensor,
        actions: th.Tensor,
        action_masks: th.Tensor | None = None,
    ) -> tuple[th.Tensor, th.Tensor, th.Tensor | None]:
        latent_pi, latent_vf = self._latents(obs)
        logits, mask = masked_log_probs(self.action_net(latent_pi), action_masks)
        log_prob = logits.gather(-1, actions.long().reshape(-1, 1)).squeeze(-1)
        values = self.value_net(latent_vf)
        p_log_p = logits * th.softmax(logits, dim=-1)
        if mask is not None:  # masked actions add no entropy (as MaskableCategorical.entropy)
            p_log_p = th.where(mask, p_log_p, th.tensor(0.0, device=logits.device))
        return values, log_prob, -p_log_p.sum(-1)
