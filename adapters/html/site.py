"""What the parts of an HTML adapter (forms, topics, the inbox) read off the adapter that holds them.

The adapter's profile at the time of the call (vBulletin reads printthread.php with another profile for a while),
its transport, and its pages as the engine fetches and names them: an engine's own `get` (XenForo's token and
unread count, FlaskBB's login redirect), `url` (XenForo's canonical thread addresses, Invision's routes) and
`topic_id`. The checks of a page are pagechecks' functions of the page and the profile, not the adapter's."""

from __future__ import annotations

from typing import Any, Protocol

from adapters.html.hooks import Context
from adapters.html.profile import HtmlProfile
from forumbot.forum.http_page import Page
from forumbot.forum.transport import Transport


class PageSite(Protocol):
    @property
    def profile(self) -> HtmlProfile: ...
    @property
    def transport(self) -> Transport: ...
    def get(self, path: str, *, follow: bool = True) -> Page: ...
    def read_page(self, path: str) -> Page: ...
    def url(self, name: str, **values: Any) -> str: ...
    def topic_id(self, topic: str) -> str: ...
    def ctx(self, page: Page) -> Context: ...
