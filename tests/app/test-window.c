/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-window"

#include "config.h"

#include <adwaita.h>
#include <string.h>
#include <toolbench.h>

#include "tb-app-util.h"
#include "tb-heading-row.h"
#include "tb-history-row.h"
#include "tb-json-tree.h"
#include "tb-test-tools.h"
#include "tb-window.h"
#include "tb-history-page-private.h"
#include "tb-argument-editor-private.h"
#include "tb-tool-hints-bar-private.h"
#include "tb-tool-page-private.h"
#include "tb-tool-row.h"
#include "tb-history-row-private.h"
#include "tb-result-view-private.h"
#include "tb-schema-form-private.h"
#include "tb-window-private.h"
#include "../test-json-util.h"
#include "window-test-util.h"

/* The real window, driven through its widgets, over a registry of test
 * tools. Assertions are on what a person sees: the listed tools, the text
 * of the JSON view, the error under a field, the Run button's state, the
 * result's text. */

typedef struct
{
  TbToolRegistry *registry;
  TbWindow       *window;
} Fixture;

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);

  g_settings_reset (settings, "last-tool");
  g_settings_reset (settings, "last-arguments");
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");

  f->registry = tb_test_tools_new_registry ();
  f->window = g_object_ref (tb_window_new (NULL, f->registry, NULL));
  gtk_window_present (GTK_WINDOW (f->window));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (f->window)));
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  window_test_iterate (50);
  g_assert_finalize_object (f->window);
  g_assert_finalize_object (f->registry);
}

static TbToolPage *
page (Fixture *f)
{
  return tb_window_get_tool_page (f->window);
}

static TbArgumentEditor *
editor (Fixture *f)
{
  return tb_tool_page_get_argument_editor (page (f));
}

static TbSchemaForm *
form (Fixture *f)
{
  return tb_argument_editor_get_form (editor (f));
}

static char *
json_text (Fixture *f)
{
  return tb_argument_editor_get_text (editor (f));
}

static GtkWidget *
input (Fixture    *f,
       const char *pointer)
{
  GtkWidget *widget = tb_schema_form_get_input (form (f), pointer);

  g_assert_nonnull (widget);
  return widget;
}

/* The person tabs out of a field. */
static void
leave (Fixture    *f,
       const char *pointer)
{
  gtk_widget_grab_focus (input (f, pointer));
  gtk_widget_grab_focus (tb_tool_page_get_run_button (page (f)));
}

static guint
n_listed_problems (Fixture *f)
{
  return tb_argument_editor_get_shown_errors (editor (f))->len;
}

static char **
listed_names (Fixture *f)
{
  GListModel *model = tb_window_get_tool_model (f->window);
  GStrvBuilder *builder = g_strv_builder_new ();
  char **names;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TbTool) tool = g_list_model_get_item (model, i);

      g_strv_builder_add (builder, tb_tool_get_name (tool));
    }
  names = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return names;
}

static void
open_tool (Fixture    *f,
           const char *name)
{
  g_assert_true (tb_window_select_tool (f->window, name));
  g_assert_cmpstr (tb_tool_get_name (tb_tool_page_get_tool (page (f))), ==, name);
  /* A button is clicked only once it is on screen. */
  WAIT_UNTIL (gtk_widget_get_mapped (tb_tool_page_get_run_button (page (f))));
}

static void
test_search (Fixture       *f,
             gconstpointer  data)
{
  GtkEditable *search = tb_window_get_search_entry (f->window);
  GtkDropDown *sources = tb_window_get_source_dropdown (f->window);
  g_auto(GStrv) all = listed_names (f);
  g_auto(GStrv) weather = NULL;
  g_auto(GStrv) by_description = NULL;
  g_auto(GStrv) none = NULL;
  g_auto(GStrv) reports = NULL;
  const char * const sorted[] = { "create_issue", "disk_cleanup", "facts_commit",
                                  "get_weather", "slow_report", NULL };

  g_assert_cmpstrv (all, sorted);
  g_assert_cmpstr (tb_window_get_count_text (f->window), ==, "5 tools");

  gtk_editable_set_text (search, "weath");
  WAIT_UNTIL (g_list_model_get_n_items (tb_window_get_tool_model (f->window)) == 1);
  weather = listed_names (f);
  g_assert_cmpstr (weather[0], ==, "get_weather");
  g_assert_cmpstr (tb_window_get_count_text (f->window), ==, "1 of 5 tools");

  /* Words match the description too, and all of them must match. */
  gtk_editable_set_text (search, "FULL disk");
  WAIT_UNTIL (g_list_model_get_n_items (tb_window_get_tool_model (f->window)) == 1);
  by_description = listed_names (f);
  g_assert_cmpstr (by_description[0], ==, "disk_cleanup");

  gtk_editable_set_text (search, "no such thing");
  WAIT_UNTIL (g_list_model_get_n_items (tb_window_get_tool_model (f->window)) == 0);
  none = listed_names (f);
  g_assert_cmpuint (g_strv_length (none), ==, 0);
  g_assert_cmpstr (tb_window_get_count_text (f->window), ==, "0 of 5 tools");

  gtk_editable_set_text (search, "");
  WAIT_UNTIL (g_list_model_get_n_items (tb_window_get_tool_model (f->window)) == 5);

  /* The source filter lists each source once, after "All Sources". */
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (sources)), ==, 4);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (gtk_drop_down_get_model (sources)),
                                               3), ==, "reports");
  gtk_drop_down_set_selected (sources, 3);
  reports = listed_names (f);
  g_assert_cmpuint (g_strv_length (reports), ==, 2);
  g_assert_cmpstr (reports[0], ==, "disk_cleanup");
  g_assert_cmpstr (reports[1], ==, "slow_report");
  gtk_drop_down_set_selected (sources, 0);
  g_assert_cmpuint (g_list_model_get_n_items (tb_window_get_tool_model (f->window)), ==, 5);
}

/* A command tool's manifest folder is one source in the filter, however
 * many manifests it holds; a folder inside it is another. */
static void
test_source_folders (Fixture       *f,
                     gconstpointer  data)
{
  static const char * const sources[] = {
    "manifest:/tools/one.json", "manifest:/tools/two.json", "manifest:/tools/more/three.json",
  };
  static const char * const names[] = { "tool_one", "tool_two", "tool_three" };
  GtkDropDown *dropdown = tb_window_get_source_dropdown (f->window);
  GListModel *listed = gtk_drop_down_get_model (dropdown);
  g_auto(GStrv) in_tools = NULL;
  g_auto(GStrv) in_more = NULL;
  guint tools = G_MAXUINT;
  guint more = G_MAXUINT;

  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      g_autofree char *text =
        g_strdup_printf ("{\"name\": \"%s\", \"parameters\": {\"type\": \"object\"}, "
                         "\"command\": [\"/bin/true\"]}", names[i]);
      g_autoptr(JsonNode) manifest = json_from_string (text, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(TbTool) tool = tb_command_tool_new_from_json (manifest, "/tools", sources[i],
                                                              &error);

      g_assert_no_error (error);
      g_assert_true (tb_tool_registry_register (f->registry, tool, &error));
    }
  /* All Sources, the test tools' three, and the two folders. */
  WAIT_UNTIL (g_list_model_get_n_items (listed) == 6);
  for (guint i = 0; i < g_list_model_get_n_items (listed); i++)
    {
      const char *name = gtk_string_list_get_string (GTK_STRING_LIST (listed), i);

      g_assert_false (g_str_has_suffix (name, ".json"));
      if (g_str_equal (name, "manifest:/tools/"))
        tools = i;
      else if (g_str_equal (name, "manifest:/tools/more/"))
        more = i;
    }
  g_assert_cmpuint (tools, <, 6);
  g_assert_cmpuint (more, <, 6);

  gtk_drop_down_set_selected (dropdown, tools);
  in_tools = listed_names (f);
  g_assert_cmpuint (g_strv_length (in_tools), ==, 2);
  g_assert_cmpstr (in_tools[0], ==, "tool_one");
  g_assert_cmpstr (in_tools[1], ==, "tool_two");
  gtk_drop_down_set_selected (dropdown, more);
  in_more = listed_names (f);
  g_assert_cmpuint (g_strv_length (in_more), ==, 1);
  g_assert_cmpstr (in_more[0], ==, "tool_three");
  gtk_drop_down_set_selected (dropdown, 0);
  g_assert_cmpuint (g_list_model_get_n_items (tb_window_get_tool_model (f->window)), ==, 8);
}

static void
test_form_to_json (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *json = NULL;
  g_autofree char *after = NULL;
  GtkWidget *run_button;

  open_tool (f, "get_weather");
  run_button = tb_tool_page_get_run_button (page (f));

  /* Defaults are prefilled; the required city is not there yet, which is
   * not an error until the person leaves the field or runs. */
  json = json_text (f);
  g_assert_nonnull (strstr (json, "\"units\" : \"metric\""));
  g_assert_null (strstr (json, "city"));
  g_assert_false (tb_argument_editor_get_valid (editor (f)));
  g_assert_true (gtk_widget_get_sensitive (run_button));
  g_assert_null (tb_schema_form_get_field_error (form (f), "/city"));
  g_assert_cmpuint (n_listed_problems (f), ==, 0);
  g_assert_cmpstr (tb_tool_page_get_status_text (page (f)), ==, "");
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_next_sibling (run_button)));
  g_assert_false (gtk_widget_has_css_class (gtk_widget_get_ancestor (input (f, "/city"),
                                                                     GTK_TYPE_LIST_BOX_ROW),
                                            "tb-field-invalid"));
  leave (f, "/city");
  g_assert_cmpstr (tb_schema_form_get_field_error (form (f), "/city"), ==,
                   "This field is required.");
  g_assert_true (gtk_widget_has_css_class (gtk_widget_get_ancestor (input (f, "/city"),
                                                                    GTK_TYPE_LIST_BOX_ROW),
                                           "tb-field-invalid"));
  g_assert_cmpuint (n_listed_problems (f), ==, 1);

  gtk_editable_set_text (GTK_EDITABLE (input (f, "/city")), "Paris");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (input (f, "/units")), 2);
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/days")), "3");
  gtk_switch_set_active (GTK_SWITCH (input (f, "/hourly")), TRUE);

  after = json_text (f);
  g_assert_nonnull (strstr (after, "\"city\" : \"Paris\""));
  g_assert_nonnull (strstr (after, "\"units\" : \"imperial\""));
  g_assert_nonnull (strstr (after, "\"days\" : 3"));
  g_assert_nonnull (strstr (after, "\"hourly\" : true"));
  g_assert_null (tb_schema_form_get_field_error (form (f), "/city"));
  g_assert_true (tb_argument_editor_get_valid (editor (f)));
  g_assert_true (gtk_widget_get_sensitive (run_button));

  /* An optional switch can go back to sending nothing. */
  {
    GtkWidget *hourly = input (f, "/hourly");
    GtkWidget *clear = NULL;
    g_autofree char *without = NULL;

    for (GtkWidget *w = gtk_widget_get_first_child (gtk_widget_get_parent (hourly)); w != NULL;
         w = gtk_widget_get_next_sibling (w))
      if (g_strcmp0 (gtk_widget_get_tooltip_text (w), "Do Not Send") == 0)
        clear = w;
    g_assert_nonnull (clear);
    g_assert_true (gtk_widget_get_visible (clear));
    g_signal_emit_by_name (clear, "clicked");
    without = json_text (f);
    g_assert_null (strstr (without, "hourly"));
    g_assert_false (gtk_widget_get_visible (clear));
    g_assert_false (gtk_switch_get_active (GTK_SWITCH (hourly)));
  }
}

static void
test_json_to_form (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  GtkTextBuffer *buffer;

  open_tool (f, "get_weather");
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/city")), "Paris");

  /* Typing into the JSON view fills the form. */
  buffer = tb_argument_editor_get_json_buffer (editor (f));
  gtk_text_buffer_set_text (buffer,
                            "{\"city\": \"Oslo\", \"days\": 5, \"units\": \"imperial\"}", -1);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input (f, "/city"))), ==, "Oslo");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input (f, "/days"))), ==, "5");
  /* Position 0 of an optional enum is "(not set)". */
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (input (f, "/units"))), ==, 2);

  /* Broken JSON is reported in place and the form keeps its values. */
  gtk_text_buffer_set_text (buffer, "{\"city\": \"Ro", -1);
  g_assert_nonnull (tb_argument_editor_get_json_error (editor (f)));
  g_assert_true (g_str_has_prefix (tb_argument_editor_get_json_error (editor (f)),
                                   "Not valid JSON at line 1, column "));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input (f, "/city"))), ==, "Oslo");
  g_assert_cmpstr (tb_tool_page_get_status_text (page (f)), ==, "Fix the JSON to run the tool.");
  tb_tool_page_run (page (f));
  g_assert_false (tb_tool_page_get_running (page (f)));
  g_assert_null (tb_result_view_get_result (tb_tool_page_get_result_view (page (f))));

  /* Pasting JSON (here through the same entry point as the clipboard) is accepted. */
  g_assert_true (tb_argument_editor_set_text (editor (f), "{\"city\":\"Rome\"}", &error));
  g_assert_no_error (error);
  g_assert_null (tb_argument_editor_get_json_error (editor (f)));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input (f, "/city"))), ==, "Rome");
  g_assert_true (gtk_widget_get_sensitive (tb_tool_page_get_run_button (page (f))));

  /* Members the form has no field for survive a trip through the form. */
  gtk_text_buffer_set_text (buffer, "{\"city\": \"Bern\", \"extra\": [1, 2]}", -1);
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/city")), "Basel");
  {
    g_autofree char *json = json_text (f);

    g_assert_nonnull (strstr (json, "\"extra\" : ["));
    g_assert_nonnull (strstr (json, "\"Basel\""));
  }
}

static void
test_invalid_value (Fixture       *f,
                    gconstpointer  data)
{
  TbResultView *result_view;
  GtkWidget *run_button;
  GtkWidget *anyway;

  open_tool (f, "get_weather");
  result_view = tb_tool_page_get_result_view (page (f));
  run_button = tb_tool_page_get_run_button (page (f));
  anyway = gtk_widget_get_next_sibling (run_button);
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/city")), "Paris");
  g_assert_true (gtk_widget_get_sensitive (run_button));

  /* Not a number: nothing is said while the person is still typing… */
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/days")), "three");
  g_assert_null (tb_schema_form_get_field_error (form (f), "/days"));
  g_assert_false (tb_argument_editor_get_valid (editor (f)));
  g_assert_false (gtk_widget_get_visible (anyway));

  /* …and once they leave, one message, at the field and in the list. */
  leave (f, "/days");
  g_assert_cmpstr (tb_schema_form_get_field_error (form (f), "/days"), ==,
                   "Enter a whole number");
  g_assert_cmpuint (n_listed_problems (f), ==, 1);
  g_assert_cmpstr (((TbSchemaError *) g_ptr_array_index (
                      tb_argument_editor_get_shown_errors (editor (f)), 0))->instance_path,
                   ==, "/days");
  g_assert_cmpstr (tb_tool_page_get_status_text (page (f)), ==,
                   "Fix the problems to run, or choose Run Anyway.");
  g_assert_true (gtk_widget_get_visible (anyway));

  /* Run refuses: nothing is sent. */
  tb_tool_page_run (page (f));
  g_assert_false (tb_tool_page_get_running (page (f)));
  g_assert_null (tb_result_view_get_result (result_view));

  /* A fraction where an integer is wanted: the schema check says so, once. */
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/days")), "2.5");
  g_assert_cmpstr (tb_schema_form_get_field_error (form (f), "/days"), ==,
                   "must be of type integer, not number");
  g_assert_cmpuint (n_listed_problems (f), ==, 1);

  /* Run Anyway sends exactly that; the tool answers, and the result and
   * the history say the arguments were not validated. */
  g_assert_true (gtk_widget_get_sensitive (anyway));
  tb_tool_page_run_anyway (page (f));
  WAIT_UNTIL (tb_result_view_get_result (result_view) != NULL);
  g_assert_true (tb_tool_result_get_ok (tb_result_view_get_result (result_view)));
  g_assert_cmpstr (tb_result_view_get_status_text (result_view), ==,
                   "Succeeded · not validated");
  {
    TbHistoryPage *history = tb_window_get_history_page (f->window);
    GtkListBoxRow *row = gtk_list_box_get_row_at_index (tb_history_page_get_list (history), 0);
    TbHistoryEntry *entry = tb_history_row_get_entry (TB_HISTORY_ROW (row));
    g_autofree char *sent = tb_json_to_string (tb_history_entry_get_arguments (entry), FALSE);
    g_autofree char *status = NULL;

    g_assert_cmpstr (sent, ==, "{\"city\":\"Paris\",\"units\":\"metric\",\"days\":2.5}");
    g_object_get (entry, "status-label", &status, NULL);
    g_assert_true (g_str_has_suffix (status, " · not validated"));
  }

  /* Words where a number goes are sent as the words. */
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/days")), "three");
  tb_tool_page_run_anyway (page (f));
  WAIT_UNTIL (!tb_tool_page_get_running (page (f)));
  {
    TbHistoryPage *history = tb_window_get_history_page (f->window);
    GtkListBoxRow *row = gtk_list_box_get_row_at_index (tb_history_page_get_list (history), 0);
    TbHistoryEntry *entry = tb_history_row_get_entry (TB_HISTORY_ROW (row));
    g_autofree char *sent = tb_json_to_string (tb_history_entry_get_arguments (entry), FALSE);

    g_assert_cmpstr (sent, ==,
                     "{\"city\":\"Paris\",\"units\":\"metric\",\"days\":\"three\"}");
  }

  gtk_editable_set_text (GTK_EDITABLE (input (f, "/days")), "2");
  g_assert_null (tb_schema_form_get_field_error (form (f), "/days"));
  g_assert_true (gtk_widget_get_sensitive (run_button));
  g_assert_false (gtk_widget_get_visible (anyway));
}

/* Run with a required field left empty shows its error; a required number
 * holding words says only "Enter a number", not also that it is missing. */
static void
test_run_reveals (Fixture       *f,
                  gconstpointer  data)
{
  open_tool (f, "slow_report");
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/ms")), "");
  g_assert_null (tb_schema_form_get_field_error (form (f), "/ms"));
  tb_tool_page_run (page (f));
  g_assert_false (tb_tool_page_get_running (page (f)));
  g_assert_cmpstr (tb_schema_form_get_field_error (form (f), "/ms"), ==,
                   "This field is required.");
  g_assert_cmpuint (n_listed_problems (f), ==, 1);
  /* The field with the problem gets the focus. */
  g_assert_true (gtk_widget_is_focus (input (f, "/ms")) ||
                 gtk_widget_has_focus (input (f, "/ms")) ||
                 gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (f->window)),
                                         input (f, "/ms")));

  gtk_editable_set_text (GTK_EDITABLE (input (f, "/ms")), "soon");
  g_assert_cmpstr (tb_schema_form_get_field_error (form (f), "/ms"), ==, "Enter a whole number");
  g_assert_cmpuint (n_listed_problems (f), ==, 1);
  g_assert_cmpuint (tb_argument_editor_get_errors (editor (f))->len, ==, 1);

  /* Reset goes back to a quiet form. */
  tb_argument_editor_reset (editor (f));
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/ms")), "");
  g_assert_null (tb_schema_form_get_field_error (form (f), "/ms"));
  g_assert_cmpuint (n_listed_problems (f), ==, 0);
}

/* A number is shown and sent as a person wrote it: 3.14, never
 * 3.1400000000000001. */
static void
test_number_as_written (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *json = NULL;
  g_autoptr(JsonNode) sent = NULL;

  open_tool (f, "get_weather");
  tb_argument_editor_set_text (editor (f), "{\"city\": \"Paris\", \"extra\": 3.14}", NULL);
  json = json_text (f);
  g_assert_nonnull (strstr (json, "\"extra\" : 3.14\n"));
  g_assert_null (strstr (json, "3.1400000000000001"));

  open_tool (f, "create_issue");
  tb_argument_editor_set_text (editor (f), "{\"title\": \"t\", \"priority\": 3.14}", NULL);
  {
    g_autofree char *shown_json = json_text (f);

    g_assert_null (strstr (shown_json, "3.1400000000000001"));
  }

  /* Typed into a number field, sent as the number 3.14. */
  open_tool (f, "get_weather");
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/city")), "Paris");
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/days")), "3.14");
  sent = tb_argument_editor_get_arguments (editor (f));
  g_assert_cmpfloat (json_object_get_double_member (json_node_get_object (sent), "days"), ==,
                     3.14);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input (f, "/days"))), ==, "3.14");
  {
    g_autofree char *shown_json = json_text (f);

    g_assert_nonnull (strstr (shown_json, "\"days\" : 3.14"));
    g_assert_null (strstr (shown_json, "3.1400000000000001"));
  }
  /* Reading it back from the JSON view keeps the text. */
  tb_argument_editor_set_text (editor (f), "{\"city\": \"Paris\", \"days\": 3.14}", NULL);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input (f, "/days"))), ==, "3.14");
}

static void
test_run (Fixture       *f,
          gconstpointer  data)
{
  TbResultView *result_view;
  g_autofree char *output = NULL;
  TbHistoryPage *history;

  open_tool (f, "get_weather");
  result_view = tb_tool_page_get_result_view (page (f));
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/city")), "Paris");
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/days")), "2");

  gtk_widget_activate (tb_tool_page_get_run_button (page (f)));
  WAIT_UNTIL (tb_result_view_get_result (result_view) != NULL);

  g_assert_cmpstr (tb_result_view_get_status_text (result_view), ==, "Succeeded");
  output = tb_result_view_get_output_text (result_view);
  g_assert_nonnull (strstr (output, "\"city\" : \"Paris\""));
  g_assert_nonnull (strstr (output, "\"sky\" : \"cloudy\""));
  g_assert_null (tb_result_view_get_error_text (result_view));

  /* A failing tool: its kind and its message. */
  open_tool (f, "disk_cleanup");
  g_assert_null (tb_result_view_get_result (result_view));
  g_assert_true (gtk_widget_get_sensitive (tb_tool_page_get_run_button (page (f))));
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.run", NULL);
  WAIT_UNTIL (tb_result_view_get_result (result_view) != NULL);
  g_assert_cmpstr (tb_result_view_get_status_text (result_view), ==, "Failed: execution-failed");
  g_assert_cmpstr (tb_result_view_get_error_text (result_view), ==,
                   "The disk is full; free some space and try again.");

  /* Both calls are in the history, newest first. */
  history = tb_window_get_history_page (f->window);
  {
    GtkListBoxRow *first = gtk_list_box_get_row_at_index (tb_history_page_get_list (history), 0);
    GtkListBoxRow *second = gtk_list_box_get_row_at_index (tb_history_page_get_list (history), 1);
    TbHistoryEntry *entry;

    g_assert_nonnull (first);
    g_assert_nonnull (second);
    entry = tb_history_row_get_entry (TB_HISTORY_ROW (first));
    g_assert_cmpstr (tb_history_entry_get_tool_name (entry), ==, "disk_cleanup");
    entry = tb_history_row_get_entry (TB_HISTORY_ROW (second));
    g_assert_cmpstr (tb_history_entry_get_tool_name (entry), ==, "get_weather");
    g_assert_true (tb_tool_result_get_ok (tb_history_entry_get_result (entry)));
  }
}

static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  TbResultView *result_view;
  GtkWidget *cancel;

  open_tool (f, "slow_report");
  result_view = tb_tool_page_get_result_view (page (f));
  cancel = tb_tool_page_get_cancel_button (page (f));
  g_assert_false (gtk_widget_get_visible (cancel));

  gtk_widget_activate (tb_tool_page_get_run_button (page (f)));
  WAIT_UNTIL (tb_tool_page_get_running (page (f)));
  g_assert_true (gtk_widget_get_visible (cancel));
  g_assert_false (gtk_widget_get_sensitive (tb_tool_page_get_run_button (page (f))));

  /* The window stays responsive while the tool runs. */
  window_test_iterate (300);
  g_assert_true (tb_tool_page_get_running (page (f)));
  g_assert_true (g_str_has_prefix (tb_tool_page_get_status_text (page (f)), "Running for"));

  gtk_widget_activate (cancel);
  WAIT_UNTIL (tb_result_view_get_result (result_view) != NULL);
  g_assert_cmpstr (tb_result_view_get_status_text (result_view), ==, "Failed: cancelled");
  g_assert_false (tb_tool_page_get_running (page (f)));
  g_assert_false (gtk_widget_get_visible (cancel));
  g_assert_true (gtk_widget_get_sensitive (tb_tool_page_get_run_button (page (f))));
}

static void
test_history_restore (Fixture       *f,
                      gconstpointer  data)
{
  TbResultView *result_view;
  GtkListBox *recent;
  GtkListBoxRow *row;

  open_tool (f, "get_weather");
  result_view = tb_tool_page_get_result_view (page (f));
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/city")), "Rome");
  gtk_widget_activate (tb_tool_page_get_run_button (page (f)));
  WAIT_UNTIL (tb_result_view_get_result (result_view) != NULL);

  recent = tb_tool_page_get_recent_list (page (f));
  row = gtk_list_box_get_row_at_index (recent, 0);
  g_assert_nonnull (row);
  g_assert_null (gtk_list_box_get_row_at_index (recent, 1));

  gtk_editable_set_text (GTK_EDITABLE (input (f, "/city")), "Nowhere");
  g_signal_emit_by_name (recent, "row-activated", row);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input (f, "/city"))), ==, "Rome");

  /* From the History page: select the call, open it in the Tool page. */
  open_tool (f, "disk_cleanup");
  tb_window_set_page (f->window, "history");
  {
    TbHistoryPage *history = tb_window_get_history_page (f->window);
    GtkListBoxRow *first = gtk_list_box_get_row_at_index (tb_history_page_get_list (history), 0);

    gtk_list_box_select_row (tb_history_page_get_list (history), first);
    g_assert_nonnull (tb_history_page_get_selected (history));
  }
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.restore-call", NULL);
  g_assert_cmpstr (tb_tool_get_name (tb_tool_page_get_tool (page (f))), ==, "get_weather");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input (f, "/city"))), ==, "Rome");
}

static void
test_last_arguments (Fixture       *f,
                     gconstpointer  data)
{
  open_tool (f, "get_weather");
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/city")), "Lisbon");
  open_tool (f, "create_issue");
  open_tool (f, "get_weather");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input (f, "/city"))), ==, "Lisbon");

  /* Closing the window remembers its size... */
  gtk_window_set_default_size (GTK_WINDOW (f->window), 900, 700);
  window_test_iterate (50);
  gtk_window_close (GTK_WINDOW (f->window));
  window_test_iterate (50);
  g_assert_finalize_object (f->window);
  {
    g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);

    g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 900);
    g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 700);
  }

  /* ...and a new window (as after a restart) opens at that size, on the last
   * tool, with its arguments. */
  f->window = g_object_ref (tb_window_new (NULL, f->registry, NULL));
  gtk_window_present (GTK_WINDOW (f->window));
  {
    int width, height;

    gtk_window_get_default_size (GTK_WINDOW (f->window), &width, &height);
    g_assert_cmpint (width, ==, 900);
    g_assert_cmpint (height, ==, 700);
  }
  g_assert_nonnull (tb_tool_page_get_tool (page (f)));
  g_assert_cmpstr (tb_tool_get_name (tb_tool_page_get_tool (page (f))), ==, "get_weather");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input (f, "/city"))), ==, "Lisbon");
}

/* The button with this tooltip in the header line of the field's row. */
static GtkWidget *
row_button (GtkWidget  *input,
            const char *tooltip)
{
  GtkWidget *box = gtk_widget_get_parent (input);
  GtkWidget *header = gtk_widget_get_first_child (box);

  for (GtkWidget *child = gtk_widget_get_first_child (header); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (g_strcmp0 (gtk_widget_get_tooltip_text (child), tooltip) == 0)
      return child;
  g_error ("No button “%s” beside the field", tooltip);
  return NULL;
}

static void
test_nested_form (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *json = NULL;
  GtkWidget *add;

  open_tool (f, "create_issue");
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/title")), "Crash on start");

  /* body is long text: a multi-line view. */
  g_assert_true (GTK_IS_TEXT_VIEW (input (f, "/body")));
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (input (f, "/body"))),
                            "Steps:\n1. start", -1);

  /* Arrays: add two items, fill them, move the second up. */
  add = tb_schema_form_get_add_button (form (f), "/labels");
  g_assert_nonnull (add);
  g_signal_emit_by_name (add, "clicked");
  g_signal_emit_by_name (add, "clicked");
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/labels/0")), "bug");
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/labels/1")), "crash");

  /* Move the second label up, then back down; remove neither. */
  g_signal_emit_by_name (row_button (input (f, "/labels/1"), "Move Item Up"), "clicked");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input (f, "/labels/0"))), ==, "crash");
  {
    g_autofree char *moved = json_text (f);

    g_assert_nonnull (strstr (moved, "\"crash\",\n    \"bug\""));
  }
  g_signal_emit_by_name (row_button (input (f, "/labels/0"), "Move Item Down"), "clicked");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input (f, "/labels/0"))), ==, "bug");

  /* Add a third and remove it again. */
  g_signal_emit_by_name (add, "clicked");
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/labels/2")), "temporary");
  g_signal_emit_by_name (row_button (input (f, "/labels/2"), "Remove Item"), "clicked");
  g_assert_null (tb_schema_form_get_input (form (f), "/labels/2"));

  /* $ref to an object: an expander with its own fields. */
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/assignee/login")), "ada");

  /* anyOf: the variant chooser switches the field's kind. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (input (f, "/priority")), 1);

  json = json_text (f);
  g_assert_nonnull (strstr (json, "\"body\" : \"Steps:\\n1. start\""));
  g_assert_nonnull (strstr (json, "\"bug\",\n    \"crash\""));
  g_assert_nonnull (strstr (json, "\"login\" : \"ada\""));
  g_assert_nonnull (strstr (json, "\"notify\" : true"));
  g_assert_true (tb_argument_editor_get_valid (editor (f)));

  /* JSON with a variant's other kind picks it in the form. */
  gtk_text_buffer_set_text (tb_argument_editor_get_json_buffer (editor (f)),
                            "{\"title\":\"x\",\"priority\":3,\"labels\":[\"a\"],\"due\":null}", -1);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input (f, "/labels/0"))), ==, "a");
  g_assert_null (tb_schema_form_get_input (form (f), "/labels/1"));
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/title")), "y");
  {
    g_autofree char *again = json_text (f);

    g_assert_nonnull (strstr (again, "\"due\" : null"));
    g_assert_nonnull (strstr (again, "\"priority\" : 3"));
  }
}

static void
test_live_registry (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(TbTool) tool = tb_test_tools_new_tool ("mcp_fetch", "server-fetch",
                                                   "{\"type\":\"object\",\"properties\":"
                                                   "{\"url\":{\"type\":\"string\"}}}");
  g_autoptr(TbTool) updated = tb_test_tools_new_tool ("mcp_fetch", "server-fetch",
                                                      "{\"type\":\"object\",\"properties\":"
                                                      "{\"url\":{\"type\":\"string\"},"
                                                      "\"max_bytes\":{\"type\":\"integer\"}}}");
  g_autoptr(GError) error = NULL;
  GtkDropDown *sources = tb_window_get_source_dropdown (f->window);

  g_assert_true (tb_tool_registry_register (f->registry, tool, &error));
  g_assert_no_error (error);
  WAIT_UNTIL (g_list_model_get_n_items (gtk_drop_down_get_model (sources)) == 5);
  g_assert_cmpuint (g_list_model_get_n_items (tb_window_get_tool_model (f->window)), ==, 6);

  open_tool (f, "mcp_fetch");
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/url")), "https://example.org");
  g_assert_true (gtk_widget_get_sensitive (tb_tool_page_get_run_button (page (f))));

  /* The server goes away: the page says so and Run is off. */
  g_assert_true (tb_tool_registry_unregister (f->registry, "mcp_fetch", &error));
  g_assert_cmpuint (g_list_model_get_n_items (tb_window_get_tool_model (f->window)), ==, 5);
  g_assert_true (tb_tool_page_get_gone (page (f)));
  g_assert_nonnull (strstr (tb_tool_page_get_gone_text (page (f)),
                            "“mcp_fetch” is no longer registered"));
  g_assert_false (gtk_widget_get_sensitive (tb_tool_page_get_run_button (page (f))));

  /* It comes back with a new field; the arguments are kept. */
  g_assert_true (tb_tool_registry_register (f->registry, updated, &error));
  g_assert_false (tb_tool_page_get_gone (page (f)));
  g_assert_nonnull (tb_schema_form_get_input (form (f), "/max_bytes"));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input (f, "/url"))), ==,
                   "https://example.org");
  g_assert_true (gtk_widget_get_sensitive (tb_tool_page_get_run_button (page (f))));
}

static void
test_bad_schemas (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GString) wide = g_string_new ("{\"type\":\"object\",\"properties\":{");
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(GString) enums =
    g_string_new ("{\"type\":\"object\",\"properties\":{\"e\":{\"enum\":[");
  g_autoptr(TbTool) wide_tool = NULL;
  g_autoptr(TbTool) deep_tool = NULL;
  g_autoptr(TbTool) recursive_tool = NULL;
  g_autoptr(TbTool) enum_tool = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 10000; i++)
    g_string_append_printf (wide, "%s\"p%u\":{\"type\":\"string\"}", i > 0 ? "," : "", i);
  g_string_append (wide, "}}");
  wide_tool = tb_test_tools_new_tool ("wide", "test", wide->str);

  for (guint i = 0; i < 50; i++)
    g_string_append (deep, "{\"type\":\"object\",\"properties\":{\"n\":");
  g_string_append (deep, "{\"type\":\"string\"}");
  for (guint i = 0; i < 50; i++)
    g_string_append (deep, "}}");
  deep_tool = tb_test_tools_new_tool ("deep", "test", deep->str);

  recursive_tool = tb_test_tools_new_tool ("tree", "test",
                                           "{\"type\":\"object\",\"$defs\":{\"node\":"
                                           "{\"type\":\"object\",\"properties\":{"
                                           "\"name\":{\"type\":\"string\"},"
                                           "\"children\":{\"type\":\"array\","
                                           "\"items\":{\"$ref\":\"#/$defs/node\"}},"
                                           "\"parent\":{\"$ref\":\"#/$defs/node\"}}}},"
                                           "\"properties\":{\"root\":"
                                           "{\"$ref\":\"#/$defs/node\"}}}");

  for (guint i = 0; i < 20000; i++)
    g_string_append_printf (enums, "%s\"v%u\"", i > 0 ? "," : "", i);
  g_string_append (enums, "]}}}");
  enum_tool = tb_test_tools_new_tool ("many_choices", "test", enums->str);

  g_assert_true (tb_tool_registry_register (f->registry, wide_tool, &error));
  g_assert_true (tb_tool_registry_register (f->registry, deep_tool, &error));
  g_assert_true (tb_tool_registry_register (f->registry, recursive_tool, &error));
  g_assert_true (tb_tool_registry_register (f->registry, enum_tool, &error));
  g_assert_no_error (error);

  /* 10,000 properties: the JSON view, with the reason. */
  open_tool (f, "wide");
  g_assert_cmpstr (tb_argument_editor_get_view (editor (f)), ==, "json");
  g_assert_cmpuint (tb_schema_form_get_n_fields (form (f)), ==, 0);

  /* 50 levels: the form goes as deep as it shows, then a JSON field. */
  open_tool (f, "deep");
  g_assert_cmpuint (tb_schema_form_get_n_fields (form (f)), <=, TB_SCHEMA_FORM_MAX_DEPTH + 2);
  g_assert_true (GTK_IS_ENTRY (input (f, "/n/n/n/n/n/n/n/n/n")));

  /* Recursive $ref: bounded, and the deep end is edited as JSON. */
  open_tool (f, "tree");
  g_assert_cmpuint (tb_schema_form_get_n_fields (form (f)), <, TB_SCHEMA_FORM_MAX_FIELDS);
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/root/name")), "top");
  {
    g_autofree char *json = json_text (f);

    g_assert_nonnull (strstr (json, "\"name\" : \"top\""));
  }

  /* 20,000 enum values: a searchable drop-down. */
  open_tool (f, "many_choices");
  g_assert_true (gtk_drop_down_get_enable_search (GTK_DROP_DOWN (input (f, "/e"))));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (input (f, "/e")), 20000);
  {
    g_autofree char *json = json_text (f);

    g_assert_nonnull (strstr (json, "\"v19999\""));
  }
}

/* A tool's JSON result with a string of 240 KB, a file's text with a
 * newline escape every dozen bytes: highlighting its one line cost more
 * than two minutes. It is shown plain, at once; a short result is
 * highlighted again. */
static void
test_long_json_line (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GString) file = g_string_new (NULL);
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(TbToolResult) small = NULL;
  g_autoptr(JsonNode) output = tb_json_node_new_object ();
  g_autoptr(JsonNode) small_output = tb_json_node_new_object ();
  g_autofree char *shown = NULL;
  TbResultView *view;
  gint64 started;

  while (file->len < 240 * 1024)
    g_string_append (file, "int x = \"a\";\n");
  json_object_set_string_member (json_node_get_object (output), "content", file->str);
  result = tb_tool_result_new_success (output);
  json_object_set_string_member (json_node_get_object (small_output), "content", "int x;\n");
  small = tb_tool_result_new_success (small_output);

  open_tool (f, "get_weather");
  view = tb_tool_page_get_result_view (page (f));
  started = g_get_monotonic_time ();
  tb_result_view_set_result (view, result);
  window_test_iterate (200);
  g_test_message ("shown in %.3f s", (g_get_monotonic_time () - started) / 1e6);
  g_assert_false (tb_result_view_get_output_highlighted (view));
  shown = tb_result_view_get_output_text (view);
  g_assert_nonnull (strstr (shown, "int x = \\\"a\\\";\\nint x"));

  tb_result_view_set_result (view, small);
  window_test_iterate (50);
  g_assert_true (tb_result_view_get_output_highlighted (view));
}

static gboolean
is_content_text (GtkWidget     *widget,
                 gconstpointer  data)
{
  return GTK_IS_LABEL (widget) && gtk_widget_has_css_class (widget, "tb-content-text");
}

/* An MCP result whose one text block is a file of 60 KB: the block shows
 * its start and Show More, which shows the rest; a short block has no
 * Show More. */
static void
test_long_text_block (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GString) file = g_string_new (NULL);
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(JsonNode) output = NULL;
  g_autoptr(JsonObject) metadata = json_object_new ();
  g_autofree char *json = NULL;
  g_autofree char *escaped = NULL;
  TbResultView *view;
  GtkWidget *label, *more;
  gint64 started;

  while (file->len < 60000)
    g_string_append (file, "lorem ipsum dolor sit amet\n");
  escaped = g_strescape (file->str, NULL);
  json = g_strdup_printf ("[{\"type\":\"text\",\"text\":\"%s\"},"
                          "{\"type\":\"text\",\"text\":\"short\"}]", escaped);
  output = test_parse (json);
  json_object_set_member (metadata, "content-types", test_parse ("[\"text\",\"text\"]"));
  result = tb_tool_result_new_full (TB_TOOL_FAILURE_NONE, output, NULL, metadata, NULL, 0);

  open_tool (f, "get_weather");
  view = tb_tool_page_get_result_view (page (f));
  started = g_get_monotonic_time ();
  tb_result_view_set_result (view, result);
  window_test_iterate (100);
  g_test_message ("shown in %.3f s", (g_get_monotonic_time () - started) / 1e6);

  label = window_test_find (GTK_WIDGET (view), is_content_text, NULL);
  g_assert_nonnull (label);
  more = gtk_widget_get_next_sibling (label);
  g_assert_true (GTK_IS_TOGGLE_BUTTON (more));
  g_assert_true (gtk_widget_get_visible (more));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (more)), ==, "Show More");
  g_assert_true (g_str_has_prefix (gtk_label_get_label (GTK_LABEL (label)),
                                   "lorem ipsum dolor sit amet\nlorem"));
  g_assert_cmpint (g_utf8_strlen (gtk_label_get_label (GTK_LABEL (label)), -1), <=, 4000);

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (more), TRUE);
  g_assert_true (g_str_equal (gtk_label_get_label (GTK_LABEL (label)), file->str));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (more)), ==, "Show Less");
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (more), FALSE);
  g_assert_cmpint (g_utf8_strlen (gtk_label_get_label (GTK_LABEL (label)), -1), <=, 4000);

  /* The short block, in the next box: whole, no Show More. */
  label = window_test_find (gtk_widget_get_next_sibling (gtk_widget_get_parent (label)),
                            is_content_text, NULL);
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (label)), ==, "short");
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_next_sibling (label)));
}

static void
test_large_result (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GString) big = g_string_sized_new (10 * 1024 * 1024 + 64);
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(JsonNode) output = NULL;
  TbResultView *view;
  g_autofree char *shown = NULL;
  g_autofree char *full = NULL;

  while (big->len < 10 * 1024 * 1024)
    g_string_append (big, "0123456789abcdef\xc3\xa9\n");
  g_string_append (big, "\x01\x02 binary \xff\xfe tail");
  output = tb_json_node_new_string (big->str);
  result = tb_tool_result_new_success (output);

  open_tool (f, "get_weather");
  view = tb_tool_page_get_result_view (page (f));
  tb_result_view_set_result (view, result);
  g_assert_true (tb_result_view_get_truncated (view));
  shown = tb_result_view_get_output_text (view);
  g_assert_cmpuint (strlen (shown), <=, TB_RESULT_VIEW_MAX_SHOWN);
  g_assert_true (g_utf8_validate (shown, -1, NULL));
  full = tb_result_view_dup_full_text (view);
  g_assert_cmpuint (strlen (full), ==, big->len);
}

/* The shortcuts window is made the first time Ctrl+? asks for it, not with
 * the window; it is one window, kept for the next time, above the main one. */
static GtkWindow *
find_shortcuts_window (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  GtkWindow *found = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (GTK_IS_SHORTCUTS_WINDOW (window))
        {
          g_assert_null (found);
          found = GTK_WINDOW (window);
        }
    }
  return found;
}

static void
test_shortcuts_window (Fixture       *f,
                       gconstpointer  data)
{
  GtkWindow *shortcuts;

  g_assert_null (find_shortcuts_window ());

  window_test_press (GTK_WIDGET (f->window), "<Control>question");
  WAIT_UNTIL (find_shortcuts_window () != NULL
              && gtk_widget_get_mapped (GTK_WIDGET (find_shortcuts_window ())));
  shortcuts = find_shortcuts_window ();
  g_assert_true (gtk_window_get_transient_for (shortcuts) == GTK_WINDOW (f->window));
  g_assert_true (gtk_window_get_modal (shortcuts));

  gtk_window_close (shortcuts);
  WAIT_UNTIL (!gtk_widget_get_visible (GTK_WIDGET (shortcuts)));
  g_assert_true (find_shortcuts_window () == shortcuts);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-help-overlay",
                                             NULL));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (shortcuts)));
  g_assert_true (find_shortcuts_window () == shortcuts);
}

/* Every window action can be reached from the keyboard. */
static void
test_shortcuts (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (f->window));
  g_autoptr(GHashTable) bound = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GtkWidgetClass *klass = GTK_WIDGET_GET_CLASS (f->window);
  const char *name;
  const GVariantType *parameter_type;
  const char *property_name;
  GType owner;
  guint n_actions = 0;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);

          if (GTK_IS_NAMED_ACTION (action))
            g_hash_table_add (bound, g_strdup (gtk_named_action_get_action_name (
                                                 GTK_NAMED_ACTION (action))));
        }
    }

  for (guint i = 0;
       gtk_widget_class_query_action (klass, i, &owner, &name, &parameter_type, &property_name);
       i++)
    {
      if (!g_str_has_prefix (name, "win."))
        continue;
      n_actions++;
      if (!g_hash_table_contains (bound, name))
        g_error ("The action %s has no keyboard shortcut", name);
    }
  g_assert_cmpuint (n_actions, >=, 15);

  /* Ctrl+F's action puts the focus in the search entry. */
  open_tool (f, "get_weather");
  gtk_widget_grab_focus (input (f, "/city"));
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.search", NULL);
  g_assert_true (gtk_widget_is_ancestor (gtk_window_get_focus (GTK_WINDOW (f->window)),
                                         GTK_WIDGET (tb_window_get_search_entry (f->window))));
}

/* The list row a person points at: its GtkListItem's widget. */
static GtkWidget *
list_row (Fixture *f,
          guint    position)
{
  GtkWidget *list = GTK_WIDGET (tb_window_get_tool_list (f->window));
  guint i = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (list); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (g_str_equal (gtk_widget_get_css_name (child), "row") && i++ == position)
      return child;
  return NULL;
}

/* Only opening a tool shows it: pointing at a row (which selects it in
 * a single-click list whose rows are selectable) leaves the Loop page,
 * mid-run too, and the Tool page's tool as they were. */
static void
test_hover_keeps_page (Fixture       *f,
                       gconstpointer  data)
{
  AdwViewStack *stack = tb_window_get_view_stack (f->window);
  GtkWidget *row;

  open_tool (f, "get_weather");
  tb_window_set_page (f->window, "loop");
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (tb_window_get_loop_page (f->window))));
  WAIT_UNTIL ((row = list_row (f, 0)) != NULL && gtk_widget_get_mapped (row));

  /* What the pointer entering a row does in GTK 4.8. */
  gtk_widget_activate_action (row, "listitem.select", "(bb)", FALSE, FALSE);
  window_test_iterate (50);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "loop");
  g_assert_cmpstr (tb_tool_get_name (tb_tool_page_get_tool (page (f))), ==, "get_weather");

  /* A click or Enter opens the row. */
  gtk_widget_activate_action (row, "list.activate-item", "u", 0);
  window_test_iterate (50);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "tool");
  g_assert_cmpstr (tb_tool_get_name (tb_tool_page_get_tool (page (f))), ==, "create_issue");
}

/* The sidebar by keyboard: Tab from the source filter reaches a row (not
 * the list's scroller, where arrows and Enter do nothing) and Enter on the
 * focused row opens it. Ctrl+Return after it, with real keys, is in
 * tests/app/a11y-journeys.py. */
static void
test_keyboard_pick (Fixture       *f,
                    gconstpointer  data)
{
  GtkWidget *list = GTK_WIDGET (tb_window_get_tool_list (f->window));
  GtkWidget *dropdown = GTK_WIDGET (tb_window_get_source_dropdown (f->window));
  GtkWidget *focus;
  GtkWidget *row;

  WAIT_UNTIL ((row = list_row (f, 0)) != NULL && gtk_widget_get_mapped (row));
  /* The window gives the initial focus once it is shown: after that. */
  window_test_iterate (100);
  gtk_widget_grab_focus (gtk_widget_get_first_child (dropdown));
  WAIT_UNTIL (gtk_window_get_focus (GTK_WINDOW (f->window))
              == gtk_widget_get_first_child (dropdown));
  g_assert_true (gtk_widget_child_focus (GTK_WIDGET (f->window), GTK_DIR_TAB_FORWARD));
  WAIT_UNTIL ((focus = gtk_window_get_focus (GTK_WINDOW (f->window))) != NULL
              && gtk_widget_is_ancestor (focus, row));

  /* Enter, as GtkListItemWidget binds it. */
  gtk_widget_activate_action (row, "list.activate-item", "u", 0);
  window_test_iterate (50);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (tb_window_get_view_stack (f->window)),
                   ==, "tool");
  /* The focus stays on the row it opened, ready for the next pick. */
  g_assert_true (gtk_widget_is_ancestor (gtk_window_get_focus (GTK_WINDOW (f->window)), list));
}

/* Down in the search goes to the first match (GTK alone moved the focus
 * to the source drop-down), and Up on it back; Shift+Down stays GTK's. The real key, with
 * xdotool, is in tests/app/a11y-journeys.py. */
static void
test_search_down (Fixture       *f,
                  gconstpointer  data)
{
  GtkWidget *entry = GTK_WIDGET (tb_window_get_search_entry (f->window));
  GtkWidget *list = GTK_WIDGET (tb_window_get_tool_list (f->window));
  GListModel *listed = G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (list)));
  GtkEventController *keys = window_test_key_controller (entry);
  GtkEventController *list_keys = window_test_key_controller (list);
  gboolean handled = FALSE;
  GtkWidget *row;

  gtk_editable_set_text (GTK_EDITABLE (entry), "weather");
  WAIT_UNTIL (g_list_model_get_n_items (listed) == 1);
  WAIT_UNTIL ((row = list_row (f, 0)) != NULL && gtk_widget_get_mapped (row));
  window_test_iterate (100);
  gtk_widget_grab_focus (entry);

  g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_Down, 0, GDK_SHIFT_MASK, &handled);
  g_assert_false (handled);
  g_assert_true (window_test_send_key (keys, GDK_KEY_Down));
  g_assert_true (window_test_has_focus_in (row));
  g_assert_cmpstr (tb_tool_get_name (tb_tool_row_get_tool (TB_TOOL_ROW (
                     gtk_widget_get_first_child (row)))), ==, "get_weather");

  /* Up on the first row goes back. */
  g_assert_true (window_test_send_key (list_keys, GDK_KEY_Up));
  g_assert_true (window_test_has_focus_in (entry));

  /* Up on another row is the list's own. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  WAIT_UNTIL (g_list_model_get_n_items (listed) > 1);
  WAIT_UNTIL ((row = list_row (f, 1)) != NULL && gtk_widget_get_mapped (row));
  gtk_widget_grab_focus (gtk_widget_get_first_child (row));
  g_assert_false (window_test_send_key (list_keys, GDK_KEY_Up));

  /* No match: Down is GTK's again. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "no such tool");
  WAIT_UNTIL (g_list_model_get_n_items (listed) == 0);
  gtk_widget_grab_focus (entry);
  g_assert_false (window_test_send_key (keys, GDK_KEY_Down));
}

/* Run and Search are caught before the focused widget sees the keys, so
 * a text view cannot take Ctrl+Return as a line break. */
static void
test_capture_shortcuts (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (f->window));
  g_autoptr(GString) found = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller) ||
          gtk_event_controller_get_propagation_phase (GTK_EVENT_CONTROLLER (controller))
          != GTK_PHASE_CAPTURE)
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);
          g_autofree char *trigger = gtk_shortcut_trigger_to_string (
                                       gtk_shortcut_get_trigger (shortcut));

          if (GTK_IS_NAMED_ACTION (action))
            g_string_append_printf (found, "%s %s\n", trigger,
                                    gtk_named_action_get_action_name (GTK_NAMED_ACTION (action)));
        }
    }
  g_assert_cmpstr (found->str, ==,
                   "<Control>Return win.run\n"
                   "<Control>KP_Enter win.run\n"
                   "<Shift><Control>Return win.run-anyway\n"
                   "<Control>f win.search\n");
}

static GtkWidget *
row_part (GtkListBoxRow *row,
          const char    *name)
{
  return GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (row), TB_TYPE_HISTORY_ROW, name));
}

/* The History page's rows name the tool; a tool's own recent calls start
 * with the status. The icon is styled by the outcome. */
static void
test_history_rows (Fixture       *f,
                   gconstpointer  data)
{
  GtkListBox *list = tb_history_page_get_list (tb_window_get_history_page (f->window));
  GtkListBoxRow *row;
  g_autofree char *status = NULL;

  open_tool (f, "disk_cleanup");
  tb_tool_page_run (page (f));
  WAIT_UNTIL (!tb_tool_page_get_running (page (f)));
  open_tool (f, "get_weather");
  gtk_editable_set_text (GTK_EDITABLE (input (f, "/city")), "Paris");
  tb_tool_page_run (page (f));
  WAIT_UNTIL (!tb_tool_page_get_running (page (f)));

  row = gtk_list_box_get_row_at_index (list, 0);
  g_assert_true (tb_history_row_get_show_tool (TB_HISTORY_ROW (row)));
  g_assert_cmpstr (tb_history_entry_get_tool_name (tb_history_row_get_entry (TB_HISTORY_ROW (row))),
                   ==, "get_weather");
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (row_part (row, "tool_label"))), ==,
                   "get_weather");
  g_assert_true (gtk_widget_get_visible (row_part (row, "tool_label")));
  g_assert_true (gtk_widget_get_visible (row_part (row, "status_label")));
  g_assert_false (gtk_widget_get_visible (row_part (row, "top_status_label")));
  g_object_get (tb_history_row_get_entry (TB_HISTORY_ROW (row)), "status-label", &status, NULL);
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (row_part (row, "status_label"))), ==, status);
  g_assert_true (gtk_widget_has_css_class (row_part (row, "icon"), "success"));
  row = gtk_list_box_get_row_at_index (list, 1);
  g_assert_true (gtk_widget_has_css_class (row_part (row, "icon"), "error"));
  g_assert_false (gtk_widget_has_css_class (row_part (row, "icon"), "success"));

  row = gtk_list_box_get_row_at_index (tb_tool_page_get_recent_list (page (f)), 0);
  g_assert_false (tb_history_row_get_show_tool (TB_HISTORY_ROW (row)));
  g_assert_false (gtk_widget_get_visible (row_part (row, "tool_label")));
  g_assert_false (gtk_widget_get_visible (row_part (row, "status_label")));
  g_assert_true (gtk_widget_get_visible (row_part (row, "top_status_label")));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (row_part (row, "top_status_label"))), ==,
                   status);
}

/* Tab through the window to the Tool page's Run button as a person does:
 * past the collapsed schema, and out of fields whose leaving changes the
 * problems listed while the focus moves on. GTK warns of nothing (the
 * tests make criticals fatal). */
static void
test_tab_through_form (Fixture       *f,
                       gconstpointer  data)
{
  GtkWidget *run_button;
  gboolean reached = FALSE;

  open_tool (f, "create_issue");
  run_button = tb_tool_page_get_run_button (page (f));
  g_assert_true (tb_argument_editor_set_text (editor (f), "{\"body\":\"It crashes.\","
                                                          "\"labels\":[\"bug\"],"
                                                          "\"priority\":\"urgent\"}", NULL));
  tb_argument_editor_reveal_problems (editor (f));
  window_test_iterate (100);
  gtk_window_set_focus (GTK_WINDOW (f->window), NULL);
  for (guint i = 0; i < 200 && !reached; i++)
    {
      g_signal_emit_by_name (f->window, "move-focus", GTK_DIR_TAB_FORWARD);
      window_test_iterate (20);
      reached = gtk_widget_has_focus (run_button);
    }
  g_assert_true (reached);
  g_assert_cmpstr (tb_schema_form_get_field_error (form (f), "/title"), ==,
                   "This field is required.");
}

/* The window fits a phone's width, whatever page is shown. */
static void
test_narrow (Fixture       *f,
             gconstpointer  data)
{
  int min, nat;

  open_tool (f, "create_issue");
  gtk_widget_measure (GTK_WIDGET (f->window), GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat,
                      NULL, NULL);
  g_assert_cmpint (min, <=, 400);
}

/* A trace opened, or a run started from a server's prompt, in a window
 * too narrow for the list beside the pages: the page shows, not the list
 * of tools. Before the window is laid out, and once it is folded. */
static void
test_narrow_page_shows (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(TbWindow) narrow = g_object_ref (tb_window_new (NULL, f->registry, NULL));
  GtkWidget *trace;
  GtkWidget *loop;

  gtk_window_set_default_size (GTK_WINDOW (narrow), 400, 700);
  tb_window_set_page (narrow, "trace");
  gtk_window_present (GTK_WINDOW (narrow));
  trace = GTK_WIDGET (tb_window_get_trace_page (narrow));
  WAIT_UNTIL (gtk_widget_get_mapped (trace));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (narrow)), <=, 400);

  /* Back to the list, as the back button does, then the Loop page. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (narrow), "win.show-sidebar", NULL));
  WAIT_UNTIL (!gtk_widget_get_mapped (trace));
  tb_window_set_page (narrow, "loop");
  loop = GTK_WIDGET (tb_window_get_loop_page (narrow));
  WAIT_UNTIL (gtk_widget_get_mapped (loop));

  window_test_destroy (GTK_WINDOW (g_steal_pointer (&narrow)));
}

static gboolean
is_heading_row (GtkWidget     *widget,
                gconstpointer  data)
{
  return TB_IS_HEADING_ROW (widget);
}

/* Whether the heading of @view is read whole: its labels are not cut,
 * and the controls are under it (@folded) or beside it. */
static gboolean
heading_shows_whole (GtkWidget *view,
                     const char *text,
                     gboolean    folded)
{
  GtkWidget *row = window_test_find (view, is_heading_row, NULL);
  GtkWidget *label = window_test_find (row, window_test_is_label, text);

  g_assert_nonnull (label);
  return gtk_widget_get_width (label) > 0 &&
         tb_heading_row_get_folded (TB_HEADING_ROW (row)) == folded &&
         !pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label)));
}

/* At a phone's width the heading of the arguments and of the result keep
 * their whole text: their buttons go to a line below. Back in a wide
 * window they share a line again. */
static void
test_narrow_headings (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(TbWindow) narrow = g_object_ref (tb_window_new (NULL, f->registry, NULL));
  g_autoptr(JsonNode) output = tb_json_parse ("{\"temperature\": 21}", -1, NULL);
  g_autoptr(TbToolResult) result = tb_tool_result_new_success (output);
  TbToolPage *tool_page = tb_window_get_tool_page (narrow);
  GtkWidget *arguments = GTK_WIDGET (tb_tool_page_get_argument_editor (tool_page));
  GtkWidget *result_view = GTK_WIDGET (tb_tool_page_get_result_view (tool_page));
  GtkWidget *row;
  GtkWidget *controls;
  graphene_rect_t bounds;
  const char *status;

  gtk_window_set_default_size (GTK_WINDOW (narrow), 360, 700);
  g_assert_true (tb_window_select_tool (narrow, "get_weather"));
  tb_window_set_page (narrow, "tool");
  tb_result_view_set_result (TB_RESULT_VIEW (result_view), result);
  gtk_window_present (GTK_WINDOW (narrow));
  WAIT_UNTIL (gtk_widget_get_mapped (arguments) && gtk_widget_get_mapped (result_view));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (narrow)), <=, 360);
  status = tb_result_view_get_status_text (TB_RESULT_VIEW (result_view));

  WAIT_UNTIL (heading_shows_whole (arguments, "Arguments", TRUE));
  WAIT_UNTIL (heading_shows_whole (result_view, status, TRUE));

  /* Right to left, the buttons' line starts on the right. */
  row = window_test_find (arguments, is_heading_row, NULL);
  controls = gtk_widget_get_last_child (row);
  g_assert_true (gtk_widget_compute_bounds (controls, row, &bounds));
  g_assert_cmpfloat (bounds.origin.x, ==, 0);
  gtk_widget_set_direction (row, GTK_TEXT_DIR_RTL);
  WAIT_UNTIL (gtk_widget_compute_bounds (controls, row, &bounds) && bounds.origin.x > 0);
  g_assert_cmpfloat (bounds.origin.x + bounds.size.width, ==, gtk_widget_get_width (row));
  gtk_widget_set_direction (row, GTK_TEXT_DIR_NONE);

  gtk_window_set_default_size (GTK_WINDOW (narrow), 1100, 700);
  WAIT_UNTIL (heading_shows_whole (arguments, "Arguments", FALSE));
  WAIT_UNTIL (heading_shows_whole (result_view, status, FALSE));

  window_test_destroy (GTK_WINDOW (g_steal_pointer (&narrow)));
}

/* MCP results: text blocks as text, images as pictures. */
static void
test_mcp_content (Fixture       *f,
                  gconstpointer  data)
{
  /* A 1×1 PNG. */
  static const char png[] =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAAB"
    "JRU5ErkJggg==";
  g_autofree char *text = g_strdup_printf ("{\"content\":[{\"type\":\"text\",\"text\":\"Hello\"},"
                                           "{\"type\":\"image\",\"mimeType\":\"image/png\","
                                           "\"data\":\"%s\"},"
                                           "{\"type\":\"image\",\"data\":\"bm90IGFuIGltYWdl\"}]}",
                                           png);
  g_autoptr(JsonNode) output = tb_json_parse (text, -1, NULL);
  g_autoptr(TbToolResult) result = tb_tool_result_new_success (output);
  TbResultView *view = tb_tool_page_get_result_view (page (f));
  g_autoptr(GPtrArray) kinds = g_ptr_array_new ();
  GtkWidget *box = NULL;

  open_tool (f, "get_weather");
  tb_result_view_set_result (view, result);

  /* The content box is the one holding a picture. */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (view)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    for (GtkWidget *block = gtk_widget_get_first_child (child); block != NULL;
         block = gtk_widget_get_next_sibling (block))
      if (GTK_IS_PICTURE (block))
        box = child;
  g_assert_nonnull (box);
  g_assert_true (gtk_widget_get_visible (box));

  for (GtkWidget *block = gtk_widget_get_first_child (box); block != NULL;
       block = gtk_widget_get_next_sibling (block))
    g_ptr_array_add (kinds, (gpointer) G_OBJECT_TYPE_NAME (block));
  /* A text block is its label and a Show More that short texts hide. */
  g_assert_cmpuint (kinds->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (kinds, 0), ==, "GtkBox");
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (gtk_widget_get_first_child (
                     gtk_widget_get_first_child (box)))), ==, "Hello");
  g_assert_cmpstr (g_ptr_array_index (kinds, 1), ==, "GtkPicture");
  /* An image that does not decode is said to be so, not shown broken. */
  g_assert_cmpstr (g_ptr_array_index (kinds, 2), ==, "GtkBox");
  g_assert_true (g_str_has_prefix (
    gtk_label_get_label (GTK_LABEL (gtk_widget_get_first_child (gtk_widget_get_last_child (box)))),
    "An image (?) that could not be shown"));
}

/* Schemas that are wrong or odd in every way the form could trip on: it
 * builds something, reads a value back, and takes that value again. */
static void
test_odd_schemas (void)
{
  static const char *schemas[] = {
    "{\"type\":5}",
    "{\"type\":\"object\",\"properties\":[]}",
    "{\"type\":\"object\",\"properties\":{\"a\":5,\"b\":true,\"c\":null}}",
    "{\"type\":\"object\",\"properties\":{\"e\":{\"enum\":[]}},\"required\":[\"e\"]}",
    "{\"type\":\"object\",\"properties\":{\"e\":{\"enum\":[1,\"a\",null,{\"x\":1},[2]]}}}",
    "{\"type\":\"object\",\"properties\":{\"r\":{\"$ref\":\"#/nowhere\"}}}",
    "{\"type\":\"object\",\"properties\":{\"r\":{\"$ref\":\"https://example.org/s\"}}}",
    "{\"type\":\"object\",\"properties\":{\"r\":{\"$ref\":\"#\"}}}",
    "{\"allOf\":[{\"$ref\":\"#\"}],\"properties\":{\"a\":{\"type\":\"string\"}}}",
    "{\"type\":\"object\",\"properties\":{\"v\":{\"anyOf\":[]}}}",
    "{\"type\":\"object\",\"properties\":{\"v\":{\"oneOf\":[{\"type\":\"null\"}]}}}",
    "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":[]}}}",
    "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":[\"integer\",\"string\","
      "\"boolean\",\"null\"]}}}",
    "{\"type\":\"object\",\"properties\":{\"i\":{\"type\":\"integer\",\"default\":\"x\"},"
      "\"s\":{\"type\":\"string\",\"default\":[1]},\"b\":{\"type\":\"boolean\","
      "\"default\":3}}}",
    "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"array\",\"items\":false,"
      "\"default\":[1,2]},\"t\":{\"type\":\"array\",\"prefixItems\":[{\"type\":\"string\"}]}}}",
    "{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}",
    "{\"type\":\"string\"}",
    "{\"type\":\"object\",\"properties\":{\"c\":{\"const\":\"fixed\"}},\"required\":[\"c\"]}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (schemas); i++)
    {
      g_autoptr(JsonNode) schema = tb_json_parse (schemas[i], -1, NULL);
      TbSchemaForm *schema_form = TB_SCHEMA_FORM (g_object_ref_sink (tb_schema_form_new ()));
      g_autoptr(JsonNode) value = NULL;
      g_autoptr(JsonNode) again = NULL;
      g_autoptr(GPtrArray) local = NULL;

      g_test_message ("schema %u: %s", i, schemas[i]);
      g_assert_nonnull (schema);
      g_assert_true (tb_schema_form_set_schema (schema_form, schema, NULL));
      value = tb_schema_form_get_value (schema_form, &local);
      g_assert_nonnull (value);
      tb_schema_form_set_value (schema_form, value);
      again = tb_schema_form_get_value (schema_form, NULL);
      g_assert_true (tb_json_equal (value, again));
      tb_schema_form_set_errors (schema_form, NULL);
      g_assert_finalize_object (schema_form);
    }
}

/* A result's JSON as a tree: members first, children when expanded. */
static void
test_json_tree (void)
{
  g_autoptr(JsonNode) node = tb_json_parse ("{\"city\":\"Paris\",\"days\":[{\"t\":1},{\"t\":2}]}",
                                            -1, NULL);
  TbJsonTree *tree = TB_JSON_TREE (g_object_ref_sink (tb_json_tree_new ()));
  GListModel *rows = tb_json_tree_get_model (tree);
  g_autoptr(GtkTreeListRow) days = NULL;
  g_autoptr(TbJsonItem) first = NULL;

  tb_json_tree_set_node (tree, node);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 2);
  days = g_list_model_get_item (rows, 1);
  first = gtk_tree_list_row_get_item (days);
  g_assert_cmpstr (tb_json_item_get_key (first), ==, "days");
  g_assert_cmpstr (tb_json_item_get_summary (first), ==, "[ 2 items ]");
  g_assert_true (gtk_tree_list_row_is_expandable (days));
  gtk_tree_list_row_set_expanded (days, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 4);

  /* A huge array lists a bounded number of items and says how many are left. */
  {
    g_autoptr(JsonNode) big = json_node_new (JSON_NODE_ARRAY);
    JsonArray *array = json_array_new ();
    g_autoptr(GtkTreeListRow) last = NULL;
    TbJsonItem *more;

    for (guint i = 0; i < 100000; i++)
      json_array_add_int_element (array, i);
    json_node_take_array (big, array);
    tb_json_tree_set_node (tree, big);
    g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 5001);
    last = g_list_model_get_item (rows, 5000);
    more = gtk_tree_list_row_get_item (last);
    g_assert_cmpstr (tb_json_item_get_key (more), ==, "…");
    g_assert_true (g_str_has_prefix (tb_json_item_get_summary (more), "95000 more not listed"));
    g_assert_null (tb_json_item_get_node (more));
    g_object_unref (more);
  }

  tb_json_tree_set_node (tree, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 0);
  g_assert_finalize_object (tree);
}

/* A value described only by a schema (an elicitation request) gets the same editor. */
static void
test_schema_only (void)
{
  g_autoptr(JsonNode) schema = tb_json_parse ("{\"type\":\"object\",\"properties\":{"
                                              "\"name\":{\"type\":\"string\"},"
                                              "\"age\":{\"type\":\"integer\"}},"
                                              "\"required\":[\"name\"]}", -1, NULL);
  g_autoptr(JsonNode) not_object = tb_json_parse ("[1]", -1, NULL);
  g_autoptr(GError) error = NULL;
  GtkWidget *window = gtk_window_new ();
  TbArgumentEditor *editor = TB_ARGUMENT_EDITOR (tb_argument_editor_new ());
  TbSchemaForm *schema_form;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (editor));
  g_assert_true (tb_argument_editor_set_schema (editor, schema, NULL, &error));
  g_assert_no_error (error);
  schema_form = tb_argument_editor_get_form (editor);
  g_assert_false (tb_argument_editor_get_valid (editor));
  /* Quiet until asked for: an MCP server's form opens without red. */
  g_assert_null (tb_schema_form_get_field_error (schema_form, "/name"));
  tb_argument_editor_reveal_problems (editor);
  g_assert_cmpstr (tb_schema_form_get_field_error (schema_form, "/name"), ==,
                   "This field is required.");
  gtk_editable_set_text (GTK_EDITABLE (tb_schema_form_get_input (schema_form, "/name")), "Ada");
  g_assert_true (tb_argument_editor_get_valid (editor));

  g_assert_false (tb_argument_editor_set_schema (editor, not_object, NULL, &error));
  g_assert_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_INVALID_SCHEMA);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
call_started_cb (TbToolRegistry  *registry,
                 TbTool          *tool,
                 const char      *call_id,
                 JsonNode        *arguments,
                 char           **out)
{
  g_free (*out);
  *out = g_strdup (call_id);
}

/* The hints the approval policy sees, set by the person on the Tool page
 * and kept in the settings; a running tool's progress as a bar. */
static void
test_tool_hints (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(GVariant) kept = NULL;
  g_autofree char *described = NULL;
  g_autofree char *call_id = NULL;
  const char *text = NULL;
  GtkWidget *bar;
  GtkProgressBar *progress;

  g_settings_reset (settings, "tool-hints");
  open_tool (f, "get_weather");
  bar = tb_tool_page_get_hints_bar (page (f));
  described = tb_tool_hints_bar_describe (TB_TOOL_HINTS_BAR (bar));
  g_assert_cmpstr (described, ==, "No hints");
  g_clear_pointer (&described, g_free);

  gtk_widget_activate_action (bar, "hints.read-only", NULL);
  g_assert_cmpint (tb_tool_registry_get_hints (f->registry, "get_weather", NULL), ==,
                   TB_TOOL_HINT_READ_ONLY);
  described = tb_tool_hints_bar_describe (TB_TOOL_HINTS_BAR (bar));
  g_assert_cmpstr (described, ==, "Read-only, set by you");
  g_clear_pointer (&described, g_free);
  kept = g_settings_get_value (settings, "tool-hints");
  g_assert_true (g_variant_lookup (kept, "get_weather", "&s", &text));
  g_assert_cmpstr (text, ==, "read-only");
  g_clear_pointer (&kept, g_variant_unref);

  /* Destructive replaces read-only: a tool cannot be both. */
  gtk_widget_activate_action (bar, "hints.destructive", NULL);
  described = tb_tool_hints_bar_describe (TB_TOOL_HINTS_BAR (bar));
  g_assert_cmpstr (described, ==, "Destructive, set by you");
  g_clear_pointer (&described, g_free);

  gtk_widget_activate_action (bar, "hints.reset", NULL);
  g_assert_cmpint (tb_tool_registry_get_hints (f->registry, "get_weather", NULL), ==,
                   TB_TOOL_HINT_NONE);
  kept = g_settings_get_value (settings, "tool-hints");
  g_assert_false (g_variant_lookup (kept, "get_weather", "&s", &text));

  /* Progress reported by the running call fills the bar with its message. */
  open_tool (f, "slow_report");
  progress = tb_tool_page_get_progress_bar (page (f));
  g_signal_connect (f->registry, "call-started", G_CALLBACK (call_started_cb), &call_id);
  gtk_widget_activate (tb_tool_page_get_run_button (page (f)));
  WAIT_UNTIL (tb_tool_page_get_running (page (f)) && call_id != NULL);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (progress)));
  g_signal_emit_by_name (f->registry, "call-progress", call_id, 3.0, 4.0, "Counting sheep");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (progress)));
  g_assert_cmpfloat_with_epsilon (gtk_progress_bar_get_fraction (progress), 0.75, 1e-9);
  g_assert_cmpstr (gtk_progress_bar_get_text (progress), ==, "Counting sheep");
  /* Another call's progress is not this one's. */
  g_signal_emit_by_name (f->registry, "call-progress", "elsewhere", 1.0, 4.0, "Other");
  g_assert_cmpstr (gtk_progress_bar_get_text (progress), ==, "Counting sheep");
  gtk_widget_activate (tb_tool_page_get_cancel_button (page (f)));
  WAIT_UNTIL (!tb_tool_page_get_running (page (f)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (progress)));
  g_signal_handlers_disconnect_by_data (f->registry, &call_id);
}

/* The sidebar's row shows an icon for each hint a tool's author gave and
 * one for tools only people may call; a row reused for a plain tool shows
 * none. */
static void
hint_icon_names (TbToolRow *row,
                 GString   *names)
{
  g_string_truncate (names, 0);
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (row)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_BOX (child) && gtk_widget_get_visible (child))
      for (GtkWidget *icon = gtk_widget_get_first_child (child); icon != NULL;
           icon = gtk_widget_get_next_sibling (icon))
        if (GTK_IS_IMAGE (icon))
          {
            const char *tooltip = gtk_widget_get_tooltip_text (icon);

            g_string_append_printf (names, "%s%s (%s)", names->len > 0 ? ", " : "",
                                    gtk_image_get_icon_name (GTK_IMAGE (icon)), tooltip);
          }
}

static JsonNode *
commit_nothing (TbTool        *tool,
                JsonObject    *arguments,
                JsonObject    *context,
                GCancellable  *cancellable,
                gpointer       user_data,
                GError       **error)
{
  return json_node_new (JSON_NODE_NULL);
}

static void
test_tool_row_hints (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) manifest =
    json_from_string ("{\"name\": \"fetch_page\", \"description\": \"Fetches a page.\\nAny page.\", "
                      "\"parameters\": {\"type\": \"object\"}, \"command\": [\"/bin/true\"], "
                      "\"annotations\": {\"readOnlyHint\": true, \"openWorldHint\": true}}", &error);
  g_autoptr(TbTool) hinted = NULL;
  g_autoptr(TbTool) plain = tb_test_tools_new_tool ("plain", "builtin", "{\"type\":\"object\"}");
  g_autoptr(TbTool) people = NULL;
  g_autoptr(JsonNode) parameters = json_from_string ("{\"type\":\"object\"}", NULL);
  g_autoptr(GString) names = g_string_new (NULL);
  TbToolRow *row = g_object_ref_sink (g_object_new (TB_TYPE_TOOL_ROW, NULL));
  g_autofree char *label = NULL;

  g_assert_no_error (error);
  hinted = tb_command_tool_new_from_json (manifest, "/tools", "manifest:/tools/fetch.json", &error);
  g_assert_no_error (error);
  people = tb_tool_new_simple_full ("commit_fact", "Commits a fact.", parameters,
                                    TB_TOOL_VISIBILITY_USER_ONLY, "builtin", 0,
                                    TB_TOOL_SIMPLE_FLAGS_NONE, commit_nothing, NULL, NULL, &error);
  g_assert_no_error (error);

  hint_icon_names (row, names);
  g_assert_cmpstr (names->str, ==, "");

  tb_tool_row_set_tool (row, hinted);
  hint_icon_names (row, names);
  g_assert_cmpstr (names->str, ==,
                   "changes-prevent-symbolic (Read-only: the tool says it changes nothing), "
                   "web-browser-symbolic (Open world: the tool says it reaches beyond this machine)");
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (row)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LABEL (child))
      {
        /* A long source is shortened from its start; its tooltip is whole. */
        label = g_strdup (gtk_label_get_label (GTK_LABEL (child)));
        g_assert_cmpint (gtk_label_get_ellipsize (GTK_LABEL (child)), ==, PANGO_ELLIPSIZE_START);
        g_assert_cmpstr (gtk_widget_get_tooltip_text (child), ==, "manifest:/tools/fetch.json");
      }
  g_assert_cmpstr (label, ==, "manifest:/tools/fetch.json");

  tb_tool_row_set_tool (row, people);
  hint_icon_names (row, names);
  g_assert_cmpstr (names->str, ==, "avatar-default-symbolic (Only for people: models never see this tool)");

  tb_tool_row_set_tool (row, plain);
  hint_icon_names (row, names);
  g_assert_cmpstr (names->str, ==, "");

  tb_tool_row_set_tool (row, NULL);
  g_object_unref (row);
}

/* A long description shows its first 1,500 characters, cut after a word,
 * and Show More; Show More shows it whole, and the next tool starts cut
 * again. Short ones show whole, without the button. */
/* The parameters schema is shown once its expander is open, for the tool
 * on the page; a closed expander holds no text. */
static void
test_schema_view (Fixture       *f,
                  gconstpointer  data)
{
  GtkExpander *expander = tb_tool_page_get_schema_expander (page (f));
  g_autofree char *weather = NULL;
  g_autofree char *issue = NULL;
  g_autofree char *shown = NULL;

  open_tool (f, "get_weather");
  weather = tb_json_to_string (tb_tool_get_parameters (tb_tool_page_get_tool (page (f))), TRUE);
  shown = tb_tool_page_dup_schema_text (page (f));
  g_assert_cmpstr (shown, ==, "");
  g_clear_pointer (&shown, g_free);

  gtk_expander_set_expanded (expander, TRUE);
  shown = tb_tool_page_dup_schema_text (page (f));
  g_assert_cmpstr (shown, ==, weather);
  g_clear_pointer (&shown, g_free);

  open_tool (f, "create_issue");
  issue = tb_json_to_string (tb_tool_get_parameters (tb_tool_page_get_tool (page (f))), TRUE);
  shown = tb_tool_page_dup_schema_text (page (f));
  g_assert_cmpstr (shown, ==, issue);
  g_clear_pointer (&shown, g_free);

  gtk_expander_set_expanded (expander, FALSE);
  shown = tb_tool_page_dup_schema_text (page (f));
  g_assert_cmpstr (shown, ==, "");
}

/* @shown is the start of @text up to the end of a word, then "…". */
static void
assert_cut_after_word (const char *shown,
                       const char *text)
{
  gsize kept = strlen (shown) - strlen ("…");

  g_assert_true (g_str_has_suffix (shown, "…"));
  g_assert_true (strncmp (shown, text, kept) == 0);
  g_assert_true (shown[kept - 1] != ' ' && text[kept] == ' ');
}

static gboolean
label_starts (GtkWidget     *widget,
              gconstpointer  prefix)
{
  return GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_label (GTK_LABEL (widget)), prefix);
}

static void
test_long_description (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(JsonNode) parameters = json_from_string ("{\"type\":\"object\"}", NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(TbTool) tool = NULL;
  g_autoptr(GError) error = NULL;
  GtkLabel *label;
  GtkToggleButton *more;
  GtkWidget *field;
  g_autofree char *shown = NULL;
  g_autofree char *description = NULL;

  while (text->len < 62000)
    g_string_append (text, "Reads the café's menu, ");
  tool = tb_tool_new_simple_full ("long_description", text->str, parameters,
                                  TB_TOOL_VISIBILITY_MODEL, "builtin", 0,
                                  TB_TOOL_SIMPLE_FLAGS_NONE, commit_nothing, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (tb_tool_registry_register (f->registry, tool, &error));
  g_assert_no_error (error);
  label = tb_tool_page_get_description (page (f));
  more = tb_tool_page_get_description_more (page (f));

  open_tool (f, "long_description");
  shown = g_strdup (gtk_label_get_label (label));
  g_assert_cmpuint (g_utf8_strlen (shown, -1), <=, 1500);
  g_assert_cmpuint (g_utf8_strlen (shown, -1), >, 1350);
  assert_cut_after_word (shown, text->str);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (more)));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (more)), ==, "Show More");

  gtk_toggle_button_set_active (more, TRUE);
  g_assert_cmpstr (gtk_label_get_label (label), ==, text->str);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (more)), ==, "Show Less");

  open_tool (f, "get_weather");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (more)));
  g_assert_cmpstr (gtk_label_get_label (label), ==, tb_tool_get_description (
                     tb_tool_page_get_tool (page (f))));

  open_tool (f, "long_description");
  g_assert_false (gtk_toggle_button_get_active (more));
  g_assert_cmpstr (gtk_label_get_label (label), ==, shown);

  /* A field's description shows four lines at most: its label is given
   * no more than those can hold. */
  g_clear_object (&tool);
  g_clear_pointer (&parameters, json_node_unref);
  description = g_strdup (text->str);
  g_string_prepend (text, "{\"type\": \"object\", \"properties\": {\"menu\": {\"type\": \"string\", "
                          "\"description\": \"");
  g_string_append (text, "\"}}}");
  parameters = json_from_string (text->str, &error);
  g_assert_no_error (error);
  tool = tb_tool_new_simple_full ("long_field", "A field with a long description.", parameters,
                                  TB_TOOL_VISIBILITY_MODEL, "builtin", 0,
                                  TB_TOOL_SIMPLE_FLAGS_NONE, commit_nothing, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (tb_tool_registry_register (f->registry, tool, &error));
  open_tool (f, "long_field");
  field = window_test_find (GTK_WIDGET (tb_argument_editor_get_form (editor (f))),
                            label_starts, "Reads the café's menu, Reads");
  g_assert_nonnull (field);
  g_assert_cmpuint (g_utf8_strlen (gtk_label_get_label (GTK_LABEL (field)), -1), <=, 1000);
  assert_cut_after_word (gtk_label_get_label (GTK_LABEL (field)), description);
}

static gboolean
is_show_more (GtkWidget     *widget,
              gconstpointer  data)
{
  return GTK_IS_TOGGLE_BUTTON (widget) &&
         g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), "Show More") == 0;
}

/* A long error (a command's standard error may be 64 KiB) shows its first
 * 4,000 characters and Show More; a short one shows whole. */
static void
test_long_error (Fixture       *f,
                 gconstpointer  data)
{
  TbResultView *view = tb_tool_page_get_result_view (page (f));
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(TbToolResult) long_error = NULL;
  g_autoptr(TbToolResult) short_error = NULL;
  g_autofree char *start = NULL;
  GtkWidget *more;

  open_tool (f, "get_weather");
  while (text->len < 64 * 1024 - 100)
    g_string_append (text, "warning: something odd ");
  long_error = tb_tool_result_new_full (TB_TOOL_FAILURE_EXECUTION_FAILED, NULL, text->str,
                                        NULL, NULL, 0);
  tb_result_view_set_result (view, long_error);
  more = window_test_find (GTK_WIDGET (view), is_show_more, NULL);
  g_assert_nonnull (more);
  g_assert_true (gtk_widget_get_visible (more));
  start = g_strdup (tb_result_view_get_error_text (view));
  g_assert_cmpuint (g_utf8_strlen (start, -1), <=, 4000);
  g_assert_cmpuint (g_utf8_strlen (start, -1), >, 3600);
  assert_cut_after_word (start, text->str);

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (more), TRUE);
  g_assert_cmpstr (tb_result_view_get_error_text (view), ==, text->str);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (more)), ==, "Show Less");

  short_error = tb_tool_result_new_full (TB_TOOL_FAILURE_EXECUTION_FAILED, NULL, "Exit 3",
                                         NULL, NULL, 0);
  tb_result_view_set_result (view, short_error);
  g_assert_cmpstr (tb_result_view_get_error_text (view), ==, "Exit 3");
  g_assert_false (gtk_widget_get_visible (more));
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (more)));
}

static const char *
row_description (TbToolRow *row)
{
  /* The name and the description are the labels of the row's first box. */
  GtkWidget *texts = gtk_widget_get_first_child (GTK_WIDGET (row));

  return gtk_label_get_label (GTK_LABEL (gtk_widget_get_last_child (texts)));
}

/* A row shows the start of a description's first line: the whole of a
 * long one (descriptions may be 64 KiB) was laid out in every row only to
 * be cut at the sidebar's edge. */
static void
test_tool_row_description (void)
{
  g_autoptr(JsonNode) parameters = json_from_string ("{\"type\":\"object\"}", NULL);
  g_autoptr(GString) long_line = g_string_new (NULL);
  g_autoptr(TbTool) lines = NULL;
  g_autoptr(TbTool) long_tool = NULL;
  g_autoptr(GError) error = NULL;
  TbToolRow *row = g_object_ref_sink (g_object_new (TB_TYPE_TOOL_ROW, NULL));
  const char *shown;

  lines = tb_tool_new_simple_full ("lines", "Fetches a page.\nAny page.", parameters,
                                   TB_TOOL_VISIBILITY_MODEL, "builtin", 0,
                                   TB_TOOL_SIMPLE_FLAGS_NONE, commit_nothing, NULL, NULL, &error);
  g_assert_no_error (error);
  while (long_line->len < 60000)
    g_string_append (long_line, "Ünïcode words, ");
  g_string_append (long_line, "\nThe second line.");
  long_tool = tb_tool_new_simple_full ("long", long_line->str, parameters,
                                       TB_TOOL_VISIBILITY_MODEL, "builtin", 0,
                                       TB_TOOL_SIMPLE_FLAGS_NONE, commit_nothing, NULL, NULL,
                                       &error);
  g_assert_no_error (error);

  tb_tool_row_set_tool (row, lines);
  g_assert_cmpstr (row_description (row), ==, "Fetches a page.");

  tb_tool_row_set_tool (row, long_tool);
  shown = row_description (row);
  g_assert_cmpuint (g_utf8_strlen (shown, -1), ==, 200);
  g_assert_true (g_str_has_suffix (shown, "…"));
  g_assert_true (strncmp (shown, long_line->str, strlen (shown) - strlen ("…")) == 0);

  tb_tool_row_set_tool (row, NULL);
  g_object_unref (row);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  tb_app_init ();

  g_test_add ("/app/search", Fixture, NULL, setup, test_search, teardown);
  g_test_add_func ("/app/tool-row-description", test_tool_row_description);
  g_test_add ("/app/long-description", Fixture, NULL, setup, test_long_description, teardown);
  g_test_add ("/app/schema-view", Fixture, NULL, setup, test_schema_view, teardown);
  g_test_add ("/app/long-error", Fixture, NULL, setup, test_long_error, teardown);
  g_test_add ("/app/source-folders", Fixture, NULL, setup, test_source_folders, teardown);
  g_test_add ("/app/form-to-json", Fixture, NULL, setup, test_form_to_json, teardown);
  g_test_add ("/app/json-to-form", Fixture, NULL, setup, test_json_to_form, teardown);
  g_test_add ("/app/invalid-value", Fixture, NULL, setup, test_invalid_value, teardown);
  g_test_add ("/app/run-reveals", Fixture, NULL, setup, test_run_reveals, teardown);
  g_test_add ("/app/number-as-written", Fixture, NULL, setup, test_number_as_written,
              teardown);
  g_test_add ("/app/run", Fixture, NULL, setup, test_run, teardown);
  g_test_add ("/app/cancel", Fixture, NULL, setup, test_cancel, teardown);
  g_test_add ("/app/history-restore", Fixture, NULL, setup, test_history_restore, teardown);
  g_test_add ("/app/last-arguments", Fixture, NULL, setup, test_last_arguments, teardown);
  g_test_add ("/app/nested-form", Fixture, NULL, setup, test_nested_form, teardown);
  g_test_add ("/app/live-registry", Fixture, NULL, setup, test_live_registry, teardown);
  g_test_add ("/app/bad-schemas", Fixture, NULL, setup, test_bad_schemas, teardown);
  g_test_add ("/app/long-json-line", Fixture, NULL, setup, test_long_json_line, teardown);
  g_test_add ("/app/long-text-block", Fixture, NULL, setup, test_long_text_block, teardown);
  g_test_add ("/app/large-result", Fixture, NULL, setup, test_large_result, teardown);

  g_test_add_func ("/app/json-tree", test_json_tree);
  g_test_add_func ("/app/odd-schemas", test_odd_schemas);
  g_test_add_func ("/app/schema-only", test_schema_only);
  g_test_add ("/app/hover-keeps-page", Fixture, NULL, setup, test_hover_keeps_page, teardown);
  g_test_add ("/app/keyboard-pick", Fixture, NULL, setup, test_keyboard_pick, teardown);
  g_test_add ("/app/search-down", Fixture, NULL, setup, test_search_down, teardown);
  g_test_add ("/app/capture-shortcuts", Fixture, NULL, setup, test_capture_shortcuts, teardown);
  g_test_add ("/app/history-rows", Fixture, NULL, setup, test_history_rows, teardown);
  g_test_add ("/app/tab-through-form", Fixture, NULL, setup, test_tab_through_form, teardown);
  g_test_add ("/app/narrow", Fixture, NULL, setup, test_narrow, teardown);
  g_test_add ("/app/narrow-page-shows", Fixture, NULL, setup, test_narrow_page_shows, teardown);
  g_test_add ("/app/narrow-headings", Fixture, NULL, setup, test_narrow_headings, teardown);
  g_test_add ("/app/shortcuts", Fixture, NULL, setup, test_shortcuts, teardown);
  g_test_add ("/app/shortcuts-window", Fixture, NULL, setup, test_shortcuts_window, teardown);
  g_test_add ("/app/mcp-content", Fixture, NULL, setup, test_mcp_content, teardown);
  g_test_add ("/app/tool-hints", Fixture, NULL, setup, test_tool_hints, teardown);
  g_test_add_func ("/app/tool-row-hints", test_tool_row_hints);

  return g_test_run ();
}
