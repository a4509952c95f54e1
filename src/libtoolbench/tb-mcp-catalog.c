/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-text.h"
#include "tb-mcp-catalog.h"
#include "tb-mcp-client-private.h"
#include "tb-mcp-private.h"
#include "tb-message.h"

/* What a server offers besides tools: resources and resource templates
 * (listed page by page, read, subscribed to), prompts (listed, filled in)
 * and completions of their arguments. Each request first checks that the
 * server declared the capability, so that a person reads "offers no
 * prompts" rather than the server's "method not found". */

#define MAX_ITEMS 10000

/**
 * tb_mcp_client_has_capability:
 * @self: a connected client
 * @capability: a member of the server's `capabilities`, such as
 *   `resources`, `prompts`, `completions` or `logging`
 * @feature: (nullable): a flag within it, such as `subscribe` or
 *   `listChanged`
 *
 * Tells whether the server can do something before asking it to, so that a
 * program can leave out what the server does not offer.
 *
 * Returns: whether the server declared it when it initialized
 */
gboolean
tb_mcp_client_has_capability (TbMcpClient *self,
                              const char  *capability,
                              const char  *feature)
{
  JsonNode *capabilities;
  JsonObject *object;

  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), FALSE);
  g_return_val_if_fail (capability != NULL, FALSE);

  capabilities = tb_mcp_client_get_server_capabilities (self);
  if (capabilities == NULL || !JSON_NODE_HOLDS_OBJECT (capabilities))
    return FALSE;
  object = tb_json_object_get_object (json_node_get_object (capabilities), capability);
  if (object == NULL)
    return FALSE;
  return feature == NULL || tb_json_object_get_boolean (object, feature, FALSE);
}

/**
 * tb_mcp_client_get_server_icons:
 * @self: a connected client
 *
 * The icons the server named in its `serverInfo` when it initialized
 * (revision 2025-11-25): objects with `src` (a `data:`, `http:` or
 * `https:` URI), and optionally `mimeType`, `sizes` and `theme`, as the
 * server sent them. Entries that are not objects with a string `src` are
 * left out.
 *
 * Returns: (transfer full) (nullable): the icons, %NULL when the server
 *   named none
 */
JsonArray *
tb_mcp_client_get_server_icons (TbMcpClient *self)
{
  JsonNode *info;
  JsonArray *icons;
  g_autoptr(JsonArray) kept = NULL;

  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), NULL);

  info = tb_mcp_client_get_server_info (self);
  if (info == NULL || !JSON_NODE_HOLDS_OBJECT (info))
    return NULL;
  icons = tb_json_object_get_array (json_node_get_object (info), "icons");
  for (guint i = 0; icons != NULL && i < json_array_get_length (icons); i++)
    {
      JsonNode *element = json_array_get_element (icons, i);

      if (!JSON_NODE_HOLDS_OBJECT (element)
          || tb_json_object_get_string (json_node_get_object (element), "src") == NULL)
        continue;
      if (kept == NULL)
        kept = json_array_new ();
      json_array_add_element (kept, json_node_copy (element));
    }
  return g_steal_pointer (&kept);
}

typedef enum
{
  MISSING_RESOURCES,
  MISSING_SUBSCRIPTIONS,
  MISSING_PROMPTS,
  MISSING_COMPLETIONS,
} Missing;

static char *
describe_missing (TbMcpClient *self,
                  Missing      missing)
{
  const char *name = tb_mcp_client_get_name (self);

  switch (missing)
    {
    case MISSING_RESOURCES:
      return g_strdup_printf (_("The server “%s” offers no resources"), name);
    case MISSING_SUBSCRIPTIONS:
      return g_strdup_printf (_("The server “%s” offers no subscriptions to its resources"),
                              name);
    case MISSING_PROMPTS:
      return g_strdup_printf (_("The server “%s” offers no prompts"), name);
    case MISSING_COMPLETIONS:
    default:
      return g_strdup_printf (_("The server “%s” offers no completions"), name);
    }
}

/* A task that fails at once, saying what is @missing, when the server
 * lacks @capability. */
static GTask *
new_task (TbMcpClient         *self,
          const char          *capability,
          const char          *feature,
          Missing              missing,
          GCancellable        *cancellable,
          GAsyncReadyCallback  callback,
          gpointer             user_data,
          gpointer             source_tag)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  if (tb_mcp_client_get_state (self) == TB_MCP_CLIENT_STATE_CONNECTED &&
      !tb_mcp_client_has_capability (self, capability, feature))
    {
      g_autofree char *message = describe_missing (self, missing);

      g_task_return_new_error (task, TB_MCP_ERROR, TB_MCP_ERROR_UNSUPPORTED, "%s", message);
      g_object_unref (task);
      return NULL;
    }
  return task;
}

/* ---- listing, page by page ------------------------------------------------ */

/* What one kind of list is: the method that lists it page by page, the
 * member of the answer that holds a page's items, what a person calls them,
 * the capability the server needs, and how an item is made. */
typedef struct
{
  const char *method;
  const char *member;
  const char *what;
  const char *capability;
  Missing     missing;
  gpointer  (*make) (JsonObject *definition);
} ListKind;

typedef struct
{
  const ListKind *kind;
  GPtrArray      *items;
  char           *cursor;
  guint           pages;
  guint           left_out;
  gint64          ttl_ms;    /* the shortest a page of 2026-07-28 allows; -1 none yet */
} Listing;

/* A list of 2026-07-28 the server said may be kept (`ttlMs`), until then. */
typedef struct
{
  GPtrArray *items;
  gint64     until;          /* g_get_monotonic_time() */
} Kept;

static void
kept_free (gpointer data)
{
  Kept *kept = data;

  g_ptr_array_unref (kept->items);
  g_free (kept);
}

/**
 * _tb_mcp_catalog_forget:
 * @self: a client
 * @method: (nullable): the list method whose kept list goes, %NULL for all
 *
 * Called when the server says a list changed, and when a connection ends.
 */
void
_tb_mcp_catalog_forget (TbMcpClient *self,
                        const char  *method)
{
  if (self->kept_lists == NULL)
    return;
  if (method == NULL)
    g_hash_table_remove_all (self->kept_lists);
  else
    g_hash_table_remove (self->kept_lists, method);
}

static void
keep_list (TbMcpClient *self,
           Listing     *listing)
{
  Kept *kept;

  if (!self->stateless || listing->ttl_ms <= 0)
    return;
  if (self->kept_lists == NULL)
    self->kept_lists = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, kept_free);
  kept = g_new0 (Kept, 1);
  kept->items = g_ptr_array_ref (listing->items);
  kept->until = g_get_monotonic_time () + listing->ttl_ms * 1000;
  g_hash_table_replace (self->kept_lists, (gpointer) listing->kind->method, kept);
}

static GPtrArray *
kept_list (TbMcpClient    *self,
           const ListKind *kind)
{
  Kept *kept = self->kept_lists != NULL && self->stateless
               ? g_hash_table_lookup (self->kept_lists, kind->method) : NULL;

  if (kept == NULL || g_get_monotonic_time () >= kept->until)
    return NULL;
  return g_ptr_array_ref (kept->items);
}

static void
listing_free (gpointer data)
{
  Listing *listing = data;

  g_ptr_array_unref (listing->items);
  g_free (listing->cursor);
  g_free (listing);
}

static void request_page (GTask *task);

static void
page_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  TbMcpClient *self = TB_MCP_CLIENT (object);
  g_autoptr(GTask) task = user_data;
  Listing *listing = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = NULL;
  JsonArray *array;
  const char *cursor;

  answer = tb_mcp_client_request_finish (self, result, &error);
  if (answer == NULL)
    {
      g_task_return_new_error (task, error->domain, error->code,
                               /* Translators: "resources", "resource templates" or "prompts",
                                * then the server's error */
                               _("The server “%s” could not list its %s: %s"),
                               tb_mcp_client_get_name (self), _(listing->kind->what), error->message);
      return;
    }

  /* How long the list may be kept: the shortest any page allows. */
  {
    gint64 ttl = 0;

    if (!JSON_NODE_HOLDS_OBJECT (answer) ||
        !tb_json_object_get_int_in_range (json_node_get_object (answer), "ttlMs", 0,
                                          G_MAXINT32, &ttl, NULL))
      ttl = 0;
    listing->ttl_ms = listing->ttl_ms < 0 ? ttl : MIN (listing->ttl_ms, ttl);
  }
  array = JSON_NODE_HOLDS_OBJECT (answer)
          ? tb_json_object_get_array (json_node_get_object (answer), listing->kind->member) : NULL;
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      gpointer item = JSON_NODE_HOLDS_OBJECT (element)
                      ? listing->kind->make (json_node_get_object (element)) : NULL;

      if (item == NULL)
        listing->left_out++;
      else if (listing->items->len < MAX_ITEMS)
        g_ptr_array_add (listing->items, item);
      else
        g_object_unref (item);
    }

  cursor = JSON_NODE_HOLDS_OBJECT (answer)
           ? tb_json_object_get_string (json_node_get_object (answer), "nextCursor") : NULL;
  /* A server that hands out the same cursor again would be asked forever. */
  if (cursor != NULL && *cursor != '\0' && g_strcmp0 (cursor, listing->cursor) != 0 &&
      listing->pages < MAX_PAGES && listing->items->len < MAX_ITEMS)
    {
      g_free (listing->cursor);
      listing->cursor = g_strdup (cursor);
      request_page (g_steal_pointer (&task));
      return;
    }

  if (listing->left_out > 0)
    {
      g_autofree char *text =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "The server listed %u entry among its %s without the "
                                      "fields it needs; it was left out",
                                      "The server listed %u entries among its %s without the "
                                      "fields they need; they were left out",
                                      listing->left_out),
                         listing->left_out, _(listing->kind->what));

      _tb_mcp_client_log (self, "client", "warning", text);
    }
  keep_list (self, listing);
  g_task_return_pointer (task, g_ptr_array_ref (listing->items),
                         (GDestroyNotify) g_ptr_array_unref);
}

static void
request_page (GTask *task)
{
  Listing *listing = g_task_get_task_data (task);
  g_autoptr(JsonNode) params = NULL;

  if (listing->cursor != NULL)
    {
      JsonObject *object = json_object_new ();

      json_object_set_string_member (object, "cursor", listing->cursor);
      params = tb_json_node_take_object (object);
    }
  listing->pages++;
  tb_mcp_client_request_async (g_task_get_source_object (task), listing->kind->method, params,
                               g_task_get_cancellable (task), page_cb, task);
}

static void
list_all (TbMcpClient         *self,
          const ListKind      *kind,
          GCancellable        *cancellable,
          GAsyncReadyCallback  callback,
          gpointer             user_data,
          gpointer             source_tag)
{
  GTask *task = new_task (self, kind->capability, NULL, kind->missing, cancellable, callback,
                          user_data, source_tag);
  Listing *listing;
  GPtrArray *kept;

  if (task == NULL)
    return;
  /* Within the time the server allows, its list as it was. */
  if ((kept = kept_list (self, kind)) != NULL)
    {
      g_task_return_pointer (task, kept, (GDestroyNotify) g_ptr_array_unref);
      g_object_unref (task);
      return;
    }
  listing = g_new0 (Listing, 1);
  listing->ttl_ms = -1;
  listing->kind = kind;
  listing->items = g_ptr_array_new_with_free_func (g_object_unref);
  g_task_set_task_data (task, listing, listing_free);
  request_page (task);
}

static GPtrArray *
list_finish (TbMcpClient   *self,
             GAsyncResult  *result,
             gpointer       source_tag,
             GError       **error)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static gpointer
make_resource (JsonObject *definition)
{
  return tb_mcp_resource_new_from_json (definition, FALSE);
}

static gpointer
make_template (JsonObject *definition)
{
  return tb_mcp_resource_new_from_json (definition, TRUE);
}

static gpointer
make_prompt (JsonObject *definition)
{
  return tb_mcp_prompt_new_from_json (definition);
}

static const ListKind resources = {
  "resources/list", "resources", N_("resources"), "resources", MISSING_RESOURCES,
  make_resource,
};

static const ListKind resource_templates = {
  "resources/templates/list", "resourceTemplates", N_("resource templates"), "resources",
  MISSING_RESOURCES, make_template,
};

static const ListKind prompts = {
  "prompts/list", "prompts", N_("prompts"), "prompts", MISSING_PROMPTS, make_prompt,
};

/**
 * tb_mcp_client_list_resources_async:
 * @self: a connected client
 * @cancellable: (nullable): a cancellable
 * @callback: called with the list
 * @user_data: closure for @callback
 *
 * Sends `resources/list`, following `nextCursor` page by page (at most
 * 1,000 pages and 10,000 resources).
 */
void
tb_mcp_client_list_resources_async (TbMcpClient         *self,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_return_if_fail (TB_IS_MCP_CLIENT (self));

  list_all (self, &resources, cancellable, callback, user_data,
            tb_mcp_client_list_resources_async);
}

/**
 * tb_mcp_client_list_resources_finish:
 * @self: a client
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #TbMcpError
 *
 * Ends tb_mcp_client_list_resources_async(), which follows every page of the
 * listing.
 *
 * Returns: (transfer container) (element-type TbMcpResource): the resources
 */
GPtrArray *
tb_mcp_client_list_resources_finish (TbMcpClient   *self,
                                     GAsyncResult  *result,
                                     GError       **error)
{
  return list_finish (self, result, tb_mcp_client_list_resources_async, error);
}

/**
 * tb_mcp_client_list_resource_templates_async:
 * @self: a connected client
 * @cancellable: (nullable): a cancellable
 * @callback: called with the list
 * @user_data: closure for @callback
 *
 * Sends `resources/templates/list`, page by page.
 */
void
tb_mcp_client_list_resource_templates_async (TbMcpClient         *self,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data)
{
  g_return_if_fail (TB_IS_MCP_CLIENT (self));

  list_all (self, &resource_templates, cancellable, callback, user_data,
            tb_mcp_client_list_resource_templates_async);
}

/**
 * tb_mcp_client_list_resource_templates_finish:
 * @self: a client
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #TbMcpError
 *
 * Ends tb_mcp_client_list_resource_templates_async(), which follows every
 * page of the listing.
 *
 * Returns: (transfer container) (element-type TbMcpResource): the templates
 */
GPtrArray *
tb_mcp_client_list_resource_templates_finish (TbMcpClient   *self,
                                              GAsyncResult  *result,
                                              GError       **error)
{
  return list_finish (self, result, tb_mcp_client_list_resource_templates_async, error);
}

/**
 * tb_mcp_client_list_prompts_async:
 * @self: a connected client
 * @cancellable: (nullable): a cancellable
 * @callback: called with the list
 * @user_data: closure for @callback
 *
 * Sends `prompts/list`, page by page.
 */
void
tb_mcp_client_list_prompts_async (TbMcpClient         *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_return_if_fail (TB_IS_MCP_CLIENT (self));

  list_all (self, &prompts, cancellable, callback, user_data,
            tb_mcp_client_list_prompts_async);
}

/**
 * tb_mcp_client_list_prompts_finish:
 * @self: a client
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #TbMcpError
 *
 * Ends tb_mcp_client_list_prompts_async(), which follows every page of the
 * listing.
 *
 * Returns: (transfer container) (element-type TbMcpPrompt): the prompts
 */
GPtrArray *
tb_mcp_client_list_prompts_finish (TbMcpClient   *self,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  return list_finish (self, result, tb_mcp_client_list_prompts_async, error);
}

/* ---- single requests ------------------------------------------------------ */

/* The answer's object, or an error that says what was asked. */
static void
answer_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  TbMcpClient *self = TB_MCP_CLIENT (object);
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = tb_mcp_client_request_finish (self, result, &error);
  const char *what = g_task_get_task_data (task);

  if (answer == NULL)
    g_task_return_new_error (task, error->domain, error->code,
                             /* Translators: "read “test://…”", then the server's error */
                             _("The server “%s” could not %s: %s"),
                             tb_mcp_client_get_name (self), what, error->message);
  else if (!JSON_NODE_HOLDS_OBJECT (answer))
    g_task_return_new_error (task, TB_MCP_ERROR, TB_MCP_ERROR_PROTOCOL,
                             _("The server “%s” answered the request to %s with something "
                               "that is not an object"),
                             tb_mcp_client_get_name (self), what);
  else
    g_task_return_pointer (task, json_object_ref (json_node_get_object (answer)),
                           (GDestroyNotify) json_object_unref);
}

static void
send_request (GTask      *task,
              const char *method,
              JsonObject *params,
              char       *what)
{
  g_autoptr(JsonNode) node = tb_json_node_take_object (params);

  g_task_set_task_data (task, what, g_free);
  tb_mcp_client_request_async (g_task_get_source_object (task), method, node,
                               g_task_get_cancellable (task), answer_cb, task);
}

static JsonObject *
answer_finish (TbMcpClient   *self,
               GAsyncResult  *result,
               gpointer       source_tag,
               GError       **error)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * tb_mcp_client_read_resource_async:
 * @self: a connected client
 * @uri: the resource's URI (a template's, expanded)
 * @cancellable: (nullable): a cancellable
 * @callback: called with the contents
 * @user_data: closure for @callback
 *
 * Sends `resources/read`.
 */
void
tb_mcp_client_read_resource_async (TbMcpClient         *self,
                                   const char          *uri,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  GTask *task;
  JsonObject *params;

  g_return_if_fail (TB_IS_MCP_CLIENT (self));
  g_return_if_fail (uri != NULL);

  task = new_task (self, "resources", NULL, MISSING_RESOURCES,
                   cancellable, callback, user_data, tb_mcp_client_read_resource_async);
  if (task == NULL)
    return;
  params = json_object_new ();
  json_object_set_string_member (params, "uri", uri);
  /* Translators: what the client was doing; %s is a URI */
  send_request (task, "resources/read", params, g_strdup_printf (_("read “%s”"), uri));
}

/**
 * tb_mcp_client_read_resource_finish:
 * @self: a client
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #TbMcpError
 *
 * Each entry has `uri`, `mimeType` and `text` or a base64 `blob`; see
 * tb_mcp_resource_contents_get_bytes().
 *
 * Returns: (transfer full): the `contents`
 */
JsonArray *
tb_mcp_client_read_resource_finish (TbMcpClient   *self,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  g_autoptr(JsonObject) answer = answer_finish (self, result, tb_mcp_client_read_resource_async,
                                                error);
  JsonArray *contents;

  if (answer == NULL)
    return NULL;
  contents = tb_json_object_get_array (answer, "contents");
  if (contents == NULL)
    {
      g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_PROTOCOL,
                   _("The server “%s” read the resource but sent no “contents”"),
                   tb_mcp_client_get_name (self));
      return NULL;
    }
  return json_array_ref (contents);
}

/**
 * tb_mcp_client_subscribe_resource_async:
 * @self: a connected client
 * @uri: the resource
 * @subscribe: %TRUE for `resources/subscribe`, %FALSE for
 *   `resources/unsubscribe`
 * @cancellable: (nullable): a cancellable
 * @callback: called when the server answered
 * @user_data: closure for @callback
 *
 * While subscribed, #TbMcpClient::resource-updated says when the resource
 * changed.
 */
void
tb_mcp_client_subscribe_resource_async (TbMcpClient         *self,
                                        const char          *uri,
                                        gboolean             subscribe,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  GTask *task;
  JsonObject *params;

  g_return_if_fail (TB_IS_MCP_CLIENT (self));
  g_return_if_fail (uri != NULL);

  task = new_task (self, "resources", "subscribe",
                   MISSING_SUBSCRIPTIONS,
                   cancellable, callback, user_data, tb_mcp_client_subscribe_resource_async);
  if (task == NULL)
    return;
  /* 2026-07-28 has no resources/subscribe: the subscription stream names
   * the resources (tb-mcp-listen.c). */
  if (self->stateless)
    {
      if (subscribe)
        _tb_mcp_listen_add_resource (self, uri);
      else
        _tb_mcp_listen_remove_resource (self, uri);
      g_task_return_pointer (task, json_object_new (), (GDestroyNotify) json_object_unref);
      g_object_unref (task);
      return;
    }
  params = json_object_new ();
  json_object_set_string_member (params, "uri", uri);
  send_request (task, subscribe ? "resources/subscribe" : "resources/unsubscribe", params,
                g_strdup_printf (subscribe ? _("subscribe to “%s”")
                                           : _("unsubscribe from “%s”"), uri));
}

/**
 * tb_mcp_client_subscribe_resource_finish:
 * @self: a client
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #TbMcpError
 *
 * Ends tb_mcp_client_subscribe_resource_async(). Once subscribed,
 * #TbMcpClient::resource-updated says when the resource changed.
 *
 * Returns: %TRUE when the server accepted
 */
gboolean
tb_mcp_client_subscribe_resource_finish (TbMcpClient   *self,
                                         GAsyncResult  *result,
                                         GError       **error)
{
  g_autoptr(JsonObject) answer =
    answer_finish (self, result, tb_mcp_client_subscribe_resource_async, error);

  return answer != NULL;
}

/**
 * tb_mcp_client_get_prompt_async:
 * @self: a connected client
 * @name: the prompt's name
 * @arguments: (nullable): string values by argument name; check them with
 *   tb_mcp_prompt_check_arguments() first
 * @cancellable: (nullable): a cancellable
 * @callback: called with the result
 * @user_data: closure for @callback
 *
 * Sends `prompts/get`.
 */
void
tb_mcp_client_get_prompt_async (TbMcpClient         *self,
                                const char          *name,
                                JsonObject          *arguments,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  GTask *task;
  JsonObject *params;

  g_return_if_fail (TB_IS_MCP_CLIENT (self));
  g_return_if_fail (name != NULL);

  task = new_task (self, "prompts", NULL, MISSING_PROMPTS,
                   cancellable, callback, user_data, tb_mcp_client_get_prompt_async);
  if (task == NULL)
    return;
  params = json_object_new ();
  json_object_set_string_member (params, "name", name);
  if (arguments != NULL)
    json_object_set_object_member (params, "arguments", json_object_ref (arguments));
  /* Translators: what the client was doing; %s is a prompt's name */
  send_request (task, "prompts/get", params, g_strdup_printf (_("fill in the prompt “%s”"),
                                                               name));
}

/**
 * tb_mcp_client_get_prompt_finish:
 * @self: a client
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #TbMcpError
 *
 * Ends tb_mcp_client_get_prompt_async().
 *
 * Returns: (transfer full): the result: `description` and `messages`; see
 *   tb_mcp_prompt_result_to_messages()
 */
JsonObject *
tb_mcp_client_get_prompt_finish (TbMcpClient   *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  return answer_finish (self, result, tb_mcp_client_get_prompt_async, error);
}

/**
 * tb_mcp_client_complete_async:
 * @self: a connected client
 * @kind: what is completed
 * @reference: the prompt's name, or the template's URI template
 * @argument: the argument's or variable's name
 * @value: what the person typed so far
 * @context: (nullable): the values of the other arguments, by name
 * @cancellable: (nullable): a cancellable
 * @callback: called with the suggestions
 * @user_data: closure for @callback
 *
 * Sends `completion/complete`.
 */
void
tb_mcp_client_complete_async (TbMcpClient         *self,
                              TbMcpCompletionKind  kind,
                              const char          *reference,
                              const char          *argument,
                              const char          *value,
                              JsonObject          *context,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  GTask *task;
  JsonObject *params;
  JsonObject *ref;
  JsonObject *arg;

  g_return_if_fail (TB_IS_MCP_CLIENT (self));
  g_return_if_fail (reference != NULL);
  g_return_if_fail (argument != NULL);

  task = new_task (self, "completions", NULL, MISSING_COMPLETIONS,
                   cancellable, callback, user_data, tb_mcp_client_complete_async);
  if (task == NULL)
    return;
  params = json_object_new ();
  ref = json_object_new ();
  if (kind == TB_MCP_COMPLETION_PROMPT)
    {
      json_object_set_string_member (ref, "type", "ref/prompt");
      json_object_set_string_member (ref, "name", reference);
    }
  else
    {
      json_object_set_string_member (ref, "type", "ref/resource");
      json_object_set_string_member (ref, "uri", reference);
    }
  json_object_set_object_member (params, "ref", ref);
  arg = json_object_new ();
  json_object_set_string_member (arg, "name", argument);
  json_object_set_string_member (arg, "value", value != NULL ? value : "");
  json_object_set_object_member (params, "argument", arg);
  if (context != NULL)
    {
      JsonObject *wrapper = json_object_new ();

      json_object_set_object_member (wrapper, "arguments", json_object_ref (context));
      json_object_set_object_member (params, "context", wrapper);
    }
  /* Translators: what the client was doing; %s is an argument's name */
  send_request (task, "completion/complete", params,
                g_strdup_printf (_("complete “%s”"), argument));
}

/**
 * tb_mcp_client_complete_finish:
 * @self: a client
 * @result: the result
 * @has_more: (out) (optional): whether the server has more suggestions
 * @error: return location for an error
 *
 * Ends tb_mcp_client_complete_async(), which asks the server how an
 * argument of a prompt or a resource template may go on.
 *
 * Returns: (transfer full): the suggestions, at most 100 as the
 *   specification says; strings only
 */
char **
tb_mcp_client_complete_finish (TbMcpClient   *self,
                               GAsyncResult  *result,
                               gboolean      *has_more,
                               GError       **error)
{
  g_autoptr(JsonObject) answer = answer_finish (self, result, tb_mcp_client_complete_async,
                                                error);
  g_autoptr(GStrvBuilder) builder = NULL;
  JsonObject *completion;
  JsonArray *values;

  if (has_more != NULL)
    *has_more = FALSE;
  if (answer == NULL)
    return NULL;

  builder = g_strv_builder_new ();
  completion = tb_json_object_get_object (answer, "completion");
  values = completion != NULL ? tb_json_object_get_array (completion, "values") : NULL;
  for (guint i = 0; values != NULL && i < json_array_get_length (values) && i < 100; i++)
    {
      JsonNode *element = json_array_get_element (values, i);

      if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING)
        g_strv_builder_add (builder, json_node_get_string (element));
    }
  if (has_more != NULL && completion != NULL)
    *has_more = tb_json_object_get_boolean (completion, "hasMore", FALSE);
  return g_strv_builder_end (builder);
}

/* ---- prompts into a conversation ------------------------------------------ */

/* What a model reads of one content block of a prompt message. */
static char *
content_to_text (JsonObject *content)
{
  const char *type = tb_json_object_get_string (content, "type");
  const char *mime = tb_json_object_get_string (content, "mimeType");

  if (g_strcmp0 (type, "text") == 0)
    return g_strdup (tb_json_object_get_string (content, "text"));
  if (g_strcmp0 (type, "resource") == 0)
    {
      JsonObject *resource = tb_json_object_get_object (content, "resource");
      const char *text = resource != NULL ? tb_json_object_get_string (resource, "text") : NULL;

      if (text != NULL)
        return g_strdup (text);
      /* Translators: a binary resource in a prompt; %s is its URI */
      return g_strdup_printf (_("[resource %s]"),
                              resource != NULL ? tb_json_object_get_string (resource, "uri")
                                               : "?");
    }
  if (g_strcmp0 (type, "resource_link") == 0)
    /* Translators: %s is a URI */
    return g_strdup_printf (_("[resource link %s]"), tb_json_object_get_string (content, "uri"));
  if (g_strcmp0 (type, "image") == 0 || g_strcmp0 (type, "audio") == 0)
    /* Translators: "image" or "audio", then a MIME type */
    return g_strdup_printf (_("[%s %s]"), type, mime != NULL ? mime : "");
  /* A kind of content this client does not know goes as its JSON, kept
   * short, rather than be dropped. */
  {
    g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), content);
    g_autofree char *json = tb_json_to_string (node, FALSE);

    return tb_text_shorten (json, -1, 4097);
  }
}

/**
 * tb_mcp_prompt_result_to_messages:
 * @result: the result of tb_mcp_client_get_prompt_finish()
 * @error: return location for an error
 *
 * The messages of a filled-in prompt as the start of a conversation. Text
 * and embedded text resources become the message's text; images, audio,
 * binary resources and resource links are named in brackets, since the
 * conversation carries text; content of a kind the client does not know
 * goes as its JSON (at most 4 KiB).
 *
 * Returns: (transfer container) (element-type TbMessage): the messages
 */
GPtrArray *
tb_mcp_prompt_result_to_messages (JsonObject  *result,
                                  GError     **error)
{
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_object_unref);
  JsonArray *array;

  g_return_val_if_fail (result != NULL, NULL);

  array = tb_json_object_get_array (result, "messages");
  if (array == NULL)
    {
      g_set_error_literal (error, TB_MCP_ERROR, TB_MCP_ERROR_PROTOCOL,
                           _("The prompt came without “messages”"));
      return NULL;
    }

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      JsonObject *message = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element)
                                                             : NULL;
      const char *role = message != NULL ? tb_json_object_get_string (message, "role") : NULL;
      JsonNode *content = message != NULL ? json_object_get_member (message, "content") : NULL;
      g_autoptr(GString) text = g_string_new (NULL);
      JsonArray *blocks = NULL;
      g_autoptr(JsonArray) single = NULL;

      if (g_strcmp0 (role, "user") != 0 && g_strcmp0 (role, "assistant") != 0)
        {
          g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_PROTOCOL,
                       _("Message %u of the prompt has the role “%s”; only “user” and "
                         "“assistant” can start a conversation"),
                       i + 1, role != NULL ? role : "");
          return NULL;
        }
      if (content != NULL && JSON_NODE_HOLDS_ARRAY (content))
        blocks = json_node_get_array (content);
      else if (content != NULL && JSON_NODE_HOLDS_OBJECT (content))
        {
          single = json_array_new ();
          json_array_add_element (single, json_node_copy (content));
          blocks = single;
        }
      for (guint j = 0; blocks != NULL && j < json_array_get_length (blocks); j++)
        {
          JsonNode *block = json_array_get_element (blocks, j);
          g_autofree char *part = JSON_NODE_HOLDS_OBJECT (block)
                                  ? content_to_text (json_node_get_object (block)) : NULL;

          if (part == NULL)
            continue;
          if (text->len > 0)
            g_string_append (text, "\n\n");
          g_string_append (text, part);
        }
      g_ptr_array_add (messages,
                       tb_message_new (g_str_equal (role, "user") ? TB_MESSAGE_ROLE_USER
                                                                  : TB_MESSAGE_ROLE_ASSISTANT,
                                       text->str));
    }
  return g_steal_pointer (&messages);
}
