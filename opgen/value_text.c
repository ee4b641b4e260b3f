/* Attr values as short text for messages and comments. */
#include "value_text.h"

#include "numtext.h"
#include "source.h" /* og_utf8_seq_len */

#include <inttypes.h>
#include <math.h>

/* A string as the spec would write it, so that a message or comment
 * stays one line of valid UTF-8: escapes for quotes, backslashes, control
 * bytes and bytes that are not UTF-8; cut after 60 bytes of the value,
 * never inside a character. */
static void write_string(og_writer *w, const og_bytes *s) {
  const unsigned char *p = (const unsigned char *)s->ptr;
  og_w_puts(w, "'");
  size_t i = 0, run = 0; /* run: the first byte not yet written */
  for (size_t n; i < s->len && i < 60; i += n) {
    n = og_utf8_seq_len(p + i, s->len - i);
    bool plain = n && p[i] >= 0x20 && p[i] != 0x7f && p[i] != '\'' &&
                 p[i] != '\\';
    if (plain) continue; /* written with its run: one write, not one a byte */
    if (i > run) og_w_write(w, s->ptr + run, i - run);
    if (p[i] == '\'' || p[i] == '\\') og_w_printf(w, "\\%c", p[i]);
    else if (p[i] == '\n') og_w_puts(w, "\\n");
    else if (p[i] == '\t') og_w_puts(w, "\\t");
    else og_w_printf(w, "\\x%02x", p[i]), n = 1;
    run = i + n;
  }
  if (i > run) og_w_write(w, s->ptr + run, i - run);
  og_w_puts(w, "'");
}

void og_value_write(og_writer *w, const og_value *v) {
  switch (v->kind) {
  case OG_VAL_STRING: write_string(w, &v->u.s); break;
  case OG_VAL_INT: og_w_printf(w, "%" PRId64, v->u.i); break;
  case OG_VAL_FLOAT: {
    char buf[OG_DOUBLE_TEXT_MAX];
    if (isnan(v->u.f)) og_w_puts(w, "nan");
    else if (isinf(v->u.f)) og_w_puts(w, v->u.f < 0 ? "-inf" : "inf");
    else og_format_double(v->u.f, 17, buf), og_w_puts(w, buf);
    break;
  }
  case OG_VAL_BOOL: og_w_puts(w, v->u.b ? "true" : "false"); break;
  case OG_VAL_TYPE: og_w_puts(w, og_dtype_name(v->u.type)); break;
  case OG_VAL_SHAPE:
    if (v->u.shape.unknown_rank) {
      og_w_puts(w, "?");
      break;
    }
    og_w_puts(w, "[");
    for (size_t i = 0; i < v->u.shape.rank; i++) {
      if (v->u.shape.dims[i] < 0) og_w_printf(w, "%s?", i ? ", " : "");
      else og_w_printf(w, "%s%" PRId64, i ? ", " : "", v->u.shape.dims[i]);
    }
    og_w_puts(w, "]");
    break;
  case OG_VAL_TENSOR:
    og_w_printf(w, "a %s tensor", og_dtype_name(v->u.tensor.dtype));
    break;
  case OG_VAL_FUNC: og_w_printf(w, "func '%s'", v->u.func); break;
  case OG_VAL_LIST:
    og_w_puts(w, "[");
    for (size_t i = 0; i < v->u.list.count; i++) {
      if (i) og_w_puts(w, ", ");
      og_value_write(w, &v->u.list.items[i]);
    }
    og_w_puts(w, "]");
    break;
  }
}

void og_allowed_write(og_writer *w, const og_value *allowed) {
  og_w_puts(w, "{");
  for (size_t i = 0; i < allowed->u.list.count; i++) {
    if (i) og_w_puts(w, ", ");
    og_value_write(w, &allowed->u.list.items[i]);
  }
  og_w_puts(w, "}");
}
