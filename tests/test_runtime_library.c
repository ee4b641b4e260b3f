/* The op definition hash that op libraries declare and the loader checks
 * (opr_op_def_hash, opr_op_defs_hash), and the collection of a library's
 * ops without registering them (opr_library_hash_ops). Loading real
 * libraries is tests/oplib/. */
#include "testutil.h"

#include "opr/opr.h"

#include <string.h>

enum { NO = OPR_NO_ATTR };

static opr_status check_nothing(opr_call *call) {
  (void)call;
  return OPR_OK;
}

/* A ZeroOut-like op: attr T (float or int32, default int32), attr
 * preserve_index (int >= 0), input to_zero: T, output zeroed: T. */
static const opr_attr_value default_int32 = {.kind = OPR_ATTR_TYPE,
                                             .u.type = OPR_DT_INT32};
static const opr_attr_value default_float = {.kind = OPR_ATTR_TYPE,
                                             .u.type = OPR_DT_FLOAT};
#define ZERO_OUT_ATTRS(default_T)                                           \
  {                                                                         \
    {.name = "T", .type = {OPR_ATTR_TYPE, false},                           \
     .allowed_types = OPR_DTYPE_BIT(OPR_DT_FLOAT) |                         \
                      OPR_DTYPE_BIT(OPR_DT_INT32),                          \
     .default_value = default_T, .inferred = true},                         \
    {.name = "preserve_index", .type = {OPR_ATTR_INT, false},               \
     .has_minimum = true, .minimum = 0},                                    \
  }
static const opr_attr_def attrs_a[] = ZERO_OUT_ATTRS(&default_int32);
static const opr_attr_def attrs_b[] = ZERO_OUT_ATTRS(&default_float);
static const opr_arg_def in_arg[] = {{"to_zero", 0, 0, NO, NO, false}};
static const opr_arg_def out_arg[] = {{"zeroed", 0, 0, NO, NO, false}};
static const opr_arg_def out_renamed[] = {{"out", 0, 0, NO, NO, false}};

static opr_op_state st_a, st_doc, st_default, st_output, st_other;
#define OP(NAME, SUMMARY, ATTRS, OUTS, STATE)                               \
  {.name = NAME, .summary = SUMMARY, .inputs = in_arg, .ninputs = 1,        \
   .outputs = OUTS, .noutputs = 1, .attrs = ATTRS, .nattrs = 2,             \
   .check = check_nothing, .state = &STATE}
static const opr_op_def op_a =
    OP("HashZeroOut", "Zeroes.", attrs_a, out_arg, st_a);
static const opr_op_def op_doc =
    OP("HashZeroOut", "Other docs.", attrs_a, out_arg, st_doc);
static const opr_op_def op_default =
    OP("HashZeroOut", "Zeroes.", attrs_b, out_arg, st_default);
static const opr_op_def op_output =
    OP("HashZeroOut", "Zeroes.", attrs_a, out_renamed, st_output);
static const opr_op_def op_other =
    OP("HashOther", "Zeroes.", attrs_a, out_arg, st_other);

static void equal_definitions_hash_equal_whatever_the_docs(void **state) {
  (void)state;
  assert_true(opr_op_def_hash(&op_a) == opr_op_def_hash(&op_a));
  assert_true(opr_op_def_hash(&op_a) == opr_op_def_hash(&op_doc));
}

static void a_changed_default_or_argument_changes_the_hash(void **state) {
  (void)state;
  assert_true(opr_op_def_hash(&op_a) != opr_op_def_hash(&op_default));
  assert_true(opr_op_def_hash(&op_a) != opr_op_def_hash(&op_output));
  assert_true(opr_op_def_hash(&op_a) != opr_op_def_hash(&op_other));
}

static void a_set_hashes_the_same_in_any_order(void **state) {
  (void)state;
  const opr_op_def *ab[2] = {&op_a, &op_other}, *ba[2] = {&op_other, &op_a};
  assert_true(opr_op_defs_hash(ab, 2) == opr_op_defs_hash(ba, 2));
  assert_true(opr_op_defs_hash(ab, 2) != opr_op_defs_hash(ab, 1));
  assert_true(opr_op_defs_hash(ab, 1) != opr_op_defs_hash(NULL, 0));
}

static opr_status register_two(void) {
  opr_status s = opr_register_op(&op_a);
  if (!s) s = opr_register_op(&op_other);
  if (!s) s = opr_register_op(&op_a); /* twice: counted once */
  return s;
}

static void hashing_a_library_registers_nothing(void **state) {
  (void)state;
  uint64_t hash = 0;
  assert_null(opr_library_hash_ops(register_two, &hash));
  const opr_op_def *both[2] = {&op_a, &op_other};
  assert_true(hash == opr_op_defs_hash(both, 2));
  assert_null(opr_find_op("HashZeroOut"));
  assert_null(opr_find_op("HashOther"));
  /* Outside the collection, registration works as usual. */
  assert_null(register_two());
  assert_ptr_equal(opr_find_op("HashZeroOut"), &op_a);
}

static opr_status register_a_bad_table(void) {
  static opr_op_state st;
  static const opr_op_def nameless = {.check = check_nothing, .state = &st};
  return opr_register_op(&nameless);
}

static void a_bad_table_fails_the_collection(void **state) {
  (void)state;
  uint64_t hash = 0;
  opr_status s = opr_library_hash_ops(register_a_bad_table, &hash);
  assert_int_equal(opr_status_code(s), OPR_INVALID_ARGUMENT);
  opr_status_free(s);
  s = opr_library_hash_ops(register_two, NULL);
  assert_int_equal(opr_status_code(s), OPR_INVALID_ARGUMENT);
  opr_status_free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(equal_definitions_hash_equal_whatever_the_docs),
      cmocka_unit_test(a_changed_default_or_argument_changes_the_hash),
      cmocka_unit_test(a_set_hashes_the_same_in_any_order),
      cmocka_unit_test(hashing_a_library_registers_nothing),
      cmocka_unit_test(a_bad_table_fails_the_collection),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
