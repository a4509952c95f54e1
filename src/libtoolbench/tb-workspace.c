/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-workspace"

#include "config.h"

/* PRId64: the one 64-bit format xgettext understands in a message */
#include <inttypes.h>

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "tb-json.h"
#include "tb-text.h"
#include "tb-workspace-file-store.h"
#include "tb-workspace-private.h"

/**
 * TbWorkspace:
 *
 * The editing state, kept apart from the conversation: `facts`
 * (authoritative), `draft` (working state), `locks` (keys that may not
 * change implicitly) and the proposals a model or a person made.
 *
 * Facts change only through tb_workspace_commit(), which needs a
 * #TbConfirmation that only a confirmation path creates. Every change is
 * saved before it becomes visible: when the store refuses, the change is
 * undone and the caller gets the error, so what the workspace shows is what
 * is stored.
 *
 * Keys address values in `facts` and `draft`. A key that does not start
 * with `/` names a top-level member as it is (`city`, `a/b`, `café`); a key
 * that starts with `/` is a JSON Pointer (RFC 6901) into nested objects and
 * arrays (`/trip/hotel`, `/a~1b` for the member `a/b`).
 *
 * A workspace belongs to the thread that made it (the main thread); its
 * tools run there too.
 *
 * Other programs (the app and the command line) may change the same store
 * at once. Each change takes the store's lock, reads what is stored now,
 * applies itself to that and saves before it lets go, so no writer loses
 * what another one saved; what others changed shows through the usual
 * signals.
 */

struct _TbWorkspace
{
  GObject           parent_instance;

  TbWorkspaceStore *store;
  JsonNode         *facts;
  JsonNode         *draft;
  GHashTable       *locks;       /* canonical pointer → key as shown */
  GListStore       *proposals;
  GHashTable       *by_id;       /* id → TbFactProposal, owned by the list */
  GHashTable       *issued;      /* token → TbConfirmation */
  guint64           next_id;
  guint             n_pending;
  guint             freeze_count;
  guint             pause_runs;  /* bindings that want runs to wait */
  guint             write_depth; /* > 0 while the store's lock is held */
  GError           *freeze_error;
  GError           *rejected;    /* why the stored document could not be adopted */
  guint             dirty : 1;
  guint             freeze_locked : 1;
};

G_DEFINE_FINAL_TYPE (TbWorkspace, tb_workspace, G_TYPE_OBJECT)

enum { PROP_0, PROP_N_PENDING, N_PROPS };
enum { PROPOSAL_ADDED, PROPOSAL_RESOLVED, FACT_CHANGED, DRAFT_CHANGED, LOCKS_CHANGED, N_SIGNALS };

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];

#define FORMAT_NAME "toolbench-workspace"

/* Changes that are undone when saving fails ------------------------------ */

typedef struct
{
  TbFactProposal   *proposal;
  TbProposalStatus  status;
  gint64            resolved;
  char             *resolved_by;
} Resolution;

static void
resolution_free (gpointer data)
{
  Resolution *resolution = data;

  g_object_unref (resolution->proposal);
  g_free (resolution->resolved_by);
  g_free (resolution);
}

typedef struct
{
  JsonNode       *facts_before;
  JsonNode       *draft_before;
  GHashTable     *locks_before;
  GPtrArray      *resolutions;
  TbFactProposal *added;
  guint64         next_id_before;
  guint           n_pending_before;
  gboolean        started;
} Change;

static void
change_begin (TbWorkspace *self,
              Change      *change)
{
  memset (change, 0, sizeof *change);
  change->next_id_before = self->next_id;
  change->n_pending_before = self->n_pending;
  change->resolutions = g_ptr_array_new_with_free_func (resolution_free);
  change->started = TRUE;
}

static void
change_clear (Change *change)
{
  g_clear_pointer (&change->facts_before, json_node_unref);
  g_clear_pointer (&change->draft_before, json_node_unref);
  g_clear_pointer (&change->locks_before, g_hash_table_unref);
  g_clear_pointer (&change->resolutions, g_ptr_array_unref);
  g_clear_object (&change->added);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Change, change_clear)

static void
change_keep_facts (TbWorkspace *self,
                   Change      *change)
{
  if (change->facts_before == NULL)
    change->facts_before = tb_json_copy (self->facts);
}

static void
change_keep_draft (TbWorkspace *self,
                   Change      *change)
{
  if (change->draft_before == NULL)
    change->draft_before = tb_json_copy (self->draft);
}

static void
change_keep_locks (TbWorkspace *self,
                   Change      *change)
{
  GHashTableIter iter;
  gpointer k, v;

  if (change->locks_before != NULL)
    return;
  change->locks_before = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_hash_table_iter_init (&iter, self->locks);
  while (g_hash_table_iter_next (&iter, &k, &v))
    g_hash_table_insert (change->locks_before, g_strdup (k), g_strdup (v));
}

static void
change_resolve (TbWorkspace      *self,
                Change           *change,
                TbFactProposal   *proposal,
                TbProposalStatus  status,
                const char       *resolved_by)
{
  Resolution *resolution = g_new0 (Resolution, 1);

  resolution->proposal = g_object_ref (proposal);
  resolution->status = tb_fact_proposal_get_status (proposal);
  resolution->resolved = tb_fact_proposal_get_resolved (proposal);
  resolution->resolved_by = g_strdup (tb_fact_proposal_get_resolved_by (proposal));
  g_ptr_array_add (change->resolutions, resolution);

  if (resolution->status == TB_PROPOSAL_STATUS_PENDING && status != TB_PROPOSAL_STATUS_PENDING)
    self->n_pending--;
  _tb_fact_proposal_set_resolution (proposal, status, g_get_real_time (), resolved_by);
}

static void
change_revert (TbWorkspace *self,
               Change      *change)
{
  if (change->facts_before != NULL)
    {
      json_node_unref (self->facts);
      self->facts = g_steal_pointer (&change->facts_before);
    }
  if (change->draft_before != NULL)
    {
      json_node_unref (self->draft);
      self->draft = g_steal_pointer (&change->draft_before);
    }
  if (change->locks_before != NULL)
    {
      g_hash_table_unref (self->locks);
      self->locks = g_steal_pointer (&change->locks_before);
    }
  for (guint i = change->resolutions->len; i > 0; i--)
    {
      Resolution *resolution = g_ptr_array_index (change->resolutions, i - 1);

      _tb_fact_proposal_set_resolution (resolution->proposal, resolution->status,
                                        resolution->resolved, resolution->resolved_by);
    }
  g_ptr_array_set_size (change->resolutions, 0);
  g_clear_object (&change->added);
  self->next_id = change->next_id_before;
  self->n_pending = change->n_pending_before;
}

static JsonNode *build_document (TbWorkspace    *self,
                                 TbFactProposal *extra);

static gboolean
store_document (TbWorkspace     *self,
                TbFactProposal  *extra,
                GError         **error)
{
  g_autoptr(JsonNode) document = NULL;

  if (self->store == NULL)
    return TRUE;

  /* Never write over a document that could not be read back. */
  if (self->rejected != NULL)
    {
      g_propagate_error (error, g_error_copy (self->rejected));
      return FALSE;
    }

  document = build_document (self, extra);
  if (!tb_workspace_store_save (self->store, document, NULL, error))
    return FALSE;

  self->dirty = FALSE;
  return TRUE;
}

/* Saves, then shows the change; or undoes it and reports why. */
static gboolean
change_finish (TbWorkspace  *self,
               Change       *change,
               GError      **error)
{
  guint n_pending_before = change->n_pending_before;

  if (self->freeze_count > 0)
    self->dirty = TRUE;
  else if (!store_document (self, change->added, error))
    {
      change_revert (self, change);
      return FALSE;
    }

  if (change->added != NULL)
    {
      TbFactProposal *proposal = change->added;

      g_hash_table_insert (self->by_id, g_strdup (tb_fact_proposal_get_id (proposal)), proposal);
      g_list_store_append (self->proposals, proposal);
      g_signal_emit (self, signals [PROPOSAL_ADDED], 0, proposal);
    }

  for (guint i = 0; i < change->resolutions->len; i++)
    {
      Resolution *resolution = g_ptr_array_index (change->resolutions, i);

      _tb_fact_proposal_notify_status (resolution->proposal);
      g_signal_emit (self, signals [PROPOSAL_RESOLVED], 0, resolution->proposal);
    }

  if (n_pending_before != self->n_pending)
    g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_N_PENDING]);

  return TRUE;
}

/* Documents ------------------------------------------------------------- */

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static JsonNode *
build_document (TbWorkspace    *self,
                TbFactProposal *extra)
{
  g_auto(GStrv) locks = tb_workspace_get_locks (self);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->proposals));
  JsonObject *object = json_object_new ();
  JsonArray *lock_array = json_array_new ();
  JsonArray *proposals = json_array_sized_new (n + 1);
  JsonNode *node;

  json_object_set_string_member (object, "format", FORMAT_NAME);
  json_object_set_int_member (object, "version", TB_WORKSPACE_FORMAT_VERSION);
  json_object_set_member (object, "facts", tb_json_copy (self->facts));
  json_object_set_member (object, "draft", tb_json_copy (self->draft));
  for (guint i = 0; locks[i] != NULL; i++)
    json_array_add_string_element (lock_array, locks[i]);
  json_object_set_array_member (object, "locks", lock_array);
  json_object_set_int_member (object, "next_proposal", (gint64) self->next_id);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TbFactProposal) proposal =
        g_list_model_get_item (G_LIST_MODEL (self->proposals), i);

      json_array_add_element (proposals, tb_fact_proposal_to_json (proposal));
    }
  if (extra != NULL)
    json_array_add_element (proposals, tb_fact_proposal_to_json (extra));
  json_object_set_array_member (object, "proposals", proposals);

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, object);
  return node;
}

/**
 * tb_workspace_to_json:
 * @self: a workspace
 *
 * Writes the workspace as its store keeps it.
 *
 * Returns: (transfer full): the whole workspace as the versioned document
 *   described in docs/workspace-format.md
 */
JsonNode *
tb_workspace_to_json (TbWorkspace *self)
{
  g_return_val_if_fail (TB_IS_WORKSPACE (self), NULL);

  return build_document (self, NULL);
}

static gboolean
read_document (TbWorkspace  *self,
               JsonNode     *document,
               char        **reason,
               gboolean     *wrong_version)
{
  JsonObject *object;
  JsonNode *node;
  JsonArray *array;
  gint64 version;

  *wrong_version = FALSE;

  if (!JSON_NODE_HOLDS_OBJECT (document))
    {
      *reason = g_strdup (_("it is not a Toolbench workspace (the file is not a JSON object)"));
      return FALSE;
    }
  object = json_node_get_object (document);

  node = json_object_get_member (object, "format");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING ||
      g_strcmp0 (json_node_get_string (node), FORMAT_NAME) != 0)
    {
      *reason = g_strdup (_("it is not a Toolbench workspace (“format” is not "
                            "“toolbench-workspace”)"));
      return FALSE;
    }

  node = json_object_get_member (object, "version");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_INT64)
    {
      *reason = g_strdup (_("its “version” is missing or not a whole number"));
      return FALSE;
    }
  version = json_node_get_int (node);
  if (version != TB_WORKSPACE_FORMAT_VERSION)
    {
      *wrong_version = TRUE;
      if (version > TB_WORKSPACE_FORMAT_VERSION)
        *reason = g_strdup_printf (_("it is a version %" PRId64 " workspace, written by "
                                     "a newer Toolbench; this one reads version %d. Open it "
                                     "with a newer Toolbench"),
                                   version, TB_WORKSPACE_FORMAT_VERSION);
      else
        *reason = g_strdup_printf (_("it is a version %" PRId64 " workspace; this "
                                     "Toolbench reads version %d"),
                                   version, TB_WORKSPACE_FORMAT_VERSION);
      return FALSE;
    }

  node = json_object_get_member (object, "facts");
  if (node != NULL && !JSON_NODE_HOLDS_OBJECT (node))
    {
      *reason = g_strdup (_("its “facts” is not a JSON object"));
      return FALSE;
    }
  if (node != NULL)
    {
      json_node_unref (self->facts);
      self->facts = tb_json_copy (node);
    }

  node = json_object_get_member (object, "draft");
  if (node != NULL && !JSON_NODE_HOLDS_OBJECT (node))
    {
      *reason = g_strdup (_("its “draft” is not a JSON object"));
      return FALSE;
    }
  if (node != NULL)
    {
      json_node_unref (self->draft);
      self->draft = tb_json_copy (node);
    }

  node = json_object_get_member (object, "locks");
  if (node != NULL && !JSON_NODE_HOLDS_ARRAY (node))
    {
      *reason = g_strdup (_("its “locks” is not a JSON array"));
      return FALSE;
    }
  array = node != NULL ? json_node_get_array (node) : NULL;
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      g_auto(Key) key = { 0 };

      if (!JSON_NODE_HOLDS_VALUE (element) ||
          json_node_get_value_type (element) != G_TYPE_STRING ||
          !_tb_workspace_key_parse (json_node_get_string (element), &key, NULL))
        {
          *reason = g_strdup_printf (_("lock %u is not a valid key"), i + 1);
          return FALSE;
        }
      g_hash_table_insert (self->locks, g_steal_pointer (&key.pointer),
                           g_steal_pointer (&key.display));
    }

  node = json_object_get_member (object, "next_proposal");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_INT64 && json_node_get_int (node) > 0)
    self->next_id = (guint64) json_node_get_int (node);

  node = json_object_get_member (object, "proposals");
  if (node != NULL && !JSON_NODE_HOLDS_ARRAY (node))
    {
      *reason = g_strdup (_("its “proposals” is not a JSON array"));
      return FALSE;
    }
  array = node != NULL ? json_node_get_array (node) : NULL;
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      g_autoptr(GError) local_error = NULL;
      g_autoptr(TbFactProposal) proposal = NULL;
      g_auto(Key) key = { 0 };
      const char *id;

      proposal = _tb_fact_proposal_from_json (json_array_get_element (array, i), &local_error);
      if (proposal == NULL)
        {
          *reason = g_strdup (local_error->message);
          return FALSE;
        }

      id = tb_fact_proposal_get_id (proposal);
      if (!_tb_workspace_key_parse (tb_fact_proposal_get_key (proposal), &key, NULL))
        {
          *reason = g_strdup_printf (_("the proposal “%s” has an invalid key"), id);
          return FALSE;
        }
      if (g_hash_table_contains (self->by_id, id))
        {
          *reason = g_strdup_printf (_("two proposals have the id “%s”"), id);
          return FALSE;
        }

      _tb_fact_proposal_set_pointer (proposal, key.pointer);
      if (id[0] == 'p' && g_ascii_isdigit (id[1]))
        {
          guint64 number = g_ascii_strtoull (id + 1, NULL, 10);

          if (number < G_MAXUINT32 && number >= self->next_id)
            self->next_id = number + 1;
        }
      if (tb_fact_proposal_get_status (proposal) == TB_PROPOSAL_STATUS_PENDING)
        self->n_pending++;

      g_hash_table_insert (self->by_id, g_strdup (id), proposal);
      g_list_store_append (self->proposals, proposal);
    }

  return TRUE;
}

/* Concurrent writers ----------------------------------------------------- */

/* A workspace read from @document, or the error a person reads. */
static TbWorkspace *
workspace_from_document (TbWorkspaceStore  *store,
                         JsonNode          *document,
                         GError           **error)
{
  g_autoptr(TbWorkspace) self = tb_workspace_new ();
  g_autofree char *reason = NULL;
  gboolean wrong_version;

  if (document != NULL && !read_document (self, document, &reason, &wrong_version))
    {
      g_autofree char *where = tb_workspace_store_describe (store);

      g_set_error (error, TB_WORKSPACE_ERROR,
                   wrong_version ? TB_WORKSPACE_ERROR_VERSION : TB_WORKSPACE_ERROR_DAMAGED,
                   /* Translators: %s is a file name, then the reason. */
                   _("The workspace file “%s” cannot be read: %s. It was left untouched."),
                   where, reason);
      return NULL;
    }
  return g_steal_pointer (&self);
}

/* A top-level member as a person reads its key (see key_parse()). */
static char *
member_key (const char *name)
{
  g_autofree char *escaped = NULL;

  if (name[0] != '/')
    return g_strdup (name);
  escaped = tb_json_pointer_escape (name);
  return g_strconcat ("/", escaped, NULL);
}

/* The top-level members that differ between two objects. */
static GPtrArray *
changed_members (JsonNode *before,
                 JsonNode *after)
{
  GPtrArray *keys = g_ptr_array_new_with_free_func (g_free);
  JsonObject *a = json_node_get_object (before);
  JsonObject *b = json_node_get_object (after);
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;

  json_object_iter_init (&iter, a);
  while (json_object_iter_next (&iter, &name, &member))
    {
      JsonNode *other = json_object_get_member (b, name);

      if (other == NULL || !tb_json_equal (member, other))
        g_ptr_array_add (keys, member_key (name));
    }

  json_object_iter_init (&iter, b);
  while (json_object_iter_next (&iter, &name, &member))
    if (!json_object_has_member (a, name))
      g_ptr_array_add (keys, member_key (name));

  return keys;
}

static gboolean
locks_equal (GHashTable *a,
             GHashTable *b)
{
  GHashTableIter iter;
  gpointer k;

  if (g_hash_table_size (a) != g_hash_table_size (b))
    return FALSE;
  g_hash_table_iter_init (&iter, a);
  while (g_hash_table_iter_next (&iter, &k, NULL))
    if (!g_hash_table_contains (b, k))
      return FALSE;
  return TRUE;
}

static gboolean
same_proposal (TbFactProposal *a,
               TbFactProposal *b)
{
  return g_strcmp0 (tb_fact_proposal_get_id (a), tb_fact_proposal_get_id (b)) == 0 &&
         g_strcmp0 (tb_fact_proposal_get_pointer (a), tb_fact_proposal_get_pointer (b)) == 0 &&
         tb_fact_proposal_get_created (a) == tb_fact_proposal_get_created (b);
}

static gboolean
same_resolution (TbFactProposal *a,
                 TbFactProposal *b)
{
  return tb_fact_proposal_get_status (a) == tb_fact_proposal_get_status (b) &&
         tb_fact_proposal_get_resolved (a) == tb_fact_proposal_get_resolved (b) &&
         g_strcmp0 (tb_fact_proposal_get_resolved_by (a),
                    tb_fact_proposal_get_resolved_by (b)) == 0;
}

/* Makes what another writer stored the workspace's own state. Proposals
 * keep their objects, so callers' references stay valid, and every
 * difference is announced as if it had been made here. */
static void
adopt (TbWorkspace *self,
       TbWorkspace *disk)
{
  g_autoptr(GPtrArray) fact_keys = changed_members (self->facts, disk->facts);
  g_autoptr(GPtrArray) draft_keys = changed_members (self->draft, disk->draft);
  g_autoptr(GPtrArray) merged = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) added = g_ptr_array_new ();
  g_autoptr(GPtrArray) resolved = g_ptr_array_new ();
  gboolean locks_changed = !locks_equal (self->locks, disk->locks);
  guint n_old = g_list_model_get_n_items (G_LIST_MODEL (self->proposals));
  guint n_disk = g_list_model_get_n_items (G_LIST_MODEL (disk->proposals));
  guint n_pending_before = self->n_pending;
  guint prefix = 0;

  g_clear_pointer (&self->facts, json_node_unref);
  self->facts = g_steal_pointer (&disk->facts);
  g_clear_pointer (&self->draft, json_node_unref);
  self->draft = g_steal_pointer (&disk->draft);
  g_clear_pointer (&self->locks, g_hash_table_unref);
  self->locks = g_steal_pointer (&disk->locks);
  self->next_id = MAX (self->next_id, disk->next_id);

  self->n_pending = 0;
  for (guint i = 0; i < n_disk; i++)
    {
      g_autoptr(TbFactProposal) stored = g_list_model_get_item (G_LIST_MODEL (disk->proposals), i);
      TbFactProposal *mine = g_hash_table_lookup (self->by_id, tb_fact_proposal_get_id (stored));

      if (mine != NULL && same_proposal (mine, stored))
        {
          if (!same_resolution (mine, stored))
            {
              _tb_fact_proposal_set_resolution (mine, tb_fact_proposal_get_status (stored),
                                                tb_fact_proposal_get_resolved (stored),
                                                tb_fact_proposal_get_resolved_by (stored));
              g_ptr_array_add (resolved, mine);
            }
          g_ptr_array_add (merged, g_object_ref (mine));
        }
      else
        {
          g_ptr_array_add (merged, g_object_ref (stored));
          g_ptr_array_add (added, stored);
        }

      if (tb_fact_proposal_get_status (g_ptr_array_index (merged, i)) ==
          TB_PROPOSAL_STATUS_PENDING)
        self->n_pending++;
    }

  /* Usually the others only appended: replace just the tail. */
  while (prefix < n_old && prefix < merged->len)
    {
      g_autoptr(TbFactProposal) item =
        g_list_model_get_item (G_LIST_MODEL (self->proposals), prefix);

      if (item != g_ptr_array_index (merged, prefix))
        break;
      prefix++;
    }

  g_hash_table_remove_all (self->by_id);
  for (guint i = 0; i < merged->len; i++)
    {
      TbFactProposal *proposal = g_ptr_array_index (merged, i);

      g_hash_table_insert (self->by_id, g_strdup (tb_fact_proposal_get_id (proposal)), proposal);
    }
  if (prefix < n_old || prefix < merged->len)
    g_list_store_splice (self->proposals, prefix, n_old - prefix,
                         merged->pdata + prefix, merged->len - prefix);

  for (guint i = 0; i < added->len; i++)
    g_signal_emit (self, signals [PROPOSAL_ADDED], 0, g_ptr_array_index (added, i));
  for (guint i = 0; i < resolved->len; i++)
    {
      _tb_fact_proposal_notify_status (g_ptr_array_index (resolved, i));
      g_signal_emit (self, signals [PROPOSAL_RESOLVED], 0, g_ptr_array_index (resolved, i));
    }
  for (guint i = 0; i < fact_keys->len; i++)
    g_signal_emit (self, signals [FACT_CHANGED], 0, g_ptr_array_index (fact_keys, i));
  for (guint i = 0; i < draft_keys->len; i++)
    g_signal_emit (self, signals [DRAFT_CHANGED], 0, g_ptr_array_index (draft_keys, i));
  if (locks_changed)
    g_signal_emit (self, signals [LOCKS_CHANGED], 0);
  if (n_pending_before != self->n_pending)
    g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_N_PENDING]);
}

/* Brings the workspace up to what is stored now. */
static gboolean
sync_from_store (TbWorkspace  *self,
                 GError      **error)
{
  g_autoptr(JsonNode) document = NULL;
  g_autoptr(TbWorkspace) disk = NULL;
  gboolean changed = FALSE;

  if (!tb_workspace_store_reload (self->store, &document, &changed, NULL, error))
    return FALSE;

  if (!changed)
    {
      if (self->rejected != NULL)
        {
          g_propagate_error (error, g_error_copy (self->rejected));
          return FALSE;
        }
      return TRUE;
    }

  g_clear_error (&self->rejected);

  /* A file deleted meanwhile is written again from what is shown here. */
  if (document == NULL)
    return TRUE;

  disk = workspace_from_document (self->store, document, error);
  if (disk == NULL)
    {
      /* The store read it; remember not to write over it. */
      self->rejected = g_error_copy (*error);
      return FALSE;
    }

  adopt (self, disk);
  return TRUE;
}

/* Holds the store's lock for one read-modify-write, and brings the
 * workspace up to date under it, so the change applies to what is stored
 * now. Nested scopes (a signal handler that changes the workspace) share
 * the lock; while saves are frozen the freeze holds it. */
typedef struct
{
  TbWorkspace *locked;
} WriteScope;

static void
write_scope_end (WriteScope *scope)
{
  TbWorkspace *self = scope->locked;

  if (self == NULL)
    return;
  scope->locked = NULL;
  g_assert (self->write_depth > 0);
  if (--self->write_depth == 0)
    tb_workspace_store_unlock (self->store);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WriteScope, write_scope_end)

static gboolean
write_scope_begin (TbWorkspace  *self,
                   WriteScope   *scope,
                   gboolean      reload,
                   GError      **error)
{
  scope->locked = NULL;

  if (self->store == NULL || self->freeze_count > 0)
    return TRUE;

  if (self->write_depth > 0)
    {
      self->write_depth++;
      scope->locked = self;
      return TRUE;
    }

  if (!tb_workspace_store_lock (self->store, NULL, error))
    return FALSE;
  self->write_depth = 1;
  scope->locked = self;

  if (reload && !sync_from_store (self, error))
    {
      write_scope_end (scope);
      return FALSE;
    }
  return TRUE;
}

/* GObject --------------------------------------------------------------- */

static void
tb_workspace_finalize (GObject *object)
{
  TbWorkspace *self = TB_WORKSPACE (object);

  g_clear_object (&self->store);
  g_clear_error (&self->freeze_error);
  g_clear_error (&self->rejected);
  g_clear_pointer (&self->facts, json_node_unref);
  g_clear_pointer (&self->draft, json_node_unref);
  g_clear_pointer (&self->locks, g_hash_table_unref);
  g_clear_pointer (&self->by_id, g_hash_table_unref);
  g_clear_pointer (&self->issued, g_hash_table_unref);
  g_clear_object (&self->proposals);

  G_OBJECT_CLASS (tb_workspace_parent_class)->finalize (object);
}

static void
tb_workspace_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  TbWorkspace *self = TB_WORKSPACE (object);

  switch (prop_id)
    {
    case PROP_N_PENDING:
      g_value_set_uint (value, self->n_pending);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_workspace_class_init (TbWorkspaceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tb_workspace_finalize;
  object_class->get_property = tb_workspace_get_property;

  /**
   * TbWorkspace:n-pending:
   *
   * How many proposals wait for a person.
   */
  properties [PROP_N_PENDING] =
    g_param_spec_uint ("n-pending", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TbWorkspace::proposal-added:
   * @self: the workspace
   * @proposal: the new, pending proposal
   *
   * Emitted once the proposal is saved.
   */
  signals [PROPOSAL_ADDED] =
    g_signal_new ("proposal-added", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, TB_TYPE_FACT_PROPOSAL);

  /**
   * TbWorkspace::proposal-resolved:
   * @self: the workspace
   * @proposal: the proposal, now committed, rejected or superseded
   *
   * Emitted when a proposal was committed, rejected or superseded.
   */
  signals [PROPOSAL_RESOLVED] =
    g_signal_new ("proposal-resolved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, TB_TYPE_FACT_PROPOSAL);

  /**
   * TbWorkspace::fact-changed:
   * @self: the workspace
   * @key: the key that changed, as a person reads it
   *
   * Emitted when a fact was committed, or changed on disk by another program.
   */
  signals [FACT_CHANGED] =
    g_signal_new ("fact-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * TbWorkspace::draft-changed:
   * @self: the workspace
   * @key: the draft key that changed
   *
   * Emitted when an entry of the draft changed.
   */
  signals [DRAFT_CHANGED] =
    g_signal_new ("draft-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * TbWorkspace::locks-changed:
   * @self: the workspace
   *
   * Emitted when a key was locked or unlocked.
   */
  signals [LOCKS_CHANGED] =
    g_signal_new ("locks-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tb_workspace_init (TbWorkspace *self)
{
  self->facts = tb_json_node_new_object ();
  self->draft = tb_json_node_new_object ();
  self->locks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->proposals = g_list_store_new (TB_TYPE_FACT_PROPOSAL);
  self->by_id = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->issued = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->next_id = 1;
}

/**
 * tb_workspace_new:
 *
 * Makes a workspace that is not saved anywhere, for tests and for runs that
 * keep nothing.
 *
 * Returns: (transfer full): an empty workspace kept only in memory
 */
TbWorkspace *
tb_workspace_new (void)
{
  return g_object_new (TB_TYPE_WORKSPACE, NULL);
}

/**
 * tb_workspace_new_for_store:
 * @store: where the workspace lives
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #TbWorkspaceError
 *
 * Loads the workspace from @store (an empty store gives an empty
 * workspace). Every later change is saved to @store before it shows.
 *
 * Returns: (transfer full) (nullable): the workspace, or %NULL when the
 *   store could not be read; the store is then left untouched
 */
TbWorkspace *
tb_workspace_new_for_store (TbWorkspaceStore  *store,
                            GCancellable      *cancellable,
                            GError           **error)
{
  g_autoptr(TbWorkspace) self = NULL;
  g_autoptr(JsonNode) document = NULL;

  g_return_val_if_fail (TB_IS_WORKSPACE_STORE (store), NULL);

  if (!tb_workspace_store_load (store, &document, cancellable, error))
    return NULL;

  self = workspace_from_document (store, document, error);
  if (self == NULL)
    return NULL;

  self->store = g_object_ref (store);
  return g_steal_pointer (&self);
}

/**
 * tb_workspace_new_for_path:
 * @path: a workspace file; it is created on the first change
 * @error: return location for a #TbWorkspaceError
 *
 * Opens the workspace kept in a file, with a #TbWorkspaceFileStore.
 *
 * Returns: (transfer full) (nullable): the workspace kept in @path
 */
TbWorkspace *
tb_workspace_new_for_path (const char  *path,
                           GError     **error)
{
  g_autoptr(TbWorkspaceStore) store = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  store = tb_workspace_file_store_new (path);
  return tb_workspace_new_for_store (store, NULL, error);
}

/**
 * tb_workspace_get_store:
 * @self: a workspace
 *
 * Gives the store the workspace is saved in.
 *
 * Returns: (transfer none) (nullable): where it is saved
 */
TbWorkspaceStore *
tb_workspace_get_store (TbWorkspace *self)
{
  g_return_val_if_fail (TB_IS_WORKSPACE (self), NULL);
  return self->store;
}

/**
 * tb_workspace_save:
 * @self: a workspace
 * @error: return location for a #TbWorkspaceError
 *
 * Saves the whole workspace now. Changes save themselves; this is for
 * after tb_workspace_thaw_saves() failed, or to write a new file. Changes
 * that failed to save are written only if no other program changed the
 * store meanwhile (else %TB_WORKSPACE_ERROR_CONFLICT).
 *
 * Returns: %TRUE when saved (or when there is no store)
 */
gboolean
tb_workspace_save (TbWorkspace  *self,
                   GError      **error)
{
  g_auto(WriteScope) scope = { 0 };

  g_return_val_if_fail (TB_IS_WORKSPACE (self), FALSE);

  /* Reading first would drop changes that are only in memory. */
  if (!write_scope_begin (self, &scope, !self->dirty, error))
    return FALSE;
  return store_document (self, NULL, error);
}

/**
 * tb_workspace_reload:
 * @self: a workspace
 * @error: return location for a #TbWorkspaceError
 *
 * Shows what other programs stored since the workspace last read or wrote
 * its store, through the usual signals. Every change does this by itself
 * before it applies; call it to show others' changes sooner (when the file
 * changed, say). Does nothing while saves are frozen or changes wait to be
 * saved.
 *
 * Returns: %TRUE unless the store could not be read
 */
gboolean
tb_workspace_reload (TbWorkspace  *self,
                     GError      **error)
{
  g_return_val_if_fail (TB_IS_WORKSPACE (self), FALSE);

  if (self->store == NULL || self->dirty || self->freeze_count > 0 || self->write_depth > 0)
    return TRUE;
  return sync_from_store (self, error);
}

/**
 * tb_workspace_freeze_saves:
 * @self: a workspace
 *
 * Holds saving back until the matching tb_workspace_thaw_saves(), so that
 * many changes (thousands of proposals, say) are written once. Changes made
 * meanwhile show at once and cannot be undone if the final save fails.
 *
 * The batch is one read-modify-write: other programs wait until it is
 * thawed, so keep it short.
 */
void
tb_workspace_freeze_saves (TbWorkspace *self)
{
  g_return_if_fail (TB_IS_WORKSPACE (self));

  if (self->freeze_count++ > 0 || self->store == NULL || self->write_depth > 0)
    return;

  g_clear_error (&self->freeze_error);
  if (!tb_workspace_store_lock (self->store, NULL, &self->freeze_error))
    return;
  self->write_depth = 1;
  self->freeze_locked = TRUE;
  (void) sync_from_store (self, &self->freeze_error);
}

/**
 * tb_workspace_thaw_saves:
 * @self: a workspace
 * @error: return location for a #TbWorkspaceError
 *
 * Saves what changed since tb_workspace_freeze_saves(), once, and saves
 * every change again from now on.
 *
 * Returns: %TRUE unless the pending save failed (the changes stay in memory
 *   and tb_workspace_save() may be tried again)
 */
gboolean
tb_workspace_thaw_saves (TbWorkspace  *self,
                         GError      **error)
{
  gboolean ok = TRUE;

  g_return_val_if_fail (TB_IS_WORKSPACE (self), FALSE);
  g_return_val_if_fail (self->freeze_count > 0, FALSE);

  if (--self->freeze_count > 0)
    return TRUE;

  if (self->dirty && self->freeze_error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->freeze_error));
      ok = FALSE;
    }
  else if (self->dirty)
    ok = store_document (self, NULL, error);
  g_clear_error (&self->freeze_error);

  if (self->freeze_locked)
    {
      self->freeze_locked = FALSE;
      if (--self->write_depth == 0)
        tb_workspace_store_unlock (self->store);
    }

  return ok;
}

/* Facts and draft -------------------------------------------------------- */

/**
 * tb_workspace_get_facts:
 * @self: a workspace
 *
 * Gives all the facts.
 *
 * Returns: (transfer none): the facts, a JSON object; do not change it
 */
JsonNode *
tb_workspace_get_facts (TbWorkspace *self)
{
  g_return_val_if_fail (TB_IS_WORKSPACE (self), NULL);
  return self->facts;
}

/**
 * tb_workspace_get_draft:
 * @self: a workspace
 *
 * Gives the whole draft.
 *
 * Returns: (transfer none): the draft, a JSON object; do not change it
 */
JsonNode *
tb_workspace_get_draft (TbWorkspace *self)
{
  g_return_val_if_fail (TB_IS_WORKSPACE (self), NULL);
  return self->draft;
}

static JsonNode *
dup_value (JsonNode    *root,
           const char  *text,
           gboolean     facts,
           GError     **error)
{
  g_auto(Key) key = { 0 };
  JsonNode *node;

  if (!_tb_workspace_key_parse (text, &key, error))
    return NULL;

  node = _tb_workspace_tree_lookup (root, &key);
  if (node == NULL)
    {
      g_autofree char *shown = tb_text_shorten (key.display, -1, TB_WORKSPACE_SHOWN_CHARS);

      if (facts)
        g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_NOT_FOUND,
                     _("There is no fact “%s”."), shown);
      else
        g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_NOT_FOUND,
                     _("There is no draft entry “%s”."), shown);
      return NULL;
    }
  return tb_json_copy (node);
}

/**
 * tb_workspace_dup_fact:
 * @self: a workspace
 * @key: a key or JSON Pointer
 * @error: return location for a #TbWorkspaceError
 *
 * Reads one fact, which only a confirmed proposal changes.
 *
 * Returns: (transfer full) (nullable): a copy of the fact
 */
JsonNode *
tb_workspace_dup_fact (TbWorkspace  *self,
                       const char   *key,
                       GError      **error)
{
  g_return_val_if_fail (TB_IS_WORKSPACE (self), NULL);

  return dup_value (self->facts, key, TRUE, error);
}

/**
 * tb_workspace_dup_draft_value:
 * @self: a workspace
 * @key: a key or JSON Pointer
 * @error: return location for a #TbWorkspaceError
 *
 * Reads one entry of the draft, the workspace's scratch space that tools
 * may write without a person's confirmation.
 *
 * Returns: (transfer full) (nullable): a copy of the draft entry
 */
JsonNode *
tb_workspace_dup_draft_value (TbWorkspace  *self,
                              const char   *key,
                              GError      **error)
{
  g_return_val_if_fail (TB_IS_WORKSPACE (self), NULL);

  return dup_value (self->draft, key, FALSE, error);
}

static const char *
find_lock (TbWorkspace *self,
           const char  *pointer)
{
  GHashTableIter iter;
  gpointer k, v;

  g_hash_table_iter_init (&iter, self->locks);
  while (g_hash_table_iter_next (&iter, &k, &v))
    if (_tb_workspace_pointers_overlap (k, pointer))
      return v;
  return NULL;
}

static void
set_locked_error (GError     **error,
                  const Key   *key,
                  const char  *lock,
                  const char  *what)
{
  g_autofree char *shown = tb_text_shorten (key->display, -1, TB_WORKSPACE_SHOWN_CHARS);

  if (g_strcmp0 (lock, key->display) == 0)
    g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_LOCKED,
                 /* Translators: the second %s is "proposed", "set" or "committed". */
                 _("“%s” is locked, so it cannot be %s. Only a person can unlock it; do not "
                   "retry, ask the person if it must change."),
                 shown, what);
  else
    g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_LOCKED,
                 _("“%s” touches the locked key “%s”, so it cannot be %s. Only a person can "
                   "unlock it; do not retry, ask the person if it must change."),
                 shown, lock, what);
}

/**
 * tb_workspace_set_draft_value:
 * @self: a workspace
 * @key: a key or JSON Pointer into the draft
 * @value: the new value
 * @error: return location for a #TbWorkspaceError
 *
 * Sets a draft entry (the working state, which needs no confirmation) and
 * saves. Locked keys are refused.
 *
 * Returns: %TRUE when set and saved
 */
gboolean
tb_workspace_set_draft_value (TbWorkspace  *self,
                              const char   *key,
                              JsonNode     *value,
                              GError      **error)
{
  g_auto(Key) parsed = { 0 };
  g_auto(Change) change = { 0 };
  g_auto(WriteScope) scope = { 0 };
  const char *lock;

  g_return_val_if_fail (TB_IS_WORKSPACE (self), FALSE);

  if (!_tb_workspace_key_parse (key, &parsed, error) || !_tb_workspace_check_value (value, &parsed, error))
    return FALSE;

  if (!write_scope_begin (self, &scope, TRUE, error))
    return FALSE;

  lock = find_lock (self, parsed.pointer);
  if (lock != NULL)
    {
      set_locked_error (error, &parsed, lock, _("set"));
      return FALSE;
    }

  if (!_tb_workspace_tree_check_place (self->draft, &parsed, error))
    return FALSE;

  change_begin (self, &change);
  change_keep_draft (self, &change);
  if (!_tb_workspace_tree_set (self->draft, &parsed, value, error))
    {
      change_revert (self, &change);
      return FALSE;
    }
  if (!change_finish (self, &change, error))
    return FALSE;

  g_signal_emit (self, signals [DRAFT_CHANGED], 0, parsed.display);
  return TRUE;
}

/* Locks ------------------------------------------------------------------ */

/**
 * tb_workspace_get_locks:
 * @self: a workspace
 *
 * Lists the keys a person locked, which no proposal may change.
 *
 * Returns: (transfer full): the locked keys, sorted
 */
char **
tb_workspace_get_locks (TbWorkspace *self)
{
  GPtrArray *keys;
  GHashTableIter iter;
  gpointer v;

  g_return_val_if_fail (TB_IS_WORKSPACE (self), NULL);

  keys = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, self->locks);
  while (g_hash_table_iter_next (&iter, NULL, &v))
    g_ptr_array_add (keys, g_strdup (v));
  g_ptr_array_sort (keys, compare_strings);
  g_ptr_array_add (keys, NULL);

  return (char **) g_ptr_array_free (keys, FALSE);
}

/**
 * tb_workspace_is_locked:
 * @self: a workspace
 * @key: a key or JSON Pointer
 *
 * Tells whether a proposal for @key would be refused because of a lock.
 *
 * Returns: %TRUE when @key, a key around it or a key inside it is locked
 */
gboolean
tb_workspace_is_locked (TbWorkspace *self,
                        const char  *key)
{
  g_auto(Key) parsed = { 0 };

  g_return_val_if_fail (TB_IS_WORKSPACE (self), FALSE);

  return _tb_workspace_key_parse (key, &parsed, NULL) && find_lock (self, parsed.pointer) != NULL;
}

static gboolean
change_lock (TbWorkspace  *self,
             const char   *key,
             gboolean      lock,
             GError      **error)
{
  g_auto(Key) parsed = { 0 };
  g_auto(Change) change = { 0 };
  g_auto(WriteScope) scope = { 0 };

  if (!_tb_workspace_key_parse (key, &parsed, error))
    return FALSE;

  if (!write_scope_begin (self, &scope, TRUE, error))
    return FALSE;

  if (lock == g_hash_table_contains (self->locks, parsed.pointer))
    return TRUE;

  change_begin (self, &change);
  change_keep_locks (self, &change);
  if (lock)
    g_hash_table_insert (self->locks, g_strdup (parsed.pointer), g_strdup (parsed.display));
  else
    g_hash_table_remove (self->locks, parsed.pointer);

  if (!change_finish (self, &change, error))
    return FALSE;

  g_signal_emit (self, signals [LOCKS_CHANGED], 0);
  return TRUE;
}

/**
 * tb_workspace_lock:
 * @self: a workspace
 * @key: a key or JSON Pointer
 * @error: return location for a #TbWorkspaceError
 *
 * Locks @key: it, and everything inside it, can no longer be proposed,
 * committed or set in the draft until a person unlocks it.
 *
 * Returns: %TRUE when locked and saved
 */
gboolean
tb_workspace_lock (TbWorkspace  *self,
                   const char   *key,
                   GError      **error)
{
  g_return_val_if_fail (TB_IS_WORKSPACE (self), FALSE);
  return change_lock (self, key, TRUE, error);
}

/**
 * tb_workspace_unlock:
 * @self: a workspace
 * @key: a key locked with tb_workspace_lock()
 * @error: return location for a #TbWorkspaceError
 *
 * Lets proposals change @key again.
 *
 * Returns: %TRUE when unlocked and saved (or not locked)
 */
gboolean
tb_workspace_unlock (TbWorkspace  *self,
                     const char   *key,
                     GError      **error)
{
  g_return_val_if_fail (TB_IS_WORKSPACE (self), FALSE);
  return change_lock (self, key, FALSE, error);
}

/* Proposals -------------------------------------------------------------- */

/**
 * tb_workspace_get_proposals:
 * @self: a workspace
 *
 * Gives the proposals, pending and resolved.
 *
 * Returns: (transfer none): every proposal, oldest first, as a
 *   #GListModel of #TbFactProposal
 */
GListModel *
tb_workspace_get_proposals (TbWorkspace *self)
{
  g_return_val_if_fail (TB_IS_WORKSPACE (self), NULL);
  return G_LIST_MODEL (self->proposals);
}

/**
 * tb_workspace_get_n_pending:
 * @self: a workspace
 *
 * Counts the proposals that wait for a person (#TbWorkspace:n-pending).
 *
 * Returns: how many proposals wait for a person
 */
guint
tb_workspace_get_n_pending (TbWorkspace *self)
{
  g_return_val_if_fail (TB_IS_WORKSPACE (self), 0);
  return self->n_pending;
}

/**
 * tb_workspace_lookup_proposal:
 * @self: a workspace
 * @id: a proposal id
 *
 * Finds a proposal by its id.
 *
 * Returns: (transfer none) (nullable): the proposal
 */
TbFactProposal *
tb_workspace_lookup_proposal (TbWorkspace *self,
                              const char  *id)
{
  g_return_val_if_fail (TB_IS_WORKSPACE (self), NULL);

  if (id == NULL)
    return NULL;
  return g_hash_table_lookup (self->by_id, id);
}

/**
 * tb_workspace_propose:
 * @self: a workspace
 * @key: a key or JSON Pointer into the facts
 * @value: the proposed value
 * @reason: (nullable): why
 * @origin_call_id: (nullable): the tool call that proposes, or %NULL for a person
 * @error: return location for a #TbWorkspaceError
 *
 * Records a pending proposal and saves it. Nothing changes in the facts:
 * only tb_workspace_commit() with a person's confirmation does that.
 *
 * Returns: (transfer none) (nullable): the pending proposal
 */
TbFactProposal *
tb_workspace_propose (TbWorkspace  *self,
                      const char   *key,
                      JsonNode     *value,
                      const char   *reason,
                      const char   *origin_call_id,
                      GError      **error)
{
  g_auto(Key) parsed = { 0 };
  g_auto(Change) change = { 0 };
  g_auto(WriteScope) scope = { 0 };
  g_autofree char *id = NULL;
  TbFactProposal *proposal;
  const char *lock;
  JsonNode *current;

  g_return_val_if_fail (TB_IS_WORKSPACE (self), NULL);

  if (!_tb_workspace_key_parse (key, &parsed, error) || !_tb_workspace_check_value (value, &parsed, error))
    return NULL;

  if (reason == NULL)
    reason = "";
  if (!g_utf8_validate (reason, -1, NULL) || strlen (reason) > TB_WORKSPACE_MAX_REASON_LENGTH)
    {
      g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_VALUE,
                   _("The reason must be UTF-8 text of at most %d bytes."),
                   TB_WORKSPACE_MAX_REASON_LENGTH);
      return NULL;
    }
  if (origin_call_id != NULL &&
      (!g_utf8_validate (origin_call_id, -1, NULL) || strlen (origin_call_id) > 256))
    origin_call_id = NULL;

  if (!write_scope_begin (self, &scope, TRUE, error))
    return NULL;

  lock = find_lock (self, parsed.pointer);
  if (lock != NULL)
    {
      set_locked_error (error, &parsed, lock, _("proposed"));
      return NULL;
    }

  if (self->n_pending >= TB_WORKSPACE_MAX_PENDING)
    {
      g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_TOO_MANY,
                   _("%u proposals already wait for a person, the most there may be. Nothing "
                     "was proposed; wait until the person confirms or rejects some."),
                   self->n_pending);
      return NULL;
    }

  if (!_tb_workspace_tree_check_place (self->facts, &parsed, error))
    return NULL;

  current = _tb_workspace_tree_lookup (self->facts, &parsed);
  if (current != NULL && tb_json_equal (current, value))
    {
      g_autofree char *shown = tb_text_shorten (parsed.display, -1, TB_WORKSPACE_SHOWN_CHARS);

      g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_VALUE,
                   _("The fact “%s” already has this value; there is nothing to propose."),
                   shown);
      return NULL;
    }

  change_begin (self, &change);
  id = g_strdup_printf ("p%" G_GUINT64_FORMAT, self->next_id++);
  change.added = _tb_fact_proposal_new (id, parsed.display, parsed.pointer, value, current,
                                        reason, origin_call_id, g_get_real_time ());
  self->n_pending++;
  proposal = change.added;

  if (!change_finish (self, &change, error))
    return NULL;

  return proposal;
}

static void
set_superseded_error (GError         **error,
                      TbFactProposal  *proposal)
{
  g_autofree char *shown = tb_text_shorten (tb_fact_proposal_get_key (proposal), -1,
                                            TB_WORKSPACE_SHOWN_CHARS);

  g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_SUPERSEDED,
               _("The fact “%s” changed after proposal %s was made, so it cannot be committed. "
                 "Propose it again (re-propose %s) to confirm it against the current value."),
               shown, tb_fact_proposal_get_id (proposal), tb_fact_proposal_get_id (proposal));
}

static gboolean
check_pending (TbWorkspace     *self,
               TbFactProposal  *proposal,
               GError         **error)
{
  if (tb_workspace_lookup_proposal (self, tb_fact_proposal_get_id (proposal)) != proposal)
    {
      g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_NOT_FOUND,
                   _("Proposal %s does not belong to this workspace."),
                   tb_fact_proposal_get_id (proposal));
      return FALSE;
    }

  switch (tb_fact_proposal_get_status (proposal))
    {
    case TB_PROPOSAL_STATUS_PENDING:
      return TRUE;

    case TB_PROPOSAL_STATUS_SUPERSEDED:
      set_superseded_error (error, proposal);
      return FALSE;

    case TB_PROPOSAL_STATUS_COMMITTED:
    case TB_PROPOSAL_STATUS_REJECTED:
    default:
      g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_NOT_PENDING,
                   _("Proposal %s was already %s."), tb_fact_proposal_get_id (proposal),
                   tb_proposal_status_to_string (tb_fact_proposal_get_status (proposal)));
      return FALSE;
    }
}

/**
 * tb_workspace_reject:
 * @self: a workspace
 * @proposal: a pending proposal
 * @rejected_by: (nullable): who rejected it
 * @error: return location for a #TbWorkspaceError
 *
 * Turns a proposal down; the fact stays as it is and the trace of a bound
 * loop records it.
 *
 * Returns: %TRUE when rejected and saved
 */
gboolean
tb_workspace_reject (TbWorkspace     *self,
                     TbFactProposal  *proposal,
                     const char      *rejected_by,
                     GError         **error)
{
  g_auto(Change) change = { 0 };
  g_auto(WriteScope) scope = { 0 };

  g_return_val_if_fail (TB_IS_WORKSPACE (self), FALSE);
  g_return_val_if_fail (TB_IS_FACT_PROPOSAL (proposal), FALSE);

  if (!write_scope_begin (self, &scope, TRUE, error) ||
      !check_pending (self, proposal, error))
    return FALSE;

  change_begin (self, &change);
  change_resolve (self, &change, proposal, TB_PROPOSAL_STATUS_REJECTED, rejected_by);
  return change_finish (self, &change, error);
}

/**
 * tb_workspace_repropose:
 * @self: a workspace
 * @proposal: a superseded or rejected proposal
 * @error: return location for a #TbWorkspaceError
 *
 * Makes a new pending proposal with the same key, value, reason and origin,
 * measured against the fact as it is now.
 *
 * Returns: (transfer none) (nullable): the new proposal
 */
TbFactProposal *
tb_workspace_repropose (TbWorkspace     *self,
                        TbFactProposal  *proposal,
                        GError         **error)
{
  g_auto(WriteScope) scope = { 0 };
  TbProposalStatus status;

  g_return_val_if_fail (TB_IS_WORKSPACE (self), NULL);
  g_return_val_if_fail (TB_IS_FACT_PROPOSAL (proposal), NULL);

  /* Decide on the status as stored now, and propose under the same lock. */
  if (!write_scope_begin (self, &scope, TRUE, error))
    return NULL;

  status = tb_fact_proposal_get_status (proposal);
  if (status == TB_PROPOSAL_STATUS_PENDING || status == TB_PROPOSAL_STATUS_COMMITTED)
    {
      g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_NOT_PENDING,
                   _("Proposal %s is %s; only superseded or rejected proposals are proposed "
                     "again."),
                   tb_fact_proposal_get_id (proposal), tb_proposal_status_to_string (status));
      return NULL;
    }

  return tb_workspace_propose (self, tb_fact_proposal_get_key (proposal),
                               tb_fact_proposal_get_value (proposal),
                               tb_fact_proposal_get_reason (proposal),
                               tb_fact_proposal_get_origin_call_id (proposal), error);
}

gboolean
_tb_workspace_issue_confirmation (TbWorkspace     *self,
                                  TbFactProposal  *proposal,
                                  TbConfirmation  *confirmation,
                                  GError         **error)
{
  if (!check_pending (self, proposal, error))
    return FALSE;

  g_hash_table_insert (self->issued, g_strdup (tb_confirmation_get_token (confirmation)),
                       g_object_ref (confirmation));
  return TRUE;
}

TbConfirmation *
_tb_workspace_lookup_confirmation (TbWorkspace *self,
                                   const char  *token)
{
  if (token == NULL)
    return NULL;
  return g_hash_table_lookup (self->issued, token);
}

static gboolean
check_confirmation (TbWorkspace     *self,
                    TbFactProposal  *proposal,
                    TbConfirmation  *confirmation,
                    GError         **error)
{
  const char *token;

  if (confirmation == NULL || !TB_IS_CONFIRMATION (confirmation))
    {
      g_set_error_literal (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_CONFIRMATION,
                           _("A fact changes only after a person confirms it, and no "
                             "confirmation was given. Nothing was committed."));
      return FALSE;
    }

  if (tb_confirmation_get_used (confirmation))
    {
      g_set_error_literal (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_CONFIRMATION,
                           _("This confirmation was already used; each confirmation commits "
                             "one proposal once. Nothing was committed."));
      return FALSE;
    }

  token = tb_confirmation_get_token (confirmation);
  if (token == NULL || _tb_workspace_lookup_confirmation (self, token) != confirmation)
    {
      g_set_error_literal (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_CONFIRMATION,
                           _("This confirmation was not made by this workspace's confirmation "
                             "dialog or the explicit confirm command, so it is refused. Nothing "
                             "was committed."));
      return FALSE;
    }

  if (g_strcmp0 (tb_confirmation_get_proposal_id (confirmation),
                 tb_fact_proposal_get_id (proposal)) != 0)
    {
      g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_CONFIRMATION,
                   _("This confirmation is for proposal %s, not %s. Nothing was committed."),
                   tb_confirmation_get_proposal_id (confirmation),
                   tb_fact_proposal_get_id (proposal));
      return FALSE;
    }

  return TRUE;
}

static gboolean
matches_previous (TbWorkspace    *self,
                  TbFactProposal *proposal)
{
  g_auto(Key) key = { 0 };
  JsonNode *current;

  if (!_tb_workspace_key_parse (tb_fact_proposal_get_key (proposal), &key, NULL))
    return FALSE;

  current = _tb_workspace_tree_lookup (self->facts, &key);
  if (current == NULL || !tb_fact_proposal_has_previous (proposal))
    return current == NULL && !tb_fact_proposal_has_previous (proposal);
  return tb_json_equal (current, tb_fact_proposal_get_previous (proposal));
}

/**
 * tb_workspace_commit:
 * @self: a workspace
 * @proposal: a pending proposal of @self
 * @confirmation: the person's confirmation of @proposal, from
 *   tb_confirmation_new()
 * @error: return location for a #TbWorkspaceError
 *
 * Changes the fact to the proposed value, records who confirmed it and
 * when, and saves. Refuses a missing, forged, reused or mismatched
 * confirmation, a proposal that is not pending, a locked key, and a
 * proposal whose fact changed since it was made (superseded: propose it
 * again with tb_workspace_repropose()). Pending proposals of the same fact
 * that no longer match it become superseded.
 *
 * Returns: %TRUE when committed and saved
 */
gboolean
tb_workspace_commit (TbWorkspace     *self,
                     TbFactProposal  *proposal,
                     TbConfirmation  *confirmation,
                     GError         **error)
{
  g_auto(Key) key = { 0 };
  g_auto(Change) change = { 0 };
  g_auto(WriteScope) scope = { 0 };
  const char *lock;
  guint n;

  g_return_val_if_fail (TB_IS_WORKSPACE (self), FALSE);
  g_return_val_if_fail (TB_IS_FACT_PROPOSAL (proposal), FALSE);

  /* Another program may have committed, rejected or superseded it. */
  if (!check_confirmation (self, proposal, confirmation, error) ||
      !write_scope_begin (self, &scope, TRUE, error) ||
      !check_pending (self, proposal, error))
    return FALSE;

  if (!_tb_workspace_key_parse (tb_fact_proposal_get_key (proposal), &key, error))
    return FALSE;

  lock = find_lock (self, key.pointer);
  if (lock != NULL)
    {
      set_locked_error (error, &key, lock, _("committed"));
      return FALSE;
    }

  if (!matches_previous (self, proposal))
    {
      set_superseded_error (error, proposal);
      return FALSE;
    }

  change_begin (self, &change);
  change_keep_facts (self, &change);
  if (!_tb_workspace_tree_set (self->facts, &key, tb_fact_proposal_get_value (proposal), error))
    {
      change_revert (self, &change);
      return FALSE;
    }
  change_resolve (self, &change, proposal, TB_PROPOSAL_STATUS_COMMITTED,
                  tb_confirmation_get_confirmed_by (confirmation));

  n = g_list_model_get_n_items (G_LIST_MODEL (self->proposals));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TbFactProposal) other =
        g_list_model_get_item (G_LIST_MODEL (self->proposals), i);

      if (other != proposal &&
          tb_fact_proposal_get_status (other) == TB_PROPOSAL_STATUS_PENDING &&
          _tb_workspace_pointers_overlap (tb_fact_proposal_get_pointer (other), key.pointer) &&
          !matches_previous (self, other))
        change_resolve (self, &change, other, TB_PROPOSAL_STATUS_SUPERSEDED, NULL);
    }

  if (!change_finish (self, &change, error))
    return FALSE;

  _tb_confirmation_mark_used (confirmation);
  g_hash_table_remove (self->issued, tb_confirmation_get_token (confirmation));

  g_signal_emit (self, signals [FACT_CHANGED], 0, key.display);
  return TRUE;
}

/* A binding asks that a run waits for the person after a proposal. */
void
_tb_workspace_set_pause_runs (TbWorkspace *self,
                              gboolean     pause)
{
  g_assert (TB_IS_WORKSPACE (self));
  g_assert (pause || self->pause_runs > 0);

  if (pause)
    self->pause_runs++;
  else
    self->pause_runs--;
}

gboolean
_tb_workspace_get_pause_runs (TbWorkspace *self)
{
  g_assert (TB_IS_WORKSPACE (self));

  return self->pause_runs > 0;
}
