/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "tb-mcp-auth.h"
#include "tb-mcp-wire-record.h"
#include "tb-tool-registry.h"

G_BEGIN_DECLS

/**
 * TB_MCP_PROTOCOL_VERSION:
 *
 * The MCP revision the client asks for. It also accepts servers that answer
 * with one of the two previous published revisions, 2025-06-18 and
 * 2025-03-26.
 */
#define TB_MCP_PROTOCOL_VERSION "2025-11-25"

/**
 * TB_MCP_PROTOCOL_VERSION_STATELESS:
 *
 * The stateless MCP revision: no `initialize` handshake, every request
 * carries its protocol version, client capabilities and client info in
 * `_meta`. The client probes for it with `server/discover` and falls back
 * to the handshake of %TB_MCP_PROTOCOL_VERSION.
 */
#define TB_MCP_PROTOCOL_VERSION_STATELESS "2026-07-28"

/**
 * TB_MCP_MAX_MESSAGE_SIZE:
 *
 * The largest JSON-RPC message the client keeps: 32 MiB. A server that
 * sends a larger one is disconnected, with that cause, rather than let it
 * grow the process without bound. A 10 MiB tool result fits.
 */
#define TB_MCP_MAX_MESSAGE_SIZE (32 * 1024 * 1024)

/**
 * TB_MCP_MAX_TOOLS:
 *
 * The most tools the client takes from one server (over all pages).
 */
#define TB_MCP_MAX_TOOLS 10000

#define TB_TYPE_MCP_CLIENT (tb_mcp_client_get_type())
#define TB_TYPE_MCP_CLIENT_STATE (tb_mcp_client_state_get_type())

G_DECLARE_FINAL_TYPE (TbMcpClient, tb_mcp_client, TB, MCP_CLIENT, GObject)

#define TB_MCP_ERROR (tb_mcp_error_quark ())

/**
 * TbMcpError:
 * @TB_MCP_ERROR_CONFIG: a server configuration is not usable.
 * @TB_MCP_ERROR_SPAWN: the server's command could not be started.
 * @TB_MCP_ERROR_DISCONNECTED: the server is not connected, crashed, or
 *   closed its output.
 * @TB_MCP_ERROR_PROTOCOL: the server sent something that is not MCP.
 * @TB_MCP_ERROR_VERSION: the server speaks no revision the client knows.
 * @TB_MCP_ERROR_REMOTE: the server answered with a JSON-RPC error.
 * @TB_MCP_ERROR_TIMEOUT: the server did not answer in time.
 * @TB_MCP_ERROR_TOO_LARGE: a message was larger than %TB_MCP_MAX_MESSAGE_SIZE.
 * @TB_MCP_ERROR_HTTP: the HTTP server refused a request.
 * @TB_MCP_ERROR_UNSUPPORTED: the server did not declare the capability a
 *   request needs (resources, prompts, completions, subscriptions).
 * @TB_MCP_ERROR_AUTHORIZATION: the HTTP server wants a sign-in that did not
 *   succeed; the message says which step failed.
 *
 * Why an MCP server could not be used or a request to it failed. The
 * messages name the server, and for a failed start the command and what it
 * printed last.
 */
typedef enum
{
  TB_MCP_ERROR_CONFIG,
  TB_MCP_ERROR_SPAWN,
  TB_MCP_ERROR_DISCONNECTED,
  TB_MCP_ERROR_PROTOCOL,
  TB_MCP_ERROR_VERSION,
  TB_MCP_ERROR_REMOTE,
  TB_MCP_ERROR_TIMEOUT,
  TB_MCP_ERROR_TOO_LARGE,
  TB_MCP_ERROR_HTTP,
  TB_MCP_ERROR_UNSUPPORTED,
  TB_MCP_ERROR_AUTHORIZATION,
} TbMcpError;

/**
 * TbMcpClientState:
 * @TB_MCP_CLIENT_STATE_DISCONNECTED: not started, or stopped on request.
 * @TB_MCP_CLIENT_STATE_CONNECTING: starting and initializing.
 * @TB_MCP_CLIENT_STATE_CONNECTED: ready for calls.
 * @TB_MCP_CLIENT_STATE_FAILED: the connection broke; #TbMcpClient:error
 *   says why. tb_mcp_client_connect_async() restarts it.
 *
 * Where a #TbMcpClient is in its connection (#TbMcpClient:state).
 */
typedef enum
{
  TB_MCP_CLIENT_STATE_DISCONNECTED,
  TB_MCP_CLIENT_STATE_CONNECTING,
  TB_MCP_CLIENT_STATE_CONNECTED,
  TB_MCP_CLIENT_STATE_FAILED,
} TbMcpClientState;

/**
 * TbMcpCapabilities:
 * @TB_MCP_CAPABILITY_NONE: declare nothing.
 * @TB_MCP_CAPABILITY_ROOTS: answer `roots/list` with tb_mcp_client_set_roots().
 * @TB_MCP_CAPABILITY_SAMPLING: the application answers `sampling/createMessage`.
 * @TB_MCP_CAPABILITY_ELICITATION: the application answers `elicitation/create`.
 *
 * What the client declares in `initialize`. Servers offer some tools only
 * to clients that declare these.
 */
typedef enum
{
  TB_MCP_CAPABILITY_NONE = 0,
  TB_MCP_CAPABILITY_ROOTS = 1 << 0,
  TB_MCP_CAPABILITY_SAMPLING = 1 << 1,
  TB_MCP_CAPABILITY_ELICITATION = 1 << 2,
} TbMcpCapabilities;

/**
 * TbMcpProtocol:
 * @TB_MCP_PROTOCOL_AUTO: probe with `server/discover` for
 *   %TB_MCP_PROTOCOL_VERSION_STATELESS and fall back to the `initialize`
 *   handshake when the server does not speak it (the specification's
 *   backward compatibility).
 * @TB_MCP_PROTOCOL_STATELESS: speak %TB_MCP_PROTOCOL_VERSION_STATELESS only;
 *   a server that does not is a failure.
 * @TB_MCP_PROTOCOL_HANDSHAKE: the `initialize` handshake of
 *   %TB_MCP_PROTOCOL_VERSION (or the two before it), without probing.
 *
 * Which protocol revisions the client may speak.
 */
typedef enum
{
  TB_MCP_PROTOCOL_AUTO,
  TB_MCP_PROTOCOL_STATELESS,
  TB_MCP_PROTOCOL_HANDSHAKE,
} TbMcpProtocol;

/**
 * TbMcpProgressFunc:
 * @progress: the progress so far
 * @total: the total, or a negative number when the server gave none
 * @message: (nullable): the server's message
 * @user_data: closure data
 *
 * Called on the caller's main context for each progress notification the
 * server sends about a running request, so that a long tool call can show
 * how far it got.
 */
typedef void (*TbMcpProgressFunc) (double      progress,
                                   double      total,
                                   const char *message,
                                   gpointer    user_data);

GType             tb_mcp_client_state_get_type       (void) G_GNUC_CONST;
gboolean          tb_mcp_protocol_from_string        (const char          *text,
                                                      TbMcpProtocol       *protocol,
                                                      GError             **error);
GQuark            tb_mcp_error_quark                 (void);

TbMcpClient      *tb_mcp_client_new_stdio            (const char          *name,
                                                      const char * const  *argv,
                                                      const char * const  *env,
                                                      const char          *cwd);
TbMcpClient      *tb_mcp_client_new_http             (const char          *name,
                                                      const char          *url,
                                                      const char * const  *headers);
TbMcpClient      *tb_mcp_client_new_from_config      (const char          *name,
                                                      JsonObject          *entry,
                                                      GError             **error);
GPtrArray        *tb_mcp_config_load                 (JsonNode            *config,
                                                      GStrv               *problems,
                                                      GError             **error);
GPtrArray        *tb_mcp_config_load_file            (const char          *path,
                                                      GStrv               *problems,
                                                      GError             **error);

const char       *tb_mcp_client_get_name             (TbMcpClient         *self);
TbMcpAuth        *tb_mcp_client_get_auth             (TbMcpClient         *self);
TbMcpClientState  tb_mcp_client_get_state            (TbMcpClient         *self);
const char       *tb_mcp_client_get_error            (TbMcpClient         *self);
const char       *tb_mcp_client_get_protocol_version (TbMcpClient         *self);
JsonNode         *tb_mcp_client_get_server_info      (TbMcpClient         *self);
JsonNode         *tb_mcp_client_get_server_capabilities (TbMcpClient      *self);
const char       *tb_mcp_client_get_instructions     (TbMcpClient         *self);
GPtrArray        *tb_mcp_client_get_tools            (TbMcpClient         *self);
char            **tb_mcp_client_get_log              (TbMcpClient         *self);
GListModel       *tb_mcp_client_get_wire_history     (TbMcpClient         *self);
void              tb_mcp_client_clear_wire_history   (TbMcpClient         *self);
void              tb_mcp_client_set_protocol         (TbMcpClient         *self,
                                                      TbMcpProtocol        protocol);
TbMcpProtocol     tb_mcp_client_get_protocol         (TbMcpClient         *self);
void              tb_mcp_client_set_capabilities     (TbMcpClient         *self,
                                                      TbMcpCapabilities    capabilities);
void              tb_mcp_client_set_roots            (TbMcpClient         *self,
                                                      const char * const  *uris);
void              tb_mcp_client_set_request_timeout_ms (TbMcpClient       *self,
                                                        guint              timeout_ms);
void              tb_mcp_client_set_tool_timeout_ms  (TbMcpClient         *self,
                                                      guint                timeout_ms);
void              tb_mcp_client_attach               (TbMcpClient         *self,
                                                      TbToolRegistry      *registry);
void              tb_mcp_client_detach               (TbMcpClient         *self);

void              tb_mcp_client_connect_async        (TbMcpClient         *self,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
gboolean          tb_mcp_client_connect_finish       (TbMcpClient         *self,
                                                      GAsyncResult        *result,
                                                      GError             **error);
void              tb_mcp_client_disconnect           (TbMcpClient         *self);
void              tb_mcp_client_request_async        (TbMcpClient         *self,
                                                      const char          *method,
                                                      JsonNode            *params,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
JsonNode         *tb_mcp_client_request_finish       (TbMcpClient         *self,
                                                      GAsyncResult        *result,
                                                      GError             **error);
void              tb_mcp_client_ping_async           (TbMcpClient         *self,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
gboolean          tb_mcp_client_ping_finish          (TbMcpClient         *self,
                                                      GAsyncResult        *result,
                                                      GError             **error);
void              tb_mcp_client_call_tool_async      (TbMcpClient         *self,
                                                      const char          *name,
                                                      JsonNode            *arguments,
                                                      TbMcpProgressFunc    progress,
                                                      gpointer             progress_data,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
JsonNode         *tb_mcp_client_call_tool_finish     (TbMcpClient         *self,
                                                      GAsyncResult        *result,
                                                      GError             **error);
void              tb_mcp_client_set_log_level_async  (TbMcpClient         *self,
                                                      const char          *level,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
gboolean          tb_mcp_client_set_log_level_finish (TbMcpClient         *self,
                                                      GAsyncResult        *result,
                                                      GError             **error);

G_END_DECLS
