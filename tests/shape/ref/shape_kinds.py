"""Static side of the reference evaluator: dtype tables, the kind of an
expression (shape 'S', number 'D', condition 'C'), and the spec checks
(names, the let rules, bound names, one statement per output)."""

from shape_parse import SpecError

DTYPES = {
    'float': 1, 'float32': 1, 'double': 2, 'float64': 2, 'int32': 3,
    'uint8': 4, 'int16': 5, 'int8': 6, 'string': 7, 'complex64': 8,
    'int64': 9, 'bool': 10, 'qint8': 11, 'quint8': 12, 'qint32': 13,
    'bfloat16': 14, 'qint16': 15, 'quint16': 16, 'uint16': 17,
    'complex128': 18, 'half': 19, 'float16': 19, 'resource': 20,
    'variant': 21, 'uint32': 22, 'uint64': 23, 'float8_e5m2': 24,
    'float8_e4m3fn': 25, 'float8_e4m3fnuz': 26, 'float8_e4m3b11fnuz': 27,
    'float8_e5m2fnuz': 28, 'int4': 29, 'uint4': 30,
}
_NAMES = {}
for _n, _v in DTYPES.items():
    _NAMES.setdefault(_v, _n)
CANONICAL = dict(_NAMES)

# bytes per element (TensorFlow's DataTypeSize: 0 for string, resource,
# variant; int4/uint4 have no whole byte size there either)
DTYPE_SIZE = {
    1: 4, 2: 8, 3: 4, 4: 1, 5: 2, 6: 1, 7: 0, 8: 8, 9: 8, 10: 1, 11: 1,
    12: 1, 13: 4, 14: 2, 15: 2, 16: 2, 17: 2, 18: 16, 19: 2, 20: 0, 21: 0,
    22: 4, 23: 8, 24: 1, 25: 1, 26: 1, 27: 1, 28: 1, 29: 0, 30: 0,
}


def dtype_code(name):
    """The enum value of a dtype name (`int32`, `DT_INT32`), or None."""
    if name.startswith('DT_'):
        name = name[3:].lower()
    return DTYPES.get(name)


FORMS = {
    'dim', 'rank', 'length', 'size_of', 'ceil_div', 'merge', 'join', 'min',
    'max', 'product', 'sum', 'window', 'value', 'attr', 'unknown',
    'broadcast', 'set', 'insert', 'remove', 'reduce', 'permute', 'concat',
    'known', 'same', 'bit', 'all', 'any',
}
# opgen/keywords.def, and `let`, `for`, `if` of version 2
KEYWORDS = {'package', 'op', 'attr', 'input', 'output', 'stateful',
            'commutative', 'aggregate', 'allows_uninitialized_input',
            'distributed_communication', 'deprecated', 'shape', 'require',
            'shape_fn', 'in', 'c_prefix', 'let', 'for', 'if'}

_NUM_FORMS = {'dim', 'rank', 'length', 'size_of', 'ceil_div', 'min', 'max',
              'window', 'product'}
_SHAPE_FORMS = {'unknown', 'broadcast', 'set', 'insert', 'remove',
                'reduce', 'permute', 'concat'}
_COND_FORMS = {'known', 'same', 'bit', 'all', 'any'}


def _attr_kind(op, node):
    if len(node[2]) != 1 or node[2][0][0] != 'name':
        raise SpecError("attr() takes one attr name")
    name = node[2][0][1]
    t = op.attrs.get(name)
    if t is None:
        raise SpecError("%s is not an attr of %s" % (name, op.name))
    return {'int': 'D', 'bool': 'C', 'shape': 'S', 'tensor': 'S',
            'list(int)': 'SD', 'string': 'str', 'type': 'type'}.get(t, '?' + t)


def static_kind(node, op, let_kind, bound):
    """'S', 'D', 'C', 'SD' (value(x) or a list(int) attr: shape or number
    by context), 'str', 'type', or None (a bare `?`)."""
    k = node[0]
    if k == 'int' or k in ('neg',):
        return 'D'
    if k == 'unk':
        return None
    if k == 'str':
        return 'str'
    if k in ('list', 'comp', 'slice'):
        return 'S'
    if k in ('not', 'in'):
        return 'C'
    if k == 'bin':
        if k == 'bin' and node[1] in ('+', '-', '*', '/', '%'):
            return 'D'
        return 'S' if node[1] == '++' else 'C'
    if k == 'name':
        n = node[1]
        if n in bound:
            return 'D'
        if n in let_kind:
            return let_kind[n]
        if n in op.inputs:
            return 'S'
        if dtype_code(n) is not None:
            return 'type'
        raise SpecError("unknown name %s" % n)
    if k == 'index':
        base = node[1]
        if base[0] == 'name' and base[1] not in bound and \
                base[1] not in let_kind and op.inputs.get(base[1]) is True:
            return 'S'
        if base[0] == 'call' and base[1] == 'attr':
            t = op.attrs.get(base[2][0][1]) if base[2] else None
            return 'S' if t == 'list(shape)' else 'D'
        return 'D'
    if k == 'tern':
        a = static_kind(node[2], op, let_kind, bound)
        b = static_kind(node[3], op, let_kind, bound)
        if a is None:
            return b
        if b is None or a == b:
            return a
        if 'SD' in (a, b):
            return b if a == 'SD' else a
        return a
    if k == 'fold':
        f = node[1]
        if f in ('all', 'any'):
            return 'C'
        if f in ('sum', 'product', 'min', 'max'):
            return 'D'
        if f == 'broadcast':
            return 'S'
        kb = static_kind(node[2], op, let_kind, bound | {node[3]})
        return 'S' if kb in ('S', 'SD') else kb
    if k == 'call':
        f = node[1]
        if f in let_kind:
            return let_kind[f]
        if f == 'attr':
            return _attr_kind(op, node)
        if f == 'value':
            return 'SD'
        if f == 'sum':
            return 'D'
        if f in _NUM_FORMS:
            return 'D'
        if f in _SHAPE_FORMS:
            return 'S'
        if f in _COND_FORMS:
            return 'C'
        if f in ('merge', 'join'):
            for a in node[2]:
                ka = static_kind(a, op, let_kind, bound)
                if ka in ('S', 'D'):
                    return ka
                if ka == 'SD':
                    return 'S'
            return None
        raise SpecError("unknown form %s()" % f)
    raise SpecError("unexpected node %r" % (k,))


class Checker:
    """Name and let checks over a whole statement list, done whether or not
    any case evaluates the code. Fills lets (name -> (params, body)) and
    let_kind (name -> kind)."""

    def __init__(self, op, stmts, lets, let_kind):
        self.op, self.stmts = op, stmts
        self.lets, self.let_kind = lets, let_kind

    def check(self):
        seen_out = set()
        for st in self.stmts:
            line = st[-1]
            try:
                self.statement(st, seen_out)
            except SpecError as e:
                raise SpecError("line %d: %s" % (line, e))

    def statement(self, st, seen_out):
        kc = KindChecker(self.op, self.let_kind, self.lets)
        if st[0] == 'require':
            self.expr(st[1], set())
            kc.expect(st[1], 'C', set())
        elif st[0] == 'shape':
            name, var = st[1], st[2]
            if name not in self.op.outputs:
                raise SpecError("%s is not an output of %s"
                                % (name, self.op.name))
            if name in seen_out:
                raise SpecError("a second shape statement for %s" % name)
            seen_out.add(name)
            bound = set()
            if var is not None:
                if not self.op.outputs[name]:
                    raise SpecError("%s is not a list output" % name)
                self.fresh(var, set())
                bound = {var}
            self.expr(st[3], bound)
            kc.expect(st[3], 'S', bound)
        elif st[0] == 'let':
            self.let(st)

    def let(self, st):
        _, name, params, body = st[:4]
        self.fresh(name, set())
        bound = set()
        for p in params or []:
            self.fresh(p, bound)
            bound.add(p)
        self.expr(body, bound)
        kind = static_kind(body, self.op, self.let_kind, bound)
        if kind is None:
            raise SpecError("the kind of %s is not fixed (a bare ?)" % name)
        KindChecker(self.op, self.let_kind, self.lets).expect(
            body, '*', bound)
        if kind == 'SD':
            kind = 'S'  # the contract: a name of value(x) is the shape
        self.lets[name] = (params, body)
        self.let_kind[name] = kind

    def fresh(self, name, bound):
        if name in self.op.inputs or name in self.op.attrs:
            raise SpecError("%s is already an input or attr" % name)
        if name in self.lets or name in bound:
            raise SpecError("%s is already defined" % name)
        if name in FORMS or name in KEYWORDS or dtype_code(name) is not None:
            raise SpecError("%s is a form, keyword or dtype" % name)

    def expr(self, node, bound):
        k = node[0]
        if k == 'name':
            n = node[1]
            if n not in bound and n not in self.lets and \
                    n not in self.op.inputs and dtype_code(n) is None:
                raise SpecError("unknown name %s (not an input, let or "
                                "bound name here)" % n)
            if n in self.lets and self.lets[n][0] is not None:
                raise SpecError("%s takes arguments" % n)
            return
        if k in ('fold', 'comp'):
            body, var, n, cond = node[-4:] if k == 'fold' else node[1:]
            self.expr(n, bound)
            self.fresh(var, bound)
            inner = bound | {var}
            if cond is not None:
                self.expr(cond, inner)
            self.expr(body, inner)
            if k == 'fold' and node[1] not in (
                    'sum', 'product', 'min', 'max', 'merge', 'join',
                    'broadcast', 'all', 'any'):
                raise SpecError("%s() is not a fold" % node[1])
            return
        if k == 'call':
            self.call(node, bound)
            return
        for child in node[1:]:
            if isinstance(child, tuple):
                self.expr(child, bound)
            elif isinstance(child, list):
                for c in child:
                    self.expr(c, bound)

    def call(self, node, bound):
        f, args = node[1], node[2]
        if f in self.lets:
            params = self.lets[f][0]
            if params is None:
                raise SpecError("%s takes no arguments" % f)
            if len(params) != len(args):
                raise SpecError("%s takes %d arguments, not %d"
                                % (f, len(params), len(args)))
        elif f not in FORMS:
            if f in [s[1] for s in self.stmts if s[0] == 'let']:
                raise SpecError("%s is used before its let" % f)
            raise SpecError("unknown form %s()" % f)
        if f == 'attr':
            _attr_kind(self.op, node)
            return
        if f in ('size_of',):
            a = args[0] if len(args) == 1 else ('int', 0)
            if a[0] == 'call' and a[1] == 'attr' and len(a[2]) == 1:
                a = a[2][0]
            if a[0] != 'name' or self.op.attrs.get(a[1]) != 'type':
                raise SpecError("size_of() takes a type attr")
            return
        if f == 'window' and len(args) == 5 and args[4][0] == 'name' and \
                self.op.attrs.get(args[4][1]) == 'string':
            args = args[:4]
        for a in args:
            self.expr(a, bound)


# -- kinds of operands (spec errors whether or not a case evaluates them) --

_ARITY = {'dim': 2, 'rank': 1, 'length': 1, 'size_of': 1, 'ceil_div': 2,
          'window': 5, 'value': 1, 'attr': 1, 'unknown': 1, 'set': 3,
          'insert': 3, 'remove': 2, 'reduce': 3, 'permute': 2, 'concat': 2,
          'known': 1, 'bit': 2, 'sum': 2, 'product': 1}
_KIND_NAME = {'S': 'a shape', 'D': 'a number', 'C': 'a condition',
              'SD': 'a shape or number', None: 'the unknown ?',
              'str': 'a string', 'type': 'a dtype'}
# operand kinds per form ('*': any, checked by its own kind; '-': not an
# expression of the three kinds; 'W': the kind wanted of the call)
_OPERANDS = {
    'dim': 'SD', 'rank': 'S', 'ceil_div': 'DD', 'window': 'DDDD-',
    'unknown': 'D', 'set': 'SDD', 'insert': 'SDD', 'remove': 'SD',
    'permute': 'S-', 'concat': '-D', 'bit': 'DD', 'product': 'S',
    'sum': '-D', 'reduce': 'S-C', 'known': '*', 'length': '-',
    'size_of': '-', 'value': '-', 'attr': '-',
}


def _fits(kind, want):
    if want == '*' or kind == want:
        return True
    return want in ('S', 'D') and kind in (None, 'SD')


class KindChecker:
    """Checks that every operand has the kind its place needs."""

    def __init__(self, op, let_kind, lets):
        self.op, self.let_kind, self.lets = op, let_kind, lets

    def kind(self, node, bound):
        return static_kind(node, self.op, self.let_kind, bound)

    def expect(self, node, want, bound):
        k = self.kind(node, bound)
        if not _fits(k, want):
            raise SpecError("%s where %s is needed"
                            % (_KIND_NAME.get(k, k), _KIND_NAME[want]))
        self.operands(node, want if want != '*' else k, bound)

    def operands(self, node, want, bound):
        t = node[0]
        if t == 'list':
            for e in node[1]:
                self.expect(e, 'D', bound)
        elif t == 'comp':
            self.expect(node[3], 'D', bound)
            inner = bound | {node[2]}
            if node[4] is not None:
                self.expect(node[4], 'C', inner)
            self.expect(node[1], 'D', inner)
        elif t == 'fold':
            self.fold(node, want, bound)
        elif t == 'index':
            self.index(node, bound)
        elif t == 'slice':
            self.expect(node[1], 'S', bound)
            for b in node[2:]:
                if b is not None:
                    self.expect(b, 'D', bound)
        elif t == 'bin':
            self.binary(node, bound)
        elif t == 'neg':
            self.expect(node[1], 'D', bound)
        elif t == 'not':
            self.expect(node[1], 'C', bound)
        elif t == 'in':
            for e in node[1:]:
                self.expect(e, 'D', bound)
        elif t == 'tern':
            self.expect(node[1], 'C', bound)
            w = want if want in ('S', 'D', 'C') else '*'
            self.expect(node[2], w, bound)
            self.expect(node[3], w, bound)
        elif t == 'call':
            self.call(node, want, bound)

    def fold(self, node, want, bound):
        f = node[1]
        self.expect(node[4], 'D', bound)
        inner = bound | {node[3]}
        if node[5] is not None:
            self.expect(node[5], 'C', inner)
        body = {'sum': 'D', 'product': 'D', 'min': 'D', 'max': 'D',
                'all': 'C', 'any': 'C', 'broadcast': 'S'}.get(f)
        if body is None:  # merge, join: as wanted
            body = want if want in ('S', 'D') else '*'
        self.expect(node[2], body, inner)

    def index(self, node, bound):
        base = node[1]
        self.expect(node[2], 'D', bound)
        if base[0] == 'name' and base[1] not in bound and \
                base[1] not in self.let_kind and \
                self.op.inputs.get(base[1]) is True:
            return
        if base[0] == 'call' and base[1] in ('attr', 'value'):
            self.expect(base, '*', bound)
            return
        self.expect(base, 'S', bound)

    def binary(self, node, bound):
        op, l, r = node[1:]
        if op in ('+', '-', '*', '/', '%'):
            want = 'D'
        elif op == '++':
            want = 'S'
        elif op in ('&&', '||'):
            want = 'C'
        else:
            kl, kr = self.kind(l, bound), self.kind(r, bound)
            if {kl, kr} & {'str', 'type'}:
                if op not in ('==', '!=') or not (
                        {kl, kr} <= {'str'} or {kl, kr} <= {'type'}):
                    raise SpecError("a string attr compares with a string, "
                                    "a type attr with a dtype, by == or !=")
                return
            want = 'D'
        self.expect(l, want, bound)
        self.expect(r, want, bound)

    def call(self, node, want, bound):
        f, args = node[1], node[2]
        if f in self.let_kind:
            for a in args:
                self.expect(a, 'D', bound)
            return
        n = _ARITY.get(f)
        if n is not None and len(args) != n:
            raise SpecError("%s() takes %d operands, not %d"
                            % (f, n, len(args)))
        if not args:
            raise SpecError("%s() takes operands" % f)
        spec = _OPERANDS.get(f)
        if spec is None:  # merge join min max broadcast same
            w = {'min': 'D', 'max': 'D', 'broadcast': 'S', 'same': 'S'}.get(
                f, want if want in ('S', 'D') else '*')
            spec = w * len(args)
        for a, w in zip(args, spec):
            if w == '-':
                continue
            if f == 'dim' and w == 'S' and a[0] == 'name':
                continue  # dim(x, i) of an input, list or not
            self.expect(a, w, bound)
