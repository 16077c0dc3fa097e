"""Benchmark: one post of many small elements (issue 17 item 23: a 5 MB post cost 3-6 s per page read).

    python3 bench/big_post.py            # 0.5, 1, 2 and 5 MB posts
    python3 bench/big_post.py 5          # only the 5 MB one

The post is the first of the real saved phpBB page fixtures/phpbb/20_topic_page1.html (README there: a phpBB 3.3
board), its body replaced by `<strong>x</strong> ` repeated; read as the phpBB adapter reads a topic page:
libxml2's parse, then extract_posts (selectors, the post's text and HTML). Prints seconds per stage and the post's
text as read. Asserts nothing: machine speed is no test (tests/test_page_elements.py counts elements instead).
"""

from __future__ import annotations

import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adapters.html.extract import extract_posts  # noqa: E402
from adapters.html.hooks import Context  # noqa: E402
from adapters.html.dom import parse  # noqa: E402
from adapters.phpbb.profile import PHPBB  # noqa: E402

PAGE = ROOT / "fixtures" / "phpbb" / "20_topic_page1.html"
FIRST_BODY = "Всем привет! Это <strong class=\"text-strong\">первый пост</strong> длинной темы для проверки бота.<br>"
UNIT = "<strong>x</strong> "


def page_with(megabytes: float) -> str:
    page = PAGE.read_text(encoding="utf-8")
    assert FIRST_BODY in page, "the fixture changed"
    return page.replace(FIRST_BODY, UNIT * int(megabytes * 1_000_000 / len(UNIT)), 1)


def main(sizes: list[float]) -> None:
    ctx = Context(PHPBB, timezone.utc, datetime(2026, 1, 1, tzinfo=timezone.utc))
    print(f"{'MB':>5} {'elements':>9} {'parse s':>8} {'extract s':>9} {'posts':>5} {'1st post chars':>14}")
    for mb in sizes:
        text = page_with(mb)
        t0 = time.perf_counter()
        tree = parse(text)
        t1 = time.perf_counter()
        posts = extract_posts(tree, PHPBB, ctx, "1")
        t2 = time.perf_counter()
        elements = sum(1 for _ in tree.iter())
        print(f"{mb:>5} {elements:>9} {t1 - t0:>8.2f} {t2 - t1:>9.2f} {len(posts):>5} {len(posts[0].text):>14}")


if __name__ == "__main__":
    main([float(a) for a in sys.argv[1:]] or [0.5, 1, 2, 5])
