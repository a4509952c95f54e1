/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-model-list"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <libsoup/soup.h>

#include "toolbench.h"
#include "tb-model-list.h"
#include "tb-prefs.h"

/* The models call of each provider kind, used by the preferences both to
 * fill the model list and as "Test connection": one GET that proves the URL,
 * the key and the network in one go.
 *   OpenAI-compatible: GET {base}/models        → {"data": [{"id": …}]}
 *   Anthropic:         GET {base}/v1/models     → {"data": [{"id": …}]}
 *   Gemini:            GET {base}/models        → {"models": [{"name": "models/…"}]}
 * The key goes in the header each provider expects and never into a
 * message or a log. */

#define MAX_BODY (8 * 1024 * 1024)

G_DEFINE_QUARK (tb-model-list-error-quark, tb_model_list_error)

/**
 * tb_model_list_build_url:
 * @kind: "openai", "anthropic" or "gemini"
 * @base_url: the endpoint's base URL
 *
 * Returns: (transfer full): the URL of the endpoint's models call
 */
char *
tb_model_list_build_url (const char *kind,
                         const char *base_url)
{
  g_autofree char *base = g_strdup (base_url != NULL ? base_url : "");
  gsize len = strlen (base);

  while (len > 0 && base[len - 1] == '/')
    base[--len] = '\0';
  if (g_strcmp0 (kind, "anthropic") == 0)
    return g_strconcat (base, "/v1/models", NULL);
  return g_strconcat (base, "/models", NULL);
}

typedef struct
{
  char        *kind;
  char        *url;
  SoupSession *session;
  SoupMessage *message;
  char        *report;
} Fetch;

static void
fetch_free (gpointer data)
{
  Fetch *fetch = data;

  g_free (fetch->kind);
  g_free (fetch->url);
  g_clear_object (&fetch->message);
  g_clear_object (&fetch->session);
  g_free (fetch->report);
  g_free (fetch);
}

static char *
error_excerpt (GBytes *body)
{
  gsize size = 0;
  const char *data = g_bytes_get_data (body, &size);
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;

  if (size == 0)
    return g_strdup ("");
  node = tb_json_parse (data, size, NULL);
  /* The usual shapes: {"error": {"message": …}} or {"error": "…"}. */
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      JsonNode *error = json_object_get_member (object, "error");

      if (error != NULL && JSON_NODE_HOLDS_OBJECT (error)
          && json_object_has_member (json_node_get_object (error), "message"))
        return g_strdup (json_object_get_string_member_with_default (json_node_get_object (error),
                                                                     "message", ""));
      if (error != NULL && JSON_NODE_HOLDS_VALUE (error)
          && json_node_get_value_type (error) == G_TYPE_STRING)
        return g_strdup (json_node_get_string (error));
    }
  text = g_utf8_make_valid (data, MIN (size, 200));
  return g_strstrip (g_steal_pointer (&text));
}

static GStrv
parse_models (const char  *kind,
              GBytes      *body,
              GError     **error)
{
  gsize size = 0;
  const char *data = g_bytes_get_data (body, &size);
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) node = tb_json_parse (data, size, &local_error);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  gboolean gemini = g_strcmp0 (kind, "gemini") == 0;
  const char *member = gemini ? "models" : "data";
  JsonArray *array;

  if (node == NULL)
    {
      g_set_error (error, TB_MODEL_LIST_ERROR, TB_MODEL_LIST_ERROR_RESPONSE,
                   _("The endpoint answered, but not with JSON (%s); check the base URL."),
                   local_error->message);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node)
      || !json_object_has_member (json_node_get_object (node), member)
      || !JSON_NODE_HOLDS_ARRAY (json_object_get_member (json_node_get_object (node), member)))
    {
      g_set_error (error, TB_MODEL_LIST_ERROR, TB_MODEL_LIST_ERROR_RESPONSE,
                   _("The endpoint answered, but its answer has no “%s” list of models; "
                     "check the base URL and the kind."), member);
      return NULL;
    }

  array = json_object_get_array_member (json_node_get_object (node), member);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      const char *id;

      if (!JSON_NODE_HOLDS_OBJECT (item))
        continue;
      id = json_object_get_string_member_with_default (json_node_get_object (item),
                                                       gemini ? "name" : "id", NULL);
      if (id == NULL || *id == '\0')
        continue;
      if (gemini && g_str_has_prefix (id, "models/"))
        id += strlen ("models/");
      g_strv_builder_add (builder, id);
    }
  return g_strv_builder_end (builder);
}

static void
send_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Fetch *fetch = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = soup_session_send_and_read_finish (SOUP_SESSION (source), result,
                                                              &error);
  guint status;
  GStrv models;

  if (body == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, TB_MODEL_LIST_ERROR, TB_MODEL_LIST_ERROR_NETWORK,
                                 _("No answer from %s: %s"), fetch->url, error->message);
      return;
    }
  if (g_bytes_get_size (body) > MAX_BODY)
    {
      g_task_return_new_error (task, TB_MODEL_LIST_ERROR, TB_MODEL_LIST_ERROR_RESPONSE,
                               _("The model list of %s is larger than %d MiB; check the "
                                 "base URL."), fetch->url, MAX_BODY / (1024 * 1024));
      return;
    }

  status = soup_message_get_status (fetch->message);
  if (status < 200 || status >= 300)
    {
      g_autofree char *excerpt = error_excerpt (body);
      const char *hint = "";

      if (status == 401 || status == 403)
        hint = _(" Check the API key.");
      else if (status == 404)
        hint = _(" This endpoint has no models call, or the base URL is wrong.");
      g_task_return_new_error (task, TB_MODEL_LIST_ERROR, TB_MODEL_LIST_ERROR_HTTP,
                               _("%s answered HTTP %u %s: %s%s"), fetch->url, status,
                               soup_message_get_reason_phrase (fetch->message), excerpt, hint);
      return;
    }

  models = parse_models (fetch->kind, body, &error);
  if (models == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  fetch->report = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                "Connected: %s answered HTTP %u with %u model.",
                                                "Connected: %s answered HTTP %u with %u models.",
                                                g_strv_length (models)),
                                   fetch->url, status, g_strv_length (models));
  g_task_return_pointer (task, models, (GDestroyNotify) g_strfreev);
}

/**
 * tb_model_list_fetch_async:
 * @kind: "openai", "anthropic" or "gemini"
 * @base_url: the endpoint's base URL
 * @api_key: (nullable): the key, %NULL for endpoints without one
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the list
 * @user_data: closure data
 *
 * Calls the endpoint's models call. The session has no proxy resolver, so a
 * local endpoint is reached directly.
 */
void
tb_model_list_fetch_async (const char          *kind,
                           const char          *base_url,
                           const char          *api_key,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  Fetch *fetch = g_new0 (Fetch, 1);
  g_autoptr(GUri) uri = NULL;
  SoupMessageHeaders *headers;

  g_task_set_source_tag (task, tb_model_list_fetch_async);
  g_task_set_task_data (task, fetch, fetch_free);
  fetch->kind = g_strdup (kind);
  fetch->url = tb_model_list_build_url (kind, base_url);

  if (!tb_prefs_check_url (base_url, NULL)
      || (uri = g_uri_parse (fetch->url, SOUP_HTTP_URI_FLAGS, NULL)) == NULL)
    {
      g_task_return_new_error (task, TB_MODEL_LIST_ERROR, TB_MODEL_LIST_ERROR_URL,
                               _("“%s” is not an http:// or https:// URL; nothing was sent."),
                               base_url != NULL ? base_url : "");
      return;
    }

  fetch->session = soup_session_new ();
  soup_session_set_proxy_resolver (fetch->session, NULL);
  soup_session_set_timeout (fetch->session, 20);
  fetch->message = soup_message_new_from_uri ("GET", uri);
  headers = soup_message_get_request_headers (fetch->message);
  soup_message_headers_replace (headers, "Accept", "application/json");
  if (api_key != NULL && *api_key != '\0')
    {
      if (g_strcmp0 (kind, "anthropic") == 0)
        soup_message_headers_replace (headers, "x-api-key", api_key);
      else if (g_strcmp0 (kind, "gemini") == 0)
        soup_message_headers_replace (headers, "x-goog-api-key", api_key);
      else
        {
          g_autofree char *bearer = g_strconcat ("Bearer ", api_key, NULL);

          soup_message_headers_replace (headers, "Authorization", bearer);
        }
    }
  if (g_strcmp0 (kind, "anthropic") == 0)
    soup_message_headers_replace (headers, "anthropic-version", TB_ANTHROPIC_API_VERSION);

  soup_session_send_and_read_async (fetch->session, fetch->message, G_PRIORITY_DEFAULT,
                                    cancellable, send_cb, g_object_ref (task));
}

/**
 * tb_model_list_fetch_finish:
 * @result: the result
 * @report: (out) (optional): what the endpoint answered, a sentence for the
 *   "Test connection" button
 * @error: the error, a sentence with the URL and what came back
 *
 * Returns: (transfer full): the model names, possibly empty
 */
GStrv
tb_model_list_fetch_finish (GAsyncResult  *result,
                            char         **report,
                            GError       **error)
{
  Fetch *fetch = g_task_get_task_data (G_TASK (result));
  GStrv models = g_task_propagate_pointer (G_TASK (result), error);

  if (report != NULL)
    *report = models != NULL ? g_strdup (fetch->report) : NULL;
  return models;
}
