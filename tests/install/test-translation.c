/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The German translation is built and used: with LANGUAGE=de and the .mo
 * files of the build tree, messages of the engine, the CLI's plural forms
 * and the app's preferences come out in German with their values in place. */

#include "config.h"

#include <locale.h>

#include <glib/gi18n.h>
#include <toolbench.h>

#include "tb-prefs.h"
#include "tb-prefs-private.h"

static void
test_mo_built (void)
{
  const char *dir = g_getenv ("TB_TEST_LOCALEDIR");
  g_autofree char *mo = NULL;

  g_assert_nonnull (dir);
  mo = g_build_filename (dir, "de", "LC_MESSAGES", GETTEXT_PACKAGE ".mo", NULL);
  g_assert_true (g_file_test (mo, G_FILE_TEST_IS_REGULAR));
}

static void
test_app_message (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (tb_prefs_check_url ("ftp://example.com/v1", &error));
  g_assert_cmpstr (error->message, ==, "„ftp://example.com/v1“ ist keine http://- oder "
                                       "https://-URL.");
  g_assert_cmpstr (_("_Preferences"), ==, "_Einstellungen");
}

static void
test_engine_message (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = tb_json_parse ("", 0, &error);

  g_assert_null (node);
  g_assert_cmpstr (error->message, ==, "Der JSON-Text ist leer");
}

/* The messages of validating @instance against @schema_text, from text
 * and from a tree, are @german, then @english after a change of language,
 * then @german again. */
static void
assert_messages (const char  *schema_text,
                 const char  *instance,
                 const char **german,
                 const char **english,
                 guint        n_messages)
{
  g_autoptr(JsonNode) schema_node = tb_json_parse (schema_text, -1, NULL);
  g_autoptr(JsonNode) instance_node = tb_json_parse (instance, -1, NULL);
  g_autoptr(TbSchema) schema = tb_schema_new (schema_node, TB_SCHEMA_DRAFT_AUTO, NULL);

  g_assert_nonnull (schema);
  for (guint round = 0; round < 3; round++)
    {
      const char **want = round == 1 ? english : german;

      g_setenv ("LANGUAGE", round == 1 ? "en" : "de", TRUE);
      setlocale (LC_ALL, "");
      for (guint from_text = 0; from_text < 2; from_text++)
        {
          g_autoptr(GPtrArray) errors = NULL;

          if (from_text)
            tb_schema_validate_text (schema, instance, -1, TB_SCHEMA_VALIDATE_ALL_ERRORS,
                                     &errors, NULL);
          else
            tb_schema_validate_full (schema, instance_node, TB_SCHEMA_VALIDATE_ALL_ERRORS,
                                     &errors);
          g_assert_cmpuint (errors->len, ==, n_messages);
          for (guint i = 0; i < errors->len; i++)
            {
              TbSchemaError *error = g_ptr_array_index (errors, i);

              g_assert_cmpstr (error->message, ==, want[i]);
            }
        }
    }
}

/* Validation messages, which the validators keep once translated, follow
 * a change of language in the running process, from text and from trees. */
static void
test_schema_message_follows_language (void)
{
  const char *instance = "{\"mode\":\"delete\",\"extra\":1}";
  const char *schema_text = "{\"type\":\"object\",\"properties\":"
                            "{\"mode\":{\"enum\":[\"read\"]}},"
                            "\"required\":[\"path\"],"
                            "\"additionalProperties\":false}";
  const char *german[] = {
    "die erforderliche Eigenschaft „path“ fehlt",
    "muss einer der folgenden Werte sein: read",
    "hat die unerwartete Eigenschaft „extra“",
  };
  const char *english[] = {
    "is missing required property “path”",
    "must be one of: read",
    "has unexpected property “extra”",
  };

  assert_messages (schema_text, instance, german, english, G_N_ELEMENTS (german));
}

/* The validators' plural messages: the German text with the form the
 * count takes (counts the validators keep translated and one they look
 * up each time), following a change of language, from text and trees. */
static void
test_schema_plural_follows_language (void)
{
  const char *instance = "{\"a\":\"xy\",\"b\":\"\",\"c\":[1,2,3],\"d\":[],"
                         "\"e\":\"0123456789012345678901234567890123456789"
                         "012345678901234567890123456789\"}";
  const char *schema_text = "{\"properties\":{\"a\":{\"maxLength\":1},"
                            "\"b\":{\"minLength\":3},\"c\":{\"maxItems\":2},"
                            "\"d\":{\"minItems\":1},\"e\":{\"maxLength\":65}},"
                            "\"maxProperties\":1}";
  const char *german[] = {
    "darf höchstens 1 Eigenschaft haben",
    "darf höchstens 1 Zeichen lang sein",
    "muss mindestens 3 Zeichen lang sein",
    "darf höchstens 2 Elemente haben",
    "muss mindestens 1 Element haben",
    "darf höchstens 65 Zeichen lang sein",
  };
  const char *english[] = {
    "must have at most 1 property",
    "must be at most 1 character long",
    "must be at least 3 characters long",
    "must have at most 2 items",
    "must have at least 1 item",
    "must be at most 65 characters long",
  };

  assert_messages (schema_text, instance, german, english, G_N_ELEMENTS (german));
}

static void
test_plural (void)
{
  g_autofree char *one = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u tool", "%u tools",
                                                       1), 1u);
  g_autofree char *many = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u tool",
                                                        "%u tools", 3), 3u);

  g_assert_cmpstr (one, ==, "1 Werkzeug");
  g_assert_cmpstr (many, ==, "3 Werkzeuge");
}

int
main (int   argc,
      char *argv[])
{
  const char *dir = g_getenv ("TB_TEST_LOCALEDIR");

  g_setenv ("LANGUAGE", "de", TRUE);
  setlocale (LC_ALL, "");
  if (dir != NULL)
    {
      bindtextdomain (GETTEXT_PACKAGE, dir);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
    }
  textdomain (GETTEXT_PACKAGE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/translation/mo-built", test_mo_built);
  g_test_add_func ("/translation/app-message", test_app_message);
  g_test_add_func ("/translation/engine-message", test_engine_message);
  g_test_add_func ("/translation/plural", test_plural);
  g_test_add_func ("/translation/schema-message-follows-language",
                   test_schema_message_follows_language);
  g_test_add_func ("/translation/schema-plural-follows-language",
                   test_schema_plural_follows_language);

  return g_test_run ();
}
