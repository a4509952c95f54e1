/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-mcp-resource.h"

/* A resource a server offers (`resources/list`), or a resource template
 * (`resources/templates/list`) whose URI template (RFC 6570) a person fills
 * in. Both keep the definition's fields as the server sent them; the
 * contents come from tb_mcp_client_read_resource_async(). */

struct _TbMcpResource
{
  GObject     parent_instance;
  gboolean    is_template;
  char       *uri;
  char       *name;
  char       *title;
  char       *description;
  char       *mime_type;
  gint64      size;
  JsonObject *annotations;
  JsonArray  *icons;
};

/**
 * TbMcpResource:
 *
 * A resource an MCP server offers (`resources/list`), or a resource template
 * (`resources/templates/list`) whose URI template (RFC 6570) a person fills
 * in. Both keep the fields of the definition as the server sent them; the
 * contents come from tb_mcp_client_read_resource_async().
 */
G_DEFINE_FINAL_TYPE (TbMcpResource, tb_mcp_resource, G_TYPE_OBJECT)

static void
tb_mcp_resource_finalize (GObject *object)
{
  TbMcpResource *self = (TbMcpResource *) object;

  g_free (self->uri);
  g_free (self->name);
  g_free (self->title);
  g_free (self->description);
  g_free (self->mime_type);
  g_clear_pointer (&self->annotations, json_object_unref);
  g_clear_pointer (&self->icons, json_array_unref);

  G_OBJECT_CLASS (tb_mcp_resource_parent_class)->finalize (object);
}

static void
tb_mcp_resource_class_init (TbMcpResourceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_mcp_resource_finalize;
}

static void
tb_mcp_resource_init (TbMcpResource *self)
{
  self->size = -1;
}

/* A string member, %NULL when absent, empty or of another type. */
static char *
dup_string (JsonObject *object,
            const char *member)
{
  const char *value = tb_json_object_get_string (object, member);

  return value != NULL && *value != '\0' ? g_strdup (value) : NULL;
}

/**
 * tb_mcp_resource_new_from_json:
 * @definition: one entry of `resources` or `resourceTemplates`
 * @is_template: whether it came from `resources/templates/list`
 *
 * Makes a resource from one entry of a server's listing.
 *
 * Returns: (transfer full) (nullable): the resource, or %NULL when the
 *   entry has no URI (or URI template)
 */
TbMcpResource *
tb_mcp_resource_new_from_json (JsonObject *definition,
                               gboolean    is_template)
{
  g_autofree char *uri = NULL;
  TbMcpResource *self;
  JsonNode *member;

  g_return_val_if_fail (definition != NULL, NULL);

  uri = dup_string (definition, is_template ? "uriTemplate" : "uri");
  if (uri == NULL)
    return NULL;

  self = g_object_new (TB_TYPE_MCP_RESOURCE, NULL);
  self->is_template = is_template;
  self->uri = g_steal_pointer (&uri);
  self->name = dup_string (definition, "name");
  if (self->name == NULL)
    self->name = g_strdup (self->uri);
  self->title = dup_string (definition, "title");
  self->description = dup_string (definition, "description");
  self->mime_type = dup_string (definition, "mimeType");
  member = json_object_get_member (definition, "size");
  if (member != NULL && JSON_NODE_HOLDS_VALUE (member) &&
      json_node_get_value_type (member) == G_TYPE_INT64 && json_node_get_int (member) >= 0)
    self->size = json_node_get_int (member);
  member = json_object_get_member (definition, "annotations");
  if (member != NULL && JSON_NODE_HOLDS_OBJECT (member))
    self->annotations = json_object_ref (json_node_get_object (member));
  member = json_object_get_member (definition, "icons");
  if (member != NULL && JSON_NODE_HOLDS_ARRAY (member))
    self->icons = json_array_ref (json_node_get_array (member));
  return self;
}

/**
 * tb_mcp_resource_is_template:
 * @self: a resource
 *
 * Tells a resource template from a resource.
 *
 * Returns: %TRUE for a resource template
 */
gboolean
tb_mcp_resource_is_template (TbMcpResource *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCE (self), FALSE);
  return self->is_template;
}

/**
 * tb_mcp_resource_get_uri:
 * @self: a resource
 *
 * Gives the URI to read the resource with.
 *
 * Returns: (nullable): the URI of a resource; %NULL for a template
 */
const char *
tb_mcp_resource_get_uri (TbMcpResource *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCE (self), NULL);
  return self->is_template ? NULL : self->uri;
}

/**
 * tb_mcp_resource_get_uri_template:
 * @self: a template
 *
 * Gives the URI template a person fills in to name a resource.
 *
 * Returns: (nullable): the URI template of a template; %NULL for a resource
 */
const char *
tb_mcp_resource_get_uri_template (TbMcpResource *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCE (self), NULL);
  return self->is_template ? self->uri : NULL;
}

/**
 * tb_mcp_resource_get_name:
 * @self: a resource
 *
 * Gives the resource's name for programs.
 *
 * Returns: the name; the URI when the server gave none
 */
const char *
tb_mcp_resource_get_name (TbMcpResource *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCE (self), NULL);
  return self->name;
}

/**
 * tb_mcp_resource_get_title:
 * @self: a resource
 *
 * Gives the resource's name for people, when the server gave one.
 *
 * Returns: (nullable): the title for people
 */
const char *
tb_mcp_resource_get_title (TbMcpResource *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCE (self), NULL);
  return self->title;
}

/**
 * tb_mcp_resource_get_display_name:
 * @self: a resource
 *
 * Gives the name to show a person.
 *
 * Returns: the title, else the name
 */
const char *
tb_mcp_resource_get_display_name (TbMcpResource *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCE (self), NULL);
  return self->title != NULL ? self->title : self->name;
}

/**
 * tb_mcp_resource_get_description:
 * @self: a resource
 *
 * Gives what the server says the resource holds.
 *
 * Returns: (nullable): the description
 */
const char *
tb_mcp_resource_get_description (TbMcpResource *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCE (self), NULL);
  return self->description;
}

/**
 * tb_mcp_resource_get_mime_type:
 * @self: a resource
 *
 * Gives the type of the contents, as the server announced it before they
 * are read.
 *
 * Returns: (nullable): the MIME type the server announced
 */
const char *
tb_mcp_resource_get_mime_type (TbMcpResource *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCE (self), NULL);
  return self->mime_type;
}

/**
 * tb_mcp_resource_get_size:
 * @self: a resource
 *
 * Gives the size of the contents, as the server announced it.
 *
 * Returns: the size in bytes the server announced, or -1
 */
gint64
tb_mcp_resource_get_size (TbMcpResource *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCE (self), -1);
  return self->size;
}

/**
 * tb_mcp_resource_get_annotations:
 * @self: a resource
 *
 * Gives the hints the server gave about who the resource is for and how
 * much it matters.
 *
 * Returns: (transfer none) (nullable): `audience`, `priority`,
 *   `lastModified` as the server sent them
 */
JsonObject *
tb_mcp_resource_get_annotations (TbMcpResource *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCE (self), NULL);
  return self->annotations;
}

/**
 * tb_mcp_resource_get_icons:
 * @self: a resource
 *
 * Gives the icons the server sent for the resource, for the application to
 * show.
 *
 * Returns: (transfer none) (nullable): the icons (`src`, `mimeType`,
 *   `sizes`) as the server sent them
 */
JsonArray *
tb_mcp_resource_get_icons (TbMcpResource *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCE (self), NULL);
  return self->icons;
}

/* ---- RFC 6570 ------------------------------------------------------------- */

typedef struct
{
  char        op;
  const char *first;
  const char *separator;
  gboolean    named;
  const char *if_empty;
  gboolean    reserved;   /* reserved characters pass unencoded */
} Operator;

static const Operator operators[] = {
  { '\0', "",  ",", FALSE, "",  FALSE },
  { '+',  "",  ",", FALSE, "",  TRUE },
  { '.',  ".", ".", FALSE, "",  FALSE },
  { '/',  "/", "/", FALSE, "",  FALSE },
  { ';',  ";", ";", TRUE,  "",  FALSE },
  { '?',  "?", "&", TRUE,  "=", FALSE },
  { '&',  "&", "&", TRUE,  "=", FALSE },
  { '#',  "#", ",", FALSE, "",  TRUE },
};

static const Operator *
find_operator (const char **expression)
{
  for (guint i = 1; i < G_N_ELEMENTS (operators); i++)
    if (**expression == operators[i].op)
      {
        (*expression)++;
        return &operators[i];
      }
  return &operators[0];
}

/* A variable specification: its name, and the prefix length of `name:N`
 * (0 for all); the explode modifier changes nothing for a string. */
static char *
parse_varspec (const char *spec,
               guint      *prefix)
{
  gsize length = strcspn (spec, ":*");

  *prefix = 0;
  if (spec[length] == ':')
    {
      guint64 n = 0;

      if (g_ascii_string_to_unsigned (spec + length + 1, 10, 1, 9999, &n, NULL))
        *prefix = n;
    }
  return g_strstrip (g_strndup (spec, length));
}

/**
 * tb_mcp_resource_get_variables:
 * @self: a template
 *
 * Lists the variables a person fills in, for a form.
 *
 * Returns: (transfer full): the names of a template's variables, in order,
 *   each once; empty for a resource
 */
char **
tb_mcp_resource_get_variables (TbMcpResource *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const char *p;

  g_return_val_if_fail (TB_IS_MCP_RESOURCE (self), NULL);

  for (p = self->is_template ? strchr (self->uri, '{') : NULL; p != NULL; p = strchr (p, '{'))
    {
      const char *end = strchr (p, '}');
      g_autofree char *expression = NULL;
      g_auto(GStrv) specs = NULL;
      const char *body;

      if (end == NULL)
        break;
      expression = g_strndup (p + 1, end - p - 1);
      body = expression;
      find_operator (&body);
      specs = g_strsplit (body, ",", -1);
      for (guint i = 0; specs[i] != NULL; i++)
        {
          guint prefix;
          char *name = parse_varspec (specs[i], &prefix);

          if (*name == '\0' || g_hash_table_contains (seen, name))
            {
              g_free (name);
              continue;
            }
          g_strv_builder_add (builder, name);
          g_hash_table_add (seen, name);
        }
      p = end + 1;
    }
  return g_strv_builder_end (builder);
}

static void
append_encoded (GString    *out,
                const char *value,
                guint       prefix,
                gboolean    reserved)
{
  const char *end = value + strlen (value);

  if (prefix > 0 && (guint) g_utf8_strlen (value, -1) > prefix)
    end = g_utf8_offset_to_pointer (value, prefix);
  for (const char *c = value; c < end; c++)
    {
      guchar ch = *c;

      if (g_ascii_isalnum (ch) || strchr ("-._~", ch) != NULL ||
          (reserved && ch != '\0' && strchr (":/?#[]@!$&'()*+,;=", ch) != NULL))
        g_string_append_c (out, ch);
      else if (reserved && ch == '%' && g_ascii_isxdigit (c[1]) && g_ascii_isxdigit (c[2]))
        g_string_append_c (out, ch);
      else
        g_string_append_printf (out, "%%%02X", ch);
    }
}

/**
 * tb_mcp_resource_expand:
 * @self: a template
 * @values: the variables' values; numbers and booleans are written as
 *   their JSON text, absent and null variables are left out
 * @error: return location for an error
 *
 * Expands the URI template (RFC 6570, levels 1 to 4 for string values).
 *
 * Returns: (transfer full) (nullable): the URI to read
 */
char *
tb_mcp_resource_expand (TbMcpResource  *self,
                        JsonObject     *values,
                        GError        **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const char *p;

  g_return_val_if_fail (TB_IS_MCP_RESOURCE (self), NULL);

  if (!self->is_template)
    return g_strdup (self->uri);

  for (p = self->uri; *p != '\0';)
    {
      const char *open = strchr (p, '{');
      const char *close;
      g_autofree char *expression = NULL;
      g_auto(GStrv) specs = NULL;
      const Operator *op;
      const char *body;
      gboolean first = TRUE;

      if (open == NULL)
        {
          g_string_append (out, p);
          break;
        }
      g_string_append_len (out, p, open - p);
      close = strchr (open, '}');
      if (close == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("The URI template “%s” has a “{” that is never closed"), self->uri);
          return NULL;
        }
      expression = g_strndup (open + 1, close - open - 1);
      body = expression;
      op = find_operator (&body);
      specs = g_strsplit (body, ",", -1);
      for (guint i = 0; specs[i] != NULL; i++)
        {
          guint prefix;
          g_autofree char *name = parse_varspec (specs[i], &prefix);
          JsonNode *node = values != NULL && *name != '\0'
                           ? json_object_get_member (values, name) : NULL;
          g_autofree char *text = NULL;

          if (node == NULL || JSON_NODE_HOLDS_NULL (node))
            continue;
          if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
            text = g_strdup (json_node_get_string (node));
          else
            text = tb_json_to_string (node, FALSE);

          g_string_append (out, first ? op->first : op->separator);
          first = FALSE;
          if (op->named)
            {
              g_string_append (out, name);
              if (*text == '\0')
                {
                  g_string_append (out, op->if_empty);
                  continue;
                }
              g_string_append_c (out, '=');
            }
          append_encoded (out, text, prefix, op->reserved);
        }
      p = close + 1;
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* ---- contents ------------------------------------------------------------- */

/**
 * tb_mcp_resource_contents_get_bytes:
 * @contents: one entry of a `resources/read` result's `contents`, or the
 *   `resource` of an embedded resource
 * @error: return location for an error
 *
 * Gives the contents of a resource as bytes, whether the server sent text
 * or a base64 `blob`; a blob that is not base64 fails with a sentence that
 * says so.
 *
 * Returns: (transfer full) (nullable): the bytes: the text in UTF-8, or the
 *   decoded `blob`
 */
GBytes *
tb_mcp_resource_contents_get_bytes (JsonObject  *contents,
                                    GError     **error)
{
  const char *text;
  const char *blob;

  g_return_val_if_fail (contents != NULL, NULL);

  text = tb_json_object_get_string (contents, "text");
  if (text != NULL)
    return g_bytes_new (text, strlen (text));

  blob = tb_json_object_get_string (contents, "blob");
  if (blob != NULL)
    {
      gsize length = strlen (blob);
      gsize decoded_length = 0;
      guchar *decoded;

      /* g_base64_decode() takes anything; check the alphabet first. */
      for (gsize i = 0; i < length; i++)
        if (!g_ascii_isalnum (blob[i]) && strchr ("+/=\r\n", blob[i]) == NULL)
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         _("The server sent a binary resource whose “blob” is not base64 "
                           "(a “%c” at byte %u)"),
                         g_ascii_isprint (blob[i]) ? blob[i] : '?', (guint) i);
            return NULL;
          }
      decoded = g_base64_decode (blob, &decoded_length);
      return g_bytes_new_take (decoded, decoded_length);
    }

  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("The server sent resource contents with neither “text” nor "
                         "“blob”"));
  return NULL;
}
