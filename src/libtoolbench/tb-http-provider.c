/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-http-provider"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-http-provider.h"
#include "tb-json.h"
#include "tb-provider-kind.h"
#include "tb-provider-private.h"
#include "tb-redact.h"

/* One SoupSession per provider. A request has an idle timeout (no byte for
 * timeout-ms), an overall limit (max-duration-ms), a size limit, and is
 * retried with exponential backoff on 429 and 503, honouring Retry-After,
 * at most max-retries times.
 *
 * The key never leaves the provider except in its header: error messages,
 * URLs and the bodies given to wire observers pass through the provider's
 * redactor first, so whatever prints or records them is covered. */

#define READ_CHUNK (64 * 1024)
#define DEFAULT_TIMEOUT_MS 60000
#define DEFAULT_MAX_DURATION_MS (10 * 60 * 1000)
#define DEFAULT_MAX_RETRIES 3
#define DEFAULT_RETRY_BASE_MS 1000
#define MAX_RETRY_WAIT_MS 60000

typedef struct
{
  SoupSession *session;
  char        *base_url;
  char        *model;
  char        *api_key;
  TbRedactor  *redactor;
  guint        timeout_ms;
  guint        max_duration_ms;
  guint        max_retries;
  guint        retry_base_ms;
  gsize        max_response_size;
} TbHttpProviderPrivate;

static void provider_iface_init (TbProviderInterface *iface);

/**
 * TbHttpProvider:
 *
 * The HTTP side of a model provider: the request, the time limits, the
 * retries with backoff, the size limit of a response, streaming (server-sent
 * events or JSON lines) and the redaction of keys from everything it
 * reports. A subclass supplies the wire format through
 * #TbHttpProviderClass; the key is sent in a header only, never in a URL a
 * trace keeps.
 */
G_DEFINE_ABSTRACT_TYPE_WITH_CODE (TbHttpProvider, tb_http_provider, G_TYPE_OBJECT,
                                  G_ADD_PRIVATE (TbHttpProvider)
                                  G_IMPLEMENT_INTERFACE (TB_TYPE_PROVIDER, provider_iface_init))

enum {
  PROP_0,
  PROP_BASE_URL,
  PROP_MODEL,
  PROP_API_KEY,
  PROP_TIMEOUT_MS,
  PROP_MAX_DURATION_MS,
  PROP_MAX_RETRIES,
  PROP_RETRY_BASE_MS,
  PROP_MAX_RESPONSE_SIZE,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

/* ---- one exchange --------------------------------------------------------- */

typedef struct
{
  TbProviderRequest *request;
  char              *url;
  GCancellable      *cancellable;
  gulong             cancelled_id;
  GSource           *idle_source;
  GSource           *deadline_source;
  GSource           *wait_source;
  GSource           *wait_cancel_source;
  GInputStream      *stream;
  GString           *response;
  GString           *line;
  GString           *data;
  char              *event;
  gboolean           has_data;
  gpointer           stream_state;
  gboolean           streaming;
  gboolean           stream_ended;
  gboolean           wrong_framing;
  gboolean           timed_out;
  gboolean           over_deadline;
  GError            *stream_error;
  guint              attempt;
  guint              status;
  char              *retry_after;
} Exchange;

static void
exchange_free (gpointer data)
{
  Exchange *ex = data;

  if (ex->idle_source != NULL)
    g_source_destroy (ex->idle_source);
  g_clear_pointer (&ex->idle_source, g_source_unref);
  if (ex->deadline_source != NULL)
    g_source_destroy (ex->deadline_source);
  g_clear_pointer (&ex->deadline_source, g_source_unref);
  if (ex->wait_source != NULL)
    g_source_destroy (ex->wait_source);
  g_clear_pointer (&ex->wait_source, g_source_unref);
  if (ex->wait_cancel_source != NULL)
    g_source_destroy (ex->wait_cancel_source);
  g_clear_pointer (&ex->wait_cancel_source, g_source_unref);
  g_clear_pointer (&ex->request, tb_provider_request_unref);
  g_clear_pointer (&ex->url, g_free);
  g_clear_object (&ex->cancellable);
  g_clear_object (&ex->stream);
  if (ex->response != NULL)
    g_string_free (ex->response, TRUE);
  if (ex->line != NULL)
    g_string_free (ex->line, TRUE);
  if (ex->data != NULL)
    g_string_free (ex->data, TRUE);
  g_clear_pointer (&ex->event, g_free);
  g_clear_error (&ex->stream_error);
  g_clear_pointer (&ex->retry_after, g_free);
  g_free (ex);
}

static void start_attempt (GTask *task);

static TbHttpProviderPrivate *
task_priv (GTask *task)
{
  return tb_http_provider_get_instance_private (TB_HTTP_PROVIDER (g_task_get_source_object (task)));
}

static void
reset_stream_state (TbHttpProvider *self,
                    Exchange       *ex)
{
  TbHttpProviderClass *klass = TB_HTTP_PROVIDER_GET_CLASS (self);

  if (ex->stream_state != NULL && klass->stream_free != NULL)
    klass->stream_free (ex->stream_state);
  ex->stream_state = NULL;
}

static void
clear_timers (Exchange *ex)
{
  if (ex->idle_source != NULL)
    g_source_destroy (ex->idle_source);
  g_clear_pointer (&ex->idle_source, g_source_unref);
}

/* Ends the exchange: the only place the task returns. */
static void
finish (GTask              *task,
        TbProviderResponse *response,
        GError             *error)
{
  TbHttpProvider *self = g_task_get_source_object (task);
  Exchange *ex = g_task_get_task_data (task);
  GCancellable *outer = g_task_get_cancellable (task);

  clear_timers (ex);
  if (ex->deadline_source != NULL)
    g_source_destroy (ex->deadline_source);
  g_clear_pointer (&ex->deadline_source, g_source_unref);
  if (outer != NULL && ex->cancelled_id != 0)
    {
      g_cancellable_disconnect (outer, ex->cancelled_id);
      ex->cancelled_id = 0;
    }
  reset_stream_state (self, ex);

  if (error != NULL)
    {
      TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);
      char *clean = tb_redactor_redact_text (priv->redactor, error->message);

      /* Servers repeat the key in their refusals; nothing past here sees it. */
      g_free (error->message);
      error->message = clean;
      g_task_return_error (task, error);
    }
  else
    g_task_return_pointer (task, response, (GDestroyNotify) tb_provider_response_unref);
}

static gboolean
idle_timeout_cb (gpointer user_data)
{
  Exchange *ex = user_data;

  ex->timed_out = TRUE;
  g_cancellable_cancel (ex->cancellable);
  return G_SOURCE_REMOVE;
}

static gboolean
deadline_cb (gpointer user_data)
{
  Exchange *ex = user_data;

  ex->over_deadline = TRUE;
  g_cancellable_cancel (ex->cancellable);
  return G_SOURCE_REMOVE;
}

static void
arm_idle_timer (GTask *task)
{
  Exchange *ex = g_task_get_task_data (task);
  TbHttpProviderPrivate *priv = task_priv (task);

  clear_timers (ex);
  ex->idle_source = g_timeout_source_new (priv->timeout_ms);
  g_source_set_callback (ex->idle_source, idle_timeout_cb, ex, NULL);
  g_source_set_static_name (ex->idle_source, "[tb] provider idle timeout");
  g_source_attach (ex->idle_source, g_task_get_context (task));
}

static void
outer_cancelled_cb (GCancellable *outer,
                    gpointer      user_data)
{
  GCancellable *inner = user_data;

  g_cancellable_cancel (inner);
}

/* The error to report when the internal cancellable fired. */
static GError *
interruption_error (GTask        *task,
                    const GError *cause)
{
  Exchange *ex = g_task_get_task_data (task);
  TbHttpProviderPrivate *priv = task_priv (task);
  GCancellable *outer = g_task_get_cancellable (task);

  if (ex->stream_error != NULL)
    return g_error_copy (ex->stream_error);
  if (outer != NULL && g_cancellable_is_cancelled (outer))
    return g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The request was cancelled"));
  if (ex->timed_out)
    return g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_TIMEOUT,
                        _("The provider at %s sent nothing for %u ms; the request was abandoned. "
                          "Check that the server is running, or raise the timeout."),
                        ex->url, priv->timeout_ms);
  if (ex->over_deadline)
    return g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_TIMEOUT,
                        _("The response from %s took longer than %u ms in all; "
                          "the request was abandoned."),
                        ex->url, priv->max_duration_ms);
  return g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_CONNECTION,
                      _("The connection to %s failed: %s"), ex->url,
                      cause != NULL ? cause->message : _("unknown error"));
}

/* ---- event streams --------------------------------------------------------- */

static gboolean
dispatch_event (TbHttpProvider  *self,
                Exchange        *ex,
                GError         **error)
{
  TbHttpProviderClass *klass = TB_HTTP_PROVIDER_GET_CLASS (self);
  gboolean ok = TRUE;

  if (ex->has_data)
    ok = klass->stream_event (self, ex->stream_state,
                              ex->event != NULL ? ex->event : "message",
                              ex->data->str, error);
  if (ok && ex->has_data && klass->stream_done != NULL &&
      klass->stream_done (self, ex->stream_state))
    ex->stream_ended = TRUE;
  g_string_truncate (ex->data, 0);
  g_clear_pointer (&ex->event, g_free);
  ex->has_data = FALSE;
  return ok;
}

static gboolean
handle_line (TbHttpProvider  *self,
             Exchange        *ex,
             const char      *line,
             gsize            len,
             GError         **error)
{
  const char *colon;
  const char *value;
  gsize field_len;

  if (len > 0 && line[len - 1] == '\r')
    len--;

  if (len == 0)
    return dispatch_event (self, ex, error);

  if (line[0] == ':')
    return TRUE;

  colon = memchr (line, ':', len);
  field_len = colon != NULL ? (gsize) (colon - line) : len;
  value = colon != NULL ? colon + 1 : line + len;
  if (colon != NULL && value < line + len && *value == ' ')
    value++;

  if (field_len == 4 && strncmp (line, "data", 4) == 0)
    {
      if (ex->has_data)
        g_string_append_c (ex->data, '\n');
      g_string_append_len (ex->data, value, (line + len) - value);
      ex->has_data = TRUE;
    }
  else if (field_len == 5 && strncmp (line, "event", 5) == 0)
    {
      g_free (ex->event);
      ex->event = g_strndup (value, (line + len) - value);
    }

  return TRUE;
}

static gboolean
is_blank (const char *text,
          gsize       len)
{
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isspace (text[i]))
      return FALSE;
  return TRUE;
}

/* One line of a JSON-lines stream is one event; blank lines separate
 * nothing and are skipped. */
static gboolean
handle_json_line (TbHttpProvider  *self,
                  Exchange        *ex,
                  const char      *line,
                  gsize            len,
                  GError         **error)
{
  if (len > 0 && line[len - 1] == '\r')
    len--;
  if (is_blank (line, len))
    return TRUE;

  g_string_truncate (ex->data, 0);
  g_string_append_len (ex->data, line, len);
  ex->has_data = TRUE;
  return dispatch_event (self, ex, error);
}

static gboolean
feed_events (TbHttpProvider  *self,
             Exchange        *ex,
             const char      *chunk,
             gsize            size,
             GError         **error)
{
  gboolean json_lines = TB_HTTP_PROVIDER_GET_CLASS (self)->stream_framing ==
                        TB_STREAM_FRAMING_NDJSON;
  gsize start = 0;

  g_string_append_len (ex->line, chunk, size);

  for (gsize i = 0; i < ex->line->len; i++)
    {
      if (ex->line->str[i] == '\n')
        {
          gboolean ok = json_lines
                        ? handle_json_line (self, ex, ex->line->str + start, i - start, error)
                        : handle_line (self, ex, ex->line->str + start, i - start, error);

          if (!ok)
            return FALSE;
          start = i + 1;
          /* Whatever follows the last event of the turn is not read. */
          if (ex->stream_ended)
            {
              g_string_truncate (ex->line, 0);
              return TRUE;
            }
        }
    }
  g_string_erase (ex->line, 0, start);
  return TRUE;
}

/* What is left when a stream closes. SSE: an event whose lines all
 * arrived counts even without its blank line; a line cut off by the end
 * of the stream does not. JSON lines: a last line without its newline
 * counts when it is whole JSON; one cut in half is an error, since the
 * piece of the turn it carried is lost. */
static gboolean
end_events (TbHttpProvider  *self,
            Exchange        *ex,
            GError         **error)
{
  if (TB_HTTP_PROVIDER_GET_CLASS (self)->stream_framing == TB_STREAM_FRAMING_NDJSON)
    {
      g_autoptr(JsonNode) node = NULL;

      if (is_blank (ex->line->str, ex->line->len))
        return TRUE;
      node = tb_json_parse (ex->line->str, ex->line->len, NULL);
      if (node == NULL)
        {
          g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_TRUNCATED,
                       _("The response stream from %s ended in the middle of a line; "
                         "the model's turn is incomplete. Try again."), ex->url);
          return FALSE;
        }
      return handle_json_line (self, ex, ex->line->str, ex->line->len, error);
    }

  return !ex->has_data || dispatch_event (self, ex, error);
}

/* ---- reading a response --------------------------------------------------- */

/* Shows observers (the trace, the wire view) the body received so far,
 * redacted: a streamed one with its pieces joined before the search. */
static void
emit_response (TbHttpProvider *self,
               Exchange       *ex)
{
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);
  g_autofree char *body = g_utf8_make_valid (ex->response->str, ex->response->len);
  g_autofree char *clean = tb_redactor_redact_text (priv->redactor, body);

  tb_provider_emit_wire_response (TB_PROVIDER (self), ex->status, clean);
}

static char *
shown_text (const char *body,
            gsize       max_chars)
{
  g_autofree char *valid = g_utf8_make_valid (body, -1);
  g_autofree char *stripped = g_strstrip (g_strdup (valid));

  if (g_utf8_strlen (stripped, -1) <= (glong) max_chars)
    return g_steal_pointer (&stripped);
  return g_strconcat (g_utf8_substring (stripped, 0, max_chars), "…", NULL);
}

static gboolean
looks_like_html (const char *body)
{
  while (g_ascii_isspace (*body))
    body++;
  return g_ascii_strncasecmp (body, "<!doctype html", 14) == 0 ||
         g_ascii_strncasecmp (body, "<html", 5) == 0 || *body == '<';
}

/* The error of a stream that stopped before its format's last event:
 * @missing names what did not come, in the format's own terms. */
TbProviderResponse *
_tb_http_provider_stream_ended_early (const char  *missing,
                                      GError     **error)
{
  g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_TRUNCATED,
               /* Translators: %s says what did not come, such as "message_stop
                * event" (the formats' words, which stay as they are) */
               _("The response stream ended before the model finished its turn (no %s)."),
               missing);
  return NULL;
}

/* What the provider said went wrong, as one readable sentence. All three
 * formats put it in error.message; some servers send a bare string. It is
 * redacted before it is shortened, so no cut leaves the start of a key. */
char *
_tb_http_provider_said (TbRedactor *redactor,
                        const char *body)
{
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *clean = NULL;

  if (body == NULL || *body == '\0')
    return g_strdup (_("the response body is empty"));
  if (looks_like_html (body))
    return g_strdup (_("the server sent an HTML page instead of JSON; check the base URL"));

  node = tb_json_parse (body, -1, NULL);
  if (node != NULL)
    {
      JsonObject *root = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      JsonObject *error = tb_json_object_get_object (root, "error");
      const char *message = tb_json_object_get_string (error, "message");

      if (message == NULL)
        message = tb_json_object_get_string (root, "error");
      if (message == NULL)
        message = tb_json_object_get_string (root, "message");
      if (message == NULL)
        message = tb_json_object_get_string (root, "detail");
      if (message != NULL)
        {
          clean = tb_redactor_redact_text (redactor, message);
          return shown_text (clean, 500);
        }
    }

  clean = tb_redactor_redact_text (redactor, body);
  return shown_text (clean, 200);
}

static GError *
status_error (TbRedactor *redactor,
              guint       status,
              const char *body,
              guint       retries)
{
  g_autofree char *said = _tb_http_provider_said (redactor, body);
  gsize len = strlen (said);

  /* Gemini answers a wrong key with 400 and reason API_KEY_INVALID. */
  if (status == 401 || status == 403 ||
      (status == 400 && body != NULL && strstr (body, "API_KEY_INVALID") != NULL))
    {
      /* This sentence ends what the provider said with its own stop. */
      if (len > 0 && said[len - 1] == '.')
        said[len - 1] = '\0';
      return g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_UNAUTHORIZED,
                          _("The provider did not accept the API key (HTTP %u): %s. "
                            "Check the key and its permissions."), status, said);
    }
  if (status == 400 || status == 404 || status == 422)
    return g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_BAD_REQUEST,
                        _("The provider refused the request (HTTP %u): %s"), status, said);
  if (status == 429)
    return g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_RATE_LIMITED,
                        _("The provider is limiting the request rate (HTTP 429) and still was "
                          "after %u retries: %s"), retries, said);
  if (status >= 500 && status < 600)
    return g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_SERVER,
                        _("The provider failed (HTTP %u) after %u retries: %s"),
                        status, retries, said);
  return g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_HTTP,
                      _("The provider answered with HTTP %u: %s"), status, said);
}

/* The subclass's sentence for a failure, when it has a better one than
 * @generic, which is consumed either way. */
static GError *
explain_failure (TbHttpProvider *self,
                 guint           status,
                 const char     *body,
                 const GError   *cause,
                 GError         *generic)
{
  TbHttpProviderClass *klass = TB_HTTP_PROVIDER_GET_CLASS (self);
  GError *better;

  if (klass->explain_failure == NULL)
    return generic;
  better = klass->explain_failure (self, status, body, cause);
  if (better == NULL)
    return generic;
  g_error_free (generic);
  return better;
}

/* Milliseconds to wait before the next attempt, or -1 when the server asks
 * for a longer wait than Toolbench is prepared to sit through. */
static gint64
retry_delay_ms (GTask    *task,
                Exchange *ex)
{
  TbHttpProviderPrivate *priv = task_priv (task);
  gint64 delay = (gint64) priv->retry_base_ms << MIN (ex->attempt, 16);

  if (ex->retry_after != NULL)
    {
      const char *value = ex->retry_after;
      char *end = NULL;
      guint64 seconds;

      while (g_ascii_isspace (*value))
        value++;
      seconds = g_ascii_strtoull (value, &end, 10);
      if (end != value && (*end == '\0' || g_ascii_isspace (*end)))
        {
          delay = seconds > MAX_RETRY_WAIT_MS / 1000 ? G_MAXINT64 : (gint64) seconds * 1000;
        }
      else
        {
          g_autoptr(GDateTime) when = soup_date_time_new_from_http_string (value);
          g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

          if (when != NULL)
            delay = MAX (0, g_date_time_difference (when, now) / 1000);
        }
    }

  if (delay > MAX_RETRY_WAIT_MS)
    return -1;
  return delay;
}

static gboolean
retry_now_cb (gpointer user_data)
{
  g_autoptr(GTask) task = g_object_ref (user_data);
  Exchange *ex = g_task_get_task_data (task);

  g_source_destroy (ex->wait_cancel_source);
  g_clear_pointer (&ex->wait_cancel_source, g_source_unref);
  g_clear_pointer (&ex->wait_source, g_source_unref);
  start_attempt (task);
  return G_SOURCE_REMOVE;
}

static gboolean
retry_cancelled_cb (GCancellable *cancellable,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = g_object_ref (user_data);
  Exchange *ex = g_task_get_task_data (task);

  g_source_destroy (ex->wait_source);
  g_clear_pointer (&ex->wait_source, g_source_unref);
  g_clear_pointer (&ex->wait_cancel_source, g_source_unref);
  finish (task, NULL, interruption_error (task, NULL));
  return G_SOURCE_REMOVE;
}

static void
schedule_retry (GTask  *task,
                gint64  delay_ms)
{
  Exchange *ex = g_task_get_task_data (task);

  ex->attempt++;
  ex->wait_source = g_timeout_source_new ((guint) delay_ms);
  g_source_set_callback (ex->wait_source, retry_now_cb, g_object_ref (task), g_object_unref);
  g_source_set_static_name (ex->wait_source, "[tb] provider retry");
  ex->wait_cancel_source = g_cancellable_source_new (ex->cancellable);
  g_source_set_callback (ex->wait_cancel_source, G_SOURCE_FUNC (retry_cancelled_cb),
                         g_object_ref (task), g_object_unref);
  g_source_attach (ex->wait_source, g_task_get_context (task));
  g_source_attach (ex->wait_cancel_source, g_task_get_context (task));
}

static void
attempt_done (GTask *task)
{
  TbHttpProvider *self = g_task_get_source_object (task);
  TbHttpProviderClass *klass = TB_HTTP_PROVIDER_GET_CLASS (self);
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);
  Exchange *ex = g_task_get_task_data (task);
  g_autofree char *body = g_utf8_make_valid (ex->response->str, ex->response->len);
  g_autoptr(GError) error = NULL;
  TbProviderResponse *response;

  clear_timers (ex);
  emit_response (self, ex);

  if (ex->status == 429 || ex->status == 503)
    {
      gint64 delay = retry_delay_ms (task, ex);

      if (ex->attempt < priv->max_retries && delay >= 0)
        {
          g_debug ("HTTP %u from %s; retrying in %" G_GINT64_FORMAT " ms",
                   ex->status, ex->url, delay);
          schedule_retry (task, delay);
          return;
        }
    }

  if (ex->status < 200 || ex->status >= 300)
    {
      finish (task, NULL,
              explain_failure (self, ex->status, body, NULL,
                               status_error (priv->redactor, ex->status, body, ex->attempt)));
      return;
    }

  if (ex->streaming)
    {
      if (!end_events (self, ex, &error))
        {
          finish (task, NULL, g_steal_pointer (&error));
          return;
        }
      response = klass->stream_finish (self, ex->stream_state, &error);
    }
  else
    {
      g_autoptr(JsonNode) node = NULL;

      if (ex->wrong_framing)
        {
          finish (task, NULL,
                  g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                               _("The server at %s sent server-sent events (text/event-stream), "
                                 "not the stream of JSON lines this provider reads; check that "
                                 "the base URL and the provider kind match the server."),
                               ex->url));
          return;
        }

      if (looks_like_html (body))
        {
          finish (task, NULL,
                  g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                               _("The server at %s sent an HTML page instead of JSON "
                                 "(HTTP %u); check the base URL."), ex->url, ex->status));
          return;
        }

      node = tb_json_parse_full (ex->response->str, ex->response->len,
                                 priv->max_response_size, TB_JSON_MAX_DEPTH, &error);
      if (node == NULL)
        {
          finish (task, NULL,
                  g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                               _("The response from %s is not JSON: %s"),
                               ex->url, error->message));
          return;
        }
      response = klass->parse_response (self, ex->request, node, &error);
    }

  if (response == NULL)
    {
      finish (task, NULL, g_steal_pointer (&error));
      return;
    }

  if (!_tb_provider_check_call_ids (response->message, &error))
    {
      tb_provider_response_unref (response);
      finish (task, NULL, g_steal_pointer (&error));
      return;
    }

  finish (task, response, NULL);
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TbHttpProvider *self = g_task_get_source_object (task);
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);
  Exchange *ex = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  const char *data;
  gsize size;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  if (bytes == NULL)
    {
      GError *reported;

      if (g_cancellable_is_cancelled (ex->cancellable))
        reported = interruption_error (task, error);
      else
        reported = g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_CONNECTION,
                                _("The connection to %s closed before the response was "
                                  "complete: %s"), ex->url, error->message);
      emit_response (self, ex);
      finish (task, NULL, reported);
      return;
    }

  data = g_bytes_get_data (bytes, &size);
  if (size == 0)
    {
      attempt_done (task);
      return;
    }

  if (ex->response->len + size > priv->max_response_size)
    {
      g_autofree char *limit = g_format_size_full (priv->max_response_size,
                                                   G_FORMAT_SIZE_IEC_UNITS);

      g_cancellable_cancel (ex->cancellable);
      finish (task, NULL,
              g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_TOO_LARGE,
                           _("The response from %s is larger than %s, the most Toolbench "
                             "accepts; it was abandoned."), ex->url, limit));
      return;
    }

  g_string_append_len (ex->response, data, size);

  if (ex->streaming && !feed_events (self, ex, data, size, &error))
    {
      emit_response (self, ex);
      finish (task, NULL, g_steal_pointer (&error));
      return;
    }

  /* The turn is over when the server says so ([DONE], message_stop, the
   * last chunk), even if it keeps the connection open; cancelling the
   * exchange closes the connection instead of waiting for its end. */
  if (ex->stream_ended)
    {
      g_cancellable_cancel (ex->cancellable);
      attempt_done (task);
      return;
    }

  arm_idle_timer (task);
  g_input_stream_read_bytes_async (ex->stream, READ_CHUNK, G_PRIORITY_DEFAULT, ex->cancellable,
                                   read_cb, g_steal_pointer (&task));
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TbHttpProvider *self = g_task_get_source_object (task);
  TbHttpProviderClass *klass = TB_HTTP_PROVIDER_GET_CLASS (self);
  Exchange *ex = g_task_get_task_data (task);
  SoupMessage *msg = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  g_autoptr(GError) error = NULL;
  const char *content_type;
  gboolean success;

  g_clear_object (&ex->stream);
  ex->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (ex->stream == NULL)
    {
      GError *reported = g_cancellable_is_cancelled (ex->cancellable)
                         ? interruption_error (task, error)
                         : explain_failure (self, 0, NULL, error,
                                            g_error_new (TB_PROVIDER_ERROR,
                                                         TB_PROVIDER_ERROR_CONNECTION,
                                                         _("Could not get a response from %s: %s"),
                                                         ex->url, error->message));
      finish (task, NULL, reported);
      return;
    }

  ex->status = soup_message_get_status (msg);
  g_clear_pointer (&ex->retry_after, g_free);
  ex->retry_after = g_strdup (soup_message_headers_get_one (soup_message_get_response_headers (msg),
                                                            "Retry-After"));
  content_type = soup_message_headers_get_content_type (soup_message_get_response_headers (msg),
                                                        NULL);

  g_string_truncate (ex->response, 0);
  g_string_truncate (ex->line, 0);
  g_string_truncate (ex->data, 0);
  ex->has_data = FALSE;
  ex->stream_ended = FALSE;
  g_clear_pointer (&ex->event, g_free);
  reset_stream_state (self, ex);

  success = ex->status >= 200 && ex->status < 300;
  if (klass->stream_framing == TB_STREAM_FRAMING_NDJSON)
    {
      ex->streaming = ex->request->stream && success &&
                      g_strcmp0 (content_type, "application/x-ndjson") == 0;
      /* An SSE endpoint (an OpenAI-compatible one, say) where one of JSON
       * lines was meant. */
      ex->wrong_framing = success && g_strcmp0 (content_type, "text/event-stream") == 0;
    }
  else
    {
      ex->streaming = ex->request->stream && success &&
                      g_strcmp0 (content_type, "text/event-stream") == 0;
      ex->wrong_framing = FALSE;
    }
  if (ex->streaming)
    ex->stream_state = klass->stream_new (self, ex->request);

  arm_idle_timer (task);
  g_input_stream_read_bytes_async (ex->stream, READ_CHUNK, G_PRIORITY_DEFAULT, ex->cancellable,
                                   read_cb, g_steal_pointer (&task));
}

static void
start_attempt (GTask *task)
{
  TbHttpProvider *self = g_task_get_source_object (task);
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);
  Exchange *ex = g_task_get_task_data (task);
  g_autoptr(SoupMessage) msg = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *url = NULL;
  g_autofree char *clean = NULL;

  if (g_cancellable_is_cancelled (ex->cancellable))
    {
      finish (task, NULL, interruption_error (task, NULL));
      return;
    }

  msg = TB_HTTP_PROVIDER_GET_CLASS (self)->build_message (self, ex->request, &body, &error);
  if (msg == NULL)
    {
      finish (task, NULL, g_steal_pointer (&error));
      return;
    }
  if (TB_HTTP_PROVIDER_GET_CLASS (self)->add_headers != NULL)
    TB_HTTP_PROVIDER_GET_CLASS (self)->add_headers (self, soup_message_get_request_headers (msg));

  /* The URL as messages, logs and traces show it: no user name, password
   * or credential parameter. */
  url = g_uri_to_string (soup_message_get_uri (msg));
  g_free (ex->url);
  ex->url = tb_redactor_redact_url (priv->redactor, url);
  text = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
  soup_message_set_request_body_from_bytes (msg, "application/json", body);
  clean = tb_redactor_redact_text (priv->redactor, text);
  tb_provider_emit_wire_request (TB_PROVIDER (self), ex->url, clean);

  arm_idle_timer (task);
  if (ex->deadline_source == NULL)
    {
      ex->deadline_source = g_timeout_source_new (priv->max_duration_ms);
      g_source_set_callback (ex->deadline_source, deadline_cb, ex, NULL);
      g_source_set_static_name (ex->deadline_source, "[tb] provider deadline");
      g_source_attach (ex->deadline_source, g_task_get_context (task));
    }

  soup_session_send_async (priv->session, msg, G_PRIORITY_DEFAULT, ex->cancellable,
                           send_cb, g_object_ref (task));
}

static void
tb_http_provider_complete_async (TbProvider          *provider,
                                 TbProviderRequest   *request,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  TbHttpProvider *self = TB_HTTP_PROVIDER (provider);
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);
  g_autoptr(GTask) task = NULL;
  Exchange *ex;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_http_provider_complete_async);
  g_task_set_check_cancellable (task, FALSE);

  ex = g_new0 (Exchange, 1);
  ex->request = tb_provider_request_ref (request);
  ex->cancellable = g_cancellable_new ();
  ex->response = g_string_new (NULL);
  ex->line = g_string_new (NULL);
  ex->data = g_string_new (NULL);
  g_task_set_task_data (task, ex, exchange_free);

  if (priv->model == NULL || *priv->model == '\0')
    {
      finish (task, NULL,
              g_error_new_literal (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_CONFIG,
                                   _("No model is set for the provider; choose one first.")));
      return;
    }

  if (cancellable != NULL)
    ex->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (outer_cancelled_cb),
                                              g_object_ref (ex->cancellable), g_object_unref);

  start_attempt (task);
}

static TbProviderResponse *
tb_http_provider_complete_finish (TbProvider    *provider,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, provider), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static const char *
tb_http_provider_get_kind (TbProvider *provider)
{
  return TB_HTTP_PROVIDER_GET_CLASS (provider)->kind;
}

static JsonObject *
tb_http_provider_describe (TbProvider *provider)
{
  TbHttpProviderPrivate *priv =
    tb_http_provider_get_instance_private (TB_HTTP_PROVIDER (provider));
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "kind", tb_http_provider_get_kind (provider));
  if (priv->base_url != NULL)
    {
      g_autofree char *base_url = tb_redactor_redact_url (priv->redactor, priv->base_url);

      json_object_set_string_member (object, "base_url", base_url);
    }
  if (priv->model != NULL)
    json_object_set_string_member (object, "model", priv->model);
  json_object_set_int_member (object, "timeout_ms", priv->timeout_ms);
  json_object_set_int_member (object, "max_retries", priv->max_retries);
  return object;
}

static void
provider_iface_init (TbProviderInterface *iface)
{
  iface->get_kind = tb_http_provider_get_kind;
  iface->describe = tb_http_provider_describe;
  iface->complete_async = tb_http_provider_complete_async;
  iface->complete_finish = tb_http_provider_complete_finish;
}

/* ---- the object ----------------------------------------------------------- */

static void
tb_http_provider_finalize (GObject *object)
{
  TbHttpProvider *self = (TbHttpProvider *)object;
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);

  g_clear_object (&priv->session);
  g_clear_pointer (&priv->base_url, g_free);
  g_clear_pointer (&priv->model, g_free);
  if (priv->api_key != NULL)
    memset (priv->api_key, 0, strlen (priv->api_key));
  g_clear_pointer (&priv->api_key, g_free);
  g_clear_object (&priv->redactor);

  G_OBJECT_CLASS (tb_http_provider_parent_class)->finalize (object);
}

static void
tb_http_provider_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  TbHttpProvider *self = TB_HTTP_PROVIDER (object);
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_BASE_URL:
      g_value_set_string (value, priv->base_url);
      break;

    case PROP_MODEL:
      g_value_set_string (value, priv->model);
      break;

    case PROP_API_KEY:
      g_value_set_string (value, priv->api_key);
      break;

    case PROP_TIMEOUT_MS:
      g_value_set_uint (value, priv->timeout_ms);
      break;

    case PROP_MAX_DURATION_MS:
      g_value_set_uint (value, priv->max_duration_ms);
      break;

    case PROP_MAX_RETRIES:
      g_value_set_uint (value, priv->max_retries);
      break;

    case PROP_RETRY_BASE_MS:
      g_value_set_uint (value, priv->retry_base_ms);
      break;

    case PROP_MAX_RESPONSE_SIZE:
      g_value_set_uint64 (value, priv->max_response_size);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_http_provider_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  TbHttpProvider *self = TB_HTTP_PROVIDER (object);
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_BASE_URL:
      tb_http_provider_set_base_url (self, g_value_get_string (value));
      break;

    case PROP_MODEL:
      tb_http_provider_set_model (self, g_value_get_string (value));
      break;

    case PROP_API_KEY:
      tb_http_provider_set_api_key (self, g_value_get_string (value));
      break;

    case PROP_TIMEOUT_MS:
      tb_http_provider_set_timeout_ms (self, g_value_get_uint (value));
      break;

    case PROP_MAX_DURATION_MS:
      priv->max_duration_ms = g_value_get_uint (value);
      g_object_notify_by_pspec (object, pspec);
      break;

    case PROP_MAX_RETRIES:
      tb_http_provider_set_max_retries (self, g_value_get_uint (value));
      break;

    case PROP_RETRY_BASE_MS:
      tb_http_provider_set_retry_base_ms (self, g_value_get_uint (value));
      break;

    case PROP_MAX_RESPONSE_SIZE:
      tb_http_provider_set_max_response_size (self, g_value_get_uint64 (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The default: the key as a bearer token, as OpenAI-compatible servers
 * and most gateways take it. */
static void
tb_http_provider_real_add_headers (TbHttpProvider     *self,
                                   SoupMessageHeaders *headers)
{
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);

  if (priv->api_key != NULL && *priv->api_key != '\0')
    {
      g_autofree char *bearer = g_strconcat ("Bearer ", priv->api_key, NULL);

      soup_message_headers_replace (headers, "Authorization", bearer);
    }
}

static void
tb_http_provider_class_init (TbHttpProviderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = tb_http_provider_finalize;
  object_class->get_property = tb_http_provider_get_property;
  object_class->set_property = tb_http_provider_set_property;

  /**
   * TbHttpProvider:base-url:
   *
   * The server's URL up to the API's paths, such as
   * `https://api.openai.com/v1`. A local server (127.0.0.1, localhost, ::1) is
   * reached without a proxy.
   */
  properties [PROP_BASE_URL] = g_param_spec_string ("base-url", NULL, NULL, NULL, flags);
  /**
   * TbHttpProvider:model:
   *
   * The model to ask, as the server names it.
   */
  properties [PROP_MODEL] = g_param_spec_string ("model", NULL, NULL, NULL, flags);
  /* Kept in memory only; never part of a request body, trace or describe(). */
  /**
   * TbHttpProvider:api-key:
   *
   * The key to send, or %NULL for servers that need none. It is kept in
   * memory only, never in a request body, a trace or tb_provider_describe(),
   * and the provider's redactor masks it, and every key set before, wherever
   * it shows up.
   */
  properties [PROP_API_KEY] = g_param_spec_string ("api-key", NULL, NULL, NULL, flags);
  /**
   * TbHttpProvider:timeout-ms:
   *
   * How long to wait for the server to say something, in milliseconds: the
   * start of a response, or the next piece of a stream. 60 seconds by default.
   */
  properties [PROP_TIMEOUT_MS] =
    g_param_spec_uint ("timeout-ms", NULL, NULL, 1, G_MAXINT, DEFAULT_TIMEOUT_MS, flags);
  /**
   * TbHttpProvider:max-duration-ms:
   *
   * The longest one exchange may take in all, in milliseconds, however much
   * the server keeps sending. 10 minutes by default.
   */
  properties [PROP_MAX_DURATION_MS] =
    g_param_spec_uint ("max-duration-ms", NULL, NULL, 1, G_MAXINT, DEFAULT_MAX_DURATION_MS,
                       flags);
  /**
   * TbHttpProvider:max-retries:
   *
   * How many times a request is sent again after a 429 (rate limited) or 503
   * (unavailable) answer; at most 10, 3 by default.
   */
  properties [PROP_MAX_RETRIES] =
    g_param_spec_uint ("max-retries", NULL, NULL, 0, 10, DEFAULT_MAX_RETRIES, flags);
  /**
   * TbHttpProvider:retry-base-ms:
   *
   * The wait before the first retry, in milliseconds; it doubles with each
   * retry, unless the server says how long to wait (`Retry-After`). At most
   * 60 seconds.
   */
  properties [PROP_RETRY_BASE_MS] =
    g_param_spec_uint ("retry-base-ms", NULL, NULL, 0, MAX_RETRY_WAIT_MS, DEFAULT_RETRY_BASE_MS,
                       flags);
  /**
   * TbHttpProvider:max-response-size:
   *
   * The largest response body accepted, in bytes; a larger one fails the
   * exchange with %TB_PROVIDER_ERROR_TOO_LARGE.
   */
  properties [PROP_MAX_RESPONSE_SIZE] =
    g_param_spec_uint64 ("max-response-size", NULL, NULL, 1024, G_MAXUINT32,
                         TB_HTTP_PROVIDER_DEFAULT_MAX_RESPONSE_SIZE, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  klass->add_headers = tb_http_provider_real_add_headers;
  /* GET /models → {"data": [{"id": …}]}, as OpenAI documents it. */
  klass->models_path = "/models";
  klass->models_member = "data";
  klass->model_id_member = "id";
}

static void
tb_http_provider_init (TbHttpProvider *self)
{
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);

  priv->session = soup_session_new_with_options ("user-agent", "toolbench/" PACKAGE_VERSION,
                                                 NULL);
  priv->redactor = tb_redactor_new ();
  priv->timeout_ms = DEFAULT_TIMEOUT_MS;
  priv->max_duration_ms = DEFAULT_MAX_DURATION_MS;
  priv->max_retries = DEFAULT_MAX_RETRIES;
  priv->retry_base_ms = DEFAULT_RETRY_BASE_MS;
  priv->max_response_size = TB_HTTP_PROVIDER_DEFAULT_MAX_RESPONSE_SIZE;
}

/**
 * tb_http_provider_get_session:
 * @self: a provider
 *
 * Gives the HTTP session the provider sends its requests with, for
 * subclasses and the models call.
 *
 * Returns: (transfer none): the provider's own session
 */
SoupSession *
tb_http_provider_get_session (TbHttpProvider *self)
{
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);

  g_return_val_if_fail (TB_IS_HTTP_PROVIDER (self), NULL);
  return priv->session;
}

/**
 * tb_http_provider_get_redactor:
 * @self: a provider
 *
 * What the provider redacts its errors, wire bodies and URLs with: it
 * knows every key the provider was given. Views and files of a run with
 * this provider (the app's wire view, autosave, saved traces) use it too.
 *
 * Returns: (transfer none): the provider's redactor
 */
TbRedactor *
tb_http_provider_get_redactor (TbHttpProvider *self)
{
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);

  g_return_val_if_fail (TB_IS_HTTP_PROVIDER (self), NULL);
  return priv->redactor;
}

/**
 * tb_http_provider_get_base_url:
 * @self: a provider
 *
 * Gives the URL the API's paths are added to.
 *
 * Returns: (nullable): the base URL, or %NULL when none is set
 */
const char *
tb_http_provider_get_base_url (TbHttpProvider *self)
{
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);

  g_return_val_if_fail (TB_IS_HTTP_PROVIDER (self), NULL);
  return priv->base_url;
}

/* Whether @url names this machine: 127.0.0.1, localhost or ::1. */
gboolean
_tb_url_is_loopback (const char *url)
{
  g_autoptr(GUri) uri = url != NULL ? g_uri_parse (url, G_URI_FLAGS_NONE, NULL) : NULL;
  const char *host = uri != NULL ? g_uri_get_host (uri) : NULL;

  return g_strcmp0 (host, "127.0.0.1") == 0 || g_strcmp0 (host, "localhost") == 0 ||
         g_strcmp0 (host, "::1") == 0 || g_strcmp0 (host, "[::1]") == 0;
}

/**
 * tb_http_provider_set_base_url:
 * @self: a provider
 * @base_url: (nullable): the server's URL up to the API's paths
 *
 * Sets the server to talk to (#TbHttpProvider:base-url).
 */
void
tb_http_provider_set_base_url (TbHttpProvider *self,
                               const char     *base_url)
{
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);

  g_return_if_fail (TB_IS_HTTP_PROVIDER (self));

  if (g_strcmp0 (priv->base_url, base_url) == 0)
    return;
  g_free (priv->base_url);
  priv->base_url = g_strdup (base_url);
  /* A local server (Ollama, llama.cpp, tests) is never reached through a proxy. */
  if (_tb_url_is_loopback (base_url))
    soup_session_set_proxy_resolver (priv->session, NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_BASE_URL]);
}

/**
 * tb_http_provider_get_model:
 * @self: a provider
 *
 * Gives the model the provider asks.
 *
 * Returns: (nullable): the model's name, or %NULL when none is set
 */
const char *
tb_http_provider_get_model (TbHttpProvider *self)
{
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);

  g_return_val_if_fail (TB_IS_HTTP_PROVIDER (self), NULL);
  return priv->model;
}

/**
 * tb_http_provider_set_model:
 * @self: a provider
 * @model: (nullable): the model's name
 *
 * Sets the model to ask (#TbHttpProvider:model).
 */
void
tb_http_provider_set_model (TbHttpProvider *self,
                            const char     *model)
{
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);

  g_return_if_fail (TB_IS_HTTP_PROVIDER (self));

  if (g_strcmp0 (priv->model, model) == 0)
    return;
  g_free (priv->model);
  priv->model = g_strdup (model);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_MODEL]);
}

/**
 * tb_http_provider_get_api_key:
 * @self: a provider
 *
 * Gives the key the provider sends.
 *
 * Returns: (nullable): the key, or %NULL when none is set
 */
const char *
tb_http_provider_get_api_key (TbHttpProvider *self)
{
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);

  g_return_val_if_fail (TB_IS_HTTP_PROVIDER (self), NULL);
  return priv->api_key;
}

/**
 * tb_http_provider_set_api_key:
 * @self: a provider
 * @api_key: (nullable): the key, or %NULL for none
 *
 * Sets the key (#TbHttpProvider:api-key). The old key is wiped from memory
 * but stays masked in whatever the provider reports.
 */
void
tb_http_provider_set_api_key (TbHttpProvider *self,
                              const char     *api_key)
{
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);

  g_return_if_fail (TB_IS_HTTP_PROVIDER (self));

  if (g_strcmp0 (priv->api_key, api_key) == 0)
    return;
  if (priv->api_key != NULL)
    memset (priv->api_key, 0, strlen (priv->api_key));
  g_free (priv->api_key);
  priv->api_key = g_strdup (api_key);
  /* Earlier keys stay redacted: an answer to an older request may repeat one. */
  tb_redactor_add_secret (priv->redactor, api_key);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_API_KEY]);
}

/**
 * tb_http_provider_get_timeout_ms:
 * @self: a provider
 *
 * Gives how long the provider waits for the server to say something.
 *
 * Returns: the time limit in milliseconds
 */
guint
tb_http_provider_get_timeout_ms (TbHttpProvider *self)
{
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);

  g_return_val_if_fail (TB_IS_HTTP_PROVIDER (self), 0);
  return priv->timeout_ms;
}

/**
 * tb_http_provider_set_timeout_ms:
 * @self: a provider
 * @timeout_ms: the time limit in milliseconds, more than 0
 *
 * Sets #TbHttpProvider:timeout-ms.
 */
void
tb_http_provider_set_timeout_ms (TbHttpProvider *self,
                                 guint           timeout_ms)
{
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);

  g_return_if_fail (TB_IS_HTTP_PROVIDER (self));
  g_return_if_fail (timeout_ms > 0);

  priv->timeout_ms = timeout_ms;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_TIMEOUT_MS]);
}

/**
 * tb_http_provider_get_max_retries:
 * @self: a provider
 *
 * Gives how many times a failed request is sent again.
 *
 * Returns: the number of retries
 */
guint
tb_http_provider_get_max_retries (TbHttpProvider *self)
{
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);

  g_return_val_if_fail (TB_IS_HTTP_PROVIDER (self), 0);
  return priv->max_retries;
}

/**
 * tb_http_provider_set_max_retries:
 * @self: a provider
 * @max_retries: how many times to retry, at most 10
 *
 * Sets #TbHttpProvider:max-retries; larger values are taken as 10.
 */
void
tb_http_provider_set_max_retries (TbHttpProvider *self,
                                  guint           max_retries)
{
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);

  g_return_if_fail (TB_IS_HTTP_PROVIDER (self));

  priv->max_retries = MIN (max_retries, 10);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_MAX_RETRIES]);
}

/**
 * tb_http_provider_set_retry_base_ms:
 * @self: a provider
 * @retry_base_ms: the first wait, in milliseconds
 *
 * Sets #TbHttpProvider:retry-base-ms; waits longer than 60 seconds are taken
 * as 60 seconds.
 */
void
tb_http_provider_set_retry_base_ms (TbHttpProvider *self,
                                    guint           retry_base_ms)
{
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);

  g_return_if_fail (TB_IS_HTTP_PROVIDER (self));

  priv->retry_base_ms = MIN (retry_base_ms, MAX_RETRY_WAIT_MS);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_RETRY_BASE_MS]);
}

/**
 * tb_http_provider_set_max_response_size:
 * @self: a provider
 * @max_size: the largest body accepted, in bytes
 *
 * Sets #TbHttpProvider:max-response-size.
 */
void
tb_http_provider_set_max_response_size (TbHttpProvider *self,
                                        gsize           max_size)
{
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);

  g_return_if_fail (TB_IS_HTTP_PROVIDER (self));

  priv->max_response_size = MAX (max_size, 1024);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_MAX_RESPONSE_SIZE]);
}

/* The POST of a request to @path below the base URL, or %NULL with an
 * error naming the kind's public endpoint as an example when the base URL
 * makes no URL. */
SoupMessage *
_tb_http_provider_new_post (TbHttpProvider  *self,
                            const char      *path,
                            GError         **error)
{
  g_autofree char *url = tb_http_provider_build_url (self, path);
  SoupMessage *msg = soup_message_new (SOUP_METHOD_POST, url);

  if (msg == NULL)
    g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_CONFIG,
                 _("“%s” is not a valid base URL; use one such as %s"),
                 tb_http_provider_get_base_url (self),
                 tb_provider_kind_get_default_base_url (TB_HTTP_PROVIDER_GET_CLASS (self)->kind));
  return msg;
}

/* A request body: the JSON text, compact. */
GBytes *
_tb_json_to_bytes (JsonNode *node)
{
  char *text = tb_json_to_string (node, FALSE);

  return g_bytes_new_take (text, strlen (text));
}

/**
 * tb_http_provider_build_url:
 * @self: a provider
 * @path: a path starting with "/", perhaps with a query
 *
 * Makes the URL of one of the API's paths on the provider's server.
 *
 * Returns: (transfer full): the base URL (without a trailing slash) and
 *   @path; a query of the base URL (`?api-version=…`) follows the path,
 *   joined with the path's own
 */
char *
tb_http_provider_build_url (TbHttpProvider *self,
                            const char     *path)
{
  TbHttpProviderPrivate *priv = tb_http_provider_get_instance_private (self);
  g_autofree char *base = NULL;
  const char *query;
  gsize len;

  g_return_val_if_fail (TB_IS_HTTP_PROVIDER (self), NULL);

  base = g_strdup (priv->base_url != NULL ? priv->base_url : "");
  len = strcspn (base, "?#");
  query = base[len] == '?' ? base + len + 1 : NULL;
  if (query != NULL)
    base[strcspn (base, "#")] = '\0';
  base[len] = '\0';
  while (len > 0 && base[len - 1] == '/')
    base[--len] = '\0';
  if (query == NULL || *query == '\0')
    return g_strconcat (base, path, NULL);
  return g_strconcat (base, path, strchr (path, '?') != NULL ? "&" : "?", query, NULL);
}
