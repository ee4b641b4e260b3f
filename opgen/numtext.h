/* Floating-point numbers as text, always in the "C" locale: the .op
 * language, JSON and protobuf text all write the decimal point as '.',
 * whatever LC_NUMERIC a host program has set (strtod and printf follow
 * it, and would read "1.5" as 1 or write "1,5"). */
#ifndef OPGEN_NUMTEXT_H
#define OPGEN_NUMTEXT_H

/* strtod() as the C locale has it. */
double og_strtod(const char *s, char **end);

/* Enough for any output of og_format_double. */
#define OG_DOUBLE_TEXT_MAX 32

/* The shortest "%.Ng" (N = 1..17) that og_strtod reads back as `d`, which
 * must be finite; the positional form instead of the exponent form for
 * integral magnitudes below 10^plain_digits ("4000", not "4e+03"); and
 * ".0" appended where the text would otherwise read as an integer ("2.0",
 * "-0.0"). */
void og_format_double(double d, int plain_digits,
                      char out[OG_DOUBLE_TEXT_MAX]);

/* The same for a float: the shortest "%.Ng" (N = 1..9) that strtof reads
 * back as `f`, so that "<text>f" in C is exactly f. */
void og_format_single(float f, int plain_digits, char out[OG_DOUBLE_TEXT_MAX]);

#endif
