/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-mcp-prompt-row.h"

/* A prompt in a server's Prompts page: its title with how many arguments
 * it takes, and the start of its description. */

struct _TbMcpPromptRow
{
  GtkBox       parent_instance;

  TbMcpPrompt *prompt;

  GtkLabel    *title_label;
  GtkLabel    *description_label;
};

G_DEFINE_FINAL_TYPE (TbMcpPromptRow, tb_mcp_prompt_row, GTK_TYPE_BOX)

/* More than two lines of the widest list hold. */
#define DESCRIPTION_SHOWN_CHARS 500

enum {
  PROP_0,
  PROP_PROMPT,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static void
tb_mcp_prompt_row_dispose (GObject *object)
{
  TbMcpPromptRow *self = (TbMcpPromptRow *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_MCP_PROMPT_ROW);
  g_clear_object (&self->prompt);

  G_OBJECT_CLASS (tb_mcp_prompt_row_parent_class)->dispose (object);
}

static void
tb_mcp_prompt_row_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  TbMcpPromptRow *self = TB_MCP_PROMPT_ROW (object);

  switch (prop_id)
    {
    case PROP_PROMPT:
      g_value_set_object (value, self->prompt);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_mcp_prompt_row_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  TbMcpPromptRow *self = TB_MCP_PROMPT_ROW (object);

  switch (prop_id)
    {
    case PROP_PROMPT:
      tb_mcp_prompt_row_set_prompt (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_mcp_prompt_row_class_init (TbMcpPromptRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_mcp_prompt_row_dispose;
  object_class->get_property = tb_mcp_prompt_row_get_property;
  object_class->set_property = tb_mcp_prompt_row_set_property;

  properties [PROP_PROMPT] =
    g_param_spec_object ("prompt", NULL, NULL, TB_TYPE_MCP_PROMPT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-mcp-prompt-row.ui");
  gtk_widget_class_bind_template_child (widget_class, TbMcpPromptRow, title_label);
  gtk_widget_class_bind_template_child (widget_class, TbMcpPromptRow, description_label);
}

static void
tb_mcp_prompt_row_init (TbMcpPromptRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
tb_mcp_prompt_row_new (void)
{
  return g_object_new (TB_TYPE_MCP_PROMPT_ROW, NULL);
}

/**
 * tb_mcp_prompt_row_describe:
 * @prompt: a prompt
 *
 * Returns: (transfer full): the row's title: the prompt's name or title,
 *   and how many arguments it takes
 */
char *
tb_mcp_prompt_row_describe (TbMcpPrompt *prompt)
{
  guint n = tb_mcp_prompt_get_n_arguments (prompt);

  if (n == 0)
    return g_strdup (tb_mcp_prompt_get_display_name (prompt));
  /* Translators: a prompt's name and how many arguments it takes */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s (%u argument)",
                                       "%s (%u arguments)", n),
                          tb_mcp_prompt_get_display_name (prompt), n);
}

TbMcpPrompt *
tb_mcp_prompt_row_get_prompt (TbMcpPromptRow *self)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPT_ROW (self), NULL);

  return self->prompt;
}

void
tb_mcp_prompt_row_set_prompt (TbMcpPromptRow *self,
                              TbMcpPrompt    *prompt)
{
  g_autofree char *title = NULL;
  g_autofree char *start = NULL;
  const char *description;

  g_return_if_fail (TB_IS_MCP_PROMPT_ROW (self));

  if (!g_set_object (&self->prompt, prompt))
    return;
  title = prompt != NULL ? tb_mcp_prompt_row_describe (prompt) : NULL;
  description = prompt != NULL ? tb_mcp_prompt_get_description (prompt) : NULL;
  /* Two lines show; the label would lay out a server's whole text. */
  start = description != NULL ? tb_text_cut_at_word (description, DESCRIPTION_SHOWN_CHARS, NULL)
                              : NULL;
  tb_label_set_outside_text (self->title_label, title);
  tb_label_set_outside_text (self->description_label, start);
  gtk_widget_set_visible (GTK_WIDGET (self->description_label),
                          description != NULL && *description != '\0');
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_PROMPT]);
}
