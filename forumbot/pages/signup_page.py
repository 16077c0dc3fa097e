"""A game's page while its sign-up is open (S-1, S-2): the list as it stands (the players in join order, the
reserve, the places left) and when the sign-up closes, in the game's language. Once it closed, the game's own
pages (`build_game`) take the folder over.

Privacy: the page shows what the sign-up's list posts say in the thread, nothing more: no GM's PM, no account
the GM refused, and no role (none is drawn before the close)."""

from __future__ import annotations

import json

from forumbot.engine.signup_values import SignupRun
from forumbot.names import checked_name
from forumbot.pages.site import GamePages, build_game, env
from forumbot.pages.words import Words

OPEN = "signup open"


def build_site(g: GamePages, signup: SignupRun | None = None) -> dict[str, bytes]:
    """The game's files: its sign-up page while `signup` is open, else the game's pages."""
    if signup is None or signup.state != "open" or g.setup.signup is None:
        return build_game(g)
    words = Words(g.setup.language, g.setup.schedule.timezone)
    seats: int = g.setup.signup.seats  # type: ignore[attr-defined]
    base = checked_name(g.name, "game") + "/"
    thread = g.threads.get("signup") or g.threads.get("game", "")
    page = env().get_template("signup.html").render(
        w=words, lang=words.language, g=g, s=signup, seats=seats, left=max(0, seats - len(signup.players)),
        thread=thread).encode()
    doc = {"game": g.name, **({"title": g.title} if g.title else {}), "variant": g.setup.variant,
           "language": words.language, "phase": OPEN,
           "signup": {"players": list(signup.players), "reserve": list(signup.reserve), "seats": seats,
                      "closes": signup.closes.isoformat()}}
    return {base + "index.html": page,
            base + "game.json": (json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode()}
