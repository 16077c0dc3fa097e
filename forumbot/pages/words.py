"""The public pages' words, Russian (default) and English. Kept apart from forumbot/texts: these are HTML and
SVG labels, escaped by the templates, not forum posts."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from forumbot.model import Rejection
from forumbot.pages.daydata import DayData, lead
from forumbot.texts import Texts, get_texts

RU: dict[str, str] = {
    "day": "День {n}", "runoff": "Перестрелка дня {n}", "night": "Ночь {n}", "setup": "Подготовка", "ended": "Игра окончена",
    # S-2: a sign-up's phase as the store keeps it ("signup open"); «Набор» is the sign-up, not Setup
    "signup": "Набор: {state}", "signup.waiting": "ещё не открыт", "signup.open": "открыт", "signup.closed": "закрыт",
    "signup.cancelled": "отменён",
    "picture.title": "{phase}: как менялись голоса",
    "picture.desc": "Полоса на каждого голосующего; цвет и подпись — за кого его голос; крестик — пост, не засчитанный как голос.",
    "final": "Итог", "outcome": "Исход", "nobody": "никто не покидает игру", "leaves": "игру покидает {names}",
    "leave_many": "игру покидают {names}",
    "to_runoff": "перестрелка: {names}", "cancelled": "голосование отменено модкиллом",
    "no_votes": "голосов нет", "not_voted": "Не проголосовали",
    "special.no_lynch": "ннв", "special.pardon_all": "помиловать всех", "special.hang_all": "повесить всех",
    "reading.counted": "голос", "reading.changed": "смена голоса", "reading.repeated": "повтор",
    "reading.gm": "голос от ведущего", "reading.agitation": "агитация (голос против себя)",
    "reading.rejected": "не голос", "reading.ignored": "не засчитан", "reading.voided": "правлен — не засчитан",
    "reading.deleted": "удалён — не засчитан", "reading.voter_out": "автор выбыл",
    "ignored.limit": "смена сверх лимита", "ignored.final": "после окончательного голоса",
    "ignored.agitation": "после агитации", "rejected.not_a_vote": "в посте не только ник игрока",
    # noun phrases: a cause needs no gender («Оля — вне игры: ночь 1, повешение», not «повешен»); a closed-role
    # night death as its night post named it («Жертва этой ночи: Оля»), the killer unsaid even after the end (M-2)
    "cause.vote": "повешение", "cause.runoff": "повешение в перестрелке", "cause.mafia": "убийство мафией",
    "cause.maniac": "убийство маньяком", "cause.hunt": "убийство на охоте", "cause.failed_hunt": "гибель на охоте",
    "cause.modkill": "модкилл", "cause.autokill": "автокилл", "cause.night": "жертва ночи",
    "role.civilian": "мирный", "role.sheriff": "шериф", "role.mafia": "мафия", "role.don": "дон",
    "role.doctor": "доктор", "role.maniac": "маньяк",
    # S-1, S-2: a game's page while its sign-up is open
    "signup open": "Набор открыт", "signup waiting": "Набор ещё не открыт", "signup cancelled": "Набор отменён",
    "signup.closes": "Набор закрывается", "signup.count": "Записались: {n} из {seats}",
    "signup.left": "свободных мест: {n}", "signup.full": "мест больше нет", "signup.reserve": "Запас",
    "signup.reserve.empty": "Запас пуст.", "signup.nobody": "Пока никто не записался.",
    "signup.thread": "Тема набора", "signup.how": "Чтобы записаться, напишите в теме набора «+», чтобы выйти — «-», в запас — «запас».",
    "winner.town": "победил город", "winner.mafia": "победила мафия", "winner.maniac": "победил маньяк",
    "winner.draw": "ничья",
    "site.title": "Игры", "site.game": "Игра", "site.games": "Игры сезона", "game.title": "Игра «{name}»",
    "game.phase": "Фаза", "game.deadline": "Срок", "game.paused": "на паузе", "game.players": "Игроки",
    "game.seat": "Место", "game.nick": "Ник", "game.state": "Статус", "game.role": "Роль",
    "game.alive": "в игре", "game.out": "вне игры: {phase}, {cause}", "game.replaced": "вместо: {seat}",
    "game.days": "Дни", "game.threads": "Темы", "game.thread.game": "игровая тема",
    "game.thread.vote": "тема голосования", "game.nights": "Ночи", "game.night.quiet": "никто не погиб",
    "game.check": "Проверка жеребьёвки",
    "game.hidden": "История голосов будет опубликована {when}.", "when.after_day": "после итогов дня",
    "when.after_end": "после конца игры", "game.files": "Данные",
    "day.title": "{phase}", "day.picture": "Картинка голосования", "day.final": "Итоговый подсчёт",
    "day.votes": "Голоса", "day.target": "За кого", "day.voters": "Кто", "day.needed": "До большинства",
    "day.majority": "Большинство — {need} из {alive}",
    "day.tie.runoff": "Ничья: {names}. Если так останется к сроку — перестрелка.",
    "day.tie.nobody": "Ничья: {names}. Если так останется к сроку — никто не уходит.",
    "day.tie.all": "Ничья: {names}. Если так останется к сроку — уходят все лидеры.",
    "day.tie.first_reached": "Ничья: {names}. Если так останется к сроку — уходит {first}: он первым набрал столько голосов.",
    "day.tie.no_majority": "Ничья: {names}. Если так останется к сроку — никто не уходит: ни у кого нет большинства.",
    "day.history": "Все посты по порядку", "day.time": "Время", "day.voter": "Автор", "day.post": "Пост",
    "day.reading": "Как прочитан", "day.tally": "Счёт после", "day.by_voter": "По игрокам",
    "day.open": "день ещё идёт", "day.back": "К игре", "index.back": "Все игры", "vote_post": "пост голоса",
    "post.game_page": "Страница игры", "post.day_page": "История голосования дня",
    "post.picture": "Голосование дня {n}", "day.count_posted": "{at}: промежуточный подсчёт в теме голосования",
    "game.events": "Объявления ведущего",
    "running": "Текущий счёт на {at}, не окончательный", "picture.as_of": "голосование идёт, счёт на {at} не окончательный",
    "picture.open": "голосование ещё идёт", "day.running": "Текущий подсчёт (не окончательный)",
    "game.opening": "Первый пост игры", "game.bot_posts": "Посты бота", "game.post_link": "пост",
    "game.thread_of.game": "игровая тема", "game.thread_of.vote": "тема голосования",
    "game.thread_of.signup": "тема набора",
    "day.since": "Что менялось от подсчёта к подсчёту", "day.since.when": "Когда", "day.since.changes": "Изменения",
    "day.since.start": "до первого подсчёта", "day.since.count": "после подсчёта {at}",
    "day.since.none": "без изменений",
    # issue 28 items 11-12: the open day's leader and margin; the picture opened large on a phone
    # a nickname never after «от» («отрыв от Петя»): it cannot be declined
    "lead": "Лидирует {name}: голосов — {n}; второй — {second}, отрыв — {margin}.",
    "lead.alone": "Лидирует {name}: голосов — {n}, больше ни за кого не голосовали.",
    "lead.majority": "До большинства не хватает: {need}.", "picture.zoom": "Открыть крупно", "picture.close": "Закрыть",
    # S-6: the season's standings on the index
    "season.standings": "Рейтинг сезона", "season.place": "Место", "season.player": "Игрок",
    "season.rating": "Рейтинг", "season.games": "Игр", "season.wins": "Побед", "season.town": "Город",
    "season.mafia": "Мафия", "season.maniac": "Маньяк", "season.survived": "Выжил", "season.modkills": "Модкиллов",
    "season.played": "Игры", "season.share": "{share}% ({wins} из {games})",
    "season.how": "Рейтинг пересчитан по {n} завершённым играм сезона: все начинают с 1500, после каждой игры рейтинг меняется на 20 × (S − E).",
    # the game thread's activity table and ISO pages (issue 30 item 1)
    "activity.title": "Активность в игровой теме", "activity.player": "Игрок", "activity.posts": "Постов",
    "activity.first": "Первый пост", "activity.last": "Последний пост",
    "activity.counted": "В зачёт минимума ({n})", "activity.iso": "все посты",
    "iso.title": "Посты игрока {nick} в игровой теме", "iso.count": "Постов: {n}", "game.iso": "Посты в игровой теме",
    # R-5 plurality: the majority and L-n decide nothing (issue 28: «L-1» beside the player who left)
    # with majority_ends_day the majority decides when the day ends, even under plurality
    "day.majority.ends_day": ("Большинство — {need} из {alive}: как только у одного игрока столько голосов, день "
                              "заканчивается; L-n — сколько голосов кандидату не хватает до большинства"),
    "day.majority.ended": "День закончился досрочно: у {nick} большинство с {at}",
    "day.majority.plurality": ("Большинство — {need} из {alive}. Для ухода оно не нужно: уходит набравший больше всех "
                               "голосов; L-n — сколько голосов кандидату не хватает до большинства"),
}

EN: dict[str, str] = {
    "day": "Day {n}", "runoff": "Runoff of day {n}", "night": "Night {n}", "setup": "Setup", "ended": "Game over",
    "signup": "Sign-up: {state}", "signup.waiting": "not open yet", "signup.open": "open", "signup.closed": "closed",
    "signup.cancelled": "cancelled",
    "picture.title": "{phase}: how the votes moved",
    "picture.desc": "One lane per voter; colour and label say whom the vote is for; a cross marks a post that did not count.",
    "final": "Final", "outcome": "Outcome", "nobody": "nobody leaves the game", "leaves": "{names} leaves the game",
    "leave_many": "{names} leave the game",
    "to_runoff": "runoff: {names}", "cancelled": "the vote was cancelled by a modkill",
    "no_votes": "no votes", "not_voted": "Did not vote",
    "special.no_lynch": "no lynch", "special.pardon_all": "pardon all", "special.hang_all": "hang all",
    "reading.counted": "vote", "reading.changed": "vote changed", "reading.repeated": "repeated",
    "reading.gm": "vote set by the GM", "reading.agitation": "agitation (a vote against oneself)",
    "reading.rejected": "not a vote", "reading.ignored": "not counted", "reading.voided": "edited, not counted",
    "reading.deleted": "deleted, not counted", "reading.voter_out": "author out",
    "ignored.limit": "a change over the limit", "ignored.final": "after a final vote",
    "ignored.agitation": "after an agitation", "rejected.not_a_vote": "the post holds more than a player's name",
    "cause.vote": "lynched", "cause.runoff": "lynched in the runoff", "cause.mafia": "killed by the mafia",
    "cause.maniac": "killed by the maniac", "cause.hunt": "killed by the hunt", "cause.failed_hunt": "died hunting",
    "cause.modkill": "modkilled", "cause.autokill": "autokilled", "cause.night": "victim of the night",
    "role.civilian": "civilian", "role.sheriff": "sheriff", "role.mafia": "mafia", "role.don": "don",
    "role.doctor": "doctor", "role.maniac": "maniac",
    # S-1, S-2: a game's page while its sign-up is open
    "signup open": "Sign-up open", "signup waiting": "Sign-up not open yet", "signup cancelled": "Sign-up cancelled",
    "signup.closes": "The sign-up closes", "signup.count": "Signed up: {n} of {seats}",
    "signup.left": "places left: {n}", "signup.full": "no places left", "signup.reserve": "Reserve",
    "signup.reserve.empty": "The reserve is empty.", "signup.nobody": "Nobody has signed up yet.",
    "signup.thread": "Sign-up thread", "signup.how": "To sign up, post “+” in the sign-up thread; to leave, “-”; for the reserve, “sub”.",
    "winner.town": "the town won", "winner.mafia": "the mafia won", "winner.maniac": "the maniac won",
    "winner.draw": "a draw",
    "site.title": "Games", "site.game": "Game", "site.games": "Games of the season", "game.title": "Game “{name}”",
    "game.phase": "Phase", "game.deadline": "Deadline", "game.paused": "paused", "game.players": "Players",
    "game.seat": "Seat", "game.nick": "Nick", "game.state": "State", "game.role": "Role",
    "game.alive": "alive", "game.out": "out: {phase}, {cause}", "game.replaced": "replacing {seat}",
    "game.days": "Days", "game.threads": "Threads", "game.thread.game": "game thread",
    "game.thread.vote": "vote thread", "game.nights": "Nights", "game.night.quiet": "nobody died",
    "game.check": "Checking the draw",
    "game.hidden": "The vote history is published {when}.", "when.after_day": "after the day's result",
    "when.after_end": "after the game ends", "game.files": "Data",
    "day.title": "{phase}", "day.picture": "Vote picture", "day.final": "Final count",
    "day.votes": "Votes", "day.target": "For", "day.voters": "Who", "day.needed": "To majority",
    "day.majority": "Majority: {need} of {alive}",
    "day.tie.runoff": "Tied: {names}. If it stays so at the deadline, a runoff.",
    "day.tie.nobody": "Tied: {names}. If it stays so at the deadline, nobody leaves.",
    "day.tie.all": "Tied: {names}. If it stays so at the deadline, every tied leader leaves.",
    "day.tie.first_reached": "Tied: {names}. If it stays so at the deadline, {first} leaves: the first to reach that many votes.",
    "day.tie.no_majority": "Tied: {names}. If it stays so at the deadline, nobody leaves: nobody has a majority.",
    "day.history": "Every post in order", "day.time": "Time", "day.voter": "Author", "day.post": "Post",
    "day.reading": "Read as", "day.tally": "Tally after", "day.by_voter": "By player",
    "day.open": "the day is still open", "day.back": "Back to the game", "index.back": "All games",
    "vote_post": "vote post",
    "post.game_page": "Game page", "post.day_page": "The day's vote history",
    "post.picture": "Votes of day {n}", "day.count_posted": "{at}: a vote count posted in the vote thread",
    "game.events": "The GM's announcements",
    "running": "Tally at {at}, not final", "picture.as_of": "the vote is open, the tally at {at} is not final",
    "picture.open": "the vote is still open", "day.running": "Tally so far (not final)",
    "game.opening": "The game's opening post", "game.bot_posts": "The bot's posts", "game.post_link": "post",
    "game.thread_of.game": "game thread", "game.thread_of.vote": "vote thread",
    "game.thread_of.signup": "sign-up thread",
    "day.since": "What changed from count to count", "day.since.when": "When", "day.since.changes": "Changes",
    "day.since.start": "before the first count", "day.since.count": "after the count at {at}",
    "day.since.none": "no change",
    # issue 28 items 11-12: the open day's leader and margin; the picture opened large on a phone
    "lead": "Leading: {name} with {n} vote(s), {margin} ahead of {second}.",
    "lead.alone": "Leading: {name} with {n} vote(s); nobody else has a vote.",
    "lead.majority": "Short of a majority by {need}.", "picture.zoom": "Open large", "picture.close": "Close",
    # S-6: the season's standings on the index
    "season.standings": "Season standings", "season.place": "Place", "season.player": "Player",
    "season.rating": "Rating", "season.games": "Games", "season.wins": "Wins", "season.town": "Town",
    "season.mafia": "Mafia", "season.maniac": "Maniac", "season.survived": "Survived", "season.modkills": "Modkills",
    "season.played": "Games played", "season.share": "{share}% ({wins} of {games})",
    "season.how": "The rating is recomputed from the season's {n} finished games: everyone starts at 1500 and moves by 20 × (S − E) after each game.",
    # the game thread's activity table and ISO pages (issue 30 item 1)
    "activity.title": "Activity in the game thread", "activity.player": "Player", "activity.posts": "Posts",
    "activity.first": "First post", "activity.last": "Last post",
    "activity.counted": "Counted for the minimum ({n})", "activity.iso": "all posts",
    "iso.title": "{nick}'s posts in the game thread", "iso.count": "Posts: {n}", "game.iso": "Posts in the game thread",
    "day.majority.ends_day": ("Majority: {need} of {alive}: as soon as one player holds that many votes, the day "
                              "ends; L-n is how many votes a candidate lacks for a majority"),
    "day.majority.ended": "The day ended early: {nick} has held a majority since {at}",
    "day.majority.plurality": ("Majority: {need} of {alive}. None is needed: the one with the most votes leaves; L-n "
                               "is how many votes a candidate lacks for a majority"),
}


class Words:
    def __init__(self, language: str, timezone: str) -> None:
        self.language = "en" if language == "en" else "ru"
        self.table = EN if self.language == "en" else RU
        self.zone = ZoneInfo(timezone)
        # the bot's own post texts, nicknames left as given: a page that restates a post says it in its words
        self.posts: Texts = get_texts(self.language, lambda text: text, timezone)

    def said(self, key: str, **kw: object) -> str:
        """A sentence as the bot's posts say it (forumbot/texts), for a page that restates that post."""
        return self.posts.v._(key, **kw)

    def early_end(self, nick: str, at: datetime) -> str:
        """R-12's line of the result post: the majority that ended the day early, and when its post was written."""
        return self.said("day.ended_at_majority", nick=nick, at=self.time(at))

    def waiver(self, gap: tuple[datetime, datetime], why: str = "no_vote") -> str:
        """C-14's line of the result post: which autokill the outage waived that day (`why`, its reason)."""
        return self.posts.phases.downtime_waiver(gap, why or "no_vote")

    def __call__(self, key: str, **kw: object) -> str:
        return self.table[key].format(**kw) if kw else self.table[key]

    def phase(self, kind: str, number: int = 0) -> str:
        return self(kind, n=number)

    def label(self, label: str) -> str:
        """A phase label as the engine writes it ("day 2", "runoff 1", "night 3", "setup", "signup open") in words."""
        kind, _, n = label.partition(" ")
        if kind == "signup":  # "signup open": a sign-up's state (S-1), as a heading where it has one
            return self(label) if label in self.table else self(kind, state=self.table.get(f"signup.{n}", n))
        return self(kind, n=int(n)) if n else self(kind)

    def inline(self, label: str) -> str:
        """A phase label inside a sentence («вне игры: ночь 1, убийство мафией», «идёт, день 2»), as the bot's posts
        write it there; `label` gives the heading's capital (issue 28)."""
        words = self.label(label)
        return words[:1].lower() + words[1:]

    def time(self, at: datetime | None) -> str:
        """A time in the game's zone, labelled as the posts label it («01.12 14:00 МСК»)."""
        return "" if at is None else self.posts.v.time(at)

    def iso(self, at: datetime) -> str:
        """A time as `<time datetime>` and a script read it: ISO 8601 in the game's zone, its offset written."""
        return at.astimezone(self.zone).isoformat()

    def deadline(self, at: datetime) -> str:
        """A deadline as the posts write it: with its seconds where it has them (`Voice.deadline`)."""
        return self.posts.v.deadline(at)

    def time_s(self, at: datetime | None) -> str:
        return "" if at is None else self.posts.v.time_s(at)

    def ahead(self, at: datetime, built: datetime | None) -> str:
        """How long until `at` from when the page was built («через 9 ч»), as the GM's `game status` says it;
        "" once it has passed or when the build time is not known."""
        return self.posts.v.ahead(at, built)

    def leading(self, day: DayData) -> str:
        """The open day's leader and his margin over the next (under plurality, the Moscow default, what decides
        the day), and under a majority lynch what he still lacks; "" with no votes, a tie, or a closed day."""
        found = lead(day) if day.closed is None else None
        if found is None:
            return ""
        first, n, margin, second = found
        name = self.target(first.name, first.special)
        said = (self("lead", name=name, n=n, margin=margin, second=self.target(second.name, second.special))
                if second else self("lead.alone", name=name, n=n))
        if day.lynch == "majority" and day.majority > n:
            said += " " + self("lead.majority", need=day.majority - n)
        return said

    def target(self, name: str, special: bool) -> str:
        return self(f"special.{name}") if special else name

    def why(self, row) -> str:
        """What a post was read as, with why where it did not count (the count post's own words for a
        rejection, C-6)."""
        said = self(f"reading.{row.reading}")
        if row.reading == "rejected":
            if row.detail == "not_a_vote":  # the count post's «это не голос» would only repeat «не голос»
                return f"{said}: {self('rejected.not_a_vote')}"
            return f"{said}: {self.posts.v.reason(Rejection(row.detail, row.note), shown=row.text, who=row.voter)}"
        if row.reading == "ignored":
            return f"{said}: {self(f'ignored.{row.detail}')}"
        return said + (f" ({row.detail})" if row.detail else "")

    def cause(self, cause: str) -> str:
        return self.table.get(f"cause.{cause}", cause)

    def role(self, role: str) -> str:
        return self.table.get(f"role.{role}", role)
