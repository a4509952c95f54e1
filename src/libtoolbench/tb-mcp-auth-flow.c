/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-oauth"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-mcp-auth-private.h"

/* A sign-in under way, one at a time per server: who waits on it, how it
 * starts (with what the store kept: sent again, refreshed, or a new
 * sign-in), what it keeps when it worked, and how it ends for everyone
 * waiting. */

#define EXPIRY_MARGIN_S 30

typedef struct
{
  GTask   *task;
  GSource *cancelled;
  Flow    *flow;
} Waiter;

static void
waiter_free (Waiter *waiter)
{
  if (waiter->cancelled != NULL)
    {
      g_source_destroy (waiter->cancelled);
      g_source_unref (waiter->cancelled);
    }
  g_clear_object (&waiter->task);
  g_free (waiter);
}

static gboolean
free_loopback_idle (gpointer user_data)
{
  _tb_oauth_loopback_free (user_data);
  return G_SOURCE_REMOVE;
}

static void
flow_free (Flow *flow)
{
  /* What is still under way (a fetch of the authorization URL) ends as
   * cancelled, without touching the flow. */
  g_cancellable_cancel (flow->cancellable);
  g_clear_pointer (&flow->waiters, g_ptr_array_unref);
  g_clear_object (&flow->cancellable);
  g_free (flow->metadata_url);
  g_free (flow->challenge_scope);
  g_free (flow->refresh_problem);
  _tb_oauth_resource_metadata_free (flow->resource_metadata);
  _tb_oauth_server_metadata_free (flow->server);
  _tb_oauth_client_free (flow->client);
  /* The flow may end inside the listener's own handler. */
  if (flow->loopback != NULL)
    g_idle_add_full (G_PRIORITY_DEFAULT, free_loopback_idle, flow->loopback, NULL);
  g_free (flow->resource);
  g_free (flow->scope);
  g_free (flow->state);
  _tb_mcp_auth_wipe_free (flow->verifier);
  _tb_oauth_tokens_free (flow->tokens);
  g_clear_object (&flow->self);
  g_free (flow);
}

static gboolean
waiter_cancelled_cb (GCancellable *cancellable,
                     gpointer      user_data)
{
  Waiter *waiter = user_data;
  Flow *flow = waiter->flow;
  g_autoptr(GTask) task = g_steal_pointer (&waiter->task);

  g_ptr_array_remove (flow->waiters, waiter);
  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The sign-in was cancelled"));
  /* Nobody else waits: stop signing in. */
  if (flow->waiters->len == 0 && !flow->explicit)
    g_cancellable_cancel (flow->cancellable);
  return G_SOURCE_REMOVE;
}

void
_tb_mcp_auth_flow_add_waiter (Flow  *flow,
                              GTask *task)
{
  Waiter *waiter = g_new0 (Waiter, 1);
  GCancellable *cancellable = g_task_get_cancellable (task);

  waiter->task = g_object_ref (task);
  waiter->flow = flow;
  if (cancellable != NULL)
    {
      waiter->cancelled = g_cancellable_source_new (cancellable);
      g_source_set_callback (waiter->cancelled, G_SOURCE_FUNC (waiter_cancelled_cb), waiter,
                             NULL);
      g_source_set_static_name (waiter->cancelled, "[tb] sign-in waiter cancelled");
      g_source_attach (waiter->cancelled, g_task_get_context (task));
    }
  g_ptr_array_add (flow->waiters, waiter);
}

Flow *
_tb_mcp_auth_flow_new (TbMcpAuth *self)
{
  Flow *flow = g_new0 (Flow, 1);

  flow->self = g_object_ref (self);
  flow->waiters = g_ptr_array_new_with_free_func ((GDestroyNotify) waiter_free);
  flow->cancellable = g_cancellable_new ();
  return flow;
}

void
_tb_mcp_auth_flow_finish (Flow   *flow,
                          GError *error)
{
  TbMcpAuth *self = flow->self;
  g_autoptr(GPtrArray) waiters = g_steal_pointer (&flow->waiters);

  g_assert (self->flow == flow);
  self->flow = NULL;
  _tb_mcp_auth_set_authorization_url (self, NULL);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* Whichever step noticed it, in the same words. */
      g_clear_error (&error);
      error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                   _("The sign-in was cancelled"));
    }
  if (error != NULL)
    {
      _tb_mcp_auth_set_error (self, g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
                                      ? NULL : error->message);
      _tb_mcp_auth_set_state (self, _tb_mcp_auth_has_token (self) ? TB_MCP_AUTH_STATE_SIGNED_IN
                                                                  : TB_MCP_AUTH_STATE_SIGNED_OUT);
    }
  else
    {
      _tb_mcp_auth_set_error (self, NULL);
    }

  for (guint i = 0; i < waiters->len; i++)
    {
      Waiter *waiter = g_ptr_array_index (waiters, i);
      g_autoptr(GTask) task = g_steal_pointer (&waiter->task);

      if (task == NULL)
        continue;
      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_boolean (task, TRUE);
    }
  g_clear_error (&error);
  flow_free (flow);
}

/* Saving what the sign-in left, then done. */

static void
store_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Flow *flow = user_data;
  g_autoptr(GError) error = NULL;

  if (!tb_secret_store_store_finish (TB_SECRET_STORE (object), result, &error))
    g_warning ("The sign-in to the MCP server “%s” is kept in memory only: %s",
               flow->self->server_name, error->message);
  _tb_mcp_auth_flow_finish (flow, NULL);
}

/* Uses @credentials from now on and keeps them; the flow ends once they
 * are kept. */
static void
flow_keep (Flow               *flow,
           TbOAuthCredentials *credentials)
{
  TbMcpAuth *self = flow->self;
  g_autofree char *text = NULL;

  _tb_mcp_auth_set_credentials (self, credentials);
  text = _tb_oauth_credentials_to_text (credentials);
  tb_secret_store_store_async (self->store, TB_SECRET_KIND_MCP_AUTHORIZATION, self->server_name,
                               self->server_url, text, NULL, store_cb, flow);
  memset (text, 0, strlen (text));
}

static void
flow_signed_in (Flow          *flow,
                TbOAuthTokens *tokens)
{
  TbOAuthCredentials *credentials = g_new0 (TbOAuthCredentials, 1);

  credentials->resource = g_strdup (flow->resource);
  credentials->token_endpoint = g_strdup (flow->server->token_endpoint);
  credentials->client = _tb_oauth_client_copy (flow->client);
  credentials->account = _tb_oauth_account_from_tokens (tokens);
  credentials->tokens = tokens;
  g_clear_pointer (&credentials->tokens->id_token, g_free);
  if (credentials->tokens->scope == NULL && flow->scope != NULL)
    credentials->tokens->scope = g_strdup (flow->scope);
  flow_keep (flow, credentials);
}

/* The token endpoint's answer to the grant of any sign-in. */
void
_tb_mcp_auth_flow_token_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  Flow *flow = user_data;
  g_autoptr(GError) error = NULL;
  TbOAuthTokens *tokens = _tb_oauth_token_finish (result, &error);

  if (tokens == NULL)
    {
      _tb_mcp_auth_flow_finish (flow, g_steal_pointer (&error));
      return;
    }
  flow_signed_in (flow, tokens);
}

GHashTable *
_tb_mcp_auth_new_form (const char *grant_type)
{
  GHashTable *form = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                            (GDestroyNotify) _tb_mcp_auth_wipe_free);

  g_hash_table_insert (form, g_strdup ("grant_type"), g_strdup (grant_type));
  return form;
}

/* Refreshing. */

static void
refresh_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Flow *flow = user_data;
  TbMcpAuth *self = flow->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(TbOAuthTokens) tokens = _tb_oauth_token_finish (result, &error);
  TbOAuthCredentials *credentials;

  if (tokens == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
          !g_error_matches (error, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_TOKEN))
        {
          _tb_mcp_auth_flow_finish (flow, g_steal_pointer (&error));
          return;
        }
      /* An expired or revoked refresh token: sign in instead. */
      g_debug ("Signing in to %s again: %s", self->server_name, error->message);
      flow->refresh_problem = g_strdup (error->message);
      _tb_mcp_auth_flow_sign_in (flow);
      return;
    }

  credentials = g_new0 (TbOAuthCredentials, 1);
  credentials->resource = g_strdup (self->credentials->resource);
  credentials->token_endpoint = g_strdup (self->credentials->token_endpoint);
  credentials->client = _tb_oauth_client_copy (self->credentials->client);
  credentials->account = _tb_oauth_account_from_tokens (tokens);
  if (credentials->account == NULL)
    credentials->account = g_strdup (self->credentials->account);
  if (tokens->refresh_token == NULL)
    tokens->refresh_token = g_strdup (self->credentials->tokens->refresh_token);
  if (tokens->scope == NULL)
    tokens->scope = g_strdup (self->credentials->tokens->scope);
  g_clear_pointer (&tokens->id_token, g_free);
  credentials->tokens = g_steal_pointer (&tokens);
  flow_keep (flow, credentials);
}

static void
flow_refresh (Flow *flow)
{
  TbMcpAuth *self = flow->self;
  TbOAuthCredentials *kept = self->credentials;
  g_autoptr(GHashTable) form = _tb_mcp_auth_new_form ("refresh_token");
  g_autoptr(TbOAuthClient) client = _tb_oauth_client_copy (kept->client);

  /* A pre-registered client's secret is not kept: it comes from the
   * settings each time. */
  if (g_strcmp0 (client->registered_by, "pre-registered") == 0 &&
      g_strcmp0 (client->client_id, self->config.client_id) == 0)
    {
      g_free (client->client_secret);
      client->client_secret = g_strdup (self->config.client_secret);
    }
  g_hash_table_insert (form, g_strdup ("refresh_token"), g_strdup (kept->tokens->refresh_token));
  if (kept->resource != NULL)
    g_hash_table_insert (form, g_strdup ("resource"), g_strdup (kept->resource));
  _tb_mcp_auth_set_state (self, TB_MCP_AUTH_STATE_SIGNING_IN);
  _tb_oauth_token_async (self->session, kept->token_endpoint, client->issuer, client,
                         self->config.key_pem, TB_OAUTH_GRANT_REFRESH, form, flow->cancellable,
                         refresh_cb, flow);
}

/* What to do, once what is kept is known. */

static gboolean
expired (TbOAuthTokens *tokens)
{
  return tokens->expires_at > 0 &&
         tokens->expires_at <= g_get_real_time () / G_USEC_PER_SEC + EXPIRY_MARGIN_S;
}

static void
flow_decide (Flow *flow)
{
  TbMcpAuth *self = flow->self;
  TbOAuthCredentials *kept = self->credentials;

  if (flow->force_sign_in || kept == NULL || kept->tokens == NULL)
    {
      _tb_mcp_auth_flow_sign_in (flow);
      return;
    }
  /* A token the request did not carry, still valid: send it. */
  if (flow->serial_used != self->serial && !expired (kept->tokens))
    {
      _tb_mcp_auth_flow_finish (flow, NULL);
      return;
    }
  if (kept->tokens->refresh_token != NULL && kept->token_endpoint != NULL &&
      kept->client != NULL)
    {
      flow_refresh (flow);
      return;
    }
  _tb_mcp_auth_flow_sign_in (flow);
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Flow *flow = user_data;
  TbMcpAuth *self = flow->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = tb_secret_store_fetch_finish (TB_SECRET_STORE (object), result, &error);

  if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      _tb_mcp_auth_flow_finish (flow, g_steal_pointer (&error));
      return;
    }
  _tb_mcp_auth_take_kept (self, text);
  flow_decide (flow);
}

void
_tb_mcp_auth_flow_start (Flow *flow)
{
  TbMcpAuth *self = flow->self;

  if (!self->loaded)
    {
      tb_secret_store_fetch_async (self->store, TB_SECRET_KIND_MCP_AUTHORIZATION,
                                   self->server_name, self->server_url, flow->cancellable,
                                   load_cb, flow);
      return;
    }
  flow_decide (flow);
}
