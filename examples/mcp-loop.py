#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Drives Toolbench from Python: starts an MCP server, runs a scripted model
# that calls one of its tools, saves the run as a trace and replays it
# offline, printing what happened.
#
#   python3 examples/mcp-loop.py TOOL ARGUMENTS_JSON TRACE_FILE -- COMMAND [ARG…]
#
# for example
#
#   python3 examples/mcp-loop.py echo '{"message": "hi"}' /tmp/run.jsonl -- \
#       npx @modelcontextprotocol/server-everything
#
# Needs the Toolbench typelib (GI_TYPELIB_PATH when it is not installed)
# and PyGObject (python3-gi).

import json
import sys

import gi

gi.require_version('Toolbench', '1')
gi.require_version('Json', '1.0')
from gi.repository import Gio, GLib, Json, Toolbench  # noqa: E402


def wait_for(box, key):
    context = GLib.MainContext.default()
    while key not in box:
        context.iteration(True)
    return box[key]


def main(argv):
    if '--' not in argv or argv.index('--') != 4 or len(argv) < 6:
        print(__doc__ or 'usage: mcp-loop.py TOOL ARGUMENTS_JSON TRACE_FILE -- COMMAND [ARG…]',
              file=sys.stderr)
        return 2
    tool, arguments, trace_path = argv[1], argv[2], argv[3]
    command = argv[5:]

    # The server's tools join a registry, as in the app.
    registry = Toolbench.ToolRegistry.new()
    client = Toolbench.McpClient.new_stdio('server', command, None, None)
    client.attach(registry)
    box = {}
    client.connect_async(None, lambda source, result: box.setdefault(
        'connected', source.connect_finish(result)))
    try:
        wait_for(box, 'connected')
    except GLib.Error as error:
        print('The server did not start: %s' % error.message, file=sys.stderr)
        return 1
    print('Connected to %s (protocol %s)' % (' '.join(command), client.get_protocol_version()))

    # A model that calls the tool once, then answers.
    script = {'format': 'toolbench-script', 'version': 1, 'responses': [
        {'tool_calls': [{'id': 'call_1', 'name': tool, 'arguments': json.loads(arguments)}]},
        {'text': 'Done.'}]}
    provider = Toolbench.ScriptedProvider.new_from_json(Json.from_string(json.dumps(script)))
    loop = Toolbench.DispatchLoop.new(registry, provider, 5)
    loop.set_approval_policy(Toolbench.ApprovalPolicy.APPROVE_ALL)
    recorder = Toolbench.TraceRecorder.new(loop.get_trace(), Gio.File.new_for_path(trace_path))
    loop.add_user_message('Call %s.' % tool)
    loop.run_async(None, lambda source, result: box.setdefault('ran', source.run_finish(result)))
    try:
        wait_for(box, 'ran')
    except GLib.Error as error:
        print('The run failed: %s' % error.message, file=sys.stderr)
        return 1
    recorder.close()
    trace = loop.get_trace()
    for i in range(trace.get_n_events()):
        event = trace.get_event(i)
        if event.get_event_type() == 'tool-result':
            payload = event.get_payload()
            print('%s answered: %s' % (tool, payload.get_string_member('content')))
    print('Saved %d events to %s' % (trace.get_n_events(), trace_path))

    # The same run again, offline: the recorded answers stand in for the
    # model and the server.
    client.disconnect()
    recorded, problems = Toolbench.Trace.load(Gio.File.new_for_path(trace_path), None)
    replay = Toolbench.Replay.new(recorded)
    replay.run_async(None, lambda source, result: box.setdefault(
        'replayed', source.run_finish(result)))
    report = wait_for(box, 'replayed')
    if report.get_first_divergence() >= 0:
        print('The replay diverged at step %d' % (report.get_first_divergence() + 1))
        return 1
    print('Replayed %d steps offline without a divergence' % report.get_n_steps())
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
