/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <libsoup/soup.h>

/* The port an in-test server listens on, read from its listening socket:
 * soup_server_get_uris() of libsoup 3.2 keeps a reference to each address
 * it reads, which LeakSanitizer reports. */
static inline guint
test_server_port (SoupServer *server)
{
  GSList *listeners = soup_server_get_listeners (server);
  guint port = 0;

  if (listeners != NULL)
    {
      g_autoptr(GSocketAddress) local = g_socket_get_local_address (listeners->data, NULL);

      if (local != NULL && G_IS_INET_SOCKET_ADDRESS (local))
        port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (local));
    }
  g_slist_free (listeners);
  g_assert_cmpuint (port, >, 0);
  return port;
}
