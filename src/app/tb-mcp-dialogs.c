/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp-dialogs"

#include "config.h"

#include "tb-elicitation-dialog.h"
#include "tb-mcp-dialogs.h"
#include "tb-mcp-dialogs-private.h"
#include "tb-sampling-dialog.h"

/* MCP servers asking the person, wired to a window: each attached client's
 * `elicitation/create` request opens a TbElicitationDialog on the window,
 * each `sampling/createMessage` a TbSamplingDialog with the model the
 * window's provider function gives. The dialogs answer their requests
 * themselves; what is kept here is per window.
 *
 * That state is one WindowDialogs attached to the window the first time it
 * is needed, rather than a field of TbWindow: the glue then works on any
 * GtkWindow (the tests use plain ones), and TbWindow need not know MCP. */

#define WINDOW_DIALOGS_KEY "tb-mcp-dialogs"

typedef struct
{
  /* Weak: the dialog leaves when it is destroyed. */
  AdwMessageDialog  *open;
  TbMcpProviderFunc  provider_func;
  gpointer           provider_data;
} WindowDialogs;

static void
window_dialogs_free (gpointer data)
{
  WindowDialogs *dialogs = data;

  g_clear_weak_pointer (&dialogs->open);
  g_free (dialogs);
}

static WindowDialogs *
window_dialogs (GtkWindow *window)
{
  WindowDialogs *dialogs = g_object_get_data (G_OBJECT (window), WINDOW_DIALOGS_KEY);

  if (dialogs == NULL)
    {
      dialogs = g_new0 (WindowDialogs, 1);
      g_object_set_data_full (G_OBJECT (window), WINDOW_DIALOGS_KEY, dialogs,
                              window_dialogs_free);
    }
  return dialogs;
}

static void
present_dialog (GtkWindow        *window,
                AdwMessageDialog *dialog)
{
  g_set_weak_pointer (&window_dialogs (window)->open, dialog);
  gtk_window_present (GTK_WINDOW (dialog));
}

static gboolean
on_elicitation (TbMcpClient        *client,
                TbMcpServerRequest *request,
                GtkWindow          *window)
{
  present_dialog (window, tb_elicitation_dialog_new (window, request));
  return TRUE;
}

static gboolean
on_sampling (TbMcpClient        *client,
             TbMcpServerRequest *request,
             GtkWindow          *window)
{
  WindowDialogs *dialogs = window_dialogs (window);
  AdwMessageDialog *dialog = tb_sampling_dialog_new (window, request);

  if (dialogs->provider_func != NULL)
    {
      g_autoptr(TbProvider) provider = dialogs->provider_func (window, dialogs->provider_data);

      tb_sampling_dialog_set_provider (TB_SAMPLING_DIALOG (dialog), provider);
    }
  present_dialog (window, dialog);
  return TRUE;
}

/**
 * tb_mcp_dialogs_set_provider_func:
 * @window: a window with attached clients
 * @func: (nullable): gives the model a sampling dialog may ask
 * @user_data: closure for @func
 */
void
tb_mcp_dialogs_set_provider_func (GtkWindow         *window,
                                  TbMcpProviderFunc  func,
                                  gpointer           user_data)
{
  WindowDialogs *dialogs;

  g_return_if_fail (GTK_IS_WINDOW (window));

  dialogs = window_dialogs (window);
  dialogs->provider_func = func;
  dialogs->provider_data = func != NULL ? user_data : NULL;
}

/**
 * tb_mcp_dialogs_attach:
 * @window: the window the dialogs belong to
 * @client: an MCP client
 *
 * Answers the client's elicitation and sampling requests through dialogs
 * on @window, for as long as the window lives. Set the client's
 * capabilities so that the server knows it may ask.
 */
void
tb_mcp_dialogs_attach (GtkWindow   *window,
                       TbMcpClient *client)
{
  g_return_if_fail (GTK_IS_WINDOW (window));
  g_return_if_fail (TB_IS_MCP_CLIENT (client));

  g_signal_connect_object (client, "elicitation-requested", G_CALLBACK (on_elicitation),
                           window, 0);
  g_signal_connect_object (client, "sampling-requested", G_CALLBACK (on_sampling), window, 0);
}

/**
 * tb_mcp_dialogs_get_open:
 * @window: a window
 *
 * Returns: (transfer none) (nullable): the request dialog open on @window
 */
AdwMessageDialog *
tb_mcp_dialogs_get_open (GtkWindow *window)
{
  g_return_val_if_fail (GTK_IS_WINDOW (window), NULL);

  return window_dialogs (window)->open;
}

static void
on_client_started (TbToolSources *sources,
                   TbMcpClient   *client,
                   GtkWindow     *window)
{
  tb_mcp_dialogs_attach (window, client);
}

/**
 * tb_mcp_dialogs_attach_sources:
 * @window: the window the dialogs belong to
 * @sources: the MCP servers of the preferences
 *
 * Answers the requests of every server @sources runs, and of those it
 * starts later (added, enabled or changed in the preferences), through
 * dialogs of @window, for as long as @window exists.
 */
void
tb_mcp_dialogs_attach_sources (GtkWindow     *window,
                               TbToolSources *sources)
{
  g_autoptr(GList) clients = NULL;

  g_return_if_fail (GTK_IS_WINDOW (window));
  g_return_if_fail (TB_IS_TOOL_SOURCES (sources));

  clients = tb_tool_sources_list_clients (sources);
  for (GList *l = clients; l != NULL; l = l->next)
    tb_mcp_dialogs_attach (window, l->data);
  g_signal_connect_object (sources, "client-started", G_CALLBACK (on_client_started), window,
                           0);
}
