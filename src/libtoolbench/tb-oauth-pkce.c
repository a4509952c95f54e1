/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-oauth"

#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <sys/random.h>

#include "tb-oauth-private.h"

/* Proof Key for Code Exchange (RFC 7636), S256 only: the MCP
 * specification requires S256 and requires refusing an authorization
 * server whose metadata does not list it. The same random source makes
 * `state`. */

/**
 * _tb_oauth_base64url:
 *
 * Returns: (transfer full): @data in base64url without padding
 */
char *
_tb_oauth_base64url (const guint8 *data,
                     gsize         length)
{
  char *text = g_base64_encode (data, length);
  gsize len = strlen (text);

  for (gsize i = 0; i < len; i++)
    {
      if (text[i] == '+')
        text[i] = '-';
      else if (text[i] == '/')
        text[i] = '_';
    }
  while (len > 0 && text[len - 1] == '=')
    text[--len] = '\0';
  return text;
}

/**
 * _tb_oauth_random_string:
 * @n_bytes: how many random bytes, at most 64
 *
 * Returns: (transfer full): @n_bytes from the kernel's random source, in
 *   base64url: 32 bytes make a 43-character code verifier
 */
char *
_tb_oauth_random_string (gsize n_bytes)
{
  guint8 bytes[64];
  gsize got = 0;

  g_assert (n_bytes <= sizeof bytes);
  while (got < n_bytes)
    {
      ssize_t n = getrandom (bytes + got, n_bytes - got, 0);

      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          /* Without the kernel's source there is no secret to make. */
          g_error ("getrandom() failed: %s", g_strerror (errno));
        }
      got += n;
    }
  return _tb_oauth_base64url (bytes, n_bytes);
}

/**
 * _tb_oauth_pkce_challenge:
 *
 * Returns: (transfer full): BASE64URL(SHA256(verifier))
 */
char *
_tb_oauth_pkce_challenge (const char *verifier)
{
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  guint8 digest[32];
  gsize length = sizeof digest;

  g_checksum_update (checksum, (const guchar *) verifier, strlen (verifier));
  g_checksum_get_digest (checksum, digest, &length);
  return _tb_oauth_base64url (digest, length);
}

/**
 * _tb_oauth_pkce_check_server:
 *
 * Returns: whether the authorization server supports PKCE with S256; a
 *   server whose metadata does not say so is refused. Only the default
 *   endpoints of a 2025-03-26 server without metadata get S256 untested.
 */
gboolean
_tb_oauth_pkce_check_server (TbOAuthServerMetadata  *metadata,
                             GError                **error)
{
  if (metadata->metadata_url == NULL)
    return TRUE;
  if (_tb_oauth_strv_contains (metadata->code_challenge_methods, "S256"))
    return TRUE;
  if (metadata->code_challenge_methods == NULL)
    g_set_error (error, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_UNSUPPORTED,
                 _("The authorization server %s does not say that it supports PKCE (its "
                   "metadata at %s has no code_challenge_methods_supported); Toolbench does "
                   "not sign in without it"), metadata->issuer, metadata->metadata_url);
  else
    g_set_error (error, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_UNSUPPORTED,
                 _("The authorization server %s does not support PKCE with S256 (its metadata "
                   "at %s lists other methods); Toolbench does not sign in without it"),
                 metadata->issuer, metadata->metadata_url);
  return FALSE;
}
