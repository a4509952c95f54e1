/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-resource-view"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

#include "tb-app-util.h"
#include "tb-resource-view.h"
#include "tb-resource-view-private.h"

/* One resource of an MCP server as a person reads it: text highlighted by
 * its MIME type, images as images, anything else by its size, with Copy
 * and Save. Large texts are cut on screen (the whole is saved). */

#define MAX_SHOWN_TEXT (4 * 1024 * 1024)
#define MAX_IMAGE_BYTES (32 * 1024 * 1024)

struct _TbResourceView
{
  GtkWidget      parent_instance;

  GBytes        *bytes;
  char          *uri;
  char          *mime_type;
  gboolean       is_text;
  char          *message;

  GtkLabel      *uri_label;
  GtkLabel      *details_label;
  GtkStack      *stack;
  GtkSpinner    *spinner;
  GtkSourceView *text_view;
  GtkPicture    *picture;
  AdwStatusPage *status_page;
};

G_DEFINE_FINAL_TYPE (TbResourceView, tb_resource_view, GTK_TYPE_WIDGET)

static void
update_actions (TbResourceView *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "resource.copy",
                                 self->bytes != NULL && self->is_text);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "resource.save", self->bytes != NULL);
}

static void
forget (TbResourceView *self)
{
  g_clear_pointer (&self->bytes, g_bytes_unref);
  g_clear_pointer (&self->uri, g_free);
  g_clear_pointer (&self->mime_type, g_free);
  g_clear_pointer (&self->message, g_free);
  self->is_text = FALSE;
  gtk_spinner_stop (self->spinner);
  gtk_picture_set_paintable (self->picture, NULL);
}

static void
show_message (TbResourceView *self,
              const char     *icon,
              const char     *title,
              const char     *description)
{
  g_free (self->message);
  self->message = g_strdup (description);
  tb_status_page_set_text (self->status_page, icon, title, description);
  gtk_stack_set_visible_child_name (self->stack, "message");
}

/* The language of a MIME type, as GtkSourceView guesses it. */
static const char *
language_for (const char *uri,
              const char *mime_type)
{
  GtkSourceLanguageManager *manager = gtk_source_language_manager_get_default ();
  g_autofree char *basename = uri != NULL ? g_path_get_basename (uri) : NULL;
  GtkSourceLanguage *language;

  language = gtk_source_language_manager_guess_language (manager, basename, mime_type);
  return language != NULL ? gtk_source_language_get_id (language) : NULL;
}

static void
show_bytes (TbResourceView *self)
{
  gsize size;
  const char *data = g_bytes_get_data (self->bytes, &size);
  g_autofree char *shown_size = g_format_size (size);
  g_autofree char *details = NULL;

  /* Translators: a resource's MIME type and size, such as "text/plain, 1.2 kB" */
  details = g_strdup_printf (_("%s, %s"), self->mime_type != NULL ? self->mime_type
                                                                  : _("no type given"),
                             shown_size);
  gtk_label_set_label (self->details_label, details);

  if (self->is_text)
    {
      gsize shown = MIN (size, MAX_SHOWN_TEXT);
      g_autofree char *text = g_utf8_make_valid (data, shown);
      gboolean broken = FALSE;
      /* A minified file is one long line: broken, and not highlighted. */
      g_autofree char *lines = tb_text_break_long_lines (text, &broken);

      tb_source_view_set_language (self->text_view,
                                   broken ? NULL : language_for (self->uri, self->mime_type));
      gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text_view)),
                                lines, -1);
      gtk_stack_set_visible_child_name (self->stack, "text");
      if (shown < size)
        {
          g_autofree char *limit = g_format_size (MAX_SHOWN_TEXT);
          /* Translators: the details, then a size such as "4.2 MB" */
          g_autofree char *note = g_strdup_printf (_("%s; the first %s are shown, Save keeps "
                                                     "all of it"), details, limit);

          g_free (details);
          details = g_steal_pointer (&note);
        }
      if (broken)
        {
          /* Translators: the details, then what is done to lines too long to show */
          g_autofree char *note = g_strdup_printf (_("%s; long lines are broken to be shown, Copy "
                                                     "and Save keep them whole"), details);

          g_free (details);
          details = g_steal_pointer (&note);
        }
      gtk_label_set_label (self->details_label, details);
      return;
    }

  if (self->mime_type != NULL && g_str_has_prefix (self->mime_type, "image/") &&
      size <= MAX_IMAGE_BYTES)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GdkTexture) texture = gdk_texture_new_from_bytes (self->bytes, &error);

      if (texture != NULL)
        {
          gtk_picture_set_paintable (self->picture, GDK_PAINTABLE (texture));
          gtk_stack_set_visible_child_name (self->stack, "image");
          return;
        }
      {
        /* The server's MIME type may be wrong: say so, and what is there. */
        g_autofree char *description =
          /* Translators: a MIME type, the image loader's reason, a size such as "3 bytes" */
          g_strdup_printf (_("The server says this is %s, but it is not an image that can be "
                             "shown (%s). %s of contents; save them to open them with another "
                             "program."), self->mime_type, error->message, shown_size);

        show_message (self, "image-missing-symbolic", _("The image cannot be shown"),
                      description);
      }
      return;
    }

  {
    /* Translators: %s is a size such as "3.4 MB" */
    g_autofree char *description = g_strdup_printf (_("%s of binary contents; save them to "
                                                      "open them with another program."),
                                                    shown_size);

    show_message (self, "application-x-executable-symbolic", _("Binary Contents"),
                  description);
  }
}

/**
 * tb_resource_view_show_loading:
 * @self: a view
 * @uri: the resource being read
 */
void
tb_resource_view_show_loading (TbResourceView *self,
                               const char     *uri)
{
  g_return_if_fail (TB_IS_RESOURCE_VIEW (self));

  forget (self);
  self->uri = g_strdup (uri);
  gtk_label_set_label (self->uri_label, uri);
  gtk_label_set_label (self->details_label, _("Reading…"));
  gtk_spinner_start (self->spinner);
  gtk_stack_set_visible_child_name (self->stack, "loading");
  update_actions (self);
}

/* A blob a server sent base64-encoded though it is text: shown as text
 * when its type says text and it is valid UTF-8. */
static gboolean
blob_is_text (const char *mime_type,
              GBytes     *bytes)
{
  gsize size;
  const char *data = g_bytes_get_data (bytes, &size);

  if (mime_type == NULL ||
      !(g_str_has_prefix (mime_type, "text/") || g_str_equal (mime_type, "application/json") ||
        g_str_has_suffix (mime_type, "+json") || g_str_has_suffix (mime_type, "+xml") ||
        g_str_equal (mime_type, "application/xml")))
    return FALSE;
  return size == 0 || (memchr (data, '\0', size) == NULL && g_utf8_validate (data, size, NULL));
}

/**
 * tb_resource_view_show_contents:
 * @self: a view
 * @contents: a `resources/read` result's `contents`, or an embedded
 *   resource's `resource` in an array
 *
 * Shows the first entry; a server that sent several is said so.
 */
void
tb_resource_view_show_contents (TbResourceView *self,
                                JsonArray      *contents)
{
  g_autoptr(GError) error = NULL;
  JsonNode *first;
  JsonObject *object;
  const char *uri;

  g_return_if_fail (TB_IS_RESOURCE_VIEW (self));
  g_return_if_fail (contents != NULL);

  forget (self);
  first = json_array_get_length (contents) > 0 ? json_array_get_element (contents, 0) : NULL;
  if (first == NULL || !JSON_NODE_HOLDS_OBJECT (first))
    {
      show_message (self, "dialog-question-symbolic", _("Nothing to Show"),
                    _("The server sent no contents for this resource."));
      update_actions (self);
      return;
    }
  object = json_node_get_object (first);
  uri = tb_json_object_get_string (object, "uri");
  self->uri = g_strdup (uri);
  self->mime_type = g_strdup (tb_json_object_get_string (object, "mimeType"));
  gtk_label_set_label (self->uri_label, uri != NULL ? uri : "");
  self->bytes = tb_mcp_resource_contents_get_bytes (object, &error);
  if (self->bytes == NULL)
    {
      gtk_label_set_label (self->details_label, "");
      show_message (self, "dialog-error-symbolic", _("The Contents Are Broken"),
                    error->message);
      update_actions (self);
      return;
    }
  self->is_text = tb_json_object_get_string (object, "text") != NULL ||
                  blob_is_text (self->mime_type, self->bytes);
  show_bytes (self);
  if (json_array_get_length (contents) > 1)
    {
      /* Translators: %u is how many entries a server sent for one resource */
      g_autofree char *more = g_strdup_printf (_("%s — the first of %u entries"),
                                               gtk_label_get_label (self->details_label),
                                               json_array_get_length (contents));

      gtk_label_set_label (self->details_label, more);
    }
  update_actions (self);
}

/**
 * tb_resource_view_show_error:
 * @self: a view
 * @uri: (nullable): the resource that could not be read
 * @message: why, a sentence
 */
void
tb_resource_view_show_error (TbResourceView *self,
                             const char     *uri,
                             const char     *message)
{
  g_return_if_fail (TB_IS_RESOURCE_VIEW (self));

  forget (self);
  self->uri = g_strdup (uri);
  gtk_label_set_label (self->uri_label, uri != NULL ? uri : "");
  gtk_label_set_label (self->details_label, "");
  show_message (self, "dialog-error-symbolic", _("The Resource Cannot Be Read"), message);
  update_actions (self);
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TbResourceView *self = TB_RESOURCE_VIEW (widget);
  gsize size;
  const char *data;
  g_autofree char *text = NULL;

  if (self->bytes == NULL || !self->is_text)
    return;
  data = g_bytes_get_data (self->bytes, &size);
  text = g_utf8_make_valid (data, size);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

static void
save_response (GtkNativeDialog *dialog,
               int              response,
               TbResourceView  *self)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  gsize size;
  const char *data;

  if (response == GTK_RESPONSE_ACCEPT && self->bytes != NULL)
    {
      file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      data = g_bytes_get_data (self->bytes, &size);
      if (!g_file_replace_contents (file, data, size, NULL, FALSE, G_FILE_CREATE_NONE, NULL,
                                    NULL, &error))
        {
          g_autofree char *message = g_strdup_printf (_("Cannot save the resource: %s"),
                                                      error->message);

          gtk_label_set_label (self->details_label, message);
        }
    }
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TbResourceView *self = TB_RESOURCE_VIEW (widget);
  GtkFileChooserNative *chooser;
  g_autofree char *name = NULL;

  if (self->bytes == NULL)
    return;
  chooser = tb_file_chooser_new (widget, _("Save Resource"), GTK_FILE_CHOOSER_ACTION_SAVE,
                                 _("_Save"));
  name = self->uri != NULL ? g_path_get_basename (self->uri) : NULL;
  if (name != NULL && *name != '\0' && !g_str_equal (name, "/") && !g_str_equal (name, "."))
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  g_signal_connect (chooser, "response", G_CALLBACK (save_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
tb_resource_view_dispose (GObject *object)
{
  TbResourceView *self = (TbResourceView *) object;

  forget (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_RESOURCE_VIEW);
  tb_widget_unparent_children (GTK_WIDGET (self));

  G_OBJECT_CLASS (tb_resource_view_parent_class)->dispose (object);
}

static void
tb_resource_view_class_init (TbResourceViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_resource_view_dispose;

  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/"
                                               "tb-resource-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TbResourceView, uri_label);
  gtk_widget_class_bind_template_child (widget_class, TbResourceView, details_label);
  gtk_widget_class_bind_template_child (widget_class, TbResourceView, stack);
  gtk_widget_class_bind_template_child (widget_class, TbResourceView, spinner);
  gtk_widget_class_bind_template_child (widget_class, TbResourceView, text_view);
  gtk_widget_class_bind_template_child (widget_class, TbResourceView, picture);
  gtk_widget_class_bind_template_child (widget_class, TbResourceView, status_page);
  gtk_widget_class_install_action (widget_class, "resource.copy", NULL, copy_action);
  gtk_widget_class_install_action (widget_class, "resource.save", NULL, save_action);
}

static void
tb_resource_view_init (TbResourceView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  tb_source_view_setup (self->text_view, NULL, FALSE);
  update_actions (self);
}

GtkWidget *
tb_resource_view_new (void)
{
  return g_object_new (TB_TYPE_RESOURCE_VIEW, NULL);
}

const char *
tb_resource_view_get_page (TbResourceView *self)
{
  g_return_val_if_fail (TB_IS_RESOURCE_VIEW (self), NULL);
  return gtk_stack_get_visible_child_name (self->stack);
}

char *
tb_resource_view_dup_text (TbResourceView *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (TB_IS_RESOURCE_VIEW (self), NULL);
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text_view));
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/* The language the text is highlighted as, or %NULL for none. */
const char *
tb_resource_view_get_language (TbResourceView *self)
{
  g_return_val_if_fail (TB_IS_RESOURCE_VIEW (self), NULL);
  return g_object_get_data (G_OBJECT (self->text_view), "tb-language");
}

const char *
tb_resource_view_get_details (TbResourceView *self)
{
  g_return_val_if_fail (TB_IS_RESOURCE_VIEW (self), NULL);
  return gtk_label_get_label (self->details_label);
}

/* The status page's title and description. */
const char *
tb_resource_view_get_message (TbResourceView *self)
{
  g_return_val_if_fail (TB_IS_RESOURCE_VIEW (self), NULL);
  return self->message;
}
