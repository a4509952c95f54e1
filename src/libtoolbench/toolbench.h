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
# include "tb-redact.h"
# include "tb-trace-file.h"
# include "tb-trace-io.h"
# include "tb-replay.h"
# include "tb-schema.h"
# include "tb-mcp-client.h"
# include "tb-mcp-tool.h"
# include "tb-workspace-store.h"
# include "tb-fact-proposal.h"
# include "tb-confirmation.h"
# include "tb-workspace.h"
# include "tb-loop-types.h"
# include "tb-tool-call.h"
# include "tb-message.h"
# include "tb-trace.h"
# include "tb-provider.h"
# include "tb-http-provider.h"
# include "tb-openai-provider.h"
# include "tb-scripted-provider.h"
# include "tb-dispatch-loop.h"
# include "tb-anthropic-provider.h"
# include "tb-gemini-provider.h"
# include "tb-eval.h"
# include "tb-command-tool.h"
# include "tb-file-tools.h"
# include "tb-workspace-store.h"
# include "tb-fact-proposal.h"
# include "tb-confirmation.h"
# include "tb-workspace.h"
# include "tb-workspace-loop.h"
# include "tb-workspace-file-store.h"
#undef TOOLBENCH_INSIDE
