/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-history"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-history.h"
#include "tb-history-entry-private.h"

/* Every call the registry makes, whoever asked (the Tool page now, the loop
 * later), newest first. It listens to the registry's call signals, so the
 * history cannot miss a call or record one twice. */

struct _TbHistory
{
  GObject         parent_instance;

  TbToolRegistry *registry;
  GPtrArray      *entries;   /* newest first */
  GHashTable     *running;   /* call id → entry */

  /* The loop's calls run through a registry of its own for each
   * iteration, so they are read from the run's trace instead. */
  TbTrace        *trace;
  guint           trace_seen;
  GHashTable     *trace_calls;    /* call id → the tool-call event's call */
  GHashTable     *trace_running;  /* call id → entry */
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TbHistory, tb_history, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static GType
get_item_type (GListModel *model)
{
  return TB_TYPE_HISTORY_ENTRY;
}

static guint
get_n_items (GListModel *model)
{
  return TB_HISTORY (model)->entries->len;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  TbHistory *self = TB_HISTORY (model);

  if (position >= self->entries->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->entries, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
add_entry (TbHistory      *self,
           TbHistoryEntry *entry,
           GHashTable     *running)
{

  if (self->entries->len >= TB_HISTORY_MAX)
    {
      TbHistoryEntry *oldest = g_ptr_array_index (self->entries, self->entries->len - 1);

      /* Only if it is that entry: a call id may come back in another run. */
      const char *oldest_id = tb_history_entry_get_call_id (oldest);

      if (g_hash_table_lookup (self->running, oldest_id) == oldest)
        g_hash_table_remove (self->running, oldest_id);
      if (self->trace_running != NULL
          && g_hash_table_lookup (self->trace_running, oldest_id) == oldest)
        g_hash_table_remove (self->trace_running, oldest_id);
      g_ptr_array_remove_index (self->entries, self->entries->len - 1);
      g_list_model_items_changed (G_LIST_MODEL (self), self->entries->len, 1, 0);
    }

  g_ptr_array_insert (self->entries, 0, entry);
  g_hash_table_replace (running, (gpointer) tb_history_entry_get_call_id (entry), entry);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, 1);
}

static void
finish_entry (GHashTable   *running,
              const char   *call_id,
              TbToolResult *result)
{
  TbHistoryEntry *entry = g_hash_table_lookup (running, call_id);

  if (entry == NULL)
    return;
  /* The table's key is the entry's own id: finish before it may go. */
  g_object_ref (entry);
  g_hash_table_remove (running, call_id);
  tb_history_entry_finish (entry, result);
  g_object_unref (entry);
}

static void
on_call_started (TbToolRegistry *registry,
                 TbTool         *tool,
                 const char     *call_id,
                 JsonNode       *arguments,
                 TbHistory      *self)
{
  add_entry (self, tb_history_entry_new (tb_tool_get_name (tool), call_id, arguments, FALSE,
                                         FALSE),
             self->running);
}

static void
on_call_finished (TbToolRegistry *registry,
                  TbTool         *tool,
                  const char     *call_id,
                  TbToolResult   *result,
                  TbHistory      *self)
{
  finish_entry (self->running, call_id, result);
}

/* The loop's calls, from its trace: a call is listed when it is decided
 * to run (approved, or edited: then with the arguments that ran) and
 * finished by its result. Skipped and rejected calls ran no tool. */
static void
read_trace_event (TbHistory    *self,
                  TbTraceEvent *event)
{
  const char *type = tb_trace_event_get_event_type (event);
  JsonObject *payload = tb_trace_event_get_payload (event);

  if (g_str_equal (type, "tool-call"))
    {
      JsonObject *call = tb_json_object_get_object (payload, "call");
      const char *id = call != NULL ? tb_json_object_get_string (call, "id") : NULL;

      if (id != NULL)
        g_hash_table_replace (self->trace_calls, g_strdup (id), json_object_ref (call));
    }
  else if (g_str_equal (type, "decision"))
    {
      const char *id = tb_json_object_get_string (payload, "call_id");
      const char *decision = tb_json_object_get_string (payload, "decision");
      JsonObject *call = id != NULL ? g_hash_table_lookup (self->trace_calls, id) : NULL;
      gboolean edit = g_strcmp0 (decision, "edit") == 0;

      if (call == NULL)
        return;
      if (edit || g_strcmp0 (decision, "approve") == 0)
        {
          JsonNode *arguments = json_object_get_member (edit ? payload : call, "arguments");

          add_entry (self,
                     tb_history_entry_new (tb_json_object_get_string (call, "name"), id,
                                           arguments, TRUE, edit),
                     self->trace_running);
        }
      g_hash_table_remove (self->trace_calls, id);
    }
  else if (g_str_equal (type, "tool-result"))
    {
      const char *id = tb_json_object_get_string (payload, "call_id");
      JsonNode *node = json_object_get_member (payload, "result");
      g_autoptr(TbToolResult) result = NULL;

      if (id == NULL || node == NULL || !g_hash_table_contains (self->trace_running, id))
        return;
      result = tb_tool_result_from_json (node, NULL);
      if (result == NULL)
        result = tb_tool_result_new_failure (TB_TOOL_FAILURE_EXECUTION_FAILED,
                                             _("The trace holds a result that cannot be read."));
      finish_entry (self->trace_running, id, result);
    }
}

static void
on_trace_items_changed (TbHistory *self)
{
  guint n = tb_trace_get_n_events (self->trace);

  for (; self->trace_seen < n; self->trace_seen++)
    read_trace_event (self, tb_trace_get_event (self->trace, self->trace_seen));
}

static void
tb_history_dispose (GObject *object)
{
  TbHistory *self = (TbHistory *) object;

  if (self->registry != NULL)
    g_signal_handlers_disconnect_by_data (self->registry, self);
  g_clear_object (&self->registry);
  tb_history_follow_trace (self, NULL);

  G_OBJECT_CLASS (tb_history_parent_class)->dispose (object);
}

static void
tb_history_finalize (GObject *object)
{
  TbHistory *self = (TbHistory *) object;

  g_clear_pointer (&self->running, g_hash_table_unref);
  g_clear_pointer (&self->trace_running, g_hash_table_unref);
  g_clear_pointer (&self->trace_calls, g_hash_table_unref);
  g_clear_pointer (&self->entries, g_ptr_array_unref);

  G_OBJECT_CLASS (tb_history_parent_class)->finalize (object);
}

static void
tb_history_class_init (TbHistoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tb_history_dispose;
  object_class->finalize = tb_history_finalize;
}

static void
tb_history_init (TbHistory *self)
{
  self->entries = g_ptr_array_new_with_free_func (g_object_unref);
  self->running = g_hash_table_new (g_str_hash, g_str_equal);
  self->trace_running = g_hash_table_new (g_str_hash, g_str_equal);
  self->trace_calls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                             (GDestroyNotify) json_object_unref);
}

/**
 * tb_history_new:
 * @registry: the registry whose calls to record
 *
 * Returns: (transfer full): an empty history that records every call
 */
TbHistory *
tb_history_new (TbToolRegistry *registry)
{
  TbHistory *self;

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (registry), NULL);

  self = g_object_new (TB_TYPE_HISTORY, NULL);
  self->registry = g_object_ref (registry);
  g_signal_connect (registry, "call-started", G_CALLBACK (on_call_started), self);
  g_signal_connect (registry, "call-finished", G_CALLBACK (on_call_finished), self);
  return self;
}

/**
 * tb_history_get_registry:
 * @self: a history
 *
 * Returns: (transfer none): the registry
 */
TbToolRegistry *
tb_history_get_registry (TbHistory *self)
{
  g_return_val_if_fail (TB_IS_HISTORY (self), NULL);
  return self->registry;
}

/**
 * tb_history_find:
 * @self: a history
 * @call_id: a call id
 *
 * Returns: (transfer none) (nullable): the entry of that call
 */
TbHistoryEntry *
tb_history_find (TbHistory  *self,
                 const char *call_id)
{
  g_return_val_if_fail (TB_IS_HISTORY (self), NULL);

  for (guint i = 0; i < self->entries->len; i++)
    {
      TbHistoryEntry *entry = g_ptr_array_index (self->entries, i);

      if (g_strcmp0 (tb_history_entry_get_call_id (entry), call_id) == 0)
        return entry;
    }
  return NULL;
}

/**
 * tb_history_follow_trace:
 * @self: a history
 * @trace: (nullable): the trace of the loop's current run
 *
 * Lists the calls the loop makes in @trace (those already in it first),
 * each saying that it came from the loop and whether it ran edited
 * arguments. Entries of an earlier run stay; %NULL stops following.
 */
void
tb_history_follow_trace (TbHistory *self,
                         TbTrace   *trace)
{
  g_return_if_fail (TB_IS_HISTORY (self));
  g_return_if_fail (!trace || TB_IS_TRACE (trace));

  if (trace == self->trace)
    return;
  if (self->trace != NULL)
    g_signal_handlers_disconnect_by_data (self->trace, self);
  g_set_object (&self->trace, trace);
  self->trace_seen = 0;
  g_hash_table_remove_all (self->trace_calls);
  g_hash_table_remove_all (self->trace_running);
  if (trace == NULL)
    return;
  g_signal_connect_swapped (trace, "items-changed", G_CALLBACK (on_trace_items_changed), self);
  on_trace_items_changed (self);
}

void
tb_history_clear (TbHistory *self)
{
  guint n;

  g_return_if_fail (TB_IS_HISTORY (self));

  n = self->entries->len;
  g_hash_table_remove_all (self->running);
  g_hash_table_remove_all (self->trace_running);
  g_ptr_array_set_size (self->entries, 0);
  if (n > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, n, 0);
}
