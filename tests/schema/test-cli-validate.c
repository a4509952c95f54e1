/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-cli-validate"

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <toolbench.h>

/* toolbench-cli validate, run as a person would: files in a temporary
 * folder, the exit status and what is printed. */

typedef struct
{
  char *dir;
  char *schema;
  char *out;
  char *err;
  int   status;
} Fixture;

#define SCHEMA \
  "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}," \
  "\"unit\":{\"enum\":[\"c\",\"f\"]},\"n\":{\"type\":\"integer\",\"maximum\":10}}," \
  "\"required\":[\"path\"],\"additionalProperties\":false}"

static char *
write_file (Fixture    *f,
            const char *name,
            const char *contents)
{
  char *path = g_build_filename (f->dir, name, NULL);

  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  return path;
}

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("tb-cli-validate-XXXXXX", &error);
  g_assert_no_error (error);
  f->schema = write_file (f, "schema.json", SCHEMA);
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
  g_free (f->schema);
  g_free (f->out);
  g_free (f->err);
}

static gboolean
run (Fixture     *f,
     const char  *stdin_text,
     ...)
{
  const char *cli = g_getenv ("TOOLBENCH_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  const char *arg;
  va_list args;

  if (cli == NULL)
    {
      g_test_skip ("TOOLBENCH_CLI is not set: run this test through meson test");
      return FALSE;
    }

  g_ptr_array_add (argv, (char *) cli);
  g_ptr_array_add (argv, (char *) "validate");
  va_start (args, stdin_text);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_clear_pointer (&f->out, g_free);
  g_clear_pointer (&f->err, g_free);
  g_subprocess_communicate_utf8 (process, stdin_text, NULL, &f->out, &f->err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  f->status = g_subprocess_get_exit_status (process);
  return TRUE;
}

static void
test_valid (Fixture       *f,
            gconstpointer  data)
{
  g_autofree char *instance = write_file (f, "ok.json", "{\"path\":\"a\",\"n\":3}");

  if (!run (f, NULL, "--schema", f->schema, instance, NULL))
    return;
  g_assert_cmpint (f->status, ==, 0);
  g_assert_cmpstr (f->out, ==, "valid\n");
}

static void
test_invalid_text (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *instance = write_file (f, "bad.json", "{\"unit\":\"k\",\"n\":11,\"x\":1}");

  if (!run (f, NULL, "--schema", f->schema, instance, NULL))
    return;
  g_assert_cmpint (f->status, ==, 1);
  g_assert_cmpstr (f->out, ==,
                   "/: required: is missing required property “path”\n"
                   "/unit: enum: must be one of: c, f\n"
                   "/n: maximum: must be at most 10\n"
                   "/: additionalProperties: has unexpected property “x”\n");
}

static void
test_invalid_json_stdin (Fixture       *f,
                         gconstpointer  data)
{
  if (!run (f, "{\"path\":\"a\",\"n\":11}", "--schema", f->schema, "--json", "-", NULL))
    return;
  g_assert_cmpint (f->status, ==, 1);
  g_assert_cmpstr (f->out, ==,
                   "{\"instancePath\":\"/n\",\"schemaPath\":\"/properties/n/maximum\","
                   "\"keyword\":\"maximum\",\"message\":\"must be at most 10\"}\n");
}

static void
test_schema_refused (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *bad = write_file (f, "bad-schema.json", "{\"properties\":{\"a\":{\"pattern\":\"(\"}}}");
  g_autofree char *instance = write_file (f, "ok.json", "{}");

  if (!run (f, NULL, "--schema", bad, instance, NULL))
    return;
  g_assert_cmpint (f->status, ==, 2);
  g_assert_cmpstr (f->out, ==, "");
  g_assert_nonnull (strstr (f->err, "“/properties/a/pattern”"));
}

static void
test_draft_option (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *schema = write_file (f, "tuple.json",
                                        "{\"items\":[{\"type\":\"string\"}],"
                                        "\"additionalItems\":false}");
  g_autofree char *instance = write_file (f, "tuple-data.json", "[\"a\",1]");

  if (!run (f, NULL, "--schema", schema, "--draft", "7", instance, NULL))
    return;
  g_assert_cmpint (f->status, ==, 1);
  g_assert_cmpstr (f->out, ==, "/: items: must have at most 1 item\n");

  if (!run (f, NULL, "--schema", schema, "--draft", "5", instance, NULL))
    return;
  g_assert_cmpint (f->status, ==, 2);
  g_assert_nonnull (strstr (f->err, "Unknown draft “5”"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/cli/validate/valid", Fixture, NULL, setup, test_valid, teardown);
  g_test_add ("/cli/validate/invalid-text", Fixture, NULL, setup, test_invalid_text, teardown);
  g_test_add ("/cli/validate/invalid-json-stdin", Fixture, NULL, setup, test_invalid_json_stdin,
              teardown);
  g_test_add ("/cli/validate/schema-refused", Fixture, NULL, setup, test_schema_refused,
              teardown);
  g_test_add ("/cli/validate/draft-option", Fixture, NULL, setup, test_draft_option, teardown);

  return g_test_run ();
}
