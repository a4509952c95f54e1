/* SPDX-License-Identifier: GPL-3.0-or-later */

/* What opening a TbToolSourceSet started: a registry with the tools, the
 * MCP server processes behind some of them, the workspace, and what went
 * wrong on the way. Closing it stops the servers; a session never leaves
 * a process behind. */

#define G_LOG_DOMAIN "tb-tool-session"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "tb-json.h"
#include "tb-mcp-client.h"
#include "tb-mcp-server-request.h"
#include "tb-tool-session-private.h"

struct _TbToolSession
{
  GObject         parent_instance;

  TbToolRegistry *registry;
  TbWorkspace    *workspace;
  char           *private_dir;
  GPtrArray      *clients;
  GPtrArray      *problems;
  GPtrArray      *server_errors;
  gboolean        closed;
  TbElicitationAnswer elicitation;
};

enum {
  NOTICE,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

/**
 * TbToolSession:
 *
 * What opening a #TbToolSourceSet started: a registry with the tools, the
 * MCP servers behind some of them, the workspace, and what went wrong on the
 * way. Close it with tb_tool_session_close() when the run is over; a session
 * never leaves a server process behind, even when it is freed without being
 * closed.
 */
G_DEFINE_FINAL_TYPE (TbToolSession, tb_tool_session, G_TYPE_OBJECT)

static void
remove_private_dir (const char *dir)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;

  /* Only the workspace copy and what saving it left beside it. */
  while (handle != NULL && (name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (dir);
}

static void
tb_tool_session_dispose (GObject *object)
{
  TbToolSession *self = (TbToolSession *)object;

  tb_tool_session_close (self);

  G_OBJECT_CLASS (tb_tool_session_parent_class)->dispose (object);
}

static void
tb_tool_session_finalize (GObject *object)
{
  TbToolSession *self = (TbToolSession *)object;

  g_clear_object (&self->registry);
  g_clear_pointer (&self->clients, g_ptr_array_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_clear_pointer (&self->server_errors, g_ptr_array_unref);
  g_free (self->private_dir);

  G_OBJECT_CLASS (tb_tool_session_parent_class)->finalize (object);
}

static void
tb_tool_session_class_init (TbToolSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tb_tool_session_dispose;
  object_class->finalize = tb_tool_session_finalize;

  /**
   * TbToolSession::notice:
   * @self: the session
   * @text: a sentence for the person watching
   *
   * Something a server did that nobody was asked about: an MCP server
   * asked for input and the session answered it as told.
   */
  signals [NOTICE] =
    g_signal_new ("notice", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
tb_tool_session_init (TbToolSession *self)
{
  self->clients = g_ptr_array_new_with_free_func (g_object_unref);
  self->problems = g_ptr_array_new_null_terminated (1, g_free, TRUE);
  self->server_errors = g_ptr_array_new_null_terminated (1, g_free, TRUE);
}

TbToolSession *
_tb_tool_session_new (TbToolRegistry *registry)
{
  TbToolSession *self = g_object_new (TB_TYPE_TOOL_SESSION, NULL);

  self->registry = g_object_ref (registry);
  return self;
}

void
_tb_tool_session_set_workspace (TbToolSession *self,
                                TbWorkspace   *workspace,
                                const char    *private_dir)
{
  g_set_object (&self->workspace, workspace);
  g_free (self->private_dir);
  self->private_dir = g_strdup (private_dir);
}

void
_tb_tool_session_add_client (TbToolSession *self,
                             TbMcpClient   *client)
{
  g_ptr_array_add (self->clients, g_object_ref (client));
}

void
_tb_tool_session_add_problem (TbToolSession *self,
                              const char    *problem)
{
  g_ptr_array_add (self->problems, g_strdup (problem));
}

static void
notice (TbToolSession *self,
        const char    *format,
        ...) G_GNUC_PRINTF (2, 3);

static void
notice (TbToolSession *self,
        const char    *format,
        ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  g_signal_emit (self, signals [NOTICE], 0, text);
}

static gboolean
elicitation_cb (TbMcpClient        *client,
                TbMcpServerRequest *request,
                gpointer            user_data)
{
  TbToolSession *self = user_data;
  JsonObject *params = json_node_get_object (tb_mcp_server_request_get_params (request));
  const char *message = (tb_json_object_get_string (params, "message") ?: "");

  notice (self, _("the MCP server “%s” asks: %s"), tb_mcp_client_get_name (client), message);
  switch (self->elicitation)
    {
    case TB_ELICITATION_ANSWER_ACCEPT_DEFAULTS:
      {
        g_autoptr(JsonNode) content =
          tb_mcp_elicitation_defaults (json_object_get_member (params, "requestedSchema"));
        g_autofree char *shown = tb_json_to_string (content, FALSE);

        notice (self, _("answered: accept, with the defaults %s"), shown);
        tb_mcp_server_request_accept (request, content);
      }
      break;

    case TB_ELICITATION_ANSWER_DECLINE:
      notice (self, "%s", _("answered: decline"));
      tb_mcp_server_request_decline (request);
      break;

    case TB_ELICITATION_ANSWER_CANCEL:
    case TB_ELICITATION_ANSWER_NONE:
    default:
      notice (self, "%s", _("answered: cancel"));
      tb_mcp_server_request_cancel (request);
      break;
    }
  return TRUE;
}

void
_tb_tool_session_answer_elicitations (TbToolSession       *self,
                                      TbMcpClient         *client,
                                      TbElicitationAnswer  answer)
{
  self->elicitation = answer;
  g_signal_connect_object (client, "elicitation-requested", G_CALLBACK (elicitation_cb), self, 0);
}

void
_tb_tool_session_add_server_error (TbToolSession *self,
                                   const char    *message)
{
  g_ptr_array_add (self->server_errors, g_strdup (message));
}

/**
 * tb_tool_session_get_registry:
 * @self: a session
 *
 * Gives the registry that holds every tool the sources offered: the demo
 * tools, file tools, command tools, workspace tools and the tools of the
 * MCP servers that started.
 *
 * Returns: (transfer none): the tools of the session
 */
TbToolRegistry *
tb_tool_session_get_registry (TbToolSession *self)
{
  g_return_val_if_fail (TB_IS_TOOL_SESSION (self), NULL);
  return self->registry;
}

/**
 * tb_tool_session_get_workspace:
 * @self: a session
 *
 * Gives the workspace the session opened, whose facts and draft its tools
 * read and propose.
 *
 * Returns: (transfer none) (nullable): the workspace the sources named
 *   (a private copy when they asked for one)
 */
TbWorkspace *
tb_tool_session_get_workspace (TbToolSession *self)
{
  g_return_val_if_fail (TB_IS_TOOL_SESSION (self), NULL);
  return self->workspace;
}

/**
 * tb_tool_session_get_mcp_clients:
 * @self: a session
 *
 * Gives the MCP servers the session started, connected or not.
 *
 * Returns: (transfer none) (element-type TbMcpClient): the MCP servers of
 *   the session, in the order the sources named them
 */
GPtrArray *
tb_tool_session_get_mcp_clients (TbToolSession *self)
{
  g_return_val_if_fail (TB_IS_TOOL_SESSION (self), NULL);
  return self->clients;
}

/**
 * tb_tool_session_get_problems:
 * @self: a session
 *
 * Lists the sources that could not be used, so that a program can show
 * them beside the tools that did load.
 *
 * Returns: (transfer none) (array zero-terminated=1): one sentence per
 *   manifest or server entry that was left out; the rest loaded
 */
const char * const *
tb_tool_session_get_problems (TbToolSession *self)
{
  g_return_val_if_fail (TB_IS_TOOL_SESSION (self), NULL);
  return (const char * const *) self->problems->pdata;
}

/**
 * tb_tool_session_get_server_errors:
 * @self: a session
 *
 * Lists the MCP servers that did not start, each with the reason.
 *
 * Returns: (transfer none) (array zero-terminated=1): one sentence per MCP
 *   server that did not start or answer its handshake
 */
const char * const *
tb_tool_session_get_server_errors (TbToolSession *self)
{
  g_return_val_if_fail (TB_IS_TOOL_SESSION (self), NULL);
  return (const char * const *) self->server_errors->pdata;
}

/**
 * tb_tool_session_close:
 * @self: a session
 *
 * Stops every MCP server of the session and removes its private
 * workspace copy. Calling it again does nothing.
 */
void
tb_tool_session_close (TbToolSession *self)
{
  g_return_if_fail (TB_IS_TOOL_SESSION (self));

  if (self->closed)
    return;
  self->closed = TRUE;

  for (guint i = 0; i < self->clients->len; i++)
    {
      TbMcpClient *client = g_ptr_array_index (self->clients, i);

      g_signal_handlers_disconnect_by_data (client, self);
      tb_mcp_client_disconnect (client);
    }
  g_clear_object (&self->workspace);
  if (self->private_dir != NULL)
    remove_private_dir (self->private_dir);
}
