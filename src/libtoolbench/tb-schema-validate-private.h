/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the validator of trees (tb-schema-validate.c) shares with the
 * validator of text (tb-schema-validate-text.c): the state of one
 * validation, the path to the value being validated, and how errors are
 * reported, so that both say the same thing in the same words. */

#include "tb-json.h"
#include "tb-schema-node-private.h"

G_BEGIN_DECLS

typedef struct
{
  const char *name;  /* NULL: index */
  guint       index;
} Segment;

/* Annotations that unevaluatedProperties and unevaluatedItems read. */
typedef struct
{
  GHashTable *props;
  guint       items;
  gboolean    all_items;
  guint8     *item_bits;
  guint       n_items;
} Eval;

typedef struct
{
  GPtrArray *errors;
  gboolean   collect;
  guint      quiet;
  guint      depth;
  gboolean   overflow_reported;
  guint      path_len;
  guint      scope_len;
  Segment    path[TB_JSON_MAX_DEPTH + 2];
  /* depth when the value at path[i - 1] was entered: bounds in-place loops */
  guint      base_depth[TB_JSON_MAX_DEPTH + 2];
  Resource  *scope[TB_SCHEMA_MAX_DEPTH + 2];
} VCtx;

#define STOP(v) (!(v)->collect || (v)->quiet > 0)

static inline gboolean
wants_errors (VCtx *v)
{
  return v->quiet == 0 && v->errors != NULL;
}

void      _tb_schema_report_error       (VCtx        *v,
                                         Node        *node,
                                         const char  *keyword,
                                         const char  *format,
                                         ...) G_GNUC_PRINTF (4, 5);

/* Messages are translated and formatted only when someone reads them. */
#define report(v, ...) \
  G_STMT_START { if (wants_errors (v)) _tb_schema_report_error ((v), __VA_ARGS__); } G_STMT_END

VCtx     *_tb_schema_context_get        (GPtrArray   *errors,
                                         gboolean     collect);
gboolean  _tb_schema_validate_node      (VCtx        *v,
                                         Node        *node,
                                         JsonNode    *instance,
                                         Eval        *eval);
gboolean  _tb_schema_push_name          (VCtx        *v,
                                         Node        *node,
                                         const char  *keyword,
                                         const char  *name);
gboolean  _tb_schema_push_index         (VCtx        *v,
                                         Node        *node,
                                         const char  *keyword,
                                         guint        i);
char     *_tb_schema_describe_types     (guint8       types);
gint64    _tb_schema_count_code_points  (const char  *s,
                                         gsize        len);
gboolean  _tb_schema_check_string       (VCtx        *v,
                                         Node        *n,
                                         const char  *string,
                                         gsize        len);
gboolean  _tb_schema_check_n_items      (VCtx        *v,
                                         Node        *n,
                                         gint64       count);
gboolean  _tb_schema_check_n_properties (VCtx        *v,
                                         Node        *n,
                                         gint64       count);

G_END_DECLS
