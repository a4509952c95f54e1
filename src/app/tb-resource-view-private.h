/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-resource-view.h"

G_BEGIN_DECLS

/* For the tests: what the view shows. */
const char *tb_resource_view_get_page     (TbResourceView *self);
char       *tb_resource_view_dup_text     (TbResourceView *self);
const char *tb_resource_view_get_details  (TbResourceView *self);
const char *tb_resource_view_get_message  (TbResourceView *self);
const char *tb_resource_view_get_language (TbResourceView *self);

G_END_DECLS
