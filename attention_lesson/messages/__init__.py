"""attention_lesson's words, in en, zh and ja: what the commands, the studio and batch say, things the
numbers core never says. `answers.py` (click's own words, and the studio's and the commands' answers to
a bad request), `commands.py` (the commands' own lines: `new`, a build's outcome, the voice commands,
`doctor`), `tools.py` (words check's summary, batch's notes, plan and run, `words export`'s comments).

Importing this package joins ANSWERS, COMMANDS and TOOLS into the core's tables
(attention_core.messages.join), one way: the core never imports them, and `errors.text` finds every key
of theirs as it finds the core's own. The package `attention_lesson` imports it first, so any command,
the studio and batch find them joined. CLICK is click's catalog, not joined (cli/click_words.py).
"""

from __future__ import annotations

from attention_core.messages import join

from .answers import ANSWERS
from .commands import COMMANDS
from .tools import TOOLS

for _table in (TOOLS, ANSWERS, COMMANDS):
    join(_table)
