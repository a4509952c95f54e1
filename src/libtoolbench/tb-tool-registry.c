/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-tool-registry"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-schema-error.h"
#include "tb-tool-private.h"
#include "tb-tool-registry.h"
#include "tb-wire-schema.h"

/**
 * TbToolRegistry:
 *
 * The set of tools a person and a model can call, as a #GListModel of
 * #TbTool in registration order.
 *
 * Registration, removal and calls happen on the main context, and the
 * signals are emitted there. Lookups (tb_tool_registry_lookup(),
 * tb_tool_registry_contains(), tb_tool_registry_get_names()) are safe from
 * any thread: a read-write lock guards the table.
 *
 * tb_tool_registry_call_async() never fails: an unknown tool, invalid
 * arguments, a handler error, a handler that returns nothing, a timeout and
 * a cancellation all finish with a failed #TbToolResult.
 *
 * `call-started` and `call-finished` are emitted exactly once for every call
 * of a registered tool, including calls refused for their arguments. A call
 * of a name that is not registered emits neither: there is no tool to name.
 * `call-progress` comes between them, as often as a running tool reports
 * progress (MCP tools do for each `notifications/progress`).
 */

struct _TbToolRegistry
{
  GObject      parent_instance;

  GRWLock      lock;
  GPtrArray   *tools;
  GHashTable  *by_name;

  /* Used only as a writer lock: GRWLock is built on pthread_rwlock_t,
   * which ThreadSanitizer and helgrind understand, where GMutex's futex
   * is invisible to them and would drown real reports in false ones. */
  GRWLock      cache_lock;
  JsonNode    *definitions[TB_DEFINITION_FORMAT_GEMINI + 1];
  GHashTable  *real_to_wire;
  GHashTable  *wire_to_real;

  guint        default_timeout_ms;
  guint64      next_call_id;
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TbToolRegistry, tb_tool_registry, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))
G_DEFINE_QUARK (tb-registry-error-quark, tb_registry_error)

enum {
  PROP_0,
  PROP_N_ITEMS,
  PROP_DEFAULT_TIMEOUT_MS,
  N_PROPS
};

enum {
  TOOL_REGISTERED,
  TOOL_UNREGISTERED,
  CALL_STARTED,
  CALL_FINISHED,
  CALL_PROGRESS,
  N_SIGNALS
};

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];

static GType
tb_tool_registry_get_item_type (GListModel *model)
{
  return TB_TYPE_TOOL;
}

static guint
tb_tool_registry_get_n_items (GListModel *model)
{
  TbToolRegistry *self = TB_TOOL_REGISTRY (model);
  guint n;

  g_rw_lock_reader_lock (&self->lock);
  n = self->tools->len;
  g_rw_lock_reader_unlock (&self->lock);

  return n;
}

static gpointer
tb_tool_registry_get_item (GListModel *model,
                           guint       position)
{
  TbToolRegistry *self = TB_TOOL_REGISTRY (model);
  gpointer item = NULL;

  g_rw_lock_reader_lock (&self->lock);
  if (position < self->tools->len)
    item = g_object_ref (g_ptr_array_index (self->tools, position));
  g_rw_lock_reader_unlock (&self->lock);

  return item;
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = tb_tool_registry_get_item_type;
  iface->get_n_items = tb_tool_registry_get_n_items;
  iface->get_item = tb_tool_registry_get_item;
}

static void
invalidate_caches (TbToolRegistry *self)
{
  g_rw_lock_writer_lock (&self->cache_lock);
  for (guint i = 0; i < G_N_ELEMENTS (self->definitions); i++)
    g_clear_pointer (&self->definitions[i], json_node_unref);
  g_clear_pointer (&self->real_to_wire, g_hash_table_unref);
  g_clear_pointer (&self->wire_to_real, g_hash_table_unref);
  g_rw_lock_writer_unlock (&self->cache_lock);
}

static void
tb_tool_registry_finalize (GObject *object)
{
  TbToolRegistry *self = (TbToolRegistry *)object;

  invalidate_caches (self);
  g_clear_pointer (&self->by_name, g_hash_table_unref);
  g_clear_pointer (&self->tools, g_ptr_array_unref);
  g_rw_lock_clear (&self->lock);
  g_rw_lock_clear (&self->cache_lock);

  G_OBJECT_CLASS (tb_tool_registry_parent_class)->finalize (object);
}

static void
tb_tool_registry_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  TbToolRegistry *self = TB_TOOL_REGISTRY (object);

  switch (prop_id)
    {
    case PROP_N_ITEMS:
      g_value_set_uint (value, tb_tool_registry_get_size (self));
      break;

    case PROP_DEFAULT_TIMEOUT_MS:
      g_value_set_uint (value, self->default_timeout_ms);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_tool_registry_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  TbToolRegistry *self = TB_TOOL_REGISTRY (object);

  switch (prop_id)
    {
    case PROP_DEFAULT_TIMEOUT_MS:
      tb_tool_registry_set_default_timeout_ms (self, g_value_get_uint (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_tool_registry_class_init (TbToolRegistryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tb_tool_registry_finalize;
  object_class->get_property = tb_tool_registry_get_property;
  object_class->set_property = tb_tool_registry_set_property;

  properties [PROP_N_ITEMS] =
    g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TbToolRegistry:default-timeout-ms:
   *
   * The time limit of calls whose tool sets none.
   */
  properties [PROP_DEFAULT_TIMEOUT_MS] =
    g_param_spec_uint ("default-timeout-ms", NULL, NULL,
                       1, G_MAXUINT, TB_TOOL_REGISTRY_DEFAULT_TIMEOUT_MS,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TbToolRegistry::tool-registered:
   * @self: the registry
   * @tool: the tool that was added
   */
  signals [TOOL_REGISTERED] =
    g_signal_new ("tool-registered",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, TB_TYPE_TOOL);

  /**
   * TbToolRegistry::tool-unregistered:
   * @self: the registry
   * @tool: the tool that was removed
   */
  signals [TOOL_UNREGISTERED] =
    g_signal_new ("tool-unregistered",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, TB_TYPE_TOOL);

  /**
   * TbToolRegistry::call-started:
   * @self: the registry
   * @tool: the tool being called
   * @call_id: the call's id
   * @arguments: the arguments as given (an object; `{}` when none were)
   */
  signals [CALL_STARTED] =
    g_signal_new ("call-started",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3,
                  TB_TYPE_TOOL,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  JSON_TYPE_NODE | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * TbToolRegistry::call-finished:
   * @self: the registry
   * @tool: the tool that was called
   * @call_id: the call's id
   * @result: its result
   */
  signals [CALL_FINISHED] =
    g_signal_new ("call-finished",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3,
                  TB_TYPE_TOOL,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  TB_TYPE_TOOL_RESULT);

  /**
   * TbToolRegistry::call-progress:
   * @self: the registry
   * @call_id: the running call's id
   * @progress: how far it is, in the tool's own unit; it only grows
   * @total: what @progress reaches at the end, or -1 when unknown
   * @message: (nullable): what the tool says it is doing
   *
   * Emitted on the main context where the call was started, also when the
   * tool reports from another thread, and never after `call-finished`.
   */
  signals [CALL_PROGRESS] =
    g_signal_new ("call-progress",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 4,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_DOUBLE,
                  G_TYPE_DOUBLE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
tb_tool_registry_init (TbToolRegistry *self)
{
  g_rw_lock_init (&self->lock);
  g_rw_lock_init (&self->cache_lock);
  self->tools = g_ptr_array_new_with_free_func (g_object_unref);
  self->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  self->default_timeout_ms = TB_TOOL_REGISTRY_DEFAULT_TIMEOUT_MS;
}

/**
 * tb_tool_registry_new:
 *
 * Returns: (transfer full): an empty registry
 */
TbToolRegistry *
tb_tool_registry_new (void)
{
  return g_object_new (TB_TYPE_TOOL_REGISTRY, NULL);
}

/* Must hold the lock. */
static char *
suggest_name_locked (TbToolRegistry *self,
                     const char     *name)
{
  g_autofree char *base = NULL;
  gsize base_len;

  /* "echo_2" for "echo", "echo_3" for "echo_2". */
  base = g_strdup (name);
  base_len = strlen (base);
  {
    const char *underscore = strrchr (base, '_');

    if (underscore != NULL && underscore[1] != '\0' &&
        strspn (underscore + 1, "0123456789") == strlen (underscore + 1))
      base_len = underscore - base;
  }

  for (guint n = 2; ; n++)
    {
      g_autofree char *suffix = g_strdup_printf ("_%u", n);
      g_autofree char *candidate = NULL;
      gsize keep = MIN (base_len, TB_TOOL_NAME_MAX - strlen (suffix));

      candidate = g_strdup_printf ("%.*s%s", (int) keep, base, suffix);
      if (!g_hash_table_contains (self->by_name, candidate))
        return g_steal_pointer (&candidate);
    }
}

/**
 * tb_tool_registry_suggest_name:
 * @self: a registry
 * @name: a name that may be taken
 *
 * Returns: (transfer full): @name when it is free, otherwise a free
 *   variant such as "echo_2"
 */
char *
tb_tool_registry_suggest_name (TbToolRegistry *self,
                               const char     *name)
{
  char *ret;

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  g_rw_lock_reader_lock (&self->lock);
  if (!g_hash_table_contains (self->by_name, name))
    ret = g_strdup (name);
  else
    ret = suggest_name_locked (self, name);
  g_rw_lock_reader_unlock (&self->lock);

  return ret;
}

static void
add_tool_unchecked (TbToolRegistry *self,
                    TbTool         *tool)
{
  g_rw_lock_writer_lock (&self->lock);
  g_ptr_array_add (self->tools, g_object_ref (tool));
  g_hash_table_insert (self->by_name, (gpointer) tb_tool_get_name (tool), tool);
  g_rw_lock_writer_unlock (&self->lock);
}

/**
 * tb_tool_registry_register:
 * @self: a registry
 * @tool: the tool to add
 * @error: return location for a #TbRegistryError
 *
 * Adds @tool at the end. A name that is taken is refused with
 * %TB_REGISTRY_ERROR_DUPLICATE, whose message suggests a free name.
 *
 * Returns: %TRUE when @tool was added
 */
gboolean
tb_tool_registry_register (TbToolRegistry  *self,
                           TbTool          *tool,
                           GError         **error)
{
  g_autoptr(GError) local_error = NULL;
  const char *name;
  guint position;

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), FALSE);
  g_return_val_if_fail (TB_IS_TOOL (tool), FALSE);

  if (!_tb_tool_check (tool, &local_error))
    {
      g_set_error_literal (error, TB_REGISTRY_ERROR, TB_REGISTRY_ERROR_INVALID_TOOL,
                           local_error->message);
      return FALSE;
    }

  name = tb_tool_get_name (tool);

  g_rw_lock_writer_lock (&self->lock);
  if (g_hash_table_contains (self->by_name, name))
    {
      TbTool *existing = g_hash_table_lookup (self->by_name, name);
      g_autofree char *suggestion = suggest_name_locked (self, name);

      g_rw_lock_writer_unlock (&self->lock);
      g_set_error (error, TB_REGISTRY_ERROR, TB_REGISTRY_ERROR_DUPLICATE,
                   /* Translators: a tool name, where it comes from, then a free name */
                   _("A tool named “%s” is already registered (from %s); "
                     "register this one under another name, such as “%s”"),
                   name, tb_tool_get_source (existing), suggestion);
      return FALSE;
    }
  position = self->tools->len;
  g_ptr_array_add (self->tools, g_object_ref (tool));
  g_hash_table_insert (self->by_name, (gpointer) name, tool);
  g_rw_lock_writer_unlock (&self->lock);

  invalidate_caches (self);

  g_list_model_items_changed (G_LIST_MODEL (self), position, 0, 1);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_N_ITEMS]);
  g_signal_emit (self, signals [TOOL_REGISTERED], 0, tool);

  return TRUE;
}

/**
 * tb_tool_registry_unregister:
 * @self: a registry
 * @name: the tool's name
 * @error: return location for a #TbRegistryError
 *
 * Returns: %TRUE when the tool was removed, %FALSE with
 *   %TB_REGISTRY_ERROR_NOT_FOUND when no tool has that name
 */
gboolean
tb_tool_registry_unregister (TbToolRegistry  *self,
                             const char      *name,
                             GError         **error)
{
  g_autoptr(TbTool) tool = NULL;
  guint position = 0;

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  g_rw_lock_writer_lock (&self->lock);
  tool = g_hash_table_lookup (self->by_name, name);
  if (tool != NULL)
    {
      g_object_ref (tool);
      g_hash_table_remove (self->by_name, name);
      g_ptr_array_find (self->tools, tool, &position);
      g_ptr_array_remove_index (self->tools, position);
    }
  g_rw_lock_writer_unlock (&self->lock);

  if (tool == NULL)
    {
      g_set_error (error, TB_REGISTRY_ERROR, TB_REGISTRY_ERROR_NOT_FOUND,
                   _("There is no tool named “%s”"), name);
      return FALSE;
    }

  invalidate_caches (self);

  g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_N_ITEMS]);
  g_signal_emit (self, signals [TOOL_UNREGISTERED], 0, tool);

  return TRUE;
}

/**
 * tb_tool_registry_lookup:
 * @self: a registry
 * @name: a tool name
 *
 * Safe to call from any thread.
 *
 * Returns: (transfer full) (nullable): the tool, or %NULL
 */
TbTool *
tb_tool_registry_lookup (TbToolRegistry *self,
                         const char     *name)
{
  TbTool *tool;

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), NULL);

  if (name == NULL)
    return NULL;

  g_rw_lock_reader_lock (&self->lock);
  tool = g_hash_table_lookup (self->by_name, name);
  if (tool != NULL)
    g_object_ref (tool);
  g_rw_lock_reader_unlock (&self->lock);

  return tool;
}

gboolean
tb_tool_registry_contains (TbToolRegistry *self,
                           const char     *name)
{
  gboolean ret;

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), FALSE);

  if (name == NULL)
    return FALSE;

  g_rw_lock_reader_lock (&self->lock);
  ret = g_hash_table_contains (self->by_name, name);
  g_rw_lock_reader_unlock (&self->lock);

  return ret;
}

guint
tb_tool_registry_get_size (TbToolRegistry *self)
{
  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), 0);

  return g_list_model_get_n_items (G_LIST_MODEL (self));
}

/**
 * tb_tool_registry_get_names:
 *
 * Returns: (transfer full) (array zero-terminated=1): the names in
 *   registration order
 */
char **
tb_tool_registry_get_names (TbToolRegistry *self)
{
  char **names;

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), NULL);

  g_rw_lock_reader_lock (&self->lock);
  names = g_new0 (char *, self->tools->len + 1);
  for (guint i = 0; i < self->tools->len; i++)
    names[i] = g_strdup (tb_tool_get_name (g_ptr_array_index (self->tools, i)));
  g_rw_lock_reader_unlock (&self->lock);

  return names;
}

static TbToolRegistry *
new_like (TbToolRegistry *self)
{
  TbToolRegistry *copy = tb_tool_registry_new ();

  copy->default_timeout_ms = self->default_timeout_ms;
  return copy;
}

/**
 * tb_tool_registry_subset:
 * @self: a registry
 * @names: (array zero-terminated=1): the names to keep
 * @error: return location for %TB_REGISTRY_ERROR_NOT_FOUND
 *
 * Returns: (transfer full) (nullable): a new registry with the named tools,
 *   in the order of @names, or %NULL when a name is unknown
 */
TbToolRegistry *
tb_tool_registry_subset (TbToolRegistry      *self,
                         const char * const  *names,
                         GError             **error)
{
  g_autoptr(TbToolRegistry) subset = NULL;
  g_autoptr(GPtrArray) tools = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), NULL);
  g_return_val_if_fail (names != NULL, NULL);

  for (guint i = 0; names[i] != NULL; i++)
    {
      TbTool *tool = tb_tool_registry_lookup (self, names[i]);

      if (tool == NULL)
        {
          g_set_error (error, TB_REGISTRY_ERROR, TB_REGISTRY_ERROR_NOT_FOUND,
                       _("There is no tool named “%s”"), names[i]);
          return NULL;
        }
      g_ptr_array_add (tools, tool);
    }

  subset = new_like (self);
  for (guint i = 0; i < tools->len; i++)
    {
      TbTool *tool = g_ptr_array_index (tools, i);

      if (!g_hash_table_contains (subset->by_name, tb_tool_get_name (tool)))
        add_tool_unchecked (subset, tool);
    }

  return g_steal_pointer (&subset);
}

/**
 * tb_tool_registry_get_model_tools:
 *
 * The tools a model may see: those of %TB_TOOL_VISIBILITY_MODEL. This is
 * the only registry a dispatch loop offers to a provider, so a
 * %TB_TOOL_VISIBILITY_USER_ONLY tool never reaches one.
 *
 * Returns: (transfer full): a new registry, a snapshot
 */
TbToolRegistry *
tb_tool_registry_get_model_tools (TbToolRegistry *self)
{
  TbToolRegistry *subset;

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), NULL);

  subset = new_like (self);

  g_rw_lock_reader_lock (&self->lock);
  for (guint i = 0; i < self->tools->len; i++)
    {
      TbTool *tool = g_ptr_array_index (self->tools, i);

      if (tb_tool_get_visibility (tool) == TB_TOOL_VISIBILITY_MODEL)
        {
          g_ptr_array_add (subset->tools, g_object_ref (tool));
          g_hash_table_insert (subset->by_name, (gpointer) tb_tool_get_name (tool), tool);
        }
    }
  g_rw_lock_reader_unlock (&self->lock);

  return subset;
}

/* Wire names.
 *
 * OpenAI, Anthropic and Gemini accept function names matching
 * ^[a-zA-Z0-9_-]{1,64}$. A name that already matches is its own wire name.
 * Any other name (one with a dot, such as "facts.propose") has each
 * forbidden character replaced by "_"; when that collides with another
 * tool's wire name, "_2", "_3", … is appended. Names that match are
 * reserved first, so a tool's wire name never changes because another
 * tool with dots is added. The mapping belongs to one registry: map back
 * with the registry that produced the request.
 */

static gboolean
is_wire_safe (const char *name)
{
  gsize len = strlen (name);

  if (len == 0 || len > 64)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isalnum (name[i]) && name[i] != '_' && name[i] != '-')
      return FALSE;
  return TRUE;
}

/* Must hold cache_lock. */
static void
ensure_wire_names_locked (TbToolRegistry *self)
{
  g_autoptr(GPtrArray) unsafe = NULL;

  if (self->real_to_wire != NULL)
    return;

  self->real_to_wire = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->wire_to_real = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  unsafe = g_ptr_array_new ();

  g_rw_lock_reader_lock (&self->lock);
  for (guint i = 0; i < self->tools->len; i++)
    {
      const char *name = tb_tool_get_name (g_ptr_array_index (self->tools, i));

      if (is_wire_safe (name))
        {
          g_hash_table_insert (self->real_to_wire, g_strdup (name), g_strdup (name));
          g_hash_table_insert (self->wire_to_real, g_strdup (name), g_strdup (name));
        }
      else
        {
          g_ptr_array_add (unsafe, g_strdup (name));
        }
    }
  g_rw_lock_reader_unlock (&self->lock);

  for (guint i = 0; i < unsafe->len; i++)
    {
      g_autofree char *name = g_ptr_array_index (unsafe, i);
      g_autofree char *base = g_strdup (name);
      g_autofree char *wire = NULL;

      for (char *p = base; *p != '\0'; p++)
        if (!g_ascii_isalnum (*p) && *p != '_' && *p != '-')
          *p = '_';

      wire = g_strdup (base);
      for (guint n = 2; g_hash_table_contains (self->wire_to_real, wire); n++)
        {
          g_autofree char *suffix = g_strdup_printf ("_%u", n);
          gsize keep = MIN (strlen (base), 64 - strlen (suffix));

          g_free (wire);
          wire = g_strdup_printf ("%.*s%s", (int) keep, base, suffix);
        }

      g_hash_table_insert (self->real_to_wire, g_strdup (name), g_strdup (wire));
      g_hash_table_insert (self->wire_to_real, g_steal_pointer (&wire), g_strdup (name));
    }
}

/**
 * tb_tool_registry_to_wire_name:
 * @self: a registry
 * @name: a registered tool's name
 *
 * Returns: (transfer full) (nullable): the name providers see, or %NULL
 *   when @name is not registered
 */
char *
tb_tool_registry_to_wire_name (TbToolRegistry *self,
                               const char     *name)
{
  char *ret;

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), NULL);

  if (name == NULL)
    return NULL;

  g_rw_lock_writer_lock (&self->cache_lock);
  ensure_wire_names_locked (self);
  ret = g_strdup (g_hash_table_lookup (self->real_to_wire, name));
  g_rw_lock_writer_unlock (&self->cache_lock);

  return ret;
}

/**
 * tb_tool_registry_from_wire_name:
 * @self: the registry whose definitions the provider received
 * @wire_name: a name a model used
 *
 * Returns: (transfer full) (nullable): the real tool name, or %NULL when
 *   no tool of this registry goes by @wire_name
 */
char *
tb_tool_registry_from_wire_name (TbToolRegistry *self,
                                 const char     *wire_name)
{
  char *ret;

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), NULL);

  if (wire_name == NULL)
    return NULL;

  g_rw_lock_writer_lock (&self->cache_lock);
  ensure_wire_names_locked (self);
  ret = g_strdup (g_hash_table_lookup (self->wire_to_real, wire_name));
  g_rw_lock_writer_unlock (&self->cache_lock);

  return ret;
}

static JsonNode *
build_definition (TbToolRegistry     *self,
                  TbTool             *tool,
                  TbDefinitionFormat  format)
{
  JsonObject *object = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  const char *name = tb_tool_get_name (tool);
  const char *wire = g_hash_table_lookup (self->real_to_wire, name);
  JsonNode *parameters = tb_tool_get_parameters (tool);

  json_node_take_object (node, object);

  switch (format)
    {
    case TB_DEFINITION_FORMAT_OPENAI:
      {
        JsonObject *function = json_object_new ();

        json_object_set_string_member (object, "type", "function");
        json_object_set_string_member (function, "name", wire);
        json_object_set_string_member (function, "description",
                                       tb_tool_get_description (tool));
        json_object_set_member (function, "parameters", json_node_ref (parameters));
        json_object_set_object_member (object, "function", function);
      }
      break;

    case TB_DEFINITION_FORMAT_ANTHROPIC:
      json_object_set_string_member (object, "name", wire);
      json_object_set_string_member (object, "description", tb_tool_get_description (tool));
      json_object_set_member (object, "input_schema", json_node_ref (parameters));
      break;

    case TB_DEFINITION_FORMAT_GEMINI:
      json_object_set_string_member (object, "name", wire);
      json_object_set_string_member (object, "description", tb_tool_get_description (tool));
      /* Gemini refuses an OBJECT schema without properties: a tool that
       * takes no arguments has no "parameters" there. */
      if (!tb_tool_takes_no_arguments (tool))
        json_object_set_member (object, "parameters", tb_wire_schema_for_gemini (parameters));
      break;

    case TB_DEFINITION_FORMAT_NATIVE:
    default:
      json_object_set_string_member (object, "name", name);
      json_object_set_string_member (object, "description", tb_tool_get_description (tool));
      json_object_set_member (object, "parameters", json_node_ref (parameters));
      break;
    }

  return node;
}

/**
 * tb_tool_registry_to_definitions:
 * @self: a registry
 * @format: the wire format
 *
 * The value of a request's `tools` member for @format, with wire names
 * (see tb_tool_registry_to_wire_name()): an array of definitions, and for
 * Gemini an array holding one `{"functionDeclarations": […]}` object.
 * The result is cached until the registry changes.
 *
 * Returns: (transfer full): a sealed JSON array
 */
JsonNode *
tb_tool_registry_to_definitions (TbToolRegistry     *self,
                                 TbDefinitionFormat  format)
{
  JsonNode *ret;

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), NULL);
  g_return_val_if_fail (format <= TB_DEFINITION_FORMAT_GEMINI, NULL);

  g_rw_lock_writer_lock (&self->cache_lock);

  if (self->definitions[format] == NULL)
    {
      JsonArray *array = json_array_new ();
      JsonNode *node = json_node_new (JSON_NODE_ARRAY);

      ensure_wire_names_locked (self);

      g_rw_lock_reader_lock (&self->lock);
      for (guint i = 0; i < self->tools->len; i++)
        json_array_add_element (array, build_definition (self, g_ptr_array_index (self->tools, i),
                                                         format));
      g_rw_lock_reader_unlock (&self->lock);

      if (format == TB_DEFINITION_FORMAT_GEMINI)
        {
          JsonArray *outer = json_array_new ();
          JsonObject *declarations = json_object_new ();

          json_object_set_array_member (declarations, "functionDeclarations", array);
          json_array_add_object_element (outer, declarations);
          json_node_take_array (node, outer);
        }
      else
        {
          json_node_take_array (node, array);
        }

      json_node_seal (node);
      self->definitions[format] = node;
    }

  ret = json_node_ref (self->definitions[format]);
  g_rw_lock_writer_unlock (&self->cache_lock);

  return ret;
}

guint
tb_tool_registry_get_default_timeout_ms (TbToolRegistry *self)
{
  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), 0);
  return self->default_timeout_ms;
}

void
tb_tool_registry_set_default_timeout_ms (TbToolRegistry *self,
                                         guint           timeout_ms)
{
  g_return_if_fail (TB_IS_TOOL_REGISTRY (self));
  g_return_if_fail (timeout_ms > 0);

  if (self->default_timeout_ms != timeout_ms)
    {
      self->default_timeout_ms = timeout_ms;
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_DEFAULT_TIMEOUT_MS]);
    }
}

/* Calls. */

typedef struct
{
  TbToolRegistry *registry;
  TbTool         *tool;
  char           *call_id;
  GCancellable   *tool_cancellable;
  GSource        *timeout_source;
  GSource        *cancel_source;
  gint64          started;
  guint           timeout_ms;
  gboolean        done;
  gboolean        unvalidated;
} CallData;

static void
call_data_free (CallData *data)
{
  if (data->timeout_source != NULL)
    {
      g_source_destroy (data->timeout_source);
      g_source_unref (data->timeout_source);
    }
  if (data->cancel_source != NULL)
    {
      g_source_destroy (data->cancel_source);
      g_source_unref (data->cancel_source);
    }
  g_clear_object (&data->tool_cancellable);
  g_clear_object (&data->tool);
  g_clear_object (&data->registry);
  g_free (data->call_id);
  g_free (data);
}

static G_DEFINE_QUARK (tb-tool-call-task, call_task)

/* The same result, its metadata saying the arguments were not validated. */
static TbToolResult *
mark_unvalidated (TbToolResult *result)
{
  JsonObject *metadata = tb_tool_result_get_metadata (result);
  g_autoptr(JsonObject) marked = json_object_new ();
  JsonObjectIter iter;
  const char *member;
  JsonNode *node;

  json_object_iter_init (&iter, metadata);
  while (json_object_iter_next (&iter, &member, &node))
    json_object_set_member (marked, member, json_node_copy (node));
  json_object_set_boolean_member (marked, TB_TOOL_RESULT_UNVALIDATED, TRUE);
  return tb_tool_result_new_full (tb_tool_result_get_kind (result),
                                  tb_tool_result_get_output (result),
                                  tb_tool_result_get_error (result),
                                  marked,
                                  tb_tool_result_get_warnings (result),
                                  tb_tool_result_get_duration_us (result));
}

static void
finish_call (GTask        *task,
             TbToolResult *result)
{
  CallData *data = g_task_get_task_data (task);
  g_autoptr(TbToolResult) timed = NULL;

  g_assert (!data->done);

  data->done = TRUE;
  if (data->tool_cancellable != NULL)
    g_object_set_qdata (G_OBJECT (data->tool_cancellable), call_task_quark (), NULL);
  if (data->timeout_source != NULL)
    g_source_destroy (data->timeout_source);
  if (data->cancel_source != NULL)
    g_source_destroy (data->cancel_source);

  /* Tell a tool that is still running that nobody waits for it. */
  if (data->tool_cancellable != NULL)
    g_cancellable_cancel (data->tool_cancellable);

  timed = tb_tool_result_copy_with_duration (result,
                                             g_get_monotonic_time () - data->started);
  if (data->unvalidated)
    {
      TbToolResult *marked = mark_unvalidated (timed);

      g_object_unref (timed);
      timed = marked;
    }

  if (data->tool != NULL)
    g_signal_emit (data->registry, signals [CALL_FINISHED], 0,
                   data->tool, data->call_id, timed);

  g_task_return_pointer (task, g_steal_pointer (&timed), g_object_unref);
}

static char *
format_duration_ms (guint ms)
{
  if (ms % 1000 == 0)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u second", "%u seconds", ms / 1000),
                            ms / 1000);
  return g_strdup_printf ("%u ms", ms);
}

static gboolean
call_timeout_cb (gpointer user_data)
{
  GTask *task = user_data;
  CallData *data = g_task_get_task_data (task);
  g_autofree char *limit = format_duration_ms (data->timeout_ms);
  g_autofree char *message = NULL;
  g_autoptr(TbToolResult) result = NULL;

  message = g_strdup_printf (_("The tool “%s” did not finish within %s and was stopped"),
                             tb_tool_get_name (data->tool), limit);
  result = tb_tool_result_new_failure (TB_TOOL_FAILURE_TIMEOUT, message);
  finish_call (task, result);

  return G_SOURCE_REMOVE;
}

static gboolean
call_cancelled_cb (GCancellable *cancellable,
                   gpointer      user_data)
{
  GTask *task = user_data;
  CallData *data = g_task_get_task_data (task);
  g_autoptr(TbToolResult) result = NULL;
  g_autofree char *message = NULL;

  message = g_strdup_printf (_("The call of “%s” was cancelled"),
                             data->tool != NULL ? tb_tool_get_name (data->tool) : "?");
  result = tb_tool_result_new_failure (TB_TOOL_FAILURE_CANCELLED, message);
  finish_call (task, result);

  return G_SOURCE_REMOVE;
}

static GSource *
new_timeout_source (GTask *task)
{
  CallData *data = g_task_get_task_data (task);
  GSource *source = g_timeout_source_new (data->timeout_ms);

  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, call_timeout_cb, task, NULL);
  g_source_set_static_name (source, "[tb] tool call timeout");
  g_source_attach (source, g_task_get_context (task));
  return source;
}

/**
 * _tb_tool_call_extend_deadline:
 * @cancellable: the cancellable the registry passed to the tool's
 *   invoke_async()
 *
 * Tells the registry that the call made progress: its time limit starts
 * over from now. MCP tools call this for every `notifications/progress`.
 * Call it on the main context, where the registry runs calls; it does
 * nothing once the call has finished or when @cancellable does not belong
 * to a running registry call.
 *
 * Returns: %TRUE when a running call's deadline was moved
 */
gboolean
_tb_tool_call_extend_deadline (GCancellable *cancellable)
{
  GTask *task;
  CallData *data;

  if (cancellable == NULL)
    return FALSE;

  task = g_object_get_qdata (G_OBJECT (cancellable), call_task_quark ());
  if (task == NULL)
    return FALSE;

  data = g_task_get_task_data (task);
  if (data->done || data->timeout_source == NULL)
    return FALSE;

  g_source_destroy (data->timeout_source);
  g_source_unref (data->timeout_source);
  data->timeout_source = new_timeout_source (task);
  return TRUE;
}

typedef struct
{
  GTask  *task;
  double  progress;
  double  total;
  char   *message;
} ProgressReport;

static void
progress_report_free (ProgressReport *report)
{
  g_object_unref (report->task);
  g_free (report->message);
  g_free (report);
}

static gboolean
emit_progress_cb (gpointer user_data)
{
  ProgressReport *report = user_data;
  CallData *data = g_task_get_task_data (report->task);

  /* A report that was on its way when the call finished is dropped. */
  if (!data->done && data->tool != NULL)
    g_signal_emit (data->registry, signals [CALL_PROGRESS], 0, data->call_id,
                   report->progress, report->total, report->message);
  return G_SOURCE_REMOVE;
}

static gpointer
dup_task (gpointer task,
          gpointer user_data)
{
  return task != NULL ? g_object_ref (task) : NULL;
}

/**
 * _tb_tool_call_report_progress:
 * @cancellable: the cancellable the registry passed to the tool's
 *   invoke_async()
 * @progress: how far the call is
 * @total: what @progress reaches at the end, or a negative number when unknown
 * @message: (nullable): what the tool says it is doing
 *
 * Makes the registry emit #TbToolRegistry::call-progress for the running
 * call. Safe from any thread: the signal is emitted on the context the call
 * was started on. Does nothing once the call has finished or when
 * @cancellable does not belong to a running registry call.
 */
void
_tb_tool_call_report_progress (GCancellable *cancellable,
                               double        progress,
                               double        total,
                               const char   *message)
{
  ProgressReport *report;
  GTask *task;

  if (cancellable == NULL)
    return;

  /* Under GData's lock, so a call finishing on another thread cannot free
   * the task between the lookup and the reference. */
  task = g_object_dup_qdata (G_OBJECT (cancellable), call_task_quark (), dup_task, NULL);
  if (task == NULL)
    return;

  report = g_new0 (ProgressReport, 1);
  report->task = task;
  report->progress = progress;
  report->total = total < 0 ? -1 : total;
  report->message = g_strdup (message);
  g_main_context_invoke_full (g_task_get_context (task), G_PRIORITY_DEFAULT,
                              emit_progress_cb, report,
                              (GDestroyNotify) progress_report_free);
}

static TbToolFailureKind
kind_for_error (const GError *error)
{
  if (error->domain == TB_TOOL_ERROR)
    {
      switch ((TbToolError) error->code)
        {
        case TB_TOOL_ERROR_INVALID_ARGUMENTS:
          return TB_TOOL_FAILURE_INVALID_ARGUMENTS;
        case TB_TOOL_ERROR_PERMISSION_DENIED:
          return TB_TOOL_FAILURE_PERMISSION_DENIED;
        case TB_TOOL_ERROR_INVALID_NAME:
        case TB_TOOL_ERROR_INVALID_DESCRIPTION:
        case TB_TOOL_ERROR_INVALID_SCHEMA:
        case TB_TOOL_ERROR_FAILED:
        default:
          return TB_TOOL_FAILURE_EXECUTION_FAILED;
        }
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return TB_TOOL_FAILURE_CANCELLED;
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    return TB_TOOL_FAILURE_TIMEOUT;
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED))
    return TB_TOOL_FAILURE_PERMISSION_DENIED;

  return TB_TOOL_FAILURE_EXECUTION_FAILED;
}

static void
tool_invoke_cb (GObject      *object,
                GAsyncResult *res,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CallData *data = g_task_get_task_data (task);
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(GError) error = NULL;

  result = tb_tool_invoke_finish (TB_TOOL (object), res, &error);

  /* Timed out or cancelled already: the late answer is dropped. */
  if (data->done)
    return;

  if (result == NULL)
    {
      if (error == NULL)
        {
          g_autofree char *message =
            g_strdup_printf (_("The tool “%s” returned no result"), tb_tool_get_name (data->tool));

          result = tb_tool_result_new_failure (TB_TOOL_FAILURE_EXECUTION_FAILED, message);
        }
      else
        {
          result = tb_tool_result_new_failure (kind_for_error (error), error->message);
        }
    }
  else if (!TB_IS_TOOL_RESULT (result))
    {
      g_autofree char *message =
        g_strdup_printf (_("The tool “%s” returned something that is not a result"),
                         tb_tool_get_name (data->tool));

      g_steal_pointer (&result);
      result = tb_tool_result_new_failure (TB_TOOL_FAILURE_EXECUTION_FAILED, message);
    }

  finish_call (task, result);
}

static char *
format_available (TbToolRegistry *self)
{
  g_auto(GStrv) names = tb_tool_registry_get_names (self);
  guint n = g_strv_length (names);
  const guint shown = 20;
  GString *text;

  if (n == 0)
    return g_strdup (_("No tools are available."));

  text = g_string_new (NULL);
  for (guint i = 0; i < MIN (n, shown); i++)
    {
      if (i > 0)
        g_string_append (text, ", ");
      g_string_append (text, names[i]);
    }
  if (n > shown)
    /* Translators: %u is a number of further tool names */
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, " and %u more", " and %u more",
                                               n - shown), n - shown);

  {
    g_autofree char *list = g_string_free (text, FALSE);

    /* Translators: %s is a comma-separated list of tool names */
    return g_strdup_printf (_("Available tools: %s."), list);
  }
}

static char *
format_schema_errors (TbTool    *tool,
                      GPtrArray *errors)
{
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, _("The arguments for “%s” are not valid:"),
                          tb_tool_get_name (tool));
  for (guint i = 0; i < errors->len; i++)
    {
      g_autofree char *line = tb_schema_error_to_string (g_ptr_array_index (errors, i));

      g_string_append_printf (text, "\n- %s", line);
    }
  return g_string_free (text, FALSE);
}

static void
call_internal (TbToolRegistry      *self,
               const char          *name,
               const char          *call_id,
               JsonNode            *arguments,
               JsonObject          *context,
               gboolean             validate,
               GCancellable        *cancellable,
               GAsyncReadyCallback  callback,
               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonNode) args = NULL;
  g_autoptr(GPtrArray) errors = NULL;
  g_autoptr(TbToolResult) refused = NULL;
  CallData *data;

  g_assert (TB_IS_TOOL_REGISTRY (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_tool_registry_call_async);
  g_task_set_check_cancellable (task, FALSE);

  data = g_new0 (CallData, 1);
  data->registry = g_object_ref (self);
  data->unvalidated = !validate;
  data->started = g_get_monotonic_time ();
  data->call_id = call_id != NULL ? g_strdup (call_id)
                                  : g_strdup_printf ("call-%" G_GUINT64_FORMAT,
                                                     ++self->next_call_id);
  g_task_set_task_data (task, data, (GDestroyNotify) call_data_free);

  data->tool = tb_tool_registry_lookup (self, name);
  if (data->tool == NULL)
    {
      g_autofree char *available = format_available (self);
      g_autofree char *valid = name != NULL ? g_utf8_make_valid (name, -1) : NULL;
      g_autofree char *shown =
        valid != NULL ? g_utf8_substring (valid, 0, MIN (g_utf8_strlen (valid, -1), 200)) : NULL;
      g_autofree char *message = NULL;

      if (shown == NULL || *shown == '\0')
        message = g_strdup_printf (_("The call names no tool. %s"), available);
      /* Control characters (a NUL arrives as U+FFFD) are not repeated back. */
      else if (!tb_tool_name_is_valid (name, NULL))
        message = g_strdup_printf (_("The call names a tool that cannot exist: tool names use "
                                     "only letters, digits, “_”, “.” and “-”. %s"), available);
      else
        message = g_strdup_printf (_("There is no tool named “%s”. %s"), shown, available);

      refused = tb_tool_result_new_failure (TB_TOOL_FAILURE_NOT_FOUND, message);
      finish_call (task, refused);
      return;
    }

  /* A sealed, bounded copy: the caller may change its node afterwards. */
  if (arguments == NULL)
    args = tb_json_node_new_object ();
  else if (!tb_json_node_depth_ok (arguments, TB_JSON_MAX_DEPTH))
    args = NULL;
  else
    args = tb_json_freeze (arguments);

  {
    g_autoptr(JsonNode) shown = args != NULL ? json_node_ref (args) : json_node_new (JSON_NODE_NULL);

    g_signal_emit (self, signals [CALL_STARTED], 0, data->tool, data->call_id, shown);
  }

  if (args == NULL)
    {
      g_autofree char *message =
        g_strdup_printf (_("The arguments for “%s” nest more than %u levels deep"),
                         tb_tool_get_name (data->tool), TB_JSON_MAX_DEPTH);

      refused = tb_tool_result_new_failure (TB_TOOL_FAILURE_INVALID_ARGUMENTS, message);
      finish_call (task, refused);
      return;
    }

  if (!JSON_NODE_HOLDS_OBJECT (args))
    {
      g_autofree char *type = tb_json_describe_type (args);
      g_autofree char *message =
        /* Translators: a tool name, then a JSON type such as "array" */
        g_strdup_printf (_("The arguments for “%s” must be a JSON object, not %s"),
                         tb_tool_get_name (data->tool), type);

      refused = tb_tool_result_new_failure (TB_TOOL_FAILURE_INVALID_ARGUMENTS, message);
      finish_call (task, refused);
      return;
    }

  if (validate && !tb_tool_validate_arguments (data->tool, args, &errors))
    {
      g_autofree char *message = format_schema_errors (data->tool, errors);

      refused = tb_tool_result_new_failure (TB_TOOL_FAILURE_INVALID_ARGUMENTS, message);
      finish_call (task, refused);
      return;
    }

  if (cancellable != NULL && g_cancellable_is_cancelled (cancellable))
    {
      g_autofree char *message =
        g_strdup_printf (_("The call of “%s” was cancelled"), tb_tool_get_name (data->tool));

      refused = tb_tool_result_new_failure (TB_TOOL_FAILURE_CANCELLED, message);
      finish_call (task, refused);
      return;
    }

  data->timeout_ms = tb_tool_get_timeout_ms (data->tool);
  if (data->timeout_ms == 0)
    data->timeout_ms = self->default_timeout_ms;

  data->timeout_source = new_timeout_source (task);

  if (cancellable != NULL)
    {
      data->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (data->cancel_source, G_SOURCE_FUNC (call_cancelled_cb), task, NULL);
      g_source_set_static_name (data->cancel_source, "[tb] tool call cancelled");
      g_source_attach (data->cancel_source, g_task_get_context (task));
    }

  data->tool_cancellable = g_cancellable_new ();
  g_object_set_qdata (G_OBJECT (data->tool_cancellable), call_task_quark (), task);

  tb_tool_invoke_async (data->tool, args, context, data->tool_cancellable,
                        tool_invoke_cb, g_object_ref (task));
}

/**
 * tb_tool_registry_call_async:
 * @self: a registry
 * @name: the tool's name (a real name, not a wire name)
 * @call_id: (nullable): an id for the call; one is made when %NULL
 * @arguments: (nullable): a JSON object; %NULL means no arguments (`{}`)
 * @context: (nullable): passed to the tool as is
 * @cancellable: (nullable): cancels the call; the result is then a
 *   cancelled failure, at once, whether or not the tool stops
 * @callback: called with the result
 * @user_data: closure for @callback
 *
 * Looks the tool up, validates the arguments, and runs it with its time
 * limit. Always finishes with a #TbToolResult.
 */
void
tb_tool_registry_call_async (TbToolRegistry      *self,
                             const char          *name,
                             const char          *call_id,
                             JsonNode            *arguments,
                             JsonObject          *context,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_return_if_fail (TB_IS_TOOL_REGISTRY (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  call_internal (self, name, call_id, arguments, context, TRUE, cancellable, callback,
                 user_data);
}

/**
 * tb_tool_registry_call_unvalidated_async:
 * @self: a registry
 * @name: the tool's name
 * @call_id: (nullable): an id for the call; one is made when %NULL
 * @arguments: (nullable): a JSON object, sent as it is
 * @context: (nullable): passed to the tool as is
 * @cancellable: (nullable): cancels the call
 * @callback: called with the result
 * @user_data: closure for @callback
 *
 * As tb_tool_registry_call_async(), but the arguments are not checked
 * against the tool's schema: a person testing how a tool or server handles
 * bad arguments sends them exactly as written. They must still be a JSON
 * object within the nesting limit. The result's metadata is marked
 * (tb_tool_result_get_unvalidated()). Never for a model's calls.
 */
void
tb_tool_registry_call_unvalidated_async (TbToolRegistry      *self,
                                         const char          *name,
                                         const char          *call_id,
                                         JsonNode            *arguments,
                                         JsonObject          *context,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  g_return_if_fail (TB_IS_TOOL_REGISTRY (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  call_internal (self, name, call_id, arguments, context, FALSE, cancellable, callback,
                 user_data);
}

/**
 * tb_tool_registry_call_finish:
 * @self: a registry
 * @result: the #GAsyncResult
 *
 * Returns: (transfer full): the call's result; never %NULL
 */
TbToolResult *
tb_tool_registry_call_finish (TbToolRegistry *self,
                              GAsyncResult   *result)
{
  TbToolResult *ret;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  ret = g_task_propagate_pointer (G_TASK (result), &error);
  if (ret == NULL)
    ret = tb_tool_result_new_failure (TB_TOOL_FAILURE_EXECUTION_FAILED,
                                      error != NULL ? error->message : _("The call failed"));
  return ret;
}
