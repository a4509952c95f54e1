/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp-input"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-mcp-client-private.h"
#include "tb-text.h"

/* Multi round-trip requests (2026-07-28, "basic/patterns/mrtr"): a server
 * answers `tools/call`, `resources/read` or `prompts/get` with
 * `resultType: "input_required"` and the requests it needs answered first
 * (elicitation, sampling, roots). Each goes to the client's usual handling
 * of server requests — the same dialogs and signals, the same command-line
 * answers — under an id of its own; their results become
 * `inputResponses`, and the original request goes again with a new id,
 * the server's `requestState` unchanged. The caller's task waits through
 * every round. */

/* Rounds of one request before the client gives up on it. */
#define MAX_ROUNDS 10

typedef struct
{
  TbMcpClient       *client;
  GTask             *task;          /* the caller's, until it is returned */
  char              *method;
  JsonNode          *params;        /* the caller's, without the round's members */
  guint              timeout_ms;
  TbMcpProgressFunc  progress;
  gpointer           progress_data;
  guint              rounds;
  char              *request_state;
  JsonObject        *responses;
  guint              outstanding;
  gboolean           inputs;        /* the server sent inputRequests */
} Round;

/* One input request being answered, under the id it was asked with:
 * whoever asked (a round here, a task in tb-mcp-task.c) hears the answer
 * through @answered and lets go of @target through @release. */
typedef struct
{
  char               *key;
  TbMcpInputAnswered  answered;
  gpointer            target;
  GDestroyNotify      release;
} Wait;

static void
round_unref (Round *round)
{
  g_clear_object (&round->task);
  g_free (round->method);
  g_clear_pointer (&round->params, json_node_unref);
  g_free (round->request_state);
  g_clear_pointer (&round->responses, json_object_unref);
  g_free (round);
}

/* The last wait of a round frees it. */
static void
round_release (gpointer data)
{
  Round *round = data;

  if (--round->outstanding == 0 && round->task == NULL)
    round_unref (round);
}

static void
wait_free (gpointer data)
{
  Wait *wait = data;

  if (wait->release != NULL)
    wait->release (wait->target);
  g_free (wait->key);
  g_free (wait);
}

static gboolean
allows_input (const char *method)
{
  return g_strcmp0 (method, "tools/call") == 0 || g_strcmp0 (method, "resources/read") == 0 ||
         g_strcmp0 (method, "prompts/get") == 0;
}

/* The request again: the caller's params, the answers and the state. */
static void
retry (Round *round)
{
  JsonObject *params = json_object_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GTask) task = g_steal_pointer (&round->task);

  if (round->params != NULL && JSON_NODE_HOLDS_OBJECT (round->params))
    {
      JsonObjectIter iter;
      const char *member;
      JsonNode *value;

      json_object_iter_init_ordered (&iter, json_node_get_object (round->params));
      while (json_object_iter_next_ordered (&iter, &member, &value))
        if (!g_str_equal (member, "inputResponses") && !g_str_equal (member, "requestState"))
          json_object_set_member (params, member, json_node_copy (value));
    }
  if (round->inputs)
    json_object_set_object_member (params, "inputResponses", json_object_ref (round->responses));
  if (round->request_state != NULL)
    json_object_set_string_member (params, "requestState", round->request_state);
  node = tb_json_node_take_object (params);
  _tb_mcp_client_retry_request (round->client, round->method, node, round->timeout_ms,
                                round->progress, round->progress_data, round->rounds, task);
}

static void
fail_round (Round      *round,
            const char *text)
{
  g_autoptr(GTask) task = g_steal_pointer (&round->task);

  if (task != NULL)
    g_task_return_new_error (task, TB_MCP_ERROR, TB_MCP_ERROR_REMOTE, "%s", text);
}

/* An answer for a round; the last one sends the request again. */
static void
round_answered (gpointer      target,
                const char   *key,
                JsonNode     *result,
                const char   *refusal,
                const GError *lost)
{
  Round *round = target;

  if (round->task == NULL)
    return;
  if (lost != NULL)
    {
      g_autoptr(GTask) task = g_steal_pointer (&round->task);

      g_task_return_error (task, g_error_copy (lost));
      return;
    }
  if (refusal != NULL)
    {
      g_autofree char *text =
        /* Translators: a server name, what it asked for, why there is no answer */
        g_strdup_printf (_("The MCP server “%s” asked for input “%s” before answering, "
                           "and it could not be given: %s"),
                         round->client->name, key, refusal);

      fail_round (round, text);
      return;
    }
  json_object_set_member (round->responses, key,
                          result != NULL ? json_node_copy (result) : tb_json_node_new_object ());
  if (round->outstanding == 1)
    retry (round);
}

/**
 * _tb_mcp_input_required:
 * @self: a client
 * @task: (transfer full): the caller's task of the request
 * @method: the request's method
 * @params: (nullable): the caller's params of the request
 * @timeout_ms: its time limit, for each round
 * @progress: (nullable): its progress function
 * @progress_data: closure data
 * @rounds: how many rounds it went so far
 * @result: the server's `input_required` result
 *
 * Answers what the server asks, then sends the request again; @task gets
 * the final answer or the reason there is none.
 */
void
_tb_mcp_input_required (TbMcpClient       *self,
                        GTask             *task,
                        const char        *method,
                        JsonNode          *params,
                        guint              timeout_ms,
                        TbMcpProgressFunc  progress,
                        gpointer           progress_data,
                        guint              rounds,
                        JsonObject        *result)
{
  Round *round;
  JsonNode *requests = json_object_get_member (result, "inputRequests");
  JsonNode *state = json_object_get_member (result, "requestState");
  g_autoptr(GPtrArray) waits = NULL;
  g_autoptr(GList) keys = NULL;

  if (!allows_input (method))
    {
      g_autofree char *shown = tb_text_shorten (method, -1, 81);

      g_task_return_new_error (task, TB_MCP_ERROR, TB_MCP_ERROR_PROTOCOL,
                               /* Translators: a server name, then a method */
                               _("The MCP server “%s” asked for input before answering “%s”, "
                                 "which may not ask for any"), self->name, shown);
      g_object_unref (task);
      return;
    }
  if (rounds >= MAX_ROUNDS)
    {
      g_task_return_new_error (task, TB_MCP_ERROR, TB_MCP_ERROR_PROTOCOL,
                               _("The MCP server “%s” asked for input %u times for one request; "
                                 "the client stopped asking the person"),
                               self->name, (guint) MAX_ROUNDS);
      g_object_unref (task);
      return;
    }
  if ((requests != NULL && !JSON_NODE_HOLDS_OBJECT (requests)) ||
      (state != NULL && (!JSON_NODE_HOLDS_VALUE (state) ||
                         json_node_get_value_type (state) != G_TYPE_STRING)) ||
      (requests == NULL && state == NULL))
    {
      g_task_return_new_error (task, TB_MCP_ERROR, TB_MCP_ERROR_PROTOCOL,
                               _("The MCP server “%s” asked for input without saying which "
                                 "(inputRequests must be an object, requestState a string, "
                                 "and one of them given)"), self->name);
      g_object_unref (task);
      return;
    }

  round = g_new0 (Round, 1);
  round->client = self;
  round->task = task;
  round->method = g_strdup (method);
  round->params = params != NULL ? json_node_ref (params) : NULL;
  round->timeout_ms = timeout_ms;
  round->progress = progress;
  round->progress_data = progress_data;
  round->rounds = rounds + 1;
  round->request_state = state != NULL ? g_strdup (json_node_get_string (state)) : NULL;
  round->responses = json_object_new ();
  round->inputs = requests != NULL;

  /* Every wait is in place before the first is asked: some answer at
   * once (roots, or nobody to ask). */
  waits = g_ptr_array_new_with_free_func (g_free);
  if (requests != NULL)
    keys = json_object_get_members (json_node_get_object (requests));
  for (GList *l = keys; l != NULL; l = l->next)
    {
      round->outstanding++;
      g_ptr_array_add (waits, _tb_mcp_input_wait (self, l->data, round_answered, round,
                                                  round_release));
    }
  if (waits->len == 0)
    {
      retry (round);
      round_unref (round);
      return;
    }

  for (guint i = 0; i < waits->len; i++)
    _tb_mcp_input_ask (self, g_ptr_array_index (waits, i), json_node_get_object (requests));
}

/**
 * _tb_mcp_input_wait:
 * @self: a client
 * @key: the key of an input request in the server's `inputRequests`
 * @answered: called with the answer
 * @target: passed to @answered
 * @release: (nullable): lets go of @target once the answer is given or
 *   the connection is gone
 *
 * Makes room for the answer of one input request, before anyone is asked
 * (some answers come at once).
 *
 * Returns: (transfer full): the id to ask it under, with _tb_mcp_input_ask()
 */
char *
_tb_mcp_input_wait (TbMcpClient        *self,
                    const char         *key,
                    TbMcpInputAnswered  answered,
                    gpointer            target,
                    GDestroyNotify      release)
{
  Wait *wait = g_new0 (Wait, 1);
  char *id = g_strdup_printf ("tb-input-%" G_GUINT64_FORMAT, ++self->next_input);

  wait->key = g_strdup (key);
  wait->answered = answered;
  wait->target = target;
  wait->release = release;
  g_hash_table_insert (self->input_waits, g_strdup (id), wait);
  return id;
}

/**
 * _tb_mcp_input_ask:
 * @self: a client
 * @id: an id from _tb_mcp_input_wait()
 * @requests: the server's `inputRequests`
 *
 * Hands the input request of @id to the client's handling of server
 * requests: the same dialogs, signals and command-line answers as a
 * request the server sends itself. Does nothing when it was answered
 * already.
 */
void
_tb_mcp_input_ask (TbMcpClient *self,
                   const char  *id,
                   JsonObject  *requests)
{
  Wait *wait = g_hash_table_lookup (self->input_waits, id);
  JsonNode *request;
  const char *request_method = NULL;
  JsonNode *request_params = NULL;
  g_autoptr(JsonNode) id_node = NULL;

  if (wait == NULL)
    return;
  request = json_object_get_member (requests, wait->key);
  if (request != NULL && JSON_NODE_HOLDS_OBJECT (request))
    {
      request_method = tb_json_object_get_string (json_node_get_object (request), "method");
      request_params = json_object_get_member (json_node_get_object (request), "params");
    }
  id_node = json_node_init_string (json_node_alloc (), id);
  _tb_mcp_client_handle_server_request (self, request_method != NULL ? request_method : "",
                                        id_node, request_params);
}

/**
 * _tb_mcp_input_respond:
 * @self: a client
 * @id: the id of a server request being answered
 * @result: (nullable): the answer
 * @code: the error code, with @message
 * @message: (nullable): the error, or %NULL for a result
 *
 * Returns: whether @id was one of an input request, now answered
 */
gboolean
_tb_mcp_input_respond (TbMcpClient *self,
                       JsonNode    *id,
                       JsonNode    *result,
                       int          code,
                       const char  *message)
{
  const char *key;
  Wait *wait;

  if (id == NULL || !JSON_NODE_HOLDS_VALUE (id) || json_node_get_value_type (id) != G_TYPE_STRING)
    return FALSE;
  key = json_node_get_string (id);
  wait = g_hash_table_lookup (self->input_waits, key);
  if (wait == NULL)
    return FALSE;

  wait->answered (wait->target, wait->key, result, message, NULL);
  g_hash_table_remove (self->input_waits, key);
  return TRUE;
}

/**
 * _tb_mcp_input_fail_all:
 * @self: a client whose connection is gone
 * @error: why
 *
 * Every request waiting for input fails with @error.
 */
void
_tb_mcp_input_fail_all (TbMcpClient  *self,
                        const GError *error)
{
  g_autoptr(GHashTable) waits = g_steal_pointer (&self->input_waits);
  GHashTableIter iter;
  Wait *wait;

  self->input_waits = _tb_mcp_input_waits_new ();
  g_hash_table_iter_init (&iter, waits);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &wait))
    wait->answered (wait->target, wait->key, NULL, NULL, error);
}

GHashTable *
_tb_mcp_input_waits_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, wait_free);
}
