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
entry_status_label (TbHistoryEntry *self)
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

struct _TbHistory
{
  GObject         parent_instance;

  TbToolRegistry *registry;
  GPtrArray      *entries;   /* newest first */
  GHashTable     *running;   /* call id → entry */
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
on_call_started (TbToolRegistry *registry,
                 TbTool         *tool,
                 const char     *call_id,
                 JsonNode       *arguments,
                 TbHistory      *self)
{
  TbHistoryEntry *entry = g_object_new (TB_TYPE_HISTORY_ENTRY, NULL);
  guint removed = 0;

  entry->tool_name = g_strdup (tb_tool_get_name (tool));
  entry->call_id = g_strdup (call_id);
  entry->started = g_date_time_new_now_local ();
  entry->arguments = json_node_copy (arguments);
  entry->summary = entry_summary (entry);

  if (self->entries->len >= TB_HISTORY_MAX)
    {
      TbHistoryEntry *oldest = g_ptr_array_index (self->entries, self->entries->len - 1);

      g_hash_table_remove (self->running, oldest->call_id);
      g_ptr_array_remove_index (self->entries, self->entries->len - 1);
      removed = 1;
      g_list_model_items_changed (G_LIST_MODEL (self), self->entries->len, removed, 0);
    }

  g_ptr_array_insert (self->entries, 0, entry);
  g_hash_table_replace (self->running, entry->call_id, entry);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, 1);
}

static void
on_call_finished (TbToolRegistry *registry,
                  TbTool         *tool,
                  const char     *call_id,
                  TbToolResult   *result,
                  TbHistory      *self)
{
  TbHistoryEntry *entry = g_hash_table_lookup (self->running, call_id);

  if (entry == NULL)
    return;
  g_hash_table_remove (self->running, call_id);
  g_set_object (&entry->result, result);
  g_object_notify_by_pspec (G_OBJECT (entry), entry_properties [ENTRY_PROP_STATUS_LABEL]);
  g_object_notify_by_pspec (G_OBJECT (entry), entry_properties [ENTRY_PROP_ICON_NAME]);
  g_object_notify_by_pspec (G_OBJECT (entry), entry_properties [ENTRY_PROP_RUNNING]);
}

static void
tb_history_dispose (GObject *object)
{
  TbHistory *self = (TbHistory *) object;

  if (self->registry != NULL)
    g_signal_handlers_disconnect_by_data (self->registry, self);
  g_clear_object (&self->registry);

  G_OBJECT_CLASS (tb_history_parent_class)->dispose (object);
}

static void
tb_history_finalize (GObject *object)
{
  TbHistory *self = (TbHistory *) object;

  g_clear_pointer (&self->running, g_hash_table_unref);
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

void
tb_history_clear (TbHistory *self)
{
  guint n;

  g_return_if_fail (TB_IS_HISTORY (self));

  n = self->entries->len;
  g_hash_table_remove_all (self->running);
  g_ptr_array_set_size (self->entries, 0);
  if (n > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, n, 0);
}
