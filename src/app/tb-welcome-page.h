/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>

#include "tb-window.h"

G_BEGIN_DECLS

#define TB_SAMPLE_TRACE_RESOURCE "/io/github/toolbench/Toolbench/samples/demo-trace.jsonl"

#define TB_TYPE_WELCOME_PAGE (tb_welcome_page_get_type ())
G_DECLARE_FINAL_TYPE (TbWelcomePage, tb_welcome_page, TB, WELCOME_PAGE, AdwBin)

GtkWidget *tb_welcome_page_new          (void);
gboolean   tb_welcome_page_offer        (TbWindow  *window);

G_END_DECLS
