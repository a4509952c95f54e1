#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The engine from Python through GObject Introspection: schemas, a tool
# written in Python registered and called with validation, its failures,
# async calls with a callback, a scripted loop, its trace saved and
# replayed. Prints TAP.

import asyncio
import os
import re
import subprocess
import sys
import tempfile

import gi

gi.require_version('Toolbench', '1')
gi.require_version('Json', '1.0')
from gi.repository import Gio, GLib, GObject, Json, Toolbench  # noqa: E402

results = []


def test(function):
    results.append(function)
    return function


def wait(condition, seconds=30):
    context = GLib.MainContext.default()
    deadline = GLib.get_monotonic_time() + seconds * 1000000
    while not condition():
        if GLib.get_monotonic_time() > deadline:
            raise AssertionError('timed out')
        context.iteration(True)


def call(registry, name, arguments, cancellable=None):
    box = {}

    def done(source, result):
        box['result'] = source.call_finish(result)

    registry.call_async(name, None, Json.from_string(arguments) if arguments else None,
                        None, cancellable, done)
    wait(lambda: 'result' in box)
    return box['result']


def output_text(result):
    return Json.to_string(result.get_output(), False)


PARAMETERS = ('{"type": "object", "properties": {"text": {"type": "string", "maxLength": 20}},'
              ' "required": ["text"], "additionalProperties": false}')


def upper(tool, arguments, context, cancellable, user_data):
    text = arguments.get_string_member('text')
    if text == 'raise':
        raise ValueError('a Python tool refused “raise”')
    if text == 'wrong':
        return 42
    node = Json.Node.alloc()
    node.init_string(text.upper())
    return node


def python_registry():
    registry = Toolbench.ToolRegistry.new()
    tool = Toolbench.Tool.new_simple('py.upper', 'Upper-cases a text.',
                                     Json.from_string(PARAMETERS),
                                     Toolbench.ToolSimpleFlags.NONE, upper, None)
    assert registry.register(tool)
    return registry


@test
def schema_errors():
    schema = Toolbench.Schema.new(Json.from_string(PARAMETERS), Toolbench.SchemaDraft.AUTO)
    ok, errors = schema.validate(Json.from_string('{"text": 3, "more": true}'))
    assert not ok
    texts = [error.to_string() for error in errors]
    assert '/text: must be of type string, not integer' in texts, texts
    assert any('unexpected property “more”' in text for text in texts), texts
    ok, errors = schema.validate(Json.from_string('{"text": "fine"}'))
    assert ok and len(errors) == 0


@test
def python_tool():
    registry = python_registry()
    result = call(registry, 'py.upper', '{"text": "quiet"}')
    assert result.get_ok(), result.get_error()
    assert output_text(result) == '"QUIET"'
    # Validation happens before Python runs.
    result = call(registry, 'py.upper', '{"text": 7}')
    assert not result.get_ok()
    assert 'must be of type string' in result.get_error(), result.get_error()
    # The model is offered the tool as it was defined.
    definitions = Json.to_string(registry.to_definitions(Toolbench.DefinitionFormat.NATIVE), False)
    assert '"py.upper"' in definitions


@test
def python_tool_raises():
    registry = python_registry()
    result = call(registry, 'py.upper', '{"text": "raise"}')
    assert not result.get_ok()
    message = result.get_error()
    assert message == 'ValueError: a Python tool refused “raise”', message
    assert 'Traceback' not in message
    result = call(registry, 'py.upper', '{"text": "wrong"}')
    assert not result.get_ok()
    assert result.get_error() == 'The tool returned int, not a Json.Node', result.get_error()


class Shout(Toolbench.Tool):
    """A tool subclassed in Python: its invoke vfunc answers a moment later
    (or never, for "hang"), as a tool waiting on real work would."""

    def do_invoke_async(self, arguments, context, cancellable, callback, user_data):
        # PyGObject binds the caller's user_data to callback already.
        task = Gio.Task.new(self, cancellable, lambda source, result, data: callback(source, result),
                            None)
        text = arguments.get_object().get_string_member('text')
        if text == 'hang':
            self.hanging = task
            return

        def answer():
            node = Json.Node.alloc()
            node.init_string(text.upper() + '!')
            task.return_value(Toolbench.ToolResult.new_success(node))
            return GLib.SOURCE_REMOVE

        GLib.timeout_add(50, answer)

    def do_invoke_finish(self, result):
        return result.propagate_value().value


def shout_registry():
    registry = Toolbench.ToolRegistry.new()
    tool = GObject.new(Shout, name='py.shout', description='Shouts a text.',
                       parameters=Json.from_string(PARAMETERS))
    assert registry.register(tool)
    return registry, tool


@test
def python_subclass():
    registry, tool = shout_registry()
    result = call(registry, 'py.shout', '{"text": "hey"}')
    assert result.get_ok(), result.get_error()
    assert output_text(result) == '"HEY!"'
    # Validated before the vfunc runs.
    result = call(registry, 'py.shout', '{}')
    assert not result.get_ok()
    assert 'is missing required property “text”' in result.get_error(), result.get_error()


@test
def python_subclass_timeout_and_cancel():
    registry, tool = shout_registry()
    registry.set_default_timeout_ms(200)
    result = call(registry, 'py.shout', '{"text": "hang"}')
    assert not result.get_ok()
    assert result.get_error() == 'The tool “py.shout” did not finish within 200 ms and was stopped', \
        result.get_error()
    registry.set_default_timeout_ms(30000)
    cancellable = Gio.Cancellable()
    GLib.timeout_add(100, lambda: cancellable.cancel() or GLib.SOURCE_REMOVE)
    result = call(registry, 'py.shout', '{"text": "hang"}', cancellable)
    assert not result.get_ok()
    assert result.get_error() == 'The call of “py.shout” was cancelled', result.get_error()


@test
def python_subclass_unregistered_while_running():
    registry, tool = shout_registry()
    box = {}
    registry.call_async('py.shout', None, Json.from_string('{"text": "late"}'), None, None,
                        lambda source, result: box.setdefault('result', source.call_finish(result)))
    assert registry.unregister('py.shout')
    wait(lambda: 'result' in box)
    # The call that had started ends with its answer; the tool is gone after.
    assert box['result'].get_ok(), box['result'].get_error()
    assert registry.lookup('py.shout') is None


@test
def loop_trace_replay():
    script = Json.from_string(
        '{"format": "toolbench-script", "version": 1, "responses": ['
        ' {"tool_calls": [{"id": "c1", "name": "py.upper", "arguments": {"text": "loud"}},'
        '                 {"id": "c2", "name": "py.shout", "arguments": {"text": "hey"}}]},'
        ' {"text": "It says LOUD and HEY!."}]}')
    registry = python_registry()
    assert registry.register(GObject.new(Shout, name='py.shout', description='Shouts a text.',
                                         parameters=Json.from_string(PARAMETERS)))
    provider = Toolbench.ScriptedProvider.new_from_json(script)
    loop = Toolbench.DispatchLoop.new(registry, provider, 5)
    loop.set_approval_policy(Toolbench.ApprovalPolicy.APPROVE_ALL)
    directory = tempfile.mkdtemp(prefix='tb-gi-')
    path = os.path.join(directory, 'run.jsonl')
    recorder = Toolbench.TraceRecorder.new(loop.get_trace(), Gio.File.new_for_path(path))
    assert loop.add_user_message('Make it loud.')
    box = {}

    def ran(source, result):
        box['ok'] = source.run_finish(result)

    loop.run_async(None, ran)
    wait(lambda: 'ok' in box)
    assert box['ok']
    assert loop.get_state() == Toolbench.LoopState.FINISHED
    recorder.close()
    trace = loop.get_trace()
    contents = [trace.get_event(i).get_payload().get_string_member('content')
                for i in range(trace.get_n_events())
                if trace.get_event(i).get_event_type() == 'tool-result']
    assert contents == ['LOUD', 'HEY!'], contents

    recorded, problems = Toolbench.Trace.load(Gio.File.new_for_path(path), None)
    assert not problems, problems
    replay = Toolbench.Replay.new(recorded)
    replay.set_registry(registry)
    replayed = {}

    def replay_done(source, result):
        replayed['report'] = source.run_finish(result)

    replay.run_async(None, replay_done)
    wait(lambda: 'report' in replayed)
    report = replayed['report']
    assert report.get_first_divergence() == -1, Json.to_string(report.to_json(), True)
    os.remove(path)
    os.rmdir(directory)


@test
def older_typelib():
    # A typelib built from an older .gir than the library: a clear error.
    built = os.environ['GI_TYPELIB_PATH'].split(':')[0]
    with open(os.path.join(built, 'Toolbench-1.gir'), encoding='utf-8') as gir:
        text = gir.read()
    text = re.sub(r'(<constant name="MINOR_VERSION" value=")(\d+)"', r'\g<1>0"', text)
    text = re.sub(r'(<constant name="MAJOR_VERSION" value=")(\d+)"', r'\g<1>0"', text)
    text = re.sub(r'(<constant name="MICRO_VERSION" value=")(\d+)"', r'\g<1>0"', text)
    library = (Toolbench.get_major_version(), Toolbench.get_minor_version(),
               Toolbench.get_micro_version())
    if library == (0, 0, 0):
        return
    directory = tempfile.mkdtemp(prefix='tb-gi-old-')
    gir_path = os.path.join(directory, 'Toolbench-1.gir')
    with open(gir_path, 'w', encoding='utf-8') as gir:
        gir.write(text)
    subprocess.run(['g-ir-compiler', '--output', os.path.join(directory, 'Toolbench-1.typelib'),
                    gir_path], check=True)
    environment = dict(os.environ, GI_TYPELIB_PATH=directory)
    child = subprocess.run([sys.executable, '-c',
                            "import gi; gi.require_version('Toolbench', '1'); "
                            "from gi.repository import Toolbench"],
                           env=environment, capture_output=True, text=True, check=False)
    assert child.returncode != 0
    expected = ('ImportError: The Toolbench typelib (0.0.0) is older than the libtoolbench-1 it '
                'loads (%d.%d.%d); install both from the same build, or point GI_TYPELIB_PATH '
                'and LD_LIBRARY_PATH at one build' % library)
    assert expected in child.stderr, child.stderr
    for name in os.listdir(directory):
        os.remove(os.path.join(directory, name))
    os.rmdir(directory)


@test
def await_calls():
    """await on PyGObject 3.42: calls side by side, a failure, a module
    function's _async/_finish pair, a cancelled call's GCancellable."""
    registry, tool = shout_registry()
    assert registry.register(Toolbench.Tool.new_simple('py.upper', 'Upper-cases a text.',
                                                       Json.from_string(PARAMETERS),
                                                       Toolbench.ToolSimpleFlags.NONE,
                                                       upper, None))

    def arguments(text):
        return Json.from_string('{"text": "%s"}' % text)

    async def calls():
        first, second = await asyncio.gather(
            Toolbench.awaitable(registry, 'call_async', 'py.shout', None, arguments('a'), None),
            Toolbench.awaitable(registry, 'call_async', 'py.upper', None, arguments('b'), None))
        failed = await Toolbench.awaitable(registry, 'call_async', 'py.upper', None,
                                           arguments('raise'), None)
        directory = tempfile.mkdtemp(prefix='tb-gi-plugins-')
        plugins = await Toolbench.awaitable(Toolbench, 'plugins_load_async', registry,
                                            directory)
        os.rmdir(directory)
        # A call that never answers, given up by asyncio: its GCancellable
        # ends it in the registry.
        try:
            await asyncio.wait_for(
                Toolbench.awaitable(registry, 'call_async', 'py.shout', None, arguments('hang'),
                                    None), 0.2)
            timed_out = False
        except asyncio.TimeoutError:
            timed_out = True
        return first, second, failed, plugins, timed_out

    first, second, failed, plugins, timed_out = Toolbench.run(calls())
    assert output_text(first) == '"A!"', output_text(first)
    assert output_text(second) == '"B"', output_text(second)
    assert not failed.get_ok()
    assert failed.get_error() == 'ValueError: a Python tool refused “raise”', failed.get_error()
    assert plugins.get_n_items() == 0, plugins.get_n_items()
    assert timed_out
    # The registry hears of the cancel on the GLib main context: the tool's
    # task sees its cancellable cancelled.
    wait(lambda: tool.hanging.get_cancellable().is_cancelled(), 5)


@test
def await_needs_glib():
    """Outside Toolbench.run() nobody iterates GLib: a clear error, no hang."""
    registry = python_registry()

    async def call():
        return await Toolbench.awaitable(registry, 'call_async', 'py.upper', None,
                                         Json.from_string('{"text": "x"}'), None)

    try:
        asyncio.run(call())
        raise AssertionError('awaited without GLib')
    except RuntimeError as error:
        assert str(error) == ('Awaiting call_async needs the GLib main context running under '
                              'asyncio: run the coroutine with Toolbench.run()'), str(error)


def main():
    print('1..%d' % len(results))
    failed = 0
    for number, function in enumerate(results, 1):
        try:
            function()
            print('ok %d %s' % (number, function.__name__))
        except Exception as error:  # noqa: BLE001 - every failure is reported
            failed += 1
            print('not ok %d %s' % (number, function.__name__))
            for line in repr(error).splitlines():
                print('# ' + line)
    sys.stdout.flush()
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
