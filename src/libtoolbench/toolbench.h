/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#define TOOLBENCH_INSIDE
# include "tb-version.h"
# include "tb-types.h"
# include "tb-enums.h"
# include "tb-json.h"
# include "tb-schema-error.h"
# include "tb-tool-result.h"
# include "tb-tool.h"
# include "tb-tool-registry.h"
# include "tb-demo-tools.h"
# include "tb-schema.h"
# include "tb-mcp-client.h"
# include "tb-mcp-tool.h"
# include "tb-command-tool.h"
# include "tb-file-tools.h"
#undef TOOLBENCH_INSIDE
