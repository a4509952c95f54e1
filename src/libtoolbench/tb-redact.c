/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-redact"

#include "config.h"

#include <string.h>

#include "tb-json.h"
#include "tb-redact-private.h"

/**
 * TbRedactor:
 *
 * Removes secrets from what is written to traces, logs and the wire view,
 * and from what is printed.
 *
 * Redaction works on decoded text. A string that holds JSON (a wire body,
 * a tool's output, the arguments of a call) is parsed and its strings are
 * searched with their escapes undone, then written again when something
 * was replaced; a string that holds an event stream (a streamed response)
 * is read event by event, and the strings at the same place of
 * consecutive events (the pieces of the streamed text) are joined before
 * they are searched, so a secret sent in pieces is found. The rules:
 *
 * - members whose name says they hold a credential ("Authorization",
 *   "x-api-key", "x-goog-api-key", "api_key", "password", …) keep their
 *   name but their value becomes "[redacted]";
 * - secrets added with tb_redactor_add_secret() (the API keys in use)
 *   are replaced wherever they appear, also written with JSON escapes
 *   (`\u0041`, with backslashes doubled by nesting) or percent escapes;
 * - strings shaped like a credential are replaced even when nobody
 *   named them: "Bearer …", the value of a URL parameter named like a
 *   credential (tb_redactor_is_secret_parameter()), the user name and
 *   password of a URL, and the key formats of the common providers
 *   ("sk-…", "sk-ant-…", "AIza…", "gsk_…", "xai-…", "hf_…").
 *
 * Redaction only ever removes; a trace that needs a secret to replay
 * does not exist: replay never contacts a provider.
 */

typedef struct
{
  char     *text;
  gsize     length;
  gboolean  utf8;
} Secret;

struct _TbRedactor
{
  GObject    parent_instance;
  GPtrArray *secrets;
  GRegex    *shapes;
};

G_DEFINE_FINAL_TYPE (TbRedactor, tb_redactor, G_TYPE_OBJECT)

/* Streamed text is held back a word at a time, up to this many bytes: a
 * credential-shaped word is shown only once it is whole. */
#define MAX_HELD_WORD 512

/* has_secret_name() looks for a word of each of these: keep the two in step. */
static const char * const secret_names[] = {
  "authorization", "proxy-authorization", "x-api-key", "api-key", "api_key", "apikey",
  "x-goog-api-key", "openai-api-key", "anthropic-api-key", "password", "passwd", "secret",
  "client_secret", "client-secret", "access_token", "refresh_token", "id_token",
  "cookie", "set-cookie", "private_key", "private-key", NULL
};

/* URL parameters whose values are credentials; docs/trace-format.md
 * lists them. */
static const char * const secret_parameters[] = {
  "key", "api_key", "api-key", "apikey", "x-api-key", "x-goog-api-key", "token",
  "access_token", "refresh_token", "id_token", "auth", "auth_token", "secret",
  "client_secret", "password", "passwd", "sig", "signature", "x-amz-signature",
  "x-amz-credential", "x-amz-security-token", "x-goog-signature", "x-goog-credential", NULL
};

static void
secret_free (gpointer data)
{
  Secret *secret = data;

  memset (secret->text, 0, secret->length);
  g_free (secret->text);
  g_free (secret);
}

static void
tb_redactor_finalize (GObject *object)
{
  TbRedactor *self = (TbRedactor *)object;

  g_clear_pointer (&self->secrets, g_ptr_array_unref);
  g_clear_pointer (&self->shapes, g_regex_unref);

  G_OBJECT_CLASS (tb_redactor_parent_class)->finalize (object);
}

static void
tb_redactor_class_init (TbRedactorClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_redactor_finalize;
}

static void
tb_redactor_init (TbRedactor *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) names = g_string_new (NULL);
  g_autofree char *pattern = NULL;

  for (guint i = 0; secret_parameters[i] != NULL; i++)
    {
      g_autofree char *escaped = g_regex_escape_string (secret_parameters[i], -1);

      if (i > 0)
        g_string_append_c (names, '|');
      g_string_append (names, escaped);
    }

  /* The named groups are kept; what follows them is replaced. A value
   * does not end with the punctuation of the sentence around it. */
  pattern = g_strconcat ("(?<bearer>(?i:bearer)\\s+)[A-Za-z0-9._~+/=-]{8,}"
                         "|(?<param>(?<![A-Za-z0-9_.-])(?i:", names->str, ")=)[^&;#\\s\"'<>\\\\]*[^&;#\\s\"'<>\\\\.,:!?)]"
                         "|(?<scheme>\\b[A-Za-z][A-Za-z0-9+.-]*://)[^/?#@\\s\"'<>\\\\]+(?=@)"
                         "|\\b(?:sk-ant-[A-Za-z0-9_-]{16,}|sk-[A-Za-z0-9_-]{16,}"
                         "|AIza[0-9A-Za-z_-]{30,}|gsk_[A-Za-z0-9]{20,}"
                         "|xai-[A-Za-z0-9]{20,}|hf_[A-Za-z0-9]{20,})", NULL);

  self->secrets = g_ptr_array_new_with_free_func (secret_free);
  /* Raw: text to redact need not be valid UTF-8; every pattern is ASCII. */
  self->shapes = g_regex_new (pattern, G_REGEX_OPTIMIZE | G_REGEX_RAW, 0, &error);
  g_assert_no_error (error);
}

/**
 * tb_redactor_new:
 *
 * Makes a redactor that knows no secret yet but masks the shapes of
 * credentials (bearer tokens and the key formats of the known services);
 * add the keys in use with tb_redactor_add_secret().
 *
 * Returns: (transfer full): the new redactor
 */
TbRedactor *
tb_redactor_new (void)
{
  return g_object_new (TB_TYPE_REDACTOR, NULL);
}

/**
 * tb_redactor_add_secret:
 * @self: a redactor
 * @secret: a value that must never be written (an API key); values
 *   shorter than 4 bytes are ignored, since replacing them would garble
 *   ordinary text without protecting anything
 *
 * Adds a value the redactor masks wherever it appears, as the providers do
 * with every API key they are given.
 */
void
tb_redactor_add_secret (TbRedactor *self,
                        const char *secret)
{
  Secret *added;

  g_return_if_fail (TB_IS_REDACTOR (self));

  if (secret == NULL || strlen (secret) < 4)
    return;

  for (guint i = 0; i < self->secrets->len; i++)
    if (g_str_equal (((Secret *) g_ptr_array_index (self->secrets, i))->text, secret))
      return;

  added = g_new0 (Secret, 1);
  added->text = g_strdup (secret);
  added->length = strlen (secret);
  added->utf8 = g_utf8_validate (secret, -1, NULL);
  g_ptr_array_add (self->secrets, added);
}

static gboolean
in_list (const char * const *list,
         const char         *name)
{
  if (name == NULL)
    return FALSE;

  for (guint i = 0; list[i] != NULL; i++)
    if (g_ascii_strcasecmp (name, list[i]) == 0)
      return TRUE;

  return FALSE;
}

/**
 * tb_redactor_is_secret_name:
 * @member_name: a JSON member or HTTP header name
 *
 * Tells whether a JSON member or an HTTP header holds a credential by its
 * name, such as `api_key`, `password` or `Authorization`.
 *
 * Returns: whether values under that name are credentials
 */
gboolean
tb_redactor_is_secret_name (const char *member_name)
{
  return in_list (secret_names, member_name);
}

/**
 * tb_redactor_is_secret_parameter:
 * @parameter_name: the name of a URL query parameter
 *
 * Tells whether a URL's query parameter holds a credential by its name.
 *
 * Returns: whether the parameter's value is a credential (`key`, `token`,
 *   `api-key`, `access_token`, `sig`, … in any case)
 */
gboolean
tb_redactor_is_secret_parameter (const char *parameter_name)
{
  return in_list (secret_parameters, parameter_name);
}

/* ---- finding secrets in text ---------------------------------------------- */

typedef struct
{
  gsize start;
  gsize end;
} Span;

static int
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const Span *x = a;
  const Span *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->end < y->end ? -1 : x->end > y->end;
}

static void
add_span (GArray *spans,
          gsize   start,
          gsize   end)
{
  Span span = { start, end };

  if (end > start)
    g_array_append_val (spans, span);
}

/* The length of a percent escape of @byte at @p ("%54", or "%2554" when
 * the text was escaped twice), or 0. */
static gsize
match_percent (const char *p,
               const char *end,
               guchar      byte)
{
  const char *q = p + 1;

  if (p >= end || *p != '%')
    return 0;
  while (end - q >= 4 && q[0] == '2' && q[1] == '5' &&
         g_ascii_isxdigit (q[2]) && g_ascii_isxdigit (q[3]))
    q += 2;
  if (end - q < 2 || !g_ascii_isxdigit (q[0]) || !g_ascii_isxdigit (q[1]))
    return 0;
  if ((g_ascii_xdigit_value (q[0]) << 4 | g_ascii_xdigit_value (q[1])) != byte)
    return 0;
  return q + 2 - p;
}

/* The length of a JSON escape of @c at @p ("\u0054", or "\/" for "/"), or
 * 0. A run of backslashes counts as one: every level of JSON inside a
 * JSON string doubles them. */
static gsize
match_json_escape (const char *p,
                   const char *end,
                   gunichar    c)
{
  const char *q = p;
  gunichar value = 0;

  while (q < end && *q == '\\')
    q++;
  if (q == p || q >= end)
    return 0;

  if ((c == '/' || c == '"') && *q == (char) c)
    return q + 1 - p;
  if (*q != 'u' || end - q < 5)
    return 0;
  for (guint i = 1; i <= 4; i++)
    {
      if (!g_ascii_isxdigit (q[i]))
        return 0;
      value = value << 4 | g_ascii_xdigit_value (q[i]);
    }
  return value == c ? (gsize) (q + 5 - p) : 0;
}

/* Where an occurrence of @secret that starts at @start ends, with each of
 * its characters written as itself or escaped; 0 when there is none. */
static gsize
match_secret (const char   *text,
              gsize         length,
              gsize         start,
              const Secret *secret)
{
  const char *end = text + length;
  const char *p = text + start;
  const char *s = secret->text;

  while (*s != '\0')
    {
      gsize n = secret->utf8 ? (gsize) (g_utf8_next_char (s) - s) : 1;
      gunichar c = secret->utf8 ? g_utf8_get_char (s) : (guchar) *s;
      gsize used = 0;

      if ((gsize) (end - p) >= n && memcmp (p, s, n) == 0)
        used = n;
      if (used == 0 && (secret->utf8 || c < 0x80))
        used = match_json_escape (p, end, c);
      if (used == 0)
        {
          const char *q = p;

          for (gsize i = 0; i < n; i++)
            {
              gsize one = match_percent (q, end, (guchar) s[i]);

              if (one == 0)
                return 0;
              q += one;
            }
          used = q - p;
        }
      p += used;
      s += n;
    }
  return p - text;
}

static void
find_secrets (TbRedactor *self,
              const char *text,
              gsize       length,
              GArray     *spans)
{
  for (guint i = 0; i < self->secrets->len; i++)
    {
      const Secret *secret = g_ptr_array_index (self->secrets, i);

      for (gsize at = 0; at < length; at++)
        {
          gsize end;

          if (text[at] != secret->text[0] && text[at] != '\\' && text[at] != '%')
            continue;
          end = match_secret (text, length, at, secret);
          if (end == 0)
            continue;
          add_span (spans, at, end);
          at = end - 1;
        }
    }
}

/* Whether any known secret occurs in @text, written as itself or escaped. */
static gboolean
has_secret (TbRedactor *self,
            const char *text,
            gsize       length)
{
  for (guint i = 0; i < self->secrets->len; i++)
    {
      const Secret *secret = g_ptr_array_index (self->secrets, i);

      for (gsize at = 0; at < length; at++)
        if ((text[at] == secret->text[0] || text[at] == '\\' || text[at] == '%') &&
            match_secret (text, length, at, secret) != 0)
          return TRUE;
    }
  return FALSE;
}

static gboolean
has_prefix_at (const char *text,
               gsize       length,
               gsize       at,
               const char *prefix)
{
  gsize n = strlen (prefix);

  return length - at >= n && memcmp (text + at, prefix, n) == 0;
}

/* Whether @text has what every shape starts with ("=", "://", "bearer" in
 * any case, the key prefixes); most strings have none, and skipping the
 * regex for them makes redacting a long event stream several times
 * faster. Keep in step with the pattern in tb_redactor_init(). */
static gboolean
may_have_shape (const char *text,
                gsize       length)
{
  for (gsize i = 0; i < length; i++)
    {
      switch (text[i])
        {
        case '=':
          return TRUE;
        case ':':
          if (has_prefix_at (text, length, i, "://"))
            return TRUE;
          break;
        case 'b':
        case 'B':
          if (length - i >= 6 && g_ascii_strncasecmp (text + i, "bearer", 6) == 0)
            return TRUE;
          break;
        case 's':
          if (has_prefix_at (text, length, i, "sk-"))
            return TRUE;
          break;
        case 'A':
          if (has_prefix_at (text, length, i, "AIza"))
            return TRUE;
          break;
        case 'g':
          if (has_prefix_at (text, length, i, "gsk_"))
            return TRUE;
          break;
        case 'x':
          if (has_prefix_at (text, length, i, "xai-"))
            return TRUE;
          break;
        case 'h':
          if (has_prefix_at (text, length, i, "hf_"))
            return TRUE;
          break;
        default:
          break;
        }
    }
  return FALSE;
}

static void
find_shapes (TbRedactor *self,
             const char *text,
             gsize       length,
             GArray     *spans)
{
  static const char * const kept[] = { "bearer", "param", "scheme" };
  g_autoptr(GMatchInfo) match = NULL;

  if (!may_have_shape (text, length))
    return;

  g_regex_match_full (self->shapes, text, length, 0, 0, &match, NULL);
  while (g_match_info_matches (match))
    {
      int start;
      int end;

      g_match_info_fetch_pos (match, 0, &start, &end);
      for (guint i = 0; i < G_N_ELEMENTS (kept); i++)
        {
          int kept_start;
          int kept_end;

          if (g_match_info_fetch_named_pos (match, kept[i], &kept_start, &kept_end) &&
              kept_start >= 0)
            start = kept_end;
        }
      add_span (spans, start, end);
      g_match_info_next (match, NULL);
    }
}

/* Every secret in @text, sorted, overlapping ones merged. */
static GArray *
find_spans (TbRedactor *self,
            const char *text,
            gsize       length)
{
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (Span));
  guint kept = 0;

  find_secrets (self, text, length, spans);
  find_shapes (self, text, length, spans);

  g_array_sort (spans, compare_spans);
  for (guint i = 0; i < spans->len; i++)
    {
      Span span = g_array_index (spans, Span, i);
      Span *last = kept > 0 ? &g_array_index (spans, Span, kept - 1) : NULL;

      if (last != NULL && span.start <= last->end)
        last->end = MAX (last->end, span.end);
      else
        g_array_index (spans, Span, kept++) = span;
    }
  g_array_set_size (spans, kept);
  return spans;
}

/* @text as it stands, without decoding it first. */
static char *
redact_plain (TbRedactor *self,
              const char *text,
              gsize       length,
              gboolean   *changed)
{
  g_autoptr(GArray) spans = find_spans (self, text, length);
  GString *out;
  gsize at = 0;

  if (spans->len == 0)
    return g_strndup (text, length);

  out = g_string_sized_new (length);
  for (guint i = 0; i < spans->len; i++)
    {
      const Span *span = &g_array_index (spans, Span, i);

      g_string_append_len (out, text + at, span->start - at);
      g_string_append (out, TB_REDACTED);
      at = span->end;
    }
  g_string_append_len (out, text + at, length - at);
  if (changed != NULL)
    *changed = TRUE;
  return g_string_free (out, FALSE);
}

/* ---- decoding first ------------------------------------------------------- */

static JsonNode *redact       (TbRedactor *self,
                               JsonNode   *node,
                               guint       remaining,
                               gboolean   *changed);
static char     *redact_string (TbRedactor *self,
                                const char *text,
                                guint       remaining,
                                gboolean   *changed);

static gboolean
looks_like_json (const char *text)
{
  while (g_ascii_isspace (*text))
    text++;
  return *text == '{' || *text == '[';
}

static gboolean
looks_like_event_stream (const char *text)
{
  return (g_str_has_prefix (text, "data:") || g_str_has_prefix (text, "event:") ||
          g_str_has_prefix (text, "id:") || g_str_has_prefix (text, "retry:") ||
          text[0] == ':') && strchr (text, '\n') != NULL;
}

/* JSON text decoded and redacted; %NULL when it does not parse. */
static char *
redact_json_text (TbRedactor *self,
                  const char *text,
                  gsize       length,
                  guint       remaining,
                  gboolean   *changed)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) clean = NULL;
  gboolean found = FALSE;

  node = tb_json_parse_full (text, length, TB_JSON_MAX_SIZE, MIN (remaining, TB_JSON_MAX_DEPTH),
                             NULL);
  if (node == NULL)
    return NULL;

  clean = redact (self, node, remaining, &found);
  if (!found)
    return g_strndup (text, length);
  *changed = TRUE;
  return tb_json_to_string (clean, FALSE);
}

typedef struct
{
  gsize     start;      /* the event's first byte */
  gsize     end;        /* after its blank line */
  GString  *data;       /* its data lines, joined */
  JsonNode *clean;      /* the data, redacted, when it is JSON */
  gboolean  changed;
} Event;

static void
event_clear (gpointer data)
{
  Event *event = data;

  if (event->data != NULL)
    g_string_free (event->data, TRUE);
  g_clear_pointer (&event->clean, json_node_unref);
}

/* The string values of one event, by where they are in it. */
typedef struct
{
  GPtrArray *nodes;
  GArray    *events;
} Group;

static void
group_free (gpointer data)
{
  Group *group = data;

  g_ptr_array_unref (group->nodes);
  g_array_unref (group->events);
  g_free (group);
}

static void
collect_strings (JsonNode   *node,
                 GString    *path,
                 guint       event,
                 GHashTable *groups,
                 guint       remaining)
{
  gsize length = path->len;

  if (remaining == 0)
    return;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        json_object_iter_init (&iter, json_node_get_object (node));
        while (json_object_iter_next (&iter, &name, &member))
          {
            g_string_append_c (path, '/');
            g_string_append (path, name);
            collect_strings (member, path, event, groups, remaining - 1);
            g_string_truncate (path, length);
          }
      }
      break;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);

        for (guint i = 0; i < json_array_get_length (array); i++)
          {
            g_string_append_printf (path, "/%u", i);
            collect_strings (json_array_get_element (array, i), path, event, groups,
                             remaining - 1);
            g_string_truncate (path, length);
          }
      }
      break;

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_STRING)
        {
          Group *group = g_hash_table_lookup (groups, path->str);

          if (group == NULL)
            {
              group = g_new0 (Group, 1);
              group->nodes = g_ptr_array_new ();
              group->events = g_array_new (FALSE, FALSE, sizeof (guint));
              g_hash_table_insert (groups, g_strdup (path->str), group);
            }
          g_ptr_array_add (group->nodes, node);
          g_array_append_val (group->events, event);
        }
      break;

    case JSON_NODE_NULL:
    default:
      break;
    }
}

/* Searches the pieces of @group joined, as a reader of the stream would
 * see them, and cuts what it finds out of the pieces: the piece where a
 * secret starts gets "[redacted]", the rest of it is removed. */
static void
redact_joined (TbRedactor *self,
               Group      *group,
               GArray     *events)
{
  g_autoptr(GString) joined = g_string_new (NULL);
  g_autoptr(GArray) starts = g_array_sized_new (FALSE, FALSE, sizeof (gsize), group->nodes->len);
  g_autoptr(GArray) spans = NULL;

  for (guint i = 0; i < group->nodes->len; i++)
    {
      gsize start = joined->len;

      g_array_append_val (starts, start);
      g_string_append (joined, json_node_get_string (g_ptr_array_index (group->nodes, i)));
    }

  spans = find_spans (self, joined->str, joined->len);
  if (spans->len == 0)
    return;

  for (guint i = 0; i < group->nodes->len; i++)
    {
      JsonNode *node = g_ptr_array_index (group->nodes, i);
      const char *piece = json_node_get_string (node);
      gsize piece_start = g_array_index (starts, gsize, i);
      gsize piece_end = piece_start + strlen (piece);
      g_autoptr(GString) out = NULL;
      gsize at = 0;

      for (guint j = 0; j < spans->len; j++)
        {
          const Span *span = &g_array_index (spans, Span, j);

          if (span->end <= piece_start || span->start >= piece_end)
            continue;
          if (out == NULL)
            out = g_string_new (NULL);
          g_string_append_len (out, piece + at, MAX (span->start, piece_start) - piece_start - at);
          if (span->start >= piece_start)
            g_string_append (out, TB_REDACTED);
          at = MIN (span->end, piece_end) - piece_start;
        }
      if (out == NULL)
        continue;
      g_string_append (out, piece + at);
      json_node_set_string (node, out->str);
      g_array_index (events, Event, g_array_index (group->events, guint, i)).changed = TRUE;
    }
}

static gboolean
is_data_line (const char *line,
              gsize       length)
{
  return length >= 4 && strncmp (line, "data", 4) == 0 && (length == 4 || line[4] == ':');
}

/* Writes an event again with its data redacted; other lines are kept,
 * redacted as text. */
static void
append_event (TbRedactor  *self,
              GString     *out,
              const char  *text,
              const Event *event)
{
  g_autofree char *data = tb_json_to_string (event->clean, FALSE);
  gboolean data_written = FALSE;
  gsize pos = event->start;

  while (pos < event->end)
    {
      const char *eol = memchr (text + pos, '\n', event->end - pos);
      gsize next = eol != NULL ? (gsize) (eol - text) + 1 : event->end;
      gsize length = (eol != NULL ? (gsize) (eol - text) : event->end) - pos;

      if (length > 0 && text[pos + length - 1] == '\r')
        length--;

      if (is_data_line (text + pos, length))
        {
          if (!data_written)
            {
              g_string_append_printf (out, "data: %s", data);
              g_string_append_len (out, text + pos + length, next - pos - length);
            }
          data_written = TRUE;
        }
      else if (length == 0)
        {
          g_string_append_len (out, text + pos, next - pos);
        }
      else
        {
          g_autofree char *line = redact_plain (self, text + pos, length, NULL);

          g_string_append (out, line);
          g_string_append_len (out, text + pos + length, next - pos - length);
        }
      pos = next;
    }
}

/* A server-sent event stream: each event's data decoded and redacted, and
 * the strings at one place in consecutive events (the pieces of a
 * streamed text or of a call's arguments) searched joined. */
static char *
redact_event_stream (TbRedactor *self,
                     const char *text,
                     guint       remaining,
                     gboolean   *changed)
{
  g_autoptr(GArray) events = g_array_new (FALSE, TRUE, sizeof (Event));
  g_autoptr(GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                         group_free);
  g_autoptr(GString) path = g_string_new (NULL);
  GHashTableIter iter;
  gpointer value;
  GString *out;
  gsize length = strlen (text);
  gsize pos = 0;
  Event *current = NULL;

  g_array_set_clear_func (events, event_clear);

  while (pos < length)
    {
      const char *eol = memchr (text + pos, '\n', length - pos);
      gsize next = eol != NULL ? (gsize) (eol - text) + 1 : length;
      gsize line_length = (eol != NULL ? (gsize) (eol - text) : length) - pos;

      if (line_length > 0 && text[pos + line_length - 1] == '\r')
        line_length--;
      if (current == NULL)
        {
          g_array_set_size (events, events->len + 1);
          current = &g_array_index (events, Event, events->len - 1);
          current->start = pos;
        }

      if (line_length == 0)
        {
          current->end = next;
          current = NULL;
        }
      else if (is_data_line (text + pos, line_length))
        {
          const char *data = text + pos + MIN (line_length, 5);
          gsize data_length = line_length - MIN (line_length, 5);

          if (data_length > 0 && *data == ' ')
            {
              data++;
              data_length--;
            }
          if (current->data == NULL)
            current->data = g_string_new (NULL);
          else
            g_string_append_c (current->data, '\n');
          g_string_append_len (current->data, data, data_length);
        }
      pos = next;
    }
  if (current != NULL)
    current->end = length;

  for (guint i = 0; i < events->len; i++)
    {
      Event *event = &g_array_index (events, Event, i);
      g_autoptr(JsonNode) node = NULL;

      if (event->data == NULL || !looks_like_json (event->data->str))
        continue;
      node = tb_json_parse_full (event->data->str, event->data->len, TB_JSON_MAX_SIZE,
                                 MIN (remaining, TB_JSON_MAX_DEPTH), NULL);
      if (node == NULL)
        continue;
      event->clean = redact (self, node, remaining, &event->changed);
      collect_strings (event->clean, path, i, groups, remaining);
    }

  g_hash_table_iter_init (&iter, groups);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (((Group *) value)->nodes->len > 1)
      redact_joined (self, value, events);

  out = g_string_sized_new (length);
  for (guint i = 0; i < events->len; i++)
    {
      const Event *event = &g_array_index (events, Event, i);

      if (event->clean != NULL && event->changed)
        {
          append_event (self, out, text, event);
          *changed = TRUE;
        }
      else
        {
          g_autofree char *plain = redact_plain (self, text + event->start,
                                                 event->end - event->start, changed);

          g_string_append (out, plain);
        }
    }
  return g_string_free (out, FALSE);
}

/* Whether redacting JSON text could change it, decided without parsing
 * it: not when it holds no escape that decoding could turn into
 * something else (\u…), nothing a shape starts with, no known secret and
 * no member name that is a credential's (looked for anywhere, in any
 * case). A wire body is mostly such text, and parsing it only to find
 * nothing was most of the cost of recording a run. */
static gboolean
json_text_is_clean (TbRedactor *self,
                    const char *text,
                    gsize       length)
{
  g_autofree char *lower = NULL;

  for (const char *p = memchr (text, '\\', length); p != NULL;
       p = memchr (p, '\\', text + length - p))
    {
      while (p < text + length && *p == '\\')
        p++;
      if (p < text + length && *p == 'u')
        return FALSE;
    }

  if (may_have_shape (text, length) || has_secret (self, text, length))
    return FALSE;

  lower = g_ascii_strdown (text, length);
  for (guint i = 0; secret_names[i] != NULL; i++)
    if (strstr (lower, secret_names[i]) != NULL)
      return FALSE;
  return TRUE;
}

static gboolean
has_prefix_at_nocase (const char *text,
                      gsize       length,
                      gsize       at,
                      const char *prefix)
{
  gsize n = strlen (prefix);

  return length - at >= n && g_ascii_strncasecmp (text + at, prefix, n) == 0;
}

/* Whether a credential member name of secret_names could be in @text,
 * in any case: each of them holds one of these shorter words, so this
 * says yes to some text that has none, never no to text that has one. */
static gboolean
has_secret_name (const char *text,
                 gsize       length)
{
  for (gsize i = 0; i < length; i++)
    {
      switch (text[i])
        {
        case 'a':
        case 'A':
          if (has_prefix_at_nocase (text, length, i, "authorization") ||
              has_prefix_at_nocase (text, length, i, "api-key") ||
              has_prefix_at_nocase (text, length, i, "api_key") ||
              has_prefix_at_nocase (text, length, i, "apikey"))
            return TRUE;
          break;
        case 'p':
        case 'P':
          if (has_prefix_at_nocase (text, length, i, "passw") ||
              has_prefix_at_nocase (text, length, i, "private"))
            return TRUE;
          break;
        case 's':
        case 'S':
          if (has_prefix_at_nocase (text, length, i, "secret"))
            return TRUE;
          break;
        case '_':
          if (has_prefix_at_nocase (text, length, i, "_token"))
            return TRUE;
          break;
        case 'c':
        case 'C':
          if (has_prefix_at_nocase (text, length, i, "cookie"))
            return TRUE;
          break;
        default:
          break;
        }
    }
  return FALSE;
}

/* Whether @text, JSON text whose tree would be redacted (a trace line),
 * can be written as it is: json_text_is_clean(), and no string in it
 * holds a newline. An event stream always does, and its pieces are
 * searched joined, which looking at the text as it is cannot do. */
gboolean
_tb_redactor_json_text_is_clean (TbRedactor *self,
                                 const char *text,
                                 gsize       length)
{
  g_return_val_if_fail (TB_IS_REDACTOR (self), FALSE);

  /* json_text_is_clean() in one pass, without a lowered copy: a trace
   * line is checked as it is written, once for every event of a run. */
  for (const char *p = memchr (text, '\\', length); p != NULL;
       p = memchr (p, '\\', text + length - p))
    {
      while (p < text + length && *p == '\\')
        p++;
      if (p < text + length && (*p == 'u' || *p == 'n'))
        return FALSE;
    }
  if (may_have_shape (text, length) || has_secret (self, text, length))
    return FALSE;
  return !has_secret_name (text, length);
}

static char *
redact_string (TbRedactor *self,
               const char *text,
               guint       remaining,
               gboolean   *changed)
{
  if (remaining > 0 && looks_like_event_stream (text))
    return redact_event_stream (self, text, remaining - 1, changed);

  if (remaining > 0 && looks_like_json (text))
    {
      gsize text_length = strlen (text);
      g_autofree char *clean = json_text_is_clean (self, text, text_length)
                               ? g_strndup (text, text_length)
                               : redact_json_text (self, text, text_length, remaining - 1,
                                                   changed);

      /* JSON written again keeps the white space around it: a line
       * printed with its newline stays a line. */
      if (clean != NULL)
        {
          gsize length = strlen (text);
          gsize lead = strspn (text, " \t\r\n");
          gsize trail = 0;

          while (trail < length - lead && strchr (" \t\r\n", text[length - trail - 1]) != NULL)
            trail++;
          return g_strdup_printf ("%.*s%s%s", (int) lead, text, g_strstrip (clean),
                                  text + length - trail);
        }
    }

  return redact_plain (self, text, strlen (text), changed);
}

/**
 * tb_redactor_redact_text:
 * @self: a redactor
 * @text: (nullable): any text: a message, an error, a URL, a wire body
 *   (JSON or an event stream, which are decoded first)
 *
 * Masks secrets in text before it reaches a trace, a log or a terminal.
 *
 * Returns: (transfer full) (nullable): @text with every known and every
 *   credential-shaped secret replaced by "[redacted]"; JSON in which
 *   something was replaced is written again, compactly
 */
char *
tb_redactor_redact_text (TbRedactor *self,
                         const char *text)
{
  gboolean changed = FALSE;

  g_return_val_if_fail (TB_IS_REDACTOR (self), NULL);

  if (text == NULL)
    return NULL;

  return redact_string (self, text, TB_JSON_MAX_WALK_DEPTH, &changed);
}

/**
 * tb_redactor_redact_url:
 * @self: a redactor
 * @url: (nullable): a URL, such as a provider's base URL
 *
 * Masks the credentials in a URL before it is shown or recorded.
 *
 * Returns: (transfer full) (nullable): @url without its user name and
 *   password, and with the values of credential parameters and known
 *   secrets replaced by "[redacted]"
 */
char *
tb_redactor_redact_url (TbRedactor *self,
                        const char *url)
{
  g_autoptr(GUri) uri = NULL;
  g_autofree char *bare = NULL;
  const char *shown;

  g_return_val_if_fail (TB_IS_REDACTOR (self), NULL);

  if (url == NULL)
    return NULL;

  uri = g_uri_parse (url, G_URI_FLAGS_ENCODED, NULL);
  if (uri != NULL)
    bare = g_uri_to_string_partial (uri, G_URI_HIDE_USERINFO);
  shown = bare != NULL ? bare : url;
  return redact_plain (self, shown, strlen (shown), NULL);
}

static JsonNode *
redact (TbRedactor *self,
        JsonNode   *node,
        guint       remaining,
        gboolean   *changed)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *in = json_node_get_object (node);
        JsonObject *out = json_object_new ();
        g_autoptr(GList) names = json_object_get_members (in);
        JsonNode *copy = json_node_new (JSON_NODE_OBJECT);

        for (const GList *l = names; l != NULL && remaining > 0; l = l->next)
          {
            const char *name = l->data;
            JsonNode *member = json_object_get_member (in, name);
            g_autofree char *clean_name = redact_plain (self, name, strlen (name), changed);

            if (tb_redactor_is_secret_name (name) && !JSON_NODE_HOLDS_NULL (member))
              {
                if (!JSON_NODE_HOLDS_VALUE (member) ||
                    g_strcmp0 (json_node_get_string (member), TB_REDACTED) != 0)
                  *changed = TRUE;
                json_object_set_string_member (out, clean_name, TB_REDACTED);
              }
            else
              {
                json_object_set_member (out, clean_name,
                                        redact (self, member, remaining - 1, changed));
              }
          }
        json_node_take_object (copy, out);
        return copy;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *in = json_node_get_array (node);
        guint n = json_array_get_length (in);
        JsonArray *out = json_array_sized_new (n);
        JsonNode *copy = json_node_new (JSON_NODE_ARRAY);

        for (guint i = 0; i < n && remaining > 0; i++)
          json_array_add_element (out, redact (self, json_array_get_element (in, i),
                                               remaining - 1, changed));
        json_node_take_array (copy, out);
        return copy;
      }

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_STRING)
        {
          g_autofree char *clean = redact_string (self, json_node_get_string (node), remaining,
                                                  changed);

          return tb_json_node_new_string (clean);
        }
      return tb_json_copy (node);

    case JSON_NODE_NULL:
    default:
      return json_node_new (JSON_NODE_NULL);
    }
}

/**
 * tb_redactor_redact_node:
 * @self: a redactor
 * @node: a JSON tree
 *
 * Masks secrets in a JSON tree, as traces and the protocol view are written:
 * known secrets, values under credential names such as `api_key` or
 * `Authorization`, and credential-shaped text.
 *
 * Returns: (transfer full): a redacted deep copy of @node; strings that
 *   hold JSON or an event stream are decoded before they are searched
 */
JsonNode *
tb_redactor_redact_node (TbRedactor *self,
                         JsonNode   *node)
{
  gboolean changed = FALSE;

  g_return_val_if_fail (TB_IS_REDACTOR (self), NULL);

  if (node == NULL)
    return NULL;

  return redact (self, node, TB_JSON_MAX_WALK_DEPTH, &changed);
}

/* tb_redactor_is_secret_name() for a name whose length is known: most
 * names have no secret name's length and need no comparison. */
static gboolean
is_secret_name_length (const char *name,
                       gsize       length)
{
  static gsize lengths[G_N_ELEMENTS (secret_names)];

  if (g_once_init_enter (&lengths[0]))
    {
      for (guint i = 1; secret_names[i] != NULL; i++)
        lengths[i] = strlen (secret_names[i]);
      g_once_init_leave (&lengths[0], strlen (secret_names[0]));
    }

  for (guint i = 0; secret_names[i] != NULL; i++)
    if (lengths[i] == length && g_ascii_strcasecmp (name, secret_names[i]) == 0)
      return TRUE;
  return FALSE;
}

static void
node_unref_nullable (gpointer node)
{
  if (node != NULL)
    json_node_unref (node);
}

/* Like redact(), but %NULL when @node has nothing to redact, so that the
 * caller keeps @node itself; a changed container shares its unchanged
 * members. Used where the result is only written out. */
static JsonNode *
redact_shared (TbRedactor *self,
               JsonNode   *node,
               guint       remaining,
               gboolean   *changed)
{
  /* At the depth limit redact() leaves containers out: a change. */
  if (remaining == 0 && (JSON_NODE_HOLDS_OBJECT (node) || JSON_NODE_HOLDS_ARRAY (node)))
    return redact (self, node, remaining, changed);

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *in = json_node_get_object (node);
        /* Allocated at the first member that changes: most objects have none. */
        g_autoptr(GPtrArray) clean = NULL;
        g_autoptr(GPtrArray) clean_names = NULL;
        JsonObjectIter iter;  /* in the members' order, as redact() writes them */
        const char *name;
        JsonNode *member;
        JsonObject *out;
        JsonNode *copy;
        guint i = 0;

        json_object_iter_init_ordered (&iter, in);
        while (json_object_iter_next_ordered (&iter, &name, &member))
          {
            gsize name_length = strlen (name);
            char *clean_name = NULL;
            JsonNode *value = NULL;

            if (may_have_shape (name, name_length) || has_secret (self, name, name_length))
              {
                gboolean name_changed = FALSE;

                clean_name = redact_plain (self, name, name_length, &name_changed);
                if (!name_changed)
                  g_clear_pointer (&clean_name, g_free);
              }
            if (is_secret_name_length (name, name_length) && !JSON_NODE_HOLDS_NULL (member))
              {
                if (!JSON_NODE_HOLDS_VALUE (member) ||
                    g_strcmp0 (json_node_get_string (member), TB_REDACTED) != 0)
                  value = tb_json_node_new_string (TB_REDACTED);
              }
            else
              {
                value = redact_shared (self, member, remaining - 1, changed);
              }

            if (clean == NULL && (clean_name != NULL || value != NULL))
              {
                clean = g_ptr_array_new_with_free_func (node_unref_nullable);
                clean_names = g_ptr_array_new_with_free_func (g_free);
                for (guint j = 0; j < i; j++)
                  {
                    g_ptr_array_add (clean, NULL);
                    g_ptr_array_add (clean_names, NULL);
                  }
              }
            if (clean != NULL)
              {
                g_ptr_array_add (clean_names, clean_name);
                g_ptr_array_add (clean, value);
              }
            i++;
          }
        if (clean == NULL)
          return NULL;

        *changed = TRUE;
        out = json_object_new ();
        i = 0;
        json_object_iter_init_ordered (&iter, in);
        while (json_object_iter_next_ordered (&iter, &name, &member))
          {
            const char *clean_name = g_ptr_array_index (clean_names, i);
            JsonNode *value = g_ptr_array_index (clean, i);

            json_object_set_member (out, clean_name != NULL ? clean_name : name,
                                    json_node_ref (value != NULL ? value : member));
            i++;
          }
        copy = json_node_new (JSON_NODE_OBJECT);
        json_node_take_object (copy, out);
        return copy;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *in = json_node_get_array (node);
        guint n = json_array_get_length (in);
        g_autoptr(GPtrArray) clean = NULL;
        JsonArray *out;
        JsonNode *copy;

        for (guint i = 0; i < n; i++)
          {
            JsonNode *value = redact_shared (self, json_array_get_element (in, i),
                                             remaining - 1, changed);

            if (clean == NULL && value != NULL)
              {
                clean = g_ptr_array_new_with_free_func (node_unref_nullable);
                for (guint j = 0; j < i; j++)
                  g_ptr_array_add (clean, NULL);
              }
            if (clean != NULL)
              g_ptr_array_add (clean, value);
          }
        if (clean == NULL)
          return NULL;

        out = json_array_sized_new (n);
        for (guint i = 0; i < n; i++)
          {
            JsonNode *value = g_ptr_array_index (clean, i);

            json_array_add_element (out, json_node_ref (value != NULL
                                                        ? value
                                                        : json_array_get_element (in, i)));
          }
        copy = json_node_new (JSON_NODE_ARRAY);
        json_node_take_array (copy, out);
        return copy;
      }

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_STRING)
        {
          const char *text = json_node_get_string (node);
          g_autofree char *clean = NULL;

          /* Plain text with nothing to find: no copy. */
          if (!looks_like_json (text) && !looks_like_event_stream (text) &&
              !may_have_shape (text, strlen (text)) && !has_secret (self, text, strlen (text)))
            return NULL;
          clean = redact_string (self, text, remaining, changed);
          if (g_str_equal (clean, text))
            return NULL;
          *changed = TRUE;
          return tb_json_node_new_string (clean);
        }
      return NULL;

    case JSON_NODE_NULL:
    default:
      return NULL;
    }
}

/* The redacted @node for writing it out: @node itself (another
 * reference) when nothing in it is secret, otherwise a tree that shares
 * what did not change. Never modify the result. */
JsonNode *
_tb_redactor_redact_node_shared (TbRedactor *self,
                                 JsonNode   *node)
{
  gboolean changed = FALSE;
  JsonNode *clean;

  g_return_val_if_fail (TB_IS_REDACTOR (self), NULL);
  g_return_val_if_fail (node != NULL, NULL);

  clean = redact_shared (self, node, TB_JSON_MAX_WALK_DEPTH, &changed);
  return clean != NULL ? clean : json_node_ref (node);
}

/**
 * tb_redactor_feed:
 * @self: a redactor
 * @held: what the stream held back so far; start with an empty string
 * @piece: (nullable): the next piece of a streamed text, or %NULL at its
 *   end
 *
 * Redacts text shown while it streams in, where a secret may arrive in
 * pieces. The end of the text that could still become a secret (the
 * start of a known one, or an unfinished word) stays in @held until the
 * next piece decides it; %NULL gives back all of it.
 *
 * Returns: (transfer full): the redacted text that can be shown now
 */
char *
tb_redactor_feed (TbRedactor *self,
                  GString    *held,
                  const char *piece)
{
  gsize shown;
  char *text;

  g_return_val_if_fail (TB_IS_REDACTOR (self), NULL);
  g_return_val_if_fail (held != NULL, NULL);

  shown = held->len;
  if (piece != NULL)
    {
      gsize word;

      g_string_append (held, piece);
      shown = held->len;
      word = held->len;
      while (word > 0 && !g_ascii_isspace (held->str[word - 1]))
        word--;
      if (held->len - word <= MAX_HELD_WORD)
        shown = word;

      for (guint i = 0; i < self->secrets->len; i++)
        {
          const Secret *secret = g_ptr_array_index (self->secrets, i);

          for (gsize k = MIN (secret->length - 1, held->len); k > 0; k--)
            if (memcmp (held->str + held->len - k, secret->text, k) == 0)
              {
                shown = MIN (shown, held->len - k);
                break;
              }
        }
    }

  text = redact_plain (self, held->str, shown, NULL);
  g_string_erase (held, 0, shown);
  return text;
}
