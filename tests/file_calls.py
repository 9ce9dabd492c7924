#!/usr/bin/env python3
"""Circles of calls between source files, read from the compiled objects.

File A uses file B when A's object references a symbol that B's object
defines (nm: an undefined symbol in A, a defined one in B). A circle is a
set of two or more files that all reach each other that way (a strongly
connected component), whether or not their headers include each other.

usage: file_calls.py --rooms SRC_DIR... --objects OBJECT|ARCHIVE|OBJ_DIR...
An OBJ_DIR stands for every *.o in it. Prints every circle; exits 1 when
one holds a file whose source lies in one of the rooms (the source folders
checked), else 0. Files outside the rooms (a backend's) are reported only.
"""
import os
import subprocess
import sys


def source_name(member):
    """cli.c for "cli.c.o" (an archive member) or "src_host_cli.c.o" (an
    object meson named after the source's path)."""
    name = os.path.basename(member)[:-len('.o')]
    for prefix in ('src_host_', 'src_common_', 'src_device_'):
        if name.startswith(prefix):
            name = name[len(prefix):]
    return name


def symbols(paths):
    """{object: (defined, undefined)} keyed by the source file's name."""
    table = {}
    for path in paths:
        out = subprocess.run(['nm', '-A', '--defined-only', path], capture_output=True,
                             text=True, check=True).stdout
        und = subprocess.run(['nm', '-A', '--undefined-only', path], capture_output=True,
                             text=True, check=True).stdout
        for text, slot in ((out, 0), (und, 1)):
            for line in text.splitlines():
                # "archive:member.o:ADDR T name" or "object.o:ADDR T name"
                # ("ADDR" is blank for undefined symbols).
                head, _, rest = line.partition(' ')
                fields = head.split(':')
                parts = rest.split()
                if len(fields) < 2 or len(parts) < 2:
                    continue
                obj = source_name(fields[-2])
                kind, name = parts[-2], parts[-1]
                entry = table.setdefault(obj, (set(), set()))
                if slot == 1:
                    entry[1].add(name)
                elif kind.isupper() and kind not in 'UW':
                    entry[0].add(name)
    return table


def circles(table):
    owner = {}
    for obj, (defined, _) in table.items():
        for name in defined:
            owner.setdefault(name, obj)
    edges = {obj: sorted({owner[n] for n in undefined if n in owner and owner[n] != obj})
             for obj, (_, undefined) in table.items()}
    # Tarjan's strongly connected components, iteratively.
    index, low, stack, on_stack, found, counter = {}, {}, [], set(), [], [0]
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter[0]
                counter[0] += 1
                stack.append(node)
                on_stack.add(node)
            if i < len(edges[node]):
                work.append((node, i + 1))
                nxt = edges[node][i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            for nxt in edges[node]:
                if nxt in on_stack:
                    low[node] = min(low[node], low[nxt])
            if low[node] == index[node]:
                part = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    part.append(top)
                    if top == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found, edges


def main(argv):
    rooms, paths, into = [], [], None
    for arg in argv:
        if arg in ('--rooms', '--objects'):
            into = rooms if arg == '--rooms' else paths
        elif into is None:
            sys.exit('usage: file_calls.py --rooms SRC_DIR... --objects OBJECTS...')
        elif into is paths and os.path.isdir(arg):
            paths.extend(sorted(os.path.join(arg, f) for f in os.listdir(arg) if f.endswith('.o')))
        else:
            into.append(arg)
    dirs = rooms
    checked = {f.rsplit('.', 1)[0] + '.c' for d in dirs for f in os.listdir(d)
               if f.endswith('.c')}
    found, edges = circles(symbols(paths))
    bad = 0
    for part in found:
        in_rooms = [f for f in part if f in checked]
        print(('CIRCLE' if in_rooms else 'circle (not checked)') + ': ' + ' '.join(part))
        for f in part:
            print('    %s -> %s' % (f, ' '.join(t for t in edges[f] if t in part)))
        bad |= bool(in_rooms)
    print('%d files, %d circles, %d in %s' % (len(edges), len(found),
                                              sum(1 for p in found if set(p) & checked),
                                              ' '.join(dirs) or 'no room'))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
