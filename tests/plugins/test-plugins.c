/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Plugins: Python and JavaScript files of a folder, each run by its runner
 * in a process of its own; their tools called through the registry, and
 * every way a plugin can go wrong. */

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <toolbench.h>

#include "../test-files-util.h"

typedef struct
{
  TbToolRegistry *registry;
  char           *dir;
} Fixture;

static const char WORDS_PY[] =
  "import os, signal, time\n"
  "from toolbench_plugin import tool\n"
  "\n"
  "@tool({'type': 'object', 'properties': {'text': {'type': 'string'}}, 'required': ['text']})\n"
  "def word_count(text):\n"
  "    \"\"\"Counts the words of a text.\"\"\"\n"
  "    print('a plugin may print; nobody reads it')\n"
  "    if text == 'raise':\n"
  "        raise ValueError('no words today')\n"
  "    if text == 'set':\n"
  "        return {1, 2}\n"
  "    if text == 'die':\n"
  "        os.kill(os.getpid(), signal.SIGKILL)\n"
  "    if text.startswith('hang:'):\n"
  "        with open(text[5:], 'w') as f:\n"
  "            f.write(str(os.getpid()))\n"
  "        time.sleep(1000)\n"
  "    return {'words': len(text.split())}\n";

static const char SHOUT_JS[] =
  "export const tools = [{\n"
  "    name: 'shout',\n"
  "    description: 'Shouts a text.',\n"
  "    parameters: {type: 'object', properties: {text: {type: 'string'}}, required: ['text']},\n"
  "    async run({text}) {\n"
  "        console.log('a plugin may log; nobody reads it');\n"
  "        if (text === 'throw')\n"
  "            throw new Error('no shouting today');\n"
  "        if (text === 'function')\n"
  "            return () => 1;\n"
  "        return `${text.toUpperCase()}!`;\n"
  "    },\n"
  "}];\n";

static const char BROKEN_PY[] =
  "from toolbench_plugin import tool\n"
  "\n"
  "def broken(:\n"
  "    pass\n";

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  f->registry = tb_tool_registry_new ();
  f->dir = g_dir_make_tmp ("tb-plugins-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  test_remove_tree (f->dir);
  g_free (f->dir);
  g_clear_object (&f->registry);
}

static void
write_plugin (Fixture    *f,
              const char *name,
              const char *text)
{
  g_autofree char *path = g_build_filename (f->dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static void
store_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static void
wait_for (GAsyncResult **result)
{
  gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;

  while (*result == NULL)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
}

static GListModel *
load (Fixture *f)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GListModel *plugins;

  tb_plugins_load_async (f->registry, f->dir, NULL, store_cb, &result);
  wait_for (&result);
  plugins = tb_plugins_load_finish (result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (plugins);
  return plugins;
}

static TbPlugin *
find_plugin (GListModel *plugins,
             const char *name)
{
  for (guint i = 0; i < g_list_model_get_n_items (plugins); i++)
    {
      g_autoptr(TbPlugin) plugin = g_list_model_get_item (plugins, i);

      if (g_strcmp0 (tb_plugin_get_name (plugin), name) == 0)
        return plugin;
    }
  g_assert_not_reached ();
}

static TbToolResult *
call (Fixture      *f,
      const char   *name,
      const char   *arguments,
      GCancellable *cancellable)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonNode) node = json_from_string (arguments, NULL);

  tb_tool_registry_call_async (f->registry, name, NULL, node, NULL, cancellable, store_cb,
                               &result);
  wait_for (&result);
  return tb_tool_registry_call_finish (f->registry, result);
}

static char *
output_text (TbToolResult *result)
{
  g_assert_true (tb_tool_result_get_ok (result));
  return json_to_string (tb_tool_result_get_output (result), FALSE);
}

static gboolean
gjs_installed (void)
{
  g_autofree char *gjs = g_find_program_in_path ("gjs");

  return gjs != NULL;
}

static gboolean
have_gjs (void)
{
  if (gjs_installed ())
    return TRUE;
  g_test_skip ("gjs is not installed");
  return FALSE;
}

/* Every plugin of the folder: a Python one and a JavaScript one load, one
 * with a syntax error is listed with the interpreter's error, file and
 * line, and the others' tools are there all the same. */
static void
test_load (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GListModel) plugins = NULL;
  g_autoptr(TbToolResult) result = NULL;
  g_autofree char *text = NULL;
  TbPlugin *plugin;
  g_autoptr(TbTool) tool = NULL;

  if (!have_gjs ())
    return;
  write_plugin (f, "words.py", WORDS_PY);
  write_plugin (f, "shout.js", SHOUT_JS);
  write_plugin (f, "broken.py", BROKEN_PY);
  write_plugin (f, "notes.txt", "not a plugin");

  plugins = load (f);
  g_assert_cmpuint (g_list_model_get_n_items (plugins), ==, 3);

  plugin = find_plugin (plugins, "broken.py");
  g_assert_cmpint (tb_plugin_get_state (plugin), ==, TB_PLUGIN_STATE_FAILED);
  g_assert_cmpstr (tb_plugin_get_message (plugin), ==,
                   "broken.py, line 3: SyntaxError: invalid syntax");
  g_assert_cmpuint (g_strv_length ((GStrv) tb_plugin_get_tools (plugin)), ==, 0);

  plugin = find_plugin (plugins, "words.py");
  g_assert_cmpint (tb_plugin_get_state (plugin), ==, TB_PLUGIN_STATE_LOADED);
  g_assert_null (tb_plugin_get_message (plugin));
  g_assert_cmpstr (tb_plugin_get_tools (plugin)[0], ==, "word_count");
  tool = tb_tool_registry_lookup (f->registry, "word_count");
  g_assert_nonnull (tool);
  g_assert_cmpstr (tb_tool_get_source (tool), ==, "plugin:words.py");
  g_assert_cmpstr (tb_tool_get_description (tool), ==, "Counts the words of a text.");
  g_clear_object (&tool);

  plugin = find_plugin (plugins, "shout.js");
  g_assert_cmpint (tb_plugin_get_state (plugin), ==, TB_PLUGIN_STATE_LOADED);
  tool = tb_tool_registry_lookup (f->registry, "shout");
  g_assert_nonnull (tool);
  g_assert_cmpstr (tb_tool_get_source (tool), ==, "plugin:shout.js");

  result = call (f, "word_count", "{\"text\": \"one two three\"}", NULL);
  text = output_text (result);
  g_assert_cmpstr (text, ==, "{\"words\":3}");
  g_clear_object (&result);
  g_clear_pointer (&text, g_free);

  result = call (f, "shout", "{\"text\": \"hey\"}", NULL);
  text = output_text (result);
  g_assert_cmpstr (text, ==, "\"HEY!\"");
  g_clear_object (&result);

  /* Arguments far larger than a pipe holds at once arrive whole. */
  {
    g_autoptr(GString) big = g_string_new ("{\"text\": \"");
    g_autofree char *shouted = NULL;

    for (guint i = 0; i < 100000; i++)
      g_string_append (big, "ab é ");
    g_string_append (big, "\"}");
    result = call (f, "shout", big->str, NULL);
    shouted = output_text (result);
    g_assert_cmpuint (strlen (shouted), ==, 100000 * strlen ("AB É ") + strlen ("\"!\""));
    g_clear_object (&result);
  }

  /* Validated by the registry before any process starts. */
  result = call (f, "shout", "{\"text\": 3}", NULL);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_INVALID_ARGUMENTS);
}

/* A tool that raises: the exception's message, never a traceback; one that
 * returns what JSON cannot hold: what was expected. */
static void
test_raises_and_wrong_type (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(GListModel) plugins = NULL;
  g_autoptr(TbToolResult) result = NULL;

  write_plugin (f, "words.py", WORDS_PY);
  if (gjs_installed ())
    write_plugin (f, "shout.js", SHOUT_JS);
  plugins = load (f);

  result = call (f, "word_count", "{\"text\": \"raise\"}", NULL);
  g_assert_false (tb_tool_result_get_ok (result));
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_EXECUTION_FAILED);
  g_assert_cmpstr (tb_tool_result_get_error (result), ==, "ValueError: no words today");
  g_clear_object (&result);

  result = call (f, "word_count", "{\"text\": \"set\"}", NULL);
  g_assert_false (tb_tool_result_get_ok (result));
  g_assert_cmpstr (tb_tool_result_get_error (result), ==,
                   "The tool “word_count” returned a value of type set; a tool returns a dict, "
                   "list, str, int, float, bool or None");
  g_clear_object (&result);

  if (!have_gjs ())
    return;
  result = call (f, "shout", "{\"text\": \"throw\"}", NULL);
  g_assert_false (tb_tool_result_get_ok (result));
  g_assert_cmpstr (tb_tool_result_get_error (result), ==, "Error: no shouting today");
  g_clear_object (&result);

  result = call (f, "shout", "{\"text\": \"function\"}", NULL);
  g_assert_false (tb_tool_result_get_ok (result));
  g_assert_cmpstr (tb_tool_result_get_error (result), ==,
                   "The tool “shout” returned a function; a tool returns an object, array, "
                   "string, number, boolean or null");
}

static gboolean
process_gone (pid_t pid)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < deadline)
    {
      if (kill (pid, 0) != 0 && errno == ESRCH)
        return TRUE;
      g_usleep (20 * 1000);
    }
  return FALSE;
}

/* A plugin that never answers: the registry's time limit ends the call and
 * its process; a cancelled call too; the next call starts a new one. */
static void
test_timeout_and_cancel (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GListModel) plugins = NULL;
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *pid_file = g_build_filename (f->dir, "pid", NULL);
  g_autofree char *arguments = g_strdup_printf ("{\"text\": \"hang:%s\"}", pid_file);
  g_autofree char *contents = NULL;
  g_autofree char *text = NULL;

  write_plugin (f, "words.py", WORDS_PY);
  plugins = load (f);
  tb_tool_registry_set_default_timeout_ms (f->registry, 2000);

  result = call (f, "word_count", arguments, NULL);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_TIMEOUT);
  g_assert_cmpstr (tb_tool_result_get_error (result), ==,
                   "The tool “word_count” did not finish within 2 seconds and was stopped");
  g_assert_true (g_file_get_contents (pid_file, &contents, NULL, NULL));
  g_assert_true (process_gone ((pid_t) g_ascii_strtoll (contents, NULL, 10)));
  g_clear_object (&result);
  g_clear_pointer (&contents, g_free);
  g_unlink (pid_file);

  tb_tool_registry_set_default_timeout_ms (f->registry, 60000);
  g_timeout_add_once (1000, (GSourceOnceFunc) g_cancellable_cancel, cancellable);
  result = call (f, "word_count", arguments, cancellable);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_CANCELLED);
  g_assert_true (g_file_get_contents (pid_file, &contents, NULL, NULL));
  g_assert_true (process_gone ((pid_t) g_ascii_strtoll (contents, NULL, 10)));
  g_clear_object (&result);

  result = call (f, "word_count", "{\"text\": \"still here\"}", NULL);
  text = output_text (result);
  g_assert_cmpstr (text, ==, "{\"words\":2}");
}

/* A plugin process that dies during a call: a failure naming the plugin. */
static void
test_dies (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GListModel) plugins = NULL;
  g_autoptr(TbToolResult) result = NULL;

  write_plugin (f, "words.py", WORDS_PY);
  plugins = load (f);

  result = call (f, "word_count", "{\"text\": \"die\"}", NULL);
  g_assert_false (tb_tool_result_get_ok (result));
  g_assert_cmpstr (tb_tool_result_get_error (result), ==,
                   "The plugin “words.py” ended during the call: Killed");
}

/* No GJS: the JavaScript plugin says what to install, Python ones load. */
static void
test_no_interpreter (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GListModel) plugins = NULL;
  g_autofree char *path = g_strdup (g_getenv ("PATH"));
  TbPlugin *plugin;

  write_plugin (f, "words.py", WORDS_PY);
  write_plugin (f, "shout.js", SHOUT_JS);
  g_setenv ("PATH", f->dir, TRUE);
  plugins = load (f);
  g_setenv ("PATH", path, TRUE);

  plugin = find_plugin (plugins, "shout.js");
  g_assert_cmpint (tb_plugin_get_state (plugin), ==, TB_PLUGIN_STATE_FAILED);
  g_assert_cmpstr (tb_plugin_get_message (plugin), ==,
                   "GJS is not installed: install the gjs package to use shout.js");
  g_assert_false (tb_tool_registry_contains (f->registry, "shout"));
  plugin = find_plugin (plugins, "words.py");
  g_assert_cmpint (tb_plugin_get_state (plugin), ==, TB_PLUGIN_STATE_LOADED);
  g_assert_true (tb_tool_registry_contains (f->registry, "word_count"));
}

/* Hundreds of files, a FIFO and a folder named like plugins, a link to
 * nothing: loading ends, each says what it is, the rest load. */
static void
test_many_and_unreadable (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(GListModel) plugins = NULL;
  g_autofree char *fifo = g_build_filename (f->dir, "fifo.py", NULL);
  g_autofree char *folder = g_build_filename (f->dir, "folder.py", NULL);
  g_autofree char *link = g_build_filename (f->dir, "gone.py", NULL);
  g_autoptr(TbToolResult) result = NULL;
  g_autofree char *text = NULL;
  gint64 start = g_get_monotonic_time ();
  TbPlugin *plugin;

  for (guint i = 0; i < TB_PLUGINS_MAX + 40; i++)
    {
      g_autofree char *name = g_strdup_printf ("p%03u.py", i);
      g_autofree char *source =
        g_strdup_printf ("from toolbench_plugin import tool\n\n"
                         "@tool(name='t%03u')\n"
                         "def t():\n"
                         "    return %u\n", i, i);

      write_plugin (f, name, source);
    }
  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *name = g_strdup_printf ("readme%03u.txt", i);

      write_plugin (f, name, "not a plugin");
    }
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  g_assert_cmpint (symlink ("nowhere.py", link), ==, 0);

  plugins = load (f);
  g_test_message ("%u plugins listed in %.1f s", g_list_model_get_n_items (plugins),
                  (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC);
  g_assert_cmpuint (g_list_model_get_n_items (plugins), ==, TB_PLUGINS_MAX + 43);

  plugin = find_plugin (plugins, "fifo.py");
  g_assert_cmpint (tb_plugin_get_state (plugin), ==, TB_PLUGIN_STATE_FAILED);
  g_assert_cmpstr (tb_plugin_get_message (plugin), ==,
                   "fifo.py is not a regular file; a plugin is a Python or JavaScript file");
  plugin = find_plugin (plugins, "folder.py");
  g_assert_cmpstr (tb_plugin_get_message (plugin), ==,
                   "folder.py is not a regular file; a plugin is a Python or JavaScript file");
  plugin = find_plugin (plugins, "gone.py");
  g_assert_cmpstr (tb_plugin_get_message (plugin), ==,
                   "gone.py cannot be read: No such file or directory");

  /* In name order: fifo.py, folder.py and gone.py come first. */
  plugin = find_plugin (plugins, "p000.py");
  g_assert_cmpint (tb_plugin_get_state (plugin), ==, TB_PLUGIN_STATE_LOADED);
  plugin = find_plugin (plugins, "p252.py");
  g_assert_cmpint (tb_plugin_get_state (plugin), ==, TB_PLUGIN_STATE_LOADED);
  plugin = find_plugin (plugins, "p253.py");
  g_assert_cmpint (tb_plugin_get_state (plugin), ==, TB_PLUGIN_STATE_FAILED);
  g_assert_cmpstr (tb_plugin_get_message (plugin), ==,
                   "Not loaded: the folder holds more than 256 plugins");
  g_assert_cmpuint (tb_tool_registry_get_size (f->registry), ==, TB_PLUGINS_MAX - 3);

  result = call (f, "t007", "{}", NULL);
  text = output_text (result);
  g_assert_cmpstr (text, ==, "7");
}

static const char GI_PY[] =
  "import gi\n"
  "gi.require_version('Toolbench', '1')\n"
  "gi.require_version('Json', '1.0')\n"
  "from gi.repository import Json, Toolbench\n"
  "\n"
  "def upper(tool, arguments, context, cancellable, user_data):\n"
  "    if arguments.get_string_member('text') == 'raise':\n"
  "        raise ValueError('not that one')\n"
  "    node = Json.Node.alloc()\n"
  "    node.init_string(arguments.get_string_member('text').upper())\n"
  "    return node\n"
  "\n"
  "upper_tool = Toolbench.Tool.new_simple(\n"
  "    'py_upper', 'Upper-cases a text.',\n"
  "    Json.from_string('{\"type\": \"object\", \"properties\": {\"text\": {\"type\": \"string\"}}}'),\n"
  "    Toolbench.ToolSimpleFlags.NONE, upper, None)\n";

static const char GI_JS[] =
  "import Json from 'gi://Json?version=1.0';\n"
  "import Toolbench from 'gi://Toolbench?version=1';\n"
  "\n"
  "function lower(tool, args) {\n"
  "    const node = new Json.Node();\n"
  "    node.init_string(args.get_string_member('text').toLowerCase());\n"
  "    return node;\n"
  "}\n"
  "\n"
  "export const tools = [Toolbench.Tool.new_simple('js_lower', 'Lower-cases a text.',\n"
  "    Json.from_string('{\"type\": \"object\", \"properties\": {\"text\": {\"type\": \"string\"}}}'),\n"
  "    Toolbench.ToolSimpleFlags.NONE, lower)];\n";

/* Plugins that build Toolbench.Tool objects through the bindings: listed
 * with their schemas and called through a registry inside the runner. */
static void
test_bindings (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GListModel) plugins = NULL;
  g_autoptr(TbToolResult) result = NULL;
  g_autofree char *text = NULL;
  g_autofree char *typelib = g_build_filename (g_getenv ("GI_TYPELIB_PATH") ?: "",
                                               "Toolbench-1.typelib", NULL);

  if (!g_file_test (typelib, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("the build has no typelib");
      return;
    }
  write_plugin (f, "gi.py", GI_PY);
  if (gjs_installed ())
    write_plugin (f, "gi.js", GI_JS);
  plugins = load (f);
  g_assert_cmpint (tb_plugin_get_state (find_plugin (plugins, "gi.py")), ==,
                   TB_PLUGIN_STATE_LOADED);

  result = call (f, "py_upper", "{\"text\": \"hey\"}", NULL);
  text = output_text (result);
  g_assert_cmpstr (text, ==, "\"HEY\"");
  g_clear_object (&result);
  result = call (f, "py_upper", "{\"text\": \"raise\"}", NULL);
  g_assert_cmpstr (tb_tool_result_get_error (result), ==, "ValueError: not that one");
  g_clear_object (&result);
  g_clear_pointer (&text, g_free);

  if (!have_gjs ())
    return;
  g_assert_cmpint (tb_plugin_get_state (find_plugin (plugins, "gi.js")), ==,
                   TB_PLUGIN_STATE_LOADED);
  result = call (f, "js_lower", "{\"text\": \"HEY\"}", NULL);
  text = output_text (result);
  g_assert_cmpstr (text, ==, "\"hey\"");
}

static int
run_cli (const char  *args,
         char       **out,
         char       **err)
{
  g_autofree char *command = g_strdup_printf ("%s %s", g_getenv ("TOOLBENCH_CLI"), args);
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_spawn_command_line_sync (command, out, err, &status, &error);
  g_assert_no_error (error);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* The CLI loads the same folder the same way: `plugins` lists each with
 * its state, `--plugins-dir` offers the tools to the other commands. */
static void
test_cli (Fixture       *f,
          gconstpointer  data)
{
  g_autofree char *args = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  write_plugin (f, "words.py", WORDS_PY);
  write_plugin (f, "broken.py", BROKEN_PY);

  args = g_strdup_printf ("plugins --dir %s", f->dir);
  g_assert_cmpint (run_cli (args, &out, &err), ==, 1);
  g_assert_nonnull (strstr (out, "broken.py                failed   \n"
                                 "    broken.py, line 3: SyntaxError: invalid syntax\n"));
  g_assert_nonnull (strstr (out, "words.py                 loaded   word_count\n"));
  g_clear_pointer (&args, g_free);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  args = g_strdup_printf ("call word_count --args '{\"text\": \"a b c d\"}' --plugins-dir %s",
                          f->dir);
  g_assert_cmpint (run_cli (args, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "\"words\" : 4"));
  g_assert_nonnull (strstr (err, "broken.py, line 3: SyntaxError: invalid syntax"));
}

/* Offered to a model like any tool: a scripted loop calls the plugin's
 * tool, and what the model reads of a failure is the sentence alone. */
static void
test_loop (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GListModel) plugins = NULL;
  g_autoptr(JsonNode) script = NULL;
  g_autoptr(TbScriptedProvider) provider = NULL;
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) contents = g_ptr_array_new ();
  TbTrace *trace;

  write_plugin (f, "words.py", WORDS_PY);
  plugins = load (f);
  script = json_from_string (
    "{\"format\": \"toolbench-script\", \"version\": 1, \"responses\": ["
    " {\"tool_calls\": [{\"id\": \"c1\", \"name\": \"word_count\","
    "                    \"arguments\": {\"text\": \"a b\"}},"
    "                   {\"id\": \"c2\", \"name\": \"word_count\","
    "                    \"arguments\": {\"text\": \"raise\"}}]},"
    " {\"text\": \"Done.\"}]}", &error);
  g_assert_no_error (error);
  provider = tb_scripted_provider_new_from_json (script, &error);
  g_assert_no_error (error);
  loop = tb_dispatch_loop_new (f->registry, TB_PROVIDER (provider), 5);
  tb_dispatch_loop_set_approval_policy (loop, TB_APPROVAL_POLICY_APPROVE_ALL);
  g_assert_true (tb_dispatch_loop_add_user_message (loop, "Count.", NULL));
  tb_dispatch_loop_run_async (loop, NULL, store_cb, &result);
  wait_for (&result);
  tb_dispatch_loop_run_finish (loop, result, &error);
  g_assert_no_error (error);

  trace = tb_dispatch_loop_get_trace (loop);
  for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
    {
      TbTraceEvent *event = tb_trace_get_event (trace, i);

      if (g_strcmp0 (tb_trace_event_get_event_type (event), "tool-result") == 0)
        g_ptr_array_add (contents, (gpointer) json_object_get_string_member (
                                     tb_trace_event_get_payload (event), "content"));
    }
  g_assert_cmpuint (contents->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (contents, 0), ==, "{\"words\":2}");
  g_assert_nonnull (strstr (g_ptr_array_index (contents, 1), "ValueError: no words today"));
  g_assert_null (strstr (g_ptr_array_index (contents, 1), "Traceback"));
}

/* A plugin folder that does not exist has no plugins. */
static void
test_no_folder (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GListModel) plugins = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *missing = g_build_filename (f->dir, "missing", NULL);

  tb_plugins_load_async (f->registry, missing, NULL, store_cb, &result);
  wait_for (&result);
  plugins = tb_plugins_load_finish (result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (plugins), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/plugins/load", Fixture, NULL, setup, test_load, teardown);
  g_test_add ("/plugins/raises-and-wrong-type", Fixture, NULL, setup,
              test_raises_and_wrong_type, teardown);
  g_test_add ("/plugins/timeout-and-cancel", Fixture, NULL, setup, test_timeout_and_cancel,
              teardown);
  g_test_add ("/plugins/dies", Fixture, NULL, setup, test_dies, teardown);
  g_test_add ("/plugins/no-interpreter", Fixture, NULL, setup, test_no_interpreter, teardown);
  g_test_add ("/plugins/many-and-unreadable", Fixture, NULL, setup, test_many_and_unreadable,
              teardown);
  g_test_add ("/plugins/bindings", Fixture, NULL, setup, test_bindings, teardown);
  g_test_add ("/plugins/loop", Fixture, NULL, setup, test_loop, teardown);
  g_test_add ("/plugins/cli", Fixture, NULL, setup, test_cli, teardown);
  g_test_add ("/plugins/no-folder", Fixture, NULL, setup, test_no_folder, teardown);

  return g_test_run ();
}
