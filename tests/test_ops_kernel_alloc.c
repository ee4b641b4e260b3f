/* opr_kernel_alloc_output for a kernel that allocates its own output
 * (the runtime preallocated none): a small host output comes from this
 * thread's cache without a call, larger ones from the general path, and
 * the errors (twice, no such output, a bad shape) are as they were. */
#include "opstest.h"

#include "demo_kernels.h"

/* A kernel context for Example with T = float, its output slot `out`. */
typedef struct example_call {
  opr_attr_value attrs[1];
  opr_input in[1];
  opr_output outs[1];
  opr_call call;
  opr_kernel_ctx k;
  opr_tensor *x, *out;
} example_call;

static void example_call_init(example_call *e, opr_device_kind device) {
  *e = (example_call){0};
  assert_null(opr_tensor_new(OPR_DT_FLOAT, 0, NULL, &e->x));
  e->attrs[0] = (opr_attr_value){.kind = OPR_ATTR_TYPE,
                                 .u.type = OPR_DT_FLOAT};
  e->in[0] = (opr_input){(const opr_tensor *const *)&e->x, 1};
  e->outs[0] = (opr_output){&e->out, 1};
  e->call = (opr_call){.op = &demo_example_def, .inputs = e->in,
                       .attrs = e->attrs, .outputs = e->outs};
  e->k = (opr_kernel_ctx){.ctx = ctx, .call = &e->call, .device = device};
}

static void example_call_free(example_call *e) {
  opr_tensor_unref(e->out);
  opr_tensor_unref(e->x);
}

static void a_small_output_has_the_dtype_and_shape_asked_for(void **state) {
  (void)state;
  example_call e;
  example_call_init(&e, OPR_DEVICE_CPU);
  const int64_t dims[2] = {2, 3};
  opr_tensor *t = NULL;
  assert_null(opr_kernel_alloc_output(&e.k, 0, 0, 2, dims, &t));
  assert_ptr_equal(t, e.out);
  assert_int_equal(t->dtype, OPR_DT_FLOAT);
  assert_int_equal(t->rank, 2);
  assert_memory_equal(t->dims, dims, sizeof dims);
  assert_int_equal(t->num_elements, 6);
  assert_int_equal(t->nbytes, 24);
  assert_int_equal(t->device, OPR_DEVICE_CPU);
  assert_int_equal(((char *)t->data - (char *)t) % 16, 0);
  example_call_free(&e);
}

static void a_large_output_takes_the_general_path(void **state) {
  (void)state;
  example_call e;
  example_call_init(&e, OPR_DEVICE_CPU);
  const int64_t dims[1] = {100000};
  assert_null(opr_kernel_alloc_output(&e.k, 0, 0, 1, dims, NULL));
  assert_non_null(e.out);
  assert_int_equal(e.out->nbytes, 400000);
  example_call_free(&e);
}

static void allocating_twice_is_an_internal_error(void **state) {
  (void)state;
  example_call e;
  example_call_init(&e, OPR_DEVICE_CPU);
  assert_null(opr_kernel_alloc_output(&e.k, 0, 0, 0, NULL, NULL));
  expect_status(opr_kernel_alloc_output(&e.k, 0, 0, 0, NULL, NULL),
                OPR_INTERNAL, "Example: the kernel allocates output "
                "'input_times_two' element 0 twice");
  example_call_free(&e);
}

static void an_output_the_op_does_not_have_is_an_internal_error(
    void **state) {
  (void)state;
  example_call e;
  example_call_init(&e, OPR_DEVICE_CPU);
  expect_status(opr_kernel_alloc_output(&e.k, 1, 0, 0, NULL, NULL),
                OPR_INTERNAL, "Example: the kernel allocates output 1 "
                "element 0, which the op does not have");
  expect_status(opr_kernel_alloc_output(&e.k, 0, 1, 0, NULL, NULL),
                OPR_INTERNAL, "Example: the kernel allocates output 0 "
                "element 1, which the op does not have");
  assert_null(e.out);
  example_call_free(&e);
}

static void a_bad_shape_names_the_output(void **state) {
  (void)state;
  example_call e;
  example_call_init(&e, OPR_DEVICE_CPU);
  const int64_t dims[2] = {2, -1};
  expect_status(opr_kernel_alloc_output(&e.k, 0, 0, 2, dims, NULL),
                OPR_INVALID_ARGUMENT, "Example: output 'input_times_two': "
                "dim 1 is -1; dims must be >= 0");
  expect_status(opr_kernel_alloc_output(&e.k, 0, 0, 1, NULL, NULL),
                OPR_INVALID_ARGUMENT, "Example: output 'input_times_two': "
                "dims is NULL for rank 1");
  assert_null(e.out);
  example_call_free(&e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_small_output_has_the_dtype_and_shape_asked_for),
      cmocka_unit_test(a_large_output_takes_the_general_path),
      cmocka_unit_test(allocating_twice_is_an_internal_error),
      cmocka_unit_test(an_output_the_op_does_not_have_is_an_internal_error),
      cmocka_unit_test(a_bad_shape_names_the_output),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
