"""The shape of an engine's profile: its URLs, selectors, pagination, forms, messages and limits, and the flows
it may list as unverified."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Callable, Mapping, TypeVar


# What an adapter does over several pages, named so a profile can list it as unverified: logging in (and reading
# the answer), posting a reply (and reading its result page), sending a PM (and its answer), reading a post's edit
# time through an API, reading an edit notice's wording in a language no saved page showed.
FLOWS = frozenset({"login", "login_answer", "reply", "reply_result", "reply_answer", "pm", "pm_answer",
                   "api_edited", "api_nesting", "edit_notice_text"})


V = TypeVar("V")


def frozen_map(d: Mapping[str, V]) -> Mapping[str, V]:
    return MappingProxyType(dict(d))


@dataclass(frozen=True)
class FormSpec:
    """How to find a form and which of its fields the adapter sets; every other field is sent as served."""

    selector: str
    needs: str | None = None  # a control the right form has (pages can hold several matching forms)
    fields: Mapping[str, str] = field(default_factory=dict)  # role -> field name
    submit: str | None = None  # the submit control the server checks for
    fixed: Mapping[str, str] = field(default_factory=dict)  # always sent (e.g. autologin=on)


@dataclass(frozen=True)
class Pagination:
    param: str  # query parameter: "start" (phpBB) or "page" (MyBB)
    kind: str  # "offset": param is the index of the first post; "page": param is the 1-based page number
    per_page: int  # the board default, used until page links tell otherwise
    # A regex whose group 1 is the param's value in a page link, where it is not a plain query value
    # (SMF: "index.php?topic=2.15", the offset after the topic id).
    pattern: str | None = None
    # Where the number is in the link's path rather than its query (XenForo ".../page-3"): a regex whose
    # group 1 is `param`'s value.
    in_path: str | None = None


@dataclass(frozen=True)
class HtmlProfile:
    engine: str
    urls: Mapping[str, str]  # templates with {topic}, {start}, {pm}, {user}
    topic_id: str  # regex that takes the topic id out of a topic URL
    selectors: Mapping[str, str]  # name -> CSS
    strip: tuple[str, ...]  # removed from a post's text: quotes, code, spoilers (each one CSS)
    pagination: Pagination
    forms: Mapping[str, FormSpec]
    messages: Mapping[str, str]  # kind -> regex on the error text (flood, form_invalid, bad_login, ...)
    # Flood timers (transport intervals): action -> minimum seconds between two; a key joining actions with "+"
    # is one timer they share, as the engine keeps it.
    limits: Mapping[str, float]
    hooks: Mapping[str, Callable[..., Any]]  # role -> the hook function (hooks.py) that plays it
    date_order: str = "auto"  # numeric dates: "dmy", "mdy" or "auto"
    # Selectors, urls, forms and flows written from documentation or another engine's markup, no real page
    # seen: `forumbot probe` reports them, so the first GM on a board knows what to check.
    # One convention: "selectors.NAME", "urls.NAME", "forms.NAME", "messages.NAME", "limits.NAME", "strip[i]",
    # "flows.NAME" (NAME in FLOWS); `unknown_unverified` names any entry that refers to nothing.
    unverified: frozenset[str] = frozenset()

    def part_names(self) -> set[str]:
        """Every name an `unverified` entry (or `forumbot probe`) may use for a part of this profile."""
        return ({f"selectors.{k}" for k in self.selectors} | {f"urls.{k}" for k in self.urls}
                | {f"forms.{k}" for k in self.forms} | {f"messages.{k}" for k in self.messages}
                | {f"limits.{k}" for k in self.limits} | {f"strip[{i}]" for i in range(len(self.strip))}
                | {f"flows.{k}" for k in FLOWS})

    def unknown_unverified(self) -> list[str]:
        return sorted(self.unverified - self.part_names())

    def with_selectors(self, **changes: str) -> "HtmlProfile":
        return replace(self, selectors=frozen_map({**self.selectors, **changes}))
