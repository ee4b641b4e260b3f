/* The model of generated names (docs/generated-code.md, "Generated names"): clashes
 * between generated names are errors at the later declaration with a
 * note at the earlier one, in every file and package of a run; names
 * spelled like keywords, macros or members are mangled, and the code then
 * compiles with -std=c11 -Wall -Wextra -Werror -pedantic and links. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

static char tmpdir[] = "/tmp/opgen_names_XXXXXX";
static int case_no;
static char dir[600]; /* this case's directory under tmpdir */

static void new_case(void) {
  snprintf(dir, sizeof dir, "%s/c%d", tmpdir, ++case_no);
  assert_int_equal(mkdir(dir, 0755), 0);
}

static void write_spec(const char *name, const char *text) {
  char path[800];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static int sh(const char *cmd) {
  int rc = system(cmd);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* Runs `opgen VERB [-o out] FILES` in the case's directory; returns the
 * exit status, the stderr in *err (freed by the caller). */
static int opgen(const char *verb, const char *files, char **err) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s %s %s 2>err", dir,
           getenv("OPGEN_BIN"), verb, strcmp(verb, "gen") ? "" : "-o out",
           files);
  int rc = sh(cmd);
  snprintf(cmd, sizeof cmd, "%s/err", dir);
  *err = tu_read_file(cmd, NULL);
  assert_non_null(*err);
  return rc;
}

/* gen fails with exactly `expected` on stderr and writes nothing; check
 * reports the same. */
static void expect_rejected(const char *files, const char *expected) {
  char *err;
  assert_int_equal(opgen("gen", files, &err), 1);
  assert_string_equal(err, expected);
  free(err);
  char out[700];
  snprintf(out, sizeof out, "%s/out", dir);
  struct stat st;
  assert_int_not_equal(stat(out, &st), 0);
  assert_int_equal(opgen("check", files, &err), 1);
  assert_string_equal(err, expected);
  free(err);
}

/* gen succeeds; the source and kernel header compile as strict C11, and
 * the source links with a main that calls `reg` and `call`. */
static void expect_compiles(const char *files, const char *stem,
                            const char *reg) {
  const char *cc = getenv("OPGEN_CC"), *inc = getenv("OPGEN_RUNTIME_INCLUDE");
  const char *link = getenv("OPGEN_RUNTIME_LINK");
  if (!cc || !inc || !link) skip();
  char *err;
  assert_int_equal(opgen("gen", files, &err), 0);
  assert_string_equal(err, "");
  free(err);
  char cmd[4096];
  snprintf(cmd, sizeof cmd,
           "cd '%s' && printf '#include \"%s_kernels.h\"\\n"
           "int main(void) { return %s() ? 1 : 0; }\\n' > main.c && "
           "'%s' -std=c11 -Wall -Wextra -Werror -pedantic -I'%s' -Iout "
           "out/%s_ops.c main.c %s -o prog && ./prog",
           dir, stem, reg, cc, inc, stem, link);
  assert_int_equal(sh(cmd), 0);
}

static char *read_out(const char *name) {
  char path[800];
  snprintf(path, sizeof path, "%s/out/%s", dir, name);
  char *text = tu_read_file(path, NULL);
  assert_non_null(text);
  return text;
}

static void op_names_clash_with_other_ops_helper_names(void **state) {
  (void)state;
  new_case();
  write_spec("ops.op", "package demo;\n"
                       "op Foo {\n"
                       "  attr mode: {'a', 'b'} = 'a';\n"
                       "  input x: float;\n"
                       "  output y: float;\n"
                       "  shape y = x;\n"
                       "}\n"
                       "op FooShape { }\n"
                       "op RegisterOps { }\n"
                       "op FooAttrDefs { }\n"
                       "op FooInputX { }\n"
                       "op FooMode { }\n");
  expect_rejected(
      "ops.op",
      "ops.op:8:4: error: 'demo_foo_shape' (the wrapper of op 'FooShape') "
      "collides with 'demo_foo_shape' (the shape function of op 'Foo'); "
      "rename one of them\n"
      "ops.op:2:4: note: 'demo_foo_shape' (the shape function of op 'Foo') "
      "is generated here\n"
      "ops.op:9:4: error: 'demo_register_ops' (the wrapper of op "
      "'RegisterOps') collides with 'demo_register_ops' (the register "
      "function of 'ops.op'); rename one of them\n"
      "ops.op:1:9: note: 'demo_register_ops' (the register function of "
      "'ops.op') is generated here\n"
      "ops.op:10:4: error: 'demo_foo_attr_defs' (the wrapper of op "
      "'FooAttrDefs') collides with 'demo_foo_attr_defs' (the attr table of "
      "op 'Foo'); rename one of them\n"
      "ops.op:2:4: note: 'demo_foo_attr_defs' (the attr table of op 'Foo') "
      "is generated here\n"
      "ops.op:11:4: error: 'demo_foo_input_x' (the wrapper of op "
      "'FooInputX') collides with 'demo_foo_input_x' (the accessor of input "
      "'x' of op 'Foo'); rename one of them\n"
      "ops.op:4:9: note: 'demo_foo_input_x' (the accessor of input 'x' of op "
      "'Foo') is generated here\n"
      "ops.op:12:4: error: 'demo_foo_mode' (the wrapper of op 'FooMode') "
      "collides with 'demo_foo_mode' (the enum of attr 'mode' of op 'Foo'); "
      "rename one of them\n"
      "ops.op:3:8: note: 'demo_foo_mode' (the enum of attr 'mode' of op "
      "'Foo') is generated here\n");
}

static void an_earlier_op_gets_the_note(void **state) {
  (void)state;
  new_case();
  write_spec("ops.op", "package demo;\nop FooMode { }\n"
                       "op Foo { attr mode: {'a'}; }\n");
  expect_rejected(
      "ops.op",
      "ops.op:3:15: error: 'demo_foo_mode' (the enum of attr 'mode' of op "
      "'Foo') collides with 'demo_foo_mode' (the wrapper of op 'FooMode'); "
      "rename one of them\n"
      "ops.op:2:4: note: 'demo_foo_mode' (the wrapper of op 'FooMode') is "
      "generated here\n");
}

static void attrs_differing_only_in_case_clash_in_macros(void **state) {
  (void)state;
  new_case();
  write_spec("case.op", "op Case {\n"
                        "  attr mode: {'a'} = 'a';\n"
                        "  attr MODE: {'a'} = 'a';\n"
                        "  attr T: type;\n"
                        "  attr t: type;\n"
                        "  input x: T;\n"
                        "  input y: t;\n"
                        "}\n");
  expect_rejected(
      "case.op",
      "case.op:3:8: error: 'CASE_CASE_MODE_A' (an enumerator of attr 'MODE' "
      "of op 'Case') collides with 'CASE_CASE_MODE_A' (an enumerator of attr "
      "'mode' of op 'Case'); rename one of them\n"
      "case.op:2:8: note: 'CASE_CASE_MODE_A' (an enumerator of attr 'mode' "
      "of op 'Case') is generated here\n"
      "case.op:5:8: error: 'CASE_CASE_T_TYPES' (the types macro of attr 't' "
      "of op 'Case') collides with 'CASE_CASE_T_TYPES' (the types macro of "
      "attr 'T' of op 'Case'); rename one of them\n"
      "case.op:4:8: note: 'CASE_CASE_T_TYPES' (the types macro of attr 'T' "
      "of op 'Case') is generated here\n");
}

static void case_only_differences_that_c_tells_apart_compile(void **state) {
  (void)state;
  new_case();
  write_spec("case.op", "op Case {\n"
                        "  attr k: int;\n"
                        "  attr K: int = 1;\n"
                        "  input x: float;\n"
                        "  output y: float;\n"
                        "}\n");
  expect_compiles("case.op", "case", "case_register_ops");
}

/* TensorFlow's RpcServer and RpcServerRegister: one op's kernel
 * registration function and the other's kernel struct must differ. */
static void an_op_named_like_another_ops_registration_compiles(void **state) {
  (void)state;
  new_case();
  write_spec("rpc.op", "op RpcServer {\n"
                       "  input server_address: string;\n"
                       "  output server: resource;\n"
                       "}\n"
                       "op RpcServerRegister {\n"
                       "  input server: resource;\n"
                       "  input method_name: string;\n"
                       "}\n");
  expect_compiles("rpc.op", "rpc", "rpc_register_ops");
  char *h = read_out("rpc_kernels.h");
  assert_non_null(strstr(h, "} rpc_rpc_server_register_kernel_def;\n"));
  assert_non_null(strstr(h, "rpc_rpc_server_register_kernel(\n"
                            "    const rpc_rpc_server_kernel_def *kernel)"));
  free(h);
}

static void folded_enum_values_get_their_index(void **state) {
  (void)state;
  new_case();
  write_spec("e.op", "op E { attr e: {'a b', 'a-b', 'A_B', 'x*/y', '-'} = "
                     "'A_B'; }\n");
  expect_compiles("e.op", "e", "e_register_ops");
  char *h = read_out("e_ops.h");
  assert_non_null(strstr(h, "  E_E_E_A_B_0, /* \"a b\" */\n"
                            "  E_E_E_A_B_1, /* \"a-b\" */\n"
                            "  E_E_E_A_B_2, /* \"A_B\" */\n"
                            "  E_E_E_X_Y, /* \"x* /y\" */\n"
                            "  E_E_E_EMPTY, /* \"-\" */\n"));
  free(h);
}

static void an_index_suffix_that_meets_a_value_is_an_error(void **state) {
  (void)state;
  new_case();
  write_spec("e.op", "op E {\n  attr e: {'a b', 'a-b', 'a b 0'};\n}\n");
  expect_rejected("e.op",
                  "e.op:2:8: error: 'E_E_E_A_B_0' (an enumerator of attr 'e' "
                  "of op 'E') collides with 'E_E_E_A_B_0' (an enumerator of "
                  "attr 'e' of op 'E'); rename one of them\n"
                  "e.op:2:8: note: 'E_E_E_A_B_0' (an enumerator of attr 'e' "
                  "of op 'E') is generated here\n");
}

static const char members_spec[] =
    "op Members {\n"
    "  attr fn: type;\n"
    "  attr priority: type = DT_FLOAT;\n"
    "  attr label: type;\n"
    "  attr host_memory: type;\n"
    "  attr device: int = 1;\n"
    "  input ctx_: float;\n"
    "  attr NULL: int = 0;\n"
    "  attr INT64_MIN: int;\n"
    "  attr OPR_OK: int = 3;\n"
    "  attr errno: int;\n"
    "  attr assert: bool = false;\n"
    "  attr size_t: int = 1;\n"
    "  attr SIZE_MAX: list(int) = [1];\n"
    "  attr opr_invoke: list(int);\n"
    "  input int64_t: fn;\n"
    "  input op_call: float;\n"
    "  input ctx: priority;\n"
    "  input attrs: N * label;\n"
    "  attr N: int >= 1;\n"
    "  input stdin: host_memory;\n"
    "  output bool: float;\n"
    "  output main: float;\n"
    "}\n";

static void names_like_members_macros_and_locals_are_mangled(void **state) {
  (void)state;
  new_case();
  write_spec("m.op", members_spec);
  expect_compiles("m.op", "m", "m_register_ops");
  char *h = read_out("m_ops.h");
  assert_non_null(strstr(h, "opr_status m_members(opr_context *ctx,\n"
                            "                     const opr_tensor *ctx_,\n"
                            "                     const opr_tensor *int64_t_,\n"
                            "                     const opr_tensor *op_call_,\n"
                            "                     const opr_tensor *ctx_2,\n"
                            "                     const opr_tensor *const *attrs_,\n"
                            "                     size_t attrs_count,\n"
                            "                     const opr_tensor *stdin_,\n"
                            "                     int64_t INT64_MIN_,\n"
                            "                     int64_t errno_,\n"
                            "                     const int64_t *opr_invoke_,\n"
                            "                     size_t opr_invoke_count_,\n"
                            "                     const m_members_attrs *attrs,\n"
                            "                     opr_tensor **bool_,\n"
                            "                     opr_tensor **main);\n"));
  assert_non_null(strstr(h, "  int64_t NULL_;\n"));
  assert_non_null(strstr(h, "  int64_t OPR_OK_;\n"));
  assert_non_null(strstr(h, "  bool assert_;\n"));
  assert_non_null(strstr(h, "  int64_t size_t_;\n"));
  assert_non_null(strstr(h, "  const int64_t *SIZE_MAX_;\n"
                            "  size_t SIZE_MAX_count;\n"));
  free(h);
  char *k = read_out("m_kernels.h");
  assert_non_null(strstr(k, "  opr_kernel_fn fn;\n"
                            "  opr_device_kind device;\n"
                            "  opr_dtype_set fn_; /* types of fn it takes; 0: all */\n"
                            "  opr_dtype_set priority_; /* types of priority it takes; 0: all */\n"
                            "  opr_dtype_set label_; /* types of label it takes; 0: all */\n"
                            "  opr_dtype_set host_memory_; /* types of host_memory it takes; 0: all */\n"
                            "  int priority;"));
  assert_non_null(strstr(k, "    bool ctx_;\n"
                            "    bool int64_t_;\n"
                            "    bool op_call;\n"
                            "    bool ctx;\n"
                            "    bool attrs;\n"
                            "    bool stdin_;\n"
                            "    bool bool_;\n"
                            "    bool main;\n"));
  free(k);
}

static void an_attr_named_like_a_list_count_is_an_error(void **state) {
  (void)state;
  new_case();
  write_spec("l.op", "op L {\n  attr xs: list(int) = [1];\n"
                     "  attr xs_count: int = 2;\n}\n");
  expect_rejected(
      "l.op",
      "l.op:3:8: error: 'l_l_attr_xs_count' (the accessor of attr 'xs_count' "
      "of op 'L') collides with 'l_l_attr_xs_count' (the count accessor of "
      "attr 'xs' of op 'L'); rename one of them\n"
      "l.op:2:8: note: 'l_l_attr_xs_count' (the count accessor of attr 'xs' "
      "of op 'L') is generated here\n");
}

static void names_with_double_underscores_are_errors(void **state) {
  (void)state;
  new_case();
  write_spec("u.op", "op U {\n  attr a__b: int = 1;\n}\n");
  expect_rejected(
      "u.op",
      "u.op:2:8: error: 'u_u_a__b_default_value' (the default of attr 'a__b' "
      "of op 'U') contains '__' or starts with '_', which C and C++ "
      "reserve\n"
      "u.op:2:8: error: 'a__b' (an attrs-struct member of op 'U') contains "
      "'__', which C++ reserves; rename it\n");
}

static void shape_fn_names_keywords_and_runtime_are_errors(void **state) {
  (void)state;
  new_case();
  write_spec("s.op", "op Y { shape_fn int; }\n"
                     "op Z { shape_fn opr_tensor_new; }\n"
                     "op W { shape_fn main; }\n"
                     "op T { shape_fn s_t; }\n"
                     "op V { shape_fn class; }\n");
  expect_rejected(
      "s.op",
      "s.op:1:17: error: 'int' (the shape_fn of op 'Y') is a C or C++ keyword "
      "or a name of the standard headers\n"
      "s.op:2:17: error: 'opr_tensor_new' (the shape_fn of op 'Z') is in the "
      "runtime's namespace (opr_, OPR_)\n"
      "s.op:3:17: error: 'main' (the shape_fn of op 'W') is a C or C++ "
      "keyword or a name of the standard headers\n"
      "s.op:4:17: error: 's_t' (the shape_fn of op 'T') collides with 's_t' "
      "(the wrapper of op 'T'); rename one of them\n"
      "s.op:4:4: note: 's_t' (the wrapper of op 'T') is generated here\n"
      "s.op:5:17: error: 'class' (the shape_fn of op 'V') is a C or C++ "
      "keyword or a name of the standard headers\n");
}

static void ops_may_share_a_shape_fn(void **state) {
  (void)state;
  new_case();
  write_spec("a.op", "op A { output y: float; shape_fn my_shape; }\n");
  write_spec("b.op", "op B { output y: float; shape_fn my_shape; }\n");
  char *err;
  assert_int_equal(opgen("gen", "a.op b.op", &err), 0);
  assert_string_equal(err, "");
  free(err);
}

static void package_opr_is_an_error(void **state) {
  (void)state;
  new_case();
  write_spec("p.op", "package opr;\nop Foo { }\n");
  expect_rejected("p.op",
                  "p.op:1:9: error: 'opr_register_ops' (the register function "
                  "of 'p.op') is in the runtime's namespace (opr_, OPR_); "
                  "choose another package\n");
}

static void prefixes_that_spell_one_symbol_are_errors(void **state) {
  (void)state;
  new_case();
  write_spec("a.op", "package a;\nop BFoo { }\n");
  write_spec("ab.op", "package a_b;\nop Foo { }\n");
  expect_rejected("a.op ab.op",
                  "ab.op:2:4: error: 'a_b_foo' (the wrapper of op 'Foo') "
                  "collides with 'a_b_foo' (the wrapper of op 'BFoo'); rename "
                  "one of them\n"
                  "a.op:2:4: note: 'a_b_foo' (the wrapper of op 'BFoo') is "
                  "generated here\n");
}

static void one_package_in_two_files_is_an_error(void **state) {
  (void)state;
  new_case();
  write_spec("a.op", "package a;\nop X { }\n");
  write_spec("b.op", "package a;\nop Y { }\n");
  expect_rejected("a.op b.op",
                  "b.op:1:9: error: 'a_register_ops' (the register function "
                  "of 'b.op') collides with 'a_register_ops' (the register "
                  "function of 'a.op'); rename one of them\n"
                  "a.op:1:9: note: 'a_register_ops' (the register function "
                  "of 'a.op') is generated here\n");
}

static void include_guards_that_collide_are_errors(void **state) {
  (void)state;
  new_case();
  write_spec("x.y.op", "op Y { }\n");
  write_spec("x_y.op", "op Z { }\n");
  expect_rejected("x.y.op x_y.op",
                  "x_y.op: error: 'X_Y_OPS_H' (the include guard of 'x_y.op') "
                  "collides with 'X_Y_OPS_H' (the include guard of "
                  "'x.y.op'); rename one of them\n"
                  "x.y.op: note: 'X_Y_OPS_H' (the include guard of 'x.y.op') "
                  "is generated here\n");
}

static void file_names_differing_in_case_are_errors(void **state) {
  (void)state;
  new_case();
  write_spec("x.op", "package p;\nop Y { }\n");
  write_spec("X.op", "package q;\nop Z { }\n");
  expect_rejected("x.op X.op",
                  "X.op:1:9: error: 'X_ops.h' (an output file of 'X.op') "
                  "collides with 'x_ops.h' (an output file of 'x.op'); "
                  "rename one of them\n"
                  "x.op:1:9: note: 'x_ops.h' (an output file of 'x.op') is "
                  "generated here\n");
}

static const char *const cpp_keywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "bitand", "bitor", "catch",
    "char8_t", "char16_t", "char32_t", "class", "compl", "concept",
    "consteval", "constexpr", "constinit", "const_cast", "co_await",
    "co_return", "co_yield", "decltype", "delete", "dynamic_cast",
    "explicit", "export", "friend", "mutable", "namespace", "new",
    "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq",
    "private", "protected", "public", "reinterpret_cast", "requires",
    "static_assert", "static_cast", "template", "this", "thread_local",
    "throw", "try", "typeid", "typename", "using", "virtual", "wchar_t",
    "xor", "xor_eq"};

/* Fails on an identifier outside comments and literals that C++ keeps. */
static void assert_no_cpp_keyword(const char *text) {
  for (const char *p = text; *p;) {
    if (p[0] == '/' && p[1] == '*') {
      p = strstr(p + 2, "*/");
      assert_non_null(p);
      p += 2;
    } else if (*p == '"' || *p == '\'') {
      char q = *p++;
      while (*p && *p != q) p += *p == '\\' && p[1] ? 2 : 1;
      p += *p != 0;
    } else if (*p == '_' || ((*p | 32) >= 'a' && (*p | 32) <= 'z')) {
      size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                           "0123456789_");
      for (size_t i = 0; i < sizeof cpp_keywords / sizeof *cpp_keywords; i++)
        if (strlen(cpp_keywords[i]) == n && strncmp(p, cpp_keywords[i], n) == 0)
          fail_msg("C++ keyword '%s' in generated code", cpp_keywords[i]);
      p += n;
    } else {
      p++;
    }
  }
}

static void cpp_keywords_as_spec_names_are_mangled(void **state) {
  (void)state;
  new_case();
  write_spec("class.op",
             "package class;\n"
             "op Class {\n"
             "  attr new: int;\n"
             "  attr template: string = 'x';\n"
             "  attr typename: type;\n"
             "  attr delete: {'a', 'b'} = 'a';\n"
             "  attr and: list(int) = [1];\n"
             "  attr class: int = 2;\n"
             "  input this: typename;\n"
             "  input namespace: float;\n"
             "  output delete_: float;\n"
             "  output operator: float;\n"
             "}\n"
             "op New { }\n");
  expect_compiles("class.op", "class", "class_register_ops");
  static const char *const files[] = {"class_ops.h", "class_ops.c",
                                      "class_kernels.h"};
  for (size_t i = 0; i < 3; i++) {
    char *text = read_out(files[i]);
    assert_no_cpp_keyword(text);
    free(text);
  }
  char *h = read_out("class_ops.h");
  assert_non_null(strstr(h, "opr_status class_class(opr_context *ctx,\n"
                            "                       const opr_tensor *this_,\n"
                            "                       const opr_tensor *namespace_,\n"
                            "                       int64_t new_,\n"
                            "                       const class_class_attrs *attrs,\n"
                            "                       opr_tensor **delete_,\n"
                            "                       opr_tensor **operator_);\n"));
  free(h);
}

TU_TMPDIR_FIXTURES(tmpdir)

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(op_names_clash_with_other_ops_helper_names),
      cmocka_unit_test(an_earlier_op_gets_the_note),
      cmocka_unit_test(attrs_differing_only_in_case_clash_in_macros),
      cmocka_unit_test(case_only_differences_that_c_tells_apart_compile),
      cmocka_unit_test(an_op_named_like_another_ops_registration_compiles),
      cmocka_unit_test(folded_enum_values_get_their_index),
      cmocka_unit_test(an_index_suffix_that_meets_a_value_is_an_error),
      cmocka_unit_test(names_like_members_macros_and_locals_are_mangled),
      cmocka_unit_test(an_attr_named_like_a_list_count_is_an_error),
      cmocka_unit_test(names_with_double_underscores_are_errors),
      cmocka_unit_test(shape_fn_names_keywords_and_runtime_are_errors),
      cmocka_unit_test(ops_may_share_a_shape_fn),
      cmocka_unit_test(package_opr_is_an_error),
      cmocka_unit_test(prefixes_that_spell_one_symbol_are_errors),
      cmocka_unit_test(one_package_in_two_files_is_an_error),
      cmocka_unit_test(include_guards_that_collide_are_errors),
      cmocka_unit_test(file_names_differing_in_case_are_errors),
      cmocka_unit_test(cpp_keywords_as_spec_names_are_mangled),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
