/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <libsoup/soup.h>

#include "tb-provider.h"
#include "tb-redact.h"

G_BEGIN_DECLS

/**
 * TB_HTTP_PROVIDER_DEFAULT_MAX_RESPONSE_SIZE:
 *
 * The largest response body accepted by default: 8 MiB. A model's turn is
 * a few kilobytes; anything near this is a misconfigured server, and
 * refusing it keeps memory bounded.
 */
#define TB_HTTP_PROVIDER_DEFAULT_MAX_RESPONSE_SIZE (8 * 1024 * 1024)

/**
 * TbStreamFraming:
 * @TB_STREAM_FRAMING_SSE: server-sent events (`text/event-stream`): `data:`
 *   lines joined into one event, `event:` names it, comments ignored
 * @TB_STREAM_FRAMING_NDJSON: one JSON value a line (`application/x-ndjson`),
 *   as Ollama streams: each non-blank line is one event named "message"
 *
 * How a wire format cuts its streamed response into events.
 */
typedef enum
{
  TB_STREAM_FRAMING_SSE,
  TB_STREAM_FRAMING_NDJSON,
} TbStreamFraming;

#define TB_TYPE_HTTP_PROVIDER (tb_http_provider_get_type())

G_DECLARE_DERIVABLE_TYPE (TbHttpProvider, tb_http_provider, TB, HTTP_PROVIDER, GObject)

/**
 * TbHttpProviderClass:
 * @kind: the wire format's word, as tb_provider_get_kind() returns it
 * @build_message: makes the HTTP request for @request: URL, headers (the
 *   key goes only into a header) and the exact JSON body in @body
 * @parse_response: reads a whole (non-streamed) JSON response body
 * @stream_new: state for reading one event stream
 * @stream_free: frees that state
 * @stream_event: handles one server-sent event
 * @stream_finish: the response once the stream ended; fails when the
 *   stream stopped before its documented end
 * @stream_done: (nullable): whether the events so far end the turn (the
 *   format's last event arrived); reading stops there, even when the
 *   server keeps the connection open
 * @add_headers: (nullable): puts the key (and any header the format
 *   requires) on every request, the models call's included
 * @explain_failure: (nullable): a better error than the generic one for a
 *   failed exchange, in the format's own terms (a model to pull, a server
 *   to start), or %NULL to keep the generic one: @status and @body of an
 *   HTTP error status, or @status 0 and the @cause when no response came
 * @models_path: the path of the models call, e.g. "/models"
 * @models_member: the member of its answer that lists the models
 * @model_id_member: the member of each listed model that names it
 * @model_id_prefix: (nullable): a prefix the listed names carry and
 *   requests do not, e.g. "models/"
 * @stream_framing: how streamed responses are cut into events; the
 *   default, %TB_STREAM_FRAMING_SSE, reads `text/event-stream` bodies,
 *   %TB_STREAM_FRAMING_NDJSON reads `application/x-ndjson` ones
 *
 * The HTTP, timeout, retry, size-limit and event-stream machinery shared
 * by the OpenAI-compatible, Anthropic, Gemini and Ollama providers.
 */
struct _TbHttpProviderClass
{
  GObjectClass parent_class;

  const char          *kind;

  SoupMessage        *(*build_message)  (TbHttpProvider     *self,
                                         TbProviderRequest  *request,
                                         GBytes            **body,
                                         GError            **error);
  TbProviderResponse *(*parse_response) (TbHttpProvider     *self,
                                         TbProviderRequest  *request,
                                         JsonNode           *body,
                                         GError            **error);
  gpointer            (*stream_new)     (TbHttpProvider     *self,
                                         TbProviderRequest  *request);
  void                (*stream_free)    (gpointer            state);
  gboolean            (*stream_event)   (TbHttpProvider     *self,
                                         gpointer            state,
                                         const char         *event,
                                         const char         *data,
                                         GError            **error);
  TbProviderResponse *(*stream_finish)  (TbHttpProvider     *self,
                                         gpointer            state,
                                         GError            **error);
  gboolean            (*stream_done)    (TbHttpProvider     *self,
                                         gpointer            state);
  void                (*add_headers)    (TbHttpProvider     *self,
                                         SoupMessageHeaders *headers);
  GError             *(*explain_failure) (TbHttpProvider    *self,
                                          guint              status,
                                          const char        *body,
                                          const GError      *cause);

  const char          *models_path;
  const char          *models_member;
  const char          *model_id_member;
  const char          *model_id_prefix;
  TbStreamFraming      stream_framing;

  /*< private >*/
  gpointer _reserved[2];
};

/**
 * TbHttpProviderClass::explain_failure:
 * @self: a provider
 * @status: the HTTP status, or 0 when no response came
 * @body: (nullable): the body of an error response
 * @cause: (nullable): why no response came
 *
 * Explains a failed exchange in the format's own terms, such as a model to
 * pull or a server to start.
 *
 * Returns: (transfer full) (nullable): a better error than the generic one, or %NULL to keep it
 */

/**
 * TbHttpProviderClass::add_headers:
 * @self: a provider
 * @headers: the request's headers
 *
 * Puts the key, and any header the format requires, on a request, the
 * models call's included; by default the key goes as a bearer token.
 */

/**
 * TbHttpProviderClass::stream_done:
 * @self: a provider
 * @state: the state from `stream_new`
 *
 * Tells whether the events read so far end the turn, so that reading stops
 * even when the server keeps the connection open.
 *
 * Returns: %TRUE when the turn is complete
 */

/**
 * TbHttpProviderClass::stream_finish:
 * @self: a provider
 * @state: the state from `stream_new`
 * @error: return location for a %TB_PROVIDER_ERROR_TRUNCATED error
 *
 * Makes the response from a stream that ended.
 *
 * Returns: (transfer full) (nullable): the response, or %NULL with @error set
 */

/**
 * TbHttpProviderClass::stream_event:
 * @self: a provider
 * @state: the state from `stream_new`
 * @event: (nullable): the event's name, for formats that name their events
 * @data: the event's data
 * @error: return location for a %TB_PROVIDER_ERROR
 *
 * Reads one event of a stream into @state and emits the delta signals.
 *
 * Returns: %TRUE to go on, %FALSE with @error set to stop the exchange
 */

/**
 * TbHttpProviderClass::stream_new:
 * @self: a provider
 * @request: what was sent
 *
 * Makes the state that collects a streamed turn, freed with the class's
 * `stream_free`.
 *
 * Returns: the state
 */

/**
 * TbHttpProviderClass::parse_response:
 * @self: a provider
 * @request: what was sent
 * @body: the whole response body, parsed
 * @error: return location for a %TB_PROVIDER_ERROR_INVALID_RESPONSE error
 *
 * Reads a response that was not streamed into the assistant's turn, with
 * tool calls under their real names.
 *
 * Returns: (transfer full) (nullable): the response, or %NULL with @error set
 */

/**
 * TbHttpProviderClass::build_message:
 * @self: a provider
 * @request: what to send
 * @body: (out): the exact JSON body to send
 * @error: return location for a %TB_PROVIDER_ERROR
 *
 * Turns a request into the wire format's HTTP request: its URL (from
 * tb_http_provider_build_url()), headers and body.
 *
 * Returns: (transfer full) (nullable): the message, or %NULL with @error set
 */

SoupSession *tb_http_provider_get_session           (TbHttpProvider *self);
TbRedactor  *tb_http_provider_get_redactor          (TbHttpProvider *self);
const char  *tb_http_provider_get_base_url          (TbHttpProvider *self);
void         tb_http_provider_set_base_url          (TbHttpProvider *self,
                                                     const char     *base_url);
const char  *tb_http_provider_get_model             (TbHttpProvider *self);
void         tb_http_provider_set_model             (TbHttpProvider *self,
                                                     const char     *model);
const char  *tb_http_provider_get_api_key           (TbHttpProvider *self);
void         tb_http_provider_set_api_key           (TbHttpProvider *self,
                                                     const char     *api_key);
guint        tb_http_provider_get_timeout_ms        (TbHttpProvider *self);
void         tb_http_provider_set_timeout_ms        (TbHttpProvider *self,
                                                     guint           timeout_ms);
guint        tb_http_provider_get_max_retries       (TbHttpProvider *self);
void         tb_http_provider_set_max_retries       (TbHttpProvider *self,
                                                     guint           max_retries);
void         tb_http_provider_set_retry_base_ms     (TbHttpProvider *self,
                                                     guint           retry_base_ms);
void         tb_http_provider_set_max_response_size (TbHttpProvider *self,
                                                     gsize           max_size);
char        *tb_http_provider_build_url             (TbHttpProvider *self,
                                                     const char     *path);

void         tb_http_provider_list_models_async     (TbHttpProvider       *self,
                                                     GCancellable         *cancellable,
                                                     GAsyncReadyCallback   callback,
                                                     gpointer              user_data);
GStrv        tb_http_provider_list_models_finish    (TbHttpProvider       *self,
                                                     GAsyncResult         *result,
                                                     char                **report,
                                                     GError              **error);

G_END_DECLS
