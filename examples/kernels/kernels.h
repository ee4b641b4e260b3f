/* The example library's kernel registrations, one per source file;
 * register.c calls them all. */
#ifndef MYOPS_EXAMPLE_KERNELS_H
#define MYOPS_EXAMPLE_KERNELS_H

#include "opr/opr.h"

#ifdef __cplusplus
extern "C" {
#endif

opr_status register_bias_add(void);      /* bias_add.c */
opr_status register_softmax(void);       /* softmax.cpp (C++) */
opr_status register_concat(void);        /* concat.c */
opr_status register_bias_add_gpu(void);  /* bias_add_gpu.cu (CUDA) */

#ifdef __cplusplus
}
#endif

#endif
