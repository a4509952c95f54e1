/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-provider"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-provider.h"
#include "tb-provider-private.h"

/**
 * tb_provider_error_quark:
 *
 * The error domain of #TbProviderError.
 *
 * Returns: the quark of %TB_PROVIDER_ERROR
 */
G_DEFINE_QUARK (tb-provider-error-quark, tb_provider_error)

/* ---- the interface -------------------------------------------------------- */

/**
 * TbProvider:
 *
 * A model that answers a conversation: it sends a #TbProviderRequest and
 * answers a #TbProviderResponse with the assistant's turn. The HTTP
 * providers (#TbHttpProvider and its subclasses) speak the wire formats of
 * model servers; #TbScriptedProvider plays a script. The dispatch loop only
 * sees this interface.
 */
G_DEFINE_INTERFACE (TbProvider, tb_provider, G_TYPE_OBJECT)

enum { WIRE_REQUEST, WIRE_RESPONSE, TEXT_DELTA, TOOL_CALL_DELTA, N_SIGNALS };

static guint signals [N_SIGNALS];

static GQuark last_request_quark;
static GQuark last_response_quark;

static void
tb_provider_default_init (TbProviderInterface *iface)
{
  last_request_quark = g_quark_from_static_string ("tb-provider-last-request");
  last_response_quark = g_quark_from_static_string ("tb-provider-last-response");

  /**
   * TbProvider::wire-request:
   * @self: the provider
   * @url: where the request goes (never with a key in it)
   * @body: the exact body sent
   *
   * Emitted for every HTTP request a provider sends, retries included, with
   * its body as sent (keys masked), before it is sent; the trace records it
   * as a `request` event and the app's wire view shows it.
   */
  signals [WIRE_REQUEST] =
    g_signal_new ("wire-request", G_TYPE_FROM_INTERFACE (iface), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * TbProvider::wire-response:
   * @self: the provider
   * @status: the HTTP status, 0 when none arrived
   * @body: the exact body received (the raw event stream when streaming)
   *
   * Emitted for every HTTP response a provider receives, or when none came,
   * with its body as received (keys masked).
   */
  signals [WIRE_RESPONSE] =
    g_signal_new ("wire-response", G_TYPE_FROM_INTERFACE (iface), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_STRING);

  /**
   * TbProvider::text-delta:
   * @self: the provider
   * @text: the next piece of the assistant's text
   *
   * Emitted while a streamed answer arrives, for each new piece of the text.
   */
  signals [TEXT_DELTA] =
    g_signal_new ("text-delta", G_TYPE_FROM_INTERFACE (iface), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * TbProvider::tool-call-delta:
   * @self: the provider
   * @index: the position of the call in the turn
   * @id: (nullable): the call id, in the first piece only
   * @name: (nullable): the wire name, in the first piece only
   * @arguments: (nullable): the next piece of the argument text
   *
   * Emitted while a streamed answer arrives, for each new piece of a tool
   * call: its id and name first, then its arguments as the model writes them.
   */
  signals [TOOL_CALL_DELTA] =
    g_signal_new ("tool-call-delta", G_TYPE_FROM_INTERFACE (iface), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 4,
                  G_TYPE_UINT, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);
}

/**
 * tb_provider_get_kind:
 * @self: a provider
 *
 * Names the provider's wire format, as the CLI's `--provider` and traces
 * name it.
 *
 * Returns: the kind, such as "openai" or "scripted"
 */
const char *
tb_provider_get_kind (TbProvider *self)
{
  g_return_val_if_fail (TB_IS_PROVIDER (self), NULL);
  return TB_PROVIDER_GET_IFACE (self)->get_kind (self);
}

/**
 * tb_provider_describe:
 * @self: a provider
 *
 * Describes the provider's settings for the header of a trace and for
 * reports, so that a run can be told apart from another.
 *
 * Returns: (transfer full): settings for a trace header (kind, base URL,
 *   model, …); never a key
 */
JsonObject *
tb_provider_describe (TbProvider *self)
{
  TbProviderInterface *iface;
  JsonObject *object;

  g_return_val_if_fail (TB_IS_PROVIDER (self), NULL);

  iface = TB_PROVIDER_GET_IFACE (self);
  object = iface->describe != NULL ? iface->describe (self) : json_object_new ();
  if (!json_object_has_member (object, "kind"))
    json_object_set_string_member (object, "kind", tb_provider_get_kind (self));
  return object;
}

/**
 * tb_provider_get_history:
 * @self: a provider
 *
 * How much of the conversation @self needs in a request. A loop keeps
 * only that much in memory for its requests, so that a long run with a
 * provider that needs only the latest turn needs the same memory as a
 * short one.
 *
 * Returns: %TB_PROVIDER_HISTORY_WHOLE unless the provider says otherwise
 */
TbProviderHistory
tb_provider_get_history (TbProvider *self)
{
  TbProviderInterface *iface;

  g_return_val_if_fail (TB_IS_PROVIDER (self), TB_PROVIDER_HISTORY_WHOLE);

  iface = TB_PROVIDER_GET_IFACE (self);
  return iface->get_history != NULL ? iface->get_history (self) : TB_PROVIDER_HISTORY_WHOLE;
}

/**
 * tb_provider_complete_async:
 * @self: a provider
 * @request: what to send
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the response
 * @user_data: data for @callback
 *
 * Sends a request to the model and waits for its whole answer, streamed or
 * not; finish with tb_provider_complete_finish(). HTTP providers retry what
 * can be retried and give up after their limits.
 */
void
tb_provider_complete_async (TbProvider          *self,
                            TbProviderRequest   *request,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_return_if_fail (TB_IS_PROVIDER (self));
  g_return_if_fail (request != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  TB_PROVIDER_GET_IFACE (self)->complete_async (self, request, cancellable, callback, user_data);
}

/**
 * tb_provider_complete_finish:
 * @self: a provider
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a %TB_PROVIDER_ERROR, or %G_IO_ERROR_CANCELLED
 *
 * Ends tb_provider_complete_async().
 *
 * Returns: (transfer full): the response, or %NULL with @error set
 */
TbProviderResponse *
tb_provider_complete_finish (TbProvider    *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (TB_IS_PROVIDER (self), NULL);
  return TB_PROVIDER_GET_IFACE (self)->complete_finish (self, result, error);
}

/**
 * tb_provider_get_last_request_body:
 * @self: a provider
 *
 * Gives the body of the last request, as #TbProvider::wire-request gave it.
 *
 * Returns: (nullable): the exact body of the last request sent, for the wire view
 */
const char *
tb_provider_get_last_request_body (TbProvider *self)
{
  g_return_val_if_fail (TB_IS_PROVIDER (self), NULL);
  return g_object_get_qdata (G_OBJECT (self), last_request_quark);
}

/**
 * tb_provider_get_last_response_body:
 * @self: a provider
 *
 * Gives the body of the last response, as #TbProvider::wire-response gave it.
 *
 * Returns: (nullable): the exact body of the last response received
 */
const char *
tb_provider_get_last_response_body (TbProvider *self)
{
  g_return_val_if_fail (TB_IS_PROVIDER (self), NULL);
  return g_object_get_qdata (G_OBJECT (self), last_response_quark);
}

/* For implementations: records the body and tells observers. */
/**
 * tb_provider_emit_wire_request:
 * @self: a provider
 * @url: where the request goes, with any key in it masked
 * @body: the body sent, with keys masked
 *
 * For implementations: keeps @body for tb_provider_get_last_request_body()
 * and emits #TbProvider::wire-request.
 */
void
tb_provider_emit_wire_request (TbProvider *self,
                               const char *url,
                               const char *body)
{
  g_return_if_fail (TB_IS_PROVIDER (self));

  g_object_set_qdata_full (G_OBJECT (self), last_request_quark, g_strdup (body), g_free);
  g_object_set_qdata_full (G_OBJECT (self), last_response_quark, NULL, NULL);
  g_signal_emit (self, signals [WIRE_REQUEST], 0, url, body);
}

/**
 * tb_provider_emit_wire_response:
 * @self: a provider
 * @status: the HTTP status, 0 when no response came
 * @body: (nullable): the body received, with keys masked
 *
 * For implementations: keeps @body for tb_provider_get_last_response_body()
 * and emits #TbProvider::wire-response.
 */
void
tb_provider_emit_wire_response (TbProvider *self,
                                guint       status,
                                const char *body)
{
  g_return_if_fail (TB_IS_PROVIDER (self));

  g_object_set_qdata_full (G_OBJECT (self), last_response_quark, g_strdup (body), g_free);
  g_signal_emit (self, signals [WIRE_RESPONSE], 0, status, body);
}

/**
 * tb_provider_emit_text_delta:
 * @self: a provider
 * @text: the next piece of the assistant's text
 *
 * For implementations: emits #TbProvider::text-delta.
 */
void
tb_provider_emit_text_delta (TbProvider *self,
                             const char *text)
{
  g_return_if_fail (TB_IS_PROVIDER (self));
  g_signal_emit (self, signals [TEXT_DELTA], 0, text);
}

/**
 * tb_provider_emit_tool_call_delta:
 * @self: a provider
 * @index: the position of the call in the turn
 * @id: (nullable): the call id, in the first piece only
 * @name: (nullable): the wire name, in the first piece only
 * @arguments: (nullable): the next piece of the argument text
 *
 * For implementations: emits #TbProvider::tool-call-delta.
 */
void
tb_provider_emit_tool_call_delta (TbProvider *self,
                                  guint       index,
                                  const char *id,
                                  const char *name,
                                  const char *arguments)
{
  g_return_if_fail (TB_IS_PROVIDER (self));
  g_signal_emit (self, signals [TOOL_CALL_DELTA], 0, index, id, name, arguments);
}

/* ---- helpers shared by the wire formats ----------------------------------- */

static gboolean
is_wire_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '-';
}

/* The name to put on the wire for a call already in the conversation: the
 * one the model used, exactly; for a call made on this side, the
 * registry's mapping, else the name made acceptable character by character
 * (a call to an unknown tool typed by a person must not make the provider
 * refuse the whole history). */
char *
_tb_provider_wire_name_for_call_for (TbToolRegistry     *tools,
                                     TbDefinitionFormat  format,
                                     TbToolCall         *call)
{
  const char *received = tb_tool_call_get_received_name (call);
  const char *name = tb_tool_call_get_name (call);
  GString *safe;
  char *mapped;

  /* What the model said it called is echoed as it said it, whatever the
   * registry made of it: a rewritten name is another call to the model. */
  if (received != NULL)
    return g_strdup (received);
  /* A call made on this side (a script, a fork) of a tool the model was
   * offered goes by the name the offer used. */
  if (tools != NULL && (mapped = tb_tool_registry_to_wire_name_for (tools, format, name)) != NULL)
    return mapped;

  safe = g_string_new (NULL);
  for (const char *p = name; *p != '\0' && safe->len < 64; p++)
    g_string_append_c (safe, is_wire_char (*p) ? *p : '_');
  if (safe->len == 0)
    g_string_append (safe, "unnamed");
  return g_string_free (safe, FALSE);
}

/* Builds a call from what the model sent, mapping the wire name back. A
 * name that maps to no offered tool is kept as sent: the loop then answers
 * with a not-registered error. */
TbToolCall *
_tb_provider_make_call_for (TbToolRegistry     *tools,
                            TbDefinitionFormat  format,
                            const char         *id,
                            const char         *wire_name,
                            JsonNode           *arguments,
                            const char         *raw_arguments)
{
  g_autofree char *real = NULL;
  TbToolCall *call;

  if (tools != NULL && wire_name != NULL)
    real = tb_tool_registry_from_wire_name_for (tools, format, wire_name);

  if (arguments != NULL)
    call = tb_tool_call_new (id, real != NULL ? real : wire_name, arguments);
  else
    call = tb_tool_call_new_raw (id, real != NULL ? real : wire_name, raw_arguments);

  tb_tool_call_set_wire_name (call, wire_name);

  return call;
}




JsonObject *
_tb_json_array_get_object (JsonArray *array,
                           guint      index)
{
  JsonNode *node;

  if (array == NULL || index >= json_array_get_length (array))
    return NULL;
  node = json_array_get_element (array, index);
  if (JSON_NODE_HOLDS_OBJECT (node))
    return json_node_get_object (node);
  return NULL;
}

/* Fails when two calls of one turn share an id: their results could not
 * be told apart, and every provider refuses such a history. */
gboolean
_tb_provider_check_call_ids (TbMessage  *message,
                             GError    **error)
{
  guint n = tb_message_get_n_tool_calls (message);

  for (guint i = 0; i < n; i++)
    for (guint j = i + 1; j < n; j++)
      {
        const char *a = tb_tool_call_get_id (tb_message_get_tool_call (message, i));
        const char *b = tb_tool_call_get_id (tb_message_get_tool_call (message, j));

        if (a != NULL && g_strcmp0 (a, b) == 0)
          {
            g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                         _("The model gave two tool calls the same id “%s”; their results "
                           "could not be told apart, so the conversation cannot go on"), a);
            return FALSE;
          }
      }
  return TRUE;
}

/* The same for the formats that share the strict naming rule (all but
 * Gemini's). */
char *
_tb_provider_wire_name_for_call (TbToolRegistry *tools,
                                 TbToolCall     *call)
{
  return _tb_provider_wire_name_for_call_for (tools, TB_DEFINITION_FORMAT_OPENAI, call);
}

TbToolCall *
_tb_provider_make_call (TbToolRegistry *tools,
                        const char     *id,
                        const char     *wire_name,
                        JsonNode       *arguments,
                        const char     *raw_arguments)
{
  return _tb_provider_make_call_for (tools, TB_DEFINITION_FORMAT_OPENAI, id, wire_name, arguments,
                                     raw_arguments);
}
