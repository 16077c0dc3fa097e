"""Who posted: forum accounts, compared as the forum names them (C-3)."""

from __future__ import annotations


def account_key(name: str) -> str:
    """The form in which two account names are the same account: case-folded and nothing else.

    C-3: forums keep account names unique regardless of case, so case is all that may differ. C-4's folding
    (NFKC, punctuation, zero-width characters, look-alike letters) is for the names players write, never for
    who wrote: `М1.`, `M1` with a Latin M or `М\u200b1` are other accounts. Surrounding white space is not
    folded either: an adapter strips what HTML layout adds around a name, so a name that still differs is
    another account.
    """
    return name.casefold()
