/* test_shape_v2's driver: compiled with the code opgen generates for a
 * test spec (package v2), it runs cases read from stdin, one a line, and
 * prints one line per case:
 *
 *   Op: inputs | attrs      ->   [2,3];?       (the output shapes)
 *                                error: Op: message
 *
 * inputs: arguments separated by ';', the tensors of a list input by ','
 * (an empty argument: no tensors); a tensor is `?` or `[2,?]`, followed
 * optionally by int32 values `{1,2}` and their own shape `@[1,2]` (by
 * default the tensor's shape, or 1-D). attrs: `name=value` separated by
 * spaces: 3 (int), true/false (bool), [1,-1] (list(int)), s[2,?] (shape),
 * 'SAME' (string), @int32 (type). */
#include "v2_ops.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ARGS = 6, TENSORS = 8, DIMS = 8, VALUES = 64, ATTRS = 8 };

typedef struct dims {
  int64_t d[DIMS];
  opr_shape s;
} dims;

static struct {
  dims shapes[ARGS][TENSORS];
  opr_shape given[ARGS][TENSORS];
  const opr_tensor *values[ARGS][TENSORS];
  opr_tensor *owned[ARGS * TENSORS];
  size_t nowned;
  opr_shape_input inputs[ARGS];
  size_t nargs;
  opr_named_attr attrs[ATTRS];
  int64_t ints[ATTRS][DIMS];
  dims attr_shapes[ATTRS];
  char strings[ATTRS][32];
  size_t nattrs;
} in;

static void spaces(const char **p) {
  while (isspace((unsigned char)**p)) (*p)++;
}

/* "?" or "[d,...]". */
static void parse_dims(const char **p, dims *out) {
  spaces(p);
  out->s.dims = out->d;
  out->s.rank = 0;
  if (**p == '?') {
    (*p)++;
    out->s.rank = OPR_UNKNOWN_RANK;
    return;
  }
  (*p)++; /* '[' */
  for (spaces(p); **p != ']'; spaces(p)) {
    if (**p == ',') (*p)++;
    spaces(p);
    if (**p == '?') {
      out->d[out->s.rank++] = OPR_UNKNOWN_DIM;
      (*p)++;
    } else {
      char *end;
      out->d[out->s.rank++] = strtoll(*p, &end, 10);
      *p = end;
    }
  }
  (*p)++;
}

/* "{1,2}" and an optional "@[shape]". */
static opr_tensor *parse_values(const char **p, opr_shape given) {
  int32_t v[VALUES];
  int64_t n = 0;
  for ((*p)++; **p != '}';) {
    char *end;
    v[n++] = (int32_t)strtol(*p, &end, 10);
    *p = end;
    spaces(p);
    if (**p == ',') (*p)++;
  }
  (*p)++;
  dims shape = {{0}, {1, NULL}};
  shape.d[0] = n;
  shape.s.dims = shape.d;
  if (**p == '@') {
    (*p)++;
    parse_dims(p, &shape);
  } else if (given.rank >= 0) {
    shape.s = given;
  }
  opr_tensor *t = NULL;
  opr_status s = opr_tensor_from_data(OPR_DT_INT32, shape.s.rank, shape.s.dims,
                                      v, (size_t)n * sizeof *v, &t);
  if (s) {
    printf("bad values: %s\n", opr_status_message(s));
    exit(2);
  }
  return t;
}

static void parse_inputs(const char *p) {
  spaces(&p);
  if (*p == '|' || !*p) return;
  for (;;) {
    size_t arg = in.nargs++, n = 0;
    bool values = false;
    for (spaces(&p); *p && *p != ';' && *p != '|'; spaces(&p)) {
      parse_dims(&p, &in.shapes[arg][n]);
      in.given[arg][n] = in.shapes[arg][n].s;
      in.values[arg][n] = NULL;
      if (*p == '{') {
        opr_tensor *t = parse_values(&p, in.given[arg][n]);
        in.values[arg][n] = in.owned[in.nowned++] = t;
        values = true;
      }
      n++;
      spaces(&p);
      if (*p == ',') p++;
    }
    in.inputs[arg] = (opr_shape_input){in.given[arg],
                                       values ? in.values[arg] : NULL, n};
    if (*p != ';') return;
    p++;
  }
}

static opr_attr_value attr_value(size_t i, const char *v) {
  opr_attr_value a;
  memset(&a, 0, sizeof a);
  if (*v == '[') { /* list(int) */
    size_t n = 0;
    for (v++; *v != ']';) {
      char *end;
      in.ints[i][n++] = strtoll(v, &end, 10);
      v = end;
      if (*v == ',') v++;
    }
    return opr_attr_list(OPR_ATTR_INT, in.ints[i], n);
  }
  if (*v == 's') { /* shape */
    v++;
    parse_dims(&v, &in.attr_shapes[i]);
    a.kind = OPR_ATTR_SHAPE;
    a.u.shape = in.attr_shapes[i].s;
  } else if (*v == '\'') {
    size_t n = strcspn(v + 1, "'");
    memcpy(in.strings[i], v + 1, n);
    in.strings[i][n] = 0;
    a = opr_attr_cstring(OPR_ATTR_STRING, in.strings[i]);
  } else if (*v == '@') {
    a.kind = OPR_ATTR_TYPE;
    a.u.type = !strncmp(v + 1, "int64", 5)   ? OPR_DT_INT64
               : !strncmp(v + 1, "int32", 5) ? OPR_DT_INT32
                                             : OPR_DT_FLOAT;
  } else if (!strncmp(v, "true", 4) || !strncmp(v, "false", 5)) {
    a.kind = OPR_ATTR_BOOL;
    a.u.b = *v == 't';
  } else {
    a.kind = OPR_ATTR_INT;
    a.u.i = strtoll(v, NULL, 10);
  }
  return a;
}

/* "name=value ..." after the '|'. */
static void parse_attrs(const char *p) {
  static char names[ATTRS][32];
  while (*p) {
    spaces(&p);
    if (!*p) break;
    size_t i = in.nattrs++, n = strcspn(p, "=");
    memcpy(names[i], p, n);
    names[i][n] = 0;
    p += n + 1;
    in.attrs[i].name = names[i];
    in.attrs[i].value = attr_value(i, p);
    p += strcspn(p, " ");
  }
}

static void print_shape(opr_shape s) {
  if (s.rank < 0) {
    printf("?");
    return;
  }
  printf("[");
  for (int i = 0; i < s.rank; i++) {
    if (i) printf(",");
    if (s.dims[i] < 0) printf("?");
    else printf("%lld", (long long)s.dims[i]);
  }
  printf("]");
}

static void run_case(char *line) {
  memset(&in, 0, sizeof in);
  char *colon = strchr(line, ':');
  if (!colon) return;
  *colon = 0;
  char *bar = strchr(colon + 1, '|');
  parse_inputs(colon + 1);
  if (bar) parse_attrs(bar + 1);
  opr_inferred_shapes out = {NULL, 0};
  opr_status s = opr_infer_shapes_by_name(line, in.inputs, in.nargs, in.attrs,
                                          in.nattrs, &out);
  if (s) {
    printf("error: %s\n", opr_status_message(s));
    opr_status_free(s);
  } else {
    for (size_t i = 0; i < out.count; i++) {
      if (i) printf(";");
      print_shape(out.shapes[i]);
    }
    printf("\n");
    opr_inferred_shapes_free(&out);
  }
  for (size_t i = 0; i < in.nowned; i++) opr_tensor_unref(in.owned[i]);
}

int main(void) {
  opr_status s = v2_register_ops();
  if (s) {
    printf("register: %s\n", opr_status_message(s));
    return 1;
  }
  char line[1024];
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = 0;
    if (*line) run_case(line);
  }
  return 0;
}
