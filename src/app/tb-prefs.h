/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_PREFS_ERROR (tb_prefs_error_quark ())

/**
 * TbPrefsError:
 * @TB_PREFS_ERROR_INVALID: a value is not acceptable (empty name, bad kind).
 * @TB_PREFS_ERROR_RANGE: a number is outside the range of its setting.
 * @TB_PREFS_ERROR_URL: a text that must be an http(s) URL is not one.
 * @TB_PREFS_ERROR_EXISTS: another entry already has this name.
 * @TB_PREFS_ERROR_NOT_FOUND: no entry has this name.
 * @TB_PREFS_ERROR_MCP_CONFIG: an MCP configuration is not usable.
 * @TB_PREFS_ERROR_FOLDER: a path that must be a folder is not one.
 *
 * Errors of the preferences. Every message says what was refused and that
 * the previous setting is kept.
 */
typedef enum
{
  TB_PREFS_ERROR_INVALID,
  TB_PREFS_ERROR_RANGE,
  TB_PREFS_ERROR_URL,
  TB_PREFS_ERROR_EXISTS,
  TB_PREFS_ERROR_NOT_FOUND,
  TB_PREFS_ERROR_MCP_CONFIG,
  TB_PREFS_ERROR_FOLDER,
} TbPrefsError;

/**
 * TbProviderEndpoint:
 * @name: the name a person gave the endpoint
 * @kind: "openai", "anthropic" or "gemini"
 * @base_url: the base URL
 * @model: the default model, possibly empty
 */
typedef struct
{
  char *name;
  char *kind;
  char *base_url;
  char *model;
} TbProviderEndpoint;

GQuark              tb_prefs_error_quark           (void);
void                tb_provider_endpoint_free      (TbProviderEndpoint  *endpoint);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TbProviderEndpoint, tb_provider_endpoint_free)

TbProvider         *tb_provider_endpoint_create    (TbProviderEndpoint  *endpoint,
                                                    const char          *api_key);
gboolean            tb_prefs_set_uint              (GSettings           *settings,
                                                    const char          *key,
                                                    guint                value,
                                                    GError             **error);
TbApprovalPolicy    tb_prefs_get_approval_policy   (GSettings           *settings);
gboolean            tb_prefs_set_string_choice     (GSettings           *settings,
                                                    const char          *key,
                                                    const char          *value,
                                                    GError             **error);

GPtrArray          *tb_prefs_get_providers         (GSettings           *settings);
TbProviderEndpoint *tb_prefs_find_provider         (GSettings           *settings,
                                                    const char          *name);
gboolean            tb_prefs_save_provider         (GSettings           *settings,
                                                    const char          *old_name,
                                                    const char          *name,
                                                    const char          *kind,
                                                    const char          *base_url,
                                                    const char          *model,
                                                    GError             **error);
gboolean            tb_prefs_remove_provider       (GSettings           *settings,
                                                    const char          *name,
                                                    GError             **error);

void                tb_prefs_set_dict_entry        (GSettings           *settings,
                                                    const char          *key,
                                                    const char          *name,
                                                    const char          *value,
                                                    guint                max_entries);
void                tb_prefs_set_tool_hints        (GSettings           *settings,
                                                    const char          *name,
                                                    const char          *hints);
gboolean            tb_prefs_in_flatpak            (void);
JsonObject         *tb_prefs_wrap_for_host         (JsonObject          *entry);
gboolean            tb_prefs_check_mcp_entry       (const char          *name,
                                                    JsonObject          *entry,
                                                    GError             **error);
gboolean            tb_prefs_save_mcp_server       (GSettings           *settings,
                                                    const char          *old_name,
                                                    const char          *name,
                                                    gboolean             enabled,
                                                    const char          *entry_json,
                                                    GError             **error);
void                tb_prefs_save_mcp_server_async (GSettings           *settings,
                                                    TbSecretStore       *store,
                                                    const char          *old_name,
                                                    const char          *name,
                                                    gboolean             enabled,
                                                    const char          *entry_json,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);
gboolean            tb_prefs_save_mcp_server_finish (GSettings          *settings,
                                                     GAsyncResult       *result,
                                                     GError            **error);
gboolean            tb_prefs_set_mcp_enabled       (GSettings           *settings,
                                                    const char          *name,
                                                    gboolean             enabled,
                                                    GError             **error);
gboolean            tb_prefs_remove_mcp_server     (GSettings           *settings,
                                                    const char          *name,
                                                    GError             **error);
void                tb_prefs_remove_mcp_server_async (GSettings         *settings,
                                                      TbSecretStore     *store,
                                                      const char        *name,
                                                      GCancellable      *cancellable,
                                                      GAsyncReadyCallback callback,
                                                      gpointer           user_data);
gboolean            tb_prefs_remove_mcp_server_finish (GSettings        *settings,
                                                       GAsyncResult     *result,
                                                       GError          **error);
void                tb_prefs_import_mcp_config_async (GSettings         *settings,
                                                      TbSecretStore     *store,
                                                      const char        *text,
                                                      gssize             length,
                                                      GCancellable      *cancellable,
                                                      GAsyncReadyCallback callback,
                                                      gpointer           user_data);
guint               tb_prefs_import_mcp_config_finish (GSettings        *settings,
                                                       GAsyncResult     *result,
                                                       GStrv            *problems,
                                                       GError          **error);
void                tb_prefs_move_mcp_headers_async (GSettings          *settings,
                                                     TbSecretStore      *store,
                                                     GCancellable       *cancellable,
                                                     GAsyncReadyCallback callback,
                                                     gpointer            user_data);
int                 tb_prefs_move_mcp_headers_finish (GSettings         *settings,
                                                      GAsyncResult      *result,
                                                      GError           **error);
JsonNode           *tb_prefs_get_mcp_config        (GSettings           *settings,
                                                    gboolean             enabled_only);

gboolean            tb_prefs_add_tool_folder       (GSettings           *settings,
                                                    const char          *path,
                                                    GError             **error);
gboolean            tb_prefs_remove_tool_folder    (GSettings           *settings,
                                                    const char          *path);
gboolean            tb_prefs_set_sandbox_root      (GSettings           *settings,
                                                    const char          *path,
                                                    GError             **error);

G_END_DECLS
