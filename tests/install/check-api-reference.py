#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Fails when a public symbol of libtoolbench has no documentation: what
# `gi-docgen check` reports (functions, their parameters and return values,
# classes, properties, signals, enums and their members, callbacks, error
# domains), and the fields of public structures and the virtual functions of
# classes and interfaces, which gi-docgen does not look at.
#
# check-api-reference.py GI_DOCGEN GIR_FILE
# GIR_FILE is empty when the build has no introspection: the test is skipped.

import re
import subprocess
import sys
import xml.etree.ElementTree as ET

CORE = '{http://www.gtk.org/introspection/core/1.0}'
GLIB = '{http://www.gtk.org/introspection/glib/1.0}'
SKIP = 77


def gi_docgen_missing(gi_docgen, gir):
    result = subprocess.run([gi_docgen, 'check', gir],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, check=False)
    plain = re.sub(r'\x1b\[[0-9;]*m', '', result.stdout)
    missing = [line.split(':', 1)[1].strip() for line in plain.splitlines()
               if line.startswith('WARNING:') and 'documented' in line]
    errors = [line for line in plain.splitlines()
              if line.startswith(('ERROR:', 'CRITICAL:', 'Traceback'))]
    # Some versions of gi-docgen exit 0 whatever they find: the warnings
    # are what counts. A failure without warnings is a failure to check.
    if result.returncode != 0 and not missing:
        errors.append(f'gi-docgen check ended with status {result.returncode}:\n{plain}')
    return missing, errors


def fields_and_vfuncs_missing(gir):
    missing = []
    root = ET.parse(gir).getroot()
    namespace = root.find(CORE + 'namespace').get('name')
    for record in root.iter(CORE + 'record'):
        if record.get('disguised') == '1' or record.get('opaque') == 'true':
            continue
        for field in record.findall(CORE + 'field'):
            name = field.get('name')
            if field.get('private') == '1' or name.startswith('_') or \
               name in ('parent_class', 'parent_iface', 'parent_instance', 'padding'):
                continue
            # A function pointer of a class or interface structure is a
            # virtual function: its documentation is the vfunc's, below.
            if field.find(CORE + 'callback') is not None:
                continue
            if field.find(CORE + 'doc') is None:
                missing.append(f"Field '{namespace}.{record.get('name')}.{name}' is not documented")
    for kind in ('class', 'interface'):
        for klass in root.iter(CORE + kind):
            for vfunc in klass.findall(CORE + 'virtual-method'):
                if vfunc.find(CORE + 'doc') is None:
                    missing.append(f"Virtual function '{namespace}.{klass.get('name')}.{vfunc.get('name')}' "
                                   'is not documented')
    return missing


def main():
    if len(sys.argv) != 3:
        print('usage: check-api-reference.py GI_DOCGEN GIR_FILE', file=sys.stderr)
        return 2
    gi_docgen, gir = sys.argv[1], sys.argv[2]
    if not gir:
        print('Skipped: this build makes no Toolbench-1.gir (introspection is disabled, '
              'as in sanitizer builds), so there is nothing to check.')
        return SKIP
    if not gi_docgen:
        print('gi-docgen is not installed, so the API reference cannot be checked. '
              'Install it with build-aux/setup.sh (Debian package gi-docgen).')
        return 1

    missing, errors = gi_docgen_missing(gi_docgen, gir)
    missing += fields_and_vfuncs_missing(gir)
    for line in errors:
        print(line)
    for line in missing:
        print(line)
    if errors or missing:
        print(f'{len(missing)} public symbols of libtoolbench have no documentation. '
              'Write a gtk-doc comment above each in its source file (docs/reference/overview.md '
              'says how the reference is made).')
        return 1
    print('Every public symbol of libtoolbench is documented.')
    return 0


if __name__ == '__main__':
    sys.exit(main())
