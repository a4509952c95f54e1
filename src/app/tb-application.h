/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>
#include <toolbench.h>

#include "tb-history.h"

G_BEGIN_DECLS

#define TB_TYPE_APPLICATION (tb_application_get_type())

G_DECLARE_FINAL_TYPE (TbApplication, tb_application, TB, APPLICATION, AdwApplication)

TbApplication  *tb_application_new          (void);
TbToolRegistry *tb_application_get_registry (TbApplication *self);
TbHistory      *tb_application_get_history  (TbApplication *self);

G_END_DECLS
