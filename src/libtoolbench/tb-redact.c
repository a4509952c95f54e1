/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-redact"

#include "config.h"

#include <string.h>

#include "tb-json.h"
#include "tb-redact.h"

/**
 * TbRedactor:
 *
 * Removes secrets from what is written to traces, logs and the wire view.
 *
 * Three rules apply to every string and member:
 *
 * - members whose name says they hold a credential ("Authorization",
 *   "x-api-key", "x-goog-api-key", "api_key", "password", …) keep their
 *   name but their value becomes "[redacted]";
 * - secrets added with tb_redactor_add_secret() (the API keys in use)
 *   are replaced wherever they appear, inside any string: a wire body,
 *   a URL, an error message;
 * - strings shaped like a credential are replaced even when nobody
 *   named them: "Bearer …", a URL's "key=…" parameter (Gemini), and
 *   the key formats of the common providers ("sk-…", "sk-ant-…",
 *   "AIza…", "gsk_…", "xai-…", "hf_…").
 *
 * Redaction only ever removes; a trace that needs a secret to replay
 * does not exist: replay never contacts a provider.
 */

struct _TbRedactor
{
  GObject    parent_instance;
  GPtrArray *secrets;
  GRegex    *shapes;
};

G_DEFINE_FINAL_TYPE (TbRedactor, tb_redactor, G_TYPE_OBJECT)

static const char * const secret_names[] = {
  "authorization", "proxy-authorization", "x-api-key", "api-key", "api_key", "apikey",
  "x-goog-api-key", "openai-api-key", "anthropic-api-key", "password", "passwd", "secret",
  "client_secret", "client-secret", "access_token", "refresh_token", "id_token",
  "cookie", "set-cookie", "private_key", "private-key", NULL
};

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

  self->secrets = g_ptr_array_new_with_free_func (g_free);
  self->shapes = g_regex_new ("(?<bearer>(?i:bearer)\\s+)[A-Za-z0-9._~+/=-]{8,}"
                              "|(?<query>[?&](?i:key|api_key|apikey|access_token)=)[^&#\\s\"]+"
                              "|\\b(?:sk-ant-[A-Za-z0-9_-]{16,}|sk-[A-Za-z0-9_-]{16,}"
                              "|AIza[0-9A-Za-z_-]{30,}|gsk_[A-Za-z0-9]{20,}"
                              "|xai-[A-Za-z0-9]{20,}|hf_[A-Za-z0-9]{20,})",
                              G_REGEX_OPTIMIZE, 0, &error);
  g_assert_no_error (error);
}

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
 */
void
tb_redactor_add_secret (TbRedactor *self,
                        const char *secret)
{
  g_return_if_fail (TB_IS_REDACTOR (self));

  if (secret == NULL || strlen (secret) < 4)
    return;

  for (guint i = 0; i < self->secrets->len; i++)
    if (g_str_equal (g_ptr_array_index (self->secrets, i), secret))
      return;

  g_ptr_array_add (self->secrets, g_strdup (secret));
}

/**
 * tb_redactor_is_secret_name:
 * @member_name: a JSON member or HTTP header name
 *
 * Returns: whether values under that name are credentials
 */
gboolean
tb_redactor_is_secret_name (const char *member_name)
{
  if (member_name == NULL)
    return FALSE;

  for (guint i = 0; secret_names[i] != NULL; i++)
    if (g_ascii_strcasecmp (member_name, secret_names[i]) == 0)
      return TRUE;

  return FALSE;
}

static gboolean
replace_shape (const GMatchInfo *match,
               GString          *result,
               gpointer          user_data)
{
  g_autofree char *bearer = g_match_info_fetch_named (match, "bearer");
  g_autofree char *query = g_match_info_fetch_named (match, "query");

  if (bearer != NULL && *bearer != '\0')
    g_string_append (result, bearer);
  else if (query != NULL && *query != '\0')
    g_string_append (result, query);
  g_string_append (result, TB_REDACTED);

  return FALSE;
}

/**
 * tb_redactor_redact_text:
 *
 * Returns: (transfer full): @text with every known and every
 *   credential-shaped secret replaced by "[redacted]"
 */
char *
tb_redactor_redact_text (TbRedactor *self,
                         const char *text)
{
  g_autoptr(GString) out = NULL;
  g_autofree char *shaped = NULL;

  g_return_val_if_fail (TB_IS_REDACTOR (self), NULL);

  if (text == NULL)
    return NULL;

  /* Most strings hold no secret: look before copying. */
  for (guint i = 0; i < self->secrets->len; i++)
    {
      const char *secret = g_ptr_array_index (self->secrets, i);

      if (strstr (out != NULL ? out->str : text, secret) == NULL)
        continue;
      if (out == NULL)
        out = g_string_new (text);
      g_string_replace (out, secret, TB_REDACTED, 0);
    }

  if (!g_regex_match (self->shapes, out != NULL ? out->str : text, 0, NULL))
    return out != NULL ? g_string_free (g_steal_pointer (&out), FALSE) : g_strdup (text);

  shaped = g_regex_replace_eval (self->shapes, out != NULL ? out->str : text, -1, 0, 0,
                                 replace_shape, NULL, NULL);
  if (shaped == NULL)
    return out != NULL ? g_string_free (g_steal_pointer (&out), FALSE) : g_strdup (text);
  return g_steal_pointer (&shaped);
}

static JsonNode *
redact (TbRedactor *self,
        JsonNode   *node,
        guint       remaining)
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
            g_autofree char *clean_name = tb_redactor_redact_text (self, name);

            if (tb_redactor_is_secret_name (name) && !JSON_NODE_HOLDS_NULL (member))
              json_object_set_string_member (out, clean_name, TB_REDACTED);
            else
              json_object_set_member (out, clean_name, redact (self, member, remaining - 1));
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
                                               remaining - 1));
        json_node_take_array (copy, out);
        return copy;
      }

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_STRING)
        {
          g_autofree char *clean = tb_redactor_redact_text (self, json_node_get_string (node));

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
 * Returns: (transfer full): a redacted deep copy of @node
 */
JsonNode *
tb_redactor_redact_node (TbRedactor *self,
                         JsonNode   *node)
{
  g_return_val_if_fail (TB_IS_REDACTOR (self), NULL);

  if (node == NULL)
    return NULL;

  return redact (self, node, TB_JSON_MAX_WALK_DEPTH);
}
