/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp-wire-view"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tb-app-util.h"
#include "tb-mcp-wire-row.h"
#include "tb-mcp-wire-view-private.h"

/* A server's Messages page: the client's protocol view as a list that
 * grows as messages come (time, direction, method or result, id, size),
 * filtered by direction and method and searched in the JSON; the selected
 * message whole, pretty-printed, and over HTTP the exchange that carried
 * it with its status and masked headers; Copy and Export.
 *
 * A server may send thousands of messages a second: they are gathered and
 * added in one change every FLUSH_MS, and the list keeps what the
 * client's history keeps, so its bounds are the view's too. */

#define FLUSH_MS 100

/* The most of a message the detail view shows: a text view lays out a
 * long line slowly, and a person reads the start. Copy copies all of it. */
#define DETAIL_MAX (64 * 1024)

struct _TbMcpWireView
{
  TbMcpClientView     parent_instance;

  GtkSearchEntry     *search_entry;
  GtkDropDown        *direction_filter;
  GtkDropDown        *method_filter;
  GtkStack           *list_stack;
  GtkScrolledWindow  *list_scroller;
  GtkListView        *list_view;
  GtkLabel           *note_label;
  GtkTextView        *detail;
  GtkExpander        *http_expander;
  GtkLabel           *http_label;
  GtkLabel           *status_label;

  TbMcpClient        *client;       /* the view's, not owned here */
  GListStore         *records;
  GtkCustomFilter    *filter;
  GtkFilterListModel *filtered;
  GtkSingleSelection *selection;
  GtkStringList      *methods;
  GHashTable         *methods_seen;
  GPtrArray          *pending;
  guint               flush_id;
  TbMcpWireRecord    *shown;
  gboolean            shown_has_http;
  TbRedactor         *redactor;
};

G_DEFINE_FINAL_TYPE (TbMcpWireView, tb_mcp_wire_view, TB_TYPE_MCP_CLIENT_VIEW)

enum { DIRECTION_ALL, DIRECTION_SENT, DIRECTION_RECEIVED };

/* Filtering. */

/* Whether @haystack holds @needle, ASCII letters in any case: JSON is
 * searched as it is, without folding megabytes for every key typed. */
static gboolean
contains_folded (const char *haystack,
                 const char *needle)
{
  gsize n = strlen (needle);

  if (haystack == NULL)
    return FALSE;
  for (const char *p = haystack; *p != '\0'; p++)
    if (g_ascii_tolower (*p) == g_ascii_tolower (*needle) && g_ascii_strncasecmp (p, needle, n) == 0)
      return TRUE;
  return FALSE;
}

static const char *
selected_method (TbMcpWireView *self)
{
  guint selected = gtk_drop_down_get_selected (self->method_filter);

  if (selected == 0 || selected == GTK_INVALID_LIST_POSITION)
    return NULL;
  return gtk_string_list_get_string (self->methods, selected);
}

static gboolean
filter_record (gpointer item,
               gpointer user_data)
{
  TbMcpWireView *self = user_data;
  TbMcpWireRecord *record = item;
  guint direction = gtk_drop_down_get_selected (self->direction_filter);
  const char *method = selected_method (self);
  const char *search = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  if (direction == DIRECTION_SENT &&
      tb_mcp_wire_record_get_direction (record) != TB_MCP_WIRE_DIRECTION_SENT)
    return FALSE;
  if (direction == DIRECTION_RECEIVED &&
      tb_mcp_wire_record_get_direction (record) != TB_MCP_WIRE_DIRECTION_RECEIVED)
    return FALSE;
  if (method != NULL && g_strcmp0 (tb_mcp_wire_record_get_method (record), method) != 0)
    return FALSE;
  if (*search != '\0' &&
      !contains_folded (tb_mcp_wire_record_get_text (record), search) &&
      !contains_folded (tb_mcp_wire_record_get_method (record), search))
    return FALSE;
  return TRUE;
}

static void
on_filter_changed (TbMcpWireView *self)
{
  /* The drop-downs are filled after the template is built. */
  if (self->filter == NULL)
    return;
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

/* The detail. */

static TbMcpWireRecord *
find_exchange (TbMcpWireView *self,
               guint          exchange)
{
  GListModel *history = tb_mcp_client_get_wire_history (self->client);

  for (guint i = g_list_model_get_n_items (history); i > 0; i--)
    {
      g_autoptr(TbMcpWireRecord) record = g_list_model_get_item (history, i - 1);

      if (tb_mcp_wire_record_get_kind (record) == TB_MCP_WIRE_KIND_HTTP &&
          tb_mcp_wire_record_get_exchange (record) == exchange)
        return g_steal_pointer (&record);
    }
  return NULL;
}

static void
append_headers (GString    *text,
                JsonObject *http,
                const char *member)
{
  JsonArray *headers = tb_json_object_get_array (http, member);

  for (guint i = 0; headers != NULL && i < json_array_get_length (headers); i++)
    {
      JsonNode *pair = json_array_get_element (headers, i);
      JsonArray *array = JSON_NODE_HOLDS_ARRAY (pair) ? json_node_get_array (pair) : NULL;

      if (array == NULL || json_array_get_length (array) != 2)
        continue;
      g_string_append_printf (text, "%s: %s\n", json_array_get_string_element (array, 0),
                              json_array_get_string_element (array, 1));
    }
}

static char *
describe_exchange (TbMcpWireRecord *exchange)
{
  JsonObject *http = tb_mcp_wire_record_get_http (exchange);
  GString *text = g_string_new (NULL);
  g_autofree char *escaped = NULL;

  g_string_append_printf (text, "%s\n", tb_json_object_get_string (http, "request_line") ?: "");
  append_headers (text, http, "request_headers");
  g_string_append_c (text, '\n');
  if (tb_json_object_get_string (http, "status_line") != NULL)
    {
      g_string_append_printf (text, "%s\n", tb_json_object_get_string (http, "status_line"));
      append_headers (text, http, "response_headers");
    }
  else
    {
      /* Translators: why an HTTP request got no answer */
      g_string_append_printf (text, _("No answer: %s"),
                              tb_json_object_get_string (http, "error") ?: "");
    }
  escaped = tb_text_escape_controls (text->str, -1);
  g_string_free (text, TRUE);
  return g_strchomp (g_steal_pointer (&escaped));
}

/* What Copy copies and the detail shows: the message pretty-printed when
 * it is whole JSON, else the text kept. */
static char *
record_text (TbMcpWireRecord *record)
{
  g_autoptr(JsonNode) message = tb_mcp_wire_record_dup_message (record);

  if (message != NULL)
    return tb_json_to_string (message, TRUE);
  return g_strdup (tb_mcp_wire_record_get_text (record) ?: "");
}

static void
show_detail (TbMcpWireView   *self,
             TbMcpWireRecord *record)
{
  g_autoptr(GString) note = g_string_new (NULL);
  g_autoptr(TbMcpWireRecord) exchange = NULL;
  g_autofree char *text = NULL;
  g_autofree char *preview = NULL;
  g_autofree char *shown = NULL;
  gboolean cut = FALSE;
  gboolean broken = FALSE;
  gboolean whole;

  g_set_object (&self->shown, record);
  self->shown_has_http = FALSE;
  if (record == NULL)
    {
      gtk_label_set_label (self->note_label, _("Select a message to see it whole."));
      gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->detail), "", -1);
      gtk_widget_set_visible (GTK_WIDGET (self->http_expander), FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "wire.copy", FALSE);
      return;
    }

  {
    g_autofree char *sentence = tb_mcp_wire_row_describe (record);

    g_string_append_printf (note, "%s.", sentence);
  }
  if (tb_mcp_wire_record_get_call_id (record) != NULL)
    {
      g_autofree char *call = tb_text_escape_controls (tb_mcp_wire_record_get_call_id (record),
                                                       -1);

      g_string_append_c (note, ' ');
      /* Translators: the id of a tool call */
      g_string_append_printf (note, _("Caused by the tool call %s."), call);
    }
  if (tb_mcp_wire_record_get_problem (record) != NULL)
    {
      g_autofree char *problem = tb_text_escape_controls (tb_mcp_wire_record_get_problem (record),
                                                          -1);

      g_string_append_c (note, '\n');
      /* Translators: why a message is not a JSON-RPC message */
      g_string_append_printf (note, _("Not a JSON-RPC message: %s"), problem);
    }
  else if (tb_mcp_wire_record_get_truncated (record))
    {
      g_autofree char *kept = g_format_size (TB_MCP_WIRE_MAX_TEXT);
      g_autofree char *size = g_format_size (tb_mcp_wire_record_get_size (record));

      g_string_append_c (note, '\n');
      /* Translators: 256 kB, then the size of the whole message */
      g_string_append_printf (note, _("Only the first %s of this %s message are kept, as text."),
                              kept, size);
    }

  text = record_text (record);
  whole = !tb_mcp_wire_record_get_truncated (record) &&
          tb_mcp_wire_record_get_kind (record) != TB_MCP_WIRE_KIND_INVALID;
  preview = tb_text_preview (text, DETAIL_MAX, &cut);
  shown = tb_text_break_long_lines (preview, &broken);
  if (broken)
    {
      g_string_append_c (note, '\n');
      g_string_append (note, _("Long lines are broken here to be shown; Copy copies the message "
                               "as it is."));
    }
  if (cut)
    {
      g_autofree char *limit = g_format_size (DETAIL_MAX);

      g_string_append_c (note, '\n');
      /* Translators: a size such as 65.5 kB */
      g_string_append_printf (note, _("The first %s are shown here; Copy copies all of it."),
                              limit);
    }
  gtk_label_set_label (self->note_label, note->str);
  /* Highlighting a long line of cut JSON costs seconds and shows nothing. */
  tb_source_view_set_language (GTK_SOURCE_VIEW (self->detail),
                               whole && !broken ? "json" : NULL);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->detail), shown, -1);

  if (tb_mcp_wire_record_get_exchange (record) != 0)
    exchange = find_exchange (self, tb_mcp_wire_record_get_exchange (record));
  if (exchange != NULL)
    {
      g_autofree char *http = describe_exchange (exchange);

      gtk_label_set_label (self->http_label, http);
      self->shown_has_http = TRUE;
    }
  gtk_widget_set_visible (GTK_WIDGET (self->http_expander), exchange != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "wire.copy", TRUE);
}

static void
on_selected (TbMcpWireView *self)
{
  show_detail (self, gtk_single_selection_get_selected_item (self->selection));
}

/* Growing. */

static void
update_empty (TbMcpWireView *self)
{
  gtk_stack_set_visible_child_name (self->list_stack,
                                    g_list_model_get_n_items (G_LIST_MODEL (self->records)) > 0
                                    ? "list" : "empty");
}

static gboolean
at_bottom (TbMcpWireView *self)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->list_scroller);

  return gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment)
         >= gtk_adjustment_get_upper (adjustment) - 1;
}

static gboolean
flush_cb (gpointer user_data)
{
  TbMcpWireView *self = user_data;
  GListModel *history = tb_mcp_client_get_wire_history (self->client);
  GListModel *store = G_LIST_MODEL (self->records);
  g_autoptr(GPtrArray) added = g_ptr_array_new ();
  g_autoptr(GPtrArray) pending = g_steal_pointer (&self->pending);
  g_autoptr(TbMcpWireRecord) oldest = NULL;
  guint64 first = G_MAXUINT64;
  guint drop = 0;
  guint n;
  gboolean follow = at_bottom (self);

  self->flush_id = 0;
  self->pending = g_ptr_array_new_with_free_func (g_object_unref);

  /* What the history no longer has leaves the list too. */
  if (g_list_model_get_n_items (history) > 0)
    {
      oldest = g_list_model_get_item (history, 0);
      first = tb_mcp_wire_record_get_seq (oldest);
    }
  n = g_list_model_get_n_items (store);
  while (drop < n)
    {
      g_autoptr(TbMcpWireRecord) record = g_list_model_get_item (store, drop);

      if (tb_mcp_wire_record_get_seq (record) >= first)
        break;
      drop++;
    }
  if (drop > 0)
    g_list_store_splice (self->records, 0, drop, NULL, 0);

  for (guint i = 0; pending != NULL && i < pending->len; i++)
    {
      TbMcpWireRecord *record = g_ptr_array_index (pending, i);
      const char *method = tb_mcp_wire_record_get_method (record);

      if (tb_mcp_wire_record_get_kind (record) == TB_MCP_WIRE_KIND_HTTP ||
          tb_mcp_wire_record_get_seq (record) < first)
        continue;
      g_ptr_array_add (added, record);
      if (method != NULL && !g_hash_table_contains (self->methods_seen, method))
        {
          g_autofree char *escaped = tb_text_escape_controls (method, -1);

          g_hash_table_add (self->methods_seen, g_strdup (method));
          /* A method with control characters cannot be chosen by name. */
          if (g_str_equal (escaped, method))
            gtk_string_list_append (self->methods, method);
        }
    }
  if (added->len > 0)
    g_list_store_splice (self->records, g_list_model_get_n_items (store), 0, added->pdata,
                         added->len);

  update_empty (self);
  /* An HTTP message's exchange is answered after it was sent. */
  if (self->shown != NULL && !self->shown_has_http &&
      tb_mcp_wire_record_get_exchange (self->shown) != 0)
    {
      g_autoptr(TbMcpWireRecord) again = g_object_ref (self->shown);

      show_detail (self, again);
    }
  if (follow && added->len > 0 && gtk_single_selection_get_selected (self->selection) ==
                                  GTK_INVALID_LIST_POSITION)
    {
      guint rows = g_list_model_get_n_items (G_LIST_MODEL (self->filtered));

      if (rows > 0)
        gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u",
                                    rows - 1);
    }
  return G_SOURCE_REMOVE;
}

static void
on_record (TbMcpClient     *client,
           TbMcpWireRecord *record,
           TbMcpWireView   *self)
{
  g_ptr_array_add (self->pending, g_object_ref (record));
  if (self->flush_id == 0)
    self->flush_id = g_timeout_add (FLUSH_MS, flush_cb, self);
}

/* Actions. */

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TbMcpWireView *self = TB_MCP_WIRE_VIEW (widget);
  g_autofree char *text = tb_mcp_wire_view_dup_copy_text (self);

  if (text == NULL)
    return;
  tb_copy_text (widget, text);
  tb_label_set_status (self->status_label, _("The message is on the clipboard."), FALSE);
}

static void
export_response (GtkNativeDialog *dialog,
                 int              response,
                 TbMcpWireView   *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GError) error = NULL;

      if (!tb_mcp_wire_view_export_to (self, file, &error))
        tb_label_set_status (self->status_label, error->message, TRUE);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  TbMcpWireView *self = TB_MCP_WIRE_VIEW (widget);
  GtkFileChooserNative *chooser;
  GtkFileFilter *filter = gtk_file_filter_new ();
  g_autofree char *name = g_strdup_printf ("%s-messages.jsonl",
                                           tb_mcp_client_get_name (self->client));

  chooser = tb_file_chooser_new (widget, _("Export Messages"), GTK_FILE_CHOOSER_ACTION_SAVE,
                                 _("_Export"));
  gtk_file_filter_set_name (filter, _("JSON Lines (*.jsonl)"));
  gtk_file_filter_add_pattern (filter, "*.jsonl");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_object_unref (filter);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  g_signal_connect (chooser, "response", G_CALLBACK (export_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  gtk_widget_grab_focus (GTK_WIDGET (TB_MCP_WIRE_VIEW (widget)->search_entry));
}

/* The widget. */

static void
tb_mcp_wire_view_constructed (GObject *object)
{
  TbMcpWireView *self = (TbMcpWireView *) object;
  GListModel *history;
  g_autofree char *name = NULL;

  G_OBJECT_CLASS (tb_mcp_wire_view_parent_class)->constructed (object);

  self->client = tb_mcp_client_view_get_client (TB_MCP_CLIENT_VIEW (self));

  /* Translators: %s is the name the person gave the MCP server. */
  name = g_strdup_printf (_("Messages of the MCP server “%s”"),
                          tb_mcp_client_get_name (self->client));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list_view),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, name, -1);

  history = tb_mcp_client_get_wire_history (self->client);
  for (guint i = 0; i < g_list_model_get_n_items (history); i++)
    g_ptr_array_add (self->pending, g_list_model_get_item (history, i));
  flush_cb (self);
  g_signal_connect_object (self->client, "wire-record", G_CALLBACK (on_record), self, 0);
}

static void
tb_mcp_wire_view_dispose (GObject *object)
{
  TbMcpWireView *self = (TbMcpWireView *) object;

  g_clear_handle_id (&self->flush_id, g_source_remove);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_MCP_WIRE_VIEW);
  self->client = NULL;
  g_clear_object (&self->shown);
  g_clear_object (&self->selection);
  g_clear_object (&self->filtered);
  g_clear_object (&self->filter);
  g_clear_object (&self->records);
  g_clear_object (&self->methods);
  g_clear_object (&self->redactor);
  g_clear_pointer (&self->methods_seen, g_hash_table_unref);
  g_clear_pointer (&self->pending, g_ptr_array_unref);

  G_OBJECT_CLASS (tb_mcp_wire_view_parent_class)->dispose (object);
}

static void
tb_mcp_wire_view_class_init (TbMcpWireViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = tb_mcp_wire_view_constructed;
  object_class->dispose = tb_mcp_wire_view_dispose;

  g_type_ensure (TB_TYPE_MCP_WIRE_ROW);
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-mcp-wire-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TbMcpWireView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, TbMcpWireView, direction_filter);
  gtk_widget_class_bind_template_child (widget_class, TbMcpWireView, method_filter);
  gtk_widget_class_bind_template_child (widget_class, TbMcpWireView, list_stack);
  gtk_widget_class_bind_template_child (widget_class, TbMcpWireView, list_scroller);
  gtk_widget_class_bind_template_child (widget_class, TbMcpWireView, list_view);
  gtk_widget_class_bind_template_child (widget_class, TbMcpWireView, note_label);
  gtk_widget_class_bind_template_child (widget_class, TbMcpWireView, detail);
  gtk_widget_class_bind_template_child (widget_class, TbMcpWireView, http_expander);
  gtk_widget_class_bind_template_child (widget_class, TbMcpWireView, http_label);
  gtk_widget_class_bind_template_child (widget_class, TbMcpWireView, status_label);
  gtk_widget_class_bind_template_callback (widget_class, on_filter_changed);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);

  gtk_widget_class_install_action (widget_class, "wire.copy", NULL, copy_action);
  gtk_widget_class_install_action (widget_class, "wire.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "wire.search", NULL, search_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c,
                                       GDK_CONTROL_MASK | GDK_SHIFT_MASK, "wire.copy", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK,
                                       "wire.export", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK,
                                       "wire.search", NULL);
}

static void
tb_mcp_wire_view_init (TbMcpWireView *self)
{
  static const char *directions[] = { N_("Both directions"), N_("Sent"), N_("Received") };
  g_autoptr(GtkStringList) direction_list = gtk_string_list_new (NULL);
  GtkListItemFactory *factory;

  gtk_widget_init_template (GTK_WIDGET (self));
  tb_list_view_follow_search (self->list_view, GTK_WIDGET (self->search_entry));

  for (guint i = 0; i < G_N_ELEMENTS (directions); i++)
    gtk_string_list_append (direction_list, _(directions[i]));
  gtk_drop_down_set_model (self->direction_filter, G_LIST_MODEL (direction_list));
  self->methods = gtk_string_list_new (NULL);
  gtk_string_list_append (self->methods, _("All methods"));
  gtk_drop_down_set_model (self->method_filter, G_LIST_MODEL (self->methods));
  factory = gtk_builder_list_item_factory_new_from_resource (
              NULL, "/io/github/toolbench/Toolbench/tb-mcp-wire-choice.ui");
  gtk_drop_down_set_factory (self->direction_filter, factory);
  gtk_drop_down_set_factory (self->method_filter, factory);
  g_object_unref (factory);
  tb_drop_down_name_button (self->direction_filter, _("Direction"));
  tb_drop_down_name_button (self->method_filter, _("Method"));
  self->methods_seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->pending = g_ptr_array_new_with_free_func (g_object_unref);
  self->redactor = tb_redactor_new ();

  tb_source_view_setup (GTK_SOURCE_VIEW (self->detail), "json", FALSE);
  tb_expander_keep_focus_out (self->http_expander);

  self->records = g_list_store_new (TB_TYPE_MCP_WIRE_RECORD);
  self->filter = gtk_custom_filter_new (filter_record, self, NULL);
  self->filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->records)),
                                              GTK_FILTER (g_object_ref (self->filter)));
  /* Not incremental: new rows are filtered as they come, a batch at a time,
   * and an incremental filter's idle waits behind the text views' layout
   * for as long as a flood lasts. */
  gtk_filter_list_model_set_incremental (self->filtered, FALSE);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->filtered)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected-item",
                            G_CALLBACK (on_selected), self);
  factory = gtk_builder_list_item_factory_new_from_resource (
              NULL, "/io/github/toolbench/Toolbench/tb-mcp-wire-item.ui");
  gtk_list_view_set_factory (self->list_view, factory);
  g_object_unref (factory);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "wire.copy", FALSE);
}

/**
 * tb_mcp_wire_view_new:
 * @client: an MCP client
 *
 * Returns: (transfer floating): the Messages page of @client's server
 */
GtkWidget *
tb_mcp_wire_view_new (TbMcpClient *client)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (client), NULL);

  return g_object_new (TB_TYPE_MCP_WIRE_VIEW, "client", client, NULL);
}

/**
 * tb_mcp_wire_view_export_to:
 * @self: a Messages page
 * @file: a local file to write
 * @error: return location for an error
 *
 * Writes every record the client keeps (messages and HTTP exchanges,
 * whatever the filter shows) as JSON Lines, as `toolbench-cli --wire`
 * does, and says so below the list.
 *
 * Returns: whether the file was written
 */
gboolean
tb_mcp_wire_view_export_to (TbMcpWireView  *self,
                            GFile          *file,
                            GError        **error)
{
  g_autoptr(TbMcpWireWriter) writer = NULL;
  g_autofree char *said = NULL;
  GListModel *history;
  const char *path;

  g_return_val_if_fail (TB_IS_MCP_WIRE_VIEW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  path = g_file_peek_path (file);
  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (file);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("Cannot write the protocol log “%s”: only files on this computer can be "
                     "written"), uri);
      return FALSE;
    }
  history = tb_mcp_client_get_wire_history (self->client);
  writer = tb_mcp_wire_writer_new_for_path (path, error);
  if (writer == NULL)
    return FALSE;
  tb_mcp_wire_writer_set_redactor (writer, self->redactor);
  if (!tb_mcp_wire_writer_write_all (writer, history, error) ||
      !tb_mcp_wire_writer_close (writer, error))
    return FALSE;

  said = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Exported %u record to “%s”.",
                                       "Exported %u records to “%s”.",
                                       g_list_model_get_n_items (history)),
                          g_list_model_get_n_items (history), path);
  tb_label_set_status (self->status_label, said, FALSE);
  return TRUE;
}

/* For the tests. */

void
tb_mcp_wire_view_flush (TbMcpWireView *self)
{
  g_return_if_fail (TB_IS_MCP_WIRE_VIEW (self));

  g_clear_handle_id (&self->flush_id, g_source_remove);
  flush_cb (self);
}

gboolean
tb_mcp_wire_view_is_settled (TbMcpWireView *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_VIEW (self), FALSE);
  return self->flush_id == 0 && gtk_filter_list_model_get_pending (self->filtered) == 0;
}

guint
tb_mcp_wire_view_get_n_rows (TbMcpWireView *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_VIEW (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
}

/**
 * tb_mcp_wire_view_get_row_text:
 *
 * Returns: (transfer full) (nullable): what a row says, as its accessible
 *   label does
 */
char *
tb_mcp_wire_view_get_row_text (TbMcpWireView *self,
                               guint          row)
{
  g_autoptr(TbMcpWireRecord) record = NULL;

  g_return_val_if_fail (TB_IS_MCP_WIRE_VIEW (self), NULL);

  record = g_list_model_get_item (G_LIST_MODEL (self->filtered), row);
  return record != NULL ? tb_mcp_wire_row_describe (record) : NULL;
}

/**
 * tb_mcp_wire_view_get_methods:
 *
 * Returns: (transfer full): the method drop-down's choices
 */
char **
tb_mcp_wire_view_get_methods (TbMcpWireView *self)
{
  GStrvBuilder *builder = g_strv_builder_new ();
  char **methods;

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->methods)); i++)
    g_strv_builder_add (builder, gtk_string_list_get_string (self->methods, i));
  methods = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return methods;
}

/**
 * tb_mcp_wire_view_set_filter:
 * @direction: 0 both, 1 sent, 2 received
 * @method: (nullable): a method the drop-down offers, or %NULL for all
 * @search: (nullable): text the JSON holds
 */
void
tb_mcp_wire_view_set_filter (TbMcpWireView *self,
                             int            direction,
                             const char    *method,
                             const char    *search)
{
  guint position = 0;

  g_return_if_fail (TB_IS_MCP_WIRE_VIEW (self));

  for (guint i = 1; method != NULL && i < g_list_model_get_n_items (G_LIST_MODEL (self->methods));
       i++)
    if (g_str_equal (gtk_string_list_get_string (self->methods, i), method))
      position = i;
  gtk_drop_down_set_selected (self->direction_filter, CLAMP (direction, 0, 2));
  gtk_drop_down_set_selected (self->method_filter, position);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), search != NULL ? search : "");
  /* The entry waits before it says the search changed; a caller wants it now. */
  on_filter_changed (self);
}

void
tb_mcp_wire_view_select (TbMcpWireView *self,
                         guint          row)
{
  g_return_if_fail (TB_IS_MCP_WIRE_VIEW (self));
  gtk_single_selection_set_selected (self->selection, row);
}

char *
tb_mcp_wire_view_get_detail_text (TbMcpWireView *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (TB_IS_MCP_WIRE_VIEW (self), NULL);

  buffer = gtk_text_view_get_buffer (self->detail);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

const char *
tb_mcp_wire_view_get_note (TbMcpWireView *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_VIEW (self), NULL);
  return gtk_label_get_label (self->note_label);
}

/**
 * tb_mcp_wire_view_get_http_text:
 *
 * Returns: (nullable): the selected message's HTTP exchange, when shown
 */
const char *
tb_mcp_wire_view_get_http_text (TbMcpWireView *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_VIEW (self), NULL);
  if (!gtk_widget_get_visible (GTK_WIDGET (self->http_expander)))
    return NULL;
  return gtk_label_get_label (self->http_label);
}

const char *
tb_mcp_wire_view_get_status (TbMcpWireView *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_VIEW (self), NULL);
  if (!gtk_widget_get_visible (GTK_WIDGET (self->status_label)))
    return NULL;
  return gtk_label_get_label (self->status_label);
}

/**
 * tb_mcp_wire_view_dup_copy_text:
 *
 * Returns: (transfer full) (nullable): what Copy puts on the clipboard:
 *   the selected message, pretty-printed when it is whole JSON
 */
char *
tb_mcp_wire_view_dup_copy_text (TbMcpWireView *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_VIEW (self), NULL);
  return self->shown != NULL ? record_text (self->shown) : NULL;
}
