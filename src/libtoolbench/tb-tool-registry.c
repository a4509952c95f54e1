/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-tool-registry"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-schema-error.h"
#include "tb-tool-private.h"
#include "tb-tool-registry-private.h"
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


static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TbToolRegistry, tb_tool_registry, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))
/**
 * tb_registry_error_quark:
 *
 * The error domain of #TbRegistryError.
 *
 * Returns: the quark of %TB_REGISTRY_ERROR
 */
G_DEFINE_QUARK (tb-registry-error-quark, tb_registry_error)

enum {
  PROP_0,
  PROP_N_ITEMS,
  PROP_DEFAULT_TIMEOUT_MS,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];
guint _tb_tool_registry_signals [TB_TOOL_REGISTRY_N_SIGNALS];

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
  g_atomic_int_inc (&self->generation);
  g_rw_lock_writer_lock (&self->cache_lock);
  for (guint i = 0; i < G_N_ELEMENTS (self->definitions); i++)
    g_clear_pointer (&self->definitions[i], json_node_unref);
  for (guint i = 0; i < G_N_ELEMENTS (self->real_to_wire); i++)
    {
      g_clear_pointer (&self->real_to_wire[i], g_hash_table_unref);
      g_clear_pointer (&self->wire_to_real[i], g_hash_table_unref);
    }
  g_rw_lock_writer_unlock (&self->cache_lock);
}

static void
tb_tool_registry_finalize (GObject *object)
{
  TbToolRegistry *self = (TbToolRegistry *)object;

  invalidate_caches (self);
  g_clear_pointer (&self->by_name, g_hash_table_unref);
  g_clear_pointer (&self->hint_overrides, g_hash_table_unref);
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

  /**
   * TbToolRegistry:n-items:
   *
   * The number of tools registered, as the #GListModel says.
   */
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
   *
   * Emitted on the main context after a tool was added, once the registry's
   * list already holds it.
   */
  _tb_tool_registry_signals [TB_TOOL_REGISTRY_TOOL_REGISTERED] =
    g_signal_new ("tool-registered",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, TB_TYPE_TOOL);

  /**
   * TbToolRegistry::tool-unregistered:
   * @self: the registry
   * @tool: the tool that was removed
   *
   * Emitted on the main context after a tool was removed. Calls of it that
   * already started still end with their result.
   */
  _tb_tool_registry_signals [TB_TOOL_REGISTRY_TOOL_UNREGISTERED] =
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
   *
   * Emitted once when a call of a registered tool starts, before validation,
   * on the caller's main context; refused calls emit it too.
   */
  _tb_tool_registry_signals [TB_TOOL_REGISTRY_CALL_STARTED] =
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
   *
   * Emitted exactly once for every call that emitted
   * #TbToolRegistry::call-started, with its result, whether the tool
   * answered, failed, timed out or was cancelled.
   */
  _tb_tool_registry_signals [TB_TOOL_REGISTRY_CALL_FINISHED] =
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
  _tb_tool_registry_signals [TB_TOOL_REGISTRY_CALL_PROGRESS] =
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
  self->hint_overrides = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->default_timeout_ms = TB_TOOL_REGISTRY_DEFAULT_TIMEOUT_MS;
}

/**
 * tb_tool_registry_new:
 *
 * Makes an empty registry with the default time limit of a call. Register
 * tools with tb_tool_registry_register() and call them with
 * tb_tool_registry_call_async().
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
 * Finds a free name for a tool that would clash with one already
 * registered, such as a second MCP server's tool of the same name.
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
error_free0 (gpointer error)
{
  if (error != NULL)
    g_error_free (error);
}

/* Why @name cannot be registered again, with a free name to use instead. */
static GError *
duplicate_error_locked (TbToolRegistry *self,
                        const char     *name)
{
  TbTool *existing = g_hash_table_lookup (self->by_name, name);
  g_autofree char *suggestion = suggest_name_locked (self, name);

  return g_error_new (TB_REGISTRY_ERROR, TB_REGISTRY_ERROR_DUPLICATE,
                      /* Translators: a tool name, where it comes from, then a free name */
                      _("A tool named “%s” is already registered (from %s); "
                        "register this one under another name, such as “%s”"),
                      name, tb_tool_get_source (existing), suggestion);
}

static void
add_tool_locked (TbToolRegistry *self,
                 TbTool         *tool)
{
  g_ptr_array_add (self->tools, g_object_ref (tool));
  g_hash_table_insert (self->by_name, (gpointer) tb_tool_get_name (tool), tool);
}

static void
add_tool_unchecked (TbToolRegistry *self,
                    TbTool         *tool)
{
  g_rw_lock_writer_lock (&self->lock);
  add_tool_locked (self, tool);
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
  g_autoptr(GPtrArray) one = g_ptr_array_new ();
  g_autoptr(GPtrArray) refused = NULL;

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), FALSE);
  g_return_val_if_fail (TB_IS_TOOL (tool), FALSE);

  g_ptr_array_add (one, tool);
  if (tb_tool_registry_register_all (self, one, &refused) == 1)
    return TRUE;
  g_propagate_error (error, g_steal_pointer (&refused->pdata[0]));
  return FALSE;
}

/**
 * tb_tool_registry_register_all:
 * @self: a registry
 * @tools: (element-type TbTool): the tools to add, in order
 * @errors: (out) (optional) (transfer full) (element-type GLib.Error): for
 *   each of @tools, %NULL when it was added, or why it was not, as
 *   tb_tool_registry_register() would say
 *
 * Adds @tools at the end as tb_tool_registry_register() adds each of them,
 * but says so to list views once: a folder of a thousand tools changes the
 * list once instead of a thousand times. #TbToolRegistry::tool-registered
 * is still emitted for each tool added.
 *
 * Returns: how many of @tools were added
 */
guint
tb_tool_registry_register_all (TbToolRegistry  *self,
                               GPtrArray       *tools,
                               GPtrArray      **errors)
{
  g_autoptr(GPtrArray) refused = NULL;
  g_autoptr(GPtrArray) added = NULL;
  guint position;

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), 0);
  g_return_val_if_fail (tools != NULL, 0);
  for (guint i = 0; i < tools->len; i++)
    g_return_val_if_fail (TB_IS_TOOL (g_ptr_array_index (tools, i)), 0);

  refused = g_ptr_array_new_full (tools->len, error_free0);
  added = g_ptr_array_new_full (tools->len, g_object_unref);

  g_rw_lock_writer_lock (&self->lock);
  position = self->tools->len;
  for (guint i = 0; i < tools->len; i++)
    {
      TbTool *tool = g_ptr_array_index (tools, i);
      g_autoptr(GError) check_error = NULL;
      GError *problem = NULL;

      if (!_tb_tool_check (tool, &check_error))
        problem = g_error_new_literal (TB_REGISTRY_ERROR, TB_REGISTRY_ERROR_INVALID_TOOL,
                                       check_error->message);
      else if (g_hash_table_contains (self->by_name, tb_tool_get_name (tool)))
        problem = duplicate_error_locked (self, tb_tool_get_name (tool));
      else
        {
          add_tool_locked (self, tool);
          g_ptr_array_add (added, g_object_ref (tool));
        }
      g_ptr_array_add (refused, problem);
    }
  g_rw_lock_writer_unlock (&self->lock);

  if (added->len > 0)
    {
      invalidate_caches (self);
      g_list_model_items_changed (G_LIST_MODEL (self), position, 0, added->len);
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_N_ITEMS]);
      for (guint i = 0; i < added->len; i++)
        g_signal_emit (self, _tb_tool_registry_signals [TB_TOOL_REGISTRY_TOOL_REGISTERED], 0,
                       g_ptr_array_index (added, i));
    }

  if (errors != NULL)
    *errors = g_steal_pointer (&refused);
  return added->len;
}

/**
 * tb_tool_registry_unregister:
 * @self: a registry
 * @name: the tool's name
 * @error: return location for a #TbRegistryError
 *
 * Removes a tool and emits #TbToolRegistry::tool-unregistered. Calls of the
 * tool already running finish with their result.
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
  g_signal_emit (self, _tb_tool_registry_signals [TB_TOOL_REGISTRY_TOOL_UNREGISTERED], 0, tool);

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

/**
 * tb_tool_registry_contains:
 * @self: a registry
 * @name: (nullable): a tool's name
 *
 * Says whether a tool of that name is registered. Safe from any thread.
 *
 * Returns: %TRUE when a tool named @name is registered
 */
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

/**
 * tb_tool_registry_get_size:
 * @self: a registry
 *
 * Counts the registered tools.
 *
 * Returns: the number of tools
 */
guint
tb_tool_registry_get_size (TbToolRegistry *self)
{
  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), 0);

  return g_list_model_get_n_items (G_LIST_MODEL (self));
}

/**
 * tb_tool_registry_get_names:
 * @self: a registry
 *
 * Lists the names of the registered tools. Safe from any thread.
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
 * Makes a registry of some of these tools, the same objects, for a run or a
 * scenario that offers a model fewer tools.
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
 * @self: a registry
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

/*
 * _tb_tool_registry_get_generation:
 * @self: a registry
 *
 * A number that changes whenever tb_tool_registry_get_model_tools() would
 * give a different snapshot, so that a caller asking once per model turn
 * can keep the one it has (and its definitions and wire names, built
 * once) while nothing changed.
 *
 * Returns: the registry's generation
 */
guint
_tb_tool_registry_get_generation (TbToolRegistry *self)
{
  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), 0);

  return (guint) g_atomic_int_get (&self->generation);
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

/**
 * tb_tool_registry_get_default_timeout_ms:
 * @self: a registry
 *
 * Gives the time limit of a call of a tool that has none of its own.
 *
 * Returns: the time limit in milliseconds
 */
guint
tb_tool_registry_get_default_timeout_ms (TbToolRegistry *self)
{
  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), 0);
  return self->default_timeout_ms;
}

/**
 * tb_tool_registry_set_default_timeout_ms:
 * @self: a registry
 * @timeout_ms: the time limit in milliseconds, more than 0
 *
 * Sets the time limit of a call of a tool that has none of its own
 * (#TbTool:timeout-ms). A call still running when it passes is cancelled
 * and ends in a %TB_TOOL_FAILURE_TIMEOUT result.
 */
void
tb_tool_registry_set_default_timeout_ms (TbToolRegistry *self,
                                         guint           timeout_ms)
{
  g_return_if_fail (TB_IS_TOOL_REGISTRY (self));
  g_return_if_fail (timeout_ms > 0);

  if (self->default_timeout_ms != timeout_ms)
    {
      self->default_timeout_ms = timeout_ms;
      g_atomic_int_inc (&self->generation);
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_DEFAULT_TIMEOUT_MS]);
    }
}
