/* Status values: a canonical code and a message. No global error state:
 * every call that can fail returns one. */
#ifndef OPR_STATUS_H
#define OPR_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum opr_code {
  OPR_CODE_OK = 0,
  OPR_CANCELLED = 1,
  OPR_UNKNOWN = 2,
  OPR_INVALID_ARGUMENT = 3,
  OPR_DEADLINE_EXCEEDED = 4,
  OPR_NOT_FOUND = 5,
  OPR_ALREADY_EXISTS = 6,
  OPR_PERMISSION_DENIED = 7,
  OPR_RESOURCE_EXHAUSTED = 8,
  OPR_FAILED_PRECONDITION = 9,
  OPR_ABORTED = 10,
  OPR_OUT_OF_RANGE = 11,
  OPR_UNIMPLEMENTED = 12,
  OPR_INTERNAL = 13,
  OPR_UNAVAILABLE = 14,
  OPR_DATA_LOSS = 15,
  OPR_UNAUTHENTICATED = 16,
} opr_code;

/* NULL means success, so the success path allocates nothing. A non-NULL
 * status is owned by the caller, who frees it with opr_status_free. */
typedef struct opr_status_rep *opr_status;
#define OPR_OK ((opr_status)0)

opr_status opr_error(opr_code code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
opr_code opr_status_code(opr_status s);
/* "" for OPR_OK. Valid until the status is freed. */
const char *opr_status_message(opr_status s);
void opr_status_free(opr_status s);
/* "INVALID_ARGUMENT", ... */
const char *opr_code_name(opr_code code);

#ifdef __cplusplus
}
#endif

#endif
