/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * TB_JSON_MAX_DEPTH:
 *
 * The deepest nesting of arrays and objects that Toolbench accepts in JSON
 * from outside. json-glib 1.6 recurses once per level without a limit and
 * overflows the stack long before 100,000 levels, so every text is scanned
 * before it reaches #JsonParser, and recursive walks stop at this depth too.
 */
#define TB_JSON_MAX_DEPTH 512

/**
 * TB_JSON_MAX_SIZE:
 *
 * The default size limit, in bytes, of one JSON text read with
 * tb_json_parse(): 64 MiB.
 */
#define TB_JSON_MAX_SIZE (64 * 1024 * 1024)

#define TB_JSON_ERROR (tb_json_error_quark ())

/**
 * TbJsonError:
 * @TB_JSON_ERROR_SYNTAX: the text is not JSON.
 * @TB_JSON_ERROR_TOO_DEEP: arrays and objects nest deeper than the limit.
 * @TB_JSON_ERROR_TOO_LARGE: the text is larger than the limit.
 * @TB_JSON_ERROR_INVALID_UTF8: the text is not valid UTF-8.
 * @TB_JSON_ERROR_EMPTY: the text is empty or only white space.
 */
typedef enum
{
  TB_JSON_ERROR_SYNTAX,
  TB_JSON_ERROR_TOO_DEEP,
  TB_JSON_ERROR_TOO_LARGE,
  TB_JSON_ERROR_INVALID_UTF8,
  TB_JSON_ERROR_EMPTY,
} TbJsonError;

GQuark    tb_json_error_quark      (void);
gboolean  tb_json_check_depth      (const char  *text,
                                    gsize        length,
                                    guint        max_depth,
                                    GError     **error);
JsonNode *tb_json_parse            (const char  *text,
                                    gssize       length,
                                    GError     **error);
JsonNode *tb_json_parse_full       (const char  *text,
                                    gssize       length,
                                    gsize        max_size,
                                    guint        max_depth,
                                    GError     **error);
JsonNode *tb_json_parse_file       (const char  *path,
                                    gsize        max_size,
                                    GError     **error);
gboolean  tb_json_node_depth_ok    (JsonNode    *node,
                                    guint        max_depth);
char     *tb_json_to_string        (JsonNode    *node,
                                    gboolean     pretty);
gboolean  tb_json_equal            (JsonNode    *a,
                                    JsonNode    *b);
JsonNode *tb_json_copy             (JsonNode    *node);
JsonNode *tb_json_freeze           (JsonNode    *node);
JsonNode *tb_json_node_new_object  (void);
JsonNode *tb_json_node_new_string  (const char  *value);
char     *tb_json_describe_type    (JsonNode    *node);
char       *tb_json_pointer_escape    (const char *token);
char       *tb_json_pointer_unescape  (const char *token);
const char *tb_json_object_get_string (JsonObject *object,
                                       const char *member);
JsonObject *tb_json_object_get_object (JsonObject *object,
                                       const char *member);
JsonArray  *tb_json_object_get_array  (JsonObject *object,
                                       const char *member);

G_END_DECLS
