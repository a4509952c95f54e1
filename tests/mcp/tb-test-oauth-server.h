/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* An OAuth 2.1 authorization server and an MCP server it protects, both
 * SoupServers on 127.0.0.1, for tests that drive a real sign-in: discovery,
 * dynamic registration, PKCE, codes, tokens, refresh, scope. Each knob
 * below makes one part of it misbehave as servers in the wild do; the
 * counters say what the client did. Everything happens on the thread-
 * default main context of the test. */

#include <libsoup/soup.h>

G_BEGIN_DECLS

typedef struct
{
  /* Knobs, set before the client connects. */
  gboolean    metadata_html;           /* metadata answers with an HTML page */
  gboolean    issuer_mismatch;         /* metadata names another issuer */
  gboolean    no_s256;                 /* metadata lists only "plain" */
  gboolean    wrong_state;             /* the redirect carries another state */
  gboolean    authorize_page;          /* the authorization endpoint shows a page */
  gboolean    deny;                    /* the redirect carries error=access_denied */
  gboolean    token_without_access_token;
  gboolean    refuse_refresh;          /* refresh tokens are refused: invalid_grant */
  gboolean    always_unauthorized;     /* the MCP server refuses every token */
  gboolean    odd_challenge;           /* WWW-Authenticate with odd spacing and escapes */
  char       *resource_metadata_url;   /* named in the challenge instead of our own */
  char       *required_scope;          /* the MCP server wants it (403 otherwise) */
  char       *scopes_supported;        /* of the resource metadata, space-separated */
  char       *id_token_email;          /* token answers carry an ID token with it */
  gint        expires_in;              /* of access tokens; 0: none given */

  /* What the client did. */
  guint       n_resource_metadata;
  guint       n_server_metadata;
  guint       n_register;
  guint       n_authorize;
  guint       n_token_code;
  guint       n_token_refresh;
  guint       n_mcp;
  guint       n_mcp_refused;
  char       *last_scope;              /* of the last authorization request */
  char       *last_resource;           /* of the last authorization request */
  char       *last_token_resource;     /* of the last token request */
  char       *last_bearer;             /* the last token the MCP server got */

  /* The servers. */
  SoupServer *mcp_server;
  SoupServer *as_server;
  char       *mcp_url;
  char       *issuer;
  GHashTable *codes;
  GHashTable *access_tokens;   /* token → scope */
  GHashTable *refresh_tokens;  /* token → scope */
  guint       serial;
} TbTestOAuthServer;

TbTestOAuthServer *tb_test_oauth_server_new              (void);
void               tb_test_oauth_server_free             (TbTestOAuthServer *self);
void               tb_test_oauth_server_revoke_access    (TbTestOAuthServer *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TbTestOAuthServer, tb_test_oauth_server_free)

G_END_DECLS
