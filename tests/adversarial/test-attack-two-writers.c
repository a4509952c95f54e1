/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <toolbench.h>

#include "attack-util.h"

/* Promise: a confirmed fact stays confirmed. Two writers (real
 * toolbench-cli processes, or two workspaces in one process) work on one
 * file at once; every confirm that reported success is in the file at the
 * end, a third process always reads a whole workspace, no temporary file
 * is left, and a writer killed while it holds the lock stops nobody. */

/* 200 each, as the promise was attacked; under AddressSanitizer every
 * run of the CLI costs seconds, so fewer there. */
#define N_OPERATIONS (g_getenv ("ASAN_OPTIONS") != NULL ? 25u : 200u)

static const char *self_path;

typedef struct
{
  char *dir;
  char *path;
} Fixture;

static void
setup (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("tb-two-writers-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "workspace.json", NULL);
}

static void
teardown (Fixture *f, gconstpointer data)
{
  attack_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

/* Only the workspace and its lock file are left beside each other. */
static void
assert_no_temporary_files (Fixture *f)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (!g_str_equal (name, "workspace.json") && !g_str_equal (name, "workspace.json.lock"))
      g_error ("a file was left beside the workspace: %s", name);
}

/* Every key in @confirmed is a fact holding its value, committed once. */
static void
assert_all_present (Fixture    *f,
                    GHashTable *confirmed)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbWorkspace) workspace = tb_workspace_new_for_path (f->path, &error);
  GListModel *proposals;
  GHashTableIter iter;
  gpointer key, value;
  guint n_committed = 0;

  g_assert_no_error (error);
  g_hash_table_iter_init (&iter, confirmed);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_autoptr(JsonNode) fact = tb_workspace_dup_fact (workspace, key, &error);

      if (fact == NULL)
        g_error ("the confirmed fact “%s” was lost: %s", (char *) key, error->message);
      g_assert_cmpstr (json_node_get_string (fact), ==, value);
    }

  proposals = tb_workspace_get_proposals (workspace);
  for (guint i = 0; i < g_list_model_get_n_items (proposals); i++)
    {
      g_autoptr(TbFactProposal) proposal = g_list_model_get_item (proposals, i);

      if (tb_fact_proposal_get_status (proposal) == TB_PROPOSAL_STATUS_COMMITTED)
        n_committed++;
    }
  g_assert_cmpuint (n_committed, ==, g_hash_table_size (confirmed));
}

/* A third process ------------------------------------------------------- */

/* Reads the workspace over and over until @stop exists; exits 1 at the
 * first read that is not a whole workspace. */
static int
run_sampler (const char *path,
             const char *stop)
{
  guint n = 0;

  while (!g_file_test (stop, G_FILE_TEST_EXISTS))
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TbWorkspace) workspace = NULL;

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        continue;
      workspace = tb_workspace_new_for_path (path, &error);
      if (workspace == NULL)
        {
          g_printerr ("sample %u: %s\n", n, error->message);
          return 1;
        }
      n++;
    }
  g_print ("%u\n", n);
  return 0;
}

/* Opens the workspace, freezes saves (which takes the lock), proposes,
 * says so and waits to be killed. */
static int
run_holder (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbWorkspace) workspace = tb_workspace_new_for_path (path, &error);
  g_autoptr(JsonNode) value = tb_json_node_new_string ("never saved");

  if (workspace == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  tb_workspace_freeze_saves (workspace);
  if (tb_workspace_propose (workspace, "held", value, "", NULL, &error) == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  g_print ("holding\n");
  fflush (stdout);
  for (;;)
    g_usleep (G_USEC_PER_SEC);
  return 0;
}

static GSubprocess *
spawn_helper (const char *mode,
              const char *path,
              const char *stop)
{
  g_autoptr(GError) error = NULL;
  GSubprocess *process;

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, self_path, mode, path,
                              stop, NULL);
  g_assert_no_error (error);
  return process;
}

/* Waits for the holder's "holding" line: it has the lock now. */
static void
wait_until_holding (GSubprocess *holder)
{
  g_autoptr(GDataInputStream) lines =
    g_data_input_stream_new (g_subprocess_get_stdout_pipe (holder));
  g_autoptr(GError) error = NULL;
  g_autofree char *line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (line, ==, "holding");
}

/* Writers --------------------------------------------------------------- */

typedef struct
{
  Fixture      *f;
  const char   *name;
  guint         done;
  guint         n_ops;
  guint         n_failed;
  char         *key;
  char         *id;
  GHashTable   *confirmed;
  guint        *running;
  GCancellable *cancellable;
} Writer;

static void writer_next (Writer *writer);

static GSubprocess *
spawn_cli (Writer     *writer,
           const char *first,
           ...)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  const char *arg;
  va_list args;

  g_ptr_array_add (argv, (char *) g_getenv ("TOOLBENCH_CLI"));
  g_ptr_array_add (argv, (char *) "facts");
  va_start (args, first);
  for (arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, (char *) "--workspace");
  g_ptr_array_add (argv, writer->f->path);
  g_ptr_array_add (argv, NULL);

  return g_subprocess_newv ((const char * const *) argv->pdata,
                            G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                            &error);
}

static void
confirmed_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GSubprocess *process = G_SUBPROCESS (object);
  Writer *writer = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_subprocess_communicate_utf8_finish (process, result, &out, &err, &error);
  g_assert_no_error (error);

  if (g_subprocess_get_if_exited (process) && g_subprocess_get_exit_status (process) == 0)
    {
      g_assert_nonnull (strstr (out, "Committed"));
      g_hash_table_insert (writer->confirmed, g_strdup (writer->key), g_strdup (writer->key));
    }
  else
    {
      g_test_message ("%s: confirm %s failed: %s", writer->name, writer->id, err);
      writer->n_failed++;
    }
  g_object_unref (process);
  writer->done++;
  writer_next (writer);
}

static void
proposed_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GSubprocess *process = G_SUBPROCESS (object);
  Writer *writer = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) proposal = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  GSubprocess *confirm;

  g_subprocess_communicate_utf8_finish (process, result, &out, &err, &error);
  g_assert_no_error (error);
  if (g_subprocess_get_exit_status (process) != 0)
    g_error ("%s: propose %s failed: %s", writer->name, writer->key, err);
  g_object_unref (process);

  proposal = tb_json_parse (out, -1, &error);
  g_assert_no_error (error);
  g_free (writer->id);
  writer->id = g_strdup (json_object_get_string_member (json_node_get_object (proposal), "id"));

  confirm = spawn_cli (writer, "confirm", writer->id, "--yes", "--by", writer->name, NULL);
  g_subprocess_communicate_utf8_async (confirm, NULL, NULL, confirmed_cb, writer);
}

static void
writer_next (Writer *writer)
{
  g_autofree char *value = NULL;
  GSubprocess *process;

  if (writer->done == writer->n_ops)
    {
      (*writer->running)--;
      g_main_context_wakeup (NULL);
      return;
    }

  g_free (writer->key);
  writer->key = g_strdup_printf ("%s-%u", writer->name, writer->done);
  value = g_strdup_printf ("\"%s\"", writer->key);
  process = spawn_cli (writer, "propose", writer->key, value, "--json", NULL);
  g_subprocess_communicate_utf8_async (process, NULL, NULL, proposed_cb, writer);
}

static void
writer_clear (Writer *writer)
{
  g_clear_pointer (&writer->key, g_free);
  g_clear_pointer (&writer->id, g_free);
}

static void
stop_sampler (Fixture     *f,
              GSubprocess *sampler,
              const char  *stop)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;

  g_assert_true (g_file_set_contents (stop, "", 0, &error));
  g_subprocess_communicate_utf8 (sampler, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (sampler));
  g_assert_cmpint (g_subprocess_get_exit_status (sampler), ==, 0);
  g_test_message ("the third process read a whole workspace %s times", g_strstrip (out));
  g_assert_cmpuint (g_ascii_strtoull (out, NULL, 10), >, 0);
}

/* Two toolbench-cli loops, N_OPERATIONS proposals and confirms each. */
static void
test_cli_writers (Fixture *f, gconstpointer data)
{
  g_autoptr(GHashTable) confirmed = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                           g_free, g_free);
  g_autofree char *stop = g_build_filename (f->dir, "stop", NULL);
  g_autoptr(GSubprocess) sampler = NULL;
  g_autoptr(GTimer) timer = g_timer_new ();
  guint running = 2;
  Writer writers[2] = {
    { f, "ada", 0, N_OPERATIONS, 0, NULL, NULL, confirmed, &running, NULL },
    { f, "grace", 0, N_OPERATIONS, 0, NULL, NULL, confirmed, &running, NULL },
  };

  sampler = spawn_helper ("--sample", f->path, stop);
  for (guint i = 0; i < G_N_ELEMENTS (writers); i++)
    writer_next (&writers[i]);
  while (running > 0)
    g_main_context_iteration (NULL, TRUE);
  g_test_message ("%u proposals and confirms in %.1f s", 2 * N_OPERATIONS,
                  g_timer_elapsed (timer, NULL));

  stop_sampler (f, sampler, stop);
  g_remove (stop);

  /* No writer was turned away, and nothing any of them confirmed is lost. */
  g_assert_cmpuint (writers[0].n_failed + writers[1].n_failed, ==, 0);
  g_assert_cmpuint (g_hash_table_size (confirmed), ==, 2 * N_OPERATIONS);
  assert_all_present (f, confirmed);
  assert_no_temporary_files (f);

  for (guint i = 0; i < G_N_ELEMENTS (writers); i++)
    writer_clear (&writers[i]);
}

/* Two workspaces in one process, interleaved change by change. */
static void
test_engine_writers (Fixture *f, gconstpointer data)
{
  g_autoptr(GHashTable) confirmed = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                           g_free, g_free);
  g_autoptr(GError) error = NULL;
  TbWorkspace *workspaces[2];
  static const char *names[] = { "ada", "grace" };

  for (guint w = 0; w < 2; w++)
    {
      workspaces[w] = tb_workspace_new_for_path (f->path, &error);
      g_assert_no_error (error);
    }

  for (guint i = 0; i < N_OPERATIONS; i++)
    {
      TbFactProposal *proposals[2];

      for (guint w = 0; w < 2; w++)
        {
          g_autofree char *key = g_strdup_printf ("%s-%u", names[w], i);
          g_autoptr(JsonNode) value = tb_json_node_new_string (key);

          proposals[w] = tb_workspace_propose (workspaces[w], key, value, "", NULL, &error);
          g_assert_no_error (error);
        }
      for (guint w = 0; w < 2; w++)
        {
          g_autoptr(TbConfirmation) confirmation =
            tb_confirmation_new (workspaces[w], proposals[w], names[w], &error);
          const char *key = tb_fact_proposal_get_key (proposals[w]);

          g_assert_no_error (error);
          g_assert_true (tb_workspace_commit (workspaces[w], proposals[w], confirmation, &error));
          g_assert_no_error (error);
          g_hash_table_insert (confirmed, g_strdup (key), g_strdup (key));
        }
    }

  /* Each shows the other's work once it has read the file again. */
  for (guint w = 0; w < 2; w++)
    {
      JsonNode *facts;

      g_assert_true (tb_workspace_reload (workspaces[w], &error));
      g_assert_no_error (error);
      facts = tb_workspace_get_facts (workspaces[w]);
      g_assert_cmpuint (json_object_get_size (json_node_get_object (facts)), ==,
                        2 * N_OPERATIONS);
      g_assert_cmpuint (g_list_model_get_n_items (tb_workspace_get_proposals (workspaces[w])),
                        ==, 2 * N_OPERATIONS);
      g_assert_cmpuint (tb_workspace_get_n_pending (workspaces[w]), ==, 0);
    }

  assert_all_present (f, confirmed);
  assert_no_temporary_files (f);
  for (guint w = 0; w < 2; w++)
    g_assert_finalize_object (workspaces[w]);
}

static int
run_cli (Fixture     *f,
         char       **out,
         char       **err,
         const char  *first,
         ...)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *ignored_out = NULL;
  g_autofree char *ignored_err = NULL;
  const char *arg;
  va_list args;
  int status;

  g_ptr_array_add (argv, (char *) g_getenv ("TOOLBENCH_CLI"));
  g_ptr_array_add (argv, (char *) "facts");
  va_start (args, first);
  for (arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, (char *) "--workspace");
  g_ptr_array_add (argv, f->path);
  g_ptr_array_add (argv, NULL);

  /* Output not asked for must not reach the TAP stream. */
  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                out != NULL ? out : &ignored_out, err != NULL ? err : &ignored_err,
                &status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

/* A writer that hangs with the lock makes the CLI wait ten seconds and say
 * so; killed with -9, it lets the next writer in at once. */
static void
test_killed_holder (Fixture *f, gconstpointer data)
{
  g_autoptr(GSubprocess) holder = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TbWorkspace) workspace = NULL;
  g_autoptr(GTimer) timer = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  g_assert_cmpint (run_cli (f, NULL, NULL, "propose", "city", "\"Paris\"", NULL), ==, 0);
  g_assert_cmpint (run_cli (f, NULL, NULL, "confirm", "p1", "--yes", NULL), ==, 0);
  g_assert_true (g_file_get_contents (f->path, &before, NULL, NULL));

  holder = spawn_helper ("--hold", f->path, "");
  wait_until_holding (holder);

  timer = g_timer_new ();
  g_assert_cmpint (run_cli (f, &out, &err, "propose", "city", "\"Lyon\"", NULL), ==, 1);
  g_test_message ("the CLI waited %.1f s for the lock", g_timer_elapsed (timer, NULL));
  g_assert_cmpfloat (g_timer_elapsed (timer, NULL), >=, 9.5);
  expected = g_strdup_printf ("toolbench-cli: Another program holds the workspace “%s” "
                              "locked and did not let go within 10 seconds; nothing was "
                              "changed. Try again when it has finished.\n", f->path);
  g_assert_cmpstr (err, ==, expected);
  g_assert_cmpstr (out, ==, "");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_subprocess_send_signal (holder, SIGKILL);
  g_subprocess_wait (holder, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (g_subprocess_get_if_exited (holder));

  /* The file is as it was: the holder's frozen proposal never reached it. */
  g_assert_true (g_file_get_contents (f->path, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, before);

  g_timer_start (timer);
  g_assert_cmpint (run_cli (f, &out, &err, "propose", "city", "\"Lyon\"", NULL), ==, 0);
  g_assert_cmpfloat (g_timer_elapsed (timer, NULL), <, 5.0);
  g_assert_cmpstr (err, ==, "");
  g_assert_nonnull (strstr (out, "Proposed p2 for “city”"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (f, &out, &err, "confirm", "p2", "--yes", NULL), ==, 0);

  workspace = tb_workspace_new_for_path (f->path, &error);
  g_assert_no_error (error);
  {
    g_autoptr(JsonNode) city = tb_workspace_dup_fact (workspace, "city", &error);

    g_assert_no_error (error);
    g_assert_cmpstr (json_node_get_string (city), ==, "Lyon");
  }
  g_assert_null (tb_workspace_lookup_proposal (workspace, "p3"));
  assert_no_temporary_files (f);
}

/* CLI writers killed at random moments (many while they hold the lock)
 * never damage the file nor stop the writer beside them. */
static void
test_random_kills (Fixture *f, gconstpointer data)
{
  g_autoptr(GHashTable) confirmed = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                           g_free, g_free);
  g_autoptr(GError) error = NULL;
  guint running = 1;
  Writer writer = { f, "ada", 0, 50, 0, NULL, NULL, confirmed, &running, NULL };
  guint n_killed = 0;

  writer_next (&writer);
  for (guint i = 0; running > 0; i++)
    {
      g_autofree char *key = g_strdup_printf ("victim-%u", i);
      g_autofree char *value = g_strdup_printf ("\"%s\"", key);
      const char *argv[] = { g_getenv ("TOOLBENCH_CLI"), "facts", "propose", key, value,
                             "--workspace", f->path, NULL };
      g_autoptr(GSubprocess) victim =
        g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                 G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error);

      g_assert_no_error (error);
      /* Let the writer's processes run meanwhile. */
      for (gint64 end = g_get_monotonic_time () + g_test_rand_int_range (0, 4000);
           g_get_monotonic_time () < end;)
        g_main_context_iteration (NULL, FALSE);
      g_subprocess_send_signal (victim, SIGKILL);
      g_subprocess_wait (victim, NULL, &error);
      g_assert_no_error (error);
      if (!g_subprocess_get_if_exited (victim))
        n_killed++;

      {
        g_autoptr(TbWorkspace) workspace = tb_workspace_new_for_path (f->path, &error);

        if (g_file_test (f->path, G_FILE_TEST_EXISTS))
          g_assert_no_error (error);
      }
    }
  g_test_message ("%u writers killed while the other one confirmed 50 facts", n_killed);

  g_assert_cmpuint (writer.n_failed, ==, 0);
  g_assert_cmpuint (g_hash_table_size (confirmed), ==, 50);
  assert_all_present (f, confirmed);
  writer_clear (&writer);
}

int
main (int argc, char *argv[])
{
  self_path = argv[0];

  if (argc == 4 && g_str_equal (argv[1], "--sample"))
    return run_sampler (argv[2], argv[3]);
  if (argc == 4 && g_str_equal (argv[1], "--hold"))
    return run_holder (argv[2]);

  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, setup, func, teardown)
  ADD ("/attack/two-writers/cli", test_cli_writers);
  ADD ("/attack/two-writers/engine", test_engine_writers);
  ADD ("/attack/two-writers/killed-holder", test_killed_holder);
  ADD ("/attack/two-writers/random-kills", test_random_kills);
#undef ADD

  return g_test_run ();
}
