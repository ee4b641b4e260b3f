/* Op libraries: the guide's ZeroOut built as a library of its own
 * (LibZeroOut), loaded with opr_load_library and run through the generic
 * entry; each way a load is refused, also after the library's
 * constructor registered ops and kernels (nothing of it may stay in the
 * registries: run under ASan, reading a pointer into the unloaded
 * library is a report); loads from inside a load; a library with no
 * ops; one op defined twice; and messages that never format NULL. The
 * libraries' paths come from the build (OPLIB_* definitions). The tests
 * run in order: the host registers the shipped ops first, so that
 * conflicts have something to conflict with. */
#include "testutil.h"

#include "opr/opr.h"
#include "shipped.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static opr_context *ctx;

#define expect_code(status, code, ...)                                  \
  do {                                                                  \
    opr_status st_ = (status);                                          \
    assert_non_null(st_);                                               \
    const char *parts_[] = {__VA_ARGS__};                               \
    for (size_t i_ = 0; i_ < sizeof parts_ / sizeof *parts_; i_++)      \
      if (!strstr(opr_status_message(st_), parts_[i_]))                 \
        fail_msg("'%s' is not in: %s", parts_[i_],                      \
                 opr_status_message(st_));                              \
    assert_string_equal(opr_code_name(opr_status_code(st_)),            \
                        opr_code_name(code));                           \
    opr_status_free(st_);                                               \
  } while (0)

#define expect_message(status, code, message)                           \
  do {                                                                  \
    opr_status st_ = (status);                                          \
    assert_non_null(st_);                                               \
    assert_string_equal(opr_status_message(st_), message);              \
    assert_string_equal(opr_code_name(opr_status_code(st_)),            \
                        opr_code_name(code));                           \
    opr_status_free(st_);                                               \
  } while (0)

#define expect_ok(status)                                               \
  do {                                                                  \
    opr_status st_ = (status);                                          \
    if (st_) fail_msg("unexpected: %s", opr_status_message(st_));       \
  } while (0)

static opr_tensor *int32_matrix(const int32_t *values) {
  opr_tensor *t;
  const int64_t dims[2] = {2, 2};
  expect_ok(opr_tensor_from_data(OPR_DT_INT32, 2, dims, values,
                                 4 * sizeof *values, &t));
  return t;
}

/* Runs a one-input, one-output op by name. */
static opr_status run1(const char *op, const opr_tensor *in,
                       opr_tensor **out) {
  const opr_tensor *list[1] = {in};
  opr_input inputs[1] = {{list, 1}};
  size_t n = 0;
  return opr_execute(ctx, op, inputs, 1, NULL, 0, out, 1, &n);
}

static void loads_and_runs_the_guide_zero_out(void **state) {
  (void)state;
  opr_library *lib = NULL;
  expect_ok(opr_load_library(OPLIB_ZERO_OUT, &lib));
  assert_string_equal(opr_library_name(lib), "zero_out_lib");
  assert_string_equal(opr_library_path(lib), OPLIB_ZERO_OUT);
  const opr_op_def *ops[2];
  assert_int_equal(opr_library_ops(lib, ops, 2), 1);
  assert_ptr_equal(ops[0], opr_find_op("LibZeroOut"));
  assert_true(opr_library_def_hash(lib) == opr_op_defs_hash(ops, 1));

  const int32_t in_values[4] = {1, 2, 3, 4}, want[4] = {1, 0, 0, 0};
  opr_tensor *in = int32_matrix(in_values), *out = NULL;
  expect_ok(run1("LibZeroOut", in, &out));
  assert_int_equal(out->rank, 2);
  assert_memory_equal(out->data, want, sizeof want);
  opr_tensor_unref(out);
  opr_tensor_unref(in);
}

static void the_library_kernel_is_listed(void **state) {
  (void)state;
  const opr_kernel_def *k[4];
  assert_int_equal(opr_list_kernels(opr_find_op("LibZeroOut"), k, 4), 1);
  assert_string_equal(k[0]->label, "zero_out_lib");
  assert_int_equal(k[0]->device, OPR_DEVICE_CPU);
}

static void loading_twice_is_already_exists(void **state) {
  (void)state;
  opr_library *again = NULL;
  expect_code(opr_load_library(OPLIB_ZERO_OUT, &again), OPR_ALREADY_EXISTS,
              OPLIB_ZERO_OUT, "op library 'zero_out_lib' is already loaded");
  assert_non_null(again);
  assert_string_equal(opr_library_name(again), "zero_out_lib");
}

static void a_missing_file_is_not_found(void **state) {
  (void)state;
  opr_library *lib = (opr_library *)&lib;
  expect_code(opr_load_library("tests/oplib/no_such_library.so", &lib),
              OPR_NOT_FOUND, "'tests/oplib/no_such_library.so': no such file");
  assert_null(lib);
}

static void a_file_that_is_no_library_is_invalid(void **state) {
  (void)state;
  expect_code(opr_load_library(OPLIB_NOT_A_LIBRARY, NULL),
              OPR_INVALID_ARGUMENT, OPLIB_NOT_A_LIBRARY, "cannot be loaded");
}

/* A FIFO would block dlopen; a device or a directory is no library
 * either. Each is refused at once, before it is opened. */
static void a_path_to_no_regular_file_is_refused(void **state) {
  (void)state;
  char fifo[] = "/tmp/opgen-oplib-fifo-XXXXXX";
  int fd = mkstemp(fifo);
  assert_true(fd >= 0);
  close(fd);
  unlink(fifo);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  const char *paths[] = {fifo, "/dev/zero", "/tmp"};
  for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
    expect_code(opr_load_library(paths[i], NULL), OPR_INVALID_ARGUMENT,
                paths[i], "cannot be loaded: not a regular file");
  unlink(fifo);
}

static void another_abi_version_fails_precondition(void **state) {
  (void)state;
  expect_code(opr_load_library(OPLIB_BAD_ABI, NULL), OPR_FAILED_PRECONDITION,
              OPLIB_BAD_ABI, "built for op library ABI version 999",
              "this runtime loads version 2");
}

static void another_hash_is_data_loss(void **state) {
  (void)state;
  expect_code(opr_load_library(OPLIB_BAD_HASH, NULL), OPR_DATA_LOSS,
              OPLIB_BAD_HASH, "the library declares 0x0000000000001234");
}

static void a_conflicting_op_aborts_the_load(void **state) {
  (void)state;
  const opr_op_def *before = opr_find_op("ZeroOut");
  assert_non_null(before);
  expect_message(opr_load_library(OPLIB_CONFLICT, NULL), OPR_ABORTED,
                 "opr_load_library: '" OPLIB_CONFLICT "': op 'ZeroOut' is "
                 "already registered with a different definition (input 0: "
                 "names differ ('to_zero' vs 'x'))");
  assert_ptr_equal(opr_find_op("ZeroOut"), before);
  /* Refused libraries left nothing behind: loading them again gives the
   * same answers. */
  expect_code(opr_load_library(OPLIB_CONFLICT, NULL), OPR_ABORTED,
              "op 'ZeroOut'");
  expect_code(opr_load_library(OPLIB_BAD_ABI, NULL), OPR_FAILED_PRECONDITION,
              "ABI version 999");
}

static void an_identical_op_is_shared(void **state) {
  (void)state;
  const opr_op_def *add_one = opr_find_op("AddOne");
  opr_library *lib = NULL;
  expect_ok(opr_load_library(OPLIB_SHARED, &lib));
  const opr_op_def *ops[1];
  assert_int_equal(opr_library_ops(lib, ops, 1), 1);
  assert_ptr_equal(ops[0], add_one); /* the host's table */
  assert_ptr_equal(opr_find_op("AddOne"), add_one);
  /* Its kernel joined the op, ahead of the shipped one. */
  const int32_t x[4] = {1, 2, 3, 4}, want[4] = {101, 102, 103, 104};
  opr_tensor *in = int32_matrix(x), *out = NULL;
  expect_ok(run1("AddOne", in, &out));
  assert_memory_equal(out->data, want, sizeof want);
  opr_tensor_unref(out);
  opr_tensor_unref(in);
}

/* ---- refused libraries leave nothing behind ---- */

static void expect_unloaded(const char *path) {
  void *handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
  if (handle) {
    dlclose(handle);
    fail_msg("'%s' is still loaded", path);
  }
}

static size_t read_text(const char *s) { return s ? strlen(s) : 0; }

/* Reads every string and table the registries point to (a pointer into
 * an unloaded library faults here, or ASan reports it) and fails on the
 * op `op` or a kernel whose label starts with `label`. */
static void expect_nothing_of(const char *op, const char *label) {
  size_t n = opr_list_ops(NULL, 0), bytes = 0;
  const opr_op_def **ops = calloc(n, sizeof *ops);
  assert_non_null(ops);
  assert_int_equal(opr_list_ops(ops, n), n);
  for (size_t i = 0; i < n; i++) {
    const opr_op_def *def = ops[i];
    assert_ptr_equal(opr_find_op(def->name), def);
    if (strcmp(def->name, op) == 0) fail_msg("op '%s' is registered", op);
    bytes += read_text(def->summary);
    for (size_t a = 0; a < def->ninputs; a++)
      bytes += read_text(def->inputs[a].name);
    for (size_t a = 0; a < def->nattrs; a++)
      bytes += read_text(def->attrs[a].name);
    const opr_kernel_def *k[16];
    size_t nk = opr_list_kernels(def, k, 16);
    for (size_t j = 0; j < nk && j < 16; j++) {
      assert_string_equal(k[j]->op, def->name);
      if (k[j]->label && strncmp(k[j]->label, label, strlen(label)) == 0)
        fail_msg("%s has kernel '%s'", def->name, k[j]->label);
    }
  }
  free(ops);
  assert_null(opr_find_op(op));
  assert_true(bytes > 0);
}

/* AddOne still runs the shipped kernel (x + 1). */
static void expect_add_one_adds_one(void) {
  const int32_t x[4] = {1, 2, 3, 4}, want[4] = {2, 3, 4, 5};
  opr_tensor *in = int32_matrix(x), *out = NULL;
  expect_ok(run1("AddOne", in, &out));
  assert_memory_equal(out->data, want, sizeof want);
  opr_tensor_unref(out);
  opr_tensor_unref(in);
}

static void expect_refused_cleanly(const char *path) {
  expect_unloaded(path);
  expect_nothing_of("CtorOnly", "ctor_lib");
  expect_add_one_adds_one();
}

static void a_refused_abi_drops_what_constructors_registered(void **state) {
  (void)state;
  for (int round = 0; round < 2; round++) { /* the constructor runs again */
    expect_code(opr_load_library(OPLIB_CTOR_BAD_ABI, NULL),
                OPR_FAILED_PRECONDITION, OPLIB_CTOR_BAD_ABI,
                "built for op library ABI version 999");
    expect_refused_cleanly(OPLIB_CTOR_BAD_ABI);
  }
}

static void a_refused_hash_drops_what_constructors_registered(void **state) {
  (void)state;
  expect_code(opr_load_library(OPLIB_CTOR_BAD_HASH, NULL), OPR_DATA_LOSS,
              OPLIB_CTOR_BAD_HASH, "the library declares 0x0000000000001234");
  expect_refused_cleanly(OPLIB_CTOR_BAD_HASH);
}

static void a_constructor_conflict_aborts_and_drops_it_all(void **state) {
  (void)state;
  const opr_op_def *zero_out = opr_find_op("ZeroOut");
  expect_message(opr_load_library(OPLIB_CTOR_CONFLICT, NULL), OPR_ABORTED,
                 "opr_load_library: '" OPLIB_CTOR_CONFLICT "': op 'ZeroOut' "
                 "is already registered with a different definition (input 0: "
                 "names differ ('to_zero' vs 'x'))");
  assert_ptr_equal(opr_find_op("ZeroOut"), zero_out);
  expect_refused_cleanly(OPLIB_CTOR_CONFLICT);
}

static void a_kernel_of_an_unknown_op_refuses_the_load(void **state) {
  (void)state;
  expect_message(opr_load_library(OPLIB_CTOR_STRAY_KERNEL, NULL),
                 OPR_NOT_FOUND, "opr_load_library: '" OPLIB_CTOR_STRAY_KERNEL
                 "': it registers a kernel of op 'NoSuchOp', which is "
                 "neither registered nor one of its ops");
  expect_refused_cleanly(OPLIB_CTOR_STRAY_KERNEL);
}

static void constructor_registrations_commit_with_the_load(void **state) {
  (void)state;
  opr_library *lib = NULL;
  expect_ok(opr_load_library(OPLIB_CTOR, &lib));
  const opr_op_def *ops[2];
  assert_int_equal(opr_library_ops(lib, ops, 2), 1);
  assert_string_equal(ops[0]->name, "CtorOnly");
  assert_ptr_equal(opr_find_op("CtorOnly"), ops[0]);
  const int32_t x[4] = {1, 2, 3, 4}, want[4] = {2, 4, 6, 8};
  opr_tensor *in = int32_matrix(x), *out = NULL;
  expect_ok(run1("CtorOnly", in, &out));
  assert_memory_equal(out->data, want, sizeof want);
  opr_tensor_unref(out);
  opr_tensor_unref(in);
  /* Its AddOne kernel joined, after the shipped ones (CPU, and CUDA in
   * a CUDA build). */
  const opr_kernel_def *k[4];
  size_t nk = opr_list_kernels(opr_find_op("AddOne"), k, 4);
  assert_in_range(nk, 2, 3);
  assert_string_equal(k[nk - 1]->label, "ctor_lib AddOne");
  expect_add_one_adds_one();
}

/* ---- loads from inside a load ---- */

static void loading_from_a_registration_fails_at_once(void **state) {
  (void)state;
  expect_ok(opr_load_library(OPLIB_REENTRANT, NULL));
  void *handle = dlopen(OPLIB_REENTRANT, RTLD_NOW | RTLD_NOLOAD);
  assert_non_null(handle);
  void *sym = dlsym(handle, "reentrant_lib_messages");
  assert_non_null(sym);
  void (*messages)(const char **, const char **);
  memcpy(&messages, &sym, sizeof messages); /* ISO C: no direct cast */
  const char *from_constructor = NULL, *from_register = NULL;
  messages(&from_constructor, &from_register);
  assert_string_equal(from_constructor,
                      "FAILED_PRECONDITION: opr_load_library: '"
                      OPLIB_ZERO_OUT "': called while loading '"
                      OPLIB_REENTRANT "' (an op library cannot load op "
                      "libraries while it registers)");
  assert_string_equal(from_register,
                      "FAILED_PRECONDITION: opr_load_library: '"
                      OPLIB_REENTRANT "': called while loading '"
                      OPLIB_REENTRANT "' (an op library cannot load op "
                      "libraries while it registers)");
  dlclose(handle);
  /* The lock was let go: loads go on. */
  expect_code(opr_load_library(OPLIB_REENTRANT, NULL), OPR_ALREADY_EXISTS,
              "op library 'reentrant_lib' is already loaded");
}

/* ---- no ops; one op defined twice ---- */

static void a_library_without_ops_loads(void **state) {
  (void)state;
  opr_library *lib = NULL;
  expect_ok(opr_load_library(OPLIB_EMPTY, &lib));
  assert_string_equal(opr_library_name(lib), "empty_lib");
  assert_int_equal(opr_library_ops(lib, NULL, 0), 0);
  const opr_op_def *ops[1] = {NULL};
  assert_int_equal(opr_library_ops(lib, ops, 1), 0);
  assert_null(ops[0]);
  assert_true(opr_library_def_hash(lib) == opr_op_defs_hash(NULL, 0));
  uint64_t h = 0;
  expect_ok(opr_library_hash_ops(NULL, &h));
  assert_true(h == opr_op_defs_hash(NULL, 0));
  expect_code(opr_load_library(OPLIB_EMPTY, NULL), OPR_ALREADY_EXISTS,
              "op library 'empty_lib' is already loaded");
}

static void two_definitions_of_one_op_are_refused(void **state) {
  (void)state;
  expect_message(opr_load_library(OPLIB_TWICE, NULL), OPR_INVALID_ARGUMENT,
                 "opr_load_library: '" OPLIB_TWICE "': two different "
                 "definitions of op 'Twice' are registered (input 0 'x': "
                 "types differ (int32 vs float))");
  assert_null(opr_find_op("Twice"));
  expect_unloaded(OPLIB_TWICE);
  expect_nothing_of("Twice", "twice_lib");
}

static opr_status accept_call(opr_call *call) {
  (void)call;
  return OPR_OK;
}

static opr_op_state dup_state[2];
static const opr_arg_def dup_int = {"x", OPR_DT_INT32, OPR_NO_ATTR,
                                    OPR_NO_ATTR, OPR_NO_ATTR, false};
static const opr_op_def dup_defs[2] = {
    {.name = "Dup", .check = accept_call, .state = &dup_state[0]},
    {.name = "Dup", .inputs = &dup_int, .ninputs = 1, .check = accept_call,
     .state = &dup_state[1]}};

static opr_status register_dups(void) {
  opr_status s = opr_register_op(&dup_defs[0]);
  return s ? s : opr_register_op(&dup_defs[1]);
}

static void hashing_two_definitions_of_one_op_fails(void **state) {
  (void)state;
  uint64_t h = 7;
  expect_message(opr_library_hash_ops(register_dups, &h),
                 OPR_INVALID_ARGUMENT, "opr_library_hash_ops: two different "
                 "definitions of op 'Dup' are registered (input 0 'x' is "
                 "added)");
  assert_true(h == 7);
  assert_null(opr_find_op("Dup"));
}

/* ---- conflicts say what differs ---- */

static const opr_arg_def arg_x = {"x", OPR_DT_FLOAT, OPR_NO_ATTR,
                                  OPR_NO_ATTR, OPR_NO_ATTR, false};
static const opr_arg_def args_xy[2] = {
    {"x", OPR_DT_FLOAT, OPR_NO_ATTR, OPR_NO_ATTR, OPR_NO_ATTR, false},
    {"y", OPR_DT_FLOAT, OPR_NO_ATTR, OPR_NO_ATTR, OPR_NO_ATTR, false}};
static const opr_arg_def arg_z_typed = {"z", OPR_DT_INVALID, 0, OPR_NO_ATTR,
                                        OPR_NO_ATTR, false};
static const opr_arg_def arg_z_float = {"z", OPR_DT_FLOAT, OPR_NO_ATTR,
                                        OPR_NO_ATTR, OPR_NO_ATTR, false};
static const opr_attr_def attr_t_float = {
    .name = "T", .type = {OPR_ATTR_TYPE, false},
    .allowed_types = OPR_DTYPE_BIT(OPR_DT_FLOAT)};
static const opr_attr_def attr_t_float_double = {
    .name = "T", .type = {OPR_ATTR_TYPE, false},
    .allowed_types = OPR_DTYPE_BIT(OPR_DT_FLOAT) |
                     OPR_DTYPE_BIT(OPR_DT_DOUBLE)};
static const opr_attr_def attr_n_min = {
    .name = "N", .type = {OPR_ATTR_INT, false}, .has_minimum = true,
    .minimum = 1};
static const opr_attr_def attr_n = {.name = "N",
                                    .type = {OPR_ATTR_INT, false}};
static const opr_str mode_a[1] = {{"a", 1}};
static const opr_str mode_ab[2] = {{"a", 1}, {"b", 1}};
static const opr_attr_def attr_mode_a = {
    .name = "mode", .type = {OPR_ATTR_STRING, false},
    .allowed_strings = mode_a, .nallowed_strings = 1};
static const opr_attr_def attr_mode_ab = {
    .name = "mode", .type = {OPR_ATTR_STRING, false},
    .allowed_strings = mode_ab, .nallowed_strings = 2};
static const opr_attr_value one = {.kind = OPR_ATTR_INT, .u.i = 1};
static const opr_attr_value two = {.kind = OPR_ATTR_INT, .u.i = 2};
static const opr_attr_def attr_k1 = {
    .name = "k", .type = {OPR_ATTR_INT, false}, .default_value = &one};
static const opr_attr_def attr_k2 = {
    .name = "k", .type = {OPR_ATTR_INT, false}, .default_value = &two};
static const opr_attr_def attr_k_list = {.name = "k",
                                         .type = {OPR_ATTR_INT, true}};

static opr_op_state diff_state[2];
static opr_op_def diff_defs[2];

static opr_status register_diff_pair(void) {
  opr_status s = opr_register_op(&diff_defs[0]);
  return s ? s : opr_register_op(&diff_defs[1]);
}

/* The registered (first) and conflicting (second) definitions of op
 * Diff: the refusal names their first difference, first side first. */
static void expect_difference(opr_op_def a, opr_op_def b, const char *want) {
  a.name = b.name = "Diff";
  a.check = b.check = accept_call;
  a.state = &diff_state[0];
  b.state = &diff_state[1];
  diff_defs[0] = a;
  diff_defs[1] = b;
  char msg[512];
  snprintf(msg, sizeof msg, "opr_library_hash_ops: two different "
           "definitions of op 'Diff' are registered (%s)", want);
  uint64_t h = 0;
  expect_message(opr_library_hash_ops(register_diff_pair, &h),
                 OPR_INVALID_ARGUMENT, msg);
}

static void a_conflict_names_the_first_difference(void **state) {
  (void)state;
  expect_difference((opr_op_def){.attrs = &attr_t_float, .nattrs = 1},
                    (opr_op_def){.attrs = &attr_t_float_double, .nattrs = 1},
                    "attr 'T': allowed types differ ({float} vs {float, "
                    "double})");
  expect_difference((opr_op_def){.inputs = args_xy, .ninputs = 2},
                    (opr_op_def){.inputs = &arg_x, .ninputs = 1},
                    "input 1 'y' is missing");
  expect_difference((opr_op_def){.inputs = &arg_x, .ninputs = 1},
                    (opr_op_def){.inputs = args_xy, .ninputs = 2},
                    "input 1 'y' is added");
  expect_difference(
      (opr_op_def){.outputs = &arg_z_typed, .noutputs = 1,
                   .attrs = &attr_t_float, .nattrs = 1},
      (opr_op_def){.outputs = &arg_z_float, .noutputs = 1,
                   .attrs = &attr_t_float, .nattrs = 1},
      "output 0 'z': types differ (T vs float)");
  expect_difference((opr_op_def){.attrs = &attr_n_min, .nattrs = 1},
                    (opr_op_def){.attrs = &attr_n, .nattrs = 1},
                    "attr 'N': minimums differ (>= 1 vs none)");
  expect_difference((opr_op_def){.attrs = &attr_mode_a, .nattrs = 1},
                    (opr_op_def){.attrs = &attr_mode_ab, .nattrs = 1},
                    "attr 'mode': allowed values differ ({'a'} vs {'a', "
                    "'b'})");
  expect_difference((opr_op_def){.attrs = &attr_k1, .nattrs = 1},
                    (opr_op_def){.attrs = &attr_k2, .nattrs = 1},
                    "attr 'k': defaults differ (1 vs 2)");
  expect_difference((opr_op_def){.attrs = &attr_k1, .nattrs = 1},
                    (opr_op_def){.attrs = &attr_k_list, .nattrs = 1},
                    "attr 'k': types differ (int vs list(int))");
  expect_difference((opr_op_def){.attrs = &attr_k1, .nattrs = 1},
                    (opr_op_def){0}, "attr 'k' is missing");
  expect_difference((opr_op_def){0}, (opr_op_def){.is_stateful = true},
                    "flags differ (none vs stateful)");
}

static opr_op_state again_state[2];
static const opr_op_def again_defs[2] = {
    {.name = "Again", .check = accept_call, .state = &again_state[0]},
    {.name = "Again", .is_stateful = true, .check = accept_call,
     .state = &again_state[1]}};

static void registering_another_definition_names_the_difference(
    void **state) {
  (void)state;
  expect_ok(opr_register_op(&again_defs[0]));
  expect_message(opr_register_op(&again_defs[1]), OPR_ALREADY_EXISTS,
                 "Again: another op of that name is already registered "
                 "with a different definition (flags differ (none vs "
                 "stateful))");
  assert_ptr_equal(opr_find_op("Again"), &again_defs[0]);
}

/* ---- no NULL reaches a %s ---- */

static opr_op_state loose_state[4];
static const opr_arg_def loose_in = {"x", OPR_DT_INT32, OPR_NO_ATTR,
                                     OPR_NO_ATTR, OPR_NO_ATTR, false};
static const opr_arg_def unnamed_in = {NULL, OPR_DT_INT32, OPR_NO_ATTR,
                                       OPR_NO_ATTR, OPR_NO_ATTR, false};

/* A shape function that names nothing in its checks. */
static opr_status rank_two_unnamed(opr_infer_ctx *c) {
  opr_shape s;
  return opr_infer_with_rank(c, opr_infer_input(c, 0, 0), 2, NULL, &s);
}

static void unregistered_tables_are_checked_by_infer_shapes(void **state) {
  (void)state;
  const opr_shape shape = {1, (const int64_t[]){3}};
  const opr_shape_input in = {&shape, NULL, 1};
  opr_inferred_shapes out;
  const opr_op_def nameless = {.check = accept_call,
                               .state = &loose_state[0]};
  expect_message(opr_infer_shapes(&nameless, NULL, 0, NULL, 0, &out),
                 OPR_INVALID_ARGUMENT,
                 "opr_infer_shapes: the op def has no name");
  const opr_op_def unnamed_arg = {.name = "Loose", .inputs = &unnamed_in,
                                  .ninputs = 1, .check = accept_call,
                                  .state = &loose_state[1]};
  expect_message(opr_infer_shapes(&unnamed_arg, &in, 1, NULL, 0, &out),
                 OPR_INVALID_ARGUMENT, "Loose: an input has no name");
  const opr_op_def unnamed_what = {
      .name = "Loose", .inputs = &loose_in, .ninputs = 1,
      .check = accept_call, .shape_fn = rank_two_unnamed,
      .state = &loose_state[2]};
  expect_message(opr_infer_shapes(&unnamed_what, &in, 1, NULL, 0, &out),
                 OPR_INVALID_ARGUMENT,
                 "Loose: the shape must have rank 2, but has shape [3]");
}

static void an_unregistered_nameless_op_is_named_so(void **state) {
  (void)state;
  const opr_op_def nameless = {.check = accept_call,
                               .state = &loose_state[3]};
  opr_call call = {.op = &nameless};
  expect_message(opr_invoke(ctx, &call), OPR_FAILED_PRECONDITION,
                 "(unnamed op): op is not registered (call its register "
                 "function first)");
}

static void null_strings_in_attr_tables_are_refused(void **state) {
  (void)state;
  static const opr_str allowed[2] = {{"a", 1}, {NULL, 3}};
  static const opr_attr_def attr = {
      .name = "mode", .type = {OPR_ATTR_STRING, false},
      .allowed_strings = allowed, .nallowed_strings = 2};
  static opr_op_state st;
  static const opr_op_def def = {.name = "NullAllowed", .attrs = &attr,
                                 .nattrs = 1, .check = accept_call,
                                 .state = &st};
  expect_message(opr_register_op(&def), OPR_INVALID_ARGUMENT,
                 "NullAllowed: attr 'mode' has a NULL allowed string");
  assert_null(opr_find_op("NullAllowed"));
}

static void bad_arguments_are_invalid(void **state) {
  (void)state;
  expect_code(opr_load_library(NULL, NULL), OPR_INVALID_ARGUMENT,
              "the path is NULL");
  expect_code(opr_load_library("", NULL), OPR_INVALID_ARGUMENT,
              "the path is empty");
}

static int setup(void **state) {
  (void)state;
  opr_status s = opgen_shipped_register();
  if (!s) s = opr_context_new(NULL, &ctx);
  if (s) opr_status_free(s);
  return s ? -1 : 0;
}

static int teardown(void **state) {
  (void)state;
  opr_context_free(ctx);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(loads_and_runs_the_guide_zero_out),
      cmocka_unit_test(the_library_kernel_is_listed),
      cmocka_unit_test(loading_twice_is_already_exists),
      cmocka_unit_test(a_missing_file_is_not_found),
      cmocka_unit_test(a_file_that_is_no_library_is_invalid),
      cmocka_unit_test(a_path_to_no_regular_file_is_refused),
      cmocka_unit_test(another_abi_version_fails_precondition),
      cmocka_unit_test(another_hash_is_data_loss),
      cmocka_unit_test(a_conflicting_op_aborts_the_load),
      cmocka_unit_test(a_refused_abi_drops_what_constructors_registered),
      cmocka_unit_test(a_refused_hash_drops_what_constructors_registered),
      cmocka_unit_test(a_constructor_conflict_aborts_and_drops_it_all),
      cmocka_unit_test(a_kernel_of_an_unknown_op_refuses_the_load),
      cmocka_unit_test(constructor_registrations_commit_with_the_load),
      cmocka_unit_test(loading_from_a_registration_fails_at_once),
      cmocka_unit_test(a_library_without_ops_loads),
      cmocka_unit_test(two_definitions_of_one_op_are_refused),
      cmocka_unit_test(hashing_two_definitions_of_one_op_fails),
      cmocka_unit_test(a_conflict_names_the_first_difference),
      cmocka_unit_test(registering_another_definition_names_the_difference),
      cmocka_unit_test(unregistered_tables_are_checked_by_infer_shapes),
      cmocka_unit_test(an_unregistered_nameless_op_is_named_so),
      cmocka_unit_test(null_strings_in_attr_tables_are_refused),
      cmocka_unit_test(an_identical_op_is_shared),
      cmocka_unit_test(bad_arguments_are_invalid),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
