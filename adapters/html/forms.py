"""The forms of an HTML forum (HtmlForum's part): finding a form, posting it as served, and turning the error the
forum shows (on a page or in a JSON answer) into the typed error the daemon reacts to."""

from __future__ import annotations

import re
from typing import Any, Mapping

from lxml import etree

from adapters.html.dom import clean_text, fill, find_form, form_action, form_fields, select, submit_field
from adapters.html.pagechecks import check_page, is_login_page
from adapters.html.profile import HtmlProfile
from adapters.html.site import PageSite
from forumbot.errors import (
    FloodLimited, FormRejected, FormTransient, LoginRequired, PageFormatChanged, PageShowsError,
)
from forumbot.forum.http_page import Page
from forumbot.forum.transport import Transport

# phpBB rejects a form posted in the second it was issued (FORM_INVALID); 1.1 s clears the boundary.
FORM_MIN_AGE = 1.1


class HtmlForms:
    """The adapter's forms part (`HtmlForum.forms`); an engine whose forms answer differently subclasses it and
    names the subclass in its adapter's `forms_type`."""

    def __init__(self, host: PageSite) -> None:
        self.host = host

    @property
    def profile(self) -> HtmlProfile:
        return self.host.profile

    @property
    def transport(self) -> Transport:
        return self.host.transport

    def form(self, page: Page, name: str) -> etree._Element:
        spec = self.profile.forms[name]
        form = find_form(page.tree(), spec.selector, spec.needs)
        if form is None:
            if is_login_page(page, self.profile):
                raise LoginRequired(f"{self.profile.engine}: not logged in ({page.url})")
            self.raise_for_errors(page, default=None)
            said = self.notice_text(page)
            if said:  # phpBB's "not authorised to send private messages" is a notice, not an error box
                raise PageShowsError(f"{self.profile.engine}: no {name} form on {page.url}; the board says: {said}")
            raise PageFormatChanged(f"{self.profile.engine}: no {name} form on {page.url}")
        return form

    def notice_text(self, page: Page) -> str:
        """The words of the engine's notice box (phpBB's trigger_error page, `div#message`; MyBB's), one line."""
        boxes = [key for key in ("notice", "success_message") if key in self.profile.selectors]
        said = [" ".join(clean_text(e).split())
                for key in boxes for e in select(page.tree(), self.profile.selectors[key])]
        return " ".join(dict.fromkeys(w for w in said if w))[:300]

    def submit(self, page: Page, name: str, values: Mapping[str, str], *, action: str,
               form: etree._Element | None = None, submit: str | None = None, served_at: float | None = None,
               follow: bool = False) -> Page:
        """Post a form as served: every field it carries, the known ones overwritten, to its resolved action."""
        spec = self.profile.forms[name]
        form = form if form is not None else self.form(page, name)
        fields = fill(form_fields(form), {**spec.fixed, **values})
        button = submit_field(form, submit or spec.submit or "") if (submit or spec.submit) else None
        if button:
            fields.append(button)
        elif submit or spec.submit:
            fields.append((submit or spec.submit or "", "1"))
        if served_at is not None:
            age = self.transport.clock() - served_at
            if age < FORM_MIN_AGE:
                self.transport.sleep(FORM_MIN_AGE - age)
        return self.transport.post_form(form_action(form, page.url), fields, charset=page.charset, action=action,
                                        follow=follow)

    def error_text(self, page: Page) -> str:
        return " ".join(clean_text(e) for e in select(page.tree(), self.profile.selectors["error"]))

    def matches(self, kind: str, text: str) -> re.Match[str] | None:
        pattern = self.profile.messages.get(kind)
        return re.search(pattern, text, re.IGNORECASE) if pattern and text else None

    def raise_for_errors(self, page: Page, default: type[Exception] | None = FormRejected, *,
                         flood_action: str = "post", text: str | None = None) -> None:
        """Turn an error the forum showed into the typed error the daemon reacts to."""
        check_page(page, self.profile)
        text = text if text is not None else self.error_text(page)
        if not text:
            if default is not None:
                raise default(f"{self.profile.engine}: unexpected answer from {page.url}")
            return
        self.raise_for_text(text, flood_action=flood_action)

    def raise_for_text(self, text: str, *, flood_action: str = "post") -> None:
        """The typed error for an error message the forum gave (on a page or in a JSON answer), the board's
        words in one line: MyBB's heading "Please correct the following errors" and the error listed under it."""
        said = " ".join(text.split())
        if self.matches("flood", text):
            m = self.matches("flood_seconds", text)
            wait = float(m.group(1)) if m else self.transport.intervals.get(flood_action)
            raise FloodLimited(f"{self.profile.engine}: flood limit: {said}", retry_after=wait)
        if self.matches("form_invalid", text):
            raise FormTransient(f"{self.profile.engine}: form token rejected: {said}")
        if self.matches("bad_login", text):
            raise LoginRequired(f"{self.profile.engine}: login refused: {said}")
        raise FormRejected(f"{self.profile.engine}: {said}")

    def json_answer(self, page: Page, default: type[Exception] = FormRejected, *, flood_action: str = "post",
                    errors_key: str = "errors", status_key: str = "status") -> dict[str, Any]:
        """The answer of a form posted for a JSON reply (XenForo's `_xfResponseType=json`): errors it lists are
        raised as the typed error the profile's messages name (flood, token, login), as on an HTML error page;
        anything else is handed back. An unfollowed redirect counts as {"redirect": its target}; an HTML page
        in its place (a login page, an error page) is judged as a page."""
        if page.status in (301, 302, 303) and page.location:
            return {status_key: "ok", "redirect": page.location}
        try:
            answer = page.json()
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            if is_login_page(page, self.profile):
                raise LoginRequired(f"{self.profile.engine}: not logged in ({page.url})")
            self.raise_for_errors(page, default=default, flood_action=flood_action)
            raise default(f"{self.profile.engine}: unexpected answer from {page.url}")
        errors = answer.get(errors_key)
        if errors or answer.get(status_key) == "error":
            items = errors.values() if isinstance(errors, dict) else errors if isinstance(errors, list) else [errors]
            said = " ".join(" ".join(str(e).split()) for e in items if e) or "error without a message"
            # the status (XF answers errors with 200, 400 or 403) says nothing the message does not
            self.raise_for_text(said, flood_action=flood_action)
        return answer
