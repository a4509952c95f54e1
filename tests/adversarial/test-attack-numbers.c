/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-attack-numbers"

#include "config.h"

#include "attack-util.h"

/* Numbers from outside that do not fit where they are read: each is
 * refused where it is read, with the field named, and nothing crashes. */

typedef struct
{
  char *dir;
  char *trace;     /* a good trace of the demo */
} Fixture;

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  AttackRun run = { 0 };

  f->dir = g_dir_make_tmp ("tb-attack-numbers-XXXXXX", NULL);
  f->trace = g_build_filename (f->dir, "good.jsonl", NULL);
  attack_cli (&run, NULL, NULL, "run", "-n", "5", "--prompt", "What is 2 + 3?", "-q",
              "--trace", f->trace);
  g_assert_cmpint (run.status, ==, 0);
  attack_run_clear (&run);
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  attack_remove_tree (f->dir);
  g_free (f->trace);
  g_free (f->dir);
}

/* The good trace with its header's max_iterations replaced by @value
 * (the member removed when @value is NULL). */
static char *
write_header_variant (Fixture    *f,
                      const char *value)
{
  g_autofree char *text = attack_read_file (f->trace);
  g_autoptr(GRegex) regex = g_regex_new ("\"max_iterations\":[0-9]+,?", 0, 0, NULL);
  g_autofree char *replacement = value != NULL
                                 ? g_strdup_printf ("\"max_iterations\":%s,", value)
                                 : g_strdup ("");
  char *newline = strchr (text, '\n');
  g_autofree char *header = g_strndup (text, newline - text);
  g_autofree char *changed = g_regex_replace_literal (regex, header, -1, 0, replacement, 0, NULL);
  g_autofree char *fixed = NULL;
  g_autofree char *whole = NULL;
  char *path = g_build_filename (f->dir, "crafted.jsonl", NULL);

  g_assert_nonnull (strstr (header, "\"max_iterations\":5"));
  /* a member removed at the end leaves a comma before the brace */
  fixed = g_strstrip (g_strdup (changed));
  if (g_str_has_suffix (fixed, ",}"))
    memmove (fixed + strlen (fixed) - 2, "}", 2);
  whole = g_strconcat (fixed, newline, NULL);
  attack_write_file (path, whole);
  return path;
}

static void
assert_refused (AttackRun  *run,
                const char *expected_err)
{
  g_assert_cmpint (run->signal, ==, 0);
  g_assert_cmpint (run->status, ==, 1);
  g_assert_cmpstr (run->err, ==, expected_err);
}

static void
test_max_iterations (Fixture       *f,
                     gconstpointer  data)
{
  static const struct { const char *value; const char *shown; } cases[] = {
    { "4294967296", "4294967296" },
    { "9223372036854775807", "9223372036854775807" },
    { "-1", "-1" },
    { "0", "0" },
    { "\"5\"", "\"5\"" },
    { "1e30", "1e+30" },
    { "18446744073709551616", "1.8446744073709552e+19" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = write_header_variant (f, cases[i].value);
      g_autofree char *expected =
        g_strdup_printf ("toolbench-cli: The trace header cannot be replayed: “max_iterations” "
                         "is %s; it must be a whole number from 1 to 4294967295\n",
                         cases[i].shown);
      AttackRun run = { 0 };

      g_test_message ("max_iterations %s", cases[i].value);
      attack_cli (&run, NULL, NULL, "replay", path, "--check");
      assert_refused (&run, expected);
      attack_run_clear (&run);
      attack_cli (&run, NULL, NULL, "replay", path, "--mock-tools");
      assert_refused (&run, expected);
      attack_run_clear (&run);
      attack_cli (&run, NULL, NULL, "replay", path, "--fork-step", "1",
                  "--edit-arguments", "{\"a\":1,\"b\":1}");
      assert_refused (&run, expected);
      attack_run_clear (&run);
    }
}

/* Without a cap in the header, the replay uses one turn per recorded turn. */
static void
test_max_iterations_absent (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *path = write_header_variant (f, NULL);
  AttackRun run = { 0 };

  attack_cli (&run, NULL, NULL, "replay", path, "--check");
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "No divergence"));
  attack_run_clear (&run);
}

/* An "extend" decision adds iterations to the cap: it must fit too. */
static void
test_extend_added (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *text = attack_read_file (f->trace);
  g_autofree char *path = g_build_filename (f->dir, "extend.jsonl", NULL);
  g_autoptr(GString) crafted = g_string_new (NULL);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  AttackRun run = { 0 };

  /* the header, then the extension as event 1, then the others renumbered */
  g_string_append_printf (crafted, "%s\n", lines[0]);
  g_string_append (crafted, "{\"seq\":1,\"t\":1,\"type\":\"decision\",\"decision\":\"extend\","
                            "\"added\":4294967296}\n");
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_autoptr(JsonNode) node = tb_json_parse (lines[i], -1, NULL);
      g_autofree char *line = NULL;

      json_object_set_int_member (json_node_get_object (node), "seq", i + 1);
      line = tb_json_to_string (node, FALSE);
      g_string_append_printf (crafted, "%s\n", line);
    }
  attack_write_file (path, crafted->str);

  attack_cli (&run, NULL, NULL, "replay", path, "--check");
  assert_refused (&run, "toolbench-cli: Event 1 of the trace cannot be replayed: “added” is "
                        "4294967296; it must be a whole number from 1 to 4294967295\n");
  attack_run_clear (&run);
}

/* A manifest's time limit and a script's delay that do not fit are
 * refused with the member named. */
static void
test_manifest_and_script (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *tools = g_build_filename (f->dir, "tools", NULL);
  g_autofree char *manifest = g_build_filename (tools, "big.json", NULL);
  g_autofree char *script = g_build_filename (f->dir, "script.json", NULL);
  g_autofree char *expected = NULL;
  AttackRun run = { 0 };

  g_mkdir (tools, 0700);
  attack_write_file (manifest, "{\"name\":\"big\",\"command\":[\"true\"],"
                               "\"timeout-ms\":4294967296,\"parameters\":{\"type\":\"object\"}}");
  attack_cli (&run, NULL, NULL, "list", "--tools-dir", tools);
  g_assert_cmpint (run.signal, ==, 0);
  expected = g_strdup_printf ("manifest:%s: “timeout-ms” must be a positive whole number",
                              manifest);
  g_assert_nonnull (strstr (run.err, expected));
  g_assert_null (strstr (run.out, "big"));
  attack_run_clear (&run);
  g_unlink (manifest);
  g_rmdir (tools);

  attack_write_file (script, "{\"version\":1,\"responses\":[{\"text\":\"hi\","
                             "\"delay_ms\":4294967296}]}");
  attack_cli (&run, NULL, NULL, "run", "-n", "2", "--prompt", "hi", "--script", script);
  g_assert_cmpint (run.signal, ==, 0);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.err, ==, "toolbench-cli: Response 1 of the script is not valid: "
                                "“delay_ms” must be a whole number from 0 to 600000\n");
  attack_run_clear (&run);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/attack/numbers/max-iterations", Fixture, NULL, setup, test_max_iterations,
              teardown);
  g_test_add ("/attack/numbers/max-iterations-absent", Fixture, NULL, setup,
              test_max_iterations_absent, teardown);
  g_test_add ("/attack/numbers/extend-added", Fixture, NULL, setup, test_extend_added, teardown);
  g_test_add ("/attack/numbers/manifest-and-script", Fixture, NULL, setup,
              test_manifest_and_script, teardown);

  return g_test_run ();
}
