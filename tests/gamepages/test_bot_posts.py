"""The game page links the bot's own posts (issue 20 item 3: "links to both threads and to every bot post"): the
opening post, each count, each day's and night's result, the GM's and death announcements, once the outbox
delivered them and the forum gave their ids; an undelivered post is not mentioned. `game export` keeps the ids,
so `replay --pages` links the same posts; a transcript without them builds the site without these links."""

from __future__ import annotations

import html
import json
import sys
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
sys.path.insert(0, str(Path(__file__).parents[1] / "daemon"))
from daemon_world import STEPS, World, config_toml, game_toml  # noqa: E402
from gamekit import Game  # noqa: E402
from pagekit import site  # noqa: E402
from sqlalchemy import select  # noqa: E402

from forumbot import replay  # noqa: E402
from forumbot.config.load import load_config  # noqa: E402
from forumbot.games.export import export_game  # noqa: E402
from forumbot.pages.botposts import forum_post_id  # noqa: E402
from forumbot.pages.commands import transcript_pages  # noqa: E402
from forumbot.pages.publish import game_pages  # noqa: E402
from forumbot.pages.site import GamePages  # noqa: E402
from forumbot.store.models import GameRow  # noqa: E402
from forumbot.store.models import OutboxRow  # noqa: E402

URL = "https://mafia.example.org/"
POST_URL = "https://forum.example.org/viewtopic.php?p={id}#p{id}"


def _href(forum_id: str) -> str:
    return html.escape(POST_URL.replace("{id}", forum_id))


def _world(tmp_path: Path, mode: str = "live") -> World:
    w = World(tmp_path / "w")
    extra = f'[pages]\nfolder = "site"\nurl = "{URL}"\nvote_history = "live"\npost_url = "{POST_URL}"\n'
    w.config_path.write_text(config_toml(game_toml("g1", mode=mode), extra=extra), encoding="utf-8")
    w.config = load_config(w.config_path)
    w.daemon.close()
    w.daemon = w.new_daemon()
    return w


def _sent(w: World) -> dict[str, tuple[str, str]]:
    """The outbox's delivered rows: key -> (where, remote id)."""
    with w.daemon.sessions.begin() as session:
        return {r.key: (r.where, r.remote_id or "") for r in session.scalars(
            select(OutboxRow).where(OutboxRow.status == "sent", OutboxRow.origin == "core"))}


def test_the_ticks_pages_link_each_post_as_soon_as_it_is_delivered(tmp_path: Path) -> None:
    w = _world(tmp_path)
    try:
        w.start()
        for at, step in STEPS[:4]:  # Setup, confirmations, Day 1's votes, Day 1 resolved
            w.now = at
            step(w)
            w.tick()
        sent = _sent(w)
        public = {k: forum_post_id(r) for k, (where, r) in sent.items() if where in ("game", "vote")}
        assert {"setup/players", "day 1/result"} <= set(public) and all(public.values())
        page = (w.root / "site/g1/index.html").read_text(encoding="utf-8")
        for key, forum_id in public.items():
            assert _href(forum_id) in page, key  # the result delivered in this very tick too
        pms = [forum_post_id(r) for where, r in sent.values() if where == "pm" and forum_post_id(r)]
        assert pms and not any(_href(i) in page for i in pms)  # a PM is never linked
        assert f'<a href="{_href(public["setup/players"])}">Первый пост игры</a>' in page
        day = (w.root / "site/g1/day-1.html").read_text(encoding="utf-8")
        counts = [i for k, i in public.items() if "/count/" in k]
        assert all(_href(i) in day for i in counts)
        # a quiet tick after it writes nothing
        files = {p: p.stat().st_mtime_ns for p in (w.root / "site").rglob("*") if p.is_file()}
        w.now += timedelta(minutes=1)
        w.tick()
        assert {p: p.stat().st_mtime_ns for p in (w.root / "site").rglob("*") if p.is_file()} == files
        # the export keeps the ids; its replay links the same posts, and without them links none
        transcript = export_game(w.daemon.sessions, w.config, "g1", w.now)
        assert transcript["pages"]["posts"] == public
        t = replay.parse_transcript(transcript)
        run, _ = replay.replay(t)
        assert site(transcript_pages(t, run, "g1"))["g1/index.html"].decode() == page
        del transcript["pages"]["posts"]
        t = replay.parse_transcript(transcript)
        bare = site(transcript_pages(t, replay.replay(t)[0], "g1"))["g1/index.html"].decode()
        assert "Посты бота" not in bare and not any(_href(i) in bare for i in public.values())
    finally:
        w.close()


def test_shadow_mode_links_no_post(tmp_path: Path) -> None:
    """In shadow mode the posts went as PMs to the shadow recipient: their ids are no thread's posts."""
    w = _world(tmp_path)
    try:
        g = Game.moscow()
        r = g.run("day 1", "+1h")
        posts = {m.key: "123" for m in r.run.messages}
        game = SimpleNamespace(name="g", title="", readable_name="g", game_thread="", vote_thread="", signup_thread="",
                               mode="shadow")
        assert game_pages(w.config, game, g.setup(), r.run, URL, posts=posts).posts == {}
        game.mode = "live"
        assert game_pages(w.config, game, g.setup(), r.run, URL, posts=posts).posts == posts
    finally:
        w.close()


def test_only_delivered_public_posts_are_mentioned() -> None:
    g = Game.moscow()
    g.votes("day 1", {"М1": "Маф1", "М2": "Маф1", "М3": "Маф1", "М4": "Маф1", "М5": "Маф1", "М6": "Маф1"})
    r = g.run("day 2", "+1h")
    public = [m for m in r.run.messages if str(m.where) != "pm"]
    pm = next(m for m in r.run.messages if str(m.where) == "pm")
    delivered = {public[0].key: "11", public[-1].key: "99", pm.key: "55"}
    files = site(GamePages("d", g.setup(), r.run, post_url=POST_URL, posts=delivered))
    page = files["d/index.html"].decode()
    section = page.split("<h2>Посты бота</h2>", 1)[1].split("</ul>", 1)[0]
    assert section.count("<li>") == 2 and _href("11") in section and _href("99") in section
    assert _href("55") not in page  # a PM's id, even if given, is not a thread post
    doc = json.loads(files["d/game.json"])
    assert [p["url"] for p in doc["bot_posts"]] == [POST_URL.replace("{id}", i) for i in ("11", "99")]
    assert all(m.key not in page for m in r.run.messages)  # no outbox key is shown
    # without post_url there is nothing to link
    assert "Посты бота" not in site(GamePages("d", g.setup(), r.run, posts=delivered))["d/index.html"].decode()


def test_forum_post_id_reads_the_outbox_record() -> None:
    assert forum_post_id("123") == "123" and forum_post_id("merged:77") == "77"
    assert forum_post_id("pending:5") == "" and forum_post_id(None) == "" and forum_post_id("") == ""


def test_pages_build_links_the_same_posts(tmp_path: Path) -> None:
    from forumbot.cli.main import main

    w = _world(tmp_path)
    try:
        w.start()
        for at, step in STEPS[:4]:
            w.now = at
            step(w)
            w.tick()
        built = tmp_path / "built"
        assert main(["pages", "build", "-c", str(w.config_path), "-o", str(built)], clock=lambda: w.now) == 0
        assert (built / "g1/index.html").read_bytes() == (w.root / "site/g1/index.html").read_bytes()
        with w.daemon.sessions.begin() as session:
            assert session.scalar(select(GameRow.name)) == "g1"
    finally:
        w.close()
