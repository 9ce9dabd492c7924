#!/usr/bin/env python3
"""Per-level BFS plot for bench/results: frontier sizes and level times of
`portaflow bfs --stats --json` runs (graph_levels_GRAPH_ENGINE.json, as
bench/graph_anchors.sh keeps them), one column per graph, engines overlaid,
pull (bottom-up) levels marked.

    python3 bench/graph_plot.py OUT.png graph_levels_kron_22_cuda.json ...
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def label_of(path):
    """("kron_22", "cuda") from graph_levels_kron_22_cuda.json."""
    stem = os.path.basename(path)[len("graph_levels_"):-len(".json")]
    graph, _, engine = stem.rpartition("_")
    return graph, engine


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    runs = {}
    for path in sys.argv[2:]:
        graph, engine = label_of(path)
        with open(path) as f:
            runs.setdefault(graph, {})[engine] = json.load(f)["levels"]
    graphs = sorted(runs)
    fig, axes = plt.subplots(2, len(graphs), figsize=(5 * len(graphs), 7), squeeze=False)
    for col, graph in enumerate(graphs):
        top, bottom = axes[0][col], axes[1][col]
        for engine, levels in sorted(runs[graph].items()):
            x = [lv["level"] for lv in levels]
            line, = top.plot(x, [lv["vertices"] for lv in levels], marker=".", label=engine)
            bottom.plot(x, [lv["seconds"] * 1e3 for lv in levels], marker=".", label=engine,
                        color=line.get_color())
            pulls = [lv["level"] for lv in levels if lv["direction"] == "pull"]
            top.scatter(pulls, [lv["vertices"] for lv in levels if lv["direction"] == "pull"],
                        marker="s", facecolors="none", edgecolors=line.get_color())
        top.set_yscale("log")
        top.set_title(f"{graph}: frontier per level (squares: pull)")
        top.set_ylabel("vertices in the new frontier")
        bottom.set_yscale("log")
        bottom.set_ylabel("level time, ms")
        bottom.set_xlabel("level")
        top.legend()
    fig.tight_layout()
    fig.savefig(sys.argv[1], dpi=120)


if __name__ == "__main__":
    main()
