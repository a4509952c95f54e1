/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the files of TbMcpClient share: the client and its connection
 * (tb-mcp-client.c), what it sends and the answers it waits for
 * (tb-mcp-client-request.c), what comes from the server
 * (tb-mcp-client-receive.c), the tool list (tb-mcp-client-tools.c), the
 * stdio transport (tb-mcp-stdio.c), requests from the server
 * (tb-mcp-server-request.c) and configuration (tb-mcp-config.c). */

#include "tb-mcp-private.h"
#include "tb-mcp-server-request.h"

G_BEGIN_DECLS

#define LOG_KEEP 1000
#define STDERR_LINE_MAX 4096
#define READ_CHUNK (64 * 1024)
#define DEFAULT_REQUEST_TIMEOUT_MS 30000
#define LIVENESS_TIMEOUT_MS 5000
#define MAX_PAGES 1000

typedef enum
{
  TRANSPORT_STDIO,
  TRANSPORT_HTTP,
} TransportKind;

typedef struct
{
  TbMcpClient       *client;
  gint64             id;
  char              *method;
  GTask             *task;
  GSource           *timeout;
  GCancellable      *cancellable;
  gulong             cancel_id;
  char              *progress_token;
  TbMcpProgressFunc  progress;
  gpointer           progress_data;
  guint              timeout_ms;
  JsonNode          *params;        /* as the caller gave them, for a retry */
  guint              rounds;        /* of input the server asked for */
  guint              reissues;      /* after its response stream broke */
} Pending;

struct _TbMcpClient
{
  GObject             parent_instance;

  char               *name;
  TransportKind       kind;
  char              **argv;
  char              **env;
  char               *cwd;
  char               *url;
  char              **headers;

  TbMcpCapabilities   capabilities;
  char              **roots;
  guint               request_timeout_ms;
  guint               tool_timeout_ms;

  TbMcpClientState    state;
  char               *error;
  guint               generation;
  gint64              next_id;
  GHashTable         *pending;
  GTask              *connect_task;

  TbMcpProtocol       protocol_choice;
  gboolean            stateless;     /* speaking 2026-07-28: _meta on every request */
  guint               probes;        /* server/discover requests of this connection */
  gboolean            probe_silent;  /* the first went unanswered */
  GHashTable         *input_waits;   /* id → what an input request answers (tb-mcp-input.c) */
  GPtrArray          *tasks;         /* tasks being followed (tb-mcp-task.c) */
  guint64             next_input;
  gint64              listen_id;     /* the subscriptions/listen request (tb-mcp-listen.c) */
  guint               listen_reopen;
  guint               listen_failures;
  GPtrArray          *subscribed;    /* resource URIs, kept across connections */
  GHashTable         *kept_lists;    /* list method → Kept (tb-mcp-catalog.c) */
  char               *log_level;     /* sent in every stateless request's _meta */
  char               *protocol_version;
  JsonNode           *server_info;
  JsonNode           *server_capabilities;
  char               *instructions;
  GPtrArray          *tools;
  gboolean            listing;
  gboolean            list_again;
  guint               pages;

  TbToolRegistry     *registry;
  GHashTable         *registered;

  GQueue              log;
  GHashTable         *server_requests;
  gpointer            wire;          /* the protocol view (tb-mcp-wire.c) */

  /* stdio */
  GSubprocess        *process;
  GOutputStream      *stdin_pipe;
  GCancellable       *io_cancellable;
  GByteArray         *out_buf;
  gsize               out_scanned;
  gboolean            out_skipping;
  GByteArray         *err_buf;
  GQueue              write_queue;
  gboolean            writing;
  gboolean            stdout_eof;
  gboolean            exited;
  guint               lost_timer;

  /* HTTP */
  TbMcpHttp          *http;
  TbMcpAuth          *auth;
};

typedef enum
{
  TB_MCP_CLIENT_LOG_MESSAGE,
  TB_MCP_CLIENT_PROGRESS,
  TB_MCP_CLIENT_TOOLS_CHANGED,
  TB_MCP_CLIENT_RESOURCES_CHANGED,
  TB_MCP_CLIENT_PROMPTS_CHANGED,
  TB_MCP_CLIENT_RESOURCE_UPDATED,
  TB_MCP_CLIENT_ELICITATION_REQUESTED,
  TB_MCP_CLIENT_SAMPLING_REQUESTED,
  TB_MCP_CLIENT_N_SIGNALS
} TbMcpClientSignal;

extern guint _tb_mcp_client_signals [TB_MCP_CLIENT_N_SIGNALS];

struct _TbMcpServerRequest
{
  GObject      parent_instance;
  GWeakRef     client;
  guint        generation;
  JsonNode    *id;
  char        *method;
  JsonNode    *params;
  char        *key;
  gboolean     answered;
};

gint64   _tb_mcp_client_start_request (TbMcpClient *self,
                                      const char  *method,
                                      JsonNode    *params,
                                      guint        timeout_ms,
                                      gboolean     raw,
                                      GTask       *task);
gint64   _tb_mcp_client_retry_request (TbMcpClient       *self,
                                      const char        *method,
                                      JsonNode          *params,
                                      guint              timeout_ms,
                                      TbMcpProgressFunc  progress,
                                      gpointer           progress_data,
                                      guint              rounds,
                                      GTask             *task);
void     _tb_mcp_client_handle_server_request (TbMcpClient *self,
                                               const char  *method,
                                               JsonNode    *id,
                                               JsonNode    *params);
void     _tb_mcp_input_required   (TbMcpClient       *self,
                                   GTask             *task,
                                   const char        *method,
                                   JsonNode          *params,
                                   guint              timeout_ms,
                                   TbMcpProgressFunc  progress,
                                   gpointer           progress_data,
                                   guint              rounds,
                                   JsonObject        *result);
gboolean _tb_mcp_input_respond    (TbMcpClient       *self,
                                   JsonNode          *id,
                                   JsonNode          *result,
                                   int                code,
                                   const char        *message);
void     _tb_mcp_input_fail_all   (TbMcpClient       *self,
                                   const GError      *error);
GHashTable *_tb_mcp_input_waits_new (void);

/* Hears the answer to one input request: its @result, or a @refusal (the
 * client could not answer), or @lost (the connection is gone). */
typedef void (*TbMcpInputAnswered) (gpointer      target,
                                    const char   *key,
                                    JsonNode     *result,
                                    const char   *refusal,
                                    const GError *lost);

char    *_tb_mcp_input_wait       (TbMcpClient        *self,
                                   const char         *key,
                                   TbMcpInputAnswered  answered,
                                   gpointer            target,
                                   GDestroyNotify      release);
void     _tb_mcp_input_ask        (TbMcpClient        *self,
                                   const char         *id,
                                   JsonObject         *requests);

/* Tasks of the tasks extension (tb-mcp-task.c). */
#define TB_MCP_TASKS_EXTENSION "io.modelcontextprotocol/tasks"
void     _tb_mcp_task_follow      (TbMcpClient        *self,
                                   GTask              *task,
                                   const char         *tool,
                                   guint               timeout_ms,
                                   TbMcpProgressFunc   progress,
                                   gpointer            progress_data,
                                   JsonObject         *handle);
void     _tb_mcp_task_fail_all    (TbMcpClient        *self,
                                   const GError       *error);
JsonObject *_tb_mcp_client_build_params (TbMcpClient  *self,
                                         JsonNode     *params,
                                         const char   *progress_token);
gboolean _tb_mcp_client_tool_headers_valid (TbMcpClient *self,
                                            JsonObject  *tool,
                                            const char  *name);
GHashTable *_tb_mcp_client_pending_new (void);
GTask   *_tb_mcp_client_take_request (TbMcpClient *self,
                                      gint64       id);
void     _tb_mcp_listen_start     (TbMcpClient       *self);
void     _tb_mcp_listen_acknowledged (TbMcpClient    *self,
                                      JsonObject     *params);
void     _tb_mcp_listen_add_resource (TbMcpClient    *self,
                                      const char     *uri);
void     _tb_mcp_listen_remove_resource (TbMcpClient *self,
                                         const char  *uri);
void     _tb_mcp_listen_stop      (TbMcpClient       *self);
void     _tb_mcp_catalog_forget   (TbMcpClient       *self,
                                   const char        *method);
void     _tb_mcp_client_send_notification (TbMcpClient *self,
                                           const char  *method,
                                           JsonNode    *params);
void     _tb_mcp_client_start_listing (TbMcpClient *self);
void     _tb_mcp_client_set_ready (TbMcpClient *self,
                                   const char  *version,
                                   JsonObject  *result);
JsonObject *_tb_mcp_client_build_capabilities (TbMcpClient *self);
JsonObject *_tb_mcp_client_build_info (void);
void     _tb_mcp_client_add_meta  (TbMcpClient  *self,
                                   JsonObject   *meta);
void     _tb_mcp_revision_start   (TbMcpClient  *self,
                                   GCancellable *cancellable);
void     _tb_mcp_client_fail      (TbMcpClient  *self,
                                   int           code,
                                   const char   *cause);
void     _tb_mcp_client_set_state (TbMcpClient      *self,
                                   TbMcpClientState  state,
                                   const char       *error);
void     _tb_mcp_client_send      (TbMcpClient  *self,
                                   JsonNode     *message,
                                   gint64        request_id);
void     _tb_mcp_client_handle_response (TbMcpClient *self,
                                         JsonObject  *object);
void     _tb_mcp_client_respond   (TbMcpClient  *self,
                                   JsonNode     *id,
                                   JsonNode     *result,
                                   int           code,
                                   const char   *message);

/* The stdio transport (tb-mcp-stdio.c). */
gboolean _tb_mcp_stdio_start      (TbMcpClient  *self,
                                   GError      **error);
void     _tb_mcp_stdio_send       (TbMcpClient  *self,
                                   JsonNode     *message);
void     _tb_mcp_stdio_stop       (TbMcpClient  *self);

/* Requests from the server (tb-mcp-server-request.c). */
void     _tb_mcp_server_request_withdraw (TbMcpServerRequest *self);

void  _tb_mcp_client_sync_registry (TbMcpClient *self);
char *_tb_mcp_sanitize_name        (const char  *name);

G_END_DECLS
