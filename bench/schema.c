/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "bench-schema"

#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <toolbench.h>

/* Validations per second for a typical tool schema on a mix of valid and
 * invalid instances, and compile time for a 500-property schema: of parsed
 * instances (tb_schema_validate_full()) and of the same instances as text
 * (tb_schema_validate_text(), as a model's arguments arrive). When node
 * and npm are there, the same schema and instances go through ajv in the
 * same run (ajv is installed into a temporary folder; for text, JSON.parse
 * and then ajv) and each line prints our figure, ajv's and their ratio.
 * Figures only: this program never fails on time.
 *
 * Times are CPU time of the process on both sides, so that other work on
 * the machine does not skew the ratio.
 *
 *   bench/schema [--seconds N] [--no-ajv]
 */

static gint64
cpu_time_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static const char *typical_schema =
  "{\"type\":\"object\",\"properties\":{"
  "\"path\":{\"type\":\"string\",\"minLength\":1,\"pattern\":\"^[a-zA-Z0-9_./-]+$\"},"
  "\"limit\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":100},"
  "\"mode\":{\"enum\":[\"read\",\"write\",\"append\"]},"
  "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"maxItems\":5},"
  "\"owner\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"},"
  "\"id\":{\"type\":\"integer\"}},\"required\":[\"name\",\"id\"]},"
  "\"force\":{\"type\":\"boolean\"}},"
  "\"required\":[\"path\",\"mode\"],\"additionalProperties\":false}";

static const char *instances[] = {
  /* valid */
  "{\"path\":\"src/main.c\",\"mode\":\"read\"}",
  "{\"path\":\"docs/README.md\",\"limit\":20,\"mode\":\"write\",\"tags\":[\"a\",\"b\"],"
  "\"owner\":{\"name\":\"ada\",\"id\":7},\"force\":true}",
  "{\"path\":\"a\",\"limit\":100,\"mode\":\"append\",\"tags\":[]}",
  "{\"path\":\"x/y/z.txt\",\"mode\":\"read\",\"owner\":{\"name\":\"b\",\"id\":1},\"force\":false}",
  /* invalid */
  "{\"path\":\"\",\"mode\":\"delete\"}",
  "{\"path\":\"bad path!\",\"limit\":1000,\"mode\":\"read\",\"tags\":[\"a\",1]}",
  "{\"mode\":\"read\",\"owner\":{\"name\":\"c\"},\"extra\":true}",
  "{\"path\":\"ok\",\"mode\":\"write\",\"tags\":[\"1\",\"2\",\"3\",\"4\",\"5\",\"6\"],"
  "\"force\":\"yes\"}",
};

static char *
large_schema (void)
{
  GString *text = g_string_new ("{\"type\":\"object\",\"properties\":{");

  for (guint i = 0; i < 500; i++)
    {
      if (i > 0)
        g_string_append_c (text, ',');
      switch (i % 5)
        {
        case 0:
          g_string_append_printf (text, "\"s%u\":{\"type\":\"string\",\"maxLength\":%u,"
                                  "\"pattern\":\"^[a-z]{0,%u}$\"}", i, 10 + i, 10 + i);
          break;
        case 1:
          g_string_append_printf (text, "\"n%u\":{\"type\":\"integer\",\"minimum\":0,"
                                  "\"maximum\":%u}", i, i * 3);
          break;
        case 2:
          g_string_append_printf (text, "\"e%u\":{\"enum\":[\"a%u\",\"b%u\",\"c%u\"]}",
                                  i, i, i, i);
          break;
        case 3:
          g_string_append_printf (text, "\"a%u\":{\"type\":\"array\",\"items\":"
                                  "{\"type\":\"string\"},\"maxItems\":%u}", i, i);
          break;
        default:
          g_string_append_printf (text, "\"o%u\":{\"type\":\"object\",\"properties\":"
                                  "{\"k\":{\"type\":\"boolean\"}},\"required\":[\"k\"]}", i);
          break;
        }
    }
  g_string_append (text, "},\"additionalProperties\":false}");
  return g_string_free (text, FALSE);
}

static JsonNode *
parse (const char *text)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = tb_json_parse (text, -1, &error);

  if (node == NULL)
    g_error ("%s", error->message);
  return node;
}

typedef struct
{
  double verdict; /* validations per second, valid or not without reasons */
  double first;   /* validations per second, stopping at the first error */
  double all;     /* validations per second, collecting every error */
  double text_first; /* the same from JSON text */
  double text_all;
  double walk;    /* json-glib walks per second, nothing checked */
  double parse_first; /* tb_json_parse() and the first error */
  double compile_ms;
} Figures;

/* flags: as for tb_schema_validate_full(), or -1 for the verdict alone */
static double
measure (TbSchema              *schema,
         JsonNode             **nodes,
         guint                  n,
         int                    flags,
         double                 seconds)
{
  gint64 start = cpu_time_us ();
  gint64 end = start + (gint64) (seconds * G_USEC_PER_SEC);
  gint64 now;
  guint64 count = 0;

  do
    {
      for (guint round = 0; round < 1000; round++)
        for (guint i = 0; i < n; i++)
          {
            GPtrArray *errors = NULL;

            if (flags < 0)
              tb_schema_validate (schema, nodes[i], NULL);
            else
              {
                tb_schema_validate_full (schema, nodes[i], flags, &errors);
                g_ptr_array_unref (errors);
              }
            count++;
          }
      now = cpu_time_us ();
    }
  while (now < end);

  return count / ((now - start) / (double) G_USEC_PER_SEC);
}

/* Visits every value of a tree through json-glib, checking nothing: what
 * any validator of json-glib trees pays before it checks anything. */
static guint
walk (JsonNode *node)
{
  guint sum = 0;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        json_object_iter_init (&iter, json_node_get_object (node));
        while (json_object_iter_next (&iter, &name, &member))
          sum += (guchar) name[0] + walk (member);
        return sum;
      }
    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint len = json_array_get_length (array);

        for (guint i = 0; i < len; i++)
          sum += walk (json_array_get_element (array, i));
        return sum;
      }
    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_STRING)
        return (guchar) json_node_get_string (node)[0];
      return 1;
    case JSON_NODE_NULL:
    default:
      return 0;
    }
}

static double
measure_walk (JsonNode **nodes,
              guint      n,
              double     seconds)
{
  gint64 start = cpu_time_us ();
  gint64 end = start + (gint64) (seconds * G_USEC_PER_SEC);
  gint64 now;
  guint64 count = 0;
  volatile guint sink = 0;

  do
    {
      for (guint round = 0; round < 1000; round++)
        for (guint i = 0; i < n; i++)
          {
            sink += walk (nodes[i]);
            count++;
          }
      now = cpu_time_us ();
    }
  while (now < end);

  return count / ((now - start) / (double) G_USEC_PER_SEC);
}

/* parse: TRUE for tb_json_parse() and then tb_schema_validate_full(), what
 * a caller with text did before tb_schema_validate_text() */
static double
measure_text (TbSchema  *schema,
              int        flags,
              gboolean   parse,
              double     seconds)
{
  gint64 start = cpu_time_us ();
  gint64 end = start + (gint64) (seconds * G_USEC_PER_SEC);
  gint64 now;
  guint64 count = 0;
  gsize lengths[G_N_ELEMENTS (instances)];

  for (guint i = 0; i < G_N_ELEMENTS (instances); i++)
    lengths[i] = strlen (instances[i]);
  do
    {
      for (guint round = 0; round < 1000; round++)
        for (guint i = 0; i < G_N_ELEMENTS (instances); i++)
          {
            GPtrArray *errors = NULL;

            if (parse)
              {
                JsonNode *node = tb_json_parse (instances[i], lengths[i], NULL);

                tb_schema_validate_full (schema, node, flags, &errors);
                json_node_unref (node);
              }
            else
              tb_schema_validate_text (schema, instances[i], lengths[i], flags, &errors, NULL);
            g_ptr_array_unref (errors);
            count++;
          }
      now = cpu_time_us ();
    }
  while (now < end);

  return count / ((now - start) / (double) G_USEC_PER_SEC);
}

static double
measure_compile (const char *text)
{
  g_autoptr(JsonNode) node = parse (text);
  gint64 start = cpu_time_us ();
  guint rounds = 0;

  do
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TbSchema) schema = tb_schema_new (node, TB_SCHEMA_DRAFT_AUTO, &error);

      if (schema == NULL)
        g_error ("%s", error->message);
      rounds++;
    }
  while (cpu_time_us () - start < G_USEC_PER_SEC / 2 || rounds < 5);

  return (cpu_time_us () - start) / 1000.0 / rounds;
}

static const char *ajv_script =
  "const path = require('path');\n"
  "const fs = require('fs');\n"
  "const Ajv2020 = require(path.join(process.argv[2], 'node_modules/ajv/dist/2020')).default;\n"
  "const data = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));\n"
  "const seconds = Number(process.argv[4]);\n"
  "function cpu() { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; }\n"
  "function run(allErrors, time) {\n"
  "  const ajv = new Ajv2020({ allErrors, strict: false });\n"
  "  const validate = ajv.compile(data.schema);\n"
  "  const list = data.instances;\n"
  "  let count = 0;\n"
  "  const start = cpu();\n"
  "  let elapsed;\n"
  "  do {\n"
  "    for (let r = 0; r < 1000; r++)\n"
  "      for (let i = 0; i < list.length; i++) { validate(list[i]); count++; }\n"
  "    elapsed = cpu() - start;\n"
  "  } while (elapsed < time);\n"
  "  return { rate: count / elapsed, verdicts: list.map((x) => validate(x)) };\n"
  "}\n"
  "function runText(allErrors, time) {\n"
  "  const ajv = new Ajv2020({ allErrors, strict: false });\n"
  "  const validate = ajv.compile(data.schema);\n"
  "  const list = data.instances.map((x) => JSON.stringify(x));\n"
  "  let count = 0;\n"
  "  const start = cpu();\n"
  "  let elapsed;\n"
  "  do {\n"
  "    for (let r = 0; r < 1000; r++)\n"
  "      for (let i = 0; i < list.length; i++) { validate(JSON.parse(list[i])); count++; }\n"
  "    elapsed = cpu() - start;\n"
  "  } while (elapsed < time);\n"
  "  return count / elapsed;\n"
  "}\n"
  "run(false, 0.3); run(true, 0.3); runText(false, 0.3);\n"
  "const first = run(false, seconds);\n"
  "const all = run(true, seconds);\n"
  "const textFirst = runText(false, seconds);\n"
  "const textAll = runText(true, seconds);\n"
  "let rounds = 0;\n"
  "const start = cpu();\n"
  "let elapsed;\n"
  "do {\n"
  "  new Ajv2020({ allErrors: true, strict: false }).compile(data.large);\n"
  "  rounds++;\n"
  "  elapsed = (cpu() - start) * 1e3;\n"
  "} while (elapsed < 500 || rounds < 5);\n"
  "process.stdout.write(JSON.stringify({ first: first.rate, all: all.rate,\n"
  "  text_first: textFirst, text_all: textAll,\n"
  "  compile_ms: elapsed / rounds, verdicts: first.verdicts }));\n";

static gboolean
run_command (const char * const  *argv,
             const char          *cwd,
             char               **out,
             GError             **error)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_autoptr(GSubprocess) process = NULL;

  g_subprocess_launcher_set_cwd (launcher, cwd);
  process = g_subprocess_launcher_spawnv (launcher, argv, error);
  if (process == NULL)
    return FALSE;
  if (!g_subprocess_communicate_utf8 (process, NULL, NULL, out, NULL, error))
    return FALSE;
  if (!g_subprocess_get_successful (process))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s failed: %s", argv[0],
                   *out != NULL ? *out : "");
      return FALSE;
    }
  return TRUE;
}

static gboolean
run_ajv (const char  *large,
         double       seconds,
         Figures     *figures,
         gboolean    *verdicts,
         GError     **error)
{
  g_autofree char *dir = g_dir_make_tmp ("tb-bench-ajv-XXXXXX", error);
  g_autofree char *script_path = NULL;
  g_autofree char *data_path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *seconds_text = g_strdup_printf ("%g", seconds);
  g_autoptr(GString) data = NULL;
  g_autoptr(JsonNode) result = NULL;
  g_autofree char *rm_out = NULL;
  JsonObject *object;
  JsonArray *list;
  gboolean ok = FALSE;

  if (dir == NULL)
    return FALSE;
  script_path = g_build_filename (dir, "bench.js", NULL);
  data_path = g_build_filename (dir, "data.json", NULL);

  data = g_string_new ("{\"schema\":");
  g_string_append (data, typical_schema);
  g_string_append (data, ",\"large\":");
  g_string_append (data, large);
  g_string_append (data, ",\"instances\":[");
  for (guint i = 0; i < G_N_ELEMENTS (instances); i++)
    g_string_append_printf (data, "%s%s", i > 0 ? "," : "", instances[i]);
  g_string_append (data, "]}");

  if (!g_file_set_contents (script_path, ajv_script, -1, error) ||
      !g_file_set_contents (data_path, data->str, data->len, error))
    goto out;

  {
    const char *install[] = { "npm", "install", "--prefix", dir, "--no-audit", "--no-fund",
                              "--silent", "--no-save", "ajv@8", NULL };
    g_autofree char *install_out = NULL;

    if (!run_command (install, dir, &install_out, error))
      goto out;
  }
  {
    const char *node[] = { "node", script_path, dir, data_path, seconds_text, NULL };

    if (!run_command (node, dir, &out, error))
      goto out;
  }

  result = tb_json_parse (out, -1, error);
  if (result == NULL)
    goto out;
  object = json_node_get_object (result);
  figures->first = json_object_get_double_member (object, "first");
  figures->all = json_object_get_double_member (object, "all");
  figures->text_first = json_object_get_double_member (object, "text_first");
  figures->text_all = json_object_get_double_member (object, "text_all");
  figures->compile_ms = json_object_get_double_member (object, "compile_ms");
  list = json_object_get_array_member (object, "verdicts");
  for (guint i = 0; i < G_N_ELEMENTS (instances) && i < json_array_get_length (list); i++)
    verdicts[i] = json_array_get_boolean_element (list, i);
  ok = TRUE;

out:
  {
    const char *rm[] = { "rm", "-rf", dir, NULL };

    run_command (rm, "/", &rm_out, NULL);
  }
  return ok;
}

int
main (int   argc,
      char *argv[])
{
  double seconds = 2.0;
  gboolean no_ajv = FALSE;
  const GOptionEntry entries[] = {
    { "seconds", 0, 0, G_OPTION_ARG_DOUBLE, &seconds, "Seconds per measurement", "N" },
    { "no-ajv", 0, 0, G_OPTION_ARG_NONE, &no_ajv, "Do not run ajv", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) schema_node = NULL;
  g_autoptr(TbSchema) schema = NULL;
  g_autofree char *large = large_schema ();
  JsonNode *nodes[G_N_ELEMENTS (instances)];
  gboolean verdicts[G_N_ELEMENTS (instances)];
  gboolean ajv_verdicts[G_N_ELEMENTS (instances)] = { 0 };
  Figures ours, ajv = { 0 };
  guint n_valid = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }

  schema_node = parse (typical_schema);
  schema = tb_schema_new (schema_node, TB_SCHEMA_DRAFT_AUTO, &error);
  if (schema == NULL)
    g_error ("%s", error->message);
  for (guint i = 0; i < G_N_ELEMENTS (instances); i++)
    {
      nodes[i] = parse (instances[i]);
      verdicts[i] = tb_schema_validate (schema, nodes[i], NULL);
      n_valid += verdicts[i];
    }

  g_print ("Typical tool schema: 6 properties, additionalProperties false; "
           "%u instances (%u valid, %u invalid)\n",
           (guint) G_N_ELEMENTS (instances), n_valid, (guint) G_N_ELEMENTS (instances) - n_valid);

  ours.verdict = measure (schema, nodes, G_N_ELEMENTS (nodes), -1, seconds);
  ours.first = measure (schema, nodes, G_N_ELEMENTS (nodes), TB_SCHEMA_VALIDATE_FIRST_ERROR,
                        seconds);
  ours.all = measure (schema, nodes, G_N_ELEMENTS (nodes), TB_SCHEMA_VALIDATE_ALL_ERRORS,
                      seconds);
  ours.walk = measure_walk (nodes, G_N_ELEMENTS (nodes), seconds);
  ours.text_first = measure_text (schema, TB_SCHEMA_VALIDATE_FIRST_ERROR, FALSE, seconds);
  ours.text_all = measure_text (schema, TB_SCHEMA_VALIDATE_ALL_ERRORS, FALSE, seconds);
  ours.parse_first = measure_text (schema, TB_SCHEMA_VALIDATE_FIRST_ERROR, TRUE, seconds);
  ours.compile_ms = measure_compile (large);

  g_print ("TbSchema  verdict only: %11.0f validations/s\n", ours.verdict);
  g_print ("TbSchema  first error: %12.0f validations/s\n", ours.first);
  g_print ("TbSchema  all errors:  %12.0f validations/s\n", ours.all);
  g_print ("json-glib walk alone:  %12.0f trees/s\n", ours.walk);
  g_print ("TbSchema  text, first error: %6.0f validations/s\n", ours.text_first);
  g_print ("TbSchema  text, all errors:  %6.0f validations/s\n", ours.text_all);
  g_print ("TbSchema  compile, 500 properties: %.3f ms\n", ours.compile_ms);
  g_print ("text, first error: TbSchema %.0f/s, tb_json_parse+TbSchema %.0f/s, "
           "ratio text/parse+validate first error: %.2f\n",
           ours.text_first, ours.parse_first, ours.text_first / ours.parse_first);

  if (no_ajv)
    return 0;

  if (!run_ajv (large, seconds, &ajv, ajv_verdicts, &error))
    {
      g_print ("ajv: not measured (%s)\n", error->message);
      return 0;
    }

  g_print ("first error: TbSchema %.0f/s, ajv 8 %.0f/s, ratio TbSchema/ajv first error: %.2f\n",
           ours.first, ajv.first, ours.first / ajv.first);
  g_print ("all errors: TbSchema %.0f/s, ajv 8 %.0f/s, ratio TbSchema/ajv all errors: %.2f\n",
           ours.all, ajv.all, ours.all / ajv.all);
  g_print ("json-glib walk alone, nothing checked: %.0f/s, ajv 8 first error %.0f/s, "
           "ratio walk/ajv first error: %.2f\n", ours.walk, ajv.first, ours.walk / ajv.first);
  g_print ("text, first error: TbSchema %.0f/s, JSON.parse+ajv 8 %.0f/s, "
           "ratio TbSchema/ajv text first error: %.2f\n",
           ours.text_first, ajv.text_first, ours.text_first / ajv.text_first);
  g_print ("text, all errors: TbSchema %.0f/s, JSON.parse+ajv 8 %.0f/s, "
           "ratio TbSchema/ajv text all errors: %.2f\n",
           ours.text_all, ajv.text_all, ours.text_all / ajv.text_all);
  g_print ("compile, 500 properties: TbSchema %.3f ms, ajv 8 %.3f ms, "
           "ratio ajv time/TbSchema compile: %.2f\n",
           ours.compile_ms, ajv.compile_ms, ajv.compile_ms / ours.compile_ms);
  for (guint i = 0; i < G_N_ELEMENTS (instances); i++)
    if (verdicts[i] != ajv_verdicts[i])
      g_print ("warning: instance %u: TbSchema says %s, ajv says %s\n", i,
               verdicts[i] ? "valid" : "invalid", ajv_verdicts[i] ? "valid" : "invalid");

  for (guint i = 0; i < G_N_ELEMENTS (nodes); i++)
    json_node_unref (nodes[i]);
  return 0;
}
