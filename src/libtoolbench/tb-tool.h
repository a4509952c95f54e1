/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "tb-types.h"
#include "tb-schema.h"
#include "tb-tool-result.h"

G_BEGIN_DECLS

#define TB_TYPE_TOOL (tb_tool_get_type())

G_DECLARE_DERIVABLE_TYPE (TbTool, tb_tool, TB, TOOL, GObject)

/**
 * TB_TOOL_NAME_MAX:
 *
 * The longest tool name, in bytes: names are 1 to 64 characters of
 * `[A-Za-z0-9_.-]`.
 */
#define TB_TOOL_NAME_MAX 64

/**
 * TB_TOOL_DESCRIPTION_MAX:
 *
 * The longest tool description, in bytes (64 KiB). Providers reject far
 * shorter ones; a larger one is almost certainly a mistake.
 */
#define TB_TOOL_DESCRIPTION_MAX (64 * 1024)

#define TB_TOOL_ERROR (tb_tool_error_quark ())

/**
 * TbToolError:
 * @TB_TOOL_ERROR_INVALID_NAME: the name is empty, too long or has characters outside `[A-Za-z0-9_.-]`.
 * @TB_TOOL_ERROR_INVALID_DESCRIPTION: the description is too long or not UTF-8.
 * @TB_TOOL_ERROR_INVALID_SCHEMA: the parameters schema is not a JSON object.
 * @TB_TOOL_ERROR_INVALID_ARGUMENTS: a handler refuses its arguments.
 * @TB_TOOL_ERROR_PERMISSION_DENIED: a handler refuses the call (sandbox, lock, policy).
 * @TB_TOOL_ERROR_FAILED: a handler failed.
 *
 * Handlers may report the last three; the registry turns them into the
 * matching #TbToolFailureKind.
 */
typedef enum
{
  TB_TOOL_ERROR_INVALID_NAME,
  TB_TOOL_ERROR_INVALID_DESCRIPTION,
  TB_TOOL_ERROR_INVALID_SCHEMA,
  TB_TOOL_ERROR_INVALID_ARGUMENTS,
  TB_TOOL_ERROR_PERMISSION_DENIED,
  TB_TOOL_ERROR_FAILED,
} TbToolError;

/**
 * TbToolClass:
 * @invoke_async: runs the tool. @arguments is a JSON object that already
 *   passed validation; @context is opaque to the registry (the loop puts the
 *   call id and iteration there).
 * @invoke_finish: returns the result, or %NULL with an error that the
 *   registry turns into a failure result.
 * @validate_arguments: checks @arguments against the tool's parameters;
 *   fills @errors with #TbSchemaError. The default uses the compiled schema.
 *
 * The virtual functions of a tool. A subclass overrides @invoke_async and
 * @invoke_finish; the registry calls them through tb_tool_invoke_async()
 * after validating the arguments, and ends the call itself when it times out
 * or is cancelled.
 */
struct _TbToolClass
{
  GObjectClass parent_class;

  void           (*invoke_async)       (TbTool               *self,
                                        JsonNode             *arguments,
                                        JsonObject           *context,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data);
  TbToolResult  *(*invoke_finish)      (TbTool               *self,
                                        GAsyncResult         *result,
                                        GError              **error);
  gboolean       (*validate_arguments) (TbTool               *self,
                                        JsonNode             *arguments,
                                        GPtrArray            *errors);

  /*< private >*/
  gpointer _reserved[8];
};

/**
 * TbToolClass::validate_arguments:
 * @self: a tool
 * @arguments: the arguments, a JSON object
 * @errors: (element-type TbSchemaError): the array to add a
 *   #TbSchemaError to for each reason the arguments do not match
 *
 * Checks arguments before a call, as tb_tool_validate_arguments() does. The
 * default validates against the compiled parameters schema. An MCP tool
 * whose schema is broken overrides it to accept the arguments, so that the
 * call's own failure explains the schema; others chain up to the default.
 *
 * Returns: %TRUE when the arguments are acceptable
 */

/**
 * TbToolSimpleFlags:
 * @TB_TOOL_SIMPLE_FLAGS_NONE: run on the calling thread's main context.
 * @TB_TOOL_SIMPLE_FLAGS_THREADED: the callback may block and is safe to run on a worker thread.
 *
 * How a tool made with tb_tool_new_simple() runs its function.
 */
typedef enum
{
  TB_TOOL_SIMPLE_FLAGS_NONE = 0,
  TB_TOOL_SIMPLE_FLAGS_THREADED = 1 << 0,
} TbToolSimpleFlags;

/**
 * TbToolSimpleFunc:
 * @tool: the tool
 * @arguments: the arguments, a validated JSON object
 * @context: (nullable): the call's context
 * @cancellable: (nullable): check it when the work is long
 * @user_data: closure data
 * @error: return location for an error
 *
 * The function behind a tool made with tb_tool_new_simple(): it answers one
 * call. Return the output as JSON, or %NULL with @error set; a #TbToolError
 * picks the failure kind the model sees (invalid arguments, permission
 * denied), any other error is an execution failure with its message.
 *
 * Returns: (transfer full) (nullable): the output, or %NULL with @error set
 */
typedef JsonNode *(*TbToolSimpleFunc) (TbTool        *tool,
                                       JsonObject    *arguments,
                                       JsonObject    *context,
                                       GCancellable  *cancellable,
                                       gpointer       user_data,
                                       GError       **error);

GQuark            tb_tool_error_quark           (void);
gboolean          tb_tool_name_is_valid         (const char          *name,
                                                 GError             **error);
TbTool           *tb_tool_new_simple            (const char          *name,
                                                 const char          *description,
                                                 JsonNode            *parameters,
                                                 TbToolSimpleFlags    flags,
                                                 TbToolSimpleFunc     func,
                                                 gpointer             user_data,
                                                 GDestroyNotify       destroy,
                                                 GError             **error);
TbTool           *tb_tool_new_simple_full       (const char          *name,
                                                 const char          *description,
                                                 JsonNode            *parameters,
                                                 TbToolVisibility     visibility,
                                                 const char          *source,
                                                 guint                timeout_ms,
                                                 TbToolSimpleFlags    flags,
                                                 TbToolSimpleFunc     func,
                                                 gpointer             user_data,
                                                 GDestroyNotify       destroy,
                                                 GError             **error);
const char       *tb_tool_get_name              (TbTool              *self);
const char       *tb_tool_get_description       (TbTool              *self);
JsonNode         *tb_tool_get_parameters        (TbTool              *self);
TbToolVisibility  tb_tool_get_visibility        (TbTool              *self);
const char       *tb_tool_get_source            (TbTool              *self);
const char       *tb_tool_get_title             (TbTool              *self);
TbToolHints       tb_tool_get_hints             (TbTool              *self);
char             *tb_tool_hints_to_string       (TbToolHints          hints);
gboolean          tb_tool_hints_from_string     (const char          *text,
                                                 TbToolHints         *hints,
                                                 GError             **error);
JsonNode         *tb_tool_get_icons             (TbTool              *self);
guint             tb_tool_get_timeout_ms        (TbTool              *self);
gboolean          tb_tool_takes_no_arguments    (TbTool              *self);
JsonNode         *tb_tool_to_definition         (TbTool              *self);
gboolean          tb_tool_validate_arguments    (TbTool              *self,
                                                 JsonNode            *arguments,
                                                 GPtrArray          **errors);
void              tb_tool_invoke_async          (TbTool              *self,
                                                 JsonNode            *arguments,
                                                 JsonObject          *context,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
TbToolResult     *tb_tool_invoke_finish         (TbTool              *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);
TbSchema         *tb_tool_get_schema            (TbTool              *self);
const GError     *tb_tool_get_schema_error      (TbTool              *self);

G_END_DECLS
