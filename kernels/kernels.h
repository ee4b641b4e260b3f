/* What the CPU kernels of kernels/ share: the per-file registration
 * functions, element arithmetic for every number type (one kernel body,
 * written with these, expands once per dtype of an op's *_TYPES(X) list),
 * and the parallel loop. Private to the opgen_shipped library. */
#ifndef OPGEN_KERNELS_H
#define OPGEN_KERNELS_H

#include "demo_kernels.h"
#include "opr/parallel.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#define KERN_HAVE_STREAM 1
#else
#define KERN_HAVE_STREAM 0
#endif

/* Each registers the CPU kernels of one file (the op must be registered). */
opr_status kern_register_zero_out(void);
opr_status kern_register_example(void);
opr_status kern_register_add_one(void);
opr_status kern_register_add_n(void);
opr_status kern_register_pad(void);
opr_status kern_register_string_to_number(void);

/* ---- the parallel loop ---- */

/* Below this many bytes touched, a loop runs on the calling thread: waking
 * a worker costs more than the work. */
#define KERN_PARALLEL_MIN_BYTES ((int64_t)256 * 1024)

/* fn over [0, n), split across the context's threads when the loop
 * touches at least KERN_PARALLEL_MIN_BYTES (bytes_per_unit each). */
static inline void kern_for(opr_kernel_ctx *k, int64_t n,
                            int64_t bytes_per_unit,
                            void (*fn)(void *arg, int64_t begin, int64_t end),
                            void *arg) {
  if (n <= 0) return;
  if (n < KERN_PARALLEL_MIN_BYTES / bytes_per_unit) fn(arg, 0, n);
  else opr_shard(k->ctx, n, bytes_per_unit, fn, arg);
}

/* ---- streaming stores ----
 * An element-wise kernel whose output takes at least KERN_STREAM_MIN_BYTES
 * writes it with non-temporal stores (SSE2, where the compiler targets
 * it; plain stores elsewhere). A result that large would only flush the
 * cache, and a plain store first reads each destination line from memory:
 * a third of the traffic of y = f(x). Below the threshold the result stays
 * in the cache for whatever reads it next. */
#define KERN_STREAM_MIN_BYTES ((int64_t)16 * 1024 * 1024)

/* Elements of type CT in one cache line, written as a whole by
 * kern_stream64 (every element size divides 64). */
#define KERN_STREAM_ELEMS(CT) (64 / sizeof(CT))

/* Whether a kernel writing `bytes` of output streams them. */
static inline bool kern_streams(int64_t bytes) {
  return KERN_HAVE_STREAM && bytes >= KERN_STREAM_MIN_BYTES;
}

static inline bool kern_aligned64(const void *p) {
  return ((uintptr_t)p & 63u) == 0;
}

/* One cache line from `src` to `dst` (both 64-byte aligned), past the
 * cache: whole lines, so that each leaves the write-combining buffer in
 * one transfer. Compilers turn the element loop that fills `src` and
 * these stores into vector code. */
static inline void kern_stream64(void *dst, const void *src) {
#if KERN_HAVE_STREAM
  __m128i *d = dst;
  const __m128i *s = src;
  _mm_stream_si128(d, _mm_load_si128(s));
  _mm_stream_si128(d + 1, _mm_load_si128(s + 1));
  _mm_stream_si128(d + 2, _mm_load_si128(s + 2));
  _mm_stream_si128(d + 3, _mm_load_si128(s + 3));
#else
  memcpy(dst, src, 64);
#endif
}

/* Streaming loops also prefetch their inputs this far ahead, in
 * elements of CT: the hardware prefetcher alone leaves the read side
 * short of what memcpy (which prefetches too) reaches. */
#define KERN_PREFETCH_AHEAD(CT) ((int64_t)(1024 / sizeof(CT)))

static inline void kern_prefetch(const void *p) {
#if KERN_HAVE_STREAM
  _mm_prefetch((const char *)p, _MM_HINT_T0);
#else
  (void)p;
#endif
}

/* Orders a block's streaming stores before the block is reported done
 * (they are weakly ordered). */
static inline void kern_stream_fence(void) {
#if KERN_HAVE_STREAM
  _mm_sfence();
#endif
}

/* An output allocator of the generated kernel header
 * (demo_<op>_alloc_<output>). */
typedef opr_status (*kern_alloc_fn)(opr_kernel_ctx *k, int rank,
                                    const int64_t *dims, opr_tensor **out);

/* ---- element arithmetic ----
 * Integers wrap (through their unsigned type, so that no signed overflow
 * is undefined): quantized types are their integer storage, as in
 * TensorFlow. half and bfloat16 compute in float and round once per
 * operation, as Eigen's do. Complex numbers work on both parts. */

#define KERN_INT_OPS(CT, UT, NAME)                                      \
  static inline CT kern_twice_##NAME(CT x) { return (CT)((UT)x * 2u); } \
  static inline CT kern_add_##NAME(CT a, CT b) {                        \
    return (CT)((UT)a + (UT)b);                                         \
  }
KERN_INT_OPS(int8_t, uint8_t, i8)
KERN_INT_OPS(uint8_t, uint8_t, u8)
KERN_INT_OPS(int16_t, uint16_t, i16)
KERN_INT_OPS(uint16_t, uint16_t, u16)
KERN_INT_OPS(int32_t, uint32_t, i32)
KERN_INT_OPS(uint32_t, uint32_t, u32)
KERN_INT_OPS(int64_t, uint64_t, i64)
KERN_INT_OPS(uint64_t, uint64_t, u64)
#undef KERN_INT_OPS

static inline float kern_twice_f32(float x) { return x * 2.0f; }
static inline float kern_add_f32(float a, float b) { return a + b; }
static inline double kern_twice_f64(double x) { return x * 2.0; }
static inline double kern_add_f64(double a, double b) { return a + b; }

static inline opr_half kern_twice_f16(opr_half x) {
  return opr_half_from_float(opr_half_to_float(x) * 2.0f);
}
static inline opr_half kern_add_f16(opr_half a, opr_half b) {
  return opr_half_from_float(opr_half_to_float(a) + opr_half_to_float(b));
}
static inline opr_bfloat16 kern_twice_bf16(opr_bfloat16 x) {
  return opr_bfloat16_from_float(opr_bfloat16_to_float(x) * 2.0f);
}
static inline opr_bfloat16 kern_add_bf16(opr_bfloat16 a, opr_bfloat16 b) {
  return opr_bfloat16_from_float(opr_bfloat16_to_float(a) +
                                 opr_bfloat16_to_float(b));
}

static inline opr_complex64 kern_twice_c64(opr_complex64 x) {
  return (opr_complex64){x.re * 2.0f, x.im * 2.0f};
}
static inline opr_complex64 kern_add_c64(opr_complex64 a, opr_complex64 b) {
  return (opr_complex64){a.re + b.re, a.im + b.im};
}
static inline opr_complex128 kern_twice_c128(opr_complex128 x) {
  return (opr_complex128){x.re * 2.0, x.im * 2.0};
}
static inline opr_complex128 kern_add_c128(opr_complex128 a,
                                           opr_complex128 b) {
  return (opr_complex128){a.re + b.re, a.im + b.im};
}

/* Picks the function of `prefix` for the C type of `x`. */
#define KERN_BY_TYPE(prefix, x)                  \
  _Generic((x),                                  \
      int8_t: prefix##i8, uint8_t: prefix##u8,   \
      int16_t: prefix##i16, uint16_t: prefix##u16, \
      int32_t: prefix##i32, uint32_t: prefix##u32, \
      int64_t: prefix##i64, uint64_t: prefix##u64, \
      float: prefix##f32, double: prefix##f64,   \
      opr_half: prefix##f16, opr_bfloat16: prefix##bf16, \
      opr_complex64: prefix##c64, opr_complex128: prefix##c128)

/* x * 2 and a + b for any number element type. */
#define kern_twice(x) KERN_BY_TYPE(kern_twice_, x)(x)
#define kern_add(a, b) KERN_BY_TYPE(kern_add_, a)(a, b)

/* ---- filtering *_TYPES(X) lists ----
 * KERN_UNLESS_VARIANT(ID)(code) is `code`, or nothing when ID is VARIANT:
 * for ops whose type set includes variant, which has no arithmetic (a
 * call with it finds no kernel and answers UNIMPLEMENTED). */
#define KERN_PROBE_VARIANT ~, 1
#define KERN_SECOND_(a, b, ...) b
#define KERN_SECOND(...) KERN_SECOND_(__VA_ARGS__)
#define KERN_IS_VARIANT(ID) KERN_SECOND(KERN_PROBE_##ID, 0, ~)
#define KERN_KEEP_0(...) __VA_ARGS__
#define KERN_KEEP_1(...)
#define KERN_KEEP_(flag) KERN_KEEP_##flag
#define KERN_KEEP(flag) KERN_KEEP_(flag)
#define KERN_UNLESS_VARIANT(ID) KERN_KEEP(KERN_IS_VARIANT(ID))

#endif
