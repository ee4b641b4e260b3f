/* Shared by compat.c (driver), compat_attrs.c (attr rules) and
 * compat_sig.c (input and output signatures). */
#ifndef OPGEN_COMPAT_INTERNAL_H
#define OPGEN_COMPAT_INTERNAL_H

#include "compat.h"

/* One old op against its new version. */
typedef struct og_compat_pair {
  og_compat_result *out;
  const og_op *old_op, *new_op;
  bool strict;
} og_compat_pair;

/* Appends a finding; `hint` and `baseline` are copied, the message is
 * formatted into the result's arena. */
void og_compat_add(const og_compat_pair *p, og_compat_rule rule,
                   og_srcpos pos, og_srcpos base_pos, const char *baseline,
                   const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

/* "`attr a: {int32, int64} = int32;`", the declaration as .op text in
 * backquotes (in `a`). */
const char *og_compat_attr_decl(og_arena *a, const og_attr *attr);
/* "`input x: Ref(N * T);`" for kw "input" (in `a`). */
const char *og_compat_arg_decl(og_arena *a, const char *kw, const og_arg *arg);
/* A value as text (value_text.h), in `a`. */
const char *og_compat_value_text(og_arena *a, const og_value *v);

/* The attr rules: removed, type changed, allowed values narrowed, minimum
 * raised, default changed or removed, added without default. */
void og_compat_check_attrs(const og_compat_pair *p);
/* The signature rules: input and output signatures, refs. */
void og_compat_check_signatures(const og_compat_pair *p);

/* The require rules: a new or narrowed `require` (compat_require.c). */
void og_compat_check_requires(const og_compat_pair *p);

#endif
