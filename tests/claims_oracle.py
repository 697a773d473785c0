"""An independent reference for what the lines claim (tests/test_claims.py): every predicate of
attention_core/claims.py computed again, another way, from a lesson's inputs only (its embeddings and
projections: the data, not the core's intermediates). Training is PyTorch's autograd and SGD; RoPE is a
complex rotation; the tiles' running maximum is read off the scores block by block; attention is torch's.
"""

from __future__ import annotations

import math

import numpy as np
import torch

SAME = 1e-9


def attention(x, wq, wk, wv, masked: bool, scale: float):
    """(scores [n, n], weights, output) of scaled dot-product attention, in float64 torch."""
    q, k, v = (torch.as_tensor(x) @ torch.as_tensor(w) for w in (wq, wk, wv))
    return torch_pass(q, k, v, masked, scale)


def torch_pass(q, k, v, masked: bool, scale: float):
    s = q @ k.T
    scaled = s * scale
    if masked:
        scaled = scaled.masked_fill(torch.triu(torch.ones_like(s, dtype=torch.bool), 1), -math.inf)
    w = torch.softmax(scaled, dim=1)
    return s.numpy(), w.numpy(), (w @ v).numpy(), scaled.numpy()


def placed(lesson, tokens, start: int = 0):
    """(scores, weights, output) with the lesson's positions: sines added to X, or Q and K turned as
    complex numbers, pair (2i, 2i+1) by p · base^(-2i/d_k)."""
    x = lesson.embed(tokens).astype(float)
    wq, wk, wv = lesson.projections()
    n, kind, base = len(tokens), lesson.positions.kind, lesson.positions.base
    p = np.arange(start, start + n)[:, None]
    if kind == "sinusoidal":
        d = x.shape[1]
        pe = np.array([[math.sin(pp / base ** (2 * (j // 2) / d)) if j % 2 == 0 else
                        math.cos(pp / base ** (2 * (j // 2) / d)) for j in range(d)] for pp in p[:, 0]])
        x = x + pe
    q, k, v = x @ wq, x @ wk, x @ wv
    if kind == "rope":
        turn = np.exp(1j * p * base ** (-np.arange(0, q.shape[1], 2) / q.shape[1]))
        q, k = (_real(_complex(m) * turn) for m in (q, k))
    return torch_pass(*(torch.as_tensor(m) for m in (q, k, v)), lesson.mask == "causal",
                      1 / math.sqrt(q.shape[1]))[:3]


def _complex(m):
    return m[:, 0::2] + 1j * m[:, 1::2]


def _real(c):
    out = np.empty((c.shape[0], 2 * c.shape[1]))
    out[:, 0::2], out[:, 1::2] = c.real, c.imag
    return out


def descent(lesson, context: str) -> list[dict]:
    """The [training] run with torch.optim.SGD: each step's loss, target weight, angle, |q|, |k| and the
    target's softmax input, before its update; the last record is where the descent ends."""
    plan, tokens = lesson.training, lesson.context(context)
    x = torch.as_tensor(lesson.embed(tokens), dtype=torch.float64)
    wq, wk, _ = (torch.tensor(w, dtype=torch.float64, requires_grad=True) for w in lesson.projections())
    qi, ti, scale = tokens.index(plan.query), tokens.index(plan.target), 1 / math.sqrt(wq.shape[1])
    opt, out = torch.optim.SGD([wq, wk], lr=plan.learning_rate), []
    for _ in range(plan.steps + 1):
        q, k = x[qi] @ wq, x @ wk
        s = scale * (k @ q)
        if lesson.mask == "causal":
            s = s.masked_fill(torch.arange(len(tokens)) > qi, -math.inf)
        logw = torch.log_softmax(s, 0)
        cos = torch.dot(q, k[ti]) / (q.norm() * k[ti].norm())
        out.append({"loss": float(-logw[ti].detach()), "weights": logw.exp().detach().numpy(),
                    "angle": math.degrees(math.acos(max(-1.0, min(1.0, float(cos.detach()))))),
                    "q": float(q.norm().detach()), "k": float(k[ti].norm().detach()),
                    "s": s.detach().numpy()})
        opt.zero_grad()
        (-logw[ti]).backward()
        opt.step()
    return out


def block_maxima(row: np.ndarray, block: int) -> list[float]:
    return [float(np.max(row[lo:lo + block])) for lo in range(0, len(row), block)]


def rescale(row: np.ndarray, block: int) -> dict | None:
    """The block (from 1) where the running maximum rises most after the first, its old and new m, α."""
    best, m = None, -math.inf
    for b, top in enumerate(block_maxima(row, block)):
        new = max(m, top)
        alpha = math.exp(m - new) if math.isfinite(m) else 0.0
        if b > 0 and alpha < 1 and (best is None or alpha < best["alpha"]):
            best = {"at": b + 1, "m_old": m, "m_new": new, "alpha": alpha}
        m = new
    return best


class RealReference:
    """The real scene's predicates, from the model's weights read anew: the focus found by its text, each
    head's strongest other key picked in a loop, the sinks summed column by column (not result.py's
    or study.py's functions). A mixin of test_claims.Reference; `self.lesson` has a [real] table."""

    def real_pass(self):
        """(attention, words, the keys a head may choose, focus); a causal model's first token is its sink."""
        if "pass" in self.__dict__:
            return self.__dict__["pass"]
        if self.causal:
            att = self.next_token().attention
        else:
            from attention_core.real import e5_attention

            att = e5_attention(self.lesson.real.sentence)
        words = [t.replace("\u2581", "").strip() or t for t in att.tokens]
        ordinary = [i for i in range(len(words)) if not att.special[i] and (i > 0 or not self.causal)]
        want = self.lesson.real.focus
        focus = next((i for i in ordinary if words[i] == want), None)
        focus = focus if focus is not None else next(i for i in ordinary if want in words[i])
        self.__dict__["pass"] = att, words, ordinary, focus
        return self.__dict__["pass"]

    @property
    def causal(self) -> bool:
        return self.lesson.real.model == "smollm2"

    def next_token(self):
        from attention_core.real.smollm2 import next_token

        if "next" not in self.__dict__:
            self.__dict__["next"] = next_token(self.lesson.real.sentence)
        return self.__dict__["next"]

    def real_counts(self) -> dict[str, int]:
        att, words, ordinary, focus = self.real_pass()
        counts: dict[str, int] = {}
        for layer in att.weights:
            for head in layer:
                best = max((j for j in ordinary if j != focus), key=lambda j: float(head[focus, j]))
                counts[words[best]] = counts.get(words[best], 0) + 1
        return counts

    def real_share(self) -> tuple[float, float]:
        """The mean weight a row gives <s> and </s> (a causal model's rows after the first: its first token),
        and what an even share would give them."""
        att = self.real_pass()[0]
        n = len(att.tokens)
        if self.causal:
            rows = [float(head[i, 0]) for layer in att.weights for head in layer for i in range(1, n)]
            return sum(rows) / len(rows), sum(1 / (i + 1) for i in range(1, n)) / (n - 1)
        marks = [j for j in range(n) if att.special[j]]
        rows = [sum(float(row[j]) for j in marks) for layer in att.weights for head in layer for row in head]
        return sum(rows) / len(rows), len(marks) / n

    def _focus_whole(self):
        att, words, _, focus = self.real_pass()
        return words[focus] == self.lesson.real.focus

    def _focus_within(self):
        return not self._focus_whole()

    def _expect_found(self):
        _, words, ordinary, _ = self.real_pass()
        expect = self.lesson.real.expect
        return expect is not None and any(words[i] == expect for i in ordinary)

    def _expect_top(self):
        counts, expect = self.real_counts(), self.lesson.real.expect
        mine = counts.get(expect, 0)
        return self._expect_found() and all(n < mine for w, n in counts.items() if w != expect)

    def _sinks_heavy(self):
        share, even = self.real_share()
        return share > even

    def _sinks_light(self):
        return not self._sinks_heavy()

    # the causal model: the mask, RoPE, the next token
    def _causal(self):
        return self.causal

    def _encoder(self):
        return not self.causal

    def _mask_zero(self):
        """Every weight after its row's token exactly 0, every row summing to 1 (added up in a loop)."""
        if not self.lesson.real or not self.causal:
            return False
        w = self.real_pass()[0].weights
        n = w.shape[-1]
        zero = all(float(head[i, j]) == 0.0 for layer in w for head in layer for i in range(n)
                   for j in range(i + 1, n))
        return zero and all(abs(sum(float(x) for x in row) - 1) < 1e-5 for layer in w for head in layer
                            for row in head)

    def _rope_relative(self):
        """Two random q, k turned as complex numbers by the model's base: a score at positions (i, j) is
        the score at (i + s, j + s)."""
        if not self.lesson.real or not self.causal:
            return False
        from attention_core.real.smollm2 import load_smollm2

        base, rng = load_smollm2().shape.rope_base, np.random.default_rng(1)
        q, k = rng.standard_normal(32) + 1j * rng.standard_normal(32), rng.standard_normal(32) + 0j
        turn = lambda p: np.exp(1j * p * base ** (-np.arange(0, 64, 2) / 64))  # noqa: E731
        score = lambda i, j: float(np.real(np.vdot(k * turn(j), q * turn(i))))  # noqa: E731
        return all(abs(score(i + s, j + s) - score(i, j)) < 1e-9 for i in range(5) for j in range(5)
                   for s in range(1, 9))

    def _next_p(self) -> float:
        logits = self.next_token().logits.astype(float)
        p = np.exp(logits - logits.max())
        return float(p.max() / p.sum())

    def _next_sure(self):
        return bool(self.lesson.real) and self.causal and self._next_p() >= 0.5

    def _next_unsure(self):
        return bool(self.lesson.real) and self.causal and self._next_p() < 0.5
