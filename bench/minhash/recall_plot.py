"""The plot of bench/results/minhash.md: for each corpus, recall against the number of edits
for every method (top row), and recall under the copies that are not edits (bottom row)."""
import re

CORPORA = (("zh", "Chinese, 300-600 characters"), ("zh_long", "Chinese, about 3,150 characters"),
           ("en", "English licenses, 500-1,000 characters"), ("en_long", "English licenses, 3,000-6,000 characters"),
           ("en_python", "Python docs, 500-1,000 characters"), ("en_python_long", "Python docs, 3,000-6,000 characters"))
EDITS = re.compile(r"^(\d+) (word )?edits?$")


def plot(quality, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, len(CORPORA), figsize=(4.3 * len(CORPORA), 7.5), sharey=True)
    for column, (corpus, title) in enumerate(CORPORA):
        methods = quality[corpus]["methods"]
        kinds = list(quality[corpus]["copies"])
        edit_kinds = [k for k in kinds if EDITS.match(k)]
        other_kinds = [k for k in kinds if not EDITS.match(k)]
        edits = [int(EDITS.match(k).group(1)) for k in edit_kinds]
        top, bottom = axes[0][column], axes[1][column]
        width = 0.8 / len(methods)
        for n, (name, m) in enumerate(methods.items()):
            top.plot(edits, [m["recall"][k] for k in edit_kinds], marker="o", label=name)
            bottom.bar([i + n * width for i in range(len(other_kinds))], [m["recall"][k] for k in other_kinds],
                       width, label=name)
        top.set_xscale("log")
        top.set_xticks(edits, [str(e) for e in edits])
        top.set_xlabel("edits (characters)" if corpus.startswith("zh") else "edits (words)")
        top.set_title(title)
        bottom.set_xticks([i + width * (len(methods) - 1) / 2 for i in range(len(other_kinds))], other_kinds,
                          fontsize=8)
        for ax in (top, bottom):
            ax.grid(True, axis="y", alpha=0.3)
    axes[0][0].set_ylabel("recall of edited copies")
    axes[1][0].set_ylabel("recall of other copies")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    fig.savefig(path, dpi=90)
