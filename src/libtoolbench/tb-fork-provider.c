/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The provider of a fork: the recorded turns up to the fork, then a live
 * provider when there is one. */

#define G_LOG_DOMAIN "tb-replay"

#include "config.h"


#include "tb-replay-private.h"

#define TB_TYPE_FORK_PROVIDER (tb_fork_provider_get_type ())
G_DECLARE_FINAL_TYPE (TbForkProvider, tb_fork_provider, TB, FORK_PROVIDER, GObject)

struct _TbForkProvider
{
  GObject             parent_instance;
  TbScriptedProvider *scripted;
  TbProvider         *live;
  guint               n_scripted;
  guint               n_asked;
};

static void fork_provider_iface_init (TbProviderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TbForkProvider, tb_fork_provider, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (TB_TYPE_PROVIDER, fork_provider_iface_init))

static TbProvider *
fork_provider_current (TbForkProvider *self)
{
  if (self->live == NULL || self->n_asked < self->n_scripted)
    return TB_PROVIDER (self->scripted);
  return self->live;
}

static const char *
fork_provider_get_kind (TbProvider *provider)
{
  TbForkProvider *self = TB_FORK_PROVIDER (provider);

  return self->live != NULL ? tb_provider_get_kind (self->live) : "scripted";
}

static JsonObject *
fork_provider_describe (TbProvider *provider)
{
  TbForkProvider *self = TB_FORK_PROVIDER (provider);
  JsonObject *object = self->live != NULL ? tb_provider_describe (self->live) : json_object_new ();

  json_object_set_int_member (object, "replayed_turns", self->n_scripted);
  if (self->live == NULL)
    json_object_set_string_member (object, "kind", "scripted");
  return object;
}

static void
forward_complete (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  TbProviderResponse *response;

  response = tb_provider_complete_finish (TB_PROVIDER (object), result, &error);
  if (response == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, response, (GDestroyNotify) tb_provider_response_unref);
}

static void
fork_provider_complete_async (TbProvider          *provider,
                              TbProviderRequest   *request,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  TbForkProvider *self = TB_FORK_PROVIDER (provider);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  TbProvider *current = fork_provider_current (self);

  g_task_set_source_tag (task, fork_provider_complete_async);
  self->n_asked++;
  tb_provider_complete_async (current, request, cancellable, forward_complete,
                              g_steal_pointer (&task));
}

static TbProviderResponse *
fork_provider_complete_finish (TbProvider    *provider,
                               GAsyncResult  *result,
                               GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
fork_provider_iface_init (TbProviderInterface *iface)
{
  iface->get_kind = fork_provider_get_kind;
  iface->describe = fork_provider_describe;
  iface->complete_async = fork_provider_complete_async;
  iface->complete_finish = fork_provider_complete_finish;
}

static void
forward_wire_request (TbProvider *inner,
                      const char *url,
                      const char *body,
                      TbProvider *self)
{
  tb_provider_emit_wire_request (self, url, body);
}

static void
forward_wire_response (TbProvider *inner,
                       guint       status,
                       const char *body,
                       TbProvider *self)
{
  tb_provider_emit_wire_response (self, status, body);
}

static void
forward_text_delta (TbProvider *inner,
                    const char *delta,
                    TbProvider *self)
{
  tb_provider_emit_text_delta (self, delta);
}

static void
tb_fork_provider_dispose (GObject *object)
{
  TbForkProvider *self = (TbForkProvider *)object;

  if (self->scripted != NULL)
    g_signal_handlers_disconnect_by_data (self->scripted, self);
  if (self->live != NULL)
    g_signal_handlers_disconnect_by_data (self->live, self);
  g_clear_object (&self->scripted);
  g_clear_object (&self->live);

  G_OBJECT_CLASS (tb_fork_provider_parent_class)->dispose (object);
}

static void
tb_fork_provider_class_init (TbForkProviderClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tb_fork_provider_dispose;
}

static void
tb_fork_provider_init (TbForkProvider *self)
{
}

TbProvider *
_tb_replay_fork_provider_new (TbScriptedProvider *scripted,
                              TbProvider         *live,
                              guint               n_scripted)
{
  TbForkProvider *self = g_object_new (TB_TYPE_FORK_PROVIDER, NULL);

  self->scripted = g_object_ref (scripted);
  self->live = live != NULL ? g_object_ref (live) : NULL;
  self->n_scripted = n_scripted;

  g_signal_connect (scripted, "wire-request", G_CALLBACK (forward_wire_request), self);
  g_signal_connect (scripted, "wire-response", G_CALLBACK (forward_wire_response), self);
  g_signal_connect (scripted, "text-delta", G_CALLBACK (forward_text_delta), self);
  if (live != NULL)
    {
      g_signal_connect (live, "wire-request", G_CALLBACK (forward_wire_request), self);
      g_signal_connect (live, "wire-response", G_CALLBACK (forward_wire_response), self);
      g_signal_connect (live, "text-delta", G_CALLBACK (forward_text_delta), self);
    }

  return TB_PROVIDER (self);
}
