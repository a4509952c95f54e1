/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the files of TbToolRegistry share: the collection
 * (tb-tool-registry.c), the wire names and definitions
 * (tb-tool-registry-wire.c) and the call runner (tb-tool-registry-call.c). */

#include "tb-tool-registry.h"

G_BEGIN_DECLS

struct _TbToolRegistry
{
  GObject      parent_instance;

  GRWLock      lock;
  GPtrArray   *tools;
  GHashTable  *by_name;

  /* Used only as a writer lock: GRWLock is built on pthread_rwlock_t,
   * which ThreadSanitizer and helgrind understand, where GMutex's futex
   * is invisible to them and would drown real reports in false ones. */
  GRWLock      cache_lock;
  JsonNode    *definitions[TB_DEFINITION_FORMAT_OPENAI_RESPONSES + 1];
  /* Per naming rule: [0] the strict one most providers share,
   * [1] Gemini's, which also allows dots and colons. */
  GHashTable  *real_to_wire[2];
  GHashTable  *wire_to_real[2];

  guint        default_timeout_ms;
  guint64      next_call_id;

  /* Grows whenever what tb_tool_registry_get_model_tools() gives would
   * change: a tool comes or goes, or the default time limit changes
   * (atomic). */
  guint        generation;

  /* A person's word on what tools do, by name (under lock). */
  GHashTable  *hint_overrides;
};

typedef enum {
  TB_TOOL_REGISTRY_TOOL_REGISTERED,
  TB_TOOL_REGISTRY_TOOL_UNREGISTERED,
  TB_TOOL_REGISTRY_CALL_STARTED,
  TB_TOOL_REGISTRY_CALL_FINISHED,
  TB_TOOL_REGISTRY_CALL_PROGRESS,
  TB_TOOL_REGISTRY_N_SIGNALS
} TbToolRegistrySignal;

extern guint _tb_tool_registry_signals [TB_TOOL_REGISTRY_N_SIGNALS];

guint _tb_tool_registry_get_generation (TbToolRegistry *self);

G_END_DECLS
