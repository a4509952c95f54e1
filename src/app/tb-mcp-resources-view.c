/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp-resources-view"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "tb-app-util.h"
#include "tb-mcp-listing.h"
#include "tb-mcp-resource-row.h"
#include "tb-mcp-resources-view-private.h"

/* The Resources page of a server's window: the resources and resource
 * templates the server lists (every page of both), searched as the tool
 * list is, listed again when the server says they changed. A resource
 * opens in a resource window; a template opens a form of its variables,
 * whose Open fills the template in and reads what it names. Where the
 * server lets clients subscribe, a resource's toggle subscribes to it:
 * an update re-reads its open window and marks its row. The page lists
 * nothing until it is first shown, so that opening the window sends no
 * request the person did not ask for. */

struct _TbMcpResourcesView
{
  TbMcpClientView     parent_instance;

  TbMcpListing        listing;
  GtkLabel           *message;
  GtkLabel           *template_title;
  GtkLabel           *template_uri;
  GtkLabel           *template_description;
  GtkBox             *fields;
  GtkLabel           *template_message;
  GtkButton          *open_button;

  TbMcpClient        *client;       /* the view's, not owned here */
  guint               waiting;
  GPtrArray          *new_resources;
  GPtrArray          *new_templates;
  char               *resources_error;
  char               *templates_error;
  GHashTable         *subscribed;   /* URIs */
  GHashTable         *updated;      /* URIs */
  GHashTable         *windows;      /* URI → TbResourceWindow, while open */
  TbMcpResource      *template;
  gboolean            binding;
};

G_DEFINE_FINAL_TYPE (TbMcpResourcesView, tb_mcp_resources_view, TB_TYPE_MCP_CLIENT_VIEW)

/* ---- search ---------------------------------------------------------------- */

static char *
search_text (gpointer item)
{
  TbMcpResource *resource = item;
  const char *uri = tb_mcp_resource_is_template (resource)
                    ? tb_mcp_resource_get_uri_template (resource)
                    : tb_mcp_resource_get_uri (resource);

  return g_strjoin ("\n", tb_mcp_resource_get_name (resource),
                    tb_mcp_resource_get_title (resource) ?: "", uri ?: "",
                    tb_mcp_resource_get_description (resource) ?: "", NULL);
}

static void update_state (TbMcpResourcesView *self);

static void
on_search_changed (TbMcpResourcesView *self)
{
  tb_mcp_listing_search_changed (&self->listing);
  update_state (self);
}

/* ---- what the page shows --------------------------------------------------- */

/* The list, or why it is empty, once the listing is in. */
static void
update_state (TbMcpResourcesView *self)
{
  if (!tb_mcp_client_view_get_loaded (TB_MCP_CLIENT_VIEW (self)) || self->waiting > 0
      || self->resources_error != NULL)
    return;
  if (g_list_model_get_n_items (G_LIST_MODEL (self->listing.store)) == 0)
    tb_mcp_listing_show_status (&self->listing, "folder-documents-symbolic", _("No Resources"),
                                _("The server lists no resources and no resource templates."));
  else
    tb_mcp_listing_show_list (&self->listing, _("No Matching Resources"),
                              _("No name, title, URI or description contains what you "
                                "searched for."));
}

static char *
describe_details (TbMcpResourcesView *self,
                  TbMcpResource      *resource)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  const char *uri = tb_mcp_resource_get_uri (resource);

  if (tb_mcp_resource_is_template (resource))
    g_ptr_array_add (parts, g_strdup (_("Template")));
  if (tb_mcp_resource_get_mime_type (resource) != NULL)
    g_ptr_array_add (parts, g_strdup (tb_mcp_resource_get_mime_type (resource)));
  if (tb_mcp_resource_get_size (resource) >= 0)
    g_ptr_array_add (parts, g_format_size (tb_mcp_resource_get_size (resource)));
  if (uri != NULL && g_hash_table_contains (self->updated, uri))
    g_ptr_array_add (parts, g_strdup (_("Updated")));
  g_ptr_array_add (parts, NULL);
  /* Translators: the separator between a resource's details */
  return g_strjoinv (_(" · "), (char **) parts->pdata);
}

static const char *
shown_uri (TbMcpResource *resource)
{
  return tb_mcp_resource_is_template (resource) ? tb_mcp_resource_get_uri_template (resource)
                                                : tb_mcp_resource_get_uri (resource);
}

static char *
describe_title (TbMcpResource *resource)
{
  return g_strdup (tb_mcp_resource_get_title (resource) != NULL
                   ? tb_mcp_resource_get_title (resource)
                   : tb_mcp_resource_get_name (resource));
}

/* ---- rows -------------------------------------------------------------------- */

static void
subscribe_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(TbMcpResourcesView) self = user_data;
  g_autoptr(GError) error = NULL;

  if (tb_mcp_client_subscribe_resource_finish (TB_MCP_CLIENT (object), result, &error))
    return;
  if (tb_mcp_listing_is_gone (&self->listing, error))
    return;
  tb_label_set_status (self->message, error->message, TRUE);
}

static guint
position_of_uri (TbMcpResourcesView *self,
                 const char         *uri)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->listing.store));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TbMcpResource) resource =
        g_list_model_get_item (G_LIST_MODEL (self->listing.store), i);

      if (!tb_mcp_resource_is_template (resource)
          && g_strcmp0 (tb_mcp_resource_get_uri (resource), uri) == 0)
        return i;
    }
  return G_MAXUINT;
}

/* The row of @uri shows its marks again. */
static void
refresh_row (TbMcpResourcesView *self,
             const char         *uri)
{
  guint position = position_of_uri (self, uri);

  if (position != G_MAXUINT)
    g_list_model_items_changed (G_LIST_MODEL (self->listing.store), position, 1, 1);
}

static void
set_subscribed (TbMcpResourcesView *self,
                const char         *uri,
                gboolean            subscribed)
{
  if (subscribed == g_hash_table_contains (self->subscribed, uri))
    return;
  if (subscribed)
    g_hash_table_add (self->subscribed, g_strdup (uri));
  else
    g_hash_table_remove (self->subscribed, uri);
  tb_label_set_status (self->message, NULL, FALSE);
  tb_mcp_client_subscribe_resource_async (self->client, uri, subscribed, NULL, subscribe_cb,
                                          g_object_ref (self));
}

/* The person flipped a row's toggle (not the page, binding the row). */
static void
on_subscribe_toggled (TbMcpResourceRow   *row,
                      GParamSpec         *pspec,
                      TbMcpResourcesView *self)
{
  TbMcpResource *resource = tb_mcp_resource_row_get_resource (row);
  const char *uri = resource != NULL ? tb_mcp_resource_get_uri (resource) : NULL;

  if (self->binding || uri == NULL)
    return;
  set_subscribed (self, uri, tb_mcp_resource_row_get_subscribed (row));
}

static void
setup_row (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           TbMcpResourcesView       *self)
{
  GtkWidget *row = tb_mcp_resource_row_new ();

  g_signal_connect (row, "notify::subscribed", G_CALLBACK (on_subscribe_toggled), self);
  gtk_list_item_set_child (item, row);
}

static void
bind_row (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          TbMcpResourcesView       *self)
{
  TbMcpResource *resource = gtk_list_item_get_item (item);
  TbMcpResourceRow *row = TB_MCP_RESOURCE_ROW (gtk_list_item_get_child (item));
  g_autofree char *title = describe_title (resource);
  g_autofree char *details = describe_details (self, resource);
  const char *uri = tb_mcp_resource_get_uri (resource);

  self->binding = TRUE;
  tb_mcp_resource_row_set_resource (row, resource);
  tb_mcp_resource_row_set_text (row, title, shown_uri (resource), details);
  tb_mcp_resource_row_set_can_subscribe (row, !tb_mcp_resource_is_template (resource)
                                              && tb_mcp_client_has_capability (self->client,
                                                                               "resources",
                                                                               "subscribe"));
  tb_mcp_resource_row_set_subscribed (row, uri != NULL
                                           && g_hash_table_contains (self->subscribed, uri));
  self->binding = FALSE;
}

static void
unbind_row (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            TbMcpResourcesView       *self)
{
  tb_mcp_resource_row_set_resource (TB_MCP_RESOURCE_ROW (gtk_list_item_get_child (item)), NULL);
}

/* ---- opening ----------------------------------------------------------------- */

static void
forget_window (gpointer  data,
               GObject  *where_the_object_was)
{
  TbMcpResourcesView *self = data;
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->windows);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (value == (gpointer) where_the_object_was)
      g_hash_table_iter_remove (&iter);
}

static void
open_uri (TbMcpResourcesView *self,
          const char         *uri)
{
  TbResourceWindow *window = g_hash_table_lookup (self->windows, uri);

  if (window == NULL)
    {
      GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

      window = tb_resource_window_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL);
      g_hash_table_insert (self->windows, g_strdup (uri), window);
      g_object_weak_ref (G_OBJECT (window), forget_window, self);
    }
  if (g_hash_table_remove (self->updated, uri))
    refresh_row (self, uri);
  tb_resource_window_read (window, self->client, uri);
  gtk_window_present (GTK_WINDOW (window));
}

static JsonObject *
template_context (gpointer user_data)
{
  TbMcpResourcesView *self = user_data;
  JsonObject *context = json_object_new ();

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->fields));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      TbMcpArgumentEntry *entry = TB_MCP_ARGUMENT_ENTRY (child);
      const char *text = tb_mcp_argument_entry_get_text (entry);

      if (*text != '\0')
        json_object_set_string_member (context, tb_mcp_argument_entry_get_argument (entry), text);
    }
  return context;
}

static void
show_template (TbMcpResourcesView *self,
               TbMcpResource      *resource)
{
  g_auto(GStrv) variables = tb_mcp_resource_get_variables (resource);
  g_autofree char *title = describe_title (resource);
  const char *description = tb_mcp_resource_get_description (resource);
  GtkWidget *child;
  GtkWidget *first = NULL;

  g_set_object (&self->template, resource);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->fields))) != NULL)
    gtk_box_remove (self->fields, child);
  tb_label_set_outside_text (self->template_title, title);
  tb_label_set_outside_text (self->template_uri, tb_mcp_resource_get_uri_template (resource));
  tb_label_set_outside_text (self->template_description, description);
  gtk_widget_set_visible (GTK_WIDGET (self->template_description),
                          description != NULL && *description != '\0');
  tb_label_set_status (self->template_message, NULL, TRUE);

  for (guint i = 0; variables != NULL && variables[i] != NULL; i++)
    {
      GtkWidget *entry =
        tb_mcp_argument_entry_new (self->client, TB_MCP_COMPLETION_RESOURCE_TEMPLATE,
                                   tb_mcp_resource_get_uri_template (resource), variables[i],
                                   NULL, TRUE);

      tb_mcp_argument_entry_set_context_func (TB_MCP_ARGUMENT_ENTRY (entry), template_context,
                                              self);
      tb_mcp_argument_entry_set_activate_action (TB_MCP_ARGUMENT_ENTRY (entry),
                                                 "resources.open-template");
      gtk_box_append (self->fields, entry);
      if (first == NULL)
        first = entry;
    }
  if (first == NULL)
    tb_label_set_status (self->template_message,
                         _("This template has no variables: Open reads it as it is."), FALSE);
  gtk_stack_set_visible_child_name (self->listing.pages, "template");
  if (first != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (tb_mcp_argument_entry_get_editable (
                                         TB_MCP_ARGUMENT_ENTRY (first))));
}

static void
activate_item (TbMcpResourcesView *self,
               TbMcpResource      *resource)
{
  if (tb_mcp_resource_is_template (resource))
    show_template (self, resource);
  else
    open_uri (self, tb_mcp_resource_get_uri (resource));
}

static void
on_activate (TbMcpResourcesView *self,
             guint               position)
{
  g_autoptr(TbMcpResource) resource = tb_mcp_listing_get_row (&self->listing, position);

  if (resource != NULL)
    activate_item (self, resource);
}

/* Enter in the search opens the first match. */
static void
on_search_activate (TbMcpResourcesView *self)
{
  if (tb_mcp_listing_get_n_rows (&self->listing) > 0)
    on_activate (self, 0);
}

/* Open: every variable filled in, the template expanded by the engine and
 * the result read; an empty variable is named and nothing is sent. */
static void
open_template_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  TbMcpResourcesView *self = TB_MCP_RESOURCES_VIEW (widget);
  g_autoptr(JsonObject) values = json_object_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *uri = NULL;

  if (self->template == NULL
      || !g_str_equal (gtk_stack_get_visible_child_name (self->listing.pages), "template"))
    return;
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->fields));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      TbMcpArgumentEntry *entry = TB_MCP_ARGUMENT_ENTRY (child);
      const char *text = tb_mcp_argument_entry_get_text (entry);

      if (*text == '\0')
        {
          g_autofree char *message =
            /* Translators: %s is a variable of a resource template */
            g_strdup_printf (_("Fill in “%s”: the template needs every variable."),
                             tb_mcp_argument_entry_get_argument (entry));

          tb_label_set_status (self->template_message, message, TRUE);
          gtk_widget_grab_focus (GTK_WIDGET (tb_mcp_argument_entry_get_editable (entry)));
          return;
        }
      json_object_set_string_member (values, tb_mcp_argument_entry_get_argument (entry), text);
    }
  uri = tb_mcp_resource_expand (self->template, values, &error);
  if (uri == NULL)
    {
      tb_label_set_status (self->template_message, error->message, TRUE);
      return;
    }
  tb_label_set_status (self->template_message, NULL, TRUE);
  open_uri (self, uri);
}

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  tb_mcp_listing_back (&TB_MCP_RESOURCES_VIEW (widget)->listing);
}

/* ---- listing ----------------------------------------------------------------- */

static void
finish_listing (TbMcpResourcesView *self)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new ();

  gtk_spinner_stop (self->listing.spinner);
  if (self->resources_error != NULL)
    {
      tb_mcp_listing_show_empty (&self->listing, "dialog-error-symbolic",
                                 _("Could Not List the Resources"), self->resources_error);
      return;
    }
  if (self->new_resources != NULL)
    for (guint i = 0; i < self->new_resources->len; i++)
      g_ptr_array_add (all, self->new_resources->pdata[i]);
  if (self->new_templates != NULL)
    for (guint i = 0; i < self->new_templates->len; i++)
      g_ptr_array_add (all, self->new_templates->pdata[i]);
  /* One change for the whole list: 10,000 rows come in at once. */
  g_list_store_splice (self->listing.store, 0,
                       g_list_model_get_n_items (G_LIST_MODEL (self->listing.store)),
                       all->pdata, all->len);
  g_clear_pointer (&self->new_resources, g_ptr_array_unref);
  g_clear_pointer (&self->new_templates, g_ptr_array_unref);
  /* Servers that have resources but no templates often answer the
   * templates' listing with an error: the resources still show. */
  tb_label_set_status (self->message, self->templates_error, TRUE);
  update_state (self);
}

static void
resources_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(TbMcpResourcesView) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = NULL;

  items = tb_mcp_client_list_resources_finish (TB_MCP_CLIENT (object), result, &error);
  if (tb_mcp_listing_is_gone (&self->listing, error))
    return;
  if (items == NULL)
    self->resources_error = g_strdup (error->message);
  self->new_resources = g_steal_pointer (&items);
  if (--self->waiting == 0)
    finish_listing (self);
}

static void
templates_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(TbMcpResourcesView) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = NULL;

  items = tb_mcp_client_list_resource_templates_finish (TB_MCP_CLIENT (object), result, &error);
  if (tb_mcp_listing_is_gone (&self->listing, error))
    return;
  if (items == NULL)
    self->templates_error = g_strdup (error->message);
  self->new_templates = g_steal_pointer (&items);
  if (--self->waiting == 0)
    finish_listing (self);
}

/* Asks for the lists; the base type calls it when the page is first shown
 * and on every change after. */
static void
reload (TbMcpClientView *view)
{
  TbMcpResourcesView *self = TB_MCP_RESOURCES_VIEW (view);

  GCancellable *cancellable;

  tb_mcp_listing_cancel (&self->listing);
  g_clear_pointer (&self->new_resources, g_ptr_array_unref);
  g_clear_pointer (&self->new_templates, g_ptr_array_unref);
  g_clear_pointer (&self->resources_error, g_free);
  g_clear_pointer (&self->templates_error, g_free);
  tb_label_set_status (self->message, NULL, FALSE);
  self->waiting = 0;

  if (!tb_mcp_listing_can_list (&self->listing, self->client, "resources",
                                "folder-documents-symbolic",
                                _("Start it from its row in the preferences to list its "
                                  "resources."),
                                _("This server offers no resources"),
                                _("It did not declare the resources capability when it "
                                  "started.")))
    return;

  self->waiting = 2;
  cancellable = tb_mcp_listing_start (&self->listing);
  tb_mcp_client_list_resources_async (self->client, cancellable, resources_cb,
                                      g_object_ref (self));
  tb_mcp_client_list_resource_templates_async (self->client, cancellable, templates_cb,
                                               g_object_ref (self));
}

/* Subscriptions end with the session. */
static void
on_state_changed (TbMcpResourcesView *self)
{
  if (tb_mcp_client_get_state (self->client) != TB_MCP_CLIENT_STATE_CONNECTED)
    g_hash_table_remove_all (self->subscribed);
}

static void
on_resource_updated (TbMcpClient        *client,
                     const char         *uri,
                     TbMcpResourcesView *self)
{
  TbResourceWindow *window = g_hash_table_lookup (self->windows, uri);

  if (window != NULL)
    tb_resource_window_read (window, self->client, uri);
  g_hash_table_add (self->updated, g_strdup (uri));
  refresh_row (self, uri);
}

/* ---- the object -------------------------------------------------------------- */

static void
tb_mcp_resources_view_constructed (GObject *object)
{
  TbMcpResourcesView *self = (TbMcpResourcesView *) object;

  G_OBJECT_CLASS (tb_mcp_resources_view_parent_class)->constructed (object);

  self->client = tb_mcp_client_view_get_client (TB_MCP_CLIENT_VIEW (self));
  g_signal_connect_object (self->client, "resource-updated",
                           G_CALLBACK (on_resource_updated), self, 0);
  g_signal_connect_object (self->client, "notify::state",
                           G_CALLBACK (on_state_changed), self, G_CONNECT_SWAPPED);
}

static void
tb_mcp_resources_view_dispose (GObject *object)
{
  TbMcpResourcesView *self = (TbMcpResourcesView *) object;
  GHashTableIter iter;
  gpointer value;

  tb_mcp_listing_cancel (&self->listing);
  /* The page's subscriptions end with it: nobody would see their updates. */
  if (self->subscribed != NULL && self->client != NULL
      && tb_mcp_client_get_state (self->client) == TB_MCP_CLIENT_STATE_CONNECTED)
    {
      g_hash_table_iter_init (&iter, self->subscribed);
      while (g_hash_table_iter_next (&iter, &value, NULL))
        tb_mcp_client_subscribe_resource_async (self->client, value, FALSE, NULL, NULL, NULL);
      g_hash_table_remove_all (self->subscribed);
    }
  if (self->windows != NULL)
    {
      g_hash_table_iter_init (&iter, self->windows);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        g_object_weak_unref (value, forget_window, self);
      g_clear_pointer (&self->windows, g_hash_table_unref);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_MCP_RESOURCES_VIEW);
  tb_mcp_listing_dispose (&self->listing);
  g_clear_object (&self->template);
  self->client = NULL;

  G_OBJECT_CLASS (tb_mcp_resources_view_parent_class)->dispose (object);
}

static void
tb_mcp_resources_view_finalize (GObject *object)
{
  TbMcpResourcesView *self = (TbMcpResourcesView *) object;

  tb_mcp_listing_finalize (&self->listing);
  g_clear_pointer (&self->new_resources, g_ptr_array_unref);
  g_clear_pointer (&self->new_templates, g_ptr_array_unref);
  g_free (self->resources_error);
  g_free (self->templates_error);
  g_clear_pointer (&self->subscribed, g_hash_table_unref);
  g_clear_pointer (&self->updated, g_hash_table_unref);

  G_OBJECT_CLASS (tb_mcp_resources_view_parent_class)->finalize (object);
}

static void
tb_mcp_resources_view_class_init (TbMcpResourcesViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TbMcpClientViewClass *view_class = TB_MCP_CLIENT_VIEW_CLASS (klass);

  object_class->constructed = tb_mcp_resources_view_constructed;
  object_class->dispose = tb_mcp_resources_view_dispose;
  object_class->finalize = tb_mcp_resources_view_finalize;
  view_class->list_changed_signal = "resources-changed";
  view_class->reload = reload;

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-mcp-resources-view.ui");
  tb_mcp_listing_bind_template (widget_class, G_STRUCT_OFFSET (TbMcpResourcesView, listing));
  gtk_widget_class_bind_template_child (widget_class, TbMcpResourcesView, message);
  gtk_widget_class_bind_template_child (widget_class, TbMcpResourcesView, template_title);
  gtk_widget_class_bind_template_child (widget_class, TbMcpResourcesView, template_uri);
  gtk_widget_class_bind_template_child (widget_class, TbMcpResourcesView,
                                        template_description);
  gtk_widget_class_bind_template_child (widget_class, TbMcpResourcesView, fields);
  gtk_widget_class_bind_template_child (widget_class, TbMcpResourcesView, template_message);
  gtk_widget_class_bind_template_child (widget_class, TbMcpResourcesView, open_button);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_search_activate);

  gtk_widget_class_install_action (widget_class, "resources.open-template", NULL,
                                   open_template_action);
  gtk_widget_class_install_action (widget_class, "resources.back", NULL, back_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK,
                                       "resources.open-template", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK,
                                       "resources.back", NULL);
}

static void
tb_mcp_resources_view_init (TbMcpResourcesView *self)
{

  g_type_ensure (ADW_TYPE_STATUS_PAGE);
  gtk_widget_init_template (GTK_WIDGET (self));
  tb_button_name_by_label (self->open_button);

  self->subscribed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->updated = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->windows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  tb_mcp_listing_init (&self->listing, TB_TYPE_MCP_RESOURCE, "tb-resources-view-search-key",
                       search_text, G_CALLBACK (setup_row), G_CALLBACK (bind_row),
                       G_CALLBACK (unbind_row), self);
}

/**
 * tb_mcp_resources_view_reload:
 * @self: a Resources page
 *
 * Lists the server's resources and templates again.
 */
void
tb_mcp_resources_view_reload (TbMcpResourcesView *self)
{
  g_return_if_fail (TB_IS_MCP_RESOURCES_VIEW (self));

  tb_mcp_client_view_reload (TB_MCP_CLIENT_VIEW (self));
}

/**
 * tb_mcp_resources_view_new:
 * @client: an MCP client
 *
 * Returns: (transfer floating): the Resources page of @client's server
 */
GtkWidget *
tb_mcp_resources_view_new (TbMcpClient *client)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (client), NULL);

  return g_object_new (TB_TYPE_MCP_RESOURCES_VIEW, "client", client, NULL);
}

/* ---- for the tests ----------------------------------------------------------- */

gboolean
tb_mcp_resources_view_is_settled (TbMcpResourcesView *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCES_VIEW (self), FALSE);
  return tb_mcp_client_view_get_loaded (TB_MCP_CLIENT_VIEW (self)) && self->waiting == 0;
}

const char *
tb_mcp_resources_view_get_state (TbMcpResourcesView *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCES_VIEW (self), NULL);
  return tb_mcp_listing_get_state (&self->listing);
}

const char *
tb_mcp_resources_view_get_status_title (TbMcpResourcesView *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCES_VIEW (self), NULL);
  return tb_mcp_listing_get_status_title (&self->listing);
}

const char *
tb_mcp_resources_view_get_status_text (TbMcpResourcesView *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCES_VIEW (self), NULL);
  return self->listing.status_text;
}

const char *
tb_mcp_resources_view_get_message (TbMcpResourcesView *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCES_VIEW (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->message))
         ? gtk_label_get_text (self->message) : NULL;
}

GtkEditable *
tb_mcp_resources_view_get_search_entry (TbMcpResourcesView *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCES_VIEW (self), NULL);
  return GTK_EDITABLE (self->listing.search_entry);
}

guint
tb_mcp_resources_view_get_n_rows (TbMcpResourcesView *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCES_VIEW (self), 0);
  return tb_mcp_listing_get_n_rows (&self->listing);
}

/**
 * tb_mcp_resources_view_get_row_text:
 *
 * Returns: (transfer full) (nullable): a row's title, URI and details, a
 *   line each
 */
char *
tb_mcp_resources_view_get_row_text (TbMcpResourcesView *self,
                                    guint               position)
{
  g_autoptr(TbMcpResource) resource = NULL;
  g_autofree char *title = NULL;
  g_autofree char *details = NULL;

  g_return_val_if_fail (TB_IS_MCP_RESOURCES_VIEW (self), NULL);

  resource = tb_mcp_listing_get_row (&self->listing, position);
  if (resource == NULL)
    return NULL;
  title = describe_title (resource);
  details = describe_details (self, resource);
  return g_strdup_printf ("%s\n%s\n%s", title, shown_uri (resource), details);
}

gint
tb_mcp_resources_view_find_row (TbMcpResourcesView *self,
                                const char         *uri)
{
  guint n;

  g_return_val_if_fail (TB_IS_MCP_RESOURCES_VIEW (self), -1);

  n = tb_mcp_listing_get_n_rows (&self->listing);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TbMcpResource) resource = tb_mcp_listing_get_row (&self->listing, i);

      if (g_strcmp0 (shown_uri (resource), uri) == 0)
        return i;
    }
  return -1;
}

void
tb_mcp_resources_view_activate_row (TbMcpResourcesView *self,
                                    guint               position)
{
  g_return_if_fail (TB_IS_MCP_RESOURCES_VIEW (self));
  on_activate (self, position);
}

void
tb_mcp_resources_view_set_subscribed (TbMcpResourcesView *self,
                                      guint               position,
                                      gboolean            subscribed)
{
  g_autoptr(TbMcpResource) resource = NULL;

  g_return_if_fail (TB_IS_MCP_RESOURCES_VIEW (self));

  resource = tb_mcp_listing_get_row (&self->listing, position);
  g_return_if_fail (resource != NULL && !tb_mcp_resource_is_template (resource));
  set_subscribed (self, tb_mcp_resource_get_uri (resource), subscribed);
  refresh_row (self, tb_mcp_resource_get_uri (resource));
}

TbResourceWindow *
tb_mcp_resources_view_get_window (TbMcpResourcesView *self,
                                  const char         *uri)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCES_VIEW (self), NULL);
  return g_hash_table_lookup (self->windows, uri);
}

const char *
tb_mcp_resources_view_get_page (TbMcpResourcesView *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCES_VIEW (self), NULL);
  return gtk_stack_get_visible_child_name (self->listing.pages);
}

guint
tb_mcp_resources_view_get_n_fields (TbMcpResourcesView *self)
{
  guint n = 0;

  g_return_val_if_fail (TB_IS_MCP_RESOURCES_VIEW (self), 0);
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->fields));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    n++;
  return n;
}

TbMcpArgumentEntry *
tb_mcp_resources_view_get_field (TbMcpResourcesView *self,
                                 guint               position)
{
  GtkWidget *child;

  g_return_val_if_fail (TB_IS_MCP_RESOURCES_VIEW (self), NULL);
  child = gtk_widget_get_first_child (GTK_WIDGET (self->fields));
  for (guint i = 0; child != NULL && i < position; i++)
    child = gtk_widget_get_next_sibling (child);
  return child != NULL ? TB_MCP_ARGUMENT_ENTRY (child) : NULL;
}

const char *
tb_mcp_resources_view_get_template_message (TbMcpResourcesView *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCES_VIEW (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->template_message))
         ? gtk_label_get_text (self->template_message) : NULL;
}
