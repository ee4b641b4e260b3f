/* The import-tf verb: read, import, render every output in memory, and only
 * then create the directory and commit the files, all or nothing
 * (outputs.h): no partial output when the input is bad or a file cannot be
 * written. */
#include "tf_import_cli.h"

#include "ascii.h"
#include "cli_help.h"
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
#include <stdlib.h>
#include <string.h>

typedef struct opts {
  const char *input, *outdir;
  bool split;
  bool verbose; /* -v: name the ops left out */
} opts;

static int __attribute__((format(printf, 1, 2))) usage_error(const char *fmt,
                                                             ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("opgen: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\nusage: %s\n", og_cli_synopsis("import-tf"));
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
    } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
      o->verbose = true;
    } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      og_cli_print_help(stdout, "import-tf");
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

/* --split file names: an op's snake_case name, which a checked op name
 * ([A-Z][A-Za-z0-9]*) makes [a-z0-9_]+: no '/', no "..", never absolute,
 * so every file stays in the output directory. Checked again here, as the
 * one place that turns names into paths. */
static bool safe_file_name(const char *name) {
  if (!*name) return false;
  for (const char *p = name; *p; p++)
    if (!og_is_lower((unsigned char)*p) && !og_is_digit((unsigned char)*p) &&
        *p != '_')
      return false;
  return true;
}

typedef struct split_file {
  const char *name; /* snake_case, no directory, no ".op" */
  size_t op;        /* index into the model */
} split_file;

/* strcmp of the lower-case forms (ASCII: file systems that ignore case
 * fold at least ASCII). */
static int ascii_casecmp(const char *a, const char *b) {
  for (;; a++, b++) {
    int x = og_to_lower((unsigned char)*a), y = og_to_lower((unsigned char)*b);
    if (x != y || !x) return x - y;
  }
}

static int compare_files(const void *x, const void *y) {
  const split_file *a = x, *b = y;
  int c = ascii_casecmp(a->name, b->name);
  return c ? c : (a->op > b->op) - (a->op < b->op);
}

/* --split: two ops whose file names are equal, or equal ignoring case (as
 * on macOS or Windows), would share a file. Sorted, so linear after the
 * sort; reported at the later op of the model. */
static bool check_split_names(og_diag *diag, const og_model *m,
                              split_file *files) {
  for (size_t i = 0; i < m->nops; i++)
    if (!safe_file_name(files[i].name)) {
      og_diag_report(diag, OG_SEV_ERROR, m->ops[i]->pos,
                     "op '%s' has no safe file name", m->ops[i]->name);
      return false;
    }
  if (m->nops) qsort(files, m->nops, sizeof *files, compare_files);
  for (size_t i = 1; i < m->nops; i++) {
    const split_file *a = &files[i - 1], *b = &files[i];
    if (ascii_casecmp(a->name, b->name) != 0) continue;
    og_diag_report(diag, OG_SEV_ERROR, m->ops[b->op]->pos,
                   "op '%s' would be written to '%s.op', as op '%s' is",
                   m->ops[b->op]->name, b->name, m->ops[a->op]->name);
    return false;
  }
  return true;
}

/* Every output in memory; false (reported) when --split file names
 * clash. */
static bool render(og_diag *diag, const og_model *m, const opts *o,
                   og_arena *a, og_outputs *files) {
  if (!o->split) {
    const char *package = og_tf_package_name(a, o->input);
    og_emit_op_source(m, package,
                      og_outputs_add(files, join(a, o->outdir, package)));
    return true;
  }
  split_file *names = og_arena_array(a, m->nops, sizeof *names);
  for (size_t i = 0; i < m->nops; i++)
    names[i] = (split_file){og_tf_snake_case(a, m->ops[i]->name), i};
  for (size_t i = 0; i < m->nops; i++)
    og_emit_op_def(m->ops[i],
                   og_outputs_add(files, join(a, o->outdir, names[i].name)));
  return check_split_names(diag, m, names); /* sorts `names` */
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

/* `op` without any doc text. */
static og_op without_docs(og_arena *a, const og_op *op) {
  og_op copy = *op;
  copy.summary = copy.description = "";
  copy.attrs = og_arena_array(a, op->nattrs, sizeof *copy.attrs);
  copy.inputs = og_arena_array(a, op->ninputs, sizeof *copy.inputs);
  copy.outputs = og_arena_array(a, op->noutputs, sizeof *copy.outputs);
  for (size_t i = 0; i < op->nattrs; i++)
    copy.attrs[i] = op->attrs[i], copy.attrs[i].description = "";
  for (size_t i = 0; i < op->ninputs; i++)
    copy.inputs[i] = op->inputs[i], copy.inputs[i].description = "";
  for (size_t i = 0; i < op->noutputs; i++)
    copy.outputs[i] = op->outputs[i], copy.outputs[i].description = "";
  return copy;
}

/* The text read back must be this one op: anything but its docs reading
 * back differently means the text says something the OpList did not (a
 * flag, another op), so it is an error; doc text the language cannot hold
 * exactly (trailing blanks, say) is a warning. */
static void compare_back(og_diag *diag, const og_op *op, const og_model *back,
                         og_arena *a) {
  if (back->nops != 1) {
    og_diag_report(diag, OG_SEV_ERROR, op->pos,
                   "op '%s' cannot be written as .op: its text reads back as "
                   "%zu ops", op->name, back->nops);
    return;
  }
  og_op want = dedup_allowed(a, op);
  if (og_op_equal(&want, back->ops[0])) return;
  og_op want_bare = without_docs(a, &want);
  og_op back_bare = without_docs(a, back->ops[0]);
  const char *what = first_difference(a, &want, back->ops[0]);
  if (og_op_equal(&want_bare, &back_bare))
    og_diag_report(diag, OG_SEV_WARNING, op->pos,
                   "op '%s' reads back differently from its .op form: the "
                   ".op language cannot express %s exactly",
                   op->name, what);
  else
    og_diag_report(diag, OG_SEV_ERROR, op->pos,
                   "op '%s' cannot be written as .op: %s reads back "
                   "differently", op->name,
                   first_difference(a, &want_bare, &back_bare));
}

/* Compiles each op's .op text: an op the language rejects (a name
 * TensorFlow would reject too, say) is an error, and so is text that reads
 * back as anything but this op (compare_back). */
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
  if (back) compare_back(diag, op, back, a);
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
  og_model *m = og_tf_import_verbose(o->input, src->text, src->len, &diag,
                                     o->verbose);
  if (!m) {
    og_diag_print_suppressed(stderr, &diag);
    return 1;
  }
  og_arena a;
  og_arena_init(&a);
  for (size_t i = 0; i < m->nops; i++) verify_op(&diag, m->ops[i], &a);
  og_outputs files;
  og_outputs_init(&files);
  bool rendered = !diag.errors && render(&diag, m, o, &a, &files);
  int rc = rendered ? write_all(o, &files) : 1;
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
