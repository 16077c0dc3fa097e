"""Benchmark: parse time of the worst inputs known, at post sizes up to the 60,000-character post limit.

    python3 bench/parse_worst.py            # every pattern at 1,000 .. 60,000 characters
    python3 bench/parse_worst.py 8000       # only up to 8,000 (a parser still quadratic takes minutes at 60,000)

Every fold re-parses every stored post (issue 7 item 13), so one post must not cost more than its length.
Prints seconds and microseconds per character for each size; linear parsing keeps the last column flat.
Asserts nothing: machine speed is no test (tests/test_parse_linear.py counts work instead).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))

from forumbot.model import MoveKind  # noqa: E402
from forumbot.parse import (  # noqa: E402
    NickMatcher,
    parse_command,
    parse_duration,
    parse_hunt_vote,
    parse_moscow_vote,
    parse_pm,
    parse_runoff_vote,
    strip_markup,
)

NICKS = ["Маша", "Петя", "Кот Баюн", "AC/DC", "Вася", "Дон Корлеоне", "Наташа", "Сера", "Cepa", "М1"]
M = NickMatcher(NICKS, {"Котик": "Кот Баюн"})


def rep(unit: str, prefix: str = "", suffix: str = "") -> Callable[[int], str]:
    """`prefix` + `unit` repeated + `suffix`, `size` characters long in all."""
    def make(size: int) -> str:
        body = size - len(prefix) - len(suffix)
        return prefix + (unit * (body // len(unit) + 1))[:body] + suffix
    return make


def moscow(text: str) -> object:
    return parse_moscow_vote(text, M, NICKS)


def hunt(text: str) -> object:
    return parse_hunt_vote(text, M, NICKS)


def runoff(text: str) -> object:
    return parse_runoff_vote(text, M, NICKS, ["Маша", "Петя"])


def pm(text: str) -> object:
    return parse_pm(text, M, variant="free_hunt", alive=NICKS, everyone=NICKS, bare_kind=MoveKind.CHECK,
                    sender="Маша")


def command(text: str) -> object:
    return parse_command(text, M, everyone=NICKS, parse_vote=moscow)


CASES: list[tuple[str, Callable[[str], object], Callable[[int], str]]] = [
    ("strip_markup <!--", strip_markup, rep("<!--")),
    ("strip_markup [img]", strip_markup, rep("[img]")),
    ("strip_markup [img", strip_markup, rep("[img")),
    ("strip_markup <script>", strip_markup, rep("<script>")),
    ("strip_markup <script", strip_markup, rep("<script")),
    ("strip_markup <style>", strip_markup, rep("<style>")),
    ("strip_markup [b]", strip_markup, rep("[b]")),
    ("strip_markup <b>", strip_markup, rep("<b x ")),
    ("strip_markup &amp;", strip_markup, rep("&amp")),
    ("moscow Маша/Маша/…", moscow, rep("Маша/")),
    ("moscow Маша//…//Петя", moscow, rep("/", "Маша", "Петя")),
    ("moscow Маша / / …", moscow, rep(" /", "Маша")),
    ("moscow [quote]", moscow, rep("[quote]")),
    ("moscow words", moscow, rep("Кот Баюн ")),
    ("moscow zero-width", moscow, rep("\u200b", "Ма", "ша")),
    ("hunt [quote]", hunt, rep("[quote]")),
    ("hunt <blockquote>", hunt, rep("<blockquote>")),
    ("hunt markers", hunt, rep("давай все за ")),
    ("runoff Маша/…", runoff, rep("Маша/")),
    ("pm kill Маша by by …", pm, rep(" by", "убить Маша")),
    ("pm kill Маша ! by ! …", pm, rep(" ! by", "убить Маша")),
    ("pm hunt words", pm, rep(" Маша", "охота")),
    ("pm many lines", pm, rep("убить Маша\n")),
    ("pm one long line", pm, rep("Маша ")),
    ("command modkill words", command, rep(" Маша", "модкилл")),
    ("command modkill ! ! …", command, rep(" !", "модкилл Маша")),
    ("command replace", command, rep(" x", "замена Маша")),
    ("command setvote ! …", command, rep(" !", "голос Маша", " ?")),
    ("command alias", command, rep(" x", "алиас", " Маша")),
    ("command extend digits", command, rep("1", "продлить ")),
    ("parse_duration digits", parse_duration, rep("1")),
    ("parse_duration 1m1m…", parse_duration, rep("1m")),
    ("match Маша…", M.match, rep("Маша")),
    ("match combining", M.match, rep("е\u0308")),
]

SIZES = [1000, 4000, 15000, 60000]


def timed(parse: Callable[[str], object], text: str) -> float:
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        parse(text)
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else SIZES[-1]
    sizes = [s for s in SIZES if s <= limit]
    print(f"{'pattern':28}" + "".join(f"{s:>10} ch" for s in sizes) + "   µs/char at each size")
    for name, parse, make in CASES:
        seconds = [timed(parse, make(size)) for size in sizes]
        per_char = " ".join(f"{1e6 * t / s:6.2f}" for t, s in zip(seconds, sizes))
        print(f"{name:28}" + "".join(f"{t:12.4f}" for t in seconds) + f"   {per_char}", flush=True)


if __name__ == "__main__":
    main()
