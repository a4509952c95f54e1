/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <string.h>
#include <toolbench.h>

/* The Flatpak cannot be built here (no GNOME runtime can be downloaded), so
 * this checks what can be checked offline: the manifest is JSON with the
 * keys flatpak-builder needs, its sources exist, and its build options are
 * options meson knows. */

static char *
source_root (void)
{
  const char *root = g_getenv ("TOOLBENCH_SOURCE_ROOT");

  g_assert_nonnull (root);
  return g_strdup (root);
}

static JsonObject *
load_manifest (void)
{
  g_autofree char *root = source_root ();
  g_autofree char *path = g_build_filename (root, "flatpak", "io.github.toolbench.Toolbench.json",
                                            NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  node = tb_json_parse (contents, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_object_ref (json_node_get_object (node));
}

static void
test_required_keys (void)
{
  g_autoptr(JsonObject) manifest = load_manifest ();
  const char *keys[] = { "id", "runtime", "runtime-version", "sdk", "command", "modules",
                         "finish-args" };
  JsonArray *modules;
  JsonObject *last;

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_assert_true (json_object_has_member (manifest, keys[i]));

  g_assert_cmpstr (json_object_get_string_member (manifest, "id"), ==, APPLICATION_ID);
  g_assert_cmpstr (json_object_get_string_member (manifest, "runtime"), ==, "org.gnome.Platform");
  g_assert_cmpstr (json_object_get_string_member (manifest, "sdk"), ==, "org.gnome.Sdk");
  g_assert_cmpstr (json_object_get_string_member (manifest, "command"), ==, "toolbench");

  /* GNOME 44 is the first runtime with GTK and libadwaita at least Debian 12's. */
  g_assert_cmpint (g_ascii_strtoll (json_object_get_string_member (manifest, "runtime-version"),
                                    NULL, 10), >=, 44);

  modules = json_object_get_array_member (manifest, "modules");
  g_assert_cmpuint (json_array_get_length (modules), >=, 1);
  last = json_array_get_object_element (modules, json_array_get_length (modules) - 1);
  g_assert_cmpstr (json_object_get_string_member (last, "name"), ==, "toolbench");
  g_assert_cmpstr (json_object_get_string_member (last, "buildsystem"), ==, "meson");
}

static void
test_finish_args_narrow (void)
{
  g_autoptr(JsonObject) manifest = load_manifest ();
  JsonArray *args = json_object_get_array_member (manifest, "finish-args");

  for (guint i = 0; i < json_array_get_length (args); i++)
    {
      const char *arg = json_array_get_string_element (args, i);

      /* Files come through the portal; no blanket file system access. */
      g_assert_false (g_str_equal (arg, "--filesystem=host"));
      g_assert_false (g_str_equal (arg, "--filesystem=home"));
      g_assert_false (g_str_has_prefix (arg, "--socket=session-bus"));
      g_assert_false (g_str_has_prefix (arg, "--socket=system-bus"));
    }
}

static void
test_sources_exist (void)
{
  g_autoptr(JsonObject) manifest = load_manifest ();
  g_autofree char *root = source_root ();
  g_autofree char *flatpak_dir = g_build_filename (root, "flatpak", NULL);
  JsonArray *modules = json_object_get_array_member (manifest, "modules");

  for (guint i = 0; i < json_array_get_length (modules); i++)
    {
      JsonObject *module = json_array_get_object_element (modules, i);
      JsonArray *sources = json_object_get_array_member (module, "sources");

      for (guint j = 0; j < json_array_get_length (sources); j++)
        {
          JsonObject *source = json_array_get_object_element (sources, j);
          const char *type = json_object_get_string_member (source, "type");
          const char *path = json_object_get_string_member_with_default (source, "path", NULL);

          if (g_str_equal (type, "dir") || g_str_equal (type, "file") ||
              g_str_equal (type, "patch"))
            {
              g_autofree char *full = g_build_filename (flatpak_dir, path, NULL);

              g_assert_nonnull (path);
              g_assert_true (g_file_test (full, G_FILE_TEST_EXISTS));
            }
          else
            {
              /* Remote sources must be pinned. */
              g_assert_true (json_object_has_member (source, "sha256") ||
                             json_object_has_member (source, "commit"));
            }
        }
    }
}

static void
test_options_match_meson (void)
{
  g_autoptr(JsonObject) manifest = load_manifest ();
  g_autofree char *root = source_root ();
  g_autofree char *options_path = g_build_filename (root, "meson_options.txt", NULL);
  g_autofree char *options = NULL;
  JsonArray *modules = json_object_get_array_member (manifest, "modules");
  JsonObject *app = json_array_get_object_element (modules, json_array_get_length (modules) - 1);
  JsonArray *opts = json_object_get_array_member (app, "config-opts");

  g_assert_true (g_file_get_contents (options_path, &options, NULL, NULL));

  for (guint i = 0; i < json_array_get_length (opts); i++)
    {
      const char *opt = json_array_get_string_element (opts, i);
      g_autofree char *name = NULL;
      g_autofree char *declaration = NULL;
      const char *eq;

      g_assert_true (g_str_has_prefix (opt, "-D"));
      eq = strchr (opt, '=');
      g_assert_nonnull (eq);
      name = g_strndup (opt + 2, eq - opt - 2);

      /* meson's own options (buildtype, …) are fine; ours must be declared. */
      if (g_str_equal (name, "buildtype") || g_str_equal (name, "prefix") ||
          g_str_has_prefix (name, "b_"))
        continue;
      declaration = g_strdup_printf ("option('%s'", name);
      g_assert_nonnull (strstr (options, declaration));
    }
}

static void
test_flatpak_builder_parses (void)
{
  g_autofree char *root = source_root ();
  g_autofree char *path = g_build_filename (root, "flatpak", "io.github.toolbench.Toolbench.json",
                                            NULL);
  g_autofree char *builder = g_find_program_in_path ("flatpak-builder");
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  if (builder == NULL)
    {
      g_test_skip ("flatpak-builder is not installed (build-aux/setup.sh installs it)");
      return;
    }

  /* flatpak-builder only warns about unknown keys and wrong types, with
   * status 0: anything on standard error is a failure here. */
  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                              &error, builder, "--show-manifest", path, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_nonnull (strstr (out, APPLICATION_ID));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/flatpak/required-keys", test_required_keys);
  g_test_add_func ("/flatpak/finish-args-narrow", test_finish_args_narrow);
  g_test_add_func ("/flatpak/sources-exist", test_sources_exist);
  g_test_add_func ("/flatpak/options-match-meson", test_options_match_meson);
  g_test_add_func ("/flatpak/flatpak-builder-parses", test_flatpak_builder_parses);

  return g_test_run ();
}
