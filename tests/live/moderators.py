"""A board's admin makes the bot a moderator through the board's own control panel, as a GM's admin would (R-13:
the boards seed the bot as an ordinary member). Each returns once the board says the change is saved."""

from __future__ import annotations

import html
import re
import time
import urllib.parse

from bs4 import BeautifulSoup

from boards import FORM_MIN_AGE, HANG_GUARD, Board, Member, _forms
from board_smf import _error as smf_error

PHPBB_GLOBAL_MODERATORS = "4"  # phpBB's stock group ids: 4 GLOBAL_MODERATORS (ROLE_MOD_FULL in every forum)
SMF_GLOBAL_MODERATOR = "2"  # SMF's stock membergroup 2, Global Moderator (lock_any, moderate_board everywhere)
FLUXBB_MODERATORS = "2"  # FluxBB's stock group 2, Moderators
MYBB_SUPER_MODERATORS = "3"  # MyBB's stock usergroup 3, Super Moderators (canopenclosethreads in every forum)
# each engine's reply page of a topic and the mark of its reply form (a closed topic shows the refusal instead)
REPLY = {"phpbb": ("posting.php?mode=reply&t={t}", 'id="postform"'),
         "smf": ("index.php?action=post;topic={t}.0", 'id="postmodify"'),
         "mybb": ("newreply.php?tid={t}", 'name="message"'), "fluxbb": ("post.php?tid={t}", 'name="req_message"')}


def may_reply(member: Member, engine: str, topic: str) -> bool:
    """Whether a player is shown the reply form of the topic, as he sees it: R-13's lock read back."""
    path, form = REPLY[engine]
    page = member.s.get(member.url(path.format(t=topic)), timeout=HANG_GUARD)
    return form in page.text


def promote_phpbb(board: Board) -> None:
    """ACP → Users and groups → Manage groups → Global moderators → Add users. The ACP asks the admin to log in
    again (its password field's name changes with every page, so the form is posted as served)."""
    admin = board.member(board.admin)
    acp = html.unescape(re.findall(r'href="\./(adm/index\.php\?sid=[^"]*)"', admin.get("index.php").text)[0])
    done = _post_served(admin, acp, "login", lambda fields: {
        "username": board.admin, next(k for k, _ in fields if k.startswith("password_")): board.password}, "login")
    sid = re.search(r"sid=([0-9a-f]+)", done.url).group(1)
    group = f"adm/index.php?i=acp_groups&mode=manage&action=list&g={PHPBB_GLOBAL_MODERATORS}&sid={sid}"
    done = _post_served(admin, group, "list", lambda fields: {"usernames": board.bot}, "addusers")
    said = BeautifulSoup(done.text, "lxml").select_one("div.successbox")
    assert said is not None, f"phpBB ACP: the bot was not added to the global moderators: {done.text[-500:]}"


def promote_smf(board: Board) -> None:
    """Admin → (the admin's password once: validateSession) → the bot's profile, Account Settings → Primary
    membergroup: Global Moderator → Change profile."""
    admin = board.member(board.admin)
    admin._form_post("index.php?action=admin", "frmLogin", {"admin_pass": board.password}, "x",
                     drop=("admin_hash_pass",))
    account = f"index.php?action=profile;area=account;u={board.env['BOT_UID']}"
    done = admin._form_post(account, "creator", {"id_group": SMF_GLOBAL_MODERATOR}, "save")
    assert not smf_error(done.text), f"SMF: the bot's membergroup was not changed: {smf_error(done.text)}"
    assert f'<option value="{SMF_GLOBAL_MODERATOR}" selected' in admin.get(account).text


def _post_served(member, path: str, form_id: str, values, submit: str):  # type: ignore[no-untyped-def]
    page = member.s.get(member.url(path), timeout=HANG_GUARD)
    served = time.monotonic()
    form = next(f for f in _forms(page.text) if f["id"] == form_id)
    chosen = values(form["fields"])
    data = [(k, v) for k, v in form["fields"] if k not in chosen] + list(chosen.items())
    data.append((submit, form["submits"].get(submit, "1")))
    time.sleep(max(0.0, served + FORM_MIN_AGE - time.monotonic()))
    return member.s.post(urllib.parse.urljoin(page.url, form["action"]), data=data, timeout=HANG_GUARD,
                         headers={"Referer": page.url})


def promote_fluxbb(board: Board) -> None:
    """The bot's profile, Administration: user group → Moderators, then "Moderator in forums" → the game's forum
    (FluxBB's moderators moderate only the forums they are listed in)."""
    admin = board.member(board.admin)
    page = f"profile.php?section=admin&id={board.env['BOT_UID']}"
    admin.submit(page, lambda f: f["id"] == "profile7", {"group_id": FLUXBB_MODERATORS}, "update_group_membership")
    done = admin.submit(page, lambda f: f["id"] == "profile7", {f"moderator_in[{board.env['FORUM_ID']}]": "1"},
                        "update_forums")
    assert done.status_code == 200, f"FluxBB: the bot's forums were not updated ({done.status_code})"


def promote_mybb(board: Board) -> None:
    """Admin CP (its own login) → Users → the bot → Primary user group: Super Moderators → Save. The other fields
    go back as the form shows them; the additional groups (a multiple select, none chosen) are left out."""
    admin = board.member(board.admin)
    login = admin.s.post(admin.url("admin/index.php"), data={"username": board.admin, "password": board.password,
                                                             "do": "login"}, timeout=HANG_GUARD)
    assert "logout" in login.text, "MyBB admin CP: the admin could not log in"
    path = f"admin/index.php?module=user-users&action=edit&uid={board.env['BOT_UID']}"
    page = admin.s.get(admin.url(path), timeout=HANG_GUARD)
    form = next(f for f in _forms(page.text) if "action=edit" in f["action"])
    data = [(k, v) for k, v in form["fields"] if k not in ("usergroup", "additionalgroups[]")]
    admin.s.post(urllib.parse.urljoin(page.url, form["action"]), data=data + [("usergroup", MYBB_SUPER_MODERATORS)],
                 timeout=HANG_GUARD)
    shown = admin.s.get(admin.url(path), timeout=HANG_GUARD).text
    assert f'<option value="{MYBB_SUPER_MODERATORS}" selected' in shown, "MyBB admin CP: the bot's group is unchanged"
