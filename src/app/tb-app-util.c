/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-app"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <toolbench.h>

#include "tb-app-util.h"
#include "tb-mask-paintable.h"

/**
 * tb_app_init:
 *
 * Sets up what every window needs: GtkSourceView, the app's style sheet and
 * its icons. The program and the window tests both call it; it runs once.
 */
void
tb_app_init (void)
{
  static gsize done;

  if (g_once_init_enter (&done))
    {
      GdkDisplay *display = gdk_display_get_default ();

      adw_init ();
      gtk_source_init ();

      if (display != NULL)
        {
          g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();

          gtk_css_provider_load_from_resource (provider,
                                               "/io/github/toolbench/Toolbench/toolbench.css");
          gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                                      GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
          gtk_icon_theme_add_resource_path (gtk_icon_theme_get_for_display (display),
                                            "/io/github/toolbench/Toolbench/icons");
        }
      g_once_init_leave (&done, 1);
    }
}

static void
update_scheme (AdwStyleManager *manager,
               GParamSpec      *pspec,
               GtkSourceBuffer *buffer)
{
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  const char *id = adw_style_manager_get_dark (manager) ? "Adwaita-dark" : "Adwaita";

  gtk_source_buffer_set_style_scheme (buffer,
                                      gtk_source_style_scheme_manager_get_scheme (schemes, id));
}

/**
 * tb_source_view_setup:
 * @view: a source view
 * @language: (nullable): a language id such as "json"
 * @editable: whether the person may edit the text
 *
 * Gives the view the look every code view in the app shares: monospace,
 * highlighting that follows the light or dark style (and stops while a
 * line is longer than %TB_HIGHLIGHT_MAX_LINE bytes), line numbers when
 * editable.
 */
/* Languages and style schemes are read from disk on first use (a hundred
 * XML files): views get them when one is first shown, not at start-up. */
static gboolean languages_loaded;

/* Whether a line of @buffer is longer than TB_HIGHLIGHT_MAX_LINE bytes. */
static gboolean
has_long_line (GtkTextBuffer *buffer)
{
  GtkTextIter iter;

  /* A character is at most four bytes: a short text needs no walk, and
   * this runs on every key typed in an editor. */
  if (gtk_text_buffer_get_char_count (buffer) <= TB_HIGHLIGHT_MAX_LINE / 4)
    return FALSE;
  gtk_text_buffer_get_start_iter (buffer, &iter);
  do
    if (gtk_text_iter_get_bytes_in_line (&iter) > TB_HIGHLIGHT_MAX_LINE)
      return TRUE;
  while (gtk_text_iter_forward_line (&iter));
  return FALSE;
}

static void apply_language (GtkSourceView *view);

static gboolean
apply_language_cb (gpointer user_data)
{
  GtkSourceView *view = user_data;

  g_object_set_data (G_OBJECT (view), "tb-language-id", NULL);
  apply_language (view);
  return G_SOURCE_REMOVE;
}

/* On every change of the buffer: highlighting stops while a line is too
 * long to highlight (see TB_HIGHLIGHT_MAX_LINE), and comes back after.
 * The language goes and comes back too (a buffer with a language
 * analyses its text in an idle even unhighlighted), from an idle of its
 * own that runs before GtkSourceView's: a buffer must not change its
 * language in the middle of an edit. */
static void
update_highlight (GtkSourceView *view)
{
  GtkSourceBuffer *buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)));
  const char *wanted = g_object_get_data (G_OBJECT (view), "tb-language");
  gboolean long_line = has_long_line (GTK_TEXT_BUFFER (buffer));
  gboolean want_language = wanted != NULL && !long_line;

  gtk_source_buffer_set_highlight_syntax (buffer, want_language);
  if (want_language != (gtk_source_buffer_get_language (buffer) != NULL) &&
      languages_loaded && g_object_get_data (G_OBJECT (view), "tb-language-id") == NULL)
    g_object_set_data (G_OBJECT (view), "tb-language-id",
                       GUINT_TO_POINTER (g_idle_add_full (G_PRIORITY_HIGH, apply_language_cb,
                                                          view, NULL)));
}

/* The idle above does not outlive its view. */
static void
forget_language_idle (GtkSourceView *view)
{
  guint id = GPOINTER_TO_UINT (g_object_steal_data (G_OBJECT (view), "tb-language-id"));

  if (id != 0)
    g_source_remove (id);
}

/* The view's language, unless a line is too long: a buffer given a
 * language analyses its text in an idle, highlighted or not, and gives up
 * on such a line with a critical warning. */
static void
apply_language (GtkSourceView *view)
{
  GtkSourceBuffer *buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)));
  const char *wanted = g_object_get_data (G_OBJECT (view), "tb-language");
  GtkSourceLanguage *language = NULL;

  languages_loaded = TRUE;
  if (wanted != NULL && !has_long_line (GTK_TEXT_BUFFER (buffer)))
    language = gtk_source_language_manager_get_language (
                 gtk_source_language_manager_get_default (), wanted);
  if (gtk_source_buffer_get_language (buffer) != language)
    gtk_source_buffer_set_language (buffer, language);
  gtk_source_buffer_set_highlight_syntax (buffer, language != NULL);
}

static void
on_first_map (GtkSourceView *view)
{
  GtkSourceBuffer *buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)));
  AdwStyleManager *manager = adw_style_manager_get_default ();

  g_signal_handlers_disconnect_by_func (view, on_first_map, NULL);
  apply_language (view);
  update_scheme (manager, NULL, buffer);
  g_signal_connect_object (manager, "notify::dark", G_CALLBACK (update_scheme), buffer, 0);
}

/**
 * tb_source_view_set_language:
 * @view: a view set up with tb_source_view_setup()
 * @language: (nullable): a language id such as "json"; %NULL for plain text
 */
void
tb_source_view_set_language (GtkSourceView *view,
                             const char    *language)
{
  g_object_set_data_full (G_OBJECT (view), "tb-language", g_strdup (language), g_free);
  if (languages_loaded || gtk_widget_get_mapped (GTK_WIDGET (view)))
    apply_language (view);
}

void
tb_source_view_setup (GtkSourceView *view,
                      const char    *language,
                      gboolean       editable)
{
  GtkSourceBuffer *buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)));

  g_object_set_data_full (G_OBJECT (view), "tb-language", g_strdup (language), g_free);
  update_highlight (view);
  /* Before the view is drawn, which highlights what it shows at once. */
  g_signal_connect_object (buffer, "changed", G_CALLBACK (update_highlight), view,
                           G_CONNECT_SWAPPED);
  g_signal_connect (view, "destroy", G_CALLBACK (forget_language_idle), NULL);
  if (gtk_widget_get_mapped (GTK_WIDGET (view)))
    on_first_map (view);
  else
    g_signal_connect (view, "map", G_CALLBACK (on_first_map), NULL);

  gtk_text_view_set_monospace (GTK_TEXT_VIEW (view), TRUE);
  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), editable);
  gtk_text_view_set_cursor_visible (GTK_TEXT_VIEW (view), editable);
  gtk_text_view_set_top_margin (GTK_TEXT_VIEW (view), 8);
  gtk_text_view_set_bottom_margin (GTK_TEXT_VIEW (view), 8);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (view), 8);
  gtk_text_view_set_right_margin (GTK_TEXT_VIEW (view), 8);
  gtk_source_view_set_show_line_numbers (view, editable);
  gtk_source_view_set_highlight_current_line (view, editable);
  gtk_source_view_set_auto_indent (view, editable);
  gtk_source_view_set_tab_width (view, 2);
  gtk_source_view_set_insert_spaces_instead_of_tabs (view, TRUE);
  gtk_source_buffer_set_highlight_matching_brackets (buffer, editable);
  if (!editable)
    gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
}

/**
 * tb_format_duration:
 * @duration_us: microseconds
 *
 * Returns: (transfer full): "850 µs", "12 ms", "1.4 s" or "2 min 5 s"
 */
char *
tb_format_duration (gint64 duration_us)
{
  if (duration_us < 0)
    duration_us = 0;
  if (duration_us < 1000)
    /* Translators: microseconds */
    return g_strdup_printf (_("%d µs"), (int) duration_us);
  if (duration_us < 1000 * 1000)
    /* Translators: milliseconds */
    return g_strdup_printf (_("%d ms"), (int) (duration_us / 1000));
  if (duration_us < 60 * G_USEC_PER_SEC)
    /* Translators: seconds, with one decimal */
    return g_strdup_printf (_("%.1f s"), duration_us / (double) G_USEC_PER_SEC);
  /* Translators: minutes and seconds */
  return g_strdup_printf (_("%d min %d s"),
                          (int) MIN (duration_us / (60 * G_USEC_PER_SEC), G_MAXINT),
                          (int) ((duration_us / G_USEC_PER_SEC) % 60));
}

/**
 * tb_text_preview:
 * @text: UTF-8 text
 * @max_bytes: the most to keep
 * @truncated: (out) (optional): whether text was cut
 *
 * Returns: (transfer full): @text, cut at a character boundary, with
 *   invalid UTF-8 and control characters shown as escapes (see
 *   tb_text_escape_controls()) so a label or text view shows what is there
 */
char *
tb_text_preview (const char *text,
                 gsize       max_bytes,
                 gboolean   *truncated)
{
  gsize length = strlen (text);
  const char *end;

  if (truncated != NULL)
    *truncated = length > max_bytes;
  if (length <= max_bytes)
    return tb_text_escape_controls (text, length);

  end = g_utf8_find_prev_char (text, text + max_bytes + 1);
  if (end == NULL)
    end = text;
  return tb_text_escape_controls (text, end - text);
}

/**
 * tb_text_break_long_lines:
 * @text: UTF-8 text
 * @broken: (out): whether a line was broken
 *
 * A text view lays out a paragraph at once, and GtkSourceView gives up
 * highlighting (with a critical warning) on a line that takes seconds: a
 * line of 64 KiB, a minified file or a long string, is enough. This breaks
 * lines longer than %TB_TEXT_LONG_LINE bytes, on character boundaries,
 * for the eye only: what is copied or saved is @text.
 *
 * Returns: (transfer full): @text with its long lines broken
 */
char *
tb_text_break_long_lines (const char *text,
                          gboolean   *broken)
{
  GString *out = g_string_sized_new (strlen (text) + strlen (text) / TB_TEXT_LONG_LINE + 1);
  gsize line = 0;

  *broken = FALSE;
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gsize length = g_utf8_next_char (p) - p;

      if (*p == '\n')
        line = 0;
      else if (line + length > TB_TEXT_LONG_LINE)
        {
          g_string_append_c (out, '\n');
          line = 0;
          *broken = TRUE;
        }
      g_string_append_len (out, p, length);
      if (*p != '\n')
        line += length;
    }
  return g_string_free (out, FALSE);
}

/**
 * tb_text_cut_at_word:
 * @text: text, not necessarily valid UTF-8
 * @max_chars: the most characters to keep, "…" included
 * @cut: (out) (optional): whether @text was cut
 *
 * The start of a long text to show in a label, which lays out all it is
 * given: cut after its last word that fits, when one ends in the last
 * tenth of @max_chars, or else in the middle of a word, and ended with "…".
 *
 * Returns: (transfer full): the text, whole when it is short enough
 */
char *
tb_text_cut_at_word (const char *text,
                     guint       max_chars,
                     gboolean   *cut)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  g_autofree char *start = NULL;
  const char *end;
  const char *word_end = NULL;
  guint looked = 0;

  g_return_val_if_fail (max_chars > 1, NULL);

  if (cut != NULL)
    *cut = FALSE;
  if ((gulong) g_utf8_strlen (valid, -1) <= max_chars)
    return g_steal_pointer (&valid);
  if (cut != NULL)
    *cut = TRUE;

  end = g_utf8_offset_to_pointer (valid, max_chars - 1);
  for (const char *p = end; p > valid && looked <= max_chars / 10;
       p = g_utf8_prev_char (p), looked++)
    if (g_unichar_isspace (g_utf8_get_char (p)))
      {
        word_end = p;
        break;
      }
  /* The word ends where the spaces before it start. */
  while (word_end != NULL && word_end > valid &&
         g_unichar_isspace (g_utf8_get_char (g_utf8_prev_char (word_end))))
    word_end = g_utf8_prev_char (word_end);
  if (word_end != NULL)
    end = word_end;
  start = g_strndup (valid, end - valid);
  return g_strconcat (start, "…", NULL);
}

/* A copy of @node whose strings longer than @max_chars are cut, counted
 * in @n_cut. */
static JsonNode *
shorten_node (JsonNode *node,
              guint     max_chars,
              guint    *n_cut)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        JsonObject *copy = json_object_new ();
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        json_object_iter_init (&iter, object);
        while (json_object_iter_next (&iter, &name, &member))
          json_object_set_member (copy, name, shorten_node (member, max_chars, n_cut));
        return tb_json_node_take_object (copy);
      }
    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint length = json_array_get_length (array);
        JsonArray *copy = json_array_sized_new (length);
        JsonNode *node_copy;

        for (guint i = 0; i < length; i++)
          json_array_add_element (copy, shorten_node (json_array_get_element (array, i),
                                                      max_chars, n_cut));
        node_copy = json_node_init_array (json_node_alloc (), copy);
        json_array_unref (copy);
        return node_copy;
      }
    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_STRING &&
          strlen (json_node_get_string (node)) > max_chars)
        {
          gboolean cut = FALSE;
          g_autofree char *start = tb_text_cut_at_word (json_node_get_string (node), max_chars,
                                                        &cut);

          if (cut)
            {
              (*n_cut)++;
              return json_node_init_string (json_node_alloc (), start);
            }
        }
      return json_node_copy (node);
    case JSON_NODE_NULL:
    default:
      return json_node_copy (node);
    }
}

/**
 * tb_json_shorten_strings:
 * @node: a JSON value
 * @max_chars: the most characters of a string to keep, "…" included
 * @n_cut: (out) (optional): how many strings were cut
 *
 * A text view lays out a paragraph whole, and one JSON string is one
 * paragraph: a string of a few hundred kilobytes takes a second to show.
 * This copy of @node keeps the start of each long string
 * (tb_text_cut_at_word()) and every key and element, so that the shape of
 * the value still shows.
 *
 * Returns: (transfer full): the shortened copy
 */
JsonNode *
tb_json_shorten_strings (JsonNode *node,
                         guint     max_chars,
                         guint    *n_cut)
{
  guint counted = 0;
  JsonNode *copy;

  g_return_val_if_fail (node != NULL, NULL);
  g_return_val_if_fail (max_chars > 1, NULL);

  copy = shorten_node (node, max_chars, &counted);
  if (n_cut != NULL)
    *n_cut = counted;
  return copy;
}

/**
 * tb_label_set_start:
 * @label: a label
 * @more: the Show More toggle under it
 * @text: the text, long or not
 * @after: (nullable): a line to show after it, whole, such as a note
 * @max_chars: the most characters of @text to show until @more is active
 *
 * Shows @text in @label, or its start (tb_text_cut_at_word()) while @more
 * is not active; @more shows only when there is more to see, and says
 * "Show Less" once active. Call it again when @more is toggled.
 */
void
tb_label_set_start (GtkLabel        *label,
                    GtkToggleButton *more,
                    const char      *text,
                    const char      *after,
                    guint            max_chars)
{
  gboolean whole = gtk_toggle_button_get_active (more);
  g_autofree char *start = NULL;
  g_autofree char *shown = NULL;
  gboolean cut = FALSE;

  g_return_if_fail (GTK_IS_LABEL (label));
  g_return_if_fail (GTK_IS_TOGGLE_BUTTON (more));
  g_return_if_fail (text != NULL);

  if (!whole)
    start = tb_text_cut_at_word (text, max_chars, &cut);
  shown = g_strjoin ("\n", start != NULL ? start : text, after, NULL);
  gtk_label_set_label (label, shown);
  gtk_widget_set_visible (GTK_WIDGET (more), cut || whole);
  gtk_button_set_label (GTK_BUTTON (more), whole ? _("Show Less") : _("Show More"));
  tb_button_name_by_label (GTK_BUTTON (more));
}

static void
show_text_block (GtkToggleButton *more,
                 GtkLabel        *label)
{
  tb_label_set_start (label, more, g_object_get_data (G_OBJECT (more), "tb-text"), NULL,
                      TB_TEXT_BLOCK_SHOWN_CHARS);
}

/**
 * tb_text_block_new:
 * @text: text from outside: a tool, a server, a model
 * @css_class: (nullable): a style class for the label
 *
 * A block of text to read: a wrapped, selectable label with the first
 * %TB_TEXT_BLOCK_SHOWN_CHARS characters of @text and Show More under it
 * when there is more (up to 64 KiB). A label lays out all it holds, and a
 * server's read of a file is one block: 64 KiB took two seconds. Control
 * characters and invalid UTF-8 show as escapes (tb_text_preview()).
 *
 * Returns: (transfer floating): a vertical box of the label and the button
 */
GtkWidget *
tb_text_block_new (const char *text,
                   const char *css_class)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *more = gtk_toggle_button_new ();

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  gtk_widget_set_halign (more, GTK_ALIGN_START);
  gtk_widget_add_css_class (more, "flat");
  g_object_set_data_full (G_OBJECT (more), "tb-text",
                          tb_text_preview (text, 64 * 1024, NULL), g_free);
  g_signal_connect_object (more, "toggled", G_CALLBACK (show_text_block), label, 0);
  show_text_block (GTK_TOGGLE_BUTTON (more), GTK_LABEL (label));
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), more);
  return box;
}

/**
 * tb_label_set_outside_text:
 * @label: a label
 * @text: (nullable): text that came from a server, tool or model
 *
 * Shows @text with its control characters and invalid UTF-8 as visible
 * escapes, so that carriage returns or backspaces cannot make it look like
 * something else.
 */
void
tb_label_set_outside_text (GtkLabel   *label,
                           const char *text)
{
  g_autofree char *shown = tb_text_escape_controls (text != NULL ? text : "", -1);

  gtk_label_set_label (label, shown);
}

/**
 * tb_copy_text:
 * @widget: a widget on the display whose clipboard to use
 * @text: what to copy
 */
void
tb_copy_text (GtkWidget  *widget,
              const char *text)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

/**
 * tb_widget_unparent_children:
 * @widget: a widget being disposed
 *
 * Unparents what gtk_widget_dispose_template() leaves: template children
 * without an id.
 */
void
tb_widget_unparent_children (GtkWidget *widget)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (widget)) != NULL)
    gtk_widget_unparent (child);
}

/**
 * tb_list_box_count_rows:
 * @list: a list box
 *
 * Returns: how many rows it holds (GtkListBox of GTK 4.8 has no counter)
 */
guint
tb_list_box_count_rows (GtkListBox *list)
{
  guint n = 0;

  g_return_val_if_fail (GTK_IS_LIST_BOX (list), 0);

  while (gtk_list_box_get_row_at_index (list, n) != NULL)
    n++;
  return n;
}

/**
 * tb_expander_keep_focus_out:
 * @expander: an expander with its child set
 *
 * GTK 4.8's collapsed GtkExpander still hands Tab to its (unparented)
 * child when that child can take the focus, so Tab stays on the expander
 * for ever. Hiding the child while the expander is collapsed lets the
 * focus move on.
 */
void
tb_expander_keep_focus_out (GtkExpander *expander)
{
  GtkWidget *child;

  g_return_if_fail (GTK_IS_EXPANDER (expander));

  child = gtk_expander_get_child (expander);
  g_return_if_fail (child != NULL);
  g_object_bind_property (expander, "expanded", child, "visible", G_BINDING_SYNC_CREATE);
}

/**
 * tb_button_name_by_label:
 * @button: a button whose child is a label with a mnemonic
 *
 * GTK 4.8 names a button with a mnemonic label after its raw label and its
 * text ("_Run Run") on the accessibility bus. Labelled by its label child,
 * it is named by the plain text.
 */
void
tb_button_name_by_label (GtkButton *button)
{
  GtkWidget *child;

  g_return_if_fail (GTK_IS_BUTTON (button));

  child = gtk_button_get_child (button);
  g_return_if_fail (GTK_IS_LABEL (child));
  gtk_accessible_update_relation (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_RELATION_LABELLED_BY,
                                  child, NULL, -1);
}

/**
 * tb_drop_down_name_button:
 * @drop_down: a drop-down
 * @name: what a screen reader says for it
 *
 * The focus of a GtkDropDown is on its inner button, which GTK 4.8 names
 * after its type on the accessibility bus: give it the drop-down's name.
 */
void
tb_drop_down_name_button (GtkDropDown *drop_down,
                          const char  *name)
{
  g_return_if_fail (GTK_IS_DROP_DOWN (drop_down));

  gtk_accessible_update_property (GTK_ACCESSIBLE (drop_down), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  name, -1);
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (drop_down)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_TOGGLE_BUTTON (child))
      gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      name, -1);
}

/**
 * tb_flow_box_append:
 * @flow_box: a flow box used as a row of controls that wraps
 * @child: a control
 *
 * GTK 4.8's GtkFlowBox keeps Tab when the next child's control cannot
 * take the focus (an insensitive button): the focus stays where it is.
 * The child's slot follows the control's sensitivity and visibility, so
 * the flow box skips it and Tab moves on.
 */
void
tb_flow_box_append (GtkFlowBox *flow_box,
                    GtkWidget  *child)
{
  GtkWidget *slot;

  g_return_if_fail (GTK_IS_FLOW_BOX (flow_box));
  g_return_if_fail (GTK_IS_WIDGET (child));

  gtk_flow_box_insert (flow_box, child, -1);
  slot = gtk_widget_get_parent (child);
  gtk_widget_set_focusable (slot, FALSE);
  g_object_bind_property (child, "sensitive", slot, "sensitive", G_BINDING_SYNC_CREATE);
  g_object_bind_property (child, "visible", slot, "visible", G_BINDING_SYNC_CREATE);
}

/* Room for a dialog's heading, its responses and its margins: what is
 * left of the screen's height is the most its content may take before it
 * scrolls, so the responses stay on the screen. */
#define DIALOG_CHROME_HEIGHT 240
#define CONTENT_MIN_HEIGHT 160

/* The screen's height, or the parent's when it is smaller: a modal dialog
 * is attached to its window. */
static int
available_height (GtkWindow *parent)
{
  GdkDisplay *display = parent != NULL ? gtk_widget_get_display (GTK_WIDGET (parent))
                                       : gdk_display_get_default ();
  GdkSurface *surface = parent != NULL ? gtk_native_get_surface (GTK_NATIVE (parent)) : NULL;
  g_autoptr(GdkMonitor) first = NULL;
  GdkMonitor *monitor = NULL;
  GdkRectangle geometry = { 0, 0, 0, 768 };

  if (display == NULL)
    return geometry.height;
  if (surface != NULL)
    monitor = gdk_display_get_monitor_at_surface (display, surface);
  if (monitor == NULL)
    monitor = first = g_list_model_get_item (gdk_display_get_monitors (display), 0);
  if (monitor != NULL)
    gdk_monitor_get_geometry (monitor, &geometry);
  if (parent != NULL && gtk_widget_get_mapped (GTK_WIDGET (parent)) &&
      gtk_widget_get_height (GTK_WIDGET (parent)) > 0)
    return MIN (geometry.height, gtk_widget_get_height (GTK_WIDGET (parent)));
  return geometry.height;
}

/**
 * tb_dialog_fit_content:
 * @dialog: a dialog
 * @content: the scrolled window holding what @dialog shows
 *
 * Lets @content grow with what it holds up to what fits on the screen of
 * @dialog's parent (or in the parent, when that is smaller), then scroll,
 * so that however long the content is, the responses stay on the screen.
 * Call it again when the parent changes.
 */
void
tb_dialog_fit_content (GtkWindow         *dialog,
                       GtkScrolledWindow *content)
{
  GtkWindow *parent;

  g_return_if_fail (GTK_IS_WINDOW (dialog));
  g_return_if_fail (GTK_IS_SCROLLED_WINDOW (content));

  parent = gtk_window_get_transient_for (dialog);
  gtk_scrolled_window_set_min_content_height (content, CONTENT_MIN_HEIGHT);
  gtk_scrolled_window_set_max_content_height (content,
                                              MAX (CONTENT_MIN_HEIGHT,
                                                   available_height (parent)
                                                   - DIALOG_CHROME_HEIGHT));
}

/**
 * tb_label_set_status:
 * @label: a label beside a control
 * @text: (nullable): what to say, %NULL or empty to hide the label
 * @is_error: whether it reports a refusal or a success
 *
 * Shows the sentence a setting was refused (or accepted) with beside the
 * control the person used.
 */
void
tb_label_set_status (GtkLabel   *label,
                     const char *text,
                     gboolean    is_error)
{
  g_return_if_fail (GTK_IS_LABEL (label));

  gtk_label_set_text (label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (label), text != NULL && *text != '\0');
  gtk_widget_add_css_class (GTK_WIDGET (label), is_error ? "error" : "success");
  gtk_widget_remove_css_class (GTK_WIDGET (label), is_error ? "success" : "error");
}

static gboolean
is_plain_key (guint           keyval,
              GdkModifierType state,
              guint           key,
              guint           keypad_key)
{
  return (keyval == key || keyval == keypad_key) &&
         (state & (GDK_CONTROL_MASK | GDK_SHIFT_MASK | GDK_ALT_MASK)) == 0;
}

/* The row of the list's first item, once the list is at its top; rows
 * are the list's children in the order of their items. */
static GtkWidget *
first_row (GtkListView *list)
{
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (list));

  if (adjustment != NULL && gtk_adjustment_get_value (adjustment) > 0)
    return NULL;
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (list)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (gtk_widget_get_child_visible (child) && gtk_widget_get_focusable (child))
      return child;
  return NULL;
}

static gboolean
search_key_pressed_cb (GtkEventControllerKey *controller,
                       guint                  keyval,
                       guint                  keycode,
                       GdkModifierType        state,
                       GtkListView           *list)
{
  GListModel *model = G_LIST_MODEL (gtk_list_view_get_model (list));
  GtkWidget *row;

  if (!is_plain_key (keyval, state, GDK_KEY_Down, GDK_KEY_KP_Down) || model == NULL ||
      g_list_model_get_n_items (model) == 0)
    return GDK_EVENT_PROPAGATE;
  gtk_widget_activate_action (GTK_WIDGET (list), "list.scroll-to-item", "u", 0);
  row = first_row (list);
  return row != NULL && gtk_widget_grab_focus (row);
}

static gboolean
list_key_pressed_cb (GtkEventControllerKey *controller,
                     guint                  keyval,
                     guint                  keycode,
                     GdkModifierType        state,
                     GtkWidget             *search)
{
  GtkEventController *keys = GTK_EVENT_CONTROLLER (controller);
  GtkListView *list = GTK_LIST_VIEW (gtk_event_controller_get_widget (keys));
  GtkWidget *focus = gtk_widget_get_focus_child (GTK_WIDGET (list));

  if (!is_plain_key (keyval, state, GDK_KEY_Up, GDK_KEY_KP_Up) || focus == NULL ||
      focus != first_row (list))
    return GDK_EVENT_PROPAGATE;
  return gtk_widget_grab_focus (search);
}

/**
 * tb_list_view_follow_search:
 * @list: a list
 * @search: the search above it, whose text narrows the list
 *
 * Down in @search goes to the list's first row, as in GNOME's other
 * searches (GTK would go to whatever is under the search, such as a
 * drop-down of filters), and Up on the first row goes back to @search.
 */
void
tb_list_view_follow_search (GtkListView *list,
                            GtkWidget   *search)
{
  GtkEventController *keys;

  g_return_if_fail (GTK_IS_LIST_VIEW (list));
  g_return_if_fail (GTK_IS_WIDGET (search));

  keys = gtk_event_controller_key_new ();
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (search_key_pressed_cb), list, 0);
  gtk_widget_add_controller (search, keys);

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (list_key_pressed_cb), search, 0);
  gtk_widget_add_controller (GTK_WIDGET (list), keys);
}

/**
 * tb_list_view_show_filtered:
 * @list: a list view
 * @model: the items
 * @filter: (transfer full): which of them show
 * @setup: the rows' setup handler of a #GtkSignalListItemFactory
 * @bind: their bind handler
 * @unbind: (nullable): their unbind handler
 * @user_data: data for the handlers
 *
 * Shows @model through @filter in @list, one row per item made by the
 * handlers, one item selected at a time: the searchable lists of a
 * server's window.
 *
 * Returns: (transfer full): the filtered model, to refilter and count
 */
GtkFilterListModel *
tb_list_view_show_filtered (GtkListView *list,
                            GListModel  *model,
                            GtkFilter   *filter,
                            GCallback    setup,
                            GCallback    bind,
                            GCallback    unbind,
                            gpointer     user_data)
{
  GtkFilterListModel *filtered = gtk_filter_list_model_new (g_object_ref (model), filter);
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", setup, user_data);
  g_signal_connect (factory, "bind", bind, user_data);
  if (unbind != NULL)
    g_signal_connect (factory, "unbind", unbind, user_data);
  gtk_list_view_set_factory (list, factory);
  gtk_list_view_set_model (list, GTK_SELECTION_MODEL (
                             gtk_single_selection_new (g_object_ref (G_LIST_MODEL (filtered)))));
  return filtered;
}

/**
 * tb_file_chooser_new:
 * @widget: the widget the person asked from
 * @title: the chooser's title
 * @action: open, save or choose a folder
 * @accept_label: the mnemonic label of the button that accepts
 *
 * A file chooser over @widget's window, with a Cancel button. The caller
 * connects #GtkNativeDialog::response, shows it, and destroys and unrefs
 * it in the response handler.
 *
 * Returns: (transfer full): the chooser
 */
GtkFileChooserNative *
tb_file_chooser_new (GtkWidget            *widget,
                     const char           *title,
                     GtkFileChooserAction  action,
                     const char           *accept_label)
{
  GtkRoot *root = gtk_widget_get_root (widget);

  return gtk_file_chooser_native_new (title, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                      action, accept_label, _("_Cancel"));
}

/**
 * tb_search_terms_parse:
 * @text: what the person typed in a search entry
 *
 * The words of @text, case-folded, for tb_search_terms_match().
 *
 * Returns: (transfer full) (nullable): the words, or %NULL when @text
 *   holds none, which matches everything
 */
char **
tb_search_terms_parse (const char *text)
{
  g_autofree char *folded = g_utf8_casefold (text != NULL ? text : "", -1);

  g_strstrip (folded);
  return *folded != '\0' ? g_strsplit_set (folded, " \t\n", -1) : NULL;
}

/**
 * tb_search_terms_match:
 * @terms: (nullable): words from tb_search_terms_parse()
 * @key: an item's case-folded text, from tb_search_key()
 *
 * Returns: whether @key contains every word
 */
gboolean
tb_search_terms_match (char       **terms,
                       const char  *key)
{
  for (guint i = 0; terms != NULL && terms[i] != NULL; i++)
    if (*terms[i] != '\0' && strstr (key, terms[i]) == NULL)
      return FALSE;
  return TRUE;
}

/**
 * tb_search_key:
 * @item: an item of a searchable list
 * @quark: the name the key is kept under on @item
 * @text: makes the text a search looks in (names, titles, descriptions)
 *
 * The case-folded text of @item, made once and kept on @item, so that each
 * key press does not fold every item again.
 *
 * Returns: (transfer none): the key
 */
const char *
tb_search_key (gpointer       item,
               GQuark         quark,
               TbSearchText   text)
{
  const char *key = g_object_get_qdata (G_OBJECT (item), quark);

  if (key == NULL)
    {
      g_autofree char *joined = text (item);
      char *folded = g_utf8_casefold (joined, -1);

      g_object_set_qdata_full (G_OBJECT (item), quark, folded, g_free);
      key = folded;
    }
  return key;
}

/**
 * tb_status_page_set_text:
 * @page: a status page
 * @icon: the name of its icon
 * @title: its title
 * @text: (nullable): what it says below the title, as plain text
 *
 * Shows @text as it is. The page reads its description as markup, and a
 * server's error message or an URI may hold "<" or "&".
 */
void
tb_status_page_set_text (AdwStatusPage *page,
                         const char    *icon,
                         const char    *title,
                         const char    *text)
{
  g_autofree char *escaped = text != NULL ? g_markup_escape_text (text, -1) : NULL;

  adw_status_page_set_icon_name (page, icon);
  adw_status_page_set_title (page, title);
  adw_status_page_set_description (page, escaped);
}

/* The app's symbolic icon as a mask painted in the foreground colour:
 * the theme's SVG would load an SVG renderer before the first frame. */
void
tb_status_page_set_app_icon (AdwStatusPage *page)
{
  g_autoptr(GdkPaintable) icon =
    tb_mask_paintable_new_from_resource ("/io/github/toolbench/Toolbench/masks/"
                                         "io.github.toolbench.Toolbench-symbolic.png");

  adw_status_page_set_paintable (page, icon);
}
