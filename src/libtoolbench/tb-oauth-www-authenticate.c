/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-oauth"

#include "config.h"

#include <string.h>

#include "tb-oauth-private.h"

/* The WWW-Authenticate header (RFC 9110 §11.6.1): a comma-separated list
 * of challenges, each a scheme followed by a token68 or by name=value
 * parameters, themselves separated by commas. Several headers arrive
 * joined by commas. Values are tokens or quoted strings with backslash
 * escapes. Servers in the wild add spaces around `=`, leave URLs unquoted
 * and repeat commas; all of that is read, and nothing in the header can
 * make the parser fail: what cannot be read is skipped. */

#define MAX_CHALLENGES 16
#define MAX_PARAMS 32

void
_tb_oauth_challenge_free (TbOAuthChallenge *challenge)
{
  if (challenge == NULL)
    return;
  g_free (challenge->scheme);
  g_free (challenge->token68);
  g_clear_pointer (&challenge->params, g_hash_table_unref);
  g_free (challenge);
}

static gboolean
is_tchar (char c)
{
  return g_ascii_isalnum (c) || (c != '\0' && strchr ("!#$%&'*+-.^_`|~", c) != NULL);
}

static gboolean
is_token68_char (char c)
{
  return g_ascii_isalnum (c) || (c != '\0' && strchr ("-._~+/", c) != NULL);
}

static void
skip_ows (const char **p)
{
  while (**p == ' ' || **p == '\t')
    (*p)++;
}

static char *
read_token (const char **p)
{
  const char *start = *p;

  while (is_tchar (**p))
    (*p)++;
  if (*p == start)
    return NULL;
  return g_strndup (start, *p - start);
}

/* At an opening quote; an unterminated string runs to the end. */
static char *
read_quoted (const char **p)
{
  GString *value = g_string_new (NULL);

  (*p)++;
  while (**p != '\0' && **p != '"')
    {
      if (**p == '\\' && (*p)[1] != '\0')
        (*p)++;
      g_string_append_c (value, **p);
      (*p)++;
    }
  if (**p == '"')
    (*p)++;
  return g_string_free (value, FALSE);
}

/* A value left unquoted: a token by the grammar, but URLs come unquoted
 * too, so everything up to the next comma or space. */
static char *
read_bare_value (const char **p)
{
  const char *start = *p;

  while (**p != '\0' && **p != ',' && **p != ' ' && **p != '\t')
    (*p)++;
  return g_strndup (start, *p - start);
}

/* Right after a scheme: a token68 is characters of its set, `=` padding,
 * then the end of the challenge. */
static char *
try_token68 (const char **p)
{
  const char *q = *p;
  const char *start = q;

  while (is_token68_char (*q))
    q++;
  if (q == start)
    return NULL;
  while (*q == '=')
    q++;
  {
    const char *end = q;

    skip_ows (&q);
    if (*q != '\0' && *q != ',')
      return NULL;
    *p = q;
    return g_strndup (start, end - start);
  }
}

/* At a parameter name: reads `name = value` when it is one. */
static gboolean
read_param (const char  **p,
            char        **name,
            char        **value)
{
  const char *q = *p;
  g_autofree char *token = read_token (&q);

  if (token == NULL)
    return FALSE;
  skip_ows (&q);
  if (*q != '=')
    return FALSE;
  q++;
  skip_ows (&q);
  if (*q == '"')
    *value = read_quoted (&q);
  else
    *value = read_bare_value (&q);
  *name = g_ascii_strdown (token, -1);
  *p = q;
  return TRUE;
}

/**
 * _tb_oauth_parse_www_authenticate:
 * @header: (nullable): the header's value, several headers joined by commas
 *
 * Returns: (transfer container) (element-type TbOAuthChallenge): the challenges,
 *   maybe none
 */
GPtrArray *
_tb_oauth_parse_www_authenticate (const char *header)
{
  GPtrArray *challenges = g_ptr_array_new_with_free_func ((GDestroyNotify) _tb_oauth_challenge_free);
  TbOAuthChallenge *current = NULL;
  const char *p = header;

  if (header == NULL)
    return challenges;

  while (*p != '\0' && challenges->len <= MAX_CHALLENGES)
    {
      char *name = NULL;
      char *value = NULL;
      g_autofree char *scheme = NULL;

      while (*p == ' ' || *p == '\t' || *p == ',' || *p == '\r' || *p == '\n')
        p++;
      if (*p == '\0')
        break;

      /* A parameter of the challenge being read … */
      if (current != NULL && read_param (&p, &name, &value))
        {
          if (g_hash_table_size (current->params) < MAX_PARAMS &&
              !g_hash_table_contains (current->params, name))
            g_hash_table_insert (current->params, name, value);
          else
            {
              g_free (name);
              g_free (value);
            }
          continue;
        }

      /* … or the scheme of the next one. */
      scheme = read_token (&p);
      if (scheme == NULL)
        {
          /* Not something a header may hold here: skip to the next comma. */
          while (*p != '\0' && *p != ',')
            p++;
          current = NULL;
          continue;
        }
      current = g_new0 (TbOAuthChallenge, 1);
      current->scheme = g_steal_pointer (&scheme);
      current->params = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_ptr_array_add (challenges, current);
      if (*p == ' ' || *p == '\t')
        {
          skip_ows (&p);
          current->token68 = try_token68 (&p);
        }
    }
  return challenges;
}

/**
 * _tb_oauth_find_bearer:
 *
 * Returns: (transfer none) (nullable): the first `Bearer` challenge
 */
TbOAuthChallenge *
_tb_oauth_find_bearer (GPtrArray *challenges)
{
  for (guint i = 0; challenges != NULL && i < challenges->len; i++)
    {
      TbOAuthChallenge *challenge = g_ptr_array_index (challenges, i);

      if (g_ascii_strcasecmp (challenge->scheme, "Bearer") == 0)
        return challenge;
    }
  return NULL;
}

/**
 * _tb_oauth_challenge_get:
 * @challenge: (nullable): a challenge
 * @name: a parameter name, lower case
 *
 * Returns: (nullable): the parameter's value; an empty value counts as none
 */
const char *
_tb_oauth_challenge_get (TbOAuthChallenge *challenge,
                         const char       *name)
{
  const char *value;

  if (challenge == NULL)
    return NULL;
  value = g_hash_table_lookup (challenge->params, name);
  return value != NULL && *value != '\0' ? value : NULL;
}
