"""Tool names of every class Python can print, for the generators: a name is any text, and the
reader must read each back as Python printed it, or say why not.

CLASSES maps a class to a function drawing one part of a name; unusual_name puts that part at the
start, inside or at the end of a usual name, or makes it the whole name.
"""

from __future__ import annotations

import random
import string
import sys
import unicodedata
from typing import Callable

WORDS = ["search", "get_weather", "sql", "x"]


def by_category(rng: random.Random, prefixes: tuple[str, ...]) -> str:
    """A random code point whose Unicode category starts with one of `prefixes`."""
    while True:
        c = chr(rng.randrange(0xA0, 0x30000))
        if unicodedata.category(c).startswith(prefixes):
            return c


def letters(rng: random.Random) -> str:
    """Letters, marks, numbers and symbols of any script, emoji among them."""
    emoji = chr(rng.randrange(0x1F300, 0x1FAF0))
    return "".join(rng.choice([emoji, by_category(rng, ("L", "M", "N", "S"))]) for _ in range(rng.randint(1, 3)))


FORMAT_CHARS: list[str] = []


def formats(rng: random.Random) -> str:
    """Format characters: bidi controls and isolates, zero-width ones, the soft hyphen, a BOM, any other Cf."""
    if not FORMAT_CHARS:
        FORMAT_CHARS.extend(chr(c) for c in range(0xA0, 0x30000) if unicodedata.category(chr(c)) == "Cf")
    return rng.choice(["\u202e", "\u202a", "\u2066", "\u2069", "\u200b", "\u200d", "\u200e", "\u00ad", "\ufeff",
                       rng.choice(FORMAT_CHARS)])


def blanks(rng: random.Random) -> str:
    """Blanks a name may hold inside or at its edges (no line break: the record shows it escaped anyway)."""
    return "".join(rng.choice([" ", " ", "\t", "\u00a0", "\u3000", "\u2009"]) for _ in range(rng.randint(1, 2)))


def punctuation(rng: random.Random) -> str:
    """Every ASCII punctuation character: brackets, quotes, = , ; : # and the rest."""
    return "".join(rng.choice(string.punctuation) for _ in range(rng.randint(1, 3)))


def backslashes(rng: random.Random) -> str:
    """Backslash text, printed raw by a custom repr and escaped in a string's."""
    return rng.choice(["\\", "\\u00e9", "\\n", "\\'", '\\"', "\\x41", "\\\\", "\\N{BULLET}"])


def markers(rng: random.Random) -> str:
    """Text the reader looks for to find a trace."""
    return rng.choice(["trace=", "trace=(", "StageRecord(", "'trace': [", '"trace": [', "SelectionResult(",
                       "trace=[", "StageRecord(stage='x')", "forced_choice="])


def keywords(rng: random.Random) -> str:
    """Python keywords and literals, and text a repr reader takes for a number."""
    return rng.choice(["None", "True", "False", "null", "inf", "nan", "Ellipsis", "if", "lambda", "0x1f", "1e5",
                       "-1", "0"])


CLASSES: dict[str, Callable[[random.Random], str]] = {
    "letters": letters,
    "formats": formats,
    "blanks": blanks,
    "punctuation": punctuation,
    "backslashes": backslashes,
    "markers": markers,
    "keywords": keywords,
}


def unusual_name(rng: random.Random, kind: str) -> str:
    """A name holding a part of the class `kind`: alone, or before, inside or after a usual word."""
    part = CLASSES[kind](rng)
    word = rng.choice(WORDS)
    return rng.choice([part, part + word, word + part, word[:2] + part + word[2:]])


if __name__ == "__main__":
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    for kind in CLASSES:
        print(kind, [unusual_name(rng, kind) for _ in range(6)])
