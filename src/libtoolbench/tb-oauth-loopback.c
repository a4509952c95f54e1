/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-oauth"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <libsoup/soup.h>
#include <string.h>

#include "tb-oauth-loopback.h"
#include "tb-oauth-private.h"

/* A SoupServer on 127.0.0.1, on a port the kernel picks, whose one path
 * /callback takes the browser's return from the authorization server. The
 * answer counts only when it carries the `state` the sign-in sent (and,
 * when the authorization server names itself in its answers, RFC 9207, its
 * issuer); anything else is discarded and ends the sign-in with a message.
 * The wait ends when the answer comes, when it is cancelled, or after a
 * time limit, with a message each. In fetch mode the client hands the
 * redirect it read over with _tb_oauth_loopback_deliver(), and the same
 * checks apply. */

#define CALLBACK_PATH "/callback"

struct _TbOAuthLoopback
{
  SoupServer   *server;
  char         *redirect_uri;

  GTask        *waiting;
  char         *state;
  char         *issuer;
  gboolean      iss_required;
  guint         timeout_ms;
  GSource      *timeout;
  GSource      *cancelled;
};

static void
stop_waiting (TbOAuthLoopback *self)
{
  if (self->timeout != NULL)
    {
      g_source_destroy (self->timeout);
      g_clear_pointer (&self->timeout, g_source_unref);
    }
  if (self->cancelled != NULL)
    {
      g_source_destroy (self->cancelled);
      g_clear_pointer (&self->cancelled, g_source_unref);
    }
  g_clear_pointer (&self->state, g_free);
  g_clear_pointer (&self->issuer, g_free);
}

static void
finish_error (TbOAuthLoopback *self,
              GError          *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->waiting);

  stop_waiting (self);
  if (task != NULL)
    g_task_return_error (task, error);
  else
    g_error_free (error);
}

static void
finish_code (TbOAuthLoopback *self,
             const char      *code)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->waiting);

  stop_waiting (self);
  if (task != NULL)
    g_task_return_pointer (task, g_strdup (code), g_free);
}

/* RFC 9207 §2.4: a simple string comparison, nothing normalized. */
static gboolean
same_issuer (const char *a,
             const char *b)
{
  return g_strcmp0 (a, b) == 0;
}

/* Returns the message to show in the browser. */
static char *
complete (TbOAuthLoopback *self,
          GHashTable      *query)
{
  const char *state = query != NULL ? g_hash_table_lookup (query, "state") : NULL;
  const char *code = query != NULL ? g_hash_table_lookup (query, "code") : NULL;
  const char *error = query != NULL ? g_hash_table_lookup (query, "error") : NULL;
  const char *iss = query != NULL ? g_hash_table_lookup (query, "iss") : NULL;

  if (self->waiting == NULL)
    return g_strdup (_("Toolbench is not waiting for a sign-in. Start it again from Toolbench."));

  if (state == NULL || g_strcmp0 (state, self->state) != 0)
    {
      finish_error (self, g_error_new (TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_STATE,
                                       _("The answer that came back to %s does not carry the "
                                         "state of this sign-in; it was discarded. Sign in "
                                         "again."), self->redirect_uri));
      return g_strdup (_("This answer does not belong to the sign-in Toolbench started; it was "
                         "discarded."));
    }
  if (iss != NULL && self->issuer != NULL && !same_issuer (iss, self->issuer))
    {
      g_autofree char *shown = _tb_oauth_shown (iss, 200);

      finish_error (self, g_error_new (TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_STATE,
                                       /* Translators: an issuer it named, the one expected */
                                       _("The answer to the sign-in names the issuer “%s”, not "
                                         "%s; it was discarded. Sign in again."), shown,
                                       self->issuer));
      return g_strdup (_("This answer comes from another authorization server than the one "
                         "Toolbench asked; it was discarded."));
    }
  if (iss == NULL && self->iss_required)
    {
      finish_error (self, g_error_new (TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_STATE,
                                       _("The answer to the sign-in does not name its issuer, "
                                         "although %s says it always does; it was discarded. "
                                         "Sign in again."), self->issuer));
      return g_strdup (_("This answer does not name the authorization server; it was "
                         "discarded."));
    }
  if (error != NULL)
    {
      const char *description = g_hash_table_lookup (query, "error_description");
      g_autofree char *shown = _tb_oauth_shown (error, 100);
      g_autofree char *said = NULL;

      if (description != NULL && *description != '\0')
        {
          g_autofree char *shown_description = _tb_oauth_shown (description, 300);

          said = g_strdup_printf ("%s (%s)", shown, shown_description);
        }
      else
        said = g_strdup (shown);
      finish_error (self, g_error_new (TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_DENIED,
                                       /* Translators: an OAuth error code and its description */
                                       _("The authorization server refused the sign-in: %s"),
                                       said));
      return g_strdup (_("The sign-in was refused. Toolbench says why."));
    }
  if (code == NULL || *code == '\0')
    {
      finish_error (self, g_error_new_literal (TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_DENIED,
                                               _("The authorization server sent the browser "
                                                 "back without a code")));
      return g_strdup (_("The sign-in came back without a code. Toolbench says why."));
    }
  finish_code (self, code);
  return g_strdup (_("Signed in. You can close this page and go back to Toolbench."));
}

static void
callback_cb (SoupServer        *server,
             SoupServerMessage *message,
             const char        *path,
             GHashTable        *query,
             gpointer           user_data)
{
  TbOAuthLoopback *self = user_data;
  g_autofree char *text = NULL;
  g_autofree char *escaped = NULL;
  g_autofree char *page = NULL;

  if (g_strcmp0 (soup_server_message_get_method (message), SOUP_METHOD_GET) != 0)
    {
      soup_server_message_set_status (message, SOUP_STATUS_METHOD_NOT_ALLOWED, NULL);
      return;
    }
  text = complete (self, query);
  escaped = g_markup_escape_text (text, -1);
  page = g_strdup_printf ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
                          "<title>Toolbench</title></head><body><p>%s</p></body></html>\n",
                          escaped);
  soup_server_message_set_status (message, SOUP_STATUS_OK, NULL);
  soup_message_headers_replace (soup_server_message_get_response_headers (message),
                                "Cache-Control", "no-store");
  soup_server_message_set_response (message, "text/html; charset=utf-8", SOUP_MEMORY_COPY,
                                    page, strlen (page));
}

/**
 * _tb_oauth_loopback_new:
 *
 * Returns: (transfer full) (nullable): a listener on 127.0.0.1
 */
TbOAuthLoopback *
_tb_oauth_loopback_new (GError **error)
{
  g_autoptr(TbOAuthLoopback) self = g_new0 (TbOAuthLoopback, 1);
  g_autoptr(GInetAddress) address = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) socket_address = g_inet_socket_address_new (address, 0);
  g_autoptr(GError) local_error = NULL;
  GSList *listeners;
  guint port = 0;

  self->server = soup_server_new ("server-header", "toolbench", NULL);
  soup_server_add_handler (self->server, CALLBACK_PATH, callback_cb, self, NULL);
  if (!soup_server_listen (self->server, socket_address, 0, &local_error))
    {
      g_set_error (error, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_CONFIG,
                   _("Toolbench cannot listen on 127.0.0.1 for the end of the sign-in: %s"),
                   local_error->message);
      return NULL;
    }
  /* The port from the listening socket: soup_server_get_uris() keeps a
   * reference to each address it reads. */
  listeners = soup_server_get_listeners (self->server);
  if (listeners != NULL)
    {
      g_autoptr(GSocketAddress) local = g_socket_get_local_address (listeners->data, NULL);

      if (local != NULL && G_IS_INET_SOCKET_ADDRESS (local))
        port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (local));
    }
  g_slist_free (listeners);
  self->redirect_uri = g_strdup_printf ("http://127.0.0.1:%u" CALLBACK_PATH, port);
  return g_steal_pointer (&self);
}

void
_tb_oauth_loopback_free (TbOAuthLoopback *self)
{
  if (self == NULL)
    return;
  if (self->waiting != NULL)
    finish_error (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                             _("The sign-in was cancelled")));
  stop_waiting (self);
  if (self->server != NULL)
    soup_server_disconnect (self->server);
  g_clear_object (&self->server);
  g_free (self->redirect_uri);
  g_free (self);
}

const char *
_tb_oauth_loopback_get_redirect_uri (TbOAuthLoopback *self)
{
  return self->redirect_uri;
}

static char *
describe_duration (guint ms)
{
  guint seconds = (ms + 999) / 1000;

  if (seconds >= 120 && seconds % 60 == 0)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u minute", "%u minutes",
                                         seconds / 60), seconds / 60);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u second", "%u seconds", seconds),
                          seconds);
}

static gboolean
timeout_cb (gpointer user_data)
{
  TbOAuthLoopback *self = user_data;
  g_autofree char *duration = describe_duration (self->timeout_ms);

  g_clear_pointer (&self->timeout, g_source_unref);
  finish_error (self, g_error_new (TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_TIMEOUT,
                                   /* Translators: a duration, then a URL */
                                   _("The sign-in did not finish within %s: the browser never "
                                     "came back to %s. Sign in again."), duration,
                                   self->redirect_uri));
  return G_SOURCE_REMOVE;
}

static gboolean
cancelled_cb (GCancellable *cancellable,
              gpointer      user_data)
{
  TbOAuthLoopback *self = user_data;

  g_clear_pointer (&self->cancelled, g_source_unref);
  finish_error (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                           _("The sign-in was cancelled")));
  return G_SOURCE_REMOVE;
}

/**
 * _tb_oauth_loopback_wait_async:
 * @state: the `state` the authorization request carries
 * @issuer: (nullable): the authorization server's issuer
 * @iss_required: whether the server says it names itself in its answers
 * @timeout_ms: how long to wait; 0 for no limit
 *
 * Waits for the browser to come back.
 */
void
_tb_oauth_loopback_wait_async (TbOAuthLoopback     *self,
                               const char          *state,
                               const char          *issuer,
                               gboolean             iss_required,
                               guint                timeout_ms,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, _tb_oauth_loopback_wait_async);
  g_return_if_fail (self->waiting == NULL);

  if (g_task_return_error_if_cancelled (task))
    return;
  self->waiting = g_steal_pointer (&task);
  self->state = g_strdup (state);
  self->issuer = g_strdup (issuer);
  self->iss_required = iss_required;
  self->timeout_ms = timeout_ms;
  if (timeout_ms > 0)
    {
      self->timeout = g_timeout_source_new (timeout_ms);
      g_source_set_callback (self->timeout, timeout_cb, self, NULL);
      g_source_set_static_name (self->timeout, "[tb] sign-in timeout");
      g_source_attach (self->timeout, g_task_get_context (self->waiting));
    }
  if (cancellable != NULL)
    {
      self->cancelled = g_cancellable_source_new (cancellable);
      g_source_set_callback (self->cancelled, G_SOURCE_FUNC (cancelled_cb), self, NULL);
      g_source_set_static_name (self->cancelled, "[tb] sign-in cancelled");
      g_source_attach (self->cancelled, g_task_get_context (self->waiting));
    }
}

/**
 * _tb_oauth_loopback_wait_finish:
 *
 * Returns: (transfer full): the authorization code
 */
char *
_tb_oauth_loopback_wait_finish (TbOAuthLoopback  *self,
                                GAsyncResult     *result,
                                GError          **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * _tb_oauth_loopback_is_redirect:
 *
 * Returns: whether @uri points at the listener's redirect URI
 */
gboolean
_tb_oauth_loopback_is_redirect (TbOAuthLoopback *self,
                                const char      *uri)
{
  gsize len = strlen (self->redirect_uri);

  return uri != NULL && strncmp (uri, self->redirect_uri, len) == 0 &&
         (uri[len] == '\0' || uri[len] == '?' || uri[len] == '#');
}

/**
 * _tb_oauth_loopback_deliver:
 * @uri: where the authorization server redirected to
 *
 * Completes the wait with the answer in @uri, as if the browser had
 * brought it.
 *
 * Returns: whether @uri was the redirect URI
 */
gboolean
_tb_oauth_loopback_deliver (TbOAuthLoopback *self,
                            const char      *uri)
{
  g_autoptr(GUri) parsed = NULL;
  g_autoptr(GHashTable) query = NULL;
  g_autofree char *page = NULL;

  if (!_tb_oauth_loopback_is_redirect (self, uri))
    return FALSE;
  parsed = g_uri_parse (uri, G_URI_FLAGS_ENCODED_QUERY, NULL);
  if (parsed != NULL && g_uri_get_query (parsed) != NULL)
    query = soup_form_decode (g_uri_get_query (parsed));
  page = complete (self, query);
  return TRUE;
}

/**
 * _tb_oauth_loopback_fail:
 * @error: (transfer full): why the sign-in cannot finish
 *
 * Ends the wait with @error.
 */
void
_tb_oauth_loopback_fail (TbOAuthLoopback *self,
                         GError          *error)
{
  finish_error (self, error);
}
