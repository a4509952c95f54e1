/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-history"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-history-entry-private.h"

/* One call in the history: what was called, with which arguments, by whom,
 * and, once it finished, its result. TbHistory makes and finishes them. */

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

/**
 * tb_history_entry_new:
 * @tool_name: the tool's name
 * @call_id: the call's id
 * @arguments: (nullable): the arguments that ran
 * @from_loop: whether the loop made the call
 * @edited: whether a person edited the arguments before it ran
 *
 * Returns: (transfer full): a running entry
 */
TbHistoryEntry *
tb_history_entry_new (const char *tool_name,
                      const char *call_id,
                      JsonNode   *arguments,
                      gboolean    from_loop,
                      gboolean    edited)
{
  TbHistoryEntry *self = g_object_new (TB_TYPE_HISTORY_ENTRY, NULL);

  self->tool_name = g_strdup (tool_name);
  self->call_id = g_strdup (call_id);
  self->started = g_date_time_new_now_local ();
  self->arguments = arguments != NULL ? json_node_copy (arguments)
                                      : json_node_new (JSON_NODE_NULL);
  self->summary = entry_summary (self);
  self->from_loop = from_loop;
  self->edited = edited;
  return self;
}

/**
 * tb_history_entry_finish:
 * @self: a running entry
 * @result: how the call ended
 */
void
tb_history_entry_finish (TbHistoryEntry *self,
                         TbToolResult   *result)
{
  g_return_if_fail (TB_IS_HISTORY_ENTRY (self));

  g_set_object (&self->result, result);
  g_object_notify_by_pspec (G_OBJECT (self), entry_properties [ENTRY_PROP_STATUS_LABEL]);
  g_object_notify_by_pspec (G_OBJECT (self), entry_properties [ENTRY_PROP_ICON_NAME]);
  g_object_notify_by_pspec (G_OBJECT (self), entry_properties [ENTRY_PROP_RUNNING]);
}
