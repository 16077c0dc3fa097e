"""The reply form's anti-bot step as the saved page shows it (fixtures/mybbru/c-reply-form-*.html, ENGINES.md §3):
an inline `process_form()` writes P-hex escaped HTML into `div#formkey`, assembled from the `innerHTML` of
randomly named spans (one of them a decoy), through a getter function of a random name, into variables of random
names; `div#formetc` receives a hidden input of a random name whose value the script sets. Each served form here
draws new names and values, so no fixed field passes; the board keeps what it issued and takes a POST that carries
one issued pair of fields (#formkey's and #formetc's).

Unverified (the emulator's own choice; the real script was shortened when it was saved): the decoy's content (here a
hidden input of its own random name, refused when sent), whether a form's fields stay good for more than one POST
(here they do), the lengths of the names and values, and the refusal's wording (the emulator's `info` frame)."""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass

_STEP = re.compile(r"\tdocument\.getElementById\('formkey'\)\.innerHTML=unescape\(.*?\n")
_GETTER = "zeHFdAlVLjEQn"  # the saved page's getter name, replaced by a random one


@dataclass(frozen=True)
class Issued:
    key: tuple[str, str]  # the field #formkey ends with
    etc: tuple[str, str]  # the field #formetc ends with
    decoy: str  # the decoy span's field name


def phex(text: str) -> str:
    return "".join(f"P{b:02X}" for b in text.encode("ascii"))


def _name(rng: random.Random, size: int) -> str:
    return rng.choice(string.ascii_letters) + "".join(rng.choice(string.ascii_letters) for _ in range(size - 1))


def _hexval(rng: random.Random) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(8))


def draw(page: str, rng: random.Random) -> tuple[str, Issued]:
    """The saved form with its anti-bot step drawn anew: the page to serve and what it issues."""
    issued = Issued(key=("a" + _hexval(rng)[:7], _hexval(rng)), etc=(_hexval(rng), _hexval(rng)),
                    decoy="a" + _hexval(rng)[:7])
    real = phex(f'<input type="hidden" name="{issued.key[0]}" value="{issued.key[1]}" />')
    cut = rng.randrange(10, len(real) - 10) // 3 * 3  # between two P-hex triples
    ids = [_name(rng, rng.randrange(6, 10)) for _ in range(3)]
    decoy = phex(f'<input type="hidden" name="{issued.decoy}" value="{_hexval(rng)}" />')
    spans = [(ids[0], real[:cut]), (ids[1], decoy), (ids[2], real[cut:])]
    rng.shuffle(spans)
    fragment = "".join(f'<span id="{i}">{text}</span>' for i, text in spans)
    names: list[str] = []
    while len(names) < 5:  # the getter and four variables, all distinct and none a span's id
        name = _name(rng, rng.randrange(5, 14))
        if name not in names and name not in ids:
            names.append(name)
    getter, a, b, c, d = names
    unescape = ".replace(/P([\\w]{2})/g,'%$1')"
    etc_html = phex(f'<input type="hidden" name="{issued.etc[0]}" value="">')
    step = (f"\tdocument.getElementById('formkey').innerHTML=unescape('{phex(fragment)}'{unescape});"
            f"{a}={getter}('{ids[0]}');{b}=''+{a}.innerHTML;{c}={getter}('{ids[2]}');{d}={b}+{c}.innerHTML;"
            f"document.getElementById('formkey').innerHTML=unescape({d}{unescape});"
            f"document.getElementById('formetc').innerHTML=unescape('{etc_html}'{unescape});"
            f"document.getElementById('formetc').getElementsByTagName('*')[0].value=unescape("
            f"'{phex(issued.etc[1])}'{unescape});\n")
    if not _STEP.search(page) or _GETTER not in page:
        raise ValueError("the saved reply form no longer holds the anti-bot step")
    return _STEP.sub(lambda _m: step, page, count=1).replace(_GETTER, getter), issued


def passes(form: dict[str, str], issued: list[Issued]) -> bool:
    """The POST carries one issued form's two fields, and no decoy's."""
    if any(i.decoy in form for i in issued):
        return False
    return any(form.get(i.key[0]) == i.key[1] and form.get(i.etc[0]) == i.etc[1] for i in issued)
