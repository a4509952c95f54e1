/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-resource-view.h"
#include "tb-resource-window.h"

G_BEGIN_DECLS

/* For the tests. */
TbResourceView *tb_resource_window_get_view (TbResourceWindow *self);

G_END_DECLS
