#include "parsetest.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pt_parsed *pt_parse_n(void **state, const char *text, size_t len) {
  pt_parsed *p = calloc(1, sizeof *p);
  assert_non_null(p);
  og_sources_init(&p->sources);
  og_arena_init(&p->arena);
  uint32_t file = og_sources_add(&p->sources, "t.op", text, len);
  og_diag_init(&p->diag, &p->sources, tu_diags_sink, &p->diags);
  p->ast = og_parse(&p->arena, &p->sources, file, &p->diag);
  assert_non_null(p->ast);
  *state = p;
  return p;
}

pt_parsed *pt_parse(void **state, const char *text) {
  return pt_parse_n(state, text, strlen(text));
}

int pt_teardown(void **state) {
  pt_parsed *p = *state;
  if (p) {
    og_arena_free(&p->arena);
    og_sources_free(&p->sources);
    tu_diags_free(&p->diags);
    free(p);
  }
  return 0;
}

void pt_reset(void **state) {
  pt_teardown(state);
  *state = NULL;
}

const char *pt_at(const pt_parsed *p, og_loc loc) {
  static char bufs[8][32];
  static unsigned next;
  char *buf = bufs[next++ % 8];
  og_srcpos pos = og_sources_pos(&p->sources, loc);
  snprintf(buf, sizeof bufs[0], "%u:%u", (unsigned)pos.line,
           (unsigned)pos.col);
  return buf;
}

const char *pt_span(const pt_parsed *p, og_loc loc) {
  static char bufs[8][64];
  static unsigned next;
  char *buf = bufs[next++ % 8];
  og_loc end = {loc.file, loc.end, loc.end};
  snprintf(buf, sizeof bufs[0], "%s-%s", pt_at(p, loc), pt_at(p, end));
  return buf;
}

void pt_expect_diags(const pt_parsed *p, const char *want) {
  assert_string_equal(tu_diags_text(&p->diags), want);
}

void pt_expect_clean(const pt_parsed *p) { pt_expect_diags(p, ""); }

og_ast_op *pt_op_at(const pt_parsed *p, size_t i) {
  og_ast_op *op = p->ast->ops;
  while (op && i--) op = op->next;
  assert_non_null(op);
  return op;
}

size_t pt_op_count(const pt_parsed *p) {
  size_t n = 0;
  for (og_ast_op *op = p->ast->ops; op; op = op->next) n++;
  return n;
}

og_ast_item *pt_item_at(const og_ast_op *op, size_t i) {
  og_ast_item *it = op->items;
  while (it && i--) it = it->next;
  assert_non_null(it);
  return it;
}

og_ast_value *pt_first_default(const pt_parsed *p) {
  og_ast_item *it = pt_item_at(pt_op_at(p, 0), 0);
  assert_int_equal(it->kind, OG_ITEM_ATTR);
  assert_non_null(it->default_value);
  return it->default_value;
}

/* Items and defaults in tests are short; a longer one fails loudly. */
enum { PT_TEXT_MAX = 4096 };

og_ast_item *pt_parse_item(void **state, const char *item) {
  char text[PT_TEXT_MAX];
  int n = snprintf(text, sizeof text, "op A { %s }", item);
  assert_true(n > 0 && (size_t)n < sizeof text);
  pt_parsed *p = pt_parse(state, text);
  pt_expect_clean(p);
  og_ast_item *it = pt_item_at(pt_op_at(p, 0), 0);
  assert_null(it->next);
  return it;
}

og_ast_value *pt_parse_default(void **state, const char *type,
                               const char *value) {
  char item[PT_TEXT_MAX];
  int n = snprintf(item, sizeof item, "attr a: %s = %s;", type, value);
  assert_true(n > 0 && (size_t)n < sizeof item);
  og_ast_item *it = pt_parse_item(state, item);
  assert_int_equal(it->kind, OG_ITEM_ATTR);
  assert_non_null(it->default_value);
  return it->default_value;
}
