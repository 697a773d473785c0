"""`attention-lesson real`: a sentence of the teacher's own through a pretrained model
(multilingual-e5-small, from the `[real]` extra, run by attention_core/real in numpy): its tokens as the
model cuts them and, for a focus token, the key it weighs most in every layer and head. Without the extra:
one line naming what to install, exit status 2."""

from __future__ import annotations

import json
import sys
from collections import Counter

import click

from attention_core.errors import text
from attention_core.language import LANGS, resolve
from attention_core.messages import MESSAGES

from .numbers import pad, width


def grid(att, focus: int) -> str:
    """Layers as rows, heads as columns: the focus token's strongest other key in each."""
    keys = att.strongest_keys(focus)  # [layers, heads]
    words = [[att.word(int(k)) or "▁" for k in row] for row in keys]
    col = max(width(w) for row in words for w in row) + 2
    lines = [" " * 4 + "".join(pad(f"H{h + 1}", col) for h in range(att.heads))]
    lines += [pad(f"L{i + 1}", 4, right=False) + "".join(pad(w, col) for w in row)
              for i, row in enumerate(words)]
    return "\n".join(lines)


def counts(att, focus: int) -> dict[str, int]:
    """word -> how many heads give the focus token's strongest other key to it, most first."""
    found = Counter(att.word(int(k)) or "▁" for k in att.strongest_keys(focus).ravel())
    return dict(found.most_common())


def focus_of(att, word: str | None, lang: str) -> int | None:
    if word is None:
        return None
    i = att.find(word)
    if i is None:
        click.echo(text(lang, "real_no_focus", word=word, tokens=" ".join(att.tokens)), err=True)
        sys.exit(2)
    return i


def as_json(att, focus: int | None) -> str:
    data = {**att.as_json(), "focus": focus, "special_share": att.special_share().tolist()}
    if focus is not None:
        data["strongest_keys"] = att.strongest_keys(focus).tolist()
        data["heads_choosing"] = counts(att, focus)
    return json.dumps(data, ensure_ascii=False)


def report(att, focus: int | None, lang: str) -> None:
    click.echo(text(lang, "real_model", model=att.model, layers=att.layers, heads=att.heads))
    click.echo(text(lang, "real_tokens", n=len(att.tokens), tokens=" ".join(att.tokens)))
    if focus is not None:
        click.echo(text(lang, "real_focus", word=att.word(focus), i=focus + 1))
        click.echo(grid(att, focus))
        total = att.layers * att.heads
        said = MESSAGES[lang]["list_sep"].join(f"{w} {n}/{total}" for w, n in counts(att, focus).items())
        click.echo(text(lang, "real_counts", counts=said))
    click.echo(text(lang, "real_sinks", share=f"{att.special_share().mean():.0%}"))


@click.command("real")
@click.argument("sentence")
@click.option("--focus", metavar="WORD", default=None,
              help="The token whose strongest key is shown in every layer and head (e.g. 银行).")
@click.option("--lang", type=click.Choice(LANGS), default=None,
              help="Language of the messages (default: $ATTENTION_LESSON_LANG, else zh).")
@click.option("--json", "as_json_", is_flag=True, help="Print the tokens and every head's weights as JSON.")
def real(sentence, focus, lang, as_json_):
    """Run SENTENCE through a pretrained model (multilingual-e5-small, the [real] extra; offline, numpy):
    its tokens, every layer's and head's attention, and the focus token's strongest keys."""
    from attention_core.real import e5_attention, model_missing

    lang = resolve(lang)
    if missing := model_missing():
        click.echo(text(lang, "real_missing", package=missing.split()[0]), err=True)
        sys.exit(2)
    att = e5_attention(sentence)
    at = focus_of(att, focus, lang)
    if as_json_:
        click.echo(as_json(att, at))
    else:
        report(att, at, lang)
