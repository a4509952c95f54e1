/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "tb-mcp-auth.h"
#include "tb-mcp-wire-writer.h"
#include "tb-types.h"

G_BEGIN_DECLS

#define TB_TYPE_TOOL_SOURCE_SET (tb_tool_source_set_get_type ())

G_DECLARE_FINAL_TYPE (TbToolSourceSet, tb_tool_source_set, TB, TOOL_SOURCE_SET, GObject)

typedef struct _TbToolSession TbToolSession;

/**
 * TbMcpAuthSetupFunc:
 * @auth: the authorization of an HTTP server about to connect
 * @user_data: closure data
 *
 * Sets up how a server signs in (mode, client, handlers of
 * #TbMcpAuth::present-url) before it connects.
 */
typedef void (*TbMcpAuthSetupFunc) (TbMcpAuth *auth,
                                    gpointer   user_data);

TbToolSourceSet      *tb_tool_source_set_new                 (void);
TbToolSourceSet      *tb_tool_source_set_copy                (TbToolSourceSet      *self);
void                  tb_tool_source_set_add_all             (TbToolSourceSet      *self,
                                                              TbToolSourceSet      *other);
gboolean              tb_tool_source_set_add_mcp_config      (TbToolSourceSet      *self,
                                                              JsonNode             *config,
                                                              const char           *base_dir,
                                                              GError              **error);
gboolean              tb_tool_source_set_add_mcp_config_file (TbToolSourceSet      *self,
                                                              const char           *path,
                                                              GError              **error);
gboolean              tb_tool_source_set_add_mcp_spec        (TbToolSourceSet      *self,
                                                              const char           *spec,
                                                              GError              **error);
void                  tb_tool_source_set_add_mcp_url         (TbToolSourceSet      *self,
                                                              const char           *name,
                                                              const char           *url);
void                  tb_tool_source_set_add_tools_dir       (TbToolSourceSet      *self,
                                                              const char           *dir);
void                  tb_tool_source_set_add_plugins_dir     (TbToolSourceSet      *self,
                                                              const char           *dir);
void                  tb_tool_source_set_set_files_root      (TbToolSourceSet      *self,
                                                              const char           *dir);
const char           *tb_tool_source_set_get_files_root     (TbToolSourceSet      *self);
void                  tb_tool_source_set_set_workspace       (TbToolSourceSet      *self,
                                                              const char           *path,
                                                              gboolean              private_copy);
const char           *tb_tool_source_set_get_workspace      (TbToolSourceSet      *self);
void                  tb_tool_source_set_set_auth_setup      (TbToolSourceSet      *self,
                                                              TbMcpAuthSetupFunc    func,
                                                              gpointer              user_data);
void                  tb_tool_source_set_set_elicitation     (TbToolSourceSet      *self,
                                                              TbElicitationAnswer   answer);
void             tb_tool_source_set_set_mcp_protocol (TbToolSourceSet *self,
                                                     TbMcpProtocol    protocol);
void                  tb_tool_source_set_set_wire_writer     (TbToolSourceSet      *self,
                                                              TbMcpWireWriter      *writer);
TbMcpWireWriter      *tb_tool_source_set_get_wire_writer     (TbToolSourceSet      *self);
gboolean              tb_tool_source_set_parse_elicitation   (const char           *text,
                                                              TbElicitationAnswer  *answer);
gboolean              tb_tool_source_set_add_from_json       (TbToolSourceSet      *self,
                                                              JsonObject           *object,
                                                              const char           *base_dir,
                                                              GError              **error);
guint                 tb_tool_source_set_get_n_servers       (TbToolSourceSet      *self);
void                  tb_tool_source_set_open_async          (TbToolSourceSet      *self,
                                                              GCancellable         *cancellable,
                                                              GAsyncReadyCallback   callback,
                                                              gpointer              user_data);
TbToolSession        *tb_tool_source_set_open_finish        (TbToolSourceSet      *self,
                                                              GAsyncResult         *result,
                                                              GError              **error);

G_END_DECLS
