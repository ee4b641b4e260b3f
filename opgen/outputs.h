/* A set of output files rendered in memory and committed all or nothing:
 * the directory is created, every file is written to a temporary beside
 * its target, and only when all of them are written are they renamed into
 * place. A file whose content is unchanged is left alone (its timestamp
 * too, so builds do not redo work). */
#ifndef OPGEN_OUTPUTS_H
#define OPGEN_OUTPUTS_H

#include "writer.h"

#include <stdbool.h>
#include <stddef.h>

/* Whether an output's file already holds its content: found by
 * og_output_compare (which the renders call, a file on the thread that
 * completed it), else by the commit. */
typedef enum og_output_same {
  OG_SAME_UNKNOWN, /* not compared yet */
  OG_SAME_YES,
  OG_SAME_NO,
} og_output_same;

/* A file's content is w, then `more` (empty but where a second thread
 * rendered the file's later part: appending it would copy megabytes). */
typedef struct og_output {
  char *path;
  og_writer w, more;
  og_output_same same;
} og_output;

typedef struct og_outputs {
  og_output *items;
  size_t count, cap;
} og_outputs;

void og_outputs_init(og_outputs *o);
void og_outputs_free(og_outputs *o);
/* A new, empty file to render into; the path is copied. */
og_writer *og_outputs_add(og_outputs *o, const char *path);
/* The first path given twice, or NULL. */
const char *og_outputs_duplicate(const og_outputs *o);

/* Compares o's content with the file at o->path (read), setting o->same, so
 * that the commit writes only what differs. Only a regular file is
 * read: anything else is left to og_outputs_commit, which fails on it.
 * Outputs distinct from those of other threads may be compared at the
 * same time. */
void og_output_compare(og_output *o);

/* mkdir -p `dir`, then writes every file. Every existing target must be a
 * regular file (checked before anything is written). A file compared
 * as the same (og_output_compare) is not compared again. Renames happen all
 * or not at all: each replaced target is kept under a backup name until
 * every rename succeeded, and put back when one fails. On failure returns
 * false, sets *failed_path (one of the paths, or dir when it cannot be
 * created) and errno (og_output_problem says it in words), and leaves no
 * temporary file, no changed target and no directory it created behind;
 * a signal (outputs_guard.h) leaves no temporary and no changed target
 * either. */
bool og_outputs_commit(const og_outputs *o, const char *dir,
                       const char **failed_path);

/* One file written the same way: a temporary beside `path`, flushed, then
 * renamed over it. On failure returns false with errno set and leaves
 * `path` untouched. */
bool og_write_file_atomic(const char *path, const char *data, size_t len);

/* dump -o: /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N are
 * written to that descriptor; a FIFO or a character device (/dev/null)
 * directly (without waiting for a FIFO's reader: ENXIO when none);
 * anything else as og_write_file_atomic. */
bool og_write_output_file(const char *path, const char *data, size_t len);

/* Why writing `path` failed with errno `err`: what the target is when it
 * is not a regular file ("Is a directory", "Not a regular file (a
 * FIFO)"), else strerror(err). */
const char *og_output_problem(const char *path, int err);

/* mkdir -p; false with errno set on failure (ENOTDIR if a component is a
 * file). */
bool og_make_dirs(const char *path);

#endif
