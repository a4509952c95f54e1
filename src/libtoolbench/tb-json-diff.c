/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-json"

#include "config.h"


#include "tb-json.h"

/* The difference of two JSON values, place by place, as replay reports
 * and the Trace page show it. */

static void
diff_add (JsonArray  *diff,
          const char *path,
          JsonNode   *recorded,
          JsonNode   *replayed)
{
  JsonObject *entry = json_object_new ();

  json_object_set_string_member (entry, "path", path[0] != '\0' ? path : "");
  if (recorded != NULL)
    json_object_set_member (entry, "recorded", tb_json_copy (recorded));
  if (replayed != NULL)
    json_object_set_member (entry, "replayed", tb_json_copy (replayed));
  json_array_add_object_element (diff, entry);
}

static char *
child_path (const char *path,
            const char *key)
{
  g_autofree char *escaped = tb_json_pointer_escape (key);

  return g_strdup_printf ("%s/%s", path, escaped);
}

static void
diff_nodes (JsonArray  *diff,
            const char *path,
            JsonNode   *a,
            JsonNode   *b,
            guint       remaining)
{
  if (tb_json_equal (a, b))
    return;

  if (remaining > 0 && JSON_NODE_HOLDS_OBJECT (a) && JSON_NODE_HOLDS_OBJECT (b))
    {
      JsonObject *oa = json_node_get_object (a);
      JsonObject *ob = json_node_get_object (b);
      g_autoptr(GList) names_a = json_object_get_members (oa);
      g_autoptr(GList) names_b = json_object_get_members (ob);

      for (const GList *l = names_a; l != NULL; l = l->next)
        {
          g_autofree char *sub = child_path (path, l->data);

          diff_nodes (diff, sub, json_object_get_member (oa, l->data),
                      json_object_get_member (ob, l->data), remaining - 1);
        }
      for (const GList *l = names_b; l != NULL; l = l->next)
        if (!json_object_has_member (oa, l->data))
          {
            g_autofree char *sub = child_path (path, l->data);

            diff_add (diff, sub, NULL, json_object_get_member (ob, l->data));
          }
      return;
    }

  if (remaining > 0 && JSON_NODE_HOLDS_ARRAY (a) && JSON_NODE_HOLDS_ARRAY (b))
    {
      JsonArray *aa = json_node_get_array (a);
      JsonArray *ab = json_node_get_array (b);
      guint na = json_array_get_length (aa);
      guint nb = json_array_get_length (ab);

      for (guint i = 0; i < MAX (na, nb); i++)
        {
          g_autofree char *sub = g_strdup_printf ("%s/%u", path, i);

          diff_nodes (diff, sub, i < na ? json_array_get_element (aa, i) : NULL,
                      i < nb ? json_array_get_element (ab, i) : NULL, remaining - 1);
        }
      return;
    }

  diff_add (diff, path, a, b);
}

/**
 * tb_json_diff:
 * @recorded: (nullable): one value
 * @replayed: (nullable): the other
 *
 * Compares two JSON values as tb_json_equal() does and lists where they
 * differ, for the replay report. Objects are compared member by member and
 * arrays element by element, so a change deep inside names its own path;
 * trees deeper than %TB_JSON_MAX_WALK_DEPTH are reported as one difference.
 *
 * Returns: (transfer full): the differences, one object per changed place:
 *   `{"path": JSON Pointer, "recorded": …, "replayed": …}` (a side is absent
 *   where the value is missing); empty when the values are equal
 */
JsonArray *
tb_json_diff (JsonNode *recorded,
              JsonNode *replayed)
{
  JsonArray *diff = json_array_new ();

  diff_nodes (diff, "", recorded, replayed, TB_JSON_MAX_WALK_DEPTH);
  return diff;
}
