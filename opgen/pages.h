/* Large buffers (arena blocks, output buffers) from one region of
 * address space advised for transparent huge pages: a `gen` of a large
 * corpus touches some 20 MB, and faulting that in 4 KiB pages cost more
 * than the work (BENCHMARKS.md, "Issue 15, round 3"). A freed buffer is
 * kept for the next request it fits. Past the region, and always under
 * sanitizers (which then see every buffer), buffers come from malloc.
 * Thread-safe. */
#ifndef OPGEN_PAGES_H
#define OPGEN_PAGES_H

#include <stdbool.h>
#include <stddef.h>

/* At least `size` bytes, aligned for any type, not zeroed (a buffer
 * may be one freed before); aborts on exhaustion like og_xmalloc. */
void *og_pages_alloc(size_t size);
/* size: as given to og_pages_alloc. NULL is ignored; a pointer not
 * from the region goes to free(). */
void og_pages_free(void *p, size_t size);
/* Whether p is in the region: a buffer that realloc() and free() must
 * not see. */
bool og_pages_owns(const void *p);

/* Faults in (zeroed by the kernel) the first `bytes` of the region on a
 * thread of its own, without touching what is stored there, so that the
 * buffers handed out later find their pages ready: a `gen` calls it
 * before its compile, and the kernel's zeroing (some 0.2 ms a MiB)
 * moves off the threads that wait for the memory. Once a process; a
 * no-op without the region or where the kernel cannot
 * (MADV_POPULATE_WRITE, Linux 5.14). At most 64 MiB. */
void og_pages_prefault(size_t bytes);
/* Stops a prefault where it is (a compile that failed needs no pages). */
void og_pages_prefault_stop(void);

#endif
