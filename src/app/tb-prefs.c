/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-prefs"

#include "config.h"

#include <glib/gi18n.h>

#include "toolbench.h"
#include "tb-prefs-private.h"

/* The checked side of the preferences: every change goes through here so a
 * value out of range, a URL that is not one or an MCP entry naming a missing
 * command is refused with a sentence, and the setting in place stays. The
 * window only shows these messages. Secrets never pass through here. */

G_DEFINE_QUARK (tb-prefs-error-quark, tb_prefs_error)

void
tb_provider_endpoint_free (TbProviderEndpoint *endpoint)
{
  if (endpoint == NULL)
    return;
  g_free (endpoint->name);
  g_free (endpoint->kind);
  g_free (endpoint->base_url);
  g_free (endpoint->model);
  g_free (endpoint);
}

/**
 * tb_provider_endpoint_create:
 * @endpoint: a configured endpoint
 * @api_key: (nullable): its key, from the #TbSecretStore
 *
 * Returns: (transfer full) (nullable): a provider for the endpoint, or
 *   %NULL when its kind is unknown
 */
TbProvider *
tb_provider_endpoint_create (TbProviderEndpoint *endpoint,
                             const char         *api_key)
{
  const char *model;

  g_return_val_if_fail (endpoint != NULL, NULL);

  model = endpoint->model != NULL && *endpoint->model != '\0' ? endpoint->model : NULL;
  return tb_provider_new_for_kind (endpoint->kind, endpoint->base_url, model, api_key, NULL);
}

/**
 * tb_prefs_check_url:
 * @text: what a person typed
 * @error: the error
 *
 * Returns: whether @text is an absolute http:// or https:// URL with a host
 */
gboolean
tb_prefs_check_url (const char  *text,
                    GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *scheme;

  if (text == NULL || *text == '\0')
    {
      g_set_error_literal (error, TB_PREFS_ERROR, TB_PREFS_ERROR_URL,
                           _("The base URL is empty; enter one such as "
                             "https://api.openai.com/v1."));
      return FALSE;
    }
  uri = g_uri_parse (text, G_URI_FLAGS_NONE, &local_error);
  if (uri == NULL)
    {
      g_set_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_URL,
                   _("“%s” is not a URL (%s); enter one such as https://api.openai.com/v1."),
                   text, local_error->message);
      return FALSE;
    }
  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0)
    {
      g_set_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_URL,
                   _("“%s” is not an http:// or https:// URL."), text);
      return FALSE;
    }
  if (g_uri_get_host (uri) == NULL || *g_uri_get_host (uri) == '\0')
    {
      g_set_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_URL,
                   _("“%s” has no host name."), text);
      return FALSE;
    }
  return TRUE;
}

/* The names people see in the preferences; compiled schemas do not always
 * keep their summaries. */
static const char *
key_label (const char *key)
{
  if (g_strcmp0 (key, "loop-iteration-cap") == 0)
    return _("Iteration cap");
  if (g_strcmp0 (key, "tool-timeout-seconds") == 0)
    return _("Tool timeout");
  if (g_strcmp0 (key, "approval-policy") == 0)
    return _("Approval policy");
  return key;
}

static GSettingsSchemaKey *
lookup_key (GSettings  *settings,
            const char *key)
{
  g_autoptr(GSettingsSchema) schema = NULL;

  g_object_get (settings, "settings-schema", &schema, NULL);
  g_return_val_if_fail (g_settings_schema_has_key (schema, key), NULL);
  return g_settings_schema_get_key (schema, key);
}

/**
 * tb_prefs_set_uint:
 * @settings: the app's settings
 * @key: a key of type `u` with a range
 * @value: the new value
 * @error: the error
 *
 * Returns: whether @value was in the key's range and is saved; otherwise the
 *   old value stays and @error says which range applies
 */
gboolean
tb_prefs_set_uint (GSettings   *settings,
                   const char  *key,
                   guint        value,
                   GError     **error)
{
  g_autoptr(GSettingsSchemaKey) schema_key = lookup_key (settings, key);
  g_autoptr(GVariant) variant = g_variant_ref_sink (g_variant_new_uint32 (value));

  g_return_val_if_fail (schema_key != NULL, FALSE);

  if (!g_settings_schema_key_range_check (schema_key, variant))
    {
      g_autoptr(GVariant) range = g_settings_schema_key_get_range (schema_key);
      const char *type = NULL;
      g_autoptr(GVariant) bounds = NULL;
      guint32 min = 0, max = G_MAXUINT32;

      g_variant_get (range, "(&sv)", &type, &bounds);
      if (g_strcmp0 (type, "range") == 0)
        g_variant_get (bounds, "(uu)", &min, &max);
      g_set_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_RANGE,
                   _("%s must be between %u and %u; %u was not saved and the setting "
                     "stays %u."),
                   key_label (key), min, max, value,
                   g_settings_get_uint (settings, key));
      return FALSE;
    }
  g_settings_set_uint (settings, key, value);
  return TRUE;
}

/**
 * tb_prefs_set_string_choice:
 * @settings: the app's settings
 * @key: a key of type `s` with choices
 * @value: the new value
 * @error: the error
 *
 * Returns: whether @value is one of the key's choices and is saved
 */
gboolean
tb_prefs_set_string_choice (GSettings   *settings,
                            const char  *key,
                            const char  *value,
                            GError     **error)
{
  g_autoptr(GSettingsSchemaKey) schema_key = lookup_key (settings, key);
  g_autoptr(GVariant) variant = NULL;

  g_return_val_if_fail (schema_key != NULL, FALSE);

  variant = g_variant_ref_sink (g_variant_new_string (value != NULL ? value : ""));
  if (!g_settings_schema_key_range_check (schema_key, variant))
    {
      g_autofree char *current = g_settings_get_string (settings, key);

      g_set_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_RANGE,
                   _("“%s” is not a possible value of %s; the setting stays “%s”."),
                   value != NULL ? value : "", key_label (key),
                   current);
      return FALSE;
    }
  g_settings_set_string (settings, key, value);
  return TRUE;
}

/**
 * tb_prefs_get_approval_policy:
 * @settings: the app's settings
 *
 * Returns: the loop's approval policy for new loops
 */
TbApprovalPolicy
tb_prefs_get_approval_policy (GSettings *settings)
{
  g_autofree char *text = g_settings_get_string (settings, "approval-policy");
  TbApprovalPolicy policy;

  if (!tb_approval_policy_from_string (text, &policy))
    return TB_APPROVAL_POLICY_ASK;
  return policy;
}

/**
 * tb_prefs_get_providers:
 * @settings: the app's settings
 *
 * Returns: (transfer full) (element-type TbProviderEndpoint): the endpoints
 */
GPtrArray *
tb_prefs_get_providers (GSettings *settings)
{
  g_autoptr(GVariant) value = g_settings_get_value (settings, "providers");
  GPtrArray *endpoints =
    g_ptr_array_new_with_free_func ((GDestroyNotify) tb_provider_endpoint_free);
  GVariantIter iter;
  const char *name, *kind, *base_url, *model;

  g_variant_iter_init (&iter, value);
  while (g_variant_iter_next (&iter, "(&s&s&s&s)", &name, &kind, &base_url, &model))
    {
      TbProviderEndpoint *endpoint = g_new0 (TbProviderEndpoint, 1);

      endpoint->name = g_strdup (name);
      endpoint->kind = g_strdup (kind);
      endpoint->base_url = g_strdup (base_url);
      endpoint->model = g_strdup (model);
      g_ptr_array_add (endpoints, endpoint);
    }
  return endpoints;
}

/* Endpoints and MCP servers are kept as arrays of structs whose first
 * member is the name; these find, place and remove them by it. */
int
_tb_prefs_find_named (GPtrArray  *rows,
                      const char *name)
{
  for (guint i = 0; i < rows->len; i++)
    if (g_strcmp0 (*(char **) g_ptr_array_index (rows, i), name) == 0)
      return i;
  return -1;
}

/* Where a row named @name goes: in place of @old_name's when editing
 * (@replace), at the end when adding (@replace is -1). */
TbPrefsSlot
_tb_prefs_find_slot (GPtrArray  *rows,
                     const char *old_name,
                     const char *name,
                     int        *replace)
{
  int existing = _tb_prefs_find_named (rows, name);

  *replace = old_name != NULL ? _tb_prefs_find_named (rows, old_name) : -1;
  if (old_name != NULL && *replace < 0)
    return TB_PREFS_SLOT_GONE;
  if (existing >= 0 && existing != *replace)
    return TB_PREFS_SLOT_TAKEN;
  return TB_PREFS_SLOT_FREE;
}

void
_tb_prefs_put_named (GPtrArray *rows,
                     int        replace,
                     gpointer   row)
{
  if (replace < 0)
    {
      g_ptr_array_add (rows, row);
      return;
    }
  g_ptr_array_remove_index (rows, replace);
  g_ptr_array_insert (rows, replace, row);
}

/**
 * tb_prefs_find_provider:
 * @settings: the app's settings
 * @name: an endpoint's name
 *
 * Returns: (transfer full) (nullable): the endpoint
 */
TbProviderEndpoint *
tb_prefs_find_provider (GSettings  *settings,
                        const char *name)
{
  g_autoptr(GPtrArray) endpoints = tb_prefs_get_providers (settings);
  int index = _tb_prefs_find_named (endpoints, name);

  return index >= 0 ? g_ptr_array_steal_index (endpoints, index) : NULL;
}

static void
write_providers (GSettings *settings,
                 GPtrArray *endpoints)
{
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(ssss)"));
  for (guint i = 0; i < endpoints->len; i++)
    {
      TbProviderEndpoint *endpoint = g_ptr_array_index (endpoints, i);

      g_variant_builder_add (&builder, "(ssss)", endpoint->name, endpoint->kind,
                             endpoint->base_url, endpoint->model != NULL ? endpoint->model : "");
    }
  g_settings_set_value (settings, "providers", g_variant_builder_end (&builder));
}

/**
 * tb_prefs_save_provider:
 * @settings: the app's settings
 * @old_name: (nullable): the name of the endpoint being edited, %NULL to add
 * @name: the name
 * @kind: one of tb_provider_kinds()
 * @base_url: the base URL
 * @model: (nullable): the default model
 * @error: the error
 *
 * Adds or replaces an endpoint after checking it; nothing changes on error.
 *
 * Returns: whether the endpoint is saved
 */
gboolean
tb_prefs_save_provider (GSettings   *settings,
                        const char  *old_name,
                        const char  *name,
                        const char  *kind,
                        const char  *base_url,
                        const char  *model,
                        GError     **error)
{
  g_autoptr(GPtrArray) endpoints = tb_prefs_get_providers (settings);
  g_autofree char *clean_name = g_strstrip (g_strdup (name != NULL ? name : ""));
  g_autofree char *clean_url = g_strstrip (g_strdup (base_url != NULL ? base_url : ""));
  TbProviderEndpoint *endpoint;
  int replace = -1;

  if (*clean_name == '\0')
    {
      g_set_error_literal (error, TB_PREFS_ERROR, TB_PREFS_ERROR_INVALID,
                           _("The endpoint has no name; give it one, such as “Local Ollama”."));
      return FALSE;
    }
  if (!tb_provider_kind_is_known (kind))
    {
      g_autoptr(GString) labels = g_string_new (NULL);
      const char * const *kinds = tb_provider_kinds ();

      for (guint i = 0; kinds[i] != NULL; i++)
        g_string_append_printf (labels, "%s%s", i > 0 ? ", " : "",
                                tb_provider_kind_get_label (kinds[i]));
      g_set_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_INVALID,
                   _("“%s” is not a provider kind; choose one of %s."),
                   kind != NULL ? kind : "", labels->str);
      return FALSE;
    }
  if (!tb_prefs_check_url (clean_url, error))
    return FALSE;

  switch (_tb_prefs_find_slot (endpoints, old_name, clean_name, &replace))
    {
    case TB_PREFS_SLOT_GONE:
      g_set_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_NOT_FOUND,
                   _("The endpoint “%s” is gone; add it again."), old_name);
      return FALSE;
    case TB_PREFS_SLOT_TAKEN:
      g_set_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_EXISTS,
                   _("An endpoint named “%s” already exists; choose another name."),
                   clean_name);
      return FALSE;
    case TB_PREFS_SLOT_FREE:
    default:
      break;
    }

  endpoint = g_new0 (TbProviderEndpoint, 1);
  endpoint->name = g_steal_pointer (&clean_name);
  endpoint->kind = g_strdup (kind);
  endpoint->base_url = g_steal_pointer (&clean_url);
  endpoint->model = g_strstrip (g_strdup (model != NULL ? model : ""));
  _tb_prefs_put_named (endpoints, replace, endpoint);
  write_providers (settings, endpoints);
  return TRUE;
}

/**
 * tb_prefs_remove_provider:
 * @settings: the app's settings
 * @name: the endpoint's name
 * @error: the error
 *
 * Returns: whether the endpoint was there and is removed
 */
gboolean
tb_prefs_remove_provider (GSettings   *settings,
                          const char  *name,
                          GError     **error)
{
  g_autoptr(GPtrArray) endpoints = tb_prefs_get_providers (settings);
  int index = _tb_prefs_find_named (endpoints, name);

  if (index < 0)
    {
      g_set_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_NOT_FOUND,
                   _("There is no endpoint named “%s”."), name);
      return FALSE;
    }
  g_ptr_array_remove_index (endpoints, index);
  write_providers (settings, endpoints);
  return TRUE;
}

/**
 * tb_prefs_set_dict_entry:
 * @settings: the app's settings
 * @key: a key of type `a{ss}`
 * @name: the entry's name
 * @value: (nullable): its value; %NULL removes the entry
 * @max_entries: how many entries to keep at most, the newest first; 0 for
 *   no limit
 *
 * Sets one entry of a dictionary setting, keeping the others.
 */
void
tb_prefs_set_dict_entry (GSettings  *settings,
                         const char *key,
                         const char *name,
                         const char *value,
                         guint       max_entries)
{
  g_autoptr(GVariant) old = g_settings_get_value (settings, key);
  GVariantBuilder builder;
  GVariantIter iter;
  const char *other_name;
  const char *other_value;
  guint kept = 0;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{ss}"));
  if (value != NULL)
    {
      g_variant_builder_add (&builder, "{ss}", name, value);
      kept++;
    }
  g_variant_iter_init (&iter, old);
  while (g_variant_iter_next (&iter, "{&s&s}", &other_name, &other_value))
    if (!g_str_equal (other_name, name) && (max_entries == 0 || kept++ < max_entries))
      g_variant_builder_add (&builder, "{ss}", other_name, other_value);
  g_settings_set_value (settings, key, g_variant_builder_end (&builder));
}

/**
 * tb_prefs_set_tool_hints:
 * @settings: the app's settings
 * @name: a tool's name
 * @hints: (nullable): what the person says it does, as
 *   tb_tool_hints_to_string() writes it; %NULL for the tool's own hints
 */
void
tb_prefs_set_tool_hints (GSettings  *settings,
                         const char *name,
                         const char *hints)
{
  tb_prefs_set_dict_entry (settings, "tool-hints", name, hints, 0);
}

static gboolean
check_folder (const char  *path,
              GError     **error)
{
  if (path == NULL || !g_path_is_absolute (path))
    {
      g_set_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_FOLDER,
                   _("“%s” is not an absolute path; choose a folder."),
                   path != NULL ? path : "");
      return FALSE;
    }
  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_FOLDER,
                   _("“%s” is not a folder; choose an existing folder."), path);
      return FALSE;
    }
  return TRUE;
}

/**
 * tb_prefs_add_tool_folder:
 * @settings: the app's settings
 * @path: an absolute folder path
 * @error: the error
 *
 * Returns: whether @path is a folder and now in the list (adding a folder
 *   already there succeeds without a duplicate)
 */
gboolean
tb_prefs_add_tool_folder (GSettings   *settings,
                          const char  *path,
                          GError     **error)
{
  g_auto(GStrv) folders = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) updated = NULL;

  if (!check_folder (path, error))
    return FALSE;
  folders = g_settings_get_strv (settings, "tool-folders");
  if (g_strv_contains ((const char * const *) folders, path))
    return TRUE;
  builder = g_strv_builder_new ();
  g_strv_builder_addv (builder, (const char **) folders);
  g_strv_builder_add (builder, path);
  updated = g_strv_builder_end (builder);
  g_settings_set_strv (settings, "tool-folders", (const char * const *) updated);
  return TRUE;
}

/**
 * tb_prefs_remove_tool_folder:
 * @settings: the app's settings
 * @path: a folder in the list
 *
 * Returns: whether the folder was in the list
 */
gboolean
tb_prefs_remove_tool_folder (GSettings  *settings,
                             const char *path)
{
  g_auto(GStrv) folders = g_settings_get_strv (settings, "tool-folders");
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) updated = NULL;
  gboolean found = FALSE;

  for (guint i = 0; folders[i] != NULL; i++)
    {
      if (g_strcmp0 (folders[i], path) == 0)
        found = TRUE;
      else
        g_strv_builder_add (builder, folders[i]);
    }
  updated = g_strv_builder_end (builder);
  if (found)
    g_settings_set_strv (settings, "tool-folders", (const char * const *) updated);
  return found;
}

/**
 * tb_prefs_set_sandbox_root:
 * @settings: the app's settings
 * @path: (nullable): an absolute folder, or %NULL or "" to turn the file
 *   tools off
 * @error: the error
 *
 * Returns: whether the root is saved
 */
gboolean
tb_prefs_set_sandbox_root (GSettings   *settings,
                           const char  *path,
                           GError     **error)
{
  if (path != NULL && *path != '\0' && !check_folder (path, error))
    return FALSE;
  g_settings_set_string (settings, "sandbox-root", path != NULL ? path : "");
  return TRUE;
}
