/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-dispatch-loop"

#include "config.h"

#include "tb-dispatch-loop-private.h"
#include "tb-message-private.h"
#include "tb-trace-context-private.h"
#include "tb-trace-line-private.h"

/* What a loop records: the trace's header, the events of a run, the
 * messages of the conversation as they are added, and how the run ended. */

JsonObject *
_tb_dispatch_loop_event_new (TbDispatchLoop *self)
{
  JsonObject *object = json_object_new ();

  json_object_set_int_member (object, "iteration", self->iteration);
  return object;
}

void
_tb_dispatch_loop_record (TbDispatchLoop *self,
                          const char     *type,
                          JsonObject     *payload)
{
  tb_trace_append (self->trace, type, payload);
  json_object_unref (payload);
}

/* The events of every iteration are written as text from their fields
 * (tb-trace-line.c), without a tree; the rare ones are built as trees. */
GString *
_tb_dispatch_loop_line_new (TbDispatchLoop *self)
{
  return _tb_trace_line_new (self->iteration);
}

void
_tb_dispatch_loop_record_line (TbDispatchLoop *self,
                               const char     *type,
                               GString        *line)
{
  _tb_trace_line_append_to (line, self->trace, type);
}

static void
record_message (TbDispatchLoop *self,
                TbMessage      *message,
                const char     *origin)
{
  GString *line = _tb_dispatch_loop_line_new (self);

  _tb_trace_line_add_string (line, "origin", origin);
  _tb_trace_line_add_name (line, "message");
  _tb_message_append_json (message, line);
  _tb_dispatch_loop_record_line (self, "message", line);
}

/* How many messages the conversation holds, those left out of requests too. */
guint
_tb_dispatch_loop_conversation_length (TbDispatchLoop *self)
{
  return self->n_earlier + self->history->len;
}

void
_tb_dispatch_loop_append_message (TbDispatchLoop *self,
                                  TbMessage      *message,
                                  const char     *origin)
{
  /* Listeners see the message before its event, as they always did: the
   * event after the turn's request and response. */
  _tb_loop_messages_append (self->messages, message, tb_trace_get_n_events (self->trace));
  record_message (self, message, origin);

  /* A provider that needs only the latest turn gets the model's last
   * turn and what came after it; the rest is in the trace. A new array:
   * a request on its way may still hold the old one. */
  if (self->provider != NULL &&
      tb_message_get_role (message) == TB_MESSAGE_ROLE_ASSISTANT &&
      tb_provider_get_history (self->provider) == TB_PROVIDER_HISTORY_LATEST_TURN)
    {
      self->n_earlier += self->history->len;
      g_ptr_array_unref (self->history);
      self->history = g_ptr_array_new_with_free_func (g_object_unref);
    }
  g_ptr_array_add (self->history, g_object_ref (message));
}

void
_tb_dispatch_loop_ensure_header (TbDispatchLoop *self)
{
  JsonObject *header = tb_trace_get_header (self->trace);

  if (json_object_has_member (header, "provider"))
    return;

  {
    g_autoptr(TbToolRegistry) tools = tb_tool_registry_get_model_tools (self->registry);
    JsonObject *provider = tb_provider_describe (self->provider);
    g_autofree char *trace_id = _tb_trace_context_new_trace_id ();

    json_object_set_string_member (header, "format", "toolbench-trace");
    json_object_set_int_member (header, "version", 1);
    json_object_set_member (header, "tools",
                            tb_tool_registry_to_definitions (tools, TB_DEFINITION_FORMAT_NATIVE));
    json_object_set_object_member (header, "provider", provider);
    json_object_set_int_member (header, "max_iterations", self->max_iterations);
    json_object_set_string_member (header, "approval_policy",
                                   tb_approval_policy_to_string (self->policy));
    json_object_set_string_member (header, "trace_id", trace_id);
  }
}

/* Moves to an end state and records why. */
void
_tb_dispatch_loop_end (TbDispatchLoop *self,
                       TbLoopState     state,
                       const char     *reason)
{
  JsonObject *payload;

  g_assert (tb_loop_state_is_end (state));

  /* A phase abandoned for tb_dispatch_loop_fail() ends as failed. */
  if (state == TB_LOOP_STATE_CANCELLED && self->failure != NULL)
    {
      _tb_dispatch_loop_end_with_error (self, g_steal_pointer (&self->failure));
      return;
    }

  payload = _tb_dispatch_loop_event_new (self);

  json_object_set_string_member (payload, "state", tb_loop_state_to_string (state));
  json_object_set_int_member (payload, "max_iterations", self->max_iterations);
  if (reason != NULL)
    json_object_set_string_member (payload, "reason", reason);
  if (state == TB_LOOP_STATE_FAILED && self->error != NULL)
    json_object_set_string_member (payload, "error", self->error->message);
  _tb_dispatch_loop_record (self, "end", payload);

  g_list_store_remove_all (self->pending);
  _tb_dispatch_loop_set_state (self, state);
}

/* Records @error, which it takes, and ends the loop as failed. */
void
_tb_dispatch_loop_end_with_error (TbDispatchLoop *self,
                                  GError         *error)
{
  JsonObject *payload = _tb_dispatch_loop_event_new (self);

  g_clear_error (&self->error);
  self->error = error;

  json_object_set_string_member (payload, "message", error->message);
  json_object_set_string_member (payload, "domain", g_quark_to_string (error->domain));
  json_object_set_int_member (payload, "code", error->code);
  _tb_dispatch_loop_record (self, "error", payload);
  _tb_dispatch_loop_end (self, TB_LOOP_STATE_FAILED, NULL);
}

void
_tb_dispatch_loop_warn (TbDispatchLoop *self,
                        const char     *message)
{
  JsonObject *payload = _tb_dispatch_loop_event_new (self);

  json_object_set_string_member (payload, "message", message);
  _tb_dispatch_loop_record (self, "warning", payload);
  g_signal_emit (self, _tb_dispatch_loop_signals [WARNING], 0, message);
}

static void
wire_request_cb (TbProvider     *provider,
                 const char     *url,
                 const char     *body,
                 TbDispatchLoop *self)
{
  GString *line;

  if (!self->awaiting)
    return;

  line = _tb_dispatch_loop_line_new (self);
  _tb_trace_line_add_string (line, "provider", tb_provider_get_kind (provider));
  _tb_trace_line_add_string (line, "url", url);
  _tb_trace_line_add_string (line, "body", body);
  _tb_dispatch_loop_record_line (self, "request", line);
}

static void
wire_response_cb (TbProvider     *provider,
                  guint           status,
                  const char     *body,
                  TbDispatchLoop *self)
{
  GString *line;

  if (!self->awaiting)
    return;

  line = _tb_dispatch_loop_line_new (self);
  _tb_trace_line_add_int (line, "status", status);
  _tb_trace_line_add_string (line, "body", body);
  _tb_dispatch_loop_record_line (self, "response", line);
}

/* The MCP messages of the run's tool calls, and those that come while its
 * tools run (a list change, a log line); not what a person does with the
 * same servers between steps. */
static void
mcp_message_cb (TbMcpWireRecord *message,
                gpointer         user_data)
{
  TbDispatchLoop *self = user_data;
  const char *call_id = tb_mcp_wire_record_get_call_id (message);
  JsonObject *payload;

  if (tb_loop_state_is_end (self->state))
    return;
  if (call_id != NULL ? !g_hash_table_contains (self->call_ids, call_id)
                      : self->state != TB_LOOP_STATE_RUNNING_TOOLS)
    return;

  payload = _tb_dispatch_loop_event_new (self);
  _tb_loop_mcp_payload (message, payload);
  _tb_dispatch_loop_record (self, "mcp-message", payload);
}

/* From construction on: the provider's wire requests and responses while
 * the loop waits for it, and the MCP messages of the run's tools. */
void
_tb_dispatch_loop_watch (TbDispatchLoop *self)
{
  if (self->provider != NULL)
    {
      self->wire_request_id = g_signal_connect (self->provider, "wire-request",
                                                G_CALLBACK (wire_request_cb), self);
      self->wire_response_id = g_signal_connect (self->provider, "wire-response",
                                                 G_CALLBACK (wire_response_cb), self);
    }

  self->mcp = _tb_loop_mcp_new (self->registry, mcp_message_cb, self);
}

void
_tb_dispatch_loop_unwatch (TbDispatchLoop *self)
{
  if (self->provider != NULL)
    {
      g_clear_signal_handler (&self->wire_request_id, self->provider);
      g_clear_signal_handler (&self->wire_response_id, self->provider);
    }
  g_clear_pointer (&self->mcp, _tb_loop_mcp_free);
}
