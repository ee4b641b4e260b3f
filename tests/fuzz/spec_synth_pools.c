/* The pools of spec_synth: hostile names, strings and numbers, and the
 * byte-driven generator that picks from them. */
#include "spec_synth_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (uint32_t)(sizeof(a) / sizeof *(a))

uint32_t fz_pick(fz_rng *r, uint32_t n) {
  uint32_t v;
  if (r->pos < r->size) {
    v = r->data[r->pos++];
    if (n > 256 && r->pos < r->size) v = v << 8 | r->data[r->pos++];
  } else {
    r->state ^= r->state << 13;
    r->state ^= r->state >> 7;
    r->state ^= r->state << 17;
    v = (uint32_t)(r->state >> 32);
  }
  return v % n;
}

bool fz_one_in(fz_rng *r, uint32_t n) { return fz_pick(r, n) == 0; }

bool fz_hazard(fz_rng *r, fz_hazard_class c) {
  return (r->classes >> c & 1) && fz_pick(r, 4) < r->level;
}

void *fz_xalloc(size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (!p) abort();
  return p;
}

char *fz_strdup(const char *s) {
  char *p = fz_xalloc(strlen(s) + 1);
  return strcpy(p, s);
}

static void reserve(fz_buf *b, size_t more) {
  if (b->len + more + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + more + 1) cap *= 2;
  char *p = realloc(b->p, cap);
  if (!p) abort();
  b->p = p;
  b->cap = cap;
}

void fz_puts(fz_buf *b, const char *s) {
  size_t n = strlen(s);
  reserve(b, n);
  memcpy(b->p + b->len, s, n + 1);
  b->len += n;
}

void fz_printf(fz_buf *b, const char *fmt, ...) {
  va_list ap;
  char probe[1];
  if (!fmt) abort(); /* spares -O2 -fsanitize=undefined a false warning */
  va_start(ap, fmt);
  int n = vsnprintf(probe, sizeof probe, fmt, ap);
  va_end(ap);
  if (n < 0) abort();
  reserve(b, (size_t)n);
  va_start(ap, fmt);
  vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

/* Lower-case names: C and C++ keywords, what the standard headers
 * declare or define, the runtime's names and the generated functions'
 * locals, parameters and kernel-struct members, and shape forms. */
static const char *const lower_names[] = {
    "int", "default", "class", "new", "template", "this", "delete",
    "register", "return", "auto", "char", "const", "do", "enum", "goto",
    "if", "long", "short", "signed", "sizeof", "static", "struct",
    "switch", "typedef", "union", "unsigned", "void", "volatile", "while",
    "inline", "restrict", "true", "false", "and", "or", "not", "xor",
    "catch", "try", "throw", "friend", "mutable", "namespace", "operator",
    "private", "protected", "public", "typename", "using", "virtual",
    "explicit", "export", "nullptr", "constexpr", "decltype", "noexcept",
    "static_assert", "thread_local", "alignas", "alignof", "concept",
    "requires", "co_await", "char8_t", "wchar_t", "typeid", "asm",
    "errno", "assert", "stdin", "stdout", "stderr", "main", "memcpy",
    "memset", "strlen", "malloc", "free", "exit", "abort", "printf",
    "offsetof", "signal", "index", "size_t", "int64_t", "uint8_t",
    "ptrdiff_t", "va_list", "setjmp", "unix", "linux", "ctx", "attrs",
    "k", "fn", "priority", "label", "host_memory", "device", "call",
    "op_call", "op_inputs", "op_attrs", "op_outputs", "s", "c", "sh0",
    "kernel", "constraints", "nconstraints", "host", "nhost", "def", "i",
    "n", "out", "dims", "state", "opr_tensor", "opr_status", "opr_invoke",
    "opr_tensor_new", "opr_ok", "value", "shape", "dim", "rank", "merge",
    "attr", "tensor", "type", "input", "output", "broadcast", "float",
    "int32", "string", "x", "y", "mode", "t",
};

/* Names only an attr may have (upper case): macros and constants. */
static const char *const upper_names[] = {
    "NULL", "EOF", "FILE", "INT64_MIN", "INT64_MAX", "INT32_MIN",
    "INT32_MAX", "SIZE_MAX", "UINT64_MAX", "CHAR_BIT", "INFINITY", "NAN",
    "EINVAL", "ERANGE", "BUFSIZ", "OPR_OK", "OPR_NO_ATTR", "OPR_DT_FLOAT",
    "OPR_DTYPE_BIT", "OPR_ATTR_INT", "OPR_ATTR_UNSET", "T", "N", "MODE",
    "Mode", "True", "I", "L", "DT_FLOAT",
};

const char *fz_pool_io_name(fz_rng *r) {
  return lower_names[fz_pick(r, COUNT(lower_names))];
}

const char *fz_pool_attr_name(fz_rng *r) {
  uint32_t n = COUNT(lower_names) + COUNT(upper_names);
  uint32_t i = fz_pick(r, n);
  return i < COUNT(lower_names) ? lower_names[i]
                                : upper_names[i - COUNT(lower_names)];
}

static const char *const op_names[] = {
    "Foo", "Bar", "MatMul", "LRNGrad", "Add2", "X", "RegisterOps", "Main",
    "Int", "Class", "Errno", "Null", "Default", "New", "ABc", "AbC",
    "Ops", "Kernels", "Opr", "OprTensor", "Assert", "Memcpy", "Template",
};

const char *fz_pool_op_name(fz_rng *r) {
  return op_names[fz_pick(r, COUNT(op_names))];
}

/* With package `opr`: ops whose C names are the runtime's. */
static const char *const runtime_ops[] = {
    "TensorNew", "Invoke", "Execute", "Tensor", "Status", "Context",
    "Call", "OpDef", "RegisterOp", "RegisterKernel", "LoadLibrary",
    "Error", "Shard", "AttrValue", "Shape", "InferCtx", "KernelCtx",
    "Dtype", "DtypeSize", "ContextNew", "TensorUnref", "CheckAttrs",
    "RegisterOps", "Input", "Output",
};

const char *fz_pool_runtime_op(fz_rng *r) {
  return runtime_ops[fz_pick(r, COUNT(runtime_ops))];
}

static const char *const packages[] = {
    "opr", "OPR", "int", "class", "main", "std", "errno", "stdin", "p",
    "demo", "new", "NULL", "a", "a_b", "Mixed_Case",
};

const char *fz_pool_package(fz_rng *r) {
  if (!fz_hazard(r, FZ_H_FILES)) return "pkg";
  return packages[fz_pick(r, COUNT(packages))];
}

static const char *const shape_fns[] = {
    "my_shape_fn", "custom_shape", "int", "default", "new", "class",
    "main", "memcpy", "malloc", "free", "exit", "assert", "errno", "NULL",
    "opr_invoke", "opr_tensor_new", "opr_infer_dim", "p_register_ops",
    "this", "shape_fn", "fuzz_shape",
};

const char *fz_pool_shape_fn(fz_rng *r) {
  if (!fz_hazard(r, FZ_H_SHAPE_FN)) return shape_fns[0];
  return shape_fns[fz_pick(r, COUNT(shape_fns))];
}

static const char *const helper_suffixes[] = {
    "Shape", "AttrDefs", "InputDefs", "OutputDefs", "Check", "State",
    "Def", "Attrs", "Kernel", "RegisterKernel", "Types",
};

const char *fz_pool_helper_suffix(fz_rng *r) {
  return helper_suffixes[fz_pick(r, COUNT(helper_suffixes))];
}

static const char *const enum_values[] = {
    "'a b'", "'a-b'", "'A_B'", "'a_b_0'", "'A_B_1'", "''", "'EMPTY'",
    "'*/'", "'?\?='", "'\xc3\xa9'", "'\xc3\xbc'", "'ATTRS_DEFAULT'",
    "'x'", "'X'", "'1'", "'reflect'", "'CONSTANT'", "'\\\\'", "'\\''",
    "'\"'", "'a\\nb'",
};

void fz_pool_enum_values(fz_rng *r, fz_buf *list, fz_buf *one) {
  if (!fz_hazard(r, FZ_H_STRINGS)) {
    fz_puts(list, "'a', 'b', 'c'");
    fz_puts(one, "'b'");
    return;
  }
  uint32_t n = 1 + fz_pick(r, 4), first = fz_pick(r, COUNT(enum_values));
  uint32_t step = 1 + fz_pick(r, 3), chosen = fz_pick(r, n);
  for (uint32_t i = 0; i < n; i++) {
    const char *v = enum_values[(first + i * step) % COUNT(enum_values)];
    fz_printf(list, "%s%s", i ? ", " : "", v);
    if (i == chosen) fz_puts(one, v);
  }
}

/* Pieces of hostile text, spelled for a .op string (escaped). */
static const char *const string_pieces[] = {
    "a", "*/", "/*", "?\?=", "?\?/", "?\?\\'", "\\\\", "\\'", "\\\"", "\\n",
    "\\t", "\\x01", "\\x7f", "\\xff", "\xc3\xa9", "\xe4\xb8\xad",
    "\xf0\x9f\x98\x80", "%s%n", "\\\\\\\\", " ", "#define x", "\\\\n",
};

static void long_run(fz_buf *b, const char *piece) {
  for (size_t n = 0; n < 4200;) {
    fz_puts(b, piece);
    n += strlen(piece);
  }
}

void fz_hostile_string(fz_rng *r, fz_buf *b) {
  if (!fz_hazard(r, FZ_H_STRINGS)) {
    fz_puts(b, "text");
    return;
  }
  if (fz_one_in(r, 64)) {
    long_run(b, fz_one_in(r, 2) ? "a" : "\\\\");
    return;
  }
  uint32_t n = fz_pick(r, 6);
  for (uint32_t i = 0; i < n; i++)
    fz_puts(b, string_pieces[fz_pick(r, COUNT(string_pieces))]);
}

static const char *const doc_pieces[] = {
    "Docs", "*/", "/*", "?\?=", "?\?/", "\\", "'", "\"", "%s",
    "\xc3\xa9", "\xe4\xb8\xad", "\xf0\x9f\x98\x80", "*/ int x; /*", " ",
    "#include <stdio.h>", "@param", "`code`", "\t",
};

void fz_hostile_doc(fz_rng *r, fz_buf *b) {
  if (!fz_hazard(r, FZ_H_DOCS)) {
    fz_puts(b, "Plain docs.");
    return;
  }
  if (fz_one_in(r, 128)) {
    long_run(b, "word ");
    return;
  }
  uint32_t n = 1 + fz_pick(r, 5);
  for (uint32_t i = 0; i < n; i++)
    fz_puts(b, doc_pieces[fz_pick(r, COUNT(doc_pieces))]);
  /* A line ending in a backslash would splice a // comment. */
  if (fz_one_in(r, 8)) fz_puts(b, "\\");
}

static const char *const ints[] = {
    "0", "1", "-1", "42", "-9223372036854775808", "9223372036854775807",
    "-9223372036854775807", "2147483647", "-2147483648", "4294967296",
    "-3", "7",
};

/* The first four of each are ordinary. */
const char *fz_int_text(fz_rng *r) {
  return ints[fz_pick(r, fz_hazard(r, FZ_H_NUMBERS) ? COUNT(ints) : 4)];
}

static const char *const floats[] = {
    "0.0", "-0.0", "1.0", "0.1", "-2.5e-3", "2", "inf", "-inf", "nan",
    ".5", "3.4028234663852886e38", "3.5e38", "1.0e39", "-1.0e39",
    "1.0e-46", "7.0e-46", "1.401298464324817e-45", "1.0e-40",
    "1.7976931348623157e308", "4.9e-324", "2.2250738585072014e-308",
    "123456789", "-2147483648", "1.0e300", "16777217",
};

const char *fz_float_text(fz_rng *r) {
  return floats[fz_pick(r, fz_hazard(r, FZ_H_NUMBERS) ? COUNT(floats) : 4)];
}

static const char *const dtypes[] = {
    "float", "float32", "double", "float64", "int32", "uint8", "int16",
    "int8", "string", "complex64", "int64", "bool", "qint8", "quint8",
    "qint32", "bfloat16", "qint16", "quint16", "uint16", "complex128",
    "half", "float16", "resource", "variant", "uint32", "uint64",
    "float8_e5m2", "float8_e4m3fn", "float8_e4m3fnuz",
    "float8_e4m3b11fnuz", "float8_e5m2fnuz", "int4", "uint4", "DT_FLOAT",
    "DT_INT32", "DT_STRING", "DT_HALF", "DT_BOOL",
};

const char *fz_dtype_name(fz_rng *r) {
  return dtypes[fz_pick(r, COUNT(dtypes))];
}

bool fz_is_dtype_name(const char *s) {
  if (strncmp(s, "DT_", 3) == 0) return true;
  for (uint32_t i = 0; i < COUNT(dtypes); i++)
    if (strcmp(dtypes[i], s) == 0) return true;
  return false;
}

static bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

void fz_snake_case(const char *name, char *out, size_t cap) {
  size_t o = 0;
  for (size_t i = 0; name[i] && o + 3 < cap; i++) {
    char c = name[i];
    if (is_upper(c) && i > 0) {
      char prev = name[i - 1], next = name[i + 1];
      if (is_lower(prev) || (is_lower(next) && prev != '_')) out[o++] = '_';
    }
    out[o++] = is_upper(c) ? (char)(c - 'A' + 'a') : c;
  }
  out[o] = '\0';
}

void fz_camel_case(const char *name, char *out, size_t cap) {
  size_t o = 0;
  bool up = true;
  for (size_t i = 0; name[i] && o + 2 < cap; i++) {
    char c = name[i];
    if (c == '_') {
      up = true;
      continue;
    }
    out[o++] = up && is_lower(c) ? (char)(c - 'a' + 'A') : c;
    up = false;
  }
  out[o] = '\0';
}
