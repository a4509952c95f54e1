/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The app's text helpers, and the rows that show a long text's start:
 * a label lays out all it holds, and a conversation row with 120,000
 * characters (a file a tool read) took six seconds to show. */

#include "config.h"

#include <string.h>

#include "tb-app-util.h"
#include "tb-mcp-prompt-row.h"
#include "tb-message-row.h"
#include "../test-json-util.h"

static void
test_cut_at_word (void)
{
  g_autofree char *whole = NULL;
  g_autofree char *exact = NULL;
  g_autofree char *words = NULL;
  g_autofree char *one_word = NULL;
  g_autofree char *broken = NULL;
  g_autofree char *wide = NULL;
  g_autofree char *far = NULL;
  gboolean cut = TRUE;

  whole = tb_text_cut_at_word ("Short text.", 100, &cut);
  g_assert_cmpstr (whole, ==, "Short text.");
  g_assert_false (cut);

  exact = tb_text_cut_at_word ("0123456789", 10, &cut);
  g_assert_cmpstr (exact, ==, "0123456789");
  g_assert_false (cut);

  /* Cut after the last word that fits, spaces dropped. */
  words = tb_text_cut_at_word ("alpha beta gamma  delta epsilon", 20, &cut);
  g_assert_true (cut);
  g_assert_cmpstr (words, ==, "alpha beta gamma…");

  /* No space in the last tenth: in the middle of the word. */
  one_word = tb_text_cut_at_word ("abcdefghijklmnopqrstuvwxyz", 10, &cut);
  g_assert_true (cut);
  g_assert_cmpstr (one_word, ==, "abcdefghi…");

  /* Characters, not bytes; invalid UTF-8 shown as U+FFFD. */
  wide = tb_text_cut_at_word ("ééééééééééééééé", 5, NULL);
  g_assert_cmpstr (wide, ==, "éééé…");
  broken = tb_text_cut_at_word ("ab\xff" "cd", 10, &cut);
  g_assert_false (cut);
  g_assert_cmpstr (broken, ==, "ab\xef\xbf\xbd" "cd");

  /* A space far back (out of the last tenth) is not used. */
  far = tb_text_cut_at_word ("ab cdefghijklmnopqrstuvwxyz0123456789", 30, NULL);
  g_assert_cmpuint (g_utf8_strlen (far, -1), ==, 30);
  g_assert_true (g_str_has_prefix (far, "ab cdefghijk"));
}

/* A prompt's row shows the start of a long description: it shows two
 * lines, and a label lays out all it holds. */
/* A copy whose long strings are cut, every key, element and other value
 * kept, and the count of what was cut. */
static void
test_json_shorten (void)
{
  g_autofree char *long_text = g_strnfill (30000, 'y');
  g_autofree char *json = g_strdup_printf ("{\"a\":\"%s\",\"b\":[1,2.5,true,null,\"short\","
                                           "{\"c\":\"%s\"}],\"d\":{},\"e\":\"é%s\"}",
                                           long_text, long_text, long_text);
  g_autoptr(JsonNode) node = test_parse (json);
  g_autoptr(JsonNode) shorter = NULL;
  g_autoptr(JsonNode) same = NULL;
  g_autofree char *text = NULL;
  JsonObject *object;
  JsonArray *array;
  guint n_cut = 99;

  shorter = tb_json_shorten_strings (node, 100, &n_cut);
  g_assert_cmpuint (n_cut, ==, 3);
  object = json_node_get_object (shorter);
  g_assert_cmpuint (json_object_get_size (object), ==, 4);
  g_assert_cmpint (g_utf8_strlen (json_object_get_string_member (object, "a"), -1), ==, 100);
  g_assert_true (g_str_has_suffix (json_object_get_string_member (object, "a"), "…"));
  g_assert_true (g_str_has_prefix (json_object_get_string_member (object, "e"), "éyy"));
  g_assert_cmpint (g_utf8_strlen (json_object_get_string_member (object, "e"), -1), ==, 100);
  array = json_object_get_array_member (object, "b");
  g_assert_cmpuint (json_array_get_length (array), ==, 6);
  g_assert_cmpint (json_array_get_int_element (array, 0), ==, 1);
  g_assert_cmpfloat (json_array_get_double_element (array, 1), ==, 2.5);
  g_assert_true (json_array_get_boolean_element (array, 2));
  g_assert_true (json_array_get_null_element (array, 3));
  g_assert_cmpstr (json_array_get_string_element (array, 4), ==, "short");
  g_assert_cmpint (strlen (json_object_get_string_member (json_array_get_object_element (array, 5),
                                                          "c")), ==, 99 + strlen ("…"));
  g_assert_cmpuint (json_object_get_size (json_object_get_object_member (object, "d")), ==, 0);
  /* The original is untouched. */
  g_assert_cmpuint (strlen (json_object_get_string_member (json_node_get_object (node), "a")),
                    ==, 30000);

  /* Nothing long: an equal copy, nothing counted. */
  same = tb_json_shorten_strings (node, 100000, &n_cut);
  g_assert_cmpuint (n_cut, ==, 0);
  g_assert_true (json_node_equal (same, node));
  text = tb_json_to_string (same, FALSE);
  g_assert_cmpuint (strlen (text), ==, strlen (json));
}

/* A code view highlights its text while no line is longer than
 * TB_HIGHLIGHT_MAX_LINE bytes, whether the app sets the text or the
 * person types, pastes or joins lines. */
static void
test_highlight_long_lines (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkSourceView *view = GTK_SOURCE_VIEW (gtk_source_view_new ());
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  g_autofree char *half = g_strnfill (TB_HIGHLIGHT_MAX_LINE / 2 + 10, 'a');
  g_autofree char *line = g_strnfill (TB_HIGHLIGHT_MAX_LINE + 1, 'a');
  g_autofree char *joined = NULL;
  GtkTextIter iter, end;

  tb_source_view_setup (view, "json", TRUE);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));
  gtk_text_buffer_set_text (buffer, "{\"a\": 1}", -1);
  g_assert_true (gtk_source_buffer_get_highlight_syntax (GTK_SOURCE_BUFFER (buffer)));

  /* Set by the app. */
  gtk_text_buffer_set_text (buffer, line, -1);
  g_assert_false (gtk_source_buffer_get_highlight_syntax (GTK_SOURCE_BUFFER (buffer)));
  gtk_text_buffer_set_text (buffer, "[1,\n2]", -1);
  g_assert_true (gtk_source_buffer_get_highlight_syntax (GTK_SOURCE_BUFFER (buffer)));

  /* Pasted, then deleted. */
  gtk_text_buffer_get_end_iter (buffer, &iter);
  gtk_text_buffer_insert (buffer, &iter, line, -1);
  g_assert_false (gtk_source_buffer_get_highlight_syntax (GTK_SOURCE_BUFFER (buffer)));
  gtk_text_buffer_get_iter_at_line (buffer, &iter, 1);
  gtk_text_iter_forward_chars (&iter, 2);
  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_delete (buffer, &iter, &end);
  g_assert_true (gtk_source_buffer_get_highlight_syntax (GTK_SOURCE_BUFFER (buffer)));

  /* Two lines that fit, joined into one that does not. */
  joined = g_strdup_printf ("%s\n%s", half, half);
  gtk_text_buffer_set_text (buffer, joined, -1);
  g_assert_true (gtk_source_buffer_get_highlight_syntax (GTK_SOURCE_BUFFER (buffer)));
  gtk_text_buffer_get_iter_at_line (buffer, &iter, 1);
  end = iter;
  gtk_text_iter_backward_char (&iter);
  gtk_text_buffer_delete (buffer, &iter, &end);
  g_assert_false (gtk_source_buffer_get_highlight_syntax (GTK_SOURCE_BUFFER (buffer)));

  /* A view with no language is never highlighted. */
  tb_source_view_set_language (view, NULL);
  gtk_text_buffer_set_text (buffer, "{}", -1);
  g_assert_false (gtk_source_buffer_get_highlight_syntax (GTK_SOURCE_BUFFER (buffer)));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A text block shows the start of a long text and Show More, named for
 * the accessibility bus, which shows the rest; control characters show
 * as escapes; a short text has no Show More. */
static void
test_text_block (void)
{
  g_autoptr(GString) text = g_string_new ("\x1b[2Jstart ");
  GtkWidget *block, *label, *more;

  while (text->len < 20000)
    g_string_append (text, "lorem ipsum ");
  block = g_object_ref_sink (tb_text_block_new (text->str, "monospace"));
  label = gtk_widget_get_first_child (block);
  more = gtk_widget_get_next_sibling (label);
  g_assert_true (gtk_widget_has_css_class (label, "monospace"));
  g_assert_true (g_str_has_prefix (gtk_label_get_label (GTK_LABEL (label)),
                                   "\\u001b[2Jstart lorem"));
  g_assert_cmpint (g_utf8_strlen (gtk_label_get_label (GTK_LABEL (label)), -1), <=,
                   TB_TEXT_BLOCK_SHOWN_CHARS);
  g_assert_true (gtk_widget_get_visible (more));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (more)), ==, "Show More");
  g_assert_true (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (more),
                                                   GTK_ACCESSIBLE_RELATION_LABELLED_BY));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (more), TRUE);
  g_assert_cmpuint (strlen (gtk_label_get_label (GTK_LABEL (label))), ==,
                    text->len + strlen ("\\u001b") - 1);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (more)), ==, "Show Less");
  g_object_unref (block);

  block = g_object_ref_sink (tb_text_block_new ("short", NULL));
  label = gtk_widget_get_first_child (block);
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (label)), ==, "short");
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_next_sibling (label)));
  g_object_unref (block);
}

static void
test_prompt_row (void)
{
  g_autoptr(GString) text = g_string_new ("{\"name\": \"menu\", \"description\": \"");
  g_autoptr(JsonNode) definition = NULL;
  g_autoptr(TbMcpPrompt) prompt = NULL;
  GtkWidget *row = g_object_ref_sink (tb_mcp_prompt_row_new ());
  const char *shown = NULL;

  for (guint i = 0; i < 3000; i++)
    g_string_append (text, "Reads the menu ");
  g_string_append (text, "\"}");
  definition = test_parse (text->str);
  prompt = tb_mcp_prompt_new_from_json (json_node_get_object (definition));
  tb_mcp_prompt_row_set_prompt (TB_MCP_PROMPT_ROW (row), prompt);

  for (GtkWidget *child = gtk_widget_get_first_child (row); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LABEL (child) && g_str_has_prefix (gtk_label_get_label (GTK_LABEL (child)), "Reads"))
      shown = gtk_label_get_label (GTK_LABEL (child));
  g_assert_nonnull (shown);
  g_assert_cmpuint (g_utf8_strlen (shown, -1), <=, 500);
  g_assert_true (g_str_has_suffix (shown, "menu…"));

  g_object_unref (row);
}

/* The first widget of @type below @widget, depth first. */
static gpointer
first_of (GtkWidget *widget,
          GType      type)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      gpointer found = G_TYPE_CHECK_INSTANCE_TYPE (child, type) ? child : first_of (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

#define first_label(widget) ((GtkLabel *) first_of ((widget), GTK_TYPE_LABEL))
#define first_toggle(widget) ((GtkToggleButton *) first_of ((widget), GTK_TYPE_TOGGLE_BUTTON))

/* A message row's JSON expander. */
static GtkExpander *
json_expander (GtkWidget *row)
{
  GtkWidget *expander = first_of (row, GTK_TYPE_EXPANDER);

  while (expander != NULL && g_strcmp0 (gtk_expander_get_label (GTK_EXPANDER (expander)),
                                        "JSON") != 0)
    expander = gtk_widget_get_next_sibling (expander);
  g_assert_nonnull (expander);
  return GTK_EXPANDER (expander);
}

/* What the view under @expander holds. */
static char *
expander_text (GtkExpander *expander)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (gtk_expander_get_child (
                                                                      expander)));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/* A long result in the conversation shows its start, then what the
 * person decided about its call; Show More shows it all. */
static void
test_message_row (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(TbMessage) message = NULL;
  g_autoptr(TbTrace) trace = tb_trace_new ();
  g_autoptr(TbRedactor) redactor = tb_redactor_new ();
  g_autoptr(JsonObject) decision = json_object_new ();
  g_autofree char *whole = NULL;
  g_autofree char *end = NULL;
  GtkWidget *row;
  GtkLabel *label;
  GtkToggleButton *more;
  const char *shown;
  const char *note = "Skipped by you: the model was told your result, the tool did not run";

  while (text->len < 120000)
    g_string_append (text, "line of a file ");
  message = tb_message_new_tool_result ("call_1", "read_file", text->str, FALSE);
  json_object_set_string_member (decision, "call_id", "call_1");
  json_object_set_string_member (decision, "decision", "skip");
  tb_trace_append (trace, "decision", decision);
  row = g_object_ref_sink (tb_message_row_new_for_message (message, trace, redactor));
  end = g_strconcat ("…\n", note, NULL);
  label = first_label (row);
  more = first_toggle (row);

  shown = gtk_label_get_label (label);
  g_assert_cmpuint (g_utf8_strlen (shown, -1), <=, 2000 + 1 + strlen (note));
  g_assert_true (g_str_has_prefix (shown, "Result of read_file: line of a file"));
  g_assert_true (g_str_has_suffix (shown, end));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (more)));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (more)), ==, "Show More");

  whole = g_strdup_printf ("Result of read_file: %s\n%s", text->str, note);
  g_assert_cmpstr (tb_message_row_get_summary (TB_MESSAGE_ROW (row)), ==, whole);
  gtk_toggle_button_set_active (more, TRUE);
  g_assert_cmpstr (gtk_label_get_label (label), ==, whole);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (more)), ==, "Show Less");

  /* The JSON, with the 120,000 characters, is in its view only while its
   * expander is open, its long lines broken. */
  {
    GtkExpander *expander = json_expander (row);
    g_autofree char *closed = expander_text (expander);
    g_autofree char *open = NULL;
    g_autofree char *closed_again = NULL;

    g_auto(GStrv) lines = NULL;
    g_autoptr(GString) joined = g_string_new (NULL);

    g_assert_cmpstr (closed, ==, "");
    gtk_expander_set_expanded (expander, TRUE);
    open = expander_text (expander);
    /* Its long lines broken for the view, nothing else changed. */
    lines = g_strsplit (open, "\n", -1);
    for (guint i = 0; lines[i] != NULL; i++)
      g_assert_cmpuint (strlen (lines[i]), <=, TB_TEXT_LONG_LINE);
    for (const char *p = open; *p != '\0'; p++)
      if (*p != '\n')
        g_string_append_c (joined, *p);
    {
      g_autoptr(GString) json = g_string_new (NULL);

      for (const char *p = tb_message_row_get_json (TB_MESSAGE_ROW (row)); *p != '\0'; p++)
        if (*p != '\n')
          g_string_append_c (json, *p);
      g_assert_true (g_str_equal (joined->str, json->str));
    }
    g_assert_nonnull (strstr (tb_message_row_get_json (TB_MESSAGE_ROW (row)), text->str));
    gtk_expander_set_expanded (expander, FALSE);
    closed_again = expander_text (expander);
    g_assert_cmpstr (closed_again, ==, "");
  }
  g_object_unref (row);

  /* A short message shows whole, without the button. */
  row = g_object_ref_sink (tb_message_row_new ("Model: Done.", "{}", TB_MESSAGE_ROW_MODEL));
  g_assert_cmpstr (gtk_label_get_label (first_label (row)), ==, "Model: Done.");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (first_toggle (row))));
  g_object_unref (row);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  tb_app_init ();

  g_test_add_func ("/app-util/cut-at-word", test_cut_at_word);
  g_test_add_func ("/app-util/json-shorten", test_json_shorten);
  g_test_add_func ("/app-util/highlight-long-lines", test_highlight_long_lines);
  g_test_add_func ("/app-util/text-block", test_text_block);
  g_test_add_func ("/app-util/prompt-row", test_prompt_row);
  g_test_add_func ("/app-util/message-row", test_message_row);
  return g_test_run ();
}
