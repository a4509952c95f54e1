/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-oauth"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-mcp-auth-private.h"

/* What the HTTP transport asks of the authorization: the token on every
 * request, and after a 401 or a 403 asking for more scope (step-up), a
 * token to go again with, within the limits on sign-ins per request. */

/**
 * _tb_mcp_auth_apply:
 * @message: a request to the MCP server
 *
 * Puts the access token on @message.
 *
 * Returns: which token went, for _tb_mcp_auth_challenge_async(); 0 for none
 */
guint
_tb_mcp_auth_apply (TbMcpAuth   *self,
                    SoupMessage *message)
{
  g_autofree char *value = NULL;

  if (!_tb_mcp_auth_has_token (self))
    return 0;
  value = g_strconcat ("Bearer ", self->credentials->tokens->access_token, NULL);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Authorization",
                                value);
  memset (value, 0, strlen (value));
  return self->serial;
}

static gboolean
return_true_idle (gpointer user_data)
{
  g_autoptr(GTask) task = user_data;

  g_task_return_boolean (task, TRUE);
  return G_SOURCE_REMOVE;
}

/* Fails the request, and says why in #TbMcpAuth:error too. */
static void
refuse (TbMcpAuth *self,
        GTask     *task,
        GError    *error)
{
  _tb_mcp_auth_set_error (self, error->message);
  g_task_return_error (task, error);
}

static char *
challenge_said (TbOAuthChallenge *bearer)
{
  const char *error = _tb_oauth_challenge_get (bearer, "error");
  const char *description = _tb_oauth_challenge_get (bearer, "error_description");
  g_autofree char *shown_error = NULL;
  g_autofree char *shown_description = NULL;

  if (error == NULL && description == NULL)
    return g_strdup ("");
  shown_error = _tb_oauth_shown (error != NULL ? error : "", 100);
  shown_description = _tb_oauth_shown (description != NULL ? description : "", 300);
  if (description == NULL)
    return g_strdup_printf (", %s", shown_error);
  if (error == NULL)
    return g_strdup_printf (", %s", shown_description);
  return g_strdup_printf (", %s: %s", shown_error, shown_description);
}

/**
 * _tb_mcp_auth_challenge_async:
 * @status: 401 or 403
 * @www_authenticate: (nullable): the answer's WWW-Authenticate
 * @serial_used: what _tb_mcp_auth_apply() returned for the request
 * @rounds: how many times this request went through here already
 *
 * Gets a token the request can go again with: the one kept, a refreshed
 * one, or a new sign-in (with more scope after a 403). A flow under way is
 * joined rather than started twice.
 */
void
_tb_mcp_auth_challenge_async (TbMcpAuth           *self,
                              guint                status,
                              const char          *www_authenticate,
                              guint                serial_used,
                              guint                rounds,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(GPtrArray) challenges = _tb_oauth_parse_www_authenticate (www_authenticate);
  TbOAuthChallenge *bearer = _tb_oauth_find_bearer (challenges);
  const char *scope = _tb_oauth_challenge_get (bearer, "scope");
  const char *error = _tb_oauth_challenge_get (bearer, "error");
  g_autofree char *said = challenge_said (bearer);
  gboolean step_up = status == SOUP_STATUS_FORBIDDEN;
  Flow *flow;

  g_task_set_source_tag (task, _tb_mcp_auth_challenge_async);

  if (step_up && g_strcmp0 (error, "insufficient_scope") != 0)
    {
      /* Not about the token: the server refuses, and says why. */
      g_task_return_new_error (task, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_REFUSED,
                               /* Translators: a server name, then what it said */
                               _("The MCP server “%s” refused the request (HTTP 403%s)"),
                               self->server_name, said);
      return;
    }
  if (step_up && rounds >= TB_OAUTH_MAX_ROUNDS)
    {
      refuse (self, task,
              g_error_new (TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_REFUSED,
                           /* Translators: a server name, a scope, a number, what it said */
                           _("The MCP server “%s” still asks for the scope “%s” after %u "
                             "sign-ins, so Toolbench stopped signing in (HTTP 403%s)"),
                           self->server_name, scope != NULL ? scope : "", rounds, said));
      return;
    }
  if (!step_up && rounds >= TB_OAUTH_MAX_UNAUTHORIZED_ROUNDS)
    {
      refuse (self, task,
              g_error_new (TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_REFUSED,
                           /* Translators: a server name, a number, what it said */
                           _("The MCP server “%s” refused the request %u times although "
                             "Toolbench got a new token each time, so it stopped (HTTP 401%s); "
                             "the server may not accept the tokens of the authorization server "
                             "it names"), self->server_name, rounds + 1, said));
      return;
    }

  /* Someone else got a new token meanwhile: go again with it. */
  if (!step_up && self->loaded && _tb_mcp_auth_has_token (self) && serial_used != self->serial)
    {
      g_idle_add_full (G_PRIORITY_DEFAULT, return_true_idle, g_steal_pointer (&task), NULL);
      return;
    }

  if (self->flow != NULL)
    {
      _tb_mcp_auth_flow_add_waiter (self->flow, task);
      return;
    }

  flow = _tb_mcp_auth_flow_new (self);
  self->flow = flow;
  flow->serial_used = serial_used;
  flow->metadata_url = g_strdup (_tb_oauth_challenge_get (bearer, "resource_metadata"));
  flow->force_sign_in = step_up;
  if (step_up)
    flow->challenge_scope =
      _tb_mcp_auth_join_scopes (_tb_mcp_auth_has_token (self) ? self->credentials->tokens->scope
                                                              : NULL, scope);
  else
    flow->challenge_scope = g_strdup (scope);
  _tb_mcp_auth_flow_add_waiter (flow, task);
  _tb_mcp_auth_flow_start (flow);
}

gboolean
_tb_mcp_auth_challenge_finish (TbMcpAuth     *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
