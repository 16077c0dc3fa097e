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

# --- h29-signup: S-1..S-3 the sign-up ---
ADDED.update({
    "forms.place": "place|places",
    "signup.variant.moscow": "Moscow mafia",
    "signup.variant.free_hunt": "Free Hunt mafia",
    "signup.title": "Sign-up: {variant}",
    "signup.wanted": "Wanted: {count}.",
    "signup.closes": "The sign-up closes at {at}.",
    "signup.full_closes": "It closes earlier, as soon as the list is full.",
    "signup.how.title": "How to sign up:",
    "signup.how.join": "to join, post in this thread a message holding only “+” (or “in”, “join”);",
    "signup.how.leave": "to leave, a message holding only “-” (or “out”, “leave”);",
    "signup.how.reserve": "to be a substitute, a message holding only “sub”. The account that posts is the one signed up; editing a post changes nothing.",
    "signup.rules": "The rules: {link}.",
    "signup.rules.text": "here",
    "signup.list.title": "Signed up",
    "signup.list.players": "Players:",
    "signup.list.none": "Nobody has signed up yet.",
    "signup.list.reserve": "Substitutes:",
    "signup.list.refused": "The GM does not take into this game: {names}.",
    "signup.list.left": "Places left: {count}.",
    "signup.closed.title": "Sign-up closed",
    "signup.closed.roles": "Roles are being sent by PM now.",
    "signup.closed.day_one": "Day 1 opens at {at}.",
    "signup.extended.title": "Sign-up extended",
    "signup.extended": "{count} short: the sign-up is extended to {at}. It is extended once; if still short then, the game is cancelled.",
    "signup.gm.extended": "Sign-up extended: {have} of {wanted} signed up. New close: {at}; if still short then, the game is cancelled.",
    "signup.cancelled.title": "Game cancelled",
    "signup.cancelled": "The sign-up failed: {have} of {wanted} signed up after the extension.",
    "signup.gm.cancelled": "Game cancelled: {have} of {wanted} signed up after the extension ({names}).",
    "signup.gm.status": "Sign-up: {have} of {wanted} signed up, closes at {at}.",
    "signup.gm.players": "Players: {names}.",
    "signup.gm.reserve": "Substitutes: {names}.",
    "signup.gm.done.AddPlayer": "Done: {nick} is signed up.",
    "signup.gm.done.RemovePlayer": "Done: {nick} is off the sign-up.",
    "signup.gm.done.CloseSignup": "Done: the sign-up is closed.",
    "signup.gm.undone": "Undone: “{command}”, as if never given.",
    "signup.refuse.signup_short": "fewer players than wanted: the sign-up closes only with a full list",
    "signup.refuse.not_signed_up": "no such name among the signed up or the substitutes",
    "signup.refuse.already_signed_up": "that player is already signed up",
    "signup.refuse.new_taken": "that is a GM's or the bot's account",
    "signup.refuse.nothing_to_undo": "nothing to undo",
    "season.notice": "The sign-up for the season's next game is open — {game}: post “+” in the game thread ({thread}). To get no more of these messages, answer “stop”.",
})
# --- h30-majority: R-12, a day that ends at majority; issue 30 item 5, a count that says how far ---
ADDED.update({
    "house.majority_ends_day.True": "The day ends as soon as one player holds more than half of the alive players' votes",
    "house.majority_ends_day.False": "The day runs to its deadline even when someone holds more than half of the votes",
    "house.majority_delay": "After a majority the day ends {n} min later, unless the majority breaks first",
    "day.ended_at_majority": "The day ended early: {nick} holds more than half of the alive players' votes (post at {at}).",
    "count.majority": "Majority: {need} of {alive}.",
    "count.line_to": "{target} — {count}: {voters} (L-{left})",
    "count.tie.runoff": "Tied: {names}. If it stays so at the deadline, a runoff.",
    "count.tie.nobody": "Tied: {names}. If it stays so at the deadline, nobody leaves.",
    "count.tie.all": "Tied: {names}. If it stays so at the deadline, every tied leader leaves.",
    "count.tie.first_reached": "Tied: {names}. If it stays so at the deadline, {first} leaves: the first to reach that many votes.",
    "count.tie.no_majority": "Tied: {names}. If it stays so at the deadline, nobody leaves: nobody has a majority.",
    "status.ended_at_majority": "{phase} ended early at {at}: {nick} held a majority.",
    "status.majority_pending": "{nick} holds a majority since {at}: the day ends {ends} unless the majority breaks.",
})
# --- h30-downtime: C-14, a deadline the bot could not read the forum before ---
ADDED.update({
    "downtime.gap": "from {start} to {end} ({zone})",
    "day.downtime": "No autokill for not voting: the bot could not read the forum {gap}.",
    "gm.downtime": ("The deadline ({phase}) was resolved after an outage: the bot could not read the forum {gap}, "
                    "longer than {grace} of the last {window} before it. The result was resolved as usual, but "
                    "nobody left for not voting. To give the players the time back, use “extend LENGTH”."),
})
# --- h29-ask: C-15 players ask the bot, M-15 the mafia conference ---
ADDED.update({
    "asked.no_vote.setup": "Voting has not started yet: the count begins when Day 1 opens.",
    "asked.no_vote.night": "It is night: there is no vote, the count comes back by day.",
    "asked.count_sent": ("The count was already sent to you at {at}: the next one no sooner than 10 minutes after it. "
                         "The bot also posts the current count in the vote thread."),
    "asked.my_vote": "Your vote: {target} — the post of {at}: {text}.",
    "asked.my_vote_gm": "Your vote: {target} — set by the GM.",
    "asked.my_vote_none": "You have no vote counted right now.",
    "asked.changes_left": "Vote changes left: {count}.",
    "asked.changes_after_first": "After your first vote you may change it: {count}.",
    "asked.changes_none": "Your vote can no longer change.",
    "asked.changes_unlimited": "You may change your vote until the deadline: the last one counts.",
    "conference.open": ("The mafia conference is open until Day 1 begins ({at}). Partners: {names}. To write to them, "
                        "send me a private message that starts with the word \"conf\": \"conf TEXT\" — I forward the "
                        "text to each of them with your nickname. Nothing said in the conference is a move, a Don "
                        "nomination or a command: send those to me in a separate message."),
    "conference.closed": "The conference is closed: from now on the mafia do not talk.",
    "conference.line": "Conference — {nick}: {text}",
    "conference.sent": "Forwarded to the conference: {names}.",
    "conference.refuse.not_member": "The conference is for the mafia only: your message was forwarded to nobody.",
    "conference.refuse.empty": "An empty message was forwarded to nobody: write the text after the word \"conf\".",
    "conference.conversation": ("The mafia conference: {names}. Every recipient of this message sees the replies "
                                "to it; the conference is open until Day 1 begins ({at}). Nothing said here is a move, "
                                "a Don nomination or a command: send those to me in a separate message."),
})
# --- h30-activity: R-11, the post minimum ---
ADDED.update({
    "forms.post": "post|posts",
    "posts.item": "{nick} — {count}",
    "posts.below": "Below the minimum ({need} in the game thread a day) — {count}: {names}.",
    "posts.warning": "Warning for inactivity (the minimum is {need} in the game thread a day): {names}.",
    "posts.reminder": ("Reminder: you have {got} in the game thread this day, and the minimum is {need}. "
                       "The day ends {at}."),
    "autokill.posts": "too few posts in the game thread",
    "autokill.no_vote_posts": "no vote and too few posts in the game thread",
    "house.post_minimum": "At least {need} in the game thread a day; whoever writes fewer: {action}",
    "house.post_minimum_chars": " (posts of {chars} characters or more count, quotes do not)",
    "posts.action.warn": "a warning",
    "posts.action.autokill": "an autokill",
    "posts.action.warn_then_autokill": "a warning the first time, then an autokill",
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
# --- w-reserve: S-4, the reserve and replacements ---
ADDED.update({
    "gm.refuse.no_reserve": ("this game had no sign-up, so it has no reserve: \"replace NICK\" without a new name "
                             "takes a player from the reserve; write \"replace NICK NEW\""),
    "gm.refuse.offer_open": ("this player's seat is already offered to a reserve player: wait for the answer or "
                             "withdraw the offer with \"undo\""),
    "gm.refuse.reserve_empty": "the reserve is empty, nobody to offer the seat to; write \"replace NICK NEW\"",
    "done.offer": "replacement from the reserve — the seat of {old} offered to the reserve",
    "reserve.offer": ("The GM is looking for a substitute: the seat of {nick} is free and is offered to you from the "
                      "reserve. To take it, answer this PM with the single word \"accept\" before {until}; to decline, "
                      "\"no\". Your role comes in the next PM."),
    "reserve.offered": "The seat of {nick} is offered to {to} (reserve) until {until}.",
    "reserve.accepted": "{to} accepted the seat of {nick}: the replacement is made.",
    "reserve.passed.no": "{to} declined the seat of {nick}.",
    "reserve.passed.silent": "{to} did not answer the offer of the seat of {nick} in time.",
    "reserve.next": "The offer passes to the next in the reserve.",
    "reserve.empty": ("The reserve is empty: nobody left to offer the seat of {nick} to. Replace him yourself: "
                      "\"replace {nick} NEW\"."),
    "reserve.declined": "Understood: the seat is offered to the next in the reserve. You stay in the reserve.",
    "reserve.lapsed": "The time to answer is up: the seat of {nick} is offered to the next in the reserve.",
    "reserve.how": "The seat of {nick} awaits your answer until {until}: write the single word \"accept\" or \"no\".",
    "reserve.withdrawn": "The GM called the replacement off: the offer of the seat of {nick} is withdrawn.",
    "reserve.gone": "The seat of {nick} has been taken by someone else: the offer is withdrawn.",
    "help.grammar.replace": "“replace OLD NEW” or “replace OLD”",
    "help.what.replace": ("another account takes over a player's seat and role; without NEW (a game from a sign-up) "
                          "the seat is offered to the reserve in order"),
})
# --- w-handshake: issue 28 item 4, check-config and probe in the GM's language, accounts looked up, the reply flow ---
ADDED.update({
    "accounts.missing": "{setting}: the board has no account «{name}»{said}: check how the name is spelt",
    "accounts.said": " (the board says: «{words}»)",
    "accounts.verified": "verified: games.{game}: the board has every account of the game ({count})",
    "accounts.unknown": "not verified: games.{game}: the board did not show the bot whether these accounts exist: {names}",
    "accounts.no_lookup": "not verified: games.{game}: the bot cannot look accounts up on {engine}",
    "accounts.unreachable": "the accounts of game {game} were not checked: {error}",
    "accounts.not_started": "game {game} not started, nothing was posted: fix the name in the configuration and start again",
    "check.warning": "warning: {text}",
    "check.logged_in": "verified: forums.{forum}: logged in as {login}",
    "check.cannot_login": "forums.{forum}: cannot log in: {error}",
    "check.cannot_zone": "forums.{forum}: cannot read the board's time zone: {error}",
    "check.zone_ok": "verified: forums.{forum}: the board shows the bot's times in {zone}, the zone they are read in",
    "check.zone_unknown": ("not verified: forums.{forum}: the board's time zone (this engine does not show the account's "
                           "zone); dates are read in {zone}"),
    "check.zone_each_page": "the zone each page gives",
    "check.read": "verified: games.{game}.{key}: read {thread} ({count} post(s) on its first page)",
    "check.cannot_read": "games.{game}.{key}: cannot read {thread}: {error}",
    "check.not_a_topic": "games.{game}.{key}: {error} (give the topic's address or number)",
    "check.selectors": "verified: forums.{forum}: every selector the bot needs matched the thread page",
    "check.selectors_inbox": "verified: forums.{forum}: every selector the bot needs matched the thread page and the inbox",
    "check.lock_yes": "verified: {setting}: the bot's account has the lock control on {thread} (nothing was locked)",
    "check.lock_unknown": ("not verified: {setting}: this engine's page does not show whether the bot may lock {thread}; "
                           "the first lock will tell the GMs"),
    "check.ok": "{path}: ok ({forums} forum(s), {games} game(s))",
    "probe.head": "forum: {forum}    thread: {thread}    {who}",
    "probe.guest": "as a guest",
    "probe.api": "through the API with the bot's key",
    "probe.logged_in": "logged in",
    "probe.engine": "engine: {engine} (configured); ",
    "probe.engine_api": "read through its API (JSON, no pages)",
    "probe.engine_seen": "detected from the page: {seen}",
    "probe.nothing_seen": "nothing recognised",
    "probe.times": "times read in: {read}; shown in {shown}",
    "probe.times_api": "unix times (the API)",
    "probe.times_page": "the zone the page gives",
    "probe.posts": "posts on this page: {count}",
    "probe.post": "  #{id} {author} at {at}",
    "probe.no_author": "(no author)",
    "probe.edited": "edited {at}",
    "probe.quote_stripped": "quote stripped",
    "probe.signature_stripped": "signature stripped",
    "probe.pages": ("pagination: {param} ({kind}), this page {current}, pages {pages}, {per_page} per page, "
                    "next page {next}"),
    "probe.yes": "yes",
    "probe.no": "no",
    "probe.inbox": "inbox: {rows} row(s), unread {unread}",
    "probe.not_shown": "not shown",
    "probe.inbox_guest": "inbox: not read (guest)",
    "probe.inbox_unread": "inbox: not read (see problems)",
    "probe.header": ("unread PMs in the thread page's header: {unread} (an idle tick reads the inbox only when a "
                     "page shows more than 0)"),
    "probe.header_unreadable": ("unread PMs in the thread page's header: not readable here (another style or "
                                "language?): every tick reads the inbox, one request more"),
    "probe.flows": "flows:",
    "probe.flow.login": "login with the API key",
    "probe.flow.thread": "reading the thread",
    "probe.flow.inbox": "the conversation list",
    "probe.flow.reply": "replying in the thread",
    "probe.flow.pm": "a private message",
    "probe.state.verified": "verified",
    "probe.state.failing": "failing",
    "probe.state.not_tried": "not tried",
    "probe.state.writes_nothing": "not tried: probe writes nothing (probe --handshake tries it)",
    "probe.limits": "flood limits paced by: {limits}",
    "probe.seconds": "s",
    "probe.none": "none",
    "probe.selectors_api": "selectors: none (the API answers JSON)",
    "probe.selectors": ("selectors (ok: matched; MISS: needed and matched nothing; --: not on these pages, used when "
                        "present):"),
    "probe.unverified": "unverified (written without a real page): {parts}",
    "probe.problems": "problems:",
    "probe.no_problems": "problems: none",
    "handshake.flow.login": "the bot's login",
    "handshake.flow.read": "reading the thread {thread}",
    "handshake.flow.lock": "closing the thread {thread}",
    "handshake.flow.reply": "replying in the thread {thread}",
    "handshake.flow.pm_send": "a private message to the GM",
    "handshake.flow.pm_reply": "the GM's answer by private message",
    "handshake.reply_previewed": "the reply form checked through its preview; nothing was posted",
    "handshake.preview": "forumbot: checking the reply form (a preview, never posted)",
    "handshake.reply_unverified": "not verified: on this engine a reply cannot be checked without posting one",
    "cast.summary": "games.{game}: {variant}, {n} players: {parts}{note}",
    "cast.part": "{n} {role}",
    "cast.mafia_and_don": "{members} mafia members ({mafia} mafia and the Don)",
    "cast.mafia_choose_don": "{members} mafia members (the Don among them, chosen by the mafia during Setup, M-1)",
    "cast.mafia_without_don": "; cast.mafia counts the mafiosi without the Don (R-10)",
    "cast.mafia_no_don": "{members} mafia (no Don in this variant)",
    "start.done": ("{game}: started; commitment {commitment}. The first tick from {due} (grace_seconds = {grace}) "
                   "sends the role PMs and posts the commitment."),
    "start.done_signup": ("{game}: started; its sign-up opens with the first tick from {due} (grace_seconds = "
                          "{grace}); the roles are drawn and the commitment posted when it closes."),
    "gm.refuse.new_taken.named": "that account is already in the game (a player, a GM or the bot): “{nick}”",
    "gm.refuse.no_account.named": "the forum has no such account: “{nick}”",
    "out.replacement_undone": ("The GM undid the replacement: you no longer play in this game; the seat is played by "
                               "{nick} again. Disregard the role I sent you; your moves and votes are not counted."),
    "count.majority.plurality": ("Majority: {need} of {alive}. None is needed: the one with the most votes leaves; "
                                 "L-n is how many votes a candidate lacks for a majority."),
})
# --- w-season: S-4, a reserve player who leaves, the offers shown ---
ADDED.update({
    "reserve.passed.left": "{to} left the reserve (posted in the game thread): the offer of the seat of {nick} is off.",
})
