/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the files of the OAuth 2.1 authorization of MCP servers share: the
 * parsed WWW-Authenticate header (tb-oauth-www-authenticate.c), HTTP with
 * bounded JSON answers (tb-oauth-http.c), the metadata documents
 * (tb-oauth-discovery.c), the client (tb-oauth-registration.c), PKCE
 * (tb-oauth-pkce.c), tokens (tb-oauth-token.c), JSON Web Tokens
 * (tb-oauth-jwt.c) and what is kept in the keyring
 * (tb-oauth-credentials.c). TbMcpAuth (tb-mcp-auth*.c) ties them together;
 * the HTTP transport calls it through the functions at the end. */

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "tb-mcp-auth.h"

G_BEGIN_DECLS

/* The largest metadata, registration or token answer read. */
#define TB_OAUTH_MAX_DOCUMENT (1024 * 1024)

/* Sign-ins one request may cause: after a 401, and after 403s asking for
 * more scope. */
#define TB_OAUTH_MAX_UNAUTHORIZED_ROUNDS 2
#define TB_OAUTH_MAX_ROUNDS 3

/* tb-oauth-www-authenticate.c */

typedef struct
{
  char       *scheme;
  char       *token68;
  GHashTable *params;  /* lower-case name → value, quotes and escapes undone */
} TbOAuthChallenge;

void              _tb_oauth_challenge_free          (TbOAuthChallenge   *challenge);
GPtrArray        *_tb_oauth_parse_www_authenticate  (const char         *header);
TbOAuthChallenge *_tb_oauth_find_bearer             (GPtrArray          *challenges);
const char       *_tb_oauth_challenge_get           (TbOAuthChallenge   *challenge,
                                                     const char         *name);

/* tb-oauth-http.c */

typedef struct
{
  char       *url;
  guint       status;
  char       *reason;
  char       *content_type;
  char       *location;
  GBytes     *body;
  JsonNode   *json;          /* when the body is a JSON document */
  char       *json_problem;  /* why it is not, when it is not */
} TbOAuthResponse;

void             _tb_oauth_response_free     (TbOAuthResponse     *response);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TbOAuthResponse, _tb_oauth_response_free)

SoupSession     *_tb_oauth_session_new       (void);
void             _tb_oauth_http_async        (SoupSession         *session,
                                              const char          *method,
                                              const char          *url,
                                              const char          *content_type,
                                              GBytes              *body,
                                              const char          *authorization,
                                              gboolean             follow_redirects,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
TbOAuthResponse *_tb_oauth_http_finish       (SoupSession         *session,
                                              GAsyncResult        *result,
                                              GError             **error);
JsonObject      *_tb_oauth_response_object   (TbOAuthResponse     *response);
char            *_tb_oauth_response_summary  (TbOAuthResponse     *response);
char            *_tb_oauth_response_oauth_error (TbOAuthResponse  *response);
char            *_tb_oauth_shown             (const char          *text,
                                              guint                max_chars);
gboolean         _tb_oauth_url_is_usable     (const char          *url,
                                              GError             **error);
gboolean         _tb_oauth_is_loopback_host  (const char          *host);
char            *_tb_oauth_canonical_resource (const char         *url);
char            *_tb_oauth_origin            (const char          *url);
char           **_tb_oauth_json_strv         (JsonObject          *object,
                                              const char          *member);
gboolean         _tb_oauth_strv_contains     (char * const        *strv,
                                              const char          *value);

/* tb-oauth-discovery.c */

typedef struct
{
  char  *url;
  char  *resource;
  char **authorization_servers;
  char **scopes_supported;
} TbOAuthResourceMetadata;

typedef struct
{
  char     *metadata_url;  /* NULL when the 2025-03-26 default endpoints are used */
  char     *issuer;
  char     *authorization_endpoint;
  char     *token_endpoint;
  char     *registration_endpoint;
  char    **code_challenge_methods;
  char    **token_endpoint_auth_methods;
  char    **grant_types;
  char    **scopes_supported;
  gboolean  client_id_metadata_document_supported;
  gboolean  iss_parameter_supported;
  gboolean  legacy;
} TbOAuthServerMetadata;

void                     _tb_oauth_resource_metadata_free (TbOAuthResourceMetadata *metadata);
void                     _tb_oauth_server_metadata_free   (TbOAuthServerMetadata   *metadata);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TbOAuthResourceMetadata, _tb_oauth_resource_metadata_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TbOAuthServerMetadata, _tb_oauth_server_metadata_free)

GPtrArray               *_tb_oauth_resource_metadata_urls (const char           *server_url);
GPtrArray               *_tb_oauth_server_metadata_urls   (const char           *issuer);
gboolean                 _tb_oauth_resource_matches       (const char           *resource,
                                                           const char           *server_url);
void                     _tb_oauth_discover_resource_async (SoupSession         *session,
                                                            const char          *server_url,
                                                            const char          *metadata_url,
                                                            GCancellable        *cancellable,
                                                            GAsyncReadyCallback  callback,
                                                            gpointer             user_data);
TbOAuthResourceMetadata *_tb_oauth_discover_resource_finish (GAsyncResult       *result,
                                                             GError            **error);
void                     _tb_oauth_discover_server_async  (SoupSession          *session,
                                                           const char           *issuer,
                                                           gboolean              legacy,
                                                           GCancellable         *cancellable,
                                                           GAsyncReadyCallback   callback,
                                                           gpointer              user_data);
TbOAuthServerMetadata   *_tb_oauth_discover_server_finish (GAsyncResult         *result,
                                                           GError              **error);

/* tb-oauth-registration.c */

typedef struct
{
  char   *client_id;
  char   *client_secret;
  char   *auth_method;   /* client_secret_basic, client_secret_post, private_key_jwt, none */
  char   *registered_by; /* pre-registered, metadata-document, dynamic */
  char   *issuer;
} TbOAuthClient;

typedef struct
{
  char *client_id;
  char *client_secret;
  char *metadata_url;
  char *key_pem;
} TbOAuthClientConfig;

void            _tb_oauth_client_free        (TbOAuthClient        *client);
TbOAuthClient  *_tb_oauth_client_copy        (const TbOAuthClient  *client);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TbOAuthClient, _tb_oauth_client_free)

char           *_tb_oauth_choose_auth_method (TbOAuthServerMetadata *metadata,
                                              gboolean               has_secret,
                                              gboolean               has_key);
void            _tb_oauth_register_async     (SoupSession          *session,
                                              TbOAuthServerMetadata *metadata,
                                              const TbOAuthClientConfig *config,
                                              const TbOAuthClient  *kept,
                                              const char           *redirect_uri,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
TbOAuthClient  *_tb_oauth_register_finish    (GAsyncResult         *result,
                                              GError              **error);

/* tb-oauth-pkce.c */

char     *_tb_oauth_random_string       (gsize                   n_bytes);
char     *_tb_oauth_base64url           (const guint8           *data,
                                         gsize                   length);
char     *_tb_oauth_pkce_challenge      (const char             *verifier);
gboolean  _tb_oauth_pkce_check_server   (TbOAuthServerMetadata  *metadata,
                                         GError                **error);

/* tb-oauth-token.c */

typedef enum
{
  TB_OAUTH_GRANT_CODE,
  TB_OAUTH_GRANT_REFRESH,
  TB_OAUTH_GRANT_CLIENT_CREDENTIALS,
  TB_OAUTH_GRANT_JWT_BEARER,
  TB_OAUTH_GRANT_TOKEN_EXCHANGE,
} TbOAuthGrant;

typedef struct
{
  char   *access_token;
  char   *token_type;
  char   *refresh_token;
  char   *scope;
  char   *id_token;
  gint64  expires_at;  /* unix seconds; 0 when the server named no lifetime */
} TbOAuthTokens;

void            _tb_oauth_tokens_free       (TbOAuthTokens        *tokens);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TbOAuthTokens, _tb_oauth_tokens_free)

void            _tb_oauth_token_async       (SoupSession          *session,
                                             const char           *token_endpoint,
                                             const char           *audience,
                                             const TbOAuthClient  *client,
                                             const char           *key_pem,
                                             TbOAuthGrant          grant,
                                             GHashTable           *form,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              user_data);
TbOAuthTokens  *_tb_oauth_token_finish      (GAsyncResult         *result,
                                             GError              **error);

/* tb-oauth-jwt.c */

JsonObject     *_tb_oauth_jwt_claims        (const char           *jwt);
char           *_tb_oauth_jwt_sign          (const char           *key_pem,
                                             JsonObject           *claims,
                                             GError              **error);
gboolean        _tb_oauth_jwt_check_key     (const char           *key_pem,
                                             GError              **error);

/* tb-oauth-credentials.c: what is kept of a sign-in. */

typedef struct
{
  char          *resource;
  char          *token_endpoint;
  TbOAuthClient *client;
  TbOAuthTokens *tokens;
  char          *account;
} TbOAuthCredentials;

void                _tb_oauth_credentials_free    (TbOAuthCredentials  *credentials);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TbOAuthCredentials, _tb_oauth_credentials_free)
char               *_tb_oauth_credentials_to_text (const TbOAuthCredentials *credentials);
TbOAuthCredentials *_tb_oauth_credentials_from_text (const char        *text);
char               *_tb_oauth_account_from_tokens (const TbOAuthTokens *tokens);

/* For the HTTP transport (tb-mcp-auth-challenge.c). */

guint     _tb_mcp_auth_apply            (TbMcpAuth            *self,
                                         SoupMessage          *message);
void      _tb_mcp_auth_challenge_async  (TbMcpAuth            *self,
                                         guint                 status,
                                         const char           *www_authenticate,
                                         guint                 serial_used,
                                         guint                 rounds,
                                         GCancellable         *cancellable,
                                         GAsyncReadyCallback   callback,
                                         gpointer              user_data);
gboolean  _tb_mcp_auth_challenge_finish (TbMcpAuth            *self,
                                         GAsyncResult         *result,
                                         GError              **error);

G_END_DECLS
