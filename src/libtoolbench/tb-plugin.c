/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-plugin"

#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "tb-command-tool.h"
#include "tb-command-tool-private.h"
#include "tb-enums.h"
#include "tb-json.h"
#include "tb-plugin.h"
#include "tb-tool-result.h"

/**
 * TbPlugin:
 *
 * One file of a plugin folder: a `*.py` file run by Python or a `*.js`
 * module run by GJS, and what became of it.
 *
 * A plugin never runs inside Toolbench. A small runner shipped with
 * Toolbench (`toolbench-plugin-runner.py`, `toolbench-plugin-runner.js`
 * in `$datadir/toolbench/plugins-runtime`) imports it in a process of its
 * own, once to list its tools, then once for every call, and speaks the
 * command-tool protocol (see #TbCommandTool) for it: the arguments on
 * standard input, the result as JSON on standard output, a failure as one
 * sentence on standard error with exit status 1. So a plugin that
 * crashes, hangs or leaks takes nothing with it but its own call, and
 * each call has the registry's validation, time limit and cancellation.
 *
 * Each tool is a #TbCommandTool whose source is `plugin:<file name>`.
 */

#define MAX_PARALLEL 4
#define PYTHON "/usr/bin/python3"

struct _TbPlugin
{
  GObject        parent_instance;

  char          *name;
  char          *path;
  char          *source;
  TbPluginState  state;
  char          *message;
  GStrv          tools;
};

enum {
  PROP_0,
  PROP_NAME,
  PROP_PATH,
  PROP_STATE,
  PROP_MESSAGE,
  PROP_TOOLS,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

G_DEFINE_FINAL_TYPE (TbPlugin, tb_plugin, G_TYPE_OBJECT)

static void
tb_plugin_finalize (GObject *object)
{
  TbPlugin *self = (TbPlugin *)object;

  g_free (self->name);
  g_free (self->path);
  g_free (self->source);
  g_free (self->message);
  g_strfreev (self->tools);

  G_OBJECT_CLASS (tb_plugin_parent_class)->finalize (object);
}

static void
tb_plugin_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  TbPlugin *self = TB_PLUGIN (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case PROP_MESSAGE:
      g_value_set_string (value, self->message);
      break;
    case PROP_TOOLS:
      g_value_set_boxed (value, self->tools);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_plugin_class_init (TbPluginClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tb_plugin_finalize;
  object_class->get_property = tb_plugin_get_property;

  /**
   * TbPlugin:name:
   *
   * The file name, such as `notes.py`.
   */
  properties [PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * TbPlugin:path:
   *
   * The file.
   */
  properties [PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * TbPlugin:state:
   *
   * Loading, loaded or failed.
   */
  properties [PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, TB_TYPE_PLUGIN_STATE, TB_PLUGIN_STATE_LOADING,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * TbPlugin:message:
   *
   * Why the plugin failed, or what went wrong with some of its tools; %NULL
   * when all is well.
   */
  properties [PROP_MESSAGE] =
    g_param_spec_string ("message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * TbPlugin:tools:
   *
   * The names its tools are registered under.
   */
  properties [PROP_TOOLS] =
    g_param_spec_boxed ("tools", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tb_plugin_init (TbPlugin *self)
{
  self->tools = g_new0 (char *, 1);
}

static TbPlugin *
plugin_new (const char *dir,
            const char *name)
{
  TbPlugin *self = g_object_new (TB_TYPE_PLUGIN, NULL);

  self->name = g_strdup (name);
  self->path = g_build_filename (dir, name, NULL);
  self->source = g_strconcat ("plugin:", name, NULL);
  return self;
}

static void
plugin_finish (TbPlugin      *self,
               TbPluginState  state,
               const char    *message,
               GStrv          tools)
{
  self->state = state;
  g_free (self->message);
  self->message = g_strdup (message);
  if (tools != NULL)
    {
      g_strfreev (self->tools);
      self->tools = tools;
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_STATE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_MESSAGE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_TOOLS]);
}

/**
 * tb_plugin_get_name:
 * @self: a plugin
 *
 * Gives the plugin's file name, which is how people and its tools' source
 * name it.
 *
 * Returns: the file name, such as `notes.py`
 */
const char *
tb_plugin_get_name (TbPlugin *self)
{
  g_return_val_if_fail (TB_IS_PLUGIN (self), NULL);
  return self->name;
}

/**
 * tb_plugin_get_path:
 * @self: a plugin
 *
 * Gives where the plugin's file is.
 *
 * Returns: the file
 */
const char *
tb_plugin_get_path (TbPlugin *self)
{
  g_return_val_if_fail (TB_IS_PLUGIN (self), NULL);
  return self->path;
}

/**
 * tb_plugin_get_state:
 * @self: a plugin
 *
 * Tells how far loading the plugin got.
 *
 * Returns: whether the plugin is loading, loaded or failed
 */
TbPluginState
tb_plugin_get_state (TbPlugin *self)
{
  g_return_val_if_fail (TB_IS_PLUGIN (self), TB_PLUGIN_STATE_FAILED);
  return self->state;
}

/**
 * tb_plugin_get_message:
 * @self: a plugin
 *
 * Gives the sentence a person reads about a plugin that failed, or about
 * tools of it that could not be registered.
 *
 * Returns: (nullable): why the plugin failed (the interpreter's error with
 *   file and line, what to install, …), or what went wrong with some of its
 *   tools
 */
const char *
tb_plugin_get_message (TbPlugin *self)
{
  g_return_val_if_fail (TB_IS_PLUGIN (self), NULL);
  return self->message;
}

/**
 * tb_plugin_get_tools:
 * @self: a plugin
 *
 * Lists the tools the plugin registered; empty until it has loaded, and for
 * a plugin that failed.
 *
 * Returns: (transfer none) (array zero-terminated=1): the names its tools
 *   are registered under
 */
const char * const *
tb_plugin_get_tools (TbPlugin *self)
{
  g_return_val_if_fail (TB_IS_PLUGIN (self), NULL);
  return (const char * const *) self->tools;
}

/**
 * tb_plugin_get_source:
 * @self: a plugin
 *
 * Gives the source its tools carry, as tb_tool_get_source() returns it.
 *
 * Returns: the source of its tools, `plugin:<file name>`
 */
const char *
tb_plugin_get_source (TbPlugin *self)
{
  g_return_val_if_fail (TB_IS_PLUGIN (self), NULL);
  return self->source;
}

/* ---- loading --------------------------------------------------------------- */

/**
 * tb_plugins_get_default_dir:
 *
 * Gives the folder the app loads plugins from; it need not exist.
 *
 * Returns: (transfer full): the plugin folder the app loads,
 *   `toolbench/plugins` in the user's data folder (usually
 *   `~/.local/share/toolbench/plugins`)
 */
char *
tb_plugins_get_default_dir (void)
{
  return g_build_filename (g_get_user_data_dir (), "toolbench", "plugins", NULL);
}

static const char *
runtime_dir (void)
{
  const char *dir = g_getenv ("TOOLBENCH_PLUGINS_RUNTIME_DIR");

  return dir != NULL && *dir != '\0' ? dir : TB_PLUGINS_RUNTIME_DIR;
}

/* The runner's argv up to its verb, or NULL with the sentence a person
 * sees when the interpreter or the runner is missing. */
static GStrv
runner_argv (TbPlugin  *plugin,
             char     **problem)
{
  g_autoptr(GStrvBuilder) argv = g_strv_builder_new ();
  g_autofree char *runner = NULL;

  if (g_str_has_suffix (plugin->name, ".py"))
    {
      if (!g_file_test (PYTHON, G_FILE_TEST_IS_EXECUTABLE))
        {
          *problem = g_strdup_printf (_("Python 3 is not installed (%s is missing): install "
                                        "the python3 and python3-gi packages to use %s"),
                                      PYTHON, plugin->name);
          return NULL;
        }
      runner = g_build_filename (runtime_dir (), "toolbench-plugin-runner.py", NULL);
      g_strv_builder_add (argv, PYTHON);
    }
  else
    {
      g_autofree char *gjs = g_find_program_in_path ("gjs");

      if (gjs == NULL)
        {
          *problem = g_strdup_printf (_("GJS is not installed: install the gjs package to "
                                        "use %s"), plugin->name);
          return NULL;
        }
      runner = g_build_filename (runtime_dir (), "toolbench-plugin-runner.js", NULL);
      g_strv_builder_add (argv, gjs);
      g_strv_builder_add (argv, "-m");
    }

  if (!g_file_test (runner, G_FILE_TEST_IS_REGULAR))
    {
      *problem = g_strdup_printf (_("The plugin runner %s is missing: reinstall Toolbench"),
                                  runner);
      return NULL;
    }
  g_strv_builder_add (argv, runner);
  return g_strv_builder_end (argv);
}

/* Only what can be read at once: a FIFO or a device named `x.py` would
 * keep the runner waiting. */
static char *
check_file (TbPlugin *plugin)
{
  struct stat st;

  if (g_stat (plugin->path, &st) != 0)
    {
      int saved = errno;

      return g_strdup_printf (_("%s cannot be read: %s"), plugin->name, g_strerror (saved));
    }
  if (!S_ISREG (st.st_mode))
    return g_strdup_printf (_("%s is not a regular file; a plugin is a Python or JavaScript "
                              "file"), plugin->name);
  if (g_access (plugin->path, R_OK) != 0)
    {
      int saved = errno;

      return g_strdup_printf (_("%s cannot be read: %s"), plugin->name, g_strerror (saved));
    }
  return NULL;
}

static TbTool *
command_tool (TbPlugin            *plugin,
              JsonObject          *entry,
              const char          *name,
              const char * const  *argv,
              GError             **error)
{
  g_autoptr(JsonNode) manifest = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonArray) command = json_array_new ();
  JsonObjectIter iter;
  const char *member;
  JsonNode *value;
  TbTool *tool;

  json_object_iter_init (&iter, entry);
  while (json_object_iter_next (&iter, &member, &value))
    if (g_strv_contains ((const char * const []) { "description", "parameters", "title",
                                                   "annotations", "timeout-ms", NULL },
                         member))
      json_object_set_member (object, member, json_node_copy (value));
  json_object_set_string_member (object, "name", name);
  for (guint i = 0; argv[i] != NULL; i++)
    json_array_add_string_element (command, argv[i]);
  json_object_set_array_member (object, "command", g_steal_pointer (&command));
  json_node_take_object (manifest, g_steal_pointer (&object));

  tool = tb_command_tool_new_from_json (manifest, NULL, plugin->source, error);
  if (tool != NULL)
    _tb_command_tool_set_plugin (TB_COMMAND_TOOL (tool), plugin->name);
  return tool;
}

typedef struct
{
  TbToolRegistry *registry;
  TbToolRegistry *listers;
  GListStore     *plugins;
  GQueue          queue;
  guint           running;
  guint           serial;
} Loading;

typedef struct
{
  GTask    *task;
  TbPlugin *plugin;
  GStrv     argv;
  char     *lister;
} Listing;

static void
loading_free (gpointer data)
{
  Loading *loading = data;

  g_clear_object (&loading->registry);
  g_clear_object (&loading->listers);
  g_clear_object (&loading->plugins);
  g_queue_clear_full (&loading->queue, (GDestroyNotify) g_object_unref);
  g_free (loading);
}

static void
listing_free (Listing *listing)
{
  g_clear_object (&listing->task);
  g_clear_object (&listing->plugin);
  g_strfreev (listing->argv);
  g_free (listing->lister);
  g_free (listing);
}

static void start_next (GTask *task);

/* Registers the tools a plugin listed; a name already taken gets the
 * plugin's name in front, as MCP tools get their server's. */
static void
register_tools (Loading  *loading,
                Listing  *listing,
                JsonNode *output)
{
  TbPlugin *plugin = listing->plugin;
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  g_autoptr(GString) problems = g_string_new (NULL);
  g_autofree char *stem = g_strndup (plugin->name, strrchr (plugin->name, '.') - plugin->name);
  JsonArray *tools = NULL;
  guint registered = 0;

  if (output != NULL && JSON_NODE_HOLDS_OBJECT (output))
    tools = tb_json_object_get_array (json_node_get_object (output), "tools");
  if (tools == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("%s did not list its tools as the plugin "
                                                 "runner does"), plugin->name);

      plugin_finish (plugin, TB_PLUGIN_STATE_FAILED, text, NULL);
      return;
    }

  for (guint i = 0; i < json_array_get_length (tools); i++)
    {
      JsonNode *node = json_array_get_element (tools, i);
      JsonObject *entry = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *name = entry != NULL ? tb_json_object_get_string (entry, "name") : NULL;
      g_autoptr(GStrvBuilder) argv = NULL;
      g_auto(GStrv) call = NULL;
      g_autoptr(TbTool) tool = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *taken = NULL;

      if (name == NULL || *name == '\0')
        continue;

      argv = g_strv_builder_new ();
      g_strv_builder_addv (argv, (const char **) listing->argv);
      g_strv_builder_add_many (argv, "call", plugin->path, name, NULL);
      call = g_strv_builder_end (argv);

      if (tb_tool_registry_contains (loading->registry, name))
        taken = g_strdup_printf ("%s.%s", stem, name);
      tool = command_tool (plugin, entry, taken != NULL ? taken : name,
                           (const char * const *) call, &error);
      if (tool != NULL && tb_tool_registry_register (loading->registry, tool, &error))
        {
          g_strv_builder_add (names, tb_tool_get_name (tool));
          registered++;
          continue;
        }
      if (problems->len > 0)
        g_string_append (problems, "\n");
      /* Translators: a tool's name, then why it was left out */
      g_string_append_printf (problems, _("The tool “%s” was left out: %s"), name,
                              error->message);
    }

  if (registered == 0 && problems->len == 0)
    g_string_append_printf (problems, _("%s has no tools: mark functions with "
                                        "toolbench_plugin.tool (Python) or export “tools” "
                                        "(JavaScript)"), plugin->name);
  plugin_finish (plugin, registered > 0 ? TB_PLUGIN_STATE_LOADED : TB_PLUGIN_STATE_FAILED,
                 problems->len > 0 ? problems->str : NULL, g_strv_builder_end (names));
}

static void
listed_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Listing *listing = user_data;
  g_autoptr(GTask) task = g_object_ref (listing->task);
  Loading *loading = g_task_get_task_data (task);
  g_autoptr(TbToolResult) answer = tb_tool_registry_call_finish (TB_TOOL_REGISTRY (object),
                                                                result);

  tb_tool_registry_unregister (loading->listers, listing->lister, NULL);
  loading->running--;

  if (tb_tool_result_get_ok (answer))
    {
      register_tools (loading, listing, tb_tool_result_get_output (answer));
    }
  else if (tb_tool_result_get_kind (answer) == TB_TOOL_FAILURE_TIMEOUT)
    {
      g_autofree char *text =
        g_strdup_printf (_("%s did not list its tools within %u seconds and was stopped"),
                         listing->plugin->name, TB_PLUGIN_LIST_TIMEOUT_MS / 1000);

      plugin_finish (listing->plugin, TB_PLUGIN_STATE_FAILED, text, NULL);
    }
  else
    {
      plugin_finish (listing->plugin, TB_PLUGIN_STATE_FAILED, tb_tool_result_get_error (answer),
                     NULL);
    }

  listing_free (listing);
  start_next (task);
}

static void
start_listing (GTask    *task,
               TbPlugin *plugin)
{
  Loading *loading = g_task_get_task_data (task);
  g_autoptr(JsonObject) entry = json_object_new ();
  g_autoptr(GStrvBuilder) argv = NULL;
  g_auto(GStrv) list = NULL;
  g_autoptr(TbTool) tool = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *problem = NULL;
  g_autoptr(JsonNode) arguments = NULL;
  Listing *listing;

  listing = g_new0 (Listing, 1);
  listing->task = g_object_ref (task);
  listing->plugin = g_object_ref (plugin);
  listing->argv = runner_argv (plugin, &problem);
  if (listing->argv == NULL)
    {
      plugin_finish (plugin, TB_PLUGIN_STATE_FAILED, problem, NULL);
      listing_free (listing);
      return;
    }

  argv = g_strv_builder_new ();
  g_strv_builder_addv (argv, (const char **) listing->argv);
  g_strv_builder_add_many (argv, "list", plugin->path, NULL);
  list = g_strv_builder_end (argv);
  listing->lister = g_strdup_printf ("list_%u", ++loading->serial);
  json_object_set_int_member (entry, "timeout-ms", TB_PLUGIN_LIST_TIMEOUT_MS);
  tool = command_tool (plugin, entry, listing->lister, (const char * const *) list, &error);
  if (tool == NULL || !tb_tool_registry_register (loading->listers, tool, &error))
    {
      plugin_finish (plugin, TB_PLUGIN_STATE_FAILED, error->message, NULL);
      listing_free (listing);
      return;
    }

  loading->running++;
  arguments = tb_json_node_new_object ();
  tb_tool_registry_call_unvalidated_async (loading->listers, listing->lister, NULL, arguments,
                                           NULL, g_task_get_cancellable (task), listed_cb,
                                           listing);
}

static void
start_next (GTask *task)
{
  Loading *loading = g_task_get_task_data (task);

  while (loading->running < MAX_PARALLEL && !g_queue_is_empty (&loading->queue))
    {
      g_autoptr(TbPlugin) plugin = g_queue_pop_head (&loading->queue);

      start_listing (task, plugin);
    }

  if (loading->running == 0 && g_queue_is_empty (&loading->queue))
    {
      /* Cancelled: nothing stays registered. */
      if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
        {
          GListModel *plugins = G_LIST_MODEL (loading->plugins);

          for (guint i = 0; i < g_list_model_get_n_items (plugins); i++)
            {
              g_autoptr(TbPlugin) plugin = g_list_model_get_item (plugins, i);

              for (guint j = 0; plugin->tools[j] != NULL; j++)
                tb_tool_registry_unregister (loading->registry, plugin->tools[j], NULL);
            }
        }
      if (g_task_return_error_if_cancelled (task))
        return;
      g_task_return_pointer (task, g_object_ref (loading->plugins), g_object_unref);
    }
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char **) a, *(const char **) b);
}

/**
 * tb_plugins_load_async:
 * @registry: where the plugins' tools go
 * @dir: (nullable): the plugin folder; %NULL for tb_plugins_get_default_dir()
 * @cancellable: (nullable): stops the listing
 * @callback: called when every plugin is loaded or failed
 * @user_data: closure
 *
 * Loads every `*.py` and `*.js` file of @dir, in name order, at most
 * %TB_PLUGINS_MAX: each is run by its runner, which lists its tools
 * (a few side by side, each within %TB_PLUGIN_LIST_TIMEOUT_MS), and the
 * tools are registered with the source `plugin:<file name>`. A plugin
 * that fails (a syntax error, no interpreter, a file that cannot be read)
 * is in the list with its state and message; the others load. A folder
 * that does not exist has no plugins. When @cancellable is cancelled, the
 * tools registered so far are unregistered again.
 */
void
tb_plugins_load_async (TbToolRegistry      *registry,
                       const char          *dir,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GDir) handle = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *absolute_dir = NULL;
  Loading *loading;
  const char *name;

  g_return_if_fail (TB_IS_TOOL_REGISTRY (registry));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_plugins_load_async);
  loading = g_new0 (Loading, 1);
  loading->registry = g_object_ref (registry);
  loading->listers = tb_tool_registry_new ();
  loading->plugins = g_list_store_new (TB_TYPE_PLUGIN);
  g_queue_init (&loading->queue);
  g_task_set_task_data (task, loading, loading_free);

  /* The runner is given absolute paths: calls do not depend on the
   * folder Toolbench runs in. */
  if (dir == NULL)
    absolute_dir = tb_plugins_get_default_dir ();
  else
    absolute_dir = g_canonicalize_filename (dir, NULL);
  dir = absolute_dir;

  handle = g_dir_open (dir, 0, &error);
  if (handle == NULL)
    {
      if (g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_task_return_pointer (task, g_object_ref (loading->plugins), g_object_unref);
      else
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
                                 _("The plugin folder cannot be read: %s"), error->message);
      return;
    }
  while ((name = g_dir_read_name (handle)) != NULL)
    if ((g_str_has_suffix (name, ".py") || g_str_has_suffix (name, ".js")) &&
        name[0] != '.' && strlen (name) > 3)
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      g_autoptr(TbPlugin) plugin = plugin_new (dir, g_ptr_array_index (names, i));
      g_autofree char *problem = NULL;

      g_list_store_append (loading->plugins, plugin);
      if (i >= TB_PLUGINS_MAX)
        problem = g_strdup_printf (_("Not loaded: the folder holds more than %u plugins"),
                                   TB_PLUGINS_MAX);
      else
        problem = check_file (plugin);
      if (problem != NULL)
        plugin_finish (plugin, TB_PLUGIN_STATE_FAILED, problem, NULL);
      else
        g_queue_push_tail (&loading->queue, g_steal_pointer (&plugin));
    }

  start_next (task);
}

/**
 * tb_plugins_load_finish:
 * @result: the result given to the callback
 * @error: return location for an error when the folder cannot be read or
 *   the loading was cancelled
 *
 * Ends tb_plugins_load_async(). Plugins that failed are in the list with
 * their message; only a folder that cannot be read is an error.
 *
 * Returns: (transfer full) (nullable): a list of #TbPlugin, in name order
 */
GListModel *
tb_plugins_load_finish (GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
