/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <glib/gi18n.h>

#include "tb-mcp-listing.h"

/* What the Prompts and Resources pages of a server's window do alike:
 * the list searched by name, title and description, the spinner while
 * the server answers, a status page that says why nothing is listed, and
 * the way back from an item's form to the list. What the pages list and
 * what choosing a row does stay theirs. */

/**
 * tb_mcp_listing_bind_template:
 * @widget_class: the class of a page whose template has the listing's
 *   widgets
 * @offset: where the page's #TbMcpListing is in its instance structure
 *
 * Binds the listing's widgets to the children of the page's template of
 * the same names.
 */
void
tb_mcp_listing_bind_template (GtkWidgetClass *widget_class,
                              gssize          offset)
{
#define BIND(name) \
  gtk_widget_class_bind_template_child_full (widget_class, #name, FALSE, \
                                             offset + G_STRUCT_OFFSET (TbMcpListing, name))
  BIND (pages);
  BIND (search_entry);
  BIND (stack);
  BIND (spinner);
  BIND (status_page);
  BIND (list);
#undef BIND
}

static gboolean
match_item (gpointer item,
            gpointer user_data)
{
  TbMcpListing *self = user_data;

  return self->terms == NULL ||
         tb_search_terms_match (self->terms,
                                tb_search_key (item, self->search_quark, self->search_text));
}

/**
 * tb_mcp_listing_init:
 * @self: the listing of a page whose template is initialized
 * @item_type: the type of the listed items
 * @search_key_name: a name for the items' cached search key, one per page
 * @search_text: what a search finds an item by
 * @setup: the rows' setup handler of a #GtkSignalListItemFactory
 * @bind: their bind handler
 * @unbind: (nullable): their unbind handler
 * @user_data: data for the handlers
 *
 * Makes the empty store and shows it, filtered by the search, in the list.
 */
void
tb_mcp_listing_init (TbMcpListing *self,
                     GType         item_type,
                     const char   *search_key_name,
                     TbSearchText  search_text,
                     GCallback     setup,
                     GCallback     bind,
                     GCallback     unbind,
                     gpointer      user_data)
{
  self->search_quark = g_quark_from_static_string (search_key_name);
  self->search_text = search_text;
  self->store = g_list_store_new (item_type);
  self->filter = gtk_custom_filter_new (match_item, self, NULL);
  self->filtered = tb_list_view_show_filtered (self->list, G_LIST_MODEL (self->store),
                                               GTK_FILTER (self->filter), setup, bind, unbind,
                                               user_data);
  tb_list_view_follow_search (self->list, GTK_WIDGET (self->search_entry));
}

/**
 * tb_mcp_listing_dispose:
 * @self: a page's listing
 *
 * Stops the listing under way and lets go of the store; call before the
 * page's template is disposed. The store is %NULL from then on, which an
 * answer arriving late checks with tb_mcp_listing_is_gone().
 */
void
tb_mcp_listing_dispose (TbMcpListing *self)
{
  tb_mcp_listing_cancel (self);
  g_clear_object (&self->filtered);
  g_clear_object (&self->store);
}

/**
 * tb_mcp_listing_finalize:
 * @self: a page's listing
 *
 * Frees what the listing holds besides the store.
 */
void
tb_mcp_listing_finalize (TbMcpListing *self)
{
  g_clear_pointer (&self->terms, g_strfreev);
  g_clear_pointer (&self->status_text, g_free);
}

/**
 * tb_mcp_listing_search_changed:
 * @self: a page's listing
 *
 * Filters the list by what the search entry says now.
 */
void
tb_mcp_listing_search_changed (TbMcpListing *self)
{
  g_strfreev (self->terms);
  self->terms = tb_search_terms_parse (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

/**
 * tb_mcp_listing_show_status:
 * @self: a page's listing
 * @icon: the status page's icon name
 * @title: its title
 * @description: (nullable): what it says below
 *
 * Shows why nothing is listed in place of the list.
 */
void
tb_mcp_listing_show_status (TbMcpListing *self,
                            const char   *icon,
                            const char   *title,
                            const char   *description)
{
  gtk_spinner_stop (self->spinner);
  tb_status_page_set_text (self->status_page, icon, title, description);
  g_free (self->status_text);
  self->status_text = g_strdup (description);
  gtk_stack_set_visible_child_name (self->stack, "status");
}

/**
 * tb_mcp_listing_show_empty:
 * @self: a page's listing
 * @icon: the status page's icon name
 * @title: its title
 * @description: (nullable): what it says below
 *
 * Empties the list and says why, as tb_mcp_listing_show_status().
 */
void
tb_mcp_listing_show_empty (TbMcpListing *self,
                           const char   *icon,
                           const char   *title,
                           const char   *description)
{
  g_list_store_remove_all (self->store);
  tb_mcp_listing_show_status (self, icon, title, description);
}

/**
 * tb_mcp_listing_show_list:
 * @self: a page's listing, with items
 * @no_match_title: the status title when the search matches none of them
 * @no_match_text: what the status page says then
 *
 * Shows the list, or that the search matches nothing in it.
 */
void
tb_mcp_listing_show_list (TbMcpListing *self,
                          const char   *no_match_title,
                          const char   *no_match_text)
{
  if (g_list_model_get_n_items (G_LIST_MODEL (self->filtered)) == 0)
    tb_mcp_listing_show_status (self, "edit-find-symbolic", no_match_title, no_match_text);
  else
    gtk_stack_set_visible_child_name (self->stack, "list");
}

/**
 * tb_mcp_listing_cancel:
 * @self: a page's listing
 *
 * Stops waiting for the listing under way, if any.
 */
void
tb_mcp_listing_cancel (TbMcpListing *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
}

/**
 * tb_mcp_listing_can_list:
 * @self: a page's listing
 * @client: the page's client
 * @capability: the server capability the page lists
 * @icon: the status page's icon name when the server does not offer it
 * @not_running_text: what the status page says when the server is not
 *   running and gave no reason
 * @none_title: the status title when the server does not offer @capability
 * @none_text: what the status page says then
 *
 * Returns: whether the server can be asked for the list; if not, the list
 *   is emptied and the status page says why
 */
gboolean
tb_mcp_listing_can_list (TbMcpListing *self,
                         TbMcpClient  *client,
                         const char   *capability,
                         const char   *icon,
                         const char   *not_running_text,
                         const char   *none_title,
                         const char   *none_text)
{
  if (tb_mcp_client_get_state (client) != TB_MCP_CLIENT_STATE_CONNECTED)
    {
      const char *why = tb_mcp_client_get_error (client);

      tb_mcp_listing_show_empty (self, "network-offline-symbolic", _("The Server Is Not Running"),
                                 why != NULL ? why : not_running_text);
      return FALSE;
    }
  if (!tb_mcp_client_has_capability (client, capability, NULL))
    {
      tb_mcp_listing_show_empty (self, icon, none_title, none_text);
      return FALSE;
    }
  return TRUE;
}

/**
 * tb_mcp_listing_start:
 * @self: a page's listing
 *
 * Shows the spinner while the server is asked for the list.
 *
 * Returns: (transfer none): the cancellable of the requests, cancelled by
 *   the next listing or when the page goes
 */
GCancellable *
tb_mcp_listing_start (TbMcpListing *self)
{
  tb_mcp_listing_cancel (self);
  self->cancellable = g_cancellable_new ();
  gtk_spinner_start (self->spinner);
  gtk_stack_set_visible_child_name (self->stack, "loading");
  return self->cancellable;
}

/**
 * tb_mcp_listing_is_gone:
 * @self: a page's listing
 * @error: (nullable): the error of a listing's answer
 *
 * Returns: whether the answer is no longer wanted: it was cancelled, or
 *   the page is gone
 */
gboolean
tb_mcp_listing_is_gone (TbMcpListing *self,
                        GError       *error)
{
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->store == NULL;
}

/**
 * tb_mcp_listing_back:
 * @self: a page's listing
 *
 * Goes back from an item's form to the list, if the form shows.
 */
void
tb_mcp_listing_back (TbMcpListing *self)
{
  if (!g_str_equal (gtk_stack_get_visible_child_name (self->pages), "browse"))
    {
      gtk_stack_set_visible_child_name (self->pages, "browse");
      gtk_widget_grab_focus (GTK_WIDGET (self->list));
    }
}

/**
 * tb_mcp_listing_get_state:
 * @self: a page's listing
 *
 * Returns: what shows: "loading", "status" or "list"
 */
const char *
tb_mcp_listing_get_state (TbMcpListing *self)
{
  return gtk_stack_get_visible_child_name (self->stack);
}

/**
 * tb_mcp_listing_get_status_title:
 * @self: a page's listing
 *
 * Returns: the status page's title
 */
const char *
tb_mcp_listing_get_status_title (TbMcpListing *self)
{
  return adw_status_page_get_title (self->status_page);
}

/**
 * tb_mcp_listing_get_n_rows:
 * @self: a page's listing
 *
 * Returns: how many items the search lets through
 */
guint
tb_mcp_listing_get_n_rows (TbMcpListing *self)
{
  return g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
}

/**
 * tb_mcp_listing_get_row:
 * @self: a page's listing
 * @position: a row of the list as searched
 *
 * Returns: (transfer full) (nullable): its item
 */
gpointer
tb_mcp_listing_get_row (TbMcpListing *self,
                        guint         position)
{
  return g_list_model_get_item (G_LIST_MODEL (self->filtered), position);
}
