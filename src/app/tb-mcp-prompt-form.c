/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp-prompt-form"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tb-app-util.h"
#include "tb-mcp-prompt-form-private.h"
#include "tb-resource-window.h"
#include "tb-window.h"

/* One prompt of a server: an entry for each argument (the required ones
 * marked, each completed by the server as the person types), Get Prompt,
 * which sends `prompts/get` with what was filled in, and the messages it
 * answered: role and text, images, embedded resources with an Open
 * button, and any content this version does not know shown as its JSON
 * rather than dropped. Use in Loop hands the messages to the main
 * window's Loop page as the start of a new run. */

/* Decoded images larger than this are named, not shown. */
#define MAX_IMAGE_BYTES (16 * 1024 * 1024)

struct _TbMcpPromptForm
{
  GtkWidget     parent_instance;

  GtkLabel     *title;
  GtkLabel     *description;
  GtkBox       *fields;
  GtkLabel     *message;
  GtkBox       *result_box;
  GtkButton    *get_button;
  GtkButton    *use_button;

  TbMcpClient  *client;
  TbMcpPrompt  *prompt;
  GCancellable *cancellable;
  JsonObject   *result;
  GString      *result_text;
  GPtrArray    *linked;        /* Linked *, the resources the result shows */
  gboolean      asking;
  guint         n_requests;
};

G_DEFINE_FINAL_TYPE (TbMcpPromptForm, tb_mcp_prompt_form, GTK_TYPE_WIDGET)

/* ---- the messages ------------------------------------------------------------ */

static GtkWidget *
block_label (const char *text,
             gboolean    monospace)
{
  GtkWidget *label = gtk_label_new (NULL);

  tb_label_set_outside_text (GTK_LABEL (label), text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  if (monospace)
    gtk_widget_add_css_class (label, "monospace");
  return label;
}

static void
add_text (TbMcpPromptForm *self,
          GtkBox          *box,
          const char      *text,
          gboolean         monospace)
{
  gtk_box_append (box, tb_text_block_new (text, monospace ? "monospace" : NULL));
  g_string_append_printf (self->result_text, "%s\n", text);
}

/* "image (image/png, 68 bytes)": what a medium is when it is not shown. */
static char *
describe_media (const char *type,
                const char *mime,
                gsize       size)
{
  g_autofree char *size_text = g_format_size (size);

  /* Translators: "image" or "audio", a MIME type and a size such as "68 bytes" */
  return g_strdup_printf (_("%s (%s, %s)"), type, mime != NULL ? mime : "?", size_text);
}

static void
add_media (TbMcpPromptForm *self,
           GtkBox          *box,
           const char      *type,
           JsonObject      *content)
{
  const char *data = tb_json_object_get_string (content, "data");
  const char *mime = tb_json_object_get_string (content, "mimeType");
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *described = NULL;
  guchar *decoded = NULL;
  gsize length = 0;

  if (data != NULL && strlen (data) / 4 * 3 <= MAX_IMAGE_BYTES)
    decoded = g_base64_decode (data, &length);
  bytes = g_bytes_new_take (decoded, length);
  described = describe_media (type, mime, length);
  if (g_str_equal (type, "image") && length > 0)
    texture = gdk_texture_new_from_bytes (bytes, NULL);
  if (texture != NULL)
    {
      /* An image at its own size, up to 240 px: never blown up. */
      GtkWidget *picture = gtk_image_new_from_paintable (GDK_PAINTABLE (texture));
      int side = MAX (gdk_texture_get_width (texture), gdk_texture_get_height (texture));

      gtk_image_set_pixel_size (GTK_IMAGE (picture), MIN (side, 240));
      gtk_widget_set_halign (picture, GTK_ALIGN_START);
      gtk_accessible_update_property (GTK_ACCESSIBLE (picture), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      described, -1);
      gtk_widget_set_tooltip_text (picture, described);
      gtk_box_append (box, picture);
      g_string_append_printf (self->result_text, "[%s]\n", described);
      return;
    }
  add_text (self, box, described, FALSE);
}

/* A resource the result embeds (its contents) or links to (its URI). */
typedef struct
{
  JsonObject *resource;   /* nullable: a link */
  char       *uri;
} Linked;

static void
linked_free (gpointer data)
{
  Linked *linked = data;

  g_clear_pointer (&linked->resource, json_object_unref);
  g_free (linked->uri);
  g_free (linked);
}

/* An Open button of the result: its target is the resource's place in
 * self->linked. */
static void
open_resource_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  TbMcpPromptForm *self = TB_MCP_PROMPT_FORM (widget);
  guint index = g_variant_get_uint32 (parameter);
  GtkRoot *root = gtk_widget_get_root (widget);
  TbResourceWindow *window;
  Linked *linked;

  if (index >= self->linked->len)
    return;
  linked = g_ptr_array_index (self->linked, index);
  window = tb_resource_window_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL);
  if (linked->resource != NULL)
    {
      g_autoptr(JsonArray) contents = json_array_new ();

      json_array_add_object_element (contents, json_object_ref (linked->resource));
      tb_resource_window_show_contents (window, tb_mcp_client_get_name (self->client),
                                        contents);
    }
  else
    tb_resource_window_read (window, self->client, linked->uri);
  gtk_window_present (GTK_WINDOW (window));
}

static void
add_resource (TbMcpPromptForm *self,
              GtkBox          *box,
              JsonObject      *content,
              gboolean         embedded)
{
  JsonObject *resource = embedded ? tb_json_object_get_object (content, "resource") : NULL;
  const char *uri = embedded ? (resource != NULL ? tb_json_object_get_string (resource, "uri")
                                                 : NULL)
                             : tb_json_object_get_string (content, "uri");
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *button;
  g_autofree char *text = NULL;
  Linked *linked;

  if (uri == NULL || (embedded && resource == NULL))
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), content);
      g_autofree char *json = tb_json_to_string (node, TRUE);

      add_text (self, box, json, TRUE);
      return;
    }
  text = embedded
         /* Translators: %s is a URI */
         ? g_strdup_printf (_("Embedded resource %s"), uri)
         /* Translators: %s is a URI */
         : g_strdup_printf (_("Link to the resource %s"), uri);
  gtk_box_append (GTK_BOX (row), block_label (text, FALSE));
  gtk_widget_set_hexpand (gtk_widget_get_first_child (row), TRUE);
  button = gtk_button_new_with_mnemonic (_("_Open"));
  tb_button_name_by_label (GTK_BUTTON (button));
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, _("Show the Resource in a Window"));
  linked = g_new0 (Linked, 1);
  linked->resource = resource != NULL ? json_object_ref (resource) : NULL;
  linked->uri = g_strdup (uri);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "prompt.open-resource");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "u", self->linked->len);
  g_ptr_array_add (self->linked, linked);
  gtk_box_append (GTK_BOX (row), button);
  gtk_box_append (box, row);
  g_string_append_printf (self->result_text, "%s\n", text);
}

static void
add_block (TbMcpPromptForm *self,
           GtkBox          *box,
           JsonNode        *node)
{
  JsonObject *content = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  const char *type = content != NULL ? tb_json_object_get_string (content, "type") : NULL;
  const char *text = content != NULL ? tb_json_object_get_string (content, "text") : NULL;

  if (g_strcmp0 (type, "text") == 0 && text != NULL)
    add_text (self, box, text, FALSE);
  else if (g_strcmp0 (type, "image") == 0 || g_strcmp0 (type, "audio") == 0)
    add_media (self, box, type, content);
  else if (g_strcmp0 (type, "resource") == 0 || g_strcmp0 (type, "resource_link") == 0)
    add_resource (self, box, content, g_str_equal (type, "resource"));
  else
    {
      /* A kind of content this version does not know: its JSON, whole. */
      g_autofree char *json = tb_json_to_string (node, TRUE);

      add_text (self, box, json, TRUE);
    }
}

static void
clear_result (TbMcpPromptForm *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->result_box))) != NULL)
    gtk_box_remove (self->result_box, child);
  g_clear_pointer (&self->result, json_object_unref);
  g_string_truncate (self->result_text, 0);
  g_ptr_array_set_size (self->linked, 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "prompt.use-in-loop", FALSE);
}

static void
show_result (TbMcpPromptForm *self,
             JsonObject      *result)
{
  JsonArray *messages = tb_json_object_get_array (result, "messages");
  const char *description = tb_json_object_get_string (result, "description");

  clear_result (self);
  self->result = json_object_ref (result);
  if (description != NULL && *description != '\0')
    {
      GtkWidget *label = block_label (description, FALSE);

      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (self->result_box, label);
      g_string_append_printf (self->result_text, "%s\n", description);
    }
  for (guint i = 0; messages != NULL && i < json_array_get_length (messages); i++)
    {
      JsonNode *element = json_array_get_element (messages, i);
      JsonObject *message = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element)
                                                             : NULL;
      const char *role = message != NULL ? tb_json_object_get_string (message, "role") : NULL;
      JsonNode *content = message != NULL ? json_object_get_member (message, "content") : NULL;
      GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
      GtkWidget *heading;

      gtk_widget_add_css_class (card, "card");
      gtk_widget_set_margin_top (card, 0);
      heading = block_label (g_strcmp0 (role, "user") == 0 ? _("User")
                             : g_strcmp0 (role, "assistant") == 0 ? _("Assistant")
                             : role != NULL ? role : _("(no role)"), FALSE);
      gtk_widget_add_css_class (heading, "heading");
      gtk_widget_set_margin_start (heading, 12);
      gtk_widget_set_margin_top (heading, 8);
      gtk_box_append (GTK_BOX (card), heading);
      g_string_append_printf (self->result_text, "%s:\n", role != NULL ? role : "?");

      {
        GtkWidget *body = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

        gtk_widget_set_margin_start (body, 12);
        gtk_widget_set_margin_end (body, 12);
        gtk_widget_set_margin_bottom (body, 10);
        if (content != NULL && JSON_NODE_HOLDS_ARRAY (content))
          for (guint j = 0; j < json_array_get_length (json_node_get_array (content)); j++)
            add_block (self, GTK_BOX (body),
                       json_array_get_element (json_node_get_array (content), j));
        else if (content != NULL)
          add_block (self, GTK_BOX (body), content);
        gtk_box_append (GTK_BOX (card), body);
      }
      gtk_box_append (self->result_box, card);
    }
  if (messages == NULL || json_array_get_length (messages) == 0)
    add_text (self, self->result_box, _("The server answered with no messages."), FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "prompt.use-in-loop",
                                 messages != NULL && json_array_get_length (messages) > 0);
}

/* ---- actions ----------------------------------------------------------------- */

static JsonObject *
collect (TbMcpPromptForm *self)
{
  JsonObject *values = json_object_new ();

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->fields));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      TbMcpArgumentEntry *entry = TB_MCP_ARGUMENT_ENTRY (child);
      const char *text = tb_mcp_argument_entry_get_text (entry);

      if (*text != '\0')
        json_object_set_string_member (values, tb_mcp_argument_entry_get_argument (entry), text);
    }
  return values;
}

static JsonObject *
context_func (gpointer user_data)
{
  return collect (user_data);
}

static void
get_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(TbMcpPromptForm) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) answer = NULL;

  answer = tb_mcp_client_get_prompt_finish (TB_MCP_CLIENT (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->client == NULL)
    return;
  self->asking = FALSE;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "prompt.get", TRUE);
  if (answer == NULL)
    {
      tb_label_set_status (self->message, error->message, TRUE);
      return;
    }
  tb_label_set_status (self->message, NULL, FALSE);
  show_result (self, answer);
}

static void
get_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  TbMcpPromptForm *self = TB_MCP_PROMPT_FORM (widget);
  g_autoptr(JsonObject) values = collect (self);
  g_autoptr(GError) error = NULL;

  if (self->asking)
    return;
  /* A required argument left empty is named, and nothing is sent. */
  if (!tb_mcp_prompt_check_arguments (self->prompt, values, &error))
    {
      tb_label_set_status (self->message, error->message, TRUE);
      return;
    }
  tb_label_set_status (self->message, NULL, FALSE);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->asking = TRUE;
  self->n_requests++;
  gtk_widget_action_set_enabled (widget, "prompt.get", FALSE);
  tb_mcp_client_get_prompt_async (self->client, tb_mcp_prompt_get_name (self->prompt), values,
                                  self->cancellable, get_cb, g_object_ref (self));
}

/* The application's main window: the most recently used one. The server's
 * window is not one of the application's, so that it stays out of the
 * Preferences' grab; the toplevels find a main window made without one. */
static TbWindow *
find_main_window (void)
{
  GApplication *app = g_application_get_default ();
  GListModel *toplevels;

  if (GTK_IS_APPLICATION (app))
    for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
      if (TB_IS_WINDOW (l->data))
        return l->data;
  toplevels = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (TB_IS_WINDOW (window))
        return TB_WINDOW (window);
    }
  return NULL;
}

static void
use_in_loop_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  TbMcpPromptForm *self = TB_MCP_PROMPT_FORM (widget);
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(GError) error = NULL;
  TbWindow *window;

  if (self->result == NULL)
    return;
  window = find_main_window ();
  if (window == NULL)
    {
      tb_label_set_status (self->message,
                           _("The main window is closed; open Toolbench’s window to use the "
                             "prompt in the loop."), TRUE);
      return;
    }
  messages = tb_mcp_prompt_result_to_messages (self->result, &error);
  if (messages == NULL || !tb_window_start_loop (window, messages, &error))
    {
      tb_label_set_status (self->message, error->message, TRUE);
      return;
    }
  tb_label_set_status (self->message, NULL, FALSE);
}

/* ---- the object -------------------------------------------------------------- */

static void
tb_mcp_prompt_form_dispose (GObject *object)
{
  TbMcpPromptForm *self = (TbMcpPromptForm *) object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_MCP_PROMPT_FORM);
  tb_widget_unparent_children (GTK_WIDGET (self));
  g_clear_pointer (&self->result, json_object_unref);
  g_clear_object (&self->client);
  g_clear_object (&self->prompt);

  G_OBJECT_CLASS (tb_mcp_prompt_form_parent_class)->dispose (object);
}

static void
tb_mcp_prompt_form_finalize (GObject *object)
{
  TbMcpPromptForm *self = (TbMcpPromptForm *) object;

  g_string_free (self->result_text, TRUE);
  g_ptr_array_unref (self->linked);

  G_OBJECT_CLASS (tb_mcp_prompt_form_parent_class)->finalize (object);
}

static void
tb_mcp_prompt_form_class_init (TbMcpPromptFormClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_mcp_prompt_form_dispose;
  object_class->finalize = tb_mcp_prompt_form_finalize;

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-mcp-prompt-form.ui");
  gtk_widget_class_bind_template_child (widget_class, TbMcpPromptForm, title);
  gtk_widget_class_bind_template_child (widget_class, TbMcpPromptForm, description);
  gtk_widget_class_bind_template_child (widget_class, TbMcpPromptForm, fields);
  gtk_widget_class_bind_template_child (widget_class, TbMcpPromptForm, message);
  gtk_widget_class_bind_template_child (widget_class, TbMcpPromptForm, result_box);
  gtk_widget_class_bind_template_child (widget_class, TbMcpPromptForm, get_button);
  gtk_widget_class_bind_template_child (widget_class, TbMcpPromptForm, use_button);

  gtk_widget_class_install_action (widget_class, "prompt.get", NULL, get_action);
  gtk_widget_class_install_action (widget_class, "prompt.use-in-loop", NULL,
                                   use_in_loop_action);
  gtk_widget_class_install_action (widget_class, "prompt.open-resource", "u",
                                   open_resource_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK,
                                       "prompt.get", NULL);
}

static void
tb_mcp_prompt_form_init (TbMcpPromptForm *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  tb_button_name_by_label (self->get_button);
  tb_button_name_by_label (self->use_button);
  self->result_text = g_string_new (NULL);
  self->linked = g_ptr_array_new_with_free_func (linked_free);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "prompt.use-in-loop", FALSE);
}

/**
 * tb_mcp_prompt_form_new:
 * @client: the server
 * @prompt: one of its prompts
 *
 * Returns: (transfer floating): the prompt's form
 */
GtkWidget *
tb_mcp_prompt_form_new (TbMcpClient *client,
                        TbMcpPrompt *prompt)
{
  TbMcpPromptForm *self;
  const char *description;

  g_return_val_if_fail (TB_IS_MCP_CLIENT (client), NULL);
  g_return_val_if_fail (TB_IS_MCP_PROMPT (prompt), NULL);

  self = g_object_new (TB_TYPE_MCP_PROMPT_FORM, NULL);
  self->client = g_object_ref (client);
  self->prompt = g_object_ref (prompt);

  tb_label_set_outside_text (self->title, tb_mcp_prompt_get_display_name (prompt));
  description = tb_mcp_prompt_get_description (prompt);
  tb_label_set_outside_text (self->description, description);
  gtk_widget_set_visible (GTK_WIDGET (self->description),
                          description != NULL && *description != '\0');
  for (guint i = 0; i < tb_mcp_prompt_get_n_arguments (prompt); i++)
    {
      GtkWidget *entry =
        tb_mcp_argument_entry_new (client, TB_MCP_COMPLETION_PROMPT,
                                   tb_mcp_prompt_get_name (prompt),
                                   tb_mcp_prompt_get_argument_name (prompt, i),
                                   tb_mcp_prompt_get_argument_description (prompt, i),
                                   tb_mcp_prompt_get_argument_required (prompt, i));

      tb_mcp_argument_entry_set_context_func (TB_MCP_ARGUMENT_ENTRY (entry), context_func, self);
      tb_mcp_argument_entry_set_activate_action (TB_MCP_ARGUMENT_ENTRY (entry), "prompt.get");
      gtk_box_append (self->fields, entry);
    }
  if (tb_mcp_prompt_get_n_arguments (prompt) == 0)
    tb_label_set_status (self->message, _("This prompt takes no arguments."), FALSE);
  return GTK_WIDGET (self);
}

/**
 * tb_mcp_prompt_form_focus:
 * @self: a prompt's form
 *
 * Puts the keyboard in the first argument, or on Get Prompt.
 */
void
tb_mcp_prompt_form_focus (TbMcpPromptForm *self)
{
  GtkWidget *first;

  g_return_if_fail (TB_IS_MCP_PROMPT_FORM (self));
  first = gtk_widget_get_first_child (GTK_WIDGET (self->fields));
  if (first != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (tb_mcp_argument_entry_get_editable (
                                         TB_MCP_ARGUMENT_ENTRY (first))));
  else
    gtk_widget_grab_focus (GTK_WIDGET (self->get_button));
}

TbMcpPrompt *
tb_mcp_prompt_form_get_prompt (TbMcpPromptForm *self)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPT_FORM (self), NULL);
  return self->prompt;
}

/* ---- for the tests ----------------------------------------------------------- */

guint
tb_mcp_prompt_form_get_n_fields (TbMcpPromptForm *self)
{
  guint n = 0;

  g_return_val_if_fail (TB_IS_MCP_PROMPT_FORM (self), 0);
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->fields));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    n++;
  return n;
}

TbMcpArgumentEntry *
tb_mcp_prompt_form_get_field (TbMcpPromptForm *self,
                              const char      *argument)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPT_FORM (self), NULL);
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->fields));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (g_strcmp0 (tb_mcp_argument_entry_get_argument (TB_MCP_ARGUMENT_ENTRY (child)),
                   argument) == 0)
      return TB_MCP_ARGUMENT_ENTRY (child);
  return NULL;
}

const char *
tb_mcp_prompt_form_get_message (TbMcpPromptForm *self)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPT_FORM (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->message))
         ? gtk_label_get_text (self->message) : NULL;
}

gboolean
tb_mcp_prompt_form_is_settled (TbMcpPromptForm *self)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPT_FORM (self), TRUE);
  return !self->asking;
}

const char *
tb_mcp_prompt_form_get_result_text (TbMcpPromptForm *self)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPT_FORM (self), NULL);
  return self->result_text->str;
}

guint
tb_mcp_prompt_form_get_n_requests (TbMcpPromptForm *self)
{
  g_return_val_if_fail (TB_IS_MCP_PROMPT_FORM (self), 0);
  return self->n_requests;
}
