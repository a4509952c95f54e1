/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The protocol view: the records a client keeps of every message, against
 * the real server-everything and the in-tree fake server (garbage, a
 * message larger than the client reads, a flood of notifications), and
 * their JSON Lines form read back. */

#include "config.h"

#include <string.h>
#include <toolbench.h>

#include "mcp-test-util.h"

typedef struct
{
  TbToolRegistry *registry;
  TbMcpClient    *client;
  guint           emitted;
  guint64         last_seq;
} Fixture;

static void
record_cb (TbMcpClient     *client,
           TbMcpWireRecord *record,
           Fixture         *f)
{
  f->emitted++;
  g_assert_cmpuint (tb_mcp_wire_record_get_seq (record), ==, f->last_seq + 1);
  f->last_seq = tb_mcp_wire_record_get_seq (record);
}

static void
start (Fixture            *f,
       const char         *name,
       const char * const *argv)
{
  g_autoptr(GError) error = NULL;

  f->client = tb_mcp_client_new_stdio (name, argv, NULL, NULL);
  g_signal_connect (f->client, "wire-record", G_CALLBACK (record_cb), f);
  tb_mcp_client_attach (f->client, f->registry);
  if (!mcp_test_connect (f->client, &error))
    g_error ("%s did not start: %s", name, error->message);
}

static void
setup_everything (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *reason = NULL;
  g_auto(GStrv) argv = mcp_test_server_argv ("server-everything", "dist/index.js", "stdio",
                                             &reason);

  f->registry = tb_tool_registry_new ();
  if (argv == NULL)
    {
      g_test_skip (reason);
      return;
    }
  start (f, "everything", (const char * const *) argv);
}

static void
setup_fake (Fixture       *f,
            gconstpointer  data)
{
  g_autofree char *script = mcp_test_fake_server ();
  const char *argv[] = { "/usr/bin/python3", script, NULL };

  f->registry = tb_tool_registry_new ();
  if (!g_file_test (argv[0], G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("/usr/bin/python3 is needed to run the fake MCP server");
      return;
    }
  start (f, "fake", argv);
}

static gboolean
pointer_is_null (gpointer data)
{
  return *(gpointer *) data == NULL;
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  if (f->client != NULL)
    {
      TbMcpClient *client = f->client;

      tb_mcp_client_detach (client);
      tb_mcp_client_disconnect (client);
      g_object_add_weak_pointer (G_OBJECT (client), (gpointer *) &client);
      g_clear_object (&f->client);
      g_assert_true (mcp_test_wait (pointer_is_null, &client, 5000));
    }
  g_assert_finalize_object (f->registry);
}

/* Calls a tool as the loop would, under a call id of our choosing. */
static TbToolResult *
call_as (Fixture    *f,
         const char *name,
         const char *call_id,
         const char *arguments_json)
{
  g_autoptr(JsonNode) arguments = NULL;
  g_autoptr(GAsyncResult) result = NULL;

  if (arguments_json != NULL)
    arguments = tb_json_parse (arguments_json, -1, NULL);
  tb_tool_registry_call_async (f->registry, name, call_id, arguments, NULL, NULL,
                               mcp_test_store_result, &result);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &result, 150000));
  return tb_tool_registry_call_finish (f->registry, result);
}

/* The first record after @from that matches; its position in *at. */
static TbMcpWireRecord *
find (GListModel         *history,
      guint               from,
      TbMcpWireDirection  direction,
      TbMcpWireKind       kind,
      const char         *method,
      guint              *at)
{
  for (guint i = from; i < g_list_model_get_n_items (history); i++)
    {
      g_autoptr(TbMcpWireRecord) record = g_list_model_get_item (history, i);

      if (tb_mcp_wire_record_get_direction (record) == direction &&
          tb_mcp_wire_record_get_kind (record) == kind &&
          g_strcmp0 (tb_mcp_wire_record_get_method (record), method) == 0)
        {
          if (at != NULL)
            *at = i;
          return g_steal_pointer (&record);
        }
    }
  return NULL;
}

/* A request and its answer: both directions, the same id, the answer
 * naming the request's method, in that order. */
static char *
assert_exchange (GListModel *history,
                 const char *method,
                 const char *call_id)
{
  guint sent_at = 0, answer_at = 0;
  g_autoptr(TbMcpWireRecord) sent = find (history, 0, TB_MCP_WIRE_DIRECTION_SENT,
                                          TB_MCP_WIRE_KIND_REQUEST, method, &sent_at);
  g_autoptr(TbMcpWireRecord) answer = NULL;

  g_assert_nonnull (sent);
  g_assert_nonnull (tb_mcp_wire_record_get_id (sent));
  answer = find (history, sent_at + 1, TB_MCP_WIRE_DIRECTION_RECEIVED, TB_MCP_WIRE_KIND_RESULT,
                 method, &answer_at);
  g_assert_nonnull (answer);
  g_assert_cmpstr (tb_mcp_wire_record_get_id (answer), ==, tb_mcp_wire_record_get_id (sent));
  g_assert_cmpuint (tb_mcp_wire_record_get_time (answer), >=, tb_mcp_wire_record_get_time (sent));
  g_assert_cmpstr (tb_mcp_wire_record_get_call_id (sent), ==, call_id);
  g_assert_cmpstr (tb_mcp_wire_record_get_call_id (answer), ==, call_id);
  g_assert_cmpstr (tb_mcp_wire_record_get_server (sent), ==, "everything");
  return g_strdup (tb_mcp_wire_record_get_id (sent));
}

/* A whole session with server-everything, in the order it went. */
static void
test_everything (Fixture       *f,
                 gconstpointer  data)
{
  GListModel *history;
  g_autoptr(TbToolResult) echo = NULL;
  g_autoptr(TbMcpWireRecord) initialized = NULL;
  g_autoptr(TbMcpWireRecord) discover = NULL;
  g_autoptr(TbMcpWireRecord) refusal = NULL;
  g_autoptr(TbMcpWireRecord) call = NULL;
  g_autoptr(JsonNode) message = NULL;
  g_autofree char *init_id = NULL;
  g_autofree char *list_id = NULL;
  g_autofree char *call_id = NULL;
  guint n;

  if (f->client == NULL)
    return;

  echo = call_as (f, "echo", "call-wire-1", "{\"message\":\"on the wire\"}");
  g_assert_true (tb_tool_result_get_ok (echo));

  history = tb_mcp_client_get_wire_history (f->client);
  n = g_list_model_get_n_items (history);
  g_assert_cmpuint (n, ==, f->emitted);
  /* The probe for the stateless revision, which this server answers with
   * an error, then the handshake. */
  discover = find (history, 0, TB_MCP_WIRE_DIRECTION_SENT, TB_MCP_WIRE_KIND_REQUEST,
                   "server/discover", NULL);
  g_assert_nonnull (discover);
  g_assert_cmpstr (tb_mcp_wire_record_get_id (discover), ==, "1");
  /* Each message names the revision it went in: the probe the stateless
   * one, the handshake none, the call the agreed one. */
  g_assert_cmpstr (tb_mcp_wire_record_get_protocol (discover), ==, "2026-07-28");
  refusal = find (history, 0, TB_MCP_WIRE_DIRECTION_RECEIVED, TB_MCP_WIRE_KIND_ERROR,
                  "server/discover", NULL);
  g_assert_nonnull (refusal);
  g_assert_cmpstr (tb_mcp_wire_record_get_id (refusal), ==, "1");
  init_id = assert_exchange (history, "initialize", NULL);
  g_assert_cmpstr (init_id, ==, "2");
  list_id = assert_exchange (history, "tools/list", NULL);
  g_assert_cmpstr (list_id, ==, "3");
  call_id = assert_exchange (history, "tools/call", "call-wire-1");
  {
    g_autoptr(TbMcpWireRecord) init = find (history, 0, TB_MCP_WIRE_DIRECTION_SENT,
                                            TB_MCP_WIRE_KIND_REQUEST, "initialize", NULL);
    g_autoptr(TbMcpWireRecord) sent_call = find (history, 0, TB_MCP_WIRE_DIRECTION_SENT,
                                                 TB_MCP_WIRE_KIND_REQUEST, "tools/call", NULL);

    g_assert_null (tb_mcp_wire_record_get_protocol (init));
    g_assert_cmpstr (tb_mcp_wire_record_get_protocol (sent_call), ==,
                     tb_mcp_client_get_protocol_version (f->client));
  }
  initialized = find (history, 0, TB_MCP_WIRE_DIRECTION_SENT, TB_MCP_WIRE_KIND_NOTIFICATION,
                      "notifications/initialized", NULL);
  g_assert_nonnull (initialized);
  g_assert_null (tb_mcp_wire_record_get_id (initialized));

  /* The record holds the message as it went. */
  call = find (history, 0, TB_MCP_WIRE_DIRECTION_SENT, TB_MCP_WIRE_KIND_REQUEST, "tools/call",
               NULL);
  g_assert_cmpuint (tb_mcp_wire_record_get_size (call), ==,
                    strlen (tb_mcp_wire_record_get_text (call)));
  g_assert_false (tb_mcp_wire_record_get_truncated (call));
  message = tb_mcp_wire_record_dup_message (call);
  g_assert_nonnull (message);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (
                     json_object_get_object_member (json_node_get_object (message), "params"),
                     "arguments"), "message"), ==, "on the wire");

  /* Sequence numbers go up by one, times never go back. */
  for (guint i = 1; i < n; i++)
    {
      g_autoptr(TbMcpWireRecord) a = g_list_model_get_item (history, i - 1);
      g_autoptr(TbMcpWireRecord) b = g_list_model_get_item (history, i);

      g_assert_cmpuint (tb_mcp_wire_record_get_seq (b), ==, tb_mcp_wire_record_get_seq (a) + 1);
      g_assert_cmpint (tb_mcp_wire_record_get_time (b), >=, tb_mcp_wire_record_get_time (a));
      g_assert_cmpuint (tb_mcp_wire_record_get_exchange (b), ==, 0);
    }
}

/* Every record reads back from its line as it was; a line that is not a
 * record says what is wrong with it. */
static void
test_json_lines (Fixture       *f,
                 gconstpointer  data)
{
  GListModel *history;
  g_autoptr(TbToolResult) result = NULL;
  static const struct { const char *line; const char *message; } bad[] = {
    { "[1, 2]", "A protocol record must be a JSON object" },
    { "{\"kind\": \"shout\"}", "The protocol record's kind “shout” is not one of request, "
                               "notification, result, error, batch, invalid or http" },
    { "{\"kind\": \"request\", \"direction\": \"up\"}",
      "The protocol record's direction “up” is neither sent nor received" },
    { "{\"kind\": \"request\", \"time\": \"yesterday\"}",
      "The protocol record's time “yesterday” is not an ISO 8601 time" },
    { "{\"kind\": \"request\", \"size\": -4}",
      "The protocol record's “size” is not a number of the right range" },
    { "{\"kind\": \"request\", \"method\": 7}", "The protocol record's “method” is not a string" },
  };

  if (f->client == NULL)
    return;

  result = call_as (f, "echo", "call-lines", "{\"message\":\"line\"}");
  g_assert_true (tb_tool_result_get_ok (result));
  history = tb_mcp_client_get_wire_history (f->client);
  for (guint i = 0; i < g_list_model_get_n_items (history); i++)
    {
      g_autoptr(TbMcpWireRecord) record = g_list_model_get_item (history, i);
      g_autofree char *line = tb_mcp_wire_record_to_line (record);
      g_autoptr(JsonNode) node = NULL;
      g_autoptr(TbMcpWireRecord) back = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_true (g_str_has_suffix (line, "\n"));
      g_assert_null (strchr (line, '\n') == line + strlen (line) - 1 ? NULL : "two lines");
      node = tb_json_parse (line, -1, &error);
      g_assert_no_error (error);
      g_assert_true (json_object_has_member (json_node_get_object (node), "message"));
      back = tb_mcp_wire_record_new_from_json (node, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (tb_mcp_wire_record_get_seq (back), ==, tb_mcp_wire_record_get_seq (record));
      g_assert_cmpint (tb_mcp_wire_record_get_time (back), ==,
                       tb_mcp_wire_record_get_time (record));
      g_assert_cmpint (tb_mcp_wire_record_get_direction (back), ==,
                       tb_mcp_wire_record_get_direction (record));
      g_assert_cmpint (tb_mcp_wire_record_get_kind (back), ==,
                       tb_mcp_wire_record_get_kind (record));
      g_assert_cmpstr (tb_mcp_wire_record_get_method (back), ==,
                       tb_mcp_wire_record_get_method (record));
      g_assert_cmpstr (tb_mcp_wire_record_get_id (back), ==, tb_mcp_wire_record_get_id (record));
      g_assert_cmpstr (tb_mcp_wire_record_get_call_id (back), ==,
                       tb_mcp_wire_record_get_call_id (record));
      g_assert_cmpstr (tb_mcp_wire_record_get_server (back), ==, "fake");
      g_assert_cmpuint (tb_mcp_wire_record_get_size (back), ==,
                        tb_mcp_wire_record_get_size (record));
    }

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(JsonNode) node = tb_json_parse (bad[i].line, -1, NULL);
      g_autoptr(GError) error = NULL;

      g_assert_null (tb_mcp_wire_record_new_from_json (node, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_assert_cmpstr (error->message, ==, bad[i].message);
    }
}

/* Progress notifications name the call whose request carried the token. */
static void
test_progress (Fixture       *f,
               gconstpointer  data)
{
  GListModel *history;
  g_autoptr(TbToolResult) result = NULL;
  guint progress = 0;

  if (f->client == NULL)
    return;

  result = call_as (f, "progress", "call-progress", NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  history = tb_mcp_client_get_wire_history (f->client);
  for (guint i = 0; i < g_list_model_get_n_items (history); i++)
    {
      g_autoptr(TbMcpWireRecord) record = g_list_model_get_item (history, i);

      if (g_strcmp0 (tb_mcp_wire_record_get_method (record), "notifications/progress") == 0)
        {
          g_assert_cmpint (tb_mcp_wire_record_get_direction (record), ==,
                           TB_MCP_WIRE_DIRECTION_RECEIVED);
          g_assert_cmpstr (tb_mcp_wire_record_get_call_id (record), ==, "call-progress");
          progress++;
        }
    }
  g_assert_cmpuint (progress, ==, 3);
}

static TbMcpWireRecord *
last_record (Fixture *f)
{
  GListModel *history = tb_mcp_client_get_wire_history (f->client);
  guint n = g_list_model_get_n_items (history);

  return n > 0 ? g_list_model_get_item (history, n - 1) : NULL;
}

/* Text that is not JSON is recorded as it came, marked invalid, and the
 * client fails as it always did. */
static void
test_invalid (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(TbMcpWireRecord) record = NULL;
  g_autoptr(JsonNode) json = NULL;
  JsonObject *object;

  if (f->client == NULL)
    return;

  result = call_as (f, "garbage", "call-garbage", NULL);
  g_assert_false (tb_tool_result_get_ok (result));
  g_assert_true (g_str_has_prefix (tb_tool_result_get_error (result),
                                   "The MCP server “fake” printed something that is not a "
                                   "JSON-RPC message on its standard output: “this is not json "
                                   "at all” ("));
  g_assert_cmpint (tb_mcp_client_get_state (f->client), ==, TB_MCP_CLIENT_STATE_FAILED);

  record = last_record (f);
  g_assert_cmpint (tb_mcp_wire_record_get_direction (record), ==, TB_MCP_WIRE_DIRECTION_RECEIVED);
  g_assert_cmpint (tb_mcp_wire_record_get_kind (record), ==, TB_MCP_WIRE_KIND_INVALID);
  g_assert_cmpstr (tb_mcp_wire_record_get_text (record), ==, "this is not json at all");
  g_assert_cmpuint (tb_mcp_wire_record_get_size (record), ==, strlen ("this is not json at all"));
  g_assert_nonnull (tb_mcp_wire_record_get_problem (record));
  g_assert_cmpstr (tb_mcp_wire_record_get_call_id (record), ==, "call-garbage");
  g_assert_null (tb_mcp_wire_record_dup_message (record));

  json = tb_mcp_wire_record_to_json (record);
  object = json_node_get_object (json);
  g_assert_cmpstr (json_object_get_string_member (object, "kind"), ==, "invalid");
  g_assert_cmpstr (json_object_get_string_member (object, "text"), ==, "this is not json at all");
  g_assert_false (json_object_has_member (object, "message"));
}

/* A result larger than a record keeps is kept cut, with its whole size;
 * the tool still gets all of it. */
static void
test_truncated (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(TbMcpWireRecord) record = NULL;
  g_autoptr(JsonNode) json = NULL;
  g_autofree char *output = NULL;
  JsonObject *object;

  if (f->client == NULL)
    return;

  result = call_as (f, "big", "call-big", "{\"size\": 3000000}");
  g_assert_true (tb_tool_result_get_ok (result));
  output = mcp_test_output_text (result);
  g_assert_cmpuint (strlen (output), ==, 3000000);

  record = last_record (f);
  g_assert_cmpint (tb_mcp_wire_record_get_kind (record), ==, TB_MCP_WIRE_KIND_RESULT);
  g_assert_cmpstr (tb_mcp_wire_record_get_method (record), ==, "tools/call");
  g_assert_true (tb_mcp_wire_record_get_truncated (record));
  g_assert_cmpuint (tb_mcp_wire_record_get_size (record), >, 3000000);
  g_assert_cmpuint (strlen (tb_mcp_wire_record_get_text (record)), ==, TB_MCP_WIRE_MAX_TEXT);
  g_assert_null (tb_mcp_wire_record_dup_message (record));

  json = tb_mcp_wire_record_to_json (record);
  object = json_node_get_object (json);
  g_assert_true (json_object_get_boolean_member (object, "truncated"));
  g_assert_cmpint (json_object_get_int_member (object, "size"), ==,
                   tb_mcp_wire_record_get_size (record));
}

/* A 40 MiB message: the client stops reading it and fails as before; the
 * record keeps its start and says how much came. */
static void
test_too_large (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(TbMcpWireRecord) record = NULL;

  if (f->client == NULL)
    return;

  result = call_as (f, "huge-line", "call-huge", NULL);
  g_assert_false (tb_tool_result_get_ok (result));
  g_assert_cmpstr (tb_tool_result_get_error (result), ==,
                   "The MCP server “fake” sent a message larger than 32.0\302\240MiB, "
                   "the most the client keeps");

  record = last_record (f);
  g_assert_cmpint (tb_mcp_wire_record_get_kind (record), ==, TB_MCP_WIRE_KIND_INVALID);
  g_assert_true (tb_mcp_wire_record_get_truncated (record));
  g_assert_cmpuint (tb_mcp_wire_record_get_size (record), >, TB_MCP_MAX_MESSAGE_SIZE);
  g_assert_cmpuint (strlen (tb_mcp_wire_record_get_text (record)), ==, TB_MCP_WIRE_MAX_TEXT);
  g_assert_true (g_str_has_prefix (tb_mcp_wire_record_get_text (record),
                                   "{\"jsonrpc\":\"2.0\",\"id\":"));
  g_assert_cmpstr (tb_mcp_wire_record_get_problem (record), ==,
                   "The message is larger than 32.0\302\240MiB, the most the client reads; it "
                   "was not "
                   "read to its end, and its size is the bytes read");
  g_assert_cmpstr (tb_mcp_wire_record_get_call_id (record), ==, "call-huge");
}

/* Ten thousand notifications: the history keeps its bounds, the newest
 * records stay, and every one was announced. */
static void
test_flood (Fixture       *f,
            gconstpointer  data)
{
  GListModel *history;
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(TbMcpWireRecord) first = NULL;
  g_autoptr(TbMcpWireRecord) last = NULL;
  guint before;
  guint n;
  gsize bytes = 0;

  if (f->client == NULL)
    return;

  /* Reading ten thousand notifications takes most of the default limit
   * in a sanitizer build on a busy machine. */
  tb_tool_registry_set_default_timeout_ms (f->registry, 120000);
  before = f->emitted;
  result = call_as (f, "flood", "call-flood", "{\"count\": 10000}");
  g_assert_true (tb_tool_result_get_ok (result));
  g_assert_cmpuint (f->emitted - before, ==, 10002);

  history = tb_mcp_client_get_wire_history (f->client);
  n = g_list_model_get_n_items (history);
  g_assert_cmpuint (n, ==, TB_MCP_WIRE_HISTORY_MAX_RECORDS);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TbMcpWireRecord) record = g_list_model_get_item (history, i);

      bytes += strlen (tb_mcp_wire_record_get_text (record));
    }
  g_assert_cmpuint (bytes, <=, TB_MCP_WIRE_HISTORY_MAX_BYTES);

  first = g_list_model_get_item (history, 0);
  last = g_list_model_get_item (history, n - 1);
  g_assert_cmpuint (tb_mcp_wire_record_get_seq (last), ==, f->last_seq);
  g_assert_cmpuint (tb_mcp_wire_record_get_seq (first), ==, f->last_seq - n + 1);
  g_assert_cmpstr (tb_mcp_wire_record_get_method (last), ==, "tools/call");
  g_assert_cmpint (tb_mcp_wire_record_get_kind (last), ==, TB_MCP_WIRE_KIND_RESULT);
  g_assert_cmpstr (tb_mcp_wire_record_get_call_id (first), ==, "call-flood");

  /* The bytes bound holds as well: big results push out the old ones. */
  for (guint i = 0; i < 40; i++)
    {
      g_autoptr(TbToolResult) big = call_as (f, "big", NULL, "{\"size\": 400000}");

      g_assert_true (tb_tool_result_get_ok (big));
    }
  n = g_list_model_get_n_items (history);
  bytes = 0;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TbMcpWireRecord) record = g_list_model_get_item (history, i);

      bytes += strlen (tb_mcp_wire_record_get_text (record));
    }
  g_assert_cmpuint (bytes, <=, TB_MCP_WIRE_HISTORY_MAX_BYTES);
  g_assert_cmpuint (n, <, TB_MCP_WIRE_HISTORY_MAX_RECORDS);

  tb_mcp_client_clear_wire_history (f->client);
  g_assert_cmpuint (g_list_model_get_n_items (history), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/mcp/wire/everything", Fixture, NULL, setup_everything, test_everything,
              teardown);
  g_test_add ("/mcp/wire/json-lines", Fixture, NULL, setup_fake, test_json_lines, teardown);
  g_test_add ("/mcp/wire/progress", Fixture, NULL, setup_fake, test_progress, teardown);
  g_test_add ("/mcp/wire/invalid", Fixture, NULL, setup_fake, test_invalid, teardown);
  g_test_add ("/mcp/wire/truncated", Fixture, NULL, setup_fake, test_truncated, teardown);
  g_test_add ("/mcp/wire/too-large", Fixture, NULL, setup_fake, test_too_large, teardown);
  g_test_add ("/mcp/wire/flood", Fixture, NULL, setup_fake, test_flood, teardown);

  return g_test_run ();
}
