"""English texts added by later issues (GM answers, late inputs, player texts), kept apart so each table
stays a readable size; `forumbot.texts.en` merges them into its `T`."""

ADDED: dict[str, str] = {}

# --- h19: C-13 late inputs ---
ADDED.update({
    "gm.late_input": ("Read after the results — from {nick}: {where}, stamped {at} by the forum, but read only after "
                      "the results of {phase} were out. The announced results stand (C-13); from now on it counts "
                      "as sent now. Text: {text}"),
    "gm.late_where.game": "a post in the game thread",
    "gm.late_where.vote": "a post in the vote thread",
    "gm.late_where.pm": "a private message",
})

# --- h17a: issue 17 items 5-10, 15 (player-facing texts) ---
ADDED.update({
    "forms.time": "time|times",
    "setup.vote.title": "How to vote:",
    "setup.vote.thread": "the vote thread",
    "setup.vote.where": "Votes go in {thread}, each day until the deadline the day's opening post names.",
    "setup.vote.nick": "A vote is a post holding only a player's nickname as the list above spells it (case and formatting do not matter); a post with other words is no vote.",
    "setup.vote.strict": "A vote is a post holding only a player's nickname as the list above spells it: no explanation, quote or second name, or it is no vote.",
    "setup.vote.changes_once": "A vote may be changed once: the second vote is final.",
    "setup.vote.changes": "A vote may be changed {count}; after that it is final.",
    "setup.vote.changes_none": "A vote may not be changed: the first one counts.",
    "setup.vote.changes_unlimited": "A vote may be changed: the latest before the deadline counts.",
    "setup.vote.pass": "To lynch nobody, write {words}.",
    "setup.vote.no_pass": "This game has no no-lynch vote.",
    "setup.vote.runoff": "A tie leads to a runoff; a vote for that case may be given at once, after “/”: “NICK / NICK2”, “NICK / помиловать всех” (pardon all) or “NICK / повесить всех” (hang all).",
    "setup.vote.agitation": "A call to vote (“vote for …”, “let's …”) counts as its author's vote against himself; a second call is an autokill.",
    "setup.rules.title": "This game's rules:",
    "thread.game": "the game thread",
    "thread.game_line": "Discussion: {link}.",
    "role.marker": "A line like #fb:… at the end of my messages is a tag I find my own messages by; no need to answer it, it means nothing for the game.",
    "or": "or",
    "mafia.partner_target": "{nick} has a new target: {target}.",
    "mafia.targets": "The mafia's targets now: {targets}.",
    "mafia.target": "{nick} — {target}",
    "mafia.no_target": "{nick} — no target",
    "mafia.match": "The targets match: the shot happens unless one of them changes.",
    "mafia.must_match": "The shot happens only if every living mafia member names the same target; otherwise it misfires.",
    "status.mafia_mismatch": "Mafia: the targets do not match yet ({targets}).",
    "gm.undone_vote": "The vote is on again ({phase}) — in the vote thread until {at}.",
    "gm.undone_vote_paused": "The vote is on again ({phase}), but the game is paused: the post resuming it will give the deadline.",
    "out.modkill": "The GM has taken you out of the game (modkill).",
    "out.modkill_undone": "The GM has undone your modkill: you are back in the game, with your role.",
    "out.vote": "The vote has taken you out of the game.",
    "out.night": "You were killed tonight and are out of the game.",
    "out.autokill": "Autokill: you are out of the game.",
    "out.last_word": "Your last word: one post in the game thread until {at}.",
    "out.no_word": "No last word; moves and votes are no longer accepted.",
    "out.see_thread": "The announcement is in the game thread.",
    "count.by_gm": " (vote recorded by the GM)",
    "count.replaced": "Replaced by the GM's vote: {nick} {text}.",
    "count.edit_pair": "{now} (first {first})",
    "count.agitation_deleted": "Deleted from the thread: {nick} {text} — an agitation; it counts against its author all the same.",
    "end.why.draw_at": "{alive} left alive: by this game's rules that is a draw.",
    "end.why.nobody": "Nobody is left alive.",
})

# --- h18o: forumbot probe --handshake (issue 18 item 5) ---
ADDED.update({
    "handshake.title": "Handshake: forum {forum} ({engine}), GM {gm}",
    "handshake.status.verified": "verified",
    "handshake.status.failing": "FAILING",
    "handshake.status.unverified": "unverified",
    "handshake.not_tried": "not tried: an earlier step failed",
    "handshake.posts_read": "{count} posts read",
    "handshake.subject": "forumbot: handshake",
    "handshake.pm": "Hello {gm}! This is the GM bot checking it can reach you. Code: {code}\n"
                    "Reply to this private message with the code, then run \"forumbot probe --handshake\" again.",
    "handshake.sent": "a private message with code {code} was sent to GM {gm}",
    "handshake.sent_before": "the private message with code {code} was sent to GM {gm} on the previous run",
    "handshake.ask": "ask {gm} to reply to the private message with code {code}, then run the handshake again",
    "handshake.no_reply": "no reply from {gm} with code {code} in the inbox yet",
    "handshake.replied": "{gm}'s reply with the code was read from the inbox",
    "handshake.wait": "the forum asks to wait; run the handshake later:",
})

# --- h26-outage: C-14, a phase the bot opens when it is back after an outage ---
ADDED.update({
    "phase.opens_late": ("The bot could not run the game when this phase was due to open ({due}) and was back "
                          "only at {opens}: the phase opens now with its whole length, and every later deadline "
                          "moves by {shift}. Nobody leaves for not showing up in the time missed."),
})

# --- h26-citime: a restored database on a forum where the bot deletes the PMs it has read (issue 28) ---
ADDED.update({
    "gm.restored_pms_lost": ("The bot's database was restored from an older copy. The bot deletes the private "
                             "messages it has read from its inbox (delete_read_pms = true), so every private message "
                             "read since that copy is lost: the bot will not see your GM commands since then or the "
                             "players' night moves. Send your commands since then again and ask the players to send "
                             "their night moves again."),
})

# --- h30-lock: R-13, may the bot close the threads (probe --handshake) ---
ADDED.update({
    "handshake.lock_yes": "the bot's account has the lock control on this thread (nothing was locked)",
    "handshake.lock_no": ("the bot's account has no lock control on this thread: give it a moderator's right in "
                          "the game's forum, or set lock_threads = false (R-13)"),
    "handshake.lock_no_unasked": "the bot's account has no lock control here; no game asks for lock_threads",
    "handshake.lock_unknown": "this engine's page does not tell whether the bot may lock (the first lock will)",
    "handshake.lock_none": "the bot cannot lock threads on this engine (lock_threads is not played here)",
})
