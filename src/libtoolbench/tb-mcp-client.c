/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-mcp-client-private.h"
#include "tb-mcp-wire-private.h"

/**
 * TbMcpClient:
 *
 * A Model Context Protocol client for one server, over stdio (a child
 * process speaking newline-delimited JSON-RPC) or streamable HTTP.
 *
 * tb_mcp_client_connect_async() starts the server, negotiates the protocol
 * revision, sends `notifications/initialized` and lists the tools (every
 * page). With tb_mcp_client_attach() the tools are kept registered in a
 * #TbToolRegistry as #TbMcpTool, source `mcp:<name>`, and follow
 * `notifications/tools/list_changed`.
 *
 * Tool names: a tool keeps its own name (characters outside
 * `[A-Za-z0-9_.-]` become `_`, cut at 64 bytes) when that name is free in
 * the registry. When another tool already has it, the tool is registered as
 * `<server>.<name>`, and when that is taken too, under the registry's
 * suggestion (`<server>.<name>_2`). The server always sees its own name.
 *
 * Faults: when the server exits, is killed, closes its output, prints
 * something that is not JSON-RPC, sends a message larger than
 * %TB_MCP_MAX_MESSAGE_SIZE, or stops answering (a request times out and a
 * ping gets no answer either), every pending request fails with an error
 * naming the server and the cause, the state becomes
 * %TB_MCP_CLIENT_STATE_FAILED, and calls of its tools fail at once until
 * tb_mcp_client_connect_async() restarts it.
 *
 * The server log (#TbMcpClient::log-message, tb_mcp_client_get_log()) holds
 * the server's standard error, line by line (made valid UTF-8, long lines
 * cut), and its `notifications/message`; the last 1,000 entries are kept.
 *
 * The protocol view (tb_mcp_client_get_wire_history(),
 * #TbMcpClient::wire-record) holds every JSON-RPC message in both
 * directions and, over HTTP, every exchange with its credentials masked,
 * within the bounds docs/protocol-view.md gives.
 *
 * Server requests: `ping` and `roots/list` are answered by the client.
 * `elicitation/create` and `sampling/createMessage` are emitted as
 * #TbMcpClient::elicitation-requested and
 * #TbMcpClient::sampling-requested; a handler that takes the request
 * returns %TRUE and answers it, now or later, through the
 * #TbMcpServerRequest. When no handler takes it, the server gets a
 * "method not found" error saying that nobody can answer.
 *
 * Everything happens on the thread-default main context of the thread that
 * created the client.
 */


G_DEFINE_FINAL_TYPE (TbMcpClient, tb_mcp_client, G_TYPE_OBJECT)
/**
 * tb_mcp_error_quark:
 *
 * The error domain of #TbMcpError.
 *
 * Returns: the quark of %TB_MCP_ERROR
 */
G_DEFINE_QUARK (tb-mcp-error-quark, tb_mcp_error)

enum {
  PROP_0,
  PROP_NAME,
  PROP_STATE,
  PROP_ERROR,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

guint _tb_mcp_client_signals [TB_MCP_CLIENT_N_SIGNALS];

GType
tb_mcp_client_state_get_type (void)
{
  static gsize type_id;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { TB_MCP_CLIENT_STATE_DISCONNECTED, "TB_MCP_CLIENT_STATE_DISCONNECTED", "disconnected" },
        { TB_MCP_CLIENT_STATE_CONNECTING, "TB_MCP_CLIENT_STATE_CONNECTING", "connecting" },
        { TB_MCP_CLIENT_STATE_CONNECTED, "TB_MCP_CLIENT_STATE_CONNECTED", "connected" },
        { TB_MCP_CLIENT_STATE_FAILED, "TB_MCP_CLIENT_STATE_FAILED", "failed" },
        { 0, NULL, NULL },
      };
      GType type = g_enum_register_static (g_intern_static_string ("TbMcpClientState"), values);

      g_once_init_leave (&type_id, type);
    }
  return type_id;
}

/* A line of the server log: kept (the last LOG_KEEP) and told. */
void
_tb_mcp_client_log (TbMcpClient *self,
                    const char  *origin,
                    const char  *level,
                    const char  *text)
{
  g_queue_push_tail (&self->log, g_strdup_printf ("[%s] %s: %s", origin, level, text));
  while (self->log.length > LOG_KEEP)
    g_free (g_queue_pop_head (&self->log));
  g_signal_emit (self, _tb_mcp_client_signals [TB_MCP_CLIENT_LOG_MESSAGE], 0, origin, level, text);
}

void
_tb_mcp_client_set_state (TbMcpClient      *self,
                          TbMcpClientState  state,
                          const char       *error)
{
  if (g_strcmp0 (self->error, error) != 0)
    {
      g_free (self->error);
      self->error = g_strdup (error);
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_ERROR]);
    }
  if (self->state != state)
    {
      self->state = state;
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_STATE]);
    }
}

/* Teardown of one connection. */

static void
stop_transport (TbMcpClient *self)
{
  self->generation++;

  _tb_mcp_listen_stop (self);
  _tb_mcp_catalog_forget (self, NULL);
  _tb_mcp_stdio_stop (self);
  g_clear_pointer (&self->http, _tb_mcp_http_free);
  self->listing = FALSE;
  self->list_again = FALSE;
}

static void
fail_all (TbMcpClient *self,
          GError      *error)
{
  g_autoptr(GList) ids = g_hash_table_get_keys (self->pending);
  g_autoptr(GArray) numbers = g_array_new (FALSE, FALSE, sizeof (gint64));
  /* Taken first: a callback below may start a new connection. */
  g_autoptr(GTask) connect_task = g_steal_pointer (&self->connect_task);

  for (GList *l = ids; l != NULL; l = l->next)
    g_array_append_val (numbers, *(gint64 *) l->data);

  /* Ids are never reused, so a new connection's requests are not touched. */
  for (guint i = 0; i < numbers->len; i++)
    {
      gint64 id = g_array_index (numbers, gint64, i);
      g_autoptr(GTask) task = _tb_mcp_client_take_request (self, id);

      if (task != NULL)
        g_task_return_error (task, g_error_copy (error));
    }

  _tb_mcp_input_fail_all (self, error);
  _tb_mcp_task_fail_all (self, error);
  if (connect_task != NULL)
    g_task_return_error (connect_task, g_error_copy (error));
}

/* The connection failed: what the server did (@cause, the end of a
 * sentence naming it) goes to the log and to everything waiting on it. */
void
_tb_mcp_client_fail (TbMcpClient *self,
                     int          code,
                     const char  *cause)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) hold = g_object_ref (G_OBJECT (self));

  error = g_error_new (TB_MCP_ERROR, code,
                       /* Translators: a server name, then what went wrong */
                       _("The MCP server “%s” %s"), self->name, cause);
  _tb_mcp_client_log (self, "client", "error", error->message);
  stop_transport (self);
  _tb_mcp_client_set_state (self, TB_MCP_CLIENT_STATE_FAILED, error->message);
  fail_all (self, error);
}

void
_tb_mcp_client_lost (TbMcpClient *self,
                     guint        generation,
                     const char  *cause)
{
  if (generation != self->generation)
    return;
  _tb_mcp_client_fail (self, TB_MCP_ERROR_DISCONNECTED, cause);
}

/* Connecting. */

/**
 * tb_mcp_client_connect_async:
 * @self: a client
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the server is ready or failed
 * @user_data: closure
 *
 * Starts the server (stopping a running one first), initializes the
 * session and lists the tools. This is also how a failed server restarts.
 */
void
tb_mcp_client_connect_async (TbMcpClient         *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (TB_IS_MCP_CLIENT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_mcp_client_connect_async);

  if (self->state != TB_MCP_CLIENT_STATE_DISCONNECTED)
    tb_mcp_client_disconnect (self);

  g_clear_pointer (&self->protocol_version, g_free);
  g_clear_pointer (&self->server_info, json_node_unref);
  g_clear_pointer (&self->server_capabilities, json_node_unref);
  g_clear_pointer (&self->instructions, g_free);
  self->stateless = FALSE;
  _tb_mcp_client_set_state (self, TB_MCP_CLIENT_STATE_CONNECTING, NULL);

  if (self->kind == TRANSPORT_STDIO)
    {
      if (!_tb_mcp_stdio_start (self, &error))
        {
          stop_transport (self);
          _tb_mcp_client_set_state (self, TB_MCP_CLIENT_STATE_FAILED, error->message);
          _tb_mcp_client_log (self, "client", "error", error->message);
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
    }
  else
    {
      self->http = _tb_mcp_http_new (self, self->generation, self->url,
                                     (const char * const *) self->headers);
    }

  self->connect_task = g_steal_pointer (&task);
  _tb_mcp_revision_start (self, cancellable);
}

/**
 * tb_mcp_client_connect_finish:
 * @self: a client
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #TbMcpError
 *
 * Ends tb_mcp_client_connect_async(). A server that did not start, or
 * answered something that is not MCP, fails with the reason and the last
 * lines it printed.
 *
 * Returns: %TRUE when the client is connected and has listed the server's tools
 */
gboolean
tb_mcp_client_connect_finish (TbMcpClient   *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * tb_mcp_client_disconnect:
 * @self: a client
 *
 * Stops the server. Pending requests fail; the tools stay registered and
 * their calls fail until the next connection.
 */
void
tb_mcp_client_disconnect (TbMcpClient *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) hold = NULL;

  g_return_if_fail (TB_IS_MCP_CLIENT (self));

  hold = g_object_ref (G_OBJECT (self));
  stop_transport (self);
  _tb_mcp_client_set_state (self, TB_MCP_CLIENT_STATE_DISCONNECTED, NULL);
  error = g_error_new (TB_MCP_ERROR, TB_MCP_ERROR_DISCONNECTED,
                       _("The MCP server “%s” was stopped"), self->name);
  fail_all (self, error);
}

/* Construction. */

static void
tb_mcp_client_dispose (GObject *object)
{
  TbMcpClient *self = (TbMcpClient *)object;

  stop_transport (self);
  if (self->auth != NULL)
    tb_mcp_auth_cancel (self->auth);
  if (self->pending != NULL &&
      (g_hash_table_size (self->pending) > 0 || self->tasks->len > 0))
    {
      g_autoptr(GError) error = g_error_new (TB_MCP_ERROR, TB_MCP_ERROR_DISCONNECTED,
                                             _("The MCP server “%s” was closed"), self->name);

      fail_all (self, error);
    }
  if (self->registry != NULL)
    tb_mcp_client_detach (self);

  G_OBJECT_CLASS (tb_mcp_client_parent_class)->dispose (object);
}

static void
tb_mcp_client_finalize (GObject *object)
{
  TbMcpClient *self = (TbMcpClient *)object;

  g_clear_object (&self->auth);
  g_free (self->name);
  g_strfreev (self->argv);
  g_strfreev (self->env);
  g_free (self->cwd);
  g_free (self->url);
  g_strfreev (self->headers);
  g_strfreev (self->roots);
  g_free (self->error);
  g_clear_pointer (&self->pending, g_hash_table_unref);
  g_clear_pointer (&self->input_waits, g_hash_table_unref);
  g_clear_pointer (&self->tasks, g_ptr_array_unref);
  g_clear_pointer (&self->subscribed, g_ptr_array_unref);
  g_clear_pointer (&self->kept_lists, g_hash_table_unref);
  g_free (self->log_level);
  g_free (self->protocol_version);
  g_clear_pointer (&self->server_info, json_node_unref);
  g_clear_pointer (&self->server_capabilities, json_node_unref);
  g_free (self->instructions);
  g_clear_pointer (&self->tools, g_ptr_array_unref);
  g_clear_pointer (&self->registered, g_hash_table_unref);
  g_clear_pointer (&self->server_requests, g_hash_table_unref);
  g_queue_clear_full (&self->log, g_free);
  g_clear_pointer (&self->wire, _tb_mcp_wire_free);

  G_OBJECT_CLASS (tb_mcp_client_parent_class)->finalize (object);
}

static void
tb_mcp_client_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TbMcpClient *self = TB_MCP_CLIENT (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_mcp_client_class_init (TbMcpClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro_flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = tb_mcp_client_dispose;
  object_class->finalize = tb_mcp_client_finalize;
  object_class->get_property = tb_mcp_client_get_property;

  /* A server that exits while we write to it must not kill the process. */
  signal (SIGPIPE, SIG_IGN);

  /**
   * TbMcpClient:name:
   *
   * The server's name, as the configuration named it. It names the server in
   * every message, makes the source of its tools (`mcp:NAME`) and prefixes a
   * tool's name when another tool already has it. Set at construction.
   */
  properties [PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * TbMcpClient:state:
   *
   * Where the client is in its connection: disconnected, connecting,
   * connected or failed.
   */
  properties [PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, TB_TYPE_MCP_CLIENT_STATE,
                       TB_MCP_CLIENT_STATE_DISCONNECTED, ro_flags);
  /**
   * TbMcpClient:error:
   *
   * Why the connection failed, a sentence naming the server; %NULL while
   * all is well.
   */
  properties [PROP_ERROR] =
    g_param_spec_string ("error", NULL, NULL, NULL, ro_flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TbMcpClient::log-message:
   * @self: the client
   * @origin: "stderr", "server" (`notifications/message`) or "client"
   * @level: a syslog level name
   * @text: the line, valid UTF-8
   *
   * Emitted for every line of the server log: what the server printed on
   * stderr, the `notifications/message` it sent, and what the client noted
   * about it. The client keeps the last lines too (tb_mcp_client_get_log()).
   */
  _tb_mcp_client_signals [TB_MCP_CLIENT_LOG_MESSAGE] =
    g_signal_new ("log-message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                  G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * TbMcpClient::progress:
   * @self: the client
   * @token: the request's progress token
   * @progress: progress so far
   * @total: the total, negative when unknown
   * @message: (nullable): the server's message
   *
   * Emitted for every `notifications/progress` of a request the client sent.
   */
  _tb_mcp_client_signals [TB_MCP_CLIENT_PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 4,
                  G_TYPE_STRING, G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_STRING);

  /**
   * TbMcpClient::tools-changed:
   *
   * The tool list was fetched again (after connecting or a list change).
   */
  _tb_mcp_client_signals [TB_MCP_CLIENT_TOOLS_CHANGED] =
    g_signal_new ("tools-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * TbMcpClient::resources-changed:
   *
   * The server said its resources or resource templates changed
   * (`notifications/resources/list_changed`); list them again.
   */
  _tb_mcp_client_signals [TB_MCP_CLIENT_RESOURCES_CHANGED] =
    g_signal_new ("resources-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * TbMcpClient::prompts-changed:
   *
   * The server said its prompts changed
   * (`notifications/prompts/list_changed`); list them again.
   */
  _tb_mcp_client_signals [TB_MCP_CLIENT_PROMPTS_CHANGED] =
    g_signal_new ("prompts-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * TbMcpClient::resource-updated:
   * @self: the client
   * @uri: the resource
   *
   * A resource subscribed to with tb_mcp_client_subscribe_resource_async()
   * changed (`notifications/resources/updated`); read it again.
   */
  _tb_mcp_client_signals [TB_MCP_CLIENT_RESOURCE_UPDATED] =
    g_signal_new ("resource-updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * TbMcpClient::elicitation-requested:
   * @self: the client
   * @request: the server's `elicitation/create` request
   *
   * Return %TRUE to take the request and answer it with
   * tb_mcp_server_request_accept(), _decline() or _cancel().
   *
   * Returns: %TRUE when a handler took the request; when none does, the
   *   server gets an error saying that nobody can answer
   */
  _tb_mcp_client_signals [TB_MCP_CLIENT_ELICITATION_REQUESTED] =
    g_signal_new ("elicitation-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, g_signal_accumulator_true_handled, NULL, NULL, G_TYPE_BOOLEAN, 1,
                  TB_TYPE_MCP_SERVER_REQUEST);

  /**
   * TbMcpClient::sampling-requested:
   * @self: the client
   * @request: the server's `sampling/createMessage` request
   *
   * Return %TRUE to take the request and answer it with
   * tb_mcp_server_request_respond() (a `CreateMessageResult`) or refuse it
   * with tb_mcp_server_request_decline().
   *
   * Returns: %TRUE when a handler took the request; when none does, the
   *   server gets an error saying that nobody can answer
   */
  _tb_mcp_client_signals [TB_MCP_CLIENT_SAMPLING_REQUESTED] =
    g_signal_new ("sampling-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, g_signal_accumulator_true_handled, NULL, NULL, G_TYPE_BOOLEAN, 1,
                  TB_TYPE_MCP_SERVER_REQUEST);

  _tb_mcp_wire_class_init (object_class);
}

static void
tb_mcp_client_init (TbMcpClient *self)
{
  self->input_waits = _tb_mcp_input_waits_new ();
  self->tasks = g_ptr_array_new ();
  self->pending = _tb_mcp_client_pending_new ();
  self->registered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->server_requests = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->request_timeout_ms = DEFAULT_REQUEST_TIMEOUT_MS;
  g_queue_init (&self->log);
  g_queue_init (&self->write_queue);
}

static char *
valid_name (const char *name)
{
  if (name == NULL || *name == '\0')
    return g_strdup ("server");
  return _tb_mcp_sanitize_name (name);
}

/**
 * tb_mcp_client_new_stdio:
 * @name: the server's name (used in messages, tool sources and prefixes)
 * @argv: (array zero-terminated=1): the command, run without a shell
 * @env: (nullable) (array zero-terminated=1): `KEY=VALUE` entries added to
 *   the environment
 * @cwd: (nullable): the working directory
 *
 * Makes a client of a server that runs as a program and speaks on its
 * standard input and output; tb_mcp_client_connect_async() starts it, and
 * the client stops it when it disconnects or is freed.
 *
 * Returns: (transfer full): a disconnected client
 */
TbMcpClient *
tb_mcp_client_new_stdio (const char         *name,
                         const char * const *argv,
                         const char * const *env,
                         const char         *cwd)
{
  TbMcpClient *self;

  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  self = g_object_new (TB_TYPE_MCP_CLIENT, NULL);
  self->name = valid_name (name);
  self->kind = TRANSPORT_STDIO;
  self->argv = g_strdupv ((char **) argv);
  self->env = g_strdupv ((char **) env);
  self->cwd = g_strdup (cwd);
  return self;
}

/* A server given its own Authorization header is not signed in to: the
 * person chose how it authenticates. */
static TbMcpAuth *
new_auth (TbMcpClient *self)
{
  for (guint i = 0; self->headers != NULL && self->headers[i] != NULL; i++)
    if (g_ascii_strncasecmp (self->headers[i], "Authorization:", strlen ("Authorization:")) == 0)
      return NULL;
  return tb_mcp_auth_new (self->name, self->url);
}

/**
 * tb_mcp_client_new_http:
 * @name: the server's name
 * @url: the MCP endpoint (http:// or https://)
 * @headers: (nullable) (array zero-terminated=1): `Name: value` headers
 *   sent with every request
 *
 * Makes a client of a server reached over streamable HTTP; connect it with
 * tb_mcp_client_connect_async(). Sign-in, when the server wants one, is set
 * up with a #TbMcpAuth.
 *
 * Returns: (transfer full): a disconnected client using streamable HTTP
 */
TbMcpClient *
tb_mcp_client_new_http (const char         *name,
                        const char         *url,
                        const char * const *headers)
{
  TbMcpClient *self;

  g_return_val_if_fail (url != NULL, NULL);

  self = g_object_new (TB_TYPE_MCP_CLIENT, NULL);
  self->name = valid_name (name);
  self->kind = TRANSPORT_HTTP;
  self->url = g_strdup (url);
  self->headers = g_strdupv ((char **) headers);
  self->auth = new_auth (self);
  return self;
}

/* Accessors. */

/**
 * tb_mcp_client_get_auth:
 * @self: a client
 *
 * The OAuth authorization of an HTTP server: set its mode and client
 * before connecting, ask it who is signed in, sign out. Stdio servers,
 * and HTTP servers given their own `Authorization` header, have none.
 *
 * Returns: (transfer none) (nullable): the server's authorization
 */
TbMcpAuth *
tb_mcp_client_get_auth (TbMcpClient *self)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), NULL);

  return self->auth;
}

/**
 * tb_mcp_client_get_name:
 * @self: a client
 *
 * Gives the server's name (#TbMcpClient:name).
 *
 * Returns: the name
 */
const char *
tb_mcp_client_get_name (TbMcpClient *self)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), NULL);
  return self->name;
}

/**
 * tb_mcp_client_get_state:
 * @self: a client
 *
 * Tells where the client is in its connection (#TbMcpClient:state).
 *
 * Returns: the state
 */
TbMcpClientState
tb_mcp_client_get_state (TbMcpClient *self)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), TB_MCP_CLIENT_STATE_DISCONNECTED);
  return self->state;
}

/**
 * tb_mcp_client_get_error:
 * @self: a client
 *
 * Tells why the connection failed (#TbMcpClient:error).
 *
 * Returns: (nullable): a sentence naming the server, or %NULL while all is well
 */
const char *
tb_mcp_client_get_error (TbMcpClient *self)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), NULL);
  return self->error;
}

/**
 * tb_mcp_client_get_protocol_version:
 * @self: a client
 *
 * Gives the revision of the protocol the client and the server agreed on.
 *
 * Returns: (nullable): the revision, such as "2025-06-18", or %NULL before connecting
 */
const char *
tb_mcp_client_get_protocol_version (TbMcpClient *self)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), NULL);
  return self->protocol_version;
}

/**
 * tb_mcp_client_get_server_capabilities:
 * @self: a client
 *
 * Gives what the server said it can do: tools, resources, prompts,
 * completions, logging.
 *
 * Returns: (transfer none) (nullable): the `capabilities` the server
 *   declared when it initialized
 */
JsonNode *
tb_mcp_client_get_server_capabilities (TbMcpClient *self)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), NULL);
  return self->server_capabilities;
}

/**
 * tb_mcp_client_get_server_info:
 * @self: a client
 *
 * Gives the server's name and version as it introduced itself.
 *
 * Returns: (transfer none) (nullable): the server's `serverInfo`
 */
JsonNode *
tb_mcp_client_get_server_info (TbMcpClient *self)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), NULL);
  return self->server_info;
}

/**
 * tb_mcp_client_get_instructions:
 * @self: a client
 *
 * Gives the `instructions` the server sent when it initialized, which a
 * person may show a model.
 *
 * Returns: (nullable): the instructions, or %NULL when the server sent none
 */
const char *
tb_mcp_client_get_instructions (TbMcpClient *self)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), NULL);
  return self->instructions;
}

/**
 * tb_mcp_client_get_tools:
 * @self: a client
 *
 * Gives the tools the server listed at the last listing, each as the JSON
 * definition it sent.
 *
 * Returns: (transfer container) (element-type JsonNode): the tool
 *   definitions as the server listed them
 */
GPtrArray *
tb_mcp_client_get_tools (TbMcpClient *self)
{
  GPtrArray *copy = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);

  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), copy);

  for (guint i = 0; self->tools != NULL && i < self->tools->len; i++)
    g_ptr_array_add (copy, json_node_ref (g_ptr_array_index (self->tools, i)));
  return copy;
}

/**
 * tb_mcp_client_get_log:
 * @self: a client
 *
 * Gives the last lines of the server log (what #TbMcpClient::log-message
 * reported), for a person looking into a failure.
 *
 * Returns: (transfer full): the last entries of the server log, oldest first
 */
char **
tb_mcp_client_get_log (TbMcpClient *self)
{
  GStrvBuilder *builder;
  char **ret;

  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), NULL);

  builder = g_strv_builder_new ();
  for (GList *l = self->log.head; l != NULL; l = l->next)
    g_strv_builder_add (builder, l->data);
  ret = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return ret;
}

/**
 * tb_mcp_client_set_capabilities:
 * @self: a client
 * @capabilities: what the client declares
 *
 * Takes effect at the next connection.
 */
void
tb_mcp_client_set_capabilities (TbMcpClient       *self,
                                TbMcpCapabilities  capabilities)
{
  g_return_if_fail (TB_IS_MCP_CLIENT (self));
  self->capabilities = capabilities;
}

/**
 * tb_mcp_protocol_from_string:
 * @text: "auto", "2026-07-28" (or "stateless") or "2025-11-25" (or
 *   "handshake")
 * @protocol: (out): the choice
 * @error: the error naming what is accepted
 *
 * Reads a choice of protocol revisions as the command line and the
 * preferences write it.
 *
 * Returns: whether @text names one
 */
gboolean
tb_mcp_protocol_from_string (const char     *text,
                             TbMcpProtocol  *protocol,
                             GError        **error)
{
  if (g_strcmp0 (text, "auto") == 0)
    *protocol = TB_MCP_PROTOCOL_AUTO;
  else if (g_strcmp0 (text, TB_MCP_PROTOCOL_VERSION_STATELESS) == 0 ||
           g_strcmp0 (text, "stateless") == 0)
    *protocol = TB_MCP_PROTOCOL_STATELESS;
  else if (g_strcmp0 (text, TB_MCP_PROTOCOL_VERSION) == 0 ||
           g_strcmp0 (text, "handshake") == 0)
    *protocol = TB_MCP_PROTOCOL_HANDSHAKE;
  else
    {
      g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_CONFIG,
                   /* Translators: what was given, then the two revisions */
                   _("“%s” is not a choice of MCP protocol; use auto, %s or %s"),
                   text != NULL ? text : "", TB_MCP_PROTOCOL_VERSION_STATELESS,
                   TB_MCP_PROTOCOL_VERSION);
      return FALSE;
    }
  return TRUE;
}

/**
 * tb_mcp_client_set_protocol:
 * @self: a client
 * @protocol: which revisions it may speak
 *
 * Takes effect at the next connection; the default is
 * %TB_MCP_PROTOCOL_AUTO.
 */
void
tb_mcp_client_set_protocol (TbMcpClient   *self,
                            TbMcpProtocol  protocol)
{
  g_return_if_fail (TB_IS_MCP_CLIENT (self));
  g_return_if_fail (protocol <= TB_MCP_PROTOCOL_HANDSHAKE);

  self->protocol_choice = protocol;
}

/**
 * tb_mcp_client_get_protocol:
 * @self: a client
 *
 * Tells which revisions of the protocol the client may speak, as set with
 * tb_mcp_client_set_protocol().
 *
 * Returns: which revisions it may speak
 */
TbMcpProtocol
tb_mcp_client_get_protocol (TbMcpClient *self)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), TB_MCP_PROTOCOL_AUTO);

  return self->protocol_choice;
}

/**
 * tb_mcp_client_set_roots:
 * @self: a client
 * @uris: (nullable): `file://` URIs of the folders the server may work in
 *
 * Gives the folders the client answers `roots/list` with, when it declares
 * %TB_MCP_CAPABILITY_ROOTS.
 */
void
tb_mcp_client_set_roots (TbMcpClient        *self,
                         const char * const *uris)
{
  g_return_if_fail (TB_IS_MCP_CLIENT (self));
  g_strfreev (self->roots);
  self->roots = g_strdupv ((char **) uris);
}

/**
 * tb_mcp_client_set_request_timeout_ms:
 * @self: a client
 * @timeout_ms: the time limit in milliseconds
 *
 * The time limit of requests other than `tools/call` (initialize, list,
 * ping); 30 s by default.
 */
void
tb_mcp_client_set_request_timeout_ms (TbMcpClient *self,
                                      guint        timeout_ms)
{
  g_return_if_fail (TB_IS_MCP_CLIENT (self));
  self->request_timeout_ms = timeout_ms;
}

/**
 * tb_mcp_client_set_tool_timeout_ms:
 * @self: a client
 * @timeout_ms: the time limit in milliseconds, or 0
 *
 * The `timeout-ms` of the #TbMcpTool made from now on, and the limit of
 * tb_mcp_client_call_tool_async(); 0 (the default) leaves it to the
 * registry.
 */
void
tb_mcp_client_set_tool_timeout_ms (TbMcpClient *self,
                                   guint        timeout_ms)
{
  g_return_if_fail (TB_IS_MCP_CLIENT (self));
  self->tool_timeout_ms = timeout_ms;
}

guint
_tb_mcp_client_get_tool_timeout_ms (TbMcpClient *self)
{
  return self->tool_timeout_ms;
}
