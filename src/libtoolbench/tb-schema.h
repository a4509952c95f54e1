/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <glib-object.h>
#include <json-glib/json-glib.h>

#include "tb-schema-error.h"
#include "tb-schema-registry.h"

G_BEGIN_DECLS

/**
 * TB_SCHEMA_MAX_DEPTH:
 *
 * How many schemas the validator applies inside one another (through
 * properties, items, allOf, $ref, …) before it gives up with an error
 * instead of recursing further. Instances nested deeper than
 * %TB_JSON_MAX_DEPTH are refused before this limit is reached.
 */
#define TB_SCHEMA_MAX_DEPTH 1536

/**
 * TB_SCHEMA_MAX_IN_PLACE:
 *
 * How many schemas the validator applies to the same value inside one
 * another (allOf, anyOf, $ref, $dynamicRef, …, without descending into the
 * value) before it decides that the schema loops and stops with an error.
 */
#define TB_SCHEMA_MAX_IN_PLACE 128

#define TB_SCHEMA_COMPILE_ERROR (tb_schema_compile_error_quark ())

/**
 * TbSchemaCompileError:
 * @TB_SCHEMA_COMPILE_ERROR_INVALID: a keyword has a value the specification
 *   does not allow (the message names its JSON Pointer).
 * @TB_SCHEMA_COMPILE_ERROR_BAD_REGEX: a `pattern` or `patternProperties`
 *   regular expression does not compile.
 * @TB_SCHEMA_COMPILE_ERROR_UNRESOLVED_REF: a `$ref` or `$dynamicRef` points
 *   to nothing that is known (remote schemas come only from a
 *   #TbSchemaRegistry; there is no network access).
 * @TB_SCHEMA_COMPILE_ERROR_CYCLE: references form a loop that would never
 *   reach the instance (`$ref` to itself without descending).
 * @TB_SCHEMA_COMPILE_ERROR_TOO_DEEP: the schema nests deeper than
 *   %TB_JSON_MAX_DEPTH.
 * @TB_SCHEMA_COMPILE_ERROR_UNSUPPORTED_DRAFT: `$schema` names a dialect
 *   other than draft 2020-12 or draft-07 and no known meta-schema.
 *
 * Why a schema was refused.
 */
typedef enum
{
  TB_SCHEMA_COMPILE_ERROR_INVALID,
  TB_SCHEMA_COMPILE_ERROR_BAD_REGEX,
  TB_SCHEMA_COMPILE_ERROR_UNRESOLVED_REF,
  TB_SCHEMA_COMPILE_ERROR_CYCLE,
  TB_SCHEMA_COMPILE_ERROR_TOO_DEEP,
  TB_SCHEMA_COMPILE_ERROR_UNSUPPORTED_DRAFT,
} TbSchemaCompileError;

/**
 * TbSchemaDraft:
 * @TB_SCHEMA_DRAFT_AUTO: from the schema's `$schema`; draft 2020-12 when absent.
 * @TB_SCHEMA_DRAFT_2020_12: JSON Schema draft 2020-12.
 * @TB_SCHEMA_DRAFT_7: JSON Schema draft-07.
 *
 * The dialect of JSON Schema a schema is compiled as; the keywords and their
 * meaning differ between them.
 */
typedef enum
{
  TB_SCHEMA_DRAFT_AUTO,
  TB_SCHEMA_DRAFT_2020_12,
  TB_SCHEMA_DRAFT_7,
} TbSchemaDraft;

/**
 * TbSchemaFlags:
 * @TB_SCHEMA_FLAGS_NONE: `format` is an annotation only, as the specification says.
 * @TB_SCHEMA_FLAGS_ASSERT_FORMAT: `format` is checked for date-time, date,
 *   time, email, hostname, ipv4, ipv6, uri, uuid and regex.
 *
 * How tb_schema_new_full() compiles a schema.
 */
typedef enum
{
  TB_SCHEMA_FLAGS_NONE = 0,
  TB_SCHEMA_FLAGS_ASSERT_FORMAT = 1 << 0,
} TbSchemaFlags;

/**
 * TbSchemaValidateFlags:
 * @TB_SCHEMA_VALIDATE_ALL_ERRORS: collect every error.
 * @TB_SCHEMA_VALIDATE_FIRST_ERROR: stop at the first error (faster).
 *
 * How tb_schema_validate_full() reports what does not match.
 */
typedef enum
{
  TB_SCHEMA_VALIDATE_ALL_ERRORS = 0,
  TB_SCHEMA_VALIDATE_FIRST_ERROR = 1 << 0,
} TbSchemaValidateFlags;

#define TB_TYPE_SCHEMA (tb_schema_get_type ())

G_DECLARE_FINAL_TYPE (TbSchema, tb_schema, TB, SCHEMA, GObject)

GQuark            tb_schema_compile_error_quark (void);

TbSchema         *tb_schema_new                 (JsonNode               *schema,
                                                 TbSchemaDraft           draft_or_auto,
                                                 GError                **error);
TbSchema         *tb_schema_new_full            (JsonNode               *schema,
                                                 TbSchemaDraft           draft_or_auto,
                                                 TbSchemaFlags           flags,
                                                 TbSchemaRegistry       *registry,
                                                 GError                **error);
TbSchemaDraft     tb_schema_get_draft           (TbSchema               *self);
JsonNode         *tb_schema_get_json            (TbSchema               *self);
gboolean          tb_schema_validate            (TbSchema               *self,
                                                 JsonNode               *instance,
                                                 GPtrArray             **errors);
JsonNode         *tb_schema_follow_fragment     (JsonNode               *document,
                                                 const char             *fragment);
gboolean          tb_schema_validate_full       (TbSchema               *self,
                                                 JsonNode               *instance,
                                                 TbSchemaValidateFlags   flags,
                                                 GPtrArray             **errors);
gboolean          tb_schema_validate_text       (TbSchema               *self,
                                                 const char             *text,
                                                 gssize                  length,
                                                 TbSchemaValidateFlags   flags,
                                                 GPtrArray             **errors,
                                                 GError                **error);

G_END_DECLS
