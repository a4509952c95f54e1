/* SPDX-License-Identifier: GPL-3.0-or-later */

/* An evaluation: scenario files × models, run side by side up to a number
 * of jobs. Every run opens its own tools (see TbToolSourceSet), so what a
 * cell comes to does not depend on which cells ran beside it; the cells
 * keep the order of the matrix (model by model, scenarios by file name)
 * whatever order they finish in. */

#define G_LOG_DOMAIN "tb-eval"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "tb-eval-suite.h"
#include "tb-trace-io.h"

#define MAX_JOBS 256

struct _TbEvalSuite
{
  GObject             parent_instance;

  GPtrArray          *paths;
  GStrv               models;
  TbEvalProviderFunc  provider_func;
  gpointer            provider_data;
  GDestroyNotify      provider_destroy;
  TbToolSourceSet    *sources;
  TbRedactor         *redactor;
  char               *trace_dir;
  guint               jobs;
  GListStore         *cells;

  /* While running. */
  GTask              *task;
  GCancellable       *cancellable;
  GHashTable         *scenarios;
  GHashTable         *problems;
  guint               next;
  guint               running;
};

/**
 * TbEvalSuite:
 *
 * An evaluation: scenario files × models, run side by side up to a number
 * of jobs. Every run opens its own tools, so what a cell comes to does not
 * depend on which cells ran beside it; the cells keep the order of the
 * matrix (model by model, scenarios by file name) whatever order they
 * finish in.
 */
G_DEFINE_FINAL_TYPE (TbEvalSuite, tb_eval_suite, G_TYPE_OBJECT)

static void
tb_eval_suite_finalize (GObject *object)
{
  TbEvalSuite *self = (TbEvalSuite *)object;

  g_clear_pointer (&self->paths, g_ptr_array_unref);
  g_clear_pointer (&self->models, g_strfreev);
  if (self->provider_destroy != NULL)
    self->provider_destroy (self->provider_data);
  g_clear_object (&self->sources);
  g_clear_object (&self->redactor);
  g_free (self->trace_dir);
  g_clear_object (&self->cells);
  g_clear_pointer (&self->scenarios, g_hash_table_unref);
  g_clear_pointer (&self->problems, g_hash_table_unref);

  G_OBJECT_CLASS (tb_eval_suite_parent_class)->finalize (object);
}

static void
tb_eval_suite_class_init (TbEvalSuiteClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_eval_suite_finalize;
}

static void
tb_eval_suite_init (TbEvalSuite *self)
{
  static const char * const scripted[] = { "scripted", NULL };

  self->paths = g_ptr_array_new_with_free_func (g_free);
  self->models = g_strdupv ((char **) scripted);
  self->jobs = CLAMP (g_get_num_processors (), 1, MAX_JOBS);
  self->cells = g_list_store_new (TB_TYPE_EVAL_CELL);
}

/**
 * tb_eval_suite_new:
 *
 * Makes an empty evaluation: add scenarios, set the models and run it.
 *
 * Returns: (transfer full): the new evaluation
 */
TbEvalSuite *
tb_eval_suite_new (void)
{
  return g_object_new (TB_TYPE_EVAL_SUITE, NULL);
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/**
 * tb_eval_suite_add_folder:
 * @dir: a folder of scenario files (`*.json`)
 * @error: return location for an error when @dir cannot be read or holds
 *   no scenario
 * @self: an evaluation
 *
 * Adds its scenarios in file-name order.
 *
 * Returns: %TRUE when the folder was read and held scenarios
 */
gboolean
tb_eval_suite_add_folder (TbEvalSuite  *self,
                          const char   *dir,
                          GError      **error)
{
  g_autoptr(GDir) handle = NULL;
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_return_val_if_fail (TB_IS_EVAL_SUITE (self), FALSE);
  g_return_val_if_fail (dir != NULL, FALSE);

  handle = g_dir_open (dir, 0, error);
  if (handle == NULL)
    return FALSE;
  while ((name = g_dir_read_name (handle)) != NULL)
    if (g_str_has_suffix (name, ".json"))
      g_ptr_array_add (found, g_build_filename (dir, name, NULL));
  if (found->len == 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                   _("The folder “%s” holds no scenario (*.json)"), dir);
      return FALSE;
    }
  g_ptr_array_sort (found, compare_paths);
  for (guint i = 0; i < found->len; i++)
    g_ptr_array_add (self->paths, g_strdup (g_ptr_array_index (found, i)));
  return TRUE;
}

/**
 * tb_eval_suite_add_file:
 * @self: an evaluation
 * @path: a scenario file
 *
 * Adds one scenario file; a file that cannot be read becomes a cell that
 * could not run, not a failure of the whole.
 */
void
tb_eval_suite_add_file (TbEvalSuite *self,
                        const char  *path)
{
  g_return_if_fail (TB_IS_EVAL_SUITE (self));
  g_return_if_fail (path != NULL);

  g_ptr_array_add (self->paths, g_strdup (path));
}

/**
 * tb_eval_suite_get_n_scenarios:
 * @self: an evaluation
 *
 * Counts the scenario files added.
 *
 * Returns: the number of scenarios
 */
guint
tb_eval_suite_get_n_scenarios (TbEvalSuite *self)
{
  g_return_val_if_fail (TB_IS_EVAL_SUITE (self), 0);
  return self->paths->len;
}

/**
 * tb_eval_suite_set_models:
 * @models: (array zero-terminated=1): the columns; `scripted` (the
 *   default) plays each scenario's own script
 * @self: an evaluation
 *
 * Sets the models every scenario runs against.
 */
void
tb_eval_suite_set_models (TbEvalSuite        *self,
                          const char * const *models)
{
  g_return_if_fail (TB_IS_EVAL_SUITE (self));
  g_return_if_fail (models != NULL && models[0] != NULL);

  g_strfreev (self->models);
  self->models = g_strdupv ((char **) models);
}

/**
 * tb_eval_suite_get_models:
 * @self: an evaluation
 *
 * Lists the models, the columns of the matrix.
 *
 * Returns: (transfer none) (array zero-terminated=1): the models
 */
const char * const *
tb_eval_suite_get_models (TbEvalSuite *self)
{
  g_return_val_if_fail (TB_IS_EVAL_SUITE (self), NULL);
  return (const char * const *) self->models;
}

/**
 * tb_eval_suite_set_provider_func:
 * @func: (nullable): makes the provider of a run; %NULL plays each
 *   scenario's own script
 * @self: an evaluation
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when it is no longer needed
 *
 * Sets how a run gets its provider, for models other than the scenario's
 * own script.
 */
void
tb_eval_suite_set_provider_func (TbEvalSuite        *self,
                                 TbEvalProviderFunc  func,
                                 gpointer            user_data,
                                 GDestroyNotify      destroy)
{
  g_return_if_fail (TB_IS_EVAL_SUITE (self));

  if (self->provider_destroy != NULL)
    self->provider_destroy (self->provider_data);
  self->provider_func = func;
  self->provider_data = user_data;
  self->provider_destroy = destroy;
}

/**
 * tb_eval_suite_set_sources:
 * @sources: (nullable): tool sources every run gets besides its
 *   scenario's own
 * @self: an evaluation
 *
 * Gives every run more tools, such as the CLI's tool-source options.
 */
void
tb_eval_suite_set_sources (TbEvalSuite     *self,
                           TbToolSourceSet *sources)
{
  g_return_if_fail (TB_IS_EVAL_SUITE (self));
  g_set_object (&self->sources, sources);
}

/**
 * tb_eval_suite_set_jobs:
 * @jobs: how many runs may go side by side, from 1 to 256 (default: the
 *   number of processors)
 * @self: an evaluation
 *
 * Sets how many runs may go side by side.
 */
void
tb_eval_suite_set_jobs (TbEvalSuite *self,
                        guint        jobs)
{
  g_return_if_fail (TB_IS_EVAL_SUITE (self));
  g_return_if_fail (jobs >= 1 && jobs <= MAX_JOBS);
  self->jobs = jobs;
}

/**
 * tb_eval_suite_get_jobs:
 * @self: an evaluation
 *
 * Tells how many runs may go side by side.
 *
 * Returns: the number of jobs
 */
guint
tb_eval_suite_get_jobs (TbEvalSuite *self)
{
  g_return_val_if_fail (TB_IS_EVAL_SUITE (self), 1);
  return self->jobs;
}

/**
 * tb_eval_suite_set_trace_dir:
 * @dir: (nullable): save every run's trace in this folder, as
 *   `MODEL--FILE.jsonl`; cells name them by absolute path
 * @self: an evaluation
 *
 * Saves the trace of every run, to look into a failure later.
 */
void
tb_eval_suite_set_trace_dir (TbEvalSuite *self,
                             const char  *dir)
{
  g_return_if_fail (TB_IS_EVAL_SUITE (self));

  g_free (self->trace_dir);
  self->trace_dir = g_strdup (dir);
}

/**
 * tb_eval_suite_set_redactor:
 * @redactor: (nullable): what keeps keys out of the saved traces
 * @self: an evaluation
 *
 * Sets what masks secrets in the traces the evaluation saves.
 */
void
tb_eval_suite_set_redactor (TbEvalSuite *self,
                            TbRedactor  *redactor)
{
  g_return_if_fail (TB_IS_EVAL_SUITE (self));
  g_set_object (&self->redactor, redactor);
}

/**
 * tb_eval_suite_get_cells:
 * @self: an evaluation
 *
 * Gives the cells of the matrix, to watch the runs and read their results.
 *
 * Returns: (transfer none): the #TbEvalCell of every scenario × model,
 *   model by model; filled when a run starts
 */
GListModel *
tb_eval_suite_get_cells (TbEvalSuite *self)
{
  g_return_val_if_fail (TB_IS_EVAL_SUITE (self), NULL);
  return G_LIST_MODEL (self->cells);
}

/* ---- running --------------------------------------------------------------- */

static void start_next (TbEvalSuite *self);

static char *
trace_file_name (TbEvalCell *cell)
{
  g_autofree char *base = g_path_get_basename (tb_eval_cell_get_path (cell));
  g_autofree char *name = g_strdup_printf ("%s--%s", tb_eval_cell_get_model (cell), base);

  if (g_str_has_suffix (name, ".json"))
    name[strlen (name) - strlen (".json")] = '\0';
  /* A model name such as openai/gpt-4o is not a folder. */
  g_strdelimit (name, "/\\:", '_');
  return g_strconcat (name, ".jsonl", NULL);
}

static void
save_trace (TbEvalSuite *self,
            TbEvalCell  *cell)
{
  TbEvalResult *result = tb_eval_cell_get_result (cell);
  g_autofree char *name = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (self->trace_dir == NULL || result == NULL || result->trace == NULL)
    return;
  name = trace_file_name (cell);
  /* Absolute, so that a report read from elsewhere still finds it. */
  dir = g_canonicalize_filename (self->trace_dir, NULL);
  path = g_build_filename (dir, name, NULL);
  file = g_file_new_for_path (path);
  if (!tb_trace_save (result->trace, file, self->redactor, &error))
    g_ptr_array_add (result->failures,
                     g_strdup_printf (_("the trace could not be saved: %s"), error->message));
  else
    tb_eval_cell_set_trace_path (cell, path);
}

static void
cell_done (TbEvalSuite *self)
{
  self->running--;
  start_next (self);
}

typedef struct
{
  TbEvalSuite *suite;
  TbEvalCell  *cell;
} Running;

static void
scenario_run_cb (GObject      *object,
                 GAsyncResult *res,
                 gpointer      user_data)
{
  g_autofree Running *running = user_data;
  g_autoptr(TbEvalSuite) self = running->suite;
  g_autoptr(TbEvalCell) cell = running->cell;
  g_autoptr(TbEvalResult) result = NULL;
  g_autoptr(GError) error = NULL;

  result = tb_eval_scenario_run_finish (TB_EVAL_SCENARIO (object), res, &error);
  if (result == NULL)
    tb_eval_cell_set_error (cell, error->message);
  else
    {
      tb_eval_cell_set_result (cell, result);
      save_trace (self, cell);
    }
  cell_done (self);
}

/* Returns whether a run started; a cell that cannot run is decided now. */
static gboolean
start_cell (TbEvalSuite *self,
            TbEvalCell  *cell)
{
  const char *path = tb_eval_cell_get_path (cell);
  TbEvalScenario *scenario = g_hash_table_lookup (self->scenarios, path);
  g_autoptr(TbProvider) provider = NULL;
  g_autoptr(GError) error = NULL;
  Running *running;

  tb_eval_cell_set_running (cell);

  if (scenario == NULL)
    {
      tb_eval_cell_set_error (cell, g_hash_table_lookup (self->problems, path));
      return FALSE;
    }

  if (self->provider_func != NULL)
    provider = self->provider_func (scenario, tb_eval_cell_get_model (cell),
                                    self->provider_data, &error);
  else
    provider = TB_PROVIDER (tb_eval_scenario_create_provider (scenario, &error));
  if (provider == NULL)
    {
      tb_eval_cell_set_error (cell, error->message);
      return FALSE;
    }

  self->running++;
  running = g_new0 (Running, 1);
  running->suite = g_object_ref (self);
  running->cell = g_object_ref (cell);
  tb_eval_scenario_run_async (scenario, provider, self->sources, self->cancellable,
                              scenario_run_cb, running);
  return TRUE;
}

static void
start_next (TbEvalSuite *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->cells));

  if (self->task == NULL)
    return;

  while (self->next < n && self->running < self->jobs)
    {
      g_autoptr(TbEvalCell) cell = g_list_model_get_item (G_LIST_MODEL (self->cells),
                                                          self->next++);

      if (g_cancellable_is_cancelled (self->cancellable))
        tb_eval_cell_set_not_run (cell);
      else
        start_cell (self, cell);
    }

  if (self->next >= n && self->running == 0 && self->task != NULL)
    {
      g_autoptr(GTask) task = g_steal_pointer (&self->task);

      g_clear_pointer (&self->scenarios, g_hash_table_unref);
      g_clear_pointer (&self->problems, g_hash_table_unref);
      g_clear_object (&self->cancellable);
      if (!g_task_return_error_if_cancelled (task))
        g_task_return_boolean (task, TRUE);
    }
}

/**
 * tb_eval_suite_run_async:
 * @self: a suite with scenarios
 * @cancellable: (nullable): stops the runs: running ones end cancelled,
 *   their servers stopped; the others are marked not run
 * @callback: called when every cell has an outcome
 * @user_data: closure
 *
 * Fills the cells and runs them. A scenario file that cannot be read
 * makes an error cell of each of its runs; the others run.
 */
void
tb_eval_suite_run_async (TbEvalSuite         *self,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_return_if_fail (TB_IS_EVAL_SUITE (self));
  g_return_if_fail (self->task == NULL);

  self->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (self->task, tb_eval_suite_run_async);
  self->cancellable = cancellable != NULL ? g_object_ref (cancellable) : g_cancellable_new ();
  g_list_store_remove_all (self->cells);
  self->next = 0;
  self->running = 0;
  self->scenarios = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->problems = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  /* Each file is read once; one that cannot be is an error in every column. */
  for (guint i = 0; i < self->paths->len; i++)
    {
      const char *path = g_ptr_array_index (self->paths, i);
      g_autoptr(GError) error = NULL;
      TbEvalScenario *scenario;

      if (g_hash_table_contains (self->scenarios, path) ||
          g_hash_table_contains (self->problems, path))
        continue;
      scenario = tb_eval_scenario_new_from_file (path, &error);
      if (scenario != NULL)
        g_hash_table_insert (self->scenarios, g_strdup (path), scenario);
      else
        g_hash_table_insert (self->problems, g_strdup (path), g_strdup (error->message));
    }

  for (guint m = 0; self->models[m] != NULL; m++)
    for (guint i = 0; i < self->paths->len; i++)
      {
        const char *path = g_ptr_array_index (self->paths, i);
        TbEvalScenario *scenario = g_hash_table_lookup (self->scenarios, path);
        g_autofree char *file_name = g_path_get_basename (path);
        g_autoptr(TbEvalCell) cell = NULL;

        cell = tb_eval_cell_new (g_strstrip (self->models[m]),
                                 scenario != NULL ? tb_eval_scenario_get_name (scenario)
                                                  : file_name,
                                 path);
        g_list_store_append (self->cells, cell);
      }

  start_next (self);
}

/**
 * tb_eval_suite_run_finish:
 * @self: an evaluation
 * @result: the #GAsyncResult given to the callback
 * @error: return location for %G_IO_ERROR_CANCELLED
 *
 * Ends tb_eval_suite_run_async(). Scenarios that failed or could not run do
 * not fail the evaluation: their cells say so.
 *
 * Returns: %TRUE when every cell ran or was marked, %FALSE when the evaluation was cancelled
 */
gboolean
tb_eval_suite_run_finish (TbEvalSuite   *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (TB_IS_EVAL_SUITE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
