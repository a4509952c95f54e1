/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-command-tool"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "tb-command-tool.h"
#include "tb-command-tool-private.h"
#include "tb-host-private.h"
#include "tb-tool-private.h"
#include "tb-json.h"

/**
 * TbCommandTool:
 *
 * A tool that runs a command, described by a JSON manifest:
 *
 * |[
 * {
 *   "name": "word_count",
 *   "description": "Counts the words of a text",
 *   "parameters": {"type": "object", "properties": {"text": {"type": "string"}}},
 *   "command": ["./wc.py", "--json"],
 *   "cwd": ".",
 *   "env": {"LC_ALL": "C.UTF-8"},
 *   "timeout-ms": 5000
 * }
 * ]|
 *
 * `command` is an argv run as is, without a shell; a first element that
 * starts with `./` or `../`, and `cwd`, are relative to the manifest's
 * folder. The arguments go to the command's standard input as one JSON
 * object. Standard output is the result: JSON when it parses, text
 * otherwise. A non-zero exit status, a signal, or anything on standard
 * error makes the call fail with the standard error text. Standard output
 * is limited to %TB_COMMAND_TOOL_MAX_OUTPUT; standard error to 64 KiB (the
 * rest is cut). The source is `manifest:<path of the manifest>`.
 *
 * Nothing the command starts outlives the call: when the command exits,
 * reaches its time limit or is cancelled, or when Toolbench dies, every
 * process it left behind (background jobs, setsid() daemons) is killed, so
 * the output of a command that exited is returned at once even when one of
 * them still held standard output open.
 */

#define MAX_STDERR (64 * 1024)
#define MAX_MANIFEST (1024 * 1024)
#define READ_CHUNK (64 * 1024)

struct _TbCommandTool
{
  TbTool   parent_instance;

  char   **argv;
  char   **env;
  char    *cwd;

  /* The file name of the plugin the tool belongs to, or NULL. */
  char    *plugin;
};

G_DEFINE_FINAL_TYPE (TbCommandTool, tb_command_tool, TB_TYPE_TOOL)
/**
 * tb_manifest_error_quark:
 *
 * The error domain of #TbManifestError.
 *
 * Returns: the quark of %TB_MANIFEST_ERROR
 */
G_DEFINE_QUARK (tb-manifest-error-quark, tb_manifest_error)

typedef struct
{
  GSubprocess  *process;
  GBytes       *input;
  GByteArray   *out;
  GByteArray   *err;
  gboolean      err_cut;
  gboolean      too_much;
  guint         waiting;
  gulong        cancel_id;
  GCancellable *cancellable;
  GCancellable *io;
} Run;

static void
run_free (Run *run)
{
  if (run->cancel_id != 0)
    g_cancellable_disconnect (run->cancellable, run->cancel_id);
  g_clear_object (&run->cancellable);
  g_clear_object (&run->io);
  g_clear_object (&run->process);
  g_clear_pointer (&run->input, g_bytes_unref);
  g_clear_pointer (&run->out, g_byte_array_unref);
  g_clear_pointer (&run->err, g_byte_array_unref);
  g_free (run);
}

static void
stop_run (Run *run)
{
  if (run->process == NULL)
    return;
  /* The keeper kills the command and everything it started. */
  _tb_host_stop (run->process);
  /* A process nobody may kill could still hold the pipes: stop waiting. */
  g_cancellable_cancel (run->io);
}

static char *
clean_text (const guint8 *data,
            gsize         length)
{
  g_autofree char *valid = NULL;

  if (length == 0)
    return g_strdup ("");
  valid = g_utf8_make_valid ((const char *) data, length);
  return g_strdup (g_strstrip (valid));
}

static void
finish (GTask *task)
{
  TbCommandTool *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);
  const char *name = tb_tool_get_name (TB_TOOL (self));
  g_autofree char *err = clean_text (run->err->data, run->err->len);
  g_autoptr(JsonObject) metadata = json_object_new ();
  g_autoptr(JsonNode) output = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *warning = NULL;
  const char *warnings[2] = { NULL, NULL };

  if (g_task_return_error_if_cancelled (task))
    return;

  if (run->too_much)
    {
      g_autofree char *limit = g_format_size_full (TB_COMMAND_TOOL_MAX_OUTPUT,
                                                   G_FORMAT_SIZE_IEC_UNITS);

      g_task_return_new_error (task, TB_TOOL_ERROR, TB_TOOL_ERROR_FAILED,
                               _("The command of “%s” printed more than %s and was stopped"),
                               name, limit);
      return;
    }

  json_object_set_string_member (metadata, "command", self->argv[0]);
  if (g_subprocess_get_if_signaled (run->process))
    {
      int sig = g_subprocess_get_term_sig (run->process);

      json_object_set_int_member (metadata, "signal", sig);
      if (self->plugin != NULL)
        {
          g_autofree char *text =
            /* Translators: plugin file name, then the signal (such as “Killed”) */
            g_strdup_printf (_("The plugin “%s” ended during the call: %s"),
                             self->plugin, g_strsignal (sig));

          g_task_return_pointer (task,
            tb_tool_result_new_full (TB_TOOL_FAILURE_EXECUTION_FAILED, NULL, text, metadata,
                                     NULL, 0),
            g_object_unref);
          return;
        }
      g_task_return_pointer (task,
        tb_tool_result_new_full (TB_TOOL_FAILURE_EXECUTION_FAILED, NULL,
                                 *err != '\0' ? err : g_strsignal (sig), metadata, NULL, 0),
        g_object_unref);
      return;
    }

  json_object_set_int_member (metadata, "exit-status", g_subprocess_get_exit_status (run->process));
  /* A plugin's runner says a failure with its exit status; what the
   * interpreter itself prints on standard error besides is not one. */
  if (g_subprocess_get_exit_status (run->process) != 0 ||
      (*err != '\0' && self->plugin == NULL))
    {
      g_autofree char *text = NULL;

      if (*err == '\0' && self->plugin != NULL)
        text = g_strdup_printf (_("The plugin “%s” ended during the call with status %d"),
                                self->plugin, g_subprocess_get_exit_status (run->process));
      else if (*err == '\0')
        text = g_strdup_printf (_("The command of “%s” exited with status %d"),
                                name, g_subprocess_get_exit_status (run->process));
      else if (run->err_cut)
        text = g_strconcat (err, "…", NULL);
      else
        text = g_strdup (err);
      g_task_return_pointer (task,
        tb_tool_result_new_full (TB_TOOL_FAILURE_EXECUTION_FAILED, NULL, text, metadata, NULL, 0),
        g_object_unref);
      return;
    }

  if (run->out->len == 0)
    output = tb_json_node_new_string ("");
  else
    output = tb_json_parse_full ((const char *) run->out->data, run->out->len,
                                 TB_COMMAND_TOOL_MAX_OUTPUT, TB_JSON_MAX_DEPTH, &error);
  if (output == NULL)
    {
      g_autofree char *valid = g_utf8_make_valid ((const char *) run->out->data, run->out->len);
      gsize len = strlen (valid);

      /* A text ends with one new line more often than not; keep the rest. */
      if (len > 0 && valid[len - 1] == '\n')
        valid[len - 1] = '\0';
      output = tb_json_node_new_string (valid);

      /* JSON refused for its shape is still JSON: say why it is text. */
      if (g_error_matches (error, TB_JSON_ERROR, TB_JSON_ERROR_TOO_MANY_VALUES) ||
          g_error_matches (error, TB_JSON_ERROR, TB_JSON_ERROR_TOO_DEEP))
        warning = g_strdup_printf (_("The output is given as text, not read as JSON: %s"),
                                   error->message);
    }
  warnings[0] = warning;
  g_task_return_pointer (task,
    tb_tool_result_new_full (TB_TOOL_FAILURE_NONE, output, NULL, metadata,
                             warning != NULL ? warnings : NULL, 0),
    g_object_unref);
}

static void
one_done (GTask *task)
{
  Run *run = g_task_get_task_data (task);

  g_assert (run->waiting > 0);
  if (--run->waiting == 0)
    finish (task);
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Run *run = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = NULL;
  gboolean is_out = G_INPUT_STREAM (object) == g_subprocess_get_stdout_pipe (run->process);
  GByteArray *into = is_out ? run->out : run->err;
  gsize size;
  const guint8 *data;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, NULL);
  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      one_done (task);
      return;
    }

  data = g_bytes_get_data (bytes, &size);
  if (is_out && into->len + size > TB_COMMAND_TOOL_MAX_OUTPUT)
    {
      run->too_much = TRUE;
      stop_run (run);
      one_done (task);
      return;
    }
  if (!is_out && into->len + size > MAX_STDERR)
    {
      run->err_cut = TRUE;
      size = MAX_STDERR - into->len;
    }
  g_byte_array_append (into, data, size);

  g_input_stream_read_bytes_async (G_INPUT_STREAM (object), READ_CHUNK, G_PRIORITY_DEFAULT,
                                   run->io, read_cb, g_steal_pointer (&task));
}

static void
write_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  /* A command that ignores its input and exits early closes the pipe:
   * that is its business, not an error of the call. */
  g_output_stream_write_all_finish (G_OUTPUT_STREAM (object), result, NULL, NULL);
  g_output_stream_close (G_OUTPUT_STREAM (object), NULL, NULL);
  one_done (task);
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  one_done (task);
}

static void
cancelled_cb (GCancellable *cancellable,
              Run          *run)
{
  /* The registry gave up (time limit or cancel): do not leave it running. */
  stop_run (run);
}

static void
tb_command_tool_invoke_async (TbTool              *tool,
                              JsonNode            *arguments,
                              JsonObject          *context,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  TbCommandTool *self = TB_COMMAND_TOOL (tool);
  g_autoptr(GTask) task = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *input = NULL;
  g_auto(GStrv) argv = NULL;
  Run *run;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_command_tool_invoke_async);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);

  /* Inside a Flatpak the command is a program of the host; flatpak-spawn
   * takes its folder and environment as options. */
  if (tb_host_in_flatpak () && self->plugin == NULL)
    {
      argv = tb_host_wrap_argv ((const char * const *) self->argv, self->cwd,
                                (const char * const *) self->env);
    }
  else
    {
      for (guint i = 0; self->env != NULL && self->env[i] != NULL; i++)
        {
          const char *eq = strchr (self->env[i], '=');
          g_autofree char *key = g_strndup (self->env[i], eq - self->env[i]);

          g_subprocess_launcher_setenv (launcher, key, eq + 1, TRUE);
        }
      if (self->cwd != NULL)
        g_subprocess_launcher_set_cwd (launcher, self->cwd);
      argv = g_strdupv (self->argv);
    }

  run = g_new0 (Run, 1);
  run->io = g_cancellable_new ();
  g_task_set_task_data (task, run, (GDestroyNotify) run_free);
  run->process = _tb_host_spawn (launcher, (const char * const *) argv, &error);
  if (run->process == NULL)
    {
      g_task_return_new_error (task, TB_TOOL_ERROR, TB_TOOL_ERROR_FAILED,
                               /* Translators: tool name, command, reason */
                               _("The command of “%s” could not be started (%s): %s"),
                               tb_tool_get_name (tool), self->argv[0], error->message);
      return;
    }

  run->out = g_byte_array_new ();
  run->err = g_byte_array_new ();
  input = tb_json_to_string (arguments, FALSE);
  {
    gsize length = strlen (input);

    run->input = g_bytes_new_take (g_steal_pointer (&input), length);
  }
  run->waiting = 4;

  if (cancellable != NULL)
    {
      run->cancellable = g_object_ref (cancellable);
      run->cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (cancelled_cb), run, NULL);
    }

  g_output_stream_write_all_async (g_subprocess_get_stdin_pipe (run->process),
                                   g_bytes_get_data (run->input, NULL),
                                   g_bytes_get_size (run->input),
                                   G_PRIORITY_DEFAULT, run->io, write_cb, g_object_ref (task));
  g_input_stream_read_bytes_async (g_subprocess_get_stdout_pipe (run->process), READ_CHUNK,
                                   G_PRIORITY_DEFAULT, run->io, read_cb, g_object_ref (task));
  g_input_stream_read_bytes_async (g_subprocess_get_stderr_pipe (run->process), READ_CHUNK,
                                   G_PRIORITY_DEFAULT, run->io, read_cb, g_object_ref (task));
  g_subprocess_wait_async (run->process, NULL, wait_cb, g_object_ref (task));
}

static TbToolResult *
tb_command_tool_invoke_finish (TbTool        *tool,
                               GAsyncResult  *result,
                               GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
tb_command_tool_finalize (GObject *object)
{
  TbCommandTool *self = (TbCommandTool *)object;

  g_strfreev (self->argv);
  g_strfreev (self->env);
  g_free (self->cwd);
  g_free (self->plugin);

  G_OBJECT_CLASS (tb_command_tool_parent_class)->finalize (object);
}

static void
tb_command_tool_class_init (TbCommandToolClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TbToolClass *tool_class = TB_TOOL_CLASS (klass);

  object_class->finalize = tb_command_tool_finalize;

  /* A command that exits before reading its input must not kill the
   * process with SIGPIPE; the write fails with EPIPE instead. */
  signal (SIGPIPE, SIG_IGN);

  tool_class->invoke_async = tb_command_tool_invoke_async;
  tool_class->invoke_finish = tb_command_tool_invoke_finish;
}

static void
tb_command_tool_init (TbCommandTool *self)
{
}

/* Manifests. */

static gboolean
invalid (GError     **error,
         const char  *source,
         const char  *format,
         ...) G_GNUC_PRINTF (3, 4);

static gboolean
invalid (GError     **error,
         const char  *source,
         const char  *format,
         ...)
{
  g_autofree char *reason = NULL;
  va_list args;

  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);
  /* Translators: where the manifest comes from, then what is wrong */
  g_set_error (error, TB_MANIFEST_ERROR, TB_MANIFEST_ERROR_INVALID, _("%s: %s"), source, reason);
  return FALSE;
}

static gboolean
is_string (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_STRING;
}

static char *
resolve (const char *base_dir,
         const char *path)
{
  if (base_dir == NULL || g_path_is_absolute (path))
    return g_strdup (path);
  return g_canonicalize_filename (path, base_dir);
}

/**
 * tb_command_tool_new_from_json:
 * @manifest: the manifest, described in #TbCommandTool
 * @base_dir: (nullable): the folder relative paths start from
 * @source: the tool's source, such as `manifest:/path/to/tool.json`
 * @error: return location for a #TbManifestError or #TbToolError
 *
 * Makes the tool a manifest describes, refusing one without a name or a
 * command and one whose members have the wrong types.
 *
 * Returns: (transfer full) (nullable): the tool
 */
TbTool *
tb_command_tool_new_from_json (JsonNode    *manifest,
                               const char  *base_dir,
                               const char  *source,
                               GError     **error)
{
  g_autoptr(GStrvBuilder) argv = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) env = g_strv_builder_new ();
  g_autofree char *cwd = NULL;
  g_autofree char *where = g_strdup (source != NULL ? source : "manifest");
  JsonObject *object;
  JsonNode *node;
  JsonArray *command;
  gint64 timeout_ms = 0;
  TbCommandTool *self;

  g_return_val_if_fail (manifest != NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (manifest))
    {
      invalid (error, where, _("a manifest must be a JSON object"));
      return NULL;
    }
  object = json_node_get_object (manifest);

  if (!is_string (json_object_get_member (object, "name")))
    {
      invalid (error, where, _("“name” is missing or not a string"));
      return NULL;
    }
  node = json_object_get_member (object, "description");
  if (node != NULL && !is_string (node))
    {
      invalid (error, where, _("“description” must be a string"));
      return NULL;
    }
  node = json_object_get_member (object, "parameters");
  if (node != NULL && !JSON_NODE_HOLDS_OBJECT (node))
    {
      invalid (error, where, _("“parameters” must be a JSON Schema object"));
      return NULL;
    }

  node = json_object_get_member (object, "command");
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node) ||
      json_array_get_length (json_node_get_array (node)) == 0)
    {
      invalid (error, where, _("“command” must be a non-empty array of strings (an argv)"));
      return NULL;
    }
  command = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (command); i++)
    {
      JsonNode *element = json_array_get_element (command, i);
      const char *arg;

      if (!is_string (element) || *(arg = json_node_get_string (element)) == '\0')
        {
          invalid (error, where, _("“command” must be a non-empty array of strings (an argv)"));
          return NULL;
        }
      if (i == 0 && (g_str_has_prefix (arg, "./") || g_str_has_prefix (arg, "../")))
        {
          g_autofree char *resolved = resolve (base_dir, arg);

          g_strv_builder_add (argv, resolved);
        }
      else
        {
          g_strv_builder_add (argv, arg);
        }
    }

  node = json_object_get_member (object, "cwd");
  if (node != NULL)
    {
      if (!is_string (node))
        {
          invalid (error, where, _("“cwd” must be a string"));
          return NULL;
        }
      cwd = resolve (base_dir, json_node_get_string (node));
    }

  node = json_object_get_member (object, "env");
  if (node != NULL)
    {
      JsonObjectIter iter;
      const char *key;
      JsonNode *value;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          invalid (error, where, _("“env” must be an object of strings"));
          return NULL;
        }
      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, &key, &value))
        {
          g_autofree char *entry = NULL;

          if (!is_string (value) || *key == '\0' || strchr (key, '=') != NULL)
            {
              invalid (error, where, _("“env” must be an object of strings"));
              return NULL;
            }
          entry = g_strconcat (key, "=", json_node_get_string (value), NULL);
          g_strv_builder_add (env, entry);
        }
    }

  node = json_object_get_member (object, "timeout-ms");
  if (node != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
          (timeout_ms = json_node_get_int (node)) <= 0 || timeout_ms > G_MAXUINT)
        {
          invalid (error, where, _("“timeout-ms” must be a positive whole number"));
          return NULL;
        }
    }

  self = g_initable_new (TB_TYPE_COMMAND_TOOL, NULL, error,
                         "name", json_object_get_string_member (object, "name"),
                         "description", (tb_json_object_get_string (object, "description") ?: ""),
                         "parameters", json_object_get_member (object, "parameters"),
                         "source", where,
                         "timeout-ms", (guint) timeout_ms,
                         "title", tb_json_object_get_string (object, "title"),
                         "hints", _tb_tool_hints_from_annotations (
                                    json_object_get_member (object, "annotations")),
                         NULL);
  if (self == NULL)
    {
      if (error != NULL && *error != NULL)
        g_prefix_error (error, "%s: ", where);
      return NULL;
    }
  self->argv = g_strv_builder_end (argv);
  self->env = g_strv_builder_end (env);
  self->cwd = g_steal_pointer (&cwd);
  return TB_TOOL (self);
}

/**
 * tb_command_tool_new_from_file:
 * @path: a manifest file
 * @error: return location for an error naming the file
 *
 * Reads a command tool's manifest, a JSON file, and makes the tool it
 * describes; relative paths in it start from the file's folder.
 *
 * Returns: (transfer full) (nullable): the tool, source `manifest:<path>`
 */
TbTool *
tb_command_tool_new_from_file (const char  *path,
                               GError     **error)
{
  g_autofree char *source = NULL;
  g_autofree char *absolute = NULL;
  g_autofree char *dir = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  absolute = g_canonicalize_filename (path, NULL);
  source = g_strdup_printf ("manifest:%s", absolute);
  node = tb_json_parse_file (absolute, MAX_MANIFEST, &local_error);
  if (node == NULL && local_error->domain == G_FILE_ERROR)
    {
      g_set_error (error, TB_MANIFEST_ERROR, TB_MANIFEST_ERROR_READ, "%s: %s", source,
                   local_error->message);
      return NULL;
    }
  if (node == NULL)
    {
      invalid (error, source, "%s", local_error->message);
      return NULL;
    }
  dir = g_path_get_dirname (absolute);
  return tb_command_tool_new_from_json (node, dir, source, error);
}

/**
 * tb_command_tool_get_argv:
 * @self: a command tool
 *
 * Gives the program and the arguments it starts for every call, with paths
 * resolved from the manifest's folder.
 *
 * Returns: (transfer none): the command as it runs
 */
const char * const *
tb_command_tool_get_argv (TbCommandTool *self)
{
  g_return_val_if_fail (TB_IS_COMMAND_TOOL (self), NULL);
  return (const char * const *) self->argv;
}

/*
 * _tb_command_tool_set_plugin:
 * @plugin: the file name of the plugin, such as `notes.py`
 *
 * Makes the tool one of a plugin's: its failures name the plugin, it runs
 * beside Toolbench (inside a Flatpak too, where the runner is), and its
 * standard error is not a failure unless the runner exits with one.
 */
void
_tb_command_tool_set_plugin (TbCommandTool *self,
                             const char    *plugin)
{
  g_return_if_fail (TB_IS_COMMAND_TOOL (self));

  g_free (self->plugin);
  self->plugin = g_strdup (plugin);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char **) a, *(const char **) b);
}

/**
 * tb_command_tools_load_dir:
 * @registry: where the tools go
 * @dir: a folder of `*.json` manifests
 * @problems: (out) (optional) (transfer full): one sentence per file that
 *   did not load (a broken manifest or a name already taken)
 * @error: return location for an error when @dir cannot be read
 *
 * Loads every manifest in @dir, in name order; broken ones are reported and
 * the rest load.
 *
 * Returns: how many tools were registered; 0 with @error set when @dir
 *   cannot be read
 */
guint
tb_command_tools_load_dir (TbToolRegistry  *registry,
                           const char      *dir,
                           GStrv           *problems,
                           GError         **error)
{
  g_autoptr(GDir) handle = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GStrvBuilder) found = g_strv_builder_new ();
  g_autoptr(GPtrArray) tools = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) unread = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) refused = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *name;
  guint loaded;

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (registry), 0);
  g_return_val_if_fail (dir != NULL, 0);

  handle = g_dir_open (dir, 0, &local_error);
  if (handle == NULL)
    {
      g_set_error (error, TB_MANIFEST_ERROR, TB_MANIFEST_ERROR_READ,
                   _("Cannot read the tool folder: %s"), local_error->message);
      if (problems != NULL)
        *problems = g_strv_builder_end (found);
      return 0;
    }
  while ((name = g_dir_read_name (handle)) != NULL)
    if (g_str_has_suffix (name, ".json"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  /* Read every manifest first, then register them together: a list view
   * of the registry changes once for the whole folder. Problems are
   * reported in file order. */
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, g_ptr_array_index (names, i), NULL);
      g_autoptr(GError) file_error = NULL;
      TbTool *tool = tb_command_tool_new_from_file (path, &file_error);

      if (tool != NULL)
        g_ptr_array_add (tools, tool);
      g_ptr_array_add (unread, tool == NULL ? g_strdup (file_error->message) : NULL);
    }
  loaded = tb_tool_registry_register_all (registry, tools, &refused);
  for (guint i = 0, t = 0; i < names->len; i++)
    {
      const char *unread_message = g_ptr_array_index (unread, i);
      const GError *refusal;

      if (unread_message != NULL)
        {
          g_strv_builder_add (found, unread_message);
          continue;
        }
      refusal = g_ptr_array_index (refused, t);
      if (refusal != NULL)
        {
          g_autofree char *text =
            g_strdup_printf ("%s: %s", tb_tool_get_source (g_ptr_array_index (tools, t)),
                             refusal->message);

          g_strv_builder_add (found, text);
        }
      t++;
    }

  if (problems != NULL)
    *problems = g_strv_builder_end (found);
  return loaded;
}
