/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-tool-list"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tb-app-util.h"
#include "tb-tool-list.h"

/* The sidebar's view of the registry: sorted by name once, then filtered by
 * the search text and the source. The registry is bound directly, so tools
 * that come and go appear and vanish without any copying. Each tool's search
 * key (its case-folded name and description) is computed once and kept on
 * the tool, so a keystroke over 10,000 tools costs only substring searches.
 *
 * The source filter lists a command tool's folder, `manifest:/folder/`,
 * not each manifest: a tool folder of a thousand manifests is one source,
 * as a server of a thousand tools is. A row still names its manifest. */

#define MANIFEST_PREFIX "manifest:"

/* What the source filter lists for @source, interned. */
static const char *
listed_source (const char *source)
{
  const char *slash;
  g_autofree char *folder = NULL;

  if (source == NULL || !g_str_has_prefix (source, MANIFEST_PREFIX) ||
      (slash = strrchr (source, '/')) == NULL)
    return g_intern_string (source);
  folder = g_strndup (source, slash - source + 1);
  return g_intern_string (folder);
}

/* Whether a tool of @source is among those of @listed, a source the filter
 * lists: the same one, or its manifest's folder. */
static gboolean
in_listed_source (const char *source,
                  const char *listed)
{
  size_t n = strlen (listed);

  if (g_strcmp0 (source, listed) == 0)
    return TRUE;
  return source != NULL && n > 0 && listed[n - 1] == '/' &&
         g_str_has_prefix (listed, MANIFEST_PREFIX) && strncmp (source, listed, n) == 0 &&
         strchr (source + n, '/') == NULL;
}

struct _TbToolList
{
  GObject             parent_instance;

  TbToolRegistry     *registry;
  GtkSortListModel   *sorted;
  GtkFilterListModel *filtered;
  GtkCustomFilter    *filter;
  GtkStringList      *sources;
  char               *search;
  char              **terms;
  char               *source;
  guint               sources_idle;
  guint               warm_idle;
  guint               warm_position;
};

G_DEFINE_FINAL_TYPE (TbToolList, tb_tool_list, G_TYPE_OBJECT)

static GQuark search_key_quark;

static char *
search_text (gpointer item)
{
  TbTool *tool = item;

  return g_strconcat (tb_tool_get_name (tool), "\n", tb_tool_get_description (tool), NULL);
}

static gboolean
match_tool (gpointer item,
            gpointer user_data)
{
  TbToolList *self = user_data;
  TbTool *tool = item;

  if (self->source != NULL && !in_listed_source (tb_tool_get_source (tool), self->source))
    return FALSE;
  return self->terms == NULL ||
         tb_search_terms_match (self->terms, tb_search_key (tool, search_key_quark, search_text));
}

static gboolean
update_sources_idle (gpointer user_data)
{
  TbToolList *self = user_data;

  self->sources_idle = 0;
  tb_tool_list_update_sources (self);
  return G_SOURCE_REMOVE;
}

/* Search keys are made ahead, a slice per idle, so that even the first
 * keystroke over thousands of tools only compares strings. */
static gboolean
warm_keys_idle (gpointer user_data)
{
  TbToolList *self = user_data;
  GListModel *model = G_LIST_MODEL (self->registry);
  guint n = g_list_model_get_n_items (model);
  guint end = MIN (n, self->warm_position + 1000);

  for (; self->warm_position < end; self->warm_position++)
    {
      g_autoptr(TbTool) tool = g_list_model_get_item (model, self->warm_position);

      tb_search_key (tool, search_key_quark, search_text);
    }
  if (self->warm_position < n)
    return G_SOURCE_CONTINUE;
  self->warm_idle = 0;
  return G_SOURCE_REMOVE;
}

static void
warm_keys (TbToolList *self,
           guint       from)
{
  self->warm_position = MIN (self->warm_position, from);
  if (self->warm_idle == 0)
    self->warm_idle = g_idle_add_full (G_PRIORITY_LOW, warm_keys_idle, self, NULL);
}

static void
on_registry_changed (GListModel *model,
                     guint       position,
                     guint       removed,
                     guint       added,
                     TbToolList *self)
{
  /* Servers register tools in bursts; list the sources once per burst. */
  if (self->sources_idle == 0)
    self->sources_idle = g_idle_add (update_sources_idle, self);
  if (added > 0)
    warm_keys (self, position);
}

static void
tb_tool_list_dispose (GObject *object)
{
  TbToolList *self = (TbToolList *) object;

  g_clear_handle_id (&self->sources_idle, g_source_remove);
  g_clear_handle_id (&self->warm_idle, g_source_remove);
  if (self->registry != NULL)
    g_signal_handlers_disconnect_by_data (self->registry, self);
  if (self->filter != NULL)
    gtk_custom_filter_set_filter_func (self->filter, NULL, NULL, NULL);
  g_clear_object (&self->filtered);
  g_clear_object (&self->sorted);
  g_clear_object (&self->filter);
  g_clear_object (&self->sources);
  g_clear_object (&self->registry);

  G_OBJECT_CLASS (tb_tool_list_parent_class)->dispose (object);
}

static void
tb_tool_list_finalize (GObject *object)
{
  TbToolList *self = (TbToolList *) object;

  g_free (self->search);
  g_strfreev (self->terms);
  g_free (self->source);

  G_OBJECT_CLASS (tb_tool_list_parent_class)->finalize (object);
}

static void
tb_tool_list_class_init (TbToolListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tb_tool_list_dispose;
  object_class->finalize = tb_tool_list_finalize;

  search_key_quark = g_quark_from_static_string ("tb-tool-list-search-key");
}

static void
tb_tool_list_init (TbToolList *self)
{
  self->sources = gtk_string_list_new (NULL);
}

/**
 * tb_tool_list_new:
 * @registry: the registry to show
 *
 * Returns: (transfer full): a new list
 */
TbToolList *
tb_tool_list_new (TbToolRegistry *registry)
{
  TbToolList *self;
  GtkStringSorter *sorter;

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (registry), NULL);

  self = g_object_new (TB_TYPE_TOOL_LIST, NULL);
  self->registry = g_object_ref (registry);

  sorter = gtk_string_sorter_new (gtk_property_expression_new (TB_TYPE_TOOL, NULL, "name"));
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (registry)),
                                          GTK_SORTER (sorter));
  self->filter = gtk_custom_filter_new (match_tool, self, NULL);
  self->filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->sorted)),
                                              GTK_FILTER (g_object_ref (self->filter)));

  g_signal_connect (registry, "items-changed", G_CALLBACK (on_registry_changed), self);
  tb_tool_list_update_sources (self);
  self->warm_position = G_MAXUINT;
  warm_keys (self, 0);
  return self;
}

TbToolRegistry *
tb_tool_list_get_registry (TbToolList *self)
{
  g_return_val_if_fail (TB_IS_TOOL_LIST (self), NULL);
  return self->registry;
}

/**
 * tb_tool_list_get_model:
 * @self: a list
 *
 * Returns: (transfer none): the tools that match, sorted by name
 */
GListModel *
tb_tool_list_get_model (TbToolList *self)
{
  g_return_val_if_fail (TB_IS_TOOL_LIST (self), NULL);
  return G_LIST_MODEL (self->filtered);
}

/**
 * tb_tool_list_get_sources:
 * @self: a list
 *
 * Returns: (transfer none): a #GtkStringList: "All Sources", then each
 *   source that has tools, sorted
 */
GListModel *
tb_tool_list_get_sources (TbToolList *self)
{
  g_return_val_if_fail (TB_IS_TOOL_LIST (self), NULL);
  return G_LIST_MODEL (self->sources);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/**
 * tb_tool_list_update_sources:
 * @self: a list
 *
 * Lists the registry's sources again (done by itself after changes).
 */
void
tb_tool_list_update_sources (TbToolList *self)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->registry));
  guint current = g_list_model_get_n_items (G_LIST_MODEL (self->sources));
  gboolean same;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TbTool) tool = g_list_model_get_item (G_LIST_MODEL (self->registry), i);
      const char *source = listed_source (tb_tool_get_source (tool));

      if (g_hash_table_add (seen, (gpointer) source))
        g_ptr_array_add (names, (gpointer) source);
    }
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_insert (names, 0, (gpointer) _("All Sources"));
  g_ptr_array_add (names, NULL);

  same = current == names->len - 1;
  for (guint i = 0; same && i < current; i++)
    same = g_strcmp0 (gtk_string_list_get_string (self->sources, i),
                      g_ptr_array_index (names, i)) == 0;
  if (!same)
    gtk_string_list_splice (self->sources, 0, current, (const char * const *) names->pdata);
}

/**
 * tb_tool_list_set_search:
 * @self: a list
 * @text: (nullable): words that must all appear in a tool's name or description
 */
void
tb_tool_list_set_search (TbToolList *self,
                         const char *text)
{
  g_autofree char *folded = NULL;
  g_autofree char *old = NULL;
  GtkFilterChange change = GTK_FILTER_CHANGE_DIFFERENT;

  g_return_if_fail (TB_IS_TOOL_LIST (self));

  if (text == NULL)
    text = "";
  folded = g_utf8_casefold (text, -1);
  g_strstrip (folded);
  if (g_strcmp0 (folded, self->search != NULL ? self->search : "") == 0)
    return;

  old = g_steal_pointer (&self->search);
  if (old == NULL)
    old = g_strdup ("");
  /* Every word must match: typing on can only drop tools, erasing only
   * bring them back, so the filter re-checks just those. */
  if (g_str_has_prefix (folded, old))
    change = GTK_FILTER_CHANGE_MORE_STRICT;
  else if (g_str_has_prefix (old, folded))
    change = GTK_FILTER_CHANGE_LESS_STRICT;

  self->search = g_steal_pointer (&folded);
  g_strfreev (self->terms);
  self->terms = tb_search_terms_parse (self->search);
  gtk_filter_changed (GTK_FILTER (self->filter), change);
}

const char *
tb_tool_list_get_search (TbToolList *self)
{
  g_return_val_if_fail (TB_IS_TOOL_LIST (self), NULL);
  return self->search != NULL ? self->search : "";
}

/**
 * tb_tool_list_set_source:
 * @self: a list
 * @source: (nullable): show only tools of this source, as
 *   tb_tool_list_get_sources() lists it (a command tool's folder as
 *   `manifest:/folder/`); %NULL shows all
 */
void
tb_tool_list_set_source (TbToolList *self,
                         const char *source)
{
  g_return_if_fail (TB_IS_TOOL_LIST (self));

  if (g_strcmp0 (source, self->source) == 0)
    return;
  g_free (self->source);
  self->source = g_strdup (source);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

const char *
tb_tool_list_get_source (TbToolList *self)
{
  g_return_val_if_fail (TB_IS_TOOL_LIST (self), NULL);
  return self->source;
}
