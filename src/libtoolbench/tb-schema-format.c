/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-schema"

#include "config.h"

#include <arpa/inet.h>
#include <string.h>

#include "tb-schema-private.h"

/* The formats Toolbench checks when format assertion is switched on. Each
 * follows the RFC the specification names; see docs/json-schema.md. */

static gboolean
digits (const char *p,
        guint       n,
        guint      *value)
{
  guint v = 0;

  for (guint i = 0; i < n; i++)
    {
      if (!g_ascii_isdigit (p[i]))
        return FALSE;
      v = v * 10 + (p[i] - '0');
    }
  *value = v;
  return TRUE;
}

static guint
days_in_month (guint year,
               guint month)
{
  static const guint days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

  if (month == 2 && ((year % 4 == 0 && year % 100 != 0) || year % 400 == 0))
    return 29;
  return days[month - 1];
}

/* RFC 3339 full-date */
static gboolean
check_date (const char *s,
            gsize       len)
{
  guint y, m, d;

  if (len != 10 || s[4] != '-' || s[7] != '-')
    return FALSE;
  if (!digits (s, 4, &y) || !digits (s + 5, 2, &m) || !digits (s + 8, 2, &d))
    return FALSE;
  return m >= 1 && m <= 12 && d >= 1 && d <= days_in_month (y, m);
}

/* RFC 3339 full-time, with the offset the specification requires */
static gboolean
check_time (const char *s,
            gsize       len)
{
  guint h, m, sec, oh = 0, om = 0;
  gsize i = 8;
  int sign = 0;
  int utc_minutes;

  if (len < 9 || s[2] != ':' || s[5] != ':')
    return FALSE;
  if (!digits (s, 2, &h) || !digits (s + 3, 2, &m) || !digits (s + 6, 2, &sec))
    return FALSE;
  if (h > 23 || m > 59 || sec > 60)
    return FALSE;

  if (s[i] == '.')
    {
      gsize start = ++i;

      while (i < len && g_ascii_isdigit (s[i]))
        i++;
      if (i == start)
        return FALSE;
    }

  if (i >= len)
    return FALSE;
  if (s[i] == 'Z' || s[i] == 'z')
    {
      if (i + 1 != len)
        return FALSE;
    }
  else if (s[i] == '+' || s[i] == '-')
    {
      sign = s[i] == '+' ? 1 : -1;
      if (len - i != 6 || s[i + 3] != ':')
        return FALSE;
      if (!digits (s + i + 1, 2, &oh) || !digits (s + i + 4, 2, &om))
        return FALSE;
      if (oh > 23 || om > 59)
        return FALSE;
    }
  else
    return FALSE;

  /* A leap second exists only at 23:59:60 UTC. */
  if (sec == 60)
    {
      utc_minutes = (int) (h * 60 + m) - sign * (int) (oh * 60 + om);
      utc_minutes = ((utc_minutes % 1440) + 1440) % 1440;
      if (utc_minutes != 23 * 60 + 59)
        return FALSE;
    }

  return TRUE;
}

static gboolean
check_date_time (const char *s,
                 gsize       len)
{
  if (len < 20 || (s[10] != 'T' && s[10] != 't'))
    return FALSE;
  return check_date (s, 10) && check_time (s + 11, len - 11);
}

static gboolean
check_hostname (const char *s,
                gsize       len)
{
  gsize label = 0;

  if (len == 0 || len > 253)
    return FALSE;

  for (gsize i = 0; i <= len; i++)
    {
      char c = i < len ? s[i] : '.';

      if (c == '.')
        {
          if (label == 0 || label > 63)
            return FALSE;
          if (s[i - 1] == '-' || s[i - label] == '-')
            return FALSE;
          /* "--" in the third and fourth places is reserved for A-labels. */
          if (label >= 4 && s[i - label + 2] == '-' && s[i - label + 3] == '-' &&
              g_ascii_strncasecmp (s + i - label, "xn", 2) != 0)
            return FALSE;
          label = 0;
          continue;
        }
      if (!g_ascii_isalnum (c) && c != '-')
        return FALSE;
      label++;
    }
  return TRUE;
}

static gboolean
check_ipv4 (const char *s,
            gsize       len)
{
  guint parts = 0;
  gsize i = 0;

  while (parts < 4)
    {
      gsize start = i;
      guint value = 0;

      while (i < len && g_ascii_isdigit (s[i]) && i - start < 3)
        value = value * 10 + (s[i++] - '0');
      if (i == start || value > 255 || (i - start > 1 && s[start] == '0'))
        return FALSE;
      parts++;
      if (parts < 4)
        {
          if (i >= len || s[i] != '.')
            return FALSE;
          i++;
        }
    }
  return i == len;
}

static gboolean
check_ipv6 (const char *s,
            gsize       len)
{
  struct in6_addr addr;
  char buffer[64];

  if (len == 0 || len >= sizeof buffer)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isxdigit (s[i]) && s[i] != ':' && s[i] != '.')
      return FALSE;
  memcpy (buffer, s, len);
  buffer[len] = '\0';
  return inet_pton (AF_INET6, buffer, &addr) == 1;
}

static gboolean
check_email (const char *s,
             gsize       len)
{
  const char *at = memchr (s, '@', len);
  gsize local_len;
  const char *domain;
  gsize domain_len;

  if (at == NULL)
    return FALSE;
  /* The last "@" separates the domain; a quoted local part may hold others. */
  at = g_strrstr_len (s, len, "@");
  local_len = at - s;
  domain = at + 1;
  domain_len = len - local_len - 1;
  if (local_len == 0 || local_len > 64 || domain_len == 0)
    return FALSE;

  if (s[0] == '"')
    {
      if (local_len < 2 || s[local_len - 1] != '"')
        return FALSE;
      for (gsize i = 1; i < local_len - 1; i++)
        {
          if (s[i] == '\\')
            i++;
          else if (s[i] == '"' || (guchar) s[i] < 0x20)
            return FALSE;
        }
    }
  else
    {
      if (s[0] == '.' || s[local_len - 1] == '.')
        return FALSE;
      for (gsize i = 0; i < local_len; i++)
        {
          char c = s[i];

          if (c == '.' && s[i + 1] == '.')
            return FALSE;
          if (!g_ascii_isalnum (c) && strchr ("!#$%&'*+-/=?^_`{|}~.", c) == NULL)
            return FALSE;
        }
    }

  if (domain[0] == '[')
    {
      if (domain[domain_len - 1] != ']')
        return FALSE;
      if (domain_len > 7 && g_ascii_strncasecmp (domain + 1, "IPv6:", 5) == 0)
        return check_ipv6 (domain + 6, domain_len - 7);
      return check_ipv4 (domain + 1, domain_len - 2);
    }
  return check_hostname (domain, domain_len);
}

static gboolean
is_uri_char (char c)
{
  return g_ascii_isalnum (c) || strchr ("-._~:/?#[]@!$&'()*+,;=%", c) != NULL;
}

static gboolean
check_uri (const char *s,
           gsize       len)
{
  gsize i = 0;

  if (len == 0 || !g_ascii_isalpha (s[0]))
    return FALSE;
  while (i < len && (g_ascii_isalnum (s[i]) || s[i] == '+' || s[i] == '-' || s[i] == '.'))
    i++;
  if (i >= len || s[i] != ':')
    return FALSE;

  for (gsize j = i; j < len; j++)
    {
      if (!is_uri_char (s[j]) || (s[j] == '%' && (j + 2 >= len ||
                                                   !g_ascii_isxdigit (s[j + 1]) ||
                                                   !g_ascii_isxdigit (s[j + 2]))))
        return FALSE;
    }

  /* Square brackets only around an IP literal host: "//[::1]:80/". */
  {
    const char *open_bracket = memchr (s, '[', len);
    const char *close_bracket = memchr (s, ']', len);

    if (open_bracket != NULL || close_bracket != NULL)
      {
        const char *authority = i + 2 < len && s[i + 1] == '/' && s[i + 2] == '/'
                                ? s + i + 3 : NULL;
        const char *host = authority;
        const char *end_host;

        if (authority == NULL || open_bracket == NULL || close_bracket == NULL)
          return FALSE;
        for (const char *p = authority; p < s + len && *p != '/' && *p != '?' && *p != '#'; p++)
          if (*p == '@')
            host = p + 1;
        end_host = close_bracket + 1;
        if (open_bracket != host || close_bracket < open_bracket ||
            memchr (end_host, '[', s + len - end_host) != NULL ||
            memchr (end_host, ']', s + len - end_host) != NULL ||
            (end_host < s + len && *end_host != ':' && *end_host != '/' &&
             *end_host != '?' && *end_host != '#'))
          return FALSE;
      }
  }

  return g_uri_is_valid (s, G_URI_FLAGS_ENCODED | G_URI_FLAGS_PARSE_RELAXED, NULL) ||
         g_uri_is_valid (s, G_URI_FLAGS_ENCODED, NULL);
}

static gboolean
check_uuid (const char *s,
            gsize       len)
{
  if (len != 36)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    {
      if (i == 8 || i == 13 || i == 18 || i == 23)
        {
          if (s[i] != '-')
            return FALSE;
        }
      else if (!g_ascii_isxdigit (s[i]))
        return FALSE;
    }
  return TRUE;
}

static gboolean
check_regex (const char *s,
             gsize       len)
{
  TbSchemaRegex *regex = _tb_schema_regex_new (s, NULL);

  _tb_schema_regex_free (regex);
  return regex != NULL;
}

static const struct
{
  const char *name;
  gboolean  (*check) (const char *s, gsize len);
} formats[] = {
  { "date-time", check_date_time },
  { "date", check_date },
  { "time", check_time },
  { "email", check_email },
  { "hostname", check_hostname },
  { "ipv4", check_ipv4 },
  { "ipv6", check_ipv6 },
  { "uri", check_uri },
  { "uuid", check_uuid },
  { "regex", check_regex },
};

gboolean
_tb_schema_format_is_checked (const char *format)
{
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (g_str_equal (format, formats[i].name))
      return TRUE;
  return FALSE;
}

/**
 * _tb_schema_format_check:
 * @format: a format name
 * @value: a valid UTF-8 string
 *
 * Returns: %FALSE when @format is checked and @value does not match it
 */
gboolean
_tb_schema_format_check (const char *format,
                         const char *value)
{
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (g_str_equal (format, formats[i].name))
      return formats[i].check (value, strlen (value));
  return TRUE;
}
