/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "toolbench-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-cli.h"

/* toolbench-cli validate: checks a JSON document against a JSON Schema.
 * Exit status: 0 valid, 1 invalid, 2 when the schema is refused or an
 * input cannot be read (and for usage errors). */

static JsonNode *
read_json (const char  *path,
           GError     **error)
{
  g_autofree char *text = tb_cli_read_text (path, error);

  if (text == NULL)
    return NULL;
  return tb_json_parse (text, -1, error);
}

static void
print_error_json (const TbSchemaError *e)
{
  g_autoptr(JsonNode) node = tb_json_node_new_object ();
  JsonObject *object = json_node_get_object (node);

  json_object_set_string_member (object, "instancePath", e->instance_path);
  json_object_set_string_member (object, "schemaPath", e->schema_path);
  json_object_set_string_member (object, "keyword", e->keyword);
  json_object_set_string_member (object, "message", e->message);
  tb_cli_print_json (node, FALSE);
}

int
tb_cli_validate (int    argc,
                 char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *schema_path = NULL;
  g_autofree char *draft_name = NULL;
  g_auto(GStrv) extra_schemas = NULL;
  g_autoptr(JsonNode) schema_json = NULL;
  g_autoptr(JsonNode) instance = NULL;
  g_autoptr(TbSchemaRegistry) registry = NULL;
  g_autoptr(TbSchema) schema = NULL;
  g_autoptr(GPtrArray) errors = NULL;
  gboolean json = FALSE;
  gboolean assert_format = FALSE;
  gboolean first = FALSE;
  TbSchemaDraft draft = TB_SCHEMA_DRAFT_AUTO;
  const GOptionEntry entries[] = {
    { "schema", 's', 0, G_OPTION_ARG_FILENAME, &schema_path,
      N_("The JSON Schema to validate against"), N_("FILE") },
    { "draft", 0, 0, G_OPTION_ARG_STRING, &draft_name,
      N_("The dialect: 2020-12 or 7 (default: from “$schema”, else 2020-12)"), N_("DRAFT") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Print each error as one JSON object a line"), NULL },
    { "assert-format", 0, 0, G_OPTION_ARG_NONE, &assert_format,
      N_("Check “format” (date-time, email, uri, …) instead of treating it as a note"),
      NULL },
    { "first", 0, 0, G_OPTION_ARG_NONE, &first,
      N_("Stop at the first error"), NULL },
    { "add-schema", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &extra_schemas,
      N_("A schema that “$ref” may name by its “$id” (repeatable)"), N_("FILE") },
    { NULL }
  };

  context = tb_cli_context_new (_("INSTANCE_FILE|-"),
                                _("Validate a JSON document against a JSON Schema.\n\n"
                                  "Exit status: 0 when valid, 1 when invalid, 2 when the "
                                  "schema is refused or a file cannot be read."), entries);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return tb_cli_usage_error (context, "%s", error->message);
  if (schema_path == NULL)
    return tb_cli_usage_error (context, _("Name the schema with --schema FILE"));
  if (argc < 2)
    return tb_cli_usage_error (context, _("Name the document to validate, or “-” for "
                                          "standard input"));
  if (argc > 2)
    return tb_cli_usage_error (context, _("Unexpected argument “%s”"), argv[2]);
  if (draft_name != NULL)
    {
      if (g_str_equal (draft_name, "2020-12"))
        draft = TB_SCHEMA_DRAFT_2020_12;
      else if (g_str_equal (draft_name, "7") || g_str_equal (draft_name, "07") ||
               g_str_equal (draft_name, "draft-07"))
        draft = TB_SCHEMA_DRAFT_7;
      else
        return tb_cli_usage_error (context, _("Unknown draft “%s”: use 2020-12 or 7"),
                                   draft_name);
    }

  registry = tb_schema_registry_new ();
  for (guint i = 0; extra_schemas != NULL && extra_schemas[i] != NULL; i++)
    {
      g_autoptr(JsonNode) extra = read_json (extra_schemas[i], &error);

      if (extra == NULL || !tb_schema_registry_add (registry, NULL, extra, &error))
        {
          g_printerr ("toolbench-cli: %s: %s\n", extra_schemas[i], error->message);
          return TB_CLI_EXIT_USAGE;
        }
    }

  schema_json = read_json (schema_path, &error);
  if (schema_json == NULL)
    {
      g_printerr ("toolbench-cli: %s: %s\n", schema_path, error->message);
      return TB_CLI_EXIT_USAGE;
    }
  schema = tb_schema_new_full (schema_json, draft,
                               assert_format ? TB_SCHEMA_FLAGS_ASSERT_FORMAT
                                             : TB_SCHEMA_FLAGS_NONE,
                               registry, &error);
  if (schema == NULL)
    {
      g_printerr ("toolbench-cli: %s: %s\n", schema_path, error->message);
      return TB_CLI_EXIT_USAGE;
    }

  instance = read_json (argv[1], &error);
  if (instance == NULL)
    {
      g_printerr ("toolbench-cli: %s: %s\n", argv[1], error->message);
      return TB_CLI_EXIT_USAGE;
    }

  if (tb_schema_validate_full (schema, instance,
                               first ? TB_SCHEMA_VALIDATE_FIRST_ERROR
                                     : TB_SCHEMA_VALIDATE_ALL_ERRORS, &errors))
    {
      if (!json)
        g_print ("%s\n", _("valid"));
      return TB_CLI_EXIT_OK;
    }

  for (guint i = 0; i < errors->len; i++)
    {
      const TbSchemaError *e = g_ptr_array_index (errors, i);

      if (json)
        print_error_json (e);
      else
        /* Translators: instance path, keyword, message */
        g_print (_("%s: %s: %s\n"), e->instance_path[0] != '\0' ? e->instance_path : "/",
                 e->keyword, e->message);
    }
  return TB_CLI_EXIT_FAILED;
}
