/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* What indexing needs to know of one trace line, found without building
 * a tree: whether it is one JSON object a reader accepts, whether it has
 * a top-level string "type", and its top-level integer "seq". */
typedef struct
{
  gboolean has_type;
  gboolean has_seq;
  gint64   seq;
} TbTraceScan;

gboolean _tb_trace_scan_line (const char   *data,
                              gsize         length,
                              guint         max_depth,
                              TbTraceScan  *scan,
                              char        **reason);

gboolean _tb_trace_scan_outline (const char   *data,
                                 gsize         length,
                                 guint         max_depth,
                                 JsonObject  **outline);

G_END_DECLS
