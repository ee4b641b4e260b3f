/* Attr values as short text for messages and comments: 'foo', 3, 1.5,
 * float, [2, ?], [1, 2]; strings escaped as in a spec ('a\n\xff') and
 * cut at 60 bytes. */
#ifndef OPGEN_VALUE_TEXT_H
#define OPGEN_VALUE_TEXT_H

#include "model.h"
#include "writer.h"

void og_value_write(og_writer *w, const og_value *v);
/* An allowed-values list as "{float, int32}" or "{'a', 'b'}". */
void og_allowed_write(og_writer *w, const og_value *allowed);

#endif
