#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Renders the app's SVG icons to the PNGs the app's resources hold (see
# src/app/toolbench.gresource.xml): the app icon at each size the window
# icon list uses, and the symbolic icon as a 256-pixel mask. Run from the
# source root after changing either SVG.

import gi

gi.require_version("GdkPixbuf", "2.0")
from gi.repository import GdkPixbuf  # noqa: E402

ICONS = "data/icons/hicolor"
APP = "io.github.toolbench.Toolbench"


def render(svg, size, png):
    pixbuf = GdkPixbuf.Pixbuf.new_from_file_at_size(svg, size, size)
    pixbuf.savev(png, "png", ["compression"], ["9"])


for size in (16, 32, 48, 128, 256):
    render(f"{ICONS}/scalable/apps/{APP}.svg", size, f"{ICONS}/{size}x{size}/apps/{APP}.png")
render(f"{ICONS}/symbolic/apps/{APP}-symbolic.svg", 256, f"{ICONS}/symbolic/apps/{APP}-symbolic.png")
