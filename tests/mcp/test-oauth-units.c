/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The parts of signing in that need no server: the WWW-Authenticate
 * parser, the order of the discovery URLs, the resource rule of RFC 9728,
 * canonical resources, PKCE, what is kept, and JSON Web Tokens. */

#include "config.h"

#include <gnutls/abstract.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <string.h>
#include <toolbench.h>

#include "tb-json.h"
#include "tb-oauth-private.h"

static TbOAuthChallenge *
challenge_at (GPtrArray *challenges,
              guint      index)
{
  g_assert_cmpuint (index, <, challenges->len);
  return g_ptr_array_index (challenges, index);
}

static void
test_parse_simple (void)
{
  g_autoptr(GPtrArray) challenges = _tb_oauth_parse_www_authenticate (
    "Bearer resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource\", "
    "scope=\"files:read files:write\"");
  TbOAuthChallenge *bearer = _tb_oauth_find_bearer (challenges);

  g_assert_cmpuint (challenges->len, ==, 1);
  g_assert_nonnull (bearer);
  g_assert_cmpstr (_tb_oauth_challenge_get (bearer, "resource_metadata"), ==,
                   "https://mcp.example.com/.well-known/oauth-protected-resource");
  g_assert_cmpstr (_tb_oauth_challenge_get (bearer, "scope"), ==, "files:read files:write");
  g_assert_null (_tb_oauth_challenge_get (bearer, "error"));
}

static void
test_parse_several (void)
{
  g_autoptr(GPtrArray) challenges = _tb_oauth_parse_www_authenticate (
    "Basic realm=\"old, \\\"quoted\\\" realm\", Negotiate YII=, "
    "Bearer error=insufficient_scope,scope=\"a b\"");
  TbOAuthChallenge *basic = challenge_at (challenges, 0);
  TbOAuthChallenge *negotiate = challenge_at (challenges, 1);
  TbOAuthChallenge *bearer = challenge_at (challenges, 2);

  g_assert_cmpuint (challenges->len, ==, 3);
  g_assert_cmpstr (basic->scheme, ==, "Basic");
  g_assert_cmpstr (_tb_oauth_challenge_get (basic, "realm"), ==, "old, \"quoted\" realm");
  g_assert_cmpstr (negotiate->scheme, ==, "Negotiate");
  g_assert_cmpstr (negotiate->token68, ==, "YII=");
  g_assert_cmpuint (g_hash_table_size (negotiate->params), ==, 0);
  g_assert_true (_tb_oauth_find_bearer (challenges) == bearer);
  g_assert_cmpstr (_tb_oauth_challenge_get (bearer, "error"), ==, "insufficient_scope");
  g_assert_cmpstr (_tb_oauth_challenge_get (bearer, "scope"), ==, "a b");
}

/* Spaces around "=", empty list items, case, a URL left unquoted, a
 * parameter named twice (the first counts). */
static void
test_parse_odd (void)
{
  g_autoptr(GPtrArray) challenges = _tb_oauth_parse_www_authenticate (
    "  ,, bearer   Realm = \"tool\\\\bench\" ,  , RESOURCE_METADATA = "
    "https://example.com/prm?x=1 ,scope=\"\" , scope=\"later\",error=\"invalid_token\"\t");
  TbOAuthChallenge *bearer = _tb_oauth_find_bearer (challenges);

  g_assert_cmpuint (challenges->len, ==, 1);
  g_assert_nonnull (bearer);
  g_assert_cmpstr (bearer->scheme, ==, "bearer");
  g_assert_cmpstr (_tb_oauth_challenge_get (bearer, "realm"), ==, "tool\\bench");
  g_assert_cmpstr (_tb_oauth_challenge_get (bearer, "resource_metadata"), ==,
                   "https://example.com/prm?x=1");
  /* An empty value counts as none, and the first one stays. */
  g_assert_null (_tb_oauth_challenge_get (bearer, "scope"));
  g_assert_cmpstr (_tb_oauth_challenge_get (bearer, "error"), ==, "invalid_token");
}

/* What cannot be read is skipped; nothing crashes or hangs. */
static void
test_parse_garbage (void)
{
  const char *inputs[] = {
    "", ",,,", "=", "Bearer =", "Bearer \"unterminated", "Bearer scope=\"a\\", "\"\"",
    "Bearer a=b=c", "Bearer ,=,=", "@@@ Bearer scope=x", "Bearer\x01scope=x",
  };

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autoptr(GPtrArray) challenges = _tb_oauth_parse_www_authenticate (inputs[i]);

      g_assert_nonnull (challenges);
    }
  {
    g_autoptr(GPtrArray) challenges = _tb_oauth_parse_www_authenticate ("Bearer scope=\"a\\");

    /* A backslash with nothing to escape stays. */
    g_assert_cmpstr (_tb_oauth_challenge_get (_tb_oauth_find_bearer (challenges), "scope"), ==,
                     "a\\");
  }
  {
    g_autoptr(GPtrArray) none = _tb_oauth_parse_www_authenticate (NULL);

    g_assert_cmpuint (none->len, ==, 0);
    g_assert_null (_tb_oauth_find_bearer (none));
  }
  {
    g_autoptr(GString) many = g_string_new (NULL);
    g_autoptr(GPtrArray) challenges = NULL;

    for (guint i = 0; i < 10000; i++)
      g_string_append (many, "Basic realm=x, ");
    challenges = _tb_oauth_parse_www_authenticate (many->str);
    g_assert_cmpuint (challenges->len, <=, 17);
  }
}

static void
assert_urls (GPtrArray          *urls,
             const char * const *expected)
{
  g_assert_cmpuint (urls->len, ==, g_strv_length ((char **) expected));
  for (guint i = 0; i < urls->len; i++)
    g_assert_cmpstr (g_ptr_array_index (urls, i), ==, expected[i]);
}

static void
test_resource_metadata_order (void)
{
  g_autoptr(GPtrArray) with_path = _tb_oauth_resource_metadata_urls (
    "https://example.com/public/mcp");
  g_autoptr(GPtrArray) trailing = _tb_oauth_resource_metadata_urls ("https://example.com/mcp/");
  g_autoptr(GPtrArray) root = _tb_oauth_resource_metadata_urls ("http://127.0.0.1:8080");
  const char *expected_path[] = {
    "https://example.com/.well-known/oauth-protected-resource/public/mcp",
    "https://example.com/.well-known/oauth-protected-resource",
    NULL
  };
  const char *expected_trailing[] = {
    "https://example.com/.well-known/oauth-protected-resource/mcp",
    "https://example.com/.well-known/oauth-protected-resource",
    NULL
  };
  const char *expected_root[] = {
    "http://127.0.0.1:8080/.well-known/oauth-protected-resource",
    NULL
  };

  assert_urls (with_path, expected_path);
  assert_urls (trailing, expected_trailing);
  assert_urls (root, expected_root);
}

static void
test_server_metadata_order (void)
{
  g_autoptr(GPtrArray) with_path = _tb_oauth_server_metadata_urls (
    "https://auth.example.com/tenant1");
  g_autoptr(GPtrArray) root = _tb_oauth_server_metadata_urls ("https://auth.example.com");
  const char *expected_path[] = {
    "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
    "https://auth.example.com/.well-known/openid-configuration/tenant1",
    "https://auth.example.com/tenant1/.well-known/openid-configuration",
    NULL
  };
  const char *expected_root[] = {
    "https://auth.example.com/.well-known/oauth-authorization-server",
    "https://auth.example.com/.well-known/openid-configuration",
    NULL
  };

  assert_urls (with_path, expected_path);
  assert_urls (root, expected_root);
}

static void
test_resource_matches (void)
{
  const char *server = "https://mcp.example.com/server/mcp";

  g_assert_true (_tb_oauth_resource_matches ("https://mcp.example.com/server/mcp", server));
  g_assert_true (_tb_oauth_resource_matches ("https://mcp.example.com/server", server));
  g_assert_true (_tb_oauth_resource_matches ("https://mcp.example.com", server));
  g_assert_true (_tb_oauth_resource_matches ("https://MCP.example.com/", server));
  g_assert_false (_tb_oauth_resource_matches ("https://mcp.example.com/serv", server));
  g_assert_false (_tb_oauth_resource_matches ("https://mcp.example.com/other", server));
  g_assert_false (_tb_oauth_resource_matches ("https://evil.example.com/server/mcp", server));
  g_assert_false (_tb_oauth_resource_matches ("http://mcp.example.com/server/mcp", server));
  g_assert_false (_tb_oauth_resource_matches ("https://mcp.example.com:8443/server/mcp", server));
  g_assert_false (_tb_oauth_resource_matches ("https://mcp.example.com/server/mcp#x", server));
  g_assert_false (_tb_oauth_resource_matches ("not a url", server));
  g_assert_false (_tb_oauth_resource_matches (NULL, server));
}

static void
test_canonical_resource (void)
{
  g_autofree char *a = _tb_oauth_canonical_resource ("HTTPS://MCP.Example.COM/Server/mcp?x=1#f");
  g_autofree char *b = _tb_oauth_canonical_resource ("https://mcp.example.com/");
  g_autofree char *c = _tb_oauth_canonical_resource ("http://127.0.0.1:8443/mcp");
  g_autofree char *origin = _tb_oauth_origin ("http://127.0.0.1:8443/mcp/x");

  g_assert_cmpstr (a, ==, "https://mcp.example.com/Server/mcp");
  g_assert_cmpstr (b, ==, "https://mcp.example.com");
  g_assert_cmpstr (c, ==, "http://127.0.0.1:8443/mcp");
  g_assert_cmpstr (origin, ==, "http://127.0.0.1:8443");
}

static void
test_usable_urls (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (_tb_oauth_url_is_usable ("https://auth.example.com/token", NULL));
  g_assert_true (_tb_oauth_url_is_usable ("http://127.0.0.1:1234/token", NULL));
  g_assert_true (_tb_oauth_url_is_usable ("http://localhost/token", NULL));
  g_assert_false (_tb_oauth_url_is_usable ("http://auth.example.com/token", &error));
  g_assert_cmpstr (error->message, ==, "“http://auth.example.com/token” is not an HTTPS address; "
                   "sign-ins go over plain HTTP only to this machine");
  g_clear_error (&error);
  g_assert_false (_tb_oauth_url_is_usable ("javascript:alert(1)", &error));
  g_assert_cmpstr (error->message, ==, "“javascript:alert(1)” is not an http:// or https:// "
                   "address");
}

/* RFC 7636 Appendix B. */
static void
test_pkce (void)
{
  g_autofree char *challenge = _tb_oauth_pkce_challenge (
    "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
  g_autofree char *verifier = _tb_oauth_random_string (32);
  g_autofree char *other = _tb_oauth_random_string (32);

  g_assert_cmpstr (challenge, ==, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  g_assert_cmpuint (strlen (verifier), ==, 43);
  g_assert_cmpstr (verifier, !=, other);
  for (const char *p = verifier; *p != '\0'; p++)
    g_assert_true (g_ascii_isalnum (*p) || *p == '-' || *p == '_');
}

static void
test_credentials_round_trip (void)
{
  g_autoptr(TbOAuthCredentials) credentials = g_new0 (TbOAuthCredentials, 1);
  g_autoptr(TbOAuthCredentials) back = NULL;
  g_autofree char *text = NULL;

  credentials->resource = g_strdup ("https://mcp.example.com/mcp");
  credentials->token_endpoint = g_strdup ("https://auth.example.com/token");
  credentials->account = g_strdup ("ada@example.org");
  credentials->client = g_new0 (TbOAuthClient, 1);
  credentials->client->client_id = g_strdup ("pre");
  credentials->client->client_secret = g_strdup ("s3cret");
  credentials->client->auth_method = g_strdup ("client_secret_basic");
  credentials->client->registered_by = g_strdup ("pre-registered");
  credentials->tokens = g_new0 (TbOAuthTokens, 1);
  credentials->tokens->access_token = g_strdup ("at");
  credentials->tokens->refresh_token = g_strdup ("rt");
  credentials->tokens->token_type = g_strdup ("Bearer");
  credentials->tokens->scope = g_strdup ("a b");
  credentials->tokens->expires_at = 1700000000;

  text = _tb_oauth_credentials_to_text (credentials);
  /* A pre-registered client's secret is the person's to give, not kept. */
  g_assert_null (strstr (text, "s3cret"));
  back = _tb_oauth_credentials_from_text (text);
  g_assert_nonnull (back);
  g_assert_cmpstr (back->tokens->access_token, ==, "at");
  g_assert_cmpstr (back->tokens->refresh_token, ==, "rt");
  g_assert_cmpstr (back->tokens->scope, ==, "a b");
  g_assert_cmpint (back->tokens->expires_at, ==, 1700000000);
  g_assert_cmpstr (back->client->client_id, ==, "pre");
  g_assert_null (back->client->client_secret);
  g_assert_cmpstr (back->account, ==, "ada@example.org");

  /* What this version did not write is treated as nothing kept. */
  g_assert_null (_tb_oauth_credentials_from_text ("sk-an-api-key"));
  g_assert_null (_tb_oauth_credentials_from_text ("{\"access_token\":\"x\"}"));
  g_assert_null (_tb_oauth_credentials_from_text ("[[[[[[[["));
  g_assert_null (_tb_oauth_credentials_from_text (NULL));
}

static void
test_account_claims (void)
{
  /* {"sub":"1","name":"Ada"} */
  TbOAuthTokens tokens = { .id_token = (char *) "eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIiwibmFtZSI6"
                                                "IkFkYSJ9." };
  TbOAuthTokens broken = { .id_token = (char *) "not.a-jwt!.x" };
  g_autofree char *account = _tb_oauth_account_from_tokens (&tokens);
  g_autofree char *none = _tb_oauth_account_from_tokens (&broken);

  g_assert_cmpstr (account, ==, "Ada");
  g_assert_null (none);
}

static guint8 *
base64url_decode (const char *text,
                  gsize       length,
                  gsize      *out)
{
  g_autoptr(GString) padded = g_string_new_len (text, length);

  for (gsize i = 0; i < padded->len; i++)
    padded->str[i] = padded->str[i] == '-' ? '+' : padded->str[i] == '_' ? '/' : padded->str[i];
  while (padded->len % 4 != 0)
    g_string_append_c (padded, '=');
  return g_base64_decode (padded->str, out);
}

/* A client assertion signed with a P-256 key verifies with its public key. */
static void
test_jwt_sign (void)
{
  gnutls_x509_privkey_t x509 = NULL;
  gnutls_privkey_t key = NULL;
  gnutls_pubkey_t pubkey = NULL;
  gnutls_datum_t pem = { NULL, 0 };
  gnutls_datum_t data;
  gnutls_datum_t signature;
  gnutls_datum_t r;
  gnutls_datum_t s;
  gnutls_datum_t der = { NULL, 0 };
  g_autoptr(JsonObject) claims = json_object_new ();
  g_autoptr(JsonObject) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *jwt = NULL;
  g_autofree char *key_pem = NULL;
  g_autofree guint8 *raw = NULL;
  g_auto(GStrv) parts = NULL;
  gsize raw_length = 0;

  g_assert_cmpint (gnutls_x509_privkey_init (&x509), ==, 0);
  g_assert_cmpint (gnutls_x509_privkey_generate (x509, GNUTLS_PK_ECDSA,
                                                 GNUTLS_CURVE_TO_BITS (GNUTLS_ECC_CURVE_SECP256R1),
                                                 0), ==, 0);
  g_assert_cmpint (gnutls_x509_privkey_export2_pkcs8 (x509, GNUTLS_X509_FMT_PEM, NULL,
                                                      GNUTLS_PKCS_PLAIN, &pem), ==, 0);
  key_pem = g_strndup ((const char *) pem.data, pem.size);

  json_object_set_string_member (claims, "iss", "client");
  jwt = _tb_oauth_jwt_sign (key_pem, claims, &error);
  g_assert_no_error (error);
  parts = g_strsplit (jwt, ".", -1);
  g_assert_cmpuint (g_strv_length (parts), ==, 3);
  back = _tb_oauth_jwt_claims (jwt);
  g_assert_cmpstr (tb_json_object_get_string (back, "iss"), ==, "client");

  /* r and s, 32 bytes each, verify against the signing input. */
  raw = base64url_decode (parts[2], strlen (parts[2]), &raw_length);
  g_assert_cmpuint (raw_length, ==, 64);
  r.data = raw;
  r.size = 32;
  s.data = raw + 32;
  s.size = 32;
  g_assert_cmpint (gnutls_encode_rs_value (&der, &r, &s), ==, 0);
  gnutls_privkey_init (&key);
  gnutls_privkey_import_x509 (key, x509, 0);
  gnutls_pubkey_init (&pubkey);
  g_assert_cmpint (gnutls_pubkey_import_privkey (pubkey, key, 0, 0), ==, 0);
  {
    g_autofree char *input = g_strconcat (parts[0], ".", parts[1], NULL);

    data.data = (unsigned char *) input;
    data.size = strlen (input);
    signature = der;
    g_assert_cmpint (gnutls_pubkey_verify_data2 (pubkey, GNUTLS_SIGN_ECDSA_SHA256, 0, &data,
                                                 &signature), >=, 0);
  }

  gnutls_free (der.data);
  gnutls_free (pem.data);
  gnutls_pubkey_deinit (pubkey);
  gnutls_privkey_deinit (key);
  gnutls_x509_privkey_deinit (x509);

  /* A key that is not one is said so. */
  g_assert_null (_tb_oauth_jwt_sign ("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE "
                                     "KEY-----\n", claims, &error));
  g_assert_error (error, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_CONFIG);
  g_assert_true (g_str_has_prefix (error->message, "The client key is not a private key in PEM "
                                   "form ("));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/oauth/www-authenticate/simple", test_parse_simple);
  g_test_add_func ("/oauth/www-authenticate/several", test_parse_several);
  g_test_add_func ("/oauth/www-authenticate/odd", test_parse_odd);
  g_test_add_func ("/oauth/www-authenticate/garbage", test_parse_garbage);
  g_test_add_func ("/oauth/discovery/resource-metadata-order", test_resource_metadata_order);
  g_test_add_func ("/oauth/discovery/server-metadata-order", test_server_metadata_order);
  g_test_add_func ("/oauth/discovery/resource-matches", test_resource_matches);
  g_test_add_func ("/oauth/canonical-resource", test_canonical_resource);
  g_test_add_func ("/oauth/usable-urls", test_usable_urls);
  g_test_add_func ("/oauth/pkce", test_pkce);
  g_test_add_func ("/oauth/credentials", test_credentials_round_trip);
  g_test_add_func ("/oauth/account", test_account_claims);
  g_test_add_func ("/oauth/jwt-sign", test_jwt_sign);

  return g_test_run ();
}
