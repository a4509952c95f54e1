/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-history"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-history.h"

/* Every call the registry makes, whoever asked (the Tool page now, the loop
 * later), newest first. It listens to the registry's call signals, so the
 * history cannot miss a call or record one twice. */

struct _TbHistoryEntry
{
  GObject       parent_instance;

  char         *tool_name;
  char         *call_id;
  GDateTime    *started;
  JsonNode     *arguments;
  char         *summary;   /* made once: arguments can be large */
  TbToolResult *result;
  guint         from_loop : 1;
  guint         edited : 1;
};

G_DEFINE_FINAL_TYPE (TbHistoryEntry, tb_history_entry, G_TYPE_OBJECT)

enum {
  ENTRY_PROP_0,
  ENTRY_PROP_TOOL_NAME,
  ENTRY_PROP_TIME_LABEL,
  ENTRY_PROP_STATUS_LABEL,
  ENTRY_PROP_ICON_NAME,
  ENTRY_PROP_SUMMARY,
  ENTRY_PROP_RUNNING,
  ENTRY_N_PROPS
};

static GParamSpec *entry_properties [ENTRY_N_PROPS];

static char *
entry_outcome_label (TbHistoryEntry *self)
{
  g_autofree char *duration = NULL;
  g_autofree char *label = NULL;

  if (self->result == NULL)
    return g_strdup (_("Running…"));
  duration = tb_format_duration (tb_tool_result_get_duration_us (self->result));
  if (tb_tool_result_get_ok (self->result))
    /* Translators: %s is a duration such as "12 ms" */
    label = g_strdup_printf (_("Succeeded in %s"), duration);
  else
    /* Translators: the first %s is a failure kind such as "timeout", the second a duration */
    label = g_strdup_printf (_("Failed (%s) after %s"),
                             tb_tool_failure_kind_to_string (
                               tb_tool_result_get_kind (self->result)),
                             duration);
  /* Sent with Run Anyway: what came back says nothing about valid calls. */
  if (tb_tool_result_get_unvalidated (self->result))
    /* Translators: a call's status, then a note that its arguments were sent unchecked */
    return g_strdup_printf (_("%s · not validated"), label);
  return g_steal_pointer (&label);
}

/* A call the loop made says so, and whether it ran what the model sent. */
static char *
entry_status_label (TbHistoryEntry *self)
{
  g_autofree char *outcome = entry_outcome_label (self);

  if (self->edited)
    /* Translators: %s is the call's outcome, such as "Succeeded in 12 ms" */
    return g_strdup_printf (_("From the loop, with edited arguments · %s"), outcome);
  if (self->from_loop)
    /* Translators: %s is the call's outcome, such as "Succeeded in 12 ms" */
    return g_strdup_printf (_("From the loop · %s"), outcome);
  return g_steal_pointer (&outcome);
}

static char *
entry_summary (TbHistoryEntry *self)
{
  g_autofree char *text = tb_json_to_string (self->arguments, FALSE);

  return tb_text_preview (text, 200, NULL);
}

static void
tb_history_entry_finalize (GObject *object)
{
  TbHistoryEntry *self = (TbHistoryEntry *) object;

  g_free (self->tool_name);
  g_free (self->call_id);
  g_free (self->summary);
  g_clear_pointer (&self->started, g_date_time_unref);
  g_clear_pointer (&self->arguments, json_node_unref);
  g_clear_object (&self->result);

  G_OBJECT_CLASS (tb_history_entry_parent_class)->finalize (object);
}

static void
tb_history_entry_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  TbHistoryEntry *self = TB_HISTORY_ENTRY (object);

  switch (prop_id)
    {
    case ENTRY_PROP_TOOL_NAME:
      g_value_set_string (value, self->tool_name);
      break;
    case ENTRY_PROP_TIME_LABEL:
      g_value_take_string (value, g_date_time_format (self->started, "%X"));
      break;
    case ENTRY_PROP_STATUS_LABEL:
      g_value_take_string (value, entry_status_label (self));
      break;
    case ENTRY_PROP_ICON_NAME:
      g_value_set_static_string (value,
                                 self->result == NULL ? "content-loading-symbolic"
                                 : tb_tool_result_get_ok (self->result) ? "emblem-ok-symbolic"
                                 : "dialog-error-symbolic");
      break;
    case ENTRY_PROP_SUMMARY:
      g_value_set_string (value, self->summary);
      break;
    case ENTRY_PROP_RUNNING:
      g_value_set_boolean (value, self->result == NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_history_entry_class_init (TbHistoryEntryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tb_history_entry_finalize;
  object_class->get_property = tb_history_entry_get_property;

  entry_properties [ENTRY_PROP_TOOL_NAME] =
    g_param_spec_string ("tool-name", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  entry_properties [ENTRY_PROP_TIME_LABEL] =
    g_param_spec_string ("time-label", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  entry_properties [ENTRY_PROP_STATUS_LABEL] =
    g_param_spec_string ("status-label", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  entry_properties [ENTRY_PROP_ICON_NAME] =
    g_param_spec_string ("icon-name", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  entry_properties [ENTRY_PROP_SUMMARY] =
    g_param_spec_string ("summary", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  entry_properties [ENTRY_PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, ENTRY_N_PROPS, entry_properties);
}

static void
tb_history_entry_init (TbHistoryEntry *self)
{
}

const char *
tb_history_entry_get_tool_name (TbHistoryEntry *self)
{
  g_return_val_if_fail (TB_IS_HISTORY_ENTRY (self), NULL);
  return self->tool_name;
}

const char *
tb_history_entry_get_call_id (TbHistoryEntry *self)
{
  g_return_val_if_fail (TB_IS_HISTORY_ENTRY (self), NULL);
  return self->call_id;
}

/**
 * tb_history_entry_get_started:
 * @self: an entry
 *
 * Returns: (transfer none): when the call started, in local time
 */
GDateTime *
tb_history_entry_get_started (TbHistoryEntry *self)
{
  g_return_val_if_fail (TB_IS_HISTORY_ENTRY (self), NULL);
  return self->started;
}

/**
 * tb_history_entry_get_arguments:
 * @self: an entry
 *
 * Returns: (transfer none): the arguments the call was made with
 */
JsonNode *
tb_history_entry_get_arguments (TbHistoryEntry *self)
{
  g_return_val_if_fail (TB_IS_HISTORY_ENTRY (self), NULL);
  return self->arguments;
}

/**
 * tb_history_entry_get_result:
 * @self: an entry
 *
 * Returns: (transfer none) (nullable): the result, %NULL while running
 */
TbToolResult *
tb_history_entry_get_result (TbHistoryEntry *self)
{
  g_return_val_if_fail (TB_IS_HISTORY_ENTRY (self), NULL);
  return self->result;
}

gboolean
tb_history_entry_get_running (TbHistoryEntry *self)
{
  g_return_val_if_fail (TB_IS_HISTORY_ENTRY (self), FALSE);
  return self->result == NULL;
}

/**
 * tb_history_entry_get_from_loop:
 * @self: an entry
 *
 * Returns: whether the dispatch loop made the call (a model asked for it)
 */
gboolean
tb_history_entry_get_from_loop (TbHistoryEntry *self)
{
  g_return_val_if_fail (TB_IS_HISTORY_ENTRY (self), FALSE);
  return self->from_loop;
}

/**
 * tb_history_entry_get_edited:
 * @self: an entry
 *
 * Returns: whether a person edited the model's arguments before the call ran
 */
gboolean
tb_history_entry_get_edited (TbHistoryEntry *self)
{
  g_return_val_if_fail (TB_IS_HISTORY_ENTRY (self), FALSE);
  return self->edited;
}

/**
 * tb_history_entry_get_status_label:
 * @self: an entry
 *
 * Returns: (transfer full): what its row says of the call's outcome
 */
char *
tb_history_entry_get_status_label (TbHistoryEntry *self)
{
  g_return_val_if_fail (TB_IS_HISTORY_ENTRY (self), NULL);
  return entry_status_label (self);
}

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

static TbHistoryEntry *
add_entry (TbHistory  *self,
           const char *tool_name,
           const char *call_id,
           JsonNode   *arguments,
           GHashTable *running)
{
  TbHistoryEntry *entry = g_object_new (TB_TYPE_HISTORY_ENTRY, NULL);

  entry->tool_name = g_strdup (tool_name);
  entry->call_id = g_strdup (call_id);
  entry->started = g_date_time_new_now_local ();
  entry->arguments = arguments != NULL ? json_node_copy (arguments)
                                       : json_node_new (JSON_NODE_NULL);
  entry->summary = entry_summary (entry);

  if (self->entries->len >= TB_HISTORY_MAX)
    {
      TbHistoryEntry *oldest = g_ptr_array_index (self->entries, self->entries->len - 1);

      /* Only if it is that entry: a call id may come back in another run. */
      if (g_hash_table_lookup (self->running, oldest->call_id) == oldest)
        g_hash_table_remove (self->running, oldest->call_id);
      if (self->trace_running != NULL
          && g_hash_table_lookup (self->trace_running, oldest->call_id) == oldest)
        g_hash_table_remove (self->trace_running, oldest->call_id);
      g_ptr_array_remove_index (self->entries, self->entries->len - 1);
      g_list_model_items_changed (G_LIST_MODEL (self), self->entries->len, 1, 0);
    }

  g_ptr_array_insert (self->entries, 0, entry);
  g_hash_table_replace (running, entry->call_id, entry);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, 1);
  return entry;
}

static void
finish_entry (GHashTable   *running,
              const char   *call_id,
              TbToolResult *result)
{
  TbHistoryEntry *entry = g_hash_table_lookup (running, call_id);

  if (entry == NULL)
    return;
  g_hash_table_remove (running, call_id);
  g_set_object (&entry->result, result);
  g_object_notify_by_pspec (G_OBJECT (entry), entry_properties [ENTRY_PROP_STATUS_LABEL]);
  g_object_notify_by_pspec (G_OBJECT (entry), entry_properties [ENTRY_PROP_ICON_NAME]);
  g_object_notify_by_pspec (G_OBJECT (entry), entry_properties [ENTRY_PROP_RUNNING]);
}

static void
on_call_started (TbToolRegistry *registry,
                 TbTool         *tool,
                 const char     *call_id,
                 JsonNode       *arguments,
                 TbHistory      *self)
{
  add_entry (self, tb_tool_get_name (tool), call_id, arguments, self->running);
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
      TbHistoryEntry *entry;

      if (call == NULL)
        return;
      if (edit || g_strcmp0 (decision, "approve") == 0)
        {
          JsonNode *arguments = json_object_get_member (edit ? payload : call, "arguments");

          entry = add_entry (self, tb_json_object_get_string (call, "name"), id, arguments,
                             self->trace_running);
          entry->from_loop = TRUE;
          entry->edited = edit;
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

      if (g_strcmp0 (entry->call_id, call_id) == 0)
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
