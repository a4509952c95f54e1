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

  return g_test_run ();
}
