/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "tb-message.h"
#include "tb-provider-request.h"
#include "tb-provider-response.h"
#include "tb-tool-registry.h"

G_BEGIN_DECLS

#define TB_PROVIDER_ERROR (tb_provider_error_quark ())

/**
 * TbProviderError:
 * @TB_PROVIDER_ERROR_BAD_REQUEST: the provider refused the request (HTTP 400, 404, 422).
 * @TB_PROVIDER_ERROR_UNAUTHORIZED: the key is missing, wrong or lacks permission (401, 403).
 * @TB_PROVIDER_ERROR_RATE_LIMITED: still rate limited (429) after the allowed retries.
 * @TB_PROVIDER_ERROR_SERVER: the provider failed (5xx) after the allowed retries.
 * @TB_PROVIDER_ERROR_HTTP: another HTTP status.
 * @TB_PROVIDER_ERROR_INVALID_RESPONSE: the body is not JSON or not of the documented shape.
 * @TB_PROVIDER_ERROR_TOO_LARGE: the response is larger than the provider's limit.
 * @TB_PROVIDER_ERROR_TIMEOUT: the provider sent nothing for too long.
 * @TB_PROVIDER_ERROR_CONNECTION: the provider could not be reached or closed the connection.
 * @TB_PROVIDER_ERROR_TRUNCATED: a streamed response ended before it was complete.
 * @TB_PROVIDER_ERROR_SCRIPT: a scripted provider's script is invalid or used up.
 * @TB_PROVIDER_ERROR_CONFIG: the provider is not configured (no base URL, no model).
 *
 * Why a provider gave no response. The messages name the server and what it
 * said, with the key masked, and say what to do where there is something to
 * do (check the key, wait, raise a limit).
 */
typedef enum
{
  TB_PROVIDER_ERROR_BAD_REQUEST,
  TB_PROVIDER_ERROR_UNAUTHORIZED,
  TB_PROVIDER_ERROR_RATE_LIMITED,
  TB_PROVIDER_ERROR_SERVER,
  TB_PROVIDER_ERROR_HTTP,
  TB_PROVIDER_ERROR_INVALID_RESPONSE,
  TB_PROVIDER_ERROR_TOO_LARGE,
  TB_PROVIDER_ERROR_TIMEOUT,
  TB_PROVIDER_ERROR_CONNECTION,
  TB_PROVIDER_ERROR_TRUNCATED,
  TB_PROVIDER_ERROR_SCRIPT,
  TB_PROVIDER_ERROR_CONFIG,
} TbProviderError;

#define TB_TYPE_PROVIDER (tb_provider_get_type ())

G_DECLARE_INTERFACE (TbProvider, tb_provider, TB, PROVIDER, GObject)

/**
 * TbProviderInterface:
 * @get_kind: a short word for the wire format ("openai", "openai-responses", "anthropic",
 *   "gemini", "scripted")
 * @describe: the settings worth recording in a trace header; never keys
 * @complete_async: sends @request and waits for the whole response
 * @complete_finish: the response, or an error (%TB_PROVIDER_ERROR or
 *   %G_IO_ERROR_CANCELLED)
 * @get_history: how much of the conversation a request needs; unset means
 *   %TB_PROVIDER_HISTORY_WHOLE
 *
 * Implementations emit #TbProvider::wire-request and
 * #TbProvider::wire-response for every HTTP exchange (retries included)
 * with the exact bodies, and the delta signals while streaming.
 */
struct _TbProviderInterface
{
  GTypeInterface parent_iface;

  const char         *(*get_kind)        (TbProvider           *self);
  JsonObject         *(*describe)        (TbProvider           *self);
  void                (*complete_async)  (TbProvider           *self,
                                          TbProviderRequest    *request,
                                          GCancellable         *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data);
  TbProviderResponse *(*complete_finish) (TbProvider           *self,
                                          GAsyncResult         *result,
                                          GError              **error);
  TbProviderHistory   (*get_history)     (TbProvider           *self);
};

GQuark              tb_provider_error_quark            (void);
const char         *tb_provider_get_kind               (TbProvider           *self);
JsonObject         *tb_provider_describe               (TbProvider           *self);
TbProviderHistory   tb_provider_get_history            (TbProvider           *self);
void                tb_provider_complete_async         (TbProvider           *self,
                                                        TbProviderRequest    *request,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
TbProviderResponse *tb_provider_complete_finish        (TbProvider           *self,
                                                        GAsyncResult         *result,
                                                        GError              **error);
const char         *tb_provider_get_last_request_body  (TbProvider           *self);
const char         *tb_provider_get_last_response_body (TbProvider           *self);
void                tb_provider_emit_wire_request      (TbProvider           *self,
                                                        const char           *url,
                                                        const char           *body);
void                tb_provider_emit_wire_response     (TbProvider           *self,
                                                        guint                 status,
                                                        const char           *body);
void                tb_provider_emit_text_delta        (TbProvider           *self,
                                                        const char           *text);
void                tb_provider_emit_tool_call_delta   (TbProvider           *self,
                                                        guint                 index,
                                                        const char           *id,
                                                        const char           *name,
                                                        const char           *arguments);

G_END_DECLS
