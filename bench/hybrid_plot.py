#!/usr/bin/env python3
"""Active vertices over time with the engine in use shaded (the picture of
He & Hong's Fig. 1), from a hybrid solve's PORTAFLOW_TRACE=1 stderr (the
"hybrid ... stretch" lines: seq's "host", the CPU backend's "team", the
GPU's "device") and, if given, its --json (the switches, drawn
as ticks). Writes SVG with no library needed (the GPU machine and the dev
VM have no matplotlib).
Usage: hybrid_plot.py TRACE.log [RUN.json] -o OUT.svg [--title TEXT]"""
import argparse
import json
import math
import re

STRETCH = re.compile(r"hybrid ([0-9.]+) s (host|team|device) stretch(?: \(going on\))?: (\d+) -> (\d+) active"
                     r".* in ([0-9.e+-]+) s")
READY = re.compile(r"hybrid device ready at ([0-9.]+) s")
COLOURS = {"host": "#cfe0f3", "team": "#d4ecd0", "device": "#f6d3a8"}


def read_trace(path):
    stretches, ready = [], None
    for line in open(path, errors="replace"):
        m = STRETCH.search(line)
        if m:
            end, engine = float(m.group(1)), m.group(2)
            took = float(m.group(5))
            stretches.append((max(end - took, 0.0), end, engine, int(m.group(3)), int(m.group(4))))
        m = READY.search(line)
        if m:
            ready = float(m.group(1))
    return stretches, ready


def svg(stretches, ready, switches, title):
    w, h, left, right, top, bottom = 900, 420, 70, 20, 40, 50
    t_max = max([s[1] for s in stretches] + [ready or 0]) or 1.0
    a_max = max([max(s[3], s[4]) for s in stretches] + [1])
    y_top = 10 ** math.ceil(math.log10(a_max + 1))

    def x(t):
        return left + (w - left - right) * t / t_max

    def y(active):  # log scale, 0 drawn at the axis
        frac = math.log10(active + 1) / math.log10(y_top + 1)
        return h - bottom - (h - top - bottom) * frac

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14">{title}</text>']
    for start, end, engine, _, _ in stretches:
        out.append(f'<rect x="{x(start):.1f}" y="{top}" width="{max(x(end) - x(start), 0.5):.1f}" '
                   f'height="{h - top - bottom}" fill="{COLOURS[engine]}"/>')
    points = []
    for start, end, _, before, after in stretches:
        points += [f"{x(start):.1f},{y(before):.1f}", f"{x(end):.1f},{y(after):.1f}"]
    out.append(f'<polyline fill="none" stroke="black" stroke-width="1.2" points="{" ".join(points)}"/>')
    for s in switches:
        out.append(f'<line x1="{x(s["time_s"]):.1f}" x2="{x(s["time_s"]):.1f}" y1="{top}" y2="{top + 8}" '
                   f'stroke="{"#c05000" if s["to"] == "device" else "#2060a0"}" stroke-width="2"/>')
    if ready is not None:
        out.append(f'<line x1="{x(ready):.1f}" x2="{x(ready):.1f}" y1="{top}" y2="{h - bottom}" '
                   'stroke="gray" stroke-dasharray="4,3"/>')
        out.append(f'<text x="{x(ready) + 4:.1f}" y="{top + 22}" fill="gray">device ready</text>')
    out.append(f'<line x1="{left}" x2="{w - right}" y1="{h - bottom}" y2="{h - bottom}" stroke="black"/>')
    out.append(f'<line x1="{left}" x2="{left}" y1="{top}" y2="{h - bottom}" stroke="black"/>')
    for k in range(0, int(math.log10(y_top)) + 1):
        v = 10 ** k
        out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:g}</text>')
    for i in range(6):
        t = t_max * i / 5
        out.append(f'<text x="{x(t):.1f}" y="{h - bottom + 16}" text-anchor="middle">{t:.3g}</text>')
    out.append(f'<text x="{w / 2}" y="{h - 12}" text-anchor="middle">seconds since the hybrid began'
               ' (shaded: blue seq, green the CPU team, orange the GPU)</text>')
    out.append(f'<text x="16" y="{h / 2}" transform="rotate(-90 16 {h / 2})" text-anchor="middle">'
               'active vertices (log)</text>')
    out.append("</svg>")
    return "\n".join(out)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("trace")
    p.add_argument("json", nargs="?")
    p.add_argument("-o", "--out", required=True)
    p.add_argument("--title", default="")
    a = p.parse_args()
    stretches, ready = read_trace(a.trace)
    if not stretches:
        raise SystemExit(f"{a.trace}: no hybrid stretch lines (was PORTAFLOW_TRACE=1 set, the hybrid on?)")
    switches = []
    if a.json:
        switches = json.load(open(a.json)).get("switches", [])
    open(a.out, "w").write(svg(stretches, ready, switches, a.title or a.trace))


if __name__ == "__main__":
    main()
