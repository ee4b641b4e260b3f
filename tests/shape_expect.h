/* Expectations shared by the runtime's shape tests (test_runtime_shape,
 * test_shape_expr, test_shape_expr_reads). Include after <cmocka.h> and
 * "opr/opr.h". */
#ifndef OPGEN_TESTS_SHAPE_EXPECT_H
#define OPGEN_TESTS_SHAPE_EXPECT_H

/* A shape literal; it lives as long as the enclosing block. */
#define SHAPE(rank, ...) ((opr_shape){rank, (const int64_t[]){__VA_ARGS__}})

/* A function, not a block: a SHAPE(...) literal in the argument must live
 * as long as the caller's block, since results may point into it. */
static inline void expect_ok_at(opr_status st, const char *file, int line) {
  if (!st) return;
  print_error("unexpected: %s\n", opr_status_message(st));
  opr_status_free(st);
  _fail(file, line);
}
#define expect_ok(status) expect_ok_at((status), __FILE__, __LINE__)

/* Asserts the text of a shape ("[2, ?]", "?"). */
static inline void expect_shape(opr_shape s, const char *want) {
  char buf[512];
  assert_string_equal(opr_shape_text(s.rank, s.dims, buf, sizeof buf), want);
}

#endif
