/* The import-tf verb: read, import, render every output in memory, and only
 * then create the directory and commit the files, all or nothing
 * (outputs.h): no partial output when the input is bad or a file cannot be
 * written. */
#include "tf_import_cli.h"

#include "cli_limits.h"
#include "compile.h"
#include "diag.h"
#include "emit_op.h"
#include "outputs.h"
#include "source.h"
#include "tf_import.h"
#include "writer.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define USAGE                                                        \
  "usage: opgen import-tf " OG_CLI_MAX_ERRORS_USAGE                  \
  "OPS.pbtxt -o DIR [--split]\n"

typedef struct opts {
  const char *input, *outdir;
  bool split;
} opts;

static int __attribute__((format(printf, 1, 2))) usage_error(const char *fmt,
                                                             ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("opgen: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputs("\n" USAGE, stderr);
  va_end(ap);
  return 2;
}

static int io_error(const char *what, const char *path, int err) {
  fprintf(stderr, "opgen: error: cannot %s '%s': %s\n", what, path,
          strerror(err));
  return 2;
}

/* 0: run; 2: usage error (reported); -1: --help (printed). */
static int parse_args(int argc, char **argv, opts *o) {
  bool only_files = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *dir = NULL;
    if (only_files || a[0] != '-' || a[1] == '\0') {
      if (o->input)
        return usage_error("more than one input file ('%s' and '%s')",
                           o->input, a);
      o->input = a;
    } else if (strcmp(a, "--") == 0) {
      only_files = true;
    } else if (og_cli_is_max_errors(a)) {
      if (!og_cli_take_max_errors(a))
        return usage_error("option '%s' needs a count: --max-errors=N "
                           "(0: no limit)", a);
    } else if (strcmp(a, "--split") == 0) {
      o->split = true;
    } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(USAGE, stdout);
      return -1;
    } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
      if (i + 1 == argc) return usage_error("option '%s' needs a directory", a);
      dir = argv[++i];
    } else if (strncmp(a, "-o", 2) == 0) {
      dir = a + 2;
    } else if (strncmp(a, "--output=", 9) == 0) {
      dir = a + 9;
    } else {
      return usage_error("unknown option '%s'", a);
    }
    if (dir && o->outdir)
      return usage_error("more than one output directory ('%s' and '%s')",
                         o->outdir, dir);
    if (dir && !*dir) return usage_error("empty output directory name");
    if (dir) o->outdir = dir;
  }
  if (!o->input) return usage_error("no input file");
  if (!o->outdir) return usage_error("no output directory (-o DIR)");
  return 0;
}

static const char *join(og_arena *a, const char *dir, const char *name) {
  size_t n = strlen(dir);
  return og_arena_printf(a, "%s%s%s.op", dir,
                         n && dir[n - 1] == '/' ? "" : "/", name);
}

/* --split: two op names with the same snake_case would share a file (the
 * outputs are in model order, one per op). */
static bool check_collisions(og_diag *diag, const og_model *m,
                             const og_outputs *files) {
  for (size_t i = 0; i < m->nops; i++)
    for (size_t j = 0; j < i; j++)
      if (strcmp(files->items[i].path, files->items[j].path) == 0) {
        og_diag_report(diag, OG_SEV_ERROR, m->ops[i]->pos,
                       "op '%s' would be written to '%s', as op '%s' is",
                       m->ops[i]->name, files->items[i].path,
                       m->ops[j]->name);
        return false;
      }
  return true;
}

/* Every output in memory. */
static void render(const og_model *m, const opts *o, og_arena *a,
                   og_outputs *files) {
  if (!o->split) {
    const char *package = og_tf_package_name(a, o->input);
    og_emit_op_source(m, package,
                      og_outputs_add(files, join(a, o->outdir, package)));
    return;
  }
  for (size_t i = 0; i < m->nops; i++) {
    const char *name = og_tf_snake_case(a, m->ops[i]->name);
    og_emit_op_def(m->ops[i], og_outputs_add(files, join(a, o->outdir, name)));
  }
}

static int write_all(const opts *o, const og_outputs *files) {
  const char *failed;
  if (og_outputs_commit(files, o->outdir, &failed)) return 0;
  if (failed == o->outdir) return io_error("create directory", failed, errno);
  fprintf(stderr, "opgen: error: cannot write '%s': %s\n", failed,
          og_output_problem(failed, errno));
  return 2;
}

/* Compiler diagnostics about one op's .op text, re-reported at the op's
 * place in the pbtxt (the text itself exists only in memory). */
typedef struct relay {
  og_diag *out;
  const og_op *op;
} relay;

static void relay_sink(void *ctx, const og_diagnostic *d) {
  const relay *r = ctx;
  if (d->severity != OG_SEV_ERROR) return;
  og_diag_report(r->out, OG_SEV_ERROR, r->op->pos,
                 "op '%s' cannot be written as .op: %s", r->op->name,
                 d->message);
}

/* `op` with each allowed set reduced to its first occurrences: the .op
 * language keeps a type listed twice once, TensorFlow sometimes lists one
 * twice; that difference is no loss. */
static og_op dedup_allowed(og_arena *a, const og_op *op) {
  og_op copy = *op;
  copy.attrs = og_arena_array(a, op->nattrs, sizeof *copy.attrs);
  for (size_t i = 0; i < op->nattrs; i++) {
    og_attr *attr = &copy.attrs[i];
    *attr = op->attrs[i];
    if (!attr->allowed) continue;
    const og_value *old = attr->allowed;
    og_value *list = og_arena_alloc(a, sizeof *list);
    list->kind = OG_VAL_LIST;
    list->u.list.items =
        og_arena_array(a, old->u.list.count, sizeof *list->u.list.items);
    for (size_t k = 0; k < old->u.list.count; k++) {
      bool dup = false;
      for (size_t l = 0; l < list->u.list.count && !dup; l++)
        dup = og_value_equal(&list->u.list.items[l], &old->u.list.items[k]);
      if (!dup) list->u.list.items[list->u.list.count++] = old->u.list.items[k];
    }
    attr->allowed = list;
  }
  return copy;
}

static bool same_str(const char *x, const char *y) {
  return strcmp(x ? x : "", y ? y : "") == 0;
}

/* The first part of two unequal ops that differs, in words. */
static const char *first_difference(og_arena *a, const og_op *x,
                                    const og_op *y) {
  if (!same_str(x->summary, y->summary)) return "its summary";
  if (!same_str(x->description, y->description)) return "its description";
  if (x->nattrs != y->nattrs || x->ninputs != y->ninputs ||
      x->noutputs != y->noutputs)
    return "its signature";
  for (size_t i = 0; i < x->nattrs; i++) {
    og_op xa = {.attrs = &x->attrs[i], .nattrs = 1};
    og_op ya = {.attrs = &y->attrs[i], .nattrs = 1};
    if (!og_op_equal(&xa, &ya))
      return og_arena_printf(a, "attr '%s'", x->attrs[i].name);
  }
  for (size_t i = 0; i < x->ninputs + x->noutputs; i++) {
    bool in = i < x->ninputs;
    size_t k = in ? i : i - x->ninputs;
    og_op xa = {.inputs = in ? &x->inputs[k] : &x->outputs[k], .ninputs = 1};
    og_op ya = {.inputs = in ? &y->inputs[k] : &y->outputs[k], .ninputs = 1};
    if (!og_op_equal(&xa, &ya))
      return og_arena_printf(a, "%s '%s'", in ? "input" : "output",
                             xa.inputs->name);
  }
  return "its flags or deprecation";
}

/* Compiles each op's .op text: an op the language rejects (a name
 * TensorFlow would reject too, say) is an error; one that reads back
 * differently (a doc comment the language cannot hold) is a warning. */
static void verify_op(og_diag *diag, const og_op *op, og_arena *a) {
  og_writer w;
  og_writer_init(&w);
  og_emit_op_def(op, &w);
  og_sources sources;
  og_sources_init(&sources);
  relay r = {diag, op};
  og_diag inner;
  og_diag_init(&inner, &sources, relay_sink, &r);
  og_model *back = og_compile_text(&sources, "import.op", w.buf, &inner);
  og_op want = dedup_allowed(a, op);
  if (back && back->nops == 1 && !og_op_equal(&want, back->ops[0]))
    og_diag_report(diag, OG_SEV_WARNING, op->pos,
                   "op '%s' reads back differently from its .op form: the "
                   ".op language cannot express %s exactly",
                   op->name, first_difference(a, &want, back->ops[0]));
  og_model_free(back);
  og_sources_free(&sources);
  og_writer_free(&w);
}

/* OpList files are UTF-8 text, as spec files are: the first bad byte is
 * an error where it is, before anything is parsed. */
static bool check_encoding(og_diag *diag, const og_sources *sources,
                           int index) {
  const og_source *src = sources->items[index];
  size_t bad = og_utf8_check(src->text, src->len);
  if (bad == (size_t)-1) return true;
  og_loc loc = {(uint32_t)index, (uint32_t)bad, (uint32_t)bad + 1};
  unsigned char byte = (unsigned char)src->text[bad];
  if (byte == 0)
    og_error_at(diag, loc, "NUL byte in OpList; OpList files are UTF-8 "
                "text");
  else
    og_error_at(diag, loc, "invalid UTF-8 byte 0x%02x; OpList files are "
                "UTF-8 text", byte);
  return false;
}

static int import_and_write(const opts *o, og_sources *sources, int index) {
  og_diag_printer printer = {stderr, sources};
  og_diag diag;
  og_cli_diag_init(&diag, sources, og_diag_print_sink, &printer);
  if (!check_encoding(&diag, sources, index)) return 1;
  const og_source *src = sources->items[index];
  og_model *m = og_tf_import(o->input, src->text, src->len, &diag);
  if (!m) {
    og_diag_print_suppressed(stderr, &diag);
    return 1;
  }
  og_arena a;
  og_arena_init(&a);
  for (size_t i = 0; i < m->nops; i++) verify_op(&diag, m->ops[i], &a);
  og_outputs files;
  og_outputs_init(&files);
  render(m, o, &a, &files);
  int rc = diag.errors || (o->split && !check_collisions(&diag, m, &files))
               ? 1
               : write_all(o, &files);
  og_diag_print_suppressed(stderr, &diag);
  og_outputs_free(&files);
  og_arena_free(&a);
  og_model_free(m);
  return rc;
}

int og_cmd_import_tf(int argc, char **argv) {
  opts o = {0};
  int rc = parse_args(argc, argv, &o);
  if (rc) return rc < 0 ? 0 : rc;
  og_sources sources;
  og_sources_init(&sources);
  int index = og_sources_load(&sources, o.input);
  if (index < 0) rc = io_error("read", o.input, errno);
  else rc = import_and_write(&o, &sources, index);
  og_sources_free(&sources);
  return rc;
}
