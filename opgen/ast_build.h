/* AST constructors called from the grammar's actions. */
#ifndef OPGEN_AST_BUILD_H
#define OPGEN_AST_BUILD_H

#include "parse_internal.h"

/* `c_prefix NAME;` or `c_prefix NAME strip;` (`mode` NULL for the
 * first). */
void og_build_c_prefix(og_parse_ctx *ctx, const og_loc *kw_loc,
                       const og_token *name, const og_loc *name_loc,
                       const og_token *mode, const og_loc *mode_loc);
void og_build_package(og_parse_ctx *ctx, const og_loc *kw_loc,
                      const og_token *name, const og_loc *name_loc);
og_ast_op *og_build_op(og_parse_ctx *ctx, const og_token *kw,
                       const og_loc *kw_loc, const og_token *name,
                       const og_loc *name_loc);
og_ast_item *og_build_item(og_parse_ctx *ctx, og_ast_item_kind kind,
                           const og_token *kw, const og_loc *kw_loc,
                           const og_token *name, const og_loc *name_loc);

og_ast_attr_type *og_build_type_name(og_parse_ctx *ctx, const og_token *name,
                                     const og_loc *loc);
og_ast_attr_type *og_build_type_list(og_parse_ctx *ctx, const og_token *name,
                                     const og_loc *name_loc,
                                     og_ast_attr_type *inner,
                                     const og_loc *loc);
og_ast_attr_type *og_build_type_set(og_parse_ctx *ctx, og_ast_value *elems,
                                    const og_loc *loc);
og_ast_io_type *og_build_io_type(og_parse_ctx *ctx, const og_token *number,
                                 const og_loc *number_loc,
                                 const og_token *type, const og_loc *type_loc,
                                 const og_loc *loc);
og_ast_io_type *og_build_io_ref(og_parse_ctx *ctx, const og_token *ref,
                                const og_loc *ref_loc, og_ast_io_type *inner,
                                const og_loc *loc);

og_ast_value *og_build_value(og_parse_ctx *ctx, og_ast_value_kind kind,
                             const og_loc *loc);
/* Reports an integer that does not fit int64 and yields 0 instead. */
og_ast_value *og_build_int(og_parse_ctx *ctx, const og_token *digits,
                           const og_loc *digits_loc, bool negative,
                           const og_loc *loc);
og_ast_value *og_build_float(og_parse_ctx *ctx, double f, const og_loc *loc);
og_ast_value *og_build_string(og_parse_ctx *ctx, const og_token *s,
                              const og_loc *loc);
og_ast_value *og_build_name_value(og_parse_ctx *ctx, const og_token *name,
                                  const og_loc *loc, bool negated);
og_ast_field *og_build_field(og_parse_ctx *ctx, const og_token *name,
                             const og_loc *name_loc, og_ast_value *value);

og_ast_expr *og_build_expr(og_parse_ctx *ctx, og_ast_expr_kind kind,
                           const og_loc *loc);
og_ast_expr *og_build_expr_int(og_parse_ctx *ctx, const og_token *digits,
                               const og_loc *loc);
og_ast_expr *og_build_expr_name(og_parse_ctx *ctx, og_ast_expr_kind kind,
                                const og_token *name, const og_loc *loc);
og_ast_expr *og_build_expr_op(og_parse_ctx *ctx, og_ast_expr_kind kind,
                              og_ast_binop op, og_ast_expr *lhs,
                              og_ast_expr *rhs, const og_loc *loc);
og_ast_expr *og_build_expr_string(og_parse_ctx *ctx, const og_token *s,
                                  const og_loc *loc);
/* S[lo:hi], either bound NULL when left out. */
og_ast_expr *og_build_expr_slice(og_parse_ctx *ctx, og_ast_expr *shape,
                                 og_ast_expr *lo, og_ast_expr *hi,
                                 const og_loc *loc);
og_ast_expr *og_build_expr_cond(og_parse_ctx *ctx, og_ast_expr *cond,
                                og_ast_expr *then, og_ast_expr *otherwise,
                                const og_loc *loc);
/* lhs OP rhs, or lhs in [rhs, rhs->next] when op is 0; refuses a chain
 * (`a < b == c`) at the operator. */
og_ast_expr *og_build_compare(og_parse_ctx *ctx, og_ast_binop op,
                              og_ast_expr *lhs, og_ast_expr *rhs,
                              const og_loc *op_loc, const og_loc *loc);
/* body for bound < count if cond (cond NULL when absent); the caller
 * sets the fold's name. Refuses a count looser than `+`. */
og_ast_expr *og_build_comprehension(og_parse_ctx *ctx, og_ast_expr *body,
                                    const og_token *bound,
                                    const og_loc *bound_loc,
                                    og_ast_expr *count, og_ast_expr *cond,
                                    const og_loc *loc);
og_ast_param *og_build_param(og_parse_ctx *ctx, const og_token *name,
                             const og_loc *loc);
/* Sets the arguments of a call or list (a `next` chain). */
void og_build_expr_args(og_parse_ctx *ctx, og_ast_expr *e, og_ast_expr *args);

#endif
