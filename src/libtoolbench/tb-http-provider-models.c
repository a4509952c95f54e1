/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-http-provider"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-http-provider.h"
#include "tb-json.h"
#include "tb-provider-private.h"
#include "tb-redact.h"

/* The models call of an HTTP provider: one GET that lists the models and,
 * in doing so, proves the URL, the key and the network in one go ("Test
 * connection" in the preferences, `toolbench-cli models`). Where it goes
 * and how its answer reads are the provider class's: models_path,
 * models_member, model_id_member, model_id_prefix; the key goes on it as
 * on every other request (add_headers) and never into a message. */

#define MAX_MODELS_BODY (8 * 1024 * 1024)

typedef struct
{
  char         *url;      /* as messages show it: credentials removed */
  SoupMessage  *message;
  char         *report;
  GCancellable *cancellable;  /* cancelled by the caller's or the timeout */
  GCancellable *caller;
  gulong        caller_handler;
  GSource      *timeout;
  gboolean      timed_out;
} ModelsCall;

static void
models_call_free (gpointer data)
{
  ModelsCall *call = data;

  if (call->timeout != NULL)
    {
      g_source_destroy (call->timeout);
      g_source_unref (call->timeout);
    }
  if (call->caller != NULL)
    g_cancellable_disconnect (call->caller, call->caller_handler);
  g_clear_object (&call->caller);
  g_clear_object (&call->cancellable);
  g_free (call->url);
  g_clear_object (&call->message);
  g_free (call->report);
  g_free (call);
}

static gboolean
models_timeout_cb (gpointer user_data)
{
  ModelsCall *call = user_data;

  call->timed_out = TRUE;
  g_cancellable_cancel (call->cancellable);
  return G_SOURCE_REMOVE;
}

static void
caller_cancelled_cb (GCancellable *cancellable,
                     GCancellable *ours)
{
  g_cancellable_cancel (ours);
}

static GStrv
parse_models (TbHttpProviderClass  *klass,
              GBytes               *body,
              GError              **error)
{
  gsize size = 0;
  const char *data = g_bytes_get_data (body, &size);
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) node = tb_json_parse (data, size, &local_error);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonArray *array;

  if (node == NULL)
    {
      g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                   _("The endpoint answered, but not with JSON (%s); check the base URL."),
                   local_error->message);
      return NULL;
    }
  array = JSON_NODE_HOLDS_OBJECT (node)
          ? tb_json_object_get_array (json_node_get_object (node), klass->models_member)
          : NULL;
  if (array == NULL)
    {
      g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                   _("The endpoint answered, but its answer has no “%s” list of models; "
                     "check the base URL and the kind."), klass->models_member);
      return NULL;
    }

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      const char *id;

      if (!JSON_NODE_HOLDS_OBJECT (item))
        continue;
      id = tb_json_object_get_string (json_node_get_object (item), klass->model_id_member);
      if (id == NULL || *id == '\0')
        continue;
      if (klass->model_id_prefix != NULL && g_str_has_prefix (id, klass->model_id_prefix))
        id += strlen (klass->model_id_prefix);
      g_strv_builder_add (builder, id);
    }
  return g_strv_builder_end (builder);
}

static void
models_sent_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TbHttpProvider *self = g_task_get_source_object (task);
  TbHttpProviderClass *klass = TB_HTTP_PROVIDER_GET_CLASS (self);
  ModelsCall *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = soup_session_send_and_read_finish (SOUP_SESSION (source), result,
                                                              &error);
  guint status;
  GStrv models;

  if (body == NULL)
    {
      g_autofree char *reason = NULL;
      GError *better;

      if (call->timed_out)
        {
          g_task_return_new_error (task, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_TIMEOUT,
                                   _("No answer from %s within %u s; check that the server "
                                     "is running."), call->url,
                                   (tb_http_provider_get_timeout_ms (self) + 999) / 1000);
          return;
        }
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      /* The format's own words, such as a server to start. */
      if (klass->explain_failure != NULL &&
          (better = klass->explain_failure (self, 0, NULL, error)) != NULL)
        {
          g_task_return_error (task, better);
          return;
        }
      reason = tb_redactor_redact_text (tb_http_provider_get_redactor (self), error->message);
      g_task_return_new_error (task, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_CONNECTION,
                               _("No answer from %s: %s"), call->url, reason);
      return;
    }
  if (g_bytes_get_size (body) > MAX_MODELS_BODY)
    {
      g_task_return_new_error (task, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_TOO_LARGE,
                               _("The model list of %s is larger than %d MiB; check the "
                                 "base URL."), call->url, MAX_MODELS_BODY / (1024 * 1024));
      return;
    }

  status = soup_message_get_status (call->message);
  if (status < 200 || status >= 300)
    {
      g_autofree char *text = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
      g_autofree char *clean = _tb_http_provider_said (tb_http_provider_get_redactor (self),
                                                       text);
      TbProviderError code = TB_PROVIDER_ERROR_HTTP;
      const char *hint = "";

      if (status == 401 || status == 403)
        {
          code = TB_PROVIDER_ERROR_UNAUTHORIZED;
          hint = _(" Check the API key.");
        }
      else if (status == 404)
        {
          code = TB_PROVIDER_ERROR_BAD_REQUEST;
          hint = _(" This endpoint has no models call, or the base URL is wrong.");
        }
      g_task_return_new_error (task, TB_PROVIDER_ERROR, code,
                               _("%s answered HTTP %u %s: %s%s"), call->url, status,
                               soup_message_get_reason_phrase (call->message), clean, hint);
      return;
    }

  models = parse_models (TB_HTTP_PROVIDER_GET_CLASS (self), body, &error);
  if (models == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  call->report = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                               "Connected: %s answered HTTP %u with %u model.",
                                               "Connected: %s answered HTTP %u with %u models.",
                                               g_strv_length (models)),
                                  call->url, status, g_strv_length (models));
  g_task_return_pointer (task, models, (GDestroyNotify) g_strfreev);
}

static gboolean
is_http_url (const char *text)
{
  g_autoptr(GUri) uri = text != NULL ? g_uri_parse (text, SOUP_HTTP_URI_FLAGS, NULL) : NULL;

  return uri != NULL
         && (g_ascii_strcasecmp (g_uri_get_scheme (uri), "http") == 0
             || g_ascii_strcasecmp (g_uri_get_scheme (uri), "https") == 0)
         && g_uri_get_host (uri) != NULL && *g_uri_get_host (uri) != '\0';
}

/**
 * tb_http_provider_list_models_async:
 * @self: a provider
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the list
 * @user_data: (closure): closure data
 *
 * Asks the provider's endpoint for its models, with the provider's key,
 * as "Test connection" does. Gives up after the provider's `timeout-ms`
 * without an answer.
 */
void
tb_http_provider_list_models_async (TbHttpProvider      *self,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  TbHttpProviderClass *klass;
  g_autoptr(GTask) task = NULL;
  g_autofree char *url = NULL;
  ModelsCall *call;

  g_return_if_fail (TB_IS_HTTP_PROVIDER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  klass = TB_HTTP_PROVIDER_GET_CLASS (self);
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_http_provider_list_models_async);
  call = g_new0 (ModelsCall, 1);
  g_task_set_task_data (task, call, models_call_free);

  url = tb_http_provider_build_url (self, klass->models_path);
  call->url = tb_redactor_redact_url (tb_http_provider_get_redactor (self), url);
  if (!is_http_url (tb_http_provider_get_base_url (self)) || !is_http_url (url))
    {
      const char *base_url = tb_http_provider_get_base_url (self);
      g_autofree char *shown = tb_redactor_redact_url (tb_http_provider_get_redactor (self),
                                                       base_url != NULL ? base_url : "");

      g_task_return_new_error (task, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_CONFIG,
                               _("“%s” is not an http:// or https:// URL; nothing was sent."),
                               shown);
      return;
    }

  call->message = soup_message_new (SOUP_METHOD_GET, url);
  soup_message_headers_replace (soup_message_get_request_headers (call->message),
                                "Accept", "application/json");
  if (klass->add_headers != NULL)
    klass->add_headers (self, soup_message_get_request_headers (call->message));

  call->cancellable = g_cancellable_new ();
  if (cancellable != NULL)
    {
      call->caller = g_object_ref (cancellable);
      call->caller_handler = g_cancellable_connect (cancellable, G_CALLBACK (caller_cancelled_cb),
                                                    g_object_ref (call->cancellable),
                                                    g_object_unref);
    }
  call->timeout = g_timeout_source_new (tb_http_provider_get_timeout_ms (self));
  g_source_set_callback (call->timeout, models_timeout_cb, call, NULL);
  g_source_set_static_name (call->timeout, "[tb] models call timeout");
  g_source_attach (call->timeout, g_task_get_context (task));

  soup_session_send_and_read_async (tb_http_provider_get_session (self), call->message,
                                    G_PRIORITY_DEFAULT, call->cancellable, models_sent_cb,
                                    g_object_ref (task));
}

/**
 * tb_http_provider_list_models_finish:
 * @self: a provider
 * @result: the result
 * @report: (out) (optional) (nullable): what the endpoint answered, a
 *   sentence for the "Test connection" button
 * @error: a %TB_PROVIDER_ERROR whose message names the URL and what came
 *   back
 *
 * Ends tb_http_provider_list_models_async(), which asks the server which
 * models it offers, as "Test connection" and `toolbench-cli models` do.
 *
 * Returns: (transfer full) (nullable): the model names, possibly empty
 */
GStrv
tb_http_provider_list_models_finish (TbHttpProvider  *self,
                                     GAsyncResult    *result,
                                     char           **report,
                                     GError         **error)
{
  ModelsCall *call;
  GStrv models;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  call = g_task_get_task_data (G_TASK (result));
  models = g_task_propagate_pointer (G_TASK (result), error);
  if (report != NULL)
    *report = models != NULL ? g_strdup (call->report) : NULL;
  return models;
}
