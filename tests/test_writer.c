/* The writer's atomic file output: the whole file or nothing, with the
 * mode a plain fopen would give; an output in two parts; an output's
 * buffer reserved from the page region, grown past its reservation. */
#include "testutil.h"

#include "outputs.h"
#include "writer.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A fresh directory for one test; removed with everything in it. */
typedef struct scratch {
  char dir[64];
} scratch;

static void scratch_make(scratch *s) {
  snprintf(s->dir, sizeof s->dir, "/tmp/opgen_writer_XXXXXX");
  assert_non_null(mkdtemp(s->dir));
}

/* Names in the directory other than "." and ".."; the first in *first. */
static size_t scratch_count(const scratch *s, char first[256]) {
  DIR *d = opendir(s->dir);
  assert_non_null(d);
  size_t n = 0;
  first[0] = '\0';
  for (struct dirent *e; (e = readdir(d));) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (!n++) snprintf(first, 256, "%s", e->d_name);
  }
  closedir(d);
  return n;
}

static void scratch_remove(scratch *s) {
  DIR *d = opendir(s->dir);
  assert_non_null(d);
  char path[512];
  for (struct dirent *e; (e = readdir(d));) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    snprintf(path, sizeof path, "%s/%s", s->dir, e->d_name);
    unlink(path);
  }
  closedir(d);
  rmdir(s->dir);
}

static void expect_contents(const char *path, const char *want) {
  size_t len;
  char *got = tu_read_file(path, &len);
  assert_non_null(got);
  assert_int_equal(len, strlen(want));
  assert_memory_equal(got, want, len);
  free(got);
}

static void atomic_write_gives_whole_file_with_default_mode(void **state) {
  (void)state;
  scratch s;
  scratch_make(&s);
  char path[128], name[256];
  snprintf(path, sizeof path, "%s/out.json", s.dir);
  mode_t mask = umask(022);
  bool ok = og_write_file_atomic(path, "{}\n", 3);
  umask(mask);
  assert_true(ok);
  expect_contents(path, "{}\n");
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_mode & 0777, 0644);
  assert_int_equal(scratch_count(&s, name), 1); /* no temporary left */
  assert_string_equal(name, "out.json");
  scratch_remove(&s);
}

static void atomic_write_into_missing_directory_fails_cleanly(void **state) {
  (void)state;
  scratch s;
  scratch_make(&s);
  char path[128], name[256];
  snprintf(path, sizeof path, "%s/no/such/dir/out.json", s.dir);
  errno = 0;
  assert_false(og_write_file_atomic(path, "x", 1));
  assert_int_equal(errno, ENOENT);
  assert_int_equal(scratch_count(&s, name), 0);
  scratch_remove(&s);
}

/* A target that already holds the bytes is left alone (same inode, so
 * its timestamp too); one that differs, in size or only in content, is
 * replaced (a new inode: renamed over), empty files included. */
static void unchanged_content_is_left_alone(void **state) {
  (void)state;
  scratch s;
  scratch_make(&s);
  char path[128];
  snprintf(path, sizeof path, "%s/out.c", s.dir);
  static const struct {
    const char *text;
    bool replaced;
  } steps[] = {{"int x;\n", true},  {"int x;\n", false}, {"int y;\n", true},
               {"int yy;\n", true}, {"", true},           {"", false},
               {"int x;\n", true}};
  enum { NSTEPS = sizeof steps / sizeof *steps };
  ino_t last = 0;
  int held[NSTEPS];
  for (size_t i = 0; i < NSTEPS; i++) {
    assert_true(
        og_write_file_atomic(path, steps[i].text, strlen(steps[i].text)));
    expect_contents(path, steps[i].text);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_ino != last, steps[i].replaced);
    last = st.st_ino;
    /* Held open, a replaced inode's number cannot come back. */
    held[i] = open(path, O_RDONLY);
    assert_true(held[i] >= 0);
  }
  for (size_t i = 0; i < NSTEPS; i++) close(held[i]);
  scratch_remove(&s);
}

/* Setting the mode used to be chained into the rename: when it failed,
 * the file was never renamed into place, the temporary stayed behind,
 * and the call still reported success. */

/* An output rendered in two parts (og_output.more) is written as one
 * file, and compared as one: unchanged, it is left alone. */
static void output_in_two_parts_is_one_file(void **state) {
  (void)state;
  scratch s;
  scratch_make(&s);
  og_outputs out;
  og_outputs_init(&out);
  char path[128];
  snprintf(path, sizeof path, "%s/two.c", s.dir);
  og_outputs_add(&out, path);
  og_w_puts(&out.items[0].w, "first half\n");
  og_w_puts(&out.items[0].more, "second half\n");
  const char *failed;
  assert_true(og_outputs_commit(&out, s.dir, &failed));
  size_t len;
  char *text = tu_read_file(path, &len);
  assert_string_equal(text, "first half\nsecond half\n");
  free(text);
  og_output_compare(&out.items[0]);
  assert_int_equal(out.items[0].same, OG_SAME_YES);
  out.items[0].more.buf[0] = 'S'; /* the same size, another byte */
  og_output_compare(&out.items[0]);
  assert_int_equal(out.items[0].same, OG_SAME_NO);
  og_outputs_free(&out);
  scratch_remove(&s);
}

/* og_w_reserve takes an output's megabytes from og_pages; written past
 * them, the buffer grows by a copy (realloc cannot move it). */
static void reserved_buffer_grows_past_its_reservation(void **state) {
  (void)state;
  og_writer w;
  og_writer_init(&w);
  og_w_reserve(&w, 1u << 20);
  char line[64];
  for (int i = 0; i < 100000; i++) {
    int n = snprintf(line, sizeof line, "line %d of a long output\n", i);
    og_w_write(&w, line, (size_t)n);
  }
  assert_true(w.len > 2u << 20);
  assert_int_equal(strlen(w.buf), w.len);
  assert_memory_equal(w.buf, "line 0 of a long output\nline 1 ", 31);
  assert_non_null(strstr(w.buf, "\nline 99999 of a long output\n"));
  og_writer_free(&w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(atomic_write_gives_whole_file_with_default_mode),
      cmocka_unit_test(atomic_write_into_missing_directory_fails_cleanly),
      cmocka_unit_test(unchanged_content_is_left_alone),
      cmocka_unit_test(output_in_two_parts_is_one_file),
      cmocka_unit_test(reserved_buffer_grows_past_its_reservation),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
