"""Posts in the vote thread and the game thread: votes as posted (C-3, C-11, H-3, H-4, R-2..R-4), last words
(C-8) and runoff speeches (M-10)."""

from __future__ import annotations

from forumbot import parse
from forumbot.engine.activity import note_thread_post
from forumbot.engine.majority import check_majority
from forumbot.engine.seats import alive_nicks, nick, seat_of, to_seat_ids
from forumbot.engine.speech import to_gms
from forumbot.engine.work import Work
from forumbot.model import Agitation, Input, Rejection, Vote
from forumbot.rules.ballots import VotePost


def vote_post(w: Work, inp: Input) -> None:
    g = w.g
    ph = g.phase
    sid = seat_of(w, inp.author)
    if ph.kind not in ("day", "runoff"):
        w.log.append(f"{ph.label}: vote-thread post {inp.id} by {inp.author} outside a day: not a vote")
        return
    text = inp.first_text if inp.first_text is not None else inp.text
    final = False
    parsed: Vote | Agitation | Rejection
    alive = sid is not None and g.seats[sid].alive
    if sid is None:
        voter, parsed = inp.author, Rejection("not_a_player", inp.author)
    elif not alive:
        voter, parsed = sid, Rejection("dead_voter", nick(w, sid))
    else:
        voter, (parsed, final) = sid, parse_vote(w, text)
    post = VotePost(inp.id, voter, parsed, text, at=inp.at, at_latest=inp.at_latest, deleted_at=inp.deleted_at,
                    final=final if alive else False,
                    current=inp.text if inp.first_text is not None and inp.text != text else None,
                    read_at=inp.read_at)
    (g.runoff_posts if ph.kind == "runoff" else g.posts).append(post)
    if isinstance(post.parsed, Agitation) and sid is not None:  # (an agitation is only ever an alive seat's)
        g.agitations[sid] += 1
        w.log.append(f"{ph.label}: agitation by {inp.author} ({post.parsed.marker}), #{g.agitations[sid]}")
        if g.agitations[sid] > 1:
            g.doomed.add(sid)
    check_majority(w, inp.at)


def parse_vote(w: Work, text: str) -> tuple[Vote | Agitation | Rejection, bool]:
    """The post read with the game's house rules (R-2..R-4) around the variant's grammar; and if final (R-2)."""
    house = w.tb.variant.house
    parsed, final = parse.house_vote(
        text, lambda t: read_vote(w, t, w.tb.markers), house.final_word, house.vote_format, house.vote_colors,
        house.pass_words if w.g.phase.kind == "day" else None,
    )
    return to_seat_ids(w, parsed), final


def read_vote(w: Work, text: str, markers: tuple[str, ...]) -> Vote | Agitation | Rejection:
    """The open day's (or runoff's) vote grammar, naming players by their current nicks."""
    alive = alive_nicks(w)
    if w.tb.variant.vote_grammar == "strict":
        return parse.parse_hunt_vote(text, w.matcher(), alive, markers)
    if w.g.phase.kind == "runoff":
        leaders = None if w.g.hang_all else [nick(w, x) for x in w.g.leaders]
        return parse.parse_runoff_vote(text, w.matcher(), alive, leaders)
    return parse.parse_moscow_vote(text, w.matcher(), alive)


def parse_vote_words(w: Work, text: str) -> Vote | Agitation | Rejection:
    """A GM's `setvote` is a vote in the open phase's grammar (in a runoff, a runoff vote: M-10); it is never
    an agitation."""
    return read_vote(w, text, ())


def game_post(w: Work, inp: Input) -> None:
    sid = seat_of(w, inp.author)
    if sid is None:
        return
    g = w.g
    seat = g.seats[sid]
    ph = g.phase
    note_thread_post(w, sid, inp)  # the pages' activity table and ISO pages; R-11's count
    if not seat.alive:
        deadline = g.last_words.pop(sid, None)
        if deadline is not None and inp.at < deadline:
            w.log.append(f"{ph.label}: last word of {seat.nick} ({inp.id})")
        else:
            to_gms(w, inp.at, w.tb.t.gm.dead_player_posted(seat.nick, inp.id), f"game/{inp.id}/dead")
        return
    if ph.kind == "runoff":
        if sid not in g.leaders or sid in g.runoff_speakers:
            to_gms(w, inp.at, w.tb.t.gm.runoff_post_reported(seat.nick, inp.id), f"game/{inp.id}/runoff")
        g.runoff_speakers.add(sid)
