/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-oauth"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <gnutls/abstract.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <string.h>

#include "tb-json.h"
#include "tb-oauth-private.h"

/* JSON Web Tokens (RFC 7519), the two things the client does with them:
 * read the claims of an ID token the authorization server sent (to say
 * who is signed in; the token came straight from the token endpoint over
 * TLS, so its signature is not what vouches for it), and sign a client
 * assertion (RFC 7523, `private_key_jwt`) with a key the person gave:
 * ES256 and ES384 for P-256 and P-384 keys, RS256 for RSA keys. */

#define MAX_JWT 64 * 1024

static guint8 *
base64url_decode (const char *text,
                  gsize       length,
                  gsize      *out_length)
{
  g_autoptr(GString) padded = g_string_new_len (text, length);

  for (gsize i = 0; i < padded->len; i++)
    {
      if (padded->str[i] == '-')
        padded->str[i] = '+';
      else if (padded->str[i] == '_')
        padded->str[i] = '/';
      else if (!g_ascii_isalnum (padded->str[i]) && padded->str[i] != '+' &&
               padded->str[i] != '/')
        return NULL;
    }
  while (padded->len % 4 != 0)
    g_string_append_c (padded, '=');
  return g_base64_decode (padded->str, out_length);
}

/**
 * _tb_oauth_jwt_claims:
 * @jwt: (nullable): a JWS in compact form
 *
 * Returns: (transfer full) (nullable): its claims, unverified; %NULL when
 *   it is not a JWT
 */
JsonObject *
_tb_oauth_jwt_claims (const char *jwt)
{
  const char *first;
  const char *second;
  g_autofree guint8 *payload = NULL;
  g_autoptr(JsonNode) node = NULL;
  gsize length = 0;

  if (jwt == NULL || strlen (jwt) > MAX_JWT || (first = strchr (jwt, '.')) == NULL ||
      (second = strchr (first + 1, '.')) == NULL)
    return NULL;
  payload = base64url_decode (first + 1, second - first - 1, &length);
  if (payload == NULL || length == 0)
    return NULL;
  node = tb_json_parse ((const char *) payload, length, NULL);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  return json_object_ref (json_node_get_object (node));
}

typedef struct
{
  gnutls_privkey_t          key;
  gnutls_sign_algorithm_t   sign;
  const char               *alg;
  guint                     coordinate;  /* bytes of r and s, for ECDSA */
} Key;

static void
key_clear (Key *key)
{
  if (key->key != NULL)
    gnutls_privkey_deinit (key->key);
  key->key = NULL;
}

static gboolean
key_load (const char  *pem,
          Key         *key,
          GError     **error)
{
  gnutls_datum_t data;
  unsigned int bits = 0;
  int algorithm;
  int status;

  memset (key, 0, sizeof *key);
  if (pem == NULL || *pem == '\0')
    {
      g_set_error_literal (error, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_CONFIG,
                           _("The client key is empty"));
      return FALSE;
    }
  gnutls_privkey_init (&key->key);
  data.data = (unsigned char *) pem;
  data.size = strlen (pem);
  status = gnutls_privkey_import_x509_raw (key->key, &data, GNUTLS_X509_FMT_PEM, NULL, 0);
  if (status < 0)
    {
      g_set_error (error, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_CONFIG,
                   _("The client key is not a private key in PEM form (%s)"),
                   gnutls_strerror (status));
      key_clear (key);
      return FALSE;
    }
  algorithm = gnutls_privkey_get_pk_algorithm (key->key, &bits);
  if (algorithm == GNUTLS_PK_ECDSA && bits == 256)
    {
      key->sign = GNUTLS_SIGN_ECDSA_SHA256;
      key->alg = "ES256";
      key->coordinate = 32;
    }
  else if (algorithm == GNUTLS_PK_ECDSA && bits == 384)
    {
      key->sign = GNUTLS_SIGN_ECDSA_SHA384;
      key->alg = "ES384";
      key->coordinate = 48;
    }
  else if (algorithm == GNUTLS_PK_RSA && bits >= 2048)
    {
      key->sign = GNUTLS_SIGN_RSA_SHA256;
      key->alg = "RS256";
    }
  else
    {
      g_set_error (error, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_CONFIG,
                   _("The client key is neither a P-256 or P-384 elliptic curve key nor an "
                     "RSA key of 2048 bits or more"));
      key_clear (key);
      return FALSE;
    }
  return TRUE;
}

/**
 * _tb_oauth_jwt_check_key:
 *
 * Returns: whether @key_pem is a key _tb_oauth_jwt_sign() can sign with
 */
gboolean
_tb_oauth_jwt_check_key (const char  *key_pem,
                         GError     **error)
{
  Key key;

  if (!key_load (key_pem, &key, error))
    return FALSE;
  key_clear (&key);
  return TRUE;
}

/* An ECDSA signature comes DER-encoded; a JWS wants r and s side by side,
 * each as wide as the curve. */
static GBytes *
ecdsa_raw (const gnutls_datum_t *der,
           guint                 width)
{
  gnutls_datum_t r = { NULL, 0 };
  gnutls_datum_t s = { NULL, 0 };
  g_autofree guint8 *raw = g_malloc0 (2 * width);
  const gnutls_datum_t *parts[2] = { &r, &s };

  if (gnutls_decode_rs_value (der, &r, &s) < 0)
    return NULL;
  for (guint i = 0; i < 2; i++)
    {
      const guint8 *data = parts[i]->data;
      guint size = parts[i]->size;

      while (size > width && *data == 0)
        {
          data++;
          size--;
        }
      if (size <= width)
        memcpy (raw + i * width + (width - size), data, size);
    }
  gnutls_free (r.data);
  gnutls_free (s.data);
  return g_bytes_new_take (g_steal_pointer (&raw), 2 * width);
}

/**
 * _tb_oauth_jwt_sign:
 *
 * Returns: (transfer full) (nullable): a JWS of @claims signed with the
 *   key in @key_pem
 */
char *
_tb_oauth_jwt_sign (const char  *key_pem,
                    JsonObject  *claims,
                    GError     **error)
{
  g_autoptr(JsonNode) header_node = NULL;
  g_autoptr(JsonNode) claims_node = NULL;
  g_autofree char *header_text = NULL;
  g_autofree char *claims_text = NULL;
  g_autofree char *header64 = NULL;
  g_autofree char *claims64 = NULL;
  g_autofree char *input = NULL;
  g_autofree char *signature64 = NULL;
  g_autoptr(GBytes) raw = NULL;
  JsonObject *header = json_object_new ();
  gnutls_datum_t message;
  gnutls_datum_t signature = { NULL, 0 };
  Key key;
  int status;

  if (!key_load (key_pem, &key, error))
    {
      json_object_unref (header);
      return NULL;
    }
  json_object_set_string_member (header, "alg", key.alg);
  json_object_set_string_member (header, "typ", "JWT");
  header_node = tb_json_node_take_object (header);
  claims_node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (claims_node, claims);
  header_text = tb_json_to_string (header_node, FALSE);
  claims_text = tb_json_to_string (claims_node, FALSE);
  header64 = _tb_oauth_base64url ((const guint8 *) header_text, strlen (header_text));
  claims64 = _tb_oauth_base64url ((const guint8 *) claims_text, strlen (claims_text));
  input = g_strconcat (header64, ".", claims64, NULL);

  message.data = (unsigned char *) input;
  message.size = strlen (input);
  status = gnutls_privkey_sign_data2 (key.key, key.sign, 0, &message, &signature);
  if (status < 0)
    {
      g_set_error (error, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_CONFIG,
                   _("The client key cannot sign (%s)"), gnutls_strerror (status));
      key_clear (&key);
      return NULL;
    }
  if (key.coordinate > 0)
    raw = ecdsa_raw (&signature, key.coordinate);
  else
    raw = g_bytes_new (signature.data, signature.size);
  gnutls_free (signature.data);
  key_clear (&key);
  if (raw == NULL)
    {
      g_set_error_literal (error, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_CONFIG,
                           _("The client key made a signature that cannot be read"));
      return NULL;
    }
  signature64 = _tb_oauth_base64url (g_bytes_get_data (raw, NULL), g_bytes_get_size (raw));
  return g_strconcat (input, ".", signature64, NULL);
}
