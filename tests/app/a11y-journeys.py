#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Journeys through the running app as a keyboard and screen reader user
# takes them: real key presses (xdotool) and what the accessibility bus
# says (pyatspi). Usage: a11y-journeys.py APP-NAME JOURNEY; run by
# tests/app/a11y-smoke.sh, which also fails on a GTK warning in the app's
# stderr.

import importlib.util
import os
import subprocess
import sys
import time

import pyatspi

_spec = importlib.util.spec_from_file_location(
    "a11y_drive", os.path.join(os.path.dirname(os.path.abspath(__file__)), "a11y-drive.py"))
drive = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(drive)
find, walk, click, control = drive.find, drive.walk, drive.click, drive.control


class Failed(Exception):
    pass


def key(*names):
    for name in names:
        subprocess.run(["xdotool", "key", "--clearmodifiers", name], check=True)
        time.sleep(0.3)


def type_text(text):
    subprocess.run(["xdotool", "type", "--delay", "5", text], check=True)
    time.sleep(0.3)


def focused(app):
    for node in walk(app):
        try:
            if node.getState().contains(pyatspi.STATE_FOCUSED):
                return node
        except Exception:
            pass
    return None


def focused_named(name):
    def predicate(node):
        return node.name == name and node.getState().contains(pyatspi.STATE_FOCUSED)
    return predicate


def focused_name(app):
    node = focused(app)
    return node.name if node is not None else None


def tab_to(app, name, limit=40):
    """Presses Tab until the control named NAME has the focus."""
    for _ in range(limit):
        if focused_name(app) == name:
            return
        key("Tab")
    raise Failed("Tab never reached “%s” (the focus is on “%s”)"
                 % (name, focused_name(app)))


def expect(app, predicate, what, timeout=10):
    node = find(app, predicate, timeout)
    if node is None:
        raise Failed(what)
    return node


def named(name):
    return lambda n: n.name == name


def starts(prefix):
    return lambda n: n.name.startswith(prefix)


def state(app, text, timeout=10):
    expect(app, named(text), "The Loop page never said “%s”" % text, timeout)


def open_loop(app):
    key("alt+3")
    expect(app, control("Step"), "No Step button on the Loop page")


# Tab from the Loop page's first control reaches every control in reading
# order and leaves the page: no control keeps the focus.
def journey_tab_order(app):
    open_loop(app)
    tab_to(app, "Provider")
    wanted = ["Provider", "Use a Script…", "Max iterations", "System prompt", "User message",
              "Breakpoints", "Calls nobody decided", "Tools to offer", "Step", "Continue",
              "Extend the cap by", "New Run", "The model's next turn", "Send as Model",
              "Tools offered to the model"]
    seen = [focused_name(app)]
    for _ in wanted[1:]:
        key("Tab")
        seen.append(focused_name(app))
    print("# Tab order:", " → ".join(str(n) for n in seen))
    if seen != wanted:
        raise Failed("Tab visits %s instead of %s" % (seen, wanted))
    key("Tab")
    if focused_name(app) in wanted:
        raise Failed("Tab stays on the Loop page after its last control")


# The sidebar by keyboard: Tab into the list, Down to the second tool,
# Enter opens it, Ctrl+Return runs it.
def journey_sidebar_run(app):
    key("ctrl+f")
    tab_to(app, "Source")
    key("Tab", "Down", "Return")
    expect(app, named("draft.get"), "Enter did not open draft.get")
    key("ctrl+Return")
    expect(app, starts("Succeeded"), "Ctrl+Return did not run the tool picked in the sidebar")


# Approve after editing runs the edit: the result shows the edited value.
def journey_edit_approve(app):
    open_loop(app)
    key("F6")
    state(app, "Calls wait for your decision")
    key("alt+e")
    tab_to(app, "a", 15)
    key("ctrl+a")
    type_text("40")
    key("alt+a")
    key("F6")
    expect(app, named("Result of add: 43\nEdited by you: ran with {\"a\":40,\"b\":3} "
                      "instead of {\"a\":2,\"b\":3}"),
           "The result does not show the edited call's value")


# The demo from Step to the final answer with the keyboard only: Edit,
# Approve and Reject by their shortcuts.
def journey_keyboard_demo(app):
    open_loop(app)
    key("F6")
    state(app, "Calls wait for your decision")
    key("alt+e", "alt+a")
    key("F6")
    expect(app, starts("Result of add: 5"), "Alt+A did not approve the add call")
    # A conversation row, which takes the focus, is read as what it says.
    expect(app, lambda n: n.name.startswith("Result of add: 5") and n.getRoleName() == "list item",
           "The conversation's row has no name")
    key("F6")
    expect(app, starts("Calls echo"), "The model did not ask for echo")
    key("alt+j")
    key("F6")
    expect(app, starts("Error from echo:"), "Alt+J did not reject the echo call")
    key("F6")
    state(app, "Finished")
    answer = expect(app, starts("Model: 2 + 3 = 5."), "The final answer is not readable")
    print("# Final answer:", answer.name)


# Enter in the confirmation dialog decides nothing: the proposal stays.
def journey_confirm_enter(app):
    open_loop(app)
    tab_to(app, "The model's next turn")
    type_text('{"role":"assistant","tool_calls":[{"id":"p_1","name":"facts.propose","arguments":'
              '{"key":"city","value":"Lyon","reason":"The user moved"}}]}')
    key("Return")
    state(app, "Calls wait for your decision")
    key("F6")
    key("alt+4")
    review = expect(app, lambda n: n.name.startswith("Review") and drive.has_action(n),
                    "No Review button on the Facts page")
    click(review)
    expect(app, starts("Change the Fact"), "The confirmation dialog did not open")
    key("Return")
    time.sleep(1)
    expect(app, starts("Change the Fact"), "Enter closed the confirmation dialog", 2)
    key("Escape")
    time.sleep(0.5)
    expect(app, lambda n: n.name.startswith("Review") and drive.has_action(n),
           "The proposal is no longer waiting after Enter", 3)


# The shortcuts window opens with Ctrl+? and lists the Loop's keys in its
# own section; GTK warns of nothing (a11y-smoke.sh reads the stderr).
def journey_shortcuts(app):
    key("ctrl+question")
    expect(app, named("Search tools"), "Ctrl+? did not open the shortcuts window")
    expect(app, named("Tools and Calls"), "The shortcuts window has no section menu")
    time.sleep(0.5)
    key("Escape")


def focused_role(app):
    node = focused(app)
    return node.getRoleName() if node is not None else None


def resize(title, width, height):
    windows = subprocess.run(["xdotool", "search", "--name", title], capture_output=True,
                             text=True).stdout.split()
    for window in windows:
        subprocess.run(["xdotool", "windowsize", window, str(width), str(height)], check=True)
    time.sleep(0.7)


def fill_mcp_server(app):
    """Tabs through the controls of the Add MCP Server page (Back, Save,
    the name, the switch, the entry), typing a name and an entry that goes
    from a local command to a remote URL with headers over several lines
    and back, then Tab out of the entry."""
    typed_name = False
    for _ in range(15):
        node = focused(app)
        name = node.name if node is not None else None
        if not typed_name and (node is None or (focused_role(app) == "text" and name == "")):
            type_text("files")
            typed_name = True
        elif name == "Server entry (JSON)":
            for entry in ('{"command": "npx", "args": ["-y", '
                          '"@modelcontextprotocol/server-filesystem", "/tmp"]}',
                          '{\n"url": "http://127.0.0.1:9/mcp",\n"headers": {\n'
                          + "".join('"X-%d": "%d",\n' % (i, i) for i in range(12)) + '}\n}',
                          '{"command": "cat"}'):
                key("ctrl+a")
                type_text(entry)
            key("Tab")
            if focused_name(app) == "Server entry (JSON)":
                raise Failed("Tab stays in the server's entry")
            return
        key("Tab")
    raise Failed("Tab never reached the server's entry (the focus is on “%s”)"
                 % focused_name(app))


# The Add MCP Server page of the preferences by keyboard, from the
# preferences and from the welcome page, at 600 px wide as well: GTK
# warns of nothing while the server's entry grows (a11y-smoke.sh reads the
# stderr).
def journey_add_mcp_server(app):
    key("ctrl+comma")
    tools = expect(app, lambda n: n.name == "Tools" and n.getRoleName() == "page tab",
                   "The preferences have no Tools page")
    click(tools)
    add = expect(app, lambda n: n.name.endswith("Add Server") and n.getRoleName() == "push button",
                 "The Tools page has no Add Server button")
    click(add)
    expect(app, named("Server entry (JSON)"), "Add Server did not open the server's page")
    time.sleep(0.5)
    fill_mcp_server(app)
    resize("Preferences", 600, 500)
    key("Escape", "Escape")
    add = expect(app, lambda n: n.name.endswith("Add an MCP Server…")
                 and n.getRoleName() == "push button",
                 "The welcome page has no Add an MCP Server button")
    click(add)
    expect(app, named("Server entry (JSON)"), "The welcome page did not open the server's page")
    time.sleep(0.5)
    resize("Preferences", 600, 500)
    fill_mcp_server(app)
    key("Escape", "Escape")


# A running server's window, opened from its row in the preferences: the
# Messages page lists the handshake, and a screen reader names its rows and
# every control. Ctrl+W closes it.
def journey_server_messages(app):
    key("ctrl+comma")
    tools = expect(app, lambda n: n.name == "Tools" and n.getRoleName() == "page tab",
                   "The preferences have no Tools page")
    click(tools)
    show = expect(app, lambda n: n.name == "Show Server Log and Messages"
                  and n.getRoleName() == "push button",
                  "The running server's row has no button for its log and messages", 30)
    click(show)
    expect(app, starts("Sent initialize #2, "),
           "The Messages page does not list the initialize request")
    expect(app, starts("Received result of tools/list #3, "),
           "The Messages page does not list the answer to tools/list")
    for name in ("Messages", "Search Messages", "Direction", "Method", "Copy Message",
                 "Export Messages", "Message"):
        expect(app, named(name), "The Messages page has no control named “%s”" % name)
    time.sleep(0.5)
    key("ctrl+w")
    time.sleep(0.5)
    key("Escape")


# A folder of 300 tools: the window comes first and the tools after it;
# the tool open when the app last closed opens again once it is there,
# search finds the folder's tools, Down and Enter open the first, and Up
# goes back to the search.
def journey_tool_folder(app):
    def on_tool_page(name):
        def predicate(node):
            if node.name != name:
                return False
            parent = node.parent
            while parent is not None:
                if parent.name == "TbToolPage":
                    return True
                parent = parent.parent
            return False
        return predicate
    expect(app, on_tool_page("tool_0150"),
           "The tool open when the app last closed (tool_0150) did not open again", 30)

    def counts_folder(node):
        words = node.name.split()
        return (len(words) == 2 and words[1] == "tools" and words[0].isdigit()
                and int(words[0]) >= 300)
    expect(app, counts_folder, "The tool count does not include the folder's 300 tools")
    key("ctrl+f")
    type_text("tool_02")
    expect(app, starts("100 of "), "Searching “tool_02” does not find the folder's 100 such tools")
    # Down goes from the search to the first match, and Enter opens it.
    key("Down", "Return")
    expect(app, on_tool_page("tool_0200"),
           "Down in the search and Enter did not open the first match, tool_0200")
    # Up on the first match goes back to the search.
    key("Up")
    if find(app, focused_named("Search tools"), 10) is None:
        raise Failed("Up on the first match moved the focus to “%s”, not the search"
                     % focused_name(app))


JOURNEYS = {
    "shortcuts": journey_shortcuts,
    "tab-order": journey_tab_order,
    "sidebar-run": journey_sidebar_run,
    "edit-approve": journey_edit_approve,
    "keyboard-demo": journey_keyboard_demo,
    "confirm-enter": journey_confirm_enter,
    "add-mcp-server": journey_add_mcp_server,
    "server-messages": journey_server_messages,
    "tool-folder": journey_tool_folder,
}


def main():
    app = drive.find_app(sys.argv[1], 30)
    if app is None:
        print("# The app did not appear on the accessibility bus")
        return 1
    # The window maps and takes the keyboard.
    expect(app, control("Loop"), "No Loop tab")
    time.sleep(0.5)
    # The first window draws its icons from PNGs: an SVG renderer is a
    # library an empty window does not load (bench/start).
    with open("/proc/%d/maps" % app.get_process_id()) as maps:
        if "librsvg" in maps.read():
            print("# The first window loaded an SVG renderer")
            return 1
    try:
        JOURNEYS[sys.argv[2]](app)
    except Failed as failure:
        print("#", failure)
        if os.environ.get("A11Y_SCREENSHOT"):
            subprocess.run(["import", "-window", "root", os.environ["A11Y_SCREENSHOT"]])
        return 1
    return 0


sys.exit(main())
