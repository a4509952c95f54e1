/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <string.h>

#include "workspace-test-util.h"

/* toolbench-cli facts, run as a person would run it. */

typedef struct
{
  char *dir;
  char *path;
  char *out;
  char *err;
  int   status;
} Fixture;

static void
setup (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("tb-cli-facts-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "workspace.json", NULL);
}

static void
teardown (Fixture *f, gconstpointer data)
{
  remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->path);
  g_free (f->out);
  g_free (f->err);
}

/* Runs "toolbench-cli facts ARGS… --workspace PATH"; returns the exit status. */
static int
run (Fixture *f, ...)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  const char *cli = g_getenv ("TOOLBENCH_CLI");
  const char *arg;
  va_list args;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (char *) cli);
  g_ptr_array_add (argv, (char *) "facts");
  va_start (args, f);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, (char *) "--workspace");
  g_ptr_array_add (argv, f->path);
  g_ptr_array_add (argv, NULL);

  g_clear_pointer (&f->out, g_free);
  g_clear_pointer (&f->err, g_free);
  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                &f->out, &f->err, &f->status, &error);
  g_assert_no_error (error);
  if (!WIFEXITED (f->status))
    g_error ("toolbench-cli did not exit normally: %s", f->err);
  return WEXITSTATUS (f->status);
}

static char *
stored_facts (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbWorkspace) workspace = tb_workspace_new_for_path (f->path, &error);

  g_assert_no_error (error);
  return tb_json_to_string (tb_workspace_get_facts (workspace), FALSE);
}

static void
test_confirm_needs_yes (Fixture *f, gconstpointer data)
{
  g_autofree char *facts = NULL;

  g_assert_cmpint (run (f, "propose", "city", "\"Paris\"", "--reason", "the user said so", NULL),
                   ==, 0);
  g_assert_nonnull (strstr (f->out, "Proposed p1 for “city”"));
  g_assert_nonnull (strstr (f->out, "facts confirm p1"));

  g_assert_cmpint (run (f, "list", NULL), ==, 0);
  g_assert_nonnull (strstr (f->out, "p1     pending    city = \"Paris\""));

  /* Without --yes: the diff, and nothing committed. */
  g_assert_cmpint (run (f, "confirm", "p1", NULL), ==, 1);
  g_assert_nonnull (strstr (f->out, "Reason: the user said so"));
  g_assert_nonnull (strstr (f->out, "- (no value)\n+ \"Paris\"\n"));
  g_assert_nonnull (strstr (f->err, "Nothing was committed"));
  facts = stored_facts (f);
  g_assert_cmpstr (facts, ==, "{}");

  g_assert_cmpint (run (f, "confirm", "p1", "--yes", "--by", "Ada", NULL), ==, 0);
  g_assert_nonnull (strstr (f->out, "- (no value)\n+ \"Paris\"\n"));
  g_assert_nonnull (strstr (f->out, "Committed p1"));
  g_clear_pointer (&facts, g_free);
  facts = stored_facts (f);
  g_assert_cmpstr (facts, ==, "{\"city\":\"Paris\"}");

  g_assert_cmpint (run (f, "show", "p1", "--json", NULL), ==, 0);
  g_assert_nonnull (strstr (f->out, "\"status\" : \"committed\""));
  g_assert_nonnull (strstr (f->out, "\"resolved_by\" : \"Ada\""));

  /* Once only. */
  g_assert_cmpint (run (f, "confirm", "p1", "--yes", NULL), ==, 1);
  g_assert_nonnull (strstr (f->err, "already committed"));

  /* The next proposal shows the old value it replaces. */
  g_assert_cmpint (run (f, "propose", "city", "Lyon", "--string", NULL), ==, 0);
  g_assert_cmpint (run (f, "confirm", "p2", NULL), ==, 1);
  g_assert_nonnull (strstr (f->out, "- \"Paris\"\n+ \"Lyon\"\n"));
  g_assert_cmpint (run (f, "reject", "p2", NULL), ==, 0);
  g_clear_pointer (&facts, g_free);
  facts = stored_facts (f);
  g_assert_cmpstr (facts, ==, "{\"city\":\"Paris\"}");
}

static void
test_locks_and_superseded (Fixture *f, gconstpointer data)
{
  g_autofree char *facts = NULL;

  g_assert_cmpint (run (f, "lock", "/trip", NULL), ==, 0);
  g_assert_cmpint (run (f, "propose", "/trip/hotel", "\"Ritz\"", NULL), ==, 1);
  g_assert_nonnull (strstr (f->err, "locked"));
  g_assert_cmpint (run (f, "list", NULL), ==, 0);
  g_assert_nonnull (strstr (f->out, "Locked keys: trip\n"));
  g_assert_cmpint (run (f, "unlock", "/trip", NULL), ==, 0);

  g_assert_cmpint (run (f, "propose", "/trip/hotel", "\"Ritz\"", NULL), ==, 0);
  g_assert_cmpint (run (f, "propose", "/trip/hotel", "\"Savoy\"", NULL), ==, 0);
  g_assert_cmpint (run (f, "confirm", "p1", "--yes", NULL), ==, 0);

  g_assert_cmpint (run (f, "confirm", "p2", "--yes", NULL), ==, 1);
  g_assert_nonnull (strstr (f->err, "superseded"));
  g_assert_nonnull (strstr (f->err, "facts repropose p2"));
  facts = stored_facts (f);
  g_assert_cmpstr (facts, ==, "{\"trip\":{\"hotel\":\"Ritz\"}}");

  g_assert_cmpint (run (f, "repropose", "p2", NULL), ==, 0);
  g_assert_nonnull (strstr (f->out, "as p3"));
  g_assert_cmpint (run (f, "confirm", "p3", "--yes", NULL), ==, 0);
  g_assert_nonnull (strstr (f->out, "- \"Ritz\"\n+ \"Savoy\"\n"));
  g_clear_pointer (&facts, g_free);
  facts = stored_facts (f);
  g_assert_cmpstr (facts, ==, "{\"trip\":{\"hotel\":\"Savoy\"}}");
}

static void
test_bad_input (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *after = NULL;
  const char *garbage = "{\"format\":\"toolbench-workspace\",\"version\":7}";

  g_assert_cmpint (run (f, "propose", "city", "not json", NULL), ==, 1);
  g_assert_nonnull (strstr (f->err, "the value is not JSON"));
  g_assert_nonnull (strstr (f->err, "--string"));
  g_assert_false (g_file_test (f->path, G_FILE_TEST_EXISTS));

  g_assert_cmpint (run (f, "confirm", "p9", "--yes", NULL), ==, 1);
  g_assert_nonnull (strstr (f->err, "There is no proposal “p9”"));

  g_assert_cmpint (run (f, "frobnicate", NULL), ==, 2);
  g_assert_cmpint (run (f, "propose", "city", NULL), ==, 2);

  g_assert_true (g_file_set_contents (f->path, garbage, -1, &error));
  g_assert_no_error (error);
  g_assert_cmpint (run (f, "propose", "city", "1", NULL), ==, 1);
  g_assert_nonnull (strstr (f->err, "version 7"));
  g_assert_nonnull (strstr (f->err, "left untouched"));
  after = read_file (f->path);
  g_assert_cmpstr (after, ==, garbage);
}

static void
test_needs_workspace (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  const char *argv[] = { g_getenv ("TOOLBENCH_CLI"), "facts", "list", NULL };
  int status;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                NULL, &err, &status, &error);
  g_assert_no_error (error);
  g_assert_cmpint (WEXITSTATUS (status), ==, 2);
  g_assert_nonnull (strstr (err, "--workspace FILE"));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("TOOLBENCH_CLI") == NULL)
    {
      g_printerr ("TOOLBENCH_CLI is not set; run this test through meson test\n");
      return 77;
    }

  g_test_add ("/cli/facts/confirm-needs-yes", Fixture, NULL, setup, test_confirm_needs_yes,
              teardown);
  g_test_add ("/cli/facts/locks-and-superseded", Fixture, NULL, setup,
              test_locks_and_superseded, teardown);
  g_test_add ("/cli/facts/bad-input", Fixture, NULL, setup, test_bad_input, teardown);
  g_test_add_func ("/cli/facts/needs-workspace", test_needs_workspace);

  return g_test_run ();
}
