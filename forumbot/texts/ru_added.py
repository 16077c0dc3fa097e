"""Russian texts added by later issues (GM answers, late inputs, player texts), kept apart so each table
stays a readable size; `forumbot.texts.ru` merges them into its `T`."""

ADDED: dict[str, str] = {}

# --- h19: C-13 late inputs ---
ADDED.update({
    "gm.late_input": ("Прочитано после итогов — от {nick}: {where}, время на форуме {at}, но прочитано уже после "
                      "итогов фазы «{phase}». Объявленные итоги остаются (C-13); с этого момента оно учитывается "
                      "как отправленное сейчас. Текст: {text}"),
    "gm.late_where.game": "сообщение в игровой теме",
    "gm.late_where.vote": "сообщение в теме голосования",
    "gm.late_where.pm": "личное сообщение",
})

# --- h17a: issue 17 items 5-10, 15 (player-facing texts) ---
ADDED.update({
    "forms.time": "раз|раза|раз",
    "setup.vote.title": "Как голосовать:",
    "setup.vote.thread": "теме голосования",
    "setup.vote.where": "Голосование — в {thread}, каждый день до срока, который назовёт сообщение о начале дня.",
    "setup.vote.nick": "Голос — сообщение только с ником игрока, как он написан в списке выше (регистр и оформление не важны); сообщение с другими словами — не голос.",
    "setup.vote.strict": "Голос — сообщение только с ником игрока, как он написан в списке выше: без пояснений, цитат и второго ника, иначе это не голос.",
    "setup.vote.changes_once": "Голос можно сменить один раз: второй голос окончательный.",
    "setup.vote.changes": "Голос можно сменить {count}, после этого он окончательный.",
    "setup.vote.changes_none": "Голос менять нельзя: засчитывается первый.",
    "setup.vote.changes_unlimited": "Голос можно менять: засчитывается последний до срока.",
    "setup.vote.pass": "Чтобы никого не вешать, напишите {words}.",
    "setup.vote.no_pass": "Голоса «никого не вешать» в этой игре нет.",
    "setup.vote.runoff": "При ничьей будет перестрелка; голос на этот случай можно дать сразу, через «/»: «НИК / НИК2», «НИК / помиловать всех» или «НИК / повесить всех».",
    "setup.vote.agitation": "Призыв голосовать («голосуйте за …», «давайте …») засчитывается как голос автора против себя; повторный призыв — автокилл.",
    "setup.rules.title": "Правила этой игры:",
    "thread.game": "игровая тема",
    "thread.game_line": "Обсуждение — {link}.",
    "role.marker": "Строка вида #fb:… в конце моих сообщений — служебная метка, по которой я нахожу свои сообщения; отвечать на неё не нужно, на игру она не влияет.",
    "or": "или",
    "mafia.partner_target": "{nick} — новая цель: {target}.",
    "mafia.targets": "Цели мафии сейчас: {targets}.",
    "mafia.target": "{nick} — {target}",
    "mafia.no_target": "{nick} — цели нет",
    "mafia.match": "Цели совпадают: выстрел состоится, если никто их не сменит.",
    "mafia.must_match": "Выстрел состоится, только если все живые члены мафии назовут одну и ту же цель; иначе — несострел.",
    "status.mafia_mismatch": "Мафия: цели пока не совпадают ({targets}).",
    "gm.undone_vote": "Голосование снова идёт ({phase}) — в теме голосования до {at}.",
    "gm.undone_vote_paused": "Голосование снова идёт ({phase}), но игра на паузе: срок назовёт сообщение о снятии паузы.",
    "out.modkill": "Ведущий вывел вас из игры (модкилл).",
    "out.modkill_undone": "Ведущий отменил модкилл: вы снова в игре, с прежней ролью.",
    "out.vote": "По итогам голосования вы покидаете игру.",
    "out.night": "Этой ночью вы погибли и покидаете игру.",
    "out.autokill": "Автокилл: вы покидаете игру.",
    "out.last_word": "Последнее слово — одно сообщение в игровой теме до {at}.",
    "out.no_word": "Последнего слова нет; ходы и голоса больше не принимаются.",
    "out.see_thread": "Объявление — в игровой теме.",
    "count.by_gm": " (голос засчитан ведущим)",
    "count.replaced": "Заменено голосом ведущего: {nick} {text}.",
    "count.edit_pair": "{now} (сначала было {first})",
    "count.agitation_deleted": "Удалено из темы: {nick} {text} — это агитация, она засчитана против автора и после удаления.",
    "end.why.draw_at": "В игре осталось {alive}: по правилам этой игры это ничья.",
    "end.why.nobody": "В живых не осталось никого.",
})

# --- h18o: forumbot probe --handshake (issue 18 item 5) ---
ADDED.update({
    "handshake.title": "Проверка связи: форум {forum} ({engine}), ведущий {gm}",
    "handshake.status.verified": "работает",
    "handshake.status.failing": "НЕ РАБОТАЕТ",
    "handshake.status.unverified": "не проверено",
    "handshake.not_tried": "не проверялось: предыдущий шаг не удался",
    "handshake.posts_read": "прочитано сообщений: {count}",
    "handshake.subject": "forumbot: проверка связи",
    "handshake.pm": "Здравствуйте, {gm}! Это проверка связи с ботом-ведущим. Код: {code}\n"
                    "Ответьте на это личное сообщение, вписав код, и запустите «forumbot probe --handshake» ещё раз.",
    "handshake.sent": "личное сообщение с кодом {code} отправлено ведущему {gm}",
    "handshake.sent_before": "личное сообщение с кодом {code} ведущему {gm} отправлено при прошлом запуске",
    "handshake.ask": "попросите {gm} ответить на личное сообщение кодом {code} и запустите проверку ещё раз",
    "handshake.no_reply": "ответа от {gm} с кодом {code} во входящих пока нет",
    "handshake.replied": "ответ {gm} с кодом прочитан из входящих",
    "handshake.wait": "форум просит подождать, запустите проверку позже:",
})

# --- h26-outage: C-14, a phase the bot opens when it is back after an outage ---
ADDED.update({
    "phase.opens_late": ("Бот не мог вести игру, когда эта фаза должна была начаться ({due}), и вернулся только "
                          "{opens}: фаза открывается сейчас на полную длину, а все следующие сроки сдвинуты на "
                          "{shift}. За неявку в пропущенное время никто не выбывает."),
})

# --- h26-citime: a restored database on a forum where the bot deletes the PMs it has read (issue 28) ---
ADDED.update({
    "gm.restored_pms_lost": ("База данных бота восстановлена из более ранней копии. Прочитанные личные сообщения "
                             "бот удаляет из входящих (delete_read_pms = true), поэтому все личные сообщения, "
                             "прочитанные после этой копии, потеряны: ваши команды ведущего с того времени и ночные "
                             "ходы игроков бот больше не увидит. Отправьте свои команды с того времени ещё раз и "
                             "попросите игроков снова прислать ночные ходы."),
})

# --- h29-signup: S-1..S-3 the sign-up ---
ADDED.update({
    "forms.place": "место|места|мест",
    "signup.variant.moscow": "московская мафия",
    "signup.variant.free_hunt": "мафия со свободной охотой",
    "signup.title": "Набор в игру: {variant}",
    "signup.wanted": "Нужно {count}.",
    "signup.closes": "Набор закрывается {at}.",
    "signup.full_closes": "Набор закроется раньше, как только наберётся нужное число игроков.",
    "signup.how.title": "Как записаться:",
    "signup.how.join": "записаться — сообщение в этой теме только со словом «+» (или «я», «в игре», «играю», «участвую»);",
    "signup.how.leave": "выписаться — сообщение только со словом «-» (или «выхожу», «не играю»);",
    "signup.how.reserve": "в запас, на замену выбывшим — сообщение только со словом «запас» (или «на замену»). Записывается тот, кто написал сообщение; правка сообщения ничего не меняет.",
    "signup.rules": "Правила игры: {link}.",
    "signup.rules.text": "здесь",
    "signup.list.title": "Список записавшихся",
    "signup.list.players": "Игроки:",
    "signup.list.none": "Пока никто не записался.",
    "signup.list.reserve": "Запас:",
    "signup.list.refused": "Ведущий не принимает в эту игру: {names}.",
    "signup.list.left": "Свободно: {count}.",
    "signup.closed.title": "Набор закрыт",
    "signup.closed.roles": "Роли придут в личные сообщения сейчас.",
    "signup.closed.day_one": "День 1 начнётся {at}.",
    "signup.extended.title": "Набор продлён",
    "signup.extended": "Не хватает {count}: набор продлён до {at}. Продление одно; если игроков не хватит и тогда, игра отменяется.",
    "signup.gm.extended": "Набор продлён: записалось {have} из {wanted}. Новый срок — {at}; если игроков не хватит и тогда, игра отменится.",
    "signup.cancelled.title": "Игра отменена",
    "signup.cancelled": "Набор не состоялся: записалось {have} из {wanted} после продления.",
    "signup.gm.cancelled": "Игра отменена: после продления записалось {have} из {wanted} ({names}).",
    "signup.gm.status": "Набор: записалось {have} из {wanted}, закрывается {at}.",
    "signup.gm.players": "Игроки: {names}.",
    "signup.gm.reserve": "Запас: {names}.",
    "signup.gm.done.AddPlayer": "Выполнено: {nick} — в списке записавшихся.",
    "signup.gm.done.RemovePlayer": "Выполнено: {nick} — вне набора.",
    "signup.gm.done.CloseSignup": "Выполнено: набор закрыт.",
    "signup.gm.undone": "Отменено: «{command}», как будто её не было.",
    "signup.refuse.signup_short": "игроков меньше, чем нужно, — закрыть набор можно только с полным списком",
    "signup.refuse.not_signed_up": "такого ника нет ни среди записавшихся, ни в запасе",
    "signup.refuse.already_signed_up": "этот игрок уже записан",
    "signup.refuse.new_taken": "это аккаунт ведущего или бота",
    "signup.refuse.nothing_to_undo": "отменять нечего",
    "season.notice": "Открыт набор в следующую игру сезона — {game}: запись сообщением «+» в игровой теме ({thread}). Больше не присылать таких сообщений — ответьте «не писать».",
})
# --- h30-majority: R-12, a day that ends at majority; issue 30 item 5, a count that says how far ---
ADDED.update({
    "house.majority_ends_day.True": "День заканчивается, как только у одного игрока больше половины голосов живых",
    "house.majority_ends_day.False": "День идёт до срока, даже когда у кого-то больше половины голосов",
    "house.majority_delay": "После большинства день заканчивается через {n} мин., если большинство не распадётся",
    "day.ended_at_majority": "День закончился досрочно: у {nick} больше половины голосов живых игроков (сообщение в {at}).",
    "count.majority": "Большинство — {need} из {alive}.",
    "count.line_to": "{target} — {count}: {voters} (L-{left})",
    "count.tie.runoff": "Ничья: {names}. Если так останется к сроку — перестрелка.",
    "count.tie.nobody": "Ничья: {names}. Если так останется к сроку — никто не уходит.",
    "count.tie.all": "Ничья: {names}. Если так останется к сроку — уходят все лидеры.",
    "count.tie.first_reached": "Ничья: {names}. Если так останется к сроку — уходит {first}: он первым набрал столько голосов.",
    "count.tie.no_majority": "Ничья: {names}. Если так останется к сроку — никто не уходит: ни у кого нет большинства.",
    "status.ended_at_majority": "{phase} закончился досрочно в {at}: большинство у {nick}.",
    "status.majority_pending": "Большинство у {nick} с {at}: день закончится {ends}, если большинство не распадётся.",
})
# --- h30-downtime: C-14, a deadline the bot could not read the forum before ---
ADDED.update({
    "downtime.gap": "с {start} до {end} ({zone})",
    "day.downtime": "Автокилл за неявку не применяется: бот не мог читать форум {gap}.",
    "gm.downtime": ("Срок ({phase}) подведён после сбоя: бот не мог читать форум {gap}, а за последние {window} "
                    "перед сроком допускается не дольше {grace}. Итог подведён как обычно, но за неявку никто "
                    "не выбыл. Чтобы вернуть игрокам время, используйте «продлить СРОК»."),
})
# --- h29-ask: C-15 players ask the bot, M-15 the mafia conference ---
ADDED.update({
    "asked.no_vote.setup": "Голосование ещё не началось: подсчёт будет с начала дня 1.",
    "asked.no_vote.night": "Сейчас ночь: голосования нет, подсчёт будет днём.",
    "asked.count_sent": ("Подсчёт уже отправлен вам в {at}: следующий — не раньше чем через 10 минут после него. "
                         "Текущий подсчёт бот выкладывает и в теме голосования."),
    "asked.my_vote": "Ваш голос: {target} — сообщение от {at}: {text}.",
    "asked.my_vote_gm": "Ваш голос: {target} — поставлен ведущим.",
    "asked.my_vote_none": "Засчитанного голоса у вас сейчас нет.",
    "asked.changes_left": "Сменить голос можно ещё: {count}.",
    "asked.changes_after_first": "После первого голоса его можно будет сменить: {count}.",
    "asked.changes_none": "Менять голос больше нельзя.",
    "asked.changes_unlimited": "Голос можно менять до срока: засчитывается последний.",
    "conference.open": ("Конференция мафии открыта до начала дня 1 ({at}). Партнёры: {names}. Чтобы написать им, "
                        "отправьте мне личное сообщение, которое начинается словом «конфа»: «конфа ТЕКСТ» — я перешлю "
                        "текст каждому из них с вашим ником. Сказанное в конференции — не ход, не выбор дона и не "
                        "команда: их пишите мне отдельным сообщением."),
    "conference.closed": "Конференция закрыта: дальше мафия не общается.",
    "conference.line": "Конференция — {nick}: {text}",
    "conference.sent": "Переслано в конференцию: {names}.",
    "conference.refuse.not_member": "Конференция — только для мафии: ваше сообщение никому не переслано.",
    "conference.refuse.empty": "Пустое сообщение никому не переслано: напишите текст после слова «конфа».",
    "conference.conversation": ("Конференция мафии: {names}. Ответы на это сообщение видят все его получатели; "
                                "конференция открыта до начала дня 1 ({at}). Сказанное здесь — не ход, не выбор дона "
                                "и не команда: их пишите мне отдельным сообщением."),
})
# --- h30-activity: R-11, the post minimum ---
ADDED.update({
    "forms.post": "сообщение|сообщения|сообщений",
    "posts.item": "{nick} — {count}",
    "posts.below": "Ниже минимума ({need} в игровой теме за день) — {count}: {names}.",
    "posts.warning": "Предупреждение за неактивность (минимум — {need} в игровой теме за день): {names}.",
    "posts.reminder": ("Напоминание: за этот день у вас {got} в игровой теме, а минимум — {need}. "
                       "День заканчивается {at}."),
    "autokill.posts": "мало сообщений в игровой теме",
    "autokill.no_vote_posts": "нет голоса и мало сообщений в игровой теме",
    "house.post_minimum": "Минимум за день — {need} в игровой теме; кто написал меньше: {action}",
    "house.post_minimum_chars": " (засчитываются сообщения от {chars} знаков, цитаты не в счёт)",
    "posts.action.warn": "предупреждение",
    "posts.action.autokill": "автокилл",
    "posts.action.warn_then_autokill": "в первый раз предупреждение, потом автокилл",
})
# --- h30-lock: R-13, may the bot close the threads (probe --handshake) ---
ADDED.update({
    "handshake.lock_yes": "у учётной записи бота есть кнопка закрытия этой темы (ничего не закрыто)",
    "handshake.lock_no": ("у учётной записи бота нет кнопки закрытия этой темы: дайте ей право модератора в разделе "
                          "игры или поставьте lock_threads = false (R-13)"),
    "handshake.lock_no_unasked": "у учётной записи бота здесь нет кнопки закрытия; lock_threads не включён ни в одной игре",
    "handshake.lock_unknown": "страница этого движка не показывает, может ли бот закрыть тему (это покажет первое закрытие)",
    "handshake.lock_none": "на этом движке бот не умеет закрывать темы (lock_threads здесь не работает)",
})
# --- w-reserve: S-4, the reserve and replacements ---
ADDED.update({
    "gm.refuse.no_reserve": ("у этой игры не было набора, значит, нет и запаса: «замена НИК» без нового ника берёт "
                             "игрока из запаса; напишите «замена НИК НОВЫЙ»"),
    "gm.refuse.offer_open": ("место этого игрока уже предложено игроку из запаса: дождитесь ответа или снимите "
                             "предложение командой «отмена»"),
    "gm.refuse.reserve_empty": "запас пуст, место некому предложить; напишите «замена НИК НОВЫЙ»",
    "done.offer": "замена из запаса — место игрока {old} предложено запасу",
    "reserve.offer": ("Ведущий ищет замену: место игрока {nick} свободно, и оно предложено вам из запаса. Чтобы "
                      "занять его, ответьте на это письмо одним словом «принимаю» до {until}; чтобы отказаться — "
                      "«нет». Роль придёт следующим письмом."),
    "reserve.offered": "Место игрока {nick} предложено {to} (запас) до {until}.",
    "reserve.accepted": "{to} принял место игрока {nick}: замена сделана.",
    "reserve.passed.no": "{to} отказался от места игрока {nick}.",
    "reserve.passed.silent": "{to} не ответил вовремя на предложение места игрока {nick}.",
    "reserve.next": "Предложение переходит к следующему в запасе.",
    "reserve.empty": ("Запас пуст: место игрока {nick} больше некому предложить. Замените его сами: "
                      "«замена {nick} НОВЫЙ»."),
    "reserve.declined": "Понятно, место предложено следующему в запасе. Вы остаётесь в запасе.",
    "reserve.lapsed": "Время ответа истекло: место игрока {nick} предложено следующему в запасе.",
    "reserve.how": "Место игрока {nick} ждёт вашего ответа до {until}: напишите одним словом «принимаю» или «нет».",
    "reserve.withdrawn": "Ведущий отменил замену: предложение места игрока {nick} снято.",
    "reserve.gone": "Место игрока {nick} уже занято другим: предложение снято.",
    "help.grammar.replace": "«замена СТАРЫЙ НОВЫЙ» или «замена СТАРЫЙ»",
    "help.what.replace": ("место игрока с его ролью переходит другому аккаунту; без нового ника (игра из набора) "
                          "место предлагается запасу по порядку"),
})
# --- w-handshake: issue 28 item 4, check-config and probe in the GM's language, accounts looked up, the reply flow ---
ADDED.update({
    "accounts.missing": "{setting}: на форуме нет учётной записи «{name}»{said}: проверьте, как пишется имя",
    "accounts.said": " (форум отвечает: «{words}»)",
    "accounts.verified": "проверено: games.{game}: все учётные записи игры ({count}) есть на форуме",
    "accounts.unknown": "не проверено: games.{game}: форум не показал боту, есть ли учётные записи {names}",
    "accounts.no_lookup": "не проверено: games.{game}: на движке {engine} бот не умеет искать учётные записи",
    "accounts.unreachable": "учётные записи игры {game} не проверены: {error}",
    "accounts.not_started": "игра {game} не начата, ничего не отправлено: исправьте имя в конфигурации и запустите снова",
    "check.warning": "предупреждение: {text}",
    "check.logged_in": "проверено: forums.{forum}: вход выполнен как {login}",
    "check.cannot_login": "forums.{forum}: не удалось войти: {error}",
    "check.cannot_zone": "forums.{forum}: не удалось прочитать часовой пояс форума: {error}",
    "check.zone_ok": "проверено: forums.{forum}: форум показывает боту время в {zone} — в том поясе, в котором бот его читает",
    "check.zone_unknown": ("не проверено: forums.{forum}: часовой пояс форума (этот движок не показывает пояс учётной "
                           "записи); даты читаются в {zone}"),
    "check.zone_each_page": "поясе, который указывает каждая страница",
    "check.read": "проверено: games.{game}.{key}: прочитана тема {thread} (сообщений на первой странице: {count})",
    "check.cannot_read": "games.{game}.{key}: не удалось прочитать {thread}: {error}",
    "check.not_a_topic": "games.{game}.{key}: {error} (укажите адрес или номер темы)",
    "check.selectors": "проверено: forums.{forum}: все селекторы, нужные боту, нашлись на странице темы",
    "check.selectors_inbox": "проверено: forums.{forum}: все селекторы, нужные боту, нашлись на странице темы и во входящих",
    "check.lock_yes": "проверено: {setting}: у учётной записи бота есть кнопка закрытия {thread} (ничего не закрыто)",
    "check.lock_unknown": ("не проверено: {setting}: страница этого движка не показывает, может ли бот закрыть {thread}; "
                           "первое закрытие скажет ведущим"),
    "check.ok": "{path}: всё в порядке (форумов: {forums}, игр: {games})",
    "probe.head": "форум: {forum}    тема: {thread}    {who}",
    "probe.guest": "как гость",
    "probe.api": "через API с ключом бота",
    "probe.logged_in": "бот вошёл",
    "probe.engine": "движок: {engine} (в конфигурации); ",
    "probe.engine_api": "читается через его API (JSON, без страниц)",
    "probe.engine_seen": "по странице: {seen}",
    "probe.nothing_seen": "не распознан",
    "probe.times": "время читается в: {read}; показано в {shown}",
    "probe.times_api": "unix-время (API)",
    "probe.times_page": "поясе, который указывает страница",
    "probe.posts": "сообщений на этой странице: {count}",
    "probe.post": "  #{id} {author}, {at}",
    "probe.no_author": "(без автора)",
    "probe.edited": "изменено {at}",
    "probe.quote_stripped": "цитата убрана",
    "probe.signature_stripped": "подпись убрана",
    "probe.pages": ("страницы: {param} ({kind}), эта страница {current}, всего {pages}, по {per_page} на странице, "
                    "следующая страница: {next}"),
    "probe.yes": "есть",
    "probe.no": "нет",
    "probe.inbox": "входящие: строк {rows}, непрочитанных {unread}",
    "probe.not_shown": "не показано",
    "probe.inbox_guest": "входящие: не прочитаны (гость)",
    "probe.inbox_unread": "входящие: не прочитаны (см. проблемы)",
    "probe.header": ("непрочитанные ЛС в шапке страницы темы: {unread} (тик без дел читает входящие, только когда "
                     "страница показывает больше 0)"),
    "probe.header_unreadable": ("непрочитанные ЛС в шапке страницы темы: здесь не читаются (другой стиль или язык?): "
                                "каждый тик читает входящие, на один запрос больше"),
    "probe.flows": "проверки:",
    "probe.flow.login": "вход по ключу API",
    "probe.flow.thread": "чтение темы",
    "probe.flow.inbox": "список переписок",
    "probe.flow.reply": "ответ в теме",
    "probe.flow.pm": "личное сообщение",
    "probe.state.verified": "работает",
    "probe.state.failing": "НЕ РАБОТАЕТ",
    "probe.state.not_tried": "не проверялось",
    "probe.state.writes_nothing": "не проверялось: probe ничего не пишет (это проверяет probe --handshake)",
    "probe.limits": "паузы против флуда: {limits}",
    "probe.seconds": "с",
    "probe.none": "нет",
    "probe.selectors_api": "селекторы: нет (API отвечает JSON)",
    "probe.selectors": ("селекторы (ok: нашёлся; MISS: нужен и не нашёлся; --: нет на этих страницах, "
                        "используется, когда есть):"),
    "probe.unverified": "не проверено на настоящей странице: {parts}",
    "probe.problems": "проблемы:",
    "probe.no_problems": "проблем нет",
    "handshake.flow.login": "вход бота",
    "handshake.flow.read": "чтение темы {thread}",
    "handshake.flow.lock": "закрытие темы {thread}",
    "handshake.flow.reply": "ответ в теме {thread}",
    "handshake.flow.pm_send": "личное сообщение ведущему",
    "handshake.flow.pm_reply": "ответ ведущего в личных сообщениях",
    "handshake.reply_previewed": "форма ответа проверена через предпросмотр; ничего не опубликовано",
    "handshake.preview": "forumbot: проверка формы ответа (предпросмотр, не публикуется)",
    "handshake.reply_unverified": "не проверено: на этом движке ответ в теме нельзя проверить, ничего не опубликовав",
    "cast.summary": "games.{game}: {variant}, игроков — {n}: {parts}{note}",
    "cast.part": "{role} — {n}",
    "cast.mafia_and_don": "членов мафии — {members} (мафия — {mafia} и дон)",
    "cast.mafia_choose_don": "членов мафии — {members} (дона из них выбирает сама мафия в подготовке, M-1)",
    "cast.mafia_without_don": "; cast.mafia считает мафию без дона (R-10)",
    "cast.mafia_no_don": "мафия — {members} (в этом варианте дона нет)",
    "start.done": ("{game}: игра запущена; контрольная сумма раздачи ролей {commitment}. Первый тик начиная с {due} "
                   "(grace_seconds = {grace}) разошлёт роли в личных сообщениях и опубликует контрольную сумму."),
    "start.done_signup": ("{game}: игра запущена; набор откроет первый тик начиная с {due} (grace_seconds = {grace}); "
                          "роли раздаются и контрольная сумма публикуется при закрытии набора."),
    "gm.refuse.new_taken.named": "этот аккаунт уже в игре (игрок, ведущий или бот): «{nick}»",
    "gm.refuse.no_account.named": "на форуме нет такого аккаунта: «{nick}»",
    "out.replacement_undone": ("Ведущий отменил замену: вы больше не участвуете в игре, место снова занимает {nick}. "
                               "Присланную вам роль не учитывайте; ваши ходы и голоса не засчитываются."),
    "count.majority.plurality": ("Большинство — {need} из {alive}. Для ухода оно не нужно: уходит набравший больше "
                                 "всех голосов; L-n — сколько голосов кандидату не хватает до большинства."),
})
# --- w-season: S-4, a reserve player who leaves, the offers shown ---
ADDED.update({
    "reserve.passed.left": "{to} вышел из запаса (написал в теме игры), предложение места игрока {nick} с него снято.",
})
