/* TensorFlow's shape test cases (corpus tf-tests/shape_cases.json; format
 * in the corpus README) mapped onto an opr_op_def for opr_infer_shapes,
 * and their expected outputs compared with what inference gives. Used by
 * tests/test_shape_conformance.c; the Python reference evaluator
 * (tests/shape/ref/case_map.py) maps cases the same way. */
#ifndef OPGEN_SHAPE_CONFORMANCE_CASES_H
#define OPGEN_SHAPE_CONFORMANCE_CASES_H

#include "arena.h"
#include "json.h"

#include "opr/attr.h"
#include "opr/op.h"
#include "opr/shape.h"

#include <stdbool.h>
#include <stddef.h>

/* One case as opr_infer_shapes takes it. Memory: the arena (shapes,
 * attrs) and `values` (tensors, released by sc_case_free). */
typedef struct sc_case {
  opr_shape *flat; /* the case's input shapes, flat as TensorFlow lists */
  size_t nflat;
  opr_shape_input *inputs; /* [op->ninputs] */
  opr_named_attr *attrs;
  size_t nattrs;
  opr_tensor **values; /* [nflat], NULL where not known */
} sc_case;

/* Parses "[2,?]" or "?" into *out (dims in the arena); false when the
 * text is not a shape. */
bool sc_parse_shape(og_arena *a, const char *text, size_t len,
                    opr_shape *out);

/* Builds the call for case `j` of op `op`. On failure (a case the
 * mapping cannot express) returns false with a reason in *why. */
bool sc_case_build(og_arena *a, const opr_op_def *op, const og_json *j,
                   sc_case *out, const char **why);
void sc_case_free(sc_case *c);

/* Whether the shapes `got` (one per output tensor) meet the case's
 * `outputs` text: `in0`, `?`, `[d0_1,?,3]`, alternatives `a|b`, outputs
 * separated by ';'. A relation (d0_1, in0) is met by the same value,
 * known or unknown. */
bool sc_outputs_agree(const char *expected, const opr_shape *got,
                      size_t ngot, const opr_shape *flat, size_t nflat);

/* "[2,?]" / "?" into buf. */
const char *sc_shape_text(opr_shape s, char *buf, size_t n);

/* The case's attrs as compact text (`name=value ...`), for messages. */
const char *sc_attrs_text(og_arena *a, const og_json *attrs);

#endif
