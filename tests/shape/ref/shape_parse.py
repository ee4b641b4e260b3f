"""Parser of the version-2 shape statements (op-language.md, "The full
expression language (version 2)") into tuples.

Nodes (parentheses leave no node):
  ('int', v) ('unk',) ('str', s) ('name', n)
  ('call', f, [args])                      f(...) of a form or a let
  ('fold', f, body, var, N, cond|None)     f(E for k < N if C)
  ('comp', body, var, N, cond|None)        [D for k < N if C]
  ('list', [elems])                        [D, ...]
  ('index', base, i) ('slice', base, a|None, b|None)
  ('bin', op, l, r)   + - * / % ++ == != < <= > >= && ||
  ('neg', e) ('not', e) ('tern', c, x, y) ('in', e, a, b)
Statements:
  ('require', C) ('shape', out, var|None, S) ('let', name, [params], E)
Every node tuple is followed by nothing else; positions are kept in
a side table (node id -> line) only for messages.
"""

import re


class SpecError(Exception):
    """An error in the statements themselves (syntax, names, kinds)."""


_TOKEN = re.compile(r"""
    (?P<ws>\s+|//[^\n]*|/\*.*?\*/)
  | (?P<int>\d+)
  | (?P<id>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<str>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")
  | (?P<op>\+\+|==|!=|<=|>=|&&|\|\||[-+*/%!?:()\[\],;=<>])
""", re.S | re.X)


def tokenize(text):
    toks, pos, line = [], 0, 1
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise SpecError("line %d: unexpected character %r" % (line, text[pos]))
        kind = m.lastgroup
        val = m.group(kind)
        if kind != 'ws':
            if kind == 'str':
                val = bytes(val[1:-1], 'utf-8').decode('unicode_escape')
            toks.append((kind, val, line))
        line += m.group(0).count('\n')
        pos = m.end()
    toks.append(('eof', None, line))
    return toks


_CMP = ('==', '!=', '<', '<=', '>', '>=')


class Parser:
    def __init__(self, text):
        self.toks = tokenize(text)
        self.i = 0

    # -- token helpers
    def peek(self, off=0):
        return self.toks[min(self.i + off, len(self.toks) - 1)]

    def at(self, val, off=0):
        t = self.peek(off)
        return t[0] in ('op', 'id') and t[1] == val

    def take(self, val=None):
        t = self.peek()
        if val is not None and not self.at(val):
            self.fail("expected %r, found %r" % (val, t[1]))
        self.i += 1
        return t

    def ident(self):
        t = self.peek()
        if t[0] != 'id':
            self.fail("expected a name, found %r" % (t[1],))
        self.i += 1
        return t[1]

    def fail(self, msg):
        raise SpecError("line %d: %s" % (self.peek()[2], msg))

    # -- statements
    def statements(self):
        out = []
        while self.peek()[0] != 'eof':
            line = self.peek()[2]
            out.append(self.statement() + (line,))
        return out

    def statement(self):
        kw = self.ident()
        if kw == 'require':
            c = self.expr()
            self.take(';')
            return ('require', c)
        if kw == 'shape':
            name = self.ident()
            var = None
            if self.at('['):
                self.take('[')
                var = self.ident()
                self.take(']')
            self.take('=')
            e = self.expr()
            self.take(';')
            return ('shape', name, var, e)
        if kw == 'let':
            name = self.ident()
            params = None
            if self.at('('):
                self.take('(')
                params = [self.ident()]
                while self.at(','):
                    self.take(',')
                    params.append(self.ident())
                self.take(')')
            self.take('=')
            e = self.expr()
            self.take(';')
            return ('let', name, params, e)
        self.i -= 1
        self.fail("expected 'require', 'shape' or 'let', found %r" % kw)

    # -- expressions, loosest first
    def expr(self):
        c = self.or_()
        if self.at('?'):
            self.take('?')
            x = self.expr()
            self.take(':')
            y = self.expr()
            return ('tern', c, x, y)
        return c

    def or_(self):
        e = self.and_()
        while self.at('||'):
            self.take()
            e = ('bin', '||', e, self.and_())
        return e

    def and_(self):
        e = self.cmp()
        while self.at('&&'):
            self.take()
            e = ('bin', '&&', e, self.cmp())
        return e

    def cmp(self):
        e = self.add()
        if self.peek()[0] == 'op' and self.peek()[1] in _CMP:
            op = self.take()[1]
            e = ('bin', op, e, self.add())
        elif self.at('in') and self.at('[', 1):
            self.take('in')
            self.take('[')
            a = self.expr()
            self.take(',')
            b = self.expr()
            self.take(']')
            e = ('in', e, a, b)
        else:
            return e
        if (self.peek()[0] == 'op' and self.peek()[1] in _CMP) or \
                (self.at('in') and self.at('[', 1)):
            self.fail("comparisons do not chain")
        return e

    def add(self):
        e = self.mul()
        while self.peek()[0] == 'op' and self.peek()[1] in ('+', '-', '++'):
            op = self.take()[1]
            e = ('bin', op, e, self.mul())
        return e

    def mul(self):
        e = self.unary()
        while self.peek()[0] == 'op' and self.peek()[1] in ('*', '/', '%'):
            op = self.take()[1]
            e = ('bin', op, e, self.unary())
        return e

    def unary(self):
        if self.at('-'):
            self.take()
            return ('neg', self.unary())
        if self.at('!'):
            self.take()
            return ('not', self.unary())
        return self.postfix()

    def postfix(self):
        e = self.primary()
        while self.at('['):
            self.take('[')
            a = b = None
            if not self.at(':'):
                a = self.expr()
            if self.at(':'):
                self.take(':')
                if not self.at(']'):
                    b = self.expr()
                self.take(']')
                e = ('slice', e, a, b)
            else:
                self.take(']')
                e = ('index', e, a)
        return e

    def comp_tail(self):
        """`for k < N [if C]` after a body; N at the level of `+`."""
        self.take('for')
        var = self.ident()
        self.take('<')
        n = self.add()
        cond = None
        if self.at('if'):
            self.take('if')
            cond = self.expr()
        return var, n, cond

    def primary(self):
        t = self.peek()
        if t[0] == 'int':
            self.take()
            return ('int', int(t[1]))
        if t[0] == 'str':
            self.take()
            return ('str', t[1])
        if self.at('?'):
            self.take()
            return ('unk',)
        if self.at('('):
            self.take()
            e = self.expr()
            self.take(')')
            return e
        if self.at('['):
            return self.bracket()
        if t[0] == 'id':
            self.take()
            if self.at('('):
                return self.call(t[1])
            return ('name', t[1])
        self.fail("unexpected %r" % (t[1],))

    def bracket(self):
        self.take('[')
        if self.at(']'):
            self.take()
            return ('list', [])
        first = self.expr()
        if self.at('for'):
            var, n, cond = self.comp_tail()
            self.take(']')
            return ('comp', first, var, n, cond)
        elems = [first]
        while self.at(','):
            self.take(',')
            elems.append(self.expr())
        self.take(']')
        return ('list', elems)

    def call(self, name):
        self.take('(')
        if self.at(')'):
            self.take()
            return ('call', name, [])
        first = self.expr()
        if self.at('for'):
            var, n, cond = self.comp_tail()
            self.take(')')
            return ('fold', name, first, var, n, cond)
        args = [first]
        while self.at(','):
            self.take(',')
            args.append(self.expr())
        self.take(')')
        return ('call', name, args)


def parse(text):
    """Statements of one statement file, each with its line last."""
    return Parser(text).statements()
