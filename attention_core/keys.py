"""Every key a lesson file may hold, in one table: its type, its shape, its default and its meaning, and
a wrong value for it (the guide's reference shows the error that value gets, by running the parser).

The parser takes its top-level keys from here (lesson.py's TOP_KEYS); a test checks that every key each
reader accepts (lesson.py, heads.py, axes.py) has its row. A key's name is written as errors name it,
with `<...>` for a name the teacher chooses: `vocab.<token>`, `heads.<head>.w_q`.
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass

REQUIRED = "required"
DELETE = object()  # as a wrong value: the key left out


@dataclass(frozen=True)
class Key:
    name: str  # as errors name it; <...>: a name the teacher chooses
    type: str  # the TOML type
    shape: str  # its size, in the lesson's dimensions
    default: str  # REQUIRED, or what a lesson without it gets
    meaning: str
    wrong: object = DELETE  # a value the parser refuses (DELETE: leaving it out)
    lesson: str = "default"  # the built-in lesson the wrong value is tried on

    @property
    def top(self) -> str:
        return self.name.split(".")[0]


KEYS: tuple[Key, ...] = (
    Key("lang", "string", '"zh", "en" or "ja"', "none: --lang, else ATTENTION_LESSON_LANG, else zh",
        "the language every command shows the lesson in unless --lang says otherwise", "fr"),
    Key("focus", "string", "a token in every context", "the first context's last token",
        "the token whose query the step-by-step scenes expand", "nobody"),
    Key("author", "string", "", '""', "who made the lesson: the decks' and the files' author", 42),
    Key("title", "table", "zh, en", "the scenes' generic title", "the lesson's title in each language", "x"),
    Key("title.<lang>", "string", "", "the other language's, else generic", "the title in zh or en", 3),
    Key("dimensions", "table", "zh, en", "v1, v2…", "names of the value dimensions (of the embedding's, in "
        "a lesson of several heads), shown on every axis and table", "x"),
    Key("dimensions.<lang>", "array of strings", "d_v names (d_model with several heads)", "v1, v2…",
        "the dimensions' names in zh or en", ["one"]),
    Key("vocab", "table", "2 to 8 numbers a token, the same for all", REQUIRED,
        "each token's embedding: token = [numbers]; a token other than plain Latin letters is quoted "
        '("苹果" = [...])', {}),
    Key("vocab.<token>", "array of numbers", "d_model (2 to 8)", REQUIRED, "one token's embedding",
        [1.0, 2.0, 3.0]),
    Key("projections", "table", "w_q, w_k, w_v (w_o alone with several heads)", REQUIRED,
        "the learned projections of the one head", DELETE),
    Key("projections.w_q", "array of arrays of numbers", "d_model rows × d_k columns", REQUIRED,
        "W_Q: row i is embedding dimension i, column j query dimension j", [[1.0, 0.0]]),
    Key("projections.w_k", "array of arrays of numbers", "d_model rows × d_k columns (as w_q)", REQUIRED,
        "W_K: what a token offers to be matched", [[1.0], [0.0], [0.0], [1.0]]),
    Key("projections.w_v", "array of arrays of numbers", "d_model rows × d_v columns", REQUIRED,
        "W_V: what a token gives when attended", "0.5"),
    Key("projections.w_o", "array of arrays of numbers", "Σ d_v rows × d_model columns",
        "required with [heads], refused without", "W_O: the heads' outputs side by side back to d_model",
        DELETE, "two_heads"),
    Key("contexts", "table", "at least one context", REQUIRED,
        "name = [tokens]: the sentences; the first is the default --context", {}),
    Key("contexts.<name>", "array of strings", "2 to 8 tokens of vocab", REQUIRED,
        "one context's tokens, in order", ["bank"]),
    Key("context_labels", "table", "one entry per context", "the context's key",
        "what each context is called on screen and in the narration", "x"),
    Key("context_labels.<name>", "inline table", '{ zh = "…", en = "…" }', "the context's key",
        "one context's name in each language", "by the river", "causal"),
    Key("narration", "table", "zh, en", "no story", "the lesson's own lines, per language", "x"),
    Key("narration.<lang>.story", "string", "one sentence", "no story",
        "the lesson's own story, told where the overview compares its contexts", 3),
    Key("geometry", "table", "qk, values", "the two axes that carry the most",
        "which two axes the geometry scene's planes and the explorer's show", "x"),
    Key("geometry.qk", "array of 2 integers", "two different d_k axes, from 1", "the two that carry the "
        "most of the focus's q·k terms", "the plane of queries and keys", [1, 1]),
    Key("geometry.values", "array of 2 names or integers", "two different value dimensions (names or "
        "numbers from 1)", "the two that carry the most of the weighted values", "the plane of values",
        [1, 99]),
    Key("mask", "string", '"none" or "causal"', '"none"',
        "causal: query i sees keys j ≤ i only (a decoder); adds the mask scene", "future"),
    Key("heads", "table", "1 to 4 heads", "one head, from [projections]",
        "several heads, each [heads.<head>] its own projections; adds the heads scene", "x", "two_heads"),
    Key("heads.<head>.zh", "string", "", "the head's key", "the head's name in Chinese", "", "two_heads"),
    Key("heads.<head>.en", "string", "", "the head's key", "the head's name in English", "", "two_heads"),
    Key("heads.<head>.ja", "string", "", "the head's key", "the head's name in Japanese", "", "two_heads"),
    Key("heads.<head>.w_q", "array of arrays of numbers",
        "d_model rows × d_k columns (each head its own d_k)", REQUIRED, "the head's W_Q", [[1.0]],
        "two_heads"),
    Key("heads.<head>.w_k", "array of arrays of numbers", "d_model rows × d_k columns (as its w_q)",
        REQUIRED, "the head's W_K", DELETE, "two_heads"),
    Key("heads.<head>.w_v", "array of arrays of numbers", "d_model rows × d_v columns (each head its own "
        "d_v)", REQUIRED, "the head's W_V", "x", "two_heads"),
    Key("focus_head", "string", "a key of [heads]", "the first head",
        "the head the step-by-step scenes expand", "nobody", "two_heads"),
    Key("words", "string", "a folder, relative to the lesson file", "none: the built-in words",
        "the teacher's own words (words export writes one; DIR/<lang>/<name>.toml), key by key over the "
        "built-in ones", 3),
    Key("training", "table", "query, target, learning_rate, steps", "no training (no learning scene)",
        "gradient descent on W_Q and W_K of −log w(query→target): the learning scene", "x", "learning"),
    Key("training.query", "string", "a token of every context", "the focus",
        "the token whose query learns", "nobody", "learning"),
    Key("training.target", "string", "a token of every context", REQUIRED,
        "the key the query should attend to", DELETE, "learning"),
    Key("training.learning_rate", "number", "above 0", "0.5", "the step of each update", 0, "learning"),
    Key("training.steps", "integer", "1 to 40", "8", "how many updates", 0, "learning"),
    Key("positions", "table", "kind, base", "no positions (no positions scene)",
        "positions added to X (sinusoidal) or turning q and k (rope): the positions scene", "x", "positions"),
    Key("positions.kind", "string", '"sinusoidal" or "rope" (rope: an even d_k)', '"sinusoidal"',
        "how positions enter", "spiral", "positions"),
    Key("positions.base", "number", "above 1", "10000", "the wavelengths' base", 1, "positions"),
    Key("tiling", "table", "block", "no tiles (no tiles scene)",
        "the online softmax over blocks of keys: the tiles scene", "x", "tiled"),
    Key("tiling.block", "integer", "1 to 8", "2", "keys per block", 0, "tiled"),
    Key("real", "table", "sentence, focus, model, expect", "no real model (no real scene)",
        "the teacher's own sentence through a pretrained model (the [real] extra): the real scene", "x",
        "real"),
    Key("real.sentence", "string", "1 to 60 characters", REQUIRED, "the sentence the model reads", DELETE,
        "real"),
    Key("real.focus", "string", "a part of real.sentence", REQUIRED,
        "the token the real scene follows (checked against the model's tokens when it runs)", "nobody",
        "real"),
    Key("real.model", "string", '"e5" or "smollm2"', '"e5"',
        "the model: multilingual-e5-small, or SmolLM2-135M (causal: the sentence is a prompt)", "gpt",
        "real"),
    Key("real.expect", "string", "a part of real.sentence", "none: the word most heads choose",
        "the key the toy lesson picks: the real scene counts the heads that choose it", "nobody", "real"),
)

TOP = tuple(dict.fromkeys(k.top for k in KEYS))  # the top-level keys, in the table's order
REQUIRED_TOP = tuple(k.name for k in KEYS if "." not in k.name and k.default == REQUIRED)


def broken(data: dict, key: Key) -> dict:
    """A copy of a lesson's parsed TOML with `key` given its wrong value: each <...> part of its name
    stands for the table's last entry (the first is where a row's length is learnt)."""
    data = deepcopy(data)
    *path, last = key.name.split(".")
    table = data
    for part in path:
        part = list(table)[-1] if part.startswith("<") else part
        table = table.setdefault(part, {})
    last = list(table)[-1] if last.startswith("<") else last
    if key.wrong is DELETE:
        table.pop(last, None)
    else:
        table[last] = deepcopy(key.wrong)
    return data
