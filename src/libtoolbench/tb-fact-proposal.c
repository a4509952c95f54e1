/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-workspace"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-workspace-private.h"
#include "tb-workspace-store.h"

/* One fact a model (or a person) wants changed. Immutable except for its
 * resolution, which only the workspace sets. */

struct _TbFactProposal
{
  GObject           parent_instance;

  char             *id;
  char             *key;
  char             *pointer;
  JsonNode         *value;
  JsonNode         *previous;   /* NULL: there was no fact */
  char             *reason;
  char             *origin_call_id;
  TbProposalStatus  status;
  gint64            created;
  gint64            resolved;
  char             *resolved_by;
};

/**
 * TbFactProposal:
 *
 * One fact a model, or a person, wants changed in a #TbWorkspace: its key,
 * the value proposed, the value it would replace and why. Only a
 * #TbConfirmation lets tb_workspace_commit() apply it. A proposal is
 * immutable except for its resolution, which only the workspace sets.
 */
G_DEFINE_FINAL_TYPE (TbFactProposal, tb_fact_proposal, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_KEY,
  PROP_VALUE,
  PROP_PREVIOUS,
  PROP_REASON,
  PROP_ORIGIN_CALL_ID,
  PROP_STATUS,
  PROP_CREATED,
  PROP_RESOLVED,
  PROP_RESOLVED_BY,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static const GEnumValue status_values[] = {
  { TB_PROPOSAL_STATUS_PENDING, "TB_PROPOSAL_STATUS_PENDING", "pending" },
  { TB_PROPOSAL_STATUS_COMMITTED, "TB_PROPOSAL_STATUS_COMMITTED", "committed" },
  { TB_PROPOSAL_STATUS_REJECTED, "TB_PROPOSAL_STATUS_REJECTED", "rejected" },
  { TB_PROPOSAL_STATUS_SUPERSEDED, "TB_PROPOSAL_STATUS_SUPERSEDED", "superseded" },
  { 0, NULL, NULL }
};

GType
tb_proposal_status_get_type (void)
{
  static gsize type = 0;

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("TbProposalStatus", status_values));

  return type;
}

/**
 * tb_proposal_status_to_string:
 * @status: a status
 *
 * Names a status in the words workspace files and trace events use.
 *
 * Returns: the status as written in workspace files: "pending", "committed",
 *   "rejected" or "superseded"
 */
const char *
tb_proposal_status_to_string (TbProposalStatus status)
{
  for (guint i = 0; status_values[i].value_nick != NULL; i++)
    if (status_values[i].value == (int) status)
      return status_values[i].value_nick;
  return "pending";
}

/**
 * tb_proposal_status_from_string:
 * @text: a status name
 * @status: (out): the status
 *
 * Reads a status by the name workspace files use.
 *
 * Returns: %TRUE when @text names a status
 */
gboolean
tb_proposal_status_from_string (const char       *text,
                                TbProposalStatus *status)
{
  g_return_val_if_fail (status != NULL, FALSE);

  for (guint i = 0; text != NULL && status_values[i].value_nick != NULL; i++)
    {
      if (g_str_equal (status_values[i].value_nick, text))
        {
          *status = status_values[i].value;
          return TRUE;
        }
    }
  return FALSE;
}

static void
tb_fact_proposal_finalize (GObject *object)
{
  TbFactProposal *self = TB_FACT_PROPOSAL (object);

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->key, g_free);
  g_clear_pointer (&self->pointer, g_free);
  g_clear_pointer (&self->value, json_node_unref);
  g_clear_pointer (&self->previous, json_node_unref);
  g_clear_pointer (&self->reason, g_free);
  g_clear_pointer (&self->origin_call_id, g_free);
  g_clear_pointer (&self->resolved_by, g_free);

  G_OBJECT_CLASS (tb_fact_proposal_parent_class)->finalize (object);
}

static void
tb_fact_proposal_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  TbFactProposal *self = TB_FACT_PROPOSAL (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;

    case PROP_KEY:
      g_value_set_string (value, self->key);
      break;

    case PROP_VALUE:
      g_value_set_boxed (value, self->value);
      break;

    case PROP_PREVIOUS:
      g_value_set_boxed (value, self->previous);
      break;

    case PROP_REASON:
      g_value_set_string (value, self->reason);
      break;

    case PROP_ORIGIN_CALL_ID:
      g_value_set_string (value, self->origin_call_id);
      break;

    case PROP_STATUS:
      g_value_set_enum (value, self->status);
      break;

    case PROP_CREATED:
      g_value_set_int64 (value, self->created);
      break;

    case PROP_RESOLVED:
      g_value_set_int64 (value, self->resolved);
      break;

    case PROP_RESOLVED_BY:
      g_value_set_string (value, self->resolved_by);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_fact_proposal_class_init (TbFactProposalClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->finalize = tb_fact_proposal_finalize;
  object_class->get_property = tb_fact_proposal_get_property;

  /**
   * TbFactProposal:id:
   *
   * The proposal's id, unique in its workspace.
   */
  properties [PROP_ID] = g_param_spec_string ("id", NULL, NULL, NULL, flags);
  /**
   * TbFactProposal:key:
   *
   * The key of the fact to change, as a person reads it.
   */
  properties [PROP_KEY] = g_param_spec_string ("key", NULL, NULL, NULL, flags);
  /**
   * TbFactProposal:value:
   *
   * The value proposed, sealed.
   */
  properties [PROP_VALUE] = g_param_spec_boxed ("value", NULL, NULL, JSON_TYPE_NODE, flags);
  /**
   * TbFactProposal:previous:
   *
   * The fact's value when the proposal was made, or %NULL when there was no
   * such fact. A commit refuses a proposal whose fact changed since: it is
   * superseded.
   */
  properties [PROP_PREVIOUS] =
    g_param_spec_boxed ("previous", NULL, NULL, JSON_TYPE_NODE, flags);
  /**
   * TbFactProposal:reason:
   *
   * Why the proposer wants the change.
   */
  properties [PROP_REASON] = g_param_spec_string ("reason", NULL, NULL, NULL, flags);
  /**
   * TbFactProposal:origin-call-id:
   *
   * The id of the tool call that made the proposal, or %NULL when a person
   * made it.
   */
  properties [PROP_ORIGIN_CALL_ID] =
    g_param_spec_string ("origin-call-id", NULL, NULL, NULL, flags);
  /**
   * TbFactProposal:status:
   *
   * Whether the proposal waits, was committed, rejected or superseded.
   */
  properties [PROP_STATUS] =
    g_param_spec_enum ("status", NULL, NULL, TB_TYPE_PROPOSAL_STATUS,
                       TB_PROPOSAL_STATUS_PENDING, flags);
  /**
   * TbFactProposal:created:
   *
   * When the proposal was made, in microseconds since the Unix epoch.
   */
  properties [PROP_CREATED] =
    g_param_spec_int64 ("created", NULL, NULL, 0, G_MAXINT64, 0, flags);
  /**
   * TbFactProposal:resolved:
   *
   * When the proposal was committed, rejected or superseded, in microseconds
   * since the Unix epoch; 0 while it waits.
   */
  properties [PROP_RESOLVED] =
    g_param_spec_int64 ("resolved", NULL, NULL, 0, G_MAXINT64, 0, flags);
  /**
   * TbFactProposal:resolved-by:
   *
   * Who confirmed or rejected the proposal.
   */
  properties [PROP_RESOLVED_BY] =
    g_param_spec_string ("resolved-by", NULL, NULL, NULL, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tb_fact_proposal_init (TbFactProposal *self)
{
}

TbFactProposal *
_tb_fact_proposal_new (const char *id,
                       const char *key,
                       const char *pointer,
                       JsonNode   *value,
                       JsonNode   *previous,
                       const char *reason,
                       const char *origin_call_id,
                       gint64      created)
{
  TbFactProposal *self = g_object_new (TB_TYPE_FACT_PROPOSAL, NULL);

  self->id = g_strdup (id);
  self->key = g_strdup (key);
  self->pointer = g_strdup (pointer);
  self->value = tb_json_copy (value);
  json_node_seal (self->value);
  if (previous != NULL)
    {
      self->previous = tb_json_copy (previous);
      json_node_seal (self->previous);
    }
  self->reason = g_strdup (reason != NULL ? reason : "");
  self->origin_call_id = g_strdup (origin_call_id);
  self->status = TB_PROPOSAL_STATUS_PENDING;
  self->created = created;

  return self;
}

/* Changes the resolution without notifying: the workspace notifies once the
 * change is saved, and puts the old resolution back when saving fails. */
void
_tb_fact_proposal_set_resolution (TbFactProposal   *self,
                                  TbProposalStatus  status,
                                  gint64            resolved,
                                  const char       *resolved_by)
{
  g_assert (TB_IS_FACT_PROPOSAL (self));

  self->status = status;
  self->resolved = resolved;
  g_free (self->resolved_by);
  self->resolved_by = g_strdup (resolved_by);
}

void
_tb_fact_proposal_notify_status (TbFactProposal *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_STATUS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_RESOLVED]);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_RESOLVED_BY]);
}

static void
add_time (JsonObject *object,
          const char *name,
          gint64      usec)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_utc (usec / G_USEC_PER_SEC);
  g_autoptr(GDateTime) exact = NULL;
  g_autofree char *text = NULL;

  if (time == NULL)
    return;
  exact = g_date_time_add (time, usec % G_USEC_PER_SEC);
  text = g_date_time_format (exact, "%Y-%m-%dT%H:%M:%S.%fZ");
  json_object_set_string_member (object, name, text);
}

static gboolean
read_time (JsonObject *object,
           const char *name,
           gint64     *usec)
{
  JsonNode *node = json_object_get_member (object, name);
  g_autoptr(GDateTime) time = NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return FALSE;

  time = g_date_time_new_from_iso8601 (json_node_get_string (node), NULL);
  if (time == NULL)
    return FALSE;

  *usec = g_date_time_to_unix (time) * G_USEC_PER_SEC + g_date_time_get_microsecond (time);
  return *usec >= 0;
}

/**
 * tb_fact_proposal_to_json:
 * @self: a proposal
 *
 * Writes the proposal as the workspace file keeps it.
 *
 * Returns: (transfer full): the proposal as stored in the workspace file
 */
JsonNode *
tb_fact_proposal_to_json (TbFactProposal *self)
{
  JsonObject *object;
  JsonNode *node;

  g_return_val_if_fail (TB_IS_FACT_PROPOSAL (self), NULL);

  object = json_object_new ();
  json_object_set_string_member (object, "id", self->id);
  json_object_set_string_member (object, "key", self->key);
  json_object_set_member (object, "value", tb_json_copy (self->value));
  if (self->previous != NULL)
    json_object_set_member (object, "previous", tb_json_copy (self->previous));
  json_object_set_string_member (object, "reason", self->reason);
  if (self->origin_call_id != NULL)
    json_object_set_string_member (object, "origin_call_id", self->origin_call_id);
  json_object_set_string_member (object, "status", tb_proposal_status_to_string (self->status));
  add_time (object, "created", self->created);
  if (self->status != TB_PROPOSAL_STATUS_PENDING)
    add_time (object, "resolved", self->resolved);
  if (self->resolved_by != NULL)
    json_object_set_string_member (object, "resolved_by", self->resolved_by);

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, object);
  return node;
}


/* Reads a proposal from a workspace file. The key is checked by the
 * workspace, which also knows the pointer syntax. */
TbFactProposal *
_tb_fact_proposal_from_json (JsonNode  *node,
                             GError   **error)
{
  g_autoptr(TbFactProposal) self = NULL;
  JsonObject *object;
  const char *id, *key, *reason, *status, *origin, *resolved_by;
  JsonNode *value, *previous;
  TbProposalStatus parsed_status;
  gint64 created = 0, resolved = 0;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_DAMAGED,
                           _("a proposal is not a JSON object"));
      return NULL;
    }

  object = json_node_get_object (node);
  id = tb_json_object_get_string (object, "id");
  key = tb_json_object_get_string (object, "key");
  reason = tb_json_object_get_string (object, "reason");
  status = tb_json_object_get_string (object, "status");
  origin = tb_json_object_get_string (object, "origin_call_id");
  resolved_by = tb_json_object_get_string (object, "resolved_by");
  value = json_object_get_member (object, "value");
  previous = json_object_get_member (object, "previous");

  if (id == NULL || *id == '\0' || strlen (id) > 64 || key == NULL || value == NULL)
    {
      g_set_error_literal (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_DAMAGED,
                           _("a proposal lacks its “id”, “key” or “value”"));
      return NULL;
    }

  if (status == NULL || !tb_proposal_status_from_string (status, &parsed_status))
    {
      g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_DAMAGED,
                   _("the proposal “%s” has no valid “status”"), id);
      return NULL;
    }

  if (!read_time (object, "created", &created) ||
      (parsed_status != TB_PROPOSAL_STATUS_PENDING && !read_time (object, "resolved", &resolved)))
    {
      g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_DAMAGED,
                   _("the proposal “%s” has no valid “created” or “resolved” time"), id);
      return NULL;
    }

  self = _tb_fact_proposal_new (id, key, NULL, value, previous, reason, origin, created);
  self->status = parsed_status;
  self->resolved = resolved;
  self->resolved_by = g_strdup (resolved_by);

  return g_steal_pointer (&self);
}

/* The pointer is set by the workspace once it has checked the key. */
void
_tb_fact_proposal_set_pointer (TbFactProposal *self,
                               const char     *pointer)
{
  g_free (self->pointer);
  self->pointer = g_strdup (pointer);
}

/**
 * tb_fact_proposal_get_id:
 * @self: a proposal
 *
 * Gives the id that names the proposal in the workspace, its trace events
 * and `toolbench-cli facts confirm`.
 *
 * Returns: the proposal's id, unique in its workspace ("p1", "p2", …)
 */
const char *
tb_fact_proposal_get_id (TbFactProposal *self)
{
  g_return_val_if_fail (TB_IS_FACT_PROPOSAL (self), NULL);
  return self->id;
}

/**
 * tb_fact_proposal_get_key:
 * @self: a proposal
 *
 * Gives the key of the fact the proposal changes.
 *
 * Returns: the key as a person reads it: a plain name for a top-level
 *   fact, a JSON Pointer for a nested one
 */
const char *
tb_fact_proposal_get_key (TbFactProposal *self)
{
  g_return_val_if_fail (TB_IS_FACT_PROPOSAL (self), NULL);
  return self->key;
}

/**
 * tb_fact_proposal_get_pointer:
 * @self: a proposal
 *
 * Gives the key in the form the workspace compares keys in, so that two
 * spellings of one key name the same fact.
 *
 * Returns: the key as a canonical JSON Pointer into the facts
 */
const char *
tb_fact_proposal_get_pointer (TbFactProposal *self)
{
  g_return_val_if_fail (TB_IS_FACT_PROPOSAL (self), NULL);
  return self->pointer;
}

/**
 * tb_fact_proposal_get_value:
 * @self: a proposal
 *
 * Gives the value proposed.
 *
 * Returns: (transfer none): the proposed value (sealed)
 */
JsonNode *
tb_fact_proposal_get_value (TbFactProposal *self)
{
  g_return_val_if_fail (TB_IS_FACT_PROPOSAL (self), NULL);
  return self->value;
}

/**
 * tb_fact_proposal_has_previous:
 * @self: a proposal
 *
 * Tells a proposal that changes a fact from one that adds a new fact.
 *
 * Returns: %TRUE when the fact existed when the proposal was made
 */
gboolean
tb_fact_proposal_has_previous (TbFactProposal *self)
{
  g_return_val_if_fail (TB_IS_FACT_PROPOSAL (self), FALSE);
  return self->previous != NULL;
}

/**
 * tb_fact_proposal_get_previous:
 * @self: a proposal
 *
 * Gives what the proposal would replace, for showing the change.
 *
 * Returns: (transfer none) (nullable): the fact's value when the proposal
 *   was made, or %NULL when there was no such fact
 */
JsonNode *
tb_fact_proposal_get_previous (TbFactProposal *self)
{
  g_return_val_if_fail (TB_IS_FACT_PROPOSAL (self), NULL);
  return self->previous;
}

/**
 * tb_fact_proposal_get_reason:
 * @self: a proposal
 *
 * Gives the proposer's reason, for the person who decides.
 *
 * Returns: why the proposer wants the change (may be empty)
 */
const char *
tb_fact_proposal_get_reason (TbFactProposal *self)
{
  g_return_val_if_fail (TB_IS_FACT_PROPOSAL (self), NULL);
  return self->reason;
}

/**
 * tb_fact_proposal_get_origin_call_id:
 * @self: a proposal
 *
 * Links the proposal to the tool call that made it.
 *
 * Returns: (nullable): the id of the tool call that made the proposal, or
 *   %NULL when a person made it
 */
const char *
tb_fact_proposal_get_origin_call_id (TbFactProposal *self)
{
  g_return_val_if_fail (TB_IS_FACT_PROPOSAL (self), NULL);
  return self->origin_call_id;
}

/**
 * tb_fact_proposal_get_status:
 * @self: a proposal
 *
 * Tells whether the proposal waits, was committed, rejected or superseded.
 *
 * Returns: where the proposal stands
 */
TbProposalStatus
tb_fact_proposal_get_status (TbFactProposal *self)
{
  g_return_val_if_fail (TB_IS_FACT_PROPOSAL (self), TB_PROPOSAL_STATUS_PENDING);
  return self->status;
}

/**
 * tb_fact_proposal_get_created:
 * @self: a proposal
 *
 * Tells when the proposal was made (#TbFactProposal:created).
 *
 * Returns: when the proposal was made, in microseconds since the Unix epoch
 */
gint64
tb_fact_proposal_get_created (TbFactProposal *self)
{
  g_return_val_if_fail (TB_IS_FACT_PROPOSAL (self), 0);
  return self->created;
}

/**
 * tb_fact_proposal_get_resolved:
 * @self: a proposal
 *
 * Tells when the proposal stopped waiting (#TbFactProposal:resolved).
 *
 * Returns: when it was committed, rejected or superseded, in microseconds
 *   since the Unix epoch; 0 while pending
 */
gint64
tb_fact_proposal_get_resolved (TbFactProposal *self)
{
  g_return_val_if_fail (TB_IS_FACT_PROPOSAL (self), 0);
  return self->resolved;
}

/**
 * tb_fact_proposal_get_resolved_by:
 * @self: a proposal
 *
 * Names who decided about the proposal (#TbFactProposal:resolved-by).
 *
 * Returns: (nullable): who confirmed or rejected it; %NULL while pending and
 *   for superseded proposals
 */
const char *
tb_fact_proposal_get_resolved_by (TbFactProposal *self)
{
  g_return_val_if_fail (TB_IS_FACT_PROPOSAL (self), NULL);
  return self->resolved_by;
}
