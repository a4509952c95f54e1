/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define TB_MODEL_LIST_ERROR (tb_model_list_error_quark ())

/**
 * TbModelListError:
 * @TB_MODEL_LIST_ERROR_URL: the base URL is not an http(s) URL.
 * @TB_MODEL_LIST_ERROR_NETWORK: the endpoint did not answer.
 * @TB_MODEL_LIST_ERROR_HTTP: the endpoint answered with an HTTP error.
 * @TB_MODEL_LIST_ERROR_RESPONSE: the answer is not a model list.
 *
 * Errors of the "Test connection" and model list call.
 */
typedef enum
{
  TB_MODEL_LIST_ERROR_URL,
  TB_MODEL_LIST_ERROR_NETWORK,
  TB_MODEL_LIST_ERROR_HTTP,
  TB_MODEL_LIST_ERROR_RESPONSE,
} TbModelListError;

GQuark  tb_model_list_error_quark  (void);
char   *tb_model_list_build_url    (const char          *kind,
                                    const char          *base_url);
void    tb_model_list_fetch_async  (const char          *kind,
                                    const char          *base_url,
                                    const char          *api_key,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data);
GStrv   tb_model_list_fetch_finish (GAsyncResult        *result,
                                    char               **report,
                                    GError             **error);

G_END_DECLS
