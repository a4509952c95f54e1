/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "toolbench-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tb-cli.h"

/* toolbench-cli facts: the workspace from the command line. `confirm` is
 * the CLI's confirmation path: it shows the old and the new value and makes
 * a TbConfirmation only with an explicit --yes. */

typedef struct
{
  const char  *workspace_path;
  gboolean     json;
  gboolean     yes;
  gboolean     as_string;
  gboolean     all;
  const char  *by;
  const char  *reason;
  TbWorkspace *workspace;
} FactsOptions;

static char *
format_time (gint64 usec)
{
  g_autoptr(GDateTime) utc = g_date_time_new_from_unix_utc (usec / G_USEC_PER_SEC);
  g_autoptr(GDateTime) local = NULL;

  if (utc == NULL)
    return g_strdup ("?");
  local = g_date_time_to_local (utc);
  return g_date_time_format (local, "%Y-%m-%d %H:%M:%S");
}

static void
print_prefixed (const char *prefix,
                JsonNode   *node)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (node == NULL)
    {
      /* Translators: shown in a diff when a fact did not exist before. */
      g_print ("%s%s\n", prefix, _("(no value)"));
      return;
    }

  text = tb_json_to_string (node, TRUE);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    g_print ("%s%s\n", prefix, lines[i]);
}

static void
print_proposal (TbWorkspace    *workspace,
                TbFactProposal *proposal)
{
  g_autofree char *created = format_time (tb_fact_proposal_get_created (proposal));
  g_autoptr(JsonNode) current = tb_workspace_dup_fact (workspace,
                                                       tb_fact_proposal_get_key (proposal),
                                                       NULL);
  const char *origin = tb_fact_proposal_get_origin_call_id (proposal);
  const char *reason = tb_fact_proposal_get_reason (proposal);
  TbProposalStatus status = tb_fact_proposal_get_status (proposal);

  /* Translators: proposal id, key, status. */
  g_print (_("Proposal %s for “%s” (%s)\n"), tb_fact_proposal_get_id (proposal),
           tb_fact_proposal_get_key (proposal), tb_proposal_status_to_string (status));
  if (origin != NULL)
    g_print (_("Proposed by tool call %s on %s\n"), origin, created);
  else
    g_print (_("Proposed by a person on %s\n"), created);
  if (reason != NULL && *reason != '\0')
    g_print (_("Reason: %s\n"), reason);
  if (status != TB_PROPOSAL_STATUS_PENDING)
    {
      g_autofree char *resolved = format_time (tb_fact_proposal_get_resolved (proposal));
      const char *by = tb_fact_proposal_get_resolved_by (proposal);

      if (by != NULL)
        g_print (_("Resolved on %s by %s\n"), resolved, by);
      else
        g_print (_("Resolved on %s\n"), resolved);
    }

  g_print ("\n");
  print_prefixed ("- ", status == TB_PROPOSAL_STATUS_PENDING
                        ? current : tb_fact_proposal_get_previous (proposal));
  print_prefixed ("+ ", tb_fact_proposal_get_value (proposal));

  if (status == TB_PROPOSAL_STATUS_PENDING &&
      !(current == NULL ? !tb_fact_proposal_has_previous (proposal)
                        : tb_json_equal (current, tb_fact_proposal_get_previous (proposal))))
    g_print ("\n%s\n", _("The fact changed after this proposal was made."));
}

static JsonNode *
proposals_json (TbWorkspace *workspace,
                gboolean     all)
{
  GListModel *proposals = tb_workspace_get_proposals (workspace);
  JsonArray *array = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  for (guint i = 0; i < g_list_model_get_n_items (proposals); i++)
    {
      g_autoptr(TbFactProposal) proposal = g_list_model_get_item (proposals, i);

      if (all || tb_fact_proposal_get_status (proposal) == TB_PROPOSAL_STATUS_PENDING)
        json_array_add_element (array, tb_fact_proposal_to_json (proposal));
    }
  json_node_take_array (node, array);
  return node;
}

static int
facts_list (FactsOptions *options)
{
  TbWorkspace *workspace = options->workspace;
  GListModel *proposals = tb_workspace_get_proposals (workspace);
  g_auto(GStrv) locks = tb_workspace_get_locks (workspace);
  guint shown = 0;

  if (options->json)
    {
      g_autoptr(JsonNode) node = tb_json_node_new_object ();
      JsonObject *object = json_node_get_object (node);
      JsonArray *lock_array = json_array_new ();

      json_object_set_member (object, "facts",
                              json_node_copy (tb_workspace_get_facts (workspace)));
      json_object_set_member (object, "draft",
                              json_node_copy (tb_workspace_get_draft (workspace)));
      for (guint i = 0; locks[i] != NULL; i++)
        json_array_add_string_element (lock_array, locks[i]);
      json_object_set_array_member (object, "locks", lock_array);
      json_object_set_member (object, "proposals", proposals_json (workspace, options->all));
      tb_cli_print_json (node, TRUE);
      return TB_CLI_EXIT_OK;
    }

  g_print ("%s\n", _("Facts:"));
  print_prefixed ("  ", tb_workspace_get_facts (workspace));

  if (json_object_get_size (json_node_get_object (tb_workspace_get_draft (workspace))) > 0)
    {
      g_print ("%s\n", _("Draft:"));
      print_prefixed ("  ", tb_workspace_get_draft (workspace));
    }

  g_print ("%s", _("Locked keys:"));
  if (locks[0] == NULL)
    g_print (" %s", _("none"));
  for (guint i = 0; locks[i] != NULL; i++)
    g_print ("%s %s", i == 0 ? "" : ",", locks[i]);
  g_print ("\n");

  g_print (options->all ? _("Proposals:\n") : _("Pending proposals:\n"));
  for (guint i = 0; i < g_list_model_get_n_items (proposals); i++)
    {
      g_autoptr(TbFactProposal) proposal = g_list_model_get_item (proposals, i);
      TbProposalStatus status = tb_fact_proposal_get_status (proposal);
      g_autofree char *value = NULL;

      if (!options->all && status != TB_PROPOSAL_STATUS_PENDING)
        continue;

      value = tb_json_to_string (tb_fact_proposal_get_value (proposal), FALSE);
      if (g_utf8_strlen (value, -1) > 60)
        {
          g_autofree char *start = g_utf8_substring (value, 0, 57);

          g_free (value);
          value = g_strconcat (start, "…", NULL);
        }
      g_print ("  %-6s %-10s %s = %s\n", tb_fact_proposal_get_id (proposal),
               tb_proposal_status_to_string (status), tb_fact_proposal_get_key (proposal), value);
      shown++;
    }
  if (shown == 0)
    g_print ("  %s\n", _("none"));

  return TB_CLI_EXIT_OK;
}

static TbFactProposal *
find_proposal (FactsOptions  *options,
               const char    *id,
               GError       **error)
{
  TbFactProposal *proposal = tb_workspace_lookup_proposal (options->workspace, id);

  if (proposal == NULL)
    g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_NOT_FOUND,
                 _("There is no proposal “%s”; “toolbench-cli facts list” shows them."), id);
  return proposal;
}

static void
print_proposal_json (TbFactProposal *proposal)
{
  g_autoptr(JsonNode) node = tb_fact_proposal_to_json (proposal);

  tb_cli_print_json (node, TRUE);
}

static int
facts_show (FactsOptions *options,
            const char   *id)
{
  g_autoptr(GError) error = NULL;
  TbFactProposal *proposal = find_proposal (options, id, &error);

  if (proposal == NULL)
    return tb_cli_fail (error);

  if (options->json)
    print_proposal_json (proposal);
  else
    print_proposal (options->workspace, proposal);

  return TB_CLI_EXIT_OK;
}

static int
facts_propose (FactsOptions *options,
               const char   *key,
               const char   *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) value = NULL;
  TbFactProposal *proposal;

  if (options->as_string)
    {
      if (!g_utf8_validate (text, -1, NULL))
        {
          g_printerr ("toolbench-cli: %s\n", _("The value is not valid UTF-8 text."));
          return TB_CLI_EXIT_FAILED;
        }
      value = tb_json_node_new_string (text);
    }
  else
    {
      value = tb_json_parse (text, -1, &error);
      if (value == NULL)
        {
          g_printerr (_("toolbench-cli: the value is not JSON (%s). Write text as a JSON "
                        "string, such as '\"Paris\"', or pass --string.\n"), error->message);
          return TB_CLI_EXIT_FAILED;
        }
    }

  proposal = tb_workspace_propose (options->workspace, key, value, options->reason, NULL, &error);
  if (proposal == NULL)
    return tb_cli_fail (error);

  if (options->json)
    print_proposal_json (proposal);
  else
    {
      g_print (_("Proposed %s for “%s”. It is not a fact until a person confirms it:\n"),
               tb_fact_proposal_get_id (proposal), tb_fact_proposal_get_key (proposal));
      g_print ("  toolbench-cli facts confirm %s --workspace %s\n",
               tb_fact_proposal_get_id (proposal), options->workspace_path);
    }
  return TB_CLI_EXIT_OK;
}

static char *
default_person (void)
{
  const char *real = g_get_real_name ();

  if (real != NULL && *real != '\0' && g_strcmp0 (real, "Unknown") != 0)
    return g_strdup (real);
  return g_strdup (g_get_user_name ());
}

static int
facts_confirm (FactsOptions *options,
               const char   *id)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbConfirmation) confirmation = NULL;
  g_autofree char *person = NULL;
  TbFactProposal *proposal = find_proposal (options, id, &error);

  if (proposal == NULL)
    return tb_cli_fail (error);

  /* The person sees exactly what would change before anything does. */
  print_proposal (options->workspace, proposal);
  g_print ("\n");

  if (tb_fact_proposal_get_status (proposal) == TB_PROPOSAL_STATUS_SUPERSEDED)
    {
      g_printerr (_("toolbench-cli: proposal %s is superseded: the fact changed after it was "
                    "made. Propose it again with:\n  toolbench-cli facts repropose %s "
                    "--workspace %s\n"),
                  id, id, options->workspace_path);
      return TB_CLI_EXIT_FAILED;
    }

  if (!options->yes)
    {
      g_printerr (_("Nothing was committed. To commit this change, run the same command "
                    "with --yes.\n"));
      return TB_CLI_EXIT_FAILED;
    }

  person = options->by != NULL ? g_strdup (options->by) : default_person ();
  confirmation = tb_confirmation_new (options->workspace, proposal, person, &error);
  if (confirmation == NULL)
    return tb_cli_fail (error);

  if (!tb_workspace_commit (options->workspace, proposal, confirmation, &error))
    {
      if (g_error_matches (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_SUPERSEDED))
        g_printerr (_("toolbench-cli: %s\n  toolbench-cli facts repropose %s --workspace %s\n"),
                    error->message, id, options->workspace_path);
      else
        return tb_cli_fail (error);
    }

  g_print (_("Committed %s: “%s” now holds the new value (confirmed by %s).\n"), id,
           tb_fact_proposal_get_key (proposal), person);
  return TB_CLI_EXIT_OK;
}

static int
facts_reject (FactsOptions *options,
              const char   *id)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *person = NULL;
  TbFactProposal *proposal = find_proposal (options, id, &error);

  if (proposal == NULL)
    return tb_cli_fail (error);

  person = options->by != NULL ? g_strdup (options->by) : default_person ();
  if (!tb_workspace_reject (options->workspace, proposal, person, &error))
    return tb_cli_fail (error);

  g_print (_("Rejected %s; “%s” keeps its value.\n"), id, tb_fact_proposal_get_key (proposal));
  return TB_CLI_EXIT_OK;
}

static int
facts_repropose (FactsOptions *options,
                 const char   *id)
{
  g_autoptr(GError) error = NULL;
  TbFactProposal *proposal = find_proposal (options, id, &error);
  TbFactProposal *again;

  if (proposal == NULL)
    return tb_cli_fail (error);

  again = tb_workspace_repropose (options->workspace, proposal, &error);
  if (again == NULL)
    return tb_cli_fail (error);

  g_print (_("Proposed %s again as %s.\n"), id, tb_fact_proposal_get_id (again));
  return TB_CLI_EXIT_OK;
}

static int
facts_lock (FactsOptions *options,
            const char   *key,
            gboolean      lock)
{
  g_autoptr(GError) error = NULL;

  if (!(lock ? tb_workspace_lock (options->workspace, key, &error)
             : tb_workspace_unlock (options->workspace, key, &error)))
    return tb_cli_fail (error);

  g_print (lock ? _("Locked “%s”.\n") : _("Unlocked “%s”.\n"), key);
  return TB_CLI_EXIT_OK;
}

int
tb_cli_facts (int    argc,
              char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TbWorkspace) workspace = NULL;
  g_autofree char *workspace_path = NULL;
  g_autofree char *by = NULL;
  g_autofree char *reason = NULL;
  FactsOptions options = { 0 };
  const char *command;
  const GOptionEntry entries[] = {
    { "workspace", 'w', 0, G_OPTION_ARG_FILENAME, &workspace_path,
      N_("The workspace file (created on the first change)"), N_("FILE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &options.json,
      N_("Print JSON instead of text"), NULL },
    { "yes", 'y', 0, G_OPTION_ARG_NONE, &options.yes,
      N_("With confirm: commit the change that is shown"), NULL },
    { "by", 0, 0, G_OPTION_ARG_STRING, &by,
      N_("With confirm and reject: who decides (default: you)"), N_("NAME") },
    { "reason", 0, 0, G_OPTION_ARG_STRING, &reason,
      N_("With propose: why the fact should change"), N_("TEXT") },
    { "string", 0, 0, G_OPTION_ARG_NONE, &options.as_string,
      N_("With propose: take VALUE as text, not JSON"), NULL },
    { "all", 0, 0, G_OPTION_ARG_NONE, &options.all,
      N_("With list: show resolved proposals too"), NULL },
    { NULL }
  };
  static const struct { const char *name; int n_args; } commands[] = {
    { "list", 0 }, { "show", 1 }, { "propose", 2 }, { "confirm", 1 }, { "reject", 1 },
    { "repropose", 1 }, { "lock", 1 }, { "unlock", 1 },
  };
  int n_args = -1;

  context = tb_cli_context_new (_("list|show ID|propose KEY VALUE|confirm ID|reject ID|"
                                  "repropose ID|lock KEY|unlock KEY"),
                                _("Read the facts of a workspace, propose changes, and confirm "
                                  "or reject them.\nA fact changes only when a person confirms "
                                  "with “confirm ID --yes”, after seeing the change."), entries);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return tb_cli_usage_error (context, "%s", error->message);

  if (argc < 2)
    return tb_cli_usage_error (context, _("Name a facts command: list, show, propose, confirm, "
                                          "reject, repropose, lock or unlock"));
  command = argv[1];
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (command, commands[i].name))
      n_args = commands[i].n_args;
  if (n_args < 0)
    return tb_cli_usage_error (context, _("Unknown facts command “%s”"), command);
  if (argc - 2 != n_args)
    return tb_cli_usage_error (context, _("“facts %s” takes %d argument(s), not %d"),
                               command, n_args, argc - 2);
  if (workspace_path == NULL)
    return tb_cli_usage_error (context, _("Give the workspace file with --workspace FILE"));

  workspace = tb_workspace_new_for_path (workspace_path, &error);
  if (workspace == NULL)
    return tb_cli_fail (error);

  options.workspace_path = workspace_path;
  options.workspace = workspace;
  options.by = by;
  options.reason = reason;

  if (g_str_equal (command, "list"))
    return facts_list (&options);
  if (g_str_equal (command, "show"))
    return facts_show (&options, argv[2]);
  if (g_str_equal (command, "propose"))
    return facts_propose (&options, argv[2], argv[3]);
  if (g_str_equal (command, "confirm"))
    return facts_confirm (&options, argv[2]);
  if (g_str_equal (command, "reject"))
    return facts_reject (&options, argv[2]);
  if (g_str_equal (command, "repropose"))
    return facts_repropose (&options, argv[2]);
  if (g_str_equal (command, "lock"))
    return facts_lock (&options, argv[2], TRUE);
  return facts_lock (&options, argv[2], FALSE);
}

/* After a run: what waits for the person, and how to decide it. */
void
tb_cli_report_workspace (TbWorkspace *workspace,
                         const char  *path)
{
  GListModel *proposals = tb_workspace_get_proposals (workspace);
  guint n = tb_workspace_get_n_pending (workspace);

  if (n == 0)
    return;

  g_printerr (g_dngettext (GETTEXT_PACKAGE,
                           "%u proposal waits for a person; no fact changes until it is "
                           "confirmed:\n",
                           "%u proposals wait for a person; no fact changes until they are "
                           "confirmed:\n", n), n);
  for (guint i = 0; i < g_list_model_get_n_items (proposals); i++)
    {
      g_autoptr(TbFactProposal) proposal = g_list_model_get_item (proposals, i);

      if (tb_fact_proposal_get_status (proposal) == TB_PROPOSAL_STATUS_PENDING)
        g_printerr ("  toolbench-cli facts confirm %s --workspace %s    (%s)\n",
                    tb_fact_proposal_get_id (proposal), path,
                    tb_fact_proposal_get_key (proposal));
    }
}
