/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-result-view"

#include "config.h"

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "tb-app-util.h"
#include "tb-heading-row.h"
#include "tb-json-tree.h"
#include "tb-resource-window.h"
#include "tb-result-view.h"
#include "tb-tool-sources.h"
#include "tb-result-view-private.h"

/* One tool result as a person reads it: success or failure and its kind,
 * the error text, warnings, the output (text or tree; MCP content blocks
 * rendered), metadata and duration. Large outputs are shown in part and
 * can be saved whole. */

/* Decoded images larger than this are not shown. */
#define MAX_IMAGE_BYTES (16 * 1024 * 1024)
#define MAX_CONTENT_BLOCKS 50

struct _TbResultView
{
  GtkWidget      parent_instance;

  GtkImage      *status_icon;
  GtkLabel      *status_label;
  GtkLabel      *duration_label;
  GtkWidget     *output_switcher;
  GtkToggleButton *text_toggle;
  GtkToggleButton *tree_toggle;
  GtkLabel      *error_label;
  GtkToggleButton *error_more_button;
  GtkWidget     *warnings_box;
  GtkWidget     *content_box;
  GtkLabel      *truncated_label;
  GtkStack      *output_stack;
  GtkSourceView *output_view;
  TbJsonTree    *output_tree;
  GtkWidget     *metadata_expander;
  GtkSourceView *metadata_view;

  TbToolResult  *result;
  gboolean       truncated;
};

G_DEFINE_FINAL_TYPE (TbResultView, tb_result_view, GTK_TYPE_WIDGET)

/* About fifty lines of an error: the start of a command's output says most. */
#define ERROR_SHOWN_CHARS 4000

static void
clear_box (GtkWidget *box)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (box)) != NULL)
    gtk_box_remove (GTK_BOX (box), child);
}

static gboolean
output_is_string (JsonNode *output)
{
  return output != NULL && JSON_NODE_HOLDS_VALUE (output) &&
         json_node_get_value_type (output) == G_TYPE_STRING;
}

/**
 * tb_result_view_dup_full_text:
 * @self: a view
 *
 * Returns: (transfer full) (nullable): the whole output as text: a string
 *   output as it is, anything else as pretty JSON
 */
char *
tb_result_view_dup_full_text (TbResultView *self)
{
  JsonNode *output;

  g_return_val_if_fail (TB_IS_RESULT_VIEW (self), NULL);

  if (self->result == NULL || (output = tb_tool_result_get_output (self->result)) == NULL)
    return NULL;
  if (output_is_string (output))
    return g_strdup (json_node_get_string (output));
  return tb_json_to_string (output, TRUE);
}

/* The error, or its start with Show More when it is long. Error text
 * comes from tools and servers: its control characters are shown, and a
 * label lays out all it holds (a command's standard error may be 64 KiB). */
static void
show_error (TbResultView *self)
{
  const char *error = self->result != NULL ? tb_tool_result_get_error (self->result) : NULL;
  g_autofree char *escaped = tb_text_preview (error != NULL ? error : "", 64 * 1024, NULL);

  tb_label_set_start (self->error_label, self->error_more_button, escaped, NULL,
                      ERROR_SHOWN_CHARS);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), error != NULL && *error != '\0');
}

static void
add_text_block (TbResultView *self,
                const char   *text)
{
  gtk_box_append (GTK_BOX (self->content_box), tb_text_block_new (text, "tb-content-text"));
}

static void
add_image_block (TbResultView *self,
                 const char   *data,
                 const char   *mime_type)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;
  guchar *decoded;
  gsize length = 0;

  if (data == NULL || strlen (data) / 4 * 3 > MAX_IMAGE_BYTES)
    {
      add_text_block (self, _("An image too large to show; save the result to keep it."));
      return;
    }

  decoded = g_base64_decode (data, &length);
  bytes = g_bytes_new_take (decoded, length);
  texture = gdk_texture_new_from_bytes (bytes, &error);
  if (texture == NULL)
    {
      /* Translators: %s is the image's MIME type, then the decoder's message */
      g_autofree char *message = g_strdup_printf (_("An image (%s) that could not be shown: %s"),
                                                  mime_type != NULL ? mime_type : "?",
                                                  error->message);

      add_text_block (self, message);
      return;
    }

  {
    GtkWidget *picture = gtk_picture_new_for_paintable (GDK_PAINTABLE (texture));

    gtk_picture_set_can_shrink (GTK_PICTURE (picture), TRUE);
    gtk_widget_set_halign (picture, GTK_ALIGN_START);
    gtk_widget_set_size_request (picture, -1, MIN (gdk_texture_get_height (texture), 320));
    gtk_accessible_update_property (GTK_ACCESSIBLE (picture), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    _("Image from the tool"), -1);
    gtk_box_append (GTK_BOX (self->content_box), picture);
  }
}

/* The MCP content blocks of the result: an MCP tool's output is its
 * `content` array when the blocks are not all text; a result written by
 * hand may hold {"content": [...]}. */
static JsonArray *
content_blocks (TbResultView *self)
{
  JsonNode *output = self->result != NULL ? tb_tool_result_get_output (self->result) : NULL;
  JsonObject *metadata = self->result != NULL ? tb_tool_result_get_metadata (self->result)
                                              : NULL;

  if (output == NULL)
    return NULL;
  if (JSON_NODE_HOLDS_OBJECT (output))
    return tb_json_object_get_array (json_node_get_object (output), "content");
  if (JSON_NODE_HOLDS_ARRAY (output) && metadata != NULL &&
      tb_json_object_get_array (metadata, "content-types") != NULL)
    return json_node_get_array (output);
  return NULL;
}

/* A resource the result links to or embeds: what it is, and Open. */
static void
add_resource_block (TbResultView *self,
                    JsonObject   *block,
                    guint         index)
{
  JsonObject *embedded = tb_json_object_get_object (block, "resource");
  const char *uri = tb_json_object_get_string (embedded != NULL ? embedded : block, "uri");
  const char *name = tb_json_object_get_string (block, "name");
  g_autofree char *text = NULL;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *button = gtk_button_new_with_mnemonic (_("_Open"));
  GtkWidget *label;

  if (embedded != NULL)
    /* Translators: %s is a resource's URI */
    text = g_strdup_printf (_("An embedded resource, %s"), uri != NULL ? uri : "?");
  else
    /* Translators: a resource's name, then its URI */
    text = g_strdup_printf (_("A link to the resource %s, %s"), name != NULL ? name : "",
                            uri != NULL ? uri : "?");
  label = tb_text_block_new (text, "tb-content-text");
  gtk_widget_set_hexpand (label, TRUE);
  gtk_box_append (GTK_BOX (box), label);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "result.open-resource");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "u", index);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_sensitive (button, uri != NULL);
  gtk_box_append (GTK_BOX (box), button);
  gtk_box_append (GTK_BOX (self->content_box), box);
}

/* MCP results carry {"content":[{"type":"text","text":…},{"type":"image",…}]}. */
static gboolean
render_content (TbResultView *self)
{
  JsonArray *blocks;

  clear_box (self->content_box);
  blocks = content_blocks (self);
  if (blocks == NULL)
    return FALSE;

  for (guint i = 0; i < MIN (json_array_get_length (blocks), MAX_CONTENT_BLOCKS); i++)
    {
      JsonNode *block = json_array_get_element (blocks, i);
      JsonObject *object;
      const char *type;

      if (!JSON_NODE_HOLDS_OBJECT (block))
        continue;
      object = json_node_get_object (block);
      type = (tb_json_object_get_string (object, "type") ?: "");
      if (g_str_equal (type, "text"))
        add_text_block (self, (tb_json_object_get_string (object, "text") ?: ""));
      else if (g_str_equal (type, "image"))
        add_image_block (self, tb_json_object_get_string (object, "data"),
                         tb_json_object_get_string (object, "mimeType"));
      else if (g_str_equal (type, "resource_link") || g_str_equal (type, "resource"))
        add_resource_block (self, object, i);
      else
        {
          /* Translators: %s is an MCP content type such as "audio" or "resource" */
          g_autofree char *message = g_strdup_printf (_("A “%s” block; see the JSON below."),
                                                      type);

          add_text_block (self, message);
        }
    }
  return gtk_widget_get_first_child (self->content_box) != NULL;
}

static void
set_source_text (GtkSourceView *view,
                 const char    *text,
                 const char    *language)
{
  /* Plain text for strings, JSON for the rest. */
  tb_source_view_set_language (view, language);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), text, -1);
}

/**
 * tb_result_view_set_result:
 * @self: a view
 * @result: (nullable): the result to show
 */
void
tb_result_view_set_result (TbResultView *self,
                           TbToolResult *result)
{
  JsonNode *output;
  JsonObject *metadata;
  const char * const *warnings;
  g_autofree char *full = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *duration = NULL;
  gboolean ok;

  g_return_if_fail (TB_IS_RESULT_VIEW (self));

  g_set_object (&self->result, result);
  gtk_widget_set_visible (GTK_WIDGET (self), result != NULL);
  if (result == NULL)
    return;

  ok = tb_tool_result_get_ok (result);
  output = tb_tool_result_get_output (result);
  metadata = tb_tool_result_get_metadata (result);
  warnings = tb_tool_result_get_warnings (result);

  gtk_image_set_from_icon_name (self->status_icon, ok ? "emblem-ok-symbolic"
                                                      : "dialog-error-symbolic");
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_icon), ok ? "error" : "success");
  gtk_widget_add_css_class (GTK_WIDGET (self->status_icon), ok ? "success" : "error");
  if (ok)
    gtk_label_set_label (self->status_label, _("Succeeded"));
  else
    {
      /* Translators: %s is a failure kind: invalid-arguments, timeout, cancelled, … */
      g_autofree char *status = g_strdup_printf (_("Failed: %s"),
                                                 tb_tool_failure_kind_to_string (
                                                   tb_tool_result_get_kind (result)));

      gtk_label_set_label (self->status_label, status);
    }
  if (tb_tool_result_get_unvalidated (result))
    {
      /* Translators: a result's status, then a note that its arguments were sent unchecked */
      g_autofree char *status = g_strdup_printf (_("%s · not validated"),
                                                 gtk_label_get_label (self->status_label));

      gtk_label_set_label (self->status_label, status);
    }
  duration = tb_format_duration (tb_tool_result_get_duration_us (result));
  gtk_label_set_label (self->duration_label, duration);

  gtk_toggle_button_set_active (self->error_more_button, FALSE);
  show_error (self);

  clear_box (self->warnings_box);
  for (guint i = 0; warnings != NULL && warnings[i] != NULL; i++)
    {
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
      g_autofree char *warning = tb_text_preview (warnings[i], 4096, NULL);
      GtkWidget *label = gtk_label_new (warning);

      gtk_widget_add_css_class (icon, "warning");
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      gtk_box_append (GTK_BOX (row), icon);
      gtk_box_append (GTK_BOX (row), label);
      gtk_box_append (GTK_BOX (self->warnings_box), row);
    }
  gtk_widget_set_visible (self->warnings_box, warnings != NULL && warnings[0] != NULL);

  gtk_widget_set_visible (self->content_box, render_content (self));

  full = tb_result_view_dup_full_text (self);
  gtk_widget_set_visible (GTK_WIDGET (self->output_stack), full != NULL);
  gtk_widget_set_visible (self->output_switcher, output != NULL && !output_is_string (output));
  if (full != NULL)
    {
      shown = tb_text_preview (full, TB_RESULT_VIEW_MAX_SHOWN, &self->truncated);
      set_source_text (self->output_view, shown, output_is_string (output) ? NULL : "json");
      tb_json_tree_set_node (self->output_tree, output_is_string (output) ? NULL : output);
      if (output_is_string (output))
        gtk_toggle_button_set_active (self->text_toggle, TRUE);
    }
  else
    {
      self->truncated = FALSE;
      set_source_text (self->output_view, "", NULL);
      tb_json_tree_set_node (self->output_tree, NULL);
    }

  if (self->truncated)
    {
      g_autofree char *total = g_format_size (strlen (full));
      g_autofree char *part = g_format_size (TB_RESULT_VIEW_MAX_SHOWN);
      /* Translators: two sizes such as "256.0 kB" and "10.5 MB" */
      g_autofree char *message = g_strdup_printf (_("Showing the first %s of %s. Save the result "
                                                    "to read all of it."), part, total);

      gtk_label_set_label (self->truncated_label, message);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->truncated_label), self->truncated);

  gtk_widget_set_visible (self->metadata_expander,
                          metadata != NULL && json_object_get_size (metadata) > 0);
  if (metadata != NULL && json_object_get_size (metadata) > 0)
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
      g_autofree char *text = NULL;

      json_node_set_object (node, metadata);
      text = tb_json_to_string (node, TRUE);
      set_source_text (self->metadata_view, text, "json");
    }
}

/**
 * tb_result_view_get_result:
 * @self: a view
 *
 * Returns: (transfer none) (nullable): the result shown
 */
TbToolResult *
tb_result_view_get_result (TbResultView *self)
{
  g_return_val_if_fail (TB_IS_RESULT_VIEW (self), NULL);
  return self->result;
}

const char *
tb_result_view_get_status_text (TbResultView *self)
{
  g_return_val_if_fail (TB_IS_RESULT_VIEW (self), NULL);
  return gtk_label_get_label (self->status_label);
}

/**
 * tb_result_view_get_output_text:
 * @self: a view
 *
 * Returns: (transfer full): the text the output view shows
 */
char *
tb_result_view_get_output_text (TbResultView *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (TB_IS_RESULT_VIEW (self), NULL);

  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->output_view));
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

const char *
tb_result_view_get_error_text (TbResultView *self)
{
  g_return_val_if_fail (TB_IS_RESULT_VIEW (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->error_label))
         ? gtk_label_get_label (self->error_label) : NULL;
}

/* Whether the output's text is highlighted as JSON. */
gboolean
tb_result_view_get_output_highlighted (TbResultView *self)
{
  GtkTextBuffer *buffer;

  g_return_val_if_fail (TB_IS_RESULT_VIEW (self), FALSE);
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->output_view));
  return gtk_source_buffer_get_highlight_syntax (GTK_SOURCE_BUFFER (buffer));
}

gboolean
tb_result_view_get_truncated (TbResultView *self)
{
  g_return_val_if_fail (TB_IS_RESULT_VIEW (self), FALSE);
  return self->truncated;
}

/**
 * tb_result_view_copy:
 * @self: a view
 *
 * Copies the whole output, or the error text of a failure without output.
 */
void
tb_result_view_copy (TbResultView *self)
{
  g_autofree char *text = NULL;

  g_return_if_fail (TB_IS_RESULT_VIEW (self));

  if (self->result == NULL)
    return;
  text = tb_result_view_dup_full_text (self);
  if (text == NULL)
    text = g_strdup (tb_tool_result_get_error (self->result));
  if (text != NULL)
    tb_copy_text (GTK_WIDGET (self), text);
}

static void
on_saved (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!g_file_replace_contents_finish (G_FILE (object), result, NULL, &error))
    g_warning ("Could not save the result: %s", error->message);
}

static void
on_save_response (GtkNativeDialog *dialog,
                  int              response,
                  gpointer         user_data)
{
  g_autoptr(TbResultView) self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      char *text = tb_result_view_dup_full_text (self);
      g_autoptr(GBytes) bytes = NULL;

      if (text == NULL)
        text = g_strdup ("");
      bytes = g_bytes_new_take (text, strlen (text));
      g_file_replace_contents_bytes_async (file, bytes, NULL, FALSE, G_FILE_CREATE_NONE,
                                           NULL, on_saved, NULL);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

/**
 * tb_result_view_save:
 * @self: a view
 *
 * Asks where to save the whole output, and saves it there.
 */
void
tb_result_view_save (TbResultView *self)
{
  GtkFileChooserNative *chooser;
  JsonNode *output;

  g_return_if_fail (TB_IS_RESULT_VIEW (self));

  if (self->result == NULL)
    return;
  output = tb_tool_result_get_output (self->result);
  chooser = tb_file_chooser_new (GTK_WIDGET (self), _("Save Result"),
                                 GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser),
                                     output_is_string (output) ? "result.txt" : "result.json");
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_save_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
on_output_toggled (TbResultView *self)
{
  gtk_stack_set_visible_child_name (self->output_stack,
                                    gtk_toggle_button_get_active (self->tree_toggle)
                                    ? "tree" : "text");
}

static void
tb_result_view_dispose (GObject *object)
{
  TbResultView *self = (TbResultView *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_RESULT_VIEW);
  tb_widget_unparent_children (GTK_WIDGET (self));
  g_clear_object (&self->result);

  G_OBJECT_CLASS (tb_result_view_parent_class)->dispose (object);
}

/* Opens the resource block @index links to or embeds, in a window of its
 * own; a link is read from the server the result came from. */
static void
open_resource_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  TbResultView *self = TB_RESULT_VIEW (widget);
  JsonObject *metadata = self->result != NULL ? tb_tool_result_get_metadata (self->result)
                                              : NULL;
  const char *server = metadata != NULL ? tb_json_object_get_string (metadata, "server") : NULL;
  guint index = g_variant_get_uint32 (parameter);
  GtkRoot *root = gtk_widget_get_root (widget);
  JsonArray *blocks;
  JsonObject *block;
  JsonObject *embedded;
  TbResourceWindow *window;

  blocks = content_blocks (self);
  if (blocks == NULL || index >= json_array_get_length (blocks) ||
      !JSON_NODE_HOLDS_OBJECT (json_array_get_element (blocks, index)))
    return;
  block = json_array_get_object_element (blocks, index);
  embedded = tb_json_object_get_object (block, "resource");

  window = tb_resource_window_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL);
  if (embedded != NULL)
    {
      g_autoptr(JsonArray) contents = json_array_new ();

      json_array_add_object_element (contents, json_object_ref (embedded));
      tb_resource_window_show_contents (window, server, contents);
    }
  else
    {
      TbToolSources *sources = tb_tool_sources_get_default ();
      TbMcpClient *client = sources != NULL && server != NULL
                            ? tb_tool_sources_get_client (sources, server) : NULL;
      const char *uri = tb_json_object_get_string (block, "uri");

      if (client != NULL && tb_mcp_client_get_state (client) == TB_MCP_CLIENT_STATE_CONNECTED)
        tb_resource_window_read (window, client, uri);
      else
        {
          g_autofree char *message =
            server != NULL
            ? g_strdup_printf (_("The server “%s” is not running; start it in the preferences "
                                 "to read this resource."), server)
            : g_strdup (_("The result does not say which server it came from."));

          tb_resource_window_show_error (window, server, uri, message);
        }
    }
  gtk_window_present (GTK_WINDOW (window));
}

static void
tb_result_view_class_init (TbResultViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_result_view_dispose;

  g_type_ensure (TB_TYPE_HEADING_ROW);
  g_type_ensure (TB_TYPE_JSON_TREE);
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-result-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TbResultView, status_icon);
  gtk_widget_class_bind_template_child (widget_class, TbResultView, status_label);
  gtk_widget_class_bind_template_child (widget_class, TbResultView, duration_label);
  gtk_widget_class_bind_template_child (widget_class, TbResultView, output_switcher);
  gtk_widget_class_bind_template_child (widget_class, TbResultView, text_toggle);
  gtk_widget_class_bind_template_child (widget_class, TbResultView, tree_toggle);
  gtk_widget_class_bind_template_callback (widget_class, on_output_toggled);
  gtk_widget_class_bind_template_child (widget_class, TbResultView, error_label);
  gtk_widget_class_bind_template_child (widget_class, TbResultView, error_more_button);
  gtk_widget_class_bind_template_callback (widget_class, show_error);
  gtk_widget_class_bind_template_child (widget_class, TbResultView, warnings_box);
  gtk_widget_class_bind_template_child (widget_class, TbResultView, content_box);
  gtk_widget_class_bind_template_child (widget_class, TbResultView, truncated_label);
  gtk_widget_class_bind_template_child (widget_class, TbResultView, output_stack);
  gtk_widget_class_bind_template_child (widget_class, TbResultView, output_view);
  gtk_widget_class_bind_template_child (widget_class, TbResultView, output_tree);
  gtk_widget_class_bind_template_child (widget_class, TbResultView, metadata_expander);
  gtk_widget_class_bind_template_child (widget_class, TbResultView, metadata_view);
  gtk_widget_class_bind_template_callback (widget_class, tb_result_view_copy);
  gtk_widget_class_bind_template_callback (widget_class, tb_result_view_save);
  gtk_widget_class_install_action (widget_class, "result.open-resource", "u",
                                   open_resource_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tbresultview");
}

static void
tb_result_view_init (TbResultView *self)
{
  GtkLayoutManager *layout;

  tb_app_init ();
  gtk_widget_init_template (GTK_WIDGET (self));

  layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 10);

  tb_source_view_setup (self->output_view, "json", FALSE);
  tb_source_view_setup (self->metadata_view, "json", FALSE);
  tb_expander_keep_focus_out (GTK_EXPANDER (self->metadata_expander));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
tb_result_view_new (void)
{
  return g_object_new (TB_TYPE_RESULT_VIEW, NULL);
}
