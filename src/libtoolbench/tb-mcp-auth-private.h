/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the files of TbMcpAuth share: the type, its state and public API
 * (tb-mcp-auth.c), a sign-in under way and what it keeps
 * (tb-mcp-auth-flow.c), signing in anew (tb-mcp-auth-sign-in.c), the
 * authorization code grant (tb-mcp-auth-code.c) and what the transport
 * calls on 401 and 403 (tb-mcp-auth-challenge.c). */

#include "tb-oauth-loopback.h"
#include "tb-oauth-private.h"

G_BEGIN_DECLS

struct _TbMcpAuth
{
  GObject              parent_instance;

  char                *server_name;
  char                *server_url;
  TbMcpAuthMode        mode;
  TbSecretStore       *store;
  TbOAuthClientConfig  config;
  char                *idp_token_endpoint;
  char                *idp_client_id;
  char                *id_token;
  char                *assertion;
  guint                redirect_timeout_ms;

  SoupSession         *session;
  gboolean             loaded;
  TbOAuthCredentials  *credentials;
  guint                serial;
  TbMcpAuthState       state;
  char                *error;
  char                *authorization_url;

  struct _Flow        *flow;
};

typedef struct _Flow
{
  TbMcpAuth               *self;
  GPtrArray               *waiters;
  GCancellable            *cancellable;
  gboolean                 explicit;
  gboolean                 force_sign_in;
  gboolean                 token_refused;
  guint                    serial_used;
  char                    *metadata_url;
  char                    *challenge_scope;
  char                    *refresh_problem;

  TbOAuthResourceMetadata *resource_metadata;
  TbOAuthServerMetadata   *server;
  TbOAuthClient           *client;
  TbOAuthLoopback         *loopback;
  char                    *resource;
  char                    *scope;
  char                    *state;
  char                    *verifier;
  TbOAuthTokens           *tokens;
  guint                    hops;
} Flow;

typedef enum
{
  TB_MCP_AUTH_PRESENT_URL,
  TB_MCP_AUTH_N_SIGNALS
} TbMcpAuthSignal;

extern guint _tb_mcp_auth_signals [TB_MCP_AUTH_N_SIGNALS];

/* tb-mcp-auth.c */
void        _tb_mcp_auth_wipe_free             (char               *text);
void        _tb_mcp_auth_set_state             (TbMcpAuth          *self,
                                                TbMcpAuthState      state);
void        _tb_mcp_auth_set_error             (TbMcpAuth          *self,
                                                const char         *error);
void        _tb_mcp_auth_set_authorization_url (TbMcpAuth          *self,
                                                const char         *url);
gboolean    _tb_mcp_auth_has_token             (TbMcpAuth          *self);
void        _tb_mcp_auth_set_credentials       (TbMcpAuth          *self,
                                                TbOAuthCredentials *credentials);
void        _tb_mcp_auth_take_kept             (TbMcpAuth          *self,
                                                char               *text);

/* tb-mcp-auth-flow.c */
Flow       *_tb_mcp_auth_flow_new              (TbMcpAuth          *self);
void        _tb_mcp_auth_flow_add_waiter       (Flow               *flow,
                                                GTask              *task);
void        _tb_mcp_auth_flow_start            (Flow               *flow);
void        _tb_mcp_auth_flow_finish           (Flow               *flow,
                                                GError             *error);
void        _tb_mcp_auth_flow_token_cb         (GObject            *object,
                                                GAsyncResult       *result,
                                                gpointer            user_data);
GHashTable *_tb_mcp_auth_new_form              (const char         *grant_type);

/* tb-mcp-auth-sign-in.c */
void        _tb_mcp_auth_flow_sign_in          (Flow               *flow);
char       *_tb_mcp_auth_join_scopes           (const char         *a,
                                                const char         *b);

/* tb-mcp-auth-code.c */
void        _tb_mcp_auth_flow_start_code_grant (Flow               *flow);

G_END_DECLS
