/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <math.h>
#include <string.h>

#include "workspace-test-util.h"

typedef struct
{
  char        *dir;
  char        *path;
  TbWorkspace *workspace;
  guint        n_added;
  guint        n_resolved;
  guint        n_fact_changed;
  guint        n_locks_changed;
  guint        n_draft_changed;
  char        *last_key;
} Fixture;

static void
on_added (TbWorkspace *workspace, TbFactProposal *proposal, Fixture *f)
{
  g_assert_true (TB_IS_FACT_PROPOSAL (proposal));
  f->n_added++;
}

static void
on_resolved (TbWorkspace *workspace, TbFactProposal *proposal, Fixture *f)
{
  g_assert_cmpint (tb_fact_proposal_get_status (proposal), !=, TB_PROPOSAL_STATUS_PENDING);
  f->n_resolved++;
}

static void
on_fact_changed (TbWorkspace *workspace, const char *key, Fixture *f)
{
  f->n_fact_changed++;
  g_free (f->last_key);
  f->last_key = g_strdup (key);
}

static void
on_draft_changed (TbWorkspace *workspace, const char *key, Fixture *f)
{
  f->n_draft_changed++;
}

static void
on_locks_changed (TbWorkspace *workspace, Fixture *f)
{
  f->n_locks_changed++;
}

static void
connect_signals (Fixture *f)
{
  g_signal_connect (f->workspace, "proposal-added", G_CALLBACK (on_added), f);
  g_signal_connect (f->workspace, "proposal-resolved", G_CALLBACK (on_resolved), f);
  g_signal_connect (f->workspace, "fact-changed", G_CALLBACK (on_fact_changed), f);
  g_signal_connect (f->workspace, "draft-changed", G_CALLBACK (on_draft_changed), f);
  g_signal_connect (f->workspace, "locks-changed", G_CALLBACK (on_locks_changed), f);
}

static void
setup (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("tb-workspace-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "workspace.json", NULL);
  f->workspace = tb_workspace_new_for_path (f->path, &error);
  g_assert_no_error (error);
  connect_signals (f);
}

static void
teardown (Fixture *f, gconstpointer data)
{
  g_assert_finalize_object (f->workspace);
  remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->path);
  g_free (f->last_key);
}

static TbWorkspace *
reopen (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  TbWorkspace *workspace = tb_workspace_new_for_path (f->path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (workspace);
  return workspace;
}

static char *
fact_text (TbWorkspace *workspace, const char *key)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = tb_workspace_dup_fact (workspace, key, &error);

  if (node == NULL)
    {
      g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_NOT_FOUND);
      return NULL;
    }
  return node_text (node);
}

static TbFactProposal *
propose (TbWorkspace *workspace, const char *key, const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) value = parse_json (json);
  TbFactProposal *proposal;

  proposal = tb_workspace_propose (workspace, key, value, "because", NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (proposal);
  return proposal;
}

static void
confirm (TbWorkspace *workspace, TbFactProposal *proposal, const char *who)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbConfirmation) confirmation = tb_confirmation_new (workspace, proposal, who, &error);

  g_assert_no_error (error);
  g_assert_true (tb_workspace_commit (workspace, proposal, confirmation, &error));
  g_assert_no_error (error);
  g_assert_true (tb_confirmation_get_used (confirmation));
}

static void
test_lifecycle (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbWorkspace) again = NULL;
  g_autofree char *text = NULL;
  TbFactProposal *p1, *p2;
  GListModel *proposals;

  p1 = propose (f->workspace, "city", "\"Paris\"");
  g_assert_cmpuint (f->n_added, ==, 1);
  g_assert_cmpstr (tb_fact_proposal_get_id (p1), ==, "p1");
  g_assert_cmpstr (tb_fact_proposal_get_key (p1), ==, "city");
  g_assert_cmpstr (tb_fact_proposal_get_pointer (p1), ==, "/city");
  g_assert_cmpstr (tb_fact_proposal_get_reason (p1), ==, "because");
  g_assert_false (tb_fact_proposal_has_previous (p1));
  g_assert_cmpint (tb_fact_proposal_get_status (p1), ==, TB_PROPOSAL_STATUS_PENDING);
  g_assert_cmpint (tb_fact_proposal_get_created (p1), >, 0);
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 1);

  /* Proposed is not committed. */
  g_assert_null (fact_text (f->workspace, "city"));
  g_assert_cmpuint (f->n_fact_changed, ==, 0);
  g_assert_true (g_file_test (f->path, G_FILE_TEST_EXISTS));

  confirm (f->workspace, p1, "Ada");
  text = fact_text (f->workspace, "city");
  g_assert_cmpstr (text, ==, "\"Paris\"");
  g_assert_cmpint (tb_fact_proposal_get_status (p1), ==, TB_PROPOSAL_STATUS_COMMITTED);
  g_assert_cmpstr (tb_fact_proposal_get_resolved_by (p1), ==, "Ada");
  g_assert_cmpint (tb_fact_proposal_get_resolved (p1), >=, tb_fact_proposal_get_created (p1));
  g_assert_cmpuint (f->n_fact_changed, ==, 1);
  g_assert_cmpstr (f->last_key, ==, "city");
  g_assert_cmpuint (f->n_resolved, ==, 1);
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 0);

  /* A second proposal knows the value it replaces; rejecting keeps the fact. */
  p2 = propose (f->workspace, "city", "\"Lyon\"");
  g_assert_true (tb_fact_proposal_has_previous (p2));
  g_clear_pointer (&text, g_free);
  text = node_text (tb_fact_proposal_get_previous (p2));
  g_assert_cmpstr (text, ==, "\"Paris\"");
  g_assert_true (tb_workspace_reject (f->workspace, p2, "Ada", &error));
  g_assert_no_error (error);
  g_assert_cmpint (tb_fact_proposal_get_status (p2), ==, TB_PROPOSAL_STATUS_REJECTED);
  g_clear_pointer (&text, g_free);
  text = fact_text (f->workspace, "city");
  g_assert_cmpstr (text, ==, "\"Paris\"");

  /* A resolved proposal cannot be resolved again. */
  g_assert_false (tb_workspace_reject (f->workspace, p2, "Ada", &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_NOT_PENDING);
  g_clear_error (&error);

  /* Proposing the value a fact already has is refused. */
  {
    g_autoptr(JsonNode) same = parse_json ("\"Paris\"");

    g_assert_null (tb_workspace_propose (f->workspace, "city", same, NULL, NULL, &error));
    g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_VALUE);
    g_assert_nonnull (strstr (error->message, "already has this value"));
    g_clear_error (&error);
  }

  /* Everything survives a restart, who confirmed included. */
  again = reopen (f);
  proposals = tb_workspace_get_proposals (again);
  g_assert_cmpuint (g_list_model_get_n_items (proposals), ==, 2);
  g_clear_pointer (&text, g_free);
  text = fact_text (again, "city");
  g_assert_cmpstr (text, ==, "\"Paris\"");
  g_assert_cmpint (tb_fact_proposal_get_status (tb_workspace_lookup_proposal (again, "p1")), ==,
                   TB_PROPOSAL_STATUS_COMMITTED);
  g_assert_cmpstr (tb_fact_proposal_get_resolved_by (tb_workspace_lookup_proposal (again, "p1")),
                   ==, "Ada");
  g_assert_cmpint (tb_fact_proposal_get_resolved (tb_workspace_lookup_proposal (again, "p1")),
                   ==, tb_fact_proposal_get_resolved (p1));
  g_assert_cmpint (tb_fact_proposal_get_status (tb_workspace_lookup_proposal (again, "p2")), ==,
                   TB_PROPOSAL_STATUS_REJECTED);
  g_assert_finalize_object (g_steal_pointer (&again));
}

static void
test_confirmation_refused (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbConfirmation) forged = NULL;
  g_autoptr(TbConfirmation) real = NULL;
  g_autoptr(TbConfirmation) for_p1 = NULL;
  g_autoptr(TbConfirmation) foreign = NULL;
  g_autoptr(TbWorkspace) other = tb_workspace_new ();
  TbFactProposal *p1, *p2, *other_proposal;

  p1 = propose (f->workspace, "city", "\"Paris\"");
  p2 = propose (f->workspace, "country", "\"France\"");

  /* No confirmation at all. */
  g_assert_false (tb_workspace_commit (f->workspace, p1, NULL, &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_CONFIRMATION);
  g_assert_nonnull (strstr (error->message, "only after a person confirms"));
  g_clear_error (&error);

  /* Built around the confirmation path. */
  forged = g_object_new (TB_TYPE_CONFIRMATION, NULL);
  g_assert_false (tb_workspace_commit (f->workspace, p1, forged, &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_CONFIRMATION);
  g_assert_nonnull (strstr (error->message, "not made by this workspace"));
  g_clear_error (&error);

  /* Issued by another workspace's confirmation path. */
  other_proposal = propose (other, "city", "\"Paris\"");
  foreign = tb_confirmation_new (other, other_proposal, "Eve", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tb_confirmation_get_proposal_id (foreign), ==, "p1");
  g_assert_false (tb_workspace_commit (f->workspace, p1, foreign, &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_CONFIRMATION);
  g_clear_error (&error);

  /* Naming another proposal. */
  for_p1 = tb_confirmation_new (f->workspace, p1, "Ada", &error);
  g_assert_no_error (error);
  g_assert_false (tb_workspace_commit (f->workspace, p2, for_p1, &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_CONFIRMATION);
  g_assert_nonnull (strstr (error->message, "for proposal p1, not p2"));
  g_clear_error (&error);

  /* A confirmation must name a person. */
  g_assert_null (tb_confirmation_new (f->workspace, p1, "", &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_CONFIRMATION);
  g_clear_error (&error);

  g_assert_null (fact_text (f->workspace, "city"));
  g_assert_null (fact_text (f->workspace, "country"));
  g_assert_cmpuint (f->n_fact_changed, ==, 0);

  /* Used once, then never again. */
  g_assert_true (tb_workspace_commit (f->workspace, p1, for_p1, &error));
  g_assert_no_error (error);
  g_assert_true (tb_confirmation_get_used (for_p1));
  g_assert_false (tb_workspace_commit (f->workspace, p1, for_p1, &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_CONFIRMATION);
  g_assert_nonnull (strstr (error->message, "already used"));
  g_clear_error (&error);

  /* A confirmation for a resolved proposal cannot even be made. */
  g_assert_null (tb_confirmation_new (f->workspace, p1, "Ada", &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_NOT_PENDING);
  g_clear_error (&error);

  real = tb_confirmation_new (f->workspace, p2, "Ada", &error);
  g_assert_no_error (error);
  g_assert_true (tb_workspace_commit (f->workspace, p2, real, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->n_fact_changed, ==, 2);
}

static void
test_locks (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) value = parse_json ("\"Lyon\"");
  g_autoptr(TbConfirmation) confirmation = NULL;
  g_autoptr(TbWorkspace) again = NULL;
  g_auto(GStrv) locks = NULL;
  TbFactProposal *pending;

  pending = propose (f->workspace, "city", "\"Paris\"");

  g_assert_true (tb_workspace_lock (f->workspace, "city", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->n_locks_changed, ==, 1);
  g_assert_true (tb_workspace_is_locked (f->workspace, "city"));
  g_assert_true (tb_workspace_is_locked (f->workspace, "/city"));

  /* Locked keys cannot be proposed... */
  g_assert_null (tb_workspace_propose (f->workspace, "city", value, "x", "call-1", &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_LOCKED);
  g_assert_nonnull (strstr (error->message, "“city” is locked"));
  g_assert_nonnull (strstr (error->message, "do not retry"));
  g_clear_error (&error);
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 1);

  /* ...set in the draft... */
  g_assert_false (tb_workspace_set_draft_value (f->workspace, "city", value, &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_LOCKED);
  g_clear_error (&error);
  g_assert_cmpuint (f->n_draft_changed, ==, 0);

  /* ...or committed, even with a confirmation, until a person unlocks. */
  confirmation = tb_confirmation_new (f->workspace, pending, "Ada", &error);
  g_assert_no_error (error);
  g_assert_false (tb_workspace_commit (f->workspace, pending, confirmation, &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_LOCKED);
  g_clear_error (&error);
  g_assert_false (tb_confirmation_get_used (confirmation));
  g_assert_null (fact_text (f->workspace, "city"));

  /* A lock covers what is inside it and what is around it. */
  g_assert_true (tb_workspace_lock (f->workspace, "/trip/hotel", &error));
  g_assert_no_error (error);
  g_assert_null (tb_workspace_propose (f->workspace, "/trip/hotel/name", value, "", NULL, &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_LOCKED);
  g_clear_error (&error);
  g_assert_null (tb_workspace_propose (f->workspace, "trip", value, "", NULL, &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_LOCKED);
  g_assert_nonnull (strstr (error->message, "locked key “/trip/hotel”"));
  g_clear_error (&error);
  g_assert_nonnull (tb_workspace_propose (f->workspace, "/trip/flight", value, "", NULL, &error));
  g_assert_no_error (error);

  /* Locks survive a restart. */
  again = reopen (f);
  locks = tb_workspace_get_locks (again);
  g_assert_cmpuint (g_strv_length (locks), ==, 2);
  g_assert_cmpstr (locks[0], ==, "/trip/hotel");
  g_assert_cmpstr (locks[1], ==, "city");
  g_assert_finalize_object (g_steal_pointer (&again));

  g_assert_true (tb_workspace_unlock (f->workspace, "city", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->n_locks_changed, ==, 3);
  g_assert_false (tb_workspace_is_locked (f->workspace, "city"));
  g_assert_true (tb_workspace_commit (f->workspace, pending, confirmation, &error));
  g_assert_no_error (error);
}

static void
test_superseded (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbConfirmation) early = NULL;
  g_autofree char *text = NULL;
  TbFactProposal *p1, *p2, *p3, *unrelated;

  p1 = propose (f->workspace, "city", "\"Paris\"");
  p2 = propose (f->workspace, "city", "\"Lyon\"");
  unrelated = propose (f->workspace, "country", "\"France\"");

  /* The person confirmed p2 in one window, then p1 in another. */
  early = tb_confirmation_new (f->workspace, p2, "Ada", &error);
  g_assert_no_error (error);
  confirm (f->workspace, p1, "Ada");

  g_assert_cmpint (tb_fact_proposal_get_status (p2), ==, TB_PROPOSAL_STATUS_SUPERSEDED);
  g_assert_cmpint (tb_fact_proposal_get_status (unrelated), ==, TB_PROPOSAL_STATUS_PENDING);
  g_assert_cmpuint (f->n_resolved, ==, 2);
  g_assert_null (tb_fact_proposal_get_resolved_by (p2));

  g_assert_false (tb_workspace_commit (f->workspace, p2, early, &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_SUPERSEDED);
  g_assert_nonnull (strstr (error->message, "changed after proposal p2 was made"));
  g_assert_nonnull (strstr (error->message, "Propose it again"));
  g_clear_error (&error);
  text = fact_text (f->workspace, "city");
  g_assert_cmpstr (text, ==, "\"Paris\"");

  /* Re-proposing measures against the current value. */
  p3 = tb_workspace_repropose (f->workspace, p2, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tb_fact_proposal_get_id (p3), ==, "p4");
  g_clear_pointer (&text, g_free);
  text = node_text (tb_fact_proposal_get_previous (p3));
  g_assert_cmpstr (text, ==, "\"Paris\"");
  g_assert_null (tb_workspace_repropose (f->workspace, p3, &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_NOT_PENDING);
  g_clear_error (&error);

  confirm (f->workspace, p3, "Ada");
  g_clear_pointer (&text, g_free);
  text = fact_text (f->workspace, "city");
  g_assert_cmpstr (text, ==, "\"Lyon\"");

  /* A nested commit supersedes the pending proposal of its parent. */
  p1 = propose (f->workspace, "trip", "{\"days\":3}");
  p2 = propose (f->workspace, "/trip/hotel", "\"Ritz\"");
  confirm (f->workspace, p2, "Ada");
  g_assert_cmpint (tb_fact_proposal_get_status (p1), ==, TB_PROPOSAL_STATUS_SUPERSEDED);
}

static void
test_pointers (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) value = parse_json ("1");
  g_autofree char *text = NULL;
  g_autofree char *pointer = NULL;
  static const char *bad_keys[] = {
    "", "/", "/a//b", "/x~2", "/x~", "line\nbreak", "tab\there", "/a/\x7f",
  };

  confirm (f->workspace, propose (f->workspace, "/trip/hotel/name", "\"Ritz\""), "Ada");
  text = node_text (tb_workspace_get_facts (f->workspace));
  g_assert_cmpstr (text, ==, "{\"trip\":{\"hotel\":{\"name\":\"Ritz\"}}}");
  g_clear_pointer (&text, g_free);
  text = fact_text (f->workspace, "/trip/hotel");
  g_assert_cmpstr (text, ==, "{\"name\":\"Ritz\"}");
  g_assert_cmpstr (f->last_key, ==, "/trip/hotel/name");

  /* A plain key with a slash is one top-level member; ~1 reaches it too. */
  confirm (f->workspace, propose (f->workspace, "a/b", "true"), "Ada");
  g_clear_pointer (&text, g_free);
  text = fact_text (f->workspace, "/a~1b");
  g_assert_cmpstr (text, ==, "true");
  g_assert_true (tb_workspace_check_key ("a/b", &pointer, NULL));
  g_assert_cmpstr (pointer, ==, "/a~1b");
  g_clear_pointer (&pointer, g_free);
  g_assert_true (tb_workspace_check_key ("/x~0y", &pointer, NULL));
  g_assert_cmpstr (pointer, ==, "/x~0y");

  /* Unicode keys are kept as they are. */
  confirm (f->workspace, propose (f->workspace, "café ☕", "\"ouvert\""), "Ada");
  g_clear_pointer (&text, g_free);
  text = fact_text (f->workspace, "/café ☕");
  g_assert_cmpstr (text, ==, "\"ouvert\"");

  /* Arrays: replace an element or append right after the last. */
  confirm (f->workspace, propose (f->workspace, "list", "[10,20]"), "Ada");
  confirm (f->workspace, propose (f->workspace, "/list/1", "21"), "Ada");
  confirm (f->workspace, propose (f->workspace, "/list/2", "{\"x\":30}"), "Ada");
  g_clear_pointer (&text, g_free);
  text = fact_text (f->workspace, "list");
  g_assert_cmpstr (text, ==, "[10,21,{\"x\":30}]");
  g_assert_null (tb_workspace_propose (f->workspace, "/list/7", value, "", NULL, &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_KEY);
  g_assert_nonnull (strstr (error->message, "has 3 elements"));
  g_clear_error (&error);
  g_assert_null (tb_workspace_propose (f->workspace, "/list/01", value, "", NULL, &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_KEY);
  g_clear_error (&error);

  /* Nothing can sit under a string. */
  g_assert_null (tb_workspace_propose (f->workspace, "/trip/hotel/name/x", value, "", NULL,
                                       &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_KEY);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "“/trip/hotel/name” is of type string"));
  g_clear_error (&error);

  for (guint i = 0; i < G_N_ELEMENTS (bad_keys); i++)
    {
      g_assert_null (tb_workspace_propose (f->workspace, bad_keys[i], value, "", NULL, &error));
      g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_KEY);
      g_test_message ("%s", error->message);
      g_clear_error (&error);
    }
  g_assert_null (tb_workspace_propose (f->workspace, "\xff\xfe", value, "", NULL, &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_KEY);
  g_clear_error (&error);
  {
    g_autofree char *long_key = g_strnfill (TB_WORKSPACE_MAX_KEY_LENGTH + 1, 'k');

    g_assert_null (tb_workspace_propose (f->workspace, long_key, value, "", NULL, &error));
    g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_KEY);
    g_clear_error (&error);
  }
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 0);
}

/* Random keys never crash, and a key's canonical pointer names the same
 * place as the key itself. */
static void
test_random_keys (Fixture *f, gconstpointer data)
{
  static const char *pieces[] = {
    "/", "/", "~", "~0", "~1", "a", "b", "0", "1", "é", "☕", "\xff", " ", "-", "\t", "",
  };
  g_autoptr(JsonNode) value = parse_json ("1");

  tb_workspace_freeze_saves (f->workspace);
  for (guint i = 0; i < 3000; i++)
    {
      g_autoptr(GString) key = g_string_new (NULL);
      g_autoptr(GError) error = NULL;
      g_autofree char *pointer = NULL;
      guint n = g_test_rand_int_range (0, 8);

      for (guint j = 0; j < n; j++)
        g_string_append (key, pieces[g_test_rand_int_range (0, G_N_ELEMENTS (pieces))]);

      if (tb_workspace_check_key (key->str, &pointer, &error))
        {
          g_autofree char *again = NULL;

          g_assert_no_error (error);
          g_assert_true (tb_workspace_check_key (pointer, &again, NULL));
          g_assert_cmpstr (pointer, ==, again);
          if (tb_workspace_propose (f->workspace, key->str, value, "", NULL, &error) == NULL)
            g_assert_true (g_error_matches (error, TB_WORKSPACE_ERROR,
                                            TB_WORKSPACE_ERROR_INVALID_KEY) ||
                           g_error_matches (error, TB_WORKSPACE_ERROR,
                                            TB_WORKSPACE_ERROR_INVALID_VALUE));
        }
      else
        g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_KEY);
    }
  g_assert_true (tb_workspace_thaw_saves (f->workspace, NULL));
}

static void
test_draft (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) value = parse_json ("{\"title\":\"Draft\"}");
  g_autoptr(JsonNode) got = NULL;
  g_autoptr(TbWorkspace) again = NULL;
  g_autofree char *text = NULL;

  g_assert_true (tb_workspace_set_draft_value (f->workspace, "doc", value, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->n_draft_changed, ==, 1);
  g_assert_true (tb_workspace_set_draft_value (f->workspace, "/doc/body", value, &error));
  g_assert_no_error (error);

  got = tb_workspace_dup_draft_value (f->workspace, "/doc/body/title", &error);
  g_assert_no_error (error);
  text = node_text (got);
  g_assert_cmpstr (text, ==, "\"Draft\"");
  g_assert_null (tb_workspace_dup_draft_value (f->workspace, "nothing", &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* The draft never touches the facts. */
  g_clear_pointer (&text, g_free);
  text = node_text (tb_workspace_get_facts (f->workspace));
  g_assert_cmpstr (text, ==, "{}");

  again = reopen (f);
  g_clear_pointer (&text, g_free);
  text = node_text (tb_workspace_get_draft (again));
  g_assert_cmpstr (text, ==, "{\"doc\":{\"title\":\"Draft\",\"body\":{\"title\":\"Draft\"}}}");
  g_assert_finalize_object (g_steal_pointer (&again));
}

static void
test_round_trip (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbWorkspace) again = NULL;
  g_autoptr(JsonNode) before = NULL;
  g_autoptr(JsonNode) after = NULL;
  g_autoptr(JsonNode) draft = parse_json ("[1,2.5,null,\"ü\",{\"deep\":[true]}]");
  g_autoptr(JsonNode) value = parse_json ("{\"n\":-9007199254740991,\"s\":\"\\u0000 nul\"}");
  TbFactProposal *p;

  confirm (f->workspace, propose (f->workspace, "a", "1"), "Ada Lovelace");
  p = tb_workspace_propose (f->workspace, "b", value, "multi\nline reason", "call_42", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tb_fact_proposal_get_origin_call_id (p), ==, "call_42");
  propose (f->workspace, "c", "\"x\"");
  g_assert_true (tb_workspace_reject (f->workspace, tb_workspace_lookup_proposal (f->workspace,
                                                                                  "p3"),
                                      NULL, &error));
  g_assert_true (tb_workspace_set_draft_value (f->workspace, "d", draft, &error));
  g_assert_true (tb_workspace_lock (f->workspace, "e", &error));
  g_assert_no_error (error);

  before = tb_workspace_to_json (f->workspace);
  again = reopen (f);
  after = tb_workspace_to_json (again);
  if (!tb_json_equal (before, after))
    {
      g_autofree char *a = tb_json_to_string (before, TRUE);
      g_autofree char *b = tb_json_to_string (after, TRUE);

      g_assert_cmpstr (a, ==, b);
    }

  p = tb_workspace_lookup_proposal (again, "p2");
  g_assert_cmpstr (tb_fact_proposal_get_reason (p), ==, "multi\nline reason");
  g_assert_cmpstr (tb_fact_proposal_get_origin_call_id (p), ==, "call_42");
  g_assert_cmpuint (tb_workspace_get_n_pending (again), ==, 1);

  /* Ids keep counting after a restart. */
  p = propose (again, "f", "0");
  g_assert_cmpstr (tb_fact_proposal_get_id (p), ==, "p4");
  g_assert_finalize_object (g_steal_pointer (&again));
}

static void
test_huge_value (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *big = g_strnfill (TB_WORKSPACE_MAX_VALUE_SIZE, 'x');
  g_autofree char *half = g_strnfill (TB_WORKSPACE_MAX_VALUE_SIZE / 2, 'y');
  g_autoptr(JsonNode) huge = tb_json_node_new_string (big);
  g_autoptr(JsonNode) large = tb_json_node_new_string (half);
  g_autoptr(TbWorkspace) again = NULL;
  g_autoptr(JsonNode) got = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  propose (f->workspace, "small", "1");
  before = read_file (f->path);

  g_assert_null (tb_workspace_propose (f->workspace, "big", huge, "", NULL, &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "smaller than 1 MiB"));
  g_clear_error (&error);
  g_assert_false (tb_workspace_set_draft_value (f->workspace, "big", huge, &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_VALUE);
  g_clear_error (&error);

  after = read_file (f->path);
  g_assert_cmpstr (before, ==, after);
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 1);

  /* Half a mebibyte goes through and comes back whole. */
  confirm (f->workspace, tb_workspace_propose (f->workspace, "large", large, "", NULL, &error),
           "Ada");
  again = reopen (f);
  got = tb_workspace_dup_fact (again, "large", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_node_get_string (got), ==, half);
  g_assert_finalize_object (g_steal_pointer (&again));
}

static void
test_non_json_value (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) nan_value = json_node_new (JSON_NODE_VALUE);
  g_autoptr(JsonNode) bad_utf8 = json_node_new (JSON_NODE_VALUE);
  g_autoptr(JsonNode) bad_name = tb_json_node_new_object ();
  g_autoptr(JsonNode) deep = NULL;
  g_autoptr(GString) deep_text = g_string_new (NULL);
  JsonNode *values[4];

  json_node_set_double (nan_value, NAN);
  json_node_set_string (bad_utf8, "\xc3\x28 broken");
  json_object_set_int_member (json_node_get_object (bad_name), "\xff", 1);
  for (guint i = 0; i < 100; i++)
    g_string_append_c (deep_text, '[');
  for (guint i = 0; i < 100; i++)
    g_string_append_c (deep_text, ']');
  deep = parse_json (deep_text->str);

  values[0] = nan_value;
  values[1] = bad_utf8;
  values[2] = bad_name;
  values[3] = deep;

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_assert_null (tb_workspace_propose (f->workspace, "k", values[i], "", NULL, &error));
      g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_VALUE);
      g_assert_nonnull (strstr (error->message, "not plain JSON"));
      g_clear_error (&error);
      g_assert_false (tb_workspace_set_draft_value (f->workspace, "k", values[i], &error));
      g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_VALUE);
      g_clear_error (&error);
    }

  g_assert_null (tb_workspace_propose (f->workspace, "k", NULL, "", NULL, &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_VALUE);
  g_clear_error (&error);

  g_assert_cmpuint (g_list_model_get_n_items (tb_workspace_get_proposals (f->workspace)), ==, 0);
  g_assert_false (g_file_test (f->path, G_FILE_TEST_EXISTS));
}

static void
test_many_pending (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) value = parse_json ("{\"v\":1}");
  g_autoptr(TbWorkspace) again = NULL;
  g_autoptr(GTimer) timer = g_timer_new ();
  TbFactProposal *last = NULL;

  tb_workspace_freeze_saves (f->workspace);
  for (guint i = 0; i < TB_WORKSPACE_MAX_PENDING; i++)
    {
      g_autofree char *key = g_strdup_printf ("key-%u", i);

      last = tb_workspace_propose (f->workspace, key, value, "bulk", NULL, &error);
      g_assert_no_error (error);
    }
  g_assert_true (tb_workspace_thaw_saves (f->workspace, &error));
  g_assert_no_error (error);
  g_test_message ("10,000 proposals and one save: %.3f s", g_timer_elapsed (timer, NULL));
  g_assert_cmpuint (f->n_added, ==, TB_WORKSPACE_MAX_PENDING);

  /* One more is refused with a reason; nothing is lost. */
  g_assert_null (tb_workspace_propose (f->workspace, "one-more", value, "", NULL, &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_TOO_MANY);
  g_assert_nonnull (strstr (error->message, "10000 proposals already wait"));
  g_clear_error (&error);

  g_timer_start (timer);
  confirm (f->workspace, last, "Ada");
  g_test_message ("commit with 10,000 proposals: %.3f s", g_timer_elapsed (timer, NULL));
  g_assert_nonnull (tb_workspace_propose (f->workspace, "one-more", value, "", NULL, &error));
  g_assert_no_error (error);

  g_timer_start (timer);
  again = reopen (f);
  g_test_message ("load with 10,000 proposals: %.3f s", g_timer_elapsed (timer, NULL));
  g_assert_cmpuint (tb_workspace_get_n_pending (again), ==, TB_WORKSPACE_MAX_PENDING);
  g_assert_cmpuint (g_list_model_get_n_items (tb_workspace_get_proposals (again)), ==,
                    TB_WORKSPACE_MAX_PENDING + 1);
  {
    g_autofree char *text = fact_text (again, "key-9999");

    g_assert_cmpstr (text, ==, "{\"v\":1}");
  }
  g_assert_finalize_object (g_steal_pointer (&again));
}

static void
assert_refused_file (Fixture          *f,
                     const char       *contents,
                     TbWorkspaceError  code,
                     const char       *expected)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbWorkspaceStore) store = NULL;
  g_autoptr(JsonNode) document = NULL;
  g_autofree char *after = NULL;
  TbWorkspace *workspace;

  g_assert_true (g_file_set_contents (f->path, contents, -1, &error));

  workspace = tb_workspace_new_for_path (f->path, &error);
  g_assert_null (workspace);
  g_assert_error (error, TB_WORKSPACE_ERROR, code);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "workspace.json"));
  g_assert_nonnull (strstr (error->message, "left untouched"));
  g_assert_nonnull (strstr (error->message, expected));
  g_clear_error (&error);

  /* The store itself refuses to write over what it could not read. */
  store = tb_workspace_file_store_new (f->path);
  if (!tb_workspace_store_load (store, &document, NULL, &error))
    {
      g_autoptr(JsonNode) empty = tb_json_node_new_object ();

      g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_DAMAGED);
      g_clear_error (&error);
      g_assert_false (tb_workspace_store_save (store, empty, NULL, &error));
      g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_DAMAGED);
      g_assert_nonnull (strstr (error->message, "not written over"));
      g_clear_error (&error);
    }

  after = read_file (f->path);
  g_assert_cmpstr (after, ==, contents);
}

static void
test_bad_files (Fixture *f, gconstpointer data)
{
  g_autoptr(GString) deep = g_string_new (NULL);

  assert_refused_file (f, "this is not JSON {", TB_WORKSPACE_ERROR_DAMAGED, "not JSON");
  assert_refused_file (f, "", TB_WORKSPACE_ERROR_DAMAGED, "not JSON");
  assert_refused_file (f, "{\"format\":\"toolbench-workspace\",\"version\":1,\"facts\":",
                       TB_WORKSPACE_ERROR_DAMAGED, "not JSON");
  assert_refused_file (f, "[1,2,3]", TB_WORKSPACE_ERROR_DAMAGED, "not a Toolbench workspace");
  assert_refused_file (f, "{\"facts\":{}}", TB_WORKSPACE_ERROR_DAMAGED,
                       "not a Toolbench workspace");
  assert_refused_file (f, "{\"format\":\"toolbench-workspace\",\"version\":2}",
                       TB_WORKSPACE_ERROR_VERSION, "newer Toolbench");
  assert_refused_file (f, "{\"format\":\"toolbench-workspace\",\"version\":0}",
                       TB_WORKSPACE_ERROR_VERSION, "version 0");
  assert_refused_file (f, "{\"format\":\"toolbench-workspace\",\"version\":\"1\"}",
                       TB_WORKSPACE_ERROR_DAMAGED, "“version”");
  assert_refused_file (f, "{\"format\":\"toolbench-workspace\",\"version\":1,\"facts\":[]}",
                       TB_WORKSPACE_ERROR_DAMAGED, "“facts”");
  assert_refused_file (f, "{\"format\":\"toolbench-workspace\",\"version\":1,"
                       "\"locks\":[\"a\",\"/b//c\"]}", TB_WORKSPACE_ERROR_DAMAGED, "lock 2");
  assert_refused_file (f, "{\"format\":\"toolbench-workspace\",\"version\":1,"
                       "\"proposals\":[{\"id\":\"p1\",\"key\":\"a\",\"value\":1,"
                       "\"status\":\"maybe\",\"created\":\"2026-01-01T00:00:00Z\"}]}",
                       TB_WORKSPACE_ERROR_DAMAGED, "“status”");
  assert_refused_file (f, "{\"format\":\"toolbench-workspace\",\"version\":1,"
                       "\"proposals\":[{\"id\":\"p1\",\"key\":\"a\",\"value\":1,"
                       "\"status\":\"pending\",\"created\":\"2026-01-01T00:00:00Z\"},"
                       "{\"id\":\"p1\",\"key\":\"b\",\"value\":2,"
                       "\"status\":\"pending\",\"created\":\"2026-01-01T00:00:00Z\"}]}",
                       TB_WORKSPACE_ERROR_DAMAGED, "two proposals");
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  assert_refused_file (f, deep->str, TB_WORKSPACE_ERROR_DAMAGED, "not JSON");
  assert_refused_file (f, "\xff\xfe{}", TB_WORKSPACE_ERROR_DAMAGED, "not JSON");
}

/* Two workspaces on one file take turns: each change reads what the other
 * saved first, so neither loses the other's proposals, commits or locks. */
static void
test_other_writer_merged (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbWorkspace) other = NULL;
  g_autoptr(JsonNode) on_disk = NULL;
  g_autoptr(TbWorkspace) again = NULL;
  g_autoptr(TbConfirmation) confirmation = NULL;
  g_autofree char *text = NULL;
  TbFactProposal *p1, *p2, *p3;

  p1 = propose (f->workspace, "city", "\"Paris\"");
  other = reopen (f);

  g_assert_true (tb_workspace_lock (other, "country", &error));
  g_assert_no_error (error);
  p2 = propose (other, "budget", "100");
  g_assert_cmpstr (tb_fact_proposal_get_id (p2), ==, "p2");

  /* This workspace sees them when it next changes, and numbers on. */
  p3 = propose (f->workspace, "city", "\"Lyon\"");
  g_assert_cmpstr (tb_fact_proposal_get_id (p3), ==, "p3");
  g_assert_true (tb_workspace_is_locked (f->workspace, "country"));
  g_assert_nonnull (tb_workspace_lookup_proposal (f->workspace, "p2"));
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 3);
  g_assert_cmpuint (f->n_added, ==, 3);
  g_assert_cmpuint (f->n_locks_changed, ==, 1);
  g_assert_true (tb_workspace_lookup_proposal (f->workspace, "p1") == p1);

  /* The other commits p1: p3 (made before, against no value) is superseded. */
  confirm (other, tb_workspace_lookup_proposal (other, "p1"), "Ada");
  confirmation = tb_confirmation_new (f->workspace, p3, "Grace", &error);
  g_assert_no_error (error);
  g_assert_false (tb_workspace_commit (f->workspace, p3, confirmation, &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_SUPERSEDED);
  g_assert_cmpstr (error->message, ==,
                   "The fact “city” changed after proposal p3 was made, so it cannot be "
                   "committed. Propose it again (re-propose p3) to confirm it against the "
                   "current value.");
  g_clear_error (&error);
  g_assert_false (tb_confirmation_get_used (confirmation));

  /* Meanwhile this workspace shows the other's commit. */
  text = fact_text (f->workspace, "city");
  g_assert_cmpstr (text, ==, "\"Paris\"");
  g_assert_cmpint (tb_fact_proposal_get_status (p1), ==, TB_PROPOSAL_STATUS_COMMITTED);
  g_assert_cmpstr (tb_fact_proposal_get_resolved_by (p1), ==, "Ada");
  g_assert_cmpint (tb_fact_proposal_get_status (p3), ==, TB_PROPOSAL_STATUS_SUPERSEDED);
  g_assert_cmpstr (f->last_key, ==, "city");
  g_assert_cmpuint (f->n_resolved, ==, 2);
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 1);

  /* A commit of a proposal the other already committed is refused. */
  g_clear_object (&confirmation);
  {
    TbFactProposal *p4 = propose (other, "/trip/hotel", "\"Ritz\"");
    g_autoptr(TbConfirmation) mine = NULL;

    g_assert_true (tb_workspace_reload (f->workspace, &error));
    g_assert_no_error (error);
    mine = tb_confirmation_new (f->workspace,
                                tb_workspace_lookup_proposal (f->workspace, "p4"), "Grace",
                                &error);
    g_assert_no_error (error);
    confirm (other, p4, "Ada");
    g_assert_false (tb_workspace_commit (f->workspace,
                                         tb_workspace_lookup_proposal (f->workspace, "p4"),
                                         mine, &error));
    g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_NOT_PENDING);
    g_assert_cmpstr (error->message, ==, "Proposal p4 was already committed.");
    g_clear_error (&error);
  }

  /* Both see the same, and so does the file. */
  again = reopen (f);
  on_disk = tb_workspace_to_json (again);
  {
    g_autoptr(JsonNode) mine = tb_workspace_to_json (f->workspace);
    g_autoptr(JsonNode) theirs = tb_workspace_to_json (other);

    g_assert_true (tb_json_equal (mine, on_disk));
    g_assert_true (tb_json_equal (theirs, on_disk));
  }
  g_assert_cmpuint (g_list_model_get_n_items (tb_workspace_get_proposals (again)), ==, 4);
}

/* What another program wrote but this one cannot read stops every change,
 * and the file stays as it is, until it is readable again. */
static void
test_unreadable_meanwhile (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) value = parse_json ("\"Lyon\"");
  g_autofree char *text = NULL;
  g_autofree char *good = NULL;
  static const char *newer = "{\"format\":\"toolbench-workspace\",\"version\":2}";

  propose (f->workspace, "city", "\"Paris\"");
  good = read_file (f->path);

  g_assert_true (g_file_set_contents (f->path, newer, -1, &error));
  for (guint i = 0; i < 2; i++)
    {
      g_assert_null (tb_workspace_propose (f->workspace, "city", value, "", NULL, &error));
      g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_VERSION);
      g_assert_nonnull (strstr (error->message, "newer Toolbench"));
      g_assert_nonnull (strstr (error->message, "left untouched"));
      g_clear_error (&error);
    }
  g_assert_false (tb_workspace_lock (f->workspace, "x", &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_VERSION);
  g_clear_error (&error);
  text = read_file (f->path);
  g_assert_cmpstr (text, ==, newer);
  g_clear_pointer (&text, g_free);

  g_assert_true (g_file_set_contents (f->path, "{\"facts\":", -1, &error));
  g_assert_false (tb_workspace_set_draft_value (f->workspace, "x", value, &error));
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_DAMAGED);
  g_assert_nonnull (strstr (error->message, "not JSON"));
  g_clear_error (&error);
  text = read_file (f->path);
  g_assert_cmpstr (text, ==, "{\"facts\":");
  g_clear_pointer (&text, g_free);

  /* Repaired: the next change goes through. */
  g_assert_true (g_file_set_contents (f->path, good, -1, &error));
  g_assert_nonnull (tb_workspace_propose (f->workspace, "city", value, "", NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 2);
  g_assert_cmpuint (f->n_draft_changed, ==, 0);
  g_assert_cmpuint (f->n_locks_changed, ==, 0);

  /* A store that never read the file does not write over it either. */
  {
    g_autoptr(TbWorkspaceStore) blind = tb_workspace_file_store_new (f->path);
    g_autoptr(JsonNode) empty = tb_json_node_new_object ();

    g_assert_false (tb_workspace_store_save (blind, empty, NULL, &error));
    g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_CONFLICT);
    g_clear_error (&error);
  }
}

/* A writer that keeps the lock makes others wait a bounded time, then
 * fail with a message naming the file; nothing changes. */
static void
test_lock_busy (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbWorkspaceStore) holder = tb_workspace_file_store_new (f->path);
  g_autoptr(TbWorkspaceStore) store = NULL;
  g_autoptr(TbWorkspace) waiting = NULL;
  g_autoptr(JsonNode) value = parse_json ("1");
  g_autofree char *expected = NULL;
  g_autofree char *lock_path = g_strconcat (f->path, ".lock", NULL);
  gint64 start;

  propose (f->workspace, "a", "1");
  store = g_object_new (TB_TYPE_WORKSPACE_FILE_STORE, "path", f->path, "lock-timeout", 300,
                        NULL);
  waiting = tb_workspace_new_for_store (store, NULL, &error);
  g_assert_no_error (error);

  g_assert_true (tb_workspace_store_lock (holder, NULL, &error));
  g_assert_no_error (error);

  start = g_get_monotonic_time ();
  g_assert_null (tb_workspace_propose (waiting, "b", value, "", NULL, &error));
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 300 * 1000);
  g_assert_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_BUSY);
  expected = g_strdup_printf ("Another program holds the workspace “%s” locked and did not "
                              "let go within 1 second; nothing was changed. Try again when it "
                              "has finished.", f->path);
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);
  g_assert_cmpuint (tb_workspace_get_n_pending (waiting), ==, 1);

  /* Freezing saves holds the lock for the whole batch. */
  tb_workspace_store_unlock (holder);
  tb_workspace_freeze_saves (waiting);
  g_assert_nonnull (tb_workspace_propose (waiting, "b", value, "", NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (tb_workspace_propose (waiting, "c", value, "", NULL, &error));
  g_assert_no_error (error);
  g_assert_true (tb_workspace_thaw_saves (waiting, &error));
  g_assert_no_error (error);

  /* The lock file stays; it is where every writer meets. */
  g_assert_true (g_file_test (lock_path, G_FILE_TEST_IS_REGULAR));
  g_assert_nonnull (propose (f->workspace, "d", "1"));
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 4);
}

static void
test_in_memory (void)
{
  g_autoptr(GError) error = NULL;
  TbWorkspace *workspace = tb_workspace_new ();
  TbFactProposal *proposal = propose (workspace, "k", "1");

  g_assert_null (tb_workspace_get_store (workspace));
  confirm (workspace, proposal, "Ada");
  g_assert_true (tb_workspace_save (workspace, &error));
  g_assert_no_error (error);
  g_assert_finalize_object (workspace);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, setup, func, teardown)
  ADD ("/workspace/proposal/lifecycle", test_lifecycle);
  ADD ("/workspace/proposal/confirmation-refused", test_confirmation_refused);
  ADD ("/workspace/proposal/superseded", test_superseded);
  ADD ("/workspace/locks", test_locks);
  ADD ("/workspace/keys/pointers", test_pointers);
  ADD ("/workspace/keys/random", test_random_keys);
  ADD ("/workspace/draft", test_draft);
  ADD ("/workspace/persistence/round-trip", test_round_trip);
  ADD ("/workspace/persistence/other-writer-merged", test_other_writer_merged);
  ADD ("/workspace/persistence/unreadable-meanwhile", test_unreadable_meanwhile);
  ADD ("/workspace/persistence/lock-busy", test_lock_busy);
  ADD ("/workspace/bad-input/huge-value", test_huge_value);
  ADD ("/workspace/bad-input/non-json-value", test_non_json_value);
  ADD ("/workspace/bad-input/many-pending", test_many_pending);
  ADD ("/workspace/bad-input/files", test_bad_files);
#undef ADD
  g_test_add_func ("/workspace/in-memory", test_in_memory);

  return g_test_run ();
}
