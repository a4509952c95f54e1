/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp-revision"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-mcp-client-private.h"
#include "tb-text.h"

/* Settling on a protocol revision when a client connects, as the MCP
 * specification's "Backward Compatibility" (2026-07-28) describes: probe
 * with `server/discover`, carrying the stateless revision's `_meta`. A
 * discovery result, or a recognized error of that revision, means a
 * stateless server: it is spoken from then on (TbMcpClient.stateless puts
 * `_meta` on every request; the HTTP transport adds its headers and keeps
 * no session). Any other error, an HTTP refusal without such an error, or
 * silence on stdio means a server of the handshake revisions: `initialize`
 * follows, as before. TbMcpProtocol can force either. */

/* JSON-RPC errors only the stateless revision defines. */
#define HEADER_MISMATCH -32020
#define MISSING_REQUIRED_CLIENT_CAPABILITY -32021
#define UNSUPPORTED_PROTOCOL_VERSION -32022

/* How long a server on stdio may stay silent before it counts as one of
 * the handshake revisions, which may ignore a request before `initialize`. */
#define PROBE_TIMEOUT_MS 5000

static const char * const handshake_versions[] = {
  TB_MCP_PROTOCOL_VERSION, "2025-06-18", "2025-03-26"
};

static gboolean
is_handshake_version (const char *version)
{
  for (guint i = 0; version != NULL && i < G_N_ELEMENTS (handshake_versions); i++)
    if (g_str_equal (version, handshake_versions[i]))
      return TRUE;
  return FALSE;
}

static void
set_stateless (TbMcpClient *self,
               gboolean     stateless)
{
  self->stateless = stateless;
  if (self->http != NULL)
    _tb_mcp_http_set_stateless (self->http, stateless);
}

/**
 * _tb_mcp_client_set_ready:
 * @self: a client
 * @version: the revision both speak
 * @result: the answer to `initialize` or `server/discover`
 *
 * Keeps what the server said of itself; the tools are listed next.
 */
void
_tb_mcp_client_set_ready (TbMcpClient *self,
                          const char  *version,
                          JsonObject  *result)
{
  JsonNode *meta = json_object_get_member (result, "_meta");
  JsonNode *info = json_object_get_member (result, "serverInfo");

  if (meta != NULL && JSON_NODE_HOLDS_OBJECT (meta) &&
      json_object_get_member (json_node_get_object (meta),
                              "io.modelcontextprotocol/serverInfo") != NULL)
    info = json_object_get_member (json_node_get_object (meta),
                                   "io.modelcontextprotocol/serverInfo");
  g_free (self->protocol_version);
  self->protocol_version = g_strdup (version);
  g_clear_pointer (&self->server_info, json_node_unref);
  g_clear_pointer (&self->server_capabilities, json_node_unref);
  g_clear_pointer (&self->instructions, g_free);
  if (info != NULL)
    self->server_info = json_node_copy (info);
  if (json_object_get_member (result, "capabilities") != NULL)
    self->server_capabilities = json_node_copy (json_object_get_member (result, "capabilities"));
  self->instructions = g_strdup (tb_json_object_get_string (result, "instructions"));
}

/* What the client can do for the server, as `initialize` and the stateless
 * revision's `_meta` declare it. */
JsonObject *
_tb_mcp_client_build_capabilities (TbMcpClient *self)
{
  JsonObject *capabilities = json_object_new ();

  if (self->capabilities & TB_MCP_CAPABILITY_ROOTS)
    {
      JsonObject *roots = json_object_new ();

      json_object_set_boolean_member (roots, "listChanged", FALSE);
      json_object_set_object_member (capabilities, "roots", roots);
    }
  if (self->capabilities & TB_MCP_CAPABILITY_SAMPLING)
    json_object_set_object_member (capabilities, "sampling", json_object_new ());
  if (self->capabilities & TB_MCP_CAPABILITY_ELICITATION)
    json_object_set_object_member (capabilities, "elicitation", json_object_new ());
  return capabilities;
}

JsonObject *
_tb_mcp_client_build_info (void)
{
  JsonObject *info = json_object_new ();

  json_object_set_string_member (info, "name", "toolbench");
  json_object_set_string_member (info, "title", "Toolbench");
  json_object_set_string_member (info, "version", PACKAGE_VERSION);
  return info;
}

/* The request's params: the caller's, with `_meta` holding the progress
 * token and, in the stateless revision, what every request declares. */
JsonObject *
_tb_mcp_client_build_params (TbMcpClient *self,
                             JsonNode    *params,
                             const char  *progress_token)
{
  JsonObject *given = params != NULL && JSON_NODE_HOLDS_OBJECT (params)
                      ? json_node_get_object (params) : NULL;
  JsonObject *copy;
  JsonObject *meta;
  JsonObjectIter iter;
  const char *member;
  JsonNode *value;

  if (progress_token == NULL && !self->stateless)
    return given != NULL ? json_object_ref (given) : NULL;

  copy = json_object_new ();
  meta = json_object_new ();
  if (given != NULL)
    {
      json_object_iter_init_ordered (&iter, given);
      while (json_object_iter_next_ordered (&iter, &member, &value))
        {
          if (!g_str_equal (member, "_meta"))
            json_object_set_member (copy, member, json_node_copy (value));
          else if (JSON_NODE_HOLDS_OBJECT (value))
            {
              JsonObjectIter inner;
              const char *key;
              JsonNode *item;

              json_object_iter_init_ordered (&inner, json_node_get_object (value));
              while (json_object_iter_next_ordered (&inner, &key, &item))
                json_object_set_member (meta, key, json_node_copy (item));
            }
        }
    }
  if (progress_token != NULL)
    json_object_set_string_member (meta, "progressToken", progress_token);
  if (self->stateless)
    _tb_mcp_client_add_meta (self, meta);
  json_object_set_object_member (copy, "_meta", meta);
  return copy;
}

/* The stateless revision's `_meta` of every request. */
void
_tb_mcp_client_add_meta (TbMcpClient *self,
                         JsonObject  *meta)
{
  JsonObject *capabilities;
  JsonObject *extensions;

  json_object_set_string_member (meta, "io.modelcontextprotocol/protocolVersion",
                                 TB_MCP_PROTOCOL_VERSION_STATELESS);
  json_object_set_object_member (meta, "io.modelcontextprotocol/clientInfo",
                                 _tb_mcp_client_build_info ());
  capabilities = _tb_mcp_client_build_capabilities (self);
  /* Tasks (tb-mcp-task.c) are an extension of this revision. */
  extensions = json_object_new ();
  json_object_set_object_member (extensions, TB_MCP_TASKS_EXTENSION, json_object_new ());
  json_object_set_object_member (capabilities, "extensions", extensions);
  json_object_set_object_member (meta, "io.modelcontextprotocol/clientCapabilities",
                                 capabilities);
  if (self->log_level != NULL)
    json_object_set_string_member (meta, "io.modelcontextprotocol/logLevel", self->log_level);
}

static void probe (TbMcpClient  *self,
                   GCancellable *cancellable);

static void
initialize_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  TbMcpClient *self = TB_MCP_CLIENT (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = NULL;
  JsonObject *object_result;
  const char *version;

  answer = tb_mcp_client_request_finish (self, result, &error);
  if (self->connect_task == NULL)
    return;
  if (answer == NULL)
    {
      g_autofree char *cause = NULL;

      if (g_error_matches (error, TB_MCP_ERROR, TB_MCP_ERROR_DISCONNECTED))
        return;
      /* A server that was only slow to start may answer discovery now:
       * asked once more, with the whole time limit. */
      if (self->probe_silent && g_error_matches (error, TB_MCP_ERROR, TB_MCP_ERROR_REMOTE))
        {
          self->probe_silent = FALSE;
          _tb_mcp_client_log (self, "client", "info",
                              _("The server refused the initialize handshake after a silent "
                                "server/discover; asking server/discover again"));
          probe (self, g_task_get_cancellable (G_TASK (result)));
          return;
        }
      cause = g_strdup_printf (_("did not complete the initialization: %s"), error->message);
      _tb_mcp_client_fail (self, error->code, cause);
      return;
    }

  object_result = json_node_get_object (answer);
  version = tb_json_object_get_string (object_result, "protocolVersion");
  if (!is_handshake_version (version))
    {
      g_autofree char *cause =
        /* Translators: a version the server named, then the ones the client knows */
        g_strdup_printf (_("speaks protocol revision “%s”, which this client does not know "
                           "(it knows %s, %s and %s)"),
                         version ? version : "?", handshake_versions[0], handshake_versions[1],
                         handshake_versions[2]);

      _tb_mcp_client_fail (self, TB_MCP_ERROR_VERSION, cause);
      return;
    }

  _tb_mcp_client_set_ready (self, version, object_result);
  if (self->http != NULL)
    _tb_mcp_http_set_protocol_version (self->http, version);

  _tb_mcp_client_send_notification (self, "notifications/initialized", NULL);
  if (self->http != NULL)
    _tb_mcp_http_open_stream (self->http);
  _tb_mcp_client_start_listing (self);
}

static void
start_initialize (TbMcpClient  *self,
                  GCancellable *cancellable)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, initialize_cb, NULL);
  JsonObject *params = json_object_new ();
  g_autoptr(JsonNode) node = NULL;

  set_stateless (self, FALSE);
  json_object_set_string_member (params, "protocolVersion", TB_MCP_PROTOCOL_VERSION);
  json_object_set_object_member (params, "capabilities",
                                 _tb_mcp_client_build_capabilities (self));
  json_object_set_object_member (params, "clientInfo", _tb_mcp_client_build_info ());
  node = tb_json_node_take_object (params);
  _tb_mcp_client_start_request (self, "initialize", node, self->request_timeout_ms, FALSE,
                                task);
}

/* The revisions a server named, as one line for a message. */
static char *
list_versions (JsonNode *versions)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) names = NULL;

  if (versions != NULL && JSON_NODE_HOLDS_ARRAY (versions))
    for (guint i = 0; i < json_array_get_length (json_node_get_array (versions)); i++)
      {
        JsonNode *item = json_array_get_element (json_node_get_array (versions), i);

        if (JSON_NODE_HOLDS_VALUE (item) && json_node_get_value_type (item) == G_TYPE_STRING)
          {
            g_autofree char *shown = tb_text_shorten (json_node_get_string (item), -1, 41);

            g_strv_builder_add (builder, shown);
          }
      }
  names = g_strv_builder_end (builder);
  return names[0] != NULL ? g_strjoinv (", ", names) : g_strdup ("?");
}

static gboolean
versions_contain (JsonNode   *versions,
                  const char *version)
{
  if (versions == NULL || !JSON_NODE_HOLDS_ARRAY (versions))
    return FALSE;
  for (guint i = 0; i < json_array_get_length (json_node_get_array (versions)); i++)
    {
      JsonNode *item = json_array_get_element (json_node_get_array (versions), i);

      if (JSON_NODE_HOLDS_VALUE (item) && json_node_get_value_type (item) == G_TYPE_STRING &&
          g_str_equal (json_node_get_string (item), version))
        return TRUE;
    }
  return FALSE;
}


/* A stateless server that refused the revision asked for: it is asked
 * again once when it lists the stateless revision after all; else one of
 * the handshake revisions it lists is spoken; else there is none in
 * common. */
static void
choose_from (TbMcpClient  *self,
             JsonNode     *versions,
             GCancellable *cancellable)
{
  g_autofree char *listed = list_versions (versions);
  g_autofree char *cause = NULL;

  if (versions_contain (versions, TB_MCP_PROTOCOL_VERSION_STATELESS) && self->probes < 2)
    {
      probe (self, cancellable);
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (handshake_versions); i++)
    if (self->protocol_choice != TB_MCP_PROTOCOL_STATELESS &&
        versions_contain (versions, handshake_versions[i]))
      {
        start_initialize (self, cancellable);
        return;
      }
  cause = g_strdup_printf (_("speaks the protocol revisions %s; this client speaks %s, and "
                             "%s with the initialize handshake"),
                           listed, TB_MCP_PROTOCOL_VERSION_STATELESS, TB_MCP_PROTOCOL_VERSION);
  _tb_mcp_client_fail (self, TB_MCP_ERROR_VERSION, cause);
}

/* Not a stateless server: the handshake, unless the person wants the
 * stateless revision only. */
static void
fall_back (TbMcpClient  *self,
           const char   *said,
           GCancellable *cancellable)
{
  g_autofree char *cause = NULL;

  if (self->protocol_choice != TB_MCP_PROTOCOL_STATELESS)
    {
      start_initialize (self, cancellable);
      return;
    }
  cause = g_strdup_printf (_("does not speak protocol revision %s (its answer to "
                             "server/discover: %s); choose “auto” or %s to use it"),
                           TB_MCP_PROTOCOL_VERSION_STATELESS, said, TB_MCP_PROTOCOL_VERSION);
  _tb_mcp_client_fail (self, TB_MCP_ERROR_VERSION, cause);
}

static void
discover_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  TbMcpClient *self = TB_MCP_CLIENT (object);
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = g_task_propagate_pointer (G_TASK (result), &error);
  JsonObject *response;
  JsonNode *result_node;
  JsonNode *error_node;

  if (self->connect_task == NULL)
    return;

  if (answer == NULL)
    {
      /* Gone (the process exited, the connection broke) or a sign-in that
       * failed: the connection has failed already or fails now. */
      if (g_error_matches (error, TB_MCP_ERROR, TB_MCP_ERROR_DISCONNECTED))
        return;
      if (g_error_matches (error, TB_MCP_ERROR, TB_MCP_ERROR_AUTHORIZATION) ||
          g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *cause = g_strdup_printf (_("did not complete the initialization: %s"),
                                                    error->message);

          _tb_mcp_client_fail (self, error->code, cause);
          return;
        }
      /* Silence, an HTTP refusal without a stateless error, an answer that
       * is not JSON: a server of the handshake revisions. */
      self->probe_silent = self->probes == 1 &&
                           g_error_matches (error, TB_MCP_ERROR, TB_MCP_ERROR_TIMEOUT);
      fall_back (self, error->message, cancellable);
      return;
    }

  response = json_node_get_object (answer);
  result_node = json_object_get_member (response, "result");
  error_node = json_object_get_member (response, "error");

  if (result_node != NULL && JSON_NODE_HOLDS_OBJECT (result_node))
    {
      JsonObject *discovered = json_node_get_object (result_node);
      JsonNode *versions = json_object_get_member (discovered, "supportedVersions");

      if (!versions_contain (versions, TB_MCP_PROTOCOL_VERSION_STATELESS))
        {
          if (versions == NULL)
            {
              /* A result without versions is no discovery result. */
              fall_back (self, _("a result without supportedVersions"), cancellable);
              return;
            }
          choose_from (self, versions, cancellable);
          return;
        }
      _tb_mcp_client_set_ready (self, TB_MCP_PROTOCOL_VERSION_STATELESS, discovered);
      _tb_mcp_client_start_listing (self);
      return;
    }

  if (error_node != NULL && JSON_NODE_HOLDS_OBJECT (error_node))
    {
      JsonObject *rpc_error = json_node_get_object (error_node);
      const char *message = tb_json_object_get_string (rpc_error, "message");
      g_autofree char *shown = tb_text_shorten (message != NULL ? message : "", -1, 501);
      gint64 code = 0;

      tb_json_object_get_int_in_range (rpc_error, "code", G_MININT32, G_MAXINT32, &code, NULL);
      if (code == UNSUPPORTED_PROTOCOL_VERSION)
        {
          JsonNode *data = json_object_get_member (rpc_error, "data");
          JsonNode *supported = data != NULL && JSON_NODE_HOLDS_OBJECT (data)
                                ? json_object_get_member (json_node_get_object (data),
                                                          "supported")
                                : NULL;

          choose_from (self, supported, cancellable);
          return;
        }
      if (code == HEADER_MISMATCH || code == MISSING_REQUIRED_CLIENT_CAPABILITY)
        {
          g_autofree char *cause =
            /* Translators: the revision, the error code, the server's message */
            g_strdup_printf (_("speaks protocol revision %s but refused the discovery "
                               "request (error %d: %s)"),
                             TB_MCP_PROTOCOL_VERSION_STATELESS, (int) code, shown);

          _tb_mcp_client_fail (self, TB_MCP_ERROR_REMOTE, cause);
          return;
        }
      {
        g_autofree char *said = g_strdup_printf (_("error %d: %s"), (int) code, shown);

        fall_back (self, said, cancellable);
      }
      return;
    }

  fall_back (self, _("an answer with neither a result nor an error"), cancellable);
}

/**
 * _tb_mcp_revision_start:
 * @self: a client whose transport has just started
 * @cancellable: (nullable): the connection's cancellable
 *
 * Settles on a revision and then lists the tools, which completes the
 * connection (or fails it).
 */
void
_tb_mcp_revision_start (TbMcpClient  *self,
                        GCancellable *cancellable)
{
  self->probes = 0;
  self->probe_silent = FALSE;
  if (self->protocol_choice == TB_MCP_PROTOCOL_HANDSHAKE)
    {
      start_initialize (self, cancellable);
      return;
    }
  probe (self, cancellable);
}

static void
probe (TbMcpClient  *self,
       GCancellable *cancellable)
{
  g_autoptr(GTask) task = NULL;
  guint timeout_ms = self->request_timeout_ms;

  /* The first probe of a stdio server waits a little: a server of the
   * handshake revisions may ignore it. */
  if (self->kind == TRANSPORT_STDIO && self->protocol_choice == TB_MCP_PROTOCOL_AUTO &&
      self->probes == 0)
    timeout_ms = MIN (timeout_ms, PROBE_TIMEOUT_MS);
  self->probes++;
  set_stateless (self, TRUE);
  task = g_task_new (self, cancellable, discover_cb, NULL);
  _tb_mcp_client_start_request (self, "server/discover", NULL, timeout_ms, TRUE, task);
}
