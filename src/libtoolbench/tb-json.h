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
 * TB_JSON_MAX_WALK_DEPTH:
 *
 * How deep the recursive helpers (tb_json_copy(), tb_json_equal(),
 * tb_json_freeze(), redaction, replay's diff) walk: twice
 * %TB_JSON_MAX_DEPTH, so that a document at the limit wrapped in a trace
 * event or a provider request is walked whole.
 */
#define TB_JSON_MAX_WALK_DEPTH (2 * TB_JSON_MAX_DEPTH)

/**
 * TB_JSON_MAX_SIZE:
 *
 * The default size limit, in bytes, of one JSON text read with
 * tb_json_parse(): 64 MiB.
 */
#define TB_JSON_MAX_SIZE (64 * 1024 * 1024)

/**
 * TB_JSON_MAX_VALUES_BASE:
 *
 * Every JSON text may hold this many values, whatever its size; see
 * tb_json_max_values().
 */
#define TB_JSON_MAX_VALUES_BASE 100000

/**
 * TB_JSON_BYTES_PER_VALUE:
 *
 * Beyond %TB_JSON_MAX_VALUES_BASE, a JSON text may hold one value for
 * every this many bytes; see tb_json_max_values().
 */
#define TB_JSON_BYTES_PER_VALUE 5

#define TB_JSON_ERROR (tb_json_error_quark ())

/**
 * TbJsonError:
 * @TB_JSON_ERROR_SYNTAX: the text is not JSON.
 * @TB_JSON_ERROR_TOO_DEEP: arrays and objects nest deeper than the limit.
 * @TB_JSON_ERROR_TOO_LARGE: the text is larger than the limit.
 * @TB_JSON_ERROR_INVALID_UTF8: the text is not valid UTF-8.
 * @TB_JSON_ERROR_EMPTY: the text is empty or only white space.
 * @TB_JSON_ERROR_TOO_MANY_VALUES: the text holds more values than its size
 *   allows (tb_json_max_values()).
 * @TB_JSON_ERROR_OUT_OF_RANGE: a member is not a whole number in the range
 *   its reader accepts.
 *
 * Why tb_json_parse() and the other readers of JSON from outside refused a
 * text. The messages say what was wrong and where, in words a person can act
 * on; the codes let a program tell a broken file from one that is too large.
 */
typedef enum
{
  TB_JSON_ERROR_SYNTAX,
  TB_JSON_ERROR_TOO_DEEP,
  TB_JSON_ERROR_TOO_LARGE,
  TB_JSON_ERROR_INVALID_UTF8,
  TB_JSON_ERROR_EMPTY,
  TB_JSON_ERROR_TOO_MANY_VALUES,
  TB_JSON_ERROR_OUT_OF_RANGE,
} TbJsonError;

GQuark    tb_json_error_quark      (void);
guint64   tb_json_max_values       (gsize        length);
gboolean  tb_json_check_depth      (const char  *text,
                                    gsize        length,
                                    guint        max_depth,
                                    GError     **error);
gboolean  tb_json_check_text       (const char  *text,
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
char     *tb_json_to_data          (JsonNode    *node,
                                    gboolean     pretty,
                                    gsize       *length);
gboolean  tb_json_equal            (JsonNode    *a,
                                    JsonNode    *b);
JsonArray *tb_json_diff            (JsonNode    *recorded,
                                    JsonNode    *replayed);
JsonNode *tb_json_copy             (JsonNode    *node);
JsonNode *tb_json_freeze           (JsonNode    *node);
JsonNode *tb_json_node_new_object  (void);
JsonNode *tb_json_node_take_object (JsonObject  *object);
JsonNode *tb_json_node_new_string  (const char  *value);
char     *tb_json_describe_type    (JsonNode    *node);
char       *tb_json_pointer_escape    (const char *token);
char       *tb_json_pointer_unescape  (const char *token);
gboolean    tb_json_pointer_parse_index (const char *token,
                                         guint      *index);
JsonNode   *tb_json_pointer_child     (JsonNode   *node,
                                       const char *token);
JsonNode   *tb_json_pointer_get       (JsonNode   *root,
                                       const char *pointer);
const char *tb_json_object_get_string (JsonObject *object,
                                       const char *member);
gboolean    tb_json_object_get_boolean (JsonObject *object,
                                        const char *member,
                                        gboolean    default_value);
JsonObject *tb_json_object_get_object (JsonObject *object,
                                       const char *member);
JsonArray  *tb_json_object_get_array  (JsonObject *object,
                                       const char *member);
char       *tb_json_format_double     (double      value);
gboolean    tb_json_object_get_int_in_range (JsonObject  *object,
                                             const char  *member,
                                             gint64       min,
                                             gint64       max,
                                             gint64      *value,
                                             GError     **error);

G_END_DECLS
