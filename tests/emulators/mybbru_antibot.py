"""The reply form's anti-bot step drawn anew for every form served, shaped as the real page's whole script is
(fixtures/mybbru/c-reply-form-antibot-whole.clanboard.REAL-TRIMMED.html, ENGINES.md §3).

What the real line does, and so what is drawn here:
- `#formkey` first receives a P-hex escaped fragment of some 16 elements of mixed tags (span, h1, p, div, strong), each
  of a random id, some with a class of random letters or one equal to another element's id, one decoy nested in a
  wrapper div; the order is shuffled;
- seven of them hold, P-hex escaped, the 16-character pieces of
  `formcode='<input type="hidden" name="8 hex" value="40 hex">';` and the others 12 to 27 junk bytes;
- through a getter function of a random name, two chains of random variables are built side by side from the same
  first element: the real one, read into `#formkey` at the end, and a decoy one that reads junk pieces (the saved
  page reads one of them twice) and is never written; a lookup or two are left unused (the saved page has two);
- `#formetc` receives a hidden input of a random name (8 hex) whose value (8 hex) the script sets after.
The board keeps what it issued and takes a POST that carries one issued form's two fields.

Unverified (the emulator's own choice): whether a form's fields stay good for more than one POST (here they do),
how many junk elements the engine draws each time (here 7 to 11; the saved page has 9), and the refusal's wording
(the emulator's `info` frame)."""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass

_STEP = re.compile(r"\tdocument\.getElementById\('formkey'\)\.innerHTML=unescape\(.*?\n")
_GETTER = "zeHFdAlVLjEQn"  # the saved page's getter name, replaced by a random one
_TAGS = ("span", "h1", "p", "div", "strong")
_UNESCAPE = ".replace(/P([\\w]{2})/g,'%$1')"


@dataclass(frozen=True)
class Issued:
    key: tuple[str, str]  # the field #formkey ends with
    etc: tuple[str, str]  # the field #formetc ends with
    real: str  # the variable the script writes into #formkey
    decoy: str  # the variable of the chain built beside it and never written


def phex(data: str | bytes) -> str:
    raw = data.encode("ascii") if isinstance(data, str) else data
    return "".join(f"P{b:02X}" for b in raw)


def _letters(rng: random.Random, low: int, high: int) -> str:
    return "".join(rng.choice(string.ascii_letters) for _ in range(rng.randint(low, high)))


def _hex(rng: random.Random, size: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(size))


def _fragment(real: list[tuple[str, str]], junk: list[tuple[str, str]], rng: random.Random) -> str:
    """The elements (id, P-hex content) as markup, shuffled; a class is a random word or another element's id."""
    items = real + junk
    rng.shuffle(items)
    ids = [i for i, _ in items]
    nested = rng.choice([i for i, _ in junk])  # the real page holds one junk div inside a div of its own
    out = []
    for ident, content in items:
        tag = "div" if ident == nested else rng.choice(_TAGS)
        attrs = [f'id="{ident}"']
        roll = rng.random()
        if roll < 0.3:
            attrs.append(f'class="{rng.choice(ids)}"')  # a class that names another element's id
        elif roll < 0.6:
            attrs.append(f'class="{_letters(rng, 5, 10)}"')
        rng.shuffle(attrs)
        element = f"<{tag} {' '.join(attrs)}>{content}</{tag}>"
        if ident == nested:
            element = f'<div id="{_letters(rng, 8, 13)}">{element}</div>'
        out.append(element)
    return "".join(out)


def draw(page: str, rng: random.Random) -> tuple[str, Issued]:
    """The saved form with its anti-bot line drawn anew: the page to serve and what it issues."""
    key, etc = (_hex(rng, 8), _hex(rng, 40)), (_hex(rng, 8), _hex(rng, 8))
    taken: set[str] = set()

    def fresh(low: int, high: int) -> str:
        while True:
            name = _letters(rng, low, high)
            if name not in taken:
                taken.add(name)
                return name

    text = f"formcode='<input type=\"hidden\" name=\"{key[0]}\" value=\"{key[1]}\">';"
    pieces = [text[i:i + 16] for i in range(0, len(text), 16)]  # the real page's pieces: 16 characters each
    real = [(fresh(7, 15), phex(p)) for p in pieces]
    junk = [(fresh(7, 15), phex(bytes(rng.randrange(256) for _ in range(rng.randint(12, 27)))))
            for _ in range(rng.randint(7, 11))]
    getter = fresh(10, 14)
    decoy_ids = [real[0][0], *(rng.choice(junk)[0] for _ in range(len(real) - 1))]
    steps: list[str] = []
    a = fresh(5, 9)
    r, d = fresh(5, 9), fresh(5, 9)
    steps += [f"{a}={getter}('{real[0][0]}')", f"{r}=''+{a}.innerHTML", f"{d}=''+{a}.innerHTML"]
    unused = {rng.randrange(1, len(real)) for _ in range(2)}
    for k in range(1, len(real)):
        x, y = fresh(5, 9), fresh(5, 9)
        lookups = [f"{x}={getter}('{real[k][0]}')", f"{y}={getter}('{decoy_ids[k]}')"]
        if k in unused:
            lookups.append(f"{fresh(5, 9)}={getter}('{rng.choice(real + junk)[0]}')")
        rng.shuffle(lookups)
        r2, d2 = fresh(5, 9), fresh(5, 9)
        steps += [*lookups, f"{r2}={r}+{x}.innerHTML", f"{d2}={d}+{y}.innerHTML"]
        r, d = r2, d2
    fragment = _fragment(real, junk, rng)
    etc_html = phex(f'<input type="hidden" name="{etc[0]}" value="">')
    line = (f"\tdocument.getElementById('formkey').innerHTML=unescape('{phex(fragment)}'{_UNESCAPE});"
            + "".join(s + ";" for s in steps)
            + f"document.getElementById('formkey').innerHTML=unescape({r}{_UNESCAPE});"
            f"document.getElementById('formetc').innerHTML=unescape('{etc_html}'{_UNESCAPE});"
            f"document.getElementById('formetc').getElementsByTagName('*')[0].value=unescape("
            f"'{phex(etc[1])}'{_UNESCAPE});\n")
    if not _STEP.search(page) or _GETTER not in page:
        raise ValueError("the saved reply form no longer holds the anti-bot step")
    served = _STEP.sub(lambda _m: line, page, count=1).replace(_GETTER, getter)
    return served, Issued(key=key, etc=etc, real=r, decoy=d)


def passes(form: dict[str, str], issued: list[Issued]) -> bool:
    """The POST carries one issued form's two fields."""
    return any(form.get(i.key[0]) == i.key[1] and form.get(i.etc[0]) == i.etc[1] for i in issued)
