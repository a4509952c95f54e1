/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <signal.h>
#include <string.h>

#include "workspace-test-util.h"

/* Kills a process that saves a large workspace again and again at random
 * moments, and checks after each kill that the file is whole: the old or a
 * new version, loadable, the committed fact still there. */

#define PART_SIZE (512 * 1024)
#define N_PARTS 8
#define N_ROUNDS 16

typedef struct
{
  char *dir;
  char *path;
} Fixture;

static void
setup (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("tb-atomic-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "workspace.json", NULL);
}

static void
teardown (Fixture *f, gconstpointer data)
{
  remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

static gboolean
temporary_file_exists (Fixture *f)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, ".workspace.json."))
      return TRUE;
  return FALSE;
}

static guint
remove_temporary_files (Fixture *f)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;
  guint n = 0;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      if (g_str_has_prefix (name, ".workspace.json."))
        {
          g_autofree char *path = g_build_filename (f->dir, name, NULL);

          g_remove (path);
          n++;
        }
    }
  return n;
}

static void
check_whole (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbWorkspace) workspace = tb_workspace_new_for_path (f->path, &error);
  g_autoptr(JsonNode) city = NULL;
  JsonObject *draft;

  g_assert_no_error (error);
  g_assert_nonnull (workspace);

  city = tb_workspace_dup_fact (workspace, "city", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_node_get_string (city), ==, "Paris");
  g_assert_true (tb_workspace_is_locked (workspace, "city"));

  /* Each save writes all parts with one letter: a mix means a torn file. */
  draft = json_node_get_object (tb_workspace_get_draft (workspace));
  if (json_object_get_size (draft) > 0)
    {
      const char *first = json_object_get_string_member (draft, "part0");

      g_assert_cmpuint (json_object_get_size (draft), ==, N_PARTS);
      g_assert_cmpuint (strlen (first), ==, PART_SIZE);
      for (guint i = 0; i < N_PARTS; i++)
        {
          g_autofree char *key = g_strdup_printf ("part%u", i);

          g_assert_cmpstr (json_object_get_string_member (draft, key), ==, first);
        }
    }
}

static char *
read_line (GDataInputStream *in)
{
  g_autoptr(GError) error = NULL;
  char *line = g_data_input_stream_read_line_utf8 (in, NULL, NULL, &error);

  g_assert_no_error (error);
  return line;
}

static void
test_kill_mid_save (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *writer = g_test_build_filename (G_TEST_BUILT, "workspace",
                                                   "workspace-writer", NULL);
  g_autofree char *size = g_strdup_printf ("%d", PART_SIZE);
  guint torn_saves = 0;
  gint64 save_us = 0;

  /* The workspace the writers start from. */
  {
    g_autoptr(TbWorkspace) workspace = tb_workspace_new_for_path (f->path, &error);
    g_autoptr(JsonNode) value = tb_json_node_new_string ("Paris");
    g_autoptr(TbConfirmation) confirmation = NULL;
    TbFactProposal *proposal;

    g_assert_no_error (error);
    proposal = tb_workspace_propose (workspace, "city", value, "", NULL, &error);
    g_assert_no_error (error);
    confirmation = tb_confirmation_new (workspace, proposal, "Ada", &error);
    g_assert_no_error (error);
    g_assert_true (tb_workspace_commit (workspace, proposal, confirmation, &error));
    g_assert_true (tb_workspace_lock (workspace, "city", &error));
    g_assert_no_error (error);
  }

  if (!g_file_test (writer, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("workspace-writer is not built");
      return;
    }

  for (guint round = 0; round < N_ROUNDS; round++)
    {
      g_autoptr(GSubprocess) process = NULL;
      g_autoptr(GDataInputStream) in = NULL;
      g_autofree char *line = NULL;
      guint skip = round % 3;
      gint64 delay;

      process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                                  writer, f->path, size, NULL);
      g_assert_no_error (error);
      in = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));

      /* The first round measures how long one save takes. */
      line = read_line (in);
      g_assert_nonnull (line);
      if (round == 0)
        {
          gint64 start = g_get_monotonic_time ();

          for (guint i = 0; i < 3; i++)
            {
              g_free (line);
              line = read_line (in);
              g_assert_nonnull (line);
            }
          save_us = (g_get_monotonic_time () - start) / 3;
          g_test_message ("one save of %d MiB takes about %.1f ms",
                          PART_SIZE * N_PARTS / (1024 * 1024), save_us / 1000.0);
        }
      for (guint i = 0; i < skip; i++)
        {
          g_free (line);
          line = read_line (in);
          g_assert_nonnull (line);
        }
      g_assert_true (g_str_has_prefix (line, "saving "));

      /* Most rounds wait until the temporary file appears, then kill while
       * it is being written; the others kill anywhere inside the save. */
      if (round % 4 != 3)
        {
          gint64 deadline = g_get_monotonic_time () + 4 * MAX (save_us, 100000);

          while (!temporary_file_exists (f) && g_get_monotonic_time () < deadline)
            g_usleep (100);
          delay = g_random_int_range (0, 2000);
        }
      else
        delay = g_random_int_range (0, MAX (1, (int) save_us));
      g_usleep (delay);
      g_subprocess_send_signal (process, SIGKILL);
      g_subprocess_wait (process, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (g_subprocess_get_if_signaled (process));
      g_assert_cmpint (g_subprocess_get_term_sig (process), ==, SIGKILL);

      if (remove_temporary_files (f) > 0)
        torn_saves++;

      check_whole (f);
    }

  g_test_message ("%u of %u kills interrupted a save in the middle of writing",
                  torn_saves, N_ROUNDS);
  g_assert_cmpuint (torn_saves, >, 0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/workspace/atomic/kill-mid-save", Fixture, NULL, setup, test_kill_mid_save,
              teardown);

  return g_test_run ();
}
