"""Projections that learn: gradient descent on W_Q and W_K (W_V fixed) of the loss -log w(query -> target),
one query's attention in one context, every step kept; and the same step for the hard argmax lookup,
whose output does not change when a score moves a little: its gradient is exactly zero, nothing learns.

The gradient, written out (s = scale · K q, w = softmax(s), loss = logsumexp(s) - s_t):
    dloss/ds_j = w_j - [j = t]        dq = scale · Σ_j (dloss/ds_j) k_j        dk_j = scale · (dloss/ds_j) q
    grad W_Q = x_query ⊗ dq           grad W_K = Σ_j x_j ⊗ dk_j
Each step records the weights before it moves them: w_q, w_k, their loss, gradients and the query's
weights; then W ← W - learning_rate · grad (what torch.optim.SGD does, checked in the tests)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FD_STEP = 1e-6  # how far a score is nudged to measure the hard lookup's slope
FLAT = 0.05  # a loss that moves by less than this share of its first value has barely moved
SAME = 1e-9  # a loss above its first by no more than this has not risen (claims.SAME)


@dataclass(frozen=True)
class TrainingStep:
    loss: float
    w_q: np.ndarray  # [d_model, d_k] before this step's update
    w_k: np.ndarray  # [d_model, d_k]
    grad_w_q: np.ndarray  # [d_model, d_k]
    grad_w_k: np.ndarray  # [d_model, d_k]
    q: np.ndarray  # [d_k] the query's vector
    k: np.ndarray  # [n, d_k] the keys
    weights: np.ndarray  # [n] the query's weights over the keys
    angle: float = 0.0  # degrees between the query's vector and the target's key (in all d_k dimensions)


@dataclass(frozen=True)
class HardStep:
    """The hard lookup at the first step's weights: a one-hot choice, and its slopes (finite differences
    of the target's weight as each score is nudged) against the softmax's own."""

    choice: int  # the key argmax picks
    target_weight: float  # 1 when it picks the target, else 0
    slopes: np.ndarray  # [n] d(hard weight of the target)/d(score j), measured: all exactly 0
    soft_slopes: np.ndarray  # [n] d(softmax weight of the target)/d(score j) = w_t([j = t] - w_j)


@dataclass(frozen=True)
class TrainingRun:
    tokens: tuple[str, ...]
    query: int  # the query's position in the context
    target: int  # the target key's position
    learning_rate: float
    scale: float
    steps: tuple[TrainingStep, ...]  # steps + 1 records: the last is where the descent ends
    hard: HardStep


def visible(n: int, query: int, masked: bool) -> np.ndarray:  # -> [n] bool, the keys the query may see
    return np.arange(n) <= query if masked else np.ones(n, dtype=bool)


def softmax(s: np.ndarray) -> np.ndarray:  # [n] -> [n]; -inf gets exactly 0 (attention.softmax's rule)
    e = np.exp(s - s.max())
    return e / e.sum()


def scores_of(x, query, w_q, w_k, scale, seen) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The query's vector [d_k], the keys [n, d_k] and its softmax input [n] (-inf where hidden)."""
    q, k = x[query] @ w_q, x @ w_k
    return q, k, np.where(seen, scale * (k @ q), -np.inf)


def step_at(x, query, target, w_q, w_k, scale, seen) -> TrainingStep:
    """The loss -log w(query -> target) at W_Q, W_K and its gradients."""
    q, k, s = scores_of(x, query, w_q, w_k, scale, seen)
    top = s.max()
    loss = float(top + np.log(np.sum(np.exp(s - top))) - s[target])  # logsumexp(s) - s_t
    weights = softmax(s)
    g = weights.copy()
    g[target] -= 1.0  # dloss/ds; 0 where hidden (weight 0)
    dq = scale * (g @ k)  # [d_k]
    dk = scale * np.outer(g, q)  # [n, d_k]
    cos = float(q @ k[target] / (np.linalg.norm(q) * np.linalg.norm(k[target]) or 1.0))
    angle = float(np.degrees(np.arccos(np.clip(cos, -1.0, 1.0))))
    return TrainingStep(loss, w_q, w_k, np.outer(x[query], dq), x.T @ dk, q, k, weights, angle)


def hard_step(s: np.ndarray, target: int, weights: np.ndarray) -> HardStep:
    """The hard lookup's choice at scores s, and its slopes measured by nudging each score."""
    def hard_target(scores):
        return float(np.argmax(scores) == target)

    base = hard_target(s)
    nudges = FD_STEP * np.eye(len(s))  # [n, n] one score at a time
    slopes = np.array([(hard_target(s + nudge) - base) / FD_STEP for nudge in nudges])
    soft = weights[target] * (np.eye(len(s))[target] - weights)
    return HardStep(int(np.argmax(s)), base, slopes, soft)


def train(lesson, context: str | None = None, scale: float | None = None) -> TrainingRun:
    """A Lesson's [training] run in one context (default: its first), through the focus head, its scores
    times `scale` (default 1/√d_k, the scaled mode's; attention.scale_for gives each mode's). numpy only,
    nothing of the lesson reader imported: the reader checks a descent as it loads a file."""
    plan = lesson.training
    if plan is None:
        raise ValueError(f"{lesson.source} has no [training] table")
    tokens = lesson.context(context)
    x, (w_q, w_k, _) = lesson.embed(tokens), lesson.projections()
    query, target = tokens.index(plan.query), tokens.index(plan.target)
    scale = 1 / np.sqrt(w_q.shape[1]) if scale is None else scale
    seen = visible(len(tokens), query, lesson.mask == "causal")
    steps = []
    for _ in range(plan.steps + 1):
        steps.append(step_at(x, query, target, w_q, w_k, scale, seen))
        rate = plan.learning_rate
        w_q, w_k = w_q - rate * steps[-1].grad_w_q, w_k - rate * steps[-1].grad_w_k
    s = scores_of(x, query, steps[0].w_q, steps[0].w_k, scale, seen)[2]
    return TrainingRun(tokens, query, target, plan.learning_rate, scale, tuple(steps),
                       hard_step(s, target, steps[0].weights))


def descent(losses) -> str:
    """How a descent went, from its losses (each step's, the last where it ends): "falls" step after
    step, clearly (below 1 - FLAT of the first); "uneven" (clearly lower, but some step rose); "rises"
    (above 1 + FLAT of the first); or "flat". The explorer's core.js says the same (`descent`)."""
    first, last = losses[0], losses[-1]
    if last < (1 - FLAT) * first:
        return "falls" if all(b <= a for a, b in zip(losses, losses[1:])) else "uneven"
    return "rises" if last > (1 + FLAT) * first + SAME else "flat"


def training_json(run: TrainingRun) -> dict:
    keys = ("loss", "w_q", "w_k", "grad_w_q", "grad_w_k", "q", "weights", "angle")
    steps = [{k: (v.tolist() if isinstance(v, np.ndarray) else v) for k in keys for v in [getattr(s, k)]}
             for s in run.steps]
    h, zeros = run.hard, np.zeros_like(run.steps[0].w_q).tolist()  # the hard lookup's gradients
    return {"query": run.tokens[run.query], "target": run.tokens[run.target], "query_index": run.query,
            "target_index": run.target, "learning_rate": run.learning_rate, "scale": run.scale,
            "steps": steps, "descent": descent([s.loss for s in run.steps]),
            "hard": {"choice": h.choice, "target_weight": h.target_weight, "slopes": h.slopes.tolist(),
                     "soft_slopes": h.soft_slopes.tolist(), "grad_w_q": zeros, "grad_w_k": zeros}}
