/* Names generated C must not take: keywords of C11, C23 and C++20, what
 * the headers the generated code includes (opr/opr.h, <stdbool.h>,
 * <stddef.h>, <stdint.h>, <string.h>, <math.h>) declare, the macros GNU
 * modes predefine (linux, unix), the names of the other ISO C headers a
 * caller's file may include (and that GCC declares as built-ins even
 * unincluded: a global `exit` conflicts), NDEBUG and main. */
#include "emit_c_names.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Keywords, macros and typedefs: they break code in any scope. */
static const char *const breaking[] = {
    /* C11 and C23 */
    "auto", "break", "case", "char", "const", "continue", "default", "do",
    "double", "else", "enum", "extern", "float", "for", "goto", "if",
    "inline", "int", "long", "register", "restrict", "return", "short",
    "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
    "unsigned", "void", "volatile", "while", "typeof", "typeof_unqual",
    "asm",
    /* C++20, alternative tokens included */
    "alignas", "alignof", "and", "and_eq", "bitand", "bitor", "bool",
    "catch", "char8_t", "char16_t", "char32_t", "class", "compl", "concept",
    "consteval", "constexpr", "constinit", "const_cast", "co_await",
    "co_return", "co_yield", "decltype", "delete", "dynamic_cast",
    "explicit", "export", "false", "friend", "mutable", "namespace", "new",
    "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq",
    "private", "protected", "public", "reinterpret_cast", "requires",
    "static_assert", "static_cast", "template", "this", "thread_local",
    "throw", "true", "try", "typeid", "typename", "using", "virtual",
    "wchar_t", "xor", "xor_eq",
    /* <stdbool.h>, <stddef.h>, <assert.h>, <errno.h>, <stdio.h> */
    "NULL", "offsetof", "size_t", "ptrdiff_t", "max_align_t", "unreachable",
    "assert", "errno", "EDOM", "ERANGE", "EILSEQ", "stdin", "stdout",
    "stderr", "EOF", "FILE", "BUFSIZ", "SEEK_SET", "SEEK_CUR", "SEEK_END",
    "noreturn", "complex", "imaginary", "nullptr_t", "FILENAME_MAX",
    "FOPEN_MAX", "L_tmpnam", "TMP_MAX", "NDEBUG",
    /* GNU modes predefine these */
    "linux", "unix", "i386",
    /* <stdlib.h>, <limits.h>, <float.h>: common in a caller's file */
    "EXIT_SUCCESS", "EXIT_FAILURE", "RAND_MAX", "MB_CUR_MAX", "CHAR_BIT",
    "SCHAR_MIN", "SCHAR_MAX", "UCHAR_MAX", "CHAR_MIN", "CHAR_MAX",
    "MB_LEN_MAX", "SHRT_MIN", "SHRT_MAX", "USHRT_MAX", "INT_MIN", "INT_MAX",
    "UINT_MAX", "LONG_MIN", "LONG_MAX", "ULONG_MAX", "LLONG_MIN",
    "LLONG_MAX", "ULLONG_MAX", "FLT_MAX", "FLT_MIN", "FLT_EPSILON",
    "FLT_RADIX", "FLT_DIG", "DBL_MAX", "DBL_MIN", "DBL_EPSILON", "DBL_DIG",
    "LDBL_MAX", "LDBL_MIN", "LDBL_EPSILON",
    /* <errno.h> (POSIX) */
    "EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG", "ENOEXEC",
    "EBADF", "ECHILD", "EAGAIN", "ENOMEM", "EACCES", "EFAULT", "EBUSY",
    "EEXIST", "EXDEV", "ENODEV", "ENOTDIR", "EISDIR", "EINVAL", "ENFILE",
    "EMFILE", "ENOTTY", "EFBIG", "ENOSPC", "ESPIPE", "EROFS", "EMLINK",
    "EPIPE", "ENOSYS", "ENOTSUP", "EOVERFLOW", "ETIMEDOUT",
    /* <stdint.h> */
    "intptr_t", "uintptr_t", "intmax_t", "uintmax_t", "INTPTR_MIN",
    "INTPTR_MAX", "UINTPTR_MAX", "INTMAX_MIN", "INTMAX_MAX", "UINTMAX_MAX",
    "PTRDIFF_MIN", "PTRDIFF_MAX", "SIZE_MAX", "SIG_ATOMIC_MIN",
    "SIG_ATOMIC_MAX", "WCHAR_MIN", "WCHAR_MAX", "WINT_MIN", "WINT_MAX",
    "INTMAX_C", "UINTMAX_C", "SIZE_WIDTH", "PTRDIFF_WIDTH",
    "SIG_ATOMIC_WIDTH", "WCHAR_WIDTH", "WINT_WIDTH", "INTPTR_WIDTH",
    "UINTPTR_WIDTH", "INTMAX_WIDTH", "UINTMAX_WIDTH",
    /* <math.h> macros and types */
    "HUGE_VAL", "HUGE_VALF", "HUGE_VALL", "INFINITY", "NAN", "FP_INFINITE",
    "FP_NAN", "FP_NORMAL", "FP_SUBNORMAL", "FP_ZERO", "FP_FAST_FMA",
    "FP_FAST_FMAF", "FP_FAST_FMAL", "FP_ILOGB0", "FP_ILOGBNAN",
    "MATH_ERRNO", "MATH_ERREXCEPT", "math_errhandling", "fpclassify",
    "isfinite", "isinf", "isnan", "isnormal", "signbit", "isgreater",
    "isgreaterequal", "isless", "islessequal", "islessgreater",
    "isunordered", "float_t", "double_t", "M_E", "M_LOG2E", "M_LOG10E",
    "M_LN2", "M_LN10", "M_PI", "M_PI_2", "M_PI_4", "M_1_PI", "M_2_PI",
    "M_2_SQRTPI", "M_SQRT2", "M_SQRT1_2", "MAXFLOAT", "HUGE",
    /* <stdatomic.h> */
    "memory_order", "memory_order_relaxed", "memory_order_consume",
    "memory_order_acquire", "memory_order_release", "memory_order_acq_rel",
    "memory_order_seq_cst", "atomic_flag", "ATOMIC_VAR_INIT",
    "ATOMIC_FLAG_INIT", "kill_dependency", "atomic_bool", "atomic_char",
    "atomic_schar", "atomic_uchar", "atomic_short", "atomic_ushort",
    "atomic_int", "atomic_uint", "atomic_long", "atomic_ulong",
    "atomic_llong", "atomic_ullong", "atomic_char16_t", "atomic_char32_t",
    "atomic_wchar_t", "atomic_intptr_t", "atomic_uintptr_t",
    "atomic_size_t", "atomic_ptrdiff_t", "atomic_intmax_t",
    "atomic_uintmax_t", "ATOMIC_BOOL_LOCK_FREE", "ATOMIC_CHAR_LOCK_FREE",
    "ATOMIC_CHAR16_T_LOCK_FREE", "ATOMIC_CHAR32_T_LOCK_FREE",
    "ATOMIC_WCHAR_T_LOCK_FREE", "ATOMIC_SHORT_LOCK_FREE",
    "ATOMIC_INT_LOCK_FREE", "ATOMIC_LONG_LOCK_FREE",
    "ATOMIC_LLONG_LOCK_FREE", "ATOMIC_POINTER_LOCK_FREE",
    /* the other ISO C headers a caller's file may include: their macros
     * and types */
    "va_list", "va_start", "va_arg", "va_end", "va_copy", "jmp_buf",
    "setjmp", "sig_atomic_t", "SIG_DFL", "SIG_ERR", "SIG_IGN", "SIGABRT",
    "SIGFPE", "SIGILL", "SIGINT", "SIGSEGV", "SIGTERM", "time_t", "clock_t",
    "CLOCKS_PER_SEC", "TIME_UTC", "div_t", "ldiv_t", "lldiv_t", "fpos_t",
    "mbstate_t", "wint_t", "wctype_t", "wctrans_t", "WEOF", "LC_ALL",
    "LC_COLLATE", "LC_CTYPE", "LC_MONETARY", "LC_NUMERIC", "LC_TIME",
    "imaxdiv_t", "fenv_t", "fexcept_t", "char16_t", "char32_t", "I",
    "thrd_t", "mtx_t", "cnd_t", "tss_t", "once_flag",
    "ONCE_FLAG_INIT",
};

/* Functions and objects: harmless as a member or parameter (those shadow
 * them), a conflicting declaration as a global. */
static const char *const functions[] = {
    "main", "memcpy", "memmove", "memset", "memcmp", "memchr", "memccpy",
    "strcpy", "strncpy", "strcat", "strncat", "strcmp", "strncmp",
    "strcoll", "strxfrm", "strchr", "strrchr", "strcspn", "strspn",
    "strpbrk", "strstr", "strtok", "strerror", "strlen", "strdup",
    "strndup", "strnlen", "stpcpy", "stpncpy", "strtok_r", "strerror_r",
    "strerror_l", "strcoll_l", "strxfrm_l", "strsignal", "memset_explicit",
    "atomic_init", "atomic_thread_fence", "atomic_signal_fence",
    "atomic_is_lock_free", "atomic_store", "atomic_store_explicit",
    "atomic_load", "atomic_load_explicit", "atomic_exchange",
    "atomic_exchange_explicit", "atomic_compare_exchange_strong",
    "atomic_compare_exchange_strong_explicit",
    "atomic_compare_exchange_weak", "atomic_compare_exchange_weak_explicit",
    "atomic_fetch_add", "atomic_fetch_add_explicit", "atomic_fetch_sub",
    "atomic_fetch_sub_explicit", "atomic_fetch_or",
    "atomic_fetch_or_explicit", "atomic_fetch_xor",
    "atomic_fetch_xor_explicit", "atomic_fetch_and",
    "atomic_fetch_and_explicit", "atomic_flag_test_and_set",
    "atomic_flag_test_and_set_explicit", "atomic_flag_clear",
    "atomic_flag_clear_explicit",
    /* <stdlib.h> */
    "atof", "atoi", "atol", "atoll", "strtod", "strtof", "strtold",
    "strtol", "strtoll", "strtoul", "strtoull", "rand", "srand",
    "aligned_alloc", "calloc", "free", "malloc", "realloc", "abort",
    "atexit", "at_quick_exit", "exit", "quick_exit", "getenv", "system",
    "bsearch", "qsort", "abs", "labs", "llabs", "div", "ldiv", "lldiv",
    "mblen", "mbtowc", "wctomb", "mbstowcs", "wcstombs",
    /* <stdio.h> */
    "remove", "rename", "tmpfile", "tmpnam", "fclose", "fflush", "fopen",
    "freopen", "setbuf", "setvbuf", "fprintf", "fscanf", "printf", "scanf",
    "snprintf", "sprintf", "sscanf", "vfprintf", "vfscanf", "vprintf",
    "vscanf", "vsnprintf", "vsprintf", "vsscanf", "fgetc", "fgets", "fputc",
    "fputs", "getc", "getchar", "gets", "putc", "putchar", "puts", "ungetc",
    "fread", "fwrite", "fgetpos", "fseek", "fsetpos", "ftell", "rewind",
    "clearerr", "feof", "ferror", "perror",
    /* <ctype.h>, <wctype.h> */
    "isalnum", "isalpha", "isblank", "iscntrl", "isdigit", "isgraph",
    "islower", "isprint", "ispunct", "isspace", "isupper", "isxdigit",
    "tolower", "toupper", "iswalnum", "iswalpha", "iswblank", "iswcntrl",
    "iswdigit", "iswgraph", "iswlower", "iswprint", "iswpunct", "iswspace",
    "iswupper", "iswxdigit", "iswctype", "wctype", "towlower", "towupper",
    "towctrans", "wctrans",
    /* <time.h>, <signal.h>, <setjmp.h>, <locale.h>, <inttypes.h> */
    "clock", "difftime", "mktime", "time", "asctime", "ctime", "gmtime",
    "localtime", "strftime", "timespec_get", "signal", "raise", "longjmp",
    "setlocale", "localeconv", "imaxabs", "imaxdiv", "strtoimax",
    "strtoumax", "wcstoimax", "wcstoumax",
    /* <wchar.h>, <uchar.h> */
    "fwprintf", "fwscanf", "swprintf", "swscanf", "vfwprintf", "vfwscanf",
    "vswprintf", "vswscanf", "vwprintf", "vwscanf", "wprintf", "wscanf",
    "fgetwc", "fgetws", "fputwc", "fputws", "fwide", "getwc", "getwchar",
    "putwc", "putwchar", "ungetwc", "wcstod", "wcstof", "wcstold", "wcstol",
    "wcstoll", "wcstoul", "wcstoull", "wcscpy", "wcsncpy", "wmemcpy",
    "wmemmove", "wcscat", "wcsncat", "wcscmp", "wcscoll", "wcsncmp",
    "wcsxfrm", "wmemcmp", "wcschr", "wcscspn", "wcspbrk", "wcsrchr",
    "wcsspn", "wcsstr", "wcstok", "wmemchr", "wcslen", "wmemset", "wcsftime",
    "btowc", "wctob", "mbsinit", "mbrlen", "mbrtowc", "wcrtomb", "mbsrtowcs",
    "wcsrtombs", "mbrtoc16", "c16rtomb", "mbrtoc32", "c32rtomb",
    /* <fenv.h>, <threads.h> */
    "feclearexcept", "fegetexceptflag", "feraiseexcept", "fesetexceptflag",
    "fetestexcept", "fegetround", "fesetround", "fegetenv", "feholdexcept",
    "fesetenv", "feupdateenv", "call_once", "cnd_broadcast", "cnd_destroy",
    "cnd_init", "cnd_signal", "cnd_timedwait", "cnd_wait", "mtx_destroy",
    "mtx_init", "mtx_lock", "mtx_timedlock", "mtx_trylock", "mtx_unlock",
    "thrd_create", "thrd_current", "thrd_detach", "thrd_equal", "thrd_exit",
    "thrd_join", "thrd_sleep", "thrd_yield", "tss_create", "tss_delete",
    "tss_get", "tss_set",
    /* GCC's built-in functions outside ISO C (declared even unincluded) */
    "alloca", "bcmp", "bcopy", "bzero", "index", "rindex", "ffs", "ffsl",
    "ffsll", "strcasecmp", "strncasecmp", "gettext", "dgettext",
    "dcgettext", "execl", "execlp", "execle", "execv", "execvp", "execve",
    "fork", "_exit", "signbitf", "signbitl", "significand", "gamma",
    "drem", "exp10", "pow10", "j0", "j1", "jn", "y0", "y1", "yn",
    "scalb", "sincos", "fprintf_unlocked", "fputs_unlocked", "printf_unlocked",
    "putchar_unlocked", "putc_unlocked", "posix_memalign", "strfmon",
};

/* <complex.h> functions: each also with the suffixes f and l. */
static const char *const complex_fns[] = {
    "cabs", "cacos", "cacosh", "carg", "casin", "casinh", "catan", "catanh",
    "ccos", "ccosh", "cexp", "cimag", "clog", "conj", "cpow", "cproj",
    "creal", "csin", "csinh", "csqrt", "ctan", "ctanh",
};

/* <math.h> functions: each also with the suffixes f and l. */
static const char *const math[] = {
    "acos",  "asin",      "atan",    "atan2",     "cos",       "sin",
    "tan",   "acosh",     "asinh",   "atanh",     "cosh",      "sinh",
    "tanh",  "exp",       "exp2",    "expm1",     "frexp",     "ilogb",
    "ldexp", "log",       "log10",   "log1p",     "log2",      "logb",
    "modf",  "scalbn",    "scalbln", "cbrt",      "fabs",      "hypot",
    "pow",   "sqrt",      "erf",     "erfc",      "lgamma",    "tgamma",
    "ceil",  "floor",     "nearbyint", "rint",    "lrint",     "llrint",
    "round", "lround",    "llround", "trunc",     "fmod",      "remainder",
    "remquo", "copysign", "nan",     "nextafter", "nexttoward", "fdim",
    "fmax",  "fmin",      "fma",
};

/* <stdint.h> families, for N in 8, 16, 32, 64. */
static const char *const int_families[] = {
    "int%d_t",       "uint%d_t",       "int_least%d_t", "uint_least%d_t",
    "int_fast%d_t",  "uint_fast%d_t",  "INT%d_MIN",     "INT%d_MAX",
    "UINT%d_MAX",    "INT_LEAST%d_MIN", "INT_LEAST%d_MAX",
    "UINT_LEAST%d_MAX", "INT_FAST%d_MIN", "INT_FAST%d_MAX",
    "UINT_FAST%d_MAX", "INT%d_C",     "UINT%d_C",      "INT%d_WIDTH",
    "UINT%d_WIDTH",
};

enum { TABLE_SIZE = 4096 }; /* a power of two, over twice the names */

typedef struct entry {
  char name[40];
  og_c_reserved_kind kind;
} entry;

static entry table[TABLE_SIZE];
/* Whether any reserved name has this first byte and length: most names
 * asked about have none, and need no hashing. */
static bool maybe[128][sizeof table[0].name];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static size_t hash(const char *s) {
  uint64_t h = 14695981039346656037u; /* FNV-1a */
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
  return (size_t)(h ^ (h >> 29)) & (TABLE_SIZE - 1);
}

static void add(const char *name, og_c_reserved_kind kind) {
  size_t i = hash(name);
  while (table[i].name[0] && strcmp(table[i].name, name) != 0)
    i = (i + 1) & (TABLE_SIZE - 1);
  if (!table[i].name[0] || kind == OG_C_BREAKING) table[i].kind = kind;
  strcpy(table[i].name, name);
  maybe[(unsigned char)name[0] & 127][strlen(name)] = true;
}

static void fill(void) {
  for (size_t i = 0; i < sizeof breaking / sizeof *breaking; i++)
    add(breaking[i], OG_C_BREAKING);
  for (size_t i = 0; i < sizeof functions / sizeof *functions; i++)
    add(functions[i], OG_C_FUNCTION);
  static const char *const suffixes[] = {"", "f", "l"};
  char buf[40];
  for (size_t i = 0; i < sizeof math / sizeof *math; i++)
    for (size_t k = 0; k < 3; k++) {
      strcpy(buf, math[i]);
      strcat(buf, suffixes[k]);
      add(buf, OG_C_FUNCTION);
    }
  for (size_t i = 0; i < sizeof complex_fns / sizeof *complex_fns; i++)
    for (size_t k = 0; k < 3; k++) {
      strcpy(buf, complex_fns[i]);
      strcat(buf, suffixes[k]);
      add(buf, OG_C_FUNCTION);
    }
  static const int bits[] = {8, 16, 32, 64};
  for (size_t i = 0; i < sizeof int_families / sizeof *int_families; i++)
    for (size_t k = 0; k < 4; k++) {
      /* The families are literals of this file: the format is safe. */
      const char *fmt = int_families[i];
      size_t at = (size_t)(strstr(fmt, "%d") - fmt);
      memcpy(buf, fmt, at);
      buf[at] = '\0';
      char num[4] = {0};
      num[0] = (char)('0' + bits[k] / 10 % 10);
      num[1] = (char)('0' + bits[k] % 10);
      strcat(buf, bits[k] < 10 ? num + 1 : num);
      strcat(buf, fmt + at + 2);
      add(buf, OG_C_BREAKING);
    }
}

og_c_reserved_kind og_c_reserved(const char *name) {
  pthread_once(&table_once, fill);
  size_t len = strnlen(name, sizeof table[0].name);
  if (len == sizeof table[0].name || !maybe[(unsigned char)name[0] & 127][len])
    return OG_C_FREE;
  for (size_t i = hash(name); table[i].name[0]; i = (i + 1) & (TABLE_SIZE - 1))
    if (strcmp(table[i].name, name) == 0) return table[i].kind;
  return OG_C_FREE;
}

bool og_c_in_runtime_namespace(const char *name) {
  /* Byte by byte, stopping at the first mismatch (a NUL included). */
  return (name[0] == 'o' && name[1] == 'p' && name[2] == 'r' &&
          name[3] == '_') ||
         (name[0] == 'O' && name[1] == 'P' && name[2] == 'R' &&
          name[3] == '_');
}

bool og_c_reserved_spelling(const char *name) {
  if (name[0] == '_' && name[1] >= 'A' && name[1] <= 'Z') return true;
  /* Eight bytes a step (strstr's setup cost more than the search): in
   * z, the top bit of each byte that is '_'; two in a row are "__". */
  size_t n = strlen(name), i = 0;
  uint64_t carry = 0; /* the last byte looked at was '_' */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  const uint64_t lo7 = 0x7f7f7f7f7f7f7f7fu;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, name + i, 8);
    uint64_t x = w ^ 0x5f5f5f5f5f5f5f5fu; /* 0 where '_' */
    uint64_t z = ~(((x & lo7) + lo7) | x | lo7);
    if ((z & (z >> 8)) || (carry & z)) return true;
    carry = z >> 63 << 7;
  }
#endif
  for (; i < n; i++) {
    uint64_t z = name[i] == '_' ? 0x80 : 0;
    if (carry & z) return true;
    carry = z;
  }
  return false;
}
