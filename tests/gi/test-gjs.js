// SPDX-License-Identifier: GPL-3.0-or-later
//
// A tool written in GJS: registered, validated, called, failing, and
// offered to a model in a scripted loop. Prints TAP.

imports.gi.versions.Toolbench = '1';
imports.gi.versions.Json = '1.0';
const {Gio, GLib, GObject, Json, Toolbench} = imports.gi;
const System = imports.system;

const PARAMETERS = '{"type": "object", "properties": {"text": {"type": "string"}}, ' +
    '"required": ["text"], "additionalProperties": false}';

// GJS 1.74 cannot override a vfunc that takes a callback (invoke_async):
// a GJS tool is a function given to Tool.new_simple(), which the registry
// runs with validation like any tool. A thrown exception becomes a failure.
function shout(tool, args) {
    const text = args.get_string_member('text');
    if (text === 'throw')
        throw new GLib.Error(Gio.IOErrorEnum, Gio.IOErrorEnum.FAILED,
            'the GJS tool refused “throw”');
    const node = new Json.Node();
    node.init_string(`${text.toUpperCase()}!`);
    return node;
}

function wait(condition) {
    const context = GLib.MainContext.default();
    const deadline = GLib.get_monotonic_time() + 30 * 1000000;
    while (!condition()) {
        if (GLib.get_monotonic_time() > deadline)
            throw new Error('timed out');
        context.iteration(true);
    }
}

function call(registry, name, args, cancellable = null) {
    let result = null;
    registry.call_async(name, null, Json.from_string(args), null, cancellable,
        (source, res) => {
            result = source.call_finish(res);
        });
    wait(() => result !== null);
    return result;
}

function assert(condition, message) {
    if (!condition)
        throw new Error(message);
}

function shoutRegistry() {
    const registry = Toolbench.ToolRegistry.new();
    registry.register(Toolbench.Tool.new_simple('js.shout', 'Shouts a text.',
        Json.from_string(PARAMETERS), Toolbench.ToolSimpleFlags.NONE, shout));
    return registry;
}

const tests = [
    function tool() {
        const registry = shoutRegistry();
        let result = call(registry, 'js.shout', '{"text": "hey"}');
        assert(result.get_ok(), result.get_error());
        assert(Json.to_string(result.get_output(), false) === '"HEY!"', 'the output');
        result = call(registry, 'js.shout', '{"text": 3}');
        assert(!result.get_ok(), 'validated');
        assert(result.get_error().includes('must be of type string'), result.get_error());
    },
    function failure() {
        const registry = shoutRegistry();
        const result = call(registry, 'js.shout', '{"text": "throw"}');
        assert(!result.get_ok(), 'a failure');
        assert(result.get_error() === 'the GJS tool refused “throw”', result.get_error());
    },
    function loop() {
        const registry = shoutRegistry();
        const script = Json.from_string('{"format": "toolbench-script", "version": 1, "responses": [' +
            '{"tool_calls": [{"id": "c1", "name": "js.shout", "arguments": {"text": "gjs"}}]},' +
            '{"text": "Done."}]}');
        const provider = Toolbench.ScriptedProvider.new_from_json(script);
        const dispatch = Toolbench.DispatchLoop.new(registry, provider, 5);
        dispatch.set_approval_policy(Toolbench.ApprovalPolicy.APPROVE_ALL);
        dispatch.add_user_message('Shout.');
        let ran = null;
        dispatch.run_async(null, (source, res) => {
            ran = source.run_finish(res);
        });
        wait(() => ran !== null);
        const trace = dispatch.get_trace();
        const contents = [];
        for (let i = 0; i < trace.get_n_events(); i++) {
            const event = trace.get_event(i);
            if (event.get_event_type() === 'tool-result')
                contents.push(event.get_payload().get_string_member('content'));
        }
        assert(contents.length === 1 && contents[0] === 'GJS!', JSON.stringify(contents));
    },
];

print(`1..${tests.length}`);
let failed = 0;
tests.forEach((test, index) => {
    try {
        test();
        print(`ok ${index + 1} ${test.name}`);
    } catch (error) {
        failed++;
        print(`not ok ${index + 1} ${test.name}`);
        print(`# ${error.message}`);
    }
});
System.exit(failed ? 1 : 0);
