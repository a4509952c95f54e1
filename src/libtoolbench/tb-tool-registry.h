/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "tb-tool.h"

G_BEGIN_DECLS

#define TB_TYPE_TOOL_REGISTRY (tb_tool_registry_get_type())

G_DECLARE_FINAL_TYPE (TbToolRegistry, tb_tool_registry, TB, TOOL_REGISTRY, GObject)

/**
 * TB_TOOL_REGISTRY_DEFAULT_TIMEOUT_MS:
 *
 * The time limit of a call whose tool sets none: 30 seconds.
 */
#define TB_TOOL_REGISTRY_DEFAULT_TIMEOUT_MS 30000

#define TB_REGISTRY_ERROR (tb_registry_error_quark ())

/**
 * TbRegistryError:
 * @TB_REGISTRY_ERROR_DUPLICATE: a tool of that name is already registered.
 * @TB_REGISTRY_ERROR_NOT_FOUND: no tool of that name is registered.
 * @TB_REGISTRY_ERROR_INVALID_TOOL: the tool's name, description or schema is not acceptable.
 *
 * Why a #TbToolRegistry refused to register, remove or subset tools. Calls
 * never fail with these: a call of an unknown tool ends in a failed
 * #TbToolResult instead.
 */
typedef enum
{
  TB_REGISTRY_ERROR_DUPLICATE,
  TB_REGISTRY_ERROR_NOT_FOUND,
  TB_REGISTRY_ERROR_INVALID_TOOL,
} TbRegistryError;

GQuark          tb_registry_error_quark               (void);
TbToolRegistry *tb_tool_registry_new                  (void);
gboolean        tb_tool_registry_register             (TbToolRegistry       *self,
                                                       TbTool               *tool,
                                                       GError              **error);
guint           tb_tool_registry_register_all         (TbToolRegistry       *self,
                                                       GPtrArray            *tools,
                                                       GPtrArray           **errors);
gboolean        tb_tool_registry_unregister           (TbToolRegistry       *self,
                                                       const char           *name,
                                                       GError              **error);
TbTool         *tb_tool_registry_lookup               (TbToolRegistry       *self,
                                                       const char           *name);
gboolean        tb_tool_registry_contains             (TbToolRegistry       *self,
                                                       const char           *name);
guint           tb_tool_registry_get_size             (TbToolRegistry       *self);
char          **tb_tool_registry_get_names            (TbToolRegistry       *self);
char           *tb_tool_registry_suggest_name         (TbToolRegistry       *self,
                                                       const char           *name);
TbToolRegistry *tb_tool_registry_subset               (TbToolRegistry       *self,
                                                       const char * const   *names,
                                                       GError              **error);
TbToolRegistry *tb_tool_registry_get_model_tools      (TbToolRegistry       *self);
JsonNode       *tb_tool_registry_to_definitions       (TbToolRegistry       *self,
                                                       TbDefinitionFormat    format);
char           *tb_tool_registry_to_wire_name         (TbToolRegistry       *self,
                                                       const char           *name);
char           *tb_tool_registry_from_wire_name       (TbToolRegistry       *self,
                                                       const char           *wire_name);
char           *tb_tool_registry_to_wire_name_for     (TbToolRegistry       *self,
                                                       TbDefinitionFormat    format,
                                                       const char           *name);
char           *tb_tool_registry_from_wire_name_for   (TbToolRegistry       *self,
                                                       TbDefinitionFormat    format,
                                                       const char           *wire_name);
guint           tb_tool_registry_get_default_timeout_ms (TbToolRegistry     *self);
void            tb_tool_registry_set_default_timeout_ms (TbToolRegistry     *self,
                                                         guint               timeout_ms);
void            tb_tool_registry_call_async           (TbToolRegistry       *self,
                                                       const char           *name,
                                                       const char           *call_id,
                                                       JsonNode             *arguments,
                                                       JsonObject           *context,
                                                       GCancellable         *cancellable,
                                                       GAsyncReadyCallback   callback,
                                                       gpointer              user_data);
void            tb_tool_registry_call_unvalidated_async (TbToolRegistry     *self,
                                                         const char         *name,
                                                         const char         *call_id,
                                                         JsonNode           *arguments,
                                                         JsonObject         *context,
                                                         GCancellable       *cancellable,
                                                         GAsyncReadyCallback callback,
                                                         gpointer            user_data);
TbToolResult   *tb_tool_registry_call_finish          (TbToolRegistry       *self,
                                                       GAsyncResult         *result);

void             tb_tool_registry_set_hints     (TbToolRegistry       *self,
                                                 const char           *name,
                                                 TbToolHints           hints);
void             tb_tool_registry_unset_hints   (TbToolRegistry       *self,
                                                 const char           *name);
TbToolHints      tb_tool_registry_get_hints     (TbToolRegistry       *self,
                                                 const char           *name,
                                                 gboolean             *overridden);

G_END_DECLS
