"""The mybb.ru reply form's anti-bot step, done without JavaScript.

The page's `process_form(form)` (an inline script) writes hidden inputs into `div#formkey` and `div#formetc`
before the form is sent; a POST without them is dropped. The script is obfuscated but uses a handful of
constructs only (seen on a real page, ../shared/fixtures-src/mybbru/c-reply-form-*.html):

    document.getElementById('formkey').innerHTML=unescape('P3CP73...'.replace(/P([\\w]{2})/g,'%$1'));
    a=getter('HDcBNsqyr');b=''+a.innerHTML;         // getter: a function wrapping document.getElementById
    document.getElementById('formetc').getElementsByTagName('*')[0].value=unescape('P36...'.replace(...));

This module evaluates exactly that language (string literals, `+`, variables, element lookups by id,
`innerHTML` and `value` read and written, `getElementsByTagName(...)[i]`, `String.replace` with a regex, and
`unescape`) over a copy of the page, then reads the inputs the script left in the two boxes. Anything else
raises AntibotError naming what it did not understand, so a changed script is reported, not guessed at.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from lxml import etree

from adapters.html.dom import find, inner_html
from forumbot.errors import PageFormatChanged

BOXES = ("formkey", "formetc")


class AntibotError(PageFormatChanged):
    """The anti-bot script holds something this evaluator does not know."""


_TOKEN = re.compile(r"""
    (?P<space>[ \t\r]+|/\*.*?\*/|//[^\n]*)
  | (?P<newline>\n)
  | (?P<string>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")
  | (?P<number>\d+)
  | (?P<name>[A-Za-z_$][\w$]*)
  | (?P<op>\+=|==|!=|&&|\|\||[=+.,;()\[\]{}!<>:?-])
  | (?P<slash>/)
""", re.VERBOSE | re.DOTALL)
_REGEX = re.compile(r"/((?:[^/\\\n\[]|\\.|\[(?:[^\]\\]|\\.)*\])+)/([gimsuy]*)")
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "'": "'", '"': '"', "\\": "\\", "/": "/"}


@dataclass(frozen=True)
class Tok:
    kind: str
    value: Any


def tokens(src: str) -> list[Tok]:
    out: list[Tok] = []
    i = 0
    while i < len(src):
        if src[i] == "/" and _regex_allowed(out):
            m = _REGEX.match(src, i)
            if m:
                out.append(Tok("regex", (m.group(1), m.group(2))))
                i = m.end()
                continue
        m = _TOKEN.match(src, i)
        if not m:
            raise AntibotError(f"anti-bot script: unexpected character {src[i]!r}")
        kind = m.lastgroup or ""
        if kind == "string":
            out.append(Tok("string", _unquote(m.group(kind)[1:-1])))
        elif kind == "number":
            out.append(Tok("number", int(m.group(kind))))
        elif kind in ("name", "op"):
            out.append(Tok(kind, m.group(kind)))
        elif kind == "newline":
            out.append(Tok("newline", "\n"))
        elif kind == "slash":
            out.append(Tok("op", "/"))
        i = m.end()
    return out


def _regex_allowed(out: list[Tok]) -> bool:
    prev = next((t for t in reversed(out) if t.kind != "newline"), None)
    return prev is None or (prev.kind == "op" and prev.value in "(,=:[!&|?{};+")


def _unquote(body: str) -> str:
    return re.sub(r"\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)",
                  lambda m: chr(int(m.group(1)[1:], 16)) if m.group(1)[0] in "ux" and len(m.group(1)) > 1
                  else _ESCAPES.get(m.group(1), m.group(1)), body)


def js_unescape(s: str) -> str:
    """JavaScript's unescape(): %XX and %uXXXX."""
    s = re.sub(r"%u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), s)
    return unquote(s, encoding="latin-1")


def js_replace(s: str, pattern: tuple[str, str], repl: str) -> str:
    source, flags = pattern
    rx = re.compile(source, re.IGNORECASE if "i" in flags else 0)
    py = re.sub(r"\$(\d)", r"\\\1", repl.replace("\\", "\\\\"))
    return rx.sub(py, s, count=0 if "g" in flags else 1)


def statements(toks: list[Tok]) -> list[list[Tok]]:
    """Split on ';', braces and line ends at depth 0 (the script mixes `;` and newline-ended statements)."""
    out: list[list[Tok]] = []
    cur: list[Tok] = []
    depth = 0
    for t in toks:
        if t.kind == "op" and t.value in "([":
            depth += 1
        elif t.kind == "op" and t.value in ")]":
            depth -= 1
        ends = depth == 0 and ((t.kind == "op" and t.value in ";{}") or t.kind == "newline")
        if ends:
            if cur and not (t.kind == "newline" and cur[-1].kind == "op" and cur[-1].value in "+=.,"):
                out.append(cur)
                cur = []
            continue
        if t.kind != "newline":
            cur.append(t)
    if cur:
        out.append(cur)
    return out


class Element:
    def __init__(self, el: etree._Element) -> None:
        self.el = el


class Machine:
    """Evaluates the anti-bot statements over `root`, a copy of the page."""

    def __init__(self, root: etree._Element, getters: set[str]) -> None:
        self.root = root
        self.getters = getters
        self.vars: dict[str, Any] = {}

    # --- the DOM it needs ---

    def by_id(self, ident: Any) -> Element:
        if not isinstance(ident, str):
            raise AntibotError(f"anti-bot script: element id is not a string: {ident!r}")
        found = find(self.root, "//*[@id=$i]", i=ident)
        if not found:
            raise AntibotError(f"anti-bot script: no element with id {ident!r}")
        return Element(found[0])

    def set_inner(self, target: Element, markup: str) -> None:
        for child in list(target.el):
            target.el.remove(child)
        target.el.text = None
        # a browser keeps control characters in text; lxml's tree cannot hold them, and no field is made of them
        markup = _NOT_XML.sub("", markup)
        frag = etree.fromstring(f"<div>{markup}</div>".encode("utf-8"), etree.HTMLParser(encoding="utf-8"))
        holder = frag.find(".//div") if frag is not None else None
        if holder is None:
            return
        target.el.text = holder.text
        for child in list(holder):
            target.el.append(child)

    # --- evaluation ---

    def run(self, stmt: list[Tok]) -> None:
        if stmt and stmt[0].kind == "name" and stmt[0].value == "var":
            stmt = stmt[1:]
        eq = next((i for i, t in enumerate(stmt) if t.kind == "op" and t.value in ("=", "+=")), None)
        if eq is None:
            self.expr(stmt)
            return
        value, rest = self.expr(stmt[eq + 1:])
        if rest:
            raise AntibotError(f"anti-bot script: cannot read {' '.join(str(t.value) for t in rest[:5])!r}")
        target = stmt[:eq]
        if stmt[eq].value == "+=":
            current, _ = self.expr(target)
            value = _plus(current, value)
        if len(target) == 1 and target[0].kind == "name":
            self.vars[target[0].value] = value
            return
        if len(target) >= 3 and target[-2].value == "." and target[-1].kind == "name":
            obj, left = self.expr(target[:-2])
            if left or not isinstance(obj, Element):
                raise AntibotError("anti-bot script: assignment to something that is not an element")
            prop = target[-1].value
            if prop == "innerHTML":
                self.set_inner(obj, str(value))
            elif prop == "value":
                obj.el.set("value", str(value))
            else:
                raise AntibotError(f"anti-bot script: sets unknown property {prop!r}")
            return
        raise AntibotError("anti-bot script: assignment to an unknown target")

    def expr(self, toks: list[Tok]) -> tuple[Any, list[Tok]]:
        value, toks = self.postfix(toks)
        while toks and toks[0].kind == "op" and toks[0].value == "+":
            right, toks = self.postfix(toks[1:])
            value = _plus(value, right)
        return value, toks

    def postfix(self, toks: list[Tok]) -> tuple[Any, list[Tok]]:
        value, toks = self.primary(toks)
        while toks and toks[0].kind == "op" and toks[0].value in ".([":
            op = toks[0].value
            if op == ".":
                if len(toks) < 2 or toks[1].kind != "name":
                    raise AntibotError("anti-bot script: '.' without a name")
                value, toks = _Member(value, toks[1].value), toks[2:]
            elif op == "(":
                args, toks = self.args(toks[1:])
                value = self.call(value, args)
            else:
                index, toks = self.expr(toks[1:])
                if not toks or toks[0].value != "]":
                    raise AntibotError("anti-bot script: unclosed '['")
                toks = toks[1:]
                value = _index(_resolve(value), index)
        return _resolve(value), toks

    def primary(self, toks: list[Tok]) -> tuple[Any, list[Tok]]:
        if not toks:
            raise AntibotError("anti-bot script: an expression ends too early")
        t = toks[0]
        if t.kind in ("string", "number", "regex"):
            return t.value, toks[1:]
        if t.kind == "op" and t.value == "(":
            value, rest = self.expr(toks[1:])
            if not rest or rest[0].value != ")":
                raise AntibotError("anti-bot script: unclosed '('")
            return value, rest[1:]
        if t.kind == "name":
            name = t.value
            if name in self.vars:
                return self.vars[name], toks[1:]
            if name in ("document", "unescape", "decodeURIComponent", "String") or name in self.getters:
                return _Builtin(name), toks[1:]
            raise AntibotError(f"anti-bot script: unknown name {name!r}")
        raise AntibotError(f"anti-bot script: unexpected {t.value!r}")

    def args(self, toks: list[Tok]) -> tuple[list[Any], list[Tok]]:
        out: list[Any] = []
        if toks and toks[0].value == ")":
            return out, toks[1:]
        while True:
            value, toks = self.expr(toks)
            out.append(value)
            if not toks:
                raise AntibotError("anti-bot script: unclosed call")
            if toks[0].value == ")":
                return out, toks[1:]
            if toks[0].value != ",":
                raise AntibotError(f"anti-bot script: unexpected {toks[0].value!r} in a call")
            toks = toks[1:]

    def call(self, fn: Any, args: list[Any]) -> Any:
        if isinstance(fn, _Member):
            obj, name = _resolve(fn.obj), fn.name
            if isinstance(obj, _Builtin) and obj.name == "document" and name == "getElementById":
                return self.by_id(args[0])
            if isinstance(obj, str) and name == "replace" and len(args) == 2:
                pattern = args[0] if isinstance(args[0], tuple) else (re.escape(str(args[0])), "")
                return js_replace(obj, pattern, str(args[1]))
            if isinstance(obj, Element) and name == "getElementsByTagName":
                tag = str(args[0]).lower()
                return [Element(e) for e in obj.el.iterdescendants()
                        if isinstance(e.tag, str) and (tag == "*" or e.tag == tag)]
            raise AntibotError(f"anti-bot script: unknown call .{name}()")
        if isinstance(fn, _Builtin):
            if fn.name in self.getters:
                return self.by_id(args[0])
            if fn.name in ("unescape", "decodeURIComponent"):
                return js_unescape(str(args[0]))
        raise AntibotError("anti-bot script: call of something that is not a function")


@dataclass(frozen=True)
class _Builtin:
    name: str


@dataclass(frozen=True)
class _Member:
    obj: Any
    name: str


def _resolve(value: Any) -> Any:
    """A property read: `el.innerHTML`, `el.value`, `s.length`; methods stay unresolved until called."""
    if isinstance(value, _Member):
        obj = _resolve(value.obj)
        if isinstance(obj, Element) and value.name == "innerHTML":
            return inner_html(obj.el) if len(obj.el) else (obj.el.text or "")
        if isinstance(obj, Element) and value.name == "value":
            return obj.el.get("value", "")
        if isinstance(obj, (str, list)) and value.name == "length":
            return len(obj)
        return _Member(obj, value.name)
    return value


def _index(obj: Any, index: Any) -> Any:
    if isinstance(obj, list) and isinstance(index, int):
        if index >= len(obj):
            raise AntibotError(f"anti-bot script: element {index} of {len(obj)}")
        return obj[index]
    raise AntibotError("anti-bot script: indexing something that is not a list")


def _plus(a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    if isinstance(a, (Element, _Member, _Builtin)) or isinstance(b, (Element, _Member, _Builtin)):
        raise AntibotError("anti-bot script: '+' on something that is not text")
    return f"{a}{b}"


_GETTER = re.compile(r"function\s+([\w$]+)\s*\(\s*([\w$]+)\s*\)\s*\{[^}]*?document\.getElementById\(\s*\2\s*\)")


def script_of(tree: etree._Element) -> str | None:
    """The inline script that fills the boxes, or None when the page has none (a board without the step)."""
    for script in tree.iter("script"):
        src = script.text or ""
        if "process_form" in src and any(box in src for box in BOXES):
            return src
    return None


def antibot_fields(tree: etree._Element) -> list[tuple[str, str]]:
    """The hidden fields `process_form()` would add to the reply form on this page: [] when the page has no
    anti-bot step, AntibotError when it has one this evaluator cannot follow."""
    src = script_of(tree)
    if src is None:
        return []
    body = src[src.find("process_form"):]
    stmts = statements(tokens(body))
    first = next((i for i, s in enumerate(stmts) if any(t.kind == "string" and t.value in BOXES for t in s)), None)
    if first is None:
        raise AntibotError("anti-bot script: process_form() does not fill #formkey or #formetc")
    root = copy.deepcopy(tree.getroottree().getroot())
    machine = Machine(root, set(m.group(1) for m in _GETTER.finditer(src)))
    for stmt in stmts[first:]:
        if stmt[0].kind == "name" and stmt[0].value in ("return", "function"):
            break
        machine.run(stmt)
    fields: list[tuple[str, str]] = []
    for box in BOXES:
        for el in find(root, "//*[@id=$i]//input[@name]", i=box):
            fields.append((el.get("name", ""), el.get("value", "")))
    if not fields:
        raise AntibotError("anti-bot script ran but left no field in #formkey or #formetc")
    return fields

