/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* The redirect listener of a sign-in: where the browser comes back with
 * the authorization code (RFC 8252 §7.3). Private to the engine. */

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _TbOAuthLoopback TbOAuthLoopback;

TbOAuthLoopback *_tb_oauth_loopback_new              (GError             **error);
void             _tb_oauth_loopback_free             (TbOAuthLoopback     *self);
const char      *_tb_oauth_loopback_get_redirect_uri (TbOAuthLoopback     *self);
void             _tb_oauth_loopback_wait_async       (TbOAuthLoopback     *self,
                                                      const char          *state,
                                                      const char          *issuer,
                                                      gboolean             iss_required,
                                                      guint                timeout_ms,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
char            *_tb_oauth_loopback_wait_finish      (TbOAuthLoopback     *self,
                                                      GAsyncResult        *result,
                                                      GError             **error);
gboolean         _tb_oauth_loopback_deliver          (TbOAuthLoopback     *self,
                                                      const char          *uri);
gboolean         _tb_oauth_loopback_is_redirect      (TbOAuthLoopback     *self,
                                                      const char          *uri);
void             _tb_oauth_loopback_fail             (TbOAuthLoopback     *self,
                                                      GError              *error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TbOAuthLoopback, _tb_oauth_loopback_free)

G_END_DECLS
