/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>
#include <toolbench.h>

#include "tb-app-util.h"

G_BEGIN_DECLS

/* The searchable list of a server's window page (its prompts, its
 * resources), embedded in the page's instance: the widgets its template
 * names "pages", "search_entry", "stack" (with children "loading",
 * "status" and "list"), "spinner", "status_page" and "list", and the
 * store they show. */
typedef struct
{
  GtkStack           *pages;
  GtkSearchEntry     *search_entry;
  GtkStack           *stack;
  GtkSpinner         *spinner;
  AdwStatusPage      *status_page;
  GtkListView        *list;

  char               *status_text;   /* what status_page says, as text */
  GListStore         *store;
  GtkFilterListModel *filtered;
  GtkCustomFilter    *filter;
  char              **terms;
  GQuark              search_quark;
  TbSearchText        search_text;
  GCancellable       *cancellable;
} TbMcpListing;

void         tb_mcp_listing_bind_template (GtkWidgetClass *widget_class,
                                           gssize          offset);
void         tb_mcp_listing_init          (TbMcpListing   *self,
                                           GType           item_type,
                                           const char     *search_key_name,
                                           TbSearchText    search_text,
                                           GCallback       setup,
                                           GCallback       bind,
                                           GCallback       unbind,
                                           gpointer        user_data);
void         tb_mcp_listing_dispose       (TbMcpListing   *self);
void         tb_mcp_listing_finalize      (TbMcpListing   *self);
void         tb_mcp_listing_search_changed (TbMcpListing  *self);
void         tb_mcp_listing_show_status   (TbMcpListing   *self,
                                           const char     *icon,
                                           const char     *title,
                                           const char     *description);
void         tb_mcp_listing_show_empty    (TbMcpListing   *self,
                                           const char     *icon,
                                           const char     *title,
                                           const char     *description);
void         tb_mcp_listing_show_list     (TbMcpListing   *self,
                                           const char     *no_match_title,
                                           const char     *no_match_text);
void         tb_mcp_listing_cancel        (TbMcpListing   *self);
gboolean     tb_mcp_listing_can_list      (TbMcpListing   *self,
                                           TbMcpClient    *client,
                                           const char     *capability,
                                           const char     *icon,
                                           const char     *not_running_text,
                                           const char     *none_title,
                                           const char     *none_text);
GCancellable *tb_mcp_listing_start        (TbMcpListing   *self);
gboolean     tb_mcp_listing_is_gone       (TbMcpListing   *self,
                                           GError         *error);
void         tb_mcp_listing_back          (TbMcpListing   *self);

const char  *tb_mcp_listing_get_state     (TbMcpListing   *self);
const char  *tb_mcp_listing_get_status_title (TbMcpListing *self);
guint        tb_mcp_listing_get_n_rows    (TbMcpListing   *self);
gpointer     tb_mcp_listing_get_row       (TbMcpListing   *self,
                                           guint           position);

G_END_DECLS
