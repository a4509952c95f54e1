/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-scripted-provider"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json-private.h"
#include "tb-message-private.h"
#include "tb-provider-private.h"
#include "tb-replay-private.h"
#include "tb-scripted-provider.h"
#include "tb-trace-export.h"
#include "tb-trace-line-private.h"

/**
 * TbScriptedProvider:
 *
 * A provider that plays a script of responses instead of asking a model: one
 * response per request, in order, each with its text, tool calls, delay or
 * error. Tests, demos, the app without a key and replays use it; it records
 * its neutral request as the wire request, so traces look like any other.
 *
 * Plays canned model turns in order: offline demos, tests, the eval
 * harness, and (from a trace) replay. The script format is described in
 * docs/scripted-provider.md. Tool names in a script may be real names or
 * wire names; they are mapped like a real provider's.
 */
struct _TbScriptedProvider
{
  GObject    parent_instance;

  GPtrArray *entries;
  guint      n_forgotten;   /* entries played and dropped */
  guint      position;
  guint      turn;
  gboolean   repeat;
};

typedef struct
{
  TbMessage *message;
  char      *finish_reason;
  char      *error;
  guint      delay_ms;
  JsonNode  *usage;
  JsonNode  *wire;
  char      *wire_text;   /* made at its first use */
} Entry;

static void provider_iface_init (TbProviderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TbScriptedProvider, tb_scripted_provider, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (TB_TYPE_PROVIDER, provider_iface_init))

#define MAX_DELAY_MS 600000

static void
entry_free (gpointer data)
{
  Entry *entry = data;

  g_clear_object (&entry->message);
  g_free (entry->finish_reason);
  g_free (entry->error);
  g_clear_pointer (&entry->usage, json_node_unref);
  g_clear_pointer (&entry->wire, json_node_unref);
  g_free (entry->wire_text);
  g_free (entry);
}

/* ---- completing ----------------------------------------------------------- */

typedef struct
{
  TbProviderResponse *response;
  GError             *error;
  GSource            *timer;
  GSource            *cancel;
} Pending;

static void
pending_free (gpointer data)
{
  Pending *pending = data;

  g_clear_pointer (&pending->response, tb_provider_response_unref);
  g_clear_error (&pending->error);
  g_assert (pending->timer == NULL && pending->cancel == NULL);
  g_free (pending);
}

static void
deliver (GTask *task)
{
  Pending *pending = g_task_get_task_data (task);

  if (pending->error != NULL)
    g_task_return_error (task, g_steal_pointer (&pending->error));
  else
    g_task_return_pointer (task, g_steal_pointer (&pending->response),
                           (GDestroyNotify) tb_provider_response_unref);
}

static void
stop_sources (Pending *pending)
{
  if (pending->timer != NULL)
    g_source_destroy (pending->timer);
  g_clear_pointer (&pending->timer, g_source_unref);
  if (pending->cancel != NULL)
    g_source_destroy (pending->cancel);
  g_clear_pointer (&pending->cancel, g_source_unref);
}

static gboolean
delay_done_cb (gpointer user_data)
{
  g_autoptr(GTask) task = g_object_ref (user_data);

  stop_sources (g_task_get_task_data (task));
  deliver (task);
  return G_SOURCE_REMOVE;
}

static gboolean
delay_cancelled_cb (GCancellable *cancellable,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = g_object_ref (user_data);

  stop_sources (g_task_get_task_data (task));
  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                           _("The request was cancelled"));
  return G_SOURCE_REMOVE;
}

static TbMessage *
materialize (TbScriptedProvider *self,
             TbProviderRequest  *request,
             Entry              *entry)
{
  TbMessage *message = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT,
                                       tb_message_get_text (entry->message));

  tb_message_set_reasoning (message, tb_message_get_reasoning (entry->message));

  for (guint i = 0; i < tb_message_get_n_tool_calls (entry->message); i++)
    {
      TbToolCall *scripted = tb_message_get_tool_call (entry->message, i);
      g_autofree char *id = NULL;
      g_autoptr(TbToolCall) call = NULL;

      if (tb_tool_call_get_id (scripted) != NULL)
        id = g_strdup (tb_tool_call_get_id (scripted));
      else
        id = g_strdup_printf ("call_%u_%u", self->turn, i);

      call = _tb_provider_make_call (request->tools, id, tb_tool_call_get_name (scripted),
                                     tb_tool_call_get_parse_error (scripted) == NULL
                                     ? tb_tool_call_get_arguments (scripted) : NULL,
                                     tb_tool_call_get_raw_arguments (scripted));
      /* A name that maps to nothing stays what the script says. */
      if (g_strcmp0 (tb_tool_call_get_name (call), tb_tool_call_get_name (scripted)) == 0)
        tb_tool_call_set_wire_name (call, NULL);
      tb_message_add_tool_call (message, call);
    }

  return message;
}

/* The wire body of a scripted request: what the model would have been
 * shown this turn (the tool names and the messages since its last turn),
 * not the whole history again, so long scripted runs stay linear. Written
 * as text from its parts: it is made every turn. */
static char *
request_summary (TbProviderRequest *request)
{
  GString *text = g_string_sized_new (256);
  guint first = 0;
  guint n_messages = request->messages->len;

  g_string_append (text, "{\"tools\":[");
  if (request->tools != NULL)
    {
      g_auto(GStrv) names = tb_tool_registry_get_names (request->tools);

      for (guint i = 0; names[i] != NULL; i++)
        {
          if (i > 0)
            g_string_append_c (text, ',');
          _tb_trace_line_append_string (text, names[i]);
        }
    }

  for (guint i = n_messages; i > 0; i--)
    if (tb_message_get_role (g_ptr_array_index (request->messages, i - 1))
        == TB_MESSAGE_ROLE_ASSISTANT)
      {
        first = i;
        break;
      }
  /* Messages the loop no longer keeps still count (tb_provider_get_history()). */
  g_string_append_printf (text, "],\"message_count\":%u,\"new_messages\":[",
                          request->n_earlier_messages + n_messages);
  for (guint i = first; i < n_messages; i++)
    {
      if (i > first)
        g_string_append_c (text, ',');
      _tb_message_append_json (g_ptr_array_index (request->messages, i), text);
    }
  g_string_append_c (text, ']');
  if (request->tool_choice != NULL)
    {
      g_string_append (text, ",\"tool_choice\":");
      _tb_trace_line_append_string (text, request->tool_choice);
    }
  g_string_append_c (text, '}');
  return g_string_free (text, FALSE);
}

static void
tb_scripted_provider_complete_async (TbProvider          *provider,
                                     TbProviderRequest   *request,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  TbScriptedProvider *self = TB_SCRIPTED_PROVIDER (provider);
  g_autoptr(GTask) task = NULL;
  g_autofree char *sent_text = NULL;
  Pending *pending;
  Entry *entry = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_scripted_provider_complete_async);

  pending = g_new0 (Pending, 1);
  g_task_set_task_data (task, pending, pending_free);

  sent_text = request_summary (request);
  tb_provider_emit_wire_request (provider, "scripted:", sent_text);

  if (self->position >= self->entries->len && self->repeat && self->entries->len > 0)
    self->position = 0;

  if (self->position < self->entries->len)
    entry = g_ptr_array_index (self->entries, self->position++);
  self->turn++;

  if (entry == NULL)
    {
      pending->error = g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_SCRIPT,
                                    g_dngettext (GETTEXT_PACKAGE,
                                                 "The script has no response left: it holds %u "
                                                 "response and all of it was used.",
                                                 "The script has no response left: it holds %u "
                                                 "responses and all of them were used.",
                                                 self->n_forgotten + self->entries->len),
                                    self->n_forgotten + self->entries->len);
      tb_provider_emit_wire_response (provider, 0, "");
    }
  else
    {
      if (entry->wire_text == NULL)
        entry->wire_text = tb_json_to_string (entry->wire, FALSE);
      tb_provider_emit_wire_response (provider, entry->error != NULL ? 500 : 200,
                                      entry->wire_text);

      if (entry->error != NULL)
        {
          pending->error = g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_SERVER,
                                        _("The scripted provider failed as its script says: %s"),
                                        entry->error);
        }
      else
        {
          g_autoptr(TbMessage) message = materialize (self, request, entry);
          const char *reason = entry->finish_reason;

          if (reason == NULL)
            reason = tb_message_get_n_tool_calls (message) > 0 ? "tool_calls" : "stop";

          if (request->stream)
            {
              if (tb_message_get_text (message) != NULL)
                tb_provider_emit_text_delta (provider, tb_message_get_text (message));
              for (guint i = 0; i < tb_message_get_n_tool_calls (message); i++)
                {
                  TbToolCall *call = tb_message_get_tool_call (message, i);

                  tb_provider_emit_tool_call_delta (provider, i, tb_tool_call_get_id (call),
                                                    tb_tool_call_get_wire_name (call),
                                                    tb_tool_call_get_raw_arguments (call));
                }
            }

          if (_tb_provider_check_call_ids (message, &pending->error))
            pending->response = tb_provider_response_new (message, reason, entry->usage);
        }
    }

  if (entry != NULL && entry->delay_ms > 0)
    {
      pending->timer = g_timeout_source_new (entry->delay_ms);
      g_source_set_callback (pending->timer, delay_done_cb, g_object_ref (task), g_object_unref);
      g_source_set_static_name (pending->timer, "[tb] scripted delay");
      if (cancellable != NULL)
        {
          pending->cancel = g_cancellable_source_new (cancellable);
          g_source_set_callback (pending->cancel, G_SOURCE_FUNC (delay_cancelled_cb),
                                 g_object_ref (task), g_object_unref);
          g_source_attach (pending->cancel, g_task_get_context (task));
        }
      /* The sources hold the task until one of them fires. */
      g_source_attach (pending->timer, g_task_get_context (task));
      return;
    }

  deliver (task);
}

static TbProviderResponse *
tb_scripted_provider_complete_finish (TbProvider    *provider,
                                      GAsyncResult  *result,
                                      GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, provider), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static const char *
tb_scripted_provider_get_kind (TbProvider *provider)
{
  return "scripted";
}

static JsonObject *
tb_scripted_provider_describe (TbProvider *provider)
{
  TbScriptedProvider *self = TB_SCRIPTED_PROVIDER (provider);
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "kind", "scripted");
  json_object_set_int_member (object, "responses", self->entries->len);
  json_object_set_boolean_member (object, "repeat", self->repeat);
  return object;
}

/* A script plays its turns whatever was said before: it needs no history. */
static TbProviderHistory
tb_scripted_provider_get_history (TbProvider *provider)
{
  return TB_PROVIDER_HISTORY_LATEST_TURN;
}

static void
provider_iface_init (TbProviderInterface *iface)
{
  iface->get_history = tb_scripted_provider_get_history;
  iface->get_kind = tb_scripted_provider_get_kind;
  iface->describe = tb_scripted_provider_describe;
  iface->complete_async = tb_scripted_provider_complete_async;
  iface->complete_finish = tb_scripted_provider_complete_finish;
}

/* ---- the object ----------------------------------------------------------- */

/* Drops the responses already played, for a script fed a turn at a time
 * (a replay); a repeating script keeps them. */
void
_tb_scripted_provider_forget_played (TbScriptedProvider *self)
{
  g_return_if_fail (TB_IS_SCRIPTED_PROVIDER (self));

  if (self->repeat || self->position == 0)
    return;
  g_ptr_array_remove_range (self->entries, 0, self->position);
  self->n_forgotten += self->position;
  self->position = 0;
}

static void
tb_scripted_provider_finalize (GObject *object)
{
  TbScriptedProvider *self = (TbScriptedProvider *)object;

  g_clear_pointer (&self->entries, g_ptr_array_unref);

  G_OBJECT_CLASS (tb_scripted_provider_parent_class)->finalize (object);
}

static void
tb_scripted_provider_class_init (TbScriptedProviderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_scripted_provider_finalize;
}

static void
tb_scripted_provider_init (TbScriptedProvider *self)
{
  self->entries = g_ptr_array_new_with_free_func (entry_free);
}

/**
 * tb_scripted_provider_new:
 *
 * Makes a provider with an empty script; a request to it fails until
 * responses are appended.
 *
 * Returns: (transfer full): a provider with an empty script
 */
TbScriptedProvider *
tb_scripted_provider_new (void)
{
  return g_object_new (TB_TYPE_SCRIPTED_PROVIDER, NULL);
}

static gboolean
script_error (GError     **error,
              guint        index,
              const char  *reason)
{
  g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_SCRIPT,
               _("Response %u of the script is not valid: %s"), index + 1, reason);
  return FALSE;
}

/**
 * tb_scripted_provider_append_json:
 * @self: a provider
 * @entry: one response of a script: `{"text"?, "reasoning"?, "tool_calls"?,
 *   "finish_reason"?, "delay_ms"?, "error"?, "usage"?}` (usage: reported as the provider's,
 *   e.g. `{"input_tokens": 10, "output_tokens": 3}`)
 * @error: return location for a %TB_PROVIDER_ERROR_SCRIPT
 *
 * Adds one response to the end of the script, refusing one of the wrong
 * shape with a sentence that says which member is wrong.
 *
 * Returns: %TRUE when @entry was valid and appended
 */
gboolean
tb_scripted_provider_append_json (TbScriptedProvider  *self,
                                  JsonNode            *entry,
                                  GError             **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(TbMessage) message = NULL;
  JsonObject *object;
  JsonNode *calls;
  JsonNode *delay;
  Entry *parsed;

  g_return_val_if_fail (TB_IS_SCRIPTED_PROVIDER (self), FALSE);
  g_return_val_if_fail (entry != NULL, FALSE);

  if (!JSON_NODE_HOLDS_OBJECT (entry))
    return script_error (error, self->entries->len, _("a response must be a JSON object"));
  object = json_node_get_object (entry);

  message = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, tb_json_object_get_string (object, "text"));
  if (json_object_has_member (object, "reasoning")
      && tb_json_object_get_string (object, "reasoning") == NULL)
    return script_error (error, self->entries->len, _("“reasoning” must be a string"));
  tb_message_set_reasoning (message, tb_json_object_get_string (object, "reasoning"));

  calls = json_object_get_member (object, "tool_calls");
  if (calls != NULL && !JSON_NODE_HOLDS_NULL (calls))
    {
      JsonArray *array;

      if (!JSON_NODE_HOLDS_ARRAY (calls))
        return script_error (error, self->entries->len, _("“tool_calls” must be an array"));
      array = json_node_get_array (calls);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          g_autoptr(TbToolCall) call =
            tb_tool_call_from_json (json_array_get_element (array, i), &local_error);

          if (call == NULL)
            return script_error (error, self->entries->len, local_error->message);
          tb_message_add_tool_call (message, call);
        }
    }

  delay = json_object_get_member (object, "delay_ms");
  if (delay != NULL && (!JSON_NODE_HOLDS_VALUE (delay) ||
                        json_node_get_value_type (delay) != G_TYPE_INT64 ||
                        json_node_get_int (delay) < 0 ||
                        json_node_get_int (delay) > MAX_DELAY_MS))
    return script_error (error, self->entries->len,
                         _("“delay_ms” must be a whole number from 0 to 600000"));

  if (json_object_has_member (object, "error") && tb_json_object_get_string (object, "error") == NULL)
    return script_error (error, self->entries->len, _("“error” must be a string"));

  if (json_object_has_member (object, "usage") && tb_json_object_get_object (object, "usage") == NULL)
    return script_error (error, self->entries->len, _("“usage” must be an object"));

  parsed = g_new0 (Entry, 1);
  if (json_object_has_member (object, "usage"))
    parsed->usage = json_node_copy (json_object_get_member (object, "usage"));
  parsed->message = g_steal_pointer (&message);
  parsed->finish_reason = g_strdup (tb_json_object_get_string (object, "finish_reason"));
  parsed->error = g_strdup (tb_json_object_get_string (object, "error"));
  parsed->delay_ms = delay != NULL ? (guint) json_node_get_int (delay) : 0;
  parsed->wire = json_node_copy (entry);
  g_ptr_array_add (self->entries, parsed);
  return TRUE;
}

/**
 * tb_scripted_provider_append_response:
 * @self: a provider
 * @message: an assistant message, e.g. one recorded in a trace
 * @finish_reason: (nullable): the reason to report
 *
 * Adds a response that answers @message, as a replay does with the turns of
 * a trace.
 */
void
tb_scripted_provider_append_response (TbScriptedProvider *self,
                                      TbMessage          *message,
                                      const char         *finish_reason)
{
  Entry *entry;

  g_return_if_fail (TB_IS_SCRIPTED_PROVIDER (self));
  g_return_if_fail (TB_IS_MESSAGE (message));

  entry = g_new0 (Entry, 1);
  entry->message = g_object_ref (message);
  entry->finish_reason = g_strdup (finish_reason);
  entry->wire = tb_message_to_json (message);
  g_ptr_array_add (self->entries, entry);
}

/**
 * tb_scripted_provider_append_error:
 * @self: a provider
 * @message: what the failure says
 *
 * Appends a turn at which the provider fails.
 */
void
tb_scripted_provider_append_error (TbScriptedProvider *self,
                                   const char         *message)
{
  JsonObject *object = json_object_new ();
  Entry *entry;

  g_return_if_fail (TB_IS_SCRIPTED_PROVIDER (self));
  g_return_if_fail (message != NULL);

  entry = g_new0 (Entry, 1);
  entry->message = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, NULL);
  entry->error = g_strdup (message);
  json_object_set_string_member (object, "error", message);
  entry->wire = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (entry->wire, object);
  g_ptr_array_add (self->entries, entry);
}

static gboolean
is_conversation (JsonNode *script)
{
  JsonArray *array = NULL;
  JsonNode *first;

  if (JSON_NODE_HOLDS_ARRAY (script))
    array = json_node_get_array (script);
  else if (JSON_NODE_HOLDS_OBJECT (script) &&
           !json_object_has_member (json_node_get_object (script), "responses"))
    array = tb_json_object_get_array (json_node_get_object (script), "messages");

  if (array == NULL || json_array_get_length (array) == 0)
    return FALSE;
  first = json_array_get_element (array, 0);
  return JSON_NODE_HOLDS_OBJECT (first) &&
         json_object_has_member (json_node_get_object (first), "role");
}

/**
 * tb_scripted_provider_new_from_json:
 * @script: `{"format": "toolbench-script", "version": 1, "repeat"?: bool,
 *   "responses": […]}`, or just the array of responses
 * @error: return location for a %TB_PROVIDER_ERROR_SCRIPT
 *
 * Makes a provider that plays a script, or the assistant turns of a pasted
 * conversation (an array of messages with roles).
 *
 * Returns: (transfer full) (nullable): the provider
 */
TbScriptedProvider *
tb_scripted_provider_new_from_json (JsonNode  *script,
                                    GError   **error)
{
  g_autoptr(TbScriptedProvider) self = tb_scripted_provider_new ();
  JsonArray *responses = NULL;

  g_return_val_if_fail (script != NULL, NULL);

  /* A pasted conversation (elements with a "role", or an exported
   * {"messages": […]}) plays its assistant turns. */
  if (is_conversation (script))
    {
      g_autoptr(JsonNode) converted = NULL;
      g_autoptr(GError) local_error = NULL;

      converted = tb_script_from_messages (script, &local_error);
      if (converted == NULL)
        {
          g_set_error_literal (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_SCRIPT,
                               local_error->message);
          return NULL;
        }
      return tb_scripted_provider_new_from_json (converted, error);
    }

  if (JSON_NODE_HOLDS_ARRAY (script))
    {
      responses = json_node_get_array (script);
    }
  else if (JSON_NODE_HOLDS_OBJECT (script))
    {
      JsonObject *object = json_node_get_object (script);
      const char *format = tb_json_object_get_string (object, "format");
      JsonNode *version = json_object_get_member (object, "version");

      if (format != NULL && !g_str_equal (format, "toolbench-script"))
        {
          g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_SCRIPT,
                       _("This is a “%s” file, not a Toolbench script"), format);
          return NULL;
        }
      if (version != NULL && (!JSON_NODE_HOLDS_VALUE (version) ||
                              json_node_get_value_type (version) != G_TYPE_INT64 ||
                              json_node_get_int (version) != 1))
        {
          g_set_error_literal (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_SCRIPT,
                               _("This script is of a version this Toolbench cannot read "
                                 "(it reads version 1)"));
          return NULL;
        }
      responses = tb_json_object_get_array (object, "responses");
      self->repeat = tb_json_object_get_boolean (object, "repeat", FALSE);
    }

  if (responses == NULL)
    {
      g_set_error_literal (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_SCRIPT,
                           _("A script is a JSON object with a “responses” array"));
      return NULL;
    }

  for (guint i = 0; i < json_array_get_length (responses); i++)
    if (!tb_scripted_provider_append_json (self, json_array_get_element (responses, i), error))
      return NULL;

  return g_steal_pointer (&self);
}

/**
 * tb_scripted_provider_new_from_file:
 * @path: a script file, JSON
 * @error: return location for a #GFileError or a %TB_PROVIDER_ERROR_SCRIPT error
 *
 * Makes a provider that plays the script in a file, as the CLI's `--script`
 * does.
 *
 * Returns: (transfer full) (nullable): the provider, or %NULL with @error
 */
TbScriptedProvider *
tb_scripted_provider_new_from_file (const char  *path,
                                    GError     **error)
{
  g_autoptr(JsonNode) node = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  node = _tb_json_parse_file_in (path, TB_JSON_MAX_SIZE, TB_PROVIDER_ERROR,
                                 TB_PROVIDER_ERROR_SCRIPT,
                                 /* Translators: a file, then what the parser said */
                                 _("The script “%s” is not JSON: %s"), error);
  if (node == NULL)
    return NULL;
  return tb_scripted_provider_new_from_json (node, error);
}

/**
 * tb_scripted_provider_new_from_resource:
 * @resource_path: a path in the program's #GResource
 * @error: return location for an error
 *
 * Makes a provider that plays a script compiled into the program.
 *
 * Returns: (transfer full) (nullable): the provider, or %NULL with @error
 */
TbScriptedProvider *
tb_scripted_provider_new_from_resource (const char  *resource_path,
                                        GError     **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonNode) node = NULL;
  gsize length;
  const char *data;

  g_return_val_if_fail (resource_path != NULL, NULL);

  bytes = g_resources_lookup_data (resource_path, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  if (bytes == NULL)
    return NULL;
  data = g_bytes_get_data (bytes, &length);
  node = tb_json_parse (data, length, error);
  if (node == NULL)
    return NULL;
  return tb_scripted_provider_new_from_json (node, error);
}

/**
 * tb_scripted_provider_new_demo:
 *
 * The provider the app and the CLI use with no key: it plays
 * %TB_SCRIPTED_PROVIDER_DEMO_RESOURCE.
 *
 * Returns: (transfer full): the provider
 */
TbScriptedProvider *
tb_scripted_provider_new_demo (void)
{
  g_autoptr(GError) error = NULL;
  TbScriptedProvider *self;

  self = tb_scripted_provider_new_from_resource (TB_SCRIPTED_PROVIDER_DEMO_RESOURCE, &error);
  /* The resource is compiled in; failing to read it is a build error. */
  g_assert_no_error (error);
  return self;
}

/**
 * tb_scripted_provider_get_n_responses:
 * @self: a provider
 *
 * Counts the responses in the script.
 *
 * Returns: the number of responses
 */
guint
tb_scripted_provider_get_n_responses (TbScriptedProvider *self)
{
  g_return_val_if_fail (TB_IS_SCRIPTED_PROVIDER (self), 0);
  return self->entries->len;
}

/**
 * tb_scripted_provider_get_position:
 * @self: a provider
 *
 * Tells how far the script has played.
 *
 * Returns: how many responses were played (modulo the script's length when
 *   it repeats)
 */
guint
tb_scripted_provider_get_position (TbScriptedProvider *self)
{
  g_return_val_if_fail (TB_IS_SCRIPTED_PROVIDER (self), 0);
  return self->position;
}

/**
 * tb_scripted_provider_get_repeat:
 * @self: a provider
 *
 * Tells whether the script starts over when it is used up.
 *
 * Returns: %TRUE when the script repeats
 */
gboolean
tb_scripted_provider_get_repeat (TbScriptedProvider *self)
{
  g_return_val_if_fail (TB_IS_SCRIPTED_PROVIDER (self), FALSE);
  return self->repeat;
}

/**
 * tb_scripted_provider_set_repeat:
 * @self: a provider
 * @repeat: whether to start over
 *
 * With @repeat, the script starts over when it is used up instead of
 * failing (benchmarks, endless demos; the loop's cap still bounds a run).
 */
void
tb_scripted_provider_set_repeat (TbScriptedProvider *self,
                                 gboolean            repeat)
{
  g_return_if_fail (TB_IS_SCRIPTED_PROVIDER (self));
  self->repeat = !!repeat;
}
