/* The writer's atomic file output: the whole file or nothing, with the
 * mode a plain fopen would give. */
#include "testutil.h"

#include "outputs.h"

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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(atomic_write_gives_whole_file_with_default_mode),
      cmocka_unit_test(atomic_write_into_missing_directory_fails_cleanly),
      cmocka_unit_test(unchanged_content_is_left_alone),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
