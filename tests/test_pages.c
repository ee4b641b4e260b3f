/* The page region (opgen/pages.c): which freed buffer a request gets,
 * and the bounds of a prefault. Each prefault test runs in a child of
 * its own: a process prefaults once. */
#include "../opgen/pages.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

enum { MIB = 1 << 20 };

static void a_freed_buffer_serves_a_request_of_its_size(void **state) {
  (void)state;
  char *p = og_pages_alloc(MIB);
  bool owned = og_pages_owns(p);
  og_pages_free(p, MIB);
  if (!owned) skip(); /* sanitizers: malloc */
  char *q = og_pages_alloc(MIB - 4096);
  assert_ptr_equal(q, p);
  og_pages_free(q, MIB - 4096);
}

/* Its caller would free it with the small size: the rest lost for good. */
static void a_far_larger_freed_buffer_is_kept_for_a_larger_request(
    void **state) {
  (void)state;
  char *big = og_pages_alloc(4 * MIB);
  bool owned = og_pages_owns(big);
  og_pages_free(big, 4 * MIB);
  if (!owned) skip();
  char *small = og_pages_alloc(64 * 1024);
  assert_ptr_not_equal(small, big);
  char *again = og_pages_alloc(3 * MIB);
  assert_ptr_equal(again, big);
  og_pages_free(small, 64 * 1024);
  og_pages_free(again, 3 * MIB);
}

/* Resident memory in KiB, from /proc/self/statm (pages). */
static long resident_kib(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long size = 0, resident = 0;
  if (f) {
    if (fscanf(f, "%ld %ld", &size, &resident) != 2) resident = 0;
    fclose(f);
  }
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Resident memory once it stopped growing for 100 ms (at most 5 s). */
static long settled_kib(void) {
  long last = resident_kib();
  for (int i = 0; i < 50; i++) {
    nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL);
    long now = resident_kib();
    if (now == last) break;
    last = now;
  }
  return last;
}

/* Runs body in a child; its exit status is the test's verdict. */
static void in_child(int (*body)(void)) {
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) _exit(body());
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 0);
}

static int prefault_of_a_gib(void) {
  long before = settled_kib();
  og_pages_prefault(SIZE_MAX);
  long grew = settled_kib() - before;
  if (grew > 64 * 1024 + 8 * 1024) {
    fprintf(stderr, "prefault grew %ld KiB\n", grew);
    return 1;
  }
  return 0;
}

static void a_prefault_stops_at_64_mib(void **state) {
  (void)state;
  in_child(prefault_of_a_gib);
}

static int stopped_prefault(void) {
  long before = settled_kib();
  og_pages_prefault_stop();
  og_pages_prefault(64 * MIB);
  long grew = settled_kib() - before;
  if (grew > 8 * 1024) {
    fprintf(stderr, "stopped prefault grew %ld KiB\n", grew);
    return 1;
  }
  return 0;
}

static void a_stopped_prefault_faults_nothing_more(void **state) {
  (void)state;
  in_child(stopped_prefault);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_freed_buffer_serves_a_request_of_its_size),
      cmocka_unit_test(a_far_larger_freed_buffer_is_kept_for_a_larger_request),
      cmocka_unit_test(a_prefault_stops_at_64_mib),
      cmocka_unit_test(a_stopped_prefault_faults_nothing_more),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
