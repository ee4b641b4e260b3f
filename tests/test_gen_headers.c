/* The generated headers as a user reads and includes them: wrapper
 * comments (ownership, require rules, argument docs indented), the index
 * constants of attrs, inputs and outputs, prototypes for everything a
 * library source defines (-Wmissing-prototypes), and `c_prefix`. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/opgen_genh_XXXXXX";
static int case_no;
static char dir[600]; /* this case's directory under tmpdir */

TU_TMPDIR_FIXTURES(tmpdir)

static void new_case(void) {
  snprintf(dir, sizeof dir, "%s/c%d", tmpdir, ++case_no);
  assert_int_equal(mkdir(dir, 0755), 0);
}

static void write_file(const char *name, const char *text) {
  char path[800];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static char *read_out(const char *name) {
  char path[800];
  snprintf(path, sizeof path, "%s/out/%s", dir, name);
  char *text = tu_read_file(path, NULL);
  assert_non_null(text);
  return text;
}

/* `opgen gen -o out SPEC` in the case's directory: its status, stderr in
 * *err (the caller frees it). */
static int gen(const char *spec, char **err) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "cd '%s' && '%s' gen -o out %s 2>err", dir,
           getenv("OPGEN_BIN"), spec);
  int rc = system(cmd); /* not tu_run: failing is expected of some */
  rc = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  snprintf(cmd, sizeof cmd, "%s/err", dir);
  *err = tu_read_file(cmd, NULL);
  assert_non_null(*err);
  return rc;
}

static void gen_ok(const char *spec) {
  char *err;
  assert_int_equal(gen(spec, &err), 0);
  assert_string_equal(err, "");
  free(err);
}

static void gen_fails(const char *spec, const char *expected) {
  char *err;
  assert_int_equal(gen(spec, &err), 1);
  assert_string_equal(err, expected);
  free(err);
}

static void assert_contains(const char *text, const char *part) {
  if (!strstr(text, part)) fail_msg("missing:\n%s\nin:\n%s", part, text);
}

static const char mat_mul_spec[] =
    "package lin;\n"
    "/// Multiplies two matrices.\n"
    "op MatMul {\n"
    "  attr T: {float, double};\n"
    "  /// The left matrix, [m, k].\n"
    "  /// Its columns meet b's rows.\n"
    "  input a: T;\n"
    "  input b: T;\n"
    "  output product: T;\n"
    "  require rank(a) == 2;\n"
    "  require dim(a, 1) == dim(b, 0);\n"
    "  shape product = [dim(a, 0), dim(b, 1)];\n"
    "}\n";

static void wrapper_comment_states_ownership_and_requires(void **state) {
  (void)state;
  new_case();
  write_file("lin.op", mat_mul_spec);
  gen_ok("lin.op");
  char *h = read_out("lin_ops.h");
  assert_contains(h,
                  " * Outputs:\n"
                  " *   product: T.\n"
                  " * Requires:\n"
                  " *   require rank(a) == 2;\n"
                  " *   require dim(a, 1) == dim(b, 0);\n"
                  " *\n"
                  " * On success the caller owns each output tensor: release "
                  "it with\n"
                  " * opr_tensor_unref. A status other than OPR_OK is the "
                  "caller's to free\n"
                  " * with opr_status_free; on failure no output is set.\n"
                  " */\n"
                  "opr_status lin_mat_mul(");
  free(h);
}

static void second_doc_line_of_an_input_keeps_its_indent(void **state) {
  (void)state;
  new_case();
  write_file("lin.op", mat_mul_spec);
  gen_ok("lin.op");
  char *h = read_out("lin_ops.h");
  assert_contains(h, " * Inputs:\n"
                     " *   a: T. The left matrix, [m, k].\n"
                     " *     Its columns meet b's rows.\n"
                     " *   b: T.\n");
  free(h);
}

/* The constants compile, and each names its item's slot in the op's
 * tables; usable where the runtime takes an index. */
static void index_constants_are_the_table_positions(void **state) {
  (void)state;
  const char *cc = getenv("OPGEN_CC"), *inc = getenv("OPGEN_RUNTIME_INCLUDE");
  const char *link = getenv("OPGEN_RUNTIME_LINK");
  if (!cc || !inc || !link) skip();
  new_case();
  write_file("ix.op", "package ix;\n"
                      "op Pick {\n"
                      "  attr T: {float, int32};\n"
                      "  attr t: int = 0;\n"
                      "  attr mode: {'A', 'B'} = 'A';\n"
                      "  input data: T;\n"
                      "  input indices: int32;\n"
                      "  output values: T;\n"
                      "  output count: int32;\n"
                      "}\n");
  gen_ok("ix.op");
  char *h = read_out("ix_ops.h");
  assert_contains(h, "enum {\n"
                     "  IX_PICK_ATTR_T_0 = 0,\n"
                     "  IX_PICK_ATTR_T_1 = 1,\n"
                     "  IX_PICK_ATTR_MODE = 2,\n"
                     "  IX_PICK_INPUT_DATA = 0,\n"
                     "  IX_PICK_INPUT_INDICES = 1,\n"
                     "  IX_PICK_OUTPUT_VALUES = 0,\n"
                     "  IX_PICK_OUTPUT_COUNT = 1,\n"
                     "};\n");
  free(h);
  write_file("main.c",
             "#include \"ix_ops.h\"\n#include <string.h>\n"
             "#define IS(t, i, n) (strcmp(ix_pick_def.t[i].name, n) == 0)\n"
             "int main(void) {\n"
             "  return !(IS(attrs, IX_PICK_ATTR_T_0, \"T\") &&\n"
             "           IS(attrs, IX_PICK_ATTR_T_1, \"t\") &&\n"
             "           IS(attrs, IX_PICK_ATTR_MODE, \"mode\") &&\n"
             "           IS(inputs, IX_PICK_INPUT_DATA, \"data\") &&\n"
             "           IS(inputs, IX_PICK_INPUT_INDICES, \"indices\") &&\n"
             "           IS(outputs, IX_PICK_OUTPUT_VALUES, \"values\") &&\n"
             "           IS(outputs, IX_PICK_OUTPUT_COUNT, \"count\"));\n"
             "}\n");
  char cmd[4096];
  snprintf(cmd, sizeof cmd,
           "cd '%s' && '%s' -std=c11 -Wall -Wextra -Werror -pedantic "
           "-I'%s' -Iout main.c out/ix_ops.c -o main %s && ./main",
           dir, cc, inc, link);
  assert_int_equal(tu_run(cmd), 0);
}

/* A library's sources: a shape_fn, a kernel and the kernel registration
 * the library entry calls, with the generated op code and the
 * opgen_library.h that opgen_add_op_library writes (its template filled
 * in as CMake does), compile with -Wmissing-prototypes -Werror and no
 * hand-written prototype. */
static void library_sources_need_no_hand_written_prototypes(void **state) {
  (void)state;
  const char *cc = getenv("OPGEN_CC"), *inc = getenv("OPGEN_RUNTIME_INCLUDE");
  if (!cc || !inc) skip();
  new_case();
  write_file("my.op", "package my;\n"
                      "c_prefix my strip;\n"
                      "op MyBiasAdd {\n"
                      "  attr T: {float};\n"
                      "  input value: T;\n"
                      "  input bias: T;\n"
                      "  output output: T;\n"
                      "  shape_fn my_bias_add_shape;\n"
                      "}\n");
  gen_ok("my.op");
  write_file("kernels.c",
             "#include \"opgen_library.h\"\n"
             "opr_status my_bias_add_shape(opr_infer_ctx *c) {\n"
             "  return opr_infer_set_output(c, MY_BIAS_ADD_OUTPUT_OUTPUT,\n"
             "      opr_infer_input(c, MY_BIAS_ADD_INPUT_VALUE, 0));\n"
             "}\n"
             "static opr_status bias_add(opr_kernel_ctx *k) {\n"
             "  (void)k;\n"
             "  return OPR_OK;\n"
             "}\n"
             "opr_status mylib_register_kernels(void) {\n"
             "  return my_bias_add_register_kernel(&(my_bias_add_kernel_def){\n"
             "      .fn = bias_add, .device = OPR_DEVICE_CPU});\n"
             "}\n");
  char root[512], cmd[4096];
  assert_non_null(getcwd(root, sizeof root)); /* tests run from the root */
  snprintf(cmd, sizeof cmd,
           "cd '%s' && sed -e 's/@OPGEN_LIB_NAME@/mylib/g' "
           "-e 's/@OPGEN_LIB_REGISTER_KERNELS@/mylib_register_kernels/' "
           "-e 's/@OPGEN_LIB_KERNEL_INCLUDES@/#include \"my_kernels.h\"/' "
           "'%s/cmake/OpgenLibraryHeader.h.in' > out/opgen_library.h && "
           "for f in kernels.c out/my_ops.c; do '%s' -std=c11 -Wall -Wextra "
           "-Wmissing-prototypes -Werror -pedantic -I'%s' -Iout -c $f "
           "-o /dev/null || exit 1; done",
           dir, root, cc, inc);
  assert_int_equal(tu_run(cmd), 0);
}

/* ---- c_prefix ---- */

static void c_prefix_sets_the_prefix_apart_from_the_package(void **state) {
  (void)state;
  new_case();
  write_file("my.op", "package my;\n"
                      "c_prefix mylib;\n"
                      "op MyBiasAdd { input x: float; output y: float; }\n");
  gen_ok("my.op");
  char *h = read_out("my_ops.h");
  assert_contains(h, "opr_status mylib_register_ops(void);\n");
  assert_contains(h, "opr_status mylib_my_bias_add(opr_context *ctx,");
  assert_contains(h, "  MYLIB_MY_BIAS_ADD_INPUT_X = 0,\n");
  free(h);
}

static void c_prefix_strip_drops_a_leading_prefix_word(void **state) {
  (void)state;
  new_case();
  write_file("my.op", "package my;\n"
                      "c_prefix my strip;\n"
                      "op MyBiasAdd { input x: float; output y: float; }\n"
                      "op Softmax { input x: float; output y: float; }\n");
  gen_ok("my.op");
  char *h = read_out("my_ops.h");
  assert_contains(h, "opr_status my_register_ops(void);\n");
  assert_contains(h, "extern const opr_op_def my_bias_add_def;\n");
  assert_contains(h, "opr_status my_bias_add(opr_context *ctx,");
  assert_contains(h, "opr_status my_softmax(opr_context *ctx,");
  free(h);
}

/* Two ops that strip to one name are the name model's clash. */
static void c_prefix_strip_clashes_are_reported(void **state) {
  (void)state;
  new_case();
  write_file("my.op", "c_prefix my strip;\n"
                      "op Foo { input x: float; output y: float; }\n"
                      "op MyFoo { input x: float; output y: float; }\n");
  char *err;
  assert_int_equal(gen("my.op", &err), 1);
  assert_contains(err, "my.op:3:4: error: 'my_foo' (the wrapper of op "
                       "'MyFoo') collides with 'my_foo' (the wrapper of op "
                       "'Foo'); rename one of them\n");
  free(err);
}

static void c_prefix_in_the_runtime_namespace_is_refused(void **state) {
  (void)state;
  new_case();
  write_file("bad.op", "package my;\n"
                       "c_prefix opr;\n"
                       "op A { input x: float; output y: float; }\n");
  gen_fails("bad.op",
            "bad.op:2:10: error: 'opr_register_ops' (the register function "
            "of 'bad.op') is in the runtime's namespace (opr_, OPR_); "
            "choose another c_prefix\n");
}

static void c_prefix_reserved_spelling_is_refused(void **state) {
  (void)state;
  new_case();
  write_file("bad.op", "\n  c_prefix _x;\n"
                       "op A { input x: float; output y: float; }\n");
  gen_fails("bad.op",
            "bad.op:2:12: error: '_x_register_ops' (the register function "
            "of 'bad.op') contains '__' or starts with '_', which C and C++ "
            "reserve; choose another c_prefix\n");
}

static void c_prefix_grammar_errors(void **state) {
  (void)state;
  tu_expect_error("c_prefix my bogus;\n",
                  "1:13: error: expected 'strip' or ';' after the C prefix, "
                  "found 'bogus'");
  tu_expect_error("op A { }\nc_prefix my;\n",
                  "2:1: error: c_prefix statement must come before the "
                  "first op");
  tu_expect_error("c_prefix;\n", "1:9: error: expected identifier before ';'");
  tu_diags d = {0};
  assert_null(tu_compile("t.op", "c_prefix a;\nc_prefix b;\n", &d));
  assert_string_equal(tu_diags_text(&d),
                      "t.op:2:1: error: duplicate c_prefix statement\n"
                      "t.op:1:10: note: c_prefix 'a' declared here");
  tu_diags_free(&d);
}

/* The prefix is C only: the dump of a spec is the same with and without
 * it (so compat sees no change). */
static void c_prefix_leaves_the_dump_alone(void **state) {
  (void)state;
  const char *op = "op MyBiasAdd { input x: float; output y: float; }\n";
  char text[256], cmd[2048], *dumps[2];
  for (int k = 0; k < 2; k++) {
    new_case();
    snprintf(text, sizeof text, "package my;%s\n%s",
             k ? " c_prefix my strip;" : "", op); /* the op stays on line 2 */
    write_file("my.op", text);
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' dump -o my.json my.op", dir,
             getenv("OPGEN_BIN"));
    assert_int_equal(tu_run(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/my.json", dir);
    dumps[k] = tu_read_file(cmd, NULL);
    assert_non_null(dumps[k]);
  }
  assert_string_equal(dumps[0], dumps[1]);
  free(dumps[0]);
  free(dumps[1]);
}

/* A contextual keyword: still a name elsewhere. */
static void c_prefix_is_a_name_elsewhere(void **state) {
  (void)state;
  og_model *m = tu_expect_ok("op A { attr c_prefix: int; input c_prefix_in: "
                             "float; output y: float; }\n");
  og_model_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(wrapper_comment_states_ownership_and_requires),
      cmocka_unit_test(second_doc_line_of_an_input_keeps_its_indent),
      cmocka_unit_test(index_constants_are_the_table_positions),
      cmocka_unit_test(library_sources_need_no_hand_written_prototypes),
      cmocka_unit_test(c_prefix_sets_the_prefix_apart_from_the_package),
      cmocka_unit_test(c_prefix_strip_drops_a_leading_prefix_word),
      cmocka_unit_test(c_prefix_strip_clashes_are_reported),
      cmocka_unit_test(c_prefix_in_the_runtime_namespace_is_refused),
      cmocka_unit_test(c_prefix_reserved_spelling_is_refused),
      cmocka_unit_test(c_prefix_grammar_errors),
      cmocka_unit_test(c_prefix_leaves_the_dump_alone),
      cmocka_unit_test(c_prefix_is_a_name_elsewhere),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
