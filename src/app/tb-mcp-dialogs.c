/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp-dialogs"

#include "config.h"

#include "tb-elicitation-dialog.h"
#include "tb-mcp-dialogs.h"
#include "tb-sampling-dialog.h"

/* MCP servers asking the person: an `elicitation/create` request becomes a
 * dialog with a form generated from its requested schema (the Tool page's
 * argument editor) and Accept / Decline / Cancel; a `sampling/createMessage`
 * request shows the messages the server wants completed and lets the person
 * write the answer, or decline. Closing a dialog cancels; a request the
 * server withdraws closes its dialog without an answer. Nothing is answered
 * without the person. */

#define OPEN_DIALOG_KEY "tb-mcp-open-dialog"

static void
forget_dialog (AdwMessageDialog *dialog)
{
  GtkWindow *parent = g_object_get_data (G_OBJECT (dialog), "tb-parent");

  if (parent != NULL && g_object_get_data (G_OBJECT (parent), OPEN_DIALOG_KEY) == dialog)
    g_object_set_data (G_OBJECT (parent), OPEN_DIALOG_KEY, NULL);
}

static void
present_dialog (GtkWindow        *window,
                AdwMessageDialog *dialog)
{
  g_object_set_data (G_OBJECT (window), OPEN_DIALOG_KEY, dialog);
  g_object_set_data (G_OBJECT (dialog), "tb-parent", window);
  g_signal_connect (dialog, "destroy", G_CALLBACK (forget_dialog), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Wiring a client to a window. */

static gboolean
on_elicitation (TbMcpClient        *client,
                TbMcpServerRequest *request,
                GtkWindow          *window)
{
  present_dialog (window, tb_elicitation_dialog_new (window, request));
  return TRUE;
}

typedef struct
{
  TbMcpProviderFunc func;
  gpointer          user_data;
} ProviderFunc;

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
  ProviderFunc *provider_func = NULL;

  g_return_if_fail (GTK_IS_WINDOW (window));

  if (func != NULL)
    {
      provider_func = g_new0 (ProviderFunc, 1);
      provider_func->func = func;
      provider_func->user_data = user_data;
    }
  g_object_set_data_full (G_OBJECT (window), "tb-mcp-provider-func", provider_func, g_free);
}

static gboolean
on_sampling (TbMcpClient        *client,
             TbMcpServerRequest *request,
             GtkWindow          *window)
{
  AdwMessageDialog *dialog = tb_sampling_dialog_new (window, request);
  ProviderFunc *provider_func = g_object_get_data (G_OBJECT (window), "tb-mcp-provider-func");

  if (provider_func != NULL)
    {
      g_autoptr(TbProvider) provider = provider_func->func (window, provider_func->user_data);

      tb_sampling_dialog_set_provider (TB_SAMPLING_DIALOG (dialog), provider);
    }
  present_dialog (window, dialog);
  return TRUE;
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
  return g_object_get_data (G_OBJECT (window), OPEN_DIALOG_KEY);
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
