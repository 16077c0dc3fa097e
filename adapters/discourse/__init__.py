"""Discourse, through its JSON API: the adapter (`forum`), the account look-ups (`account`), private messages
(`pms`) and the cooked text read as plain text (`text`)."""
