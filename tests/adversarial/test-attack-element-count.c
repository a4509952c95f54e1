/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-attack-element-count"

#include "config.h"

#include "attack-util.h"
#include "tb-test-http.h"

/* Documents from outside made of many tiny values (empty objects cost
 * json-glib about 100 times their text) are refused before they are
 * parsed: each path stays within about 20 times the document's size in
 * memory, says why, and loses nothing. Peak memory is the child's
 * maximum resident set, as the kernel counts it. */

typedef AttackDir Fixture;

/* "[{},{},…]" of about @mib MiB */
static GString *
empty_objects (guint mib)
{
  gsize count = (gsize) mib * 1024 * 1024 / 3;
  GString *text = g_string_sized_new (count * 3 + 2);

  g_string_append (text, "[{}");
  for (gsize i = 1; i < count; i++)
    g_string_append (text, ",{}");
  g_string_append_c (text, ']');
  return text;
}

/* Before values were counted, each of these took 100 to 200 times the
 * document's size. */
static void
assert_bounded (AttackRun *run,
                gsize      document_size)
{
  glong limit_kib = (glong) (20 * document_size / 1024) + 64 * 1024;

  /* AddressSanitizer keeps freed memory aside and adds its own */
  if (g_getenv ("ASAN_OPTIONS") != NULL)
    limit_kib *= 3;

  g_test_message ("peak %ld KiB for a document of %lu KiB (limit %ld KiB)", run->max_rss_kib,
                  (gulong) (document_size / 1024), limit_kib);
  g_assert_cmpint (run->signal, ==, 0);
  g_assert_cmpint (run->max_rss_kib, <, limit_kib);
}

static void
test_mcp_message (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *script = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "mcp",
                                              "fake-mcp-server.py", NULL);
  g_autofree char *server = g_strdup_printf ("fake=/usr/bin/python3 %s", script);
  AttackRun run = { 0 };

  if (!g_file_test ("/usr/bin/python3", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("/usr/bin/python3 is needed to run the fake MCP server");
      return;
    }
  attack_cli (&run, NULL, NULL, "call", "--mcp", server, "empty-objects");
  assert_bounded (&run, 31 * 1024 * 1024);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.out, "The MCP server “fake” sent a message that Toolbench does "
                                     "not read: The JSON text (31.0\u00a0MiB) holds more than "));
  g_assert_nonnull (strstr (run.out, "values, too many for its size: reading it would take more "
                                     "than about 20 times its size in memory"));
  attack_run_clear (&run);
}

static void
test_trace_line (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *trace = g_build_filename (f->dir, "values.jsonl", NULL);
  g_autoptr(GString) body = empty_objects (20);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  AttackRun run = { 0 };

  g_string_append (text, "{\"format\":\"toolbench-trace\",\"version\":1,"
                         "\"created\":\"2026-01-01\"}\n"
                         "{\"seq\":1,\"t\":1,\"type\":\"message\",\"origin\":\"person\","
                         "\"message\":{\"role\":\"user\",\"text\":\"hi\"}}\n"
                         "{\"seq\":2,\"t\":2,\"type\":\"response\",\"body\":");
  g_string_append_len (text, body->str, body->len);
  g_string_append (text, "}\n{\"seq\":3,\"t\":3,\"type\":\"end\",\"state\":\"finished\"}\n");
  attack_write_file (trace, text->str);
  before = attack_read_file (trace);

  attack_cli (&run, NULL, NULL, "trace", "show", trace);
  assert_bounded (&run, body->len);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.err, "warning: Line 3 cannot be read and was left out: The "
                                     "JSON text (20.0\u00a0MiB) holds more than "));
  /* the events around it are shown */
  g_assert_nonnull (strstr (run.out, "You: hi"));
  g_assert_nonnull (strstr (run.out, "Finished"));
  attack_run_clear (&run);

  after = attack_read_file (trace);
  g_assert_true (g_str_equal (before, after));
}

static void
test_workspace (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *workspace = g_build_filename (f->dir, "values.json", NULL);
  g_autoptr(GString) facts = empty_objects (20);
  g_autoptr(GString) text = g_string_new ("{\"format\":\"toolbench-workspace\",\"version\":1,"
                                          "\"facts\":{\"many\":");
  g_autofree char *after = NULL;
  AttackRun run = { 0 };

  g_string_append_len (text, facts->str, facts->len);
  g_string_append (text, "}}");
  attack_write_file (workspace, text->str);

  attack_cli (&run, NULL, NULL, "facts", "list", "--workspace", workspace);
  assert_bounded (&run, text->len);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "The JSON text (20.0\u00a0MiB) holds more than "));
  attack_run_clear (&run);

  /* a change is refused too, and the file is left as it was */
  attack_cli (&run, NULL, NULL, "facts", "propose", "k", "1", "--workspace", workspace);
  assert_bounded (&run, text->len);
  g_assert_cmpint (run.status, ==, 1);
  attack_run_clear (&run);
  after = attack_read_file (workspace);
  g_assert_true (g_str_equal (text->str, after));
}

static void
test_command_output (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *tools = g_build_filename (f->dir, "tools", NULL);
  g_autofree char *manifest = g_build_filename (tools, "flood.json", NULL);
  AttackRun run = { 0 };

  g_mkdir (tools, 0700);
  /* 15 MiB of empty objects on standard output */
  attack_write_file (manifest,
                     "{\"name\":\"flood\",\"command\":[\"/usr/bin/python3\",\"-c\","
                     "\"import sys; sys.stdout.write('[' + ','.join(['{}'] * 5242880) + ']')\"],"
                     "\"parameters\":{\"type\":\"object\"}}");
  attack_cli (&run, NULL, NULL, "call", "--tools-dir", tools, "flood");
  assert_bounded (&run, 15 * 1024 * 1024);
  /* the tool ran: its output is given as text, with the reason */
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "\"The output is given as text, not read as JSON: The JSON "
                                     "text (15.0\u00a0MiB) holds more than "));
  g_assert_nonnull (strstr (run.out, "\"data\" : \"[{},{},"));
  attack_run_clear (&run);
}

/* A provider's answer of up to 8 MiB (the response limit) made of empty
 * objects. */
static void
test_provider_response (Fixture       *f,
                        gconstpointer  data)
{
  TestServer *server = test_server_new ("Authorization");
  g_autoptr(GString) objects = empty_objects (7);
  g_autoptr(GString) body = g_string_new ("{\"choices\":[{\"index\":0,\"finish_reason\":\"stop\","
                                          "\"message\":{\"role\":\"assistant\",\"content\":"
                                          "\"hi\"},\"x\":");
  const char *env[] = { "OPENAI_API_KEY=sk-test", NULL };
  AttackRun run = { 0 };

  g_string_append_len (body, objects->str, objects->len);
  g_string_append (body, "}]}");
  test_server_reply (server, 200, "application/json", body->str);

  attack_cli (&run, NULL, env, "run", "-p", "openai", "--base-url", server->base_url, "-m", "m",
              "-n", "2", "--prompt", "hi");
  assert_bounded (&run, body->len);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "holds more than "));
  g_assert_nonnull (strstr (run.err, "too many for its size"));
  attack_run_clear (&run);
  test_server_free (server);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  attack_dir_test_add ("/attack/element-count/mcp-message", test_mcp_message);
  attack_dir_test_add ("/attack/element-count/trace-line", test_trace_line);
  attack_dir_test_add ("/attack/element-count/workspace", test_workspace);
  attack_dir_test_add ("/attack/element-count/command-output", test_command_output);
  attack_dir_test_add ("/attack/element-count/provider-response", test_provider_response);

  return g_test_run ();
}
