/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-mcp-prompt.h"

/* A prompt a server offers (`prompts/list`): a named template of messages
 * with string arguments, some required. tb_mcp_client_get_prompt_async()
 * fills it in. */

typedef struct
{
  char     *name;
  char     *description;
  gboolean  required;
} Argument;

struct _TbMcpPrompt
{
  GObject    parent_instance;
  char      *name;
  char      *title;
  char      *description;
  JsonArray *icons;
  GArray    *arguments;
};

/**
 * TbMcpPrompt:
 *
 * A prompt an MCP server offers (`prompts/list`): a named template of
 * messages with string arguments, some of them required.
 * tb_mcp_client_get_prompt_async() fills it in.
 */
G_DEFINE_FINAL_TYPE (TbMcpPrompt, tb_mcp_prompt, G_TYPE_OBJECT)

static void
argument_clear (gpointer data)
{
  Argument *argument = data;

  g_free (argument->name);
  g_free (argument->description);
}

static void
tb_mcp_prompt_finalize (GObject *object)
{
  TbMcpPrompt *self = (TbMcpPrompt *) object;

  g_free (self->name);
  g_free (self->title);
  g_free (self->description);
  g_clear_pointer (&self->icons, json_array_unref);
  g_array_unref (self->arguments);

  G_OBJECT_CLASS (tb_mcp_prompt_parent_class)->finalize (object);
}

static void
tb_mcp_prompt_class_init (TbMcpPromptClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_mcp_prompt_finalize;
}

static void
tb_mcp_prompt_init (TbMcpPrompt *self)
{
  self->arguments = g_array_new (FALSE, TRUE, sizeof (Argument));
  g_array_set_clear_func (self->arguments, argument_clear);
}

static char *
dup_string (JsonObject *object,
            const char *member)
{
  const char *value = tb_json_object_get_string (object, member);

  return value != NULL && *value != '\0' ? g_strdup (value) : NULL;
}

/**
 * tb_mcp_prompt_new_from_json:
 * @definition: one entry of `prompts`
 *
 * Arguments without a name, and repeated names, are left out.
 *
 * Returns: (transfer full) (nullable): the prompt, or %NULL when the entry
 *   has no name
 */
TbMcpPrompt *
tb_mcp_prompt_new_from_json (JsonObject *definition)
{
  g_autofree char *name = NULL;
  TbMcpPrompt *self;
  JsonNode *member;

  g_return_val_if_fail (definition != NULL, NULL);

  name = dup_string (definition, "name");
  if (name == NULL)
    return NULL;

  self = g_object_new (TB_TYPE_MCP_PROMPT, NULL);
  self->name = g_steal_pointer (&name);
  self->title = dup_string (definition, "title");
  self->description = dup_string (definition, "description");
  member = json_object_get_member (definition, "icons");
  if (member != NULL && JSON_NODE_HOLDS_ARRAY (member))
    self->icons = json_array_ref (json_node_get_array (member));

  member = json_object_get_member (definition, "arguments");
  if (member != NULL && JSON_NODE_HOLDS_ARRAY (member))
    {
      JsonArray *array = json_node_get_array (member);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);
          JsonObject *object;
          Argument argument = { NULL };
          gboolean seen = FALSE;

          if (!JSON_NODE_HOLDS_OBJECT (element))
            continue;
          object = json_node_get_object (element);
          argument.name = dup_string (object, "name");
          for (guint j = 0; argument.name != NULL && j < self->arguments->len; j++)
            seen |= g_str_equal (g_array_index (self->arguments, Argument, j).name,
                                 argument.name);
          if (argument.name == NULL || seen)
            {
              g_free (argument.name);
              continue;
            }
          argument.description = dup_string (object, "description");
          argument.required = tb_json_object_get_boolean (object, "required", FALSE);
          g_array_append_val (self->arguments, argument);
        }
    }
  return self;
}

/**
 * tb_mcp_prompt_get_name:
 * @self: a prompt
 *
 * Gives the name the prompt is asked for by.
 *
 * Returns: the prompt's name
 */
const char *
tb_mcp_prompt_get_name (TbMcpPrompt *self)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPT (self), NULL);
  return self->name;
}

/**
 * tb_mcp_prompt_get_title:
 * @self: a prompt
 *
 * Gives the prompt's name for people, when the server gave one.
 *
 * Returns: (nullable): the title for people
 */
const char *
tb_mcp_prompt_get_title (TbMcpPrompt *self)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPT (self), NULL);
  return self->title;
}

/**
 * tb_mcp_prompt_get_display_name:
 * @self: a prompt
 *
 * Gives the name to show a person.
 *
 * Returns: the title, else the name
 */
const char *
tb_mcp_prompt_get_display_name (TbMcpPrompt *self)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPT (self), NULL);
  return self->title != NULL ? self->title : self->name;
}

/**
 * tb_mcp_prompt_get_description:
 * @self: a prompt
 *
 * Gives what the server says the prompt is for.
 *
 * Returns: (nullable): the description
 */
const char *
tb_mcp_prompt_get_description (TbMcpPrompt *self)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPT (self), NULL);
  return self->description;
}

/**
 * tb_mcp_prompt_get_icons:
 * @self: a prompt
 *
 * Gives the icons the server sent for the prompt, for the application to
 * show.
 *
 * Returns: (transfer none) (nullable): the icons as the server sent them
 */
JsonArray *
tb_mcp_prompt_get_icons (TbMcpPrompt *self)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPT (self), NULL);
  return self->icons;
}

/**
 * tb_mcp_prompt_get_n_arguments:
 * @self: a prompt
 *
 * Counts the prompt's arguments.
 *
 * Returns: the number of arguments
 */
guint
tb_mcp_prompt_get_n_arguments (TbMcpPrompt *self)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPT (self), 0);
  return self->arguments->len;
}

/**
 * tb_mcp_prompt_get_argument_name:
 * @self: a prompt
 * @index: the argument's index, less than tb_mcp_prompt_get_n_arguments()
 *
 * Gives the name an argument is passed under.
 *
 * Returns: the argument's name
 */
const char *
tb_mcp_prompt_get_argument_name (TbMcpPrompt *self,
                                 guint        index)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPT (self), NULL);
  g_return_val_if_fail (index < self->arguments->len, NULL);
  return g_array_index (self->arguments, Argument, index).name;
}

/**
 * tb_mcp_prompt_get_argument_description:
 * @self: a prompt
 * @index: the argument's index, less than tb_mcp_prompt_get_n_arguments()
 *
 * Gives what an argument is for, as the server describes it.
 *
 * Returns: (nullable): what the argument is for
 */
const char *
tb_mcp_prompt_get_argument_description (TbMcpPrompt *self,
                                        guint        index)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPT (self), NULL);
  g_return_val_if_fail (index < self->arguments->len, NULL);
  return g_array_index (self->arguments, Argument, index).description;
}

/**
 * tb_mcp_prompt_get_argument_required:
 * @self: a prompt
 * @index: the argument's index, less than tb_mcp_prompt_get_n_arguments()
 *
 * Tells whether the prompt needs an argument.
 *
 * Returns: %TRUE when the argument is required
 */
gboolean
tb_mcp_prompt_get_argument_required (TbMcpPrompt *self,
                                     guint        index)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPT (self), FALSE);
  g_return_val_if_fail (index < self->arguments->len, FALSE);
  return g_array_index (self->arguments, Argument, index).required;
}

/**
 * tb_mcp_prompt_check_arguments:
 * @self: a prompt
 * @arguments: (nullable): the values, by argument name
 * @error: return location for a sentence naming what is wrong
 *
 * Prompt arguments are strings; required ones must be there and not
 * empty. Names the prompt does not declare are refused, since a server
 * would ignore them silently.
 *
 * Returns: whether the arguments can be sent
 */
gboolean
tb_mcp_prompt_check_arguments (TbMcpPrompt  *self,
                               JsonObject   *arguments,
                               GError      **error)
{
  g_autoptr(GList) names = NULL;

  g_return_val_if_fail (TB_IS_MCP_PROMPT (self), FALSE);

  for (guint i = 0; i < self->arguments->len; i++)
    {
      const Argument *argument = &g_array_index (self->arguments, Argument, i);
      const char *value = arguments != NULL
                          ? tb_json_object_get_string (arguments, argument->name) : NULL;

      if (argument->required && (value == NULL || *value == '\0'))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("The prompt “%s” needs a value for “%s”"), self->name, argument->name);
          return FALSE;
        }
    }

  names = arguments != NULL ? json_object_get_members (arguments) : NULL;
  for (GList *l = names; l != NULL; l = l->next)
    {
      JsonNode *node = json_object_get_member (arguments, l->data);
      gboolean known = FALSE;

      for (guint i = 0; i < self->arguments->len && !known; i++)
        known = g_str_equal (g_array_index (self->arguments, Argument, i).name, l->data);
      if (!known)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("The prompt “%s” has no argument “%s”"), self->name,
                       (const char *) l->data);
          return FALSE;
        }
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("The argument “%s” of the prompt “%s” must be a string"),
                       (const char *) l->data, self->name);
          return FALSE;
        }
    }
  return TRUE;
}
