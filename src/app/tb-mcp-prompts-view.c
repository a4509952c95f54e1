/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp-prompts-view"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "tb-app-util.h"
#include "tb-mcp-listing.h"
#include "tb-mcp-prompt-row.h"
#include "tb-mcp-prompts-view-private.h"

/* The Prompts page of a server's window: the prompts the server lists
 * (every page), searched by name, title and description, listed again
 * when the server says they changed. Choosing one opens its form
 * (TbMcpPromptForm). Nothing is listed until the page is first shown. */

struct _TbMcpPromptsView
{
  TbMcpClientView     parent_instance;

  TbMcpListing        listing;
  AdwBin             *form_bin;

  TbMcpClient        *client;       /* the view's, not owned here */
  gboolean            waiting;
};

G_DEFINE_FINAL_TYPE (TbMcpPromptsView, tb_mcp_prompts_view, TB_TYPE_MCP_CLIENT_VIEW)

static char *
search_text (gpointer item)
{
  TbMcpPrompt *prompt = item;

  return g_strjoin ("\n", tb_mcp_prompt_get_name (prompt), tb_mcp_prompt_get_title (prompt) ?: "",
                    tb_mcp_prompt_get_description (prompt) ?: "", NULL);
}

static void
update_state (TbMcpPromptsView *self)
{
  /* An empty listing already says why. */
  if (!tb_mcp_client_view_get_loaded (TB_MCP_CLIENT_VIEW (self)) || self->waiting
      || g_list_model_get_n_items (G_LIST_MODEL (self->listing.store)) == 0)
    return;
  tb_mcp_listing_show_list (&self->listing, _("No Matching Prompts"),
                            _("No name, title or description contains what you searched for."));
}

static void
on_search_changed (TbMcpPromptsView *self)
{
  tb_mcp_listing_search_changed (&self->listing);
  update_state (self);
}

static void
setup_row (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           TbMcpPromptsView         *self)
{
  gtk_list_item_set_child (item, tb_mcp_prompt_row_new ());
}

static void
bind_row (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          TbMcpPromptsView         *self)
{
  tb_mcp_prompt_row_set_prompt (TB_MCP_PROMPT_ROW (gtk_list_item_get_child (item)),
                                gtk_list_item_get_item (item));
}

static void
open_prompt (TbMcpPromptsView *self,
             TbMcpPrompt      *prompt)
{
  GtkWidget *form = tb_mcp_prompt_form_new (self->client, prompt);

  adw_bin_set_child (self->form_bin, form);
  gtk_stack_set_visible_child_name (self->listing.pages, "prompt");
  tb_mcp_prompt_form_focus (TB_MCP_PROMPT_FORM (form));
}

static void
on_activate (TbMcpPromptsView *self,
             guint             position)
{
  g_autoptr(TbMcpPrompt) prompt = tb_mcp_listing_get_row (&self->listing, position);

  if (prompt != NULL)
    open_prompt (self, prompt);
}

/* Enter in the search opens the first match. */
static void
on_search_activate (TbMcpPromptsView *self)
{
  if (tb_mcp_listing_get_n_rows (&self->listing) > 0)
    on_activate (self, 0);
}

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  tb_mcp_listing_back (&TB_MCP_PROMPTS_VIEW (widget)->listing);
}

static void
list_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(TbMcpPromptsView) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = NULL;

  items = tb_mcp_client_list_prompts_finish (TB_MCP_CLIENT (object), result, &error);
  if (tb_mcp_listing_is_gone (&self->listing, error))
    return;
  self->waiting = FALSE;
  gtk_spinner_stop (self->listing.spinner);
  if (items == NULL)
    {
      tb_mcp_listing_show_empty (&self->listing, "dialog-error-symbolic",
                                 _("Could Not List the Prompts"), error->message);
      return;
    }
  g_list_store_splice (self->listing.store, 0,
                       g_list_model_get_n_items (G_LIST_MODEL (self->listing.store)),
                       items->pdata, items->len);
  if (items->len == 0)
    {
      tb_mcp_listing_show_status (&self->listing, "mail-send-symbolic", _("No Prompts"),
                                  _("The server lists no prompts."));
      return;
    }
  gtk_stack_set_visible_child_name (self->listing.stack, "list");
  update_state (self);
}

/* Asks for the list; the base type calls it when the page is first shown
 * and on every change after. */
static void
reload (TbMcpClientView *view)
{
  TbMcpPromptsView *self = TB_MCP_PROMPTS_VIEW (view);

  tb_mcp_listing_cancel (&self->listing);
  self->waiting = FALSE;
  if (!tb_mcp_listing_can_list (&self->listing, self->client, "prompts", "mail-send-symbolic",
                                _("Start it from its row in the preferences to list its "
                                  "prompts."),
                                _("This server offers no prompts"),
                                _("It did not declare the prompts capability when it started.")))
    return;
  self->waiting = TRUE;
  tb_mcp_client_list_prompts_async (self->client, tb_mcp_listing_start (&self->listing),
                                    list_cb, g_object_ref (self));
}

static void
tb_mcp_prompts_view_constructed (GObject *object)
{
  TbMcpPromptsView *self = (TbMcpPromptsView *) object;

  G_OBJECT_CLASS (tb_mcp_prompts_view_parent_class)->constructed (object);

  self->client = tb_mcp_client_view_get_client (TB_MCP_CLIENT_VIEW (self));
}

static void
tb_mcp_prompts_view_dispose (GObject *object)
{
  TbMcpPromptsView *self = (TbMcpPromptsView *) object;

  tb_mcp_listing_cancel (&self->listing);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_MCP_PROMPTS_VIEW);
  tb_mcp_listing_dispose (&self->listing);
  self->client = NULL;

  G_OBJECT_CLASS (tb_mcp_prompts_view_parent_class)->dispose (object);
}

static void
tb_mcp_prompts_view_finalize (GObject *object)
{
  TbMcpPromptsView *self = (TbMcpPromptsView *) object;

  tb_mcp_listing_finalize (&self->listing);

  G_OBJECT_CLASS (tb_mcp_prompts_view_parent_class)->finalize (object);
}

static void
tb_mcp_prompts_view_class_init (TbMcpPromptsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TbMcpClientViewClass *view_class = TB_MCP_CLIENT_VIEW_CLASS (klass);

  object_class->constructed = tb_mcp_prompts_view_constructed;
  object_class->dispose = tb_mcp_prompts_view_dispose;
  object_class->finalize = tb_mcp_prompts_view_finalize;
  view_class->list_changed_signal = "prompts-changed";
  view_class->reload = reload;

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-mcp-prompts-view.ui");
  tb_mcp_listing_bind_template (widget_class, G_STRUCT_OFFSET (TbMcpPromptsView, listing));
  gtk_widget_class_bind_template_child (widget_class, TbMcpPromptsView, form_bin);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_search_activate);

  gtk_widget_class_install_action (widget_class, "prompts.back", NULL, back_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK,
                                       "prompts.back", NULL);
}

static void
tb_mcp_prompts_view_init (TbMcpPromptsView *self)
{
  g_type_ensure (ADW_TYPE_STATUS_PAGE);
  g_type_ensure (ADW_TYPE_BIN);
  gtk_widget_init_template (GTK_WIDGET (self));

  tb_mcp_listing_init (&self->listing, TB_TYPE_MCP_PROMPT, "tb-prompts-view-search-key",
                       search_text, G_CALLBACK (setup_row), G_CALLBACK (bind_row), NULL, self);
}

/**
 * tb_mcp_prompts_view_reload:
 * @self: a Prompts page
 *
 * Lists the server's prompts again.
 */
void
tb_mcp_prompts_view_reload (TbMcpPromptsView *self)
{
  g_return_if_fail (TB_IS_MCP_PROMPTS_VIEW (self));

  tb_mcp_client_view_reload (TB_MCP_CLIENT_VIEW (self));
}

/**
 * tb_mcp_prompts_view_new:
 * @client: an MCP client
 *
 * Returns: (transfer floating): the Prompts page of @client's server
 */
GtkWidget *
tb_mcp_prompts_view_new (TbMcpClient *client)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (client), NULL);

  return g_object_new (TB_TYPE_MCP_PROMPTS_VIEW, "client", client, NULL);
}

/* ---- for the tests ----------------------------------------------------------- */

gboolean
tb_mcp_prompts_view_is_settled (TbMcpPromptsView *self)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPTS_VIEW (self), FALSE);
  return tb_mcp_client_view_get_loaded (TB_MCP_CLIENT_VIEW (self)) && !self->waiting;
}

const char *
tb_mcp_prompts_view_get_state (TbMcpPromptsView *self)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPTS_VIEW (self), NULL);
  return tb_mcp_listing_get_state (&self->listing);
}

const char *
tb_mcp_prompts_view_get_status_title (TbMcpPromptsView *self)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPTS_VIEW (self), NULL);
  return tb_mcp_listing_get_status_title (&self->listing);
}

const char *
tb_mcp_prompts_view_get_status_text (TbMcpPromptsView *self)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPTS_VIEW (self), NULL);
  return self->listing.status_text;
}

GtkEditable *
tb_mcp_prompts_view_get_search_entry (TbMcpPromptsView *self)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPTS_VIEW (self), NULL);
  return GTK_EDITABLE (self->listing.search_entry);
}

guint
tb_mcp_prompts_view_get_n_rows (TbMcpPromptsView *self)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPTS_VIEW (self), 0);
  return tb_mcp_listing_get_n_rows (&self->listing);
}

char *
tb_mcp_prompts_view_get_row_text (TbMcpPromptsView *self,
                                  guint             position)
{
  g_autoptr(TbMcpPrompt) prompt = NULL;

  g_return_val_if_fail (TB_IS_MCP_PROMPTS_VIEW (self), NULL);
  prompt = tb_mcp_listing_get_row (&self->listing, position);
  return prompt != NULL ? tb_mcp_prompt_row_describe (prompt) : NULL;
}

/* Opens the form of the prompt called @name, as a click on its row does. */
gboolean
tb_mcp_prompts_view_select (TbMcpPromptsView *self,
                            const char       *name)
{
  guint n;

  g_return_val_if_fail (TB_IS_MCP_PROMPTS_VIEW (self), FALSE);
  n = tb_mcp_listing_get_n_rows (&self->listing);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TbMcpPrompt) prompt = tb_mcp_listing_get_row (&self->listing, i);

      if (g_str_equal (tb_mcp_prompt_get_name (prompt), name))
        {
          on_activate (self, i);
          return TRUE;
        }
    }
  return FALSE;
}

const char *
tb_mcp_prompts_view_get_page (TbMcpPromptsView *self)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPTS_VIEW (self), NULL);
  return gtk_stack_get_visible_child_name (self->listing.pages);
}

TbMcpPromptForm *
tb_mcp_prompts_view_get_form (TbMcpPromptsView *self)
{
  GtkWidget *child;

  g_return_val_if_fail (TB_IS_MCP_PROMPTS_VIEW (self), NULL);
  child = adw_bin_get_child (self->form_bin);
  return child != NULL ? TB_MCP_PROMPT_FORM (child) : NULL;
}
